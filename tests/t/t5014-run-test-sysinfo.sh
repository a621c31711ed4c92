#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='run-test.sh sysinfo: what a run depends on, from a fake /proc and /sys'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# sysinfo_capture reads PROC and SYS as given: a tree of files here, with
# a block queue whose wbt_lat_usec refuses to be read, as the kernel's
# does for a queue without writeback throttling (dm, zram: EINVAL).  A
# directory stands for it: readable, and reading it fails.
test_expect_success 'setup' '
	mkdir -p proc/sys/vm sys/block/vda/queue sys/block/dm-0/queue &&
	echo "console=ttyS0 mem=512M" >proc/cmdline &&
	echo "MemTotal: 524288 kB" >proc/meminfo &&
	for f in vmstat swaps mounts slabinfo cpuinfo; do
		echo "$f" >"proc/$f" || return 1
	done &&
	echo 60 >proc/sys/vm/swappiness &&
	for d in vda dm-0; do
		q=sys/block/$d/queue &&
		echo "[none] mq-deadline" >$q/scheduler &&
		echo 128 >$q/read_ahead_kb &&
		echo 256 >$q/nr_requests &&
		echo 1 >$q/rotational &&
		echo 1280 >$q/max_sectors_kb || return 1
	done &&
	echo 75000 >sys/block/vda/queue/wbt_lat_usec &&
	mkdir sys/block/dm-0/queue/wbt_lat_usec
'

test_expect_success 'block queue settings, an attribute that refuses a read said so, nothing on stderr' '
	( . "$abs_top_srcdir/scripts/sysinfo.sh" &&
	  sysinfo_capture out "$PWD/proc" "$PWD/sys" ) 2>err &&
	test ! -s err &&
	cat >want <<-\EOF &&
	dm-0 scheduler [none] mq-deadline
	dm-0 read_ahead_kb 128
	dm-0 nr_requests 256
	dm-0 rotational 1
	dm-0 max_sectors_kb 1280
	dm-0 wbt_lat_usec (unreadable)
	vda scheduler [none] mq-deadline
	vda read_ahead_kb 128
	vda nr_requests 256
	vda rotational 1
	vda max_sectors_kb 1280
	vda wbt_lat_usec 75000
	EOF
	test_cmp want out/block-queue &&
	echo "console=ttyS0 mem=512M" >want &&
	test_cmp want out/cmdline &&
	echo "swappiness 60" >want &&
	test_cmp want out/sys-vm
'

test_done
