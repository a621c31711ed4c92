#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run-test.sh (installed as latency-run-test): the latency-tests driver.
# Plays fake-music in the background for the whole test, runs fake-gitk
# --gitk-runs times through unbuffered and latency-output (dropping the page
# cache before each counted run), optionally a seqbench pass, with the
# monitors watching the kernel, and leaves a result directory (contract 3):
# summary.txt, the latency series, vmstat.log, kern.log, sysinfo/, plots and
# result.json.  It orchestrates only: every figure is measured or computed
# by the C programs.  See latency-run-test(1).
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
#   LATENCY_STATE_DIR      where the machine-state record is kept
#                          [/var/lib/latency-tests] (see latency-machine(1))
#   LATENCY_CGROUP_ROOT    where cgroups are mounted [/sys/fs/cgroup]
#   LATENCY_GNUPLOT        gnuplot for the plots [gnuplot; empty: no plots]
#   LATENCY_PROC, LATENCY_SYS  proc and sysfs for sysinfo [/proc, /sys]
set -eu

: "${LATENCY_DEFAULT_RATIO:=6}"
: "${LATENCY_QUICK_RATIO:=3}"
: "${LATENCY_QUICK_COMMITS:=180000}"
: "${LATENCY_DEFAULT_COMMITS:=180000}"

prog=${0##*/}
here=$(cd "$(dirname "$0")" && pwd)
version='@VERSION@'
builtin_bindir='@bindir@'
builtin_datadir='@pkgdatadir@'

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 1
}

warn() {
	printf '%s: warning: %s\n' "$prog" "$*" >&2
}

usage_error() {
	printf '%s: %s\n' "$prog" "$*" >&2
	printf "Try '%s --help' for more information.\n" "$prog" >&2
	exit 2
}

# Copy stdin to stdout; a write error (e.g. a full disk) is fatal, with
# the reason, as in every program of the suite.
print_stdout() {
	if ! _err=$(cat 2>&1 >&3); then
		# Nothing said: cat was stopped by SIGPIPE, as a reader went away.
		[ -z "$_err" ] ||
			printf '%s: write error: %s\n' "$prog" "${_err##*: }" >&2
		exit 1
	fi
} 3>&1

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
  --swap=SIZE|DEVICE|none  swap for the run: a swap file of SIZE, a swap
                       DEVICE, or none (default: a swap file twice the
                       footprint, kept in the cache directory)
  --allow-unconfined   go on without pressure when this machine cannot
                       apply it (default: stop)
  --sysctl=NAME=VALUE[,NAME=VALUE]...  set kernel tunables for the run
                       (e.g. vm.page-cluster=0), restored afterwards
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

show_version() {
	case $version in
	@*)
		# Running from the source tree: ask the tree for its version.
		version=$(sh "$here/version.sh")
		;;
	esac
	printf '%s (latency-tests) %s\n' "$prog" "$version" | print_stdout
	exit 0
}

# --- configuration ---------------------------------------------------------
# Every option is a configuration key: cfg_<key with _ for ->.  "" means
# "not set"; resolve_config fills in the defaults.
cfg_keys="label results scratch repo commits seed gitk-runs warmup drop-caches"
cfg_keys="$cfg_keys seqbench music-from gitk-args music-args stall pressure"
cfg_keys="$cfg_keys confine mem-limit swap allow-unconfined precision max-runs"
cfg_keys="$cfg_keys time-budget sysctl quick"
cfg_label='' cfg_results='' cfg_scratch='' cfg_repo='' cfg_commits=''
cfg_seed='' cfg_gitk_runs='' cfg_warmup='' cfg_drop_caches='' cfg_seqbench=''
cfg_music_from='' cfg_gitk_args='' cfg_music_args='' cfg_stall=''
cfg_pressure='' cfg_confine='' cfg_mem_limit='' cfg_swap=''
cfg_allow_unconfined='' cfg_precision='' cfg_max_runs='' cfg_time_budget=''
cfg_sysctl=''
cfg_quick=''

