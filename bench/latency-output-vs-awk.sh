#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/latency-output-vs-awk.sh: is latency-output ever the slow end of a
# pipe?  Lines per second of latency-output against an awk one-liner that
# writes the same stream lines (mmtests' "%16.4f %8.4f %10.4f -- %s"
# layout), on the same generated progress lines, in one run; prints both
# rates and the ratio.  Timing is best of BENCH_RUNS for each, runs
# alternating, output to /dev/null, in wall-clock time and in CPU time (user
# + system, which a loaded machine disturbs less); the lines themselves are
# compared separately on the first BENCH_CHECK lines.
#
# Environment (defaults):
#   LATENCY_OUTPUT=latency-output/latency-output   the binary measured
#   BENCH_LINES=5000000                             progress lines of input
#   BENCH_AWK=mawk                                  the awk compared with
#   BENCH_RUNS=3                                    runs of each, best kept
#   BENCH_CHECK=200000                              lines compared for equality
set -eu

: "${LATENCY_OUTPUT:=latency-output/latency-output}"
: "${BENCH_LINES:=5000000}"
: "${BENCH_AWK:=mawk}"
: "${BENCH_RUNS:=3}"
: "${BENCH_CHECK:=200000}"

die() {
	echo "$0: $*" >&2
	exit 1
}

[ -x "$LATENCY_OUTPUT" ] || die "no latency-output at '$LATENCY_OUTPUT' (set LATENCY_OUTPUT)"
command -v "$BENCH_AWK" >/dev/null 2>&1 || die "'$BENCH_AWK' not found (set BENCH_AWK)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fake-gitk-like progress lines: about 1 ms apart, jittered, a stall now
# and then; timestamps in CLOCK_MONOTONIC seconds with 9 decimals.
"$BENCH_AWK" -v n="$BENCH_LINES" 'BEGIN {
	t = 12345000000000
	for (i = 0; i < n; i++) {
		t += 1000003 + (i * 7919) % 500000
		if (i % 100000 == 99999)
			t += 1500000000
		printf "%d.%09d fake-gitk commits=%d bytes=%d\n",
			int(t / 1000000000), t % 1000000000, i * 20, i * 4096
	}
}' >"$tmp/in"

# shellcheck disable=SC2016 # an awk program, not shell
awk_prog='{
	t = $1 + 0
	if (NR == 1) { s = t; p = t }
	printf "%16.4f %8.4f %10.4f -- %s\n", t + off, t - s, t - p, $0
	p = t
}'
offset=1700000000

run_lo() {
	"$LATENCY_OUTPUT" --epoch-offset "$offset" <"$1" >"$2" 2>/dev/null
}

run_awk() {
	"$BENCH_AWK" -v off="$offset" "$awk_prog" <"$1" >"$2"
}

now_us() {
	local t=$EPOCHREALTIME
	echo "${t/./}"
}

# CPU time (user + system) of all waited-for children so far, in us, into
# the variable named $1 ("times" must run in this shell, not a subshell).
children_cpu_us() {
	times >"$tmp/times"
	printf -v "$1" '%s' "$(awk 'function us(t,  m) {
		m = t; sub(/m.*/, "", m); sub(/^[0-9]*m/, "", t); sub(/s$/, "", t)
		return int((m * 60 + t) * 1e6 + 0.5)
	} NR == 2 { print us($1) + us($2) }' "$tmp/times")"
}

# Best (smallest) wall and CPU time in microseconds of BENCH_RUNS runs.
best_lo=
best_awk=
cpu_lo=
cpu_awk=
c0=0 c1=0 c2=0
for _ in $(seq "$BENCH_RUNS"); do
	children_cpu_us c0
	t0=$(now_us)
	run_lo "$tmp/in" /dev/null
	t1=$(now_us)
	children_cpu_us c1
	run_awk "$tmp/in" /dev/null
	t2=$(now_us)
	children_cpu_us c2
	lo=$((t1 - t0))
	aw=$((t2 - t1))
	clo=$((c1 - c0))
	caw=$((c2 - c1))
	if [ -z "$best_lo" ] || [ "$lo" -lt "$best_lo" ]; then best_lo=$lo; fi
	if [ -z "$best_awk" ] || [ "$aw" -lt "$best_awk" ]; then best_awk=$aw; fi
	if [ -z "$cpu_lo" ] || [ "$clo" -lt "$cpu_lo" ]; then cpu_lo=$clo; fi
	if [ -z "$cpu_awk" ] || [ "$caw" -lt "$cpu_awk" ]; then cpu_awk=$caw; fi
done

head -n "$BENCH_CHECK" "$tmp/in" >"$tmp/check"
run_lo "$tmp/check" "$tmp/lo.out"
run_awk "$tmp/check" "$tmp/awk.out"
differ=$(diff "$tmp/lo.out" "$tmp/awk.out" | grep -c '^<' || true)

awk -v n="$BENCH_LINES" -v lo="$best_lo" -v aw="$best_awk" \
	-v clo="$cpu_lo" -v caw="$cpu_awk" -v awkname="$BENCH_AWK" \
	-v check="$BENCH_CHECK" -v differ="$differ" 'BEGIN {
	printf "input:          %d progress lines\n", n
	printf "%-15s %7.3f s wall %6.2f M lines/s   %7.3f s CPU %6.2f M lines/s\n",
		"latency-output:", lo / 1e6, n / lo, clo / 1e6, n / clo
	printf "%-15s %7.3f s wall %6.2f M lines/s   %7.3f s CPU %6.2f M lines/s\n",
		awkname ":", aw / 1e6, n / aw, caw / 1e6, n / caw
	printf "same stream lines: %d of the first %d differ", differ, check
	printf " (awk rounds binary doubles, latency-output exact nanoseconds)\n"
	printf "ratio:          %.1fx awk (wall), %.1fx awk (CPU)\n", aw / lo, caw / clo
	printf "bench: latency_output_wall=%.0f lines/s higher\n", n / lo * 1e6
	printf "bench: latency_output_cpu=%.0f lines/s higher\n", n / clo * 1e6
}'
