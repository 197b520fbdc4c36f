#!/usr/bin/env bash
# Bytes that reach the card for each state change, for each tock given,
# side by side in one run: tock keeps its state file on an ext4 file
# system made as the image makes its data partition (mkfs.ext4's defaults,
# 4 KiB blocks) on a loop device, mounted with the image's options (the
# data partition's line of deploy/image/rootfs/fstab.in, read from it), and
# the loop device's own count of sectors written (/sys/block/loopN/stat)
# is read before the first change and after the file system is unmounted
# (so the journal's later writes of each block to its home are counted
# too). A gym's use: Start and Stop, a change every CHANGE_SECONDS
# (default 5). The same run with no change (the same time mounted, tock
# running) is subtracted.
#
#   Benchmarks/card_writes.sh NAME=TOCK [NAME=TOCK ...]   (make bench-card)
#
# Needs root (losetup, mount). Prints one line per tock:
#   NAME: CHANGES changes, WRITES state writes, BYTES B reached the device
#         (BASE B with no change), PER B a change
set -euo pipefail
changes=${CHANGES:-24}
every=${CHANGE_SECONDS:-5}
here=$(cd "$(dirname "$0")" && pwd)
options=$(awk '$2 == "/data" { print $4 }' "$here/../deploy/image/rootfs/fstab.in" | sed 's/,nofail//')
[ -n "$options" ] || { echo "card_writes: no /data line in deploy/image/rootfs/fstab.in" >&2; exit 1; }
work=$(mktemp -d)
loop=
cleanup() {
    pkill -P $$ 2>/dev/null || true
    mountpoint -q "$work/mnt" 2>/dev/null && umount "$work/mnt"
    [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

sectors() { awk '{ print $7 }' "/sys/block/$(basename "$loop")/stat"; }

# run TOCK N: "changes writes bytes" with N changes
run() {
    local tock=$1 n=$2 before after pid i
    rm -f "$work/disk"
    truncate -s 256M "$work/disk"
    mkfs.ext4 -q -F "$work/disk"
    loop=$(losetup -f --show "$work/disk")
    mkdir -p "$work/mnt"
    mount -o "$options" "$loop" "$work/mnt"
    mkdir -p "$work/mnt/state"
    printf 'mode: timer\nswitch: down\ntimer: {presets: [600s]}\nalarm: {chirp: false}\ndisplay: {kind: none}\nbuzzer: {kind: none}\n' > "$work/config.yaml"
    "$tock" run --backend mock --config "$work/config.yaml" --state "$work/mnt/state/state.json" \
        --socket "$work/control.sock" 2> "$work/log" &
    pid=$!
    for _ in $(seq 100); do [ -S "$work/control.sock" ] && break; sleep 0.1; done
    # The first save makes the file: not a change counted here.
    "$tock" start --socket "$work/control.sock" > /dev/null
    sleep 1
    "$tock" stop --socket "$work/control.sock" > /dev/null
    sleep 1
    sync
    sleep 6   # the journal's commit interval and writeback settle
    before=$(sectors)
    for i in $(seq "$n"); do
        if [ $((i % 2)) = 1 ]; then "$tock" start --socket "$work/control.sock" > /dev/null
        else "$tock" stop --socket "$work/control.sock" > /dev/null; fi
        sleep "$every"
    done
    [ "$n" -gt 0 ] || sleep $((changes * every))
    kill -TERM "$pid"; wait "$pid" || true
    umount "$work/mnt"
    after=$(sectors)
    losetup -d "$loop"; loop=
    echo "$n $(( (after - before) * 512 ))"
}

echo "card_writes: ext4 (mkfs.ext4 defaults) on a loop device, mounted $options; a change every ${every} s"
for arg in "$@"; do
    name=${arg%%=*} tock=${arg#*=}
    read -r n bytes < <(run "$tock" "$changes")
    read -r _ base < <(run "$tock" 0)
    per=$(( (bytes - base) / n ))
    echo "$name: $n changes, $bytes B reached the device ($base B with no change): $per B ($(( per / 1024 )) KiB) a change"
done
