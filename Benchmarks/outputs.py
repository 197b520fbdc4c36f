"""Where a benchmark's results go: its Markdown table in OUT/TABLE.md and
its figures in OUT/results.json, and the table on standard output."""
import json
import os


def write(out, table, data):
    print(table)
    if not out:
        return
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "TABLE.md"), "w") as f:
        f.write(table)
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(data, f, indent=1)
