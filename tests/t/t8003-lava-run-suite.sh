#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='lava/run-suite.sh: the test definition step runs the driver and reports each case'
. "$abs_top_srcdir/tests/t/test-lib.sh"

F=$TEST_DIRECTORY/fixtures/fleet
step=$abs_top_srcdir/lava/run-suite.sh

# LAVA's lava-test-case is only in a LAVA test shell (lava/run-local.sh
# runs the step there for real); here a recorder stands in for it, and a
# driver that leaves a fixture result where latency-run-test would.
test_expect_success 'setup' '
	mkdir bin &&
	cat >bin/lava-test-case <<-\EOF &&
	#!/bin/sh
	echo "lava-test-case $*" >>"$CASES"
	EOF
	cat >bin/driver <<-\EOF &&
	#!/bin/sh
	# --results DIR [--label L]: the fixture $FIXTURE as DIR/L.
	label=fixture
	while [ $# -gt 0 ]; do
		case $1 in
		--results) dir=$2; shift ;;
		--label) label=$2 ;;
		esac
		shift
	done
	cp -R "$FIXTURE" "$dir/$label" && exit "${STATUS:-0}"
	EOF
	chmod +x bin/lava-test-case bin/driver
'
PATH=$TRASH_DIRECTORY/bin:$PATH
LATENCY_RUN_TEST=driver
CASES=$TRASH_DIRECTORY/cases
export PATH LATENCY_RUN_TEST CASES

test_expect_success 'a complete run: run-test passes, then every figure' '
	FIXTURE=$F/board1 && export FIXTURE &&
	"$step" res "" --quick --commits=2000 >log &&
	echo "lava-test-case run-test --result pass" >want &&
	cat "$F/expect/board1.lava" >>want &&
	test_cmp want cases &&
	grep "^result: res/lava\.[A-Za-z0-9]*/fixture$" log
'

test_expect_success 'the options and the label reach the driver' '
	rm -f cases &&
	FIXTURE=$F/board1 && export FIXTURE &&
	"$step" res "6.1-board7" --quick >log &&
	grep "^+ driver --quick --results res/lava\.[A-Za-z0-9]* --label 6.1-board7$" log &&
	ls -d res/lava.*/6.1-board7
'

test_expect_success 'a failed run: run-test fails, its partial result is reported, the status kept' '
	rm -f cases &&
	FIXTURE=$F/partial STATUS=1 && export FIXTURE STATUS &&
	test_expect_code 1 "$step" res "" >log &&
	head -n 2 cases >got &&
	printf "%s\n" "lava-test-case run-test --result fail" \
		"lava-test-case complete --result fail" >want &&
	test_cmp want got &&
	grep -c . cases >n && echo 13 >want && test_cmp want n
'

test_expect_success 'unsupported here (3): run-test is skipped' '
	rm -f cases &&
	FIXTURE=$F/partial STATUS=3 && export FIXTURE STATUS &&
	test_expect_code 3 "$step" res "" >log &&
	head -n 1 cases >got &&
	echo "lava-test-case run-test --result skip" >want &&
	test_cmp want got
'

test_expect_success 'a hostile result: plain names only, nothing run' '
	rm -f cases &&
	FIXTURE=$F/hostile STATUS=0 && export FIXTURE STATUS &&
	"$step" res "" >log &&
	! grep -v "^lava-test-case [A-Za-z0-9_][A-Za-z0-9._-]* --result" cases &&
	test ! -e pwned
'

test_expect_success 'a case line that is not plain words is refused' '
	rm -f cases &&
	cat >bin/evil-compare <<-\EOF &&
	#!/bin/sh
	# -o FILE ...: a line no latency-compare writes
	printf "%s\n" "lava-test-case x\$(touch pwned) --result pass" >"$3"
	EOF
	chmod +x bin/evil-compare &&
	FIXTURE=$F/board1 && export FIXTURE &&
	test_expect_code 1 env LATENCY_COMPARE=evil-compare "$step" res "" 2>err &&
	grep "a test case line with other characters" err &&
	test ! -e pwned &&
	echo "lava-test-case run-test --result pass" >want &&
	test_cmp want cases
'

