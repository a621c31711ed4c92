#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: each format, exactly, on the fixtures'
. "$abs_top_srcdir/tests/t/test-lib.sh"

F=$TEST_DIRECTORY/fixtures/compare
E=$F/expect

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w .
'

test_expect_success '2009 one-line form' '
	latency-compare --format=2009 base slow same onerun >out &&
	test_cmp "$E/2009.out" out
'

test_expect_success 'the 2009 headline of 692.258 s is 11:32.258' '
	latency-compare --format=2009 onerun >out &&
	echo "2.6.33 Elapsed:11:32.258(stddev:-) Failures:1" >want &&
	test_cmp want out
'

test_expect_success 'text table is the default, partial results marked' '
	latency-compare base slow same onerun partial >out &&
	test_cmp "$E/text.out" out &&
	latency-compare --format=text base slow same onerun partial >out2 &&
	test_cmp out out2
'

test_expect_success 'markdown tables' '
	latency-compare --format=markdown base slow same >out &&
	test_cmp "$E/markdown.out" out
'

test_expect_success 'csv' '
	latency-compare --format=csv base slow same >out &&
	test_cmp "$E/csv.out" out
'

test_expect_success JQ 'json: the header of doc/design.md, contract 4, then the rows' '
	latency-compare --format=json base slow sb-base.json >out &&
	test_json out .format_version 1 &&
	test_json out .program latency-compare &&
	test_json out .command_line "latency-compare --format=json base slow sb-base.json" &&
	sed "/\"format_version\"/,/\"end_time\"/d" out >rows &&
	test_cmp "$E/json.out" rows
'

test_expect_success '-o writes the report to a file' '
	latency-compare -o report.txt --format=2009 base slow same onerun >out &&
	! test -s out &&
	test_cmp "$E/2009.out" report.txt
'

test_expect_success 'a result.json file and its directory read the same' '
	latency-compare --format=csv base/result.json slow/result.json >a &&
	latency-compare --format=csv base slow >b &&
	test_cmp a b
'

test_done
