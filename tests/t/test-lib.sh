# SPDX-License-Identifier: GPL-2.0-or-later
# test-lib.sh: the shell test library (git's t/test-lib.sh vocabulary, our
# own code).  A test script sets test_description, sources this file, runs
# test_expect_success blocks and ends with test_done.  Output is TAP.
#
#   test_expect_success [PREREQ,...] 'title' 'body'   body runs in a subshell
#   test_expect_failure ...                           known breakage (TODO)
#   test_must_fail CMD...        CMD exits non-zero, but not by a signal
#   test_expect_code N CMD...    CMD exits with exactly N
#   test_cmp EXPECT ACTUAL       files are identical (diff -u shown if not)
#   test_line_count OP N FILE    e.g. test_line_count = 3 out
#   test_set_prereq NAME / test_have_prereq NAME
#   test_wait_for FILE           up to 20 s for FILE to be written
#   skip_all='reason'; test_done  or  test_skip_all 'reason'
#   test_prereq_reason NAME WHY  a skip for want of NAME says WHY
#   test_skip_all_without NAME   skip the script (with NAME's reason), for
#                                scripts whose setup needs NAME
#
# JSON is read one way, with jq, under the JQ prereq:
#   json_get [-S] FILE FILTER    print jq's raw output of FILTER on FILE
#                                (-S: objects with their keys sorted)
#   test_json FILE FILTER WANT   that output is exactly WANT (jq's number
#                                form: 2.00005, not 2.000050000)
#   test_json_valid FILE         FILE holds exactly one JSON object
#
# Environment (set by make check): abs_top_srcdir, abs_top_builddir, and the
# build's lists BIN_PROGRAMS, BIN_SCRIPTS, CHECK_PROGRAMS (the PATH).
# Each script runs in its own directory tests/t/trash.<script>, removed
# when every test passed and kept for inspection otherwise.

set -u
: "${abs_top_srcdir:?run the tests through make check}"
: "${abs_top_builddir:?run the tests through make check}"

