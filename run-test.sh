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
# latency-machine for every change) and the background programs
# (scripts/workloads.sh); the traps and the order of the steps are here.
# See latency-run-test(1).
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
                       the 95% confidence interval of the mean elapsed
                       time per user-CPU second is within --precision, or
                       --max-runs or --time-budget is spent; at least 5
  --precision=PCT      auto's target: CI half-width in % of the mean
                       (default 1.5; 2.5 with --quick)
  --max-runs=N         auto's run budget (default 20; 10 with --quick)
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
  --quick              a complete short run: 5 to 10 runs (auto, to
                       +/-2.5%), no warmup, memcg pressure (where
                       allowed); 20-60 s once the repository is cached

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
  --block-trace        latency-block reads the block tracepoints (queued,
                       dispatched, unplugs, Q2C/D2C), at a cost to the
                       IO measured (default: the devices' counters only)
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
                       (--gitk-runs and --max-runs count pairs)
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
# config holds its name=value lines (no control character in a value, and
# none evaluated), cfg KEY prints one: an option (_ for -), action (run,
# help or version), print_config and restore (yes or no), mem_limit_bytes
# and swap_bytes (those sizes in bytes; empty when not sizes); its
# config_line= lines are the run's config file (one call a run:
# print_config writes them as they are).
config=''
read_config() {
	if _out=$("$(bin latency-plan)" --run-config --shell -- "$@" 2>&1); then
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
		case ${_line%%=*} in
		'' | *[!a-z_]*) die "unexpected line from latency-plan --run-config: '$_line'" ;;
		esac
	done <<EOF_CONFIG
$_out
EOF_CONFIG
	config=$_out
}

cfg() {
	printf '%s\n' "$config" | sed -n "s/^$1=//p"
}

# print_config: the effective configuration read_config was given, one
# name=value per line in a fixed order: --config on it repeats the run.
print_config() {
	printf '%s\n' "$config" | sed -n 's/^config_line=//p'
}

# --- programs ----------------------------------------------------------------
# bin NAME: the path of the suite's program NAME (shell-lib.sh's
# lt_find_prog), looked up where it is called; find_programs checked them.
bin() {
	lt_find_prog "$here" '@bindir@' "$1"
}

# programs: the programs this run calls, in order (all but latency-machine
# record their versions).
programs() {
	echo latency-output unbuffered fake-gitk fake-music latency-vmstat \
		latency-kmsg latency-trace latency-highorder latency-block \
		latency-plan latency-summarize latency-machine
	[ -z "$(cfg seqbench)" ] || echo seqbench
	[ -z "$(cfg ringbench)" ] || echo ringbench
}

