#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run-fuzz.sh: run libFuzzer targets for a bounded time (make fuzz, make
# fuzz-long).
#
#   run-fuzz.sh [--total] SECONDS SEEDS BINDIR TARGET...
#
# For each TARGET, BINDIR/fuzz-TARGET runs for SECONDS on a temporary copy
# of SEEDS/TARGET (the seeds in the source tree never change), and one line
# says how many inputs it ran and what it found.  With --total, SECONDS is
# the time of the whole run, divided evenly among the targets (the first
# ones get the remainder, every target at least 1 s): `make fuzz-long`
# runs all of them for an hour in total, not an hour each.  A crash, a
# sanitizer report, a leak or a hang (FUZZ_TIMEOUT seconds on one input)
# fails the run; the input that did it is kept as BINDIR/TARGET-crash-* (or
# -leak-, -timeout-, -oom-) and the fuzzer's log as BINDIR/TARGET.log.
#
# The work directory (the seeds' copies, and FUZZ_TMPDIR for the
# harnesses' own files) is made under TMPDIR, else in memory (/dev/shm)
# where there is some, else /tmp: the music-client target fsyncs every file
# it receives, four times slower on a disk.
#
# Environment:
#   FUZZ_TIMEOUT   seconds one input may take (default 60)
#   FUZZ_FLAGS     more libFuzzer flags (default none), e.g. -jobs=2
#   TMPDIR         where the work directory goes (default /dev/shm or /tmp)
set -eu

: "${FUZZ_TIMEOUT:=60}"
: "${FUZZ_FLAGS:=}"

die() {
	printf '%s: %s\n' "$0" "$*" >&2
	exit 1
}

total=
if [ "${1:-}" = --total ]; then
	total=1
	shift
fi
[ $# -ge 4 ] || die "usage: $0 [--total] SECONDS SEEDS BINDIR TARGET..."
seconds=$1 seeds=$2 bindir=$3
shift 3
case $seconds in
'' | *[!0-9]*) die "'$seconds' is not a number of seconds" ;;
esac
# Per target: SECONDS, or with --total its share ($# targets).
share=$seconds extra=0
if [ -n "$total" ]; then
	share=$((seconds / $#)) extra=$((seconds % $#))
	[ "$share" -ge 1 ] || share=1 extra=0
fi

tmp=${TMPDIR:-}
if [ -z "$tmp" ]; then
	tmp=/tmp
	[ -d /dev/shm ] && [ -w /dev/shm ] && tmp=/dev/shm
fi
work=$(mktemp -d "$tmp/latency-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The harnesses' own temporary files go there too, and go with it.
mkdir "$work/tmp"
FUZZ_TMPDIR=$work/tmp
export FUZZ_TMPDIR
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

failed=
for t in "$@"; do
	seconds=$share
	if [ "$extra" -gt 0 ]; then
		seconds=$((seconds + 1)) extra=$((extra - 1))
	fi
	bin=$bindir/fuzz-$t
	[ -x "$bin" ] || die "no fuzz target '$bin' (make fuzz builds it)"
	[ -d "$seeds/$t" ] || die "no seeds in '$seeds/$t'"
	mkdir "$work/$t"
	cp "$seeds/$t"/* "$work/$t"/
	n_seeds=$(find "$work/$t" -type f | wc -l)
	rm -f "$bindir/$t"-crash-* "$bindir/$t"-leak-* \
		"$bindir/$t"-timeout-* "$bindir/$t"-oom-*
	status=0
	# shellcheck disable=SC2086 # FUZZ_FLAGS is a list of flags
	"$bin" -max_total_time="$seconds" -timeout="$FUZZ_TIMEOUT" \
		-print_final_stats=1 -artifact_prefix="$bindir/$t-" \
		$FUZZ_FLAGS "$work/$t" >"$bindir/$t.log" 2>&1 || status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
		"$bindir/$t.log")
	n_corpus=$(find "$work/$t" -type f | wc -l)
	found=$(find "$bindir" -maxdepth 1 -name "$t-*-*" -type f |
		sed 's|.*/||' | tr '\n' ' ')
	if [ "$status" -ne 0 ] || [ -n "$found" ]; then
		printf 'fuzz-%s: FAILED (exit %s) after %s runs: %s(log %s)\n' \
			"$t" "$status" "${runs:-?}" "$found" "$bindir/$t.log"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|invariant failed)' \
			"$bindir/$t.log" | head -n 5
		failed="$failed $t"
	else
		printf 'fuzz-%s: %s runs in %s s, %s seeds -> %s inputs, nothing found\n' \
			"$t" "$runs" "$seconds" "$n_seeds" "$n_corpus"
	fi
	rm -rf "${work:?}/$t"
done
[ -z "$failed" ] || die "findings in:$failed"
