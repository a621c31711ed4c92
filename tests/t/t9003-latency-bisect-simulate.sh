#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC2016,SC2154
test_description='latency-bisect --simulate and bench/bisect-accuracy.sh on the fixture-derived records'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-bisect.sh"

records=$abs_top_srcdir/bench/records/fixture-derived.txt

test_expect_success 'the bench on the shipped records: its lines, a 20% regression always found, never a wrong one validated' '
	BISECT_TRIALS=40 BISECT_SIZES="0 20" LATENCY_TESTS_BINDIR=$abs_top_builddir/bisect \
		"$abs_top_srcdir/bench/bisect-accuracy.sh" >out &&
	grep -x "# records: .*fixture-derived.txt (derived from a test fixture: NOT a measurement)" out &&
	grep -c "^latency-bisect regression" out >n && echo 2 >expect && test_cmp expect n &&
	grep -c "^plain-rule     regression" out >n && test_cmp expect n &&
	grep -x "bench: bisect_right_20pct=100.00 percent higher" out &&
	grep -x "bench: bisect_wrong_validated_20pct=0.00 percent lower" out &&
	grep "^bench: bisect_aa_not_reproduced=9[0-9]\.[0-9]* percent higher$" out &&
	grep "^bench: bisect_boots_20pct=[0-9.]* boots lower$" out
'

test_expect_success 'the same seed, the same figures; records from result directories' '
	"$bisect" --simulate="$records" --sim-trials=20 --sim-regression=10 >a &&
	"$bisect" --simulate="$records" --sim-trials=20 --sim-regression=10 >b &&
	test_cmp a b &&
	"$bisect" --simulate="$records" --sim-trials=20 --sim-regression=10 --seed=5 >c &&
	! cmp -s a c &&
	fake_boot fb &&
	i=0 &&
	for v in $(grep -v "^#" "$records"); do
		i=$((i + 1)) &&
		echo "k0 $v" >t &&
		LATENCY_BISECT_SERIES_BOOT=s,1,AB,1,1,a,k0,k1 LATENCY_BISECT_LABEL=k0 \
			FAKE_TABLE=$PWD/t ./fb k0 "" recs/b$i || return 1
	done &&
	"$bisect" --simulate=recs --sim-trials=5 >out &&
	grep "^# 5 trials, 8 kernels, 6 recorded boots (recs), metric elapsed_per_user," out
'

test_expect_success 'records that are not: one line, exit 2' '
	test_expect_code 2 "$bisect" --simulate=no-such 2>err &&
	echo "latency-bisect: cannot read the records '\''no-such'\'': No such file or directory" >expect &&
	test_cmp expect err &&
	printf "2.0\n# fine\nx\n" >bad &&
	test_expect_code 2 "$bisect" --simulate=bad 2>err &&
	echo "latency-bisect: bad:3: not a positive figure" >expect &&
	test_cmp expect err &&
	echo 2.0 >one &&
	test_expect_code 2 "$bisect" --simulate=one 2>err &&
	echo "latency-bisect: the records '\''one'\'' hold 1 boots: two at least" >expect &&
	test_cmp expect err
'
test_done
