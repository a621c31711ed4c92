#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-summarize --result-dir: result.json and summary.txt from a run directory'
. "$abs_top_srcdir/tests/t/test-lib.sh"

fixtures=$TEST_DIRECTORY/fixtures/summarize

# The page size is the machine's; the expected summaries say PAGESIZE.
page_size_to_word() {
	sed 's/(page size [0-9]* bytes)/(page size PAGESIZE bytes)/' "$1"
}

test_expect_success 'a complete run: the summary, line by line' '
	cp -R "$fixtures/full" full &&
	latency-summarize --result-dir=full &&
	page_size_to_word full/summary.txt >summary &&
	test_cmp "$fixtures/full.summary" summary &&
	echo "6.1.0-test-2 Elapsed:00:10.000(stddev:0.200) Failures:2" >expect &&
	sed -n 1p full/summary.txt >headline &&
	test_cmp expect headline &&
	echo "6.1.0-test-2 HighOrder: order-2 100.0% order-4 97.3% order-9 41.2% (p99 fault 3.1 ms)" >expect &&
	sed -n 2p full/summary.txt >second &&
	test_cmp expect second
'

test_expect_success 'nothing is left but the two files, and a rerun gives the same' '
	ls full >files &&
	ls "$fixtures/full" >expect &&
	printf "%s\n" result.json summary.txt >>expect &&
	sort expect >expect.sorted &&
	test_cmp expect.sorted files &&
	cp full/result.json first.json &&
	latency-summarize --result-dir=full &&
	test_cmp first.json full/result.json
'

test_expect_success JQ 'per-run probes: highorder.log counted in each run'"'"'s window, per order' '
	json_get full/result.json "[.gitk_runs[].high_order] | tojson" >got &&
	echo "[[{\"order\":2,\"attempts\":1,\"successes\":1},{\"order\":9,\"attempts\":2,\"successes\":1}],[{\"order\":9,\"attempts\":1,\"successes\":1}],[{\"order\":2,\"attempts\":1,\"successes\":1},{\"order\":9,\"attempts\":1,\"successes\":0}]]" >expect &&
	test_cmp expect got &&
	mkdir -p junk && cp -R "$fixtures/full/." junk/ &&
	printf "%s\n" "x latency-highorder order=9 attempt=1 success=1" \
		"101 latency-highorder order=9 attempt=1 success=2" \
		"101 latency-highorder order=99 attempt=1 success=1" \
		"101 other order=9 attempt=1 success=1" >>junk/highorder.log &&
	{
		printf "102 latency-highorder summary=1" &&
		i=0 && while [ $i -lt 100 ]; do
			printf " key_%03d=0.000000000" $i && i=$((i + 1)) || return 1
		done && echo
	} >>junk/highorder.log &&
	test "$(tail -n 1 junk/highorder.log | wc -c)" -gt 2000 &&
	latency-summarize --result-dir=junk &&
	grep -x "note: highorder.log: 4 malformed lines ignored" junk/summary.txt &&
	json_get junk/result.json "[.gitk_runs[].high_order] | tojson" >got2 &&
	test_cmp expect got2 &&
	rm junk/highorder.log && latency-summarize --result-dir=junk &&
	json_get junk/result.json "[.gitk_runs[].high_order] | tojson" >got3 &&
	echo "[null,null,null]" >expect3 && test_cmp expect3 got3
'

