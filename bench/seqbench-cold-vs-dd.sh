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
# tools would pay for the second.  With BENCH_PRIME=1 (the default on a
# disk) the data is read once before every measured read (a plain read,
# whose guest copy the drop then discards), so that every read meets the
# same host state: cold in the guest, warm below it.  BENCH_PRIME=0 on
# bare metal.  Even so, such a disk reads at whatever the host gives that
# second (2-5 GB/s, and a third of that the next): no figure of either
# tool repeats there.
#
# BENCH_DEVICE=ram puts the data on a device whose speed is known
# instead: ext4 on a loop device over a file in /dev/shm (nothing below
# it caches or drops anything: the guest's RAM), read through the block
# layer and its readahead like a disk, and throttled by blk-throttle
# (cgroup v1 blkio.throttle.read_bps_device, or v2 io.max rbps) to
# BENCH_RATE, as a disk of that bandwidth would be.  All the tools run in
# the throttled cgroup.  BENCH_RATE=0 leaves it unthrottled: memory
# speed, where what differs between the tools is their CPU path (and
# where this machine's memory bandwidth wanders by 20% and more).
#
# dd's rate is its own (the seconds it prints); tar's is the tree's bytes
# over bash's `time` of the pipeline (the tree read takes seconds, so its
# millisecond resolution is enough).  The readahead is the device's as
# found (printed); seqbench --readahead sets others, dd and tar cannot.
# Besides the 2009 pipeline, tar is also timed writing its archive to
# /dev/zero ("tar>zero"): tar's own reading without the pipe's extra copy
# (GNU tar skips reading file contents when the archive is /dev/null, not
# when it is /dev/zero).
#
# It prints each tool's MiB/s per repetition; then per case the medians,
# the CoV (stddev/mean) of each tool's cold reads, the median ratio
# seqbench/other, and the CPU seconds (user+sys) per GiB read of each.
# Needs root.
#
# Tunables (environment, with defaults):
#   SEQBENCH=./seqbench/seqbench   the binary to measure
#   BENCH_DEVICE=disk              disk: the data in BENCH_DIR; ram: see above
#   BENCH_DIR=/var/tmp             where the data goes (disk; a real disk, not tmpfs)
#   BENCH_RATE=250M                ram: read bandwidth per second (0: none)
#   BENCH_FILE_SIZE=2G             the big file
#   BENCH_TREE=500:4M              the tree: files:size of each
#   BENCH_REPS=5                   repetitions (cold reads per case)
#   BENCH_PRIME=1                  read the data before each measured read
#                                  (disk only; 0 on bare metal)
set -eu

: "${SEQBENCH:=./seqbench/seqbench}"
: "${BENCH_DEVICE:=disk}"
: "${BENCH_DIR:=/var/tmp}"
: "${BENCH_RATE:=250M}"
: "${BENCH_FILE_SIZE:=2G}"
: "${BENCH_TREE:=500:4M}"
: "${BENCH_REPS:=5}"
[ "$BENCH_DEVICE" = ram ] && : "${BENCH_PRIME:=0}"
: "${BENCH_PRIME:=1}"

die() {
	echo "$0: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (cold reads drop the page cache)"
[ -x "$SEQBENCH" ] || die "no seqbench at '$SEQBENCH' (set SEQBENCH)"
case $BENCH_REPS in
'' | *[!0-9]*) die "BENCH_REPS must be a number, not '$BENCH_REPS'" ;;
esac
[ "$BENCH_REPS" -ge 2 ] || die "BENCH_REPS must be at least 2"
case $BENCH_TREE in
[0-9]*:?*) case ${BENCH_TREE%%:*} in *[!0-9]*) die "BENCH_TREE must be FILES:SIZE, not '$BENCH_TREE'" ;; esac ;;
*) die "BENCH_TREE must be FILES:SIZE, not '$BENCH_TREE'" ;;
esac
case $BENCH_DEVICE in
disk | ram) ;;
*) die "BENCH_DEVICE must be disk or ram, not '$BENCH_DEVICE'" ;;
esac

