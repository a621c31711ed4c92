#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-output: the stream layout, line ends, --decimals, --start'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# Timestamped input, so every column is known; the epoch offset is fixed.
test_expect_success 'known input gives the exact mmtests layout' '
	printf "%s\n" "100.000000000 w i=1" "100.001000000 w i=2" \
		"100.5 w i=3" "102.50005 w i=4" "103.0 w i=5" >in &&
	latency-output --epoch-offset 1700000000 <in >out 2>err &&
	cat >expect <<-\EOT &&
	 1700000100.0000   0.0000     0.0000 -- 100.000000000 w i=1
	 1700000100.0010   0.0010     0.0010 -- 100.001000000 w i=2
	 1700000100.5000   0.5000     0.4990 -- 100.5 w i=3
	 1700000102.5001   2.5001     2.0001 -- 102.50005 w i=4
	 1700000103.0000   3.0000     0.5000 -- 103.0 w i=5
	EOT
	test_cmp expect out &&
	grep "^lines  *5$" err
'

test_expect_success 'columns are 16, 8 and 10 wide as in perl %16.4f %8.4f %10.4f' '
	awk "{ print length(\$1 \" \"), length(\$2), length(\$3) }" out >widths &&
	sed -n "s/^\( *[^ ]*\) \( *[^ ]*\) \( *[^ ]*\) -- .*/\1|\2|\3/p" out |
		awk -F"|" "{ print length(\$1), length(\$2), length(\$3) }" >w &&
	printf "16 8 10\n16 8 10\n16 8 10\n16 8 10\n16 8 10\n" >expect-w &&
	test_cmp expect-w w
'

test_expect_success JQ 'CR ends a line, CR LF is one line end, last line needs none' '
	printf "100.0 a\r100.25 b\r\n100.5 c\n\n100.75 d" >in &&
	latency-output --epoch-offset 0 --format json <in >out 2>err &&
	cat >expect <<-\EOT &&
	        100.0000   0.0000     0.0000 -- 100.0 a
	        100.2500   0.2500     0.2500 -- 100.25 b
	        100.5000   0.5000     0.2500 -- 100.5 c
	EOT
	head -n 3 out >first &&
	test_cmp expect first &&
	tail -n 1 out >last &&
	echo "        100.7500   0.7500     0.2500 -- 100.75 d" >expect-last &&
	test_cmp expect-last last &&
	test_line_count = 5 out &&
	test_json err .lines 5 &&
	test_json err .malformed.empty 1 &&
	test_json err .gaps 3
'

test_expect_success '--decimals widens every column' '
	printf "%s\n" "100.000000001 w" "100.000001501 w" >in &&
	latency-output --epoch-offset 1700000000 --decimals 9 <in >out 2>err &&
	cat >expect <<-\EOT &&
	 1700000100.000000001   0.000000000     0.000000000 -- 100.000000001 w
	 1700000100.000001501   0.000001500     0.000001500 -- 100.000001501 w
	EOT
	test_cmp expect out &&
	latency-output --epoch-offset 1700000000 --decimals 0 <in >out0 2>err &&
	cat >expect0 <<-\EOT &&
	  1700000100    0      0 -- 100.000000001 w
	  1700000100    0      0 -- 100.000001501 w
	EOT
	test_cmp expect0 out0
'

test_expect_success JQ '--start: seconds into test and the first gap count from it' '
	printf "%s\n" "100.0 w" "101.0 w" >in &&
	latency-output --epoch-offset 0 --start 99.5 --format json <in >out 2>err &&
	cat >expect <<-\EOT &&
	        100.0000   0.5000     0.5000 -- 100.0 w
	        101.0000   1.5000     1.0000 -- 101.0 w
	EOT
	test_cmp expect out &&
	test_json err .gaps 2 &&
	test_json err .max_s 1
'

test_expect_success 'lines without a timestamp are stamped on arrival' '
	printf "%s\n" "starting" "3 files copied" >in &&
	latency-output <in >out 2>err &&
	test_line_count = 2 out &&
	grep -E "^ *[0-9]+\.[0-9]{4}   0\.0000     0\.0000 -- starting$" out &&
	grep -E "^ *[0-9]+\.[0-9]{4} +[0-9]+\.[0-9]{4} +[0-9]+\.[0-9]{4} -- 3 files copied$" out &&
	grep "^malformed lines  *0$" err
'

test_expect_success 'stdout carries only the stream; --report takes the report' '
	printf "%s\n" "1.0 w" "2.0 w" >in &&
	latency-output --epoch-offset 0 --report rep <in >out 2>err &&
	test_line_count = 2 out &&
	! test -s err &&
	grep "^latency-output report (stdin)$" rep &&
	ls >files &&
	! grep "tmp" files
'

test_expect_success 'bad option values are usage errors' '
	test_expect_code 2 latency-output --decimals 10 </dev/null &&
	test_expect_code 2 latency-output --start abc </dev/null &&
	test_expect_code 2 latency-output --start -1.0 </dev/null &&
	test_expect_code 2 latency-output --stall 1x </dev/null &&
	test_expect_code 2 latency-output --by "a b" </dev/null &&
	test_expect_code 2 latency-output --format xml </dev/null &&
	test_expect_code 2 latency-output extra </dev/null
'

test_expect_success 'a stream write error exits 1' '
	printf "%s\n" "1.0 w" >in &&
	test_expect_code 1 latency-output <in >/dev/full 2>err &&
	grep "^latency-output: write error: No space left on device" err
'

test_done
