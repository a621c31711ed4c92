# SPDX-License-Identifier: GPL-2.0-or-later
# lib-monitors.sh: helpers for the monitors' tests (t55NN-monitors-*.sh),
# sourced after test-lib.sh.

# wait_for_line FILE PATTERN: wait (at most 10 s) until FILE has a line
# matching the basic regular expression PATTERN.
wait_for_line() {
	_w=0
	while ! grep -q -- "$2" "$1" 2>/dev/null; do
		_w=$((_w + 1))
		if [ $_w -gt 100 ]; then
			echo "wait_for_line: no '$2' in $1 after 10 s" >&2
			return 1
		fi
		sleep 0.1
	done
}

# summary_value FILE KEY: the value of KEY=value in a text summary.
summary_value() {
	sed -n "s/^$2=//p" "$1"
}

# A memory cgroup directory we may create children in, for reclaim tests:
# v1 (the memory controller's own hierarchy) or v2 where our cgroup hands
# the memory controller to its children.
memcg_parent() {
	_rel=$(sed -n 's/^[0-9]*:memory://p' /proc/self/cgroup)
	if [ -n "$_rel" ] && [ -d "/sys/fs/cgroup/memory$_rel" ]; then
		echo "/sys/fs/cgroup/memory$_rel"
		return 0
	fi
	for _root in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		_rel=$(sed -n 's/^0:://p' /proc/self/cgroup)
		if [ -n "$_rel" ] &&
			[ -f "$_root$_rel/cgroup.subtree_control" ] &&
			grep -qw memory "$_root$_rel/cgroup.subtree_control"; then
			echo "$_root$_rel"
			return 0
		fi
	done
	return 1
}

# memcg_limit DIR SIZE: set the memory limit of cgroup DIR (v1 or v2).
memcg_limit() {
	if [ -f "$1/memory.limit_in_bytes" ]; then
		echo "$2" >"$1/memory.limit_in_bytes"
	else
		echo "$2" >"$1/memory.max"
	fi
}
