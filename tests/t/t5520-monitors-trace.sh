#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lib.sh idiom: test bodies are single-quoted and evaluated later, and
# the harness sets abs_top_srcdir and reads test_description.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-trace: tracepoint stall times, the events list, a recorded trace_pipe, reclaim in a small memory cgroup, clean-up, options'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-monitors.sh"

grep -qw tracefs /proc/filesystems 2>/dev/null && test_set_prereq TRACEFS
test_have_prereq ROOT && command -v setpriv >/dev/null 2>&1 &&
	test_set_prereq SETPRIV
test_have_prereq ROOT && unshare -m --propagation private true 2>/dev/null &&
	test_set_prereq UNSHARE
if test_have_prereq ROOT && parent=$(memcg_parent); then
	test_set_prereq MEMCG
fi

# Background runs carry a --duration so that a failing test leaves no
# process behind, and write files of their own, so that waiting for a line
# cannot find one an earlier test left.

# Other latency-trace runs (a driver run, another checkout's tests) may
# use tracefs at the same time, so the checks look at this run's own
# instance, and an unmount that such a run keeps busy is tolerated.
instance_of() {
	for _d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		ls -d "$_d/instances/$1" 2>/dev/null || :
	done
}
no_errors_but_busy() {
	grep -v "warning: cannot unmount .*: Device or resource busy" "$1" \
		>"$1.other" || :
	! test -s "$1.other"
}

fixture="$abs_top_srcdir/tests/t/fixtures/monitors/trace_pipe.txt"

# A recording with every stall kind, the formats with and without the
# irq-info column, kcompactd (not a stall), an end without a begin, a begin
# without an end, pauses that did not sleep, lost events, malformed lines
# and a last line without its newline.
test_expect_success 'a recorded trace_pipe: exact stalls in the events file' '
	(umask 022 && latency-trace --replay "$fixture" --events events \
		--summary sum >out 2>err) &&
	! test -s err &&
	cat >expect <<-\EOF &&
	1000.002600000 direct_reclaim 0.002500000 pid=100
	1000.012200000 direct_reclaim 0.012000000 pid=101
	1000.015000000 memcg_reclaim 0.005000000 pid=200
	1000.031500000 compaction 0.001500000 pid=300
	1000.070000000 balance_dirty_pages 0.020000000 pid=400
	1000.200000000 reclaim_throttled 0.100000000 pid=50
	1000.300250000 direct_reclaim 0.000250000 pid=100
	EOF
	test_cmp expect events &&
	test "$(stat -c %a events)" = 644 &&
	grep -q "^[0-9]*\.[0-9]\{9\} latency-trace started=1 source=replay$" out
'

test_expect_success 'a recorded trace_pipe: the summary' '
	grep -v -e "^version=" -e "^duration_s=" sum >actual &&
	cat >expect <<-\EOF &&
	program=latency-trace
	replay=true
	direct_reclaim_available=true
	direct_reclaim_count=3
	direct_reclaim_total_s=0.014750000
	direct_reclaim_max_s=0.012000000
	direct_reclaim_unmatched=1
	direct_reclaim_open_at_end=1
	memcg_reclaim_available=true
	memcg_reclaim_count=1
	memcg_reclaim_total_s=0.005000000
	memcg_reclaim_max_s=0.005000000
	memcg_reclaim_unmatched=0
	memcg_reclaim_open_at_end=0
	compaction_available=true
	compaction_count=1
	compaction_total_s=0.001500000
	compaction_max_s=0.001500000
	compaction_unmatched=0
	compaction_open_at_end=0
	balance_dirty_pages_available=true
	balance_dirty_pages_count=1
	balance_dirty_pages_total_s=0.020000000
	balance_dirty_pages_max_s=0.020000000
	balance_dirty_pages_period_total_s=0.030000000
	reclaim_throttled_available=true
	reclaim_throttled_count=1
	reclaim_throttled_total_s=0.100000000
	reclaim_throttled_max_s=0.100000000
	trace_lines=22
	unparsed_lines=3
	end_reason=end_of_file
	EOF
	test_cmp expect actual
'

test_expect_success 'the events file is new: never an existing file, never a symlink' '
	echo keep >existing &&
	test_expect_code 1 latency-trace --replay "$fixture" --events existing \
		>out 2>err &&
	echo "latency-trace: cannot create '\''existing'\'': File exists" >expect &&
	test_cmp expect err &&
	echo keep >expect && test_cmp expect existing &&
	ln -s target dangling &&
	test_expect_code 1 latency-trace --replay "$fixture" --events dangling \
		>out 2>err &&
	grep -q "^latency-trace: cannot create .dangling.: File exists$" err &&
	! test -e target &&
	ln -s existing link &&
	test_expect_code 1 latency-trace --replay "$fixture" --events link \
		>out 2>err &&
	test_cmp expect existing
