#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-output: report fields in text, JSON and CSV; stalls'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# Gaps: 0.001, 0.499, 2.00005, 0.49995 s.
test_expect_success 'setup' '
	printf "%s\n" "100.0 w" "100.001 w" "100.5 w" "102.50005 w" \
		"103.0 w" >in
'

test_expect_success JQ 'JSON: every field of doc/design.md, contract 4, exact values' '
	latency-output --format json --report rep.json <in >out &&
	for f in format_version program version command_line gaps mean_s \
		stddev_s p50_s p90_s p99_s p999_s max_s stall_threshold_s \
		stall_count stall_time_s malformed_lines histogram; do
		test_json rep.json "has(\"$f\")" true || return 1
	done &&
	test_json rep.json .format_version 2 &&
	test_json rep.json .program latency-output &&
	test_json rep.json .gaps 4 &&
	test_json rep.json .mean_s 0.75 &&
	test_json rep.json .p50_s 0.499 &&
	test_json rep.json .p90_s 2.00005 &&
	test_json rep.json .p99_s 2.00005 &&
	test_json rep.json .p999_s 2.00005 &&
	test_json rep.json .max_s 2.00005 &&
	test_json rep.json .stall_count 1 &&
	test_json rep.json .stall_time_s 2.00005 &&
	test_json rep.json .interrupted false &&
	json_get rep.json ".histogram[] | select(.count > 0) | tojson" >got &&
	cat >expect <<-\EOT &&
	{"le_s":0.001,"count":1,"time_s":0.001}
	{"le_s":0.5,"count":2,"time_s":0.99895}
	{"le_s":2.5,"count":1,"time_s":2.00005}
	EOT
	test_cmp expect got &&
	test_json rep.json ".histogram | length" 102 &&
	test_json rep.json ".histogram[-1] | tojson" \
		"{\"le_s\":null,\"count\":0,\"time_s\":0}"
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

test_expect_success JQ '--stall moves the threshold; a gap equal to it is no stall' '
	latency-output --stall 499ms --format json --report rep.json <in >out &&
	test_json rep.json .stall_threshold_s 0.499 &&
	test_json rep.json .stall_count 2 &&
	test_json rep.json .stall_time_s 2.5
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

# The 1-2-5 buckets of format 1 put fake-music's 100 ms and 199 ms gaps
# in one bar.  Gaps: 3 x 100 ms, 2 x 199 ms, 125 ms, 125.001 ms.
test_expect_success JQ 'R10 buckets: 100 ms, 125 ms, 125.001 ms and 199 ms apart' '
	printf "%s w\n" 100.000000000 100.100000000 100.200000000 \
		100.300000000 100.499000000 100.698000000 100.823000000 \
		100.948001000 >r10 &&
	latency-output --format json --report r10.json <r10 >out &&
	json_get r10.json ".histogram[] | select(.count > 0) | tojson" >got &&
	cat >expect <<-\EOT &&
	{"le_s":0.1,"count":3,"time_s":0.3}
	{"le_s":0.125,"count":1,"time_s":0.125}
	{"le_s":0.16,"count":1,"time_s":0.125001}
	{"le_s":0.2,"count":2,"time_s":0.398}
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

test_expect_success JQ 'no input: an empty report, not a crash' '
	latency-output --format json --report rep.json </dev/null >out &&
	! test -s out &&
	test_json rep.json .gaps 0 &&
	test_json rep.json .max_s 0 &&
	latency-output </dev/null >out 2>err &&
	grep "^gaps  *0$" err
'

test_done
