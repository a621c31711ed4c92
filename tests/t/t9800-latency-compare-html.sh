#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare --format=html: one page that parses, holds its rows, refers to nothing outside and escapes every string'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-html.sh"
test_skip_all_without HTML5LIB

F=$TEST_DIRECTORY/fixtures/compare
lc=$abs_top_builddir/compare/latency-compare

# Labels that would be markup, an attribute, a script's end, CDATA's end,
# a reordering character and a newline if they were not escaped.
hostile='<img src=x onerror=alert(1)>'

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w . &&
	html_result ten-a a 10 &&
	html_result ten-b b 10 11 &&
	html_result evil "$hostile" 10 11 &&
	html_result quote "x\\\" onmouseover=\\\"alert(2)" 3 &&
	html_result script "</script><script>alert(3)</script>]]>'"'"'" 3 &&
	html_result bidi "abc\u202edef\nline" 3
'

test_expect_success 'the page parses, its SVG is XML, nothing outside' '
	latency-compare --format=html -o page.html base slow same >out &&
	! test -s out &&
	html_check check page.html &&
	grep -q "^<!DOCTYPE html>" page.html
'

test_expect_success 'a row a figure and label, the states direction-aware' '
	html_check rows page.html verdict >rows &&
	cat >want <<-\EOF &&
	row-1-elapsed_mean_s worse
	row-1-elapsed_stddev_s none
	row-1-elapsed_cv_pct none
	row-1-failures inconclusive
	row-1-oom_kills inconclusive
	row-1-stall_p99_s inconclusive
	row-1-stall_max_s inconclusive
	row-1-stall_count inconclusive
	row-1-stall_time_s inconclusive
	row-1-reclaim_stall_s inconclusive
	row-1-pswpout_delta inconclusive
	row-2-elapsed_mean_s same
	row-2-elapsed_stddev_s none
	row-2-elapsed_cv_pct none
	row-2-failures inconclusive
	row-2-oom_kills inconclusive
	row-2-stall_p99_s inconclusive
	row-2-stall_max_s inconclusive
	row-2-stall_count inconclusive
	row-2-stall_time_s inconclusive
	row-2-reclaim_stall_s none
	row-2-pswpout_delta inconclusive
	EOF
	test_cmp want rows &&
	html_check text page.html row-1-elapsed_mean_s >got &&
	echo "elapsed | 2.6.32-rc6 | 12.000 | 2.000 | 23.250 | +93.75% | +53.28% to +134.22% | 54.93% | 0.0019 | runs | worse" >want &&
	test_cmp want got
'

test_expect_success 'the verdicts are the text report'"'"'s, word for word' '
	html_check verdicts page.html >got &&
	latency-compare base slow same >text &&
	sed -n "/ vs /p" text >want &&
	test_cmp want got
'

test_expect_success 'the provenance: labels, results, runs, kernels' '
	html_check rows page.html labels >got &&
	printf "label-%s None\n" 0-0 1-0 2-0 >want &&
	test_cmp want got &&
	html_check text page.html label-1-0 >got &&
	echo "2.6.32-rc6 | 1 | 4 | slow | 2.6.32-rc6 | host | ./run-test.sh --quick --label 2.6.32-rc6" >want &&
	test_cmp want got &&
	html_check text page.html meta >meta &&
	grep -F "command line latency-compare --format=html -o page.html base slow same" meta &&
	grep -F "alpha 0.05" meta && grep -F "Holm" meta
'

test_expect_success GNUPLOT 'the pictures are inline SVG, one id each' '
	html_check tags page.html >tags &&
	grep -x svg tags &&
	grep -c "<figure id=\"plot-" page.html >n && echo 3 >want && test_cmp want n &&
	grep -o " id=.p[0-9]*-gnuplot_canvas." page.html | sort | uniq -d >dup &&
	! test -s dup
'

test_expect_success 'seqbench and ringbench rows, a row a configuration and label' '
	latency-compare --format=html -o sb.html sb-base.json sbdir=sbdir/seqbench.json &&
	html_check check sb.html &&
	html_check rows sb.html seqbench-table >rows &&
	printf "%s\n" "row-0-sb0 none" "row-1-sb0 inconclusive" \
		"row-0-sb1 none" "row-1-sb1 same" \
		"row-0-sb2 none" "row-1-sb2 same" \
		"row-0-sb3 none" "row-1-sb3 better" >want &&
	test_cmp want rows &&
	html_check verdicts sb.html >got &&
	echo "no run-test.sh result to judge: each row below is judged on its own" >want &&
	test_cmp want got &&
	R=$TEST_DIRECTORY/fixtures/ringbench &&
	latency-compare --format=html -o rb.html "$R/base.json" "$R/new.json" &&
	html_check check rb.html &&
	html_check rows rb.html ringbench-table >rows &&
	grep -x "row-1-rb0-p99_us worse" rows &&
	test_line_count = 8 rows
'

