#!/usr/bin/env bash
# What the compiler finds when a mode is added: a throwaway case `probe` in
# `Settings.Mode`, in a scratch copy of the tree at HEAD, then every
# product and test built; prints each place the build refuses (file:line),
# and the count of places and files. docs/architecture.md ("A new mode")
# quotes it. `make mode-probe`; it builds from scratch (minutes).
# With --fix, each refusal that is a switch over the modes gets `.probe`
# beside `.timer` (a mode the count program runs), the build is run again
# until it passes, the files changed are listed (what a mode run by an
# existing program touches before its docs), and the tests are run with it.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
fix=${1:-}
work=$(mktemp -d /tmp/tock-mode-probe.XXXXXX)
trap 'git -C "$repo" worktree remove --force "$work/tree" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git -C "$repo" worktree add --detach "$work/tree" HEAD >/dev/null
cd "$work/tree"
sed -i 's/^\(        case timer, stopwatch, countdown, interval\)$/\1, probe/' Sources/TockCore/Settings.swift
grep -q 'interval, probe$' Sources/TockCore/Settings.swift || { echo "mode-probe: Settings.Mode's case list is not where this script looks" >&2; exit 2; }
errors() { swift build --build-tests 2>&1 | grep -E '^/.*: error:' | sed "s|^$work/tree/||" | sort -u || true; }
found=$(errors)
echo "$found"
places=$(printf '%s\n' "$found" | grep -c . || true)
files=$(printf '%s\n' "$found" | cut -d: -f1 | sort -u | grep -c . || true)
echo "mode-probe: the compiler finds $places place(s) in $files file(s)"
[ "$fix" = --fix ] || exit 0
for round in 1 2 3 4 5; do
    [ -n "$found" ] || break
    printf '%s\n' "$found" | while IFS=: read -r file line _; do
        # The switch's case list that names .timer: add .probe to it.
        awk -v from="$line" 'NR >= from && !done && /case \.timer/ { sub(/case \.timer/, "case .timer, .probe"); done = 1 } { print }' "$file" > "$file.new"
        mv "$file.new" "$file"
    done
    found=$(errors)
done
[ -z "$found" ] || { echo "$found"; echo "mode-probe: still refused after five rounds" >&2; exit 1; }
echo "mode-probe: builds with the mode; files changed:"
git diff --stat | sed 's/^/  /'
# And the tests with it: every edge lists it, the formats carry it.
if swift test --skip-build > "$work/test.log" 2>&1; then
    echo "mode-probe: $(grep -E 'Test run with' "$work/test.log" | tail -1)"
else
    grep -E '^✘|error' "$work/test.log" | head -20
    echo "mode-probe: the tests fail with the mode" >&2
    exit 1
fi
