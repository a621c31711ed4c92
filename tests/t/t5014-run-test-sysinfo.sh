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

# DAMON's sysfs interface: kdamond 0 on with a pageout scheme and a stat
# scheme, kdamond 1 off with a pageout scheme, kdamond 2 on with only
# lru_prio (not reclaim), a scheme whose action cannot be read.
test_expect_success 'DAMON: each kdamond, context and scheme a line; the reclaimers that are on' '
	a=sys/kernel/mm/damon/admin/kdamonds &&
	for k in 0 1 2; do
		c=$a/$k/contexts/0 &&
		mkdir -p $c/monitoring_attrs/intervals &&
		echo paddr >$c/operations &&
		echo 5000 >$c/monitoring_attrs/intervals/sample_us &&
		echo 100000 >$c/monitoring_attrs/intervals/aggr_us &&
		echo 1000000 >$c/monitoring_attrs/intervals/update_us || return 1
	done &&
	echo on >$a/0/state && echo off >$a/1/state && echo on >$a/2/state &&
	scheme() {
		s=$a/$1/contexts/0/schemes/$2 &&
		mkdir -p $s/access_pattern/age $s/access_pattern/nr_accesses $s/quotas &&
		echo "$3" >$s/action &&
		echo 12 >$s/access_pattern/age/min &&
		echo 1 >$s/access_pattern/nr_accesses/max &&
		echo 134217728 >$s/quotas/bytes &&
		echo 50 >$s/quotas/ms &&
		echo 1000 >$s/quotas/reset_interval_ms
	} &&
	scheme 0 0 stat && scheme 0 1 pageout && scheme 1 0 pageout &&
	scheme 2 0 lru_prio && scheme 2 1 x && rm $a/2/contexts/0/schemes/1/action &&
	mkdir $a/2/contexts/0/schemes/1/action &&
	( . "$abs_top_srcdir/scripts/sysinfo.sh" &&
	  sysinfo_capture out2 "$PWD/proc" "$PWD/sys" &&
	  sysinfo_reclaimers out2/damon >reclaimers ) 2>err &&
	test ! -s err &&
	cat >want <<-\EOF &&
	kdamond 0 state on
	kdamond 0 context 0 operations paddr
	kdamond 0 context 0 intervals sample_us 5000 aggr_us 100000 update_us 1000000
	kdamond 0 context 0 scheme 0 action stat age_min 12 nr_accesses_max 1 quota_bytes 134217728 quota_ms 50 quota_reset_ms 1000
	kdamond 0 context 0 scheme 1 action pageout age_min 12 nr_accesses_max 1 quota_bytes 134217728 quota_ms 50 quota_reset_ms 1000
	kdamond 1 state off
	kdamond 1 context 0 operations paddr
	kdamond 1 context 0 intervals sample_us 5000 aggr_us 100000 update_us 1000000
	kdamond 1 context 0 scheme 0 action pageout age_min 12 nr_accesses_max 1 quota_bytes 134217728 quota_ms 50 quota_reset_ms 1000
	kdamond 2 state on
	kdamond 2 context 0 operations paddr
	kdamond 2 context 0 intervals sample_us 5000 aggr_us 100000 update_us 1000000
	kdamond 2 context 0 scheme 0 action lru_prio age_min 12 nr_accesses_max 1 quota_bytes 134217728 quota_ms 50 quota_reset_ms 1000
	kdamond 2 context 0 scheme 1 action (unreadable) age_min 12 nr_accesses_max 1 quota_bytes 134217728 quota_ms 50 quota_reset_ms 1000
	EOF
	test_cmp want out2/damon &&
	echo "0 pageout" >want &&
	test_cmp want reclaimers &&
	test ! -s out/damon
'

test_done
