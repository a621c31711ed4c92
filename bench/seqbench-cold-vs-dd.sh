#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# seqbench-cold-vs-dd.sh: seqbench --read-only against the 2009 commands on
# the same cold data, in one run: a big file read by `dd of=/dev/null` with
# bs=1M and bs=16k, and a tree of files read by `tar cf - DIR | cat
# >/dev/null`.
#
# The data is made once (seqbench --prepare, --make-tree: seeded, synced).
# Each repetition then reads it six times, interleaved so that slow drifts
# of a shared machine touch both tools alike: seqbench -b 1M, dd bs=1M,
# seqbench -b 16k, dd bs=16k, seqbench on the tree, tar on the tree.  Every
# read starts cold: seqbench drops the page cache itself (and says whether
# the data was cold), the script does it before dd and tar (sync, 3 to
# /proc/sys/vm/drop_caches).
#
# In a virtual machine the disk has a cache of its own, the host's page
# cache, which the guest cannot drop: a read right after another read of
# the same data comes from it, many times faster, and the first of two
# tools would pay for the second.  With BENCH_PRIME=1 (the default) the
# data is read once before every measured read (a plain read, whose guest
# copy the drop then discards), so that every read meets the same host
# state: cold in the guest, warm below it.  BENCH_PRIME=0 on bare metal.  dd's rate is its own (the seconds it prints);
# tar's is the tree's bytes over bash's `time` of the pipeline (the tree
# read takes seconds, so its millisecond resolution is enough).  The
# readahead is the machine's as found (printed); seqbench --readahead sets
# others, dd and tar cannot.
#
# It prints each tool's MiB/s per repetition, the median ratio
# seqbench/other per case, and the coefficient of variation (stddev/mean)
# of each tool's cold reads.  Needs root.
#
# Tunables (environment, with defaults):
#   SEQBENCH=./seqbench/seqbench   the binary to measure
#   BENCH_DIR=/var/tmp             where the data goes (a real disk, not tmpfs)
#   BENCH_FILE_SIZE=2G             the big file
#   BENCH_TREE=500:4M              the tree: files:size of each
#   BENCH_REPS=5                   repetitions (cold reads per case)
#   BENCH_PRIME=1                  read the data before each measured read
set -eu

: "${SEQBENCH:=./seqbench/seqbench}"
: "${BENCH_DIR:=/var/tmp}"
: "${BENCH_FILE_SIZE:=2G}"
: "${BENCH_TREE:=500:4M}"
: "${BENCH_REPS:=5}"
: "${BENCH_PRIME:=1}"

die() {
	echo "$0: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (cold reads drop the page cache)"
[ -x "$SEQBENCH" ] || die "no seqbench at '$SEQBENCH' (set SEQBENCH)"
[ "$BENCH_REPS" -ge 2 ] || die "BENCH_REPS must be at least 2"
case $(stat -f -c %T "$BENCH_DIR") in
tmpfs | ramfs) die "'$BENCH_DIR' is in memory: set BENCH_DIR to a disk" ;;
esac

work=$(mktemp -d "$BENCH_DIR/seqbench-cold.XXXXXX")
results=$(mktemp -d)
trap 'rm -rf "$work" "$results"' EXIT

drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

echo "# $(uname -r), $("$SEQBENCH" --version | head -n 1), $(dd --version | head -n 1), $(tar --version | head -n 1)"
echo "# data in $work ($(df -T "$work" | awk 'NR == 2 { print $1, $2 }'))"
"$SEQBENCH" --prepare -s "$BENCH_FILE_SIZE" -d "$work/dd.out"
"$SEQBENCH" --make-tree "$BENCH_TREE" -d "$work/tree"
tree_bytes=$(find "$work/tree" -type f -printf "%s\n" | awk '{ s += $1 } END { print s }')

# Read the file (or the tree, with "tree") once, for the host's cache.
prime() {
	[ "$BENCH_PRIME" = 1 ] || return 0
	if [ "$1" = tree ]; then
		tar cf - -C "$work" tree | cat >/dev/null
	else
		cat "$work/dd.out" >/dev/null
	fi
}

