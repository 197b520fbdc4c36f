#!/usr/bin/env bash
# The GPIO tests on a real kernel (QEMU, gpio-sim): prepares the cache, runs
# the libgpiod probe built against v1 and v2, then every
# Tests/vm/scenarios/*.sh.
#
#   vm-test.sh [--tock PATH] [--only GLOB] [--no-probe]
#
#   --tock PATH   a tock binary for scenarios that declare "# vm-binary: tock";
#                 repeatable (NAME=PATH names the run, e.g. v1=... v2=...): each
#                 such scenario runs once per binary (default: $TOCK_BIN, else
#                 .build-vm/release/tock if it exists; without one those
#                 scenarios are skipped)
#   --only GLOB   run only the scenarios whose file name matches GLOB
#   --no-probe    skip the probe runs
#   --probes LIST the probe runs to make, of v1 and v2 (default: both on
#                 amd64; arm64 has v2 only)
#
# Results and console logs: .cache/vm/results/<name>/.
#
# VM_ARCH=arm64 runs the same on an arm64 guest (Tests/vm/arch.sh): the
# probe cross-built against Debian 13's libgpiod v2 (there is no v1 there),
# and the scenarios with the tock binaries given (arm64 ones, e.g. the
# arm64 package's); results in .cache/vm-arm64/results/.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=Tests/vm/arch.sh
. "$here/arch.sh"
cache=${VM_CACHE:-$vm_cache_default}
export VM_CACHE=$cache VM_ARCH=$vm_arch

tocks=() only='*' probe=1 probes='v1 v2'
[ -z "${TOCK_BIN:-}" ] || tocks+=("$TOCK_BIN")
while [ $# -gt 0 ]; do
  case $1 in
    --tock) tocks+=("${2:?--tock PATH}"); shift 2 ;;
    --only) only=${2:?--only GLOB}; shift 2 ;;
    --no-probe) probe=0; shift ;;
    --probes) probes=${2:?--probes LIST}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "vm-test: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [ ${#tocks[@]} -eq 0 ] && [ -x "$repo/.build-vm/release/tock" ]; then tocks=("$repo/.build-vm/release/tock"); fi

started=$(date +%s)
bash "$here/prepare.sh"
bash "$here/i2c-modules.sh"

results=$cache/results
build=$cache/build
mkdir -p "$results" "$build"
passed=() failed=() skipped=()

# ---------------------------------------------------------------- probes
g2=$cache/gpiod2
build_probes_arm64() {
  # shellcheck source=deploy/cross/lib.sh
  . "$repo/deploy/cross/lib.sh"
  echo "vm-test: building the probe for arm64 against Debian $TARGET_SUITE's libgpiod v2 (aarch64-linux-gnu-gcc-14)"
  local out; out=$(root_path "$build") || { echo "vm-test: $build is not under $repo" >&2; exit 1; }
  in_root aarch64-linux-gnu-gcc-14 --sysroot="$(root_path "$SYSROOT")" -O2 -Wall -Wextra -Werror \
    -o "$out/probe-v2" /src/Tests/vm/probe.c -lgpiod
  echo "vm-test: no probe-v1 on $vm_arch: Debian $TARGET_SUITE has only libgpiod v2"
}
build_probes() {
  echo "vm-test: building the probe against libgpiod v1 (system) and v2 ($(cat "$g2/version"))"
  # v1: the system's gpiod.h and libgpiod.so.2 (copied into the VM by ldd)
  gcc -O2 -Wall -Wextra -Werror -o "$build/probe-v1" "$here/probe.c" -lgpiod
  # v2: the fetched gpiod.h and static libgpiod.a (the directory has no .so)
  gcc -O2 -Wall -Wextra -Werror -I"$g2/include" -o "$build/probe-v2" "$here/probe.c" -L"$g2/lib" -lgpiod
  if ldd "$build/probe-v2" | grep -q libgpiod; then
    echo "vm-test: probe-v2 links a shared libgpiod; expected the static v2 library" >&2; exit 1
  fi
}
if [ "$vm_arch" = amd64 ]; then build_probes; else build_probes_arm64; fi

