#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016,SC2034,SC1094,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh defines the rest)
test_description='seqbench: tiobench report layouts, against fixtures'
. "$abs_top_srcdir/tests/t/test-lib.sh"

fixtures=$abs_top_srcdir/tests/t/t2002

# Known results rendered by the report code itself: byte for byte.
for f in tiobench tiobench-0.3 terse; do
	test_expect_success "$f layout of known results" "
		seqbench-fixture $f >out &&
		test_cmp '$fixtures/$f.expect' out
	"
done

test_expect_success 'two runs: means in the table, stddev after it' '
	seqbench-fixture tiobench 2 >out &&
	test_cmp "$fixtures/tiobench-2runs.expect" out
'

test_expect_success 'tiobench 0.3.3 parsers: the row right after each title' '
	seqbench-fixture tiobench-0.3 >out &&
	for t in "Sequential Reads" "Random Reads" "Sequential Writes" \
		"Random Writes"; do
		grep -A1 "^$t$" out >sec &&
		sed -n 2p sec >row &&
		grep -q "^6\.1\.0-fixture  *256  *65536  *4 " row ||
			test_fail "no row after $t" || return 1
	done
'

test_expect_success 'a real run: sections, headers and rows, numbers masked' '
	seqbench -t 1 -t 2 -b 4k -s 256k -r 8 --identifier test -d . >real &&
	sed -e "/^Latency details$/,\$d" -e "/^test /s/[0-9][0-9.]*%*/N/g" \
		-e "/^test /s/  */ /g" real >masked &&
	test_cmp "$fixtures/layout.expect" masked
'

# Right-aligned columns (Num Thr onwards) end where their dashes end.
test_expect_success 'a real run: values end under their column rules' '
	awk "
	function ends(s, out,   i, n) {
		n = 0
		for (i = 1; i <= length(s); i++)
			if (substr(s, i, 1) != \" \" &&
			    (i == length(s) || substr(s, i + 1, 1) == \" \"))
				out[++n] = i
		return n
	}
	/^-----/ { nd = ends(\$0, d); rows = 1; next }
	/^\$/ { rows = 0; next }
	rows {
		nr = ends(\$0, r)
		for (k = 0; k < 8; k++)
			if (r[nr - k] != d[nd - k]) { bad++; print }
		checked++
	}
	END { if (bad || checked != 8) { print checked, bad; exit 1 } }
	" real
'

test_expect_success 'tiobench-0.3 of a real run has no headers' '
	seqbench -t 2 -b 4k -s 256k -r 8 --format tiobench-0.3 --identifier test \
		-d . >old &&
	! grep -q "^Identifier" old &&
	grep -c "^==*$" old >n &&
	echo 1 >expect && test_cmp expect n &&
	grep -A1 "^Random Reads$" old >sec &&
	grep -q "^test  *256k  *4096  *2 " sec
'

test_expect_success 'terse: tiotest -T lines' '
	seqbench -t 2 -b 4k -s 256k -r 8 --format terse -d . >terse &&
	test_line_count -eq 5 terse &&
	sed "s/[0-9][0-9.]*/N/g" terse >masked &&
	cat >expect <<-\EOF &&
	write:N,N,N,N,N,N,N,N
	rwrite:N,N,N,N,N,N,N,N
	read:N,N,N,N,N,N,N,N
	rread:N,N,N,N,N,N,N,N
	total:N,N,N,N
	EOF
	test_cmp expect masked &&
	grep -q "^write:0\.25000," terse &&
	grep -q "^rread:0\.03125," terse
'

test_expect_success 'csv: a header and one row per phase' '
	seqbench -t 2 -b 4k -s 256k -r 8 --csv -d . >csv &&
	test_line_count -eq 5 csv &&
	head -n 1 csv >h &&
	grep -q "^format_version,program,version,command_line,seed,kernel," h &&
	grep -q ",262144,4096,2,1,seq_read,1,64,262144," csv
'

test_expect_success JQ '--output writes the report to a file' '
	seqbench -t 1 -b 4k -s 64k -r 2 -d . --json -o r.json >out &&
	! test -s out &&
	test_json r.json .program seqbench
'

test_expect_success JQ '--json-output: the JSON of the same run beside the table' '
	seqbench -t 1 -b 4k -s 256k -r 8 --identifier test -d . \
		--json-output run.json >run.txt 2>err &&
	jq -e ".program == \"seqbench\" and (.results | length) == 1" run.json &&
	rate=$(jq -r ".results[0].phases.seq_read.rate_mib_s" run.json) &&
	printf "%.2f\n" "$rate" >want &&
	sed -n "/^Sequential Reads\$/,/^\$/p" run.txt >section &&
	awk "/^test / { print \$5 }" section >got &&
	test_cmp want got &&
	test_expect_code 2 seqbench --json-output= -d . 2>err &&
	grep "json-output needs a file name" err
'

test_done
