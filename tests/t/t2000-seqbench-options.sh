#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016,SC2034,SC1094,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh defines the rest)
test_description='seqbench: bad options and unusable targets are refused before any IO'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# A usage error: status 2, one "seqbench: ..." line, the Try line, no output.
usage_fails() {
	test_expect_code 2 seqbench "$@" >out 2>err &&
	! test -s out &&
	test_line_count -eq 2 err &&
	grep -q '^seqbench: ' err &&
	grep -q "^Try 'seqbench --help' for more information.$" err
}

test_expect_success 'zero size' 'usage_fails -s 0 -d .'
test_expect_success 'absurd size' 'usage_fails -s 2P -d .'
test_expect_success 'non-numeric size' 'usage_fails -s lots -d .'
test_expect_success 'non-numeric threads' 'usage_fails -t two -d .'
test_expect_success 'zero threads' 'usage_fails -t 0 -d .'
test_expect_success 'zero block' 'usage_fails -b 0 -d .'
test_expect_success 'zero random ops' 'usage_fails -r 0 -d .'
test_expect_success 'zero numruns' 'usage_fails -n 0 -d .'
test_expect_success 'bad duration' 'usage_fails --time soon -d .'
test_expect_success 'bad format' 'usage_fails --format xml -d .'
test_expect_success 'stray argument' 'usage_fails -d . extra'

test_expect_success 'block larger than the file of each thread' '
	usage_fails -s 64k -t 2 -b 64k -d . &&
	grep -q "block 64k is larger than the file of each thread" err
'

test_expect_success 'O_DIRECT needs 512-byte multiples' '
	usage_fails --direct -b 1000 -s 1M -d . &&
	grep -q "multiple of 512" err
'

test_expect_success '--nofrag and --time do not mix' '
	usage_fails --nofrag --time 1s -s 1M -d .
'

test_expect_success '--yes-destroy without a block device' '
	usage_fails --yes-destroy /dev/null -s 1M -d .
'

test_expect_success 'missing directory: status 1, says why' '
	test_expect_code 1 seqbench -s 64k -t 1 -d ./nowhere >out 2>err &&
	! test -s out &&
	test "$(cat err)" = "seqbench: cannot use '"'"'./nowhere'"'"': No such file or directory"
'

test_expect_success 'a file is not a target' '
	: >plain &&
	test_expect_code 1 seqbench -s 64k -t 1 -d plain >out 2>err &&
	grep -q "neither a directory nor a block device" err
'

# As root a read-only mount, otherwise a directory without write permission.
test_expect_success 'read-only directory: status 1, says why' '
	mkdir ro &&
	if test_have_prereq ROOT; then
		mount -t tmpfs -o ro,size=1m seqbench-ro ro &&
		why="Read-only file system" &&
		{
			seqbench -s 64k -t 1 -d ro >out 2>err
			echo $? >status
			umount ro
		}
	else
		chmod 555 ro &&
		why="Permission denied" &&
		{ seqbench -s 64k -t 1 -d ro >out 2>err; echo $? >status; }
	fi &&
	echo 1 >expect && test_cmp expect status &&
	grep -q "^seqbench: cannot write in .ro.: $why$" err
'

test_expect_success '--drop-caches works as root, else exits 3 before any IO' '
	if test_have_prereq ROOT; then
		seqbench --drop-caches -s 64k -t 1 -r 1 -d . --format terse \
			>out 2>err &&
		test_line_count -eq 5 out
	else
		test_expect_code 3 seqbench --drop-caches -s 64k -t 1 -d . \
			>out 2>err &&
		grep -q "needs root" err
	fi
'

test_expect_success 'nothing was left behind' '
	ls >files &&
	! grep -q "^seqbench\." files
'

test_done