# find_programs [NAME]: every program (or NAME) is there, else stop.
find_programs() {
	_missing=
	for _p in ${1:-$(programs)}; do
		bin "$_p" >/dev/null || _missing="$_missing $_p"
	done
	[ -z "$_missing" ] ||
		die "cannot find program(s):$_missing (build the tree, or set LATENCY_TESTS_BINDIR)"
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

# --- the programs' command lines: one function each -------------------------
# gitk_args: the options of every fake-gitk run ("none": no options).
gitk_args() {
	[ "$(cfg gitk_args)" = none ] || cfg gitk_args
}

# The calibration: a run as the counted ones, unconfined and without a
# series.
cmd_calibrate() { # JSON
	# shellcheck disable=SC2046 # checked words (latency-plan), split
	run_logged "$(bin fake-gitk)" --iterations 1 --format json -o "$1" \
		$(gitk_args) "$repo"
}

# start_series NAME [DIR]: latency-output reading the FIFO $fifo_dir/NAME,
# into DIR/NAME.latency and DIR/NAME.report.json (DIR: the result
# directory); its pid is $!.  A workload writes into the FIFO,
# both in the background so that a signal reaches the driver at once.
start_series() {
	_sd=${2:-$run_dir}
	# The two arms of an interleaved run have runs of one name.
	rm -f "$fifo_dir/$1"
	mkfifo "$fifo_dir/$1"
	start_bg "$fifo_dir/$1" "$_sd/$1.latency" \
		"$_sd/$1.latency-output.err" '' \
		"$(bin latency-output)" --stall "$(cfg stall)" --format json \
		--report "$_sd/$1.report.json" --plot "$_sd/$1"
}

# fake-music plays outside the memory cgroup: in a cgroup v1 its writeback
# would be reclaimed by fake-gitk's limit and every run would wait on it.
start_music() {
	mkdir -p "$scratch/music"
	start_series fake-music
	monitors="$monitors fake-music.latency=$!"
	set -- "$(bin fake-music)" --to "$scratch/music" --loop --format json \
		-o "$run_dir/fake-music.json"
	[ -z "$(cfg music_from)" ] || set -- "$@" --from "$(cfg music_from)"
	# shellcheck disable=SC2046 # checked words (latency-plan), split
	set -- "$@" $(cfg music_args)
	start_monitor "$fifo_dir/fake-music" "$@"
}

stop_music() {
	_ok=0
	stop_bg "$(pid_of fake-music)" fake-music || _ok=1
	wait_for "$(pid_of fake-music.latency)" || {
		warn "latency-output of fake-music failed"
		_ok=1
	}
	return $_ok
}

# snapshot NAME DIR: the kernel's counters now, as DIR/NAME.json (per-run
# figures), with the CPU time of this driver's process tree (the suite)
# beside the machine's.
snapshot() {
	set -- "$(bin latency-vmstat)" --snapshot -o "$2/$1.json" --suite-pid $$
	[ -z "$confine_cgroup" ] || set -- "$@" --cgroup "$confine_cgroup"
	"$@" 2>>"$run_dir/vmstat.err" ||
		fail_run "latency-vmstat --snapshot failed (see vmstat.err)"
}

# run_gitk NAME DIR: one fake-gitk run through unbuffered (in the memory
# cgroup, if any) into DIR (the result directory, or an interleaved run's
# arm); its JSON is NAME.json, the kernel's counters before and after it
# NAME.snap-before.json and .snap-after.json.
run_gitk() {
	start_series "$1" "$2"
	_series=$!
	snapshot "$1.snap-before" "$2"
	# shellcheck disable=SC2046 # checked words (latency-plan), split
	start_bg /dev/null "$fifo_dir/$1" "$2/$1.err" "$confine_cgroup" \
		"$(bin unbuffered)" "$(bin fake-gitk)" --iterations 1 --format json \
		-o "$2/$1.json" $(gitk_args) "$repo"
	if wait_for $!; then
		_st=0
	else
		_st=$?
	fi
	snapshot "$1.snap-after" "$2"
	wait_for "$_series" || fail_run "latency-output failed for $1 (see $1.latency-output.err)"
	case $_st in
	0) ;;
	3) unsupported "fake-gitk cannot run here: $(sed -n 1p "$2/$1.err")" ;;
	*) fail_run "fake-gitk failed with status $_st (see $1.err)" ;;
	esac
}

# run_one ARM NAME: one prepared fake-gitk run; of an interleaved run's
# arm a or b (its knob set first, into its directory), or plain (ARM
# empty).
run_one() {
	[ -z "$1" ] || set_knob "$(interleave_part name)" "$(interleave_part "$1")"
	prepare_run "$2"
	if [ "$1" = b ]; then
		run_gitk "$2" "$run_dir_b"
	else
		run_gitk "$2" "$run_dir"
	fi
}

# Does --seqbench name its own target (-d DIR, --dir)?  Sets
# seqbench_dir=yes or no; --read-only without one is a usage error.
seqbench_target() {
	seqbench_dir=no _ro=no
	for _w in $(cfg seqbench); do
		case $_w in
		-d* | --dir | --dir=*) seqbench_dir=yes ;;
		--read-only) _ro=yes ;;
		esac
	done
	if [ "$_ro" = yes ] && [ "$seqbench_dir" = no ]; then
		usage_error "--seqbench=\"$(cfg seqbench)\" reads what is there: name the file, device or tree with -d"
	fi
}

