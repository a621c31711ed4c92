# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# confine.sh: sourced by run-test.sh.  Memory pressure: the mode and the
# swap decided before any work, then applied: swap, the memory cgroup,
# sysctls, the machine shrunk, the page cache dropped before each run.
# Every change to the machine is asked of latency-machine, which records
# it first and undoes it (doc/design.md, contract 5): nothing here writes
# under /proc/sys or /sys or runs swapon or mkswap.
# The confine_* functions are leaves: each takes what it needs as
# arguments and uses no variable of the driver; return status 0 on
# success, and where one explains a refusal the reason is on stdout.

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

# --- the driver's part ------------------------------------------------------
# machine CMD ARGS: latency-machine, the one record of what this run
# changes on the machine (doc/design.md, contract 5).
machine() {
	_mc=$1
	shift
	case $_mc in
	record | shrink | set | swap* | zram | cgroup* | drop-caches)
		set -- "$_mc" --owner=$$ "$@"
		;;
	*) set -- "$_mc" "$@" ;;
	esac
	# What changes the machine is a command of the run, logged with them.
	case $_mc in
	swap* | zram | cgroup | drop-caches)
		[ -z "${run_dir:-}" ] ||
			log_cmd "$run_dir/commands.log" "$(bin latency-machine)" "$@"
		;;
	esac
	"$(bin latency-machine)" "$@"
}

# machine_begin: the machine is this run's (latency-machine refuses a
# second run with status 3, naming it); a dead run's changes are undone
# first (and said); then this run's record is opened, with the
# directories the run makes files in (a swap file, the cached one).
machine_begin() {
	set -- begin --owner=$$
	case ${swap_kind:-none} in
	file | cached) set -- "$@" --root="${swap_path%/*}" ;;
	esac
	if _out=$(machine "$@" 2>&1); then
		_st=0
	else
		_st=$?
	fi
	if [ -n "$_out" ]; then
		# Every block a dead global run took offline has its line:
		# the terminal gets their count, the notes every line.
		printf '%s\n' "$_out" | awk '
			/ online memory[0-9]+$/ { n++; next }
			{ print }
			END { if (n) printf "latency-machine: and %d memory blocks back online (every line in the notes)\n", n }' >&2
		note "$_out"
	fi
	case $_st in
	0) ;;
	3) unsupported "another run is using this machine (see above)" ;;
	*) die "cannot open the machine-state record (see above)" ;;
	esac
}

# decide_pressure sets these (the defaults: the facts of a run that stops
# before): pressure_mode (global|memcg|none), pressure_why, pressure_ratio
# (empty: none), memory_bytes; calibrate: calibration, swap_auto_bytes;
# confine: confine_cgroup (empty when none), confine_swapdev (the swap this
# run enabled).
pressure_mode=none pressure_why='' pressure_ratio=''
memory_bytes='' calibration=none swap_auto_bytes=''
confine_cgroup='' confine_swapdev=''

# decide_pressure: the mode, and why (before any work: usage problems and
# an impossible mode stop the run here).
decide_pressure() {
	pressure_ratio=$(cfg pressure)
	case $(cfg mem_limit) in
	ratio) ;;
	none)
		pressure_mode=none pressure_ratio=
		pressure_why="--mem-limit=none"
		return 0
		;;
	*)
		case $(cfg confine) in
		auto | memcg) ;;
		*) usage_error "--mem-limit=$(cfg mem_limit) is a memory cgroup limit: it needs --confine=memcg (or auto)" ;;
		esac
		pressure_mode=memcg pressure_ratio=
		pressure_why="explicit --mem-limit=$(cfg mem_limit)"
		memory_bytes=$(cfg mem_limit_bytes)
		;;
	esac
	case $(cfg confine) in
	auto)
		if ! is_root; then
			pressure_mode=none pressure_ratio=
			pressure_why="not root: nothing was pressed (the workloads ran with all of this machine's memory)"
		elif [ -n "$memory_bytes" ]; then
			:
		elif [ "$(cfg quick)" = yes ]; then
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
		pressure_mode=$(cfg confine)
		pressure_why="--confine=$(cfg confine)"
		;;
	esac
	case $pressure_mode in
	memcg)
		if ! _why=$(confine_cgroup_parent "${LATENCY_CGROUP_ROOT:-/sys/fs/cgroup}"); then
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
	[ "$(cfg drop_caches)" != yes ] || is_root ||
		warn "not root: the page cache is not dropped"
}

