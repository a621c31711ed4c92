#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016,SC2034,SC1094,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh defines the rest)
test_description='seqbench: its files in a shared directory, where others may plant links'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# Root following a link that another user planted in a sticky directory is
# what fs.protected_symlinks=1 forbids by itself; the attack needs it off,
# as it is on many machines.  The test turns it off if it must and puts back
# what it found when the script ends, however it ends.
psym=/proc/sys/fs/protected_symlinks
psym_was=
restore_psym() {
	if [ -n "$psym_was" ]; then
		echo "$psym_was" >"$psym"
	fi
}
if test_have_prereq ROOT && command -v setpriv >/dev/null 2>&1 &&
	now=$(cat "$psym" 2>/dev/null); then
	trap restore_psym EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	if [ "$now" = 0 ]; then
		test_set_prereq UNPROTECTED
	elif (echo 0 >"$psym") 2>/dev/null; then
		psym_was=$now
		test_set_prereq UNPROTECTED
	fi
fi

# Run seqbench on the shared directory $1 (further arguments are its
# options) as a process whose PID is known in advance (sh execs it), after
# user nobody has planted links with the names older versions used,
# seqbench.PID.N, pointing at private/victimN.  The PID goes to "pid".
run_planted() {
	sh -c '
		dir=$1
		shift
		for i in 0 1; do
			setpriv --reuid=65534 --regid=65534 --clear-groups \
				ln -s "$PWD/private/victim$i" \
				"$dir/seqbench.$$.$i" || exit 99
		done
		echo $$ >pid
		exec seqbench -d "$dir" "$@"
	' sh "$@"
}

# The files a run with -v announced, one per line, from its stderr $1.
files_of() {
	sed -n "s/^seqbench: thread [0-9]*: file '\(.*\)'\$/\1/p" "$1"
}

test_expect_success UNPROTECTED 'a shared sticky directory and a private one' '
	mkdir -m 700 private &&
	echo precious >private/victim1 &&
	mktemp -d "${TMPDIR:-/tmp}/t2004-seqbench.XXXXXX" >shared &&
	chmod 1777 "$(cat shared)"
'

test_expect_success UNPROTECTED 'links planted for the old names are not followed' '
	dir=$(cat shared) &&
	run_planted "$dir" -t 2 -b 4k -s 256k -r 8 -v --format terse \
		>out 2>err &&
	pid=$(cat pid) &&
	! test -e private/victim0 &&
	echo precious >expect &&
	test_cmp expect private/victim1 &&
	test -L "$dir/seqbench.$pid.0" &&
	test -L "$dir/seqbench.$pid.1" &&
	grep -q "^write:0\.25000," out
'

test_expect_success UNPROTECTED 'the names are random, differ between runs, and are removed' '
	dir=$(cat shared) &&
	files_of err >first &&
	test_line_count = 2 first &&
	rm -f "$dir"/seqbench.* &&
	run_planted "$dir" -t 2 -b 4k -s 256k -r 8 -v --format terse \
		>out 2>err2 &&
	files_of err2 >second &&
	test_line_count = 2 second &&
	cat first second >all &&
	grep -Ec "^$dir/seqbench\.[0-9a-f]{16}\$" all >n &&
	echo 4 >expect && test_cmp expect n &&
	sort -u all >uniq &&
	test_line_count = 4 uniq &&
	ls -A "$dir" >left &&
	pid=$(cat pid) &&
	printf "seqbench.%s.0\nseqbench.%s.1\n" "$pid" "$pid" >expect &&
	test_cmp expect left
'

test_expect_success UNPROTECTED 'the same seed still gives the same offsets' '
	dir=$(cat shared) &&
	seqbench -d "$dir" -t 2 -b 4k -s 256k -r 8 --seed 7 \
		--dump-offsets off1 --format terse >out &&
	seqbench -d "$dir" -t 2 -b 4k -s 256k -r 8 --seed 7 \
		--dump-offsets off2 --format terse >out &&
	test_line_count = 16 off1 &&
	test_cmp off1 off2
'

# The audit: --dump-offsets wrote through a link planted at its name, as
# root, while -o replaced its own file safely.
test_expect_success UNPROTECTED '--dump-offsets replaces a planted link, as -o does' '
	dir=$(cat shared) &&
	echo precious >private/victim2 &&
	echo precious >private/victim3 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		ln -s "$PWD/private/victim2" "$dir/offsets" &&
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		ln -s "$PWD/private/victim3" "$dir/out.json" &&
	seqbench -d "$dir" -t 1 -b 4k -s 64k -r 8 --dump-offsets "$dir/offsets" \
		--format json -o "$dir/out.json" >/dev/null &&
	echo precious >expect &&
	test_cmp expect private/victim2 &&
	test_cmp expect private/victim3 &&
	! test -L "$dir/offsets" && test_line_count = 16 "$dir/offsets" &&
	! test -L "$dir/out.json"
'

test_expect_success UNPROTECTED 'remove the shared directory' '
	rm -rf "$(cat shared)"
'

test_expect_success 'a target directory given as a link is refused' '
	mkdir real &&
	ln -s real link &&
	test_expect_code 1 seqbench -d link -t 1 -s 64k >out 2>err &&
	echo "seqbench: cannot use '\''link'\'': a symbolic link (name the directory it points to)" >expect &&
	test_cmp expect err &&
	ls -A real >left &&
	! test -s left
'

test_done
