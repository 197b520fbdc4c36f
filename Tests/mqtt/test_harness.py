"""Self-tests of the helpers in harness.py, without tock: the broker (logins,
TLS, client certificates, restart on the same port, kill -9), the
subscriber, the slow proxy and the network partition.

    /usr/bin/python3 Tests/mqtt/test_harness.py    (or: bash Tests/mqtt/run.sh --self-test)
"""

import shutil
import ssl
import tempfile
import threading
import time
import unittest

import harness as h


def connect_rc(port, username, password, tls=None, host="127.0.0.1", timeout=5):
    """The CONNACK code paho gets (0 = accepted), or the exception it raised."""
    result = {}
    c = h.new_client(f"probe-{time.monotonic_ns()}")
    c.username_pw_set(username, password)
    if tls:
        c.tls_set(**tls)
    c.on_connect = lambda client, u, f, rc: result.setdefault("rc", rc)
    # A TLS 1.3 server refuses a missing client certificate after the
    # handshake: paho then sees the connection drop instead of a CONNACK.
    c.on_disconnect = lambda client, u, rc: result.setdefault("rc", "dropped")
    try:
        c.connect(host, port, keepalive=10)
    except (OSError, ssl.SSLError) as e:
        return e
    c.loop_start()
    try:
        # ...or paho's network thread dies of the TLS alert (paho 1.6 lets
        # an SSLError out of its loop)
        h.wait_until(lambda: "rc" in result or not c._thread.is_alive(), timeout, "CONNACK")
    finally:
        c.disconnect()
        c.loop_stop()
    return result.get("rc", "dropped")


def quiet_ssl_errors(args):
    """Keep paho's dying network thread (see connect_rc) from printing a traceback."""
    if not issubclass(args.exc_type, ssl.SSLError):
        threading.__excepthook__(args)


threading.excepthook = quiet_ssl_errors


class HarnessTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="tock-mqtt-selftest-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def broker(self, **kw):
        b = h.Broker(self.tmp, **kw).start()
        self.addCleanup(b.close)
        return b

    def test_broker_login_and_retained(self):
        b = self.broker()
        self.assertEqual(connect_rc(b.port, "tock", "secret"), 0)
        self.assertEqual(connect_rc(b.port, "tock", "wrong"), 5)  # not authorised
        self.assertEqual(connect_rc(b.port, None, None), 5)  # anonymous refused
        sub = h.Subscriber(b, topics=["t/#"])
        self.addCleanup(sub.close)
        sub.publish("t/a", "1", retain=True)
        sub.wait_value("t/a", "1", 5)
        late = h.Subscriber(b, topics=["t/#"])
        self.addCleanup(late.close)
        m = late.wait_topic("t/a", 5)
        self.assertTrue(m.retain)
        self.assertIn("not authorised", b.log())

    def test_broker_kill_and_restart_same_port(self):
        b = self.broker()
        port = b.port
        sub = h.Subscriber(b, topics=["x"])
        self.addCleanup(sub.close)
        b.kill()
        self.assertFalse(h.port_open("127.0.0.1", port))
        b.restart()
        self.assertEqual(b.port, port)
        # the subscriber reconnects and subscribes again by itself
        h.wait_until(lambda: sub.connects >= 2, 10, "the subscriber to reconnect")
        time.sleep(0.3)
        other = h.Subscriber(b, topics=[])
        self.addCleanup(other.close)
        other.publish("x", "after")
        sub.wait_value("x", "after", 5)

    def test_tls_server_and_wrong_ca(self):
        b = self.broker(tls=True)
        self.assertEqual(connect_rc(b.tls_port, "tock", "secret", tls={"ca_certs": str(b.ca.cert)}), 0)
        other = h.CertAuthority(f"{self.tmp}/other-ca", "Other CA")
        err = connect_rc(b.tls_port, "tock", "secret", tls={"ca_certs": str(other.cert)})
        self.assertIsInstance(err, ssl.SSLError)
        self.assertIn("CERTIFICATE_VERIFY_FAILED", str(err))
        # the plain listener still works beside it
        self.assertEqual(connect_rc(b.port, "tock", "secret"), 0)

    def test_tls_client_certificate(self):
        b = self.broker(tls=True, client_cert=True)
        crt, key = b.client_cert
        ok = connect_rc(b.tls_port, "tock", "secret",
                        tls={"ca_certs": str(b.ca.cert), "certfile": str(crt), "keyfile": str(key)})
        self.assertEqual(ok, 0)
        # without a client certificate the handshake fails
        refused = connect_rc(b.tls_port, "tock", "secret", tls={"ca_certs": str(b.ca.cert)})
        self.assertNotEqual(refused, 0)
        self.assertRegex(b.log(), "(?i)certificate|ssl")

    def test_slow_proxy(self):
        b = self.broker()
        proxy = h.SlowProxy("127.0.0.1", b.port, delay=0.3)
        self.addCleanup(proxy.close)
        sub = h.Subscriber(b, topics=["p"])
        self.addCleanup(sub.close)
        t0 = time.monotonic()
        via = h.Subscriber(b, topics=[], port=proxy.port)
        connect_s = time.monotonic() - t0
        self.addCleanup(via.close)
        # CONNECT up and CONNACK down each wait 0.3 s in the proxy
        self.assertGreaterEqual(connect_s, 0.55)
        t0 = time.monotonic()
        via.publish("p", "slow")
        sub.wait_value("p", "slow", 5)
        self.assertGreaterEqual(time.monotonic() - t0, 0.3)
        self.assertGreater(proxy.forwarded["up"], 0)
        self.assertGreater(proxy.forwarded["down"], 0)
        print(f"\n  slow proxy: connect {connect_s * 1000:.0f} ms, publish {(time.monotonic() - t0) * 1000:.0f} ms")

    @unittest.skipUnless(h.can_partition(), "needs root and iproute2")
    def test_partition(self):
        p = h.Partition()
        self.addCleanup(p.close)
        print(f"\n  partition: {p.ns} {p.root_ip} <-> {p.ns_ip}, method {p.method}")
        b = self.broker(hosts=("127.0.0.1", p.root_ip))
        probe = ["/usr/bin/python3", "-c",
                 f"import socket; socket.create_connection(('{p.root_ip}', {b.port}), timeout=2); print('open')"]
        self.assertIn("open", p.exec(probe).stdout)
        p.cut()
        r = p.exec(probe, check=False)
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("timed out", r.stdout)  # dropped silently, not refused
        p.heal()
        self.assertIn("open", p.exec(probe).stdout)
        # a process inside sees only its namespace: loopback there has no broker
        r = p.exec(["/usr/bin/python3", "-c",
                    f"import socket; socket.create_connection(('127.0.0.1', {b.port}), timeout=2)"], check=False)
        self.assertNotEqual(r.returncode, 0)



class BystanderTest(unittest.TestCase):
    def test_a_stopped_bystander_is_seen_and_excuses_only_what_it_covers(self):
        """SIGSTOP stands in for a machine that stops every process: the
        bystander writes the stall down, and it excuses a lateness over the
        same moment up to its own length, not a longer one nor one at
        another moment."""
        import os, signal
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d, True)
        b = h.Bystander(d)
        self.addCleanup(b.close)
        time.sleep(0.3)
        t0 = h.mono_ns()
        os.kill(b.proc.pid, signal.SIGSTOP)
        time.sleep(0.4)
        os.kill(b.proc.pid, signal.SIGCONT)
        got = h.wait_until(b.stalls, 5, "the bystander to write down its stall")
        d0, w0 = got[-1]
        self.assertGreaterEqual(w0 - d0, 350_000_000, got)
        self.assertGreaterEqual(d0, t0 - 20_000_000, got)
        self.assertIsNotNone(b.excuse(t0 + 100_000_000, t0 + 300_000_000, 200_000_000))
        self.assertIsNone(b.excuse(t0 + 100_000_000, t0 + 300_000_000, 600_000_000), "longer than the stall")
        self.assertIsNone(b.excuse(w0 + 1_000_000_000, w0 + 1_200_000_000, 100_000_000), "at another moment")

if __name__ == "__main__":
    try:
        unittest.main(verbosity=2)
    finally:
        h.kill_all()
