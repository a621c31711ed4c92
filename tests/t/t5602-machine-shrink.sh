#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-machine shrink: the plan, blocks, hugetlb, the floor'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-machine.sh"

# zero_high: no high watermarks and no protection in the fake tree (no
# reserve), so that the sizes below stay round.
zero_high() {
	sed -e "s/^\( *high \).*/\10/" \
		-e "s/protection: .*/protection: (0, 0, 0, 0)/" \
		"$FAKE/proc/zoneinfo" >"$FAKE/zoneinfo" &&
	mv "$FAKE/zoneinfo" "$FAKE/proc/zoneinfo"
}

# The 2 GiB machine has 512 MiB in use and a margin of 64 MiB (twice
# min_free_kbytes is 32 MiB, the high watermarks a few MiB), so its floor is
# 576 MiB; --keep=600M makes the target 1112 MiB: 936 MiB to take, 7 blocks
# (896 MiB) and 20 huge pages (40 MiB).

test_expect_success 'dry run: the plan, highest blocks first, odd ones skipped' '
	fake_2g && zero_high &&
	cp -R "$FAKE" before &&
	machine shrink --keep=600M --dry-run >out &&
	cat >expect <<-EOF &&
	floor_bytes=$((576 * MIB))
	goal_bytes=$((1112 * MIB))
	target_bytes=$((1112 * MIB))
	in_use_bytes=$((512 * MIB))
	reserve_bytes=0
	margin_bytes=$((64 * MIB))
	mem_total_before=$((2048 * MIB))
	mem_free_before=$((1536 * MIB))
	min_free_kbytes=16384
	block_bytes=$((128 * MIB))
	blocks_wanted=7
	plan_blocks=memory16,memory15,memory14,memory12,memory11,memory10,memory8
	spare_blocks=memory7,memory6,memory5,memory4,memory3,memory2,memory1
	skipped_blocks=memory0,memory13
	hugepage_bytes=2097152
	hugetlb_pages_planned=20
	EOF
	test_cmp expect out &&
	diff -r before "$FAKE" &&
	! test -e state
'

test_expect_success 'dry run: the workloads get --keep above the high watermarks' '
	fake_2g &&
	sed "s/^\( *high \).*/\112800/" "$FAKE/proc/zoneinfo" >zi &&
	mv zi "$FAKE/proc/zoneinfo" &&
	machine shrink --keep=600M --dry-run >out &&
	# Normal: 12800 pages (50 MiB) under its high watermark; DMA: all
	# its 100 free pages, under high + protection; Movable: none free.
	test "$(value reserve_bytes out)" = $((12900 * 4096)) &&
	test "$(value goal_bytes out)" = $((1112 * MIB + 12900 * 4096)) &&
	# The margin counts every high watermark (three zones of 50 MiB).
	test "$(value margin_bytes out)" = $((150 * MIB)) &&
	test "$(value floor_bytes out)" = $((662 * MIB))
'

