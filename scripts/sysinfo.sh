# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# sysinfo.sh: sourced by run-test.sh.  sysinfo_capture DIR PROC SYS records
# what a run depends on: kernel and command line, memory, /proc/sys/vm,
# block device queue settings, mounts with their options, slabinfo, CPU,
# swap and the counters of /proc/vmstat, from the proc and sysfs file
# systems mounted at PROC and SYS.  Called before and after the run.  Leaf
# functions: they use their arguments only.

# sysinfo_copy SRC DEST: copy a file that may be absent or unreadable here
# (slabinfo needs root); say so in DEST instead of failing the run.
sysinfo_copy() {
	if [ -r "$1" ] && cat "$1" >"$2" 2>/dev/null; then
		return 0
	fi
	echo "unavailable: cannot read $1" >"$2"
}

# sysinfo_values DIR: "name value" for every readable file in DIR (the
# write-only ones such as vm/drop_caches are listed as unreadable).
sysinfo_values() {
	for _f in "$1"/*; do
		[ -f "$_f" ] || continue
		if _v=$(cat "$_f" 2>/dev/null); then
			printf '%s %s\n' "${_f##*/}" "$_v"
		else
			printf '%s (unreadable)\n' "${_f##*/}"
		fi
	done
}

sysinfo_capture() {
	_d=$1
	mkdir -p "$_d" || return 1
	uname -a >"$_d/kernel" || return 1
	for _f in cmdline meminfo vmstat swaps mounts slabinfo cpuinfo; do
		sysinfo_copy "$2/$_f" "$_d/$_f"
	done
	sysinfo_values "$2/sys/vm" >"$_d/sys-vm" || return 1
	: >"$_d/block-queue"
	for _q in "$3"/block/*/queue; do
		[ -d "$_q" ] || continue
		_dev=${_q%/queue}
		_dev=${_dev##*/}
		for _k in scheduler read_ahead_kb nr_requests rotational \
			max_sectors_kb wbt_lat_usec; do
			[ -r "$_q/$_k" ] || continue
			# A readable attribute may still refuse a read:
			# wbt_lat_usec of a queue without writeback
			# throttling (dm, zram) is EINVAL.
			_v=$(cat "$_q/$_k" 2>/dev/null) || _v='(unreadable)'
			printf '%s %s %s\n' "$_dev" "$_k" "$_v" \
				>>"$_d/block-queue" || return 1
		done
	done
}
