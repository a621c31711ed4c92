#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-summarize: the arithmetic of the headline'
. "$abs_top_srcdir/tests/t/test-lib.sh"

test_expect_success 'the 2009 headline: mean and sample stddev' '
	latency-summarize --label=6.1.0 --failures=2 690.1 700.3 686.375 >out &&
	echo "6.1.0 Elapsed:11:32.258(stddev:7.209) Failures:2" >expect &&
	test_cmp expect out
'

test_expect_success 'one run: stddev 0; rounding carries into the minutes' '
	latency-summarize 59.9996 >out &&
	echo "run Elapsed:01:00.000(stddev:0.000) Failures:0" >expect &&
	test_cmp expect out
'

test_expect_success 'durations with units; more than 99 minutes' '
	latency-summarize --label=x 250ms 750ms >out &&
	echo "x Elapsed:00:00.500(stddev:0.354) Failures:0" >expect &&
	test_cmp expect out &&
	latency-summarize --label=x 2h 100m >out &&
	echo "x Elapsed:110:00.000(stddev:848.528) Failures:0" >expect &&
	test_cmp expect out
'

test_expect_success 'CSV for the driver' '
	latency-summarize --format=csv 1 2 3 4 >out &&
	printf "runs,mean_s,stddev_s\n4,2.500000000,1.290994449\n" >expect &&
	test_cmp expect out
'

test_expect_success JQ 'JSON with the names of doc/design.md, contract 4' '
	latency-summarize --format=json --label=L -o out.json 1.5 2.5 &&
	test_json out.json .format_version 1 &&
	test_json out.json .program latency-summarize &&
	test_json out.json .label L &&
	test_json out.json .elapsed_mean_s 2 &&
	test_json out.json .elapsed_stddev_s 0.7071067812 &&
	test_json out.json "[.gitk_runs[].elapsed_s] | tojson" "[1.5,2.5]"
'

test_expect_success 'bad input is a usage error' '
	test_expect_code 2 latency-summarize 2>err &&
	grep -x "latency-summarize: no elapsed times given" err &&
	test_expect_code 2 latency-summarize 1 abc 2>err &&
	grep -x "latency-summarize: invalid elapsed time '\''abc'\'' (expected seconds, e.g. 12.5 or 250ms)" err &&
	test_expect_code 2 latency-summarize --label="a b" 1 2>err &&
	test_expect_code 2 latency-summarize --format=xml 1 2>err
'

test_expect_success 'the driver'\''s decisions are latency-plan'\''s: one line, exit 2' '
	for o in --run-config --shell --pressure-plan --stop-rule \
		--footprint=1G --calibration=c.json --ratio=4 --paired-dir=d \
		--interleave-order=3 --seed=1 --precision=2; do
		n=${o%%=*} &&
		test_expect_code 2 latency-summarize "$o" 1 >out 2>err &&
		echo "latency-summarize: $n is latency-plan'"'"'s now (latency-plan $n)" >expect &&
		test_cmp expect err && test_cmp /dev/null out || return 1
	done
'

test_done
