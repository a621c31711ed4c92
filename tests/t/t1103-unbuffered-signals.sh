#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='unbuffered: signals reach the child'
. "$abs_top_srcdir/tests/t/test-lib.sh"

(exec 3<>/dev/ptmx) 2>/dev/null ||
	test_skip_all 'no pseudo-terminals here (/dev/ptmx)'

env --default-signal=INT true 2>/dev/null && test_set_prereq DEFAULT_SIGNAL
env --ignore-signal=HUP true 2>/dev/null && test_set_prereq IGNORE_SIGNAL

# wait_for FILE PATTERN: up to 10 s for PATTERN to show up in FILE.  Each
# test removes FILE first, lest a stale one from the test before says
# "ready" before unbuffered has even started.
wait_for() {
	_n=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		_n=$((_n + 1))
		[ "$_n" -le 100 ] || { echo "timed out waiting for $2" >&2; return 1; }
		sleep 0.1
	done
}

# A child that reports the signal it gets and exits 7.  It waits in the
# wait builtin, which a trapped signal ends at once, not in a loop of
# sleeps: a shell that forks a new sleep just as the signal comes can
# miss running its trap (seen once in CI, a test that hung for good).
trapper='for s in INT TERM HUP; do trap "echo got-$s; kill \$! 2>/dev/null; exit 7" $s; done
sleep 600 </dev/null >/dev/null 2>&1 &
echo ready; wait'

# A signal ignored on entry stays ignored (nohup): the tests start
# unbuffered with it at its default where env can say so, so that a test
# run under nohup tests the same thing.
for sig in TERM HUP; do
	reset=''
	if test_have_prereq DEFAULT_SIGNAL; then
		reset="env --default-signal=$sig"
	fi
	test_expect_success "SIG$sig reaches the child, its status comes back" "
		rm -f out &&
		{ $reset unbuffered sh -c '$trapper' >out & } &&
		pid=\$! &&
		wait_for out ready &&
		kill -$sig \$pid &&
		test_expect_code 7 wait \$pid &&
		printf 'ready\ngot-$sig\n' >expect &&
		test_cmp expect out
	"
done

test_expect_success DEFAULT_SIGNAL 'SIGINT reaches the child' "
	rm -f out &&
	{ env --default-signal=INT unbuffered sh -c '$trapper' >out & } &&
	pid=\$! &&
	wait_for out ready &&
	kill -INT \$pid &&
	test_expect_code 7 wait \$pid &&
	printf 'ready\ngot-INT\n' >expect &&
	test_cmp expect out
"

# As nohup leaves it: SIGHUP ignored on entry is not passed on (the child
# inherits it ignored, and its trap cannot take it), SIGTERM still is.
test_expect_success IGNORE_SIGNAL 'a signal ignored on entry stays ignored' "
	rm -f out &&
	{ env --ignore-signal=HUP unbuffered sh -c '$trapper' >out & } &&
	pid=\$! &&
	wait_for out ready &&
	kill -HUP \$pid &&
	sleep 0.3 &&
	kill -0 \$pid &&
	kill -TERM \$pid &&
	test_expect_code 7 wait \$pid &&
	printf 'ready\ngot-TERM\n' >expect &&
	test_cmp expect out
"

test_expect_success 'a child that does not catch SIGTERM gives 143' '
	rm -f out &&
	{ unbuffered sh -c "echo ready; while :; do sleep 0.1; done" >out & } &&
	pid=$! &&
	wait_for out ready &&
	kill -TERM $pid &&
	test_expect_code 143 wait $pid
'

test_expect_success 'a signal stops the wait for a straggler holding the pty' '
	rm -f out &&
	{ unbuffered sh -c "(trap \"\" HUP; echo straggler; : >started; sleep 5) &
		while ! test -f started; do sleep 0.05; done; echo ready; exit 3" >out & } &&
	pid=$! &&
	wait_for out ready &&
	sleep 0.2 &&
	kill -0 $pid &&
	kill -TERM $pid &&
	test_expect_code 3 wait $pid
'

test_done
