#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test-lib.sh idiom: test bodies are single-quoted and evaluated later, and
# the harness sets abs_top_srcdir and reads test_description.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-block: a recorded trace counted exactly, bio-based devices, hostile input, O_DIRECT writes on a loop device against /sys/block stat, the counters without root, the trace instance given back also after kill -9'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-monitors.sh"

grep -qw tracefs /proc/filesystems 2>/dev/null && test_set_prereq TRACEFS
command -v losetup >/dev/null 2>&1 && test_have_prereq ROOT &&
	test_set_prereq LOSETUP
test_have_prereq ROOT && command -v setpriv >/dev/null 2>&1 &&
	test_set_prereq SETPRIV
test_have_prereq ROOT && unshare -m --propagation private true 2>/dev/null &&
	test_set_prereq UNSHARE

# The machine-state record of these runs, away from the machine's own.
LATENCY_STATE_DIR=$PWD/state
export LATENCY_STATE_DIR

fixture="$abs_top_srcdir/tests/t/fixtures/monitors/block_trace_pipe.txt"

# Does trace instance $1 exist?  Where no tracefs is mounted, latency-block
# mounted one in a namespace of its own: look in one of ours.
instance_exists() {
	if [ -d /sys/kernel/tracing/instances ]; then
		test -d "/sys/kernel/tracing/instances/$1"
	else
		unshare -m --propagation private sh -c '
			mount -t tracefs nodev /sys/kernel/tracing &&
			test -d "/sys/kernel/tracing/instances/$1"' sh "$1"
	fi
}

# The fixture is a real trace_pipe of this kernel (6.18): an instance with
# every block event, the mono clock, the events of loop0 (7:0) filtered
# in, the plugs and unplugs of every device, around
#   dd if=/dev/zero of=/dev/loop0 bs=16k count=8 oflag=direct
#   dd if=/dev/loop0 of=/dev/null bs=4k count=4 iflag=direct
#   dd if=/dev/zero of=/dev/loop0 bs=4k count=16 seek=100 conv=fsync
# /sys/block/loop0/stat moved by 4 reads, 32 sectors, 10 writes (8 + one
# of the 16 merged pages + the fsync's empty preflush write), 384 sectors,
# 15 write merges and 1 flush: the figures below are those.
test_expect_success 'a recorded trace_pipe: exact counts' '
	latency-block --replay "$fixture" --summary sum >out 2>err &&
	! test -s err &&
	grep -q "^[0-9]*\.[0-9]\{9\} latency-block started=1 source=replay$" out &&
	grep -v -e "^version=" -e "^duration_s=" sum >actual &&
	cat >expect <<-\EOF &&
	program=latency-block
	replay=true
	source=tracepoints
	timer_unplugs_told=false
	trace_lines=254
	unparsed_lines=0
	other_lines=0
	plugs=71
	unplugs_unattributed=81
	untimed=0
	stale=0
	end_reason=end_of_file
	device=7:0
	7:0.source=tracepoints
	7:0.request_based=true
	7:0.reads_queued=4
	7:0.reads_queued_bytes=16384
	7:0.reads_dispatched=4
	7:0.reads_dispatched_bytes=16384
	7:0.reads_completed=4
	7:0.reads_completed_bytes=16384
	7:0.reads_merges=0
	7:0.reads_requeued=0
	7:0.writes_queued=25
	7:0.writes_queued_bytes=196608
	7:0.writes_dispatched=9
	7:0.writes_dispatched_bytes=196608
	7:0.writes_completed=10
	7:0.writes_completed_bytes=196608
	7:0.writes_merges=15
	7:0.writes_requeued=0
	7:0.unplugs_io=13
	7:0.unplugs_timer=null
	7:0.backmerges=15
	7:0.frontmerges=0
	7:0.getrq=14
	7:0.inserted=0
	7:0.splits=0
	7:0.remaps=0
	7:0.q2c_us_p50=22.9
	7:0.q2c_us_p99=79167.5
	7:0.q2c_us_max=79536.0
	7:0.d2c_us_p50=12.0
	7:0.d2c_us_p99=79167.5
	7:0.d2c_us_max=79516.0
	EOF
	test_cmp expect actual
