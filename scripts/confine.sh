# SPDX-License-Identifier: GPL-2.0-or-later
# confine.sh: sourced by run-test.sh.  Reproduces a small machine without a
# reboot: a memory cgroup for the workloads (cgroup v2 memory.max, or v1
# memory.limit_in_bytes) and a swap file or device that is enabled for the
# run and disabled (and the file removed) afterwards.  Only what this run
# made is undone.
#
# Uses from the caller: die, warn, note, run_logged.
# Sets: confine_cgroup (the cgroup directory, empty when none),
#       confine_swapfile (a swap file we created), confine_swapdev (a swap
#       file or device we enabled).
# Environment:
#   LATENCY_CGROUP_ROOT  where cgroups are mounted (default: /sys/fs/cgroup)

: "${LATENCY_CGROUP_ROOT:=/sys/fs/cgroup}"

confine_cgroup=
confine_swapfile=
confine_swapdev=

# Print the directory under which a memory cgroup can be made, or fail
# with the reason on stdout.
confine_cgroup_parent() {
	if [ "$(id -u)" != 0 ]; then
		echo "not root: cannot create a memory cgroup"
		return 1
	fi
	if [ -f "$LATENCY_CGROUP_ROOT/cgroup.controllers" ]; then
		# cgroup v2 mounted at the root.
		case " $(cat "$LATENCY_CGROUP_ROOT/cgroup.subtree_control") " in
		*" memory "*) echo "$LATENCY_CGROUP_ROOT"; return 0 ;;
		esac
		echo "cgroup v2 without the memory controller enabled at $LATENCY_CGROUP_ROOT"
		return 1
	fi
	if [ -f "$LATENCY_CGROUP_ROOT/memory/memory.limit_in_bytes" ]; then
		echo "$LATENCY_CGROUP_ROOT/memory"
		return 0
	fi
	echo "no memory cgroup controller under $LATENCY_CGROUP_ROOT"
	return 1
}

# confine_cgroup_create BYTES: make the cgroup and set its limit.  Swap is
# not limited, so pressure swaps out instead of killing.
confine_cgroup_create() {
	_parent=$(confine_cgroup_parent) || return 1
	_cg=$_parent/latency-tests.$$
	mkdir "$_cg" || return 1
	confine_cgroup=$_cg
	if [ -f "$_cg/memory.max" ]; then
		_limit_file=$_cg/memory.max
	else
		_limit_file=$_cg/memory.limit_in_bytes
	fi
	if ! echo "$1" >"$_limit_file"; then
		warn "cannot set $_limit_file to $1"
		return 1
	fi
	note "memory cgroup $_cg limited to $1 bytes ($_limit_file)"
}

# The file a process writes its pid into to join the cgroup.
confine_cgroup_procs() {
	echo "$confine_cgroup/cgroup.procs"
}

# confine_swap_check: fail with the reason on stdout when swap cannot be
# enabled here.
confine_swap_check() {
	if [ "$(id -u)" != 0 ]; then
		echo "not root: cannot enable swap"
		return 1
	fi
	for _t in mkswap swapon swapoff; do
		if ! command -v "$_t" >/dev/null 2>&1; then
			echo "$_t not found (install util-linux)"
			return 1
		fi
	done
}

# confine_swap_enable SIZE_BYTES|DEVICE DIR: a size makes a swap file in DIR,
# a path (block device or existing swap file) is enabled as it is.
confine_swap_enable() {
	case $1 in
	/*)
		if grep -q "^$1[[:space:]]" /proc/swaps; then
			note "swap $1 is already enabled; leaving it as it is"
			return 0
		fi
		run_logged swapon "$1" || return 1
		confine_swapdev=$1
		;;
	*)
		_sf=$2/swapfile
		_mib=$(($1 / 1048576))
		confine_swapfile=$_sf
		# fallocate is instant on ext4 and xfs; dd works everywhere.
		if ! fallocate -l "$1" "$_sf" 2>/dev/null; then
			run_logged dd if=/dev/zero of="$_sf" bs=1M count="$_mib" \
				status=none || return 1
		fi
		chmod 600 "$_sf" || return 1
		run_logged mkswap -q "$_sf" || return 1
		run_logged swapon "$_sf" || return 1
		confine_swapdev=$_sf
		;;
	esac
}

# Undo everything confine_* did; safe to call more than once.
confine_undo() {
	_cu_status=0
	if [ -n "$confine_swapdev" ]; then
		if run_logged swapoff "$confine_swapdev"; then
			confine_swapdev=
		else
			warn "cannot disable swap on $confine_swapdev"
			_cu_status=1
		fi
	fi
	if [ -n "$confine_swapfile" ] && [ -z "$confine_swapdev" ]; then
		if rm -f "$confine_swapfile"; then
			confine_swapfile=
		else
			_cu_status=1
		fi
	fi
	if [ -n "$confine_cgroup" ] && [ -d "$confine_cgroup" ]; then
		if rmdir "$confine_cgroup"; then
			confine_cgroup=
		else
			warn "cannot remove cgroup $confine_cgroup"
			_cu_status=1
		fi
	fi
	return $_cu_status
}
