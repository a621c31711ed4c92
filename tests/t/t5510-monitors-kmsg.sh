#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lib.sh idiom: test bodies are single-quoted and evaluated later, and
# the harness sets abs_top_srcdir and reads test_description.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-kmsg: exact counts of messages injected through /dev/kmsg, both sources, options, signals'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-monitors.sh"

# Writing a line to /dev/kmsg logs it as a kernel message (root only).  Every
# message carries a tag unique to this run, and --match counts only those,
# so other activity on the machine cannot change the counts.  Background
# runs carry a --duration so that a failing test leaves no process behind.
tag="lt-t5510-$$"
test_have_prereq ROOT && test -w /dev/kmsg && test_set_prereq KMSG
if test_have_prereq ROOT && command -v setpriv >/dev/null 2>&1 &&
	[ "$(cat /proc/sys/kernel/dmesg_restrict 2>/dev/null)" = 1 ]; then
	test_set_prereq RESTRICTED
fi

test_have_prereq ROOT && unshare -m --propagation private true 2>/dev/null &&
	test_set_prereq UNSHARE

inject() {
	for _m in "$@"; do
		printf '%s\n' "$_m" >/dev/kmsg || return 1
	done
}

inject_set() {
	inject "$tag: page allocation failure: order:0, mode:0x40cc0" \
		"$tag: page allocation failure: order:2" \
		"$tag: page allocation failure: order:3" \
		"$tag invoked oom-killer: gfp_mask=0xcc0" \
		"$tag: Out of memory: Killed process 4242 (fake-gitk)" \
		"$tag: Memory cgroup out of memory: Killed process 4243 (x)" \
		"$tag: INFO: task fake-gitk:4242 blocked for more than 120 seconds." \
		"$tag: Oops: 0000 [#1] SMP" \
		"$tag: BUG: unable to handle page fault" \
		"$tag: WARNING: CPU: 1 PID: 7 at mm/page_alloc.c:1 x" \
		"$tag: WARNING: CPU: 0 PID: 8 at fs/x.c:2 y" \
		"$tag: an ordinary message"
}

printf '%s\n' messages=12 failures=3 oom_kills=2 oom_invoked=1 hung_tasks=1 \
	oopses=2 bugs=1 warnings=2 >"$TRASH_DIRECTORY/expect-counts"

counts_of() {
	grep -e '^messages=' -e '^failures=' -e '^oom_' -e '^hung_tasks=' \
		-e '^oopses=' -e '^bugs=' -e '^warnings=' "$1"
}

test_expect_success KMSG 'messages logged before the start do not count' '
	inject "$tag: page allocation failure: before the start" &&
	{ latency-kmsg --duration 30s --match "$tag" --summary sum \
		>before.out & } &&
	pid=$! &&
	wait_for_line before.out " started=1 source=kmsg" &&
	kill -TERM $pid &&
	wait $pid &&
	test "$(summary_value sum messages)" = 0 &&
	test "$(summary_value sum failures)" = 0
'

test_expect_success KMSG 'exact counts from /dev/kmsg' '
	latency-kmsg --duration 30s --match "$tag" --summary sum --log log &
	pid=$! &&
	wait_for_line log " started=1 source=kmsg" &&
	inject_set &&
	kill -TERM $pid &&
	wait $pid &&
	counts_of sum >actual &&
	test_cmp expect-counts actual &&
	test "$(summary_value sum source)" = kmsg &&
	test "$(summary_value sum end_reason)" = signal &&
	test "$(summary_value sum lost_messages)" = 0
'

test_expect_success KMSG 'failures are counted per order from their order:N' '
	failures_order_of() {
		grep "^failures_order_" "$1"
	} &&
	printf "%s\n" failures_order_0=1 failures_order_2=1 \
		failures_order_3=1 >expect &&
	failures_order_of sum >actual &&
	test_cmp expect actual &&
	{ latency-kmsg --duration 30s --match "$tag-o" --summary osum \
		>orders.out & } &&
	pid=$! &&
	wait_for_line orders.out " started=1 source=kmsg" &&
	inject "$tag-o: page allocation failure: order:9, mode:0x140cca" \
		"$tag-o: page allocation failure: order:4, mode:0x20" \
		"$tag-o: page allocation failure. order:4, mode:0x20" \
		"$tag-o: page allocation failure: order:9, mode:0x40dc0" \
		"$tag-o: page allocation failure: order:10, mode:0x0" \
		"$tag-o: page allocation failure: order:999, mode:0x0" \
		"$tag-o: page allocation failure: order:x" \
		"$tag-o: order:5 without a failure" &&
	kill -TERM $pid &&
	wait $pid &&
	test "$(summary_value osum failures)" = 7 &&
	printf "%s\n" failures_order_4=2 failures_order_9=2 \
		failures_order_10=1 failures_order_unknown=2 >expect &&
	failures_order_of osum >actual &&
	test_cmp expect actual
