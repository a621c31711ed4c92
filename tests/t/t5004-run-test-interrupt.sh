#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='run-test.sh: Ctrl-C and failures stop everything, undo the confinement and keep a partial result'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-run-test.sh"
env --default-signal=INT true 2>/dev/null && test_set_prereq DEFAULT_SIGNAL
if test_have_prereq ROOT && command -v swapon >/dev/null 2>&1 &&
	[ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ] ||
	grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	test_set_prereq CONFINE
fi

# The installed form of the driver, as built, with its helpers.
rt=$abs_top_builddir/latency-run-test
LATENCY_TESTS_DATADIR=$abs_top_srcdir/scripts
export LATENCY_TESTS_DATADIR
# This script's machine-state record, apart from any real run's.
LATENCY_STATE_DIR=$TRASH_DIRECTORY/state
export LATENCY_STATE_DIR

nothing_left() {
	ps -eo args >ps.out &&
	! grep -F "$PWD/res" ps.out &&
	! grep -F "$PWD/res" /proc/swaps &&
	! test -e "/sys/fs/cgroup/memory/latency-tests.$1" &&
	! test -e "/sys/fs/cgroup/latency-tests.$1"
}

# wait_for_file FILE: up to 60 s.
wait_for_file() {
	_n=0
	while ! test -s "$1"; do
		[ "$_n" -lt 600 ] || return 1
		sleep 0.1
		_n=$((_n + 1))
	done
}

confine=--confine=none
test_have_prereq CONFINE && confine="--mem-limit=64M --swap=16M"
if test_have_prereq CONFINE && { [ -w /sys/class/zram-control/hot_add ] ||
	[ "$(cat /sys/block/zram0/disksize 2>/dev/null)" = 0 ]; }; then
	test_set_prereq ZRAM
else
	say "no usable zram device here (no zram-control, zram0 absent or in use): the zram swap test is skipped"
fi

test_expect_success DEFAULT_SIGNAL,JQ 'SIGINT stops the run: status 130, partial result' '
	# A child of a non-interactive shell starts with SIGINT ignored, as
	# background jobs do; give the driver the default, as a terminal would.
	# shellcheck disable=SC2086
	env --default-signal=INT "$rt" --label=int --commits=300 \
		--gitk-runs=200 --warmup=0 --no-drop-caches --gitk-args=--every=50 \
		--music-args="--songs=1 --song-size=64k" $confine \
		--results=res >out 2>err &
	pid=$! &&
	wait_for_file res/int/fake-gitk-2.latency &&
	if test_have_prereq CONFINE; then
		grep -F "$PWD/res/latency-swapfile.$pid" /proc/swaps &&
		test -d "/sys/fs/cgroup/memory/latency-tests.$pid"
	fi &&
	kill -INT $pid &&
	test_expect_code 130 wait $pid &&
	echo $pid >pid &&
	grep -x "PARTIAL: interrupted by SIGINT" res/int/summary.txt &&
	test_json res/int/result.json .partial true &&
	grep "result (partial) in $PWD/res/int\$" err
'

test_expect_success DEFAULT_SIGNAL 'nothing is left behind: processes, swap file, cgroup' '
	nothing_left "$(cat pid)" &&
	! test -e res/int/scratch &&
	test -s res/int/sysinfo/after/meminfo &&
	test -s res/int/vmstat.json
'

test_expect_success JQ 'a failing workload stops the run: status 1, partial result' '
	mkdir notarepo &&
	test_expect_code 1 "$rt" --label=fail --repo=notarepo --gitk-runs=3 \
		--warmup=0 --confine=none --no-drop-caches \
		--music-args="--songs=1 --song-size=64k" \
		--results=res >out 2>err &&
	grep -x "PARTIAL: failed: fake-gitk failed with status 1 (see fake-gitk-1.err)" res/fail/summary.txt &&
	grep -x "fail partial: no fake-gitk run completed" res/fail/summary.txt &&
	test_json res/fail/result.json .partial true &&
	grep -x "latency-run-test: fake-gitk failed with status 1 (see fake-gitk-1.err)" err &&
	nothing_left none
'

