#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# before-after.sh: nothing slower?  Every bench/ script run against two
# builds of the tree, BEFORE and AFTER, interleaved, in one invocation, and
# one table of their headline figures.
#
#   bench/before-after.sh [SCRIPT...]      (default: every bench/*.sh)
#
# Each revision is built clean once (git archive into BA_CACHE/COMMIT/src,
# ./autogen.sh, ../src/configure in BA_CACHE/COMMIT/build, make, and make
# check's programs without its tests), then kept: a re-run builds nothing.
# The bench scripts are this tree's (the ones next to this script); each is
# given a build's programs through its own environment variables, in a
# short mode (its variables set in run() below: fewer lines, MiB, seconds
# and repetitions; highorder-fragmentation.sh its idle conditions only, as
# the driver's would press the whole machine; verdict-ab.sh two results a
# side of a --quick memcg run of 2 runs on 60,000 commits), from that
# build's directory.  A script that needs a program one build lacks (vm-*:
# latency-vm) is not run, and the table says why.
#
# Runs: BA_ROUNDS rounds; in each round every script runs once against each
# build, back to back, A B in one round and B A in the next, the side that
# goes first in round 1 drawn from BA_SEED.  The machine's load falls on
# both sides alike: that, not a quiet machine, is what makes the
# comparison fair on a shared one.  Scripts that change the machine (drop
# caches, mount, sysctls, run-test.sh) run under flock BA_LOCK.
#
# Figures: every script ends with machine-read lines
#     bench: NAME=VALUE UNIT BETTER
# (BETTER: higher, lower, or how else to read it); when a NAME comes twice
# in one run the last counts.  The table has, per script and NAME, the
# median over the rounds before and after, the ratio after/before, the CoV
# (stddev/mean) of each side over the rounds, and the runs counted; a run
# that failed is named with its log.  Then the commands that ran, the
# order, and the load average at start and end.  Every run's output is kept
# in BA_OUT.
#
# Environment (defaults in brackets):
#   BA_BEFORE       the build before [a4b4ee2^: the tree before the house
#                   refactoring began]
#   BA_AFTER        the build after [HEAD]
#   BA_CACHE        where the builds are kept, one per commit
#                   [/var/tmp/latency-tests-before-after]
#   BA_ROUNDS       rounds [3]
#   BA_LONG_ROUNDS  rounds of the long scripts: those that run the driver,
#                   fragment all free memory or boot a VM (verdict-ab.sh,
#                   highorder-fragmentation.sh, vm-kernels.sh,
#                   vm-highorder.sh) [1]
#   BA_SEED         the order's seed [seconds since the epoch]
#   BA_LOCK         the host lock [/tmp/latency-host.lock]
#   BA_OUT          where the runs' outputs go [a new directory in /tmp]
#   BA_JOBS         make -j [2]
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
: "${BA_BEFORE:=a4b4ee2^}"
: "${BA_AFTER:=HEAD}"
: "${BA_CACHE:=/var/tmp/latency-tests-before-after}"
: "${BA_ROUNDS:=3}"
: "${BA_LONG_ROUNDS:=1}"
: "${BA_SEED:=$(date +%s)}"
: "${BA_LOCK:=/tmp/latency-host.lock}"
: "${BA_JOBS:=2}"

die() {
	printf '%s: %s\n' "$0" "$*" >&2
	exit 1
}

# number NAME VALUE: VALUE is a whole number of at least 1.
number() {
	case $2 in
	'' | *[!0-9]* | 0) die "$1 must be a whole number of at least 1, not '$2'" ;;
	esac
}
number BA_ROUNDS "$BA_ROUNDS"
number BA_LONG_ROUNDS "$BA_LONG_ROUNDS"
number BA_SEED "$BA_SEED"
number BA_JOBS "$BA_JOBS"
command -v flock >/dev/null || die "flock is not installed (util-linux)"

