#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seqbench-vs-fio.sh: seqbench against fio running the equivalent jobs, back
# to back, and seqbench's own per-op overhead.
#
# For each repetition and thread count: one seqbench run (its four phases),
# then fio's four equivalent jobs, one per phase: psync, one file per job in
# the same directory, the same block size and file sizes, invalidate=0,
# end_fsync=1 on writes, norandommap, fallocate=none, fresh files for the
# sequential write (seqbench truncates).  fio runs twice: with --thread,
# the equivalent of seqbench's threads (the ratio is against this), and as
# processes, its default, for information: on some kernels threads of one
# process read the page cache much slower than separate processes.  Every phase runs for BENCH_TIME in
# both tools (seqbench --time, fio time_based): reads from the page cache
# of files small enough to write in a second finish far below a second
# otherwise.  The first repetition is discarded (warm-up); the figures are
# medians of the others: each tool's MiB/s and the ratio seqbench/fio,
# computed per repetition (back-to-back pairs cancel slow drifts).
#
# Then seqbench --null-io (everything but the syscalls) gives the cost of
# its bookkeeping per op: one clock read, the histogram update, the loop.
#
# Tunables (environment, with defaults):
#   SEQBENCH=./seqbench/seqbench   the binary to measure
#   BENCH_DIR=/var/tmp             where the files go (a real disk)
#   BENCH_THREADS="8 16"           thread counts
#   BENCH_BLOCK=64k                block size (seqbench and fio syntax)
#   BENCH_SIZE_MIB=256             total file size over all threads
#   BENCH_TIME=1500ms              length of every phase
#   BENCH_REPS=6                   repetitions, the first one discarded
set -eu

: "${SEQBENCH:=./seqbench/seqbench}"
: "${BENCH_DIR:=/var/tmp}"
: "${BENCH_THREADS:=8 16}"
: "${BENCH_BLOCK:=64k}"
: "${BENCH_SIZE_MIB:=256}"
: "${BENCH_TIME:=1500ms}"
: "${BENCH_REPS:=6}"

die() {
	echo "$0: $*" >&2
	exit 1
}

command -v fio >/dev/null 2>&1 || die "fio is not installed"
[ -x "$SEQBENCH" ] || die "no seqbench at '$SEQBENCH' (set SEQBENCH)"
[ "$BENCH_REPS" -ge 2 ] || die "BENCH_REPS must be at least 2"

work=$(mktemp -d "$BENCH_DIR/seqbench-vs-fio.XXXXXX")
results=$(mktemp -d)
trap 'rm -rf "$work" "$results"' EXIT

phases="seq_write rand_write seq_read rand_read"

# fio's rw= for each phase, and whether it writes.
fio_rw() {
	case $1 in
	seq_write) echo write ;;
	rand_write) echo randwrite ;;
	seq_read) echo read ;;
	rand_read) echo randread ;;
	esac
}

# One seqbench run; writes "phase MiB/s" lines to $results/sb.$threads.$rep.
run_seqbench() {
	local threads=$1 rep=$2 out=$results/sb.$1.$2.terse
	"$SEQBENCH" -q -t "$threads" -b "$BENCH_BLOCK" -s "$BENCH_SIZE_MIB" \
		--time "$BENCH_TIME" -d "$work" --format terse >"$out"
	# terse: phase:MiB,seconds,...
	awk -F '[:,]' '
	$1 == "write" { p = "seq_write" }
	$1 == "rwrite" { p = "rand_write" }
	$1 == "read" { p = "seq_read" }
	$1 == "rread" { p = "rand_read" }
	$1 == "total" { next }
	{ printf "%s %.3f\n", p, $2 / $3 }' "$out" >"$results/sb.$threads.$rep"
}