'

test_expect_success UNSHARE 'a full disk: exit 1, no half line in the events file' '
	cat >full.sh <<-\EOF &&
	mkdir -p full &&
	mount -t tmpfs -o size=4k tmpfs full || exit 1
	head -c 4096 /dev/zero >full/filler
	latency-trace --replay "$1" --events full/ev >out 2>err
	echo $? >status
	stat -c %s full/ev >size
	EOF
	unshare -m --propagation private sh full.sh "$fixture" &&
	echo 1 >expect && test_cmp expect status &&
	echo 0 >expect && test_cmp expect size &&
	echo "latency-trace: cannot write '\''full/ev'\'': No space left on device" >expect &&
	test_cmp expect err
'

test_expect_success 'a run that fails before its start leaves no events file' '
	test_expect_code 1 latency-trace --replay no-such-recording \
		--events ev-none >out 2>err &&
	grep -q "^latency-trace: cannot open .no-such-recording.: No such file" err &&
	! test -e ev-none
'

test_expect_success 'strict numbers: signed or overflowing fields are unparsed lines' '
	printf "%s\n" \
		"x-1 [000] ..... 5.000000: mm_vmscan_throttled: usect_delayed=-7" \
		"x-1 [000] ..... 5.000000: mm_vmscan_throttled: usect_delayed=+7" \
		"x-1 [000] ..... 5.000000: mm_vmscan_throttled: usect_delayed=99999999999999999999" \
		"x-1 [000] ..... 5.000000: mm_vmscan_throttled: usect_delayed=9223372036854775807" \
		"x-1 [000] ..... 5.000000: balance_dirty_pages: pause=9223372036854775807" \
		"x-1 [000] ..... +5.000000: mm_vmscan_direct_reclaim_begin: order=0" \
		"x-+1 [000] ..... 5.000000: mm_vmscan_direct_reclaim_begin: order=0" \
		"x-1 [+0] ..... 5.000000: mm_vmscan_direct_reclaim_begin: order=0" \
		>strict.txt &&
	latency-trace --replay strict.txt --events ev-strict --summary sum &&
	echo "5.000000000 reclaim_throttled 0.000000000 pid=1" >expect &&
	test_cmp expect ev-strict &&
	test "$(summary_value sum trace_lines)" = 8 &&
	test "$(summary_value sum unparsed_lines)" = 7
'

test_expect_success ROOT,TRACEFS 'a timed run reports every stall kind' '
	latency-trace --interval 250ms --duration 1s --summary sum \
		--events timed.events >out 2>err &&
	no_errors_but_busy err &&
	test -f timed.events &&
	grep -q "^[0-9]*\.[0-9]\{9\} latency-trace started=1 tracefs=/" out &&
	grep -c " interval=1 direct_reclaim_count=[0-9]* direct_reclaim_time_s=[0-9.]* memcg_reclaim_count=" out >count &&
	test "$(cat count)" -ge 3 &&
	for s in direct_reclaim memcg_reclaim compaction balance_dirty_pages \
		reclaim_throttled; do
		grep -q "^${s}_available=true$" sum &&
		grep -q "^${s}_count=[0-9]*$" sum &&
		grep -q "^${s}_total_s=[0-9]*\.[0-9]\{9\}$" sum &&
		grep -q "^${s}_max_s=[0-9]*\.[0-9]\{9\}$" sum ||
		grep -q "^${s}_available=false$" sum || return 1
	done &&
	test "$(summary_value sum direct_reclaim_available)" = true &&
	test "$(summary_value sum unparsed_lines)" = 0 &&
	test "$(summary_value sum end_reason)" = duration &&
	instance_of "$(summary_value sum instance)" >left &&
	! test -s left
'

# In a private mount namespace no other run can mount or unmount tracefs
# under our feet: there the mount state must be exactly restored.
test_expect_success ROOT,TRACEFS,UNSHARE 'tracefs it had to mount is unmounted again' '
	cat >inner.sh <<-\EOF &&
	for m in $(awk "\$3 == \"tracefs\" { print \$2 }" /proc/self/mounts); do
		umount "$m" || exit 1
	done
	latency-trace --duration 300ms --summary sum >out 2>err || exit 1
	grep -c " tracefs " /proc/self/mounts >mounted-after
	exit 0
	EOF
	unshare -m --propagation private sh inner.sh &&
	! test -s err &&
	test "$(summary_value sum tracefs_mounted)" = true &&
	echo 0 >expect &&
	test_cmp expect mounted-after
