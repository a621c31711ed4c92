#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run-test.sh (installed as latency-run-test): the latency-tests driver.
# Plays fake-music in the background for the whole test, runs fake-gitk
# --gitk-runs times through unbuffered and latency-output (dropping the page
# cache before each counted run), optionally a seqbench pass, with the
# monitors watching the kernel, and leaves a result directory
# (doc/design.md, contract 3): summary.txt, the latency series, vmstat.log,
# kern.log, sysinfo/, plots and result.json.  It orchestrates only: the
# options are read and checked, and every figure is measured or computed, by
# the C programs.  The helpers it sources (scripts/*.sh) are leaf functions,
# but for memory pressure and the machine (scripts/confine.sh, which asks
# latency-machine for every change); the traps and the order of the steps
# are here.  See latency-run-test(1).
#
# Environment (defaults in brackets):
#   LATENCY_TESTS_BINDIR   where the programs are [next to this script in a
#                          built source tree, else @bindir@, else PATH]
#   LATENCY_TESTS_DATADIR  where the sourced helpers (scripts/*.sh) are
#                          [scripts/ next to this script, else @pkgdatadir@]
#   LATENCY_CACHE_DIR      where the synthetic repository is cached
#                          [${XDG_CACHE_HOME:-$HOME/.cache}/latency-tests]
#   LATENCY_DEFAULT_RATIO  the default --pressure [6]
#   LATENCY_QUICK_RATIO    --quick's default --pressure [3]
#   LATENCY_QUICK_COMMITS  --quick's synthetic repository size [180000]
#   LATENCY_DEFAULT_COMMITS  the synthetic repository size otherwise [180000]
#                          (these four are read by latency-plan)
#   LATENCY_STATE_DIR      where the machine-state record is kept
#                          [/var/lib/latency-tests; without root
#                          $LATENCY_CACHE_DIR/state] (see latency-machine(1))
#   LATENCY_LOCK_DIR       where the lock that lets one run at a time use
#                          the machine is [/run/lock] (latency-machine(1))
#   LATENCY_CGROUP_ROOT    where cgroups are mounted [/sys/fs/cgroup] (read
#                          by latency-machine too)
#   LATENCY_GNUPLOT        gnuplot for the plots [gnuplot; empty: no plots]
#   LATENCY_PROC, LATENCY_SYS  proc and sysfs for sysinfo [/proc, /sys]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
version='@VERSION@'
builtin_bindir='@bindir@'

# The helpers, the shared ones (shell-lib.sh) first: LATENCY_TESTS_DATADIR,
# else beside this script in the source tree, else where make install put
# them (the path substituted at build time).
for datadir in "${LATENCY_TESTS_DATADIR:-}" "$here/scripts" '@pkgdatadir@'; do
	[ -f "$datadir/shell-lib.sh" ] && break
done
if ! [ -f "$datadir/shell-lib.sh" ]; then
	printf '%s: cannot find the helpers shell-lib.sh, confine.sh, ... (set LATENCY_TESTS_DATADIR)\n' \
		"${0##*/}" >&2
	exit 1
fi
# shellcheck source=scripts/shell-lib.sh
. "$datadir/shell-lib.sh"
# shellcheck source=scripts/confine.sh
. "$datadir/confine.sh"
# shellcheck source=scripts/sysinfo.sh
. "$datadir/sysinfo.sh"
# shellcheck source=scripts/plot.sh
. "$datadir/plot.sh"
# shellcheck source=scripts/workloads.sh
. "$datadir/workloads.sh"

