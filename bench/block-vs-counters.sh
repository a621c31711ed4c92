#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# block-vs-counters.sh: is latency-block exact, and what does it cost?
#
# 1. Exact: the same IO (seqbench on a loop device: sequential and random
#    writes and reads, with and without O_DIRECT) measured by latency-block
#    (tracepoints) and by the device's own counters, /sys/block/NAME/stat,
#    read by this script before and after (what iostat reads).  Completed
#    requests and bytes, reads and writes, and merges must be equal: the
#    script exits 1 when one is not.  Queued and dispatched are printed
#    beside them (the counters do not have them).
# 2. Cost: seqbench's sequential-write throughput (4k O_DIRECT writes: the
#    most requests per byte, the monitor's worst case) alone and with
#    latency-block tracing the device, BENCH_PAIRS pairs, the order of each
#    pair turned in turns (AB BA AB ...), one run; the mean of each arm,
#    its CoV, and the ratio with / alone.
# blktrace cannot open its relay files in debugfs on kernels that lock
# debugfs down (this one: "Operation not permitted" on block/loopN/trace0);
# where it can (a latency-vm guest with Debian's kernel), BENCH_BLKTRACE=1
# adds blktrace's own run to part 2.
#
# Needs root (a loop device, tracing) and jq.
#
# Tunables (environment, with defaults):
#   BLOCK=./monitors/latency-block
#   SEQBENCH=./seqbench/seqbench
#   MACHINE=./machine/latency-machine
#   BENCH_PAIRS=5            pairs of seqbench runs for the cost
#   BENCH_SIZE=64M           the loop device's size and seqbench's -s
#   BENCH_BLOCK=4k           seqbench's -b in part 2
#   BENCH_BLKTRACE=0         1: blktrace too, where it works
#   BENCH_DIR=(a new directory in /tmp)   the backing file, the outputs
set -eu

: "${BLOCK:=./monitors/latency-block}"
: "${SEQBENCH:=./seqbench/seqbench}"
: "${MACHINE:=./machine/latency-machine}"
: "${BENCH_PAIRS:=5}"
: "${BENCH_SIZE:=64M}"
: "${BENCH_BLKTRACE:=0}"
: "${BENCH_BLOCK:=4k}"

