# SPDX-License-Identifier: GPL-2.0-or-later
# confine.sh: sourced by run-test.sh.  Memory pressure by design (issue
# 10): the workloads get fake-gitk's measured footprint divided by
# --pressure, either by shrinking the whole machine (global: memory blocks
# offline, hugetlb pages reserved for the rest, as a mem= boot) or by a
# memory cgroup around fake-gitk (memcg), with swap to push into.  Every
# change to the machine goes through latency-machine: recorded before it is
# made, undone at exit, error and signal, and by the next run after a
# crash (DESIGN.md, contract 5).
#
# Uses from the caller: cfg_*, run_dir, cache_dir, scratch, fail_run,
# unsupported, warn, note, progress, run_logged, cmd_calibrate, machine.
# Sets: pressure_mode (global|memcg|none), pressure_why, pressure_ratio
#       (empty: none), footprint_bytes, memory_bytes, calibration,
#       confine_cgroup (empty when none), confine_swapdev (the swap this run
#       enabled).
# Environment:
#   LATENCY_CGROUP_ROOT  where cgroups are mounted (default: /sys/fs/cgroup)

: "${LATENCY_CGROUP_ROOT:=/sys/fs/cgroup}"

confine_cgroup=
confine_swapdev=
pressure_mode=none
pressure_why=
pressure_ratio=
footprint_bytes=
memory_bytes=
calibration=none

is_root() {
	[ "$(id -u)" = 0 ]
}

# Print the directory under which a memory cgroup can be made, or fail
# with the reason on stdout.
confine_cgroup_parent() {
	if ! is_root; then
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

# The file a process writes its pid into to join the cgroup.
confine_cgroup_procs() {
	echo "$confine_cgroup/cgroup.procs"
}

# confine_swap_check: fail with the reason on stdout when swap cannot be
# enabled here.
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

# confine_fs_type DIR: the file system type of DIR (tmpfs, ext2/ext3, ...).
confine_fs_type() {
	stat -f -c %T "$1" 2>/dev/null
}

# decide_pressure: the mode, and why (before any work: usage problems and
# an impossible mode stop the run here).
decide_pressure() {
	pressure_ratio=$cfg_pressure
	case $cfg_mem_limit in
	ratio) ;;
	none)
		pressure_mode=none pressure_ratio=
		pressure_why="--mem-limit=none"
		return 0
		;;
	*)
		case $cfg_confine in
		auto | memcg) ;;
		*) usage_error "--mem-limit=$cfg_mem_limit is a memory cgroup limit: it needs --confine=memcg (or auto)" ;;
		esac
		pressure_mode=memcg pressure_ratio=
		pressure_why="explicit --mem-limit=$cfg_mem_limit"
		memory_bytes=$(size_bytes mem-limit "$cfg_mem_limit")
		;;
	esac
	case $cfg_confine in
	auto)
		if ! is_root; then
			pressure_mode=none pressure_ratio=
			pressure_why="not root: nothing was pressed (the workloads ran with all of this machine's memory)"
		elif [ -n "$memory_bytes" ]; then
			:
		elif [ "$cfg_quick" = yes ]; then
			pressure_mode=memcg
			pressure_why="--quick: a memory cgroup (safe on shared machines and in CI)"
		else
			pressure_mode=global
			pressure_why="root: the whole machine is shrunk, as a mem= boot"
		fi
		;;
	none)
		pressure_mode=none pressure_ratio=
		pressure_why="--confine=none: nothing was pressed"
		;;
	*)
		pressure_mode=$cfg_confine
		pressure_why="--confine=$cfg_confine"
		;;
	esac
	case $pressure_mode in
	memcg)
		if ! _why=$(confine_cgroup_parent); then
			unconfined "memory cgroup" "$_why"
		fi
		;;
	global)
		if ! is_root; then
			unconfined "global memory pressure" "not root: cannot take memory offline"
		fi
		;;
	esac
	decide_swap
}

# unconfined WHAT WHY: go on without pressure only when allowed.
unconfined() {
	if [ "$cfg_allow_unconfined" = yes ]; then
		warn "running without $1: $2"
		note "unconfined: no $1 ($2)"
		pressure_mode=none pressure_ratio= memory_bytes=
		pressure_why="cannot confine here ($2): nothing was pressed"
	else
		unsupported "cannot confine the run ($1): $2 (--allow-unconfined goes on without)"
	fi
}

