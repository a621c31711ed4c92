#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-initrd.sh: /init of latency-vm's initramfs (busybox, PID 1).  Loads
# the kernel modules the image recipe chose (lib/modules/load.list, in
# dependency order), mounts the root disk (the virtio disk whose serial
# is lt-root) read-only, gives it the modules on a tmpfs (so that the
# kernel's own module requests find them later) and switches to the
# guest side, /sbin/latency-vm-guest.  Exiting would panic the kernel:
# every failure is said first, and the panic ends the VM (panic=-1).
PATH=/bin
export PATH

say() {
	echo "latency-vm-initrd: $*"
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
rel=$(uname -r)
if [ -f /lib/modules/load.list ]; then
	while read -r m; do
		# A module the CPU cannot use (aesni-intel without AES-NI)
		# fails here: said, not fatal.
		insmod "/lib/modules/$rel/$m" 2>/dev/null ||
			say "cannot load ${m##*/}"
	done </lib/modules/load.list
fi

root=
n=0
while [ -z "$root" ] && [ $n -lt 100 ]; do
	for b in /sys/block/vd*; do
		[ -f "$b/serial" ] || continue
		[ "$(cat "$b/serial")" = lt-root ] && root=/dev/${b##*/}
	done
	[ -n "$root" ] || sleep 0.1
	n=$((n + 1))
done
if [ -z "$root" ]; then
	say "error: no root disk (no virtio disk with serial lt-root; does the kernel have virtio-blk?)"
	exit 1
fi
mkdir -p /newroot
mount -t ext4 -o ro "$root" /newroot || {
	say "error: cannot mount the root disk $root"
	exit 1
}
if [ -d "/lib/modules/$rel" ]; then
	if ! mount -t tmpfs -o mode=0755 modules /newroot/lib/modules ||
		! cp -a "/lib/modules/$rel" /newroot/lib/modules/; then
		say "error: cannot copy the modules to the root"
		exit 1
	fi
fi
umount /proc /sys
mount --move /dev /newroot/dev
exec switch_root /newroot /sbin/latency-vm-guest
