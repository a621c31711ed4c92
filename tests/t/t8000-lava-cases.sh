#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare --format=lava: a lava-test-case line per figure, exactly'
. "$abs_top_srcdir/tests/t/test-lib.sh"

F=$TEST_DIRECTORY/fixtures/fleet
E=$F/expect

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w .
'

test_expect_success 'one result: every figure under its bare name' '
	latency-compare --format=lava board1 >out &&
	test_cmp "$E/board1.lava" out
'

test_expect_success 'the same lines into a file with -o' '
	latency-compare --format=lava -o file board1 &&
	test_cmp "$E/board1.lava" file
'

test_expect_success 'without elapsed_per_user_mean: no such case, the rest as before' '
	sed "/elapsed_per_user/d" board1/result.json >nopu.json &&
	mkdir nopu && mv nopu.json nopu/result.json &&
	cp board1/seqbench.json board1/ringbench.json nopu/ &&
	latency-compare --format=lava nopu >out &&
	grep -v "^lava-test-case elapsed_per_user_mean " "$E/board1.lava" >want &&
	test_cmp want out
'

test_expect_success 'a partial run with failures: complete and the counts fail' '
	latency-compare --format=lava partial >out &&
	cat >want <<-\EOF &&
	lava-test-case complete --result fail
	lava-test-case elapsed_mean --result pass --measurement 42.25 --units s
	lava-test-case failures --result fail --measurement 3
	lava-test-case oom_kills --result fail --measurement 1
	lava-test-case fake-gitk.p99_gap --result pass --measurement 2.5 --units s
	lava-test-case fake-gitk.max_gap --result pass --measurement 8.75 --units s
	lava-test-case fake-gitk.stall_count --result pass --measurement 4
	lava-test-case fake-gitk.stall_time --result pass --measurement 15.5 --units s
	lava-test-case fake-music.p99_gap --result pass --measurement 1.5 --units s
	lava-test-case fake-music.max_gap --result pass --measurement 3 --units s
	lava-test-case fake-music.stall_count --result pass --measurement 2
	lava-test-case fake-music.stall_time --result pass --measurement 4 --units s
	EOF
	test_cmp want out
'

test_expect_success 'two results of one label, and two labels: names prefixed' '
	latency-compare --format=lava board1 board2 partial >out &&
	test_cmp "$E/labels.lava" out
'

test_expect_success 'a hostile result: sanitized, unique names of 100 bytes at most' '
	latency-compare --format=lava hostile >out &&
	test_cmp "$E/hostile.lava" out &&
	latency-compare --format=lava hostile partial board1 >all &&
	! grep -v "^lava-test-case [A-Za-z0-9_][A-Za-z0-9._-]* --result \(pass\|fail\|unknown\)\( --measurement [0-9][0-9.]*\)\?\( --units [A-Za-z/%]*\)\?$" all &&
	cut -d" " -f2 all >names &&
	sort names | uniq -d >dups &&
	test ! -s dups &&
	! grep ".\{101\}" names &&
	grep -c "^a_b_touch_pwned_id_31m_\." names >count &&
	echo 19 >want && test_cmp want count
'

test_done