# unconfined WHAT WHY: go on without pressure only when allowed.
unconfined() {
	if [ "$(cfg allow_unconfined)" = yes ]; then
		warn "running without $1: $2"
		note "unconfined: no $1 ($2)"
		pressure_mode=none pressure_ratio='' memory_bytes=''
		pressure_why="cannot confine here ($2): nothing was pressed"
	else
		unsupported "cannot confine the run ($1): $2 (--allow-unconfined goes on without)"
	fi
}

# decide_swap: what swap the run gets (swap_kind file|cached|device|zram|none,
# swap_path), and a preflight of where a swap file would go.
decide_swap() {
	swap_kind=none swap_path=
	case $(cfg swap) in
	none) return 0 ;;
	auto) [ "$pressure_mode" != none ] || return 0 ;;
	esac
	if ! _why=$(confine_swap_check); then
		case $(cfg swap) in
		auto) unconfined "swap" "$_why" ;;
		*) unconfined "swap $(cfg swap)" "$_why" ;;
		esac
		return 0
	fi
	case $(cfg swap) in
	/*)
		swap_kind=device swap_path=$(cfg swap)
		return 0
		;;
	zram | zram:*)
		_why=$(confine_zram_check "${LATENCY_SYS:-/sys}") ||
			unsupported "cannot use --swap=$(cfg swap): $_why"
		swap_kind=zram
		return 0
		;;
	auto)
		swap_kind=cached swap_path=$cache_dir/swapfile
		_dir=$cache_dir _hint="set LATENCY_CACHE_DIR to a disk, or give --swap=DEVICE"
		;;
	*)
		_dir=$(cfg scratch)
		[ -n "$_dir" ] || _dir=$(cfg results)
		swap_kind=file swap_path=$_dir/latency-swapfile.$$
		_hint="give --scratch=DIR on a disk, or --swap=DEVICE"
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
	# Nor one larger than the free space (latency-machine checks again).
	_size=$(cfg swap_bytes)
	[ "$swap_kind" = file ] && [ -n "$_size" ] || return 0
	_free=$(df -Pk "$_dir" 2>/dev/null | awk 'NR == 2 && $4 ~ /^[0-9]+$/ { print $4 }')
	if [ -n "$_free" ] && [ $((_size / 1024)) -gt "$_free" ]; then
		unsupported "cannot make a swap file of $(cfg swap) in $_dir: $((_free * 1024)) bytes are free there ($_hint)"
	fi
}

# calibrate: fake-gitk's footprint (peak RSS of an unconfined run on the
# same repository and options), cached per repository, refs, options and
# fake-gitk version; the plan (the run's plan file) from latency-plan,
# which reads it again for the result.
calibrate() {
	[ -n "$pressure_ratio" ] || return 0
	_key=$(confine_calibration_key "$repo" "$(bin fake-gitk)" "$(cfg gitk_args)") ||
		fail_run "cannot read the repository's refs for the calibration"
	_cal=$cache_dir/calibration-$_key.json
	if [ -s "$_cal" ]; then
		calibration=cached
		cp "$_cal" "$run_dir/calibration.json" ||
			fail_run "cannot copy the calibration $_cal"
	else
		progress "calibrating: one unconfined fake-gitk run measures its footprint"
		prepare_run calibration
		cmd_calibrate "$run_dir/calibration.json" >/dev/null \
			2>"$run_dir/calibration.err" ||
			fail_run "the calibration run of fake-gitk failed (see calibration.err)"
		if ! cp "$run_dir/calibration.json" "$_cal.tmp.$$" ||
			! mv "$_cal.tmp.$$" "$_cal"; then
			fail_run "cannot cache the calibration in $_cal"
		fi
		calibration=measured
	fi
	"$(bin latency-plan)" --pressure-plan \
		--calibration="$run_dir/calibration.json" --ratio="$pressure_ratio" \
		-o "$run_dir/plan" ||
		fail_run "cannot plan the pressure from calibration.json"
	while IFS='=' read -r _k _v; do
		case $_k in
		footprint_bytes) _footprint=$_v ;;
		memory_bytes) memory_bytes=$_v ;;
		swap_bytes) swap_auto_bytes=$_v ;;
		esac
	done <"$run_dir/plan"
	if [ -z "$memory_bytes" ] || [ -z "$swap_auto_bytes" ]; then
		fail_run "cannot read the pressure plan $run_dir/plan"
	fi
	note "pressure: footprint $_footprint bytes ($calibration), ratio $pressure_ratio: $memory_bytes bytes for the workloads"
}

# swap_on: the swap decided, enabled through latency-machine, which records
# it first (and makes the file or zram device): restore turns it off again.
swap_on() {
	case $swap_kind in
	none) return 0 ;;
	device)
		if confine_swap_enabled "$swap_path"; then
			note "swap $swap_path is already enabled; leaving it as it is"
			return 0
		fi
		machine swapon "$swap_path" || return 1
		;;
	cached)
		# Without a calibration: the smallest automatic swap file.
		machine swapfile --cache "$swap_path" \
			"${swap_auto_bytes:-268435456}" || return 1
		;;
	file) machine swapfile "$swap_path" "$(cfg swap_bytes)" || return 1 ;;
	zram)
		# Without a size: the automatic one (twice the footprint).
		_size=$(cfg swap_bytes)
		swap_path=$(machine zram \
			"${_size:-${swap_auto_bytes:-268435456}}") || return 1
		_z=${LATENCY_SYS:-/sys}/block/${swap_path##*/}
		note "zram: $(sed 's/.*\[\(.*\)\].*/\1/' "$_z/comp_algorithm" 2>/dev/null) compression, $(cat "$_z/disksize") bytes"
		;;
	esac
	confine_swapdev=$swap_path
	note "swap: $swap_path ($swap_kind)"
}