# shellcheck disable=SC2154 # prog is set by shell-lib.sh (checked with -x)
usage() {
	print_stdout <<EOF
Usage: $prog [OPTION]...
Run the latency-tests workloads under memory pressure and write a result
directory: fake-music plays in the background while fake-gitk runs
--gitk-runs times; the monitors record the kernel's activity.

Run:
  --gitk-runs=N|auto   counted fake-gitk runs; auto (the default) runs until
                       the 95% confidence interval of the mean elapsed time
                       is within --precision, or --max-runs or
                       --time-budget is spent (3 with --quick)
  --precision=PCT      auto's target: CI half-width in % of the mean
                       (default 2)
  --max-runs=N         auto's run budget (default 10)
  --time-budget=DURATION  auto's time budget for the counted runs
                       (default 6m)
  --warmup=N           uncounted fake-gitk runs first (default 1; 0 with
                       --quick)
  --no-drop-caches     keep the page cache before each counted run (by
                       default, as root, each run starts from the same
                       state: dirty pages written, caches dropped, swap
                       emptied, memory compacted)
  --seqbench=ARGS      also run seqbench with ARGS after the fake-gitk runs
  --ringbench=ARGS     also run ringbench with ARGS (its mode first, e.g.
                       'ring -t 2 -n 5') after them, into ringbench.json
  --repo=PATH          git repository for fake-gitk (default: a synthetic
                       one, created once and cached)
  --commits=N          size of the synthetic repository (default 180000)
  --seed=N             seed of the synthetic repository and the workloads
                       (default 137)
  --music-from=HOST:PORT  fake-music source (default: its own loopback
                       server)
  --gitk-args=ARGS     options for every fake-gitk run (default --reread;
                       none: no options)
  --music-args=ARGS    extra options for fake-music
  --stall=DURATION     gaps longer than this are stalls (default 1s)
  --quick              a complete short run: 3 runs, no warmup, memcg
                       pressure (where allowed); about 20 s once the
                       repository is cached

Memory pressure (as root):
  --pressure=R         give the workloads fake-gitk's measured footprint
                       divided by R (default 6; 3 with --quick); the
                       footprint is measured
                       once per repository and options, and cached
  --confine=MODE       auto (default: global as root, memcg with --quick,
                       none without root), global (shrink the whole
                       machine: memory offline, else hugetlb), memcg (a
                       memory cgroup for fake-gitk) or none
  --mem-limit=SIZE     an explicit memory cgroup limit instead of the
                       ratio (mode memcg)
  --swap=SIZE|DEVICE|zram[:SIZE]|none  swap for the run: a swap file of
                       SIZE, a swap DEVICE, a zram device (compressed
                       memory: no disk between reclaim and swap-in, the
                       steadier choice on a virtual machine), or none
                       (default: a swap file twice the footprint, kept
                       in the cache directory)
  --allow-unconfined   go on without pressure when this machine cannot
                       apply it (default: stop)
  --sysctl=NAME=VALUE[,NAME=VALUE]...  set kernel tunables for the run
                       (vm.NAME sysctls, or sysfs knobs under
                       /sys/kernel/mm/, /sys/module/zswap/parameters/ or
                       a device's queue/read_ahead_kb; e.g.
                       vm.page-cluster=0), restored afterwards
  --interleave=NAME=A,B  an A/B study of one such knob in one boot: one
                       calibration, then runs with NAME=A and NAME=B in
                       randomized pairs (AB or BA, seeded by --seed), the
                       knob set before each run; results LABEL-a and
                       LABEL-b, which latency-compare tests in pairs
                       (--gitk-runs counts runs per arm: 5 with --quick)
  --restore            only undo what a killed run left on the machine,
                       then exit

Results:
  --label=LABEL        name of the run (default: uname -r)
  --results=DIR        results go to DIR/LABEL, or DIR/LABEL-2, ... so
                       nothing is overwritten (default: ./results)
  --scratch=DIR        scratch space for the workloads (default: a
                       directory in the result, removed at the end)
  --config=FILE        read options from FILE (lines name=value, as the
                       result's config file records them); options given
                       on the command line override it
  --print-config       print the effective configuration and exit
  -h, --help           display this help and exit
  -V, --version        output version information and exit

Sizes take binary suffixes (64k = 65536 bytes, 512M); durations take ms, s,
m.  Exit status: 0 the run completed, 1 it failed, 2 usage error, 3
unsupported here (cannot confine the run, or a workload cannot run),
128+N stopped by signal N.  A run that started and did not complete keeps
its result, marked partial.
EOF
	exit 0
}

# --- configuration ---------------------------------------------------------
# Every option is a configuration key, read with the --config files and
# checked by latency-plan --run-config (the keys: latency-plan(1)).
# read_config sets cfg_<key, _ for -> for each (declared here when the
# driver uses it: latency-summarize reads the rest from the run's config
# itself), cfg_action (run, help or
# version), cfg_print_config and cfg_restore (yes or no),
# cfg_mem_limit_bytes and cfg_swap_bytes (those sizes in bytes; empty when
# not sizes), and cfg_text, the config file latency-plan printed with them
# (one call a run: print_config writes it as it is).
cfg_action='' cfg_print_config='' cfg_restore='' cfg_mem_limit_bytes=''
cfg_swap_bytes='' cfg_text=''
cfg_label='' cfg_results='' cfg_scratch='' cfg_repo='' cfg_commits=''
cfg_seed='' cfg_gitk_runs='' cfg_warmup='' cfg_drop_caches='' cfg_seqbench=''
cfg_music_from='' cfg_gitk_args='' cfg_music_args='' cfg_stall=''
cfg_pressure='' cfg_confine='' cfg_mem_limit='' cfg_swap=''
cfg_allow_unconfined='' cfg_max_runs=''
cfg_sysctl='' cfg_quick='' cfg_ringbench='' cfg_interleave=''

# read_config ARG...: the configuration of the command line ARG....  The
# lines read are name=value with no control character in any value; each
# value is assigned as it is, never evaluated.
read_config() {
	if _out=$("$p_latency_plan" --run-config --shell -- "$@" 2>&1); then
		_st=0
	else
		_st=$?
	fi
	case $_st in
	0) ;;
	2) usage_error "$(printf '%s\n' "$_out" | sed -n '1s/^latency-plan: //p')" ;;
	*) die "latency-plan --run-config failed: $_out" ;;
	esac
	while IFS= read -r _line; do
		_k=${_line%%=*}
		case $_k in
		config_line)
			cfg_text="$cfg_text${_line#config_line=}
"
			continue
			;;
		'' | *[!a-z_]*) die "unexpected line from latency-plan --run-config: '$_line'" ;;
		esac
		IFS= read -r "cfg_$_k" <<EOF_VALUE
${_line#*=}
EOF_VALUE
	done <<EOF_CONFIG
$_out
EOF_CONFIG
}

# print_config: the effective configuration read_config was given, one
# name=value per line in a fixed order: --config on it repeats the run.
print_config() {
	printf '%s' "$cfg_text"
}