this_test=$(basename "$0" .sh)
TEST_DIRECTORY=$abs_top_srcdir/tests/t
TRASH_DIRECTORY=$abs_top_builddir/tests/t/trash.$this_test
# The folders of the build's programs, scripts and test helpers come from
# the lists make check passes, so a new program's folder needs no edit here;
# then the source tree's scripts.
test_path=
for _p in ${BIN_PROGRAMS:-} ${BIN_SCRIPTS:-} ${CHECK_PROGRAMS:-}; do
	case $_p in
	*/*) _d=$abs_top_builddir/${_p%/*} ;;
	*) _d=$abs_top_builddir ;;
	esac
	case :$test_path: in
	*:"$_d":*) ;;
	*) test_path=$test_path$_d: ;;
	esac
done
PATH=$test_path$abs_top_srcdir/scripts:$abs_top_srcdir:$PATH
export PATH TEST_DIRECTORY TRASH_DIRECTORY
LC_ALL=C
export LC_ALL

test_count=0
test_failures=0
test_prereqs=" "

rm -rf "$TRASH_DIRECTORY"
mkdir -p "$TRASH_DIRECTORY" || {
	echo "Bail out! cannot create $TRASH_DIRECTORY"
	exit 1
}
cd "$TRASH_DIRECTORY" || exit 1
# latency-machine's machine-wide lock (one run per machine) is the test's
# own: tests run side by side, and beside a real run.
LATENCY_LOCK_DIR=$TRASH_DIRECTORY/.lock
mkdir "$LATENCY_LOCK_DIR" || exit 1
export LATENCY_LOCK_DIR

say() {
	printf '# %s\n' "$*"
}

test_set_prereq() {
	test_prereqs="$test_prereqs$1 "
}

test_have_prereq() {
	# Every comma-separated prereq must be set; !NAME negates.
	_prereqs=$1
	missing_prereq=
	_old_ifs=$IFS
	IFS=,
	for _p in $_prereqs; do
		case $_p in
		!*)
			case $test_prereqs in
			*" ${_p#!} "*) IFS=$_old_ifs; return 1 ;;
			esac
			;;
		*)
			case $test_prereqs in
			*" $_p "*) ;;
			*) IFS=$_old_ifs; missing_prereq=$_p; return 1 ;;
			esac
			;;
		esac
	done
	IFS=$_old_ifs
	return 0
}

# test_prereq_reason NAME WHY: the reason skips for want of NAME give.
test_prereq_reason() {
	eval "prereq_reason_$1=\$2"
}

test_skip_all() {
	printf '1..0 # SKIP %s\n' "$1"
	cd / && rm -rf "$TRASH_DIRECTORY"
	exit 0
}

# test_skip_all_without NAME: skip the whole script when prereq NAME is
# missing, saying why (test_prereq_reason), for a setup that needs it.
test_skip_all_without() {
	test_have_prereq "$1" && return 0
	eval "_why=\${prereq_reason_$1:-}"
	test_skip_all "missing $1${_why:+: $_why}"
}


test_eval_() {
	(
		cd "$TRASH_DIRECTORY" || exit 1
		eval "$1"
	) >"$TRASH_DIRECTORY/.test-output" 2>&1
	_status=$?
	if [ $_status -ne 0 ] || [ -n "${verbose:-}" ]; then
		sed 's/^/#   /' "$TRASH_DIRECTORY/.test-output"
	fi
	return $_status
}

test_expect_() {
	_mode=$1
	shift
	_prereq=
	if [ $# -eq 3 ]; then
		_prereq=$1
		shift
	fi
	[ $# -eq 2 ] || {
		echo "Bail out! bug in test script: test_expect_$_mode needs 2 or 3 arguments"
		exit 1
	}
	test_count=$((test_count + 1))
	if [ -n "$_prereq" ] && ! test_have_prereq "$_prereq"; then
		_missing=${missing_prereq:-$_prereq}
		# A reason, where one was given (test_prereq_reason).
		_why=
		case $_missing in
		*[!A-Za-z0-9_]*) ;;
		*) eval "_why=\${prereq_reason_$_missing:-}" ;;
		esac
		printf 'ok %d # skip %s (missing %s%s)\n' "$test_count" "$1" \
			"$_missing" "${_why:+: $_why}"
		return 0
	fi
	if test_eval_ "$2"; then
		if [ "$_mode" = failure ]; then
			printf 'ok %d - %s # TODO known breakage vanished\n' \
				"$test_count" "$1"
		else
			printf 'ok %d - %s\n' "$test_count" "$1"
		fi
	else
		if [ "$_mode" = failure ]; then
			printf 'not ok %d - %s # TODO known breakage\n' \
				"$test_count" "$1"
		else
			test_failures=$((test_failures + 1))
			printf 'not ok %d - %s\n' "$test_count" "$1"
			printf '#   failed body:\n'
			printf '%s\n' "$2" | sed 's/^/#   /'
		fi
	fi
}

test_expect_success() {
	test_expect_ success "$@"
}

test_expect_failure() {
	test_expect_ failure "$@"
}

test_must_fail() {
	"$@"
	_status=$?
	if [ $_status -eq 0 ]; then
		echo "test_must_fail: command succeeded: $*" >&2
		return 1
	elif [ $_status -gt 128 ] && [ $_status -le 192 ]; then
		echo "test_must_fail: killed by signal $((_status - 128)): $*" >&2
		return 1
	elif [ $_status -eq 126 ] || [ $_status -eq 127 ]; then
		echo "test_must_fail: command not run ($_status): $*" >&2
		return 1
	fi
	return 0
}

test_expect_code() {
	_want=$1
	shift
	"$@"
	_status=$?
	if [ $_status -ne "$_want" ]; then
		echo "test_expect_code: want $_want, got $_status: $*" >&2
		return 1
	fi
	return 0
}

test_cmp() {
	diff -u "$1" "$2"
}

test_line_count() {
	[ $# -eq 3 ] || {
		echo "test_line_count: needs OP N FILE" >&2
		return 1
	}
	_lines=$(wc -l <"$3")
	# shellcheck disable=SC1072,SC1073,SC1009 # the operator is an argument
	if ! test "$_lines" "$1" "$2"; then
		echo "test_line_count: $3 has $_lines lines, want $1 $2" >&2
		cat "$3" >&2
		return 1
	fi
}

# test_wait_for FILE: wait (up to 20 s) until FILE is not empty, for a
# background program's first line; fails when it never comes.
test_wait_for() {
	_i=0
	while ! test -s "$1" && [ "$_i" -lt 200 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	test -s "$1"
}

# json_get [-S] FILE FILTER: jq's raw output (strings without quotes) of
# FILTER on FILE, with -S the keys of objects sorted (to compare objects
# whatever their order); fails when FILE is not JSON or FILTER does not
# apply.  The one way tests read JSON: never grep or sed, which depend on
# how the output is laid out.
json_get() {
	if [ "$1" = -S ]; then
		shift
		jq -S -r "$2" "$1"
	else
		jq -r "$2" "$1"
	fi
}

# test_json FILE FILTER WANT: FILTER's output on FILE is exactly WANT (one
# line; a filter with several results is joined by newlines).  Numbers come
# as jq writes them: 2.00005 for 2.000050000, 1 for 1.0.
test_json() {
	_got=$(json_get "$1" "$2") || {
		echo "test_json: $1: jq failed on '$2'" >&2
		return 1
	}
	[ "$_got" = "$3" ] && return 0
	echo "test_json: $1: '$2' is '$_got', want '$3'" >&2
	return 1
}

# test_json_valid FILE: FILE holds exactly one JSON object, nothing before
# or after it (every --format json output is one object).
test_json_valid() {
	_types=$(jq -c type "$1") || {
		echo "test_json_valid: $1 is not valid JSON" >&2
		return 1
	}
	[ "$_types" = '"object"' ] && return 0
	echo "test_json_valid: $1 holds $(echo "$_types" | tr '\n' ' ')," \
		"not one JSON object" >&2
	return 1
}

# Fail with a message (for use in bodies: cond || error_ 'msg').
test_fail() {
	echo "$*" >&2
	return 1
}

test_done() {
	printf '1..%d\n' "$test_count"
	if [ "$test_failures" -eq 0 ]; then
		cd / && rm -rf "$TRASH_DIRECTORY"
		exit 0
	fi
	say "$test_failures of $test_count failed; scratch kept in $TRASH_DIRECTORY"
	exit 1
}

# Common prereqs.
[ "$(id -u)" = 0 ] && test_set_prereq ROOT
command -v jq >/dev/null 2>&1 && test_set_prereq JQ
test_prereq_reason JQ 'the tests read JSON with jq; bootstrap.sh and .ci/run install it'
command -v git >/dev/null 2>&1 && test_set_prereq GIT
[ -n "${GNUPLOT:-}" ] && test_set_prereq GNUPLOT
command -v groff >/dev/null 2>&1 && test_set_prereq GROFF
case ${SAN_CFLAGS:-} in
*sanitize=thread*) test_set_prereq TSAN ;;
*sanitize=address*) test_set_prereq ASAN ;;
*) test_set_prereq NO_SANITIZER ;;
esac
