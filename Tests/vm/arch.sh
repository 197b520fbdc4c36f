# shellcheck shell=bash
# The VM tests' machine, by VM_ARCH (sourced by prepare.sh, run-in-vm.sh,
# vm-test.sh and Tests/vm-systemd/):
#
#   amd64 (default)  Debian 12's 6.12 kernel on qemu-system-x86_64, ttyS0
#   arm64            Debian 13's arm64 kernel on qemu-system-aarch64
#                    (-M virt, Cortex-A72, as a Raspberry Pi 4), ttyAMA0;
#                    the programs are cross-built against Debian 13
#                    (deploy/cross/), their libraries come from its sysroot
#
# Sets vm_arch, vm_uname_m (what `uname -m` says in the guest), vm_qemu,
# vm_qemu_package, vm_qemu_machine (array), vm_console, vm_kernel_meta,
# vm_cache_default.
vm_arch=${VM_ARCH:-amd64}
case $vm_arch in
  amd64)
    vm_uname_m=x86_64
    vm_qemu=qemu-system-x86_64 vm_qemu_package=qemu-system-x86
    vm_qemu_machine=()
    vm_console=ttyS0
    vm_kernel_meta=linux-image-6.12-amd64
    vm_cache_default=$repo/.cache/vm ;;
  arm64)
    vm_uname_m=aarch64
    vm_qemu=qemu-system-aarch64 vm_qemu_package=qemu-system-arm
    # cortex-a72: the Pi 4's core; -cpu max emulates twice as slowly.
    vm_qemu_machine=(-M virt -cpu cortex-a72)
    vm_console=ttyAMA0
    vm_kernel_meta=linux-image-arm64
    vm_cache_default=$repo/.cache/vm-arm64 ;;
  *) echo "VM_ARCH must be amd64 or arm64, not '$vm_arch'" >&2; exit 2 ;;
esac