# seqbench's MiB/s of one cold read (terse: phase:MiB,seconds,...), and
# whether it was cold, into $results/CASE.
sb_read() {
	local case=$1 out=$results/$1.terse
	shift
	prime "$case"
	"$SEQBENCH" -q --read-only "$@" --format terse >"$out"
	awk -F '[:,]' '$1 == "coldread" || $1 == "treeread" {
		printf "%.3f\n", $2 / $3 }' "$out" >>"$results/sb_$case"
}

# dd's own MiB/s: "N bytes (...) copied, S s, ...".
dd_read() {
	local case=$1 bs=$2
	prime "$case"
	drop_caches
	LC_ALL=C dd if="$work/dd.out" of=/dev/null bs="$bs" 2>"$results/dd.err"
	awk '/ copied, / { for (i = 1; i <= NF; i++) if ($i == "s,") s = $(i - 1)
		printf "%.3f\n", $1 / 1048576 / s }' \
		"$results/dd.err" >>"$results/other_$case"
}

tar_read() {
	local t
	prime tree
	drop_caches
	TIMEFORMAT=%3R
	t=$({ time tar cf - -C "$work" tree | cat >/dev/null; } 2>&1)
	awk -v b="$tree_bytes" -v t="$t" 'BEGIN { printf "%.3f\n", b / 1048576 / t }' \
		>>"$results/other_tree"
}

# The readahead of the device under the data (a partition: its disk's).
devno=$(findmnt -n -o MAJ:MIN -T "$work" | tr -d ' ')
ra=/sys/dev/block/$devno/queue/read_ahead_kb
[ -e "$ra" ] || ra=/sys/dev/block/$devno/../queue/read_ahead_kb
echo "# readahead of $devno: $(cat "$ra" 2>/dev/null || echo '?') KiB"
for rep in $(seq "$BENCH_REPS"); do
	sb_read bs1M -d "$work/dd.out" -b 1M
	dd_read bs1M 1M
	sb_read bs16k -d "$work/dd.out" -b 16k
	dd_read bs16k 16k
	sb_read tree -d "$work/tree"
	tar_read
	echo "# repetition $rep done" >&2
done

# median, mean, CoV% of a file of numbers
stats() {
	sort -n "$1" | awk '{ v[NR] = $1; s += $1; q += $1 * $1 }
	END {
		m = s / NR; sd = NR > 1 ? sqrt((q - NR * m * m) / (NR - 1)) : 0
		med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.1f %.1f %.2f\n", med, m, 100 * sd / m }'
}

printf "%-6s %-10s %s\n" case tool "MiB/s per repetition"
for case in bs1M bs16k tree; do
	other="dd"
	[ "$case" = tree ] && other="tar"
	printf "%-6s %-10s %s\n" "$case" seqbench "$(tr '\n' ' ' <"$results/sb_$case")"
	printf "%-6s %-10s %s\n" "$case" "$other" "$(tr '\n' ' ' <"$results/other_$case")"
done
echo
printf "%-6s %12s %12s %10s %10s %14s\n" case "seqbench" "other" "CoV_sb%" "CoV_oth%" "ratio(median)"
for case in bs1M bs16k tree; do
	read -r sb_med _ sb_cov < <(stats "$results/sb_$case")
	read -r ot_med _ ot_cov < <(stats "$results/other_$case")
	paste "$results/sb_$case" "$results/other_$case" |
		awk '{ print $1 / $2 }' >"$results/ratio_$case"
	read -r ratio _ _ < <(sort -n "$results/ratio_$case" | awk '{ v[NR] = $1 }
		END { printf "%.4f 0 0\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
	printf "%-6s %12s %12s %10s %10s %14s\n" "$case" "$sb_med" "$ot_med" "$sb_cov" "$ot_cov" "$ratio"
done
if grep -q "not cold" "$results"/*.terse 2>/dev/null; then
	echo "# note: some seqbench reads found data in the page cache"
fi
