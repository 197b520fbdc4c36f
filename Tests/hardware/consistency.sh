#!/usr/bin/env bash
# The hardware guide agrees with the code:
#  - the default pins in deploy/config.yaml, the connection tables in
#    Hardware/README.md and the diagram sources (Hardware/diagrams/wiring.py)
#    name the same line and physical pin for every signal (Tests/hardware/pins.py);
#  - a pin changed in only one of those places is caught (on edited copies);
#  - every display picture in Hardware/pictures is byte-equal to a fresh
#    `tock render --svg`, every format drawn in README.md and docs/*.md has a
#    picture, and every picture and diagram is shown in Hardware/README.md.
# Usage: consistency.sh [--tock PATH]   (default .build/debug/tock)
# Needs bash, python3 (standard library) and a built tock; no network.
set -uo pipefail
cd "$(dirname "$0")/../.."
tock=.build/debug/tock
while [ $# -gt 0 ]; do
    case $1 in
        --tock) tock=$2; shift 2 ;;
        *) echo "usage: $0 [--tock PATH]" >&2; exit 2 ;;
    esac
done

passed=0 failed=0
pass() { passed=$((passed + 1)); echo "ok   $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. Pins agree.
while IFS= read -r line; do
    case $line in
        ok\ *) pass "${line#ok }" ;;
        FAIL\ *) fail "${line#FAIL }" ;;
    esac
done < <(python3 Tests/hardware/pins.py deploy/config.yaml Hardware/README.md Hardware/diagrams/wiring.py)

# 2. A pin moved in only one place is caught.
mutant() { # NAME FILE SED-EXPRESSION
    local name=$1 file=$2 expr=$3 dir=$tmp/mutant
    rm -rf "$dir"; mkdir -p "$dir"
    cp deploy/config.yaml Hardware/README.md Hardware/diagrams/wiring.py "$dir"/
    local target=$dir/$(basename "$file")
    sed -i "$expr" "$target"
    if cmp -s "$file" "$target"; then fail "mutant $name: the edit changed nothing"; return; fi
    if python3 Tests/hardware/pins.py "$dir/config.yaml" "$dir/README.md" "$dir/wiring.py" > "$dir/out"; then
        fail "mutant $name: not caught"
    else
        pass "mutant $name: caught ($(grep -m1 FAIL "$dir/out" | cut -c1-100))"
    fi
}
mutant "start moved in config.yaml only" deploy/config.yaml 's/^  start: GPIO17          # \[11\]/  start: GPIO4           # [7]/'
mutant "stop moved in README.md only" Hardware/README.md '0,/^| 13 | `GPIO27` |/s//| 7 | `GPIO4` |/'
mutant "clk moved in wiring.py only" Hardware/diagrams/wiring.py "s/'display.clk': ('GPIO5', 29)/'display.clk': ('GPIO12', 32)/"
mutant "physical pin wrong in README.md only" Hardware/README.md '0,/^| 12 | `GPIO18` |/s//| 32 | `GPIO18` |/'

# 3. Display pictures are what tock draws now.
list=Hardware/pictures/formats.tsv
if [ ! -x "$tock" ]; then
    fail "pictures: no tock binary at $tock (build it first)"
elif bash Hardware/render-pictures.sh "$tock" "$tmp/pictures"; then
    while IFS=$'\t' read -r file digits text; do
        [[ $file == \#* || -z $file ]] && continue
        if cmp -s "Hardware/pictures/$file" "$tmp/pictures/$file"; then
            pass "picture $file ($digits digits, $text) matches tock render --svg"
        else
            fail "picture $file ($digits digits, $text) differs from tock render --svg (make hardware-docs)"
        fi
    done < "$list"
else
    fail "pictures: tock render --svg failed"
fi

# 4. Every format README.md and docs/*.md draw has a picture; every picture and
#    diagram is shown.
while IFS= read -r hit; do
    doc=${hit%%:*} marker=${hit#*:}
    digits=$(sed -E 's/<!-- render ([0-9]) "(.*)" -->/\1/' <<< "$marker")
    text=$(sed -E 's/<!-- render ([0-9]) "(.*)" -->/\2/' <<< "$marker")
    if awk -F'\t' -v d="$digits" -v t="\"$text\"" '$2 == d && $3 == t { found = 1 } END { exit !found }' "$list"; then
        pass "$doc format $digits \"$text\" has a picture"
    else
        fail "$doc format $digits \"$text\" has no picture in $list"
    fi
done < <(grep -H -E '^<!-- render [0-9] ".*" -->$' README.md docs/*.md)
for f in $(awk -F'\t' '$1 !~ /^#/ && $1 != "" { print "pictures/" $1 }' "$list") $(cd Hardware && ls diagrams/*.svg 2>/dev/null); do
    if grep -q "($f)" Hardware/README.md; then pass "Hardware/README.md shows $f"; else fail "Hardware/README.md does not show $f"; fi
done
for d in Hardware/diagrams/*.py; do
    case $d in */wiring.py) continue ;; esac
    n=$(basename "$d" .py)
    if [ "$n" = displays ]; then
        for k in tm1637 ht16k33 max7219; do
            [ -f "Hardware/diagrams/display-$k.svg" ] && pass "diagram display-$k.svg rendered" || fail "diagram display-$k.svg missing (make hardware-docs)"
        done
    else
        [ -f "Hardware/diagrams/$n.svg" ] && pass "diagram $n.svg rendered" || fail "diagram $n.svg missing (make hardware-docs)"
    fi
done

echo "hardware: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
