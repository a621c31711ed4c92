#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-device-setup: refusals, dry run, and the real path on a loop device'
. "$abs_top_srcdir/tests/t/test-lib.sh"

ds=$abs_top_builddir/scripts/latency-device-setup

# A block device node to name (never written to: only refusals and dry
# runs use it), and fake proc and sys trees saying what is mounted.
dev=
for d in /dev/loop0 /dev/loop1 /dev/loop7; do
	if [ -b "$d" ]; then
		dev=$d
		break
	fi
done
[ -n "$dev" ] && test_set_prereq BLOCKDEV
# The kernel's word on device-mapper, not /dev/mapper/control: lvm2 and
# cryptsetup make that node on a kernel without it.
if test_have_prereq ROOT && { [ -e /sys/class/misc/device-mapper ] ||
	grep -qs " device-mapper$" /proc/misc; } &&
	command -v cryptsetup >/dev/null && command -v lvcreate >/dev/null &&
	command -v losetup >/dev/null && dmsetup version >/dev/null 2>&1; then
	test_set_prereq DM
else
	say "device-mapper is not in this kernel (or not root, no cryptsetup, lvm2 or losetup, or dmsetup cannot reach it): the real path is skipped"
fi

mkdir proc sys
: >proc/mounts
: >proc/swaps
LATENCY_PROC=$PWD/proc
LATENCY_SYS=$PWD/sys
export LATENCY_PROC LATENCY_SYS
nodm="device-mapper is not available here (the kernel has none: no $LATENCY_SYS/class/misc/device-mapper"

test_expect_success 'refuses without a confirmation naming the device' '
	test_expect_code 2 "$ds" /dev/sdz 2>err &&
	grep -x "latency-device-setup: refusing to destroy /dev/sdz without --yes-destroy=/dev/sdz" err &&
	test_expect_code 2 "$ds" --yes-destroy=/dev/sdy /dev/sdz 2>err &&
	grep -x "latency-device-setup: --yes-destroy names '\''/dev/sdy'\'', not '\''/dev/sdz'\''" err &&
	test_expect_code 2 "$ds" --yes-destroy=/dev/sdz 2>err &&
	grep -x "latency-device-setup: no DEVICE given" err
'

test_expect_success 'bad values are usage errors' '
	test_expect_code 2 "$ds" --swap-size=2X --yes-destroy=/dev/sdz /dev/sdz 2>err &&
	grep -x "latency-device-setup: invalid value '\''2X'\'' for --swap-size (expected a size such as 5G)" err &&
	test_expect_code 2 "$ds" --mount=rel --yes-destroy=/dev/sdz /dev/sdz 2>err &&
	test_expect_code 2 "$ds" --name=a-b --teardown 2>err &&
	test_expect_code 2 "$ds" --teardown /dev/sdz 2>err
'

test_expect_success 'refuses what is not a block device' '
	: >plainfile &&
	test_expect_code 1 "$ds" --dry-run --yes-destroy=plainfile plainfile >out 2>err &&
	grep -x "latency-device-setup: refusing plainfile: not a block device" err &&
	! test -s out
'

test_expect_success BLOCKDEV 'refuses a mounted, swapped or held device' '
	echo "${dev}p1 /mnt ext4 rw 0 0" >proc/mounts &&
	test_expect_code 1 "$ds" --dry-run --yes-destroy=$dev $dev >out 2>err &&
	grep -x "latency-device-setup: refusing $dev: it (or a partition of it) is mounted" err &&
	! test -s out &&
	: >proc/mounts &&
	echo "$dev partition 1024 0 -2" >proc/swaps &&
	test_expect_code 1 "$ds" --dry-run --yes-destroy=$dev $dev 2>err &&
	grep -x "latency-device-setup: refusing $dev: it (or a partition of it) is used as swap" err &&
	: >proc/swaps &&
	mkdir -p "sys/class/block/${dev##*/}/holders/dm-9" &&
	test_expect_code 1 "$ds" --dry-run --yes-destroy=$dev $dev 2>err &&
	grep -x "latency-device-setup: refusing $dev: it is in use by dm-9" err &&
	rm -r sys/class
'

