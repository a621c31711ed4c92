#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-output: a million lines, exact figures (integer nanoseconds)'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# 1,000,000 lines 1 ms apart, except that three gaps are 2 s long.
test_expect_success 'generate the input' '
	awk "BEGIN {
		t = 0
		for (i = 0; i < 1000000; i++) {
			if (i == 250000 || i == 500000 || i == 750000)
				t += 2000
			else if (i)
				t += 1
			printf \"%d.%03d000000 w i=%d\n\", 1000 + int(t / 1000), t % 1000, i
		}
	}" >in &&
	test_line_count = 1000000 in
'

test_expect_success JQ 'p50 = 1 ms, max = 2 s, 3 stalls over 1 s, 6 s lost, exactly' '
	latency-output --format json --report rep.json <in >out &&
	test_line_count = 1000000 out &&
	test_json rep.json .lines 1000000 &&
	test_json rep.json .gaps 999999 &&
	test_json rep.json .p50_s 0.001 &&
	test_json rep.json .p90_s 0.001 &&
	test_json rep.json .p99_s 0.001 &&
	test_json rep.json .p999_s 0.001 &&
	test_json rep.json .max_s 2 &&
	test_json rep.json .stall_threshold_s 1 &&
	test_json rep.json .stall_count 3 &&
	test_json rep.json .stall_time_s 6 &&
	test_json rep.json .malformed_lines 0 &&
	test_json rep.json .mean_s 0.001005997006
'

test_expect_success JQ 'the histogram holds 999996 gaps of 1 ms and 3 of 2 s, by count and time' '
	json_get rep.json ".histogram[] | select(.count > 0) | tojson" >got &&
	cat >expect <<-\EOT &&
	{"le_s":0.001,"count":999996,"time_s":999.996}
	{"le_s":2,"count":3,"time_s":6}
	EOT
	test_cmp expect got
'

test_expect_success 'the text report says the same' '
	latency-output --report rep.txt <in >out &&
	grep "^gaps  *999999$" rep.txt &&
	grep "^p50  *0.001000 s$" rep.txt &&
	grep "^max  *2.000000 s$" rep.txt &&
	grep "^stalls over 1.000000 s 3$" rep.txt &&
	grep "^time lost in stalls  *6.000000 s$" rep.txt &&
	grep "^   <= 1ms     999996  " rep.txt &&
	grep "^    <= 2s          3  #   " rep.txt
'

test_done
