#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# highorder-fragmentation.sh: does the high-order probe see fragmentation?
# The order-9 success rate (latency-highorder, run by run-test.sh) on an
# idle machine, under the driver's global pressure, under that pressure
# with free memory fragmented on purpose, and with the same fragmentation
# compacted away (echo 1 >/proc/sys/vm/compact_memory) before the runs.
#
# Conditions:
#   idle        latency-highorder alone for BENCH_PROBE_S seconds, memory
#               compacted first
#   idle-frag   the same with all free memory fragmented
#   pressure    run-test.sh (global pressure as root), nothing fragmented
#   fragmented  run-test.sh, free memory fragmented right after the
#               driver's shrink, before its first (warmup) run
#   compacted   the same, then memory compacted before the first run
#   gone        the same fragmenting, the fragmenter stopped before the
#               first run: what the kernel keeps of it, without its pages
#               (not by default; BENCH_CONDITIONS)
#
# Fragmented: tests/helpers/fragment takes every free block of a huge
# page's size and gives it back but one locked page; compaction can move
# those pages, reclaim cannot free them (the helper's header says how).
# The driver's shrink builds hugetlb pages, which fragmented memory cannot
# give, so the fragmenting comes after it: the driver is stopped (SIGSTOP)
# once its shrink.txt is complete; the machine is shrunk again to the
# share from a compacted state (the first shrink stops short by chance, by
# hundreds of MiB, and the driver's own shrink before each run is off, see
# below); the memory left to the workloads is fragmented (and, for
# "compacted", compacted); and the driver goes on (SIGCONT). "pressure"
# is paused and shrunk the same way with nothing fragmented.
# Every driver run has --no-drop-caches (no reset between runs: the reset
# compacts; so no shrink again either: what the shrink in the pause left
# free, printed with each result, stays for all runs) and --sysctl=vm.compaction_proactiveness=0: kcompactd's
# proactive compaction (Linux 5.9 on) undoes such fragmentation in the
# background, here some 80 huge-page blocks a second; the driver records
# the setting and puts it back.  The idle conditions set it themselves and
# put it back at exit.
#
# The conditions run interleaved, BENCH_ROUNDS rounds, the order turned
# each round, each driver run from a machine reset first (write-back, page
# cache dropped, memory compacted).  It prints each
# result's HighOrder line and each idle probe's figures, then
# latency-compare's comparison of the three driver conditions (the
# success rates with a two-proportion test, clustered by runs).  Needs
# root and transparent huge pages; give it a quiet machine (global
# pressure presses everything on it).
#
# Tunables (environment, with defaults):
#   RUN_TEST=./run-test.sh                     the driver (from a build tree)
#   PROBE=./monitors/latency-highorder
#   FRAGMENT=./tests/helpers/fragment          (make check builds it)
#   COMPARE=./compare/latency-compare
#   MACHINE=./machine/latency-machine
#   BENCH_ROUNDS=2
#   BENCH_GITK_RUNS=5                          --gitk-runs of each driver run
#   BENCH_PROBE_S=30                           seconds of each idle probe
#   BENCH_IDLE=1                               0: no idle conditions
#   BENCH_RESULTS=(a new directory in /tmp)    where the results go
#   BENCH_ARGS=                                more run-test.sh arguments
#   BENCH_CONDITIONS="pressure fragmented compacted"   the driver conditions
#                                              (empty: the idle ones only)
set -eu

: "${RUN_TEST:=./run-test.sh}"
: "${PROBE:=./monitors/latency-highorder}"
: "${FRAGMENT:=./tests/helpers/fragment}"
: "${COMPARE:=./compare/latency-compare}"
: "${MACHINE:=./machine/latency-machine}"
: "${BENCH_ROUNDS:=2}"
: "${BENCH_GITK_RUNS:=5}"
: "${BENCH_PROBE_S:=30}"
: "${BENCH_ARGS:=}"
: "${BENCH_CONDITIONS=pressure fragmented compacted}"

