#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare --format=kcidb: the kernels, their builds, a test per figure'
. "$abs_top_srcdir/tests/t/test-lib.sh"

F=$TEST_DIRECTORY/fixtures/fleet
E=$F/expect
# jq: every id of a KCIDB document, one a line.
ids='(.checkouts[], .builds[], .tests[]) | .id'

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w .
'

test_expect_success 'two boards of one kernel and a partial run, exactly' '
	latency-compare --format=kcidb board1 board2 partial >out &&
	test_cmp "$E/boards.kcidb" out
'

test_expect_success JQ 'one checkout and one build per kernel, one test per figure' '
	test_json out "[.checkouts[].id | startswith(\"latency_tests:checkout-\")] |
		tojson" "[true,true]" &&
	test_json out "[.builds[].id | startswith(\"latency_tests:build-\")] |
		tojson" "[true,true]" &&
	json_get out "[.tests[].path | select(startswith(\"latency-tests.\"))] |
		length" >n &&
	latency-compare --format=lava board1 board2 partial >lava &&
	wc -l <lava | tr -d " " >want && test_cmp want n
'

test_expect_success JQ 'ids are stable: the same tests in any order of the results' '
	latency-compare --format=kcidb partial board2 board1 >swapped &&
	json_get out "$ids" | sort >ids &&
	json_get swapped "$ids" | sort >ids2 &&
	test_cmp ids ids2 &&
	sort ids | uniq -d >dups && test ! -s dups
'

test_expect_success JQ 'ids depend on what was measured, not on what this version compares' '
	mkdir more &&
	sed -e "s/\"majflt\": 1000,/\"majflt\": 1, \"some_new_figure\": 7,/" \
		board1/result.json >more/result.json &&
	cp -R board1/sysinfo more/ &&
	cp board1/seqbench.json board1/ringbench.json more/ &&
	! cmp -s board1/result.json more/result.json &&
	latency-compare --format=kcidb board1 >a &&
	latency-compare --format=kcidb more >b &&
	json_get a "$ids" >ids.a && json_get b "$ids" >ids.b &&
	test_cmp ids.a ids.b &&
	sed "s/\"elapsed_s\": 10.0,/\"elapsed_s\": 10.25,/" board1/result.json >more/result.json &&
	latency-compare --format=kcidb more >c &&
	json_get c ".tests[].id | select(startswith(\"latency_tests:run-\"))" \
		>ids.c &&
	json_get a ".tests[].id | select(startswith(\"latency_tests:run-\"))" \
		>ids.a2 &&
	! grep -F -x -f ids.a2 ids.c
'

test_expect_success 'the same result twice: its tests are written once' '
	latency-compare --format=kcidb board1 board2 partial board1 >twice 2>err &&
	test_cmp out twice &&
	grep "is a result given before" err
'

test_expect_success JQ '--kcidb-origin names the CI system in every id' '
	latency-compare --format=kcidb --kcidb-origin=lab_7 board1 >lab &&
	! grep "latency_tests" lab &&
	test_json lab "[(.checkouts[], .builds[], .tests[]) |
		.origin == \"lab_7\" and (.id | startswith(\"lab_7:\"))] | all" \
		true
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
