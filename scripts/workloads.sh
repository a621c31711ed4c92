# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# workloads.sh: sourced by run-test.sh.  The programs the driver starts in
# the background: started (logged in the run's commands.log, recorded with
# latency-machine), tracked in bg_pids and monitors, and stopped; the
# monitors.  The first two are leaf helpers.
# shellcheck disable=SC2154 # run_dir, confine_cgroup: the driver's (run-test.sh)

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

# Background processes this run started, stopped by cleanup; of them, what
# runs until stopped (monitors, fake-music and its series) as NAME=PID.
bg_pids='' monitors=''

# start_bg IN OUT ERR CGROUP CMD...: log CMD and start it in the background
# reading IN, writing OUT and ERR, in the run's memory cgroup CGROUP (empty:
# none; latency-machine moves it there and executes CMD); its pid is $!.
start_bg() {
	_in=$1 _out=$2 _err=$3 _cg=$4
	shift 4
	log_cmd "$run_dir/commands.log" "$@"
	[ -z "$_cg" ] ||
		set -- "$(bin latency-machine)" cgroup-exec --owner=$$ "$_cg" "$@"
	"$@" <"$_in" >"$_out" 2>"$_err" &
	bg_pids="$bg_pids $!"
	# A run killed with SIGKILL leaves it running: the next run stops it.
	machine record pid "$!" || warn "cannot record process $!"
}

# pid_of NAME: the pid of what runs until stopped as NAME.
pid_of() {
	for _m in $monitors; do
		[ "${_m%=*}" != "$1" ] || echo "${_m##*=}"
	done
}

# wait_for PID: wait and return its exit status (set -e safe).
wait_for() {
	if wait "$1"; then
		_ws=0
	else
		_ws=$?
	fi
	_keep=
	for _p in $bg_pids; do
		[ "$_p" = "$1" ] || _keep="$_keep $_p"
	done
	bg_pids=$_keep
	return $_ws
}

# stop_bg PID NAME: SIGTERM and wait; a program unsupported here (exit 3)
# is noted, any other failure said (its stderr: NAME.err, latency- cut).
stop_bg() {
	set -- "$1" "$2" "${2#latency-}.err"
	_early=no
	kill -TERM "$1" 2>/dev/null || _early=yes
	if wait_for "$1"; then
		_st=0
	else
		_st=$?
	fi
	if stopped_ok "$_st"; then
		[ $_early = no ] || note "$2 had ended before it was stopped"
		return 0
	fi
	if [ "$_st" = 3 ]; then
		note "$2 unsupported here (exit 3): $(sed -n 1p "$run_dir/$3")"
		return 0
	fi
	warn "$2 failed with status $_st (see $3)"
	return 1
}