# What seqbench changes (--readahead) joins this run's machine-state record
# (LATENCY_MACHINE_OWNER: this driver), so that the run's restore undoes
# it even when seqbench dies; by this run's latency-machine.  With no -d
# in its arguments it writes in the scratch directory, removed after.
run_seqbench() {
	[ -n "$(cfg seqbench)" ] || return 0
	progress "seqbench $(cfg seqbench)"
	if [ "$seqbench_dir" = yes ]; then
		set --
	else
		mkdir -p "$scratch/seqbench"
		set -- -d "$scratch/seqbench"
	fi
	# seqbench.txt: its report for people (the tiobench table, or the
	# --format the options ask for); seqbench.json: the same run's.
	# shellcheck disable=SC2046 # checked words (latency-plan), split
	start_bg /dev/null "$run_dir/seqbench.txt" "$run_dir/seqbench.err" '' \
		env LATENCY_MACHINE_OWNER=$$ LATENCY_MACHINE="$(bin latency-machine)" \
		"$(bin seqbench)" $(cfg seqbench) "$@" \
		--seed "$(cfg seed)" --json-output "$run_dir/seqbench.json"
	wait_for $! || fail_run "seqbench failed (see seqbench.err)"
	[ "$seqbench_dir" = yes ] || rm -rf "$scratch/seqbench"
}

run_ringbench() {
	[ -n "$(cfg ringbench)" ] || return 0
	progress "ringbench $(cfg ringbench)"
	# shellcheck disable=SC2046 # checked words (latency-plan), split
	start_bg /dev/null "$run_dir/ringbench.txt" "$run_dir/ringbench.err" '' \
		"$(bin ringbench)" $(cfg ringbench) --format json \
		-o "$run_dir/ringbench.json"
	wait_for $! || fail_run "ringbench failed (see ringbench.err)"
}

# run_workloads: the warmup runs, the counted runs until latency-plan
# says --gitk-runs is met (sets runs_done, stopped_by), seqbench, ringbench.
run_workloads() {
	[ -z "$run_dir_b" ] || interleave_order
	_i=0
	while [ "$_i" -lt "$(cfg warmup)" ]; do
		_i=$((_i + 1))
		_arm='' _knob=''
		if [ -n "$run_dir_b" ]; then
			_arm=a
			[ $((_i % 2)) = 1 ] || _arm=b
			_knob=" ($(interleave_part name)=$(interleave_part $_arm))"
		fi
		progress "fake-gitk warmup run $_i of $(cfg warmup)$_knob"
		run_one "$_arm" "warmup-$_i"
	done
	runs_done=0 runs_done_b=0 stopped_by=''
	if [ -n "$run_dir_b" ]; then
		interleave_runs
	else
		while [ -z "$stopped_by" ]; do
			_n=$((runs_done + 1))
			if [ "$(cfg gitk_runs)" = auto ]; then
				progress "fake-gitk run $_n (auto: until the precision, max-runs or time-budget of config is met)"
			else
				progress "fake-gitk run $_n of $(cfg gitk_runs)"
			fi
			run_one '' "fake-gitk-$_n"
			runs_done=$_n
			stop_rule
		done
	fi
	run_seqbench
	run_ringbench
}