test_expect_success 'the result.json is sent over the console, byte-identical decoded' '
	rm -f cases &&
	FIXTURE=$F/board1 STATUS=0 && export FIXTURE STATUS &&
	"$step" res "" >log &&
	sum=$(sha256sum <"$F/board1/result.json") &&
	bytes=$(wc -c <"$F/board1/result.json") &&
	test "$(grep -c "^LATENCY-TESTS-RESULT-BEGIN " log)" = 1 &&
	grep -x "LATENCY-TESTS-RESULT-BEGIN ${sum%% *} $((bytes))" log &&
	test "$(tail -n 1 log)" = LATENCY-TESTS-RESULT-END &&
	sed -n "/^LATENCY-TESTS-RESULT-BEGIN /,/^LATENCY-TESTS-RESULT-END$/p" log |
		sed "1d; \$d" >block &&
	! grep -v "^[A-Za-z0-9+/=]\{1,64\}$" block &&
	base64 -d block | gzip -dc >got.json &&
	test_cmp "$F/board1/result.json" got.json
'

test_expect_success 'the job'"'"'s nonce on both markers; a bad one refused' '
	rm -f cases &&
	FIXTURE=$F/board1 STATUS=0 && export FIXTURE STATUS &&
	n=0123456789abcdef0123456789abcdef &&
	LATENCY_RESULT_NONCE=$n "$step" res "" >log &&
	sum=$(sha256sum <"$F/board1/result.json") &&
	bytes=$(wc -c <"$F/board1/result.json") &&
	grep -x "LATENCY-TESTS-RESULT-BEGIN $n ${sum%% *} $((bytes))" log &&
	test "$(tail -n 1 log)" = "LATENCY-TESTS-RESULT-END $n" &&
	test_expect_code 1 env LATENCY_RESULT_NONCE="1;x" "$step" res "" 2>err &&
	grep -x "run-suite.sh: LATENCY_RESULT_NONCE is not 32 hex digits" err
'

test_expect_success 'no gzip in the guest: said, nothing sent, the status kept' '
	rm -f cases && mkdir -p nogzip &&
	for t in sh cat mkdir mktemp sed; do
		ln -sf "$(command -v "$t")" "nogzip/$t" || return 1
	done &&
	cp bin/lava-test-case bin/driver nogzip/ &&
	ln -sf "$(command -v cp)" nogzip/cp &&
	FIXTURE=$F/board1 STATUS=0 && export FIXTURE STATUS &&
	env PATH="$PWD/nogzip" LATENCY_COMPARE="$abs_top_builddir/compare/latency-compare" \
		"$step" res "" >log 2>err &&
	grep -x "run-suite.sh: gzip is missing: not sending res/lava\.[A-Za-z0-9]*/fixture/result.json over the console" err &&
	! grep LATENCY-TESTS-RESULT log
'

test_expect_success 'outside a LAVA test shell it says so' '
	test_expect_code 1 env PATH=/usr/bin:/bin "$step" res "" 2>err &&
	grep "lava-test-case is not in PATH" err
'

test_expect_success 'the run'"'"'s report.html follows in a block of its own' '
	rm -f cases &&
	cp -R "$F/board1" withpage &&
	latency-compare --format=html -o withpage/report.html withpage &&
	FIXTURE=$PWD/withpage STATUS=0 && export FIXTURE STATUS &&
	"$step" res "" >log &&
	sum=$(sha256sum <withpage/report.html) &&
	bytes=$(wc -c <withpage/report.html) &&
	test "$(grep -c "^LATENCY-TESTS-RESULT-BEGIN " log)" = 1 &&
	test "$(grep -c "^LATENCY-TESTS-REPORT-BEGIN " log)" = 1 &&
	grep -x "LATENCY-TESTS-REPORT-BEGIN ${sum%% *} $((bytes))" log &&
	test "$(tail -n 1 log)" = LATENCY-TESTS-REPORT-END &&
	sed -n "/^LATENCY-TESTS-REPORT-BEGIN /,/^LATENCY-TESTS-REPORT-END$/p" log |
		sed "1d; \$d" >block &&
	! grep -v "^[A-Za-z0-9+/=]\{1,64\}$" block &&
	base64 -d block | gzip -dc >got.html &&
	test_cmp withpage/report.html got.html
'

test_done
