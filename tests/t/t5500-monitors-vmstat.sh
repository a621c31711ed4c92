#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lib.sh idiom: test bodies are single-quoted and evaluated later, and
# the harness sets abs_top_srcdir and reads test_description.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-vmstat: deadline pacing, exact deltas from a fake /proc, PSI, per-workload counters, options, signals'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-monitors.sh"

ts_re='^[0-9][0-9]*\.[0-9]\{9\} latency-vmstat '

# A fake /proc whose files change from sample to sample: with --proc, sample
# N reads FILE.N where it exists, else FILE.
make_fake_proc() {
	mkdir -p proc/pressure proc/4242 cg1 cg2 &&
	printf '%s\n' 'nr_dirty 10' 'nr_writeback 5' 'pgpgin 1000' \
		'pgpgout 2000' 'pswpin 0' 'pswpout 0' 'allocstall_dma 0' \
		'allocstall_normal 1' 'allocstall_movable 2' 'pgmajfault 7' \
		'compact_stall 0' >proc/vmstat.0 &&
	printf '%s\n' 'nr_dirty 11' 'nr_writeback 40' 'pgpgin 1500' \
		'pgpgout 2000' 'pswpin 0' 'pswpout 64' 'allocstall_dma 0' \
		'allocstall_normal 3' 'allocstall_movable 2' 'pgmajfault 9' \
		'compact_stall 0' >proc/vmstat.1 &&
	printf '%s\n' 'nr_dirty 9' 'nr_writeback 12' 'pgpgin 1600' \
		'pgpgout 2100' 'pswpin 8' 'pswpout 100' 'allocstall_dma 0' \
		'allocstall_normal 3' 'allocstall_movable 4' 'pgmajfault 20' \
		'compact_stall 1' >proc/vmstat &&
	printf '%s\n' 'some avg10=1.50 avg60=0.00 avg300=0.00 total=100' \
		'full avg10=0.25 avg60=0.00 avg300=0.00 total=40' \
		>proc/pressure/memory &&
	printf '%s\n' 'some avg10=3.05 avg60=1.00 avg300=0.10 total=350' \
		'full avg10=0.00 avg60=0.00 avg300=0.00 total=90' \
		>proc/pressure/memory.2 &&
	printf '%s\n' 'some avg10=0.00 avg60=0.00 avg300=0.00 total=5' \
		'full avg10=0.00 avg60=0.00 avg300=0.00 total=3' \
		>proc/pressure/io &&
	echo '4242 (fake gitk) R 1 4242 4242 0 -1 4194560 100 0 30 2 5 6' \
		>proc/4242/stat.0 &&
	echo '4242 (fake gitk) S 1 4242 4242 0 -1 4194560 180 0 45 2 9 9' \
		>proc/4242/stat &&
	printf 'Name:\tfake gitk\nVmSwap:\t    1024 kB\n' >proc/4242/status &&
	printf '%s\n' 'cache 0' 'total_pgmajfault 100' 'total_swap 0' \
		>cg1/memory.stat.0 &&
	printf '%s\n' 'cache 0' 'total_pgmajfault 150' 'total_swap 4096' \
		>cg1/memory.stat &&
	printf '%s\n' 'anon 0' 'pgmajfault 10' 'workingset_refault_anon 1' \
		'workingset_refault_file 2' >cg2/memory.stat.0 &&
	printf '%s\n' 'anon 0' 'pgmajfault 16' 'workingset_refault_anon 4' \
		'workingset_refault_file 2' >cg2/memory.stat &&
	echo 0 >cg2/memory.swap.current.0 &&
	echo 8192 >cg2/memory.swap.current
}

test_expect_success 'a fake /proc for exact values' '
	make_fake_proc
'