die() {
	echo "$0: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (global pressure, compaction)"
need() {
	[ -x "$1" ] || die "no '$1' (run from a build tree after make check)"
}
need "$PROBE"
need "$FRAGMENT"
# The idle conditions alone need neither the driver nor latency-machine.
if [ -n "$BENCH_CONDITIONS" ]; then
	need "$RUN_TEST"
	need "$COMPARE"
	need "$MACHINE"
fi
[ -r /sys/kernel/mm/transparent_hugepage/hpage_pmd_size ] ||
	die "no transparent huge pages here"
for v in BENCH_ROUNDS BENCH_GITK_RUNS BENCH_PROBE_S; do
	case ${!v} in
	'' | *[!0-9]* | 0) die "$v must be a number of at least 1, not '${!v}'" ;;
	esac
done
for cond in $BENCH_CONDITIONS; do
	case $cond in
	pressure | fragmented | compacted | gone) ;;
	*) die "BENCH_CONDITIONS: '$cond' is not pressure, fragmented, compacted or gone" ;;
	esac
done
results=${BENCH_RESULTS:-$(mktemp -d /tmp/highorder-frag.XXXXXX)}
mkdir -p "$results"

proactive=/proc/sys/vm/compaction_proactiveness
proactive_was=
[ -w "$proactive" ] && proactive_was=$(cat "$proactive")
frag_pid=
driver_pid=
cleanup() {
	[ -z "$frag_pid" ] || kill -TERM "$frag_pid" 2>/dev/null || true
	if [ -n "$driver_pid" ]; then
		kill -CONT "$driver_pid" 2>/dev/null || true
		kill -TERM "$driver_pid" 2>/dev/null || true
		wait "$driver_pid" 2>/dev/null || true
	fi
	[ -z "$frag_pid" ] || wait "$frag_pid" 2>/dev/null || true
	[ -z "$proactive_was" ] || echo "$proactive_was" >"$proactive"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Bytes free in blocks of a huge page's size or more (zones THP uses).
huge_free() {
	awk '$4 == "DMA32" || $4 == "Normal" || $4 == "Movable" {
		for (o = 9; o + 5 <= NF; o++) s += $(o + 5) * 4096 * 2 ^ o }
		END { printf "%.0f\n", s }' /proc/buddyinfo
}

# Fragment free memory (the helper holds it until frag_stop), into $1.
frag_start() {
	"$FRAGMENT" >"$1" 2>&1 &
	frag_pid=$!
	for _ in $(seq 600); do
		grep -q '^fragmented=1' "$1" && return 0
		kill -0 "$frag_pid" 2>/dev/null || die "the fragmenter failed: $(cat "$1")"
		sleep 0.2
	done
	die "the fragmenter did not finish in 120 s"
}

frag_stop() {
	kill -TERM "$frag_pid"
	wait "$frag_pid" || true
	frag_pid=
}

compact() {
	echo 1 >/proc/sys/vm/compact_memory
}

# idle NAME [frag]: the probe alone, BENCH_PROBE_S seconds.
idle() {
	local name=$1 dir=$results/$1
	mkdir -p "$dir"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	compact
	[ -z "$proactive_was" ] || echo 0 >"$proactive"
	[ "${2:-}" != frag ] || frag_start "$dir/fragment.txt"
	echo "huge_free_bytes=$(huge_free)" >"$dir/before.txt"
	"$PROBE" -q --duration="${BENCH_PROBE_S}s" -o "$dir/highorder.log" \
		--summary="$dir/summary.csv" --format=csv
	[ -z "$frag_pid" ] || frag_stop
	[ -z "$proactive_was" ] || echo "$proactive_was" >"$proactive"
	awk -F, -v n="$name" 'NR > 1 { printf "%-22s order-%s %s/%s %.1f%% (p99 fault %.3f ms)\n",
		n, $1, $6, $5, $7, $9 / 1000 }' "$dir/summary.csv"
	# The machine-read lines, without the round's number.
	awk -F, -v n="${name%-*}" 'NR > 1 { gsub("-", "_", n)
		printf "bench: highorder_%s_order%s=%.1f %% higher\n", n, $1, $7
		printf "bench: highorder_%s_order%s_p99_fault=%.3f ms lower\n", n, $1, $9 / 1000
	}' "$dir/summary.csv" >>"$results/bench"
}

