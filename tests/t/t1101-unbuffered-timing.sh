#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='unbuffered: a stdio child shows its real timing; --stamp'
. "$abs_top_srcdir/tests/t/test-lib.sh"

(exec 3<>/dev/ptmx) 2>/dev/null ||
	test_skip_all 'no pseudo-terminals here (/dev/ptmx)'

# stdio-lines prints "line <i> <written>" every 0.5 s and never flushes.
# Structural checks, not timing ones: through a pipe stdio holds every line
# until exit, so even the first arrives after the last was written; through
# unbuffered each line arrives before the next one is even written.

# check_held FILE: all lines arrived together, after the last was written.
check_held() {
	awk '{ arr[NR] = $1; w[NR] = $4 }
	END {
		if (NR != 3) { print "want 3 lines, got " NR; exit 1 }
		for (i = 1; i <= NR; i++) {
			if (arr[i] < w[NR]) { print "line " i " early"; exit 1 }
			if (arr[i] - arr[1] > 0.25) { print "line " i " apart"; exit 1 }
		}
	}' "$1"
}

# check_live FILE: each line arrived before the next was written, and
# consecutive lines arrived at least half the interval apart.
check_live() {
	awk '{ arr[NR] = $1; w[NR] = $4 }
	END {
		if (NR != 3) { print "want 3 lines, got " NR; exit 1 }
		for (i = 1; i < NR; i++) {
			if (arr[i] >= w[i + 1]) { print "line " i " held back"; exit 1 }
			if (arr[i + 1] - arr[i] < 0.25) { print "no gap after " i; exit 1 }
		}
	}' "$1"
}

test_expect_success 'through a plain pipe, stdio holds every line to the end' '
	stdio-lines 3 500 | unbuffered --stamp cat >out &&
	check_held out
'

test_expect_success 'through unbuffered, each line arrives when written' '
	unbuffered --stamp stdio-lines 3 500 >out &&
	check_live out
'

test_expect_success '--stamp lines are "<s>.<9 digits> " and the line' '
	unbuffered --stamp stdio-lines 3 0 >out &&
	grep -c "^[0-9][0-9]*\.[0-9]\{9\} line [1-3] [0-9][0-9]*\.[0-9]\{9\}\$" out >count &&
	echo 3 >expect &&
	test_cmp expect count
'

test_expect_success '--stamp: LF, CR LF and CR end lines; bytes kept' '
	printf "a\nb\r\nc\rd" >in &&
	unbuffered --stamp cat in >out &&
	sed "s/[0-9]*\.[0-9]\{9\} //g" out >stripped &&
	cmp in stripped &&
	tr "\r" "\n" <out | grep -c "^[0-9]*\.[0-9]\{9\} [a-d]\$" >count &&
	echo 4 >expect &&
	test_cmp expect count
'

test_expect_success '--stamp with --merge stamps stderr lines too' '
	unbuffered --stamp --merge sh -c "echo out; echo err >&2" >out 2>err &&
	sed "s/^[0-9]*\.[0-9]\{9\} //" out >stripped &&
	printf "out\nerr\n" >expect &&
	test_cmp expect stripped &&
	! test -s err
'

test_done
