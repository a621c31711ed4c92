#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-highorder.sh: the high-order proof in a 512M guest.  Does
# latency-highorder (summary.txt's HighOrder line) see free memory
# fragmented on purpose, under the plain pressure of a small machine?  The
# 2009 way: each boot is latency-vm's guest of --memory (512M: mem=512M),
# the synthetic repository larger than it (fake-gitk swaps by itself:
# run-test.sh --confine=none, nothing shrunk), two conditions:
#   plain       nothing else
#   fragmented  tests/helpers/fragment (in the quick image where the tests
#               were built) takes every free huge-page block before the
#               run and keeps one locked page of each (--setup)
# Both with --no-drop-caches (the driver's reset compacts memory, which
# would undo the fragmenting) and vm.compaction_proactiveness=0
# (kcompactd's proactive compaction would too; recorded and put back by
# the driver).  VM_BOOTS boots each, interleaved, the order turned each
# round; then latency-compare's test of the success rates, clustered by
# runs, with each configuration's boots as several results of one label.
#
#   bench/vm-highorder.sh [LATENCY-VM OPTIONS...]
#
# Environment (defaults in brackets):
#   VM_BOOTS      boots per condition [3]
#   VM_GITK_RUNS  --gitk-runs of each boot [5]
#   VM_COMMITS    the repository [180000: some 430 MiB of fake-gitk]
#   VM_RESULTS    where the results go [a new directory under /tmp]
#   LATENCY_VM    latency-vm [the tree's vm/latency-vm]
#   COMPARE       latency-compare [the tree's compare/latency-compare]
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
: "${VM_BOOTS:=3}"
: "${VM_GITK_RUNS:=5}"
: "${VM_COMMITS:=180000}"
: "${LATENCY_VM:=$here/vm/latency-vm}"
: "${COMPARE:=$here/compare/latency-compare}"

die() {
	echo "$0: $*" >&2
	exit 1
}

number() {
	case $2 in
	'' | *[!0-9]* | 0) die "$1 must be a number of at least 1, not '$2'" ;;
	esac
}
number VM_BOOTS "$VM_BOOTS"
number VM_GITK_RUNS "$VM_GITK_RUNS"
number VM_COMMITS "$VM_COMMITS"
for p in "$LATENCY_VM" "$COMPARE"; do
	[ -x "$p" ] || die "no '$p' (build the tree, or set LATENCY_VM and COMPARE)"
done
[ -x "$here/tests/helpers/fragment" ] ||
	die "no tests/helpers/fragment (make check builds it; the quick image takes it from there)"
results=${VM_RESULTS:-$(mktemp -d /tmp/vm-highorder.XXXXXX)}
mkdir -p "$results"

# The fragmenter starts before the driver and holds its pages until the
# guest powers off.
cat >"$results/fragment.setup" <<'EOF_SETUP'
fragment >/tmp/fragment.txt 2>&1 &
n=0
until grep -q '^fragmented=1' /tmp/fragment.txt; do
	kill -0 $! 2>/dev/null || { cat /tmp/fragment.txt; exit 1; }
	[ $n -lt 600 ] || { echo "fragment: not done in 120 s"; exit 1; }
	sleep 0.2
	n=$((n + 1))
done
cat /tmp/fragment.txt
EOF_SETUP

boot() {
	_cond=$1
	shift
	set -- "$@" --label="$_cond" --results="$results"
	[ "$_cond" = plain ] || set -- "$@" --setup="$results/fragment.setup"
	"$LATENCY_VM" "$@" -- --confine=none --no-drop-caches \
		--sysctl=vm.compaction_proactiveness=0 --warmup=0 \
		--gitk-runs="$VM_GITK_RUNS" --commits="$VM_COMMITS" \
		>>"$results/$_cond.out" 2>&1 ||
		die "latency-vm failed for $_cond (see $results/$_cond.out)"
	printf '%-12s %s\n' "$_cond" "$(tail -n 1 "$results/$_cond.out")"
	grep -h ' HighOrder: ' "$results"/"$_cond"*/summary.txt | tail -n 1
}

echo "# results in $results; $VM_BOOTS boots each, $VM_GITK_RUNS runs, $VM_COMMITS commits"
round=1
while [ "$round" -le "$VM_BOOTS" ]; do
	if [ $((round % 2)) = 1 ]; then
		boot plain "$@"
		boot fragmented "$@"
	else
		boot fragmented "$@"
		boot plain "$@"
	fi
	round=$((round + 1))
done

boots() {
	_list=$results/$1
	_i=2
	while [ "$_i" -le "$VM_BOOTS" ]; do
		_list=$_list,$results/$1-$_i
		_i=$((_i + 1))
	done
	echo "$1=$_list"
}
echo
"$COMPARE" "$(boots plain)" "$(boots fragmented)"