# driver NAME CONDITION: one run-test.sh result, paused after its shrink.
driver() {
	local label=$1 cond=$2 run=$results/$1 waited=0 keep
	# Every run starts from the same machine: the one before left its
	# pages and its blocks in whatever state (a run right after another
	# got 0% where the first got 48-99%, fragmented or not).
	sync
	echo 3 >/proc/sys/vm/drop_caches
	compact
	# shellcheck disable=SC2086 # BENCH_ARGS: words
	"$RUN_TEST" --label="$label" --results="$results" \
		--gitk-runs="$BENCH_GITK_RUNS" --no-drop-caches \
		--sysctl=vm.compaction_proactiveness=0 $BENCH_ARGS \
		>"$results/$label.out" 2>&1 &
	driver_pid=$!
	until grep -q '^workload_free_bytes=' "$run/shrink.txt" 2>/dev/null; do
		kill -0 "$driver_pid" 2>/dev/null ||
			die "run-test.sh ended before its shrink (see $results/$label.out)"
		sleep 0.05
		waited=$((waited + 1))
		[ "$waited" -lt 6000 ] || die "no shrink in 5 minutes (see $results/$label.out)"
	done
	kill -STOP "$driver_pid"
	# The first shrink stops short by chance (a reached=no, hundreds of
	# MiB more or less): shrink again to the share, as the driver's reset
	# does before every run, so that all conditions start from it.
	keep=$(sed -n 's/.*shrinking the machine to leave \([0-9]*\) bytes.*/\1/p' \
		"$results/$label.out")
	[ -n "$keep" ] || die "no share in $results/$label.out"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	compact
	"$MACHINE" shrink --owner="$driver_pid" --keep="$keep" >"$results/$label.reshrink.txt" \
		2>>"$results/$label.reshrink.err" || die "cannot shrink again (see $results/$label.reshrink.err)"
	case $cond in
	fragmented) frag_start "$results/$label.fragment.txt" ;;
	compacted)
		frag_start "$results/$label.fragment.txt"
		compact
		;;
	gone)
		frag_start "$results/$label.fragment.txt"
		frag_stop
		;;
	esac
	echo "huge_free_bytes=$(huge_free)" >"$results/$label.before.txt"
	kill -CONT "$driver_pid"
	wait "$driver_pid" || die "run-test.sh failed (see $results/$label.out)"
	driver_pid=
	[ -z "$frag_pid" ] || frag_stop
	printf "%-22s %s  [free for the workloads %s MiB, in huge-page blocks %s MiB]\n" \
		"$label" "$(sed -n '2s/^[^ ]* HighOrder: //p' "$run/summary.txt")" \
		"$(($(sed -n 's/^workload_free_bytes=//p' "$results/$label.reshrink.txt") / 1048576))" \
		"$(($(sed -n 's/^huge_free_bytes=//p' "$results/$label.before.txt") / 1048576))"
}

echo "# $(uname -r), THP enabled $(cat /sys/kernel/mm/transparent_hugepage/enabled), defrag $(cat /sys/kernel/mm/transparent_hugepage/defrag)"
echo "# results in $results"
for round in $(seq "$BENCH_ROUNDS"); do
	if [ "${BENCH_IDLE:-1}" = 1 ]; then
		idle "idle-$round"
		idle "idle-frag-$round" frag
	fi
	[ -n "$BENCH_CONDITIONS" ] || continue
	# The order turns each round, so that no condition is always first.
	# shellcheck disable=SC2086 # BENCH_CONDITIONS: words
	set -- $BENCH_CONDITIONS
	shift $(((round - 1) % $#))
	for cond in "$@" $BENCH_CONDITIONS; do
		[ -e "$results/$cond-$round.out" ] && break
		driver "$cond-$round" "$cond"
	done
done

args=()
for cond in $BENCH_CONDITIONS; do
	list=
	for round in $(seq "$BENCH_ROUNDS"); do
		list=${list:+$list,}$results/$cond-$round
	done
	args+=("$cond=$list")
done
echo
[ ${#args[@]} = 0 ] || "$COMPARE" "${args[@]}"
[ ! -e "$results/bench" ] || cat "$results/bench"
