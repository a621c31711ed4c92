# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# sysinfo.sh: sourced by run-test.sh.  sysinfo_capture DIR PROC SYS records
# what a run depends on: kernel and command line, memory, /proc/sys/vm,
# block device queue settings, mounts with their options, slabinfo, CPU,
# swap, the counters of /proc/vmstat and DAMON's schemes (a proactive
# reclaimer of the platform's: it swaps out what it finds idle while the
# workloads run), from the proc and sysfs file
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

# sysinfo_read FILE: its first line, or "(unreadable)".
sysinfo_read() {
	_r=$(head -n 1 "$1" 2>/dev/null) || _r='(unreadable)'
	printf '%s\n' "${_r:-(empty)}"
}

# sysinfo_damon ADMIN: the kdamonds of DAMON's sysfs interface ADMIN
# (/sys/kernel/mm/damon/admin): each one's state, each context's
# operations (paddr: all of memory) and sampling and aggregation
# intervals, and each scheme's action, the access
# pattern it acts on (minimum age in aggregation intervals, most accesses)
# and its quotas (bytes and CPU ms per reset interval), a line each.
sysinfo_damon() {
	for _k in "$1"/kdamonds/[0-9]*; do
		[ -d "$_k" ] || continue
		printf 'kdamond %s state %s\n' "${_k##*/}" "$(sysinfo_read "$_k/state")"
		for _c in "$_k"/contexts/[0-9]*; do
			[ -d "$_c" ] || continue
			_p="kdamond ${_k##*/} context ${_c##*/}"
			printf '%s operations %s\n' "$_p" "$(sysinfo_read "$_c/operations")"
			_i=$_c/monitoring_attrs/intervals
			printf '%s intervals sample_us %s aggr_us %s update_us %s\n' \
				"$_p" "$(sysinfo_read "$_i/sample_us")" \
				"$(sysinfo_read "$_i/aggr_us")" "$(sysinfo_read "$_i/update_us")"
			for _s in "$_c"/schemes/[0-9]*; do
				[ -d "$_s" ] || continue
				printf '%s scheme %s action %s age_min %s nr_accesses_max %s quota_bytes %s quota_ms %s quota_reset_ms %s\n' \
					"$_p" "${_s##*/}" "$(sysinfo_read "$_s/action")" \
					"$(sysinfo_read "$_s/access_pattern/age/min")" \
					"$(sysinfo_read "$_s/access_pattern/nr_accesses/max")" \
					"$(sysinfo_read "$_s/quotas/bytes")" \
					"$(sysinfo_read "$_s/quotas/ms")" \
					"$(sysinfo_read "$_s/quotas/reset_interval_ms")"
			done
		done
	done
}

# sysinfo_reclaimers FILE: "N ACTION" for each kdamond that is on in
# FILE (sysinfo_damon's lines) with a scheme that reclaims what it finds
# idle (pageout, or lru_deprio: first in line for reclaim), its first such
# action; in the order of the kdamonds.
sysinfo_reclaimers() {
	awk '$1 == "kdamond" && $3 == "state" && $4 == "on" { on[$2] = 1 }
	     $1 == "kdamond" && $5 == "scheme" && $7 == "action" &&
	     ($8 == "pageout" || $8 == "lru_deprio") && on[$2] &&
	     !seen[$2]++ { print $2, $8 }' "$1"
}

sysinfo_capture() {
	_d=$1
	mkdir -p "$_d" || return 1
	uname -a >"$_d/kernel" || return 1
	for _f in cmdline meminfo vmstat swaps mounts slabinfo cpuinfo; do
		sysinfo_copy "$2/$_f" "$_d/$_f"
	done
	sysinfo_values "$2/sys/vm" >"$_d/sys-vm" || return 1
	sysinfo_damon "$3/kernel/mm/damon/admin" >"$_d/damon" || return 1
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