'

test_expect_success KMSG 'each message is one line: time, kernel time, class, text' '
	grep -c "^[0-9]*\.[0-9]\{9\} latency-kmsg kts=[0-9]*\.[0-9]\{6\} seq=[0-9]* level=[0-7] facility=[0-9]* class=[a-z-]* msg=$tag" log >count &&
	echo 12 >expect && test_cmp expect count &&
	grep -c " class=failure msg=$tag: page allocation failure" log >count &&
	echo 3 >expect && test_cmp expect count &&
	grep -q " class=oom-kill msg=$tag: Out of memory: Killed process 4242" log &&
	grep -q " class=hung-task msg=$tag: INFO: task" log &&
	grep -q " class=- msg=$tag: an ordinary message" log &&
	tail -n 1 log >last &&
	grep -q " latency-kmsg summary=1 source=kmsg messages=12 failures=3 " last
'

test_expect_success KMSG 'the syslog(2) fallback counts the same' '
	latency-kmsg --duration 30s --source syslog --match "$tag" \
		--summary sum >syslog.out &
	pid=$! &&
	wait_for_line syslog.out " started=1 source=syslog" &&
	inject_set &&
	sleep 0.5 &&
	kill -TERM $pid &&
	wait $pid &&
	counts_of sum >actual &&
	test_cmp expect-counts actual &&
	test "$(summary_value sum source)" = syslog
'

test_expect_success KMSG,JQ '--duration ends the run with exit 0 and a JSON summary' '
	latency-kmsg --duration 300ms --match "$tag" --format json \
		--summary sum.json >out &&
	test_json sum.json .program latency-kmsg &&
	test_json sum.json .failures 0 &&
	test_json sum.json .end_reason duration
'

test_expect_success RESTRICTED 'without the right to read the log: exit 3, one line' '
	test_expect_code 3 setpriv --reuid=65534 --regid=65534 --clear-groups \
		latency-kmsg --duration 100ms >/dev/null 2>err &&
	test_line_count = 1 err &&
	grep -q "^latency-kmsg: cannot read the kernel log (needs root or kernel.dmesg_restrict=0): /dev/kmsg: .*; syslog(2): [A-Z]" err &&
	test_expect_code 3 setpriv --reuid=65534 --regid=65534 --clear-groups \
		latency-kmsg --source kmsg --duration 100ms >/dev/null 2>err &&
	grep -q "^latency-kmsg: cannot read /dev/kmsg: " err
'

# In a private mount namespace a file bound over
# /proc/sys/kernel/dmesg_restrict sets what latency-kmsg sees, and the
# machine's setting stays untouched.
test_expect_success KMSG,UNSHARE 'the log file follows kernel.dmesg_restrict' '
	cat >restrict.sh <<-\EOF &&
	umask 022
	printf "%s\n" "$1" >"restrict-$2"
	mount --bind "restrict-$2" /proc/sys/kernel/dmesg_restrict || exit 1
	latency-kmsg --duration 100ms --log "$2" >/dev/null || exit 1
	EOF
	unshare -m --propagation private sh restrict.sh 1 restricted.log &&
	unshare -m --propagation private sh restrict.sh 0 open.log &&
	unshare -m --propagation private sh restrict.sh junk unknown.log &&
	echo old >old.log &&
	chmod 644 old.log &&
	unshare -m --propagation private sh restrict.sh 1 old.log &&
	stat -c "%n %a" restricted.log open.log unknown.log old.log >actual &&
	printf "%s\n" "restricted.log 600" "open.log 644" "unknown.log 600" \
		"old.log 600" >expect &&
	test_cmp expect actual &&
	grep -q " latency-kmsg summary=1 source=kmsg " old.log &&
	! grep -q "^old$" old.log
'

test_expect_success 'bad options' '
	test_expect_code 2 latency-kmsg --source journal 2>err &&
	grep -q "invalid value .journal. for --source" err &&
	test_expect_code 2 latency-kmsg --log a -o b 2>err &&
	grep -q "give one" err &&
	test_expect_code 2 latency-kmsg --duration 0 &&
	test_expect_code 2 latency-kmsg --format xml &&
	test_expect_code 2 latency-kmsg extra
'

test_done
