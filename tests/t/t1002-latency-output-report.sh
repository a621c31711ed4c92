#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-output: report fields in text, JSON and CSV; stalls'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# Gaps: 0.001, 0.499, 2.00005, 0.49995 s.
test_expect_success 'setup' '
	printf "%s\n" "100.0 w" "100.001 w" "100.5 w" "102.50005 w" \
		"103.0 w" >in
'

test_expect_success 'JSON: every contract-4 field, exact values' '
	latency-output --format json --report rep.json <in >out &&
	for f in format_version program version command_line gaps mean_s \
		stddev_s p50_s p90_s p99_s p999_s max_s stall_threshold_s \
		stall_count stall_time_s malformed_lines histogram; do
		grep "^  \"$f\": " rep.json || return 1
	done &&
	grep "^  \"format_version\": 2,$" rep.json &&
	grep "^  \"program\": \"latency-output\",$" rep.json &&
	grep "^  \"gaps\": 4,$" rep.json &&
	grep "^  \"mean_s\": 0.75,$" rep.json &&
	grep "^  \"p50_s\": 0.499000000,$" rep.json &&
	grep "^  \"p90_s\": 2.000050000,$" rep.json &&
	grep "^  \"p99_s\": 2.000050000,$" rep.json &&
	grep "^  \"p999_s\": 2.000050000,$" rep.json &&
	grep "^  \"max_s\": 2.000050000,$" rep.json &&
	grep "^  \"stall_count\": 1,$" rep.json &&
	grep "^  \"stall_time_s\": 2.000050000,$" rep.json &&
	grep "^  \"interrupted\": false,$" rep.json &&
	tr -d " \n" <rep.json >flat &&
	grep -F "{\"le_s\":0.001000000,\"count\":1,\"time_s\":0.001000000}" flat &&
	grep -F "{\"le_s\":0.500000000,\"count\":2,\"time_s\":0.998950000}" flat &&
	grep -F "{\"le_s\":2.500000000,\"count\":1,\"time_s\":2.000050000}" flat &&
	grep -F "{\"le_s\":null,\"count\":0,\"time_s\":0.000000000}]" flat &&
	grep -o "{\"le_s\"" flat >buckets &&
	test_line_count = 102 buckets
'

test_expect_success JQ 'JSON is valid: one object and nothing else' '
	test_json_valid rep.json
'

# The check above must be able to fail: a cut report, a second object
# after the first, an array and text are all refused.
test_expect_success JQ 'the validity check refuses what is not one object' '
	head -c 200 rep.json >cut.json &&
	test_must_fail test_json_valid cut.json &&
	cat rep.json rep.json >two.json &&
	test_must_fail test_json_valid two.json &&
	echo "[1, 2]" >array.json &&
	test_must_fail test_json_valid array.json &&
	echo "gaps 4" >text.json &&
	test_must_fail test_json_valid text.json
'

test_expect_success '--stall moves the threshold; a gap equal to it is no stall' '
	latency-output --stall 499ms --format json --report rep.json <in >out &&
	grep "^  \"stall_threshold_s\": 0.499000000,$" rep.json &&
	grep "^  \"stall_count\": 2,$" rep.json &&
	grep "^  \"stall_time_s\": 2.500000000,$" rep.json
'

test_expect_success 'CSV: a summary table and a histogram table' '
	latency-output --format csv --report rep.csv <in >out &&
	cat >expect <<-\EOT &&
	group,lines,gaps,mean_s,stddev_s,p50_s,p90_s,p99_s,p999_s,max_s,stall_threshold_s,stall_count,stall_time_s,malformed_lines,interrupted
	all,5,4,0.750000000,0.865862192,0.499000000,2.000050000,2.000050000,2.000050000,2.000050000,1.000000000,1,2.000050000,0,0

	group,le_s,count,time_s
	EOT
	head -n 4 rep.csv >head &&
	test_cmp expect head &&
	grep -x "all,0.001000000,1,0.001000000" rep.csv &&
	grep -x "all,0.500000000,2,0.998950000" rep.csv &&
	grep -x "all,,0,0.000000000" rep.csv &&
	test_line_count = 106 rep.csv
'

test_expect_success 'text: summary and histogram table with bars by count and by time' '
	latency-output --report rep.txt <in >out &&
	cat >expect <<-\EOT &&
	latency-output report (stdin)
	lines                  5
	malformed lines        0
	gaps                   4
	mean                   0.750000000 s
	stddev                 0.865862192 s
	p50                    0.499000 s
	p90                    2.000050 s
	p99                    2.000050 s
	p99.9                  2.000050 s
	max                    2.000050 s
	stalls over 1.000000 s 1
	time lost in stalls    2.000050 s
	EOT
	head -n 13 rep.txt >head &&
	test_cmp expect head &&
	grep "^   <= 1ms          1  ##########            25.0%       0.001000  #                      0.0%$" rep.txt &&
	grep "^ <= 500ms          2  ####################  50.0%       0.998950  ##########            33.3%$" rep.txt &&
	grep "^  <= 2.5s          1  ##########            25.0%       2.000050  ####################  66.7%$" rep.txt
'

# Issue 12: the 1-2-5 buckets put fake-music's 100 ms and 199 ms gaps in
# one bar.  Gaps: 3 x 100 ms, 2 x 199 ms, 125 ms, 125.001 ms.
test_expect_success 'R10 buckets: 100 ms, 125 ms, 125.001 ms and 199 ms apart' '
	printf "%s w\n" 100.000000000 100.100000000 100.200000000 \
		100.300000000 100.499000000 100.698000000 100.823000000 \
		100.948001000 >r10 &&
	latency-output --format json --report r10.json <r10 >out &&
	tr -d " \n" <r10.json >flat &&
	sed "s/},{/}\n{/g" flat >rows &&
	grep -v "\"count\":0," rows >nonzero &&
	sed -n "s/.*\({\"le_s\".*}\).*/\1/p" nonzero >got &&
	cat >expect <<-\EOT &&
	{"le_s":0.100000000,"count":3,"time_s":0.300000000}
	{"le_s":0.125000000,"count":1,"time_s":0.125000000}
	{"le_s":0.160000000,"count":1,"time_s":0.125001000}
	{"le_s":0.200000000,"count":2,"time_s":0.398000000}
	EOT
	test_cmp expect got &&
	latency-output --report r10.txt <r10 >out &&
	sed -n "/^ *gap  *count/,\$p" r10.txt >table &&
	cut -c1-20 table >got &&
	cat >expect <<-\EOT &&
	      gap      count
	 <= 100ms          3
	 <= 125ms          1
	 <= 160ms          1
	 <= 200ms          2
	EOT
	test_cmp expect got
'

test_expect_success 'no input: an empty report, not a crash' '
	latency-output --format json --report rep.json </dev/null >out &&
	! test -s out &&
	grep "^  \"gaps\": 0,$" rep.json &&
	grep "^  \"max_s\": 0.000000000,$" rep.json &&
	latency-output </dev/null >out 2>err &&
	grep "^gaps  *0$" err
'

test_done
