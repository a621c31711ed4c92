#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lib.sh idiom: test bodies are single-quoted and evaluated later, and
# the harness sets abs_top_srcdir and reads test_description.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: high-order success per order, by a two-proportion test (the runs as clusters where known)'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-compare.sh"

# make_result DIR LABEL HIGH_ORDER [P99_US]: a run-test.sh result.json of
# three runs with the high_order list HIGH_ORDER (JSON) and, when given,
# the probe's own summary under monitors.highorder with its p99 fault time
# of every probe P99_US (JSON: a number or null).
make_result() {
	mon=
	[ -z "${4:-}" ] ||
		mon=", \"monitors\": {\"highorder\": {\"fault_p99_us\": $4}}"
	mkdir -p "$1" &&
	cat >"$1/result.json" <<-EOF
	{"format_version": 2, "program": "run-test.sh", "label": "$2",
	 "run_label": "$(basename "$1")", "partial": false,
	 "gitk_runs": [{"elapsed_s": 10}, {"elapsed_s": 11}, {"elapsed_s": 12}],
	 "high_order": $3$mon}
	EOF
}

ho() { # ORDER ATTEMPTS SUCCESSES [FAULT_P99_US]
	printf '{"order": %s, "attempts": %s, "successes": %s, "success_pct": 0, "fault_p99_us": %s}' \
		"$1" "$2" "$3" "${4:-1}"
}

test_expect_success 'fixtures' '
	make_result base 6.1 "[$(ho 2 1000 1000), $(ho 9 1000 450)]" &&
	make_result new 6.2 "[$(ho 2 1000 995), $(ho 4 100 50), $(ho 9 1000 300)]" &&
	make_result none 6.3 null
'

# make_runs DIR LABEL: three runs with their probes of order 9, 10/10,
# 10/10 and 0/10 (the failures came together, in one run), 20/30 in all.
# make_runs DIR LABEL SAME: 5/10 in each run, 15/30.
make_runs() {
	if [ -n "${3:-}" ]; then
		r1='"high_order": [{"order": 9, "attempts": 10, "successes": 5}]'
		r2=$r1 r3=$r1 all=15
	else
		r1='"high_order": [{"order": 9, "attempts": 10, "successes": 10}]'
		r2=$r1 r3='"high_order": [{"order": 9, "attempts": 10, "successes": 0}]'
		all=20
	fi
	mkdir -p "$1" &&
	cat >"$1/result.json" <<-EOF
	{"format_version": 2, "program": "run-test.sh", "label": "$2",
	 "run_label": "$(basename "$1")", "partial": false,
	 "gitk_runs": [{"elapsed_s": 10, $r1}, {"elapsed_s": 11, $r2},
	  {"elapsed_s": 12, $r3}],
	 "high_order": [$(ho 9 30 "$all")]}
	EOF
}

test_expect_success JQ 'runs as clusters: probes that fail together are one event, not ten' '
	make_runs clu 6.1 && make_runs clv 6.2 same &&
	latency-compare --format=json clu clv >out.json &&
	json_get out.json ".results[1].high_order[0] | [.change_pp, .p, .significant, .mde_pp, .test] | tojson" >got &&
	echo "[-16.66666667,0.62963346,false,96.82484595,\"clustered\"]" >expect &&
	test_cmp expect got &&
	latency-compare clu clv >out &&
	sed -n 1p out >first &&
	! grep -q "order-9" first
'