die() {
	echo "$0: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (a loop device, tracing)"
for p in "$BLOCK" "$SEQBENCH" "$MACHINE"; do
	[ -x "$p" ] || die "no '$p' (run from a build tree)"
done
command -v jq >/dev/null || die "needs jq"
case $BENCH_PAIRS in
'' | *[!0-9]* | 0) die "BENCH_PAIRS must be a number of at least 1" ;;
esac
dir=${BENCH_DIR:-$(mktemp -d /tmp/block-bench.XXXXXX)}
mkdir -p "$dir"
export LATENCY_MACHINE="$MACHINE" LATENCY_STATE_DIR="$dir/state"
truncate -s "$BENCH_SIZE" "$dir/disk.img"
loop=$(losetup -f --show "$dir/disk.img")
name=${loop##*/}
trap 'losetup -d "$loop"' EXIT
echo "device: $loop ($BENCH_SIZE, scheduler $(cat "/sys/block/$name/queue/scheduler"))"
echo "kernel: $(uname -r); results in $dir"

# stat fields: reads completed 1, merges 2, sectors 3; writes 5, 6, 7.
stat_of() {
	read -r -a s <"/sys/block/$name/stat"
	echo "${s[0]} ${s[1]} ${s[2]} ${s[4]} ${s[5]} ${s[6]}"
}

# seqbench on the device with ARGS; its JSON to $1.
seqbench_run() {
	_out=$1
	shift
	"$SEQBENCH" --target="$loop" --yes-destroy="$loop" -t 1 -s "$BENCH_SIZE" \
		-q --format json -o "$_out" "$@" >/dev/null
}

# The monitor on the device until stopped; its summary to $1.
block_start() {
	"$BLOCK" --device="$name" --format=json --summary="$1" -o "$1.log" \
		2>"$1.err" &
	block_pid=$!
	for _i in $(seq 100); do
		grep -q ' started=1 ' "$1.log" 2>/dev/null && break
		sleep 0.1
	done
	grep -q ' started=1 source=tracepoints ' "$1.log" ||
		die "latency-block is not tracing here: $(cat "$1.err")"
}
block_stop() {
	kill -INT "$block_pid"
	wait "$block_pid"
}

echo
echo "== 1. exact: latency-block against /sys/block/$name/stat =="
bad=0
for mode in buffered direct; do
	set -- -b 4k -r 2000
	[ $mode = buffered ] || set -- "$@" --directio
	sync
	echo 3 >/proc/sys/vm/drop_caches
	before=$(stat_of)
	block_start "$dir/exact-$mode.json"
	seqbench_run "$dir/seqbench-$mode.json" "$@"
	sync
	block_stop
	after=$(stat_of)
	read -r -a b <<<"$before"
	read -r -a a <<<"$after"
	j=$dir/exact-$mode.json
	printf '%-28s %14s %14s\n' "seqbench -b 4k ($mode)" latency-block "stat delta"
	row() {
		_lb=$(jq -r ".devices[0].$1" "$j")
		printf '%-28s %14s %14s\n' "$2" "$_lb" "${3:--}"
		[ -z "${3-}" ] || [ "$_lb" = "$3" ] || bad=1
	}
	row reads.queued "reads queued"
	row reads.dispatched "read dispatches"
	row reads.completed "reads completed" $((a[0] - b[0]))
	row reads.completed_bytes "read bytes" $(((a[2] - b[2]) * 512))
	row reads.merges "read merges" $((a[1] - b[1]))
	row writes.queued "writes queued"
	row writes.dispatched "write dispatches"
	row writes.completed "writes completed" $((a[3] - b[3]))
	row writes.completed_bytes "write bytes" $(((a[5] - b[5]) * 512))
	row writes.merges "write merges" $((a[4] - b[4]))
	row q2c_us.p50 "Q2C p50 us"
	row q2c_us.p99 "Q2C p99 us"
	row d2c_us.p99 "D2C p99 us"
	echo
done
if [ $bad = 0 ]; then
	echo "every completed count, byte count and merge count equal"
else
	echo "NOT EQUAL (see above)"
fi

echo
echo "== 2. cost: seqbench seq_write MiB/s (-b $BENCH_BLOCK --directio), $BENCH_PAIRS pairs =="
rate() {
	jq -r '.results[0].phases.seq_write.rate_mib_s' "$1"
}
alone='' traced='' ticks=0 lines=0 requests=0
for i in $(seq "$BENCH_PAIRS"); do
	order="alone traced"
	[ $((i % 2)) = 1 ] || order="traced alone"
	for arm in $order; do
		out=$dir/cost-$i-$arm.json
		if [ "$arm" = traced ]; then
			block_start "$dir/cost-$i-block.json"
			seqbench_run "$out" -b "$BENCH_BLOCK" -r 1 --directio
			# Its CPU (the kernel's formatting of trace_pipe is in
			# its system time), before it ends.
			ticks=$((ticks + $(awk '{ print $14 + $15 }' "/proc/$block_pid/stat")))
			block_stop
			j=$dir/cost-$i-block.json
			lines=$((lines + $(jq .trace_lines "$j")))
			requests=$((requests + $(jq '.devices[0] | .reads.completed + .writes.completed' "$j")))
			traced="$traced $(rate "$out")"
		else
			seqbench_run "$out" -b "$BENCH_BLOCK" -r 1 --directio
			alone="$alone $(rate "$out")"
		fi
	done
	echo "pair $i ($order): alone$(echo "$alone" | awk '{print " " $NF}') traced$(echo "$traced" | awk '{print " " $NF}')"
done
stats() {
	echo "$1" | awk '{ for (i = 1; i <= NF; i++) { s += $i; q += $i * $i }
		m = s / NF; sd = NF > 1 ? sqrt((q - NF * m * m) / (NF - 1)) : 0
		printf "%.1f %.2f", m, 100 * sd / m }'
}
read -r am acv <<<"$(stats "$alone")"
read -r tm tcv <<<"$(stats "$traced")"
echo "alone:  mean $am MiB/s, CoV $acv%"
echo "traced: mean $tm MiB/s, CoV $tcv%"
awk -v a="$am" -v t="$tm" 'BEGIN { printf "ratio traced/alone: %.3f (%+.1f%%)\n", t / a, 100 * (t / a - 1) }'
# What the machine's noise does not blur: the monitor's own CPU per line
# and per request completed.
awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" -v l="$lines" -v r="$requests" \
	'BEGIN { s = t / hz; printf "latency-block CPU: %.2f s for %d lines, %d requests: %.2f us a line, %.2f us a request\n", s, l, r, l ? 1e6 * s / l : 0, r ? 1e6 * s / r : 0 }'

if [ "$BENCH_BLKTRACE" = 1 ]; then
	echo
	echo "== blktrace's own cost (same runs) =="
	for i in $(seq "$BENCH_PAIRS"); do
		blktrace -d "$loop" -D "$dir/blktrace-$i" 2>"$dir/blktrace.err" &
		bt=$!
		sleep 1
		kill -0 $bt 2>/dev/null || die "blktrace cannot run here: $(cat "$dir/blktrace.err")"
		seqbench_run "$dir/cost-$i-blktrace.json" -b "$BENCH_BLOCK" -r 1 --directio
		kill -INT $bt
		wait $bt || :
		echo "run $i: blktrace $(rate "$dir/cost-$i-blktrace.json") MiB/s"
	done
fi
[ $bad = 0 ]
