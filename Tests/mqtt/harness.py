"""Helpers for the MQTT integration tests (Tests/mqtt/test_mqtt.py).

Everything here runs on this machine only: brokers listen on 127.0.0.1 (or
on the root side of a veth pair into a network namespace this harness made
itself), on ports picked by binding port 0, with their files in temporary
directories. Nothing talks to the system's own mosquitto service.

Needs (Debian 12): mosquitto, mosquitto-clients (mosquitto_passwd),
python3-paho-mqtt, openssl, iproute2 and iptables, and root for the network
namespace helper. Run with /usr/bin/python3 (Debian's paho-mqtt 1.6).

Every wait in here has a deadline and fails with a message naming what it
waited for.
"""

import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import namedtuple
from pathlib import Path

import paho.mqtt.client as paho

REPO = Path(__file__).resolve().parents[2]
TOCK = os.environ.get("TOCK_BIN") or str(REPO / ".build" / "debug" / "tock")

# Log files worth showing when a test fails: (label, path). The runner in
# test_mqtt.py prints their tails and clears the list before each test.
ARTIFACTS = []

# Every process started here, so that an interrupted run leaves none behind.
_PROCESSES = []


def mono_ns():
    """CLOCK_MONOTONIC in nanoseconds: the clock of tock's --timing-log."""
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def wait_until(cond, timeout, what, interval=0.05, detail=None):
    """Poll `cond()` until it returns something true and return that; after
    `timeout` seconds fail naming `what` (and `detail()` if given)."""
    deadline = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() >= deadline:
            message = f"timed out after {timeout:g} s waiting for {what}"
            if detail is not None:
                message += "\n" + detail()
            raise AssertionError(message)
        time.sleep(interval)


def free_port(host="127.0.0.1"):
    """A TCP port nobody listens on right now (bind port 0 and let go)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def port_open(host, port, timeout=0.5):
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def wait_port(host, port, timeout=10, what=None):
    wait_until(lambda: port_open(host, port), timeout, what or f"{host}:{port} to accept connections")


def run(cmd, check=True, **kw):
    """Run a short helper command; a failure names the command and its output."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if check and p.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} exited {p.returncode}:\n{p.stdout}")
    return p


def tail(path, lines=15):
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return "(no file)"
    return "\n".join(text.splitlines()[-lines:])


# The boxes and the bystander run 10 steps of niceness ahead of whatever
# else the machine runs (make test's other lanes compile and emulate beside
# this one): the frames and rings are checked to 100 ms, which measures
# tock, not the machine's share of CPU between its jobs. A stall that still
# comes reaches the bystander as well, and is excused as the machine's.
AHEAD = ["nice", "-n", "-10"] if os.geteuid() == 0 else []


def _spawn(cmd, log_path, **kw):
    """Start a process in its own session with stdout+stderr going to a file."""
    log = open(log_path, "ab")
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                         start_new_session=True, **kw)
    log.close()
    _PROCESSES.append(p)
    return p