'

test_expect_success JQ 'a recorded trace_pipe: the JSON devices' '
	latency-block --replay "$fixture" --device=7:0 --device=8:0 \
		--format=json --summary sum.json >out &&
	test_json_valid sum.json &&
	test_json sum.json ".devices | length" 2 &&
	test_json sum.json ".devices[0].name" 7:0 &&
	test_json sum.json ".devices[0].writes.dispatched" 9 &&
	test_json sum.json ".devices[0].writes.merges" 15 &&
	test_json sum.json ".devices[0].request_bytes.count" 13 &&
	test_json sum.json "[.devices[0].request_bytes.buckets[] | \"\(.le):\(.count)\"] | join(\",\")" \
		4096:4,16384:8,65536:1 &&
	test_json sum.json ".devices[0].d2c_us.count" 14 &&
	test_json sum.json ".devices[0].counters" null &&
	test_json sum.json ".devices[0].counters_agree" null &&
	test_json sum.json ".devices[1].name" 8:0 &&
	test_json sum.json ".devices[1].writes.completed" 0 &&
	test_json sum.json ".devices[1].writes.dispatched" null
'

# Synthetic lines in the kernel's format: a bio-based device (252:0, as
# zram or a dm volume) queues and completes bios and remaps them down.
test_expect_success JQ 'a bio-based device: request figures null, bios timed' '
	cat >bio.txt <<-\EOF &&
	   dd-10 [001] ..... 100.000100: block_bio_queue: 252,0 W 8 + 8 [dd]
	   dd-10 [001] ..... 100.000110: block_bio_remap: 7,1 W 2056 + 8 <- (252,0) 8
	   dd-10 [001] ..... 100.000300: block_bio_complete: 252,0 W 8 + 8 [0]
	   dd-10 [001] ..... 100.000400: block_bio_queue: 252,0 R 64 + 16 [dd]
	   dd-10 [001] ..... 100.001400: block_bio_complete: 252,0 R 64 + 16 [0]
	   dd-10 [001] ..... 100.002000: block_split: 252,0 R 64 / 72 [dd]
	EOF
	latency-block --replay bio.txt --device=252:0 --device=7:1 \
		--format=json --summary sum.json >out &&
	test_json sum.json ".devices[0].request_based" false &&
	test_json sum.json ".devices[0].writes.queued_bytes" 4096 &&
	test_json sum.json ".devices[0].writes.completed" 1 &&
	test_json sum.json ".devices[0].reads.completed_bytes" 8192 &&
	test_json sum.json ".devices[0].writes.dispatched" null &&
	test_json sum.json ".devices[0].reads.merges" null &&
	test_json sum.json ".devices[0].unplugs_io" null &&
	test_json sum.json ".devices[0].d2c_us" null &&
	test_json sum.json ".devices[0].request_bytes" null &&
	test_json sum.json ".devices[0].q2c_us.count" 2 &&
	test_json sum.json ".devices[0].q2c_us.max" 1000 &&
	test_json sum.json ".devices[0].splits" 1 &&
	test_json sum.json ".devices[1].remaps" 1
'