test_expect_success JQ 'per-run figures: snapshot deltas, events in each window' '
	json_get full/result.json ".gitk_runs[] | [.elapsed_s, .majflt, .pswpin, .pswpout,
		.reclaim_s, .compact_s, .psi_some_s, .psi_full_s,
		.pgscan_kswapd, .pgscan_direct, .allocstall, .start_mono_s,
		.end_mono_s, .progress_lines] | map(tostring) | join(\" \")" >runs &&
	cat >expect <<-\EOF &&
	10 1000 50 100 0.75 0.125 0.25 0.1 500 10 2 100 110 200
	10.2 2000 null 9007199254740693 0.001 0.002 0.001 0 100 0 0 120 130.2 201
	9.8 3000 10 0 0 0 2 1 0 0 null 140 149.8 202
	EOF
	test_cmp expect runs
'

test_expect_success JQ 'the header, the statistics, pressure and runs' '
	json_get full/result.json "[.format_version, .program, .version, .command_line, .label,
		.run_label, .kernel, .seed, .partial, .partial_reason,
		.elapsed_mean_s, .elapsed_stddev_s, .elapsed_cv_pct,
		.elapsed_ci95_pct, .failures, .oom_kills, .pswpout_delta,
		.pswpin_delta] | map(tostring) | join(\"|\")" >top &&
	echo "2|run-test.sh|0.9.0|./run-test.sh --label=6.1.0-test --gitk-runs=auto --pressure=4|6.1.0-test|6.1.0-test-2|6.1.0-18-amd64|137|false|null|10|0.2|2|4.968275424|2|1|12345|678" >expect &&
	test_cmp expect top &&
	json_get full/result.json ".pressure | del(.machine_before, .machine_confined, .machine_after) | tojson" >pressure &&
	echo "{\"mode\":\"memcg\",\"why\":\"--quick keeps memcg: safe on shared machines and in CI\",\"ratio\":4,\"footprint_bytes\":314572800,\"memory_bytes\":78643200,\"calibration\":\"measured\",\"calibration_peak_rss_bytes\":314572800,\"shrink\":{\"floor_bytes\":1073741824,\"goal_bytes\":2147483648,\"offline_blocks\":3,\"offline_bytes\":402653184,\"hugetlb_pages\":10000,\"hugetlb_bytes\":20971520000,\"mem_total_before\":25769803776,\"mem_total_after\":25367150592,\"reserve_bytes\":180355072,\"workload_free_bytes\":78643200,\"reached\":true}}" >expect &&
	test_cmp expect pressure &&
	json_get full/result.json "[.runs, .confinement] | tojson" >runs &&
	echo "[{\"asked\":\"auto\",\"done\":3,\"warmup\":1,\"stopped_by\":\"precision\",\"precision_pct\":2,\"max_runs\":20,\"time_budget_s\":600,\"precision_of\":\"elapsed_per_user\"},{\"mem_limit\":\"75M\",\"swap\":\"512M\"}]" >expect &&
	test_cmp expect runs &&
	json_get full/result.json ".notes | tojson" >notes &&
	echo "[\"unconfined: no memory limit 64M (not root)\",\"swap readahead: page-cluster 3\",\"fake-gitk-3: allocstall went backwards between the snapshots\",\"trace-events.log: 1 malformed lines ignored\"]" >expect &&
	test_cmp expect notes
'

# fake-gitk's sampled user time divides the exact on-CPU time (user_s +
# sys_s) where it fits in it; one that does not is ignored.
test_expect_success JQ 'the sampled user time splits the on-CPU time' '
	cp -R "$fixtures/full" sampled &&
	for n in 1 2; do
		v=$(test $n = 1 && echo 8 || echo 12) &&
		jq -c ".iterations[0].user_sampled_s = $v" \
			sampled/fake-gitk-$n.json >tmp.json &&
		mv tmp.json sampled/fake-gitk-$n.json || return 1
	done &&
	latency-summarize --result-dir=sampled &&
	json_get sampled/result.json "[.gitk_runs[] | [.user_s, .user_sampled_s,
		.wait_s, .elapsed_per_user, .sys_per_user, .wait_per_user]] |
		tojson" >got &&
	echo "[[8.25,8,0.25,1.25,0.21875,0.03125],[8.3,12,0.275,1.228915663,0.1957831325,0.03313253012],[8.2,null,0.225,1.195121951,0.1676829268,0.02743902439]]" >expect &&
	test_cmp expect got &&
	grep "^  fake-gitk-1 .* user_s=8.25 sys_s=1.5 user_sampled_s=8 .* elapsed_per_user=1.2500 sys_per_user=0.2188 wait_per_user=0.0312 " sampled/summary.txt
'

# The reclaim split: the fixture's runs took 40%, 10% and 30% of their
# pages from anonymous memory (pgsteal_anon / (pgsteal_anon + pgsteal_file)),
# which "varied" (40 >= 1.5 x 10); against elapsed per user-CPU second
# (10/8.25, 10.2/8.3, 9.8/8.2) Pearson's r is -0.6520046139 by hand, and
# the shares' lag-1 autocorrelation (13.33 x -16.67 + -16.67 x 3.33) /
# 466.67 = -0.5952380952, too few runs to call it held.  Shares of 40%
# and 35% have not varied; a run that reclaimed nothing has no share (and
# the series no neighbours), and two shares no correlation.
set_steal() {
	jq -c ".pgsteal_anon = $3 | .pgsteal_file = $4" \
		"steady/fake-gitk-$1.snap-$2.json" >tmp.json &&
	mv tmp.json "steady/fake-gitk-$1.snap-$2.json"
}

test_expect_success JQ 'the reclaim split: shares per run, range, moved, correlation' '
	json_get full/result.json "[[.gitk_runs[] | [.pgsteal_anon, .pgsteal_file]],
		.reclaim_anon_pct_mean, .reclaim_anon_pct_min,
		.reclaim_anon_pct_max, .reclaim_split_varied,
		.reclaim_anon_epu_correlation, .reclaim_anon_lag1,
		.reclaim_split_held] | tojson" >got &&
	echo "[[[400,600],[100,900],[300,700]],26.66666667,10,40,true,-0.6520046139,-0.5952380952,false]" >expect &&
	test_cmp expect got &&
	cp -R "$fixtures/full" steady &&
	set_steal 2 after 1750 6250 &&
	set_steal 3 before 1750 6250 &&
	set_steal 3 after 1750 6250 &&
	latency-summarize --result-dir=steady &&
	json_get steady/result.json "[[.gitk_runs[] | [.pgsteal_anon, .pgsteal_file]],
		.reclaim_anon_pct_mean, .reclaim_anon_pct_min,
		.reclaim_anon_pct_max, .reclaim_split_varied,
		.reclaim_anon_epu_correlation, .reclaim_anon_lag1,
		.reclaim_split_held] | tojson" >got &&
	echo "[[[400,600],[350,650],[0,0]],37.5,35,40,false,null,null,null]" >expect &&
	test_cmp expect got &&
	grep -x "reclaim split: anonymous 37.5% of the pages reclaimed (mean of 2 runs; 35.0% in run 2 to 40.0% in run 1)" steady/summary.txt
'

