#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='lava/run-local.sh: what it refuses before it installs, downloads or boots anything'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# The job itself (lava-run, a TCG guest, about six minutes) is not run by
# make check: lava/run-local.sh OUTDIR runs it for real.
run_local=$abs_top_srcdir/lava/run-local.sh

test_expect_success 'one OUTDIR, no more, no less: usage error' '
	test_expect_code 2 "$run_local" 2>err &&
	grep "one OUTDIR expected" err &&
	grep "^Usage: run-local.sh OUTDIR$" err &&
	test_expect_code 2 "$run_local" a b 2>err &&
	grep "one OUTDIR expected" err
'

test_expect_success 'bad tunables are usage errors' '
	test_expect_code 2 env LATENCY_LAVA_MEMORY=1G "$run_local" out 2>err &&
	grep "LATENCY_LAVA_MEMORY must be a positive number, not .1G." err &&
	test_expect_code 2 env LATENCY_LAVA_TIMEOUT=0 "$run_local" out 2>err &&
	grep "LATENCY_LAVA_TIMEOUT must be a positive number" err &&
	test ! -e out
'

test_expect_success ROOT 'a directory that is not empty is refused' '
	mkdir full && echo x >full/lava.log &&
	test_expect_code 2 "$run_local" full 2>err &&
	grep "is not empty: give a new directory" err &&
	echo x >want && test_cmp want full/lava.log
'

test_expect_success ROOT 'a directory a job file cannot name is refused' '
	test_expect_code 2 "$run_local" "a b" 2>err &&
	grep "has characters a job file cannot hold" err &&
	test ! -e "a b"
'

test_done
