"""A mock box (tock run --backend mock) and tock-web on loopback, for the
web tests: free ports, a temporary directory, both stopped at the end."""
import json
import os
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Box:
    def __init__(self, tock, tock_web):
        self.tock, self.tock_web = tock, tock_web
        # Under TOCK_WEB_TEST_DIR when given (make web-test empties it at the start of a run,
        # so the last run's logs stay for reading and earlier runs' do not pile up).
        parent = os.environ.get("TOCK_WEB_TEST_DIR")
        if parent and len(parent) > 60:  # the control socket's path must stay under 108 bytes
            parent = None
        if parent:
            os.makedirs(parent, exist_ok=True)
        self.dir = tempfile.mkdtemp(prefix="tock-web-test-", dir=parent or None)
        self.socket = os.path.join(self.dir, "control.sock")
        self.tokens = os.path.join(self.dir, "tokens.json")
        config = os.path.join(self.dir, "config.yaml")
        with open(config, "w") as f:
            f.write("timer: {presets: [2m, 10m]}\n"
                    "interval: {programs: [{name: tAbA, kind: tabata}, {name: E1, kind: emom, every: 1m, rounds: 10}]}\n")
        # The box's buttons: lines written to a named pipe (`--mock-input`),
        # read by the same debouncer as GPIO; pairing needs Start held.
        self.buttons = os.path.join(self.dir, "buttons")
        os.mkfifo(self.buttons)
        # The child holds the log open; the parent's copy is closed at once.
        with open(os.path.join(self.dir, "tock.log"), "w") as log:
            self.appliance = subprocess.Popen([tock, "run", "--backend", "mock", "--config", config, "--socket", self.socket,
                                               "--state", os.path.join(self.dir, "state.json"), "--mock-input", self.buttons],
                                              stdout=subprocess.DEVNULL, stderr=log)
        self.wait(lambda: os.path.exists(self.socket), "the control socket")
        self.port = free_port()
        self.web = None
        self.start_web()

    def start_web(self):
        with open(os.path.join(self.dir, "web.log"), "a") as log:
            self.web = subprocess.Popen([self.tock_web, "--listen", "127.0.0.1", "--port", str(self.port), "--socket", self.socket,
                                         "--tokens", self.tokens], stdout=subprocess.DEVNULL, stderr=log)
        self.wait(self.listening, "tock-web")

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def listening(self):
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
            return True
        except OSError:
            return False

    @staticmethod
    def wait(ok, what, seconds=20):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if ok():
                return
            time.sleep(0.05)
        raise AssertionError(f"{what} did not come up within {seconds} s")

    def cli(self, *args):
        return subprocess.run([self.tock, *args, "--socket", self.socket], check=True, capture_output=True, text=True).stdout

    def status(self):
        return json.loads(self.cli("status", "--json"))

    def wait_for_display(self, ok, seconds=3):
        """The box's display text once `ok` holds for it (polling the socket)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            d = self.status()["display"]
            if ok(d):
                return d
            time.sleep(0.02)
        raise AssertionError(f"the box's display did not change within {seconds} s")

    def http(self, method, path, body=None, headers=None):
        """(status, JSON reply) of one request to tock-web."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers or {})
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=5) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def press(self, button, hold):
        """`button` on the box pressed and held `hold` seconds, as a hand does."""
        fd = os.open(self.buttons, os.O_WRONLY)
        try:
            os.write(fd, f"{button} 1\n".encode())
            time.sleep(hold)
            os.write(fd, f"{button} 0\n".encode())
        finally:
            os.close(fd)

    def reveal_code(self):
        """The box shows HoLd; Start held on it until the code appears: the code, read off the display."""
        assert self.status()["display"] == "HoLd", self.status()["display"]
        self.press("start", 1.3)
        return self.wait_for_display(lambda d: d.isdigit(), seconds=3)

    def pair(self):
        """A token, paired the way a person does: asked for, Start held on
        the box, the code read off the display."""
        status, _ = self.http("POST", "/api/pair/request")
        assert status == 200, status
        code = self.reveal_code()
        status, reply = self.http("POST", "/api/pair", {"code": code, "name": "script"})
        assert status == 200, (status, reply)
        return self.token_list()[-1]["token"]

    def token_list(self):
        """tokens.json as tock-web last wrote it ([] before it has)."""
        if not os.path.exists(self.tokens):
            return []
        with open(self.tokens) as f:
            return json.load(f)

    def stop(self):
        for p in (self.web, self.appliance):
            if p and p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    p.kill()