if [ $# -eq 0 ]; then
	for f in "$here"/bench/*.sh; do
		[ "${f##*/}" = before-after.sh ] || set -- "$@" "${f##*/}"
	done
fi
for s in "$@"; do
	case $s in
	*/* | before-after.sh) die "'$s' is not a bench script's name" ;;
	esac
	[ -f "$here/bench/$s" ] || die "no bench/$s"
done
scripts=$*

out=${BA_OUT:-$(mktemp -d /tmp/before-after.XXXXXX)}
mkdir -p "$out"
trap 'exit 130' INT
trap 'exit 143' TERM

# build REV: the clean build of REV in BA_CACHE/COMMIT (made once); its
# programs also linked into BA_CACHE/COMMIT/bin for run-test.sh's
# LATENCY_TESTS_BINDIR.  Prints the directory.
build() {
	_sha=$(git -C "$here" rev-parse --verify --quiet "$1^{commit}") ||
		die "'$1' is not a commit of $here"
	_d=$BA_CACHE/$_sha
	if [ ! -e "$_d/ok" ]; then
		echo "building $1 ($_sha) in $_d" >&2
		rm -rf "$_d"
		mkdir -p "$_d/src" "$_d/build"
		git -C "$here" archive "$_sha" | tar -x -C "$_d/src" ||
			die "cannot unpack $1 into $_d/src"
		{
			(cd "$_d/src" && ./autogen.sh) &&
				(cd "$_d/build" && ../src/configure &&
					make -j"$BA_JOBS" &&
					make -j"$BA_JOBS" check TESTS=)
		} >"$_d/build.log" 2>&1 || die "building $1 failed (see $_d/build.log)"
		: >"$_d/ok"
	fi
	mkdir -p "$_d/bin"
	for _f in "$_d"/build/*/*; do
		case $_f in *.o | *.a) continue ;; esac
		[ -f "$_f" ] && [ -x "$_f" ] && ln -sf "$_f" "$_d/bin/"
	done
	echo "$_d"
}

before_dir=$(build "$BA_BEFORE")
after_dir=$(build "$BA_AFTER")
before_sha=${before_dir##*/}
after_sha=${after_dir##*/}

# rounds SCRIPT: how many rounds SCRIPT runs.
rounds() {
	case $1 in
	verdict-ab.sh | highorder-fragmentation.sh | vm-*.sh) echo "$BA_LONG_ROUNDS" ;;
	*) echo "$BA_ROUNDS" ;;
	esac
}

# missing SCRIPT: why SCRIPT cannot be compared, if it cannot (a program
# one of the builds does not have).
missing() {
	case $1 in
	vm-*.sh)
		for _d in "$before_dir" "$after_dir"; do
			[ -x "$_d/bin/latency-vm" ] ||
				echo "no vm/latency-vm in ${_d##*/}, nothing to compare"
		done
		;;
	esac
}

