#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='suite-wide conventions for every installed program'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# Every program and script the package installs, with its man page.
progs=
for p in ${BIN_PROGRAMS:-} ${BIN_SCRIPTS:-}; do
	progs="$progs $p"
done
[ -n "$progs" ] || test_skip_all 'no programs built'

man_of() {
	_d=$(dirname "$1")
	_b=$(basename "$1")
	for _m in "$abs_top_srcdir/$_d/$_b.1" "$abs_top_srcdir/$_b.1"; do
		[ -f "$_m" ] && { echo "$_m"; return 0; }
	done
	return 1
}

exe_of() {
	if [ -x "$abs_top_builddir/$1" ]; then
		echo "$abs_top_builddir/$1"
	else
		echo "$abs_top_srcdir/$1"
	fi
}

for p in $progs; do
	name=$(basename "$p")
	exe=$(exe_of "$p")

	test_expect_success "$name --help exits 0 and writes to stdout" "
		\"$exe\" --help >out 2>err &&
		test -s out && ! test -s err &&
		grep -q '^Usage: $name' out
	"
	test_expect_success "$name --version exits 0 and names the package" "
		\"$exe\" --version >out 2>err &&
		! test -s err &&
		grep -q '^$name (latency-tests) [0-9]' out
	"
	test_expect_success "$name with a bad option exits 2 with a Try line" "
		test_expect_code 2 \"$exe\" --no-such-option >out 2>err &&
		! test -s out &&
		grep -q \"^Try '$name --help' for more information.\" err &&
		grep -q '^$name: ' err
	"
	test_expect_success "$name fails with status 1 writing to /dev/full" "
		test_expect_code 1 \"$exe\" --help >/dev/full 2>err &&
		grep -q '^$name: .*No space left on device' err
	"
	test_expect_success GROFF "$name has a man page that renders cleanly" "
		man=\$(man_of '$p') &&
		groff -man -ww -z \"\$man\" 2>warnings &&
		! test -s warnings
	"
	test_expect_success GROFF "$name: long options in --help and man page match" "
		man=\$(man_of '$p') &&
		\"$exe\" --help >help &&
		grep -o -- '--[a-z][a-z0-9-]*' help | sort -u >from-help &&
		groff -man -Tascii -P-cbou \"\$man\" 2>/dev/null |
			grep -o -- '--[a-z][a-z0-9-]*' | sort -u >from-man &&
		test_cmp from-help from-man
	"
done

test_done
