#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lib.sh idiom: test bodies are single-quoted and evaluated later, and
# the harness sets abs_top_srcdir and reads test_description.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-highorder: exact attempt counts, exact success detection, THP settings through the state record and back after SIGINT and SIGKILL, no THP, formats, options'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-machine.sh"
. "$abs_top_srcdir/tests/t/lib-monitors.sh"

THP=/sys/kernel/mm/transparent_hugepage
# The probes run on the real kernel (a fake tree only says which orders
# exist and how they are set): they need THP and, to read the page frames
# and their flags, root.
if test_have_prereq ROOT && [ -d $THP ] && [ -r /proc/kpageflags ]; then
	test_set_prereq PROBE
fi
# A real PMD size a madvised region may get (or that --orders enables).
test_have_prereq PROBE && [ -f $THP/hpage_pmd_size ] && test_set_prereq PMD
test_have_prereq PROBE && [ -f $THP/hugepages-64kB/enabled ] &&
	test_set_prereq MTHP

LATENCY_STATE_DIR=$TRASH_DIRECTORY/state
# Nothing here may write the real /sys by mistake: a test that means the
# real tree says LATENCY_SYS= (empty: /sys) for that command.
LATENCY_SYS=$TRASH_DIRECTORY/no-sys
export LATENCY_STATE_DIR LATENCY_SYS
ts_re='^[0-9][0-9]*\.[0-9]\{9\} latency-highorder '

# Background runs carry a --duration so that a failing test leaves no
# process behind for long, and write files of their own, so that waiting
# for a line cannot find one an earlier test left.

# fake_thp DIR GLOBAL 16kB 64kB 2048kB: a fake transparent_hugepage tree
# (each size's setting as the kernel shows it, or "-" for no such size).
fake_thp() {
	_d=$1/kernel/mm/transparent_hugepage
	rm -rf "$1" && mkdir -p "$_d" &&
	echo "$2" >"$_d/enabled" &&
	echo "always defer defer+madvise [madvise] never" >"$_d/defrag" &&
	echo 2097152 >"$_d/hpage_pmd_size" &&
	mkdir "$_d/hugepages-8kB" && : >"$_d/hugepages-8kB/shmem_enabled" &&
	_s=16 && shift 2 &&
	for _v in "$@"; do
		if [ "$_v" != - ]; then
			mkdir "$_d/hugepages-${_s}kB" &&
			echo "$_v" >"$_d/hugepages-${_s}kB/enabled" || return 1
		fi
		case $_s in 16) _s=64 ;; 64) _s=2048 ;; esac
	done
}

never='always inherit madvise [never]'
inherit='always [inherit] madvise never'
madvise='always inherit [madvise] never'

test_expect_success 'a kernel without THP: a clear message and exit 3' '
	mkdir -p nothp/kernel/mm &&
	test_expect_code 3 env LATENCY_SYS=$PWD/nothp latency-highorder \
		--count 1 >out 2>err &&
	grep "^latency-highorder: no transparent huge pages in this kernel: cannot find .*nothp/kernel/mm/transparent_hugepage.: No such file or directory$" err &&
	! test -s out
'

test_expect_success 'no size enabled and no --orders: exit 3 saying so' '
	fake_thp off "always madvise [never]" "$never" "$never" "$inherit" &&
	test_expect_code 3 env LATENCY_SYS=$PWD/off latency-highorder \
		--count 1 >out 2>err &&
	grep "no transparent huge page size is enabled .*(enabled=never; orders offered: 2,4,9); --orders enables some for the run" err
'

test_expect_success 'an order the kernel does not offer: exit 3 naming it' '
	test_expect_code 3 env LATENCY_SYS=$PWD/off latency-highorder \
		--orders 3 --count 1 2>err &&
	grep "order 3 is not a transparent huge page size of this kernel (it offers 2,4,9)" err &&
	! test -e state
'

test_expect_success 'bad options are usage errors' '
	test_expect_code 2 latency-highorder --orders 0 2>err &&
	grep "invalid order .0. in --orders" err &&
	test_expect_code 2 latency-highorder --orders 2,,4 2>err &&
	test_expect_code 2 latency-highorder --orders "" 2>err &&
	test_expect_code 2 latency-highorder --orders 21 2>err &&
	test_expect_code 2 latency-highorder --count 0 2>err &&
	test_expect_code 2 latency-highorder --format xml 2>err &&
	test_expect_code 2 latency-highorder --interval 0 2>err &&
	test_expect_code 2 latency-highorder extra 2>err
'