# The probe runs through the warmup and between the runs too: the result's
# totals are not the test's sample.  Before, the table showed the totals
# beside a change computed from the runs (43.2% and 66.3%: "+41.4 pp").
test_expect_success JQ 'clustered: attempts and success% are the counted runs'\'', the totals kept in JSON' '
	make_runs clw 6.1 && make_runs clx 6.2 same &&
	json_get clx/result.json \
		".high_order[0] |= (.attempts = 50 | .successes = 16)" >clx.json &&
	mv clx.json clx/result.json &&
	test_json clx/result.json ".high_order[0] | [.order, .attempts, .successes] | tojson" "[9,50,16]" &&
	latency-compare clw clx >out &&
	grep -x "6.1        9        30      66.7         0.001         -       -        -" out &&
	grep -x "6.2        9        30      50.0         0.001  -16.7 pp  0.6296  96.8 pp" out &&
	grep -x "attempts, success%: during the counted fake-gitk runs, the sample of the test" out &&
	latency-compare --format=json clw clx >out.json &&
	json_get out.json ".results[1].high_order[0] | [.attempts, .successes, .runs_attempts, .runs_successes, .runs_success_pct] | tojson" >got &&
	echo "[50,16,30,15,50]" >expect &&
	test_cmp expect got &&
	latency-compare --format=csv clw clx | tail -n 1 >got &&
	echo "6.2,9,50,16,32,1,-16.66666667,0.62963346,false,96.82484595,clustered,30,15" >expect &&
	test_cmp expect got
'

# res DIR LABEL S: a result of three runs, each S successes of 10.
res() {
	mkdir -p "$1" &&
	r="\"high_order\": [{\"order\": 9, \"attempts\": 10, \"successes\": $3}]" &&
	cat >"$1/result.json" <<-EOF
	{"format_version": 2, "program": "run-test.sh", "label": "$2",
	 "run_label": "$(basename "$1")", "partial": false,
	 "gitk_runs": [{"elapsed_s": 10, $r}, {"elapsed_s": 11, $r},
	  {"elapsed_s": 12, $r}],
	 "high_order": [$(ho 9 30 $(($3 * 3)))]}
	EOF
}

# Under global pressure one result of a configuration got 0% in every run
# and the next 73%: runs as clusters called +28 points significant.
test_expect_success JQ 'two results or more a label: the results are the clusters' '
	res ra1 6.1 10 && res ra2 6.1 10 && res rb1 6.2 10 && res rb2 6.2 0 &&
	latency-compare --format=json ra1 ra2 rb1 rb2 >out.json &&
	json_get out.json ".results[1].high_order[0] | [.change_pp, .p, .significant, .test] | tojson" >got &&
	echo "[-50,0.3173105079,false,\"clustered-results\"]" >expect &&
	test_cmp expect got &&
	latency-compare ra1 rb1 >out &&
	! grep -q "the results as clusters" out &&
	latency-compare --format=json ra1 rb2 >out.json &&
	json_get out.json ".results[1].high_order[0].test" >got &&
	echo clustered >expect &&
	test_cmp expect got &&
	latency-compare ra1 ra2 rb1 rb2 >out &&
	grep -x "change, p, mde: the results as clusters (two or more a label: a result.s runs share" out
'

test_expect_success JQ 'a result without probes per run: the binomial test, said so' '
	make_result bin1 6.1 "[$(ho 9 30 20)]" &&
	latency-compare --format=json bin1 clv >out.json &&
	json_get out.json ".results[1].high_order[0].test" >got &&
	echo binomial >expect && test_cmp expect got
'

test_expect_success 'text: success per order beside elapsed, changes in points with p and mde' '
	latency-compare base new none >out &&
	echo "6.2 vs 6.1: elapsed +0.0% (p 1, no significant change; could have seen >= 27.6%); changed: order-2 success -0.5 pp, order-9 success -15.0 pp" >expect &&
	sed -n 1p out >got &&
	test_cmp expect got &&
	sed -n "/^High-order allocation success/,/^\$/p" out >got &&
	cat >expect <<-\EOF &&
	High-order allocation success (latency-highorder), against 6.1 by the two-proportion z test (* significant, p < 0.05):
	label  order  attempts  success%  fault_p99_ms     change        p     mde
	6.1        2      1000     100.0         0.001          -        -       -
	6.1        9      1000      45.0         0.001          -        -       -
	6.2        2      1000      99.5         0.001   -0.5 pp*   0.0252  0.6 pp
	6.2        4       100      50.0         0.001          -        -       -
	6.2        9      1000      30.0         0.001  -15.0 pp*  <0.0001  6.1 pp

	EOF
	test_cmp expect got
'

