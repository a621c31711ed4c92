#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lib.sh idiom: test bodies are single-quoted and evaluated later, and
# the harness sets abs_top_srcdir and reads test_description.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-trace: tracepoint stall times, reclaim in a small memory cgroup, clean-up, options'
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

test_expect_success ROOT,TRACEFS 'a timed run reports every stall kind' '
	latency-trace --interval 250ms --duration 1s --summary sum >out 2>err &&
	no_errors_but_busy err &&
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
		>reclaim.out & } &&
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
	instance_of "$(summary_value sum instance)" >left &&
	! test -s left
'

test_expect_success ROOT,TRACEFS 'SIGTERM: summary written, instance removed, exit 0' '
	{ latency-trace --duration 30s --format json --summary sum.json \
		>term.out & } &&
	pid=$! &&
	wait_for_line term.out " started=1 " &&
	instance_of "latency-tests-$pid" >left &&
	test_line_count = 1 left &&
	kill -TERM $pid &&
	wait $pid &&
	grep -q "\"program\": \"latency-trace\"" sum.json &&
	grep -q "\"end_reason\": \"signal\"" sum.json &&
	grep -q "\"compaction_max_s\": " sum.json &&
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
