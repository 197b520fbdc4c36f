"""Tock's state file as the box keeps it (Sources/TockLinux/SlotFile.swift):
two slots of 20,480 bytes, each a header line

    tock-state SSSSSSSSSSSSSSSS LLLLLLLL CCCCCCCC\\n<payload>

(sequence, payload length, CRC-32 of the header up to the CRC and of the
payload, hexadecimal), the newest whole slot being the state; or, written
by an earlier version, the JSON alone."""
import json
import zlib

SLOT = 20480
HEADER = 46
MAGIC = b"tock-state "


def payload(data):
    """The newest whole payload (bytes); ValueError when no slot is whole."""
    if not (data.startswith(MAGIC) or data[SLOT:].startswith(MAGIC)):
        return data
    best = None
    for index in (0, 1):
        s = data[index * SLOT:(index + 1) * SLOT]
        if len(s) < HEADER or not s.startswith(MAGIC) or s[27:28] != b" " or s[36:37] != b" " or s[45:46] != b"\n":
            continue
        try:
            seq, length, crc = int(s[11:27], 16), int(s[28:36], 16), int(s[37:45], 16)
        except ValueError:
            continue
        body = s[HEADER:HEADER + length]
        if len(body) != length or zlib.crc32(s[:37] + body) != crc or seq % 2 != index:
            continue
        if best is None or seq > best[0]:
            best = (seq, body)
    if best is None:
        raise ValueError("no whole slot in the state file")
    return best[1]


def read(vm, path="/var/lib/tock/state.json"):
    """The state file of a booted image (over its ssh), as JSON."""
    import base64
    return json.loads(payload(base64.b64decode(vm.ssh(f"base64 -w0 {path}"))))
