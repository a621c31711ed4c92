#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: bad input gives one clear line'
. "$abs_top_srcdir/tests/t/test-lib.sh"

F=$TEST_DIRECTORY/fixtures/compare

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w . && mkdir empty
'

# check_error WANT ARGS...: exit 1, nothing on stdout, exactly WANT on stderr.
check_error() {
	_ce_want=$1
	shift
	test_expect_code 1 latency-compare "$@" >out 2>err &&
	! test -s out &&
	echo "latency-compare: $_ce_want" >want &&
	test_cmp want err
}

test_expect_success 'missing directory' '
	check_error "cannot open '\''nodir'\'': No such file or directory" base nodir
'

test_expect_success 'directory without result.json' '
	check_error "cannot read '\''empty/result.json'\'': No such file or directory" base empty
'

test_expect_success 'corrupt result.json' '
	check_error "invalid JSON in '\''corrupt.json'\'' at line 2, column 33: unexpected '\'']'\'', expected a value" corrupt.json
'

test_expect_success 'wrong format_version' '
	check_error "'\''version2.json'\'': unsupported format_version 2 (this latency-compare reads 1)" version2.json
'

test_expect_success 'no format_version' '
	check_error "'\''noversion.json'\'': no \"format_version\": not a latency-tests result" noversion.json
'

test_expect_success 'mistyped field' '
	check_error "'\''badtype.json'\'': \"elapsed_s\" is a string, expected a number" badtype.json
'

test_expect_success 'missing label' '
	check_error "'\''nolabel.json'\'': missing \"label\"" nolabel.json
'

test_expect_success 'a JSON file that is no result' '
	echo "{\"format_version\": 1, \"program\": \"x\"}" >other.json &&
	check_error "'\''other.json'\'': neither a run-test.sh result (no \"gitk_runs\") nor a seqbench result (no \"results\")" other.json
'

test_expect_success 'an empty file' '
	: >zero.json &&
	check_error "invalid JSON in '\''zero.json'\'' at line 1, column 1: empty document" zero.json
'

test_expect_success 'a JSON document that is no object' '
	echo "[1, 2]" >list.json &&
	check_error "'\''list.json'\'': an array, expected a JSON object" list.json
'

test_expect_success 'partial that is no boolean' '
	sed "s/\"partial\": false/\"partial\": \"no\"/" base/result.json >p.json &&
	check_error "'\''p.json'\'': \"partial\" is a string, expected true or false" p.json
'

test_expect_success 'usage errors exit 2 with a Try line' '
	test_expect_code 2 latency-compare >out 2>err &&
	grep -q "^latency-compare: no result given$" err &&
	grep -q "^Try .latency-compare --help. for more information.$" err &&
	test_expect_code 2 latency-compare --format=xml base >out 2>err &&
	grep -q "unknown format .xml." err &&
	test_expect_code 2 latency-compare --alpha=1 base >out 2>err &&
	test_expect_code 2 latency-compare --alpha=0 base >out 2>err &&
	test_expect_code 2 latency-compare --alpha=abc base >out 2>err &&
	test_expect_code 2 latency-compare --plot= base >out 2>err &&
	! test -s out
'

test_expect_success 'an unwritable output file is exit 1' '
	test_expect_code 1 latency-compare -o nodir/out base >out 2>err &&
	grep -q "^latency-compare: cannot create .nodir/out.: No such file or directory$" err
'

test_done
