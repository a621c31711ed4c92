#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='run-test.sh: finds its programs by name in any folder of the tree next to it'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# Outside make check's PATH: only the system's tools.
sys_path=/usr/local/bin:/usr/bin:/bin
PATH=$sys_path command -v latency-machine >/dev/null 2>&1 ||
	test_set_prereq NOT_INSTALLED

stub() {
	printf '#!/bin/sh\n' >"$1" && chmod +x "$1"
}

test_expect_success NOT_INSTALLED 'programs in any folder are found, a missing one is named' '
	mkdir -p tree/one tree/two tree/three/latency-machine &&
	cp "$abs_top_srcdir/run-test.sh" tree/ &&
	mkdir tree/scripts &&
	cp "$abs_top_srcdir"/scripts/*.sh tree/scripts/ &&
	for p in latency-output unbuffered fake-gitk fake-music; do
		stub tree/one/$p || return 1
	done &&
	for p in latency-vmstat latency-kmsg latency-trace latency-highorder \
		latency-block latency-summarize; do
		stub tree/two/$p || return 1
	done &&
	# The real one: it reads the options before any program is looked for.
	ln -s "$abs_top_builddir/compare/latency-plan" tree/two/ &&
	test_expect_code 1 env PATH="$sys_path" sh tree/run-test.sh >out 2>err &&
	! test -s out &&
	echo "run-test.sh: cannot find program(s): latency-machine (build the tree, or set LATENCY_TESTS_BINDIR)" >expect &&
	test_cmp expect err
'

test_expect_success NOT_INSTALLED 'programs from LATENCY_TESTS_BINDIR and from the tree, seqbench when asked' '
	mkdir bindir &&
	stub bindir/latency-machine &&
	stub bindir/seqbench &&
	mkdir tree/four && stub tree/four/seqbench &&
	rm tree/one/fake-music &&
	test_expect_code 1 env PATH="$sys_path" LATENCY_TESTS_BINDIR="$PWD/bindir" \
		sh tree/run-test.sh --seqbench=--size=64M >out 2>err &&
	echo "run-test.sh: cannot find program(s): fake-music (build the tree, or set LATENCY_TESTS_BINDIR)" >expect &&
	test_cmp expect err
'

test_done
