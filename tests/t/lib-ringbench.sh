# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the ringbench tests (t6xxx): a loopback server started in the
# background.
# shellcheck shell=sh disable=SC2154

# start_server NAME [OPTION...]: ringbench rr --listen in the background on
# a free 127.0.0.1 port; its port in $port, pid in NAME.pid, stderr in
# NAME.err, report (JSON) in NAME.json.
start_server() {
	_name=$1
	shift
	rm -f "$_name.port"
	ringbench rr --listen 127.0.0.1:0 --port-file "$_name.port" \
		--format json -o "$_name.json" "$@" 2>"$_name.err" &
	echo $! >"$_name.pid"
	_i=0
	while ! test -s "$_name.port"; do
		kill -0 "$(cat "$_name.pid")" 2>/dev/null || return 1
		_i=$((_i + 1))
		test "$_i" -lt 400 || return 1
		sleep 0.05
	done
	port=$(cat "$_name.port")
}

# stop_server NAME STATUS: SIGTERM, and it exits with STATUS.
stop_server() {
	kill "$(cat "$1.pid")" &&
	{
		wait "$(cat "$1.pid")"
		test "$?" = "$2"
	}
}

# wait_lines FILE N: FILE has at least N lines (within 20 s).  Start the
# writer on a FILE that does not exist yet (no old lines to count).
wait_lines() {
	_i=0
	while ! test -f "$1" || test "$(wc -l <"$1")" -lt "$2"; do
		_i=$((_i + 1))
		test "$_i" -lt 400 || return 1
		sleep 0.05
	done
}