def _end(p, sig=signal.SIGTERM, timeout=10):
    """Signal one process we started and reap it; SIGKILL if it lingers."""
    if p is None or p.poll() is not None:
        return None if p is None else p.returncode
    try:
        p.send_signal(sig)
        return p.wait(timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        return p.wait(5)


def kill_all():
    """Last resort at exit: kill whatever this module started and is still running."""
    for p in _PROCESSES:
        if p.poll() is None:
            p.kill()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                pass


# ---------------------------------------------------------------- the machine's stalls

BYSTANDER_CODE = r"""
import sys, time
step, stall = 10_000_000, 30_000_000
due = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
with open(sys.argv[1], "w") as out:
    while True:
        due += step
        now = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        if due > now:
            time.sleep((due - now) / 1e9)
            now = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        if now - due > stall:
            print(due, now, file=out, flush=True)
            due = now
"""


class Bystander:
    """A process of its own that only wakes every 10 ms on CLOCK_MONOTONIC
    and writes down every wake-up more than 30 ms late (due, woke): what
    the machine did to a process that had nothing to do. tock's frames are
    checked against their due times; a frame late beyond its tolerance is
    put down to the machine only when this bystander was held up at least
    as long over the same moment (on a shared machine every process stops
    now and then), and to tock otherwise."""

    def __init__(self, directory):
        self.path = os.path.join(directory, "bystander.log")
        self.proc = _spawn(AHEAD + [sys.executable, "-c", BYSTANDER_CODE, self.path], os.devnull)

    def stalls(self):
        """[(due_ns, woke_ns)] so far."""
        try:
            with open(self.path) as f:
                return [tuple(int(x) for x in line.split()) for line in f if len(line.split()) == 2]
        except FileNotFoundError:
            return []

    def excuse(self, due_ns, at_ns, beyond_ns):
        """The bystander stall that covers [due_ns, at_ns] and lasted at
        least beyond_ns, or None."""
        for d, w in self.stalls():
            if d < at_ns and w > due_ns and w - d >= beyond_ns:
                return (d, w)
        return None

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


BYSTANDER = None


# ---------------------------------------------------------------- certificates

class CertAuthority:
    """A throwaway certificate authority made with openssl (EC P-256, valid
    two days) that issues server and client certificates."""

    def __init__(self, directory, name="Tock Test CA"):
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.cert = self.dir / "ca.crt"
        self.key = self.dir / "ca.key"
        run(["openssl", "req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-days", "2", "-subj", f"/CN={name}", "-keyout", self.key, "-out", self.cert,
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])

    def issue(self, name, cn, ips=(), client=False):
        """A certificate for `cn` with the IP addresses `ips` as subjectAltName;
        returns (cert path, key path)."""
        crt, key, csr = self.dir / f"{name}.crt", self.dir / f"{name}.key", self.dir / f"{name}.csr"
        ext = self.dir / f"{name}.ext"
        lines = ["basicConstraints=CA:FALSE", "keyUsage=critical,digitalSignature,keyEncipherment",
                 f"extendedKeyUsage={'clientAuth' if client else 'serverAuth'}"]
        if ips:
            lines.append("subjectAltName=" + ",".join(f"IP:{ip}" for ip in ips))
        ext.write_text("\n".join(lines) + "\n")
        run(["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-subj", f"/CN={cn}", "-keyout", key, "-out", csr])
        run(["openssl", "x509", "-req", "-in", csr, "-CA", self.cert, "-CAkey", self.key, "-CAcreateserial",
             "-days", "2", "-extfile", ext, "-out", crt])
        return crt, key


# ---------------------------------------------------------------- broker

class Broker:
    """A mosquitto of our own: a config file in its own directory, a plain
    listener that refuses anonymous clients (logins from a password file made
    with mosquitto_passwd -b), and optionally a TLS listener with a
    throwaway CA and a server certificate for 127.0.0.1 (optionally
    requiring client certificates from the same CA).

    `hosts` are the addresses the plain listener binds (one listener per
    address, all on `port`): add the root-side veth address to serve a
    network namespace.
    """

    def __init__(self, workdir, users=None, tls=False, client_cert=False, hosts=("127.0.0.1",), port=None,
                 extra_conf=""):
        self.dir = Path(tempfile.mkdtemp(prefix="broker-", dir=workdir))
        self.host = hosts[0]
        self.hosts = list(hosts)
        self.port = port or free_port(self.host)
        self.users = dict(users if users is not None else {"tock": "secret"})
        self.username, self.password = next(iter(self.users.items()))
        self.log_path = self.dir / "mosquitto.log"
        self.conf = self.dir / "mosquitto.conf"
        self.process = None
        self.tls_port = None
        self.ca = None
        self.client_cert = None  # (cert, key) signed by self.ca when client_cert
        ARTIFACTS.append(("broker log", self.log_path))

        passwd = self.dir / "passwd"
        for i, (user, password) in enumerate(self.users.items()):
            run(["mosquitto_passwd", *(["-c"] if i == 0 else []), "-b", passwd, user, password])

        conf = [
            "# written by Tests/mqtt/harness.py",
            "per_listener_settings false",
            "allow_anonymous false",
            f"password_file {passwd}",
            "persistence false",
            # Unlimited queue: a test that floods tock must not lose messages
            # inside the broker (the default drops beyond 1000 queued).
            "max_queued_messages 0",
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_type information",
            "connection_messages true",
        ]
        if os.geteuid() == 0:
            # As root mosquitto would switch to the user "mosquitto", which
            # cannot read these files in a private temporary directory.
            conf.append("user root")
        for h in self.hosts:
            conf.append(f"listener {self.port} {h}")
        if tls:
            self.ca = CertAuthority(self.dir / "ca")
            server_crt, server_key = self.ca.issue("server", "127.0.0.1", ips=["127.0.0.1", *self.hosts[1:]])
            self.tls_port = free_port(self.host)
            conf += [f"listener {self.tls_port} 127.0.0.1",
                     f"cafile {self.ca.cert}", f"certfile {server_crt}", f"keyfile {server_key}"]
            if client_cert:
                conf.append("require_certificate true")
                self.client_cert = self.ca.issue("client", "tock-client", client=True)
        conf.append(extra_conf)
        self.conf.write_text("\n".join(conf) + "\n")

    @property
    def running(self):
        return self.process is not None and self.process.poll() is None

    def start(self, timeout=10):
        assert not self.running, "broker already running"
        with open(self.log_path, "a") as f:
            f.write(f"--- start at mono {mono_ns()}\n")
        self.process = _spawn(["mosquitto", "-c", str(self.conf)], self.log_path)
        ports = [(h, self.port) for h in self.hosts] + ([("127.0.0.1", self.tls_port)] if self.tls_port else [])
        for host, port in ports:
            wait_until(lambda: port_open(host, port) or self.process.poll() is not None, timeout,
                       f"mosquitto to listen on {host}:{port}")
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited {self.process.returncode}:\n{tail(self.log_path)}")
        return self

    def stop(self):
        """SIGTERM: a clean stop (the broker closes every connection)."""
        _end(self.process)

    def kill(self):
        """SIGKILL: the broker vanishes without a word (the kernel closes its sockets)."""
        _end(self.process, signal.SIGKILL)

    def restart(self, timeout=10):
        """Start again on the same port(s); retained messages are gone
        (persistence is off), as after a broker crash without a disk."""
        if self.running:
            self.stop()
        return self.start(timeout)

    def log(self):
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def close(self):
        self.stop()


# ---------------------------------------------------------------- subscriber

Msg = namedtuple("Msg", "topic payload retain mono")


def new_client(client_id):
    """A paho client with the 1.x callback signatures (paho 2 needs asking)."""
    if hasattr(paho, "CallbackAPIVersion"):
        return paho.Client(paho.CallbackAPIVersion.VERSION1, client_id=client_id, clean_session=True,
                           protocol=paho.MQTTv311)
    return paho.Client(client_id=client_id, clean_session=True, protocol=paho.MQTTv311)


class Subscriber:
    """A paho client that records every message it receives (topic, payload
    bytes, retained flag, arrival CLOCK_MONOTONIC ns) and can wait for a
    condition on them. It (re)subscribes on every connect, so it carries on
    after a broker restart."""

    def __init__(self, broker, topics=("#",), username=None, password=None, tls=None, port=None,
                 client_id=None, timeout=10):
        self.broker = broker
        self.topics = list(topics)
        self.lock = threading.Lock()
        self.msgs = []
        self.connects = 0
        self._subscribed = threading.Event()
        self._sub_mids = set()
        self.client = new_client(client_id or f"test-{os.getpid()}-{id(self):x}")
        self.client.username_pw_set(username or broker.username, password or broker.password)
        if tls is not None:
            # tls = dict(ca_certs=..., certfile=..., keyfile=...)
            self.client.tls_set(**tls)
        self.client.max_inflight_messages_set(1000)
        self.client.reconnect_delay_set(0.2, 1)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message
        # Always the loopback listener: the TLS server certificate names 127.0.0.1.
        self.client.connect("127.0.0.1", port or (broker.tls_port if tls is not None else broker.port), keepalive=30)
        self.client.loop_start()
        if not self._subscribed.wait(timeout):
            self.close()
            raise AssertionError(f"test subscriber did not connect and subscribe within {timeout} s "
                                 f"(broker log:\n{tail(broker.log_path)})")

    def _on_connect(self, client, userdata, flags, rc):
        if rc != 0:
            return
        self.connects += 1
        if self.topics:
            result, mid = client.subscribe([(t, 1) for t in self.topics])
            self._sub_mids.add(mid)
        else:
            self._subscribed.set()

    def _on_subscribe(self, client, userdata, mid, granted_qos):
        if mid in self._sub_mids:
            self._subscribed.set()

    def _on_message(self, client, userdata, msg):
        with self.lock:
            self.msgs.append(Msg(msg.topic, bytes(msg.payload), bool(msg.retain), mono_ns()))

    # -- reading what arrived

    def messages(self, topic=None, since=0):
        """Messages so far (on `topic` if given), from index `since` of the full list."""
        with self.lock:
            return [m for m in self.msgs[since:] if topic is None or m.topic == topic]

    def mark(self):
        """An index into the message list: `messages(since=mark)` is what came after."""
        with self.lock:
            return len(self.msgs)

    def last(self, topic):
        ms = self.messages(topic)
        return ms[-1] if ms else None

    def text(self, topic):
        m = self.last(topic)
        return None if m is None else m.payload.decode("utf-8", "replace")

    def texts(self, topic, since=0):
        return [m.payload.decode("utf-8", "replace") for m in self.messages(topic, since)]

    def summary(self, limit=40):
        ms = self.messages()[-limit:]
        return "last messages:\n" + "\n".join(
            f"  {m.topic} {'(retained) ' if m.retain else ''}{m.payload[:120]!r}" for m in ms)

    # -- waiting

    def wait(self, pred, timeout, what):
        return wait_until(lambda: pred(self), timeout, what, detail=self.summary)

    def wait_value(self, topic, value, timeout=10):
        """Wait until the latest message on `topic` is `value` (text)."""
        return self.wait(lambda s: s.text(topic) == value, timeout, f"{topic} = {value!r} (now {self.text(topic)!r})")

    def wait_topic(self, topic, timeout=10, since=0):
        return self.wait(lambda s: s.messages(topic, since), timeout, f"a message on {topic}")[-1]

    # -- sending

    def publish(self, topic, payload, qos=1, retain=False, timeout=10):
        info = self.client.publish(topic, payload, qos=qos, retain=retain)
        if qos > 0:
            info.wait_for_publish(timeout)
            if not info.is_published():
                raise AssertionError(f"publish to {topic} not acknowledged within {timeout} s")
        return info

    def request(self, prefix, request, timeout=5):
        """Send one request on P/cmd (a dict is sent as JSON, bytes as they
        are) and return the next reply on P/reply, parsed."""
        start = self.mark()
        payload = json.dumps(request) if isinstance(request, dict) else request
        self.publish(f"{prefix}/cmd", payload)
        m = self.wait(lambda s: s.messages(f"{prefix}/reply", start), timeout,
                      f"a reply on {prefix}/reply to {str(request)[:80]}")[0]
        return json.loads(m.payload)

    def close(self):
        try:
            self.client.disconnect()
        finally:
            self.client.loop_stop()


# ---------------------------------------------------------------- tock

def _yaml(value, indent=0):
    """Block YAML for the config file; scalars are written as JSON, which
    YAML reads unchanged (strings double-quoted)."""
    pad = "  " * indent
    out = []
    for k, v in value.items():
        if isinstance(v, dict):
            out.append(f"{pad}{k}:")
            out.append(_yaml(v, indent + 1))
        else:
            out.append(f"{pad}{k}: {json.dumps(v)}")
    return "\n".join(out)


def mqtt_section(broker, client_id, **over):
    """The `mqtt:` section for `broker` with its first login; `over` adds or
    replaces keys (value None removes one). `password` is written to a
    password_file by Member."""
    m = {"host": broker.host, "port": broker.port, "client_id": client_id,
         "username": broker.username, "password": broker.password}
    for k, v in over.items():
        if v is None:
            m.pop(k, None)
        else:
            m[k] = v
    return m


class Member:
    """One `tock run --backend mock` with its own config, control socket,
    timing log, state file and stderr log, in its own directory.

    `mqtt` is the mqtt: section as a dict (see mqtt_section); a "password"
    key is written to a password_file. `netns` runs tock inside that
    network namespace (`ip netns exec NS tock run ...`; the control socket is
    a path, so it is reachable from here all the same).
    """

    def __init__(self, workdir, name, mqtt=None, presets=("10s",), mode="timer", netns=None, tock=None, env=None):
        self.name = name
        self.env = env
        self.dir = Path(tempfile.mkdtemp(prefix=f"member-{name}-", dir=workdir))
        self.config = self.dir / "config.yaml"
        self.socket = self.dir / "control.sock"
        self.timing_log = self.dir / "timing.log"
        self.stderr_log = self.dir / "stderr.log"
        self.state_file = self.dir / "state.json"
        self.netns = netns
        self.tock = tock or TOCK
        self.process = None
        self.mqtt = dict(mqtt) if mqtt is not None else None
        self.presets = list(presets)
        self.mode = mode
        self.write_config()
        ARTIFACTS.append((f"tock {name} stderr", self.stderr_log))

    @property
    def prefix(self):
        """The topic prefix (P) this member uses."""
        return self.mqtt.get("topic_prefix") or f"tock/{self.mqtt['client_id']}"

    def write_config(self):
        body = {"mode": self.mode, "timer": {"presets": self.presets}}
        text = _yaml(body) + "\n"
        if self.mqtt is not None:
            m = dict(self.mqtt)
            if "password" in m:
                pw = self.dir / "mqtt-password"
                pw.write_text(m.pop("password") + "\n")
                pw.chmod(0o600)
                m["password_file"] = str(pw)
            text += "mqtt:\n" + _yaml(m, 1) + "\n"
        self.config.write_text(text)

    @property
    def running(self):
        return self.process is not None and self.process.poll() is None

    def start(self, timeout=15):
        assert not self.running, f"member {self.name} already running"
        with open(self.stderr_log, "a") as f:
            f.write(f"--- start at mono {mono_ns()}\n")
        cmd = [self.tock, "run", "--backend", "mock", "--config", str(self.config), "--socket", str(self.socket),
               "--timing-log", str(self.timing_log), "--state", str(self.state_file)]
        if self.netns:
            # `ip netns exec` enters the namespace and execs tock: same pid.
            cmd = ["ip", "netns", "exec", self.netns] + cmd
        self.process = _spawn(AHEAD + cmd, self.stderr_log, env=None if self.env is None else {**os.environ, **self.env})

        def answering():
            if self.process.poll() is not None:
                raise AssertionError(f"tock {self.name} exited {self.process.returncode} at start:\n"
                                     f"{tail(self.stderr_log)}")
            try:
                return self.request({"cmd": "status"}, timeout=2).get("ok")
            except OSError:
                return False
        wait_until(answering, timeout, f"tock {self.name} to answer on {self.socket}",
                   detail=lambda: tail(self.stderr_log))
        return self

    def request(self, req, timeout=5):
        """One request on the control socket: a JSON line out, a JSON line back."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(str(self.socket))
            s.sendall((json.dumps(req) + "\n").encode() if isinstance(req, dict) else req)
            buf = b""
            deadline = time.monotonic() + timeout
            while b"\n" not in buf:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no reply line from tock {self.name} within {timeout} s")
                chunk = s.recv(65536)
                if not chunk:
                    raise ConnectionError(f"tock {self.name} closed the control connection without a reply")
                buf += chunk
        return json.loads(buf.split(b"\n", 1)[0])

    def status(self):
        return self.request({"cmd": "status"})

    def describe(self):
        """What to show when a wait on this member fails: its status (or why
        there is none), whether it runs, and the end of its log."""
        try:
            st = self.status()
        except Exception as e:  # the description must not fail in its turn
            st = f"no status ({e!r}); {self.dir} holds {sorted(os.listdir(self.dir)) if self.dir.exists() else 'nothing'}"
        alive = "running" if self.running else f"exited {self.process and self.process.returncode}"
        return f"tock {self.name} ({alive}) status: {st}\n{tail(self.stderr_log)}"

    def link(self):
        return (self.status().get("mqtt") or {}).get("link")

    def wait_link(self, link="connected", timeout=15):
        return wait_until(lambda: self.link() == link, timeout, f"tock {self.name} mqtt.link = {link!r}",
                          detail=self.describe)

    def wait_state(self, state, timeout=10):
        return wait_until(lambda: self.status().get("state") == state, timeout, f"tock {self.name} state {state!r}",
                          detail=self.describe)

    def stop(self, timeout=10):
        """SIGTERM (tock stops cleanly) and wait; returns the exit status."""
        rc = _end(self.process, signal.SIGTERM, timeout)
        return rc

    def kill(self):
        return _end(self.process, signal.SIGKILL)

    def rss_kb(self):
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS line")

    def log(self):
        return self.stderr_log.read_text(errors="replace") if self.stderr_log.exists() else ""

    def log_lines(self, needle):
        return [l for l in self.log().splitlines() if needle in l]

    def timing(self):
        """The timing log as (kind, mono_ns, rest) tuples; a frame's rest is
        its text exactly (it may be blanks while the display blinks)."""
        out = []
        if not self.timing_log.exists():
            return out
        for line in self.timing_log.read_text().split("\n"):
            if not line:
                continue
            parts = line.split(" ", 2)
            kind = parts[0]
            if kind == "frame":
                out.append(("frame", int(parts[1]), parts[2] if len(parts) > 2 else ""))
            elif kind in ("ready", "buzzer"):
                out.append((kind, int(parts[1]), parts[2] if len(parts) > 2 else ""))
            elif kind == "wake":
                out.append(("wake", int(parts[2].split()[0]), parts[1]))
            else:
                out.append((kind, 0, line))
        return out

    def frames(self, after=0):
        """[(mono_ns, text)] of the frames written after mono `after`."""
        return [(t, text) for kind, t, text in self.timing() if kind == "frame" and t > after]

    def buzzer_on(self, after=0):
        return [t for kind, t, v in self.timing() if kind == "buzzer" and v == "on" and t > after]

    def close(self):
        self.stop()


# ---------------------------------------------------------------- slow proxy

class FakeClock:
    """A wall clock of its own for one member: fakeclock.c, preloaded,
    offsets the process's CLOCK_REALTIME by the int64 (nanoseconds) in a
    file that `set` rewrites while the member runs (CLOCK_MONOTONIC stays
    true). The library is built once per run with the C compiler."""

    _library = None

    def __init__(self, workdir, name):
        self.path = Path(workdir) / f"clock-{name}"
        self.set(0)

    @classmethod
    def library(cls, workdir):
        if cls._library is None or not Path(cls._library).exists():
            out = Path(workdir) / "fakeclock.so"
            run(["cc", "-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", str(out),
                 str(Path(__file__).resolve().parent / "fakeclock.c"), "-ldl"])
            cls._library = str(out)
        return cls._library

    def env(self, workdir):
        return {"LD_PRELOAD": self.library(workdir), "TOCK_FAKE_CLOCK_FILE": str(self.path)}

    def set(self, offset_ns):
        """The member's wall clock reads `offset_ns` ahead of the true one
        from now on (behind if negative): a step when it changes."""
        with open(self.path, "r+b" if self.path.exists() else "wb") as f:
            f.write(struct.pack("<q", int(offset_ns)))


def _loopback_listener():
    """A TCP listener on 127.0.0.1 on a free port, accept() timing out every
    0.2 s so that its thread can see a stop: (socket, port)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.2)
    return listener, listener.getsockname()[1]


