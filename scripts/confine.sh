# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# confine.sh: sourced by run-test.sh.  The machine-level steps of memory
# pressure: memory cgroups, swap files, sysctls, the page cache.
# Leaf functions: each takes what it needs as arguments and uses no
# variable of the driver; the driver decides, records every change with
# latency-machine first (doc/design.md, contract 5) and orders the steps.
# Return status 0 on success; where a function explains a refusal, the
# reason is printed on stdout.

is_root() {
	[ "$(id -u)" = 0 ]
}

# confine_cgroup_parent ROOT: print the directory under ROOT (where cgroups
# are mounted) in which a memory cgroup can be made, or the reason not.
confine_cgroup_parent() {
	if ! is_root; then
		echo "not root: cannot create a memory cgroup"
		return 1
	fi
	if [ -f "$1/cgroup.controllers" ]; then
		# cgroup v2 mounted at the root.
		case " $(cat "$1/cgroup.subtree_control") " in
		*" memory "*) echo "$1"; return 0 ;;
		esac
		echo "cgroup v2 without the memory controller enabled at $1"
		return 1
	fi
	if [ -f "$1/memory/memory.limit_in_bytes" ]; then
		echo "$1/memory"
		return 0
	fi
	echo "no memory cgroup controller under $1"
	return 1
}

# confine_cgroup_make CGROUP BYTES: create the memory cgroup CGROUP limited
# to BYTES; print the file that holds the limit.
confine_cgroup_make() {
	mkdir "$1" || return 1
	if [ -f "$1/memory.max" ]; then
		set -- "$1/memory.max" "$2"
	else
		set -- "$1/memory.limit_in_bytes" "$2"
	fi
	echo "$2" >"$1" || return 1
	echo "$1"
}

# confine_swap_check: the reason, when swap cannot be enabled here.
confine_swap_check() {
	if ! is_root; then
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

# confine_zram_check SYS: why a zram swap device cannot be made here (one
# line, status 1), or nothing: zram-control's hot_add, or an unused zram0.
confine_zram_check() {
	if [ -w "$1/class/zram-control/hot_add" ]; then
		return 0
	fi
	if [ -w "$1/block/zram0/disksize" ] &&
		[ "$(cat "$1/block/zram0/disksize")" = 0 ]; then
		return 0
	fi
	echo "no zram device to use (the kernel has no zram, or zram0 is in use and there is no $1/class/zram-control/hot_add)"
	return 1
}

# confine_fs_type DIR: the file system type of DIR (tmpfs, ext2/ext3, ...).
confine_fs_type() {
	stat -f -c %T "$1" 2>/dev/null
}

# confine_swap_enabled PATH: whether PATH is swap in use already.
confine_swap_enabled() {
	grep -q "^$1[[:space:]]" /proc/swaps
}

# confine_swap_ready PATH BYTES: whether PATH is already a swap file of
# BYTES (a regular file, not a link).
confine_swap_ready() {
	[ -f "$1" ] && ! [ -L "$1" ] && [ "$(stat -c %s "$1")" = "$2" ]
}

# confine_swap_make PATH BYTES LOG: a new swap file of BYTES at PATH, made
# under umask 077; the commands that write it are logged to LOG.
confine_swap_make() {
	rm -f "$1"
	confine_swap_fill "$@"
}

# confine_swap_fill PATH BYTES LOG: PATH (new, or the empty file the run
# made and recorded) made a swap file of BYTES in place: the same file.
confine_swap_fill() {
	# fallocate is instant on ext4 and xfs; writing zeros works
	# everywhere.
	if ! (umask 077 && fallocate -l "$2" "$1") 2>/dev/null; then
		log_cmd "$3" head -c "$2" /dev/zero
		(umask 077 && head -c "$2" /dev/zero >"$1") || return 1
	fi
	log_cmd "$3" mkswap -q "$1"
	mkswap -q "$1" >/dev/null
}

# confine_calibration_key REPO FAKE_GITK GITK_ARGS: what fake-gitk's
# footprint depends on (the repository, its refs, the options, the
# version) as a 16-digit hash.
confine_calibration_key() {
	_key=$( {
		cd "$1" && pwd -P
		"$2" --list-refs "$1"
		printf '%s\n' "$3"
		"$2" --version
	} | sha256sum) || return 1
	printf '%.16s\n' "$_key"
}

# confine_drop_caches SWAP: every run starts from the same state: dirty
# pages written, page cache dropped, the swap SWAP (if not empty) emptied,
# memory compacted.  As root.
confine_drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches || return 1
	if [ -n "$1" ]; then
		# Pages left in swap by the previous run would be a different
		# starting point for this one.
		swapoff "$1" && swapon "$1" || return 1
	fi
	if [ -w /proc/sys/vm/compact_memory ]; then
		echo 1 >/proc/sys/vm/compact_memory
	fi
}
