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
	check_error "'\''version3.json'\'': unsupported format_version 3 (this latency-compare reads 1 to 2)" version3.json
'

test_expect_success 'no format_version' '
	check_error "'\''noversion.json'\'': no \"format_version\": not a latency-tests result" noversion.json
'

test_expect_success 'mistyped field' '
	check_error "'\''badtype.json'\'': \"gitk_runs[0].elapsed_s\" is a string, expected a number" badtype.json
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

test_expect_success JQ 'partial that is no boolean' '
	json_get base/result.json ".partial = \"no\"" >p.json &&
	check_error "'\''p.json'\'': \"partial\" is a string, expected true or false" p.json
'

# A format 2 result with MEMBERS (JSON text) after the usual ones: later
# members of the same name are refused as duplicates, so each case gives
# the members it changes and the others come from defaults.
v2doc() {
	printf '{"format_version": 2, %s}\n' "$1"
}
ok_runs='"gitk_runs": [{"elapsed_s": 1, "majflt": 5}, {"elapsed_s": 2}]'
ok_rest='"partial": false, "label": "x"'

test_expect_success 'format 2: mistyped and out-of-range figures name the key' '
	v2doc "$ok_rest, \"gitk_runs\": [{\"elapsed_s\": 1}, {\"elapsed_s\": 2, \"majflt\": \"5\"}]" >t1.json &&
	check_error "'\''t1.json'\'': \"gitk_runs[1].majflt\" is a string, expected a number" t1.json &&
	v2doc "$ok_rest, \"gitk_runs\": [{\"elapsed_s\": 1, \"pswpin\": -5}]" >t2.json &&
	check_error "'\''t2.json'\'': \"gitk_runs[0].pswpin\" is -5, expected 0 to 1e+15" t2.json &&
	v2doc "$ok_rest, $ok_runs, \"failures\": 1e300" >t3.json &&
	check_error "'\''t3.json'\'': \"failures\" is 1e+300, expected 0 to 1e+15" t3.json &&
	v2doc "$ok_rest, \"gitk_runs\": [7]" >t4.json &&
	check_error "'\''t4.json'\'': \"gitk_runs[0]\" is a number, expected an object" t4.json &&
	v2doc "$ok_rest, \"gitk_runs\": [{\"majflt\": 1}]" >t5.json &&
	check_error "'\''t5.json'\'': missing \"gitk_runs[0].elapsed_s\"" t5.json &&
	v2doc "$ok_rest, \"gitk_runs\": [{\"elapsed_s\": 1, \"psi_full_s\": [1]}]" >t6.json &&
	check_error "'\''t6.json'\'': \"gitk_runs[0].psi_full_s\" is an array, expected a number" t6.json
'

test_expect_success 'format 2: pressure checked member by member' '
	v2doc "$ok_rest, $ok_runs, \"pressure\": [1]" >p1.json &&
	check_error "'\''p1.json'\'': \"pressure\" is an array, expected an object" p1.json &&
	v2doc "$ok_rest, $ok_runs, \"pressure\": {\"mode\": \"huge\"}" >p2.json &&
	check_error "'\''p2.json'\'': \"pressure.mode\" is none of global, memcg, none" p2.json &&
	v2doc "$ok_rest, $ok_runs, \"pressure\": {\"ratio\": 4}" >p3.json &&
	check_error "'\''p3.json'\'': missing \"pressure.mode\"" p3.json &&
	v2doc "$ok_rest, $ok_runs, \"pressure\": {\"mode\": \"memcg\", \"ratio\": \"4\"}" >p4.json &&
	check_error "'\''p4.json'\'': \"pressure.ratio\" is a string, expected a number" p4.json &&
	v2doc "$ok_rest, $ok_runs, \"pressure\": {\"mode\": \"memcg\", \"ratio\": 0}" >p5.json &&
	check_error "'\''p5.json'\'': \"pressure.ratio\" is 0, expected a positive number" p5.json &&
	v2doc "$ok_rest, $ok_runs, \"pressure\": {\"mode\": \"memcg\", \"memory_bytes\": true}" >p6.json &&
	check_error "'\''p6.json'\'': \"pressure.memory_bytes\" is true, expected a number" p6.json &&
	v2doc "$ok_rest, $ok_runs, \"pressure\": null" >p7.json &&
	latency-compare p7.json >out
'

test_expect_success 'labels: no NUL, not empty, not huge, strings only' '
	v2doc "\"partial\": false, $ok_runs, \"label\": \"a\\u0000b\"" >l1.json &&
	check_error "'\''l1.json'\'': \"label\" holds a NUL character" l1.json &&
	v2doc "\"partial\": false, $ok_runs, \"label\": \"\"" >l2.json &&
	check_error "'\''l2.json'\'': \"label\" is empty" l2.json &&
	long=$(awk "BEGIN { while (n++ < 201) printf \"x\" }") &&
	v2doc "\"partial\": false, $ok_runs, \"label\": \"$long\"" >l3.json &&
	check_error "'\''l3.json'\'': \"label\" is longer than 200 bytes" l3.json &&
	v2doc "\"partial\": false, $ok_runs, \"label\": 5" >l4.json &&
	check_error "'\''l4.json'\'': \"label\" is a number, expected a string" l4.json &&
	v2doc "$ok_rest, $ok_runs, \"run_label\": 5" >l5.json &&
	check_error "'\''l5.json'\'': \"run_label\" is a number, expected a string" l5.json
'

test_expect_success 'format_version: a string is refused without being echoed' '
	echo "{\"format_version\": \"\\u001b[2J\", \"label\": \"x\"}" >fv.json &&
	check_error "'\''fv.json'\'': \"format_version\" is a string, expected a number" fv.json &&
	echo "{\"format_version\": 1.5}" >fv2.json &&
	check_error "'\''fv2.json'\'': unsupported format_version 1.5 (this latency-compare reads 1 to 2)" fv2.json
'

test_expect_success 'histograms too long to merge are refused' '
	awk "BEGIN {
		printf \"{\\\"format_version\\\": 2, \\\"label\\\": \\\"x\\\", \\\"partial\\\": false, \\\"gitk_runs\\\": [], \\\"latency\\\": {\\\"fake-gitk\\\": {\\\"histogram\\\": [\"
		for (i = 0; i < 1025; i++)
			printf \"%s{\\\"le_s\\\": %d, \\\"count\\\": 1}\", i ? \",\" : \"\", i + 1
		print \"]}}}\"
	}" >h.json &&
	check_error "'\''h.json'\'': more than 1024 histogram buckets" h.json &&
	awk "BEGIN {
		printf \"{\\\"format_version\\\": 2, \\\"label\\\": \\\"x\\\", \\\"partial\\\": false, \\\"gitk_runs\\\": [], \\\"latency\\\": {\\\"fake-gitk\\\": {\\\"histogram\\\": [\"
		for (i = 0; i < 65537; i++)
			printf \"%s{\\\"le_s\\\": 1, \\\"count\\\": 1}\", i ? \",\" : \"\"
		print \"]}}}\"
	}" >h2.json &&
	check_error "'\''h2.json'\'': more than 65536 histogram entries" h2.json
'

test_expect_success 'usage errors exit 2 with a Try line' '
	test_expect_code 2 latency-compare >out 2>err &&
	grep -q "^latency-compare: no result given$" err &&
	grep -q "^Try .latency-compare --help. for more information.$" err &&
	test_expect_code 2 latency-compare --format=xml base >out 2>err &&
	grep -q "^latency-compare: invalid value .xml. for --format: not understood (expected 2009, text, csv, json, markdown, lava, kcidb or html)$" err &&
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
