#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016,SC2034,SC1094,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh defines the rest)
test_description='seqbench: exact ops and bytes per phase, reproducible random offsets'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# "phase ops bytes complete" per phase from seqbench's pretty-printed JSON.
phase_counts() {
	awk '
	/"(seq_write|rand_write|seq_read|rand_read)": \{/ {
		ph = $1; gsub(/[":]/, "", ph)
	}
	ph != "" && /"complete":/ { c = $2; gsub(/,/, "", c) }
	ph != "" && /"ops":/ { o = $2; gsub(/,/, "", o) }
	ph != "" && /"bytes":/ {
		b = $2; gsub(/,/, "", b); print ph, o, b, c; ph = ""
	}' "$1"
}

test_expect_success 'two threads, 256k, 4k blocks, 10 random ops' '
	seqbench -t 2 -b 4k -s 256k -r 10 -d . --json >out.json 2>err &&
	! test -s err &&
	phase_counts out.json >got &&
	cat >expect <<-\EOF &&
	seq_write 64 262144 true
	rand_write 10 40960 true
	seq_read 64 262144 true
	rand_read 10 40960 true
	EOF
	test_cmp expect got
'

test_expect_success JQ 'JSON carries the fields of doc/design.md, contract 4' '
	for f in format_version program version command_line seed kernel \
		results size_mib block_bytes threads run phases seconds \
		rate_mib_s cpu_pct lat_avg_ms lat_max_ms lat_p50_us \
		lat_p99_us lat_p999_us lat_gt_2s_pct lat_gt_10s_pct; do
		test_json out.json "[paths | last] | index(\"$f\") != null" \
			true || return 1
	done &&
	test_json out.json .seed 137 &&
	test_json out.json .interrupted false &&
	test_json out.json .incomplete false
'

test_expect_success 'files are split evenly, rounded down to blocks' '
	seqbench -t 3 -b 4k -s 100k -r 7 -d . -d . --json >odd.json &&
	phase_counts odd.json >got &&
	cat >expect <<-\EOF &&
	seq_write 24 98304 true
	rand_write 6 24576 true
	seq_read 24 98304 true
	rand_read 6 24576 true
	EOF
	test_cmp expect got
'

test_expect_success JQ 'numruns, nofrag, sync and fsync-reads keep the counts' '
	seqbench -t 2 -b 8k -s 128k -r 4 -n 3 --nofrag --sync --fsync-reads \
		-d . --json >runs.json &&
	phase_counts runs.json >got &&
	for run in 1 2 3; do
		echo "seq_write 16 131072 true" &&
		echo "rand_write 4 32768 true" &&
		echo "seq_read 16 131072 true" &&
		echo "rand_read 4 32768 true" || return 1
	done >expect &&
	test_cmp expect got &&
	test_json runs.json "[.results[].run] | tojson" "[1,2,3]"
'

test_expect_success 'a bare size is MiB (tiobench -s)' '
	seqbench -t 1 -b 64k -s 1 -r 1 -d . --json >mib.json &&
	phase_counts mib.json >got &&
	grep -q "^seq_write 16 1048576 true$" got
'

test_expect_success 'progress lines: every 64k per thread, with thread=N' '
	seqbench -t 2 -b 4k -s 512k -r 2 -d . --progress 64k -o report \
		>progress 2>err &&
	test_line_count -eq 16 progress &&
	grep -c "^[0-9]*\.[0-9]\{9\} seqbench thread=0 phase=seq_write bytes=[0-9]* ops=[0-9]*$" progress >n0 &&
	grep -c " thread=1 phase=seq_read bytes=262144 ops=64$" progress >n1 &&
	echo 4 >expect4 && echo 1 >expect1 &&
	test_cmp expect4 n0 && test_cmp expect1 n1 &&
	grep -q "^Sequential Reads$" report
'

test_expect_success 'the same seed does the same random IO' '
	seqbench -t 2 -b 4k -s 1M -r 50 -d . --dump-offsets a >/dev/null &&
	seqbench -t 2 -b 4k -s 1M -r 50 -d . --dump-offsets b >/dev/null &&
	test_line_count -eq 100 a &&
	test_cmp a b
'

# A --dump-offsets that cannot be written fails the run (status 1, said),
# and the measured report is still written.
test_expect_success JQ 'offsets that cannot be written: status 1, the report kept' '
	test_expect_code 1 seqbench -t 2 -b 4k -s 1M -r 50 -d . \
		--dump-offsets /dev/full --json >r.json 2>err &&
	echo "seqbench: cannot write '\''/dev/full'\'': No space left on device" \
		>expect &&
	test_cmp expect err &&
	test_json_valid r.json &&
	test_json r.json "[.results[0].phases[].complete] | all" true
'

test_expect_success 'another seed does other IO' '
	seqbench -t 2 -b 4k -s 1M -r 50 -d . --seed 7 --dump-offsets c \
		>/dev/null &&
	test_line_count -eq 100 c &&
	! cmp -s a c
'

test_expect_success 'offsets are block-aligned and inside each file' '
	seqbench -t 4 -b 12k -s 1M -r 2000 -d . --dump-offsets d >/dev/null &&
	test_line_count -eq 4000 d &&
	awk "{ if (\$6 % 12288 || \$6 + 12288 > 258048) bad++ }
	     END { exit bad > 0 }" d &&
	awk "{ print \$4, \$5 }" d | sort | uniq -c >per-thread &&
	test_line_count -eq 8 per-thread
'

test_expect_success 'random writes and reads use different offsets' '
	grep " rand_write 0 " d >w && grep " rand_read 0 " d >r &&
	awk "{ print \$6 }" w >w6 && awk "{ print \$6 }" r >r6 &&
	! cmp -s w6 r6
'

test_expect_success '--time runs each phase for a while' '
	seqbench -t 2 -b 4k -s 256k --time 100ms -d . --json >timed.json &&
	phase_counts timed.json >got &&
	test_line_count -eq 4 got &&
	awk "\$2 < 1 { exit 1 }" got
'

test_expect_success '--null-io does no IO but counts the ops' '
	seqbench -t 1 -b 4k -s 64k -r 5 -d . --null-io --json >null.json &&
	phase_counts null.json >got &&
	grep -q "^seq_read 16 65536 true$" got
'

test_expect_success 'no file is left behind' '
	ls >files &&
	! grep -q "^seqbench\." files
'

test_done
