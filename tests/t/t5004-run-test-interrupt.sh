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

confine=
test_have_prereq CONFINE && confine="--mem-limit=64M --swap=16M"

test_expect_success DEFAULT_SIGNAL 'SIGINT stops the run: status 130, partial result' '
	# A child of a non-interactive shell starts with SIGINT ignored, as
	# background jobs do; give the driver the default, as a terminal would.
	# shellcheck disable=SC2086
	env --default-signal=INT "$rt" --label=int --commits=300 \
		--gitk-runs=200 --no-drop-caches --gitk-args=--every=50 \
		--music-args="--songs=1 --song-size=64k" $confine \
		--results=res >out 2>err &
	pid=$! &&
	wait_for_file res/int/fake-gitk-2.latency &&
	if test_have_prereq CONFINE; then
		grep -F "$PWD/res/int/scratch/swapfile" /proc/swaps &&
		test -d "/sys/fs/cgroup/memory/latency-tests.$pid"
	fi &&
	kill -INT $pid &&
	test_expect_code 130 wait $pid &&
	echo $pid >pid &&
	grep -x "PARTIAL: interrupted by SIGINT" res/int/summary.txt &&
	grep -q "^  \"partial\": true,$" res/int/result.json &&
	grep "result (partial) in $PWD/res/int\$" err
'

test_expect_success DEFAULT_SIGNAL 'nothing is left behind: processes, swap file, cgroup' '
	nothing_left "$(cat pid)" &&
	! test -e res/int/scratch &&
	test -s res/int/sysinfo/after/meminfo &&
	test -s res/int/vmstat.json
'

test_expect_success 'a failing workload stops the run: status 1, partial result' '
	mkdir notarepo &&
	test_expect_code 1 "$rt" --label=fail --repo=notarepo --gitk-runs=3 \
		--no-drop-caches --music-args="--songs=1 --song-size=64k" \
		--results=res >out 2>err &&
	grep -x "PARTIAL: failed: fake-gitk failed with status 1 (see fake-gitk-1.err)" res/fail/summary.txt &&
	grep -x "fail partial: no fake-gitk run completed" res/fail/summary.txt &&
	grep -q "^  \"partial\": true,$" res/fail/result.json &&
	grep -x "latency-run-test: fake-gitk failed with status 1 (see fake-gitk-1.err)" err &&
	nothing_left none
'

test_expect_success CONFINE 'a given swap device is enabled for the run and disabled after it' '
	dd if=/dev/zero of=swapdev bs=1M count=16 status=none &&
	chmod 600 swapdev &&
	mkswap -q swapdev &&
	"$rt" --label=dev --commits=300 --gitk-runs=1 --no-drop-caches \
		--music-args="--songs=1 --song-size=64k" --swap="$PWD/swapdev" \
		--results=res >out 2>err &&
	grep -qx "swapon $PWD/swapdev" res/dev/commands.log &&
	grep -qx "swapoff $PWD/swapdev" res/dev/commands.log &&
	grep -q "^$PWD/swapdev " res/dev/sysinfo/before/swaps &&
	! grep -F "$PWD/swapdev" /proc/swaps &&
	test -s swapdev
'

test_expect_success 'a machine that cannot confine: status 3 unless allowed' '
	mkdir nocgroup &&
	LATENCY_CGROUP_ROOT=$PWD/nocgroup &&
	export LATENCY_CGROUP_ROOT &&
	test_expect_code 3 "$rt" --label=nocg --commits=300 --gitk-runs=1 \
		--mem-limit=64M --results=res >out 2>err &&
	if test_have_prereq ROOT; then
		why="no memory cgroup controller under $PWD/nocgroup"
	else
		why="not root: cannot create a memory cgroup"
	fi &&
	grep -x "latency-run-test: cannot confine the run (memory limit 64M): $why (--allow-unconfined goes on without)" err &&
	"$rt" --label=nocg --commits=300 --gitk-runs=1 --mem-limit=64M \
		--allow-unconfined --no-drop-caches \
		--music-args="--songs=1 --song-size=64k" --results=res >out 2>err &&
	grep -x "note: unconfined: no memory limit 64M ($why)" res/nocg-2/summary.txt
'

test_done
