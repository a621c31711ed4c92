#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: several results per label (boots), LABEL=RESULT,..., pressure'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$TEST_DIRECTORY/lib-compare.sh"

F=$TEST_DIRECTORY/fixtures/compare

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w . &&
	mkdir gl &&
	sed "s/\"mode\": \"memcg\"/\"mode\": \"global\"/" v2/b1/result.json \
		>gl/result.json
'

# v2/a1..a3 have the label 6.1, v2/b1..b3 6.2-rc1; each result's three
# runs have variance 1, their means are {11,13,15} and {17,13,15}.  The
# result means are the samples: variance 4 a side, se = sqrt(8/3) =
# 1.6329932, df 4, t = 2 / 1.6329932 = 1.2247449 and, by the closed form
# on 4 df, p = 1 - t(t^2 + 6) / (t^2 + 4)^1.5 = 1 - 9.1855865 / 12.898643
# = 0.2878641; mde = (2.7764451 + 0.9409646) * 1.6329932 / 13 = 46.696%.
# Within results the spread is 1 (cv 1/13 = 7.7%), between them 2 (cv
# 2/13 = 15.4%).  Run by run, v2/a1 against v2/b1 was significant (t5805):
# the boots tell it apart from a regression.
test_expect_success 'plain results are gathered by the label inside them' '
	latency-compare v2/a1 v2/b2 v2/a2 v2/b1 v2/a3 v2/b3 >out &&
	head -n 3 out >got &&
	cat >want <<-\EOT &&
	6.2-rc1 vs 6.1: elapsed +15.4% (p 0.29, no significant change; could have seen >= 46.7%); changed: majflt +430%, pswpin +210%
	  judged on result means (3 results of 6.1, 3 of 6.2-rc1): cv between results 15.4% and 13.3%, within 7.7% and 6.7%

	EOT
	test_cmp want got &&
	sed -n 4,6p out >got &&
	cat >want <<-\EOT &&
	label    results  runs  elapsed  stddev  cv%  between%   ci95    ci99  failures  p99  max  stalls  reclaim
	6.1            3     9   13.000   1.000  7.7      15.4  4.968  11.460         0    -    -       -        -
	6.2-rc1        3     9   15.000   1.000  6.7      13.3  4.968  11.460         0    -    -       -        -
	EOT
	test_cmp want got
'

test_expect_success JQ 'JSON of a label of several results' '
	latency-compare --format=json v2/a1 v2/a2 v2/a3 v2/b1 v2/b2 v2/b3 >g.json &&
	near "$(change_get elapsed_mean_s_p g.json)" 0.2878641 1e-7 &&
	test "$(change_get elapsed_mean_s_significant g.json)" = false &&
	near "$(change_get elapsed_mean_s_mde_pct g.json)" 46.696 1e-3 &&
	test "$(change_get test g.json)" = "\"results\"" &&
	test "$(change_get between_spread_known g.json)" = true &&
	test_json g.json "[.results[].results] | tojson" "[3,3]" &&
	test_json g.json .results[0].between_cv_pct 15.38461538 &&
	test_json g.json .results[0].elapsed_cv_pct 7.692307692 &&
	test_json g.json .results[0].runs 9 &&
	test_json g.json .results[0].path v2/a1
'

test_expect_success 'the 2009 form: mean of the results, spread within them' '
	latency-compare --format=2009 v2/a1 v2/a2 v2/a3 v2/b1 v2/b2 v2/b3 >out &&
	cat >want <<-\EOT &&
	6.1 Elapsed:00:13.000(stddev:1.000) Failures:0
	6.2-rc1 Elapsed:00:15.000(stddev:1.000) Failures:0
	EOT
	test_cmp want out
'

# One result (mean 17) against the spread of three (variance 4): se =
# sqrt(4/3 + 4) = 2.3094011 on 2 df, t = 4 / 2.3094011 = sqrt(3); on 2
# df p = 1 - t / sqrt(2 + t^2) = 1 - sqrt(3/5) = 0.2254033 and t(p, 2) =
# (2p - 1) / sqrt(2p(1 - p)), so mde = (4.3026527 + 1.0606602) *
# 2.3094011 / 13 = 95.277%.
test_expect_success JQ 'LABEL=RESULT,...: one result against the spread of three' '
	latency-compare 6.1=v2/a1,v2/a2,v2/a3 v2/b1 >out &&
	head -n 2 out >got &&
	cat >want <<-\EOT &&
	6.2-rc1 vs 6.1: elapsed +30.8% (p 0.23, no significant change; could have seen >= 95.3%); changed: majflt +430%
	  judged against the spread between the 3 results of 6.1 (6.2-rc1 has one: give it >= 2 to test both)
	EOT
	test_cmp want got &&
	latency-compare --format=json 6.1=v2/a1,v2/a2,v2/a3 v2/b1 >s.json &&
	near "$(change_get elapsed_mean_s_p s.json)" 0.2254033 1e-7 &&
	near "$(change_get elapsed_mean_s_mde_pct s.json)" 95.277 1e-3 &&
	test "$(change_get test s.json)" = "\"spread\""
'

