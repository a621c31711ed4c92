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
#   LATENCY_QUICK_MEM_LIMIT  --quick's memory limit [24M]
#   LATENCY_QUICK_SWAP       --quick's swap file size [512M]
#   LATENCY_QUICK_COMMITS    --quick's synthetic repository size [40000]
#   LATENCY_DEFAULT_COMMITS  the synthetic repository size otherwise [180000]
#   LATENCY_CGROUP_ROOT    where cgroups are mounted [/sys/fs/cgroup]
#   LATENCY_GNUPLOT        gnuplot for the plots [gnuplot; empty: no plots]
#   LATENCY_PROC, LATENCY_SYS  proc and sysfs for sysinfo [/proc, /sys]
set -eu

: "${LATENCY_QUICK_MEM_LIMIT:=24M}"
: "${LATENCY_QUICK_SWAP:=512M}"
: "${LATENCY_QUICK_COMMITS:=40000}"
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
  --gitk-runs=N        counted fake-gitk runs (default 4; 3 with --quick)
  --warmup=N           uncounted fake-gitk runs first (default 0)
  --no-drop-caches     keep the page cache before each counted run (by
                       default it is dropped, as root)
  --seqbench=ARGS      also run seqbench with ARGS after the fake-gitk runs
  --repo=PATH          git repository for fake-gitk (default: a synthetic
                       one, created once and cached)
  --commits=N          size of the synthetic repository (default 180000)
  --seed=N             seed of the synthetic repository and the workloads
                       (default 137)
  --music-from=HOST:PORT  fake-music source (default: its own loopback
                       server)
  --gitk-args=ARGS     extra options for every fake-gitk run
  --music-args=ARGS    extra options for fake-music
  --stall=DURATION     gaps longer than this are stalls (default 1s)
  --quick              a complete small run of about two minutes: 3 runs,
                       a small repository read twice, and (where allowed)
                       a 24M memory limit with a 512M swap file so
                       fake-gitk swaps

