#!/usr/bin/env bash
# A release build in SCRATCH with ARGS (swift build's), started afresh when
# ARGS changed since the last build there: SwiftPM does not compile again
# what a changed -Xswiftc flag would have compiled differently (a module
# built before -function-sections came in keeps one text section, and the
# link order cannot place its functions: deploy/order/).
#
#   deploy/release-build.sh SCRATCH ARGS...     (the Makefile's DEPLOY_BUILD)
set -euo pipefail
scratch=$1
shift
stamp=$scratch/release-build-args
if [ -d "$scratch" ] && [ "$(cat "$stamp" 2>/dev/null)" != "$*" ]; then
    echo "release-build: the build's arguments changed since $scratch was built: building it afresh"
    rm -rf "$scratch"
fi
"${SWIFT:-swift}" build --scratch-path "$scratch" "$@"
printf '%s' "$*" > "$stamp"
