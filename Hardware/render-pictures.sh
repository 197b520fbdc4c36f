#!/usr/bin/env bash
# Draws every display format listed in Hardware/pictures/formats.tsv with
# `tock render --svg`. Usage: render-pictures.sh TOCK OUTDIR
set -euo pipefail
tock=$1 out=$2
list=$(dirname "$0")/pictures/formats.tsv
mkdir -p "$out"
while IFS=$'\t' read -r file digits text; do
    [[ $file == \#* || -z $file ]] && continue
    text=${text#\"}; text=${text%\"}
    "$tock" render --svg --digits "$digits" -- "$text" > "$out/$file"
done < "$list"