test_expect_success PROBE '--count 7: exactly 7 attempts at each enabled order, in rounds, ascending' '
	fake_thp on "always [madvise] never" "$madvise" "$inherit" "$never" &&
	LATENCY_SYS=$PWD/on latency-highorder --count 7 --interval 1ms \
		--summary sum >out 2>err &&
	! test -s err &&
	test "$(grep -c " order=2 attempt=[1-7] success=[01] got_order=[0-9]* fault_s=[0-9]*\.[0-9]\{9\}$" out)" = 7 &&
	test "$(grep -c " order=4 attempt=[1-7] success=[01] got_order=[0-9]* fault_s=" out)" = 7 &&
	! grep " order=9 " out &&
	test_line_count = 16 out &&
	grep "${ts_re}started=1 page_size=[0-9]*$" out &&
	sed -n "s/.* order=\([0-9]*\) attempt=\([0-9]*\) .*/\1 \2/p" out >seen &&
	for i in 1 2 3 4 5 6 7; do echo "2 $i" && echo "4 $i"; done >expect &&
	test_cmp expect seen &&
	test "$(summary_value sum orders)" = 2,4 &&
	test "$(summary_value sum rounds)" = 7 &&
	test "$(summary_value sum order_2_attempts)" = 7 &&
	test "$(summary_value sum order_4_attempts)" = 7 &&
	test "$(summary_value sum order_2_setting)" = madvise &&
	test "$(summary_value sum order_4_setting)" = inherit &&
	test "$(summary_value sum order_2_changed)" = false &&
	test "$(summary_value sum end_reason)" = count &&
	test "$(summary_value sum settings_restored)" = true &&
	test "$(summary_value sum max_region_bytes)" = 65536 &&
	! test -e state
'

test_expect_success PROBE 'the success count is the number of success=1 lines' '
	for o in 2 4; do
		test "$(summary_value sum order_${o}_successes)" = \
			"$(grep -c " order=$o attempt=[0-9]* success=1 " out)" || return 1
	done
'

test_expect_success PMD 'a fresh madvised PMD region is detected huge (order 9, exactly)' '
	LATENCY_SYS= latency-highorder --orders 9 --count 5 --interval 1ms \
		--summary sum >out 2>err &&
	grep " order=9 attempt=[0-9]* success=1 got_order=9 " out &&
	! grep " success=1 got_order=[0-8] " out &&
	! grep " success=0 got_order=9 " out &&
	test "$(summary_value sum order_9_successes)" -ge 1 &&
	test "$(summary_value sum settings_restored)" = true
'

# Anonymous memory never gets order-1 THP (Linux keeps orders 0 and 1 out
# of THP_ORDERS_ALL_ANON): a fake tree that offers it must see small pages.
test_expect_success PROBE 'an order the kernel does not map gets small pages: no success, got_order=0' '
	fake_thp claim "always [madvise] never" - - - &&
	echo "always inherit [madvise] never" \
		>claim/kernel/mm/transparent_hugepage/hugepages-8kB/enabled &&
	LATENCY_SYS=$PWD/claim latency-highorder --orders 1 --count 5 \
		--interval 1ms --summary sum >out &&
	test "$(grep -c " order=1 attempt=[0-9]* success=0 got_order=0 " out)" = 5 &&
	test "$(summary_value sum order_1_successes)" = 0 &&
	test "$(summary_value sum order_1_got_order_0)" = 5 &&
	test "$(summary_value sum order_1_success_pct)" = 0.00
'

test_expect_success PROBE '--orders enables sizes through the record; SIGINT sets them back' '
	fake_thp rec "always [madvise] never" "$never" "$inherit" "$inherit" &&
	d=$PWD/rec/kernel/mm/transparent_hugepage &&
	{ LATENCY_SYS=$PWD/rec latency-highorder --orders 2,4,9 \
		--interval 50ms --duration 30s --summary int.sum >int.out 2>int.err & } &&
	pid=$! &&
	wait_for_line int.out " started=1 " &&
	test "$(cat $d/hugepages-16kB/enabled)" = madvise &&
	test "$(cat $d/hugepages-64kB/enabled)" = "$inherit" &&
	printf "thp\t16kB\tnever\n" >expect &&
	record_body state/state | grep "^thp" >actual &&
	test_cmp expect actual &&
	kill -INT $pid && wait $pid &&
	test "$(cat $d/hugepages-16kB/enabled)" = never &&
	test "$(cat $d/hugepages-2048kB/enabled)" = "$inherit" &&
	! test -e state/state &&
	grep "latency-machine: .*thp 16kB never" int.err &&
	test "$(summary_value int.sum end_reason)" = signal &&
	test "$(summary_value int.sum order_2_changed)" = true &&
	test "$(summary_value int.sum order_4_changed)" = false &&
	test "$(summary_value int.sum settings_restored)" = true
'