# run SCRIPT DIR SIDE ROUND: one run of SCRIPT against the build in DIR,
# its short mode; output in $out/SCRIPT.SIDE.ROUND.out, the command in
# $out/commands, a failure in $out/failed.
run() {
	_s=$1 _d=$2 _side=$3 _round=$4 _b=$2/build _src=$2/src
	_log=$out/$1.$3.$4.out _res=$out/$1.$3.$4.results
	_lock=
	case $_s in
	latency-output-vs-awk.sh)
		set -- LATENCY_OUTPUT="$_b/latency-output/latency-output" \
			BENCH_LINES=1000000 BENCH_RUNS=3 BENCH_CHECK=100000
		;;
	unbuffered-vs-unbuffer.sh)
		set -- UNBUFFERED="$_b/unbuffered/unbuffered" BENCH_MIB=32 \
			BENCH_RUNS=3
		;;
	seqbench-vs-fio.sh)
		set -- SEQBENCH="$_b/seqbench/seqbench" BENCH_DIR=/var/tmp \
			BENCH_THREADS=8 BENCH_SIZE_MIB=128 BENCH_TIME=500ms \
			BENCH_REPS=3
		;;
	seqbench-cold-vs-dd.sh)
		# ram, unthrottled: the tools' CPU path, no disk or host cache
		set -- SEQBENCH="$_b/seqbench/seqbench" BENCH_DEVICE=ram \
			BENCH_RATE=0 BENCH_FILE_SIZE=256M BENCH_TREE=100:1M \
			BENCH_REPS=3
		_lock=1
		;;
	fakegitk-vs-gitlog.sh)
		set -- FAKEGITK="$_b/fakegitk/fake-gitk" \
			FAKEGITK_BENCH_DIR="$BA_CACHE/repos" \
			FAKEGITK_BENCH_COMMITS=50000 FAKEGITK_BENCH_RUNS=3
		;;
	noise-floor.sh)
		set -- FAKEGITK="$_b/fakegitk/fake-gitk" NOISE_RUNS=3
		;;
	ringbench-vs-perf.sh)
		set -- RINGBENCH="$_b/ringbench/ringbench" BENCH_RUNS=3 \
			BENCH_SECONDS=2 BENCH_WARMUP=200ms
		;;
	fakemusic-vs-rsync.sh)
		set -- FM_BENCH_BUILDDIR="$_b" FM_BENCH_SONGS=2 \
			FM_BENCH_SONG_SIZE=4M
		;;
	highorder-fragmentation.sh)
		# the idle conditions: the driver's would press the whole
		# machine (global pressure), which a shared one must not get
		set -- PROBE="$_b/monitors/latency-highorder" \
			FRAGMENT="$_b/tests/helpers/fragment" BENCH_ROUNDS=1 \
			BENCH_PROBE_S=5 BENCH_CONDITIONS= \
			BENCH_RESULTS="$_res"
		_lock=1
		;;
	verdict-ab.sh)
		set -- RUN_TEST="$_src/run-test.sh" \
			LATENCY_TESTS_BINDIR="$_d/bin" \
			LATENCY_TESTS_DATADIR="$_src/scripts" VERDICT_PAIRS=2 \
			VERDICT_RESULTS="$_res"
		_lock=1
		;;
	vm-kernels.sh)
		set -- LATENCY_VM="$_b/vm/latency-vm" \
			COMPARE="$_b/compare/latency-compare" VM_BOOTS=1 \
			VM_CONFIGS=generic VM_RESULTS="$_res"
		_lock=1
		;;
	vm-highorder.sh)
		set -- LATENCY_VM="$_b/vm/latency-vm" \
			COMPARE="$_b/compare/latency-compare" VM_BOOTS=1 \
			VM_GITK_RUNS=1 VM_COMMITS=20000 \
			VM_RESULTS="$_res"
		_lock=1
		;;
	*)
		set --
		echo "$_s $_side $_round no short mode known here: its defaults" >>"$out/notes"
		;;
	esac
	set -- env "$@" "$here/bench/$_s"
	case $_s in
	verdict-ab.sh)
		set -- "$@" --quick --confine=memcg --gitk-runs=2 --commits=60000
		;;
	vm-kernels.sh) set -- "$@" --quick --gitk-runs=1 --commits=20000 ;;
	esac
	[ -z "$_lock" ] || set -- flock "$BA_LOCK" "$@"
	{
		printf '%s' "$_side round $_round: (cd $_b &&"
		printf ' %s' "$@"
		printf ')\n'
	} >>"$out/commands"
	printf '%s %s round %s: ' "$_s" "$_side" "$_round" >&2
	_rc=0
	(cd "$_b" && "$@") >"$_log" 2>&1 </dev/null || _rc=$?
	if [ "$_rc" = 0 ]; then
		echo "done" >&2
	else
		echo "failed (exit $_rc, see $_log)" >&2
		echo "$_s $_side exit $_rc: $(grep -v '^bench: ' "$_log" | tail -n 1)" >>"$out/failed"
	fi
	# its figures: SCRIPT SIDE NAME VALUE UNIT BETTER
	sed -n 's/^bench: \([A-Za-z0-9_]*\)=\([-+0-9.eE]*\) \(.*\)$/\1 \2 \3/p' "$_log" |
		awk -v s="$_s" -v side="$_side" '{ v[$1] = $2; rest = $3
			for (i = 4; i <= NF; i++) rest = rest " " $i
			r[$1] = rest; if (!($1 in o)) o[$1] = ++n; k[o[$1]] = $1 }
		END { for (i = 1; i <= n; i++) print s, side, k[i], v[k[i]], r[k[i]] }' \
		>>"$out/figures"
}

: >"$out/commands"
: >"$out/figures"
: >"$out/failed"
: >"$out/notes"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
# The side that goes first in round 1, per script, from the seed.
first=$(awk -v seed="$BA_SEED" -v n="$#" 'BEGIN { srand(seed)
	for (i = 1; i <= n; i++) printf "%s", (rand() < 0.5 ? "A" : "B") }')
echo "# before-after: A = before $BA_BEFORE ($before_sha), B = after $BA_AFTER ($after_sha); seed $BA_SEED; outputs in $out" >&2

