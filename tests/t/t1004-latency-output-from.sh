#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-output --from: the report again from a saved series'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# The report minus what describes the run itself (times, command line).
strip_run() {
	sed -e '/"command_line"/d' -e '/"start_time"/d' -e '/"end_time"/d' \
		-e '/"source"/d' -e '/"argv"/,/\]/d' "$1"
}

test_expect_success 'setup: a live run with its series and report' '
	awk "BEGIN { t = 5000000000; for (i = 0; i < 2000; i++) {
		t += 1000 + (i * 7919) % 100000 + (i % 500 == 0 ? 1500000000 : 0)
		printf \"%d.%09d w thread=%d\n\", int(t / 1e9), t % 1e9, i % 3 } }" >in &&
	latency-output --by thread --format json --report live.json <in >series &&
	test_line_count = 2000 series
'

test_expect_success JQ 'the series gives the same report, to the nanosecond' '
	latency-output --from series --by thread --format json \
		--report again.json >out &&
	! test -s out &&
	strip_run live.json >expect &&
	strip_run again.json >actual &&
	test_cmp expect actual &&
	test_json again.json .source series
'

test_expect_success 'the raw progress log gives it too, and so does stdin' '
	latency-output --from in --by thread --format json --report raw.json &&
	strip_run raw.json >actual &&
	test_cmp expect actual &&
	latency-output --from - --by thread --format json --report stdin.json <series &&
	strip_run stdin.json >actual &&
	test_cmp expect actual
'

test_expect_success JQ 'lines stamped on arrival are timed by the epoch column' '
	cat >saved <<-\EOT &&
	 1700000000.0000   0.0000     0.0000 -- start
	 1700000000.2500   0.2500     0.2500 -- copying
	 1700000001.7500   1.7500     1.5000 -- 
	 1700000002.0000   2.0000     0.2500 -- done
	EOT
	latency-output --from saved --format json --report rep.json &&
	test_json rep.json .lines 4 &&
	test_json rep.json .gaps 2 &&
	test_json rep.json .max_s 1.75 &&
	test_json rep.json .malformed.empty 1
'

test_expect_success JQ 'a raw line without a timestamp has no time: counted' '
	printf "%s\n" "starting" "1.0 w" "2.0 w" >raw &&
	latency-output --from raw --format json --report rep.json &&
	test_json rep.json .malformed.no_time 1 &&
	test_json rep.json .malformed_lines 1 &&
	test_json rep.json .gaps 1
'

test_expect_success 'a missing file is an error; --start does not go with it' '
	test_expect_code 1 latency-output --from nosuch 2>err &&
	grep "^latency-output: cannot open .nosuch.: No such file or directory$" err &&
	test_expect_code 2 latency-output --from series --start 1.0 2>err &&
	grep "^latency-output: --start cannot be combined with --from$" err &&
	test_expect_code 1 latency-output --from nosuch 2>err &&
	grep "^latency-output: cannot open .nosuch.: No such file or directory$" err
'

test_done