test_expect_success PROBE 'after SIGKILL the next run sets them back first' '
	fake_thp rec "always [madvise] never" "$never" "$never" "$inherit" &&
	d=$PWD/rec/kernel/mm/transparent_hugepage &&
	{ LATENCY_SYS=$PWD/rec latency-highorder --orders 2,4 \
		--interval 50ms --duration 30s >kill.out 2>kill.err & } &&
	pid=$! &&
	wait_for_line kill.out " started=1 " &&
	kill -KILL $pid && { wait $pid || test $? = 137; } &&
	test "$(cat $d/hugepages-16kB/enabled)" = madvise &&
	test "$(cat $d/hugepages-64kB/enabled)" = madvise &&
	LATENCY_SYS=$PWD/rec latency-highorder --orders 9 --count 1 \
		>out2 2>err2 &&
	grep "restoring after run pid $pid (dead): thp 64kB never" err2 &&
	grep "restoring after run pid $pid (dead): thp 16kB never" err2 &&
	test "$(cat $d/hugepages-16kB/enabled)" = never &&
	test "$(cat $d/hugepages-64kB/enabled)" = never &&
	! test -e state/state
'

test_expect_success PROBE '--owner: the entries go into the driver record, the run sets them back itself' '
	fake_thp rec "always [never] madvise" "$inherit" "$never" - &&
	d=$PWD/rec/kernel/mm/transparent_hugepage &&
	{ sleep 60 & } &&
	driver=$! &&
	latency-machine begin --owner=$driver &&
	LATENCY_SYS=$PWD/rec latency-highorder --orders 2,9 --count 2 \
		--interval 1ms --owner=$driver --summary sum >out &&
	printf "thp\t16kB\tinherit\nthp\tglobal\tnever\n" >expect &&
	record_body state/state | grep "^thp" >actual &&
	test_cmp expect actual &&
	test "$(cat $d/hugepages-16kB/enabled)" = inherit &&
	test "$(cat $d/enabled)" = never &&
	test "$(summary_value sum order_9_setting)" = never &&
	test "$(summary_value sum settings_restored)" = true &&
	kill $driver &&
	LATENCY_SYS=$PWD/rec latency-machine restore --owner=$driver 2>err &&
	! test -e state/state
'

test_expect_success PROBE 'another live run owns the record: exit 3, nothing changed' '
	fake_thp rec "always [madvise] never" "$never" - - &&
	d=$PWD/rec/kernel/mm/transparent_hugepage &&
	{ sleep 60 & } &&
	other=$! &&
	latency-machine begin --owner=$other &&
	test_expect_code 3 env LATENCY_SYS=$PWD/rec latency-highorder \
		--orders 2 --count 1 >out 2>err &&
	grep "another run (pid $other: sleep 60) is in progress" err &&
	test "$(cat $d/hugepages-16kB/enabled)" = "$never" &&
	kill $other &&
	LATENCY_SYS=$PWD/rec latency-machine restore --owner=$other
'

test_expect_success PROBE,JQ '--format json and csv' '
	fake_thp on "always [madvise] never" "$madvise" "$madvise" "$never" &&
	LATENCY_SYS=$PWD/on latency-highorder --count 3 --interval 1ms \
		--format json --summary sum.json >out &&
	test_json sum.json .program latency-highorder &&
	test_json sum.json .format_version 1 &&
	test_json sum.json .order_4_attempts 3 &&
	test_json sum.json .orders 2,4 &&
	test_json sum.json ".compact_stall_delta >= 0 and .cpu_s >= 0" true &&
	LATENCY_SYS=$PWD/on latency-highorder --count 2 --interval 1ms \
		--format csv --summary sum.csv >out &&
	test_line_count = 3 sum.csv &&
	echo order,bytes,setting,changed,attempts,successes,success_pct,fault_p50_us,fault_p99_us,fault_max_us >expect &&
	head -n 1 sum.csv >actual && test_cmp expect actual &&
	grep "^2,16384,madvise,no,2,[0-2],[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]*$" sum.csv &&
	grep "^4,65536,madvise,no,2,[0-2]," sum.csv
'

test_expect_success MTHP 'the real multi-size THP setting is enabled for the run and set back after SIGINT' '
	f=$THP/hugepages-64kB/enabled &&
	cat $f >before &&
	{ LATENCY_SYS= latency-highorder --orders 4 --interval 50ms \
		--duration 30s >real.out 2>real.err & } &&
	pid=$! &&
	wait_for_line real.out " started=1 " &&
	grep -q -e "\[madvise\]" -e "\[always\]" -e "\[inherit\]" $f &&
	grep " order=4 " real.out >/dev/null || wait_for_line real.out " order=4 " &&
	kill -INT $pid && wait $pid &&
	cat $f >after &&
	test_cmp before after &&
	grep " order=4 attempt=[0-9]* success=1 got_order=4 " real.out &&
	! test -e state/state
'

test_done
