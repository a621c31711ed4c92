#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lib.sh idiom: test bodies are single-quoted and evaluated later, and
# the harness sets abs_top_srcdir and reads test_description.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: high-order success per order, by the two-proportion z test'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-compare.sh"

command -v jq >/dev/null 2>&1 && test_set_prereq JQ

# make_result DIR LABEL HIGH_ORDER: a run-test.sh result.json of three runs
# with the high_order list HIGH_ORDER (JSON).
make_result() {
	mkdir -p "$1" &&
	cat >"$1/result.json" <<-EOF
	{"format_version": 2, "program": "run-test.sh", "label": "$2",
	 "run_label": "$(basename "$1")", "partial": false,
	 "gitk_runs": [{"elapsed_s": 10}, {"elapsed_s": 11}, {"elapsed_s": 12}],
	 "high_order": $3}
	EOF
}

ho() { # ORDER ATTEMPTS SUCCESSES
	printf '{"order": %s, "attempts": %s, "successes": %s, "success_pct": 0, "fault_p99_us": 1}' "$@"
}

test_expect_success 'fixtures' '
	make_result base 6.1 "[$(ho 2 1000 1000), $(ho 9 1000 450)]" &&
	make_result new 6.2 "[$(ho 2 1000 995), $(ho 4 100 50), $(ho 9 1000 300)]" &&
	make_result none 6.3 null
'

test_expect_success 'text: success per order beside elapsed, changes in points with p and mde' '
	latency-compare base new none >out &&
	echo "6.2 vs 6.1: elapsed +0.0% (p 1, no significant change; could have seen >= 27.6%); changed: order-2 success -0.5 pp, order-9 success -15.0 pp" >expect &&
	sed -n 1p out >got &&
	test_cmp expect got &&
	sed -n "/^High-order allocation success/,/^\$/p" out >got &&
	cat >expect <<-\EOF &&
	High-order allocation success (latency-highorder), against 6.1 by the two-proportion z test (* significant, p < 0.05):
	label  order  attempts  success%     change        p     mde
	6.1        2      1000     100.0          -        -       -
	6.1        9      1000      45.0          -        -       -
	6.2        2      1000      99.5   -0.5 pp*   0.0252  0.6 pp
	6.2        4       100      50.0          -        -       -
	6.2        9      1000      30.0  -15.0 pp*  <0.0001  6.1 pp

	EOF
	test_cmp expect got
'

test_expect_success JQ 'json: each label its high_order list, the changes with p and mde' '
	latency-compare --format=json base new none >out.json &&
	jq -c ".results[0].high_order" out.json >got &&
	echo "[{\"order\":2,\"attempts\":1000,\"successes\":1000,\"success_pct\":100},{\"order\":9,\"attempts\":1000,\"successes\":450,\"success_pct\":45}]" >expect &&
	test_cmp expect got &&
	jq -c ".results[1].high_order[] | [.order, .change_pp, .significant]" out.json >got &&
	printf "%s\n" "[2,-0.5,true]" "[4,null,null]" "[9,-15,true]" >expect &&
	test_cmp expect got &&
	near "$(jq ".results[1].high_order[0].p" out.json)" 0.0251645 1e-6 &&
	near "$(jq ".results[1].high_order[0].mde_pp" out.json)" 0.6256699 1e-5 &&
	near "$(jq ".results[1].high_order[2].mde_pp" out.json)" 6.0656099 1e-5 &&
	jq -e ".results[2].high_order == []" out.json
'

test_expect_success JQ 'several results of a label: their probes pooled' '
	make_result base2 6.1 "[$(ho 9 1000 450)]" &&
	latency-compare --format=json base base2 new >out.json &&
	jq -c ".results[0].high_order[1] | [.order, .attempts, .successes]" out.json >got &&
	echo "[9,2000,900]" >expect &&
	test_cmp expect got &&
	near "$(jq ".results[1].high_order[2].p" out.json)" 0 1e-12
'

test_expect_success 'no label with probes: no high-order table' '
	latency-compare none none >out &&
	! grep "High-order" out
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
	grep "\"high_order\" is an object, expected an array" err
'

test_done
