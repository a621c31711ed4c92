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

test_expect_success 'p50 = 1 ms, max = 2 s, 3 stalls over 1 s, 6 s lost, exactly' '
	latency-output --format json --report rep.json <in >out &&
	test_line_count = 1000000 out &&
	grep "\"lines\": 1000000," rep.json &&
	grep "\"gaps\": 999999," rep.json &&
	grep "\"p50_s\": 0.001000000," rep.json &&
	grep "\"p90_s\": 0.001000000," rep.json &&
	grep "\"p99_s\": 0.001000000," rep.json &&
	grep "\"p999_s\": 0.001000000," rep.json &&
	grep "\"max_s\": 2.000000000," rep.json &&
	grep "\"stall_threshold_s\": 1.000000000," rep.json &&
	grep "\"stall_count\": 3," rep.json &&
	grep "\"stall_time_s\": 6.000000000," rep.json &&
	grep "\"malformed_lines\": 0," rep.json &&
	grep "\"mean_s\": 0.001005997006," rep.json
'

test_expect_success 'the histogram holds 999996 gaps of 1 ms and 3 of 2 s, by count and time' '
	tr -d " \n" <rep.json >flat &&
	grep -F "{\"le_s\":0.001000000,\"count\":999996,\"time_s\":999.996000000}" flat &&
	grep -F "{\"le_s\":2.000000000,\"count\":3,\"time_s\":6.000000000}" flat &&
	grep -o "\"count\":[1-9][0-9]*" flat >nonzero &&
	test_line_count = 2 nonzero
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
