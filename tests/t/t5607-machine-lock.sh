#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016
# (test bodies are single-quoted on purpose; test-lib.sh evaluates them)
test_description='latency-machine: one run per machine, whatever its state directory'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-machine.sh"
. "$abs_top_srcdir/tests/t/lib-run-test.sh"

LOCK=$LATENCY_LOCK_DIR/latency-tests.lock

# run DIR [ARG]...: latency-machine on the fake kernel with the state
# directory DIR: two runs of the audit, each its own record.
run() {
	_dir=$1
	shift
	LATENCY_PROC=$FAKE/proc LATENCY_SYS=$FAKE/sys \
		LATENCY_STATE_DIR=$TRASH_DIRECTORY/$_dir \
		LATENCY_CGROUP_ROOT=$CGROOT latency-machine "$@"
}

# Runs 4242 and 4343 alive, with command lines; page-cluster 3.
setup() {
	rm -rf sa sb sx "${LATENCY_LOCK_DIR:?}"/* &&
	fake_tree 2048 1536 16384 &&
	fake_pid 4242 1000 && fake_pid 4343 2000 &&
	printf "run-test.sh\0--quick\0--label=a\0" >"$FAKE/proc/4242/cmdline" &&
	printf "run-test.sh\0--quick\0--label=b\0" >"$FAKE/proc/4343/cmdline" &&
	echo 3 >"$FAKE/proc/sys/vm/page-cluster"
}

test_expect_success 'a second run is refused at once, naming the first; the first undoes its own' '
	setup &&
	run sa begin --owner=4242 &&
	run sa record --owner=4242 sysctl vm.page-cluster &&
	echo 0 >"$FAKE/proc/sys/vm/page-cluster" &&
	test_expect_code 3 run sb begin --owner=4343 2>err &&
	echo "latency-machine: another run (pid 4242: run-test.sh --quick --label=a) is in progress; it holds '\''$LOCK'\''" >expect &&
	test_cmp expect err &&
	! test -e sb/state &&
	run sa restore --owner=4242 2>err &&
	test "$(cat "$FAKE/proc/sys/vm/page-cluster")" = 3 &&
	! test -s "$LOCK" &&
	run sb begin --owner=4343 &&
	test "$(cut -f 1,2 "$LOCK")" = "4343	2000"
'

test_expect_success 'a second begin by the holder is refused and leaves it the machine' '
	setup &&
	run sa begin --owner=4242 &&
	cp "$LOCK" lock.before &&
	test_expect_code 3 run sa begin --owner=4242 2>err &&
	echo "latency-machine: another run (pid 4242: run-test.sh --quick --label=a) is in progress" >expect &&
	test_cmp expect err &&
	test_cmp lock.before "$LOCK"
'

test_expect_success 'the lock names the holder: pid, start, uid, record, command' '
	setup &&
	run sa begin --owner=4242 &&
	printf "4242\t1000\t%s\t%s\trun-test.sh --quick --label=a\n" \
		"$(id -u)" "$PWD/sa/state" >expect &&
	test_cmp expect "$LOCK" &&
	test "$(stat -c %a "$LOCK")" = 666
'

test_expect_success 'only the holder records or shrinks: a run without the machine is refused' '
	setup &&
	run sa begin --owner=4242 &&
	mkdir -m 700 sb &&
	{
		crc_line "format	2" && crc_line "owner	4343	2000" &&
		crc_line "pool	0" && crc_line "cgroup	$CGROOT"
	} >sb/state && chmod 600 sb/state &&
	cp sb/state before &&
	test_expect_code 3 run sb record --owner=4343 sysctl vm.page-cluster 2>err &&
	echo "latency-machine: run pid 4343 does not hold the machine: run pid 4242 (run-test.sh --quick --label=a) does ('\''$LOCK'\'')" >expect &&
	test_cmp expect err &&
	fake_blocks 1 4 &&
	test_expect_code 3 run sb shrink --owner=4343 --keep=1G 2>err &&
	test_cmp expect err &&
	test_cmp before sb/state
'

test_expect_success 'a holder killed with SIGKILL holds nothing: the next run undoes its record first' '
	setup &&
	run sa begin --owner=4242 &&
	run sa record --owner=4242 sysctl vm.page-cluster &&
	echo 0 >"$FAKE/proc/sys/vm/page-cluster" &&
	rm -r "$FAKE/proc/4242" &&
	run sb begin --owner=4343 2>err &&
	echo "latency-machine: restoring after run pid 4242 (dead): sysctl vm.page-cluster 3" >expect &&
	test_cmp expect err &&
	test "$(cat "$FAKE/proc/sys/vm/page-cluster")" = 3 &&
	! test -e sa/state && test -e sb/state &&
	test "$(cut -f 1 "$LOCK")" = 4343
'

test_expect_success 'a dead run whose changes cannot be undone: the next run is not begun' '
	setup &&
	run sa begin --owner=4242 &&
	run sa record --owner=4242 sysctl vm.gone 5 &&
	rm -r "$FAKE/proc/4242" &&
	test_expect_code 1 run sb begin --owner=4343 2>err &&
	grep "1 change(s) of run pid 4242 could not be undone" err &&
	! test -e sb/state && ! test -s "$LOCK"
'

test_expect_success 'a dead run of another user is named, never restored' '
	setup &&
	mkdir -m 700 sx && echo planted >sx/state &&
	printf "2147483000\t5\t12345\t%s\tother\n" "$PWD/sx/state" >"$LOCK" &&
	run sb begin --owner=4343 2>err &&
	echo "latency-machine: run pid 2147483000 of uid 12345 died holding the machine; its record '\''$PWD/sx/state'\'' is that user'\''s to restore (LATENCY_STATE_DIR=$PWD/sx latency-machine restore)" >expect &&
	test_cmp expect err &&
	echo planted >expect && test_cmp expect sx/state
'

test_expect_success 'a dead run'\''s record is not restored under a live run'\''s feet' '
	setup &&
	mkdir other-lock &&
	LATENCY_LOCK_DIR=$PWD/other-lock run sa begin --owner=4242 &&
	LATENCY_LOCK_DIR=$PWD/other-lock run sa record --owner=4242 sysctl vm.page-cluster &&
	echo 0 >"$FAKE/proc/sys/vm/page-cluster" &&
	rm -r "$FAKE/proc/4242" &&
	run sb begin --owner=4343 &&
	test_expect_code 3 run sa restore 2>err &&
	echo "latency-machine: another run (pid 4343: run-test.sh --quick --label=b) is in progress; it holds '\''$LOCK'\'' (restore run pid 4242'\''s record after it)" >expect &&
	test_cmp expect err &&
	test "$(cat "$FAKE/proc/sys/vm/page-cluster")" = 0 &&
	run sb restore --owner=4343 &&
	run sa restore 2>err &&
	test "$(cat "$FAKE/proc/sys/vm/page-cluster")" = 3
'

test_expect_success 'a lock file that is a link or a FIFO is refused, without blocking' '
	setup &&
	ln -s "$PWD/elsewhere" "$LOCK" &&
	test_expect_code 1 run sa begin --owner=4242 2>err &&
	echo "latency-machine: refusing lock '\''$LOCK'\'': it is a symbolic link" >expect &&
	test_cmp expect err &&
	! test -e elsewhere &&
	rm "$LOCK" && mkfifo "$LOCK" &&
	test_expect_code 1 timeout 20 env LATENCY_PROC=$FAKE/proc \
		LATENCY_STATE_DIR=$PWD/sa latency-machine begin --owner=4242 2>err &&
	echo "latency-machine: refusing lock '\''$LOCK'\'': not a regular file with one link" >expect &&
	test_cmp expect err &&
	rm "$LOCK" && : >target && ln target "$LOCK" &&
	test_expect_code 1 run sa begin --owner=4242 2>err &&
	test_cmp expect err &&
	! test -e sa/state
'

test_expect_success 'without a lock directory: exit 3, set LATENCY_LOCK_DIR' '
	setup &&
	test_expect_code 3 env LATENCY_LOCK_DIR=$PWD/none LATENCY_PROC=$FAKE/proc \
		LATENCY_STATE_DIR=$PWD/sa latency-machine begin --owner=4242 2>err &&
	grep -x "latency-machine: cannot open the lock directory .$PWD/none. (set LATENCY_LOCK_DIR to a directory every user of the suite can write): No such file or directory" err
'

# The driver on the real /proc: a live process holds the machine.
test_expect_success 'run-test.sh: a second run stops before it changes anything (exit 3)' '
	{ sleep 600 & } &&
	holder=$! &&
	LATENCY_STATE_DIR=$PWD/real latency-machine begin --owner=$holder &&
	test_expect_code 3 env LATENCY_STATE_DIR=$PWD/other run-test.sh \
		--label=second --commits=300 --gitk-runs=1 --warmup=0 \
		--confine=none --no-drop-caches --results=res >out 2>err &&
	grep -x "latency-machine: another run (pid $holder: sleep 600) is in progress; it holds .$LOCK." err &&
	grep -x "run-test.sh: another run is using this machine (see above)" err &&
	! test -e res && ! test -e other/state &&
	test_expect_code 3 env LATENCY_STATE_DIR=$PWD/real run-test.sh --restore 2>err &&
	grep -x "latency-machine: another run (pid $holder: sleep 600) is in progress" err &&
	test -e real/state &&
	kill $holder && { wait $holder || :; } &&
	LATENCY_STATE_DIR=$PWD/real run-test.sh --restore 2>err &&
	! test -e real/state
'

test_done