test_expect_success BLOCKDEV '--dry-run prints every command and says device-mapper is missing' '
	"$ds" --dry-run --scratch-size=64M --swap-size=32M --mount=/mnt/lt \
		--name=lt --yes-destroy=$dev $dev >out 2>err &&
	cat >expect <<-EOF_ &&
	+ cryptsetup open --type plain --cipher aes-xts-plain64 --key-size 512 --key-file /dev/urandom --keyfile-size 64 $dev lt-crypt
	+ pvcreate -q /dev/mapper/lt-crypt
	+ vgcreate -q lt /dev/mapper/lt-crypt
	+ lvcreate -q -y -L 64M -n scratch lt
	+ lvcreate -q -y -L 32M -n swap lt
	+ mkfs.ext3 -q /dev/lt/scratch
	+ mkswap -q /dev/lt/swap
	+ mkdir -p /mnt/lt
	+ mount /dev/lt/scratch /mnt/lt
	+ swapon /dev/lt/swap
	# ready: latency-run-test --scratch=/mnt/lt --swap=/dev/lt/swap
	EOF_
	test_cmp expect out &&
	grep -x "latency-device-setup: note: $nodm)" err &&
	"$ds" --dry-run --teardown --name=lt --mount=/mnt/lt >out 2>err &&
	cat >expect <<-EOF_ &&
	+ swapoff /dev/lt/swap
	+ umount /mnt/lt
	+ vgchange -q -an lt
	+ cryptsetup close lt-crypt
	EOF_
	test_cmp expect out
'

test_expect_success BLOCKDEV 'without device-mapper it stops with status 3' '
	test_expect_code 3 "$ds" --yes-destroy=$dev $dev >out 2>err &&
	grep -x "latency-device-setup: $nodm; load the dm_mod module)" err &&
	! test -s out &&
	test_expect_code 3 "$ds" --teardown 2>err
'

# The audit: on a kernel without device-mapper, installing lvm2 and
# cryptsetup leaves a /dev/mapper/control node; judged by it, the setup
# ran cryptsetup.  Shown by a dry run and a teardown of names that do not
# exist, so that a version judging by the node harms nothing.
test_expect_success BLOCKDEV 'a /dev/mapper/control node is not device-mapper; the kernel says' '
	mkdir -p dev/mapper && : >dev/mapper/control &&
	LATENCY_DM_CONTROL=$PWD/dev/mapper/control \
		"$ds" --dry-run --yes-destroy=$dev $dev >out 2>err &&
	grep -x "latency-device-setup: note: $nodm)" err &&
	test_expect_code 3 env LATENCY_DM_CONTROL=$PWD/dev/mapper/control \
		"$ds" --teardown --name=nolt$$ --mount="$PWD/nomnt" >out 2>err &&
	! test -s out &&
	mkdir -p sys/class/misc/device-mapper &&
	"$ds" --dry-run --yes-destroy=$dev $dev >out 2>err &&
	! grep -q "device-mapper is not available" err &&
	rm -r sys/class/misc &&
	echo "236 device-mapper" >proc/misc &&
	"$ds" --dry-run --yes-destroy=$dev $dev >out 2>err &&
	! grep -q "device-mapper is not available" err &&
	rm proc/misc
'

# The loop device is detached by a test of its own, which runs also when
# the real path failed half-way (then its mapping is torn down first).
test_expect_success DM 'a loop device for the real path' '
	truncate -s 160M disk.img &&
	losetup -f --show disk.img >loopdev
'

test_expect_success DM 'the real path on a loop device' '
	unset LATENCY_PROC LATENCY_SYS &&
	loop=$(cat loopdev) &&
	mkdir mnt &&
	"$ds" --scratch-size=64M --swap-size=32M --mount="$PWD/mnt" \
		--name=lt$$ --yes-destroy="$loop" "$loop" >out 2>err &&
	grep -q "^/dev/mapper/lt$$-scratch $PWD/mnt ext3 " /proc/mounts &&
	grep -q "^/dev/" /proc/swaps &&
	test_expect_code 1 "$ds" --yes-destroy="$loop" "$loop" 2>err &&
	"$ds" --teardown --name=lt$$ --mount="$PWD/mnt" >out 2>err &&
	! grep -q " $PWD/mnt " /proc/mounts
'

test_expect_success DM 'the loop device is detached, whatever happened' '
	unset LATENCY_PROC LATENCY_SYS &&
	loop=$(cat loopdev) &&
	if grep -q " $PWD/mnt " /proc/mounts ||
		[ -e "/dev/mapper/lt$$-crypt" ]; then
		"$ds" --teardown --name=lt$$ --mount="$PWD/mnt" >out 2>err
	fi &&
	losetup -d "$loop" &&
	! losetup -j "$PWD/disk.img" | grep -q .
'

test_done
