#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016,SC2034,SC1094,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh defines the rest)
test_description='seqbench: --read-only of block devices, refusals, --readahead and its restore'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-machine.sh"

command -v losetup >/dev/null 2>&1 && test_have_prereq ROOT &&
	test_set_prereq LOSETUP
command -v mkfs.ext2 >/dev/null 2>&1 && test_set_prereq MKFS

# The machine-state record of these runs, away from the machine's own.
LATENCY_STATE_DIR=$PWD/state
export LATENCY_STATE_DIR

# The read_ahead_kb of the loop device.
ra_of() {
	cat "/sys/block/$(basename "$(cat loopdev)")/queue/read_ahead_kb"
}

# Start an endless --readahead=64k read of the loop device with report
# $1, wait for its first progress line, send signal $2, leave the status.
stop_read() {
	rm -f progress
	seqbench --read-only --no-drop-caches -d "$(cat loopdev)" \
		--readahead 64k -n 10000 --progress 4M -o "$1" --json \
		>progress 2>err &
	_pid=$!
	test_wait_for progress &&
	ra_of >ra.during &&
	kill -"$2" "$_pid"
	wait "$_pid"
	echo $? >status
}

test_expect_success LOSETUP 'set up a 16 MiB loop device with data' '
	seqbench --prepare -s 16M -d disk.img &&
	losetup -f --show disk.img >loopdev &&
	ra_of >ra.before
'

test_expect_success LOSETUP,JQ 'an unmounted device is read without --yes-destroy' '
	seqbench --read-only -d "$(cat loopdev)" -b 16k --json >dev.json &&
	test_json dev.json .results[0].phases.cold_read.bytes 16777216 &&
	test_json dev.json .results[0].phases.cold_read.ops 1024 &&
	test_json dev.json .raw_device true &&
	test_json dev.json .results[0].phases.cold_read.readahead_kb "$(ra_of)"
'

test_expect_success LOSETUP 'a device is read as dd reads it: the same bytes' '
	seqbench --read-only --no-drop-caches -d "$(cat loopdev)" -s 1M \
		--format terse >t &&
	grep -q "^coldread:1\.00000," t
'

test_expect_success LOSETUP,MKFS 'a device mounted read-write is refused, read-only is not' '
	dev=$(cat loopdev) &&
	mkfs.ext2 -q "$dev" && mkdir mnt &&
	mount "$dev" mnt &&
	{
		seqbench --read-only -d "$dev" >out 2>err
		echo $? >status
		umount mnt
	} &&
	echo 1 >expect && test_cmp expect status &&
	n=$(stat -c "%t:%T" "$dev") &&
	printf "seqbench: refusing to read '\''%s'\'': %d:%d is mounted read-write on '\''%s'\'' (its data changes under the read)\n" \
		"$dev" "0x${n%:*}" "0x${n#*:}" "$PWD/mnt" >expect &&
	test_cmp expect err &&
	mount -o ro "$dev" mnt &&
	{
		seqbench --read-only --no-drop-caches -d "$dev" -s 1M \
			--format terse >out 2>err
		echo $? >status
		umount mnt
	} &&
	echo 0 >expect && test_cmp expect status
'

test_expect_success LOSETUP 'a swap device is refused (as /proc/swaps shows it)' '
	dev=$(cat loopdev) &&
	mkdir -p proc/self &&
	cp /proc/self/mountinfo proc/self/mountinfo &&
	printf "Filename\tType\tSize\tUsed\tPriority\n%s partition 16380 0 -2\n" \
		"$dev" >proc/swaps &&
	test_expect_code 1 env LATENCY_PROC="$PWD/proc" \
		seqbench --read-only -d "$dev" >out 2>err &&
	echo "seqbench: refusing to read '\''$dev'\'': '\''$dev'\'' is used as swap" >expect &&
	test_cmp expect err
'

# A disk 240:0 with a partition 240:1 under a device-mapper 253:7 mounted
# read-write, on a fake sysfs and mountinfo (no IO reaches the node).
test_expect_success ROOT 'a partition or a holder mounted read-write is refused' '
	mkdir -p fsys/devices/d/disk/part fsys/devices/v/dm-7 fsys/dev/block \
		fproc/self &&
	echo 240:0 >fsys/devices/d/disk/dev &&
	echo 240:1 >fsys/devices/d/disk/part/dev &&
	echo 1 >fsys/devices/d/disk/part/partition &&
	echo 253:7 >fsys/devices/v/dm-7/dev &&
	mkdir fsys/devices/d/disk/part/holders &&
	ln -s ../../../../v/dm-7 fsys/devices/d/disk/part/holders/dm-7 &&
	ln -s ../../devices/d/disk fsys/dev/block/240:0 &&
	echo "36 1 253:7 / /fake/mnt rw,relatime shared:1 - ext4 /dev/dm-7 rw" \
		>fproc/self/mountinfo &&
	: >fproc/swaps &&
	mknod fakedisk b 240 0 &&
	test_expect_code 1 env LATENCY_SYS="$PWD/fsys" LATENCY_PROC="$PWD/fproc" \
		seqbench --read-only -d fakedisk >out 2>err &&
	echo "seqbench: refusing to read '\''fakedisk'\'': 253:7 is mounted read-write on '\''/fake/mnt'\'' (its data changes under the read)" >expect &&
	test_cmp expect err &&
	sed -i "s/ rw\$/ ro/" fproc/self/mountinfo &&
	test_expect_code 1 env LATENCY_SYS="$PWD/fsys" LATENCY_PROC="$PWD/fproc" \
		seqbench --read-only --no-drop-caches -d fakedisk >out 2>err &&
	! grep -q refusing err