test_expect_success 'shrink: free memory under a zone'"'"'s protection is not the workloads'"'"'' '
	fake_2g && zero_high &&
	rm -rf state &&
	# A DMA32-like zone: 20000 pages (78 MiB) free, high 1000, protecting
	# 25000 from higher zones: all locked, as on a big machine.
	awk "/zone +DMA\$/ { z = 1 } z && /pages free/ { \$0 = \"  pages free     20000\" }
	     z && /high/ { \$0 = \"        high     1000\" }
	     z && /protection/ { \$0 = \"        protection: (0, 25000, 25000, 25000)\"; z = 0 }
	     { print }" "$FAKE/proc/zoneinfo" >zi &&
	mv zi "$FAKE/proc/zoneinfo" &&
	fake_pid 4242 1000 &&
	machine begin --owner=4242 &&
	machine shrink --owner=4242 --keep=600M >out &&
	test "$(value reserve_bytes out)" = $((20000 * 4096)) &&
	test "$(value reached out)" = yes &&
	# MemFree keeps the locked 20000 pages on top of --keep.
	test "$(value mem_free_after out)" -ge $((600 * MIB + 20000 * 4096)) &&
	test "$(value mem_free_after out)" -lt $((602 * MIB + 20000 * 4096))
'

test_expect_success 'dry run: a hugetlb pool reserved before is not counted as in use' '
	fake_2g && zero_high &&
	echo 50 >"$FAKE/proc/sys/vm/nr_hugepages" &&
	sed -e "s/^HugePages_Total: .*/HugePages_Total: 50/" \
		-e "s/^MemFree: .*/MemFree: $((1436 * 1024)) kB/" \
		"$FAKE/proc/meminfo" >meminfo && mv meminfo "$FAKE/proc/meminfo" &&
	machine shrink --keep=600M --dry-run >out &&
	test "$(value in_use_bytes out)" = $((512 * MIB)) &&
	test "$(value target_bytes out)" = $((1112 * MIB)) &&
	test "$(value blocks_wanted out)" = 6 &&
	test "$(value hugetlb_pages_planned out)" = 34
'

test_expect_success 'dry run: a small --keep stops at the floor (in use + margin)' '
	fake_2g && zero_high &&
	machine shrink --keep=0 --dry-run >out &&
	test "$(value floor_bytes out)" = $((576 * MIB)) &&
	test "$(value goal_bytes out)" = $((512 * MIB)) &&
	test "$(value target_bytes out)" = $((576 * MIB)) &&
	test "$(value blocks_wanted out)" = 11 &&
	test "$(value plan_blocks out)" = memory16,memory15,memory14,memory12,memory11,memory10,memory8,memory7,memory6,memory5,memory4 &&
	test "$(value spare_blocks out)" = memory3,memory2,memory1 &&
	test "$(value hugetlb_pages_planned out)" = 32
'

test_expect_success 'dry run: the margin is twice min_free_kbytes when that is more' '
	fake_2g && zero_high &&
	echo 65536 >"$FAKE/proc/sys/vm/min_free_kbytes" &&
	machine shrink --keep=0 --dry-run >out &&
	test "$(value margin_bytes out)" = $((128 * MIB)) &&
	test "$(value floor_bytes out)" = $((640 * MIB)) &&
	test "$(value blocks_wanted out)" = 11 &&
	test "$(value hugetlb_pages_planned out)" = 0
'

test_expect_success 'dry run: never below 128 MiB in all' '
	fake_tree 512 500 1024 && zero_high &&
	fake_blocks 0 3 &&
	machine shrink --keep=0 --dry-run >out &&
	test "$(value in_use_bytes out)" = $((12 * MIB)) &&
	test "$(value floor_bytes out)" = $((128 * MIB)) &&
	test "$(value plan_blocks out)" = memory3,memory2,memory1 &&
	test "$(value hugetlb_pages_planned out)" = 0
'

test_expect_success 'shrink: refusing and hanging blocks are given up, the next ones go' '
	fake_2g && zero_high &&
	rm -rf state &&
	printf "memory15\nmemory12\n" >"$FAKE/refuse" &&
	echo memory14 >"$FAKE/hang" &&
	fake_pid 4242 1000 &&
	machine begin --owner=4242 &&
	machine shrink --owner=4242 --keep=600M --timeout=2s -v >out 2>err &&
	cat >expect <<-EOF &&
	floor_bytes=$((576 * MIB))
	goal_bytes=$((1112 * MIB))
	offline_blocks=7
	offline_bytes=$((896 * MIB))
	hugetlb_pages=20
	hugetlb_bytes=$((40 * MIB))
	mem_total_before=$((2048 * MIB))
	mem_total_after=$((1152 * MIB))
	mem_free_after=$((600 * MIB))
	reached=yes
	target_bytes=$((1112 * MIB))
	in_use_bytes=$((512 * MIB))
	reserve_bytes=0
	margin_bytes=$((64 * MIB))
	usable_after=$((1112 * MIB))
	min_free_kbytes_before=16384
	min_free_kbytes_after=16384
	blocks_tried=10
	blocks_refused=2
	blocks_timed_out=1
	offlined=memory16,memory11,memory10,memory8,memory7,memory6,memory5
	hugetlb_released=0
	reserve_after_bytes=0
	workload_free_bytes=$((600 * MIB))
	EOF
	grep -v "_s=" out >got &&
	test_cmp expect got &&
	grep "^latency-machine: memory14 stays online after .*: timed out$" err &&
	grep "^latency-machine: memory15 stays online after .*: Device or resource busy$" err &&
	! kill -0 "$(cat "$FAKE/hang.pid")" 2>/dev/null &&
	for b in 12 14 15; do
		test "$(cat "$FAKE/sys/devices/system/memory/memory$b/state")" = online || return 1
	done &&
	{
		record_head 4242 1000 &&
		for b in 16 11 10 8 7 6 5; do printf "online\tmemory%s\n" $b; done &&
		printf "hugepages\t0\n"
	} >expect &&
	record_body >actual &&
	test_cmp expect actual
'

test_expect_success 'restore after a shrink gives every block and page back' '
	machine restore --owner=4242 2>err &&
	p="latency-machine: restoring run pid 4242" &&
	{
		echo "$p: hugepages 0" &&
		for b in 5 6 7 8 10 11 16; do echo "$p: online memory$b"; done
	} >expect &&
	test_cmp expect err &&
	test "$(meminfo_kb MemTotal)" = $((2048 * 1024)) &&
	test "$(meminfo_kb MemFree)" = $((1536 * 1024)) &&
	test "$(meminfo_kb HugePages_Total)" = 0 &&
	test "$(cat "$FAKE/proc/sys/vm/nr_hugepages")" = 0 &&
	machine show --format=text >out &&
	grep -x "offline_blocks=1" out &&
	! test -e state/state
'

test_expect_success 'shrink again: hugetlb pages given back when in use has grown' '
	fake_2g && zero_high &&
	rm -rf state &&
	fake_pid 4242 1000 &&
	machine begin --owner=4242 &&
	machine shrink --owner=4242 --keep=600M >out &&
	test "$(value hugetlb_pages out)" = 20 &&
	# Something else takes 30 MiB: the same share needs 15 pages back.
	sed "s/^MemFree: .*/MemFree: $(( $(meminfo_kb MemFree) - 30 * 1024 )) kB/" \
		"$FAKE/proc/meminfo" >mi && mv mi "$FAKE/proc/meminfo" &&
	machine shrink --owner=4242 --keep=600M >out &&
	test "$(value hugetlb_released out)" = 15 &&
	test "$(value offline_blocks out)" = 0 &&
	test "$(cat "$FAKE/proc/sys/vm/nr_hugepages")" = 5 &&
	test "$(value reached out)" = yes &&
	# More than all this run reserved: never below the pool it found.
	sed "s/^MemFree: .*/MemFree: $(( $(meminfo_kb MemFree) - 100 * 1024 )) kB/" \
		"$FAKE/proc/meminfo" >mi && mv mi "$FAKE/proc/meminfo" &&
	machine shrink --owner=4242 --keep=600M >out 2>err &&
	test "$(value hugetlb_released out)" = 5 &&
	test "$(cat "$FAKE/proc/sys/vm/nr_hugepages")" = 0 &&
	# Memory freed again: the pool grows again, and the record still
	# holds one hugepages entry, the pool the run found.
	sed "s/^MemFree: .*/MemFree: $(( $(meminfo_kb MemFree) + 130 * 1024 )) kB/" \
		"$FAKE/proc/meminfo" >mi && mv mi "$FAKE/proc/meminfo" &&
	machine shrink --owner=4242 --keep=600M >out 2>err &&
	test "$(value hugetlb_pages out)" = 20 &&
	grep -c "^hugepages" state/state >n &&
	echo 1 >expect && test_cmp expect n &&
	record_body | grep -x "hugepages	0" &&
	machine restore --owner=4242 2>err &&
	test "$(cat "$FAKE/proc/sys/vm/nr_hugepages")" = 0
'

test_expect_success 'hugetlb: fewer pages than asked, then none: not reached, mem= advised' '
	fake_2g && zero_high &&
	rm -rf state &&
	echo 8 >"$FAKE/hugetlb-limit" &&
	fake_pid 4242 1000 &&
	machine begin --owner=4242 &&
	machine shrink --owner=4242 --keep=600M -v >out 2>err &&
	test "$(value offline_blocks out)" = 7 &&
	test "$(value hugetlb_pages out)" = 8 &&
	test "$(value usable_after out)" = $((1136 * MIB)) &&
	test "$(value reached out)" = no &&
	grep "^latency-machine: hugetlb round 1: asked for 20 pages, have 8$" err &&
	grep "^latency-machine: hugetlb round 2: asked for 12 pages, have 0$" err &&
	grep "^latency-machine: could not shrink to 1112 MiB (1136 MiB left usable: 7 blocks offline, 8 hugetlb pages); for this pressure boot with mem=1112M$" err &&
	record_body | tail -n 1 >last &&
	printf "hugepages\t0\n" >expect && test_cmp expect last &&
	machine restore --owner=4242 2>err &&
	test "$(meminfo_kb MemTotal)" = $((2048 * 1024)) &&
	test "$(meminfo_kb HugePages_Total)" = 0
'

test_expect_success 'hugetlb alone where there is no memory hotplug' '
	fake_tree 2048 1536 16384 && zero_high &&
	rm -r "$FAKE/sys/devices/system/memory" &&
	rm -rf state &&
	fake_pid 4242 1000 &&
	machine begin --owner=4242 &&
	machine shrink --owner=4242 --keep=600M >out &&
	test "$(value offline_blocks out)" = 0 &&
	test "$(value hugetlb_pages out)" = 468 &&
	test "$(value usable_after out)" = $((1112 * MIB)) &&
	test "$(value reached out)" = yes &&
	{ record_head 4242 1000 && printf "hugepages\t0\n"; } >expect &&
	record_body >actual &&
	test_cmp expect actual
'

test_expect_success 'memory taken by others while shrinking counts as in use: --keep stays free' '
	fake_2g && zero_high &&
	rm -rf state &&
	echo 100 >"$FAKE/drain" &&
	fake_pid 4242 1000 &&
	machine begin --owner=4242 &&
	machine shrink --owner=4242 --keep=600M -v >out 2>err &&
	# Each block offlined lets something else take 100 MiB: after four,
	# one more would leave less than 600 MiB free.
	test "$(value offlined out)" = memory16,memory15,memory14,memory12 &&
	test "$(value hugetlb_pages out)" = 12 &&
	test "$(value mem_free_after out)" = $((600 * MIB)) &&
	test "$(value reached out)" = yes
'

test_expect_success 'memory taken by others while shrinking: MemFree stays above the margin' '
	fake_2g && zero_high &&
	rm -rf state &&
	echo 100 >"$FAKE/drain" &&
	fake_pid 4242 1000 &&
	machine begin --owner=4242 &&
	machine shrink --owner=4242 --keep=1M -v >out 2>err &&
	test "$(value offlined out)" = memory16,memory15,memory14,memory12,memory11,memory10 &&
	test "$(value hugetlb_pages out)" = 52 &&
	test "$(value mem_free_after out)" = $((64 * MIB))
'

test_expect_success 'SIGTERM during a block: the attempt is stopped and taken back' '
	fake_2g && zero_high &&
	rm -rf state "$FAKE/hang.pid" &&
	echo memory16 >"$FAKE/hang" &&
	fake_pid 4242 1000 &&
	machine begin --owner=4242 &&
	export LATENCY_PROC="$FAKE/proc" LATENCY_SYS="$FAKE/sys" \
		LATENCY_STATE_DIR="$PWD/state" LATENCY_MACHINE_WRITER="$FAKE/writer" &&
	{ latency-machine shrink --owner=4242 --keep=600M --timeout=60s >out 2>err & } &&
	pid=$! &&
	while ! test -s "$FAKE/hang.pid"; do sleep 0.1; done &&
	kill -TERM $pid &&
	test_expect_code 143 wait $pid &&
	! kill -0 "$(cat "$FAKE/hang.pid")" 2>/dev/null &&
	test "$(value offline_blocks out)" = 0 &&
	test "$(value hugetlb_pages out)" = 0 &&
	record_head 4242 1000 >expect &&
	record_body >actual &&
	test_cmp expect actual
'

test_expect_success 'shrink needs a record of its owner, and --keep' '
	fake_2g && zero_high &&
	rm -rf state &&
	test_expect_code 1 machine shrink --owner=4242 --keep=1G 2>err &&
	grep "no record of run pid 4242" err &&
	test_expect_code 2 machine shrink --owner=4242 2>err &&
	grep "shrink needs --keep" err &&
	test_expect_code 2 machine shrink --keep=1G 2>err &&
	grep "owner=PID is required" err &&
	test_expect_code 2 machine shrink --keep=1G --timeout=0 --dry-run 2>err &&
	test_expect_code 2 machine shrink --keep=lots --dry-run 2>err &&
	grep "invalid value .lots. for --keep" err &&
	test_expect_code 2 machine begin --owner=1 --keep=1G 2>err &&
	grep "begin does not take --keep" err
'

test_expect_success 'neither hotplug nor hugetlb: exit 3 with the mem= advice' '
	fake_tree 2048 1536 16384 && zero_high &&
	rm -r "$FAKE/sys/devices/system/memory" "$FAKE/proc/sys/vm/nr_hugepages" &&
	fake_pid 4242 1000 &&
	test_expect_code 3 machine shrink --owner=4242 --keep=600M 2>err &&
	grep "no memory block can go offline and there are no hugetlb pages here; boot with mem=1112M" err
'

# Without the right to write the kernel's files: as root, run as nobody.
if test_have_prereq ROOT; then
	as_user() {
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	}
	fake_2g && zero_high
	as_user test -r "$FAKE/proc/meminfo" && test_set_prereq AS_USER
else
	as_user() {
		"$@"
	}
	test_set_prereq AS_USER
fi

test_expect_success AS_USER 'without the right to write the blocks: exit 3' '
	fake_2g && zero_high &&
	chmod a-w "$FAKE"/sys/devices/system/memory/memory*/state &&
	fake_pid 4242 1000 &&
	test_expect_code 3 as_user env LATENCY_PROC="$FAKE/proc" \
		LATENCY_SYS="$FAKE/sys" LATENCY_STATE_DIR="$PWD/state" \
		"$(command -v latency-machine)" shrink --owner=4242 \
		--keep=600M 2>err &&
	grep "^latency-machine: cannot write .*/memory16/state. (shrink needs root): Permission denied$" err
'

test_done
