# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# shell-lib.sh: the helpers the suite's shell scripts share, sourced first
# by run-test.sh (latency-run-test) and latency-device-setup, which find it
# beside themselves in the source tree, else where make install put it
# (the path substituted at build time), or in LATENCY_TESTS_DATADIR.
# Messages and exit statuses as in the C programs (doc/style.md): 1 failed,
# 2 usage error, 3 unsupported here.  Leaf functions: they use their
# arguments and $prog only, which sourcing sets to the script's name.

prog=${0##*/}

# die MSG...: "PROG: MSG" on stderr, exit 1.
die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 1
}

# die_unsupported MSG...: the same, exit 3 (what this machine cannot do).
die_unsupported() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 3
}

warn() {
	printf '%s: warning: %s\n' "$prog" "$*" >&2
}

# usage_error MSG...: the message and a Try line, exit 2.
usage_error() {
	printf '%s: %s\n' "$prog" "$*" >&2
	printf "Try '%s --help' for more information.\n" "$prog" >&2
	exit 2
}

# Copy stdin to stdout; a write error (e.g. a full disk) is fatal, with
# the reason, as in every program of the suite.
print_stdout() {
	if ! _err=$(cat 2>&1 >&3); then
		# Nothing said: cat was stopped by SIGPIPE, as a reader went away.
		[ -z "$_err" ] ||
			printf '%s: write error: %s\n' "$prog" "${_err##*: }" >&2
		exit 1
	fi
} 3>&1

# show_version VERSION TREE: "PROG (latency-tests) VERSION" and exit 0; a
# VERSION left as @VERSION@ (run from the source tree) is TREE's version.
show_version() {
	printf '%s (latency-tests) %s\n' "$prog" "$(tree_version "$1" "$2")" |
		print_stdout
	exit 0
}

tree_version() {
	case $1 in
	@*) sh "$2/version.sh" ;;
	*) printf '%s\n' "$1" ;;
	esac
}

# quote_args ARG...: the arguments shell-quoted into one line (printed
# without a newline).
quote_args() {
	_q=
	for _a in "$@"; do
		case $_a in
		'' | *[!A-Za-z0-9_./:=,+@%-]*)
			_a="'$(printf '%s' "$_a" | sed "s/'/'\\\\''/g")'"
			;;
		esac
		_q="$_q${_q:+ }$_a"
	done
	printf '%s' "$_q"
}

# log_cmd FILE CMD...: append the command line to FILE as one line, in one
# write, so that lines logged by several processes never interleave.
log_cmd() {
	_log=$1
	shift
	printf '%s\n' "$(quote_args "$@")" >>"$_log"
}

# lt_find_prog TOP BINDIR NAME: the program's path, from
# LATENCY_TESTS_BINDIR, the built tree TOP (any folder: TOP/FOLDER/NAME),
# the installed BINDIR (unless left as @bindir@), or PATH.
lt_find_prog() {
	if [ -n "${LATENCY_TESTS_BINDIR:-}" ] && [ -x "$LATENCY_TESTS_BINDIR/$3" ]; then
		echo "$LATENCY_TESTS_BINDIR/$3"
		return 0
	fi
	for _f in "$1"/*/"$3"; do
		[ -f "$_f" ] && [ -x "$_f" ] && {
			echo "$_f"
			return 0
		}
	done
	if case $2 in @*) false ;; *) [ -x "$2/$3" ] ;; esac then
		echo "$2/$3"
	elif command -v "$3" >/dev/null 2>&1; then
		command -v "$3"
	else
		return 1
	fi
}

# json_string S: S as a JSON string on stdout (no newline), control
# characters left out.
json_string() {
	printf '"%s"' "$(printf '%s' "$1" | tr -d '\000-\037' |
		sed 's/\\/\\\\/g; s/"/\\"/g')"
}
