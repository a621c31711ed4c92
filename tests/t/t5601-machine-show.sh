#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-machine show: the kernel'\''s view of memory'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-machine.sh"

page=$(getconf PAGESIZE)

test_expect_success 'text: meminfo, blocks and every zone of the fake tree' '
	fake_2g &&
	machine show --format=text >out &&
	cat >expect <<-EOF &&
	mem_total_bytes=2147483648
	mem_free_bytes=1610612736
	mem_available_bytes=1610612736
	min_free_kbytes=16384
	hugepages_total=0
	hugepage_bytes=2097152
	offline_blocks=1
	online_blocks=16
	block_bytes=134217728
	page_bytes=$page
	zone=0/DMA managed_pages=3840 free_pages=100 min=5 low=6 high=7
	zone=0/Normal managed_pages=520000 free_pages=393216 min=300 low=400 high=500
	zone=0/Movable managed_pages=0 free_pages=0 min=0 low=0 high=0
	EOF
	test_cmp expect out
'

test_expect_success JQ 'json: one object with the header and the same figures' '
	fake_2g &&
	machine show >out.json &&
	json_get out.json "[.format_version, .program, .mem_total_bytes, .mem_free_bytes,
		.mem_available_bytes, .min_free_kbytes, .hugepages_total,
		.hugepage_bytes, .offline_blocks, .block_bytes] | @csv" >got &&
	echo "1,\"latency-machine\",2147483648,1610612736,1610612736,16384,0,2097152,1,134217728" >expect &&
	test_cmp expect got &&
	json_get out.json ".zones[] | [.node, .zone, .managed_pages, .free_pages, .min,
		.low, .high] | @csv" >got &&
	cat >expect <<-EOF &&
	0,"DMA",3840,100,5,6,7
	0,"Normal",520000,393216,300,400,500
	0,"Movable",0,0,0,0,0
	EOF
	test_cmp expect got
'

test_expect_success 'a kernel without memory hotplug has no blocks' '
	fake_tree 1024 512 8192 &&
	rm -r "$FAKE/sys/devices/system/memory" &&
	machine show --format=text >out &&
	grep -x "offline_blocks=0" out &&
	grep -x "online_blocks=0" out &&
	grep -x "block_bytes=0" out
'

test_expect_success 'a tree without meminfo is an error' '
	fake_tree 1024 512 8192 &&
	rm "$FAKE/proc/meminfo" &&
	test_expect_code 1 machine show >out 2>err &&
	grep "^latency-machine: cannot read .*/meminfo: No such file or directory$" err
'

test_expect_success 'show takes json or text only, and no other option' '
	test_expect_code 2 latency-machine show --format=csv 2>err &&
	grep "invalid value .csv. for --format" err &&
	test_expect_code 2 latency-machine show --owner=1 2>err &&
	grep "show does not take --owner" err &&
	test_expect_code 2 latency-machine show extra 2>err &&
	grep "unexpected argument .extra." err &&
	test_expect_code 2 latency-machine 2>err &&
	grep "no command given" err &&
	test_expect_code 2 latency-machine frobnicate 2>err &&
	grep "unknown command .frobnicate." err
'

test_expect_success JQ 'this machine: MemTotal and at least one zone' '
	latency-machine show >out.json &&
	test_json out.json ".mem_total_bytes > 0 and (.zones | length) > 0" true
'

test_done
