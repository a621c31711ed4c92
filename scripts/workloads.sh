# SPDX-License-Identifier: GPL-2.0-or-later
# workloads.sh: sourced by run-test.sh.  Starts and stops the monitors and
# the background fake-music, runs fake-gitk (warmup and counted runs) and
# seqbench, each through latency-output where it is a series.  Every
# program is started through its cmd_* function in run-test.sh and kept in
# bg_pids, so the driver's cleanup can stop whatever is still running.
#
# Uses from the caller: run_dir, fifo_dir, scratch, cfg_*, the cmd_*
# functions, bg_add, wait_for, note, warn, progress, fail_run,
# unsupported, prepare_run.  Sets runs_done, stopped_by.

start_monitors() {
	(cmd_vmstat "$run_dir/vmstat.json") >"$run_dir/vmstat.log" \
		2>"$run_dir/vmstat.err" &
	pid_vmstat=$!
	bg_add $pid_vmstat
	(cmd_kmsg "$run_dir/kern.log" "$run_dir/kmsg.json") \
		>"$run_dir/kmsg.out" 2>"$run_dir/kmsg.err" &
	pid_kmsg=$!
	bg_add $pid_kmsg
	(cmd_trace "$run_dir/trace.json" "$run_dir/trace-events.log") \
		>"$run_dir/trace.log" \
		2>"$run_dir/trace.err" &
	pid_trace=$!
	bg_add $pid_trace
	pid_highorder=
	if [ -d "${LATENCY_SYS:-/sys}/kernel/mm/transparent_hugepage" ]; then
		(cmd_highorder "$run_dir/highorder.json") \
			>"$run_dir/highorder.log" 2>"$run_dir/highorder.err" &
		pid_highorder=$!
		bg_add $pid_highorder
	else
		progress "no transparent huge pages in this kernel: high-order allocations are not probed"
		note "latency-highorder: not run: this kernel has no transparent huge pages"
	fi
	# The kernel log and the tracepoints are watched only once the
	# monitors say so: start the load after that.
	wait_started "$run_dir/kern.log" "$pid_kmsg" latency-kmsg
	wait_started "$run_dir/trace.log" "$pid_trace" latency-trace
	[ -z "$pid_highorder" ] ||
		wait_started "$run_dir/highorder.log" "$pid_highorder" latency-highorder
}

# wait_started FILE PID NAME: until the monitor's "started=1" line is in
# FILE, it has exited (stop_bg reports why), or 10 s have passed.
wait_started() {
	_n=0
	while ! grep -q ' started=1' "$1" 2>/dev/null; do
		kill -0 "$2" 2>/dev/null || return 0
		if [ $_n -ge 100 ]; then
			warn "$3 did not say it had started within 10 s"
			return 0
		fi
		sleep 0.1
		_n=$((_n + 1))
	done
}

# stop_bg PID NAME ERRFILE: SIGTERM and wait; stopped programs exit 0 or
# 128+15.
stop_bg() {
	_early=no
	kill -TERM "$1" 2>/dev/null || _early=yes
	if wait_for "$1"; then
		_st=0
	else
		_st=$?
	fi
	case $_st in
	0 | 143)
		[ $_early = no ] || note "$2 had ended before it was stopped"
		return 0
		;;
	3)
		note "$2 unsupported here (exit 3): $(sed -n 1p "$run_dir/$3")"
		return 0
		;;
	esac
	warn "$2 failed with status $_st (see $3)"
	return 1
}

stop_monitors() {
	_ok=0
	stop_bg "$pid_vmstat" latency-vmstat vmstat.err || _ok=1
	stop_bg "$pid_kmsg" latency-kmsg kmsg.err || _ok=1
	stop_bg "$pid_trace" latency-trace trace.err || _ok=1
	if [ -n "$pid_highorder" ]; then
		stop_bg "$pid_highorder" latency-highorder highorder.err || _ok=1
	fi
	pid_vmstat='' pid_kmsg='' pid_trace='' pid_highorder=''
	return $_ok
}

# A workload piped into latency-output through a FIFO, both in the
# background so that a signal reaches the driver at once.
# start_series NAME: starts latency-output reading $fifo_dir/NAME.
start_series() {
	mkfifo "$fifo_dir/$1"
	(cmd_latency_output "$run_dir/$1.report.json" "$run_dir/$1") \
		<"$fifo_dir/$1" >"$run_dir/$1.latency" 2>"$run_dir/$1.latency-output.err" &
	pid_series=$!
	bg_add $pid_series
}