# stop_rule [PAIRED_DIR]: the facts written, whether --gitk-runs is met
# (for an interleaved run: on the pairs with PAIRED_DIR) in stopped_by.
stop_rule() {
	write_facts ''
	_stop=$("$(bin latency-plan)" --stop-rule --result-dir="$run_dir" \
		${1:+"--paired-dir=$1"}) ||
		fail_run "latency-plan --stop-rule failed"
	stopped_by=${_stop#stop=}
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
il_order='' run_dir_b='' runs_done_b=0

# interleave_part name|a|b: the knob's name, or its value in arm a or b.
interleave_part() {
	_iv=$(cfg interleave)
	case $1 in
	name) echo "${_iv%%=*}" ;;
	a) _iv=${_iv#*=} && echo "${_iv%%,*}" ;;
	b) _iv=${_iv#*=} && echo "${_iv#*,}" ;;
	esac
}

# interleave_preflight: both values written once, before any run (the
# knob's value from before the run recorded first), so that a knob this
# machine lacks, one whose value cannot be put back, or a value the kernel
# refuses stops the run before anything is measured.
interleave_preflight() {
	[ -n "$(cfg interleave)" ] || return 0
	set_knob "$(interleave_part name)" "$(interleave_part b)" preflight
	set_knob "$(interleave_part name)" "$(interleave_part a)" preflight
}

interleave_order() {
	_pairs=$(cfg gitk_runs)
	[ "$_pairs" != auto ] || _pairs=$(cfg max_runs)
	il_order=$("$(bin latency-plan)" --interleave-order="$_pairs" \
		--seed="$(cfg seed)") || fail_run "latency-plan --interleave-order failed"
	il_order=${il_order#order=}
	note "interleave: $(interleave_part name)=$(interleave_part a) (arm a), $(interleave_part b) (arm b); order $il_order (seed $(cfg seed))"
}

# interleave_runs: the counted runs, pair by pair (sets runs_done,
# runs_done_b, stopped_by).
interleave_runs() {
	_k=0
	while [ -z "$stopped_by" ]; do
		_pair=$(printf '%s' "$il_order" | cut -c$((2 * _k + 1))-$((2 * _k + 2)))
		[ -n "$_pair" ] || { stopped_by=max-runs; break; }
		_k=$((_k + 1))
		for _arm in $(printf '%s' "$_pair" | tr AB ab | sed 's/./& /g'); do
			case $_arm in
			a) _n=$((runs_done + 1)) ;;
			*) _n=$((runs_done_b + 1)) ;;
			esac
			progress "fake-gitk pair $_k, $(interleave_part name)=$(interleave_part "$_arm") (arm $_arm)"
			run_one "$_arm" "fake-gitk-$_n"
			case $_arm in
			a) runs_done=$_n ;;
			*) runs_done_b=$_n ;;
			esac
		done
		stop_rule "$run_dir_b"
	done
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
# make_run_dir: RESULTS/LABEL, or RESULTS/LABEL-2, ...; mkdir is the lock.
# An interleaved run's arms: RESULTS/LABEL-a and RESULTS/LABEL-b, or
# LABEL-2-a and LABEL-2-b, ...: both new.
make_run_dir() {
	_res=$(cfg results) _label=$(cfg label) _a=''
	[ -z "$(cfg interleave)" ] || _a=-a
	mkdir -p "$_res" || die "cannot create results directory '$_res'"
	_i=1
	_base=$_label
	while :; do
		if mkdir "$_res/$_base$_a" 2>/dev/null; then
			[ -n "$_a" ] || break
			mkdir "$_res/$_base-b" 2>/dev/null && break
			rmdir "$_res/$_base-a"
		fi
		[ -d "$_res/$_base$_a" ] ||
			die "cannot create result directory '$_res/$_base$_a'"
		_i=$((_i + 1))
		_base=$_label-$_i
	done
	run_dir=$(cd "$_res/$_base$_a" && pwd)
	[ -z "$_a" ] || run_dir_b=$(cd "$_res/$_base-b" && pwd)
}

record_versions() {
	: >"$run_dir/versions"
	for _p in $(programs); do
		[ "$_p" != latency-machine ] || continue
		_path=$(bin "$_p")
		"$_path" --version >>"$run_dir/versions" ||
			die "cannot run '$_path --version'"
	done
	{
		echo "driver: $command_line"
		echo "uname -r: $(uname -r)"
		echo "seed: $(cfg seed)"
	} >>"$run_dir/versions"
}

