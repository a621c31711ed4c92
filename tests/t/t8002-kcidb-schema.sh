#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare --format=kcidb against the KCIDB v5.3 schema of kcidb-io'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# KCIDB_IO_DIR: a work tree of kernelci/kcidb-io (its kcidb_io package
# holds the schema).  The schema is checked with Debian's python3 and
# python3-jsonschema, through kcidb-io's own validator.
python=/usr/bin/python3
[ -x "$python" ] || test_skip_all "no /usr/bin/python3 (Debian's python3)"
"$python" -c "import jsonschema" 2>/dev/null ||
	test_skip_all "no python3-jsonschema (apt-get install python3-jsonschema)"
[ -n "${KCIDB_IO_DIR:-}" ] ||
	test_skip_all "KCIDB_IO_DIR is not set (a kernelci/kcidb-io work tree, whose schema this validates against)"
[ -f "$KCIDB_IO_DIR/kcidb_io/schema/v05_03.py" ] ||
	test_skip_all "KCIDB_IO_DIR=$KCIDB_IO_DIR has no kcidb_io/schema/v05_03.py"

F=$TEST_DIRECTORY/fixtures/fleet

# validate FILE: valid as KCIDB v5.3 exactly, test ids unique.
validate() {
	PYTHONPATH=$KCIDB_IO_DIR "$python" -c '
import json, sys
import kcidb_io
data = json.load(open(sys.argv[1]))
kcidb_io.schema.V5_3.validate_exactly(data)
ids = [t["id"] for t in data.get("tests", [])]
if len(ids) != len(set(ids)):
    sys.exit("test ids are not unique")
print(len(data["checkouts"]), len(data["builds"]), len(ids))
' "$1"
}

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w .
'

test_expect_success 'the expected output of the boards is valid' '
	validate "$F/expect/boards.kcidb" >counts &&
	echo "2 2 58" >want && test_cmp want counts
'

test_expect_success 'every fixture, together and alone, is valid' '
	latency-compare --format=kcidb board1 board2 partial hostile >all &&
	validate all >counts &&
	echo "3 3 77" >want && test_cmp want counts &&
	for r in board1 board2 partial hostile; do
		latency-compare --format=kcidb "$r" >one &&
		validate one >/dev/null || return 1
	done
'

test_expect_success 'with another origin' '
	latency-compare --format=kcidb --kcidb-origin=lab_7 board1 >lab &&
	validate lab >/dev/null
'

test_expect_success 'a seqbench result alone (no kernel but its label)' '
	latency-compare --format=kcidb board1/seqbench.json >sb &&
	validate sb >counts &&
	echo "1 1 9" >want && test_cmp want counts
'

test_done
