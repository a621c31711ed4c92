#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-output --plot: gnuplot data, scripts and images'
. "$abs_top_srcdir/tests/t/test-lib.sh"

test_expect_success 'setup' '
	awk "BEGIN { t = 5000000000; for (i = 0; i < 300; i++) {
		t += 1000000 + (i * 7919) % 10000000 + (i % 100 == 50 ? 1500000000 : 0)
		printf \"%d.%09d w thread=%d\n\", int(t / 1e9), t % 1e9, i % 2 } }" >in &&
	mkdir plots
'

test_expect_success 'data and scripts are written (gnuplot or not)' '
	PATH=/nonexistent "$abs_top_builddir/latency-output/latency-output" \
		--plot plots/p --report rep <in >out 2>err &&
	! test -s err &&
	test -s plots/p.dat && test -s plots/p-hist.dat &&
	test -s plots/p-latency.gp && test -s plots/p-hist.gp &&
	! test -e plots/p-latency.png &&
	grep -v "^#" plots/p.dat >points &&
	test_line_count = 299 points &&
	grep -c "smooth bezier" plots/p-latency.gp >n &&
	echo 2 >expect && test_cmp expect n &&
	grep -x "\"<= 1.6s\" 3 4.506563550" plots/p-hist.dat &&
	ls plots >files &&
	! grep tmp files
'

test_expect_success 'a bad prefix is an error' '
	test_expect_code 1 latency-output --plot nodir/p <in >out 2>err &&
	grep "^latency-output: cannot write .nodir/p\.\*.: No such file or directory$" err
'

test_expect_success GNUPLOT 'gnuplot makes PNG and SVG images' '
	latency-output --plot plots/p --report rep <in >out 2>err &&
	! test -s err &&
	for f in p-latency p-hist; do
		test -s plots/$f.png && test -s plots/$f.svg &&
		head -c 4 plots/$f.png >magic &&
		printf "\211PNG" >expect &&
		cmp expect magic &&
		grep -q "<svg" plots/$f.svg || return 1
	done
'

test_expect_success GNUPLOT '--by plots one series per value' '
	latency-output --by thread --plot plots/q --report rep <in >out 2>err &&
	grep -c "smooth bezier" plots/q-latency.gp >n &&
	echo 4 >expect && test_cmp expect n &&
	grep -q "thread=1 (bezier)" plots/q-latency.gp &&
	test -s plots/q-latency.png
'

# The 1-2-5 buckets of format 1 drew 100 ms and 199 ms gaps as one bar.
test_expect_success 'the histogram plot has R10 bars: 100 ms and 199 ms apart' '
	printf "%s w\n" 100.000000000 100.100000000 100.200000000 \
		100.300000000 100.499000000 100.698000000 >r10 &&
	PATH=/nonexistent "$abs_top_builddir/latency-output/latency-output" \
		--plot plots/r10 --report rep <r10 >out &&
	cat >expect <<-\EOT &&
	# bucket label, gaps, seconds spent in them
	"<= 100ms" 3 0.300000000
	"<= 125ms" 0 0.000000000
	"<= 160ms" 0 0.000000000
	"<= 200ms" 2 0.398000000
	EOT
	test_cmp expect plots/r10-hist.dat
'

# Bars drawn from above 0 made 8 beside 36 look like 1 to 10.
test_expect_success 'every bar chart starts at 0' '
	grep -c -x "set yrange \[0:\*\]" plots/p-hist.gp >n &&
	echo 4 >expect && test_cmp expect n &&
	grep -x "set yrange \[0:\*\]" plots/p-latency.gp &&
	grep -x "set xrange \[\*:\*\]" plots/p-latency.gp
'

# gnuplot warned "empty y range" on stderr for one bucket, one
# point or gaps of 0, and run-test.sh kept that in *.latency-output.err.
test_expect_success 'few points: the ranges are never one value' '
	awk "BEGIN { for (i = 1; i <= 5; i++)
		printf \"%d.000000000 w n=%d\n\", 100 + i, i }" >five &&
	printf "100.000000000 w n=1\n100.100000000 w n=2\n" >two &&
	printf "100.000000000 w n=%d\n" 1 2 3 >same &&
	mkdir few &&
	lo=$abs_top_builddir/latency-output/latency-output &&
	PATH=/nonexistent "$lo" --plot few/five --report rep <five \
		>out 2>err &&
	! test -s err &&
	grep -c -x "set yrange \[0:\*\]" few/five-hist.gp >n &&
	echo 4 >expect && test_cmp expect n &&
	PATH=/nonexistent "$lo" --plot few/two --report rep <two \
		>out &&
	grep -x "set xrange \[-0.9:1.1\]" few/two-latency.gp &&
	grep -x "set yrange \[0:\*\]" few/two-latency.gp &&
	PATH=/nonexistent "$lo" --plot few/same --report rep <same \
		>out &&
	grep -x "set xrange \[-1:1\]" few/same-latency.gp &&
	grep -x "set yrange \[0:1\]" few/same-latency.gp &&
	grep -c -x "set yrange \[0:1\]" few/same-hist.gp >n &&
	echo 2 >expect && test_cmp expect n
'

test_expect_success GNUPLOT 'few points: gnuplot plots them without a word' '
	for f in five two same; do
		latency-output --plot few/g$f --report rep <$f >out 2>err &&
		test_cmp /dev/null err &&
		test -s few/g$f-hist.png && test -s few/g$f-latency.png ||
		return 1
	done
'

test_done
