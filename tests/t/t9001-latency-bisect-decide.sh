#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC2016,SC2154
test_description='latency-bisect: exact decisions on known boots (found, unknown, the cap, not reproduced, not validated, skipped)'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-bisect.sh"

fake_boot fb
FAKE_TABLE=$PWD/table
export FAKE_TABLE

standard_table table
series_file s6 k0 k1 k2 k3 k4 k5

# boots_counted DIR: boots_total is the number of boot directories and
# of result.json files under DIR.
boots_counted() {
	_n=$(json_get "$1/bisect.json" .boots_total) &&
	test "$(find "$1/boots" -mindepth 1 -maxdepth 1 -type d | wc -l)" = "$_n" &&
	test "$(find "$1" -name result.json | wc -l)" = "$_n"
}

# k3's pairs against k0: ratios 2.20/2.00, 2.22/2.02, 2.18/1.98, logs
# 0.0953102, 0.0944097, 0.0962280: mean 0.0953160 (exp - 1 = +10.0006%),
# sd 0.00090919, se 0.00052492, t 181.58 on 2 df, p = 1 - t/sqrt(t^2 + 2)
# = 3.0327e-05.  Each of the L = 2 looks (pairs 3 and 4) is made at
# 0.025: t(0.9875, 2) = 6.20535, CI exp(m -+ t se) - 1 = +9.643..+10.360%.
test_expect_success JQ 'a culprit found and validated: exit 0, each decision logged' '
	test_expect_code 0 "$bisect" --series=s6 --results=r --boot-command="$PWD/fb" \
		--max-pairs=4 --alpha=0.05 --probe-alpha=0.05 2>err &&
	cat >expect <<-\EOF &&
	ends: k5 against k0, 3 pairs: +10% (CI +7.87..+12.2%, p 0.0011) [97.5% interval]: reproduced; threshold +5%
	k2: 3 pairs against k0: +0.0025% (CI -4.62..+4.85%, p 1) [97.5% interval]: good (the interval is below the threshold +5%)
	k3: 3 pairs against k0: +10% (CI +9.64..+10.4%, p 3e-05) [97.5% interval]: bad (the interval is above the threshold +5%)
	validation: k3 against k2, 3 fresh pairs: +10% (CI +5.23..+15%, p 0.0056) [97.5% interval]: validated
	EOF
	test_cmp expect r/bisect.log &&
	test_json r/bisect.json .outcome found &&
	test_json r/bisect.json .culprit k3 &&
	test_json r/bisect.json "[.series[].state] | join(\",\")" \
		good,untested,good,bad,untested,bad &&
	test_json r/bisect.json "[.series[].pairs] | join(\",\")" 0,0,3,3,0,3 &&
	test_json r/bisect.json ".validation | [.state, .against, .pairs] | tojson" \
		"[\"validated\",\"k2\",3]" &&
	test_json r/bisect.json ".series[3].p | . * 1e9 | round" 30327 &&
	test_json r/bisect.json ".series[3] | [.change_pct, .ci_low_pct, .ci_high_pct] | map(. * 1e3 | round) | tojson" "[10001,9643,10360]" &&
	test_json r/bisect.json .boots_total 24 &&
	test_json r/bisect.json .boots_used 24 &&
	test_json r/bisect.json .format_version 1 &&
	boots_counted r &&
	! test -e r/tmp &&
	head -n 1 r/summary.txt >line &&
	echo "latency-bisect: k3 is the culprit (validated)" >expect &&
	test_cmp expect line &&
	grep -x "change against its predecessor k2: +10% (CI +4.95..+15.3%, p 0.0062)" r/summary.txt &&
	grep -x "validation: +10% (CI +5.23..+15%, p 0.0056) in 3 fresh pairs: validated" r/summary.txt &&
	grep -x "reproduce: latency-compare r/boots/0019-k2 r/boots/0021-k2 r/boots/0023-k2 r/boots/0020-k3 r/boots/0022-k3 r/boots/0024-k3" r/summary.txt &&
	grep -c "^latency-bisect: boot [0-9]*: " err >n &&
	echo 24 >expect && test_cmp expect n &&
	# The page: made by latency-compare, the good end first, then each kernel
	# booted, in the series order.
	grep -o "<tr id=\"row-[0-9]*-elapsed_mean_s\"" r/bisect.html >rows &&
	test_line_count = 3 rows &&
	grep -o "<title>latency-compare[^<]*</title>" r/bisect.html >title &&
	echo "<title>latency-compare: k0 vs k2 vs k3 vs k5</title>" >expect &&
	test_cmp expect title &&
	! grep "bisect.html" err
