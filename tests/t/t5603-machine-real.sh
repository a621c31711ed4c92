#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-machine on this machine: shrink --keep=1G, then restore'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-machine.sh"

# This really shrinks the machine for a few seconds, as a run in global
# mode does; the record is the suite's own (LATENCY_STATE_DIR as the
# driver has it), so a crash here is repaired by the next run's begin, and
# the restore runs however the script ends.
[ "$(id -u)" = 0 ] || test_skip_all 'not root: cannot take memory offline'
blocks=/sys/devices/system/memory
hotplug=
for s in "$blocks"/memory*/state; do
	if ! [ -w "$s" ] || [ "$(cat "$s")" != online ]; then
		continue
	fi
	r=${s%/state}/removable
	if ! [ -f "$r" ] || [ "$(cat "$r")" = 1 ]; then
		hotplug=yes
		break
	fi
done
[ -n "$hotplug" ] || test_skip_all 'no hot-pluggable memory block here'

trap 'latency-machine restore --owner=$$ >/dev/null 2>&1' EXIT
trap 'exit 130' INT TERM HUP

test_expect_success 'begin a record (no other run in progress)' '
	latency-machine begin --owner=$$ &&
	latency-machine show --format=text >before
'

test_expect_success 'shrink --keep=1G takes blocks offline and reserves the rest' '
	latency-machine shrink --owner=$$ --keep=1G >out &&
	latency-machine show --format=text >during &&
	target=$(value target_bytes out) &&
	usable=$(value usable_after out) &&
	block=$(value block_bytes during) &&
	test "$usable" -le $((target + block)) &&
	test "$(value mem_total_bytes during)" = "$(value mem_total_after out)" &&
	test "$(value offline_blocks during)" -eq \
		$(($(value offline_blocks before) + $(value offline_blocks out)))
'
say "shrink: $(tr '\n' ' ' <out 2>/dev/null)"
say "before: $(grep -v ^zone before 2>/dev/null | tr '\n' ' ')"
say "during: $(grep ^zone during 2>/dev/null | tr '\n' ' ')"

test_expect_success 'restore gives MemTotal, the blocks and the hugetlb pool back' '
	latency-machine restore --owner=$$ 2>err &&
	latency-machine show --format=text >after &&
	for k in mem_total_bytes hugepages_total offline_blocks online_blocks; do
		test "$(value $k after)" = "$(value $k before)" ||
			test_fail "$k: $(value $k before) before, $(value $k after) after" ||
			return 1
	done &&
	latency-machine restore --owner=$$ 2>err &&
	grep -x "latency-machine: nothing to restore" err
'

test_done
