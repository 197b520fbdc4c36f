#!/usr/bin/env python3
"""How much of a build deploy/order/tock.order still places.

    deploy/order/check-order.py TOCK [ORDER]   (make order-check)

The order names the functions the box runs (make-order.py); code changed
since renames some and adds others, which the linker then leaves where
they fall. Prints the share of the order's names TOCK defines and of the
bytes they hold, and fails below 75 % of the names: then `make
order-file` makes the order again from this build.
"""
import os
import subprocess
import sys

LEAST = 0.75


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split("\n\n")[1])
    tock = sys.argv[1]
    order_path = sys.argv[2] if len(sys.argv) == 3 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "tock.order")
    order = [n for n in open(order_path).read().split("\n") if n]
    sizes = {}
    out = subprocess.run(["nm", "-S", "--defined-only", tock], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tTwW":
            sizes[p[3]] = int(p[1], 16)
    if not sizes:
        sys.exit(f"order-check: {tock} has no symbol table (check an unstripped build)")
    found = [n for n in order if n in sizes]
    share = len(found) / max(len(order), 1)
    print(f"order-check: {len(found)} of the order's {len(order)} functions are in {tock} ({share:.0%}), "
          f"{sum(sizes[n] for n in found):,} bytes of code placed together")
    if share < LEAST:
        sys.exit(f"order-check: under {LEAST:.0%}: make the order again from this build (make order-file)")


if __name__ == "__main__":
    main()