cfg_set() {
	_var=cfg_$(echo "$1" | tr - _)
	case " $cfg_keys " in
	*" $1 "*) ;;
	*) return 1 ;;
	esac
	eval "$_var=\$2"
}

cfg_get() {
	eval "printf '%s' \"\$cfg_$(echo "$1" | tr - _)\""
}

# load_config FILE: name=value lines; # comments and blank lines skipped.
# The file is read, never executed.
load_config() {
	[ -r "$1" ] || usage_error "cannot read config file '$1'"
	_n=0
	while IFS= read -r _line || [ -n "$_line" ]; do
		_n=$((_n + 1))
		case $_line in
		'' | '#'*) continue ;;
		*=*) ;;
		*) usage_error "$1:$_n: expected name=value: '$_line'" ;;
		esac
		cfg_set "${_line%%=*}" "${_line#*=}" ||
			usage_error "$1:$_n: unknown setting '${_line%%=*}'"
	done <"$1"
}

# Values: validated here so a bad one stops the run before any load.
# Numbers are kept to 9 digits (18 for sizes) so the shell's arithmetic
# never overflows and never sees a number it cannot read.
check_uint() {
	case $2 in
	'' | *[!0-9]*) usage_error "invalid value '$2' for --$1 (expected a whole number)" ;;
	??????????*) usage_error "invalid value '$2' for --$1 (too large)" ;;
	esac
}

# check_min NAME VALUE MIN: a whole number of at least MIN.
check_min() {
	check_uint "$1" "$2"
	[ "$2" -ge "$3" ] ||
		usage_error "invalid value '$2' for --$1 (expected at least $3)"
}

# size_bytes NAME VALUE: a size with binary suffix in bytes.
size_bytes() {
	_v=$2
	_mult=1
	case $_v in
	*[kK]) _mult=1024 _v=${_v%?} ;;
	*M) _mult=1048576 _v=${_v%M} ;;
	*G) _mult=1073741824 _v=${_v%G} ;;
	*T) _mult=1099511627776 _v=${_v%T} ;;
	esac
	case $_v in
	'' | *[!0-9]*) usage_error "invalid value '$2' for --$1 (expected a size such as 512M)" ;;
	???????????????????*) usage_error "invalid value '$2' for --$1 (too large)" ;;
	esac
	_v=${_v#"${_v%%[!0]*}"}
	[ -n "$_v" ] ||
		usage_error "invalid value '$2' for --$1 (expected a size above 0)"
	[ "$_v" -le $((9223372036854775807 / _mult)) ] ||
		usage_error "invalid value '$2' for --$1 (too large)"
	echo $((_v * _mult))
}

# duration_ms NAME VALUE: a duration (250ms, 10s, 2m, 1h; a bare number is
# seconds) in whole milliseconds, at least 1.
duration_ms() {
	_v=$2
	case $_v in
	*ms) _unit=1 _v=${_v%ms} ;;
	*s) _unit=1000 _v=${_v%s} ;;
	*m) _unit=60000 _v=${_v%m} ;;
	*h) _unit=3600000 _v=${_v%h} ;;
	*) _unit=1000 ;;
	esac
	_int=${_v%%.*}
	_frac=
	case $_v in
	*.*) _frac=${_v#*.} ;;
	esac
	case $_int$_frac in
	'' | *[!0-9]*) usage_error "invalid value '$2' for --$1 (expected a duration such as 1s)" ;;
	esac
	case $_int in
	???????*) usage_error "invalid value '$2' for --$1 (too large)" ;;
	esac
	_frac=$(printf '%.3s' "${_frac}000")
	_ms=$(((${_int:-0} * 1000 + ${_frac#"${_frac%%[!0]*}"}0 / 10) * _unit / 1000))
	[ "$_ms" -ge 1 ] ||
		usage_error "invalid value '$2' for --$1 (expected a duration of at least 1ms)"
	echo "$_ms"
}

# check_decimal NAME VALUE: a positive decimal number such as 3 or 1.5.
check_decimal() {
	case $2 in
	'' | . | *[!0-9.]* | *.*.* | .* | *.) usage_error "invalid value '$2' for --$1 (expected a positive number such as 3 or 1.5)" ;;
	?????????????*) usage_error "invalid value '$2' for --$1 (too large)" ;;
	esac
	case $2 in
	*[1-9]*) ;;
	*) usage_error "invalid value '$2' for --$1 (expected a number above 0)" ;;
	esac
}