test_expect_success '--interval 100ms --duration 1s takes 11 samples (one at start, one per deadline)' '
	latency-vmstat --interval 100ms --duration 1s --summary sum >out 2>err &&
	! test -s err &&
	grep -c " sample=" out >count &&
	echo 11 >expect && test_cmp expect count &&
	test_line_count = 12 out &&
	test "$(summary_value sum samples)" = 11 &&
	test "$(summary_value sum end_reason)" = duration &&
	grep -c "${ts_re}sample=[0-9]* nr_writeback=[0-9]* nr_dirty=[0-9]* pgpgin=[0-9]* pgpgin_delta=[0-9]* pgpgout=[0-9]* pgpgout_delta=[0-9]* pswpin=[0-9]* pswpin_delta=[0-9]* pswpout=[0-9]* pswpout_delta=[0-9]* pgmajfault=[0-9]* pgmajfault_delta=[0-9]* allocstall=[0-9]* allocstall_delta=[0-9]*" out >count &&
	test_cmp expect count &&
	tail -n 1 out >last &&
	grep -q "${ts_re}summary=1 samples=11 " last
'

test_expect_success 'sample timestamps increase and the samples are numbered 0..10' '
	sed -n "s/^\([0-9.]*\) latency-vmstat sample=\([0-9]*\) .*/\1 \2/p" out >ts &&
	sort -n -c ts &&
	cut -d" " -f2 ts >numbers &&
	seq 0 10 >expect && test_cmp expect numbers
'

test_expect_success 'a duration not a multiple of the interval ends with a sample at the end' '
	latency-vmstat --interval 300ms --duration 1s --proc proc >out &&
	grep -c " sample=" out >count &&
	echo 5 >expect && test_cmp expect count
'

test_expect_success 'exact values and deltas from a fake /proc, pid and v1 cgroup' '
	latency-vmstat --proc proc --pid 4242 --cgroup cg1 --interval 100ms \
		--duration 200ms --summary sum >out &&
	grep " sample=" out | cut -d" " -f3- >actual &&
	cat >expect <<-\EOF &&
	sample=0 nr_writeback=5 nr_dirty=10 pgpgin=1000 pgpgin_delta=0 pgpgout=2000 pgpgout_delta=0 pswpin=0 pswpin_delta=0 pswpout=0 pswpout_delta=0 pgmajfault=7 pgmajfault_delta=0 allocstall=3 allocstall_delta=0 compact_stall=0 compact_stall_delta=0 psi_memory_some_avg10=1.50 psi_memory_some_total_us=100 psi_memory_some_total_us_delta=0 psi_memory_full_avg10=0.25 psi_memory_full_total_us=40 psi_memory_full_total_us_delta=0 psi_io_some_avg10=0.00 psi_io_some_total_us=5 psi_io_some_total_us_delta=0 psi_io_full_avg10=0.00 psi_io_full_total_us=3 psi_io_full_total_us_delta=0 pid_majflt=30 pid_majflt_delta=0 pid_cmajflt=2 pid_cmajflt_delta=0 pid_swap_bytes=1048576 cg_pgmajfault=100 cg_pgmajfault_delta=0 cg_swap_bytes=0
	sample=1 nr_writeback=40 nr_dirty=11 pgpgin=1500 pgpgin_delta=500 pgpgout=2000 pgpgout_delta=0 pswpin=0 pswpin_delta=0 pswpout=64 pswpout_delta=64 pgmajfault=9 pgmajfault_delta=2 allocstall=5 allocstall_delta=2 compact_stall=0 compact_stall_delta=0 psi_memory_some_avg10=1.50 psi_memory_some_total_us=100 psi_memory_some_total_us_delta=0 psi_memory_full_avg10=0.25 psi_memory_full_total_us=40 psi_memory_full_total_us_delta=0 psi_io_some_avg10=0.00 psi_io_some_total_us=5 psi_io_some_total_us_delta=0 psi_io_full_avg10=0.00 psi_io_full_total_us=3 psi_io_full_total_us_delta=0 pid_majflt=45 pid_majflt_delta=15 pid_cmajflt=2 pid_cmajflt_delta=0 pid_swap_bytes=1048576 cg_pgmajfault=150 cg_pgmajfault_delta=50 cg_swap_bytes=4096
	sample=2 nr_writeback=12 nr_dirty=9 pgpgin=1600 pgpgin_delta=100 pgpgout=2100 pgpgout_delta=100 pswpin=8 pswpin_delta=8 pswpout=100 pswpout_delta=36 pgmajfault=20 pgmajfault_delta=11 allocstall=7 allocstall_delta=2 compact_stall=1 compact_stall_delta=1 psi_memory_some_avg10=3.05 psi_memory_some_total_us=350 psi_memory_some_total_us_delta=250 psi_memory_full_avg10=0.00 psi_memory_full_total_us=90 psi_memory_full_total_us_delta=50 psi_io_some_avg10=0.00 psi_io_some_total_us=5 psi_io_some_total_us_delta=0 psi_io_full_avg10=0.00 psi_io_full_total_us=3 psi_io_full_total_us_delta=0 pid_majflt=45 pid_majflt_delta=0 pid_cmajflt=2 pid_cmajflt_delta=0 pid_swap_bytes=1048576 cg_pgmajfault=150 cg_pgmajfault_delta=0 cg_swap_bytes=4096
	EOF
	test_cmp expect actual