test_expect_success CONFINE 'a given swap device is enabled for the run and disabled after it' '
	dd if=/dev/zero of=swapdev bs=1M count=16 status=none &&
	chmod 600 swapdev &&
	mkswap -q swapdev &&
	"$rt" --label=dev --commits=300 --gitk-runs=1 --warmup=0 \
		--no-drop-caches --confine=none --swap="$PWD/swapdev" \
		--music-args="--songs=1 --song-size=64k" \
		--results=res >out 2>err &&
	grep -qx ".*/latency-machine swapon --owner=[0-9]* $PWD/swapdev" res/dev/commands.log &&
	grep -qx "latency-machine: restoring run pid [0-9]*: swapoff $PWD/swapdev" res/dev/machine.log &&
	grep -q "^$PWD/swapdev " res/dev/sysinfo/before/swaps &&
	! grep -F "$PWD/swapdev" /proc/swaps &&
	test -s swapdev
'

test_expect_success ZRAM '--swap=zram: a zram device is made, used as swap, and gone after' '
	ls /sys/block >blocks.before &&
	"$rt" --label=zram --commits=300 --gitk-runs=1 --warmup=0 \
		--mem-limit=64M --swap=zram:16M \
		--music-args="--songs=1 --song-size=64k" \
		--results=res >out 2>err &&
	dev=$(sed -n "s/^swap: \(\/dev\/zram[0-9]*\) (zram)$/\1/p" res/zram/notes) &&
	test -n "$dev" &&
	grep -qx ".*/latency-machine zram --owner=[0-9]* 16777216" res/zram/commands.log &&
	grep -q "^$dev " res/zram/sysinfo/before/swaps &&
	grep -x "zram: .* compression, 16777216 bytes" res/zram/notes &&
	grep -qx "latency-machine: restoring run pid [0-9]*: zram ${dev#/dev/} [a-z]*" res/zram/machine.log &&
	! grep -q "^$dev " /proc/swaps &&
	ls /sys/block >blocks.after &&
	test_cmp blocks.before blocks.after &&
	if test -e "/sys/block/${dev#/dev/}/disksize"; then
		test "$(cat "/sys/block/${dev#/dev/}/disksize")" = 0
	fi
'

# A run killed between zram-control's hot_add and its zram entry: the
# zramnew entry recorded before the hot_add removes the empty device.
test_expect_success ZRAM 'zramnew: a device hot_added after the record is gone after the restore' '
	test -w /sys/class/zram-control/hot_add ||
		{ say "no zram-control: nothing is hot_added"; return 0; }
	ls /sys/block >blocks.before &&
	before=$(ls /sys/block | sed -n "s/^zram\([0-9]*\)$/\1/p" | paste -sd, -) &&
	LATENCY_STATE_DIR=$PWD/zstate latency-machine begin --owner=$$ &&
	LATENCY_STATE_DIR=$PWD/zstate \
		latency-machine record --owner=$$ zramnew "${before:-none}" &&
	n=$(cat /sys/class/zram-control/hot_add) &&
	test -e "/sys/block/zram$n" &&
	LATENCY_STATE_DIR=$PWD/zstate latency-machine restore --owner=$$ 2>err &&
	grep -x "latency-machine: restoring run pid $$: zramnew ${before:-none} (removed zram$n)" err &&
	ls /sys/block >blocks.after &&
	test_cmp blocks.before blocks.after
'

test_expect_success JQ 'a machine that cannot confine: status 3 unless allowed' '
	mkdir nocgroup &&
	LATENCY_CGROUP_ROOT=$PWD/nocgroup &&
	export LATENCY_CGROUP_ROOT &&
	test_expect_code 3 "$rt" --label=nocg --commits=300 --gitk-runs=1 \
		--mem-limit=64M --swap=none --results=res >out 2>err &&
	if test_have_prereq ROOT; then
		why="no memory cgroup controller under $PWD/nocgroup"
	else
		why="not root: cannot create a memory cgroup"
	fi &&
	grep -x "latency-run-test: cannot confine the run (memory cgroup): $why (--allow-unconfined goes on without)" err &&
	! test -e res/nocg &&
	"$rt" --label=nocg --commits=300 --gitk-runs=1 --warmup=0 --mem-limit=64M \
		--swap=none --allow-unconfined --no-drop-caches \
		--music-args="--songs=1 --song-size=64k" --results=res >out 2>err &&
	grep -x "note: unconfined: no memory cgroup ($why)" res/nocg/summary.txt &&
	test_json res/nocg/result.json ".pressure.mode == \"none\"" true
'

test_expect_success 'swap on tmpfs is refused before any work (exit 3)' '
	mkdir -p tmpfs-cache &&
	if test_have_prereq ROOT && mount -t tmpfs -o size=1M none tmpfs-cache; then
		st=0 &&
		env -u LATENCY_CGROUP_ROOT LATENCY_CACHE_DIR=$PWD/tmpfs-cache \
			"$rt" --label=tmpfs --commits=300 --confine=memcg \
			--results=res >out 2>err || st=$? &&
		umount tmpfs-cache &&
		test "$st" = 3 &&
		grep -x "latency-run-test: cannot put a swap file in $PWD/tmpfs-cache: it is on tmpfs (set LATENCY_CACHE_DIR to a disk, or give --swap=DEVICE)" err &&
		! test -e res/tmpfs
	fi
'

test_expect_success ROOT 'a swap file larger than the free space: one line, exit 3, before any work' '
	test_expect_code 3 "$rt" --label=big --commits=300 --confine=none \
		--swap=100T --results=res-big >out 2>err &&
	grep -x "$(basename "$rt"): cannot make a swap file of 100T in res-big: [0-9]* bytes are free there (give --scratch=DIR on a disk, or --swap=DEVICE)" err &&
	test "$(wc -l <err)" = 1 &&
	! test -e res-big/big && test -z "$(ls res-big/latency-swapfile.* 2>/dev/null)"
'

test_expect_success ROOT 'sysctls of the run are set through the record and restored' '
	old=$(cat /proc/sys/vm/page-cluster) &&
	new=$(( (old + 1) % 4 )) &&
	"$rt" --label=sy --commits=300 --gitk-runs=1 --warmup=0 --confine=none \
		--no-drop-caches --sysctl=vm.page-cluster=$new \
		--music-args="--songs=1 --song-size=64k" --results=res >out 2>err &&
	grep -x "page-cluster $new" res/sy/sysinfo/before/sys-vm &&
	echo "$old" >expect && test_cmp expect /proc/sys/vm/page-cluster &&
	grep -x "latency-machine: restoring run pid [0-9]*: sysctl vm.page-cluster $old" res/sy/machine.log
'

# start_killable LABEL: a memcg run with the automatic swap file that
# keeps running until killed; waits until its second run has started.
start_killable() {
	"$rt" --label="$1" --commits=300 --gitk-runs=200 --warmup=0 \
		--confine=memcg --pressure=1 --no-drop-caches \
		--gitk-args=--every=50 --music-args="--songs=1 --song-size=64k" \
		--results=res >"$1.out" 2>"$1.err" &
	pid=$! &&
	wait_for_file "res/$1/fake-gitk-2.latency"
}

test_expect_success CONFINE 'kill -9 leaves the machine changed; --restore undoes it' '
	mkdir tmp && TMPDIR=$PWD/tmp && export TMPDIR &&
	start_killable k9 &&
	kill -9 $pid &&
	wait $pid;
	test -p res/k9/fifo/fake-gitk-2 &&
	test -z "$(ls -A tmp)" &&
	grep -q "^swapoff	" state/state &&
	grep -q "^pid	" state/state &&
	test -d /sys/fs/cgroup/memory/latency-tests.$pid &&
	grep -F "$LATENCY_CACHE_DIR/swapfile" /proc/swaps &&
	"$rt" --restore >out 2>err &&
	! test -e state/state &&
	! grep -F "$LATENCY_CACHE_DIR/swapfile" /proc/swaps &&
	! test -e /sys/fs/cgroup/memory/latency-tests.$pid &&
	sleep 1 && nothing_left $pid &&
	"$rt" --restore >out 2>err
'

test_expect_success CONFINE 'after kill -9, the next run restores first and says so' '
	start_killable k9b &&
	kill -9 $pid &&
	wait $pid;
	"$rt" --label=next --commits=300 --gitk-runs=1 --warmup=0 \
		--confine=memcg --pressure=1 --no-drop-caches \
		--music-args="--songs=1 --song-size=64k" --results=res >out 2>err &&
	grep "restoring after run pid $pid" err &&
	grep "restoring after run pid $pid" res/next/notes &&
	nothing_left $pid &&
	! test -e state/state
'

test_done
