#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lib.sh idiom: test bodies are single-quoted and evaluated later, and
# the harness sets abs_top_srcdir and reads test_description.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-vmstat --snapshot: exact counters from fake /proc and cgroup trees, nulls, strict numbers, a real snapshot'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-monitors.sh"

# body FILE: the snapshot's members after the header, mono_s and the cgroup,
# the part that depends on the input only: "KEY VALUE" a line, in order.
body() {
	json_get "$1" 'to_entries | .[(map(.key) | index("cgroup_version")) + 1:][] |
		"\(.key) \(.value)"'
}

# A modern kernel's /proc: per-zone allocation stalls (summed), no
# pgscan_direct (-> null), no old-style workingset_refault (-> null), and
# lines the snapshot does not read, malformed ones among them.
make_proc() {
	mkdir -p proc/pressure &&
	printf '%s\n' 'nr_free_pages 960369' 'nr_dirty 71' 'nr_writeback 22' \
		'workingset_refault_anon 3' 'workingset_refault_file 89161' \
		'pswpin 17' 'pswpout 4096' 'allocstall_dma 0' \
		'allocstall_dma32 2' 'allocstall_normal 30' \
		'allocstall_movable 400' 'pgfault 6306847' 'pgmajfault 1297' \
		'pgsteal_kswapd 5000' 'pgsteal_direct 600' 'pgscan_kswapd 7000' \
		'pgscan_anon 2100' 'pgscan_file 4900' 'pgsteal_anon 1700' \
		'pgsteal_file 3900' 'kswapd_low_wmark_hit_quickly 8' \
		'kswapd_high_wmark_hit_quickly 9' 'pageoutrun 10' \
		'compact_stall 11' 'compact_fail 12' 'compact_success 13' \
		'unread_counter -1' 'another_one 99999999999999999999999' \
		>proc/vmstat &&
	printf '%s\n' 'some avg10=1.50 avg60=0.00 avg300=0.00 total=123456' \
		'full avg10=0.25 avg60=0.00 avg300=0.00 total=7890' \
		>proc/pressure/memory &&
	mkdir -p cg2 &&
	printf '%s\n' 'anon 4096' 'pgfault 500' 'pgmajfault 16' \
		'pgscan 300' 'pgsteal 250' 'workingset_refault_anon 4' \
		>cg2/memory.stat &&
	echo 157286400 >cg2/memory.current &&
	echo 8192 >cg2/memory.swap.current &&
	printf '%s\n' 'some avg10=0.00 avg60=0.00 avg300=0.00 total=555' \
		'full avg10=0.00 avg60=0.00 avg300=0.00 total=444' \
		>cg2/memory.pressure &&
	mkdir -p cg1 &&
	printf '%s\n' 'cache 0' 'pgmajfault 5' 'swap 0' 'total_pgmajfault 150' \
		'total_swap 4096' 'total_pgpgin 1' >cg1/memory.stat &&
	echo 104857600 >cg1/memory.usage_in_bytes &&
	echo 104861696 >cg1/memory.memsw.usage_in_bytes &&
	# An old kernel: one allocstall counter, one workingset_refault, no
	# pressure stall information.
	mkdir -p old &&
	printf '%s\n' 'nr_free_pages 1000' 'nr_dirty 1' 'nr_writeback 2' \
		'workingset_refault 77' 'pswpin 3' 'pswpout 4' 'pgfault 5' \
		'pgmajfault 6' 'allocstall 5' 'pageoutrun 7' 'compact_stall 8' \
		'compact_fail 9' 'compact_success 10' >old/vmstat
}

test_expect_success 'fake /proc and cgroup trees' '
	make_proc
'