results=$(mktemp -d)
work=
mnt=
img=
cg=
cleanup() {
	[ -z "$work" ] || rm -rf "$work"
	if [ -n "$cg" ]; then
		echo $$ >"$(dirname "$cg")/cgroup.procs" 2>/dev/null || true
		rmdir "$cg" 2>/dev/null || true
	fi
	if [ -n "$mnt" ]; then
		umount "$mnt" 2>/dev/null || true
		rmdir "$mnt" 2>/dev/null || true
	fi
	[ -z "$img" ] || rm -f "$img"
	rm -rf "$results"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

bytes() {
	numfmt --from=iec "$1" 2>/dev/null || die "not a size: '$1'"
}

# Put this shell, and so every tool it starts, in a cgroup whose reads of
# block device $1 (MAJ:MIN) are limited to $2 bytes a second.
throttle() {
	local v1=/sys/fs/cgroup/blkio v2
	if [ -e "$v1/blkio.throttle.read_bps_device" ]; then
		cg=$(mktemp -d "$v1/seqbench-cold.XXXXXX")
		echo "$1 $2" >"$cg/blkio.throttle.read_bps_device"
	else
		v2=$(findmnt -n -o TARGET -t cgroup2 | head -n 1)
		if [ -z "$v2" ] || ! grep -qw io "$v2/cgroup.controllers"; then
			die "cannot throttle: no blkio or io cgroup controller (BENCH_RATE=0 for none)"
		fi
		echo +io >"$v2/cgroup.subtree_control" ||
			die "cannot enable the io controller in $v2"
		cg=$(mktemp -d "$v2/seqbench-cold.XXXXXX")
		echo "$1 rbps=$2" >"$cg/io.max"
	fi
	echo $$ >"$cg/cgroup.procs"
}

if [ "$BENCH_DEVICE" = ram ]; then
	files=${BENCH_TREE%%:*}
	fsize=$(bytes "${BENCH_TREE#*:}")
	# the file, the tree with 10% for its metadata, 256 MiB for ext4's own
	need=$(($(bytes "$BENCH_FILE_SIZE") + files * fsize * 11 / 10 + 268435456))
	[ "$(df -B1 --output=avail /dev/shm | tail -n 1)" -gt "$need" ] ||
		die "/dev/shm has less than the $need bytes the data needs"
	img=$(mktemp /dev/shm/seqbench-cold.XXXXXX)
	truncate -s "$need" "$img"
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img" ||
		die "mkfs.ext4 on $img failed"
	mnt=$(mktemp -d /tmp/seqbench-cold-mnt.XXXXXX)
	# -o loop: the loop device goes with the mount (autoclear)
	mount -o loop "$img" "$mnt" || die "cannot mount $img"
	BENCH_DIR=$mnt
	rate=$(bytes "$BENCH_RATE")
	[ "$rate" = 0 ] || throttle "$(findmnt -n -o MAJ:MIN -T "$mnt" | tr -d ' ')" "$rate"
else
	case $(stat -f -c %T "$BENCH_DIR") in
	tmpfs | ramfs) die "'$BENCH_DIR' is in memory: set BENCH_DIR to a disk" ;;
	esac
fi
work=$(mktemp -d "$BENCH_DIR/seqbench-cold.XXXXXX")

drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

echo "# $(uname -r), $("$SEQBENCH" --version | head -n 1), $(dd --version | head -n 1), $(tar --version | head -n 1)"
echo "# data in $work ($(df -T "$work" | awk 'NR == 2 { print $1, $2 }'), BENCH_DEVICE=$BENCH_DEVICE${cg:+, reads throttled to $BENCH_RATE/s})"
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

# seqbench's MiB/s of one cold read (terse: phase:MiB,seconds,user,sys,...)
# into $results/sb_CASE, its CPU seconds per GiB into cpu_sb_CASE.
sb_read() {
	local case=$1 out=$results/$1.terse
	shift
	prime "$case"
	"$SEQBENCH" -q --read-only "$@" --format terse >"$out"
	awk -F '[:,]' -v r="$results/sb_$case" -v c="$results/cpu_sb_$case" '
		$1 == "coldread" || $1 == "treeread" {
			printf "%.3f\n", $2 / $3 >>r
			printf "%.4f\n", ($4 + $5) / ($2 / 1024) >>c }' "$out"
}

# Time command "$@" (bash's time: real, user, sys) into $results/time.
timed() {
	local TIMEFORMAT='%3R %3U %3S'
	{ time "$@"; } 2>"$results/time"
}

# CPU seconds per GiB of BYTES read, from $results/time, into cpu_other_CASE.
other_cpu() {
	awk -v b="$2" '{ printf "%.4f\n", ($2 + $3) / (b / 1073741824) }' \
		"$results/time" >>"$results/cpu_other_$1"
}

