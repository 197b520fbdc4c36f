#!/bin/busybox sh
# /init of the systemd test's initramfs: load the modules the root disk needs,
# mount /dev/vda (ext4, virtio-blk) and hand over to its /sbin/init (systemd),
# or to the program named by tock.init= on the kernel command line.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

panic() { echo "INITRD: $*"; echo o > /proc/sysrq-trigger; sleep 5; }

while read -r m; do
  [ -n "$m" ] && { insmod "/modules/$m.ko" || panic "insmod $m failed"; }
done < /modules/load-order
i=0
while [ ! -b /dev/vda ] && [ "$i" -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ -b /dev/vda ] || panic "/dev/vda did not appear"
mount -t ext4 -o rw /dev/vda /newroot || panic "cannot mount /dev/vda"
init=/sbin/init
for arg in $(cat /proc/cmdline); do
  case $arg in tock.init=*) init=${arg#tock.init=} ;; esac
done
[ -L "/newroot$init" ] || [ -x "/newroot$init" ] || panic "no $init on /dev/vda"
umount /proc /sys
mount --move /dev /newroot/dev
exec switch_root /newroot "$init" "$@"
