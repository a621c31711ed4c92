#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Byte-identity of latency-compare's reports across a change of its code:
# every comparison the tests make, in every format, before and after.
#
#   compare-golden.sh capture CORPUS REAL TEST...
#       run the shell tests TEST... (through make check) with a stand-in
#       latency-compare that keeps each comparison they make (its
#       arguments and a copy of its inputs) under CORPUS/cases/N, then runs
#       REAL (the latency-compare binary) as asked
#   compare-golden.sh replay CORPUS BINARY OUT
#       run BINARY over every case of CORPUS: as the test ran it and once in
#       each format (2009 text markdown csv json kcidb lava, and --plot),
#       keeping stdout, stderr, the exit status and the plot files in OUT
#   compare-golden.sh record CORPUS ARG...
#       the stand-in itself (what capture puts in PATH)
#
# Then `diff -r OUT-before OUT-after` must print nothing.  The varying
# fields (the version, the start and end time of the JSON header) are
# replaced by fixed words in OUT, nothing else.
#
# Environment: GOLDEN_FORMATS (default "2009 text markdown csv json kcidb
# lava"), MAKE (default make).
set -eu

: "${GOLDEN_FORMATS:=2009 text markdown csv json kcidb lava}"
: "${MAKE:=make}"

die() {
	echo "$0: $*" >&2
	exit 1
}

# Copy what argument $1 names (relative to the current directory) into the
# case directory $2: a file with its directory (sysinfo/ lies beside a
# result.json), a directory whole.
keep_input() {
	case $1 in
	/* | '') return 0 ;;
	esac
	if [ -d "$1" ]; then
		mkdir -p "$2/$1" && cp -R "$1"/. "$2/$1"/
	elif [ -e "$1" ]; then
		_d=$(dirname -- "$1")
		mkdir -p "$2/$_d" && cp -R "$_d"/. "$2/$_d"/
	fi
}

record() {
	corpus=$1
	shift
	mkdir -p "$corpus/cases"
	# Tests run in parallel: a directory is the lock of the counter.
	until mkdir "$corpus/lock" 2>/dev/null; do
		sleep 1
	done
	n=$(($(cat "$corpus/count" 2>/dev/null || echo 0) + 1))
	echo "$n" >"$corpus/count"
	rmdir "$corpus/lock"
	c=$corpus/cases/$n
	mkdir -p "$c/in"
	: >"$c/args"
	skip=
	for a in "$@"; do
		printf '%s\n' "$a" >>"$c/args"
		if [ -n "$skip" ]; then
			skip=
			continue
		fi
		case $a in
		-o | --output | --format | --alpha | --fail-if-slower | \
			--kcidb-origin | --plot | --workload)
			skip=1
			continue
			;;
		-*) continue ;;
		esac
		if [ -e "$a" ]; then
			keep_input "$a" "$c/in"
			continue
		fi
		case $a in
		*=*) ;;
		*) continue ;;
		esac
		rest=${a#*=}
		while :; do
			keep_input "${rest%%,*}" "$c/in"
			case $rest in
			*,*) rest=${rest#*,} ;;
			*) break ;;
			esac
		done
	done
	exec "$GOLDEN_REAL" "$@"
}

capture() {
	corpus=$1 real=$2
	shift 2
	mkdir -p "$corpus/bin"
	corpus=$(cd "$corpus" && pwd)
	self=$(cd "$(dirname -- "$0")" && pwd)/$(basename -- "$0")
	# Under its own name: its messages start with it.
	mkdir -p "$corpus/real"
	cp "$real" "$corpus/real/latency-compare"
	cat >"$corpus/bin/latency-compare" <<EOF
#!/bin/sh
GOLDEN_REAL='$corpus/real/latency-compare' exec '$self' record '$corpus' "\$@"
EOF
	chmod +x "$corpus/bin/latency-compare"
	# The tests put the build's programs first in PATH: the stand-in
	# takes the built program's place for the run.
	[ -x compare/latency-compare ] || die "run capture in the build tree"
	mv compare/latency-compare compare/latency-compare.golden-real
	trap 'mv compare/latency-compare.golden-real compare/latency-compare' EXIT
	cp "$corpus/bin/latency-compare" compare/latency-compare
	touch -r compare/latency-compare.golden-real compare/latency-compare
	"$MAKE" check TESTS="$*" >"$corpus/check.log" 2>&1 ||
		echo "$0: some test failed (see $corpus/check.log)" >&2
}

# Replace what varies between two builds and two runs by fixed words.
normalize() {
	sed -e "s/$vers_re/VERSION/g" \
		-e 's/"\(start_time\|end_time\)": *"[^"]*"/"\1": "TIME"/g' \
		"$1" >"$1.n" && mv "$1.n" "$1"
}

# Run BINARY in a fresh copy of the case's inputs: $1 names the outputs,
# the rest are the arguments.  Files it writes (-o, --plot) are kept too.
run_one() {
	_o=$out/$case/$1
	shift
	rm -rf "$work" && cp -R "$dir/in" "$work"
	_rc=0
	(cd "$work" && "$binary" "$@") >"$_o.out" 2>"$_o.err" || _rc=$?
	echo "$_rc" >"$_o.rc"
	normalize "$_o.out"
	normalize "$_o.err"
	(cd "$dir/in" && find . -type f | sort) >"$work.before"
	(cd "$work" && find . -type f | sort) | comm -13 "$work.before" - |
		while IFS= read -r f; do
			case $f in
			# gnuplot's PNG and SVG depend on its fonts and
			# version: the .gp and .dat files decide.
			*.png | *.svg) continue ;;
			esac
			_k=$_o.file.$(printf '%s' "${f#./}" | tr / _)
			cp "$work/$f" "$_k" && normalize "$_k"
		done
}

replay() {
	corpus=$1 binary=$2 out=$3
	vers=$("$binary" --version | sed -n '1s/.* //p')
	vers_re=$(printf '%s' "$vers" | sed 's/[.[\*^$/]/\\&/g')
	mkdir -p "$out"
	work=$(mktemp -d)/work
	for dir in "$corpus"/cases/*; do
		case=${dir##*/}
		mkdir -p "$out/$case"
		# The arguments as the test gave them, then without the
		# options that choose where and how it writes.
		set --
		while IFS= read -r a; do
			set -- "$@" "$a"
		done <"$dir/args"
		run_one asis "$@"
		n=$#
		i=0
		skip=
		for a in "$@"; do
			i=$((i + 1))
			if [ -n "$skip" ]; then
				skip=
			else
				case $a in
				-o | --output | --format | --plot | --fail-if-slower)
					skip=1
					;;
				-o* | --output=* | --format=* | --plot=* | \
					--fail-if-slower=*) ;;
				*) set -- "$@" "$a" ;;
				esac
			fi
			[ "$i" -lt "$n" ] || break
		done
		shift "$n"
		for f in $GOLDEN_FORMATS; do
			run_one "$f" --format="$f" "$@"
		done
		run_one plot --format=2009 --plot=golden-plot "$@"
	done
	rm -rf "${work%/work}"
}

[ $# -ge 1 ] || die "usage: $0 capture|replay|record ..."
cmd=$1
shift
case $cmd in
record) record "$@" ;;
capture)
	[ $# -ge 3 ] || die "usage: $0 capture CORPUS REAL TEST..."
	capture "$@"
	;;
replay)
	[ $# -eq 3 ] || die "usage: $0 replay CORPUS BINARY OUT"
	replay "$@"
	;;
*) die "unknown command '$cmd'" ;;
esac