test_expect_success 'exact counters, the allocstall sum and nulls; a v2 cgroup' '
	latency-vmstat --snapshot --proc proc --cgroup cg2 >snap.json 2>err &&
	! test -s err &&
	body snap.json >actual &&
	cat >expect <<-\EOF &&
	pswpin 17
	pswpout 4096
	pgmajfault 1297
	pgfault 6306847
	pgscan_kswapd 7000
	pgscan_direct null
	pgsteal_kswapd 5000
	pgsteal_direct 600
	pgscan_anon 2100
	pgscan_file 4900
	pgsteal_anon 1700
	pgsteal_file 3900
	allocstall 432
	compact_stall 11
	compact_fail 12
	compact_success 13
	kswapd_low_wmark_hit_quickly 8
	kswapd_high_wmark_hit_quickly 9
	pageoutrun 10
	nr_free_pages 960369
	nr_dirty 71
	nr_writeback 22
	workingset_refault_anon 3
	workingset_refault_file 89161
	workingset_refault null
	psi_memory_some_total_us 123456
	psi_memory_full_total_us 7890
	cg_pgmajfault 16
	cg_pgscan 300
	cg_pgsteal 250
	cg_memory_bytes 157286400
	cg_swap_bytes 8192
	cg_psi_memory_some_total_us 555
	cg_psi_memory_full_total_us 444
	cpu_busy_ticks null
	suite_cpu_ticks null
	kthreads_cpu_ticks null
	clock_ticks_per_s null
	EOF
	test_cmp expect actual
'

