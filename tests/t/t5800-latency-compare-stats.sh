#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: exact means, deviations, intervals, significance'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$TEST_DIRECTORY/lib-compare.sh"

F=$TEST_DIRECTORY/fixtures/compare

test_expect_success 'setup: the figures by hand' '
	cp -R "$F"/. . && chmod -R u+w . &&
	latency-compare --format=csv base slow same >out.csv &&
	test_line_count = 4 out.csv
'

# Mean and sample standard deviation of the gitk_runs of a fixture,
# computed here independently of the program.
runs_of() {
	json_get "$1/result.json" ".gitk_runs[].elapsed_s"
}

test_expect_success JQ 'mean and stddev match an awk computation' '
	for d in base slow same; do
		runs_of $d >runs.$d &&
		label=$(json_get $d/result.json .label) &&
		awk "{ s += \$1; q += \$1 * \$1; n++ }
		     END { m = s / n; printf \"%.9f %.9f %d\n\", m,
			   sqrt((q - n * m * m) / (n - 1)), n }" runs.$d >want &&
		read m sd n <want &&
		near "$(csv_get elapsed_mean_s "$label" out.csv)" "$m" 1e-6 &&
		near "$(csv_get elapsed_stddev_s "$label" out.csv)" "$sd" 1e-6 &&
		test "$(csv_get runs "$label" out.csv)" = "$n" || return 1
	done
'

test_expect_success 'runs {10,12,14}: mean 12, sd 2, cv 16.67%' '
	test "$(csv_get elapsed_mean_s 2.6.31-base out.csv)" = 12 &&
	test "$(csv_get elapsed_stddev_s 2.6.31-base out.csv)" = 2 &&
	near "$(csv_get elapsed_cv_pct 2.6.31-base out.csv)" 16.6666667 1e-6
'

# t quantiles: t(0.975, 2) = 4.302652729749464, t(0.995, 2) =
# 9.924843200918298, t(0.975, 3) = 3.182446305284263.
test_expect_success '95% and 99% confidence intervals (Student t)' '
	near "$(csv_get elapsed_ci95_half_s 2.6.31-base out.csv)" \
		"$(awk "BEGIN { printf \"%.12f\", 4.302652729749464 * 2 / sqrt(3) }")" 1e-6 &&
	near "$(csv_get elapsed_ci95_half_s 2.6.31-base out.csv)" 4.9683 1e-4 &&
	near "$(csv_get elapsed_ci99_half_s 2.6.31-base out.csv)" \
		"$(awk "BEGIN { printf \"%.12f\", 9.924843200918298 * 2 / sqrt(3) }")" 1e-6 &&
	near "$(csv_get elapsed_ci95_half_s 2.6.32-rc6 out.csv)" \
		"$(awk "BEGIN { printf \"%.12f\", 3.182446305284263 * sqrt(107 / 12) / 2 }")" 1e-6
'

# Welch for {10,12,14} against {20,22,24,27}: t = 5.9604, df = 4.9862,
# two-sided p = 0.0019197 (numerical integration of the t density).
test_expect_success 'Welch p-value and significance against the baseline' '
	near "$(csv_get elapsed_change_pct 2.6.32-rc6 out.csv)" 93.75 1e-9 &&
	near "$(csv_get elapsed_mean_s_p 2.6.32-rc6 out.csv)" 0.0019197 1e-6 &&
	test "$(csv_get elapsed_mean_s_significant 2.6.32-rc6 out.csv)" = true &&
	test "$(csv_get elapsed_mean_s_significant 2.6.32-fix out.csv)" = false &&
	test -z "$(csv_get elapsed_mean_s_significant 2.6.31-base out.csv)"
'