# Result means {11,13} against {13,15}: variance 2 each, df 2, se =
# sqrt(2) and t = sqrt(2): p = 1 - sqrt(2)/2 = 0.2928932; mde =
# 5.3633129 * 1.4142136 / 12 = 63.207%.
test_expect_success JQ 'LABEL= names its own labels over those in the files' '
	latency-compare --format=csv old=v2/a1,v2/a2 new=v2/b2,v2/b3 >p.csv &&
	awk -F, "NR > 1 { print \$1 }" p.csv >got &&
	printf "old\nnew\n" >want &&
	test_cmp want got &&
	latency-compare --format=json old=v2/a1,v2/a2 new=v2/b2,v2/b3 >p.json &&
	near "$(change_get elapsed_mean_s_p p.json)" 0.2928932 1e-7 &&
	near "$(change_get elapsed_mean_s_mde_pct p.json)" 63.207 1e-3 &&
	test_json p.json ".results[0].run_labels | index(\"6.1-1\") != null" true
'

test_expect_success 'a LABEL= label and a label in a file gather together' '
	latency-compare --format=csv 6.1=v2/a1 v2/a2 v2/b1 >m.csv &&
	awk -F, "NR > 1 { print \$1, \$3 }" m.csv >got &&
	printf "6.1 6\n6.2-rc1 3\n" >want &&
	test_cmp want got
'

test_expect_success 'the first label is the baseline, in order of appearance' '
	latency-compare --format=2009 v2/b1 v2/a1 v2/b2 >out &&
	cat >want <<-\EOT &&
	6.2-rc1 Elapsed:00:15.000(stddev:1.000) Failures:0
	6.1 Elapsed:00:11.000(stddev:1.000) Failures:0
	EOT
	test_cmp want out
'

test_expect_success 'one label only: said, and nothing compared' '
	latency-compare --format=2009 v2/a1 v2/a2 >out 2>err &&
	echo "latency-compare: warning: all 2 results have the label 6.1: nothing to compare (LABEL=RESULT tells them apart)" >want &&
	test_cmp want err &&
	test_line_count = 1 out &&
	test_expect_code 2 latency-compare --fail-if-slower=5 v2/a1 v2/a2 \
		>out 2>err &&
	grep -q "needs a baseline and a result to judge (all results have one label)" err
'

test_expect_success 'a path with an = is a path when it exists' '
	cp -R v2/a1 "odd=dir" &&
	latency-compare --format=2009 "odd=dir" v2/b1 >out &&
	head -n 1 out >got &&
	echo "6.1 Elapsed:00:11.000(stddev:1.000) Failures:0" >want &&
	test_cmp want got &&
	latency-compare --format=2009 v2/a1 x=./odd=dir >out &&
	test_line_count = 2 out
'

test_expect_success 'bad LABEL= arguments are usage errors' '
	test_expect_code 2 latency-compare =v2/a1 >out 2>err &&
	grep -q "^latency-compare: no label before .=. in .=v2/a1.\$" err &&
	test_expect_code 2 latency-compare x= >out 2>err &&
	grep -q "^latency-compare: an empty result in .x=.\$" err &&
	test_expect_code 2 latency-compare x=v2/a1,,v2/a2 >out 2>err &&
	grep -q "^latency-compare: an empty result in .x=v2/a1,,v2/a2.\$" err &&
	test_expect_code 2 latency-compare x=v2/a1, >out 2>err &&
	test_expect_code 1 latency-compare x=v2/a1,nodir >out 2>err &&
	grep -q "^latency-compare: cannot open .nodir.: No such file or directory\$" err
'

test_expect_success JQ 'different pressure: a warning, and a note under the verdict' '
	latency-compare v2/a1 gl >out 2>err &&
	echo "latency-compare: warning: 6.1 ran with memcg ratio 4, 6.2-rc1 with global ratio 4: not the same pressure" >want &&
	test_cmp want err &&
	sed -n 2p out >got &&
	echo "  pressure differs: 6.1 ran with memcg ratio 4, 6.2-rc1 with global ratio 4" >want &&
	test_cmp want got &&
	latency-compare --format=json v2/a1 gl >pr.json 2>err &&
	test "$(change_get pressure_differs pr.json)" = true &&
	latency-compare v2/a1 v2/b1 >out 2>err &&
	! test -s err
'

test_expect_success 'different pressure inside one label' '
	latency-compare --format=2009 v2/a1 6.2=v2/b2,gl >out 2>err &&
	echo "latency-compare: warning: the results of 6.2 ran with different pressure (memcg ratio 4 and global ratio 4)" >want &&
	test_cmp want err
'

test_expect_success '--fail-if-slower judges labels of several results' '
	test_expect_code 0 latency-compare --fail-if-slower=5 \
		v2/a1 v2/a2 v2/a3 v2/b1 v2/b2 v2/b3 >out 2>err &&
	grep -q "^latency-compare: 6.2-rc1 is +15.38% against 6.1 (p = 0.2879): not slower\$" err &&
	test_expect_code 1 latency-compare --fail-if-slower=5 v2/a1 v2/b1 \
		>out 2>err &&
	grep -q "^latency-compare: 6.2-rc1 is +54.55% against 6.1 (p = 0.001826): slower\$" err
'

test_done