# check_sysctls: --sysctl is NAME=VALUE[,NAME=VALUE]..., names as sysctl(8)
# writes them (vm.page-cluster), values one word.
check_sysctls() {
	_rest=$cfg_sysctl
	while [ -n "$_rest" ]; do
		_one=${_rest%%,*}
		case $_rest in
		*,*) _rest=${_rest#*,} ;;
		*) _rest= ;;
		esac
		case $_one in
		[a-z]*=?*) ;;
		*) usage_error "invalid value '$cfg_sysctl' for --sysctl (expected NAME=VALUE[,NAME=VALUE]...)" ;;
		esac
		case ${_one%%=*} in
		*[!a-z0-9_.-]* | *..* | *.) usage_error "invalid sysctl name '${_one%%=*}' in --sysctl" ;;
		esac
		case ${_one#*=} in
		*[!A-Za-z0-9_.:-]*) usage_error "invalid sysctl value '${_one#*=}' in --sysctl (letters, digits and . _ : - only)" ;;
		esac
	done
}

check_yesno() {
	case $2 in
	yes | no) ;;
	*) usage_error "invalid value '$2' for $1 (expected yes or no)" ;;
	esac
}

resolve_config() {
	if [ -z "$cfg_quick" ]; then
		cfg_quick=no
	fi
	check_yesno quick "$cfg_quick"
	if [ "$cfg_quick" = yes ]; then
		[ -n "$cfg_gitk_runs" ] || cfg_gitk_runs=3
		[ -n "$cfg_warmup" ] || cfg_warmup=0
		[ -n "$cfg_commits" ] || cfg_commits=$LATENCY_QUICK_COMMITS
		[ -n "$cfg_pressure" ] || cfg_pressure=$LATENCY_QUICK_RATIO
	fi
	[ -n "$cfg_gitk_runs" ] || cfg_gitk_runs=auto
	[ -n "$cfg_warmup" ] || cfg_warmup=1
	[ -n "$cfg_drop_caches" ] || cfg_drop_caches=yes
	[ -n "$cfg_commits" ] || cfg_commits=$LATENCY_DEFAULT_COMMITS
	[ -n "$cfg_seed" ] || cfg_seed=137
	[ -n "$cfg_stall" ] || cfg_stall=1s
	[ -n "$cfg_results" ] || cfg_results=./results
	[ -n "$cfg_allow_unconfined" ] || cfg_allow_unconfined=no
	[ -n "$cfg_pressure" ] || cfg_pressure=$LATENCY_DEFAULT_RATIO
	[ -n "$cfg_confine" ] || cfg_confine=auto
	[ -n "$cfg_mem_limit" ] || cfg_mem_limit=ratio
	[ -n "$cfg_swap" ] || cfg_swap=auto
	[ -n "$cfg_precision" ] || cfg_precision=2
	[ -n "$cfg_max_runs" ] || cfg_max_runs=10
	[ -n "$cfg_time_budget" ] || cfg_time_budget=6m
	# Reading the history again after the map is built, as gitk does
	# when scrolled, brings what was swapped out back in.
	[ -n "$cfg_gitk_args" ] || cfg_gitk_args=--reread
	if [ -z "$cfg_label" ]; then
		cfg_label=$(uname -r)
	fi

	case $cfg_gitk_runs in
	auto) ;;
	*) check_min gitk-runs "$cfg_gitk_runs" 1 ;;
	esac
	check_uint warmup "$cfg_warmup"
	check_min commits "$cfg_commits" 1
	check_uint seed "$cfg_seed"
	check_decimal pressure "$cfg_pressure"
	check_decimal precision "$cfg_precision"
	check_min max-runs "$cfg_max_runs" 2
	time_budget_ms=$(duration_ms time-budget "$cfg_time_budget")
	duration_ms stall "$cfg_stall" >/dev/null
	check_yesno drop-caches "$cfg_drop_caches"
	check_yesno allow-unconfined "$cfg_allow_unconfined"
	check_sysctls
	case $cfg_confine in
	auto | global | memcg | none) ;;
	*) usage_error "invalid value '$cfg_confine' for --confine (expected auto, global, memcg or none)" ;;
	esac
	case $cfg_label in
	*[!A-Za-z0-9._+-]* | '' | .*)
		usage_error "invalid label '$cfg_label' (letters, digits and . _ + - only, not starting with .)"
		;;
	esac
	case $cfg_mem_limit in
	ratio | none) ;;
	*) size_bytes mem-limit "$cfg_mem_limit" >/dev/null ;;
	esac
	case $cfg_swap in
	auto | none | /*) ;;
	*) size_bytes swap "$cfg_swap" >/dev/null ;;
	esac
	case $cfg_music_from in
	'') ;;
	*?:*)
		_port=${cfg_music_from##*:}
		case $_port in
		'' | *[!0-9]* | ??????*) _port=0 ;;
		esac
		if [ "$_port" -lt 1 ] || [ "$_port" -gt 65535 ]; then
			usage_error "invalid value '$cfg_music_from' for --music-from (expected HOST:PORT, PORT 1-65535)"
		fi
		;;
	*) usage_error "invalid value '$cfg_music_from' for --music-from (expected HOST:PORT)" ;;
	esac
	if [ -n "$cfg_repo" ] && ! [ -d "$cfg_repo" ]; then
		usage_error "--repo '$cfg_repo' is not a directory"
	fi
	if [ -e "$cfg_results" ] && ! [ -d "$cfg_results" ]; then
		usage_error "--results '$cfg_results' is not a directory"
	fi
	if [ -n "$cfg_scratch" ] && ! [ -d "$cfg_scratch" ]; then
		usage_error "--scratch '$cfg_scratch' is not a directory"
	fi
}

# The effective configuration, one name=value per line, in a fixed order:
# --config on this output repeats the run.
print_config() {
	echo "# latency-tests run configuration (latency-run-test --config FILE)"
	for _k in $cfg_keys; do
		printf '%s=%s\n' "$_k" "$(cfg_get "$_k")"
	done
}

parse_args() {
	# The config file first, so that the command line overrides it.
	_prev=
	for _a in "$@"; do
		case $_prev in
		--config) load_config "$_a" ;;
		esac
		case $_a in
		--config=*) load_config "${_a#--config=}" ;;
		esac
		_prev=$_a
	done
	while [ $# -gt 0 ]; do
		_opt=$1
		case $_opt in
		--*=*)
			_name=${_opt%%=*}
			_val=${_opt#*=}
			_has_val=yes
			;;
		*)
			_name=$_opt
			_val=
			_has_val=no
			;;
		esac
		shift
		case $_name in
		-h | --help) usage ;;
		-V | --version) show_version ;;
		--quick | --no-drop-caches | --allow-unconfined | --print-config | \
			--restore)
			[ "$_has_val" = no ] ||
				usage_error "option '$_name' takes no value"
			case $_name in
			--restore) opt_restore=yes ;;
			--quick) cfg_quick=yes ;;
			--no-drop-caches) cfg_drop_caches=no ;;
			--allow-unconfined) cfg_allow_unconfined=yes ;;
			--print-config) opt_print_config=yes ;;
			esac
			;;
		--config | --label | --results | --scratch | --repo | --commits | \
			--seed | --gitk-runs | --warmup | --seqbench | \
			--music-from | --gitk-args | --music-args | --stall | \
			--mem-limit | --swap | --pressure | --confine | \
			--precision | --max-runs | --time-budget | --sysctl)
			if [ "$_has_val" = no ]; then
				[ $# -gt 0 ] ||
					usage_error "option '$_name' requires an argument"
				_val=$1
				shift
			fi
			[ "$_name" = --config ] || cfg_set "${_name#--}" "$_val"
			;;
		--)
			[ $# -eq 0 ] || usage_error "unexpected argument '$1'"
			;;
		-*) usage_error "unrecognized option '$_name'" ;;
		*) usage_error "unexpected argument '$_name'" ;;
		esac
	done
}

# --- programs ----------------------------------------------------------------
# find_prog FOLDER/NAME: the program's path, from the built tree next to
# this script, LATENCY_TESTS_BINDIR, the installed bindir, or PATH.
find_prog() {
	_base=${1##*/}
	if [ -n "${LATENCY_TESTS_BINDIR:-}" ] && [ -x "$LATENCY_TESTS_BINDIR/$_base" ]; then
		echo "$LATENCY_TESTS_BINDIR/$_base"
	elif [ -x "$here/$1" ]; then
		echo "$here/$1"
	elif case $builtin_bindir in @*) false ;; *) [ -x "$builtin_bindir/$_base" ] ;; esac then
		echo "$builtin_bindir/$_base"
	elif command -v "$_base" >/dev/null 2>&1; then
		command -v "$_base"
	else
		return 1
	fi
}

