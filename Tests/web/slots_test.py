"""Fair slots on a real network: tock-web in a network namespace of its
own, listening on `::`, and a home LAN in another, joined by a veth pair.
Every address lives only in these two namespaces, in the documentation
ranges (192.0.2.0/24, 2001:db8::/32): nothing leaves them.

- IPv4: one host with 8 addresses on the home's /24 keeps 20 requests
  begun and never finished open from each (more than any share), opening
  new ones as fast as they are cut; meanwhile the paired owner, on a
  ninth address of the /24, loads the page 84 times.
- IPv6: a stranger holding 40 addresses of the home's /64, 20 unfinished
  requests from each; the paired owner in the same /64 loads the page
  84 times, and an unpaired neighbour is told which share it broke.

Prints the owner's page loads that got the page; fails unless every one
did. Needs root (ip netns). Run by `make web-test`; alone:

    python3 slots_test.py TOCK TOCK_WEB [--before OLD_TOCK_WEB]

(`--before` runs the same against another tock-web first, for the figures.)
"""
import json
import os
import selectors
import socket
import subprocess
import sys
import threading
import time

from harness import Box

SERVER, LAN = f"tock-srv-{os.getpid()}", f"tock-lan-{os.getpid()}"
PORT = 8080
ATTACK_V4 = [f"192.0.2.{10 + i}" for i in range(8)]
OWNER_V4, NEIGHBOUR_V4 = "192.0.2.100", "192.0.2.101"
ATTACK_V6 = [f"2001:db8:1:2::a:{i + 1:x}" for i in range(40)]
OWNER_V6, NEIGHBOUR_V6 = "2001:db8:1:2::100", "2001:db8:1:2::101"
LOADS = 84


def ip(*args, netns=None):
    cmd = ["ip"] + (["-n", netns] if netns else []) + list(args)
    subprocess.run(cmd, check=True)


def make_lan():
    ip("netns", "add", SERVER)
    ip("netns", "add", LAN)
    ip("link", "add", "tockv0", "netns", SERVER, "type", "veth", "peer", "name", "tockv1", "netns", LAN)
    for ns, dev in ((SERVER, "tockv0"), (LAN, "tockv1")):
        ip("link", "set", "lo", "up", netns=ns)
        ip("link", "set", dev, "up", netns=ns)
    ip("addr", "add", "192.0.2.1/24", "dev", "tockv0", netns=SERVER)
    ip("-6", "addr", "add", "2001:db8:1:2::1/64", "dev", "tockv0", "nodad", netns=SERVER)
    for a in ATTACK_V4 + [OWNER_V4, NEIGHBOUR_V4]:
        ip("addr", "add", f"{a}/24", "dev", "tockv1", netns=LAN)
    for a in ATTACK_V6 + [OWNER_V6, NEIGHBOUR_V6]:
        ip("-6", "addr", "add", f"{a}/64", "dev", "tockv1", "nodad", netns=LAN)


def remove_lan():
    for ns in (SERVER, LAN):
        subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)


# --- inside the LAN namespace -------------------------------------------

def connect(source, target, timeout=2.0):
    family = socket.AF_INET6 if ":" in target else socket.AF_INET
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect((target, PORT))
    return s


def attacker(sources, target, stop):
    """20 requests begun and never finished from each source, each replaced as soon as it is cut."""
    sel = selectors.DefaultSelector()
    held = {a: 0 for a in sources}
    while not stop.is_set():
        for a in sources:
            while held[a] < 20 and not stop.is_set():
                try:
                    s = connect(a, target, timeout=0.5)
                    s.sendall(b"GET / HTTP/1.1\r\n")
                    s.setblocking(False)
                    sel.register(s, selectors.EVENT_READ, a)
                    held[a] += 1
                except OSError:
                    break
        for key, _ in sel.select(timeout=0.02):
            # Any reply, or the close: the slot is gone; open another.
            sel.unregister(key.fileobj)
            key.fileobj.close()
            held[key.data] -= 1
    for key in list(sel.get_map().values()):
        key.fileobj.close()


def load(source, target, cookie):
    """One page load: the status, or the error."""
    try:
        s = connect(source, target)
        head = f"GET / HTTP/1.1\r\nHost: tock\r\nConnection: close\r\n" + (f"Cookie: tock_token={cookie}\r\n" if cookie else "") + "\r\n"
        s.sendall(head.encode())
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        s.close()
        line = data.split(b"\r\n", 1)[0].decode()
        return int(line.split()[1]) if line else "closed", data
    except OSError as e:
        return type(e).__name__, b""