'

test_expect_success ROOT,TRACEFS,MEMCG 'page-cache pressure in a 32M cgroup shows reclaim stalls' '
	cg="$parent/latency-tests-t5520-$$" &&
	mkdir "$cg" &&
	memcg_limit "$cg" 32M &&
	{ latency-trace --interval 1s --duration 30s --summary sum \
		--events reclaim.events >reclaim.out & } &&
	pid=$! &&
	wait_for_line reclaim.out " started=1 " &&
	sh -c "echo \$\$ >\"$cg/cgroup.procs\" && exec memhog hog.dat 128M 2" &&
	kill -TERM $pid &&
	wait $pid &&
	rmdir "$cg" &&
	rm -f hog.dat &&
	reclaims=$(( $(summary_value sum direct_reclaim_count) + $(summary_value sum memcg_reclaim_count) )) &&
	test "$reclaims" -gt 0 &&
	test "$(summary_value sum memcg_reclaim_total_s)" != 0.000000000 &&
	test "$(summary_value sum end_reason)" = signal &&
	stalls=0 &&
	for s in direct_reclaim memcg_reclaim compaction balance_dirty_pages \
		reclaim_throttled; do
		n=$(summary_value sum ${s}_count) &&
		stalls=$((stalls + ${n:-0})) || return 1
	done &&
	test_line_count = "$stalls" reclaim.events &&
	! grep -v "^[0-9]*\.[0-9]\{9\} [a-z_]* [0-9]*\.[0-9]\{9\} pid=[0-9]*$" \
		reclaim.events &&
	grep -c " memcg_reclaim " reclaim.events >count &&
	summary_value sum memcg_reclaim_count >expect &&
	test_cmp expect count &&
	# The events are on the progress lines clock: between the started
	# line and the summary line.
	first=$(sed -n "s/ latency-trace started=1 .*//p" reclaim.out) &&
	last=$(sed -n "s/ latency-trace summary=1 .*//p" reclaim.out) &&
	awk -v a="$first" -v b="$last" \
		"\$1 < a || \$1 > b { bad++ } END { exit bad > 0 }" \
		reclaim.events &&
	instance_of "$(summary_value sum instance)" >left &&
	! test -s left
'

test_expect_success ROOT,TRACEFS,JQ 'SIGTERM: summary written, instance removed, exit 0' '
	{ latency-trace --duration 30s --format json --summary sum.json \
		>term.out & } &&
	pid=$! &&
	wait_for_line term.out " started=1 " &&
	instance_of "latency-tests-$pid" >left &&
	test_line_count = 1 left &&
	grep -q "\[mono\]" "$(cat left)/trace_clock" &&
	kill -TERM $pid &&
	wait $pid &&
	test_json sum.json .program latency-trace &&
	test_json sum.json .end_reason signal &&
	test_json sum.json "has(\"compaction_max_s\")" true &&
	instance_of "latency-tests-$pid" >left &&
	! test -s left
'

test_expect_success SETPRIV,TRACEFS 'without root: exit 3 with one clear line' '
	test_expect_code 3 setpriv --reuid=65534 --regid=65534 --clear-groups \
		latency-trace --duration 100ms >/dev/null 2>err &&
	test_line_count = 1 err &&
	grep -q "^latency-trace: cannot .*(needs root)" err
'

test_expect_success 'bad options' '
	test_expect_code 2 latency-trace --replay x --tracefs y 2>err &&
	grep -q "^latency-trace: --tracefs does not apply to --replay" err &&
	test_expect_code 2 latency-trace --replay x --interval 1s 2>err &&
	grep -q "^latency-trace: --interval does not apply to --replay" err &&
	test_expect_code 2 latency-trace --replay x --buffer-size 4M 2>err &&
	test_expect_code 2 latency-trace --events= 2>err &&
	grep -q "^latency-trace: --events needs a file name" err &&
	test_expect_code 2 latency-trace --replay= 2>err &&
	test_expect_code 2 latency-trace --interval 0 2>err &&
	grep -q "^latency-trace: --interval must be at least 1ms" err &&
	test_expect_code 2 latency-trace --buffer-size 1k 2>err &&
	grep -q "buffer-size must be at least 4k" err &&
	test_expect_code 2 latency-trace --buffer-size lots &&
	test_expect_code 2 latency-trace --format csv &&
	test_expect_code 2 latency-trace extra
'

test_expect_success ROOT 'a directory that is not a tracefs: exit 3' '
	mkdir notrace &&
	test_expect_code 3 latency-trace --tracefs notrace --duration 100ms \
		>/dev/null 2>err &&
	grep -q "^latency-trace: no trace instances in .notrace." err
'

test_done
