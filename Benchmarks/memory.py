"""Resident memory of a process, read one way for every benchmark.

    status(pid)     every kB field of /proc/PID/status (proc(5)): VmRSS,
                    VmHWM (the peak), RssAnon, RssFile, ...
    rollup(pid)     every kB field of /proc/PID/smaps_rollup: Rss, and Pss,
                    which shares the pages two processes map (one program
                    run as tock and tock-web) out between them

From a shell: `python3 Benchmarks/memory.py FIELD PID` prints one field
(from status, or from smaps_rollup for Rss and Pss).
"""


def _fields(path):
    out = {}
    with open(path) as f:
        for line in f:
            key, _, rest = line.partition(":")
            parts = rest.split()
            if len(parts) == 2 and parts[1] == "kB":
                out[key] = int(parts[0])
    return out


def status(pid):
    return _fields(f"/proc/{pid}/status")


def rollup(pid):
    return _fields(f"/proc/{pid}/smaps_rollup")


if __name__ == "__main__":
    import sys
    if len(sys.argv) != 3:
        raise SystemExit("usage: memory.py FIELD PID")
    field, pid = sys.argv[1], sys.argv[2]
    print((rollup(pid) if field in ("Rss", "Pss") else status(pid))[field])
