#!/usr/bin/env bash
# Boot Debian's kernel under QEMU (TCG) with a busybox initramfs, a gpio-sim
# chip and one scenario; collect the console log and the files the scenario
# wrote to /out.
#
#   run-in-vm.sh --binary PATH [--binary PATH ...] --script SCENARIO.sh --out DIR
#                [--file SRC:DEST ...] [--env NAME=VALUE ...] [--timeout SECONDS]
#
#   --binary PATH     a program for the VM, copied to /vm/bin/<name> with the
#                     shared libraries ldd lists (and the loader); the first
#                     one is also $BINARY in the VM. /vm/bin is on PATH.
#   --script FILE     the scenario (sh, sourced after lib.sh by /init)
#   --file SRC:DEST   an extra file or directory, at DEST (absolute) in the VM
#   --env NAME=VALUE  an environment variable for the scenario
#   --timeout SECONDS hard limit for the whole VM run (default 120); the
#                     scenario itself gets this minus 20 s
#   --out DIR         receives console.log, result.txt and the files of /out
#
# Exit status: 0 PASS, 1 FAIL (the scenario said so, or the guest is not
# the machine VM_ARCH asks for), 2 the VM gave no result (boot failure,
# timeout, harness error).
# VM_VERBOSE=1 also streams the console to this terminal.
# VM_ARCH=arm64 boots the arm64 kernel on qemu-system-aarch64 (arch.sh); a
# binary for another architecture than this machine's gets its libraries
# from VM_SYSROOT (default: the arm64 sysroot of deploy/cross/).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=Tests/vm/arch.sh
. "$here/arch.sh"
cache=${VM_CACHE:-$vm_cache_default}

die() { printf 'run-in-vm: ERROR: %s\n' "$*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

binaries=() files=() envs=() script='' out='' timeout=120
while [ $# -gt 0 ]; do
  case $1 in
    --binary) binaries+=("${2:?--binary PATH}"); shift 2 ;;
    --script) script=${2:?--script FILE}; shift 2 ;;
    --file) files+=("${2:?--file SRC:DEST}"); shift 2 ;;
    --env) envs+=("${2:?--env NAME=VALUE}"); shift 2 ;;
    --timeout) timeout=${2:?--timeout SECONDS}; shift 2 ;;
    --out) out=${2:?--out DIR}; shift 2 ;;
    -h|--help) usage ;;
    *) echo "run-in-vm: unknown argument '$1'" >&2; usage ;;
  esac
done
[ -n "$script" ] || die "--script is required"
[ -n "$out" ] || die "--out is required"
[ -f "$script" ] || die "scenario $script not found"
case $timeout in ''|*[!0-9]*) die "--timeout takes whole seconds" ;; esac
[ "$timeout" -ge 30 ] || die "--timeout must be at least 30 s (boot takes about 5 s)"

kdir=$cache/kernel/current
[ -e "$kdir/.done" ] && [ -x "$cache/busybox" ] \
  || die "the VM kernel or busybox is not prepared: run bash Tests/vm/prepare.sh"