# --- programs ----------------------------------------------------------------
# find_prog NAME: the program's path (shell-lib.sh's lt_find_prog).
find_prog() {
	lt_find_prog "$here" "$builtin_bindir" "$1"
}

# Set by find_programs.
p_latency_output='' p_unbuffered='' p_fake_gitk='' p_fake_music=''
p_latency_vmstat='' p_latency_kmsg='' p_latency_trace='' p_latency_summarize=''
p_latency_plan=''
p_seqbench='' p_latency_machine='' p_latency_highorder=''
p_ringbench=''

find_programs() {
	_missing=
	for _p in latency-output unbuffered fake-gitk fake-music latency-vmstat \
		latency-kmsg latency-trace latency-highorder latency-summarize \
		latency-machine; do
		_v=p_$(echo "$_p" | tr - _)
		if _path=$(find_prog "$_p"); then
			eval "$_v=\$_path"
		else
			_missing="$_missing $_p"
		fi
	done
	if [ -n "$cfg_seqbench" ]; then
		if _path=$(find_prog seqbench); then
			p_seqbench=$_path
		else
			_missing="$_missing seqbench"
		fi
	fi
	if [ -n "$cfg_ringbench" ]; then
		if _path=$(find_prog ringbench); then
			p_ringbench=$_path
		else
			_missing="$_missing ringbench"
		fi
	fi
	[ -z "$_missing" ] ||
		die "cannot find program(s):$_missing (build the tree, or set LATENCY_TESTS_BINDIR)"
}

# latency-plan is found first: it reads the options.
find_plan() {
	p_latency_plan=$(find_prog latency-plan) ||
		die "cannot find program(s): latency-plan (build the tree, or set LATENCY_TESTS_BINDIR)"
}

# --- logging, progress, processes ------------------------------------------
# Notes made before the result directory exists wait in early_notes.
early_notes=
note() {
	if [ -n "${run_dir:-}" ]; then
		printf '%s\n' "$*" >>"$run_dir/notes"
	else
		early_notes="$early_notes$*
"
	fi
}

progress() {
	printf '%s: [%s] %s\n' "$prog" "$(date +%H:%M:%S)" "$*" >&2
}

# Every command is logged by the driver itself, in the order it starts
# them, one line in one write.
run_logged() {
	log_cmd "$run_dir/commands.log" "$@"
	"$@"
}

# Background processes this run started, stopped by cleanup.
bg_pids=

