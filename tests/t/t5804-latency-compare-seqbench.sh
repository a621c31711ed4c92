#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: seqbench results and --plot'
. "$abs_top_srcdir/tests/t/test-lib.sh"

F=$TEST_DIRECTORY/fixtures/compare
E=$F/expect

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w .
'

# seq_write, 1 thread: {100,110,120} -> mean 110, sd 10, 99% half width
# 9.924843200918298 * 10 / sqrt(3) = 57.30; against {90,95,100}: -13.64%.
test_expect_success 'text: per phase and threads, mean, sd, 99% interval' '
	latency-compare sb-base.json sbdir=sbdir/seqbench.json >out &&
	test_cmp "$E/seqbench-text.out" out
'

test_expect_success 'csv values' '
	latency-compare --format=csv sb-base.json sbdir=sbdir/seqbench.json >out &&
	test_cmp "$E/seqbench-csv.out" out &&
	awk -F, "\$1 == \"sb-base\" && \$2 == \"seq_write\" && \$5 == 1 {
		print \$7, \$8; printf \"%.6f\n\", \$9 }" out >got &&
	awk "BEGIN { printf \"110 10\n%.6f\n\",
		9.924843200918298 * 10 / sqrt(3) }" >want &&
	test_cmp want got
'

test_expect_success '2009 form' '
	latency-compare --format=2009 sb-base.json sbdir=sbdir/seqbench.json >out &&
	test_cmp "$E/seqbench-2009.out" out
'

# A directory is its result.json, which holds the seqbench pass; a
# seqbench.json beside it is the raw material, not read again.
test_expect_success JQ 'a result directory: the seqbench pass in its result.json' '
	mkdir emb &&
	jq --slurpfile sb sb-base.json ".seqbench = \$sb[0]" base/result.json \
		>emb/result.json &&
	latency-compare --format=csv emb >out &&
	grep -q "^2.6.31-base,seq_write,64,4096,1,3,110,10," out
'

test_expect_success 'a seqbench.json beside result.json is not read' '
	cp sb-base.json base/seqbench.json &&
	latency-compare --format=csv base >out &&
	! grep -q ",seq_write," out
'

test_expect_success '--plot writes data and script' '
	PATH=/nonexistent-for-gnuplot:$PATH &&
	latency-compare --plot=hist base slow same >out &&
	test -s hist.dat && test -s hist.gp &&
	grep -c "^0.1 " hist.dat >n && echo 3 >want && test_cmp want n &&
	grep -q "^0.1 60 60.000000$" hist.dat &&
	grep -q "^0.1 50 54.945055$" hist.dat &&
	! grep -qi "inf" hist.dat &&
	grep -q "index 2 using 1:3 with linespoints title .2.6.32-fix. noenhanced" hist.gp &&
	grep -x "set yrange \[0:\*\]" hist.gp &&
	grep -x "set xrange \[\*:\*\]" hist.gp
'

# A lone bucket made gnuplot warn "empty x range" on stderr.
test_expect_success '--plot: one bucket gets a range around it' '
	mkdir lone &&
	echo "{\"format_version\": 2, \"label\": \"lone\", \"partial\": false, \"gitk_runs\": [], \"latency\": {\"fake-gitk\": {\"histogram\": [{\"le_s\": 0.1, \"count\": 5}, {\"le_s\": null, \"count\": 0}]}}}" >lone/result.json &&
	latency-compare --plot=lone lone >out &&
	grep -x "set xrange \[0.05:0.2\]" lone.gp &&
	grep -x "set yrange \[0:\*\]" lone.gp
'

test_expect_success GNUPLOT '--plot: one bucket plots without a word' '
	latency-compare --plot=glone lone >out 2>err &&
	test_cmp /dev/null err &&
	test -s glone.png
'

test_expect_success GNUPLOT '--plot makes PNG and SVG with gnuplot' '
	latency-compare --plot=img base slow >out &&
	test -s img.png && test -s img.svg
'

test_expect_success '--plot without histograms warns and writes nothing' '
	latency-compare --plot=none onerun >out 2>err &&
	grep -q "no result has a latency histogram of fake-gitk" err &&
	! test -e none.gp
'

# An unknown name printed dashes and said nothing.
test_expect_success '--workload that no result has: one line, exit 2' '
	test_expect_code 2 latency-compare --workload=no-such base slow \
		>out 2>err &&
	echo "latency-compare: no result has a latency summary of '\''no-such'\''" >want &&
	test_cmp want err &&
	! test -s out &&
	test_expect_code 2 latency-compare --workload=fake-gitk sb-base.json \
		>out 2>err
'

test_expect_success '--plot refuses a prefix a gnuplot string cannot hold' '
	test_expect_code 2 latency-compare --plot="$(printf "a\\nb")" base \
		>out 2>err &&
	grep -q "^latency-compare: --plot prefix has a control character" err &&
	test_expect_code 2 latency-compare "--plot=a\\b" base >out 2>err
'

test_done
