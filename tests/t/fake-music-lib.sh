# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh disable=SC2016
# Helpers for the fake-music shell tests (sourced after test-lib.sh).

command -v bash >/dev/null 2>&1 && test_set_prereq BASH

# A single quote, for expected messages in single-quoted test bodies.
SQ="'"

# start_server DIR NAME [OPTION...]: serve DIR in the background, on a free
# port written to NAME.port, its pid in NAME.pid and stderr in NAME.log.
start_server() {
	_dir=$1
	_name=$2
	shift 2
	rm -f "$_name.port"
	fake-music --serve "$_dir" --port-file "$_name.port" --duration 60s \
		"$@" 2>"$_name.log" &
	echo $! >"$_name.pid"
	_i=0
	while ! test -s "$_name.port"; do
		_i=$((_i + 1))
		test $_i -lt 400 || return 1
		sleep 0.05
	done
}

# stop_server NAME: SIGTERM, then wait until it is gone.
stop_server() {
	kill "$(cat "$1.pid")" 2>/dev/null
	while kill -0 "$(cat "$1.pid")" 2>/dev/null; do
		sleep 0.05
	done
}

# same_files SRC DST FILE...: every FILE identical in both.
same_files() {
	_src=$1
	_dst=$2
	shift 2
	for _f in "$@"; do
		cmp "$_src/$_f" "$_dst/$_f" || return 1
	done
}

# raw PORT IN OUT: send the bytes of IN to the server, save its answer.
raw() {
	timeout 10 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" &&
		cat "$2" >&3 && cat <&3 >"$3"' raw "$@"
}