# run NAME BINARY SCRIPT [run-in-vm options...]; a scenario that passed in
# the VM is then judged on this machine by $check (its "# vm-check:"
# command, run in the repository with the run's files directory appended).
check=
run() {
  local name=$1 bin=$2 script=$3; shift 3
  echo "vm-test: $name"
  if ! bash "$here/run-in-vm.sh" --binary "$bin" --script "$script" --out "$results/$name" "$@"; then
    failed+=("$name")
  elif [ -n "$check" ] && ! (cd "$repo" && eval "$check" '"$results/$name/files"'); then
    echo "vm-test: FAIL $name: the host-side check ($check) failed" >&2
    echo "FAIL host-side check: $check" > "$results/$name/result.txt"
    failed+=("$name")
  else
    passed+=("$name")
  fi
}

if [ "$probe" = 1 ] && [ "$vm_arch" != amd64 ]; then
  run probe-v2 "$build/probe-v2" "$here/probe-scenario.sh" --timeout 60 --env EXPECT_API=v2
elif [ "$probe" = 1 ]; then
  for api in $probes; do
    case $api in
      v1|v2) run "probe-$api" "$build/probe-$api" "$here/probe-scenario.sh" --timeout 60 --env EXPECT_API=$api ;;
      *) echo "vm-test: --probes takes v1 and v2, not '$api'" >&2; exit 2 ;;
    esac
  done
fi

# ---------------------------------------------------------------- scenarios
# Header lines a scenario may carry (read by this script, not by the VM):
#   # vm-binary: tock | probe-v1 | probe-v2 | PATH (relative to the repo)
#   # vm-timeout: SECONDS            (default 120)
#   # vm-file: SRC:DEST              (SRC relative to the repo; repeatable)
#   # vm-env: NAME=VALUE             (repeatable)
#   # vm-check: COMMAND              (run on this machine after a pass, in the
#                                     repository, with the files directory appended)
#   # vm-arch: ARCH [ARCH ...]       (only on these guests; skipped, and said,
#                                     on the others)
header() { sed -n "s/^# $2:[[:space:]]*//p" "$1" | sed 's/[[:space:]]*$//'; }
shopt -s nullglob
for script in "$here"/scenarios/*.sh; do
  file=$(basename "$script")
  # shellcheck disable=SC2053
  [[ $file == $only ]] || continue
  name=${file%.sh}
  archs=$(header "$script" vm-arch | head -1)
  if [ -n "$archs" ] && [[ " $archs " != *" $vm_arch "* ]]; then
    echo "vm-test: SKIP $name on $vm_arch: it needs a $archs guest (its header says why)"
    skipped+=("$name"); continue
  fi
  want=$(header "$script" vm-binary | head -1)
  bins=() names=()
  case $want in
    tock)
      if [ ${#tocks[@]} -eq 0 ]; then
        echo "vm-test: SKIP $name (no tock binary: pass --tock PATH or TOCK=PATH to make, see Tests/vm/README.md)"
        skipped+=("$name"); continue
      fi
      for t in "${tocks[@]}"; do
        case $t in
          *=*) names+=("$name-${t%%=*}"); bins+=("${t#*=}") ;;
          *) names+=("$name"); bins+=("$t") ;;
        esac
      done ;;
    probe-v1|probe-v2) bins=("$build/$want"); names=("$name") ;;
    '') echo "vm-test: $file has no '# vm-binary:' line" >&2; failed+=("$name"); continue ;;
    /*) bins=("$want"); names=("$name") ;;
    *) bins=("$repo/$want"); names=("$name") ;;
  esac
  opts=(--timeout "$(header "$script" vm-timeout | head -1)")
  [ "${opts[1]}" != "" ] || opts=(--timeout 120)
  while IFS= read -r f; do
    [ -n "$f" ] || continue
    src=${f%%:*}; case $src in /*) ;; *) src=$repo/$src ;; esac
    opts+=(--file "$src:${f#*:}")
  done < <(header "$script" vm-file)
  while IFS= read -r e; do [ -n "$e" ] && opts+=(--env "$e"); done < <(header "$script" vm-env)
  check=$(header "$script" vm-check | head -1)
  for i in "${!bins[@]}"; do run "${names[$i]}" "${bins[$i]}" "$script" "${opts[@]}"; done
done

# ---------------------------------------------------------------- summary
elapsed=$(( $(date +%s) - started ))
echo "vm-test: ${#passed[@]} passed, ${#failed[@]} failed, ${#skipped[@]} skipped in ${elapsed} s (logs: $results/)"
[ ${#failed[@]} -eq 0 ] || { echo "vm-test: FAILED: ${failed[*]}" >&2; exit 1; }
[ ${#passed[@]} -gt 0 ] || { echo "vm-test: nothing ran" >&2; exit 1; }