# start_monitor OUT CMD...: a monitor (or fake-music) until stopped,
# writing OUT and NAME.err (the program's name, latency- cut).
start_monitor() {
	_out=$1 _name=${2##*/}
	shift
	start_bg /dev/null "$_out" "$run_dir/${_name#latency-}.err" '' "$@"
	monitors="$monitors $_name=$!"
}

# block_devices PATH...: the block devices (as /sys/block names them) that
# hold the files PATH, the swap areas of /proc/swaps, and every device
# beneath them (a crypt volume's LVM volume, its disk: slaves/), each once;
# a partition counts as its disk.  Files on no block device (tmpfs) add
# nothing.  The real /sys, as latency-block reads it (LATENCY_SYS is a
# fake tree for sysinfo's tests).
block_devices() {
	_sys=/sys _todo='' _seen=''
	for _f in "$@"; do
		_d=$(stat -c %d "$_f" 2>/dev/null) || continue
		_todo="$_todo $(((_d >> 8) & 0xfff)):$(((_d & 0xff) | ((_d >> 12) & 0xfff00)))"
	done
	# Swap partitions and devices (a swap file is on a device above).
	while read -r _f _type _rest; do
		[ "$_type" = partition ] || continue
		_hex=$(stat -L -c '%t %T' "$_f" 2>/dev/null) || continue
		_todo="$_todo $((0x${_hex% *})):$((0x${_hex#* }))"
	done <"${LATENCY_PROC:-/proc}/swaps"
	while [ -n "$_todo" ]; do
		# shellcheck disable=SC2086 # MAJ:MIN words, split on purpose
		set -- $_todo
		_p=$(readlink -f "$_sys/dev/block/$1" 2>/dev/null) || _p=''
		shift
		_todo=$*
		if [ -z "$_p" ] || [ ! -f "$_p/dev" ]; then
			continue
		fi
		[ ! -f "$_p/partition" ] || _p=${_p%/*}
		[ -e "$_sys/block/${_p##*/}" ] || continue
		case " $_seen " in *" ${_p##*/} "*) continue ;; esac
		_seen="$_seen ${_p##*/}"
		for _s in "$_p"/slaves/*; do
			[ ! -f "$_s/dev" ] || _todo="$_todo $(cat "$_s/dev")"
		done
	done
	echo "${_seen# }"
}

# start_block: latency-block beside the run, on the devices its IO goes to
# (the scratch directory's stack, the results', the swap areas): their
# counters, and with --block-trace the tracepoints, whose instance joins
# this run's machine-state record.  Where it cannot trace it counts with
# the devices' counters and says so (block.err).
start_block() {
	set --
	for _dev in $(block_devices "$scratch" "$run_dir"); do
		set -- "$@" --device="$_dev"
	done
	# Tracing costs the IO it watches (latency-block(1)): asked for.
	[ "$(cfg block_trace)" = yes ] || set -- "$@" --counters-only
	start_bg /dev/null "$run_dir/block.log" "$run_dir/block.err" '' \
		env LATENCY_MACHINE_OWNER=$$ \
		LATENCY_MACHINE="$(bin latency-machine)" \
		"$(bin latency-block)" --summary "$run_dir/block.json" \
		--format json "$@"
	monitors="$monitors latency-block=$!"
}

# start_monitors: the samplers; the kernel log and the tracepoints are
# watched only once the monitors say so: the load starts after that.
start_monitors() {
	set -- "$(bin latency-vmstat)" --interval 1s --summary "$run_dir/vmstat.json" \
		--format json
	[ -z "$confine_cgroup" ] || set -- "$@" --cgroup "$confine_cgroup"
	start_monitor "$run_dir/vmstat.log" "$@"
	start_monitor "$run_dir/kmsg.out" "$(bin latency-kmsg)" \
		--log "$run_dir/kern.log" --summary "$run_dir/kmsg.json" --format json
	start_monitor "$run_dir/trace.log" "$(bin latency-trace)" \
		--summary "$run_dir/trace.json" --format json \
		--events "$run_dir/trace-events.log"
	# The high-order probe, at every THP order the kernel has enabled.
	if [ -d "${LATENCY_SYS:-/sys}/kernel/mm/transparent_hugepage" ]; then
		start_monitor "$run_dir/highorder.log" "$(bin latency-highorder)" \
			--summary "$run_dir/highorder.json" --format json
	else
		progress "no transparent huge pages in this kernel: high-order allocations are not probed"
		note "latency-highorder: not run: this kernel has no transparent huge pages"
	fi
	start_block
	monitor_started kern.log latency-kmsg
	monitor_started trace.log latency-trace
	monitor_started block.log latency-block
	[ -z "$(pid_of latency-highorder)" ] ||
		monitor_started highorder.log latency-highorder
}

# monitor_started FILE NAME: a monitor that has exited is reported by
# stop_bg; one that is slow to start, here.
monitor_started() {
	if wait_started "$run_dir/$1" "$(pid_of "$2")"; then
		_st=0
	else
		_st=$?
	fi
	[ "$_st" != 2 ] || warn "$2 did not say it had started within 10 s"
}

stop_monitors() {
	_ok=0
	for _m in $monitors; do
		case $_m in
		latency-*) stop_bg "${_m##*=}" "${_m%=*}" || _ok=1 ;;
		esac
	done
	return $_ok
}