test_expect_success JQ 'json: each label its high_order list, the changes with p and mde' '
	latency-compare --format=json base new none >out.json &&
	json_get out.json ".results[0].high_order | tojson" >got &&
	echo "[{\"order\":2,\"attempts\":1000,\"successes\":1000,\"success_pct\":100,\"fault_p99_us\":1},{\"order\":9,\"attempts\":1000,\"successes\":450,\"success_pct\":45,\"fault_p99_us\":1}]" >expect &&
	test_cmp expect got &&
	json_get out.json ".results[1].high_order[] | [.order, .change_pp, .significant] | tojson" >got &&
	printf "%s\n" "[2,-0.5,true]" "[4,null,null]" "[9,-15,true]" >expect &&
	test_cmp expect got &&
	near "$(json_get out.json ".results[1].high_order[0].p")" 0.0251645 1e-6 &&
	near "$(json_get out.json ".results[1].high_order[0].mde_pp")" 0.6256699 1e-5 &&
	near "$(json_get out.json ".results[1].high_order[2].mde_pp")" 6.0656099 1e-5 &&
	test_json out.json ".results[2].high_order == []" true
'

test_expect_success JQ 'several results of a label: their probes pooled' '
	make_result base2 6.1 "[$(ho 9 1000 450)]" &&
	latency-compare --format=json base base2 new >out.json &&
	json_get out.json ".results[0].high_order[1] | [.order, .attempts, .successes] | tojson" >got &&
	echo "[9,2000,900]" >expect &&
	test_cmp expect got &&
	near "$(json_get out.json ".results[1].high_order[2].p")" 0 1e-12
'

test_expect_success 'no label with probes: no high-order table' '
	latency-compare none none >out &&
	! grep "High-order" out
'

# The fault times: per order in high_order, of every probe in the probe's
# own summary (monitors.highorder), as summary.txt's line 2 gives it.
test_expect_success 'fixtures with fault times' '
	make_result p1 6.1 "[$(ho 2 1000 1000 120), $(ho 9 1000 450 281)]" 281 &&
	make_result p2 6.2 "[$(ho 2 1000 995 150), $(ho 4 100 50 null), $(ho 9 1000 300 3100)]" 3100 &&
	make_result p3 6.1 "[$(ho 9 1000 450 481)]" 481.5 &&
	make_result nop99 6.4 "[$(ho 9 10 5 null)]" null
'

test_expect_success '2009: the headlines unchanged, each followed by summary.txt'\''s line 2' '
	latency-compare --format=2009 p1 p2 none nop99 >out &&
	cat >expect <<-\EOF &&
	6.1 Elapsed:00:11.000(stddev:1.000) Failures:-
	6.1 HighOrder: order-2 100.0% order-9 45.0% (p99 fault 0.281 ms)
	6.2 Elapsed:00:11.000(stddev:1.000) Failures:-
	6.2 HighOrder: order-2 99.5% order-4 50.0% order-9 30.0% (p99 fault 3.1 ms)
	6.3 Elapsed:00:11.000(stddev:1.000) Failures:-
	6.3 HighOrder: none (not probed)
	6.4 Elapsed:00:11.000(stddev:1.000) Failures:-
	6.4 HighOrder: order-9 50.0% (p99 fault n/a)
	EOF
	test_cmp expect out &&
	latency-compare --format=2009 none none >out &&
	echo "6.3 Elapsed:00:11.000(stddev:1.000) Failures:-" >expect &&
	test_cmp expect out
'

test_expect_success '2009: several results of a label, the mean of their fault times' '
	latency-compare --format=2009 p1 p3 >out &&
	cat >expect <<-\EOF &&
	6.1 Elapsed:00:11.000(stddev:1.000) Failures:-
	6.1 HighOrder: order-2 100.0% order-9 45.0% (p99 fault 0.381 ms)
	EOF
	test_cmp expect out
'

