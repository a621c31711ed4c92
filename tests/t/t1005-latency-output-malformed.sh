#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-output: bad input is counted, passed through, never fatal (unless --strict)'
. "$abs_top_srcdir/tests/t/test-lib.sh"

test_expect_success 'setup: every kind of bad line, and a 2 MiB one' '
	awk "BEGIN { s = \"x\"; while (length(s) < 2097152) s = s s; print s }" >long &&
	{
		printf "1.0 w\n\n1.2.3 x\n2.0 w\n1.5 w\na\000b\n\001junk\n3.0 w\n" &&
		cat long &&
		printf "4.0 w\n"
	} >in
'

test_expect_success JQ 'each is counted by kind; the good lines make the gaps' '
	latency-output --format json --report rep.json <in >out &&
	test_json rep.json .lines 10 &&
	test_json rep.json .malformed_lines 6 &&
	test_json rep.json .malformed.empty 1 &&
	test_json rep.json .malformed.bad_timestamp 1 &&
	test_json rep.json .malformed.backwards 1 &&
	test_json rep.json .malformed.binary 2 &&
	test_json rep.json .malformed.too_long 1 &&
	test_json rep.json .gaps 3 &&
	test_json rep.json .max_s 1
'

test_expect_success 'nothing is dropped: every line is in the stream, bytes intact' '
	test_line_count = 10 out &&
	sed -n 9p out >line9 &&
	tail -c 2097153 line9 >tail9 &&
	cmp long tail9 &&
	grep -q "^ *[0-9.]* *[0-9.]* *[0-9.]* -- xxxxxxxx" line9 &&
	sed -n "6p" out >line6 &&
	printf " -- a\000b\n" >nul-tail &&
	tail -c 8 line6 >got-tail &&
	cmp nul-tail got-tail &&
	grep -q -- "-- 1.5 w$" out
'

test_expect_success 'the text report names the kinds' '
	latency-output --report rep.txt <in >out &&
	grep "^malformed lines        6 (empty line 1, bad timestamp 1, backwards timestamp 1, binary junk 2, over-long line 1)$" rep.txt
'

test_expect_success '--strict: the first bad line is an error naming its number' '
	test_expect_code 1 latency-output --strict <in >out 2>err &&
	echo "latency-output: line 2: empty line (--strict)" >expect &&
	test_cmp expect err &&
	test_line_count = 1 out &&
	printf "1.0 w\n2.0 w\n1.5 w\n" >back &&
	test_expect_code 1 latency-output --strict <back >out 2>err &&
	echo "latency-output: line 3: backwards timestamp (--strict)" >expect &&
	test_cmp expect err &&
	printf "1.0 w\n" >one && cat long >>one &&
	test_expect_code 1 latency-output --strict <one >out 2>err &&
	echo "latency-output: line 2: over-long line (--strict)" >expect &&
	test_cmp expect err &&
	test_expect_code 1 latency-output --strict --from back 2>err &&
	echo "latency-output: '\''back'\'': line 3: backwards timestamp (--strict)" >expect &&
	test_cmp expect err
'

test_expect_success '--strict passes good input' '
	printf "1.0 w\n2.0 w\n" >good &&
	latency-output --strict <good >out 2>err &&
	test_line_count = 2 out
'

test_expect_success JQ 'timestamps beyond 2^63 ns or the epoch column are bad' '
	printf "10.0 a\n9223372036.854775808 b\n9999999999.999999999 c\n" >huge &&
	printf "9223372036.854775807 d\n7600000000.5 e\n11.0 f\n" >>huge &&
	latency-output --epoch-offset 1700000000 --format json \
		--report huge.json <huge >huge.out &&
	test_json huge.json .malformed.bad_timestamp 4 &&
	test_json huge.json .gaps 1 &&
	test_json huge.json .max_s 1 &&
	sed -n "s/^ *\([^ ]*\) .*/\1/p" huge.out >epochs &&
	test_line_count = 6 epochs &&
	! grep -v "^17[0-9]\{8\}\.[0-9]\{4\}$" epochs &&
	sed -n "1p;6p" huge.out >ends &&
	cat >expect <<-\EOF &&
	 1700000010.0000   0.0000     0.0000 -- 10.0 a
	 1700000011.0000   1.0000     1.0000 -- 11.0 f
	EOF
	test_cmp expect ends
'

test_expect_success '--strict: a timestamp beyond 2^63 ns is an error' '
	printf "1.0 w\n9999999999.0 w\n" >big &&
	test_expect_code 1 latency-output --strict <big >out 2>err &&
	echo "latency-output: line 2: bad timestamp (--strict)" >expect &&
	test_cmp expect err
'

test_expect_success JQ 'binary junk of every byte value never crashes it' '
	awk "BEGIN { for (i = 0; i < 20000; i++) printf \"%c\", (i * 131 + int(i / 256)) % 256 }" >junk &&
	latency-output --format json --report rep.json <junk >out &&
	test_json rep.json ".malformed_lines > 0" true &&
	latency-output --from junk --format json --report rep2.json &&
	test_json rep2.json ".malformed_lines > 0" true
'

test_done
