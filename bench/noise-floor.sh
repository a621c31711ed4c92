#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# noise-floor.sh: how steady is this machine, before any kernel is judged?
# Runs fake-gitk unconfined (no memory limit, no shrink, the repository in
# the page cache after a first load that is not counted) NOISE_RUNS times
# on the same repository, and prints for every run its elapsed time and its
# CPU time in user mode and in the kernel, then the CoV of each.  The user
# work of a load is the same every time, so the CoV of user_s is the
# machine's own CPU speed wandering (a virtual machine's host, frequency
# scaling): no run of the driver on this machine can be steadier than that,
# and the driver's noise targets (CoV of elapsed) are to be read against it.
#
#   bench/noise-floor.sh [REPO]
#
# REPO defaults to the driver's cached repository (180,000 commits, seed
# 137, under LATENCY_CACHE_DIR or ~/.cache/latency-tests); when it is not
# there, one is made in a scratch directory (about a minute).
#
# Environment:
#   NOISE_RUNS   counted runs [10]
#   FAKEGITK     the fake-gitk binary [the build tree next to this script]
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
: "${NOISE_RUNS:=10}"
: "${FAKEGITK:=$here/fakegitk/fake-gitk}"
cache=${LATENCY_CACHE_DIR:-${HOME:-/root}/.cache/latency-tests}

die() {
	printf 'noise-floor.sh: %s\n' "$*" >&2
	exit 1
}

case $NOISE_RUNS in
'' | *[!0-9]* | 0 | 1) die "NOISE_RUNS must be a whole number of at least 2" ;;
esac
[ -x "$FAKEGITK" ] || die "cannot run $FAKEGITK (build the tree first)"
scratch=$(mktemp -d /tmp/noise-floor.XXXXXX)
trap 'rm -rf "$scratch"' EXIT INT TERM

repo=${1:-$cache/repo-180000-137}
if [ ! -d "$repo" ]; then
	[ $# -eq 0 ] || die "no repository at $repo"
	echo "making a 180,000-commit repository in $scratch (about a minute)"
	repo=$scratch/repo
	"$FAKEGITK" --create-repo "$repo" --commits 180000 --seed 137 >/dev/null
fi

# num KEY FILE: the first number KEY has in FAKE-GITK's JSON result.
num() {
	sed -n "s/.*\"$1\":\\([0-9.]*\\).*/\\1/p" "$2" | head -n 1
}

echo "noise-floor: $NOISE_RUNS unconfined fake-gitk runs of $repo, load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$FAKEGITK" --iterations 1 --reread --quiet "$repo" >/dev/null ||
	die "fake-gitk failed on $repo"
i=1
while [ "$i" -le "$NOISE_RUNS" ]; do
	"$FAKEGITK" --iterations 1 --reread --quiet --format json \
		-o "$scratch/run.json" "$repo" >/dev/null ||
		die "fake-gitk failed on $repo"
	printf '%s %s %s\n' "$(num elapsed_s "$scratch/run.json")" \
		"$(num user_s "$scratch/run.json")" \
		"$(num sys_s "$scratch/run.json")" | tee -a "$scratch/runs" |
		awk -v i="$i" '{ printf "run %2d  elapsed_s %s  user_s %s  sys_s %s\n", i, $1, $2, $3 }'
	i=$((i + 1))
done
awk '
function cov(k,   m, s, j) {
	m = sum[k] / n
	for (j = 1; j <= n; j++) s += (v[k, j] - m) ^ 2
	return m > 0 ? 100 * sqrt(s / (n - 1)) / m : 0
}
{ n++; for (k = 1; k <= 3; k++) { v[k, n] = $k; sum[k] += $k } }
END {
	printf "mean: elapsed_s %.3f  user_s %.3f  sys_s %.3f\n", sum[1] / n, sum[2] / n, sum[3] / n
	printf "CoV:  elapsed %.2f%%  user %.2f%%  sys %.2f%%  (%d runs)\n", cov(1), cov(2), cov(3), n
	printf "bench: noise_elapsed=%.3f s lower\n", sum[1] / n
	printf "bench: noise_user=%.3f s lower\n", sum[2] / n
}' "$scratch/runs"