'

test_expect_success 'the summary holds first, last and change of every counter' '
	# late_samples depends on the machine, not on the input.
	grep -v -e "^version=" -e "^duration_s=" -e "^late_samples=" sum >actual &&
	cat >expect <<-\EOF &&
	program=latency-vmstat
	samples=3
	interval_s=0.100000000
	psi_available=true
	pid=4242
	pid_exited=false
	cgroup_version=1
	nr_writeback_first=5
	nr_writeback_last=12
	nr_writeback_max=40
	nr_dirty_first=10
	nr_dirty_last=9
	nr_dirty_max=11
	pgpgin_first=1000
	pgpgin_last=1600
	pgpgin_delta=600
	pgpgout_first=2000
	pgpgout_last=2100
	pgpgout_delta=100
	pswpin_first=0
	pswpin_last=8
	pswpin_delta=8
	pswpout_first=0
	pswpout_last=100
	pswpout_delta=100
	pgmajfault_first=7
	pgmajfault_last=20
	pgmajfault_delta=13
	allocstall_first=3
	allocstall_last=7
	allocstall_delta=4
	compact_stall_first=0
	compact_stall_last=1
	compact_stall_delta=1
	psi_memory_some_avg10_max=3.05
	psi_memory_some_total_us_first=100
	psi_memory_some_total_us_last=350
	psi_memory_some_total_us_delta=250
	psi_memory_full_avg10_max=0.25
	psi_memory_full_total_us_first=40
	psi_memory_full_total_us_last=90
	psi_memory_full_total_us_delta=50
	psi_io_some_avg10_max=0.00
	psi_io_some_total_us_first=5
	psi_io_some_total_us_last=5
	psi_io_some_total_us_delta=0
	psi_io_full_avg10_max=0.00
	psi_io_full_total_us_first=3
	psi_io_full_total_us_last=3
	psi_io_full_total_us_delta=0
	pid_majflt_first=30
	pid_majflt_last=45
	pid_majflt_delta=15
	pid_cmajflt_first=2
	pid_cmajflt_last=2
	pid_cmajflt_delta=0
	pid_swap_bytes_first=1048576
	pid_swap_bytes_last=1048576
	pid_swap_bytes_max=1048576
	cg_pgmajfault_first=100
	cg_pgmajfault_last=150
	cg_pgmajfault_delta=50
	cg_swap_bytes_first=0
	cg_swap_bytes_last=4096
	cg_swap_bytes_max=4096
	end_reason=duration
	EOF
	test_cmp expect actual
'

test_expect_success 'a v2 cgroup: major faults, refaults and swap' '
	latency-vmstat --proc proc --cgroup cg2 --interval 100ms \
		--duration 100ms --summary sum >out &&
	grep -e "^cg" -e "^cgroup" sum >actual &&
	cat >expect <<-\EOF &&
	cgroup_version=2
	cg_pgmajfault_first=10
	cg_pgmajfault_last=16
	cg_pgmajfault_delta=6
	cg_swap_bytes_first=0
	cg_swap_bytes_last=8192
	cg_swap_bytes_max=8192
	cg_workingset_refault_anon_first=1
	cg_workingset_refault_anon_last=4
	cg_workingset_refault_anon_delta=3
	cg_workingset_refault_file_first=2
	cg_workingset_refault_file_last=2
	cg_workingset_refault_file_delta=0
	EOF
	test_cmp expect actual
'