Confinement (as root):
  --mem-limit=SIZE     run the workloads in a memory cgroup of SIZE
  --swap=SIZE|DEVICE   create and enable a swap file of SIZE (removed
                       afterwards), or enable the swap DEVICE
  --allow-unconfined   go on without the limit or swap when this machine
                       cannot do them (default: stop)

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
cfg_keys="$cfg_keys seqbench music-from gitk-args music-args stall mem-limit"
cfg_keys="$cfg_keys swap allow-unconfined quick"
cfg_label='' cfg_results='' cfg_scratch='' cfg_repo='' cfg_commits=''
cfg_seed='' cfg_gitk_runs='' cfg_warmup='' cfg_drop_caches='' cfg_seqbench=''
cfg_music_from='' cfg_gitk_args='' cfg_music_args='' cfg_stall=''
cfg_mem_limit='' cfg_swap='' cfg_allow_unconfined='' cfg_quick=''

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
check_uint() {
	case $2 in
	'' | *[!0-9]*) usage_error "invalid value '$2' for --$1 (expected a whole number)" ;;
	esac
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
	esac
	[ "$_v" -gt 0 ] ||
		usage_error "invalid value '$2' for --$1 (expected a size above 0)"
	echo $((_v * _mult))
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
		: "${cfg_gitk_runs:=3}"
		[ -n "$cfg_commits" ] || cfg_commits=$LATENCY_QUICK_COMMITS
		[ -n "$cfg_mem_limit" ] || cfg_mem_limit=auto:$LATENCY_QUICK_MEM_LIMIT
		[ -n "$cfg_swap" ] || cfg_swap=auto:$LATENCY_QUICK_SWAP
		# Reading the history again after the map is built, as gitk
		# does when scrolled, brings what was swapped out back in.
		[ -n "$cfg_gitk_args" ] || cfg_gitk_args=--reread
	fi
	[ -n "$cfg_gitk_runs" ] || cfg_gitk_runs=4
	[ -n "$cfg_warmup" ] || cfg_warmup=0
	[ -n "$cfg_drop_caches" ] || cfg_drop_caches=yes
	[ -n "$cfg_commits" ] || cfg_commits=$LATENCY_DEFAULT_COMMITS
	[ -n "$cfg_seed" ] || cfg_seed=137
	[ -n "$cfg_stall" ] || cfg_stall=1s
	[ -n "$cfg_results" ] || cfg_results=./results
	[ -n "$cfg_allow_unconfined" ] || cfg_allow_unconfined=no
	[ -n "$cfg_mem_limit" ] || cfg_mem_limit=none
	[ -n "$cfg_swap" ] || cfg_swap=none
	if [ -z "$cfg_label" ]; then
		cfg_label=$(uname -r)
	fi

	check_uint gitk-runs "$cfg_gitk_runs"
	[ "$cfg_gitk_runs" -ge 1 ] ||
		usage_error "invalid value '$cfg_gitk_runs' for --gitk-runs (expected at least 1)"
	check_uint warmup "$cfg_warmup"
	check_uint commits "$cfg_commits"
	check_uint seed "$cfg_seed"
	check_yesno drop-caches "$cfg_drop_caches"
	check_yesno allow-unconfined "$cfg_allow_unconfined"
	case $cfg_stall in
	[0-9]*) ;;
	*) usage_error "invalid value '$cfg_stall' for --stall (expected a duration such as 1s)" ;;
	esac
	case $cfg_label in
	*[!A-Za-z0-9._+-]* | '' | .*)
		usage_error "invalid label '$cfg_label' (letters, digits and . _ + - only, not starting with .)"
		;;
	esac
	case ${cfg_mem_limit#auto:} in
	none) ;;
	*) size_bytes mem-limit "${cfg_mem_limit#auto:}" >/dev/null ;;
	esac
	case ${cfg_swap#auto:} in
	none | /*) ;;
	*) size_bytes swap "${cfg_swap#auto:}" >/dev/null ;;
	esac
	case $cfg_music_from in
	'' | *?:[0-9]*) ;;
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
		--quick | --no-drop-caches | --allow-unconfined | --print-config)
			[ "$_has_val" = no ] ||
				usage_error "option '$_name' takes no value"
			case $_name in
			--quick) cfg_quick=yes ;;
			--no-drop-caches) cfg_drop_caches=no ;;
			--allow-unconfined) cfg_allow_unconfined=yes ;;
			--print-config) opt_print_config=yes ;;
			esac
			;;
		--config | --label | --results | --scratch | --repo | --commits | \
			--seed | --gitk-runs | --warmup | --seqbench | \
			--music-from | --gitk-args | --music-args | --stall | \
			--mem-limit | --swap)
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
p_seqbench=''

find_programs() {
	_missing=
	for _p in latency-output/latency-output latency-output/unbuffered \
		fakegitk/fake-gitk fakemusic/fake-music monitors/latency-vmstat \
		monitors/latency-kmsg monitors/latency-trace \
		scripts/latency-summarize; do
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
	die "cannot find the helpers confine.sh, sysinfo.sh, plot.sh, workloads.sh and result.sh (set LATENCY_TESTS_DATADIR)"
}

# --- logging, progress, processes ------------------------------------------
note() {
	printf '%s\n' "$*" >>"$run_dir/notes"
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

cmd_gitk() { # JSON
	# shellcheck disable=SC2086 # user-supplied extra options, split
	set -- "$p_unbuffered" "$p_fake_gitk" --iterations 1 --format json \
		-o "$1" $cfg_gitk_args "$repo"
	log_cmd "$@"
	in_cgroup "$@"
}

cmd_music() { # JSON
	set -- "$p_fake_music" --to "$scratch/music" --loop --format json \
		-o "$1"
	[ -z "$cfg_music_from" ] || set -- "$@" --from "$cfg_music_from"
	# shellcheck disable=SC2086 # user-supplied extra options, split
	set -- "$@" $cfg_music_args
	log_cmd "$@"
	in_cgroup "$@"
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

cmd_trace() { # SUMMARY
	set -- "$p_latency_trace" --summary "$1" --format json
	log_cmd "$@"
	exec "$@"
}

cmd_seqbench() { # JSON
	# shellcheck disable=SC2086 # the user's seqbench options, split
	set -- "$p_seqbench" $cfg_seqbench -d "$scratch/seqbench" \
		--seed "$cfg_seed" --format json -o "$1"
	log_cmd "$@"
	in_cgroup "$@"
}

cmd_summarize() { # FORMAT ELAPSED...
	_fmt=$1
	shift
	run_logged "$p_latency_summarize" --label "$cfg_run_label" \
		--failures "$failures" --format "$_fmt" "$@"
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
		"$p_latency_trace" "$p_latency_summarize" ${p_seqbench:+"$p_seqbench"}; do
		"$_p" --version >>"$run_dir/versions" ||
			die "cannot run '$_p --version'"
	done
	{
		echo "driver: $prog $(quote_args "$@")"
		echo "uname -r: $(uname -r)"
		echo "seed: $cfg_seed"
	} >>"$run_dir/versions"
}

# confine: set up the memory cgroup and swap, or explain why not.
confine() {
	_want_mem=${cfg_mem_limit#auto:}
	_want_swap=${cfg_swap#auto:}
	if [ "$_want_mem" != none ]; then
		if _why=$(confine_cgroup_parent); then
			confine_cgroup_create "$(size_bytes mem-limit "$_want_mem")" ||
				fail_run "cannot create the memory cgroup"
		else
			unconfined "memory limit $_want_mem" "$_why" "$cfg_mem_limit"
		fi
	fi
	if [ "$_want_swap" != none ]; then
		if _why=$(confine_swap_check); then
			case $_want_swap in
			/*) confine_swap_enable "$_want_swap" "$scratch" ;;
			*) confine_swap_enable "$(size_bytes swap "$_want_swap")" "$scratch" ;;
			esac || fail_run "cannot enable swap $_want_swap"
		else
			unconfined "swap $_want_swap" "$_why" "$cfg_swap"
		fi
	fi
}

# unconfined WHAT WHY SETTING: go on only when allowed (or when the setting
# is --quick's default, which applies where the machine allows it).
unconfined() {
	case $3 in
	auto:*)
		warn "--quick runs without $1: $2"
		note "unconfined: no $1 ($2)"
		;;
	*)
		if [ "$cfg_allow_unconfined" = yes ]; then
			warn "running without $1: $2"
			note "unconfined: no $1 ($2)"
		else
			unsupported "cannot confine the run ($1): $2 (--allow-unconfined goes on without)"
		fi
		;;
	esac
}

drop_caches() {
	[ "$cfg_drop_caches" = yes ] || return 0
	if [ "$(id -u)" != 0 ]; then
		[ -n "${drop_warned:-}" ] || warn "not root: the page cache is not dropped"
		drop_warned=yes
		return 0
	fi
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

prepare_repo() {
	if [ -n "$cfg_repo" ]; then
		repo=$cfg_repo
		return 0
	fi
	_cache=${LATENCY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/latency-tests}
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

# --- failure and cleanup -----------------------------------------------------
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

main() {
	opt_print_config=no
	parse_args "$@"
	resolve_config
	if [ "$opt_print_config" = yes ]; then
		print_config | print_stdout
		exit 0
	fi
	find_programs
	find_datadir
	# shellcheck source=scripts/confine.sh
	. "$datadir/confine.sh"
	# shellcheck source=scripts/sysinfo.sh
	. "$datadir/sysinfo.sh"
	# shellcheck source=scripts/plot.sh
	. "$datadir/plot.sh"
	# shellcheck source=scripts/workloads.sh
	. "$datadir/workloads.sh"
	# shellcheck source=scripts/result.sh
	. "$datadir/result.sh"
	case $version in
	@*) version=$(sh "$here/version.sh") ;;
	esac
	command_line="$prog $(quote_args "$@")"

	trap 'cleanup $?' EXIT
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	trap 'on_signal HUP' HUP

	make_run_dir
	# From here on, whatever happens leaves a summary and a result.json.
	state=running
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
	confine_loaded=yes
	confine
	# "before" includes the swap and memory limit the run has.
	sysinfo_capture "$run_dir/sysinfo/before" || fail_run "cannot record sysinfo"
	start_monitors
	progress "starting fake-music"
	start_music
	run_workloads
	progress "stopping fake-music and the monitors"
	stop_music || fail_run "fake-music failed (see fake-music.err)"
	stop_monitors || fail_run "a monitor failed"
	confine_undo || fail_run "cannot undo the confinement"
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