class SlowProxy:
    """A TCP proxy on 127.0.0.1 to the broker that holds every chunk it
    forwards for `delay` seconds (each direction, chunks of at most
    `chunk` bytes): a link that works, but slowly. `delay` may be changed
    while it runs. `pause("up")` stops reading what the client sends (a
    broker that stalls: the client's socket fills), `resume("up")` reads
    on; `rcvbuf` makes the proxy's receive buffer that small (the kernel's
    least is about 2 KiB), so that a stall fills it within seconds."""

    def __init__(self, upstream_host, upstream_port, delay=0.5, chunk=256, rcvbuf=None):
        self.upstream = (upstream_host, upstream_port)
        self.delay = delay
        self.chunk = chunk
        self.forwarded = {"up": 0, "down": 0}
        self.connections = 0
        self._stop = threading.Event()
        self._paused = {"up": threading.Event(), "down": threading.Event()}
        self._socks = []
        self.listener, self.port = _loopback_listener()
        if rcvbuf is not None:
            # Set on the listener before any connection: accepted sockets
            # inherit it, and the window they offer follows from it.
            self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self):
        while not self._stop.is_set():
            try:
                down, _ = self.listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            self._serve(down)

    def _serve(self, down, first=b""):
        """Connect `down` to the broker (after sending it `first`) and pump."""
        try:
            up = socket.create_connection(self.upstream, timeout=5)
            up.sendall(first)
        except OSError:
            down.close()
            return
        self.connections += 1
        self._socks += [down, up]
        for src, dst, key in ((down, up, "up"), (up, down, "down")):
            threading.Thread(target=self._pump, args=(src, dst, key), daemon=True).start()

    def _pump(self, src, dst, key):
        src.settimeout(0.2)
        try:
            while not self._stop.is_set():
                if self._paused[key].is_set():
                    time.sleep(0.05)
                    continue
                try:
                    data = src.recv(self.chunk)
                except socket.timeout:
                    continue
                if not data:
                    break
                time.sleep(self.delay)
                dst.sendall(data)
                self.forwarded[key] += len(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def pause(self, key):
        self._paused[key].set()

    def resume(self, key):
        self._paused[key].clear()

    def close(self):
        self._stop.set()
        self.listener.close()
        for s in self._socks:
            try:
                s.close()
            except OSError:
                pass
        self._thread.join(2)


class Mqtt311OnlyProxy(SlowProxy):
    """A broker that speaks only MQTT 3.1.1, as older brokers do: a CONNECT
    of protocol level 5 gets the 3.1.1 refusal "unacceptable protocol
    version" (CONNACK return code 1) and a closed connection; any other is
    passed through to the real broker, without delay."""

    def __init__(self, upstream_host, upstream_port):
        self.refused_v5 = 0
        super().__init__(upstream_host, upstream_port, delay=0, chunk=65536)

    def _serve(self, down, first=b""):
        down.settimeout(5)
        try:
            head = down.recv(9)  # fixed header (2 bytes for a short CONNECT), "\0\4MQTT", level
        except OSError:
            down.close()
            return
        if len(head) >= 9 and head[0] == 0x10 and head[2:8] == b"\x00\x04MQTT" and head[8] == 5:
            self.refused_v5 += 1
            down.sendall(b"\x20\x02\x00\x01")
            down.close()
            return
        super()._serve(down, head)


class SilentListener:
    """A TCP listener on 127.0.0.1 that accepts every connection, reads
    whatever comes and never writes a byte: a port that is not an MQTT
    broker's, or a broker that hangs before it answers CONNECT."""

    def __init__(self):
        self.connections = 0
        self.received = 0
        self._stop = threading.Event()
        self._socks = []
        self.listener, self.port = _loopback_listener()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self):
        while not self._stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            self.connections += 1
            self._socks.append(conn)
            threading.Thread(target=self._swallow, args=(conn,), daemon=True).start()

    def _swallow(self, conn):
        conn.settimeout(0.2)
        while not self._stop.is_set():
            try:
                data = conn.recv(4096)
            except socket.timeout:
                continue
            except OSError:
                return
            if not data:
                return
            self.received += len(data)

    def close(self):
        self._stop.set()
        self.listener.close()
        for s in self._socks:
            try:
                s.close()
            except OSError:
                pass
        self._thread.join(2)


