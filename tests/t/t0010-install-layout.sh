#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='make install DESTDIR=...: every file in its FHS place'
. "$abs_top_srcdir/tests/t/test-lib.sh"

command -v man >/dev/null 2>&1 && test_set_prereq MAN

# What must be installed, from the lists the Makefile exports: every
# program and script in bin with its man page, the driver's helpers in the
# package data directory, the docs; and nothing else.
expected_files() {
	for p in $BIN_PROGRAMS $BIN_SCRIPTS; do
		n=$(basename "$p")
		echo "usr/bin/$n"
		echo "usr/share/man/man1/$n.1"
	done
	for f in $PKGDATA_FILES; do
		echo "usr/share/latency-tests/$(basename "$f")"
	done
	for f in $DOC_FILES; do
		echo "usr/share/doc/latency-tests/$(basename "$f")"
	done
	for f in $LAVA_FILES; do
		echo "usr/share/latency-tests/lava/$(basename "$f")"
	done
}

test_expect_success 'install into a DESTDIR' '
	${MAKE:-make} -C "$abs_top_builddir" install prefix=/usr \
		DESTDIR="$PWD/root" >install.log 2>&1
'

test_expect_success 'exactly the expected files, nothing in the wrong place' '
	expected_files | sort >want &&
	(cd root && find . ! -type d | sed "s|^\./||" | sort) >have &&
	test_cmp want have
'

test_expect_success 'programs and scripts are executable, data is not' '
	for f in root/usr/bin/*; do
		test -x "$f" || test_fail "$f is not executable" || return 1
	done &&
	for f in $PKGDATA_SCRIPTS; do
		test -x "root/usr/share/latency-tests/$(basename "$f")" ||
			test_fail "$f is not executable" || return 1
	done &&
	for f in root/usr/share/latency-tests/* root/usr/share/man/man1/*; do
		case " $PKGDATA_SCRIPTS " in
		*"/$(basename "$f") "*) continue ;;
		esac
		test -d "$f" || ! test -x "$f" ||
			test_fail "$f is executable" || return 1
	done &&
	test -x root/usr/share/latency-tests/lava/run-suite.sh &&
	! test -x root/usr/share/latency-tests/lava/latency-tests.yaml
'

test_expect_success MAN 'every installed man page renders without warnings' '
	for m in root/usr/share/man/man1/*.1; do
		MANWIDTH=80 man --warnings -l "$m" >/dev/null 2>warnings &&
		if test -s warnings; then
			cat warnings && test_fail "$m warns" || return 1
		fi
	done
'

test_expect_success 'the installed driver runs and names the package' '
	LATENCY_TESTS_DATADIR="$PWD/root/usr/share/latency-tests" \
		PATH="$PWD/root/usr/bin:$PATH" root/usr/bin/latency-run-test --version >v &&
	grep -q "^latency-run-test (latency-tests) " v
'

test_done
