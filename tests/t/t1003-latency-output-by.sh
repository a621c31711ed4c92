#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-output --by: gaps per value of a KEY=value field'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# Two interleaved workers: thread=1 every second, thread=2 every 2 s.
test_expect_success 'setup' '
	printf "%s\n" "10.0 w thread=1" "10.5 w thread=2" "11.0 w thread=1" \
		"12.0 w thread=1" "12.5 w thread=2" "13.0 w thread=1" \
		"13.0 w other=1" >in
'

test_expect_success 'the gap column is per group' '
	latency-output --by thread --epoch-offset 0 --report rep <in >out &&
	cat >expect <<-\EOT &&
	         10.0000   0.0000     0.0000 -- 10.0 w thread=1
	         10.5000   0.5000     0.0000 -- 10.5 w thread=2
	         11.0000   1.0000     1.0000 -- 11.0 w thread=1
	         12.0000   2.0000     1.0000 -- 12.0 w thread=1
	         12.5000   2.5000     2.0000 -- 12.5 w thread=2
	         13.0000   3.0000     1.0000 -- 13.0 w thread=1
	         13.0000   3.0000     0.0000 -- 13.0 w other=1
	EOT
	test_cmp expect out
'

test_expect_success JQ 'JSON: per-value groups and the overall figures' '
	latency-output --by thread --stall 1500ms --format json \
		--report rep.json <in >out &&
	test_json rep.json .by thread &&
	test_json rep.json .gaps 4 &&
	test_json rep.json .max_s 2 &&
	test_json rep.json .stall_count 1 &&
	json_get rep.json ".groups[] | [.value, .lines, .gaps, .mean_s,
		.stddev_s, .p50_s] | tojson" >got &&
	cat >expect <<-\EOT &&
	["1",4,3,1,0,1]
	["2",2,1,2,0,2]
	[null,1,0,0,0,0]
	EOT
	test_cmp expect got
'

test_expect_success JQ 'without --by the same lines are one series' '
	latency-output --format json --report rep.json <in >out &&
	test_json rep.json .gaps 6 &&
	test_json rep.json .max_s 1 &&
	test_json rep.json "has(\"groups\")" false
'

test_expect_success 'text and CSV reports list every value' '
	latency-output --by thread --report rep.txt <in >out &&
	grep "^by thread:$" rep.txt &&
	grep -E "^1 +4 +3 +0 +1.000000 +1.000000 +1.000000 +0 +0.000000$" rep.txt &&
	grep -E "^2 +2 +1 +0 +2.000000 +2.000000 +2.000000 +1 +2.000000$" rep.txt &&
	grep -E "^\(none\) +1 +0 " rep.txt &&
	grep -E "^all +7 +4 +0 " rep.txt &&
	latency-output --by thread --format csv --report rep.csv <in >out &&
	grep "^1,4,3,1.000000000,0.000000000,1.000000000," rep.csv &&
	grep "^2,2,1,2.000000000," rep.csv &&
	grep "^all,7,4," rep.csv
'

test_expect_success JQ 'a backwards line is judged within its own group' '
	printf "%s\n" "10.0 w thread=1" "11.0 w thread=2" "10.5 w thread=1" \
		"10.9 w thread=2" >in2 &&
	latency-output --by thread --format json --report rep.json <in2 >out &&
	test_json rep.json .malformed.backwards 1 &&
	test_json rep.json .gaps 1 &&
	test_json rep.json .max_s 0.5
'

test_done