test_expect_success 'hostile trace input: counted, never a crash' '
	{
		echo "garbage" &&
		echo "   dd-1 [000] ..... 1.000000: block_bio_queue: 7,0 W 99999999999999999999999 + 8 [dd]" &&
		echo "   dd-1 [000] ..... 1.000000: block_bio_queue: 7,0 W 0 + 99999999999 [dd]" &&
		echo "   dd-1 [000] ..... 1.000000: block_rq_issue: 7,0 W 4096 () 8 + [dd]" &&
		echo "   dd-1 [000] ..... 1.000000: block_rq_issue: 99999,0 W 4096 () 8 + 8 [dd]" &&
		echo "   dd-1 [000] ..... 1.000000: block_rq_issue: 7,0 Q 4096 () 8 + 8 [dd]" &&
		echo "   dd-1 [000] ..... 1.000000: block_rq_complete: 7,0" &&
		echo "   dd-1 [000] ..... 99999999999999999999.000000: block_plug: [dd]" &&
		echo "   dd-1 [4294967295] ..... 1.000000: block_unplug: [dd] 1" &&
		echo "   dd-1 [000] ..... 1.000000: sched_switch: prev=a" &&
		echo "   dd-1 [000] ..... 18446744073.709551: block_rq_complete: 7,0 W () 18446744073709551615 + 4294967295 [0]" &&
		printf "\000\377\376 [0] x\001: block_bio_queue: 7,0\n" &&
		head -c 100000 /dev/zero | tr "\0" x && echo &&
		i=0 && while [ $i -lt 5000 ]; do
			echo "   dd-1 [000] ..... 1.000000: block_split: 1,$i W 0 / 8 [dd]"
			i=$((i + 1))
		done &&
		printf "   dd-1 [000] ..... 1.000000: block_bio_queue: 7,0 W 8 + 8 [dd]"
	} >hostile.txt &&
	latency-block --replay hostile.txt --summary sum >out 2>err &&
	! test -s err &&
	test "$(summary_value sum trace_lines)" = 5014 &&
	test "$(summary_value sum unparsed_lines)" = 10 &&
	test "$(summary_value sum other_lines)" = 1 &&
	test "$(summary_value sum plugs)" = 0 &&
	test "$(summary_value sum unplugs_unattributed)" = 1 &&
	test "$(summary_value sum 7:0.writes_queued)" = 1 &&
	test "$(summary_value sum 7:0.writes_completed_bytes)" = 2199023255040 &&
	test "$(grep -c "^device=" sum)" = 4096
'

# 40000 bios queued at 1 s that never complete, 40000 more at 100 s that
# do: the table holds 32768; at 100 s the first ones are stale and make
# room for the second ones, of which 32768 are timed.
test_expect_success JQ 'what never completes: a bounded table, stale entries dropped' '
	awk "BEGIN {
		for (i = 0; i < 40000; i++)
			printf \"  dd-1 [000] ..... 1.000001: block_bio_queue: 7,0 W %d + 8 [dd]\\n\", i * 8
		for (i = 0; i < 40000; i++)
			printf \"  dd-1 [000] ..... 100.000002: block_bio_queue: 7,0 W %d + 8 [dd]\\n\", 1000000 + i * 8
		for (i = 0; i < 40000; i++)
			printf \"  dd-1 [000] ..... 100.000003: block_rq_complete: 7,0 W () %d + 8 [0]\\n\", 1000000 + i * 8
	}" >stale.txt &&
	latency-block --replay stale.txt --format=json --summary=stale.json >out &&
	test_json stale.json .untimed 14464 &&
	test_json stale.json .stale 32768 &&
	test_json stale.json ".devices[0].q2c_us.count" 32768 &&
	test_json stale.json ".devices[0].writes.queued" 80000 &&
	test_json stale.json ".devices[0].writes.completed" 40000
'

test_expect_success 'options: usage errors and a missing device' '
	test_expect_code 2 latency-block --replay "$fixture" --interval=1s &&
	test_expect_code 2 latency-block --replay "$fixture" --counters-only &&
	test_expect_code 2 latency-block --device=../etc &&
	test_expect_code 2 latency-block --device= &&
	test_expect_code 2 latency-block --replay "$fixture" --device=loop0 &&
	test_expect_code 1 latency-block --device=no-such-disk --duration=1s \
		>out 2>err &&
	grep -q "^latency-block: no block device .no-such-disk. in /sys/block$" err &&
	test_expect_code 1 latency-block --replay missing.txt >out 2>err &&
	grep -q "^latency-block: cannot open .missing.txt.: No such file or directory$" err
'

test_expect_success SETPRIV 'without root: the counters alone, a note, exit 0' '
	dev=$(ls /sys/block | head -n 1) &&
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		latency-block --device="$dev" --duration=200ms --summary=- \
		>out 2>err &&
	grep -q "^latency-block: warning: no tracing (tracing needs root): the devices. counters alone$" err &&
	grep -q "started=1 source=counters pid=[0-9]*$" out &&
	grep -q "^source=counters$" out &&
	grep -q "^no_tracing=tracing-needs-root$" out &&
	grep -q "^$dev.writes_queued=null$" out &&
	grep -q "^$dev.writes_completed=[0-9]*$" out