# start_bg IN OUT ERR CGROUP CMD...: log CMD and start it in the background
# reading IN, writing OUT and ERR, in the run's memory cgroup CGROUP (empty:
# none; latency-machine moves it there and executes CMD); its pid in bg_pid.
start_bg() {
	_in=$1 _out=$2 _err=$3 _cg=$4
	shift 4
	log_cmd "$run_dir/commands.log" "$@"
	[ -z "$_cg" ] ||
		set -- "$p_latency_machine" cgroup-exec --owner=$$ "$_cg" "$@"
	"$@" <"$_in" >"$_out" 2>"$_err" &
	bg_pid=$!
	bg_pids="$bg_pids $bg_pid"
	# A run killed with SIGKILL leaves it running: the next run stops it.
	machine record pid "$bg_pid" || warn "cannot record process $bg_pid"
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

# stop_bg PID NAME ERRFILE: SIGTERM and wait; a program unsupported here
# (exit 3) is noted, any other failure said.
stop_bg() {
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

# --- the programs' command lines: one function each -------------------------
cmd_create_repo() { # DIR
	run_logged "$p_fake_gitk" --create-repo "$1" --commits "$cfg_commits" \
		--seed "$cfg_seed"
}

# gitk_args: the options of every fake-gitk run ("none": no options).
gitk_args() {
	[ "$cfg_gitk_args" = none ] || printf '%s' "$cfg_gitk_args"
}

# The calibration: a run as the counted ones, unconfined and without a
# series.
cmd_calibrate() { # JSON
	# shellcheck disable=SC2046 # checked words (latency-plan), split
	run_logged "$p_fake_gitk" --iterations 1 --format json -o "$1" \
		$(gitk_args) "$repo"
}

# start_monitors: the samplers; the kernel log and the tracepoints are
# watched only once the monitors say so: the load starts after that.
start_monitors() {
	set -- "$p_latency_vmstat" --interval 1s --summary "$run_dir/vmstat.json" \
		--format json
	[ -z "$confine_cgroup" ] || set -- "$@" --cgroup "$confine_cgroup"
	start_bg /dev/null "$run_dir/vmstat.log" "$run_dir/vmstat.err" '' "$@"
	pid_vmstat=$bg_pid
	start_bg /dev/null "$run_dir/kmsg.out" "$run_dir/kmsg.err" '' \
		"$p_latency_kmsg" --log "$run_dir/kern.log" \
		--summary "$run_dir/kmsg.json" --format json
	pid_kmsg=$bg_pid
	start_bg /dev/null "$run_dir/trace.log" "$run_dir/trace.err" '' \
		"$p_latency_trace" --summary "$run_dir/trace.json" --format json \
		--events "$run_dir/trace-events.log"
	pid_trace=$bg_pid
	# The high-order probe, at every THP order the kernel has enabled.
	pid_highorder=
	if [ -d "${LATENCY_SYS:-/sys}/kernel/mm/transparent_hugepage" ]; then
		start_bg /dev/null "$run_dir/highorder.log" \
			"$run_dir/highorder.err" '' "$p_latency_highorder" \
			--summary "$run_dir/highorder.json" --format json
		pid_highorder=$bg_pid
	else
		progress "no transparent huge pages in this kernel: high-order allocations are not probed"
		note "latency-highorder: not run: this kernel has no transparent huge pages"
	fi
	monitor_started "$run_dir/kern.log" "$pid_kmsg" latency-kmsg
	monitor_started "$run_dir/trace.log" "$pid_trace" latency-trace
	[ -z "$pid_highorder" ] ||
		monitor_started "$run_dir/highorder.log" "$pid_highorder" \
			latency-highorder
}

# monitor_started FILE PID NAME: a monitor that has exited is reported by
# stop_bg; one that is slow to start, here.
monitor_started() {
	if wait_started "$1" "$2"; then
		_st=0
	else
		_st=$?
	fi
	[ "$_st" != 2 ] || warn "$3 did not say it had started within 10 s"
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

# start_series NAME [DIR]: latency-output reading the FIFO $fifo_dir/NAME,
# into DIR/NAME.latency and DIR/NAME.report.json (DIR: the result
# directory); its pid in pid_series.  A workload writes into the FIFO,
# both in the background so that a signal reaches the driver at once.
start_series() {
	_sd=${2:-$run_dir}
	# The two arms of an interleaved run have runs of one name.
	rm -f "$fifo_dir/$1"
	mkfifo "$fifo_dir/$1"
	start_bg "$fifo_dir/$1" "$_sd/$1.latency" \
		"$_sd/$1.latency-output.err" '' \
		"$p_latency_output" --stall "$cfg_stall" --format json \
		--report "$_sd/$1.report.json" --plot "$_sd/$1"
	pid_series=$bg_pid
}

# fake-music plays outside the memory cgroup: in a cgroup v1 its writeback
# would be reclaimed by fake-gitk's limit and every run would wait on it.
start_music() {
	mkdir -p "$scratch/music"
	start_series fake-music
	pid_music_series=$pid_series
	set -- "$p_fake_music" --to "$scratch/music" --loop --format json \
		-o "$run_dir/fake-music.json"
	[ -z "$cfg_music_from" ] || set -- "$@" --from "$cfg_music_from"
	# shellcheck disable=SC2086 # checked words (latency-plan), split
	set -- "$@" $cfg_music_args
	start_bg /dev/null "$fifo_dir/fake-music" "$run_dir/fake-music.err" '' \
		"$@"
	pid_music=$bg_pid
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

# snapshot NAME: the kernel's counters now, as NAME.json (per-run figures),
# with the CPU time of this driver's process tree (the suite) beside the
# machine's.
snapshot() {
	set -- "$p_latency_vmstat" --snapshot -o "$gitk_dir/$1.json" \
		--suite-pid $$
	[ -z "$confine_cgroup" ] || set -- "$@" --cgroup "$confine_cgroup"
	"$@" 2>>"$run_dir/vmstat.err" ||
		fail_run "latency-vmstat --snapshot failed (see vmstat.err)"
}

# run_gitk NAME: one fake-gitk run through unbuffered (in the memory
# cgroup, if any) into $gitk_dir (the result directory, or an interleaved
# run's arm); its JSON is NAME.json, the kernel's counters before and
# after it NAME.snap-before.json and .snap-after.json.
run_gitk() {
	start_series "$1" "$gitk_dir"
	snapshot "$1.snap-before"
	# shellcheck disable=SC2046 # checked words (latency-plan), split
	start_bg /dev/null "$fifo_dir/$1" "$gitk_dir/$1.err" "$confine_cgroup" \
		"$p_unbuffered" "$p_fake_gitk" --iterations 1 --format json \
		-o "$gitk_dir/$1.json" $(gitk_args) "$repo"
	if wait_for "$bg_pid"; then
		_st=0
	else
		_st=$?
	fi
	snapshot "$1.snap-after"
	wait_for "$pid_series" || fail_run "latency-output failed for $1 (see $1.latency-output.err)"
	case $_st in
	0) ;;
	3) unsupported "fake-gitk cannot run here: $(sed -n 1p "$gitk_dir/$1.err")" ;;
	*) fail_run "fake-gitk failed with status $_st (see $1.err)" ;;
	esac
}

# Does --seqbench name its own target (-d DIR, --dir)?  Sets
# seqbench_dir=yes or no, seqbench_read_only=yes or no.
seqbench_target() {
	seqbench_dir=no seqbench_read_only=no
	for _w in $cfg_seqbench; do
		case $_w in
		-d* | --dir | --dir=*) seqbench_dir=yes ;;
		--read-only) seqbench_read_only=yes ;;
		esac
	done
	if [ "$seqbench_read_only" = yes ] && [ "$seqbench_dir" = no ]; then
		usage_error "--seqbench=\"$cfg_seqbench\" reads what is there: name the file, device or tree with -d"
	fi
}