# Ten runs in two stretches: 15-17% anonymous, then 34-36% (lag-1
# autocorrelation 0.6854199683), and elapsed 10-10.2 s, then 11-11.2 s on
# 8 s of user CPU (0.6954616588): both above 1.96 / sqrt(10) = 0.6198, so
# the split held and the runs are serially correlated.  Elapsed
# alternating 10, 11, 10, ... is not (-0.9).
make_stretches() {
	mkdir "$1" &&
	printf "run_label=%s\nruns_done=10\npartial=no\n" "$1" >"$1/run.facts" &&
	n=0 &&
	for a in 15 16 15 17 16 35 36 34 35 36; do
		n=$((n + 1)) &&
		e=$(echo "$2" | cut -d" " -f"$n") &&
		printf "{\"iterations\":[{\"elapsed_s\":%s,\"user_s\":8,\"sys_s\":1}]}" \
			"$e" >"$1/fake-gitk-$n.json" &&
		echo "{\"pgsteal_anon\":0,\"pgsteal_file\":0}" \
			>"$1/fake-gitk-$n.snap-before.json" &&
		echo "{\"pgsteal_anon\":${a}0,\"pgsteal_file\":$((1000 - a * 10))}" \
			>"$1/fake-gitk-$n.snap-after.json" || return 1
	done &&
	latency-summarize --result-dir="$1"
}

test_expect_success JQ 'a split that held, runs serially correlated, and not' '
	make_stretches held "10 10.1 10 10.2 10.1 11 11.1 11 11.2 11.1" &&
	json_get held/result.json "[.reclaim_anon_pct_mean, .reclaim_split_varied,
		.reclaim_anon_lag1, .reclaim_split_held,
		.elapsed_per_user_lag1, .elapsed_per_user_serial] | tojson" >got &&
	echo "[25.5,true,0.6854199683,true,0.6954616588,true]" >expect &&
	test_cmp expect got &&
	grep -x "reclaim split: anonymous 25.5% of the pages reclaimed (mean of 10 runs; 15.0% in run 1 to 36.0% in run 7); varied between runs, elapsed_per_user with it (correlation 0.99); held for stretches of runs (lag-1 autocorrelation 0.69): the runs are not independent draws, compare several results" held/summary.txt &&
	grep "^per user-CPU second: .*; runs serially correlated (lag-1 autocorrelation 0.70): the interval assumes independent runs and is too narrow$" held/summary.txt &&
	make_stretches flip "10 11 10 11 10 11 10 11 10 11" &&
	json_get flip/result.json "[.elapsed_per_user_lag1, .elapsed_per_user_serial] | tojson" >got &&
	echo "[-0.9,false]" >expect &&
	test_cmp expect got &&
	! grep "serially" flip/summary.txt
'

test_expect_success JQ 'high-order success per order and failures per order' '
	json_get full/result.json "[.high_order, .failures_by_order] | tojson" >got &&
	echo "[[{\"order\":2,\"attempts\":1000,\"successes\":1000,\"success_pct\":100,\"fault_p99_us\":12.5},{\"order\":4,\"attempts\":1000,\"successes\":973,\"success_pct\":97.3,\"fault_p99_us\":80.25},{\"order\":9,\"attempts\":1000,\"successes\":412,\"success_pct\":41.2,\"fault_p99_us\":3100}],{\"2\":1,\"4\":1}]" >expect &&
	test_cmp expect got
'

# second_line_is DIR LINE: summarize DIR; its summary.txt's line 2 is LINE.
second_line_is() {
	latency-summarize --result-dir="$1" &&
	sed -n 2p "$1/summary.txt" >got &&
	echo "$2" >expect &&
	test_cmp expect got
}

test_expect_success 'high-order: a fault p99 under 1 ms; an order without attempts; bad files' '
	mkdir ho &&
	printf "run_label=ho\nruns_done=0\npartial=no\n" >ho/run.facts &&
	printf "{\"orders\":\"4,9\",\"order_4_attempts\":0,\"order_4_successes\":0,\"order_9_attempts\":3,\"order_9_successes\":1,\"fault_p99_us\":45.6}" >ho/highorder.json &&
	printf "{\"failures\":1,\"failures_order_3\":1.5,\"failures_order_x\":1}" >ho/kmsg.json &&
	second_line_is ho "ho HighOrder: order-4 n/a order-9 33.3% (p99 fault 0.046 ms)" &&
	grep -x "note: kmsg.json: failures_order_3 is not a count" ho/summary.txt &&
	grep -x "high-order: order-4 attempts=0 successes=0 fault_p99_us=n/a" ho/summary.txt &&
	! grep "^failures by order" ho/summary.txt &&
	printf "{\"orders\":\"9,4\",\"order_9_attempts\":1,\"order_9_successes\":2}" >ho/highorder.json &&
	second_line_is ho "ho HighOrder: order-9 n/a (p99 fault n/a)" &&
	grep -x "note: highorder.json: no valid attempts and successes for order 9" ho/summary.txt &&
	grep -x "note: highorder.json: a bad orders list" ho/summary.txt &&
	printf "{\"orders\":\"9\",\"order_9_attempts\":0,\"order_9_successes\":0,\"fault_p99_us\":0}" >ho/highorder.json &&
	second_line_is ho "ho HighOrder: order-9 n/a (p99 fault n/a)"
'

