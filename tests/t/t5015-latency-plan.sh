#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-plan: the pressure plan, --precision and its usage errors'
. "$abs_top_srcdir/tests/t/test-lib.sh"

test_expect_success '--precision: the 95% CI of the mean against PCT, as CSV' '
	latency-plan --precision=5 --format=csv 10 10.2 9.8 >out &&
	printf "runs,mean_s,ci95_pct,reached\n3,10.000000000,4.968275424,yes\n" >expect &&
	test_cmp expect out &&
	latency-plan --precision=4.9 --format=csv 10 10.2 9.8 >out &&
	printf "runs,mean_s,ci95_pct,reached\n3,10.000000000,4.968275424,no\n" >expect &&
	test_cmp expect out &&
	latency-plan --precision=2 --format=csv 12.5 >out &&
	printf "runs,mean_s,ci95_pct,reached\n1,12.500000000,,no\n" >expect &&
	test_cmp expect out &&
	latency-plan --precision=2 --format=csv 0 0 >out &&
	printf "runs,mean_s,ci95_pct,reached\n2,0.000000000,,no\n" >expect &&
	test_cmp expect out
'

test_expect_success '--precision as text' '
	latency-plan --precision=2 10 10.2 9.8 >out &&
	echo "3 runs, mean 10.000 s: 95% confidence interval +/-4.968% of the mean, not reached: above 2%" >expect &&
	test_cmp expect out &&
	latency-plan --precision=0.5 100 100.1 99.9 100 >out &&
	echo "4 runs, mean 100.000 s: 95% confidence interval +/-0.130% of the mean, reached: within 0.5%" >expect &&
	test_cmp expect out &&
	latency-plan --precision=2 7 >out &&
	echo "1 run, mean 7.000 s: not reached (a confidence interval needs 2 runs and a mean above 0)" >expect &&
	test_cmp expect out
'

test_expect_success '--precision: bad values' '
	for v in 0 -1 abc 2% 1e2 ""; do
		test_expect_code 2 latency-plan --precision="$v" 1 2 2>err &&
		echo "latency-plan: invalid value '"'"'$v'"'"' for --precision (expected a positive decimal number of percent, e.g. 2 or 0.5)" >expect &&
		sed -n 1p err >got &&
		test_cmp expect got || return 1
	done &&
	test_expect_code 2 latency-plan --precision=2 --format=json 1 2 2>err &&
	grep -x "latency-plan: --precision prints text or csv, not json" err &&
	test_expect_code 2 latency-plan --precision=2 2>err &&
	grep -x "latency-plan: no elapsed times given" err
'

test_expect_success '--pressure-plan: footprint / ratio, down to 4096 bytes' '
	latency-plan --pressure-plan --footprint=314572800 --ratio=4 >out &&
	echo memory_bytes=78643200 >expect &&
	test_cmp expect out &&
	latency-plan --pressure-plan --footprint=300M --ratio=2.5 >out &&
	echo memory_bytes=125829120 >expect &&
	test_cmp expect out &&
	latency-plan --pressure-plan --footprint=1000000 --ratio=3 >out &&
	echo memory_bytes=331776 >expect &&
	test_cmp expect out &&
	latency-plan --pressure-plan --footprint=1G --ratio=0.5 -o plan &&
	echo memory_bytes=2147483648 >expect &&
	test_cmp expect plan &&
	latency-plan --pressure-plan --footprint=18446744073709551615 --ratio=1.0000000000000000001 >out &&
	echo memory_bytes=18446744073709547520 >expect &&
	test_cmp expect out
'

test_expect_success '--pressure-plan --calibration: the footprint from fake-gitk JSON' '
	echo "{\"peak_rss_bytes\": 314572800, \"commits\": 3}" >cal.json &&
	latency-plan --pressure-plan --calibration=cal.json --ratio=3 >out &&
	printf "footprint_bytes=314572800\nmemory_bytes=104857600\nswap_bytes=629145600\n" >expect &&
	test_cmp expect out &&
	echo "{\"peak_rss_bytes\": -1}" >bad.json &&
	test_expect_code 1 latency-plan --pressure-plan --calibration=bad.json \
		--ratio=3 2>err &&
	grep -x "latency-plan: '"'"'bad.json'"'"' has no peak_rss_bytes above 0 (expected fake-gitk'"'"'s JSON result)" err &&
	test_expect_code 2 latency-plan --pressure-plan --calibration=cal.json \
		--footprint=1G --ratio=3 2>err &&
	grep -x "latency-plan: --pressure-plan needs --ratio and one of --footprint and --calibration" err
'

