#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh sets the rest)
test_description='fake-gitk progress lines: by time or by commits, and the per-load figures'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-fake-gitk.sh"
test_skip_all_without JQ

# iter_values KEY FILE: the value of KEY in each iterations[] entry, one a
# line, as written (the entries hold no nested objects, the top level no
# such keys).  Not through jq: the monotonic times must match the progress
# lines to the nanosecond, and jq 1.6 reads every number as a double.
iter_values() {
	grep -o "\"$1\":[0-9.]*" "$2" | sed 's/.*://'
}

# sum_of FILE: the sum of the numbers in FILE.
sum_of() {
	awk '{ n += $1 } END { print n + 0 }' "$1"
}

test_expect_success 'setup: a generated repository of 3000 commits' '
	fake-gitk -q --create-repo gen --commits 3000 --seed 11 >head &&
	fake-gitk -q -n 1 --format json gen >g.json &&
	json_get g.json .bytes_held >bytes &&
	echo 3000 >commits
'

test_expect_success '--every=N: exactly commits/N lines a load, plus its end line' '
	fake-gitk -n 2 --every 500 --format json -o e.json gen >out 2>err &&
	grep -c "^[0-9]*\\.[0-9]\\{9\\} fake-gitk iter=[12] phase=walk commits=[0-9]*[05]00 bytes=[0-9]*$" out >n &&
	echo 12 >expect && test_cmp expect n &&
	grep -c " fake-gitk iter=[12] commits=3000 edges=[0-9]* bytes=$(cat bytes) elapsed=[0-9.]*$" out >n &&
	echo 2 >expect && test_cmp expect n &&
	test_line_count = 14 out &&
	grep "iter=1 phase=walk" out | sed "s/.* commits=\\([0-9]*\\) .*/\\1/" >got &&
	printf "%s\\n" 500 1000 1500 2000 2500 3000 >expect && test_cmp expect got
'

test_expect_success '--every=N is recorded, lines counted per load' '
	test_json e.json "[.every, .progress] | tojson" \
		"[500,{\"by\":\"commits\",\"interval_s\":null,\"every\":500}]" &&
	iter_values lines e.json >got &&
	printf "7\\n7\\n" >expect && test_cmp expect got
'

test_expect_success 'by default, by time every 2 ms, recorded' '
	fake-gitk -n 3 --format json -o t.json gen >out 2>err &&
	test_json t.json "[.every, .progress] | tojson" \
		"[0,{\"by\":\"time\",\"interval_s\":0.002,\"every\":null}]"
'

test_expect_success 'the lines of each load add up to the lines printed' '
	iter_values lines t.json >per_iter &&
	test_line_count = 3 per_iter &&
	sum_of per_iter >want &&
	wc -l <out | tr -d " " >got &&
	test_cmp want got &&
	test "$(cat got)" -gt 0 &&
	grep -c " fake-gitk iter=[123] commits=3000 " out >n &&
	echo 3 >expect && test_cmp expect n
'

test_expect_success 'every line is a progress line (doc/design.md, contract 1): walk or end' '
	sed -e "/^[0-9]*\\.[0-9]\\{9\\} fake-gitk iter=[123] phase=walk commits=[0-9]* bytes=[0-9]*$/d" \
		-e "/^[0-9]*\\.[0-9]\\{9\\} fake-gitk iter=[123] commits=3000 edges=[0-9]* bytes=[0-9]* elapsed=[0-9.]*$/d" \
		out >other &&
	test_line_count = 0 other
'