# decide_swap: what swap the run gets (swap_kind file|cached|device|none),
# and a preflight of where a swap file would go.
decide_swap() {
	swap_kind=none swap_path=
	case $cfg_swap in
	none) return 0 ;;
	auto) [ "$pressure_mode" != none ] || return 0 ;;
	esac
	if ! _why=$(confine_swap_check); then
		case $cfg_swap in
		auto) unconfined "swap" "$_why" ;;
		*) unconfined "swap $cfg_swap" "$_why" ;;
		esac
		return 0
	fi
	case $cfg_swap in
	/*)
		swap_kind=device swap_path=$cfg_swap
		return 0
		;;
	auto)
		swap_kind=cached swap_path=$cache_dir/swapfile
		_dir=$cache_dir _hint="set LATENCY_CACHE_DIR to a disk, or give --swap=DEVICE"
		;;
	*)
		swap_kind=file swap_path=$scratch_dir_for_swap/latency-swapfile.$$
		_dir=$scratch_dir_for_swap _hint="give --scratch=DIR on a disk, or --swap=DEVICE"
		;;
	esac
	# A swap file on tmpfs would only move memory around (and swapon
	# refuses it): say so before any work.
	mkdir -p "$_dir" 2>/dev/null || true
	# The record and swapon take absolute paths.
	_abs=$(cd "$_dir" 2>/dev/null && pwd -P) ||
		unsupported "cannot create the directory $_dir for the swap file"
	swap_path=$_abs/${swap_path##*/}
	case $(confine_fs_type "$_dir") in
	tmpfs | ramfs)
		unsupported "cannot put a swap file in $_dir: it is on $(confine_fs_type "$_dir") ($_hint)"
		;;
	esac
}

# calibrate: fake-gitk's footprint (peak RSS of an unconfined run on the
# same repository and options), cached per repository, refs, options and
# fake-gitk version.
calibrate() {
	[ -n "$pressure_ratio" ] || return 0
	_key=$( {
		cd "$repo" && pwd -P
		"$p_fake_gitk" --list-refs "$repo"
		printf '%s\n' "$cfg_gitk_args"
		"$p_fake_gitk" --version
	} | sha256sum) || fail_run "cannot read the repository's refs for the calibration"
	_key=${_key%% *}
	_cal=$cache_dir/calibration-$(printf '%.16s' "$_key").json
	if [ -s "$_cal" ]; then
		calibration=cached
		cp "$_cal" "$run_dir/calibration.json" ||
			fail_run "cannot copy the calibration $_cal"
	else
		progress "calibrating: one unconfined fake-gitk run measures its footprint"
		prepare_run
		cmd_calibrate "$run_dir/calibration.json" >/dev/null \
			2>"$run_dir/calibration.err" ||
			fail_run "the calibration run of fake-gitk failed (see calibration.err)"
		cp "$run_dir/calibration.json" "$_cal.tmp.$$" &&
			mv "$_cal.tmp.$$" "$_cal" ||
			fail_run "cannot cache the calibration in $_cal"
		calibration=measured
	fi
	_plan=$("$p_latency_summarize" --pressure-plan \
		--calibration="$run_dir/calibration.json" --ratio="$pressure_ratio") ||
		fail_run "cannot plan the pressure from calibration.json"
	footprint_bytes=$(printf '%s\n' "$_plan" | sed -n 's/^footprint_bytes=\([0-9]*\)$/\1/p')
	memory_bytes=$(printf '%s\n' "$_plan" | sed -n 's/^memory_bytes=\([0-9]*\)$/\1/p')
	[ -n "$footprint_bytes" ] && [ -n "$memory_bytes" ] ||
		fail_run "cannot plan the pressure from calibration.json"
	note "pressure: footprint $footprint_bytes bytes ($calibration), ratio $pressure_ratio: $memory_bytes bytes for the workloads"
}

# swap_size_bytes: the automatic swap file: twice the footprint (what is
# pushed out, with room), at least 256 MiB, in whole MiB.
swap_size_bytes() {
	_s=$(((${footprint_bytes:-0} * 2 + 1048575) / 1048576))
	[ "$_s" -ge 256 ] || _s=256
	echo $((_s * 1048576))
}

confine_swap_on() {
	case $swap_kind in
	none) return 0 ;;
	device)
		if grep -q "^$swap_path[[:space:]]" /proc/swaps; then
			note "swap $swap_path is already enabled; leaving it as it is"
			return 0
		fi
		;;
	cached | file)
		_bytes=$(swap_size_bytes)
		[ "$swap_kind" = cached ] || _bytes=$(size_bytes swap "$cfg_swap")
		if [ "$swap_kind" = file ]; then
			machine record rmfile "$swap_path" || return 1
		fi
		if ! [ -f "$swap_path" ] || [ -L "$swap_path" ] ||
			[ "$(stat -c %s "$swap_path")" != "$_bytes" ] ||
			[ "$swap_kind" = file ]; then
			rm -f "$swap_path"
			_mib=$((_bytes / 1048576))
			# fallocate is instant on ext4 and xfs; dd works
			# everywhere.
			if ! (umask 077 && fallocate -l "$_bytes" "$swap_path") 2>/dev/null; then
				rm -f "$swap_path"
				(umask 077 && run_logged dd if=/dev/zero of="$swap_path" \
					bs=1M count="$_mib" status=none) || return 1
			fi
			run_logged mkswap -q "$swap_path" >/dev/null || return 1
		fi
		chmod 600 "$swap_path" || return 1
		;;
	esac
	machine record swapoff "$swap_path" || return 1
	run_logged swapon "$swap_path" || return 1
	confine_swapdev=$swap_path
	note "swap: $swap_path ($swap_kind)"
}

