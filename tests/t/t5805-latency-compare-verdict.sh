#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: format 2 results, the kernel figures, verdict lines and MDE'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$TEST_DIRECTORY/lib-compare.sh"

F=$TEST_DIRECTORY/fixtures/compare

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w .
'

# One result a side (v2/a1 against v2/b1), three runs each with equal
# variances, so Welch's df is 2(n - 1) = 4 and the closed form on 4 df
# gives p = 1 - t(t^2 + 6) / (t^2 + 4)^(3/2); t(0.975, 4) = 2.7764451 and
# t(0.8, 4) = 0.9409646 from a t table.
#   elapsed {10,11,12} against {16,17,18}: +54.55%, se = sqrt(2/3) =
#     0.8164966, t = 7.3484692, p = 1 - 7.3484692 * 60 / 58^1.5 =
#     0.0018263; mde = 3.7174097 * 0.8164966 / 11 = 27.5932%.
#   majflt {900,1000,1100} against {5200,5300,5400}: +430%, se =
#     81.649658, t = 52.664, p about 8e-7; mde = 3.7174097 * 81.649658 /
#     1000 = 30.3525%.
#   pswpin {200,300,400} against {830,930,1030}: +210%, t = 630 /
#     81.649658 = 7.7158927, p = 1 - t * 65.535 / 63.535^1.5 = 0.0015187;
#     mde = 3.7174097 * 81.649658 / 300 = 101.1751%.
#   pswpout {500,600,700} against {550,650,750}: +8.33%, t = 0.6123724,
#     not significant; mde = 303.52523 / 600 = 50.5875%.
test_expect_success 'the headline names the figures that changed' '
	latency-compare v2/a1 v2/b1 >out &&
	head -n 2 out >got &&
	cat >want <<-\EOT &&
	6.2-rc1 vs 6.1: elapsed +54.5% (p 0.0018, significant); also changed: majflt +430%, pswpin +210%
	between-boot spread unknown (one result per label): give >= 2 results per label (3 recommended)
	EOT
	test_cmp want got
'

test_expect_success 'the tests table: change, p, mde and samples of each figure' '
	sed -n "/^Tests/,/^\$/p" out >got &&
	cat >want <<-\EOT &&
	Tests (Welch'"'"'s t-test; paired: a one-sample t-test of the pairs'"'"' differences; * p < 0.05; mde: the smallest change it sees with 80% power):
	label    figure            change        p      mde   samples
	6.2-rc1  elapsed         +54.55%*   0.0018   27.59%  runs 3+3
	6.2-rc1  majflt         +430.00%*  <0.0001   30.35%  runs 3+3
	6.2-rc1  pswpin         +210.00%*   0.0015  101.18%  runs 3+3
	6.2-rc1  pswpout           +8.33%   0.5734   50.59%  runs 3+3
	6.2-rc1  reclaim_s         +6.67%   0.8185  101.18%  runs 3+3
	6.2-rc1  compact_s         +0.00%   1.0000        -  runs 3+3
	6.2-rc1  psi_full_s        +0.00%   1.0000  234.71%  runs 2+3
	6.2-rc1  pgscan_kswapd     +0.00%   1.0000  151.76%  runs 3+3
	6.2-rc1  pgscan_direct     +0.00%   1.0000        -  runs 3+3

	EOT
	test_cmp want got
'

test_expect_success 'the kernel figures table: per-run means, nulls and absent keys as -' '
	sed -n "/^The kernel/,/^\$/p" out >got &&
	cat >want <<-\EOT &&
	The kernel'"'"'s figures per fake-gitk run, means (pages, counts; times in seconds):
	label    majflt  pswpin  pswpout  reclaim_s  compact_s  psi_some_s  psi_full_s  pgscan_kswapd  pgscan_direct  allocstall  pgsteal_anon  pgsteal_file
	6.1        1000     300      600      1.500      0.000           -       0.600           2000              0           -             -             -
	6.2-rc1    5300     930      650      1.600      0.000       0.200       0.600           2000              0           1             -             -

	EOT
	test_cmp want got
