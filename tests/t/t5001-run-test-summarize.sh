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

test_expect_success 'JSON with the contract 4 names' '
	latency-summarize --format=json --label=L -o out.json 1.5 2.5 &&
	grep -x "  \"format_version\": 1," out.json &&
	grep -x "  \"program\": \"latency-summarize\"," out.json &&
	grep -x "  \"label\": \"L\"," out.json &&
	grep -x "  \"elapsed_mean_s\": 2," out.json &&
	grep -x "  \"elapsed_stddev_s\": 0.7071067812," out.json &&
	grep -x "      \"elapsed_s\": 1.5" out.json
'

test_expect_success 'bad input is a usage error' '
	test_expect_code 2 latency-summarize 2>err &&
	grep -x "latency-summarize: no elapsed times given" err &&
	test_expect_code 2 latency-summarize 1 abc 2>err &&
	grep -x "latency-summarize: invalid elapsed time '\''abc'\'' (expected seconds, e.g. 12.5 or 250ms)" err &&
	test_expect_code 2 latency-summarize --label="a b" 1 2>err &&
	test_expect_code 2 latency-summarize --format=xml 1 2>err
'

test_done
