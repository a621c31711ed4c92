#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fake-gitk against the command gitk itself runs,
#     git log --all --no-color -z --pretty=raw --show-notes --parents --boundary
# read through a pipe as gitk reads it, on the same repositories in one run:
# a synthetic kernel-shaped repository (made once, then cached) and every
# repository given as an argument.  Prints commits/s of one fake-gitk load
# and of git log, their ratio (target >= 1.0, aim 1.3), whether peak RSS
# reached the bytes held, and whether a commit-graph file exists (git uses
# it, libgit2 does not).
#
# Usage: bench/fakegitk-vs-gitlog.sh [REPO...]
#
# Environment (defaults in brackets):
#   FAKEGITK                 the fake-gitk binary [fakegitk/fake-gitk of the
#                            build tree in the current directory, else PATH]
#   FAKEGITK_BENCH_DIR       scratch directory for the synthetic repository
#                            [/var/tmp/latency-tests-bench]
#   FAKEGITK_BENCH_COMMITS   its number of commits [200000]
#   FAKEGITK_BENCH_SEED      its seed [137]
#   FAKEGITK_BENCH_RUNS      timed runs of each side, the median is kept [3]
set -eu

: "${FAKEGITK_BENCH_DIR:=/var/tmp/latency-tests-bench}"
: "${FAKEGITK_BENCH_COMMITS:=200000}"
: "${FAKEGITK_BENCH_SEED:=137}"
: "${FAKEGITK_BENCH_RUNS:=3}"
if [ -z "${FAKEGITK:-}" ]; then
	if [ -x fakegitk/fake-gitk ]; then
		FAKEGITK=$PWD/fakegitk/fake-gitk
	else
		FAKEGITK=fake-gitk
	fi
fi

die() {
	printf '%s: %s\n' "$0" "$*" >&2
	exit 1
}

command -v git >/dev/null || die "git is not installed"
"$FAKEGITK" --version >/dev/null || die "cannot run $FAKEGITK"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
TIMEFORMAT='%R %U %S'

# median of the numbers on stdin
median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# json_num NAME FILE: a top-level number of a fake-gitk JSON result
json_num() {
	sed -n "s/.*\"$1\":\\([0-9.e+-]*\\).*/\\1/p" "$2"
}

# timed OUT CMD...: run CMD, append "wall cpu" seconds to OUT
timed() {
	local out=$1 t
	shift
	t=$({ time "$@" >/dev/null 2>&1; } 2>&1)
	awk -v t="$t" 'BEGIN { split(t, a, " ");
		printf "%.3f %.3f\n", a[1], a[2] + a[3] }' >>"$out"
}

gitlog() {
	git -C "$1" log --all --no-color -z --pretty=raw --show-notes \
		--parents --boundary | cat >/dev/null
}

# bench_one REPO [TAG]: the comparison on REPO; with TAG, the machine-read
# lines "bench: TAG_wall=COMMITS/S" and "bench: TAG_cpu=..." too.
bench_one() {
	local repo=$1 tag=${2:-} commits graph fg gl i
	commits=$(git -C "$repo" rev-list --all --count)
	graph=no
	for f in commit-graph commit-graphs; do
		if [ -e "$(git -C "$repo" rev-parse --path-format=absolute \
			--git-path "objects/info/$f")" ]; then
			graph=yes
		fi
	done
	fg=$scratch/fg
	gl=$scratch/gl
	: >"$fg"
	: >"$gl"
	# One untimed pass each, so both start from a warm page cache.
	"$FAKEGITK" -q -n 1 "$repo"
	gitlog "$repo"
	for i in $(seq "$FAKEGITK_BENCH_RUNS"); do
		timed "$fg" "$FAKEGITK" -q -n 1 --format json \
			-o "$scratch/run$i.json" "$repo"
		timed "$gl" gitlog "$repo"
	done
	grep -q "\"commit_graph\":$([ $graph = yes ] && echo true || echo false)" \
		"$scratch/run1.json" || die "$repo: fake-gitk disagrees about the commit-graph"
	[ "$(json_num commits "$scratch/run1.json")" = "$commits" ] ||
		die "$repo: fake-gitk loaded $(json_num commits "$scratch/run1.json") commits, git $commits"
	awk -v repo="$repo" -v n="$commits" -v graph="$graph" \
		-v fgw="$(cut -d' ' -f1 "$fg" | median)" \
		-v fgc="$(cut -d' ' -f2 "$fg" | median)" \
		-v glw="$(cut -d' ' -f1 "$gl" | median)" \
		-v glc="$(cut -d' ' -f2 "$gl" | median)" \
		-v held="$(json_num bytes_held "$scratch/run1.json")" \
		-v rss="$(json_num peak_rss_bytes "$scratch/run1.json")" \
		-v runs="$FAKEGITK_BENCH_RUNS" -v tag="$tag" 'BEGIN {
		printf "repository %s: %d commits, commit-graph: %s, median of %d runs\n",
			repo, n, graph, runs
		printf "  fake-gitk  %8.3f s wall %8.3f s cpu  %9.0f commits/s\n",
			fgw, fgc, n / fgw
		printf "  git log    %8.3f s wall %8.3f s cpu  %9.0f commits/s\n",
			glw, glc, n / glw
		printf "  ratio (fake-gitk / git log commits/s): %.2f wall, %.2f cpu (target >= 1.0, aim 1.3)\n",
			glw / fgw, glc / fgc
		printf "  peak RSS %.0f bytes, held %.0f bytes: %s\n", rss, held,
			(rss >= held ? "pressure is real" : "PEAK RSS BELOW BYTES HELD")
		if (tag != "") {
			printf "bench: %s_wall=%.0f commits/s higher\n", tag, n / fgw
			printf "bench: %s_cpu=%.0f commits/s higher\n", tag, n / fgc
		}
	}'
}

synthetic=$FAKEGITK_BENCH_DIR/synthetic-$FAKEGITK_BENCH_COMMITS-seed$FAKEGITK_BENCH_SEED
if [ ! -d "$synthetic" ]; then
	mkdir -p "$FAKEGITK_BENCH_DIR"
	echo "creating $synthetic (once; it is kept)" >&2
	# Renamed into place only when complete (fake-gitk does that itself).
	"$FAKEGITK" --create-repo "$synthetic" \
		--commits "$FAKEGITK_BENCH_COMMITS" --seed "$FAKEGITK_BENCH_SEED" >/dev/null
fi

echo "fake-gitk: $("$FAKEGITK" --version); $(git --version); kernel $(uname -r)"
bench_one "$synthetic" fakegitk
for repo in "$@"; do
	bench_one "$repo"
done