test_expect_success JQ 'the common header, mono_s with nine decimals, the cgroup' '
	head -n 3 snap.json >actual &&
	printf "%s\n" "{" "  \"format_version\": 1," \
		"  \"program\": \"latency-vmstat\"," >expect &&
	test_cmp expect actual &&
	test_json snap.json "[.version, .start_time, .end_time] | map(type) |
		join(\" \")" "string string string" &&
	test_json snap.json .command_line "latency-vmstat --snapshot --proc proc --cgroup cg2" &&
	# As text: the nine decimals are what is checked (jq shows a value).
	grep -q "^  \"mono_s\": [0-9][0-9]*\.[0-9]\{9\},$" snap.json &&
	test_json snap.json .cgroup cg2 &&
	test_json snap.json .cgroup_version 2
'

test_expect_success JQ 'a v1 cgroup: usage_in_bytes, total_swap; no pgscan, pgsteal or PSI' '
	latency-vmstat --snapshot --proc proc --cgroup cg1 -o snap1.json &&
	test_json snap1.json .cgroup_version 1 &&
	body snap1.json >all &&
	grep "^cg_" all >actual &&
	cat >expect <<-\EOF &&
	cg_pgmajfault 150
	cg_pgscan null
	cg_pgsteal null
	cg_memory_bytes 104857600
	cg_swap_bytes 4096
	cg_psi_memory_some_total_us null
	cg_psi_memory_full_total_us null
	EOF
	test_cmp expect actual
'

test_expect_success JQ 'an old kernel: one allocstall, workingset_refault, no PSI' '
	latency-vmstat --snapshot --proc old -o snap-old.json 2>err &&
	! test -s err &&
	body snap-old.json >actual &&
	cat >expect <<-\EOF &&
	pswpin 3
	pswpout 4
	pgmajfault 6
	pgfault 5
	pgscan_kswapd null
	pgscan_direct null
	pgsteal_kswapd null
	pgsteal_direct null
	pgscan_anon null
	pgscan_file null
	pgsteal_anon null
	pgsteal_file null
	allocstall 5
	compact_stall 8
	compact_fail 9
	compact_success 10
	kswapd_low_wmark_hit_quickly null
	kswapd_high_wmark_hit_quickly null
	pageoutrun 7
	nr_free_pages 1000
	nr_dirty 1
	nr_writeback 2
	workingset_refault_anon null
	workingset_refault_file null
	workingset_refault 77
	psi_memory_some_total_us null
	psi_memory_full_total_us null
	cpu_busy_ticks null
	suite_cpu_ticks null
	kthreads_cpu_ticks null
	clock_ticks_per_s null
	EOF
	test_cmp expect actual &&
	test_json snap-old.json .cgroup null &&
	test_json snap-old.json .cgroup_version null
'

# pid_stat DIR PID PPID FLAGS UTIME STIME CUTIME CSTIME: a fake
# DIR/PID/stat, its command name holding spaces and parentheses.
pid_stat() {
	mkdir -p "$1/$2" &&
	echo "$2 (a (b) c) S $3 $2 $2 0 -1 $4 0 0 0 0 $5 $6 $7 $8 20 0 1 0 100" \
		>"$1/$2/stat"
}

test_expect_success JQ 'who used the CPUs: all, the suite tree, the kernel threads' '
	cp -R old cpu &&
	printf "%s\n" "cpu  1000 50 500 9000 20 3 4 0 0 0" \
		"cpu0 500 25 250 4500 10 1 2 0 0 0" >cpu/stat &&
	pid_stat cpu 10 1 4194560 100 20 7 3 &&
	pid_stat cpu 11 10 4194560 50 5 0 0 &&
	pid_stat cpu 12 11 4194560 1 2 0 0 &&
	pid_stat cpu 13 1 4194560 300 30 0 0 &&
	pid_stat cpu 2 0 2129984 0 1 0 0 &&
	pid_stat cpu 20 2 69238880 40 60 0 0 &&
	mkdir cpu/self &&
	latency-vmstat --snapshot --proc cpu --suite-pid 10 -o s.json &&
	body s.json | grep _ticks >actual &&
	cat >expect <<-EOF &&
	cpu_busy_ticks 1550
	suite_cpu_ticks 188
	kthreads_cpu_ticks 101
	clock_ticks_per_s $(getconf CLK_TCK)
	EOF
	test_cmp expect actual &&
	latency-vmstat --snapshot --proc cpu --suite-pid 99 -o s.json &&
	test_json s.json .suite_cpu_ticks null &&
	test_expect_code 2 latency-vmstat --suite-pid 10 --duration 1s 2>err &&
	grep "^latency-vmstat: --suite-pid goes with --snapshot$" err
'

test_expect_success '-o is written atomically and replaces an old file' '
	echo stale >replaced.json &&
	latency-vmstat --snapshot --proc old -o replaced.json &&
	body replaced.json >actual &&
	body snap-old.json >expect &&
	test_cmp expect actual &&
	ls -a >files &&
	! grep -q "^\.replaced\|replaced\.json\." files
'

# bad_value DIR FILE LINE...: a copy of the fake /proc with FILE (below
# DIR) rewritten to LINE...
bad_tree() {
	rm -rf bad &&
	cp -R proc bad &&
	cp -R cg2 bad/cg &&
	_f=$1 &&
	shift &&
	printf '%s\n' "$@" >"bad/$_f"
}

test_expect_success 'a signed, overflowing or junk counter is an error, no output' '
	bad_tree vmstat "pswpin -5" "pswpout 1" &&
	test_expect_code 1 latency-vmstat --snapshot --proc bad -o out.json 2>err &&
	echo "latency-vmstat: cannot parse '\''bad/vmstat'\'': pswpin: malformed" >expect &&
	test_cmp expect err &&
	! test -e out.json &&
	bad_tree vmstat "pgmajfault 18446744073709551616" &&
	test_expect_code 1 latency-vmstat --snapshot --proc bad 2>err >out &&
	echo "latency-vmstat: cannot parse '\''bad/vmstat'\'': pgmajfault: number out of range" >expect &&
	test_cmp expect err &&
	! test -s out &&
	bad_tree vmstat "nr_dirty 12x" &&
	test_expect_code 1 latency-vmstat --snapshot --proc bad 2>err &&
	grep -q "^latency-vmstat: cannot parse .bad/vmstat.: nr_dirty: malformed$" err &&
	bad_tree vmstat "allocstall_normal +3" &&
	test_expect_code 1 latency-vmstat --snapshot --proc bad 2>err &&
	grep -q "^latency-vmstat: cannot parse .bad/vmstat.: allocstall: malformed$" err &&
	bad_tree vmstat "allocstall_normal 18446744073709551615" \
		"allocstall_movable 1" &&
	test_expect_code 1 latency-vmstat --snapshot --proc bad 2>err &&
	grep -q ": allocstall: number out of range$" err
'

test_expect_success 'malformed PSI, memory.stat and memory.current are errors too' '
	bad_tree pressure/memory "some avg10=0.00 avg60=0.00 avg300=0.00 total=-1" &&
	test_expect_code 1 latency-vmstat --snapshot --proc bad 2>err &&
	grep -q "^latency-vmstat: cannot parse .bad/pressure/memory.: pressure line: malformed$" err &&
	bad_tree cg/memory.stat "pgmajfault 1 2" &&
	test_expect_code 1 latency-vmstat --snapshot --proc bad --cgroup bad/cg 2>err &&
	grep -q "^latency-vmstat: cannot parse .bad/cg/memory.stat.: pgmajfault: malformed$" err &&
	bad_tree cg/memory.current "-4096" &&
	test_expect_code 1 latency-vmstat --snapshot --proc bad --cgroup bad/cg 2>err &&
	grep -q "^latency-vmstat: cannot parse .bad/cg/memory.current.: the value: malformed$" err &&
	bad_tree cg/memory.pressure "some avg10=0.00 avg60=0.00 avg300=0.00 total=1 " &&
	test_expect_code 1 latency-vmstat --snapshot --proc bad --cgroup bad/cg 2>err &&
	grep -q "^latency-vmstat: cannot parse .bad/cg/memory.pressure.: pressure line: malformed$" err
'

test_expect_success 'the sampling mode refuses the same input' '
	bad_tree vmstat "pswpin -5" &&
	test_expect_code 1 latency-vmstat --proc bad --duration 100ms >out 2>err &&
	grep -q "^latency-vmstat: cannot parse .bad/vmstat.: pswpin: malformed$" err
'

test_expect_success 'options that belong to sampling are usage errors' '
	for o in --interval=1s --duration=1s --summary=x --format=json --pid=1; do
		test_expect_code 2 latency-vmstat --snapshot --proc proc "$o" \
			>out 2>err &&
		grep -q "^latency-vmstat: ${o%%=*} does not apply to --snapshot$" err ||
		return 1
	done
'

test_expect_success 'missing sources and unwritable output' '
	test_expect_code 3 latency-vmstat --snapshot --proc nonexistent 2>err &&
	grep -q "^latency-vmstat: no .nonexistent/vmstat. here$" err &&
	test_expect_code 3 latency-vmstat --snapshot --proc proc \
		--cgroup nonexistent 2>err &&
	grep -q "^latency-vmstat: cannot read .nonexistent/memory.stat.: No such file" err &&
	test_expect_code 1 latency-vmstat --snapshot --proc proc \
		-o no/such/dir/x.json 2>err &&
	grep -q "^latency-vmstat: cannot create .no/such/dir/x.json." err &&
	test_expect_code 1 latency-vmstat --snapshot --proc proc >/dev/full 2>err &&
	grep -q "^latency-vmstat: cannot write .-.: No space left on device$" err
'

test -r /proc/vmstat && test_set_prereq PROC_VMSTAT
# A jq test that the value at hand is a count: a whole number, not negative.
count='(type == "number" and . >= 0 and . == floor)'

# memcg_parent gives this test's own memory cgroup (not a v2 root, which
# has no memory.current).
if memcg=$(memcg_parent 2>/dev/null) &&
	{ test -f "$memcg/memory.current" ||
		test -f "$memcg/memory.usage_in_bytes"; }; then
	test_set_prereq MEMCG_DIR
fi

test_expect_success PROC_VMSTAT,JQ 'a real snapshot of this machine: every key, numbers' '
	latency-vmstat --snapshot -o real.json &&
	grep -q "^  \"mono_s\": [0-9][0-9]*\.[0-9]\{9\},$" real.json &&
	for k in pswpin pswpout pgmajfault pgfault pgscan_kswapd pgscan_direct \
		pgsteal_kswapd pgsteal_direct allocstall compact_stall \
		compact_fail compact_success kswapd_low_wmark_hit_quickly \
		kswapd_high_wmark_hit_quickly pageoutrun nr_free_pages nr_dirty \
		nr_writeback workingset_refault_anon workingset_refault \
		psi_memory_some_total_us psi_memory_full_total_us; do
		test_json real.json ".$k | . == null or $count" true || return 1
	done &&
	# Every kernel since 2.6 has these.
	for k in pswpin pswpout pgmajfault pgfault nr_free_pages nr_dirty \
		nr_writeback; do
		test_json real.json ".$k | $count" true || return 1
	done
'

test_expect_success PROC_VMSTAT,MEMCG_DIR,JQ 'a real snapshot with this test'"'"'s memory cgroup' '
	latency-vmstat --snapshot --cgroup "$memcg" -o realcg.json &&
	test_json realcg.json ".cgroup_version | . == 1 or . == 2" true &&
	test_json realcg.json ".cg_pgmajfault | $count" true &&
	test_json realcg.json ".cg_memory_bytes | $count and . > 0" true &&
	for k in cg_pgscan cg_pgsteal cg_swap_bytes cg_psi_memory_some_total_us \
		cg_psi_memory_full_total_us; do
		test_json realcg.json ".$k | . == null or $count" true ||
			return 1
	done
'

test_done