'

# steal DIR ANON FILE: the runs of DIR/result.json reclaimed ANON and FILE
# pages (JSON arrays, one number a run).
steal() {
	jq -c --argjson a "$2" --argjson f "$3" \
		".gitk_runs |= [to_entries[] | .value +
			{pgsteal_anon: \$a[.key], pgsteal_file: \$f[.key]}]" \
		"$1/result.json" >steal.json &&
	mv steal.json "$1/result.json"
}

# The reclaim split: 6.1 took {3000,3100,3200} pages from anonymous memory
# and {9000,9100,9200} from the page cache (25.4% anonymous), 6.2-rc1
# {1000,1100,1200} and {12000,12100,12200} (8.3%): pgsteal_anon -64.5%,
# pgsteal_file +33.0% (2000 / 3100, 3000 / 9100), each with t = 2000 or
# 3000 / 81.649658 on 4 df, p < 0.0001.  Both rising is more reclaim,
# not another split: no note.
test_expect_success JQ 'a reclaim split that moved is named; more reclaim is not' '
	cp -R v2/a1 split-a && cp -R v2/b1 split-b &&
	steal split-a "[3000,3100,3200]" "[9000,9100,9200]" &&
	steal split-b "[1000,1100,1200]" "[12000,12100,12200]" &&
	latency-compare split-a split-b >out-split &&
	head -n 2 out-split >got &&
	cat >want <<-\EOT &&
	6.2-rc1 vs 6.1: elapsed +54.5% (p 0.0018, significant); also changed: majflt +430%, pswpin +210%, pgsteal_anon -64.5%, pgsteal_file +33.0%
	  reclaim split differs: 6.2-rc1 took 8.3% of its reclaimed pages from anonymous memory, 6.1 25.4% (pgsteal_anon -64.5%, pgsteal_file +33.0%): the kernel traded swapping for dropping the page cache differently, and one kernel can settle on either split from run to run (see each result'"'"'s reclaim split)
	EOT
	test_cmp want got &&
	grep -x "6.1        1000     300      600      1.500      0.000           -       0.600           2000              0           -          3100          9100" out-split &&
	latency-compare --format=json split-a split-b >split.json &&
	test "$(change_get gitk_pgsteal_anon_mean_significant split.json)" = true &&
	near "$(change_get gitk_pgsteal_file_change_pct split.json)" 32.967033 1e-5 &&
	steal split-b "[4000,4100,4200]" "[12000,12100,12200]" &&
	latency-compare split-a split-b >out-more &&
	grep "also changed: .*pgsteal_anon +32.3%, pgsteal_file +33.0%" out-more &&
	! grep "reclaim split differs" out-more
'

test_expect_success JQ 'JSON: the old keys as they were, p and mde of every figure' '
	latency-compare --format=json v2/a1 v2/b1 >out.json &&
	near "$(change_get elapsed_change_pct out.json)" 54.5454545 1e-6 &&
	near "$(change_get elapsed_mean_s_p out.json)" 0.0018263 1e-7 &&
	test "$(change_get elapsed_mean_s_significant out.json)" = true &&
	near "$(change_get elapsed_mean_s_mde_pct out.json)" 27.5932 1e-4 &&
	test "$(change_get gitk_majflt_change_pct out.json)" = 430 &&
	near "$(change_get gitk_majflt_mean_p out.json)" 0 1e-6 &&
	near "$(change_get gitk_majflt_mean_mde_pct out.json)" 30.3525 1e-4 &&
	near "$(change_get gitk_pswpin_mean_p out.json)" 0.0015187 1e-7 &&
	near "$(change_get gitk_pswpin_mean_mde_pct out.json)" 101.1751 1e-4 &&
	test "$(change_get gitk_pswpout_mean_significant out.json)" = false &&
	near "$(change_get gitk_pswpout_mean_mde_pct out.json)" 50.5875 1e-4 &&
	test "$(change_get gitk_psi_some_mean_s_p out.json)" = null &&
	test "$(change_get gitk_compact_mean_s_mde_pct out.json)" = null &&
	test "$(change_get test out.json)" = "\"runs\"" &&
	test "$(change_get between_spread_known out.json)" = false &&
	test "$(change_get changed out.json)" = "[\"elapsed\",\"majflt\",\"pswpin\"]" &&
	test "$(change_get verdict out.json)" = "\"6.2-rc1 vs 6.1: elapsed +54.5% (p 0.0018, significant); also changed: majflt +430%, pswpin +210%\"" &&
	test_json out.json .results[0].elapsed_cv_pct 9.090909091 &&
	test_json out.json .results[1].gitk_majflt_mean 5300 &&
	test_json out.json ".results[1].run_labels | tojson" "[\"6.2-rc1-1\"]"
'

test_expect_success 'CSV: the same figures under the same names' '
	latency-compare --format=csv v2/a1 v2/b1 >out.csv &&
	test_line_count = 3 out.csv &&
	near "$(csv_get elapsed_mean_s_p 6.2-rc1 out.csv)" 0.0018263 1e-7 &&
	near "$(csv_get elapsed_mean_s_mde_pct 6.2-rc1 out.csv)" 27.5932 1e-4 &&
	test "$(csv_get gitk_pswpin_mean_significant 6.2-rc1 out.csv)" = true &&
	test "$(csv_get gitk_majflt_mean 6.1 out.csv)" = 1000 &&
	test "$(csv_get results 6.1 out.csv)" = 1 &&
	test "$(csv_get test 6.2-rc1 out.csv)" = runs &&
	test -z "$(csv_get test 6.1 out.csv)"
'

# {10,12,14} against {11,13,12.5}: p 0.9062 (t5800); Welch df 3.0093,
# mde 45.07% of 12 (the t quantiles on a fractional df, as the program
# computes them; checked against an independent integration).
test_expect_success 'no significant change says what it could have seen' '
	latency-compare base same >out &&
	head -n 1 out >got &&
	echo "2.6.32-fix vs 2.6.31-base: elapsed +1.4% (p 0.91, no significant change; could have seen >= 45.1%)" >want &&
	test_cmp want got
'

test_expect_success 'too few runs: said, and not tested' '
	latency-compare base onerun >out &&
	head -n 1 out >got &&
	echo "2.6.33 vs 2.6.31-base: elapsed +5669% (not tested: too few runs)" >want &&
	test_cmp want got
'

test_expect_success 'a format 1 result still loads, beside a format 2 one' '
	latency-compare --format=csv base v2/b1 >mixed.csv &&
	test "$(csv_get elapsed_mean_s 2.6.31-base mixed.csv)" = 12 &&
	test "$(csv_get gitk_majflt_mean 6.2-rc1 mixed.csv)" = 5300 &&
	test -z "$(csv_get gitk_majflt_mean_p 6.2-rc1 mixed.csv)" &&
	near "$(csv_get elapsed_change_pct 6.2-rc1 mixed.csv)" 41.6666667 1e-6
'

# At alpha 0.001, t(0.9995, 4) = 8.6103 (t table): mde = (8.6103 +
# 0.9410) * 0.8164966 / 11 = 70.9%, and p 0.0018 is no longer enough.
test_expect_success '--alpha moves the verdict and the mde' '
	latency-compare --alpha=0.001 v2/a1 v2/b1 >out &&
	head -n 1 out >got &&
	echo "6.2-rc1 vs 6.1: elapsed +54.5% (p 0.0018, no significant change; could have seen >= 70.9%); changed: majflt +430%" >want &&
	test_cmp want got
'

test_done