dd_cmd() {
	LC_ALL=C dd if="$work/dd.out" of=/dev/null bs="$1" 2>"$results/dd.err"
}

# dd's own MiB/s: "N bytes (...) copied, S s, ...".
dd_read() {
	local case=$1 bs=$2
	prime "$case"
	drop_caches
	timed dd_cmd "$bs"
	awk '/ copied, / { for (i = 1; i <= NF; i++) if ($i == "s,") s = $(i - 1)
		printf "%.3f\n", $1 / 1048576 / s }' \
		"$results/dd.err" >>"$results/other_$case"
	other_cpu "$case" "$(awk '/ copied, / { print $1 }' "$results/dd.err")"
}

tar_pipe() {
	tar cf - -C "$work" tree | cat >/dev/null
}

tar_zero() {
	tar cf - -C "$work" tree >/dev/zero
}

# tar's MiB/s, the tree's bytes over the wall time, into other_CASE: the
# 2009 pipeline (tree) or the archive written to /dev/zero (treez).
tar_read() {
	local case=$1
	prime tree
	drop_caches
	if [ "$case" = tree ]; then
		timed tar_pipe
	else
		timed tar_zero
	fi
	awk -v b="$tree_bytes" '{ printf "%.3f\n", b / 1048576 / $1 }' \
		"$results/time" >>"$results/other_$case"
	other_cpu "$case" "$tree_bytes"
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
	tar_read tree
	tar_read treez
	echo "# repetition $rep done" >&2
done
# seqbench's tree reads stand against both of tar's
cp "$results/sb_tree" "$results/sb_treez"
cp "$results/cpu_sb_tree" "$results/cpu_sb_treez"

# median, mean, CoV% of a file of numbers
stats() {
	sort -n "$1" | awk '{ v[NR] = $1; s += $1; q += $1 * $1 }
	END {
		m = s / NR; sd = NR > 1 ? sqrt((q - NR * m * m) / (NR - 1)) : 0
		med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.4f %.1f %.2f\n", med, m, 100 * sd / m }'
}

other_name() {
	case $1 in
	bs*) echo dd ;;
	tree) echo "tar|cat" ;;
	treez) echo "tar>zero" ;;
	esac
}

cases="bs1M bs16k tree treez"
printf "%-6s %-10s %s\n" case tool "MiB/s per repetition"
for case in bs1M bs16k tree; do
	printf "%-6s %-10s %s\n" "$case" seqbench "$(tr '\n' ' ' <"$results/sb_$case")"
	printf "%-6s %-10s %s\n" "$case" "$(other_name "$case")" "$(tr '\n' ' ' <"$results/other_$case")"
done
printf "%-6s %-10s %s\n" tree "$(other_name treez)" "$(tr '\n' ' ' <"$results/other_treez")"
echo
printf "%-6s %-9s %10s %10s %8s %8s %8s %10s %10s\n" case other "seqbench" "other" \
	"CoV_sb%" "CoV_oth%" "ratio" "cpu_sb" "cpu_oth"
for case in $cases; do
	read -r sb_med _ sb_cov < <(stats "$results/sb_$case")
	read -r ot_med _ ot_cov < <(stats "$results/other_$case")
	read -r sb_cpu _ _ < <(stats "$results/cpu_sb_$case")
	read -r ot_cpu _ _ < <(stats "$results/cpu_other_$case")
	paste "$results/sb_$case" "$results/other_$case" |
		awk '{ print $1 / $2 }' >"$results/ratio_$case"
	read -r ratio _ _ < <(stats "$results/ratio_$case")
	printf "%-6s %-9s %10.1f %10.1f %8s %8s %8s %10s %10s\n" "$case" "$(other_name "$case")" \
		"$sb_med" "$ot_med" "$sb_cov" "$ot_cov" "$ratio" "$sb_cpu" "$ot_cpu"
	# treez repeats tree's seqbench figures
	[ "$case" = treez ] ||
		printf "seqbench_cold_%s=%s MiB/s higher\nseqbench_cold_%s_cpu=%s s/GiB lower\n" \
			"$case" "$sb_med" "$case" "$sb_cpu" >>"$results/bench"
done
echo "# MiB/s and ratio (seqbench/other): medians over the repetitions;"
echo "# cpu_*: median CPU seconds (user+sys) per GiB read"
sed 's/^/bench: /' "$results/bench"