test_expect_success '--precision --result-dir: the runs done so far' '
	latency-plan --precision=5 --format=csv \
		--result-dir="$abs_top_srcdir/tests/t/fixtures/summarize/full" >out &&
	printf "runs,mean_s,ci95_pct,reached\n3,10.000000000,4.968275424,yes\n" >expect &&
	test_cmp expect out &&
	latency-plan --precision=2 --format=csv \
		--result-dir="$abs_top_srcdir/tests/t/fixtures/summarize/full" >out &&
	printf "runs,mean_s,ci95_pct,reached\n3,10.000000000,4.968275424,no\n" >expect &&
	test_cmp expect out
'

test_expect_success '--pressure-plan: bad ratios and footprints' '
	for r in 0 0.0 -4 abc 4. .5 1e3 4x ""; do
		test_expect_code 2 latency-plan --pressure-plan \
			--footprint=1G --ratio="$r" 2>err &&
		echo "latency-plan: invalid value '"'"'$r'"'"' for --ratio (expected a positive decimal number, e.g. 4 or 2.5)" >expect &&
		sed -n 1p err >got &&
		test_cmp expect got || return 1
	done &&
	test_expect_code 2 latency-plan --pressure-plan --footprint=1G \
		--ratio=99999999999999999999 2>err &&
	grep -x "latency-plan: invalid value '"'"'99999999999999999999'"'"' for --ratio (out of range)" err &&
	test_expect_code 2 latency-plan --pressure-plan --footprint=15E \
		--ratio=0.5 2>err &&
	grep -x "latency-plan: a footprint of 17293822569102704640 bytes at --ratio=0.5 is more than 2^64 bytes" err &&
	test_expect_code 2 latency-plan --pressure-plan --footprint=4095 \
		--ratio=1 2>err &&
	grep -x "latency-plan: a footprint of 4095 bytes at --ratio=1 leaves less than 4096 bytes" err &&
	test_expect_code 2 latency-plan --pressure-plan --footprint=lots \
		--ratio=1 2>err &&
	test_expect_code 2 latency-plan --pressure-plan --ratio=4 2>err &&
	grep -x "latency-plan: --pressure-plan needs --ratio and one of --footprint and --calibration" err &&
	test_expect_code 2 latency-plan --footprint=1G --ratio=4 1 2>err &&
	grep -x "latency-plan: --footprint, --calibration and --ratio go with --pressure-plan" err &&
	test_expect_code 2 latency-plan --pressure-plan --footprint=1G \
		--ratio=4 12.5 2>err &&
	grep -x "latency-plan: --pressure-plan takes only --footprint, --ratio and --output" err &&
	! test -e plan.tmp*
'

# usage_is WANT ARG...: latency-plan ARG... exits 2, prints nothing on
# stdout and on stderr "latency-plan: WANT" and the Try line.
usage_is() {
	usage_want=$1
	shift
	test_expect_code 2 latency-plan "$@" >out 2>err &&
	printf "latency-plan: %s\nTry 'latency-plan --help' for more information.\n" \
		"$usage_want" >expect &&
	test_cmp expect err && test_cmp /dev/null out
}

test_expect_success 'usage errors: one line naming the program and the cause, exit 2' '
	usage_is "no mode given (--run-config, --pressure-plan, --interleave-order, --stop-rule or --precision)" &&
	usage_is "no mode given (--run-config, --pressure-plan, --interleave-order, --stop-rule or --precision)" 1 2 &&
	usage_is "one mode at a time (--run-config, --pressure-plan, --interleave-order, --stop-rule or --precision)" \
		--stop-rule --result-dir=. --interleave-order=2 &&
	usage_is "one mode at a time (--run-config, --pressure-plan, --interleave-order, --stop-rule or --precision)" \
		--run-config --precision=2 &&
	usage_is "--shell goes with --run-config" --shell &&
	usage_is "--seed goes with --interleave-order" --seed=3 --stop-rule --result-dir=. &&
	usage_is "--paired-dir goes with --stop-rule" --paired-dir=b --precision=2 1 &&
	usage_is "--format goes with --precision" --interleave-order=2 --format=csv &&
	usage_is "--run-config takes only --shell and, after --, run-test.sh'"'"'s options" \
		--run-config -o x &&
	usage_is "--interleave-order takes only --seed" --interleave-order=2 1 &&
	usage_is "--stop-rule takes only --result-dir (and --paired-dir)" --stop-rule &&
	usage_is "--stop-rule takes only --result-dir (and --paired-dir)" \
		--stop-rule --result-dir=. -o x &&
	usage_is "--precision with --result-dir takes no elapsed times" \
		--precision=2 --result-dir=. 1 &&
	usage_is "--result-dir needs a directory" --stop-rule --result-dir= &&
	usage_is "--calibration needs a file" --pressure-plan --calibration= &&
	usage_is "invalid value '"'"'0'"'"' for --interleave-order: out of range (expected a whole number from 1 to 1000000)" \
		--interleave-order=0 &&
	! test -e x
'

test_done
