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
# With VERDICT_MODE=interleave, the noise study of one boot instead:
# VERDICT_AA_TRIES interleaved A/A runs (run-test.sh --interleave
# NAME=A,A) and VERDICT_AB_TRIES A/B runs (NAME=A,B), each compared in
# pairs by latency-compare; per try its paired verdict (elapsed per
# user-CPU second with its interval, raw elapsed), the CoV of elapsed and
# of elapsed per user-CPU second of each arm, the smallest change it could
# have seen, the wait for a CPU and the others' CPU; then how many A/A
# tries were significant (false alarms: expect about alpha of them) and how
# many A/B tries were (expect all).
#
# Environment:
#   VERDICT_MODE     results (several results a configuration, as above)
#                    or interleave [results]
#   VERDICT_AA_TRIES, VERDICT_AB_TRIES  interleave mode's tries [10, 5]
#   VERDICT_PAIRS    results per configuration [3]
#   VERDICT_RESULTS  where the results go [a new directory under /tmp]
#   VERDICT_A, VERDICT_B  the two --sysctl settings
#                    [vm.page-cluster=3, vm.page-cluster=0]
#   LATENCY_TESTS_BINDIR  the built programs [the tree next to this script]
#   RUN_TEST         the driver [run-test.sh of the tree next to this script]
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
: "${VERDICT_PAIRS:=3}"
: "${VERDICT_A:=vm.page-cluster=3}"
: "${VERDICT_B:=vm.page-cluster=0}"
results=${VERDICT_RESULTS:-$(mktemp -d /tmp/verdict-ab.XXXXXX)}
mkdir -p "$results"
rt=${RUN_TEST:-$here/run-test.sh}
compare=${LATENCY_TESTS_BINDIR:-$here/compare}/latency-compare

die() {
	printf 'verdict-ab.sh: %s\n' "$*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (vm.page-cluster and the pressure)"
: "${VERDICT_MODE:=results}"
: "${VERDICT_AA_TRIES:=10}"
: "${VERDICT_AB_TRIES:=5}"
case $VERDICT_MODE in
results | interleave) ;;
*) die "VERDICT_MODE must be results or interleave" ;;
esac
for _n in "$VERDICT_AA_TRIES" "$VERDICT_AB_TRIES"; do
	case $_n in
	'' | *[!0-9]*) die "VERDICT_AA_TRIES and VERDICT_AB_TRIES must be whole numbers" ;;
	esac
done
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
	sed -n '1s/.* Elapsed:\([0-9]*\):\([0-9.]*\)(.*/\1 \2/p' "$_dir/summary.txt" |
		awk '{ printf "%.3f\n", $1 * 60 + $2 }' >>"$results/$_label.elapsed"
}

# median FILE: the median of the numbers in FILE.
median() {
	sort -g "$1" | awk '{ v[NR] = $1 } END {
		print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# arm_cov DIR KEY: the CoV of summary.txt's line KEY (elapsed: or per
# user-CPU second:).
arm_cov() {
	sed -n "s/^$2.*CoV \([0-9.n/a]*%*\).*/\1/p" "$1/summary.txt"
}

# try KIND N A B [OPTIONS...]: one interleaved run of the knob with values
# A and B; prints its paired verdict and the arms' spread; counts a
# significant one in $results/KIND.significant.
try() {
	_kind=$1 _n=$2 _va=$3 _vb=$4
	shift 4
	_label=$_kind$_n
	_t0=$(now_s)
	"$rt" --label="$_label" --results="$results" \
		--interleave="$knob=$_va,$_vb" "$@" >"$results/$_label.out" 2>&1 ||
		die "run-test.sh failed for $_label (see $results/$_label.out)"
	_t1=$(now_s)
	_a=$(sed -n 's/.*results in \(.*\) and .*$/\1/p' "$results/$_label.out" | tail -n 1)
	_b=$(sed -n 's/.*results in .* and \(.*\) (latency-compare.*$/\1/p' "$results/$_label.out" | tail -n 1)
	"$compare" --format=csv "$_a" "$_b" >"$results/$_label.csv"
	"$compare" "$_a" "$_b" | sed -n 1p >"$results/$_label.verdict"
	printf '%s %s=%s,%s  wall %.0f s\n  %s\n' "$_label" "$knob" "$_va" "$_vb" \
		"$(echo "$_t1 - $_t0" | bc)" "$(cat "$results/$_label.verdict")"
	printf '  CoV elapsed a %s b %s; per user-CPU second a %s b %s; machine a: %s\n' \
		"$(arm_cov "$_a" 'elapsed:')" "$(arm_cov "$_b" 'elapsed:')" \
		"$(arm_cov "$_a" 'per user-CPU second:')" \
		"$(arm_cov "$_b" 'per user-CPU second:')" \
		"$(sed -n 's/^machine: //p' "$_a/summary.txt")"
	if grep -q "elapsed per user-CPU second [-+0-9.]*% ([^)]*significant)" \
		"$results/$_label.verdict" &&
		! grep -q "elapsed per user-CPU second [-+0-9.]*% ([^)]*no significant" \
			"$results/$_label.verdict"; then
		echo "$_label" >>"$results/$_kind.significant"
	fi
}

if [ "$VERDICT_MODE" = interleave ]; then
	knob=${VERDICT_A%%=*}
	[ "$knob" = "${VERDICT_B%%=*}" ] || die "VERDICT_A and VERDICT_B must set one knob"
	va=${VERDICT_A#*=} vb=${VERDICT_B#*=}
	echo "verdict-ab (interleave): $knob $va (A) and $vb (B); $VERDICT_AA_TRIES A/A and $VERDICT_AB_TRIES A/B tries, options: $*"
	echo "results in $results"
	: >"$results/AA.significant"
	: >"$results/AB.significant"
	i=1
	while [ "$i" -le "$VERDICT_AA_TRIES" ] || [ "$i" -le "$VERDICT_AB_TRIES" ]; do
		[ "$i" -gt "$VERDICT_AA_TRIES" ] || try AA "$i" "$va" "$va" "$@"
		[ "$i" -gt "$VERDICT_AB_TRIES" ] || try AB "$i" "$va" "$vb" "$@"
		i=$((i + 1))
	done
	echo
	echo "A/A tries significant on elapsed per user-CPU second: $(wc -l <"$results/AA.significant") of $VERDICT_AA_TRIES (expect about alpha of them)"
	echo "A/B tries significant on elapsed per user-CPU second: $(wc -l <"$results/AB.significant") of $VERDICT_AB_TRIES (expect all)"
	exit 0
fi

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
echo
echo "bench: verdict_a_elapsed=$(median "$results/A.elapsed") s lower"
echo "bench: verdict_b_elapsed=$(median "$results/B.elapsed") s lower"