test_expect_success 'single-valued figures change without a test' '
	test "$(csv_get failures_change 2.6.32-rc6 out.csv)" = 2 &&
	test "$(csv_get stall_p99_change_pct 2.6.32-rc6 out.csv)" = 100 &&
	test "$(csv_get stall_count_change 2.6.32-rc6 out.csv)" = 2 &&
	test -z "$(csv_get stall_p99_s_p 2.6.32-rc6 out.csv)" &&
	test -z "$(csv_get stall_p99_s_significant 2.6.32-rc6 out.csv)"
'

test_expect_success 'reclaim time from either field, absent as empty' '
	test "$(csv_get reclaim_stall_s 2.6.31-base out.csv)" = 0.8 &&
	test "$(csv_get reclaim_stall_s 2.6.32-rc6 out.csv)" = 1.2 &&
	test -z "$(csv_get reclaim_stall_s 2.6.32-fix out.csv)" &&
	near "$(csv_get reclaim_stall_change_pct 2.6.32-rc6 out.csv)" 50 1e-9
'

test_expect_success '--alpha moves the significance line' '
	latency-compare --format=csv --alpha=0.001 base slow >strict.csv &&
	test "$(csv_get elapsed_mean_s_significant 2.6.32-rc6 strict.csv)" = false &&
	latency-compare --format=csv --alpha=0.95 base same >loose.csv &&
	test "$(csv_get elapsed_mean_s_significant 2.6.32-fix loose.csv)" = true
'

# Per-run stall figures: p99 {0.2,0.21,0.25} against {0.8,0.9,1.0} is
# significant; the elapsed times {30,31,32} and {30.5,31,31.5} are not.
test_expect_success 'per-run latency summaries are tested too' '
	latency-compare --format=csv perrun/base.json perrun/new.json >pr.csv &&
	near "$(csv_get stall_p99_s 6.1-a pr.csv)" 0.22 1e-9 &&
	near "$(csv_get stall_p99_s 6.1-b pr.csv)" 0.9 1e-9 &&
	test "$(csv_get stall_p99_s_significant 6.1-b pr.csv)" = true &&
	test "$(csv_get stall_count_change 6.1-b pr.csv)" = 5 &&
	test "$(csv_get stall_count_significant 6.1-b pr.csv)" = true &&
	test "$(csv_get elapsed_change_pct 6.1-b pr.csv)" = 0 &&
	test "$(csv_get elapsed_mean_s_p 6.1-b pr.csv)" = 1 &&
	test "$(csv_get elapsed_mean_s_significant 6.1-b pr.csv)" = false
'

# As run-test.sh writes it: one summary per run under fake-gitk-N (not
# warmup-N, not fake-gitk-x), reclaim = direct 0.75 s + memcg 2.5 s,
# failures null.
test_expect_success 'a result as run-test.sh writes it' '
	latency-compare --format=csv perrun/base.json driver >drv.csv &&
	near "$(csv_get stall_p99_s 6.1-driver drv.csv)" 1.7 1e-9 &&
	near "$(csv_get stall_max_s 6.1-driver drv.csv)" 2.2 1e-9 &&
	test "$(csv_get stall_count 6.1-driver drv.csv)" = 5 &&
	test "$(csv_get stall_p99_s_significant 6.1-driver drv.csv)" = true &&
	test "$(csv_get reclaim_stall_s 6.1-driver drv.csv)" = 3.25 &&
	test -z "$(csv_get failures 6.1-driver drv.csv)" &&
	test -z "$(csv_get failures_change 6.1-driver drv.csv)" &&
	latency-compare --format=2009 driver >out &&
	echo "6.1-driver Elapsed:00:32.367(stddev:0.808) Failures:-" >want &&
	test_cmp want out
'

test_expect_success '--workload picks another summary' '
	latency-compare --format=csv --workload=fake-music driver >music.csv &&
	test "$(csv_get stall_p99_s 6.1-driver music.csv)" = 0.2 &&
	latency-compare --format=csv --workload=warmup driver >warm.csv &&
	test "$(csv_get stall_p99_s 6.1-driver warm.csv)" = 9
'

test_done