# set_sysctls: the run's kernel tunables (--sysctl), each recorded first.
set_sysctls() {
	[ -n "$cfg_sysctl" ] || return 0
	is_root || unsupported "cannot set --sysctl=$cfg_sysctl: not root"
	_rest=$cfg_sysctl
	while [ -n "$_rest" ]; do
		_one=${_rest%%,*}
		case $_rest in
		*,*) _rest=${_rest#*,} ;;
		*) _rest= ;;
		esac
		_name=${_one%%=*}
		_file=/proc/sys/$(printf '%s' "$_name" | tr . /)
		[ -w "$_file" ] ||
			unsupported "cannot set --sysctl $_name: no $_file here"
		machine record sysctl "$_name" ||
			fail_run "cannot record sysctl $_name"
		echo "${_one#*=}" >"$_file" ||
			fail_run "cannot set $_name to ${_one#*=}"
		note "sysctl $_name=${_one#*=} for the run (restored after it)"
	done
}

# confine: apply the decided pressure.
confine() {
	set_sysctls
	confine_swap_on || fail_run "cannot enable swap $swap_path"
	case $pressure_mode in
	memcg)
		_parent=$(confine_cgroup_parent) || fail_run "no memory cgroup"
		_cg=$_parent/latency-tests.$$
		machine record rmdir "$_cg" || fail_run "cannot record the cgroup"
		mkdir "$_cg" || fail_run "cannot create the memory cgroup $_cg"
		confine_cgroup=$_cg
		if [ -f "$_cg/memory.max" ]; then
			_limit_file=$_cg/memory.max
		else
			_limit_file=$_cg/memory.limit_in_bytes
		fi
		echo "$memory_bytes" >"$_limit_file" ||
			fail_run "cannot set $_limit_file to $memory_bytes"
		note "memory cgroup $_cg limited to $memory_bytes bytes ($_limit_file); fake-gitk runs in it, fake-music and seqbench outside"
		;;
	global)
		prepare_run
		progress "shrinking the machine to leave $memory_bytes bytes for the workloads"
		machine shrink --owner=$$ --keep="$memory_bytes" \
			>"$run_dir/shrink.txt" 2>>"$run_dir/machine.log" ||
			fail_run "cannot shrink the machine (see machine.log)"
		shrunk=yes
		grep -qx 'reached=yes' "$run_dir/shrink.txt" ||
			warn "the machine could not be shrunk to the goal (see shrink.txt; boot with mem= for more pressure)"
		;;
	esac
}

# prepare_run NAME: every run starts from the same state (as root): dirty
# pages written, page cache dropped, swap emptied, memory compacted, and in
# global mode the machine as small as planned.
prepare_run() {
	[ "$cfg_drop_caches" = yes ] || return 0
	if ! is_root; then
		[ -n "${drop_warned:-}" ] || warn "not root: the page cache is not dropped"
		drop_warned=yes
		return 0
	fi
	sync
	echo 3 >/proc/sys/vm/drop_caches
	if [ -n "$confine_swapdev" ]; then
		# Pages left in swap by the previous run would be a different
		# starting point for this one.
		swapoff "$confine_swapdev" && swapon "$confine_swapdev" ||
			fail_run "cannot empty the swap $confine_swapdev"
	fi
	if [ -w /proc/sys/vm/compact_memory ]; then
		echo 1 >/proc/sys/vm/compact_memory
	fi
	if [ -n "${shrunk:-}" ]; then
		# Memory freed meanwhile (by this run's page cache, or by
		# anything else on the machine) would lessen the pressure:
		# shrink again to the same share before each run.
		{
			echo "# before $1"
			machine shrink --keep="$memory_bytes"
		} >>"$run_dir/shrink-runs.txt" 2>>"$run_dir/machine.log" ||
			fail_run "cannot shrink the machine again (see machine.log)"
	fi
}

# Undo everything: latency-machine restores what this run recorded.
confine_undo() {
	machine restore --owner=$$ >>"$run_dir/machine.log" 2>&1 || {
		warn "cannot restore the machine (see machine.log; latency-run-test --restore retries)"
		return 1
	}
	confine_cgroup= confine_swapdev=
}
