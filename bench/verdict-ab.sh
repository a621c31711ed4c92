#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# verdict-ab.sh: does the verdict see a real change of kernel behaviour and
# only that?  Runs the driver with vm.page-cluster 3 (swap readahead of 8
# pages, the default) and 0 (no swap readahead: a real change, more major
# faults, slower swap-in), interleaved A B A B ..., VERDICT_PAIRS results
# each, then asks latency-compare for the A/A verdict (two results of the
# same configuration, one against the other) and the A/B verdict (all A
# results against all B results).  Prints each result's CoV and wall time,
# and the two verdicts with their p-values and the smallest change they
# could have seen.  Needs root (the sysctl and the pressure).
#
#   bench/verdict-ab.sh [--quick] [RUN-TEST OPTIONS...]
#
# Environment:
#   VERDICT_PAIRS    results per configuration [3]
#   VERDICT_RESULTS  where the results go [a new directory under /tmp]
#   VERDICT_A, VERDICT_B  the two --sysctl settings
#                    [vm.page-cluster=3, vm.page-cluster=0]
#   LATENCY_TESTS_BINDIR  the built programs [the tree next to this script]
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
: "${VERDICT_PAIRS:=3}"
: "${VERDICT_A:=vm.page-cluster=3}"
: "${VERDICT_B:=vm.page-cluster=0}"
results=${VERDICT_RESULTS:-$(mktemp -d /tmp/verdict-ab.XXXXXX)}
mkdir -p "$results"
rt=$here/run-test.sh
compare=${LATENCY_TESTS_BINDIR:-$here/compare}/latency-compare

die() {
	printf 'verdict-ab.sh: %s\n' "$*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (vm.page-cluster and the pressure)"
[ -x "$compare" ] || die "cannot find latency-compare at $compare (build the tree first)"
case $VERDICT_PAIRS in
'' | *[!0-9]* | 0 | 1) die "VERDICT_PAIRS must be a whole number of at least 2" ;;
esac

# now_s: seconds since boot, with centiseconds.
now_s() {
	cut -d' ' -f1 /proc/uptime
}

# one LABEL SYSCTL [OPTIONS...]: one result; prints its headline, CoV and
# wall time.
one() {
	_label=$1 _sysctl=$2
	shift 2
	_t0=$(now_s)
	"$rt" --label="$_label" --results="$results" --sysctl="$_sysctl" "$@" \
		>"$results/$_label.out" 2>&1 ||
		die "run-test.sh failed for $_label (see $results/$_label.out)"
	_t1=$(now_s)
	_dir=$(sed -n 's/.*result in \(.*\)$/\1/p' "$results/$_label.out" | tail -n 1)
	_cov=$(sed -n 's/^elapsed: .*CoV \([0-9.]*%\).*/\1/p' "$_dir/summary.txt")
	printf '%-6s %-22s %s  CoV %s  wall %.0f s\n' "$_label" "$_sysctl" \
		"$(sed -n 1p "$_dir/summary.txt" | cut -d' ' -f2)" "$_cov" \
		"$(echo "$_t1 - $_t0" | bc)"
	echo "$_dir" >>"$results/$_label.dirs"
}

echo "verdict-ab: $VERDICT_A (A) against $VERDICT_B (B), $VERDICT_PAIRS results each, options: $*"
echo "results in $results"
i=1
while [ "$i" -le "$VERDICT_PAIRS" ]; do
	one A "$VERDICT_A" "$@"
	one B "$VERDICT_B" "$@"
	i=$((i + 1))
done

a_dirs=$(tr '\n' ',' <"$results/A.dirs")
b_dirs=$(tr '\n' ',' <"$results/B.dirs")
a_first=$(sed -n 1p "$results/A.dirs")
a_second=$(sed -n 2p "$results/A.dirs")
echo
echo "== A/A: one A result against another (expect: not significant)"
"$compare" "A1=$a_first" "A2=$a_second" | sed -n '/ vs /p'
echo
echo "== A/B: every A result against every B result (expect: significant)"
"$compare" "A=${a_dirs%,}" "B=${b_dirs%,}" | sed -n '/ vs /p'
echo
echo "== A/B, the first result of each (within-result test)"
"$compare" "A1=$a_first" "B1=$(sed -n 1p "$results/B.dirs")" | sed -n '/ vs /p'