# set_knob NAME VALUE [preflight]: a kernel tunable set through
# latency-machine, which records its value from before the run the first
# time (doc/design.md, contract 5) and refuses what a memory test may not
# change.  Before any run (preflight), a knob whose value cannot be read
# back to put it back, or a value the kernel refuses, is unsupported here.
set_knob() {
	if _out=$(machine set "$1" "$2" 2>&1); then
		return 0
	else
		_st=$?
	fi
	printf '%s\n' "$_out" >&2
	[ "$_st" != 1 ] || [ -z "${3:-}" ] || _st=3
	case $_st in
	2) usage_error "cannot set $1=$2 (see above)" ;;
	3) unsupported "cannot set $1 here (see above)" ;;
	*) fail_run "cannot set $1=$2 (see above)" ;;
	esac
}

# set_sysctls: the run's kernel tunables (--sysctl, checked by
# latency-plan), each through latency-machine's record.
set_sysctls() {
	[ -n "$(cfg sysctl)" ] || return 0
	_rest=$(cfg sysctl)
	while [ -n "$_rest" ]; do
		_one=${_rest%%,*}
		case $_rest in
		*,*) _rest=${_rest#*,} ;;
		*) _rest= ;;
		esac
		set_knob "${_one%%=*}" "${_one#*=}"
		note "sysctl ${_one%%=*}=${_one#*=} for the run (restored after it)"
	done
}

# confine: apply the decided pressure.
confine() {
	set_sysctls
	swap_on || fail_run "cannot enable swap $swap_path"
	case $pressure_mode in
	memcg)
		_parent=$(confine_cgroup_parent "${LATENCY_CGROUP_ROOT:-/sys/fs/cgroup}") ||
			fail_run "no memory cgroup"
		_cg=$_parent/latency-tests.$$
		_limit_file=$(machine cgroup "$_cg" "$memory_bytes") ||
			fail_run "cannot create the memory cgroup $_cg limited to $memory_bytes bytes"
		confine_cgroup=$_cg
		note "memory cgroup $_cg limited to $memory_bytes bytes ($_limit_file); fake-gitk runs in it, fake-music and seqbench outside"
		;;
	global)
		prepare_run shrink
		progress "shrinking the machine to leave $memory_bytes bytes for the workloads"
		machine shrink --keep="$memory_bytes" \
			>"$run_dir/shrink.txt" 2>>"$run_dir/machine.log" ||
			fail_run "cannot shrink the machine (see machine.log)"
		grep -qx 'reached=yes' "$run_dir/shrink.txt" ||
			warn "the machine could not be shrunk to the goal (see shrink.txt; boot with mem= for more pressure)"
		;;
	esac
}

# prepare_run NAME: every run starts from the same state (as root: dirty
# pages written, the page cache dropped, the run's swap emptied, memory
# compacted), and in global mode the machine as small as planned.
prepare_run() {
	[ "$(cfg drop_caches)" = yes ] || return 0
	is_root || return 0 # said once, by decide_pressure
	machine drop-caches ${confine_swapdev:+"$confine_swapdev"} ||
		fail_run "cannot drop the caches or empty the swap $confine_swapdev"
	if [ -s "$run_dir/shrink.txt" ]; then
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

# Undo everything: latency-machine restores what this run recorded (said
# on stderr before the result directory exists).
confine_undo() {
	_log=/dev/stderr
	[ -z "$run_dir" ] || _log=$run_dir/machine.log
	machine restore --owner=$$ >>"$_log" 2>&1 || {
		warn "cannot restore the machine (see machine.log; latency-run-test --restore retries)"
		return 1
	}
	confine_cgroup='' confine_swapdev=''
}