command -v "$vm_qemu" >/dev/null || die "$vm_qemu missing: run bash Tests/vm/prepare.sh"

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/files"; rm -f "$out/console.log" "$out/result.txt"
work=$(mktemp -d "${TMPDIR:-/tmp}/tock-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"/{bin,sbin,lib/modules/vm,vm/bin,out,proc,sys,dev,tmp,run,etc}

# ---------------------------------------------------------------- initramfs
cp "$cache/busybox" "$root/bin/busybox"
cp "$kdir"/modules/*.ko "$kdir/load-order" "$root/lib/modules/vm/"
install -m 755 "$here/init.sh" "$root/init"
cp "$here/lib.sh" "$root/vm/lib.sh"
cp "$script" "$root/vm/scenario.sh"
echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"

copy_lib() {   # copy_lib PATH: the file (symlinks resolved) at the same path in the VM
  local src=$1
  [ -e "$root$src" ] && return 0
  mkdir -p "$root$(dirname "$src")"
  cp -L "$src" "$root$src"
}
# sysroot_libs BIN: the loader and every shared library BIN needs, found in
# the sysroot (for a binary ldd cannot load: another architecture), as
# paths in the sysroot; printed once each, dependencies included.
sysroot_libs() {
  local sysroot=$1 todo=("$2") seen=" " f lib d found interp
  interp=$(LC_ALL=C readelf -l "$2" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
  [ -z "$interp" ] || echo "$interp"
  while [ ${#todo[@]} -gt 0 ]; do
    f=${todo[0]}; todo=("${todo[@]:1}")
    for lib in $(LC_ALL=C readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      case $seen in *" $lib "*) continue ;; esac
      seen+="$lib "
      found=
      for d in /usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu /usr/lib /lib; do
        [ -e "$sysroot$d/$lib" ] && { found=$d/$lib; break; }
      done
      [ -n "$found" ] || die "$(basename "$2") needs $lib, which is not in $sysroot"
      echo "$found"
      todo+=("$sysroot$found")
    done
  done
}
add_binary() {
  local bin=$1 name lib
  [ -f "$bin" ] && [ -x "$bin" ] || die "binary $bin not found or not executable"
  name=$(basename "$bin")
  cp -L "$bin" "$root/vm/bin/$name"
  if [ "$vm_arch" != amd64 ]; then
    sysroot=${VM_SYSROOT:-$(. "$repo/deploy/cross/lib.sh" && echo "$SYSROOT")}
    [ -e "$sysroot/.done" ] || die "no sysroot at $sysroot for the libraries of $bin (bash deploy/cross/prepare.sh sysroot)"
    LC_ALL=C readelf -h "$bin" | grep -q AArch64 || die "$bin is not an AArch64 program"
    while read -r lib; do
      mkdir -p "$root$(dirname "$lib")"
      [ -e "$root$lib" ] || cp -L "$sysroot$lib" "$root$lib"
    done < <(sysroot_libs "$sysroot" "$bin")
  elif ldd "$bin" >/dev/null 2>&1; then
    # "libx.so => /path (addr)", "/lib64/ld-linux-x86-64.so.2 (addr)"; skip the vdso
    while read -r lib; do
      [ -n "$lib" ] && copy_lib "$lib"
    done < <(ldd "$bin" | awk '/=> \//{print $3; next} /^[[:space:]]*\//{print $1}')
    if ldd "$bin" | grep -q 'not found'; then
      die "ldd $bin: $(ldd "$bin" | grep 'not found' | tr -s ' \t' ' ')"
    fi
  fi
}
for b in "${binaries[@]}"; do add_binary "$b"; done
for f in "${files[@]}"; do
  src=${f%%:*} dest=${f#*:}
  [ "$src" != "$f" ] && [ -n "$dest" ] || die "--file takes SRC:DEST, not '$f'"
  case $dest in /*) ;; *) die "--file DEST must be absolute: '$dest'" ;; esac
  [ -e "$src" ] || die "--file: $src not found"
  mkdir -p "$root$(dirname "$dest")"
  cp -rL "$src" "$root$dest"
done

{
  echo "VM_SCENARIO_TIMEOUT=$((timeout - 20))"
  [ ${#binaries[@]} -gt 0 ] && echo "BINARY=/vm/bin/$(basename "${binaries[0]}")" && echo "export BINARY"
  for e in "${envs[@]}"; do
    name=${e%%=*} value=${e#*=}
    [[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] && [ "$name" != "$e" ] || die "--env takes NAME=VALUE, not '$e'"
    printf 'export %s=%q\n' "$name" "$value"
  done
} > "$root/vm/env"

(cd "$root" && find . -print0 | sort -z | cpio --quiet -o -0 -H newc -R 0:0) > "$work/initrd.cpio" \
  || die "cpio failed"

# ---------------------------------------------------------------- boot
log=$out/console.log
start=$(date +%s.%N)
set +e
# The uncompressed kernel (PVH entry) with qboot boots about 5 s faster under
# TCG than the bzImage with SeaBIOS; VM_BZIMAGE=1 forces the latter.
kernel=$kdir/vmlinuz firmware=()
if [ "$vm_arch" = amd64 ] && [ "${VM_BZIMAGE:-0}" != 1 ] && [ -f "$kdir/vmlinux" ]; then
  kernel=$kdir/vmlinux
  qboot=$(qemu-system-x86_64 -L help 2>/dev/null | while read -r d; do
            [ -f "$d/qboot.rom" ] && echo "$d/qboot.rom" && break; done || true)
  [ -n "$qboot" ] && firmware=(-bios "$qboot")
fi
qemu=("$vm_qemu" "${vm_qemu_machine[@]}" -nographic -no-reboot -m 512 -smp 1 -accel tcg -nic none
      "${firmware[@]}" -kernel "$kernel" -initrd "$work/initrd.cpio"
      -append "console=$vm_console panic=-1 quiet")
if [ "${VM_VERBOSE:-0}" = 1 ]; then
  timeout -k 5 "$timeout" "${qemu[@]}" < /dev/null 2>&1 | tee "$log"
  qemu_status=${PIPESTATUS[0]}
else
  timeout -k 5 "$timeout" "${qemu[@]}" < /dev/null > "$log" 2>&1
  qemu_status=$?
fi
set -e
elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
sed -i 's/\r$//' "$log"

# ---------------------------------------------------------------- files from /out
mkdir -p "$out/files"
# blocks go to numbered temporary files first; names may contain directories
awk -v dir="$work" '
  /^VM-FILE-BEGIN / { name = $0; sub(/^VM-FILE-BEGIN /, "", name); sub(/ [0-9]+$/, "", name)
                      n++; tmp = dir "/file" n ".b64"; printf "" > tmp; infile = 1; next }
  /^VM-FILE-END /   { if (infile) { close(tmp); print n "\t" name }; infile = 0; next }
  infile            { print > tmp }
' "$log" > "$work/files.list"
while IFS=$'\t' read -r n name; do
  case "/$name/" in */../*|//*) echo "run-in-vm: warning: ignoring file '$name' from the VM" >&2; continue ;; esac
  mkdir -p "$(dirname "$out/files/$name")"
  if ! base64 -d < "$work/file$n.b64" > "$out/files/$name" 2>/dev/null; then
    echo "run-in-vm: warning: $name arrived damaged (kernel messages inside the block?)" >&2
  fi
done < "$work/files.list"

result=$(grep -a '^VM-RESULT: ' "$log" | tail -1 | sed 's/^VM-RESULT: //' || true)
# init.sh prints `uname -m` and `uname -r`: the guest must be the machine asked for.
machine=$(sed -n 's/^VM-MACHINE: //p' "$log" | head -1)
case $result in
  PASS|FAIL*)
    [ "${machine%% *}" = "$vm_uname_m" ] || result="FAIL the guest says uname -m '${machine%% *}', expected $vm_uname_m" ;;
esac
init_at=$(sed -n 's/^.*VM-INIT: uptime \([0-9.]*\) s$/\1/p' "$log" | head -1)
end_at=$(sed -n 's/^VM-UPTIME: \([0-9.]*\) s$/\1/p' "$log" | head -1)
summary="${machine:-machine unknown}, wall ${elapsed} s${init_at:+, /init at ${init_at} s uptime}${end_at:+, done at ${end_at} s uptime}"
tail_log() {
  echo "---- last 40 lines of $log:" >&2
  awk '/^VM-FILE-BEGIN /{skip = 1; f = $0; sub(/^VM-FILE-BEGIN /, "", f); print "[file " f " bytes sent]"; next} /^VM-FILE-END /{skip = 0; next} !skip' \
    "$log" | tail -n 40 >&2
  echo "----" >&2
}
case $result in
  PASS)
    echo "PASS" > "$out/result.txt"
    echo "run-in-vm: PASS $(basename "$script") ($summary)"
    exit 0 ;;
  FAIL*)
    echo "$result" > "$out/result.txt"
    echo "run-in-vm: FAIL $(basename "$script"): ${result#FAIL } ($summary)" >&2
    tail_log
    exit 1 ;;
  *)
    if [ "$qemu_status" = 124 ] || [ "$qemu_status" = 137 ]; then
      why="the VM did not finish within $timeout s"
    else
      why="the VM stopped without a result (qemu status $qemu_status)"
    fi
    echo "NO-RESULT $why" > "$out/result.txt"
    echo "run-in-vm: ERROR $(basename "$script"): $why ($summary)" >&2
    tail_log
    exit 2 ;;
esac