# fio's four jobs as threads (MODE thr) or processes (proc); writes "phase
# MiB/s" lines to $results/MODE.$threads.$rep.
run_fio() {
	local mode=$1 threads=$2 rep=$3 phase rw per_mib kb ms out
	local thread_opt=()
	[ "$mode" = thr ] && thread_opt=(--thread)
	per_mib=$((BENCH_SIZE_MIB / threads))
	rm -f "$work"/f.*
	: >"$results/$mode.$threads.$rep"
	for phase in $phases; do
		rw=$(fio_rw "$phase")
		out=$results/$mode.$threads.$rep.$phase
		local extra=()
		case $phase in
		*write) extra=(--end_fsync=1) ;;
		esac
		fio "${thread_opt[@]}" --name=f --directory="$work" --rw="$rw" \
			--bs="$BENCH_BLOCK" --size="${per_mib}m" \
			--numjobs="$threads" --ioengine=psync --invalidate=0 \
			--norandommap --fallocate=none --time_based \
			--runtime="$BENCH_TIME" --group_reporting \
			--output-format=terse --terse-version=3 "${extra[@]}" >"$out"
		# terse v3: read KiB and runtime ms are fields 6 and 9, write 47, 50.
		case $phase in
		*write) kb=$(cut -d';' -f47 "$out") ms=$(cut -d';' -f50 "$out") ;;
		*) kb=$(cut -d';' -f6 "$out") ms=$(cut -d';' -f9 "$out") ;;
		esac
		[ "$ms" -gt 0 ] || die "fio reported no runtime for $phase"
		awk -v p="$phase" -v kb="$kb" -v ms="$ms" \
			'BEGIN { printf "%s %.3f\n", p, kb / 1024 / (ms / 1000) }' \
			>>"$results/$mode.$threads.$rep"
	done
	rm -f "$work"/f.*
}

median() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2]
		else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

value() {
	awk -v p="$2" '$1 == p { print $2 }' "$1"
}

echo "# seqbench-vs-fio: $("$SEQBENCH" --version), $(fio --version)," \
	"kernel $(uname -r), $(nproc) CPUs"
echo "# dir $BENCH_DIR, block $BENCH_BLOCK, size $BENCH_SIZE_MIB MiB," \
	"phases of $BENCH_TIME, $BENCH_REPS repetitions (first discarded)"

for rep in $(seq 1 "$BENCH_REPS"); do
	for threads in $BENCH_THREADS; do
		echo "# repetition $rep, $threads threads" >&2
		run_seqbench "$threads" "$rep"
		run_fio thr "$threads" "$rep"
		run_fio proc "$threads" "$rep"
	done
done

printf '%-10s %7s %11s %11s %11s %9s %9s\n' phase threads seqbench \
	fio-thread fio-process ratio ratio-p
for threads in $BENCH_THREADS; do
	for phase in $phases; do
		for m in sb thr proc r rp; do : >"$results/m.$m"; done
		for rep in $(seq 2 "$BENCH_REPS"); do
			s=$(value "$results/sb.$threads.$rep" "$phase")
			t=$(value "$results/thr.$threads.$rep" "$phase")
			p=$(value "$results/proc.$threads.$rep" "$phase")
			echo "$s" >>"$results/m.sb"
			echo "$t" >>"$results/m.thr"
			echo "$p" >>"$results/m.proc"
			awk -v s="$s" -v f="$t" \
				'BEGIN { printf "%.4f\n", s / f }' >>"$results/m.r"
			awk -v s="$s" -v f="$p" \
				'BEGIN { printf "%.4f\n", s / f }' >>"$results/m.rp"
		done
		printf '%-10s %7s %11s %11s %11s %9s %9s\n' "$phase" "$threads" \
			"$(median <"$results/m.sb")" "$(median <"$results/m.thr")" \
			"$(median <"$results/m.proc")" "$(median <"$results/m.r")" \
			"$(median <"$results/m.rp")"
		echo "seqbench_${phase}_t$threads=$(median <"$results/m.sb") MiB/s higher" \
			>>"$results/bench"
	done
done
echo "# MiB/s, medians; ratio = seqbench / fio --thread (the equivalent" \
	"jobs), ratio-p = seqbench / fio processes"

# Overhead: no IO, one thread, one second per phase.
"$SEQBENCH" -q --null-io -t 1 -b "$BENCH_BLOCK" -s 64M --time 1s \
	-d "$work" --csv >"$results/null.csv"
echo "# seqbench's own cost per op (--null-io: a clock read, histogram," \
	"loop), ns"
awk -F, 'NR > 1 {
	printf "%-10s %8.1f ns/op over %d ops\n", $12, $16 * 1e9 / $14, $14
}' "$results/null.csv"
# The machine-read lines: seqbench's medians, and its cost per op.
sed 's/^/bench: /' "$results/bench"
awk -F, 'NR > 1 {
	printf "bench: seqbench_null_%s=%.1f ns/op lower\n", $12, $16 * 1e9 / $14
}' "$results/null.csv"