# Set by find_programs.
p_latency_output='' p_unbuffered='' p_fake_gitk='' p_fake_music=''
p_latency_vmstat='' p_latency_kmsg='' p_latency_trace='' p_latency_summarize=''
p_seqbench='' p_latency_machine='' p_latency_highorder=''

find_programs() {
	_missing=
	for _p in latency-output/latency-output latency-output/unbuffered \
		fakegitk/fake-gitk fakemusic/fake-music monitors/latency-vmstat \
		monitors/latency-kmsg monitors/latency-trace \
		monitors/latency-highorder \
		scripts/latency-summarize scripts/latency-machine; do
		_v=p_$(echo "${_p##*/}" | tr - _)
		if _path=$(find_prog "$_p"); then
			eval "$_v=\$_path"
		else
			_missing="$_missing ${_p##*/}"
		fi
	done
	if [ -n "$cfg_seqbench" ]; then
		if _path=$(find_prog seqbench/seqbench); then
			p_seqbench=$_path
		else
			_missing="$_missing seqbench"
		fi
	fi
	[ -z "$_missing" ] ||
		die "cannot find program(s):$_missing (build the tree, or set LATENCY_TESTS_BINDIR)"
}

find_datadir() {
	for _d in "${LATENCY_TESTS_DATADIR:-}" "$here/scripts" "$builtin_datadir"; do
		[ -n "$_d" ] && [ -f "$_d/confine.sh" ] && {
			datadir=$_d
			return 0
		}
	done
	die "cannot find the helpers confine.sh, sysinfo.sh, plot.sh and workloads.sh (set LATENCY_TESTS_DATADIR)"
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

# Shell-quote the arguments into one line.
quote_args() {
	_q=
	for _a in "$@"; do
		case $_a in
		'' | *[!A-Za-z0-9_./:=,+@%-]*)
			_a="'$(printf '%s' "$_a" | sed "s/'/'\\\\''/g")'"
			;;
		esac
		_q="$_q${_q:+ }$_a"
	done
	printf '%s' "$_q"
}

