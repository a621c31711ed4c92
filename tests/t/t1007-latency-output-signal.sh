#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-output: SIGINT/SIGTERM give a partial report and 128+N'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# Start latency-output on a FIFO whose writer stays open, wait for LINES
# stream lines, then send it SIGNAL.  Sets $status.
# Usage: stop_with SIGNAL LINES [OPTION...]
stop_with() {
	_sig=$1
	_lines=$2
	shift 2
	rm -f fifo && mkfifo fifo && : >out || return 1
	latency-output "$@" <fifo >out 2>err &
	pid=$!
	{ printf "1.0 w\n2.0 w\n3.5 w\n" | head -n "$_lines" && exec sleep 60; } >fifo &
	writer=$!
	n=0
	while [ "$(wc -l <out)" -lt "$_lines" ] && [ "$n" -lt 200 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	kill -"$_sig" "$pid"
	wait "$pid"
	status=$?
	kill "$writer"
	wait "$writer" 2>/dev/null
	return 0
}

test_expect_success JQ 'SIGINT: partial report marked interrupted, exit 130' '
	stop_with INT 3 --format json &&
	test $status = 130 &&
	test_line_count = 3 out &&
	test_json err .interrupted true &&
	test_json err .signal 2 &&
	test_json err .gaps 2 &&
	test_json err .max_s 1.5
'

test_expect_success JQ 'SIGTERM: the same with exit 143' '
	stop_with TERM 3 --format json &&
	test $status = 143 &&
	test_json err .interrupted true &&
	test_json err .gaps 2
'

test_expect_success 'the text report says it was interrupted' '
	stop_with INT 2 --report rep &&
	test $status = 130 &&
	grep "^interrupted by signal 2 (Interrupt): partial report$" rep &&
	grep "^gaps  *1$" rep
'

test_done
