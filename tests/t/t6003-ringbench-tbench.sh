#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016,SC2034,SC1091,SC1094,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh defines the rest)
test_description='ringbench tbench: dbench tbench wrapped, exit 3 when absent'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-ringbench.sh"

command -v tbench >/dev/null 2>&1 && command -v tbench_srv >/dev/null 2>&1 &&
	test_set_prereq TBENCH

test_expect_success 'tbench not in PATH: exit 3 with the reason' '
	mkdir empty &&
	rb=$(command -v ringbench) &&
	test_expect_code 3 env PATH="$PWD/empty" "$rb" tbench -d 1 >out 2>err &&
	! test -s out &&
	echo "ringbench: tbench mode needs dbench'"'"'s '"'"'tbench'"'"' in PATH (Debian package dbench): not found" >expect &&
	test_cmp expect err
'

test_expect_success 'tbench_srv alone missing: named' '
	mkdir half &&
	printf "#!/bin/sh\nexit 0\n" >half/tbench &&
	chmod +x half/tbench &&
	rb=$(command -v ringbench) &&
	test_expect_code 3 env PATH="$PWD/half" "$rb" tbench -d 1 2>err &&
	grep -q "needs dbench'"'"'s '"'"'tbench_srv'"'"' in PATH" err
'

test_expect_success TBENCH,JQ 'tbench for real: throughput and operations parsed' '
	ringbench tbench -d 2 --progress 1 --format json -o out.json >progress &&
	json_get out.json ".mode, .partial, .runs[0].complete" >got &&
	printf "tbench\nfalse\ntrue\n" >expect &&
	test_cmp expect got &&
	test "$(json_get out.json ".runs[0].transactions > 0 and .runs[0].mb_per_s > 0 and .max_us > 0 and .us_per_cycle > 0")" = true &&
	grep -q "^[0-9]*\.[0-9]\{9\} ringbench mode=tbench sec=1 mb_per_s=[0-9.]* latency_ms=[0-9.]*$" progress
'

test_done