test_expect_success GNUPLOT 'the pictures of boots, of a series, of seqbench' '
	latency-compare --format=html -o boots.html \
		A=v2/a1,v2/a2,v2/a3 B=v2/b1,v2/b2,v2/b3 base &&
	html_check check boots.html &&
	grep -o "<figure id=\"plot-[a-z-]*\"" boots.html >figs &&
	printf "<figure id=\"plot-%s\"\n" runs-elapsed latency boots series >want &&
	test_cmp want figs &&
	grep -c "<figure id=\"plot-seqbench\"" sb.html
'

# Failures 0 in every result of both: the same, with no MDE to state.
test_expect_success 'the same with no MDE: one value on both sides' '
	latency-compare --format=html -o same.html \
		A=v2/a1,v2/a2,v2/a3 B=v2/b1,v2/b2,v2/b3 2>err &&
	html_check text same.html row-1-failures >got &&
	echo "failures | B | 0.0 | 0.0 | 0.0 | +0.0 | - | - | 1.0000 | results | same (one value on both sides)" >want &&
	test_cmp want got
'

test_expect_success 'a hostile label stays text, in the tables and the pictures' '
	latency-compare --format=html -o evil.html ten-a evil quote script bidi 2>err &&
	html_check check evil.html &&
	html_check tags evil.html >tags &&
	! grep -x img tags &&
	grep -c "<script" evil.html >n && echo 1 >want && test_cmp want n &&
	! grep -q "<img" evil.html &&
	! grep -q "onmouseover=\"" evil.html &&
	html_check text evil.html label-1-0 >got &&
	grep -F "$hostile | 1 | 10 | evil | $hostile" got &&
	html_check text evil.html label-2-0 >got &&
	grep -F "x\" onmouseover=\"alert(2) | 1 | 3 |" got &&
	html_check text evil.html label-3-0 >got &&
	grep -F "</script><script>alert(3)</script>]]>'"'"' | 1 | 3 |" got &&
	html_check text evil.html label-4-0 >got &&
	grep -F "abc\\u202edef\\nline | 1 | 3 |" got
'

test_expect_success 'two labels of ten runs: well under 1 MB; a long series downsampled' '
	awk "BEGIN { for (i = 1; i <= 200000; i++)
		printf \"%.4f %.4f %.4f -- %.9f fake-gitk commits=%d\n\",
			1e9 + i * 0.001, i * 0.001, (i % 997 ? 0.001 : 0.5),
			100 + i * 0.001, i }" >ten-a/fake-gitk-3.latency &&
	latency-compare --format=html -o ten.html ten-a ten-b &&
	html_check check ten.html &&
	size=$(wc -c <ten.html) &&
	say "two labels of ten runs, a series of 200000 lines: $size bytes" &&
	test "$size" -lt 307200
'

test_expect_success GNUPLOT 'the typical run of a label is drawn, at most 400 points' '
	grep -q "<figure id=\"plot-progress\"" ten.html &&
	html_check text ten.html plot-progress >cap &&
	grep -F "a run 3 of ten-a (200000 gaps)" cap
'

test_expect_success 'without gnuplot: the tables, and a note instead of pictures' '
	PATH=/nonexistent "$lc" --format=html -o nognuplot.html base slow >out 2>err &&
	html_check check nognuplot.html &&
	html_check text nognuplot.html no-plots >got &&
	echo "gnuplot is not installed (package gnuplot-nox): no pictures, the tables above hold every figure" >want &&
	test_cmp want got &&
	! grep -q "<svg" nognuplot.html &&
	html_check rows nognuplot.html verdict >rows &&
	test_line_count = 11 rows
'

# A gnuplot that writes what a hostile one would: the page must refuse it.
test_expect_success 'an SVG that could load or run something is left out' '
	mkdir fake &&
	cat >fake/gnuplot <<-\EOF &&
	#!/bin/sh
	printf "%s\n" "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"><image href=\"http://example.org/x.png\"/></svg>" >o.svg
	EOF
	chmod +x fake/gnuplot &&
	PATH=$PWD/fake:$PATH "$lc" --format=html -o refused.html base slow 2>err &&
	html_check check refused.html &&
	! grep -q "<svg" refused.html &&
	grep "picture holds more than the page allows: left out" err
'

# A gnuplot that stops latency-compare as Ctrl-C would, while it draws.
test_expect_success 'SIGINT while drawing: 130, no page, no temporary file left' '
	mkdir stop tmp &&
	cat >stop/gnuplot <<-\EOF &&
	#!/bin/sh
	kill -INT $PPID
	exit 1
	EOF
	chmod +x stop/gnuplot &&
	test_expect_code 130 env PATH="$PWD/stop:$PATH" TMPDIR="$PWD/tmp" \
		"$lc" --format=html -o stopped.html base slow 2>err &&
	! test -e stopped.html &&
	ls -A tmp . >left && ! grep "stopped\|latency-compare\." left &&
	! grep "gnuplot failed" err
'

test_expect_success 'the page is written atomically: -o to a directory fails, nothing left' '
	mkdir dir &&
	test_expect_code 1 latency-compare --format=html -o dir base slow 2>err &&
	grep "^latency-compare: cannot " err
'

test_done
