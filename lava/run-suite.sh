#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run-suite.sh RESULTS LABEL [RUN-TEST-OPTION]...: the step of the LAVA test
# definition latency-tests.yaml.  Runs latency-run-test with the options
# into a new directory under RESULTS (labelled LABEL, or uname -r when
# empty), then reports the run and every figure of its result as LAVA test
# cases: "run-test" (pass, fail, or skip when the suite cannot run here),
# then the lines of latency-compare --format=lava, each run through LAVA's
# lava-test-case.  Those names are sanitized by latency-compare; a line
# that is not "lava-test-case" and plain words is refused all the same, so
# that nothing from a result reaches the shell.  Last, the result's
# result.json is sent over the console, for the host (run-local.sh puts
# it in OUTDIR/result/result.json): gzip'ed and base64'ed in lines of 64
# characters between "LATENCY-TESTS-RESULT-BEGIN [NONCE ]SHA256 BYTES"
# (of the JSON itself) and "LATENCY-TESTS-RESULT-END[ NONCE]", NONCE the
# job's (LATENCY_RESULT_NONCE: the host takes only the block of its own
# job); when gzip, base64 or sha256sum is missing that is said and
# nothing is sent.  Exits with the driver's status (a partial result is
# still reported).
#
# Environment (defaults in brackets):
#   LATENCY_RUN_TEST   the driver [latency-run-test]
#   LATENCY_COMPARE    the comparison program [latency-compare]
#   LATENCY_RESULT_NONCE  the job's nonce, 32 hex digits (run-local.sh
#                      gives one in the job's NONCE) [empty: none]
set -eu

: "${LATENCY_RUN_TEST:=latency-run-test}"
: "${LATENCY_COMPARE:=latency-compare}"

die() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

# send_result FILE: FILE over the console as a block the host decodes
# and checks (gzip, base64, its sha256 and size); a warning instead when
# a tool is missing.  Only base64 text and the markers are printed.
send_result() {
	for _t in gzip base64 sha256sum; do
		if ! command -v "$_t" >/dev/null 2>&1; then
			printf '%s: %s is missing: not sending %s over the console\n' \
				"${0##*/}" "$_t" "$1" >&2
			return 0
		fi
	done
	_sum=$(sha256sum <"$1") || die "cannot read '$1'"
	_sum=${_sum%% *}
	_bytes=$(wc -c <"$1") || die "cannot read '$1'"
	echo "LATENCY-TESTS-RESULT-BEGIN $nonce${nonce:+ }$_sum $((_bytes))"
	gzip -9nc <"$1" | base64 -w 64 || die "cannot encode '$1'"
	echo "LATENCY-TESTS-RESULT-END${nonce:+ }$nonce"
}

[ $# -ge 2 ] || die "usage: ${0##*/} RESULTS LABEL [RUN-TEST-OPTION]..."
nonce=${LATENCY_RESULT_NONCE:-}
case $nonce in
'' | [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]) ;;
*) die "LATENCY_RESULT_NONCE is not 32 hex digits" ;;
esac
results=$1 label=$2
shift 2
command -v lava-test-case >/dev/null 2>&1 ||
	die "lava-test-case is not in PATH: run me from a LAVA test shell"
mkdir -p "$results" || die "cannot create '$results'"
base=$(mktemp -d "$results/lava.XXXXXX") || die "cannot create a directory in '$results'"
set -- "$@" --results "$base"
[ -z "$label" ] || set -- "$@" --label "$label"

echo "+ $LATENCY_RUN_TEST $*"
status=0
"$LATENCY_RUN_TEST" "$@" || status=$?
case $status in
0) lava-test-case run-test --result pass ;;
3) lava-test-case run-test --result skip ;;
*) lava-test-case run-test --result fail ;;
esac

# The driver writes one result directory under the new BASE, also when
# the run stopped part way.
dir=
for d in "$base"/*/; do
	[ -f "$d/result.json" ] && dir=${d%/}
done
[ -n "$dir" ] || die "no result.json under '$base' (latency-run-test exited $status)"
cat "$dir/summary.txt" 2>/dev/null || :
"$LATENCY_COMPARE" --format=lava -o "$base/cases" "$dir" ||
	die "latency-compare --format=lava failed on '$dir'"

# Word splitting is wanted below (checked words only), globbing is not.
set -f
while IFS= read -r line; do
	case $line in
	"lava-test-case "*) ;;
	*) die "not a test case line in '$base/cases'" ;;
	esac
	case $line in
	*[!A-Za-z0-9._%/\ -]*) die "a test case line with other characters in '$base/cases'" ;;
	esac
	# shellcheck disable=SC2086 # checked words, split on purpose
	set -- $line
	"$@"
done <"$base/cases"
echo "result: $dir"
send_result "$dir/result.json"
# The run's page (report.html, when the driver made one) follows as a
# block of its own, encoded the same, REPORT for RESULT in its markers;
# the host takes it apart from the result (run-local.sh).
if [ -f "$dir/report.html" ]; then
	send_result "$dir/report.html" |
		sed 's/^LATENCY-TESTS-RESULT-/LATENCY-TESTS-REPORT-/'
fi
exit "$status"