# ---------------------------------------------------------------- partition

class Partition:
    """A network namespace joined to this one by a veth pair: the root side
    has 10.77.N.1/24, the namespace side 10.77.N.2/24. tock runs inside
    (`Member(netns=partition.ns)`), the broker listens on `root_ip`.

    cut() stops all traffic between the two, heal() lets it through again.
    How: iptables DROP rules inside the namespace (OUTPUT to and INPUT from
    the root address). These rules are per namespace, so nothing outside
    is touched, and packets vanish silently (no RST, no ICMP): the TCP
    connection stays "established" and only the MQTT keepalive can notice,
    as with a pulled cable. On this kind of machine (Debian 12, iptables
    1.8.9 on nf_tables) iptables works inside a namespace; the sch_netem
    qdisc is absent from the kernel, so `tc ... netem loss 100%` would not.
    If iptables is unusable, netem is tried, and last `ip link set down` on
    the namespace side (which the kernel reports to tock as an unreachable
    network, so it is a harsher, different fault); `method` says which.
    """

    def __init__(self):
        taken = run(["ip", "-o", "addr", "show"]).stdout
        names = run(["ip", "netns", "list"]).stdout
        n = None
        for i in range(200):
            cand = (os.getpid() + i) % 200 + 20
            if f"10.77.{cand}." not in taken and f"tockmq{cand}" not in names:
                n = cand
                break
        if n is None:
            raise RuntimeError("no free 10.77.N.0/24 subnet for a test namespace")
        self.ns = f"tockmq{n}"
        self.root_if, self.ns_if = f"tmq{n}r", f"tmq{n}n"
        self.root_ip, self.ns_ip = f"10.77.{n}.1", f"10.77.{n}.2"
        self.method = None
        self.is_cut = False
        try:
            run(["ip", "netns", "add", self.ns])
            run(["ip", "link", "add", self.root_if, "type", "veth", "peer", "name", self.ns_if])
            run(["ip", "link", "set", self.ns_if, "netns", self.ns])
            run(["ip", "addr", "add", f"{self.root_ip}/24", "dev", self.root_if])
            run(["ip", "link", "set", self.root_if, "up"])
            self.exec(["ip", "addr", "add", f"{self.ns_ip}/24", "dev", self.ns_if])
            self.exec(["ip", "link", "set", self.ns_if, "up"])
            self.exec(["ip", "link", "set", "lo", "up"])
            self.method = self._pick_method()
        except Exception:
            self.close()
            raise

    def exec(self, cmd, check=True):
        return run(["ip", "netns", "exec", self.ns, *cmd], check=check)

    def _pick_method(self):
        if self.exec(["iptables", "-L", "-n"], check=False).returncode == 0:
            return "iptables"
        p = self.exec(["tc", "qdisc", "add", "dev", self.ns_if, "root", "netem", "loss", "0%"], check=False)
        if p.returncode == 0:
            self.exec(["tc", "qdisc", "del", "dev", self.ns_if, "root"])
            return "netem"
        return "link-down"

    def _rules(self, op):
        self.exec(["iptables", op, "OUTPUT", "-d", self.root_ip, "-j", "DROP"])
        self.exec(["iptables", op, "INPUT", "-s", self.root_ip, "-j", "DROP"])

    def cut(self):
        assert not self.is_cut
        if self.method == "iptables":
            self._rules("-I")
        elif self.method == "netem":
            self.exec(["tc", "qdisc", "add", "dev", self.ns_if, "root", "netem", "loss", "100%"])
        else:
            self.exec(["ip", "link", "set", self.ns_if, "down"])
        self.is_cut = True

    def heal(self):
        assert self.is_cut
        if self.method == "iptables":
            self._rules("-D")
        elif self.method == "netem":
            self.exec(["tc", "qdisc", "del", "dev", self.ns_if, "root"])
        else:
            self.exec(["ip", "link", "set", self.ns_if, "up"])
        self.is_cut = False

    def close(self):
        # Deleting the namespace deletes its end of the veth pair, and with
        # it the root end; the link delete is for a half-made setup.
        run(["ip", "netns", "del", self.ns], check=False)
        run(["ip", "link", "del", self.root_if], check=False)


def can_partition():
    """Whether this process may make network namespaces (root, iproute2)."""
    return os.geteuid() == 0 and shutil.which("ip") is not None