# ringbench's summary line: the rate by mode (transactions for rr and
# tbench), n/a for what its JSON lacks (tbench has no percentiles), the
# mode escaped; a ringbench.json that is not JSON is a note, not a member.
test_expect_success JQ 'ringbench: one line in the summary, whatever its JSON holds' '
	mkdir rb &&
	printf "run_label=rb\nruns_done=0\npartial=no\n" >rb/run.facts &&
	printf "{\"mode\":\"tb\\\\u001b[31m\",\"partial\":true,\"transactions_per_s\":1234.5,\"us_per_cycle\":810.25,\"p50_us\":null,\"max_us\":2000,\"runs_counted\":1,\"rate_stddev\":null}" >rb/ringbench.json &&
	latency-summarize --result-dir=rb &&
	printf "%s\n" "ringbench: mode=tb\\x1b[31m transactions_per_s=1234.5 us_per_cycle=810.25 p50_us=n/a p90_us=n/a p99_us=n/a p999_us=n/a p9999_us=n/a max_us=2000 runs_counted=1 rate_stddev=n/a rate_cov_pct=n/a partial=yes" >expect &&
	grep "^ringbench:" rb/summary.txt >got &&
	test_cmp expect got &&
	test_json rb/result.json ".ringbench | type" object &&
	echo "{\"mode\": " >rb/ringbench.json &&
	latency-summarize --result-dir=rb &&
	! grep -q "^ringbench:" rb/summary.txt &&
	grep -q "^note: ringbench.json: invalid JSON at line 2" rb/summary.txt &&
	test_json rb/result.json "has(\"ringbench\")" false &&
	rm rb/ringbench.json &&
	latency-summarize --result-dir=rb &&
	! grep -q "ringbench" rb/summary.txt rb/result.json
'

test_expect_success JQ 'the parts are copied as they were' '
	for r in fake-gitk-1 fake-gitk-2 fake-gitk-3 fake-music; do
		json_get -S full/result.json ".latency[\"$r\"]" >got &&
		json_get -S "full/$r.report.json" . >want &&
		test_cmp want got || return 1
	done &&
	for m in vmstat kmsg trace highorder; do
		json_get -S full/result.json ".monitors.$m" >got &&
		json_get -S "full/$m.json" . >want &&
		test_cmp want got || return 1
	done &&
	json_get -S full/result.json .seqbench >got &&
	json_get -S full/seqbench.json . >want &&
	test_cmp want got &&
	json_get -S full/result.json .ringbench >got &&
	json_get -S full/ringbench.json . >want &&
	test_cmp want got &&
	json_get -S full/result.json .pressure.machine_before >got &&
	json_get -S full/machine-before.json . >want &&
	test_cmp want got &&
	# As text: a copy keeps the number and the escapes as they were
	# written (9.0, not 9), which jq would not show.
	grep -x "          \"time_s\": 9.0" full/result.json &&
	grep -F "\"note\": \"tab\\there \\u001b[31m\"" full/result.json
'

test_expect_success 'a partial run: 1 of 3 runs, the interrupted one not counted' '
	cp -R "$fixtures/partial" partial &&
	latency-summarize --result-dir=partial &&
	sed -n 1,5p partial/summary.txt >head &&
	cat >expect <<-\EOF &&
	6.1.0 Elapsed:11:32.258(stddev:0.000) Failures:0
	6.1.0 HighOrder: none (not probed)
	PARTIAL: interrupted by SIGINT

	runs: 1 of 3 counted fake-gitk runs (warmup 0)
	EOF
	test_cmp expect head &&
	grep -x "pressure: none: no memory pressure was applied: not root: the workloads ran unconfined" partial/summary.txt &&
	grep -x "  fake-gitk-1 elapsed_s=692.258 majflt=12 pswpin=n/a pswpout=n/a reclaim_s=n/a compact_s=n/a psi_some_s=n/a psi_full_s=n/a pgscan_kswapd=n/a pgscan_direct=n/a allocstall=n/a pgsteal_anon=n/a pgsteal_file=n/a user_s=n/a sys_s=n/a user_sampled_s=n/a progress_lines=200 wait_s=n/a elapsed_per_user=n/a sys_per_user=n/a wait_per_user=n/a runq_s=n/a elapsed_less_runq_per_user=n/a others_cpu_s=n/a kthreads_cpu_s=n/a" partial/summary.txt &&
	! grep fake-gitk-2 partial/summary.txt
'

test_expect_success JQ 'a partial run in result.json' '
	json_get partial/result.json "[.partial, .partial_reason, (.gitk_runs | length),
		.gitk_runs[0].elapsed_s, .elapsed_mean_s, .elapsed_stddev_s,
		.elapsed_cv_pct, .elapsed_ci95_pct, .runs.asked, .runs.done,
		.runs.stopped_by, .pressure.mode, .pressure.ratio,
		.pressure.memory_bytes, .pressure.shrink, .failures,
		.pswpout_delta, (.latency | keys), .monitors] | tojson" >got &&
	echo "[true,\"interrupted by SIGINT\",1,692.258,692.258,0,null,null,3,1,\"interrupted\",\"none\",null,null,null,0,null,[\"fake-gitk-1\"],{\"vmstat\":null,\"kmsg\":{\"format_version\":1,\"program\":\"latency-kmsg\",\"failures\":0,\"oom_kills\":0},\"trace\":null,\"highorder\":null}]" >expect &&
	test_cmp expect got
'

