#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare --fail-if-slower: git bisect run exit codes'
. "$abs_top_srcdir/tests/t/test-lib.sh"

F=$TEST_DIRECTORY/fixtures/compare

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w .
'

# slow is 93.75% slower than base, p = 0.0019.
test_expect_success 'significantly slower by more than PCT: exit 1' '
	test_expect_code 1 latency-compare --fail-if-slower=10 base slow \
		>out 2>err &&
	test -s out &&
	grep -q "^latency-compare: 2.6.32-rc6 is +93.75% against 2.6.31-base (p = 0.00192): slower$" err
'

test_expect_success 'slower, but by less than PCT: exit 0' '
	test_expect_code 0 latency-compare --fail-if-slower=100 base slow \
		>out 2>err &&
	grep -q "not slower$" err
'

test_expect_success 'not significant: exit 0' '
	test_expect_code 0 latency-compare --fail-if-slower=0 base same \
		>out 2>err &&
	grep -q "+1.39% against 2.6.31-base (p = 0.9062): not slower$" err
'

test_expect_success 'faster: exit 0' '
	test_expect_code 0 latency-compare --fail-if-slower=5 slow base >out
'

test_expect_success 'only the last result is judged' '
	test_expect_code 0 latency-compare --fail-if-slower=5 base slow same \
		>out 2>err &&
	test_expect_code 1 latency-compare --fail-if-slower=5 base same slow \
		>out 2>err
'

test_expect_success 'a partial result anywhere: exit 125' '
	test_expect_code 125 latency-compare --fail-if-slower=10 base partial \
		>out 2>err &&
	grep -q "^latency-compare: .partial. is a partial result: cannot judge$" err &&
	test_expect_code 125 latency-compare --fail-if-slower=10 partial slow \
		>out 2>err
'

test_expect_success 'too few runs to test: exit 125' '
	test_expect_code 125 latency-compare --fail-if-slower=10 base onerun \
		>out 2>err &&
	grep -q "need at least 2 runs each" err
'

test_expect_success 'a lower --alpha makes the same change untested: exit 0' '
	test_expect_code 0 latency-compare --alpha=0.001 --fail-if-slower=10 \
		base slow >out 2>err
'

test_expect_success 'bad input is exit 1, bad usage exit 2' '
	test_expect_code 1 latency-compare --fail-if-slower=10 base nodir \
		>out 2>err &&
	test_expect_code 2 latency-compare --fail-if-slower=10 base \
		>out 2>err &&
	grep -q "needs a baseline and a result to judge" err &&
	test_expect_code 2 latency-compare --fail-if-slower=-1 base slow \
		>out 2>err &&
	test_expect_code 2 latency-compare --fail-if-slower=x base slow \
		>out 2>err
'

test_done
