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

test_expect_success '--precision: the 95% CI of the mean against PCT, as CSV' '
	latency-summarize --precision=5 --format=csv 10 10.2 9.8 >out &&
	printf "runs,mean_s,ci95_pct,reached\n3,10.000000000,4.968275424,yes\n" >expect &&
	test_cmp expect out &&
	latency-summarize --precision=4.9 --format=csv 10 10.2 9.8 >out &&
	printf "runs,mean_s,ci95_pct,reached\n3,10.000000000,4.968275424,no\n" >expect &&
	test_cmp expect out &&
	latency-summarize --precision=2 --format=csv 12.5 >out &&
	printf "runs,mean_s,ci95_pct,reached\n1,12.500000000,,no\n" >expect &&
	test_cmp expect out &&
	latency-summarize --precision=2 --format=csv 0 0 >out &&
	printf "runs,mean_s,ci95_pct,reached\n2,0.000000000,,no\n" >expect &&
	test_cmp expect out
'

test_expect_success '--precision as text' '
	latency-summarize --precision=2 10 10.2 9.8 >out &&
	echo "3 runs, mean 10.000 s: 95% confidence interval +/-4.968% of the mean, not reached: above 2%" >expect &&
	test_cmp expect out &&
	latency-summarize --precision=0.5 100 100.1 99.9 100 >out &&
	echo "4 runs, mean 100.000 s: 95% confidence interval +/-0.130% of the mean, reached: within 0.5%" >expect &&
	test_cmp expect out &&
	latency-summarize --precision=2 7 >out &&
	echo "1 run, mean 7.000 s: not reached (a confidence interval needs 2 runs and a mean above 0)" >expect &&
	test_cmp expect out
'

test_expect_success '--precision: bad values' '
	for v in 0 -1 abc 2% 1e2 ""; do
		test_expect_code 2 latency-summarize --precision="$v" 1 2 2>err &&
		echo "latency-summarize: invalid value '"'"'$v'"'"' for --precision (expected a positive decimal number of percent, e.g. 2 or 0.5)" >expect &&
		sed -n 1p err >got &&
		test_cmp expect got || return 1
	done &&
	test_expect_code 2 latency-summarize --precision=2 --format=json 1 2 2>err &&
	grep -x "latency-summarize: --precision prints text or csv, not json" err &&
	test_expect_code 2 latency-summarize --precision=2 2>err &&
	grep -x "latency-summarize: no elapsed times given" err
'

test_expect_success '--pressure-plan: footprint / ratio, down to 4096 bytes' '
	latency-summarize --pressure-plan --footprint=314572800 --ratio=4 >out &&
	echo memory_bytes=78643200 >expect &&
	test_cmp expect out &&
	latency-summarize --pressure-plan --footprint=300M --ratio=2.5 >out &&
	echo memory_bytes=125829120 >expect &&
	test_cmp expect out &&
	latency-summarize --pressure-plan --footprint=1000000 --ratio=3 >out &&
	echo memory_bytes=331776 >expect &&
	test_cmp expect out &&
	latency-summarize --pressure-plan --footprint=1G --ratio=0.5 -o plan &&
	echo memory_bytes=2147483648 >expect &&
	test_cmp expect plan &&
	latency-summarize --pressure-plan --footprint=18446744073709551615 --ratio=1.0000000000000000001 >out &&
	echo memory_bytes=18446744073709547520 >expect &&
	test_cmp expect out
'

test_expect_success '--pressure-plan --calibration: the footprint from fake-gitk JSON' '
	echo "{\"peak_rss_bytes\": 314572800, \"commits\": 3}" >cal.json &&
	latency-summarize --pressure-plan --calibration=cal.json --ratio=3 >out &&
	printf "footprint_bytes=314572800\nmemory_bytes=104857600\nswap_bytes=629145600\n" >expect &&
	test_cmp expect out &&
	echo "{\"peak_rss_bytes\": -1}" >bad.json &&
	test_expect_code 1 latency-summarize --pressure-plan --calibration=bad.json \
		--ratio=3 2>err &&
	grep -x "latency-summarize: '"'"'bad.json'"'"' has no peak_rss_bytes above 0 (expected fake-gitk'"'"'s JSON result)" err &&
	test_expect_code 2 latency-summarize --pressure-plan --calibration=cal.json \
		--footprint=1G --ratio=3 2>err &&
	grep -x "latency-summarize: --pressure-plan needs --ratio and one of --footprint and --calibration" err
'

test_expect_success '--precision --result-dir: the runs done so far' '
	latency-summarize --precision=5 --format=csv \
		--result-dir="$abs_top_srcdir/tests/t/fixtures/summarize/full" >out &&
	printf "runs,mean_s,ci95_pct,reached\n3,10.000000000,4.968275424,yes\n" >expect &&
	test_cmp expect out &&
	latency-summarize --precision=2 --format=csv \
		--result-dir="$abs_top_srcdir/tests/t/fixtures/summarize/full" >out &&
	printf "runs,mean_s,ci95_pct,reached\n3,10.000000000,4.968275424,no\n" >expect &&
	test_cmp expect out
'

test_expect_success '--pressure-plan: bad ratios and footprints' '
	for r in 0 0.0 -4 abc 4. .5 1e3 4x ""; do
		test_expect_code 2 latency-summarize --pressure-plan \
			--footprint=1G --ratio="$r" 2>err &&
		echo "latency-summarize: invalid value '"'"'$r'"'"' for --ratio (expected a positive decimal number, e.g. 4 or 2.5)" >expect &&
		sed -n 1p err >got &&
		test_cmp expect got || return 1
	done &&
	test_expect_code 2 latency-summarize --pressure-plan --footprint=1G \
		--ratio=99999999999999999999 2>err &&
	grep -x "latency-summarize: invalid value '"'"'99999999999999999999'"'"' for --ratio (out of range)" err &&
	test_expect_code 2 latency-summarize --pressure-plan --footprint=15E \
		--ratio=0.5 2>err &&
	grep -x "latency-summarize: a footprint of 17293822569102704640 bytes at --ratio=0.5 is more than 2^64 bytes" err &&
	test_expect_code 2 latency-summarize --pressure-plan --footprint=4095 \
		--ratio=1 2>err &&
	grep -x "latency-summarize: a footprint of 4095 bytes at --ratio=1 leaves less than 4096 bytes" err &&
	test_expect_code 2 latency-summarize --pressure-plan --footprint=lots \
		--ratio=1 2>err &&
	test_expect_code 2 latency-summarize --pressure-plan --ratio=4 2>err &&
	grep -x "latency-summarize: --pressure-plan needs --ratio and one of --footprint and --calibration" err &&
	test_expect_code 2 latency-summarize --footprint=1G --ratio=4 1 2>err &&
	grep -x "latency-summarize: --footprint, --calibration and --ratio go with --pressure-plan" err &&
	test_expect_code 2 latency-summarize --pressure-plan --footprint=1G \
		--ratio=4 12.5 2>err &&
	grep -x "latency-summarize: --pressure-plan takes only --footprint, --ratio and --output" err &&
	! test -e plan.tmp*
'

test_done