start_music() {
	mkdir -p "$scratch/music"
	start_series fake-music
	pid_music_series=$pid_series
	(cmd_music "$run_dir/fake-music.json") >"$fifo_dir/fake-music" \
		2>"$run_dir/fake-music.err" &
	pid_music=$!
	bg_add $pid_music
}

stop_music() {
	[ -n "${pid_music:-}" ] || return 0
	_ok=0
	stop_bg "$pid_music" fake-music fake-music.err || _ok=1
	pid_music=
	wait_for "$pid_music_series" || {
		warn "latency-output of fake-music failed"
		_ok=1
	}
	return $_ok
}

# snapshot NAME: the kernel's counters now, as NAME.json (per-run figures).
snapshot() {
	cmd_snapshot "$run_dir/$1.json" 2>>"$run_dir/vmstat.err" ||
		fail_run "latency-vmstat --snapshot failed (see vmstat.err)"
}

# run_gitk NAME: one fake-gitk run; its JSON is NAME.json, the kernel's
# counters before and after it NAME.snap-before.json and .snap-after.json.
run_gitk() {
	start_series "$1"
	snapshot "$1.snap-before"
	(cmd_gitk "$run_dir/$1.json") >"$fifo_dir/$1" 2>"$run_dir/$1.err" &
	_pid=$!
	bg_add $_pid
	if wait_for $_pid; then
		_st=0
	else
		_st=$?
	fi
	snapshot "$1.snap-after"
	wait_for "$pid_series" || fail_run "latency-output failed for $1 (see $1.latency-output.err)"
	case $_st in
	0) ;;
	3) unsupported "fake-gitk cannot run here: $(sed -n 1p "$run_dir/$1.err")" ;;
	*) fail_run "fake-gitk failed with status $_st (see $1.err)" ;;
	esac
}

run_seqbench() {
	[ -n "$cfg_seqbench" ] || return 0
	progress "seqbench $cfg_seqbench"
	mkdir -p "$scratch/seqbench"
	(cmd_seqbench "$run_dir/seqbench.json") >"$run_dir/seqbench.txt" \
		2>"$run_dir/seqbench.err" &
	_pid=$!
	bg_add $_pid
	wait_for $_pid || fail_run "seqbench failed (see seqbench.err)"
	rm -rf "$scratch/seqbench"
}

# uptime_ms: milliseconds since boot (a clock that does not jump).
uptime_ms() {
	read -r _up _idle </proc/uptime
	_frac=${_up#*.}
	echo $((${_up%.*} * 1000 + ${_frac#"${_frac%%[!0]*}"}0 / 10 * 10))
}

# enough_runs: after each counted run, whether to stop (sets stopped_by).
enough_runs() {
	if [ "$cfg_gitk_runs" != auto ]; then
		[ "$runs_done" -ge "$cfg_gitk_runs" ] || return 1
		stopped_by=runs
		return 0
	fi
	if [ "$runs_done" -ge 3 ]; then
		write_facts
		_p=$(cmd_precision) || fail_run "latency-summarize --precision failed"
		case $_p in
		*,yes)
			stopped_by=precision
			return 0
			;;
		esac
	fi
	if [ "$runs_done" -ge "$cfg_max_runs" ]; then
		stopped_by=max-runs
		return 0
	fi
	if [ $(($(uptime_ms) - runs_start_ms)) -ge "$time_budget_ms" ]; then
		stopped_by=time-budget
		return 0
	fi
	return 1
}

run_workloads() {
	_i=0
	while [ $_i -lt "$cfg_warmup" ]; do
		_i=$((_i + 1))
		progress "fake-gitk warmup run $_i of $cfg_warmup"
		prepare_run "warmup-$_i"
		run_gitk "warmup-$_i"
	done
	runs_start_ms=$(uptime_ms)
	runs_done=0
	while :; do
		_n=$((runs_done + 1))
		if [ "$cfg_gitk_runs" = auto ]; then
			progress "fake-gitk run $_n (until ±$cfg_precision%, at most $cfg_max_runs runs or $cfg_time_budget)"
		else
			progress "fake-gitk run $_n of $cfg_gitk_runs"
		fi
		prepare_run "fake-gitk-$_n"
		run_gitk "fake-gitk-$_n"
		runs_done=$_n
		! enough_runs || break
	done
	run_seqbench
}