# What seqbench changes (--readahead) joins this run's machine-state record
# (LATENCY_MACHINE_OWNER: this driver), so that the run's restore undoes
# it even when seqbench dies; by this run's latency-machine.  With no -d
# in its arguments it writes in the scratch directory, removed after.
run_seqbench() {
	[ -n "$cfg_seqbench" ] || return 0
	progress "seqbench $cfg_seqbench"
	if [ "$seqbench_dir" = yes ]; then
		set --
	else
		mkdir -p "$scratch/seqbench"
		set -- -d "$scratch/seqbench"
	fi
	# seqbench.txt: its report for people (the tiobench table, or the
	# --format the options ask for); seqbench.json: the same run's.
	# shellcheck disable=SC2086 # checked words (latency-plan), split
	start_bg /dev/null "$run_dir/seqbench.txt" "$run_dir/seqbench.err" '' \
		env LATENCY_MACHINE_OWNER=$$ LATENCY_MACHINE="$p_latency_machine" \
		"$p_seqbench" $cfg_seqbench "$@" \
		--seed "$cfg_seed" --json-output "$run_dir/seqbench.json"
	wait_for "$bg_pid" || fail_run "seqbench failed (see seqbench.err)"
	[ "$seqbench_dir" = yes ] || rm -rf "$scratch/seqbench"
}

run_ringbench() {
	[ -n "$cfg_ringbench" ] || return 0
	progress "ringbench $cfg_ringbench"
	# shellcheck disable=SC2086 # checked words (latency-plan), split
	start_bg /dev/null "$run_dir/ringbench.txt" "$run_dir/ringbench.err" '' \
		"$p_ringbench" $cfg_ringbench --format json \
		-o "$run_dir/ringbench.json"
	wait_for "$bg_pid" || fail_run "ringbench failed (see ringbench.err)"
}

