#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='run-test.sh --confine=global: the machine shrunk by ratio and given back (on a fake kernel)'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-run-test.sh"
. "$abs_top_srcdir/tests/t/lib-machine.sh"

rt=$abs_top_srcdir/run-test.sh
LATENCY_STATE_DIR=$TRASH_DIRECTORY/state
export LATENCY_STATE_DIR

# An 8 GiB machine with 392 MiB in use and 63 hot-pluggable blocks: the
# driver's global mode goes through latency-machine to this fake kernel.
LATENCY_PROC=$FAKE/proc LATENCY_SYS=$FAKE/sys
LATENCY_MACHINE_WRITER=$FAKE/writer
export LATENCY_PROC LATENCY_SYS LATENCY_MACHINE_WRITER

test_expect_success 'a fake 8 GiB machine' '
	fake_tree 8192 7800 67584 &&
	fake_blocks 1 63 &&
	meminfo_kb MemTotal >total-before
'

test_expect_success ROOT,JQ 'global pressure: blocks offline for the run, all back after it' '
	test -s "$FAKE/proc/meminfo" &&
	# The fake kernel knows the driver (its pid and start time: exec
	# keeps both), so that the record has an owner.
	# shellcheck disable=SC2016
	sh -c '"'"'mkdir -p "$1/$$" && cp /proc/$$/stat "$1/$$/stat" &&
		shift && exec "$@"'"'"' sh "$FAKE/proc" \
		"$rt" --label=gl --commits=300 --gitk-runs=1 --warmup=0 --no-drop-caches \
		--confine=global --pressure=2 --swap=none \
		--music-args="--songs=1 --song-size=64k" --results=res >out 2>err &&
	json_get res/gl/result.json "[.pressure.mode, .pressure.ratio, .pressure.why,
		(.pressure.shrink.offline_blocks > 0),
		.pressure.machine_before.mem_total_bytes,
		.pressure.machine_after.mem_total_bytes] | map(tostring) | join(\" \")" >got &&
	echo "global 2 --confine=global true 8589934592 8589934592" >expect &&
	test_cmp expect got &&
	grep -q "^offline_blocks=[1-9][0-9]*$" res/gl/shrink.txt &&
	test_json res/gl/result.json ".pressure.machine_confined.mem_total_bytes < 8589934592" true &&
	meminfo_kb MemTotal >total-after &&
	test_cmp total-before total-after &&
	! grep -l offline "$FAKE"/sys/devices/system/memory/memory*/state &&
	! test -e state/state
'

test_expect_success 'global pressure needs root: exit 3 unless allowed' '
	if ! test_have_prereq ROOT; then
		test_expect_code 3 "$rt" --label=nr --commits=300 --confine=global \
			--results=res >out 2>err &&
		grep -x "run-test.sh: cannot confine the run (global memory pressure): not root: cannot take memory offline (--allow-unconfined goes on without)" err
	fi
'

test_done
