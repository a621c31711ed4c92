#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='unbuffered: bytes pass unchanged, nothing lost at exit'
. "$abs_top_srcdir/tests/t/test-lib.sh"

(exec 3<>/dev/ptmx) 2>/dev/null ||
	test_skip_all 'no pseudo-terminals here (/dev/ptmx)'

test_expect_success 'setup: every byte value, line endings, control chars' '
	i=0 &&
	while [ $i -lt 256 ]; do
		printf "\\$(printf %o $i)" || return 1
		i=$((i + 1))
	done >bytes &&
	printf "plain\nCRLF\r\nCR\rCRCRLF\r\r\n\004\003\032\021\023\000end" >>bytes &&
	test $(wc -c <bytes) -eq 289
'

test_expect_success 'every byte passes unchanged (no CR added, none doubled)' '
	unbuffered cat bytes >out &&
	cmp bytes out
'

test_expect_success 'every byte passes unchanged on stderr with --merge' '
	unbuffered --merge sh -c "cat bytes >&2" >out &&
	cmp bytes out
'

test_expect_success 'setup: 10 MiB of random bytes' '
	dd if=/dev/urandom of=big bs=1048576 count=10 2>/dev/null &&
	test $(wc -c <big) -eq 10485760
'

test_expect_success 'nothing lost when the child writes 10 MiB and exits' '
	unbuffered cat big >out &&
	cmp big out
'

test_expect_success 'nothing lost when the child is killed right after' '
	test_expect_code 137 unbuffered sh -c "cat big; kill -KILL \$\$" >out &&
	cmp big out
'

test_expect_success 'nothing lost with --stamp either, every line stamped' '
	seq 1 200000 >expect &&
	unbuffered --stamp seq 1 200000 >out &&
	grep -c "^[0-9][0-9]*\.[0-9]\{9\} [0-9][0-9]*\$" out >count &&
	echo 200000 >expect-count &&
	test_cmp expect-count count &&
	sed "s/^[0-9]*\.[0-9]\{9\} //" out >stripped &&
	test_cmp expect stripped
'

test_done