log_cmd() {
	quote_args "$@" >>"$run_dir/commands.log"
	echo >>"$run_dir/commands.log"
}

run_logged() {
	log_cmd "$@"
	"$@"
}

# Background processes this run started, stopped by cleanup.
bg_pids=

bg_add() {
	bg_pids="$bg_pids $1"
	# A run killed with SIGKILL leaves it running: the next run stops it.
	machine record pid "$1" || warn "cannot record process $1"
}

bg_forget() {
	_keep=
	for _p in $bg_pids; do
		[ "$_p" = "$1" ] || _keep="$_keep $_p"
	done
	bg_pids=$_keep
}

# wait_for PID: wait and return its exit status (set -e safe).
wait_for() {
	if wait "$1"; then
		_ws=0
	else
		_ws=$?
	fi
	bg_forget "$1"
	return $_ws
}

# in_cgroup CMD...: exec CMD inside the run's memory cgroup, if any.
in_cgroup() {
	if [ -n "$confine_cgroup" ]; then
		# shellcheck disable=SC2016 # expanded by the inner shell
		exec sh -c 'echo $$ >"$1" && shift && exec "$@"' sh \
			"$(confine_cgroup_procs)" "$@"
	fi
	exec "$@"
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

cmd_gitk() { # JSON
	# shellcheck disable=SC2046 # user-supplied extra options, split
	set -- "$p_unbuffered" "$p_fake_gitk" --iterations 1 --format json \
		-o "$1" $(gitk_args) "$repo"
	log_cmd "$@"
	in_cgroup "$@"
}

# The calibration: the same run, unconfined and without a series.
cmd_calibrate() { # JSON
	# shellcheck disable=SC2046 # user-supplied extra options, split
	run_logged "$p_fake_gitk" --iterations 1 --format json -o "$1" \
		$(gitk_args) "$repo"
}

# fake-music plays outside the memory cgroup: in a cgroup v1 its writeback
# would be reclaimed by fake-gitk's limit and every run would wait on it.
cmd_music() { # JSON
	set -- "$p_fake_music" --to "$scratch/music" --loop --format json \
		-o "$1"
	[ -z "$cfg_music_from" ] || set -- "$@" --from "$cfg_music_from"
	# shellcheck disable=SC2086 # user-supplied extra options, split
	set -- "$@" $cfg_music_args
	log_cmd "$@"
	exec "$@"
}

cmd_latency_output() { # REPORT PLOT_PREFIX
	set -- "$p_latency_output" --stall "$cfg_stall" --format json \
		--report "$1" --plot "$2"
	log_cmd "$@"
	exec "$@"
}

cmd_vmstat() { # SUMMARY
	set -- "$p_latency_vmstat" --interval 1s --summary "$1" --format json
	[ -z "$confine_cgroup" ] || set -- "$@" --cgroup "$confine_cgroup"
	log_cmd "$@"
	exec "$@"
}

cmd_kmsg() { # LOG SUMMARY
	set -- "$p_latency_kmsg" --log "$1" --summary "$2" --format json
	log_cmd "$@"
	exec "$@"
}

cmd_trace() { # SUMMARY EVENTS
	set -- "$p_latency_trace" --summary "$1" --format json --events "$2"
	log_cmd "$@"
	exec "$@"
}

# The high-order probe, at every THP order the kernel has enabled.
cmd_highorder() { # SUMMARY
	set -- "$p_latency_highorder" --summary "$1" --format json
	log_cmd "$@"
	exec "$@"
}

cmd_seqbench() { # JSON
	# shellcheck disable=SC2086 # the user's seqbench options, split
	set -- "$p_seqbench" $cfg_seqbench -d "$scratch/seqbench" \
		--seed "$cfg_seed" --format json -o "$1"
	log_cmd "$@"
	exec "$@"
}

cmd_snapshot() { # JSON
	set -- "$p_latency_vmstat" --snapshot -o "$1"
	[ -z "$confine_cgroup" ] || set -- "$@" --cgroup "$confine_cgroup"
	"$@"
}

# Whether the mean elapsed time is known to --precision (csv: runs,mean_s,
# ci95_pct,reached).
cmd_precision() {
	"$p_latency_summarize" --precision="$cfg_precision" --format=csv \
		--result-dir="$run_dir" | sed -n 2p
}

cmd_result() {
	run_logged "$p_latency_summarize" --result-dir="$run_dir"
}

# machine CMD ARGS: latency-machine, the one record of what this run
# changes on the machine (DESIGN.md, contract 5).
machine() {
	_mc=$1
	shift
	case $_mc in
	record | shrink) set -- "$_mc" --owner=$$ "$@" ;;
	*) set -- "$_mc" "$@" ;;
	esac
	"$p_latency_machine" "$@"
}

