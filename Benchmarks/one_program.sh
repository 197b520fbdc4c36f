#!/usr/bin/env bash
# What one program (tock-web a link to tock) costs against two: for each
# package given, its installed size and, with `tock run` (mock backend, no
# display) and `tock-web serve` both running from it and the page and the
# status fetched once, each process's resident and proportional memory
# (/proc/PID/smaps_rollup: Rss counts the shared code in both processes,
# Pss shares it out between them). Three runs per package, side by side.
#
#   Benchmarks/one_program.sh NAME=PACKAGE.deb [NAME=PACKAGE.deb ...]   (make bench-one-program)
set -euo pipefail
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
printf 'display: {kind: none}\nbuzzer: {kind: none}\n' > "$work/config.yaml"
kb() { python3 "$(dirname "$0")/memory.py" "$1" "$2"; }
echo "| package | installed KiB | tock Rss / Pss kB | tock-web Rss / Pss kB | both, Pss kB |"
echo "|---|---:|---:|---:|---:|"
for spec in "$@"; do
    name=${spec%%=*} deb=${spec#*=}
    root=$work/$name
    dpkg-deb -x "$deb" "$root"
    installed=$(dpkg-deb -f "$deb" Installed-Size)
    for run in 1 2 3; do
        sock=$work/$name-$run.sock port=$((20000 + RANDOM % 20000))
        "$root/usr/bin/tock" run --backend mock --config "$work/config.yaml" --state "$work/$name-$run.json" --socket "$sock" > /dev/null 2>&1 &
        box=$!
        for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.05; done
        "$root/usr/bin/tock-web" serve --listen 127.0.0.1 --port "$port" --socket "$sock" --tokens "$work/$name-$run-tokens.json" > /dev/null 2>&1 &
        web=$!
        for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.05; done
        curl -s -o /dev/null "http://127.0.0.1:$port/api/status" || true
        sleep 0.5
        echo "| $name (run $run) | $installed | $(kb Rss $box) / $(kb Pss $box) | $(kb Rss $web) / $(kb Pss $web) | $(( $(kb Pss $box) + $(kb Pss $web) )) |"
        kill "$box" "$web"
        wait "$box" "$web" 2>/dev/null || true
    done
done