def attack(name, target):
    """The stranger's machine: its threads until stdin closes."""
    sources = ATTACK_V4 if name == "ipv4" else ATTACK_V6
    stop = threading.Event()
    threads = [threading.Thread(target=attacker, args=(sources[i::4], target, stop)) for i in range(4)]
    for t in threads:
        t.start()
    sys.stdin.read()
    stop.set()
    for t in threads:
        t.join()


def inside(token):
    results = {}
    for name, target, owner, neighbour in (("ipv4", "192.0.2.1", OWNER_V4, NEIGHBOUR_V4),
                                           ("ipv6", "2001:db8:1:2::1", OWNER_V6, NEIGHBOUR_V6)):
        # The stranger in a process of its own, as on a machine of its own:
        # its threads never hold the owner's interpreter between the
        # owner's connect and its request (which left the owner's
        # connection idle for a stranger's newcomer to close).
        stranger = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--attack", name, target], stdin=subprocess.PIPE)
        time.sleep(3)  # the attack holds what it can
        statuses = []
        for _ in range(LOADS):
            statuses.append(load(owner, target, token)[0])
            time.sleep(0.25)
        status, body = load(neighbour, target, None)
        stranger.stdin.close()
        stranger.wait(timeout=30)
        results[name] = {"owner_ok": statuses.count(200), "loads": LOADS,
                         "owner_other": sorted({str(s) for s in statuses if s != 200}),
                         "neighbour": status, "neighbour_says": body.split(b"\r\n\r\n", 1)[-1][:200].decode(errors="replace")}
        time.sleep(11)  # what was begun is cut (10 s) before the next run
    print(json.dumps(results))


# --- the test -------------------------------------------------------------

def measure(box, tock_web, token):
    # The box runs 10 steps of niceness ahead of the attack: on a LAN the
    # attackers' threads run on their own machines, not on the box's CPU,
    # and this machine may be busy with other work besides (make test's
    # lanes). What is tested is who gets a slot, not who gets the CPU.
    ahead = ["nice", "-n", "-10"] if os.geteuid() == 0 else []
    if ahead:
        os.setpriority(os.PRIO_PROCESS, box.appliance.pid, os.getpriority(os.PRIO_PROCESS, 0) - 10)
    with open(os.path.join(box.dir, "web-netns.log"), "a") as log:
        web = subprocess.Popen(ahead + ["ip", "netns", "exec", SERVER, tock_web, "--listen", "::", "--port", str(PORT),
                                        "--socket", box.socket, "--tokens", box.tokens], stdout=subprocess.DEVNULL, stderr=log)
    try:
        time.sleep(1)
        out = subprocess.run(["ip", "netns", "exec", LAN, sys.executable, os.path.abspath(__file__), "--inside", token],
                             check=True, capture_output=True, text=True, timeout=300).stdout
        return json.loads(out)
    finally:
        web.terminate()
        web.wait(timeout=5)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--inside":
        return inside(sys.argv[2])
    if len(sys.argv) >= 4 and sys.argv[1] == "--attack":
        return attack(sys.argv[2], sys.argv[3])
    tock, tock_web = sys.argv[1], sys.argv[2]
    before = sys.argv[sys.argv.index("--before") + 1] if "--before" in sys.argv else None
    box = Box(tock, tock_web)
    try:
        token = box.pair()
        box.web.terminate()  # the paired token stays in tokens.json for the tock-web in the namespace
        box.web.wait(timeout=5)
        remove_lan()
        make_lan()
        runs = [("before", before)] if before else []
        runs.append(("now", tock_web))
        failed = False
        for label, binary in runs:
            r = measure(box, binary, token)
            for net in ("ipv4", "ipv6"):
                x = r[net]
                print(f"{label} {net}: the owner got the page {x['owner_ok']} of {x['loads']} times"
                      f"{' (else ' + ', '.join(x['owner_other']) + ')' if x['owner_other'] else ''};"
                      f" an unpaired neighbour: {x['neighbour']} {x['neighbour_says']}")
                if label == "now" and x["owner_ok"] != x["loads"]:
                    failed = True
        if failed:
            sys.exit("FAIL: the paired owner was kept out")
        print("ok: the paired owner got every page under both attacks")
    finally:
        remove_lan()
        box.stop()


if __name__ == "__main__":
    main()