test_expect_success JQ 'the JSON summary carries the fields of doc/design.md, contract 4' '
	latency-vmstat --proc proc --interval 100ms --duration 200ms \
		--format json --summary sum.json >out &&
	test_json sum.json .format_version 1 &&
	test_json sum.json .program latency-vmstat &&
	test_json sum.json .pswpout_delta 100 &&
	test_json sum.json .pswpin_delta 8 &&
	test_json sum.json .nr_writeback_max 40 &&
	test_json sum.json .psi_available true &&
	test_json sum.json .end_reason duration
'

test_expect_success 'without pressure files PSI is reported unavailable' '
	mkdir -p nopsi &&
	cp proc/vmstat nopsi/vmstat &&
	latency-vmstat --proc nopsi --interval 100ms --duration 100ms \
		--summary sum >out 2>err &&
	grep -q "${ts_re}psi=unavailable " out &&
	grep -q "^latency-vmstat: warning: no pressure stall information" err &&
	test "$(summary_value sum psi_available)" = false &&
	! grep -q psi_memory out
'

test_expect_success 'a process that exits is reported gone once' '
	mkdir -p gone/7 &&
	cp proc/vmstat gone/vmstat &&
	cp proc/4242/stat.0 gone/7/stat.0 &&
	latency-vmstat --proc gone --pid 7 --interval 100ms --duration 300ms \
		--summary sum >out &&
	grep -c "pid=7 state=gone" out >count &&
	echo 1 >expect && test_cmp expect count &&
	test "$(summary_value sum pid_exited)" = true &&
	test "$(summary_value sum pid_majflt_last)" = 30
'

# Each background run writes a file of its own: waiting for a line must not
# find one an earlier test left.
test_expect_success 'SIGTERM ends the run: last sample, summary, exit 0' '
	latency-vmstat --interval 100ms --duration 30s --summary sum >term.out 2>err &
	pid=$! &&
	wait_for_line term.out " sample=1 " &&
	kill -TERM $pid &&
	wait $pid &&
	test "$(summary_value sum end_reason)" = signal &&
	test "$(summary_value sum stop_signal)" = 15 &&
	grep -c " sample=" term.out >count &&
	test "$(cat count)" = "$(summary_value sum samples)" &&
	tail -n 1 term.out >last &&
	grep -q "${ts_re}summary=1 " last
'

test_expect_success 'SIGINT too' '
	latency-vmstat --interval 50ms --duration 30s -o int.out --summary sum &
	pid=$! &&
	wait_for_line int.out " sample=0 " &&
	kill -INT $pid &&
	wait $pid &&
	test "$(summary_value sum stop_signal)" = 2
'

test_expect_success 'bad options and unusable paths' '
	test_expect_code 2 latency-vmstat --interval 0 2>err &&
	grep -q "^latency-vmstat: --interval must be at least 1ms" err &&
	test_expect_code 2 latency-vmstat --interval fast 2>err &&
	grep -q "invalid value .fast. for --interval" err &&
	test_expect_code 2 latency-vmstat --duration 0 &&
	test_expect_code 2 latency-vmstat --pid 0 &&
	test_expect_code 2 latency-vmstat --format csv &&
	test_expect_code 2 latency-vmstat extra 2>err &&
	grep -q "unexpected argument .extra." err &&
	test_expect_code 3 latency-vmstat --proc nonexistent --duration 100ms 2>err &&
	grep -q "^latency-vmstat: no .nonexistent/vmstat. here" err &&
	test_expect_code 1 latency-vmstat --summary no/such/dir/sum 2>err &&
	grep -q "^latency-vmstat: cannot create .no/such/dir/sum." err &&
	test_expect_code 1 latency-vmstat -o no/such/dir/out 2>err &&
	test_expect_code 1 latency-vmstat --proc proc --pid 99 2>err &&
	grep -q "cannot read .proc/99/stat." err
'

test_expect_success 'a write error on the output stream exits 1, said once' '
	test_expect_code 1 latency-vmstat --proc proc --duration 100ms \
		>/dev/full 2>err &&
	grep "^latency-vmstat: write error: No space left on device" err >w &&
	test_line_count = 1 w
'

test_done
