#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ringbench against its anchors, in one run, interleaved (A B A B ...):
#   ring: `perf bench sched pipe -T` (two threads, a pipe each way) against
#         `ringbench ring -t 2 -w 0 -s 0 --via pipe`, both under taskset on
#         the same CPUs: microseconds per round trip and the ratio
#         ringbench / perf (the tool's own overhead: target within 5%);
#   rr:   `ringbench rr` (TCP loopback, 1-byte request and response)
#         against a minimal Python socket ping-pong doing the same: the
#         transactions/s ratio (Python is a floor, not a target);
#   calibrate: `ringbench calibrate -w 20ms -n 9` each repetition: how far
#         the calibrated work (--work) lands from the CPU time asked, in
#         percent (target within 5%; its test only refuses 10x off).
# For each, the median of the repetitions, the ratio of medians, and the
# coefficient of variation of each tool over its repetitions.  A
# measurement, not a test: nothing here fails on speed.
#
# Environment:
#   RINGBENCH         the program to measure (default: ringbench on PATH,
#                     else ./ringbench/ringbench)
#   BENCH_CPUS=0      taskset CPU list both tools run on (0: one CPU, the
#                     two tasks switch on it; 0,1: the scheduler places them)
#   BENCH_RUNS=10     repetitions of each tool
#   BENCH_SECONDS=10  seconds per repetition (perf's loop count is sized
#                     from a 1-second pilot to last as long)
#   BENCH_WARMUP=1s   ringbench's warmup before each repetition
set -eu

: "${BENCH_CPUS:=0}"
: "${BENCH_RUNS:=10}"
: "${BENCH_SECONDS:=10}"
: "${BENCH_WARMUP:=1s}"
if [ -z "${RINGBENCH:-}" ]; then
	RINGBENCH=$(command -v ringbench || echo ./ringbench/ringbench)
fi

die() {
	echo "$0: $*" >&2
	exit 1
}

[ -x "$RINGBENCH" ] || die "cannot run '$RINGBENCH' (set RINGBENCH)"
command -v perf >/dev/null || die "perf is not installed (apt-get install linux-perf)"
command -v python3 >/dev/null || die "python3 is not installed"
command -v jq >/dev/null || die "jq is not installed"
command -v taskset >/dev/null || die "taskset is not installed (util-linux)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# perf_us LOOPS: perf's microseconds per round trip.
perf_us() {
	taskset -c "$BENCH_CPUS" perf bench sched pipe -T -l "$1" >"$tmp/perf" 2>&1 ||
		die "perf bench failed: $(cat "$tmp/perf")"
	awk '$2 == "usecs/op" { print $1 }' "$tmp/perf"
}

ring_us() {
	taskset -c "$BENCH_CPUS" "$RINGBENCH" ring -t 2 -w 0 -s 0 --via pipe \
		-d "${BENCH_SECONDS}s" --warmup "$BENCH_WARMUP" --format json \
		-o "$tmp/ring.json"
	jq -r .us_per_cycle "$tmp/ring.json"
}

rr_tps() {
	taskset -c "$BENCH_CPUS" "$RINGBENCH" rr -d "${BENCH_SECONDS}s" \
		--warmup "$BENCH_WARMUP" --format json -o "$tmp/rr.json"
	jq -r .transactions_per_s "$tmp/rr.json"
}

cal_err() {
	taskset -c "$BENCH_CPUS" "$RINGBENCH" calibrate -w 20ms -n 9 --format json \
		-o "$tmp/cal.json"
	jq -r .work_error_pct "$tmp/cal.json"
}

# The floor: the same 1-byte TCP_NODELAY ping-pong in plain Python.
cat >"$tmp/pingpong.py" <<'EOF'
import socket, sys, threading, time

secs = float(sys.argv[1])
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)

def serve():
    c, _ = srv.accept()
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    while True:
        b = c.recv(1)
        if not b:
            return
        c.sendall(b)

threading.Thread(target=serve, daemon=True).start()
s = socket.create_connection(srv.getsockname())
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
n = 0
end = time.monotonic() + secs
t0 = time.monotonic()
while time.monotonic() < end:
    s.sendall(b"x")
    s.recv(1)
    n += 1
print(n / (time.monotonic() - t0))
EOF

py_tps() {
	taskset -c "$BENCH_CPUS" python3 "$tmp/pingpong.py" "$BENCH_SECONDS"
}

# stats NAME: "median cov%" of the numbers in $tmp/NAME.
stats() {
	sort -g "$tmp/$1" | awk '
	{ v[NR] = $1; s += $1; ss += $1 * $1 }
	END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		mean = s / NR
		sd = NR > 1 ? sqrt((ss - NR * mean * mean) / (NR - 1)) : 0
		printf "%.4f %.2f", m, mean ? sd / mean * 100 : 0
	}'
}

pilot=$(perf_us 100000)
loops=$(awk -v us="$pilot" -v s="$BENCH_SECONDS" 'BEGIN { printf "%d", s * 1e6 / us }')
echo "== $(uname -r), CPUs $BENCH_CPUS, $BENCH_RUNS x ${BENCH_SECONDS}s each, interleaved"
echo "   perf bench sched pipe -T -l $loops (pilot: $pilot us/op)"
: >"$tmp/perf.v"
: >"$tmp/ring.v"
: >"$tmp/rr.v"
: >"$tmp/py.v"
: >"$tmp/cal.v"
for ((i = 1; i <= BENCH_RUNS; i++)); do
	p=$(perf_us "$loops")
	r=$(ring_us)
	q=$(rr_tps)
	y=$(py_tps)
	c=$(cal_err)
	echo "$c" >>"$tmp/cal.v"
	echo "$p" >>"$tmp/perf.v"
	echo "$r" >>"$tmp/ring.v"
	echo "$q" >>"$tmp/rr.v"
	echo "$y" >>"$tmp/py.v"
	printf '   run %2d: perf %.3f us/op, ring %.3f us/cycle, rr %.0f/s, python %.0f/s, work %+.2f%%\n' \
		"$i" "$p" "$r" "$q" "$y" "$c"
done

read -r pm pc <<<"$(stats perf.v)"
read -r rm rc <<<"$(stats ring.v)"
read -r qm qc <<<"$(stats rr.v)"
read -r ym yc <<<"$(stats py.v)"
echo "== ring, microseconds per round trip (median, CoV over runs)"
printf '   perf bench sched pipe -T:           %.3f us  CoV %.2f%%\n' "$pm" "$pc"
printf '   ringbench ring -t 2 -w 0 -s 0:      %.3f us  CoV %.2f%%\n' "$rm" "$rc"
awk -v a="$rm" -v b="$pm" 'BEGIN { printf "   ratio ringbench / perf:             %.3f\n", a / b }'
echo "== rr, TCP loopback 1-byte transactions per second (median, CoV)"
printf '   ringbench rr:                       %.0f/s  CoV %.2f%%\n' "$qm" "$qc"
printf '   python ping-pong:                   %.0f/s  CoV %.2f%%\n' "$ym" "$yc"
awk -v a="$qm" -v b="$ym" 'BEGIN { printf "   ratio ringbench / python:           %.3f\n", a / b }'
echo "== calibrate, work of 20 ms against the CPU time it took (median of 9 each)"
sort -g "$tmp/cal.v" | awk '{ v[NR] = $1 } END {
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "   work error: median %+.2f%%, range %+.2f..%+.2f%%\n", m, v[1], v[NR] }'
echo "bench: ringbench_ring=$rm us/cycle lower"
echo "bench: ringbench_rr=$qm transactions/s higher"