'

test_expect_success LOSETUP,JQ '--readahead: each row set, then put back' '
	seqbench --read-only --no-drop-caches -d "$(cat loopdev)" -s 1M \
		--readahead 64k --readahead 1M --json >ra.json &&
	json_get ra.json ".results[] |
		.readahead_kb, .phases.cold_read.readahead_kb" >got &&
	printf "64\n64\n1024\n1024\n" >expect &&
	test_cmp expect got &&
	test_cmp ra.before "$(ra_of >ra.after && echo ra.after)" &&
	! test -e state/state
'

test_expect_success LOSETUP,JQ '--readahead is put back after SIGINT' '
	stop_read int.json INT &&
	echo 64 >expect && test_cmp expect ra.during &&
	echo 130 >expect && test_cmp expect status &&
	ra_of >ra.after && test_cmp ra.before ra.after &&
	! test -e state/state &&
	test_json int.json .interrupted true
'

test_expect_success LOSETUP 'after a crash, seqbench --restore puts it back' '
	stop_read kill.json KILL &&
	echo 137 >expect && test_cmp expect status &&
	echo 64 >expect && ra_of >got && test_cmp expect got &&
	dev=$(cat loopdev) &&
	n=$(stat -c "%t:%T" "$dev") &&
	printf "readahead\t%d:%d\t%s\n" "0x${n%:*}" "0x${n#*:}" \
		"$(cat ra.before)" >expect &&
	record_body state/state | grep "^readahead" >got &&
	test_cmp expect got &&
	seqbench --restore 2>err &&
	ra_of >ra.after && test_cmp ra.before ra.after &&
	! test -e state/state &&
	grep -q "^latency-machine: restoring after run pid [0-9]* (dead): readahead " err
'

test_expect_success LOSETUP 'another run'\''s record in progress: exit 3, nothing set' '
	latency-machine begin --owner=$$ &&
	test_expect_code 3 seqbench --read-only --no-drop-caches \
		-d "$(cat loopdev)" -s 1M --readahead 64k >out 2>err &&
	test_line_count = 2 err &&
	grep -x "latency-machine: another run (pid $$: .*) is in progress; it holds .$LATENCY_LOCK_DIR/latency-tests.lock." err &&
	grep -x "seqbench: latency-machine begin exited with status 3 (see its message above)" err &&
	ra_of >ra.after && test_cmp ra.before ra.after &&
	latency-machine restore --owner=$$
'

test_expect_success LOSETUP 'run by the driver, the entries join its record' '
	latency-machine begin --owner=$$ &&
	LATENCY_MACHINE_OWNER=$$ seqbench --read-only --no-drop-caches \
		-d "$(cat loopdev)" -s 1M --readahead 64k --format terse >out &&
	ra_of >ra.after && test_cmp ra.before ra.after &&
	grep -c "^readahead	" state/state >n &&
	echo 1 >expect && test_cmp expect n &&
	latency-machine restore --owner=$$ 2>err &&
	! test -e state/state
'

test_expect_success LOSETUP 'tear down the loop device' '
	losetup -d "$(cat loopdev)"
'

test_expect_success ROOT '--readahead without a block device under it: exit 3' '
	mkdir small &&
	mount -t tmpfs -o size=1m seqbench-ra small &&
	{
		echo data >small/f &&
		seqbench --read-only -d small/f --readahead 64k >out 2>err
		echo $? >status
		umount small
	} &&
	echo 3 >expect && test_cmp expect status &&
	echo "seqbench: cannot set the readahead of '\''small/f'\'': no block device under it" >expect &&
	test_cmp expect err
'

test_expect_success 'latency-machine: a readahead entry by device number' '
	mkdir -p sys/dev/block/7:99/queue &&
	echo 128 >sys/dev/block/7:99/queue/read_ahead_kb &&
	LATENCY_SYS=$PWD/sys && export LATENCY_SYS &&
	latency-machine begin --owner=$$ &&
	latency-machine record --owner=$$ readahead 7:99 &&
	latency-machine record --owner=$$ readahead 7:98 4096 &&
	printf "readahead\t7:99\t128\nreadahead\t7:98\t4096\n" >expect &&
	record_body state/state | grep "^readahead" >got &&
	test_cmp expect got &&
	test_expect_code 2 latency-machine record --owner=$$ readahead sda 1 &&
	echo 2048 >sys/dev/block/7:99/queue/read_ahead_kb &&
	latency-machine restore --owner=$$ 2>err &&
	echo 128 >expect && test_cmp expect sys/dev/block/7:99/queue/read_ahead_kb &&
	grep -q "readahead 7:98 4096 (no such device now)$" err &&
	unset LATENCY_SYS
'

test_done