prepare_repo() {
	if [ -n "$(cfg repo)" ]; then
		repo=$(cfg repo)
		return 0
	fi
	repo=$cache_dir/repo-$(cfg commits)-$(cfg seed)
	# The repository appears under its name only once complete.
	[ -d "$repo" ] && return 0
	progress "creating the synthetic repository ($(cfg commits) commits, cached in $repo)"
	mkdir -p "$cache_dir" || fail_run "cannot create cache directory '$cache_dir'"
	repo_tmp=$repo.tmp.$$
	run_logged "$(bin fake-gitk)" --create-repo "$repo_tmp" \
		--commits "$(cfg commits)" --seed "$(cfg seed)" \
		>"$run_dir/create-repo.log" 2>&1 ||
		fail_run "fake-gitk --create-repo failed (see create-repo.log)"
	# Another run may have finished the same repository meanwhile.
	if ! mv -T "$repo_tmp" "$repo" 2>/dev/null; then
		rm -rf "$repo_tmp"
		[ -d "$repo" ] || fail_run "cannot move the repository to '$repo'"
	fi
	repo_tmp=''
}

# --- the result ------------------------------------------------------------
# write_facts STATE: what the driver knows and no program can read
# elsewhere, as name=value lines for latency-summarize, which writes
# result.json and summary.txt in C (it reads the options from the run's
# config itself); for both arms of an interleaved run.  STATE: complete,
# why the run is partial, or empty while it runs.
write_facts() {
	if [ -z "$run_dir_b" ]; then
		write_facts_to "$1" "$run_dir" "$(cfg label)" "$runs_done"
		return 0
	fi
	write_facts_to "$1" "$run_dir" "$(cfg label)-a" "$runs_done" a "$run_dir_b"
	write_facts_to "$1" "$run_dir_b" "$(cfg label)-b" "$runs_done_b" b "$run_dir"
}