order=
r=1
while [ "$r" -le "$BA_ROUNDS" ] || [ "$r" -le "$BA_LONG_ROUNDS" ]; do
	i=1
	for s in $scripts; do
		f=$(printf '%s' "$first" | cut -c"$i")
		i=$((i + 1))
		[ "$r" -le "$(rounds "$s")" ] || continue
		why=$(missing "$s")
		if [ -n "$why" ]; then
			echo "$s: not run, $why" >>"$out/notes"
			continue
		fi
		if [ $((r % 2)) = 1 ]; then o=$f; else o=$(echo "$f" | tr AB BA); fi
		[ "$o" = A ] && pair="A B" || pair="B A"
		order="$order $s:$(echo "$pair" | tr -d ' ')"
		for side in $pair; do
			if [ "$side" = A ]; then
				run "$s" "$before_dir" before "$r"
			else
				run "$s" "$after_dir" after "$r"
			fi
		done
	done
	order="$order |"
	r=$((r + 1))
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)
t1=$(date +%s)

{
	echo "# before-after: every bench/ script against two builds, interleaved in one invocation"
	echo "# before (A): $BA_BEFORE = $before_sha; after (B): $BA_AFTER = $after_sha"
	echo "# $(uname -r), $(nproc) CPUs, shared: each script's A and B runs alternate (A B, then B A), so"
	echo "# the load of the other work on this machine falls on both sides alike; load average at"
	echo "# start $load0, at end $load1; wall $((t1 - t0)) s; $BA_ROUNDS rounds ($BA_LONG_ROUNDS for verdict-ab, highorder-fragmentation, vm-*)"
	echo "# figures: each script's 'bench: NAME=VALUE UNIT BETTER' lines; median over rounds, CoV over rounds"
	printf '%-27s %-34s %12s %12s %7s %7s %7s %5s  %s\n' script figure before after \
		after/bef CoV_bef CoV_aft n unit
	awk '
	function stats(list,   a, m, i, j, t, s, q, mean) {
		m = split(list, a, " ")
		for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		med = m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
		s = 0; q = 0
		for (i = 1; i <= m; i++) { s += a[i]; q += a[i] * a[i] }
		mean = s / m
		var = m > 1 ? (q - m * mean * mean) / (m - 1) : 0
		if (var < 0) var = 0
		cov = m > 1 && mean != 0 ? sprintf("%.1f%%", 100 * sqrt(var) / (mean < 0 ? -mean : mean)) : "-"
		cnt = m
	}
	{
		key = $1 " " $3
		if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
		rest = $5; for (i = 6; i <= NF; i++) rest = rest " " $i
		unit[key] = rest
		val[key, $2] = val[key, $2] " " $4
	}
	END {
		for (k = 1; k <= nk; k++) {
			key = keys[k]; split(key, p, " ")
			b = "-"; a = "-"; cb = "-"; ca = "-"; nb = 0; na = 0
			if ((key, "before") in val) { stats(val[key, "before"]); b = med; cb = cov; nb = cnt }
			if ((key, "after") in val) { stats(val[key, "after"]); a = med; ca = cov; na = cnt }
			ratio = (b != "-" && a != "-" && b + 0 != 0) ? sprintf("%.3f", a / b) : "-"
			printf "%-27s %-34s %12s %12s %7s %7s %7s %2d/%-2d  %s\n", p[1], p[2], \
				b == "-" ? b : sprintf("%.6g", b), a == "-" ? a : sprintf("%.6g", a), \
				ratio, cb, ca, nb, na, unit[key]
		}
	}' "$out/figures"
	for s in $scripts; do
		grep -q "^$s " "$out/figures" ||
			printf '%-27s %s\n' "$s" "no figures (see below)"
	done
	if [ -s "$out/failed" ] || [ -s "$out/notes" ]; then
		echo "# not run, failed, or run with its defaults:"
		sort -u "$out/notes" | sed 's/^/#   /'
		sed 's/^/#   failed: /' "$out/failed"
	fi
	echo "# order (per round, script:first-second):$order"
	echo "# commands of round 1 (cwd and environment as run; every round's in $out/commands):"
	grep '^[a-z]* round 1:' "$out/commands" | sed 's/^/#   /'
} | tee "$out/table.txt"