# run_workloads: the warmup runs, the counted runs until latency-summarize
# says --gitk-runs is met (sets runs_done, stopped_by), seqbench.
run_workloads() {
	if [ -n "$cfg_interleave" ]; then
		interleave_runs
		run_seqbench
		run_ringbench
		return 0
	fi
	_i=0
	while [ "$_i" -lt "$cfg_warmup" ]; do
		_i=$((_i + 1))
		progress "fake-gitk warmup run $_i of $cfg_warmup"
		prepare_run "warmup-$_i"
		run_gitk "warmup-$_i"
	done
	runs_done=0 stopped_by=''
	while [ -z "$stopped_by" ]; do
		_n=$((runs_done + 1))
		if [ "$cfg_gitk_runs" = auto ]; then
			progress "fake-gitk run $_n (auto: until the precision, max-runs or time-budget of config is met)"
		else
			progress "fake-gitk run $_n of $cfg_gitk_runs"
		fi
		prepare_run "fake-gitk-$_n"
		run_gitk "fake-gitk-$_n"
		runs_done=$_n
		write_facts
		_stop=$("$p_latency_plan" --stop-rule --result-dir="$run_dir") ||
			fail_run "latency-plan --stop-rule failed"
		stopped_by=${_stop#stop=}
	done
	run_seqbench
	run_ringbench
}

# --- interleaved A/B runs (--interleave NAME=A,B) ---------------------------
# One calibration, one set of monitors and one fake-music for both arms;
# the runs of A and B in pairs, each pair AB or BA at random
# (latency-plan --interleave-order, seeded by --seed), the knob set
# through latency-machine just before each run's preparation (cache drop,
# swap emptied, compaction), so a pair's two runs share the machine's
# speed of that moment.  The knob keeps the last run's value until the end,
# when the record gives back the value from before the run.  --gitk-runs
# counts runs per arm (pairs); auto stops on the paired ratio of elapsed
# per user-CPU second (latency-plan --stop-rule --paired-dir), at
# --max-runs pairs or the time budget.  --warmup runs come first, A and B
# in turn, uncounted.  Arm A's directory (run_dir) holds what both share
# (monitors, kern.log, fake-music, sysinfo, config); arm B gets a copy at
# the end.
il_name='' il_a='' il_b='' il_order=''
run_dir_b='' run_label_b='' runs_done_b=0

interleave_parse() {
	[ -n "$cfg_interleave" ] || return 0
	il_name=${cfg_interleave%%=*}
	_v=${cfg_interleave#*=}
	il_a=${_v%%,*}
	il_b=${_v#*,}
}

# interleave_preflight: both values written once, before any run (the
# knob's value from before the run recorded first), so that a knob this
# machine lacks, one whose value cannot be put back, or a value the kernel
# refuses stops the run before anything is measured.
interleave_preflight() {
	[ -n "$cfg_interleave" ] || return 0
	set_knob "$il_name" "$il_b" preflight
	set_knob "$il_name" "$il_a" preflight
}

# interleave_arm A|B: the arm's value, directory (gitk_dir) and the number
# of its next run (il_next).
interleave_arm() {
	if [ "$1" = A ]; then
		il_value=$il_a gitk_dir=$run_dir il_next=$((runs_done + 1))
	else
		il_value=$il_b gitk_dir=$run_dir_b il_next=$((runs_done_b + 1))
	fi
}

# interleave_one A|B NAME: one run of the arm, the knob set first.
interleave_one() {
	interleave_arm "$1"
	set_knob "$il_name" "$il_value"
	prepare_run "$2"
	run_gitk "$2"
}

interleave_runs() {
	_pairs=$cfg_gitk_runs
	[ "$_pairs" != auto ] || _pairs=$cfg_max_runs
	il_order=$("$p_latency_plan" --interleave-order="$_pairs" \
		--seed="$cfg_seed") || fail_run "latency-plan --interleave-order failed"
	il_order=${il_order#order=}
	note "interleave: $il_name=$il_a (arm a), $il_b (arm b); order $il_order (seed $cfg_seed)"
	_i=0
	while [ "$_i" -lt "$cfg_warmup" ]; do
		_i=$((_i + 1))
		_arm=A
		[ $((_i % 2)) = 1 ] || _arm=B
		progress "fake-gitk warmup run $_i of $cfg_warmup ($il_name=$(
			[ $_arm = A ] && echo "$il_a" || echo "$il_b"))"
		interleave_one $_arm "warmup-$_i"
	done
	runs_done=0 runs_done_b=0 stopped_by='' _k=0
	while [ -z "$stopped_by" ]; do
		_pair=$(printf '%s' "$il_order" | cut -c$((2 * _k + 1))-$((2 * _k + 2)))
		[ -n "$_pair" ] || { stopped_by=max-runs; break; }
		for _arm in $(printf '%s' "$_pair" | sed 's/./& /g'); do
			interleave_arm "$_arm"
			progress "fake-gitk pair $((_k + 1)), $il_name=$il_value (arm $(printf '%s' "$_arm" | tr AB ab))"
			interleave_one "$_arm" "fake-gitk-$il_next"
			if [ "$_arm" = A ]; then
				runs_done=$il_next
			else
				runs_done_b=$il_next
			fi
		done
		_k=$((_k + 1))
		write_facts
		_stop=$("$p_latency_plan" --stop-rule --result-dir="$run_dir" \
			--paired-dir="$run_dir_b") ||
			fail_run "latency-plan --stop-rule failed"
		stopped_by=${_stop#stop=}
	done
	gitk_dir=$run_dir
}

# interleave_share: arm B's copy of what both arms share (arm A holds it).
interleave_share() {
	for _f in config versions commands.log notes vmstat.log vmstat.json \
		kmsg.json kern.log trace.json trace-events.log highorder.log \
		highorder.json fake-music.json fake-music.latency \
		fake-music.report.json calibration.json plan shrink.txt \
		shrink-runs.txt machine-before.json machine-confined.json \
		machine-after.json sysinfo; do
		[ -e "$run_dir/$_f" ] || continue
		rm -rf "${run_dir_b:?}/$_f"
		cp -R "$run_dir/$_f" "$run_dir_b/$_f" || return 1
	done
}

# --- the run -----------------------------------------------------------------
# make_arm_dirs: RESULTS/LABEL-a and RESULTS/LABEL-b, or LABEL-2-a and
# LABEL-2-b, ...: both new.
make_arm_dirs() {
	mkdir -p "$cfg_results" || die "cannot create results directory '$cfg_results'"
	_i=1
	_base=$cfg_label
	while :; do
		if mkdir "$cfg_results/$_base-a" 2>/dev/null; then
			mkdir "$cfg_results/$_base-b" 2>/dev/null && break
			rmdir "$cfg_results/$_base-a"
		fi
		[ -d "$cfg_results/$_base-a" ] ||
			die "cannot create result directory '$cfg_results/$_base-a'"
		_i=$((_i + 1))
		_base=$cfg_label-$_i
	done
	run_dir=$(cd "$cfg_results/$_base-a" && pwd)
	run_dir_b=$(cd "$cfg_results/$_base-b" && pwd)
	run_label=$_base-a run_label_b=$_base-b
}

# make_run_dir: RESULTS/LABEL, or RESULTS/LABEL-2, ...; mkdir is the lock.
make_run_dir() {
	if [ -n "$cfg_interleave" ]; then
		make_arm_dirs
		gitk_dir=$run_dir
		return 0
	fi
	mkdir -p "$cfg_results" || die "cannot create results directory '$cfg_results'"
	_dir=$cfg_results/$cfg_label
	_i=1
	while ! mkdir "$_dir" 2>/dev/null; do
		[ -d "$_dir" ] || die "cannot create result directory '$_dir'"
		_i=$((_i + 1))
		_dir=$cfg_results/$cfg_label-$_i
	done
	run_dir=$(cd "$_dir" && pwd)
	gitk_dir=$run_dir
	if [ "$_i" -gt 1 ]; then
		run_label=$cfg_label-$_i
	else
		run_label=$cfg_label
	fi
}

record_versions() {
	: >"$run_dir/versions"
	for _p in "$p_latency_output" "$p_unbuffered" "$p_fake_gitk" \
		"$p_fake_music" "$p_latency_vmstat" "$p_latency_kmsg" \
		"$p_latency_trace" "$p_latency_highorder" "$p_latency_plan" \
		"$p_latency_summarize" \
		${p_seqbench:+"$p_seqbench"} \
		${p_ringbench:+"$p_ringbench"}; do
		"$_p" --version >>"$run_dir/versions" ||
			die "cannot run '$_p --version'"
	done
	{
		echo "driver: $command_line"
		echo "uname -r: $(uname -r)"
		echo "seed: $cfg_seed"
	} >>"$run_dir/versions"
}

prepare_repo() {
	if [ -n "$cfg_repo" ]; then
		repo=$cfg_repo
		return 0
	fi
	repo=$cache_dir/repo-$cfg_commits-$cfg_seed
	# The repository appears under its name only once complete.
	[ -d "$repo" ] && return 0
	progress "creating the synthetic repository ($cfg_commits commits, cached in $repo)"
	mkdir -p "$cache_dir" || fail_run "cannot create cache directory '$cache_dir'"
	repo_tmp=$repo.tmp.$$
	cmd_create_repo "$repo_tmp" >"$run_dir/create-repo.log" 2>&1 ||
		fail_run "fake-gitk --create-repo failed (see create-repo.log)"
	# Another run may have finished the same repository meanwhile.
	if ! mv -T "$repo_tmp" "$repo" 2>/dev/null; then
		rm -rf "$repo_tmp"
		[ -d "$repo" ] || fail_run "cannot move the repository to '$repo'"
	fi
	repo_tmp=''
}

# --- the result ------------------------------------------------------------
# write_facts: what the driver knows and no program can read elsewhere, as
# name=value lines for latency-summarize, which writes result.json and
# summary.txt in C (it reads the options from the run's config itself); for
# both arms of an interleaved run.
write_facts() {
	if [ -z "$cfg_interleave" ]; then
		write_facts_to "$run_dir" "$cfg_label" "$run_label" \
			"${runs_done:-0}"
		return 0
	fi
	write_facts_to "$run_dir" "$cfg_label-a" "$run_label" \
		"${runs_done:-0}" a "$il_a" "$run_label_b"
	write_facts_to "$run_dir_b" "$cfg_label-b" "$run_label_b" \
		"${runs_done_b:-0}" b "$il_b" "$run_label"
}

# write_facts_to DIR LABEL RUN_LABEL RUNS_DONE [ARM VALUE OTHER]
write_facts_to() {
	{
		echo "label=$2"
		echo "run_label=$3"
		echo "kernel=$(uname -r)"
		echo "version=$version"
		echo "command_line=$command_line"
		echo "partial=${facts_partial:-yes}"
		echo "partial_reason=${facts_reason:-}"
		echo "runs_done=$4"
		echo "stopped_by=${stopped_by:-}"
		echo "pressure_mode=$pressure_mode"
		echo "pressure_why=$pressure_why"
		echo "pressure_ratio=$pressure_ratio"
		echo "calibration=$calibration"
		echo "swap=${swap_path:-none}"
		if [ $# -gt 4 ]; then
			echo "interleave_name=$il_name"
			echo "interleave_values=$il_a,$il_b"
			echo "interleave_arm=$5"
			echo "interleave_value=$6"
			echo "interleave_order=$il_order"
			echo "interleave_other=$7"
		fi
	} >"$1/run.facts.tmp" && mv "$1/run.facts.tmp" "$1/run.facts"
}

# finish STATE: result.json and summary.txt from what exists (STATE:
# complete, or why the run is partial).
finish() {
	if [ "$1" = complete ]; then
		facts_partial=no facts_reason=
	else
		facts_partial=yes facts_reason=$1
		[ -n "${stopped_by:-}" ] || stopped_by=interrupted
	fi
	write_facts
	if [ -n "$cfg_interleave" ] && [ -n "$run_dir_b" ]; then
		interleave_share || warn "cannot copy the shared files to $run_dir_b"
		run_logged "$p_latency_summarize" --result-dir="$run_dir_b"
	fi
	run_logged "$p_latency_summarize" --result-dir="$run_dir"
}

# tidy: an empty diagnostics file says nothing; remove it.
tidy() {
	for _f in "$run_dir"/*.err "$run_dir/kmsg.out" "$run_dir/plot.log" \
		${run_dir_b:+"$run_dir_b"/*.err}; do
		if [ -f "$_f" ] && ! [ -s "$_f" ]; then
			rm -f "$_f"
		fi
	done
}

# sysinfo DIR: what the run depends on, into DIR.
sysinfo() {
	sysinfo_capture "$1" "${LATENCY_PROC:-/proc}" "${LATENCY_SYS:-/sys}"
}

# --- failure and cleanup -----------------------------------------------------
state=setup
partial_reason=
exit_code=
run_dir='' runs_done=0 stopped_by=''

unsupported() {
	partial_reason="unsupported: $*"
	exit_code=3
	die_unsupported "$@"
}

fail_run() {
	partial_reason="failed: $*"
	exit_code=1
	die "$@"
}

on_signal() {
	partial_reason="interrupted by SIG$1"
	trap - "$1"
	case $1 in
	INT) exit_code=130 ;;
	TERM) exit_code=143 ;;
	HUP) exit_code=129 ;;
	esac
	exit $exit_code
}

# cleanup STATUS: the EXIT trap.  A shell does not always pass the status
# of an exit inside a signal trap, so exit_code takes precedence.
cleanup() {
	_status=${exit_code:-$1}
	# A second Ctrl-C must not leave a swap file or a cgroup behind.
	trap - EXIT
	trap '' INT TERM HUP
	set +e
	for _p in $bg_pids; do
		kill -TERM "$_p" 2>/dev/null
	done
	for _p in $bg_pids; do
		wait "$_p"
	done
	bg_pids=
	if [ -n "${fifo_dir:-}" ]; then
		rm -rf "$fifo_dir"
	fi
	if [ "${machine_open:-}" = yes ]; then
		confine_undo || _status=1
	fi
	if [ "$state" = running ] || [ "$state" = finishing ]; then
		[ -n "$partial_reason" ] || partial_reason="failed with status $_status"
		[ "$_status" -ne 0 ] || { partial_reason="finishing failed"; _status=1; }
		if [ "$state" = running ]; then
			sysinfo "$run_dir/sysinfo/after"
		fi
		finish "$partial_reason"
		tidy
		progress "result (partial) in $run_dir"
	fi
	if [ -n "${repo_tmp:-}" ]; then
		rm -rf "$repo_tmp"
	fi
	if [ -n "${scratch_made:-}" ]; then
		rm -rf "$scratch_made"
	fi
	exit "$_status"
}

main() {
	find_plan
	read_config "$@"
	case $cfg_action in
	help) usage ;;
	version) show_version "$version" "$here" ;;
	esac
	if [ "$cfg_print_config" = yes ]; then
		print_config | print_stdout
		exit 0
	fi
	find_programs
	cache_dir=${LATENCY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/latency-tests}
	if [ -z "${LATENCY_STATE_DIR:-}" ] && [ "$(id -u)" != 0 ]; then
		# Without root the record holds only this user's processes.
		LATENCY_STATE_DIR=$cache_dir/state
		export LATENCY_STATE_DIR
	fi
	if [ "$cfg_restore" = yes ]; then
		# 3: another run is using the machine; its record is its own.
		machine restore || exit $?
		exit 0
	fi
	version=$(tree_version "$version" "$here")
	command_line="$prog $(quote_args "$@")"
	# Usage and what this machine cannot do stop the run before any work.
	seqbench_target
	decide_pressure
	interleave_parse

	trap 'cleanup $?' EXIT
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	trap 'on_signal HUP' HUP

	machine_begin
	machine_open=yes
	interleave_preflight
	make_run_dir
	# From here on, whatever happens leaves a summary and a result.json.
	state=running
	[ -z "$early_notes" ] || printf '%s' "$early_notes" >>"$run_dir/notes"
	progress "result directory $run_dir"
	print_config >"$run_dir/config"
	# Each arm's stop rule reads its own config.
	[ -z "$run_dir_b" ] || cp "$run_dir/config" "$run_dir_b/config" ||
		fail_run "cannot copy the config to $run_dir_b"
	# A device stack latency-device-setup made at --scratch: its
	# description goes with the result (latency-summarize checks it).
	if [ -n "$cfg_scratch" ] && [ -f "$cfg_scratch/latency-device.json" ]; then
		cp "$cfg_scratch/latency-device.json" "$run_dir/device.json"
	fi
	: >"$run_dir/commands.log"
	record_versions
	fifo_dir=$(mktemp -d "${TMPDIR:-/tmp}/latency-run-test.XXXXXX")
	if [ -n "$cfg_scratch" ]; then
		scratch=$(mktemp -d "$cfg_scratch/latency-scratch.XXXXXX")
	else
		scratch=$run_dir/scratch
		mkdir "$scratch"
	fi
	scratch_made=$scratch
	prepare_repo
	calibrate
	progress "pressure: $pressure_mode${pressure_ratio:+, ratio $pressure_ratio}${memory_bytes:+, $memory_bytes bytes for the workloads}"
	machine show >"$run_dir/machine-before.json" 2>>"$run_dir/machine.log" ||
		fail_run "latency-machine show failed (see machine.log)"
	confine
	# "before" includes the swap and memory limit the run has.
	sysinfo "$run_dir/sysinfo/before" || fail_run "cannot record sysinfo"
	machine show >"$run_dir/machine-confined.json" 2>>"$run_dir/machine.log" ||
		fail_run "latency-machine show failed (see machine.log)"
	start_monitors
	progress "starting fake-music"
	start_music
	run_workloads
	progress "stopping fake-music and the monitors"
	stop_music || fail_run "fake-music failed (see fake-music.err)"
	stop_monitors || fail_run "a monitor failed"
	confine_undo || fail_run "cannot undo the confinement"
	machine show >"$run_dir/machine-after.json" 2>>"$run_dir/machine.log" ||
		fail_run "latency-machine show failed (see machine.log)"
	sysinfo "$run_dir/sysinfo/after" || fail_run "cannot record sysinfo"
	state=finishing
	finish complete
	plot_result "$run_dir" "${LATENCY_GNUPLOT-gnuplot}" >"$run_dir/plot.log" 2>&1 ||
		fail_run "gnuplot failed (see plot.log)"
	if [ -n "$run_dir_b" ]; then
		plot_result "$run_dir_b" "${LATENCY_GNUPLOT-gnuplot}" \
			>>"$run_dir/plot.log" 2>&1 ||
			fail_run "gnuplot failed (see plot.log)"
	fi
	tidy
	state=finished
	sed -n 1p "$run_dir/summary.txt" >&2
	if [ -n "$run_dir_b" ]; then
		sed -n 1p "$run_dir_b/summary.txt" >&2
		progress "results in $run_dir and $run_dir_b (latency-compare tests them in pairs)"
	else
		progress "result in $run_dir"
	fi
}

main "$@"