test_expect_success 'each load lies between its start_mono_s and end_mono_s' '
	iter_values start_mono_s t.json >starts &&
	iter_values end_mono_s t.json >ends &&
	grep -c "^[0-9]*\\.[0-9]\\{9\\}$" starts >n &&
	echo 3 >expect && test_cmp expect n &&
	grep -c "^[0-9]*\\.[0-9]\\{9\\}$" ends >n && test_cmp expect n &&
	paste starts ends per_iter >spans &&
	awk "
		NR == FNR { s[NR] = \$1; e[NR] = \$2; want[NR] = \$3; next }
		{
			i = substr(\$3, 6) + 0
			if (\$1 < s[i] || \$1 > e[i]) { print \"outside: \" \$0; bad = 1 }
			if (\$1 < last) { print \"backwards: \" \$0; bad = 1 }
			last = \$1; got[i]++
		}
		END {
			for (i = 1; i <= 3; i++) {
				if (s[i] >= e[i]) { print \"span \" i; bad = 1 }
				if (i > 1 && s[i] < e[i - 1]) { print \"overlap \" i; bad = 1 }
				if (got[i] != want[i]) { print \"count \" i; bad = 1 }
			}
			exit bad
		}" spans out
'

test_expect_success 'the end line is stamped with end_mono_s' '
	grep " fake-gitk iter=[123] commits=" out | cut -d " " -f 1 >got &&
	test_cmp ends got
'

test_expect_success 'majflt and minflt are counts of each load' '
	test_json t.json "[.iterations[] | select(.minflt > 0 and .majflt >= 0 and
		.lines >= 0)] | length" 3
'

test_expect_success 'user_s and sys_s: the CPU time of each load, some of it spent' '
	test_json t.json "[.iterations[] | .user_s + .sys_s > 0 and
		.user_s + .sys_s < 600] | length == 3 and all" true
'

test_expect_success 'runq_s: the wait for a CPU of each load, within its time' '
	test_json t.json "[.iterations[] | .runq_s >= 0 and
		.runq_s <= .elapsed_s] | length == 3 and all" true
'

test_expect_success 'what the driver reads: iterations[0] of one load with --reread' '
	fake-gitk --iterations 1 --format json -o one.json --reread gen >out 2>err &&
	test_json one.json ".iterations | length" 1 &&
	test_json one.json ".iterations[0] | keys_unsorted | join(\" \")" \
		"$iteration_keys" &&
	test_json one.json ".iterations[0] | [.commits, .interrupted, .lines] |
		tojson" "[3000,false,$(wc -l <out | tr -d " ")]" &&
	for k in elapsed_s start_mono_s end_mono_s user_s sys_s runq_s; do
		iter_values $k one.json || return 1
	done >v &&
	grep -c "^[0-9]*\\.[0-9]\\{9\\}$" v >n &&
	echo 6 >expect && test_cmp expect n
'

# Off by default.  The sampler counts whole periods of user time: never
# more than the process's CPU time in the load.  Where perf is refused (a
# container's seccomp, perf_event_paranoid 3) the summary says why and
# stderr warns.
test_expect_success JQ '--sample-user: user time sampled every 1ms, or why not' '
	test_json one.json "[.user_sample_period_s, .user_sample_why,
		.iterations[0].user_sampled_s] | tojson" "[null,\"off\",null]" &&
	fake-gitk -q -n 1 --sample-user=1ms --format json -o on.json gen 2>err &&
	why=$(json_get on.json .user_sample_why) &&
	if test "$why" = null
	then
		test_json on.json .user_sample_period_s 0.001 &&
		test_json on.json ".iterations[0] | .user_sampled_s >= 0 and
			.user_sampled_s <= .user_s + .sys_s + 0.000001" true &&
		! test -s err
	else
		test_json on.json .user_sample_period_s null &&
		test_json on.json .iterations[0].user_sampled_s null &&
		grep -x "fake-gitk: user CPU not sampled ($why): getrusage.s split only" err
	fi &&
	fake-gitk -q -n 1 --sample-user=0 --format json -o off.json gen 2>err &&
	! test -s err &&
	test_json off.json .user_sample_why off &&
	test_must_fail fake-gitk --sample-user=5us gen 2>err &&
	echo "fake-gitk: --sample-user: '"'"'5us'"'"' is out of range (10us..1s, or 0)" >expect &&
	sed -n 1p err >got && test_cmp expect got &&
	test_must_fail fake-gitk --sample-user=2s gen 2>err &&
	grep -x "fake-gitk: --sample-user: '"'"'2s'"'"' is out of range (10us..1s, or 0)" err
'

test_expect_success 'elapsed_s is end_mono_s - start_mono_s' '
	for k in elapsed_s start_mono_s end_mono_s; do
		iter_values $k one.json || exit 1
	done >v &&
	awk "{ v[NR] = \$1 } END { d = v[3] - v[2] - v[1]; exit !(d < 1e-6 && d > -1e-6) }" v
'

# With a 1 ns interval every unit of work (a commit, a page read again)
# takes longer than the interval, so the count is exact, not timed.
test_expect_success '--interval=1ns: one line per commit and per page read again' '
	fake-gitk -n 1 --interval 1ns --reread --format json -o r.json gen >out 2>err &&
	grep -c " phase=walk " out >n && test_cmp commits n &&
	grep -c " phase=reread commits=3000 bytes=$(cat bytes) reread=[0-9]*$" out >n &&
	echo $((($(cat bytes) + 4095) / 4096)) >expect && test_cmp expect n &&
	tail -n 2 out | head -n 1 >last &&
	grep -q " reread=$(cat bytes)$" last &&
	test_json r.json .progress.interval_s 1e-09 &&
	iter_values lines r.json >got &&
	wc -l <out | tr -d " " >expect && test_cmp expect got
'

test_expect_success GIT '--interval=1ns: the excluded side of a range is a phase too' '
	git -C gen rev-list master~100 >hidden &&
	git -C gen rev-list master~100..master >shown &&
	fake-gitk -n 1 --interval 1ns gen master~100..master >out 2>err &&
	grep -c " phase=exclude commits=0 bytes=0 hidden=[0-9]*$" out >n &&
	wc -l <hidden | tr -d " " >expect && test_cmp expect n &&
	grep -c " phase=walk " out >n &&
	wc -l <shown | tr -d " " >expect && test_cmp expect n
'

test_expect_success '--interval=0 and --every=0 print only the end lines' '
	fake-gitk -n 2 --interval 0 --format json -o z.json gen >out 2>err &&
	test_line_count = 2 out &&
	test_json z.json ".progress | tojson" \
		"{\"by\":\"time\",\"interval_s\":0,\"every\":null}" &&
	fake-gitk -n 2 --every 0 --format json -o z.json gen >out 2>err &&
	test_line_count = 2 out &&
	test_json z.json ".progress | tojson" \
		"{\"by\":\"commits\",\"interval_s\":null,\"every\":0}"
'

test_expect_success 'the later of --every and --interval decides' '
	fake-gitk -n 1 --interval 1ns --every 1000 gen >out 2>err &&
	test_line_count = 4 out &&
	fake-gitk -n 1 --every 1000 --interval 0 gen >out 2>err &&
	test_line_count = 1 out
'

test_expect_success '--quiet prints no line and counts none' '
	fake-gitk -q -n 2 --interval 1ns --format json -o q.json gen >out 2>err &&
	test_line_count = 0 out &&
	iter_values lines q.json >got &&
	printf "0\\n0\\n" >expect && test_cmp expect got
'

test_expect_success 'the text summary gives faults and lines per load' '
	fake-gitk -n 1 --every 1000 gen >out 2>err &&
	grep -q "^fake-gitk: iteration 1: 3000 commits in [0-9.]* s ([0-9]* commits/s), [0-9]* major faults, 4 lines$" err
'

test_expect_success 'bad durations are usage errors' '
	test_expect_code 2 fake-gitk --interval soon gen &&
	test_expect_code 2 fake-gitk --interval -1ms gen &&
	test_expect_code 2 fake-gitk --interval 2xs gen
'

test_done
