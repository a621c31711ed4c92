#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare --format=kcidb: the kernels, their builds, a test per figure'
. "$abs_top_srcdir/tests/t/test-lib.sh"

F=$TEST_DIRECTORY/fixtures/fleet
E=$F/expect

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w .
'

test_expect_success 'two boards of one kernel and a partial run, exactly' '
	latency-compare --format=kcidb board1 board2 partial >out &&
	test_cmp "$E/boards.kcidb" out
'

test_expect_success 'one checkout and one build per kernel, one test per figure' '
	grep -c "\"id\": \"latency_tests:checkout-" out >n &&
	echo 2 >want && test_cmp want n &&
	grep -c "\"id\": \"latency_tests:build-" out >n &&
	test_cmp want n &&
	grep -c "\"path\": \"latency-tests\." out >n &&
	latency-compare --format=lava board1 board2 partial >lava &&
	wc -l <lava | tr -d " " >want && test_cmp want n
'

test_expect_success 'ids are stable: the same tests in any order of the results' '
	latency-compare --format=kcidb partial board2 board1 >swapped &&
	grep "\"id\":" out | sort >ids &&
	grep "\"id\":" swapped | sort >ids2 &&
	test_cmp ids ids2 &&
	sort ids | uniq -d >dups && test ! -s dups
'

test_expect_success 'ids depend on what was measured, not on what this version compares' '
	mkdir more &&
	sed -e "s/\"majflt\": 1000,/\"majflt\": 1, \"some_new_figure\": 7,/" \
		board1/result.json >more/result.json &&
	cp -R board1/sysinfo more/ &&
	cp board1/seqbench.json board1/ringbench.json more/ &&
	! cmp -s board1/result.json more/result.json &&
	latency-compare --format=kcidb board1 >a &&
	latency-compare --format=kcidb more >b &&
	grep "\"id\":" a >ids.a && grep "\"id\":" b >ids.b &&
	test_cmp ids.a ids.b &&
	sed "s/\"elapsed_s\": 10.0,/\"elapsed_s\": 10.25,/" board1/result.json >more/result.json &&
	latency-compare --format=kcidb more >c &&
	grep "\"id\": \"latency_tests:run-" c >ids.c &&
	grep "\"id\": \"latency_tests:run-" a >ids.a2 &&
	! grep -F -x -f ids.a2 ids.c
'

test_expect_success 'the same result twice: its tests are written once' '
	latency-compare --format=kcidb board1 board2 partial board1 >twice 2>err &&
	test_cmp out twice &&
	grep "is a result given before" err
'

test_expect_success '--kcidb-origin names the CI system in every id' '
	latency-compare --format=kcidb --kcidb-origin=lab_7 board1 >lab &&
	! grep "latency_tests" lab &&
	grep -c "\"origin\": \"lab_7\"" lab >n &&
	grep -c "\"id\": \"lab_7:" lab >n2 &&
	test_cmp n n2
'

test_expect_success 'a bad origin is a usage error' '
	test_expect_code 2 latency-compare --format=kcidb --kcidb-origin=Lab board1 2>err &&
	grep "kcidb-origin takes lower case" err &&
	test_expect_code 2 latency-compare --format=kcidb --kcidb-origin= board1 &&
	test_expect_code 2 latency-compare --format=kcidb "--kcidb-origin=a:b" board1
'

test_expect_success 'failures and OOM kills: PASS at zero, FAIL above, MISS when not counted' '
	latency-compare --format=kcidb board1 partial hostile >st &&
	awk "/\"path\": \"latency-tests\.(failures|oom_kills)\"/ { p = \$2; getline; print p, \$2 }" st >got &&
	cat >want <<-\EOF &&
	"latency-tests.failures", "PASS",
	"latency-tests.oom_kills", "PASS",
	"latency-tests.failures", "FAIL",
	"latency-tests.oom_kills", "FAIL",
	"latency-tests.failures", "MISS",
	"latency-tests.oom_kills", "PASS",
	EOF
	test_cmp want got
'

test_done
