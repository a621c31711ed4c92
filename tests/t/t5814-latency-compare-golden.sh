#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: every format, byte for byte, on the fixtures'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# Each format writes one comparison (cmp_build()): a writer that computes
# on its own, or a change of the comparison, shows here first.  Each
# expected file holds the seven formats of one set of results, each after
# a line "### FORMAT", then "### stderr" (the warnings, once).  JSON
# without its run header (version, command line, times).  t5801, t5804,
# t8000 and t8001 pin the other fixtures' formats.

F=$TEST_DIRECTORY/fixtures/compare
E=$F/golden

# every_format RESULT...: the seven formats of the comparison, to stdout.
every_format() {
	for _f in 2009 text markdown csv json kcidb lava; do
		echo "### $_f" &&
		latency-compare --format="$_f" "$@" >one 2>err &&
		if [ "$_f" = json ]; then
			sed "/\"format_version\"/,/\"end_time\"/d" one
		else
			cat one
		fi || return 1
	done &&
	echo "### stderr" &&
	cat err
}

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w .
'

test_expect_success 'two kernels, three boots each: tested on the result means' '
	every_format v2/a1 v2/a2 v2/a3 v2/b1 v2/b2 v2/b3 >out &&
	test_cmp "$E/boots.out" out
'

test_expect_success 'on KVM against TCG: the setup differs, said' '
	every_format vm/kvm vm/tcg >out &&
	test_cmp "$E/vm.out" out
'

test_expect_success 'a latency summary per run (format 1)' '
	every_format perrun/base.json perrun/new.json >out &&
	test_cmp "$E/perrun.out" out
'

test_expect_success 'five labels, one partial, one of one run' '
	every_format base slow same onerun partial >out &&
	test_cmp "$E/labels.out" out
'

test_done