'

test_expect_success LOSETUP 'set up a 16 MiB loop device' '
	truncate -s 16M disk.img &&
	losetup -f --show disk.img >loopdev &&
	basename "$(cat loopdev)" >loopname &&
	{ ! command -v udevadm >/dev/null 2>&1 || udevadm settle; }
'

# The pid of the monitor that wrote the progress lines $1 (a background
# job of a test body is a shell around it).
monitor_pid() {
	sed -n "s/.* started=1 .* pid=\([0-9]*\).*/\1/p" "$1"
}

# N O_DIRECT writes of B bytes by dd, one at a time (queue depth 1): no
# merges, N requests of B bytes, as the device counts them itself.
test_expect_success LOSETUP,TRACEFS,JQ 'O_DIRECT writes: exact counts, equal to /sys/block stat' '
	latency-block --device="$(cat loopname)" --format=json \
		--summary=sum.json -o progress --duration=60s 2>err &
	name=$(cat loopname) &&
	wait_for_line progress "started=1" &&
	pid=$(monitor_pid progress) &&
	grep -q "started=1 source=tracepoints pid=$pid instance=latency-block-$pid$" progress &&
	instance_exists "latency-block-$pid" &&
	dd if=/dev/zero of="$(cat loopdev)" bs=24k count=12 oflag=direct \
		status=none &&
	kill -INT $pid &&
	wait &&
	! test -s err &&
	test_json sum.json .end_reason signal &&
	test_json sum.json ".devices[0].name" "$name" &&
	test_json sum.json ".devices[0].source" tracepoints &&
	test_json sum.json ".devices[0].writes.queued" 12 &&
	test_json sum.json ".devices[0].writes.queued_bytes" 294912 &&
	test_json sum.json ".devices[0].writes.dispatched" 12 &&
	test_json sum.json ".devices[0].writes.dispatched_bytes" 294912 &&
	test_json sum.json ".devices[0].writes.completed" 12 &&
	test_json sum.json ".devices[0].writes.completed_bytes" 294912 &&
	test_json sum.json ".devices[0].writes.merges" 0 &&
	test_json sum.json ".devices[0].writes.requeued" 0 &&
	test_json sum.json ".devices[0].request_bytes.p50" 24576 &&
	test_json sum.json ".devices[0].d2c_us.count" 12 &&
	test_json sum.json ".devices[0].q2c_us.count" 12 &&
	test_json sum.json ".devices[0].counters.writes_completed" 12 &&
	test_json sum.json ".devices[0].counters.write_bytes" 294912 &&
	test_json sum.json ".devices[0].counters.write_merges" 0 &&
	test_json sum.json ".devices[0].counters_agree" true &&
	! instance_exists "latency-block-$pid" &&
	! test -e state/state
'

test_expect_success LOSETUP,TRACEFS,UNSHARE 'kill -9: latency-machine restore removes the instance' '
	latency-block --device="$(cat loopname)" -o progress9 \
		--duration=60s 2>err &
	wait_for_line progress9 "started=1 source=tracepoints" &&
	pid=$(monitor_pid progress9) &&
	kill -9 $pid &&
	{ wait || :; } &&
	instance_exists "latency-block-$pid" &&
	grep -q "trace-instance	latency-block-$pid" state/state &&
	latency-machine restore 2>restore.err &&
	grep -q "trace-instance latency-block-$pid" restore.err &&
	! instance_exists "latency-block-$pid" &&
	! test -e state/state
'

test_expect_success 'latency-machine refuses a trace instance that is not one' '
	latency-machine begin --owner=$$ &&
	test_expect_code 2 latency-machine record --owner=$$ trace-instance \
		../../x 2>err &&
	grep -q "not an instance name" err &&
	latency-machine restore --owner=$$
'

test_expect_success LOSETUP 'tear down the loop device' '
	losetup -d "$(cat loopdev)"
'

test_done
