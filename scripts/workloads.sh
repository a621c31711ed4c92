# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# workloads.sh: sourced by run-test.sh.  Leaf helpers for the programs the
# driver starts in the background (it starts, tracks and stops them).

# wait_started FILE PID: wait until a monitor says "started=1" in FILE.
# Returns 0 when it did, 1 when PID has exited instead, 2 after 10 s.
wait_started() {
	_n=0
	while ! grep -q ' started=1' "$1" 2>/dev/null; do
		kill -0 "$2" 2>/dev/null || return 1
		[ $_n -lt 100 ] || return 2
		sleep 0.1
		_n=$((_n + 1))
	done
}

# stopped_ok STATUS: whether a program stopped with SIGTERM ended as it
# should (0, or 128+15).
stopped_ok() {
	[ "$1" = 0 ] || [ "$1" = 143 ]
}