# --- the run -----------------------------------------------------------------
# make_run_dir: RESULTS/LABEL, or RESULTS/LABEL-2, ...; mkdir is the lock.
make_run_dir() {
	mkdir -p "$cfg_results" || die "cannot create results directory '$cfg_results'"
	_dir=$cfg_results/$cfg_label
	_i=1
	while ! mkdir "$_dir" 2>/dev/null; do
		[ -d "$_dir" ] || die "cannot create result directory '$_dir'"
		_i=$((_i + 1))
		_dir=$cfg_results/$cfg_label-$_i
	done
	run_dir=$(cd "$_dir" && pwd)
	if [ "$_i" -gt 1 ]; then
		cfg_run_label=$cfg_label-$_i
	else
		cfg_run_label=$cfg_label
	fi
}

record_versions() {
	: >"$run_dir/versions"
	for _p in "$p_latency_output" "$p_unbuffered" "$p_fake_gitk" \
		"$p_fake_music" "$p_latency_vmstat" "$p_latency_kmsg" \
		"$p_latency_trace" "$p_latency_highorder" "$p_latency_summarize" \
		${p_seqbench:+"$p_seqbench"}; do
		"$_p" --version >>"$run_dir/versions" ||
			die "cannot run '$_p --version'"
	done
	{
		echo "driver: $prog $(quote_args "$@")"
		echo "uname -r: $(uname -r)"
		echo "seed: $cfg_seed"
	} >>"$run_dir/versions"
}