test_expect_success 'missing parts: nulls and notes, never a crash' '
	mkdir bare &&
	printf "run_label=bare\nruns_done=2\npartial=no\n" >bare/run.facts &&
	latency-summarize --result-dir=bare &&
	cat >expect <<-\EOF &&
	bare partial: no fake-gitk run completed
	bare HighOrder: none (not probed)

	runs: 2 of n/a counted fake-gitk runs (warmup n/a)
	stopped by: n/a; precision target n/a, max runs n/a, time budget n/a; precision of elapsed
	elapsed: mean n/a, stddev n/a, CoV n/a, 95% CI of the mean +/-n/a
	cpu: user mean n/a, CoV n/a (the same work every run: the machine'\''s own spread); sys mean n/a, CoV n/a
	per user-CPU second: elapsed_per_user geometric mean n/a, CoV n/a, 95% CI +/-n/a; sys_per_user mean n/a, wait_per_user mean n/a
	machine: runq mean n/a (fake-gitk waiting for a CPU; without it, elapsed per user-CPU second n/a), others_cpu mean n/a (the rest of the machine'\''s processes), kthreads_cpu mean n/a per run
	reclaim split: n/a (no pgsteal_anon, pgsteal_file)
	  fake-gitk-1 elapsed_s=n/a majflt=n/a pswpin=n/a pswpout=n/a reclaim_s=n/a compact_s=n/a psi_some_s=n/a psi_full_s=n/a pgscan_kswapd=n/a pgscan_direct=n/a allocstall=n/a pgsteal_anon=n/a pgsteal_file=n/a user_s=n/a sys_s=n/a user_sampled_s=n/a progress_lines=n/a wait_s=n/a elapsed_per_user=n/a sys_per_user=n/a wait_per_user=n/a runq_s=n/a elapsed_less_runq_per_user=n/a others_cpu_s=n/a kthreads_cpu_s=n/a
	  fake-gitk-2 elapsed_s=n/a majflt=n/a pswpin=n/a pswpout=n/a reclaim_s=n/a compact_s=n/a psi_some_s=n/a psi_full_s=n/a pgscan_kswapd=n/a pgscan_direct=n/a allocstall=n/a pgsteal_anon=n/a pgsteal_file=n/a user_s=n/a sys_s=n/a user_sampled_s=n/a progress_lines=n/a wait_s=n/a elapsed_per_user=n/a sys_per_user=n/a wait_per_user=n/a runq_s=n/a elapsed_less_runq_per_user=n/a others_cpu_s=n/a kthreads_cpu_s=n/a
	pressure: mode=n/a ratio=n/a footprint_bytes=n/a memory_bytes=n/a calibration=n/a
	pressure why: n/a
	confinement: mem-limit=n/a swap=n/a
	swapped: pswpout_delta=n/a pswpin_delta=n/a pages (page size PAGESIZE bytes)
	failures: unknown (no kernel log: the headline'"'"'s Failures:0 is not a count), OOM kills unknown
	reclaim: direct_reclaim_total_s=n/a direct_reclaim_max_s=n/a memcg_reclaim_total_s=n/a; in the counted runs: reclaim_s=n/a compact_s=n/a
	stalls (gaps over n/a):
	note: fake-gitk-1.json: missing
	note: fake-gitk-2.json: missing
	note: no snapshots (fake-gitk-N.snap-before.json, -after.json): the per-run kernel figures are null
	note: trace-events.log: missing: reclaim_s and compact_s are null
	note: vmstat.json: missing
	note: kmsg.json: missing
	note: trace.json: missing
	EOF
	page_size_to_word bare/summary.txt >got &&
	test_cmp expect got
'

test_expect_success JQ 'missing parts in result.json' '
	json_get bare/result.json "[.label, .run_label, .version, .seed, .partial,
		.partial_reason, .gitk_runs, .elapsed_mean_s, .failures,
		.oom_kills, .pswpout_delta, .pressure, .runs, .confinement,
		.latency, .monitors, has(\"seqbench\")] | tojson" >got &&
	n="{\"elapsed_s\":null,\"majflt\":null,\"pswpin\":null,\"pswpout\":null,\"reclaim_s\":null,\"compact_s\":null,\"psi_some_s\":null,\"psi_full_s\":null,\"pgscan_kswapd\":null,\"pgscan_direct\":null,\"allocstall\":null,\"pgsteal_anon\":null,\"pgsteal_file\":null,\"high_order\":null,\"user_s\":null,\"sys_s\":null,\"user_sampled_s\":null,\"start_mono_s\":null,\"end_mono_s\":null,\"progress_lines\":null,\"wait_s\":null,\"elapsed_per_user\":null,\"sys_per_user\":null,\"wait_per_user\":null,\"runq_s\":null,\"elapsed_less_runq_per_user\":null,\"others_cpu_s\":null,\"kthreads_cpu_s\":null,\"pair\":null}" &&
	echo "[\"bare\",\"bare\",null,null,false,null,[$n,$n],null,null,null,null,{\"mode\":null,\"why\":null,\"ratio\":null,\"footprint_bytes\":null,\"memory_bytes\":null,\"calibration\":null,\"calibration_peak_rss_bytes\":null,\"shrink\":null,\"machine_before\":null,\"machine_confined\":null,\"machine_after\":null},{\"asked\":null,\"done\":2,\"warmup\":null,\"stopped_by\":null,\"precision_pct\":null,\"max_runs\":null,\"time_budget_s\":null,\"precision_of\":\"elapsed\"},{\"mem_limit\":null,\"swap\":null},{},{\"vmstat\":null,\"kmsg\":null,\"trace\":null,\"highorder\":null},false]" >expect &&
	test_cmp expect got
'

test_expect_success JQ 'run.facts that does not say whether the run completed' '
	mkdir unsaid &&
	echo run_label=u >unsaid/run.facts &&
	latency-summarize --result-dir=unsaid &&
	sed -n 3p unsaid/summary.txt >got &&
	echo "PARTIAL: run.facts does not say whether the run completed" >expect &&
	test_cmp expect got &&
	test_json unsaid/result.json .partial true &&
	grep -x "note: run.facts: no runs_done: no fake-gitk run read" unsaid/summary.txt
'

# Labels, reasons, notes and file names with control characters, C1
# controls and bytes that are not UTF-8 (which become U+FFFD).
fffd=$(printf "\357\277\275")
c1=$(printf "\302\233")
make_hostile() {
	mkdir hostile &&
	{
		printf "label=ev\til\\\\\n" &&
		printf "run_label=a\033[2Jb\302\233c\377d\n" &&
		printf "partial=yes\n" &&
		printf "partial_reason=killed\033]0;title\007 by\rsignal\n" &&
		printf "runs_done=1\npressure_mode=none\n" &&
		printf "pressure_why=not root: \302\2335m\n"
	} >hostile/run.facts &&
	printf "{\"iterations\":[{\"elapsed_s\":5.5}]}" >hostile/fake-gitk-1.json &&
	printf "{\"x\":1}" >"hostile/$(printf "evil\nname\033[1m").report.json" &&
	printf "{\"x\":\"\\\\u0000\\\\u001b\"}" >"hostile/$(printf "bad\377").report.json" &&
	printf "note with \033[31mcolour\nand \377 a bad byte\n" >hostile/notes
}

test_expect_success 'hostile strings: an escaped summary' '
	make_hostile &&
	latency-summarize --result-dir=hostile &&
	sed -n 1,3p hostile/summary.txt >got &&
	printf "%s\n" "a\\x1b[2Jb\\u009bc${fffd}d Elapsed:00:05.500(stddev:0.000) Failures:0" \
		"a\\x1b[2Jb\\u009bc${fffd}d HighOrder: none (not probed)" \
		"PARTIAL: killed\\x1b]0;title\\x07 by\\rsignal" >expect &&
	test_cmp expect got &&
	grep -x "pressure: none: no memory pressure was applied: not root: \\\\u009b5m" hostile/summary.txt &&
	grep -x "  bad${fffd} stall_count=n/a stall_time_s=n/a p99_s=n/a max_s=n/a" hostile/summary.txt &&
	grep -x "  evil\\\\nname\\\\x1b\[1m stall_count=n/a stall_time_s=n/a p99_s=n/a max_s=n/a" hostile/summary.txt &&
	grep -x "note: note with \\\\x1b\[31mcolour" hostile/summary.txt &&
	grep -x "note: and ${fffd} a bad byte" hostile/summary.txt &&
	! LC_ALL=C grep -q "$(printf "[\001-\010\013-\037\177]")" hostile/summary.txt &&
	test_line_count = 27 hostile/summary.txt
'

test_expect_success JQ 'hostile strings: valid JSON with the strings intact' '
	json_get hostile/result.json "[.label, .run_label, .partial_reason, (.latency | keys),
		.latency[\"bad\ufffd\"].x, .notes[0:2]] | tojson" >got &&
	printf "%s\n" "[\"ev\\til\\\\\",\"a\\u001b[2Jb${c1}c${fffd}d\",\"killed\\u001b]0;title\\u0007 by\\rsignal\",[\"bad${fffd}\",\"evil\\nname\\u001b[1m\"],\"\\u0000\\u001b\",[\"note with \\u001b[31mcolour\",\"and ${fffd} a bad byte\"]]" >expect &&
	test_cmp expect got
'

test_expect_success 'hostile files: FIFO, symlink, directory, too deep, wrong type' '
	mkdir traps &&
	printf "run_label=t\nruns_done=1\npartial=no\n" >traps/run.facts &&
	mkfifo traps/vmstat.json &&
	ln -s /etc/passwd traps/notes &&
	mkdir traps/trace.json &&
	printf "[1]" >traps/kmsg.json &&
	printf "{\"iterations\":[{\"elapsed_s\":-1,\"majflt\":1.5,\"lines\":\"7\"}]}" >traps/fake-gitk-1.json &&
	deep=$(printf "%040d" 0 | tr 0 "[")$(printf "%040d" 0 | tr 0 "]") &&
	printf "{\"a\":%s}" "$deep" >traps/deep.report.json &&
	printf "{\"a\":1}\n" >traps/fake-gitk-1.snap-before.json &&
	printf "not json" >traps/fake-gitk-1.snap-after.json &&
	latency-summarize --result-dir=traps &&
	sed -n "/^note: /p" traps/summary.txt >got &&
	cat >expect <<-\EOF &&
	note: fake-gitk-1.json: iterations[0].elapsed_s: -1, expected a number >= 0
	note: fake-gitk-1.json: iterations[0].majflt is not a whole number
	note: fake-gitk-1.json: iterations[0].lines is not a whole number
	note: fake-gitk-1.snap-after.json: invalid JSON at line 1, column 1: unexpected '"'"'n'"'"', expected a value
	note: trace-events.log: missing: reclaim_s and compact_s are null
	note: deep.report.json: nested deeper than 29 levels
	note: vmstat.json: not a regular file
	note: kmsg.json: array, expected a JSON object
	note: trace.json: Is a directory
	note: notes: a symbolic link
	EOF
	test_cmp expect got
'

test_expect_success JQ 'hostile files: nulls in result.json' '
	json_get traps/result.json "[.gitk_runs[0].elapsed_s, .gitk_runs[0].majflt,
		.gitk_runs[0].progress_lines, .latency.deep, .monitors] | tojson" >got &&
	echo "[null,null,null,null,{\"vmstat\":null,\"kmsg\":null,\"trace\":null,\"highorder\":null}]" >expect &&
	test_cmp expect got
'

test_expect_success JQ 'trace events: malformed lines counted, the rest summed' '
	mkdir ev &&
	printf "run_label=ev\nruns_done=1\npartial=no\n" >ev/run.facts &&
	printf "{\"iterations\":[{\"elapsed_s\":2,\"start_mono_s\":10,\"end_mono_s\":12}]}" >ev/fake-gitk-1.json &&
	{
		echo "10 direct_reclaim 0.5 pid=1" &&
		echo "12.000000000 memcg_reclaim 0.25 pid=2" &&
		echo "11 compaction 1 pid=3" &&
		echo "9.999999999 direct_reclaim 4 pid=1" &&
		echo "12.000000001 direct_reclaim 8 pid=1" &&
		echo "11 direct_reclaim 0.125 pid=1 extra" &&
		echo "11 direct_reclaim 0.125" &&
		echo "11 direct_reclaim -1 pid=1" &&
		echo "11 unknown_stall 1 pid=1" &&
		echo "11 direct_reclaim 0.125 pid=x" &&
		printf "11 direct_reclaim %05000d pid=1\n" 1 &&
		echo &&
		printf "11 compaction 2 pid=4"
	} >ev/trace-events.log &&
	latency-summarize --result-dir=ev &&
	grep "^  fake-gitk-1 " ev/summary.txt >got &&
	echo "  fake-gitk-1 elapsed_s=2 majflt=n/a pswpin=n/a pswpout=n/a reclaim_s=0.750 compact_s=3.000 psi_some_s=n/a psi_full_s=n/a pgscan_kswapd=n/a pgscan_direct=n/a allocstall=n/a pgsteal_anon=n/a pgsteal_file=n/a user_s=n/a sys_s=n/a user_sampled_s=n/a progress_lines=n/a wait_s=n/a elapsed_per_user=n/a sys_per_user=n/a wait_per_user=n/a runq_s=n/a elapsed_less_runq_per_user=n/a others_cpu_s=n/a kthreads_cpu_s=n/a" >expect &&
	test_cmp expect got &&
	grep -x "note: trace-events.log: 6 malformed lines ignored" ev/summary.txt &&
	test_json ev/result.json ".gitk_runs[0] | [.reclaim_s, .compact_s] |
		tojson" "[0.75,3]"
'

# One line on stderr, exit 1, and nothing written, for the LINE 2 of FILE
# (run.facts, or the options in config).
bad_in() { # FILE LINE EXPECTED-MESSAGE
	rm -rf bad && mkdir bad &&
	echo run_label=x >bad/run.facts &&
	echo "# the options" >bad/config &&
	echo "# the pressure plan" >bad/plan &&
	printf "%s\n" "$2" >>"bad/$1" &&
	test_expect_code 1 latency-summarize --result-dir=bad 2>err &&
	echo "latency-summarize: $3" >expect &&
	test_cmp expect err &&
	! test -e bad/result.json &&
	! test -e bad/summary.txt &&
	test_expect_code 1 latency-plan --stop-rule --result-dir=bad \
		>out 2>err &&
	echo "latency-plan: $3" >expect &&
	test_cmp expect err &&
	test_cmp /dev/null out
}
bad_facts() { bad_in run.facts "$@"; }
bad_config() { bad_in config "$@"; }

test_expect_success 'bad run.facts values: a one-line error' '
	bad_facts runs_done=abc "invalid value '"'"'abc'"'"' for runs_done in '"'"'bad/run.facts'"'"' line 2 (expected a whole number)" &&
	bad_facts runs_done=-1 "invalid value '"'"'-1'"'"' for runs_done in '"'"'bad/run.facts'"'"' line 2 (expected a whole number)" &&
	bad_facts runs_done=10001 "invalid value '"'"'10001'"'"' for runs_done in '"'"'bad/run.facts'"'"' line 2 (at most 10000 runs)" &&
	bad_facts partial=maybe "invalid value '"'"'maybe'"'"' for partial in '"'"'bad/run.facts'"'"' line 2 (expected yes or no)" &&
	bad_facts stopped_by=boredom "invalid value '"'"'boredom'"'"' for stopped_by in '"'"'bad/run.facts'"'"' line 2 (expected runs, precision, max-runs, time-budget, interrupted or failed)" &&
	bad_facts pressure_mode=full "invalid value '"'"'full'"'"' for pressure_mode in '"'"'bad/run.facts'"'"' line 2 (expected global, memcg or none)" &&
	bad_facts calibration=guessed "invalid value '"'"'guessed'"'"' for calibration in '"'"'bad/run.facts'"'"' line 2 (expected measured, cached or none)" &&
	bad_facts pressure_ratio=0 "invalid value '"'"'0'"'"' for pressure_ratio in '"'"'bad/run.facts'"'"' line 2 (expected a positive decimal number)" &&
	bad_facts pressure_ratio=-4 "invalid value '"'"'-4'"'"' for pressure_ratio in '"'"'bad/run.facts'"'"' line 2 (expected a positive decimal number)" &&
	bad_in plan "$(printf "footprint_bytes=1\033[2J")" "invalid value '"'"'1\\x1b[2J'"'"' for footprint_bytes in '"'"'bad/plan'"'"' line 2 (expected a whole number)" &&
	bad_facts "no equals sign" "no '"'"'='"'"' in '"'"'no equals sign'"'"' in '"'"'bad/run.facts'"'"' line 2" &&
	bad_facts "Bad Key=1" "invalid key '"'"'Bad Key'"'"' in '"'"'bad/run.facts'"'"' line 2"
'

# The options come from the run's config, checked as run.facts is.
test_expect_success 'bad config values: a one-line error' '
	bad_config seed=99999999999999999999 "invalid value '"'"'99999999999999999999'"'"' for seed in '"'"'bad/config'"'"' line 2 (expected a whole number)" &&
	bad_config gitk-runs=some "invalid value '"'"'some'"'"' for gitk-runs in '"'"'bad/config'"'"' line 2 (expected a whole number or auto)" &&
	bad_config precision=2% "invalid value '"'"'2%'"'"' for precision in '"'"'bad/config'"'"' line 2 (expected a positive decimal number)" &&
	bad_config time-budget=soon "invalid value '"'"'soon'"'"' for time-budget in '"'"'bad/config'"'"' line 2 (expected seconds, e.g. 600 or 10m)" &&
	bad_config runs_asked=3 "invalid key '"'"'runs_asked'"'"' in '"'"'bad/config'"'"' line 2"
'

# run.facts no longer carries the options: an old key there is ignored.
test_expect_success JQ 'the options are read from config, not run.facts' '
	rm -rf opt && mkdir opt &&
	printf "%s\n" run_label=o runs_done=0 partial=no seed=5 runs_asked=9 \
		pressure_mode=memcg memory_bytes=5 >opt/run.facts &&
	printf "%s\n" seed=42 gitk-runs=7 warmup=2 precision=1.5 max-runs=12 \
		time-budget=10m mem-limit=64M stall=2 >opt/config &&
	latency-summarize --result-dir=opt &&
	test_json opt/result.json ".pressure.memory_bytes" 67108864 &&
	test_json opt/result.json ".pressure.footprint_bytes" null &&
	test_json opt/result.json ".confinement.mem_limit" 64M &&
	test_json opt/result.json ".seed" 42 &&
	test_json opt/result.json ".runs.asked" 7 &&
	test_json opt/result.json ".runs.warmup" 2 &&
	test_json opt/result.json ".runs.precision_pct" 1.5 &&
	test_json opt/result.json ".runs.max_runs" 12 &&
	test_json opt/result.json ".runs.time_budget_s" 600 &&
	printf "%s\n" footprint_bytes=1000000 memory_bytes=331776 \
		swap_bytes=268435456 >opt/plan &&
	latency-summarize --result-dir=opt &&
	test_json opt/result.json ".pressure.memory_bytes" 331776 &&
	test_json opt/result.json ".pressure.footprint_bytes" 1000000
'

test_expect_success 'run.facts missing, not a file, binary' '
	mkdir nofacts &&
	test_expect_code 1 latency-summarize --result-dir=nofacts 2>err &&
	echo "latency-summarize: cannot read '"'"'nofacts/run.facts'"'"': No such file or directory" >expect &&
	test_cmp expect err &&
	mkfifo nofacts/run.facts &&
	test_expect_code 1 latency-summarize --result-dir=nofacts 2>err &&
	echo "latency-summarize: cannot read '"'"'nofacts/run.facts'"'"': not a regular file" >expect &&
	test_cmp expect err &&
	rm nofacts/run.facts &&
	printf "run_label=a\0b\n" >nofacts/run.facts &&
	test_expect_code 1 latency-summarize --result-dir=nofacts 2>err &&
	echo "latency-summarize: cannot read '"'"'nofacts/run.facts'"'"': binary data (a NUL byte)" >expect &&
	test_cmp expect err &&
	! test -e nofacts/result.json
'

test_expect_success 'comments, empty values, unknown keys and repeats' '
	mkdir keys &&
	{
		echo "# a comment" &&
		echo &&
		echo "run_label=first" &&
		echo "run_label=second" &&
		echo "future_key=whatever it is" &&
		echo "partial=yes" &&
		echo "partial=" &&
		echo "runs_done=0"
	} >keys/run.facts &&
	latency-summarize --result-dir=keys &&
	sed -n 1,3p keys/summary.txt >got &&
	printf "%s\n" "second partial: no fake-gitk run completed" \
		"second HighOrder: none (not probed)" \
		"PARTIAL: run.facts does not say whether the run completed" >expect &&
	test_cmp expect got
'

test_expect_success '--result-dir takes no other option' '
	test_expect_code 2 latency-summarize --result-dir=full 1 2 2>err &&
	test_expect_code 2 latency-summarize --result-dir=full --format=json 2>err &&
	test_expect_code 2 latency-summarize --result-dir=full -o x 2>err &&
	test_expect_code 2 latency-summarize --result-dir= 2>err &&
	grep -x "latency-summarize: --result-dir needs a directory" err
'

test_done