test_expect_success '2009: a summarized run reads as its summary.txt lines 1 and 2' '
	cp -R "$TEST_DIRECTORY/fixtures/summarize/full" full &&
	# Without its snapshots, whose counters are beyond what compare takes.
	rm full/*.snap-before.json full/*.snap-after.json &&
	latency-summarize --result-dir=full &&
	latency-compare --format=2009 6.1.0-test-2=full/result.json >out &&
	sed -n 1,2p full/summary.txt >expect &&
	test_cmp expect out
'

test_expect_success 'csv: after the label rows, a row per label and order' '
	latency-compare --format=csv p1 p2 none >out &&
	sed -n "/^\$/,\$p" out >got &&
	cat >expect <<-\EOF &&

	label,order,attempts,successes,success_pct,fault_p99_us,change_pp,p,significant,mde_pp,test,runs_attempts,runs_successes
	6.1,2,1000,1000,100,120,,,,,,,
	6.1,9,1000,450,45,281,,,,,,,
	6.2,2,1000,995,99.5,150,-0.5,0.0251644857,true,0.6256699423,binomial,,
	6.2,4,100,50,50,,,,,,,,
	6.2,9,1000,300,30,3100,-15,4.262191598e-12,true,6.065609924,binomial,,
	EOF
	test_cmp expect got &&
	latency-compare --format=csv none >out &&
	test_line_count = 2 out
'

test_expect_success JQ 'text and json: the fault time per order, of every probe per label' '
	latency-compare p1 p2 >out &&
	grep -x "6.2        4       100      50.0             -          -        -       -" out &&
	grep -x "6.2        9      1000      30.0           3.1  -15.0 pp\*  <0.0001  6.1 pp" out &&
	latency-compare --format=json p1 p3 p2 nop99 >out.json &&
	test_json out.json "[.results[].high_order_fault_p99_us] | tojson" \
		"[381.25,3100,null]" &&
	test_json out.json "[paths(type == \"object\" and .fault_p99_us == 381)] | length" 1
'

# A label with a newline, a terminal colour escape, a comma and a quote,
# and one a spreadsheet would take for a formula.
test_expect_success 'hostile labels stay inert in the 2009 and CSV high-order lines' '
	make_result ev "ev\\n\\u001b[31m,\\\"q" "[$(ho 9 10 5 200)]" 200 &&
	make_result fo "=1+2" "[$(ho 9 10 5 200)]" 200 &&
	latency-compare --format=2009 ev fo >out &&
	printf "%s\n" "ev\n\x1b[31m,\"q HighOrder: order-9 50.0% (p99 fault 0.200 ms)" \
		"=1+2 HighOrder: order-9 50.0% (p99 fault 0.200 ms)" >expect &&
	grep HighOrder out >got &&
	test_cmp expect got &&
	! grep -q "$(printf "\033")" out &&
	latency-compare --format=csv ev fo >out &&
	printf "%s\n" "\"ev\n\x1b[31m,\"\"q\",9,10,5,50,200,,,,,,," \
		"\"'\''=1+2\",9,10,5,50,200,0,1,false,62.64534992,binomial,," >expect &&
	sed -n "/^label,order,/,\$p" out | sed 1d >got &&
	test_cmp expect got
'

test_expect_success 'bad high_order entries are refused naming the file' '
	make_result bad1 x "[$(ho 9 10 11)]" &&
	test_expect_code 1 latency-compare base bad1 2>err &&
	grep "bad1.*\"high_order\[0\]\": not an order 1 to 63 with whole attempts and successes" err &&
	make_result bad2 x "[$(ho 9 10 1), $(ho 9 10 1)]" &&
	test_expect_code 1 latency-compare base bad2 2>err &&
	grep "\"high_order\" lists order 9 twice" err &&
	make_result bad3 x "{}" &&
	test_expect_code 1 latency-compare base bad3 2>err &&
	grep "\"high_order\" is an object, expected an array" err &&
	make_result bad4 x "[$(ho 9 10 1 \"x\")]" &&
	test_expect_code 1 latency-compare base bad4 2>err &&
	grep "bad4.*\"high_order\[0\].fault_p99_us\" is a string, expected a number" err &&
	make_result bad5 x "[]" -1 &&
	test_expect_code 1 latency-compare base bad5 2>err &&
	grep "bad5.*\"monitors.highorder.fault_p99_us\" is -1, expected 0 to 1e+15" err
'

test_done
