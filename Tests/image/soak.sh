#!/usr/bin/env bash
# The power-cut soak: IMAGE_SOAK_CUTS cuts (default 100) of the image's
# cuts phase, split over IMAGE_SOAK_LANES lanes (default 2) run side by side:
# each lane its own copy of the card, its own QEMU, its own seed and work
# directory (.cache/image/soak-N), so two free cores make 100 cuts in the
# time one made 50. Each lane's lines go to the terminal prefixed with its
# number and whole to its log; the end is a table of the lanes and one
# verdict: fails when a lane failed.
#
#   bash Tests/image/soak.sh      (make image-soak; the image built first)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cuts=${IMAGE_SOAK_CUTS:-100}
lanes=${IMAGE_SOAK_LANES:-2}
seed=${IMAGE_SOAK_SEED:-$(date +%s)}
[ "$lanes" -ge 1 ] && [ "$cuts" -ge "$lanes" ] || { echo "soak: $cuts cuts over $lanes lanes: give at least one cut a lane" >&2; exit 2; }
cache=$repo/.cache/image
echo "soak: $cuts cuts in $lanes lanes side by side, seeds $seed + lane"
pids=()
for ((n = 1; n <= lanes; n++)); do
    # The cuts shared out: the first lanes take one more when they do not divide.
    share=$((cuts / lanes + (n <= cuts % lanes ? 1 : 0)))
    log=$cache/soak-$n.log
    mkdir -p "$cache"
    (
        IMAGE_TEST_WORK=$cache/soak-$n IMAGE_TEST_CUTS=$share \
            bash "$here/image-test.sh" --phases cuts --seed $((seed + n)) 2>&1 | tee "$log" | sed -u "s/^/[lane $n] /"
        exit "${PIPESTATUS[0]}"
    ) &
    pids+=($!)
done
failed=0
declare -A rc
for ((n = 1; n <= lanes; n++)); do
    if wait "${pids[$((n - 1))]}"; then rc[$n]=0; else rc[$n]=$?; failed=$((failed + 1)); fi
done
echo
echo "| lane | seed | cuts made | checks passed | failed | fsck runs | READY after power-on |"
echo "|---|---:|---:|---:|---:|---|---|"
for ((n = 1; n <= lanes; n++)); do
    log=$cache/soak-$n.log
    made=$(sed -n 's/^FIGURE power cuts: //p' "$log" | tail -1)
    passed=$(grep -c '^PASS' "$log" || true)
    fails=$(grep -c '^FAIL' "$log" || true)
    fsck=$(sed -n 's/^FIGURE fsck runs: //p' "$log" | tail -1)
    ready=$(sed -n 's/^FIGURE power-on to tock READY, [^:]*: //p' "$log" | head -1)
    echo "| $n | $((seed + n)) | ${made:-?} | $passed | $fails (rc ${rc[$n]}) | ${fsck:-?} | ${ready:-?} |"
done
if [ "$failed" -gt 0 ]; then
    echo "soak: $failed of $lanes lanes failed (logs: $cache/soak-N.log)"
    exit 1
fi
echo "soak: all $lanes lanes passed, $cuts cuts"
