#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bisect-accuracy.sh: how often does latency-bisect name the right
# culprit?  Runs the program's own decisions (latency-bisect --simulate:
# the same decide.c, on boots drawn from records instead of booted) many
# times for regressions of each size, made by scaling the recorded boots
# of the culprit and the kernels after it, and beside it, in the same
# trials, the plain rule a person applies with `git bisect run` and
# latency-compare's --fail-if-slower (one pair a step, bad when slower than
# the good end by more than half the regression, no check of the ends, no
# validation).  Prints per size and rule: the fraction of bisections that
# named the right culprit, named a wrong one, named a wrong one as
# validated (the plain rule validates nothing: every culprit it names is
# claimed), ended with a range or with "not reproduced", and the boots
# used (mean, 95th percentile); size 0 is the A/A check (the same kernel
# at both ends: every outcome but "not reproduced" is a false alarm).
#
#   bench/bisect-accuracy.sh [RECORDS] [LATENCY-BISECT-OPTION...]
#
# RECORDS: a file of figures (one a line, one a boot) or a directory of
# latency-vm result directories of one kernel, each one boot (the
# --metric of each is drawn).  Default: bench/records/fixture-derived.txt,
# six figures taken from a hand-made test fixture, NOT a measurement:
# record real boots (latency-vm --pairs with the same kernel twice, say)
# and give their directory.
#
# Environment:
#   BISECT_SIZES     regressions, percent [0 5 10 20]
#   BISECT_TRIALS    simulated bisections per size [2000]
#   BISECT_KERNELS   kernels in each simulated series [8]
#   LATENCY_TESTS_BINDIR  the built programs [the tree next to this script]
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
: "${BISECT_SIZES:=0 5 10 20}"
: "${BISECT_TRIALS:=2000}"
: "${BISECT_KERNELS:=8}"
bindir=${LATENCY_TESTS_BINDIR:-$here/bisect}

die() {
	echo "$0: $*" >&2
	exit 1
}

records=$here/bench/records/fixture-derived.txt
if [ $# -gt 0 ]; then
	case $1 in
	-*) ;;
	*)
		records=$1
		shift
		;;
	esac
fi
[ -e "$records" ] || die "no records '$records'"
[ -x "$bindir/latency-bisect" ] || die "cannot find latency-bisect in $bindir (build the tree, or set LATENCY_TESTS_BINDIR)"
case $records in
*fixture-derived*) echo "# records: $records (derived from a test fixture: NOT a measurement)" ;;
*) echo "# records: $records" ;;
esac
"$bindir/latency-bisect" --version | sed 's/^/# /'
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for size in $BISECT_SIZES; do
	"$bindir/latency-bisect" --simulate="$records" --sim-regression="$size" \
		--sim-trials="$BISECT_TRIALS" --sim-kernels="$BISECT_KERNELS" "$@" >>"$out"
done
cat "$out"
# The headline figures, latency-bisect's own, a line each.
awk '$1 == "latency-bisect" {
	size = $3; sub(/\.0*%:$/, "", size); sub(/%:$/, "", size); gsub(/\./, "_", size)
	for (i = 4; i < NF; i++) {
		if ($i == "right") right = $(i + 1)
		if ($i == "wrong-validated") wv = $(i + 1)
		if ($i == "not-reproduced") nr = $(i + 1)
		if ($i == "mean") mean = $(i + 1)
	}
	sub(/%$/, "", right); sub(/%$/, "", wv); sub(/%$/, "", nr)
	if (size == "0") {
		printf "bench: bisect_aa_not_reproduced=%s percent higher\n", nr
	} else {
		printf "bench: bisect_right_%spct=%s percent higher\n", size, right
		printf "bench: bisect_wrong_validated_%spct=%s percent lower\n", size, wv
	}
	printf "bench: bisect_boots_%spct=%s boots lower\n", size, mean
}' "$out"