'

test_expect_success 'the plot: a point a complete boot, the kernels in order, good and bad apart' '
	grep -c "^[0-9]" r/series.dat >n && echo 24 >expect && test_cmp expect n &&
	awk "/^# /{ g = \$2 } /^[0-9]/{ print g, \$1 }" r/series.dat | sort -u >groups &&
	printf "bad: 3\nbad: 5\ngood: 0\ngood: 2\n" >expect &&
	test_cmp expect groups &&
	grep -x "set xtics rotate by -45 noenhanced ('\''k0'\'' 0, '\''k1'\'' 1, '\''k2'\'' 2, '\''k3'\'' 3, '\''k4'\'' 4, '\''k5'\'' 5)" r/series.gp &&
	if test_have_prereq GNUPLOT; then test -s r/series.png && test -s r/series.svg; fi
'

test_expect_success JQ 'the pairs of a series are one latency-vm series, in the seeded order' '
	FAKE_LOG=$PWD/log "$bisect" --series=s6 --results=r2 --boot-command="$PWD/fb" \
		--max-pairs=4 --alpha=0.05 --probe-alpha=0.05 -q &&
	order=$(json_get r2/bisect.json ".pair_series[0].order") &&
	test ${#order} = 8 &&
	test_json r2/bisect.json "[.pair_series[] | .kernel + \"/\" + .reference + \"/\" + .purpose] | join(\",\")" \
		k5/k0/search,k2/k0/search,k3/k0/search,k3/k2/validate &&
	first=$(printf %s "$order" | cut -c1) &&
	if [ "$first" = A ]; then want=k0; else want=k5; fi &&
	test "$(head -n 1 log | cut -d" " -f1)" = $want &&
	test_cmp r/bisect.log r2/bisect.log
'

test_expect_success JQ 'a kernel that stays unknown at the cap: a range, which kernels and why' '
	sed "s/^k2 .*/k2 2.06 2.16 2.04 2.14/" table >t3 &&
	series_file s5 k0 k1 k2 k3 k4 &&
	test_expect_code 1 env FAKE_TABLE=$PWD/t3 "$bisect" --series=s5 --results=r3 \
		--boot-command="$PWD/fb" --max-pairs=4 --alpha=0.05 --probe-alpha=0.05 -q &&
	grep -x "k2: 4 pairs against k0: +4.84% (CI +0.476..+9.4%, p 0.019) \[97.5% interval\]: unknown (the interval holds the threshold at --max-pairs +5.17%)" r3/bisect.log &&
	tail -n 1 r3/bisect.log >line &&
	echo "range: the culprit is one of k2 .. k3 (k2 unknown)" >expect &&
	test_cmp expect line &&
	test_json r3/bisect.json ".outcome, .culprit, (.range | join(\",\"))" "range
null
k2,k3" &&
	test_json r3/bisect.json "[.series[].state] | join(\",\")" good,good,unknown,bad,bad &&
	test_json r3/bisect.json ".validation.state" null &&
	boots_counted r3
'

test_expect_success JQ 'the culprit not validated in fresh pairs: exit 1, the figures said' '
	{ cat table && echo "k3/k2 2.00 2.03 1.99 2.00"; } >t4 &&
	test_expect_code 1 env FAKE_TABLE=$PWD/t4 "$bisect" --series=s6 --results=r4 \
		--boot-command="$PWD/fb" --max-pairs=4 --alpha=0.05 --probe-alpha=0.05 -q &&
	tail -n 1 r4/bisect.log >line &&
	echo "validation: k3 against k2, 4 fresh pairs: -0.00123% (CI -2.78..+2.85%, p 1) [97.5% interval]: not validated" >expect &&
	test_cmp expect line &&
	test_json r4/bisect.json ".outcome, .culprit, .validation.state, .validation.pairs" "found
k3
not validated
4" &&
	head -n 1 r4/summary.txt >line &&
	echo "latency-bisect: k3 is the culprit (not validated)" >expect &&
	test_cmp expect line
'

test_expect_success JQ 'the same kernel at both ends (A/A): not reproduced at the cap, exit 4, what it could have seen' '
	{ cat table && echo "k0/b 2.00 2.02 1.98 2.01" && echo "k0/a 2.01 2.00 2.00 1.99"; } >t5 &&
	printf "a k0\nb k0\n" >aa &&
	test_expect_code 4 env FAKE_TABLE=$PWD/t5 "$bisect" --series=aa --results=r5 \
		--boot-command="$PWD/fb" --max-pairs=4 --alpha=0.05 --probe-alpha=0.05 -q &&
	echo "ends: b against a, 4 pairs: -0.123% (CI -2.25..+2.05%, p 0.83) [97.5% interval]: not reproduced (not different; the smallest change these boots could have seen: 2.69%)" >expect &&
	test_cmp expect r5/bisect.log &&
	test_json r5/bisect.json ".outcome, .culprit, .boots_total, .ends.pairs" "not reproduced
null
8
4" &&
	test_json r5/bisect.json ".ends.mde_pct * 100 | round" 269
'

test_expect_success JQ 'a kernel that does not boot: skipped with its reason, the search goes on, a range' '
	sed "s/^k2 .*/k2 fail/" table >t6 &&
	test_expect_code 1 env FAKE_TABLE=$PWD/t6 "$bisect" --series=s6 --results=r6 \
		--boot-command="$PWD/fb" --max-pairs=4 --alpha=0.05 --probe-alpha=0.05 -q &&
	grep -x "k2: skipped (boot boots/0007-k2: exit 1: the guest did not reach the suite)" r6/bisect.log &&
	tail -n 1 r6/bisect.log >line &&
	echo "range: the culprit is one of k2 .. k3 (k2 skipped)" >expect &&
	test_cmp expect line &&
	test_json r6/bisect.json ".series[2] | [.state, .reason, .boots] | tojson" \
		"[\"skipped\",\"boot boots/0007-k2: exit 1: the guest did not reach the suite\",1]" &&
	boots_counted r6
'

test_expect_success JQ 'an end that does not boot: no bisection, exit 1' '
	sed "s/^k0 .*/k0 fail/" table >t7 &&
	test_expect_code 1 env FAKE_TABLE=$PWD/t7 "$bisect" --series=s6 --results=r7 \
		--boot-command="$PWD/fb" -q &&
	test_json r7/bisect.json ".outcome, .boots_total" "range
1" &&
	grep "^ends: k[05] did not boot" r7/bisect.log
'

test_expect_success JQ '--threshold instead of half the ends, and --good/--bad inside the series' '
	test_expect_code 0 "$bisect" --series=s6 --results=r8 --boot-command="$PWD/fb" \
		--max-pairs=4 --alpha=0.05 --probe-alpha=0.05 --threshold=8 --good=k1 --bad=k4 -q &&
	test_json r8/bisect.json ".threshold_pct, .threshold_from, .culprit" "8
option
k3" &&
	test_json r8/bisect.json "[.series[].state] | join(\",\")" \
		untested,good,good,bad,bad,untested
'
# Catch mode: five steps, each at 0.05 / 2 looks / 5 steps = 0.005.  The
# step k2 -> k3: ratios 2.20/2.01, 2.22/1.99, 2.18/2.00 (t 13.3 on 2 df,
# below t(0.9975, 2) = 14.09: not yet), then 2.21/2.02: +9.85%, t 18.2
# on 3 df, p 0.00038: worse; every other step not different at the cap.
test_expect_success JQ '--all: every step between neighbours tested, corrected for the steps' '
	"$bisect" --series=s6 --results=ra --boot-command="$PWD/fb" \
		--max-pairs=4 --alpha=0.05 --probe-alpha=0.05 --all -q &&
	grep -x "step k2 -> k3, 4 pairs: +9.85% (CI +5.65..+14.2%, p 0.00038) \[99.5% interval\]: worse" ra/bisect.log &&
	tail -n 1 ra/bisect.log >line &&
	echo "catch: 1 of 5 steps worse" >expect && test_cmp expect line &&
	test_json ra/bisect.json ".outcome, .culprit, .settings.all, .boots_total" "caught
null
true
40" &&
	test_json ra/bisect.json "[.series[].state] | join(\",\")" good,good,good,bad,good,good &&
	test_json ra/bisect.json "[.series[1:][].pairs] | join(\",\")" 4,4,4,4,4 &&
	test_json ra/bisect.json ".series[3].ci_level_pct" 99.5 &&
	grep -x "reproduce: latency-compare ra/boots/0018-k2 ra/boots/0019-k2 ra/boots/0021-k2 ra/boots/0024-k2 ra/boots/0017-k3 ra/boots/0020-k3 ra/boots/0022-k3 ra/boots/0023-k3" ra/summary.txt
'
test_done