prepare_repo() {
	if [ -n "$cfg_repo" ]; then
		repo=$cfg_repo
		return 0
	fi
	_cache=$cache_dir
	repo=$_cache/repo-$cfg_commits-$cfg_seed
	# The repository appears under its name only once complete.
	[ -d "$repo" ] && return 0
	progress "creating the synthetic repository ($cfg_commits commits, cached in $repo)"
	mkdir -p "$_cache" || fail_run "cannot create cache directory '$_cache'"
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
# write_facts: what the driver knows, as name=value lines for
# latency-summarize, which writes result.json and summary.txt in C.
write_facts() {
	{
		echo "label=$cfg_label"
		echo "run_label=$cfg_run_label"
		echo "kernel=$(uname -r)"
		echo "seed=$cfg_seed"
		echo "version=$version"
		echo "command_line=$command_line"
		echo "partial=${facts_partial:-yes}"
		echo "partial_reason=${facts_reason:-}"
		echo "runs_asked=$cfg_gitk_runs"
		echo "runs_done=${runs_done:-0}"
		echo "warmup=$cfg_warmup"
		echo "stopped_by=${stopped_by:-}"
		echo "precision_pct=$cfg_precision"
		echo "max_runs=$cfg_max_runs"
		echo "time_budget_s=$((time_budget_ms / 1000))"
		echo "pressure_mode=$pressure_mode"
		echo "pressure_why=$pressure_why"
		echo "pressure_ratio=$pressure_ratio"
		echo "footprint_bytes=$footprint_bytes"
		echo "memory_bytes=$memory_bytes"
		echo "calibration=$calibration"
		echo "mem_limit=$cfg_mem_limit"
		echo "swap=${swap_path:-none}"
		_ms=$(duration_ms stall "$cfg_stall")
		printf 'stall_s=%d.%03d\n' $((_ms / 1000)) $((_ms % 1000))
	} >"$run_dir/run.facts.tmp" && mv "$run_dir/run.facts.tmp" "$run_dir/run.facts"
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
	cmd_result
}

# tidy: an empty diagnostics file says nothing; remove it.
tidy() {
	for _f in "$run_dir"/*.err "$run_dir/kmsg.out" "$run_dir/plot.log"; do
		if [ -f "$_f" ] && ! [ -s "$_f" ]; then
			rm -f "$_f"
		fi
	done
}

# --- failure and cleanup -----------------------------------------------------
# The pressure, as confine.sh decides and calibrates it (its defaults, for
# the facts of a run that stops before).
pressure_mode=none pressure_why='' pressure_ratio='' footprint_bytes=''
memory_bytes='' calibration=none
state=setup
partial_reason=
exit_code=

unsupported() {
	printf '%s: %s\n' "$prog" "$*" >&2
	partial_reason="unsupported: $*"
	exit_code=3
	exit 3
}

fail_run() {
	printf '%s: %s\n' "$prog" "$*" >&2
	partial_reason="failed: $*"
	exit_code=1
	exit 1
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
	if [ "${confine_loaded:-}" = yes ]; then
		confine_undo || _status=1
	fi
	if [ "$state" = running ] || [ "$state" = finishing ]; then
		[ -n "$partial_reason" ] || partial_reason="failed with status $_status"
		[ "$_status" -ne 0 ] || { partial_reason="finishing failed"; _status=1; }
		if [ "$state" = running ]; then
			sysinfo_capture "$run_dir/sysinfo/after"
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

# machine_begin: a dead run's changes are undone first (and said); then
# this run's record is opened.
machine_begin() {
	if _out=$(machine begin --owner=$$ 2>&1); then
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

main() {
	opt_print_config=no
	opt_restore=no
	parse_args "$@"
	resolve_config
	if [ "$opt_print_config" = yes ]; then
		print_config | print_stdout
		exit 0
	fi
	find_programs
	find_datadir
	cache_dir=${LATENCY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/latency-tests}
	if [ -z "${LATENCY_STATE_DIR:-}" ] && [ "$(id -u)" != 0 ]; then
		# Without root the record holds only this user's processes.
		LATENCY_STATE_DIR=$cache_dir/state
		export LATENCY_STATE_DIR
	fi
	if [ "$opt_restore" = yes ]; then
		machine restore || exit 1
		exit 0
	fi
	# shellcheck source=scripts/confine.sh
	. "$datadir/confine.sh"
	# shellcheck source=scripts/sysinfo.sh
	. "$datadir/sysinfo.sh"
	# shellcheck source=scripts/plot.sh
	. "$datadir/plot.sh"
	# shellcheck source=scripts/workloads.sh
	. "$datadir/workloads.sh"
	case $version in
	@*) version=$(sh "$here/version.sh") ;;
	esac
	command_line="$prog $(quote_args "$@")"
	scratch_dir_for_swap=${cfg_scratch:-$cfg_results}
	# Usage and what this machine cannot do stop the run before any work.
	decide_pressure

	trap 'cleanup $?' EXIT
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	trap 'on_signal HUP' HUP

	machine_begin
	confine_loaded=yes
	make_run_dir
	# From here on, whatever happens leaves a summary and a result.json.
	state=running
	[ -z "$early_notes" ] || printf '%s' "$early_notes" >>"$run_dir/notes"
	progress "result directory $run_dir"
	print_config >"$run_dir/config"
	: >"$run_dir/commands.log"
	record_versions "$@"
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
	sysinfo_capture "$run_dir/sysinfo/before" || fail_run "cannot record sysinfo"
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
	sysinfo_capture "$run_dir/sysinfo/after" || fail_run "cannot record sysinfo"
	state=finishing
	finish complete
	plot_result "$run_dir" >"$run_dir/plot.log" 2>&1 ||
		fail_run "gnuplot failed (see plot.log)"
	tidy
	state=finished
	sed -n 1p "$run_dir/summary.txt" >&2
	progress "result in $run_dir"
}

main "$@"