# write_facts_to STATE DIR LABEL RUNS_DONE [ARM OTHER_DIR]
write_facts_to() {
	{
		echo "label=$3"
		echo "run_label=${2##*/}"
		echo "kernel=$(uname -r)"
		echo "version=$version"
		echo "command_line=$command_line"
		if [ "$1" = complete ]; then
			echo "partial=no"
			echo "partial_reason="
		else
			echo "partial=yes"
			echo "partial_reason=$1"
		fi
		echo "runs_done=$4"
		echo "stopped_by=$stopped_by"
		echo "pressure_mode=$pressure_mode"
		echo "pressure_why=$pressure_why"
		echo "pressure_ratio=$pressure_ratio"
		echo "calibration=$calibration"
		echo "swap=${swap_path:-none}"
		if [ $# -gt 4 ]; then
			echo "interleave_name=$(interleave_part name)"
			echo "interleave_values=$(interleave_part a),$(interleave_part b)"
			echo "interleave_arm=$5"
			echo "interleave_value=$(interleave_part "$5")"
			echo "interleave_order=$il_order"
			echo "interleave_other=${6##*/}"
		fi
	} >"$2/run.facts.tmp" && mv "$2/run.facts.tmp" "$2/run.facts"
}

# finish STATE: result.json and summary.txt from what exists (STATE:
# complete, or why the run is partial).
finish() {
	[ "$1" = complete ] || [ -n "$stopped_by" ] || stopped_by=interrupted
	write_facts "$1"
	if [ -n "$run_dir_b" ]; then
		interleave_share || warn "cannot copy the shared files to $run_dir_b"
		run_logged "$(bin latency-summarize)" --result-dir="$run_dir_b"
	fi
	run_logged "$(bin latency-summarize)" --result-dir="$run_dir"
	report_page "$run_dir"
	[ -z "$run_dir_b" ] || report_page "$run_dir_b"
}

# report_page DIR: DIR/report.html, the run alone as a page to look at
# (latency-compare --format=html: its headline, runs, distributions).  The
# page is a view of the result, not part of it: one that cannot be made
# is said (a note, and report.log) and the run stands.
report_page() {
	if ! _lc=$(bin latency-compare); then
		note "no report.html: latency-compare is not installed"
		warn "no report.html: latency-compare is not installed"
	elif ! run_logged "$_lc" --format=html -o "$1/report.html" "$1" \
		>"$1/report.log" 2>&1; then
		note "no report.html: latency-compare failed (see report.log)"
		warn "no report.html in $1: latency-compare failed (see report.log)"
	fi
}

# tidy: an empty diagnostics file says nothing; remove it.
tidy() {
	for _f in "$run_dir"/*.err "$run_dir/kmsg.out" "$run_dir/plot.log" \
		"$run_dir/report.log" ${run_dir_b:+"$run_dir_b"/*.err} \
		${run_dir_b:+"$run_dir_b/report.log"}; do
		if [ -f "$_f" ] && ! [ -s "$_f" ]; then
			rm -f "$_f"
		fi
	done
}

# damon_note FILE: name a proactive reclaimer running beside the workloads
# (FILE: sysinfo's damon): it changes the memory pressure the run measures.
damon_note() {
	sysinfo_reclaimers "$1" |
		while read -r _k _a; do
			note "proactive reclaim: DAMON kdamond $_k runs a $_a scheme beside the workloads (sysinfo/before/damon); --sysctl=/sys/kernel/mm/damon/admin/kdamonds/$_k/state=off pauses it, restored afterwards"
		done
}

# sysinfo DIR: what the run depends on, into DIR.
sysinfo() {
	sysinfo_capture "$1" "${LATENCY_PROC:-/proc}" "${LATENCY_SYS:-/sys}"
}

# --- failure and cleanup -----------------------------------------------------
# state: setup, open (the machine-state record: undone at exit), running
# (a result is left whatever happens), finishing, finished.
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
	if [ "$state" != setup ]; then
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
	if [ -n "${scratch:-}" ]; then
		rm -rf "$scratch"
	fi
	exit "$_status"
}

main() {
	find_programs latency-plan
	read_config "$@"
	case $(cfg action) in
	help) usage ;;
	version) show_version "$version" "$here" ;;
	esac
	if [ "$(cfg print_config)" = yes ]; then
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
	if [ "$(cfg restore)" = yes ]; then
		# 3: another run is using the machine; its record is its own.
		machine restore || exit $?
		exit 0
	fi
	version=$(tree_version "$version" "$here")
	command_line="$prog $(quote_args "$@")"
	# Usage and what this machine cannot do stop the run before any work.
	seqbench_target
	decide_pressure

	trap 'cleanup $?' EXIT
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	trap 'on_signal HUP' HUP

	machine_begin
	state=open
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
	if [ -n "$(cfg scratch)" ] && [ -f "$(cfg scratch)/latency-device.json" ]; then
		cp "$(cfg scratch)/latency-device.json" "$run_dir/device.json"
	fi
	: >"$run_dir/commands.log"
	record_versions
	# The pipes between the workloads and latency-output: in the run
	# directory, so that a run killed with SIGKILL leaves them with its
	# partial result, not in /tmp.
	fifo_dir=$run_dir/fifo
	mkdir "$fifo_dir"
	if [ -n "$(cfg scratch)" ]; then
		scratch=$(mktemp -d "$(cfg scratch)/latency-scratch.XXXXXX")
	else
		mkdir "$run_dir/scratch"
		scratch=$run_dir/scratch
	fi
	prepare_repo
	calibrate
	progress "pressure: $pressure_mode${pressure_ratio:+, ratio $pressure_ratio}${memory_bytes:+, $memory_bytes bytes for the workloads}"
	machine show >"$run_dir/machine-before.json" 2>>"$run_dir/machine.log" ||
		fail_run "latency-machine show failed (see machine.log)"
	confine
	# "before" includes the swap and memory limit the run has.
	sysinfo "$run_dir/sysinfo/before" || fail_run "cannot record sysinfo"
	damon_note "$run_dir/sysinfo/before/damon"
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
