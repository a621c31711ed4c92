#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016,SC2034,SC1094,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh defines the rest)
test_description='latency-summarize: latency-block'"'"'s block.json in result.json and summary.txt'
. "$abs_top_srcdir/tests/t/test-lib.sh"

fixtures=$TEST_DIRECTORY/fixtures/summarize
trace=$TEST_DIRECTORY/fixtures/monitors/block_trace_pipe.txt

test_expect_success 'a run directory with block.json from a recorded trace' '
	cp -R "$fixtures/full" full &&
	latency-block --replay "$trace" --device=7:0 --format=json \
		--summary=full/block.json >/dev/null &&
	latency-summarize --result-dir=full
'

test_expect_success 'summary.txt: a block section in blkparse'"'"'s terms' '
	sed -n "/^block: /,/^  Q2C/p" full/summary.txt >actual &&
	cat >expect <<-\EOF &&
	block: 7:0 (tracepoints)
	  Reads Queued: 4, 16KiB Writes Queued: 25, 192KiB
	  Read Dispatches: 4, 16KiB Write Dispatches: 9, 192KiB
	  Reads Completed: 4, 16KiB Writes Completed: 10, 192KiB
	  Read Merges: 0 Write Merges: 15 IO unplugs: 13 Timer unplugs: n/a
	  Q2C p50 22.9 us p99 79167.5 us D2C p50 12.0 us p99 79167.5 us
	EOF
	test_cmp expect actual
'

test_expect_success JQ 'result.json: block.devices as latency-block wrote them' '
	json_get -S full/result.json .block.devices >got &&
	json_get -S full/block.json .devices >want &&
	test_cmp want got &&
	test_json full/result.json .block.source tracepoints &&
	test_json full/result.json .format_version 2
'

test_expect_success JQ 'without block.json: block is null, no note, no section' '
	cp -R "$fixtures/full" none &&
	latency-summarize --result-dir=none &&
	test_json none/result.json .block null &&
	! grep -q "^block:" none/summary.txt &&
	! grep -q "block.json" none/summary.txt
'

test_expect_success JQ 'a hostile block.json: nulls, n/a and escapes, never a crash' '
	cp -R "$fixtures/full" bad &&
	printf "{\"devices\": \"loop0\"}" >bad/block.json &&
	latency-summarize --result-dir=bad &&
	test_json bad/result.json .block null &&
	grep -x "note: block.json: no devices list" bad/summary.txt &&
	printf "{\"source\": 7, \"devices\": [3, {\"name\": \"x\\\\u001b[31m\", \"source\": \"tracepoints\", \"reads\": {\"queued\": \"4\"}, \"writes\": [], \"unplugs_io\": 1e300}]}" \
		>bad/block.json &&
	latency-summarize --result-dir=bad &&
	test_json bad/result.json .block.source null &&
	test_json bad/result.json ".block.devices | length" 2 &&
	grep -x "block: x\\\\x1b\\[31m (tracepoints)" bad/summary.txt &&
	grep -x "  Reads Queued: n/a Writes Queued: n/a" bad/summary.txt &&
	grep -x "  Read Merges: n/a Write Merges: n/a IO unplugs: 1e+300 Timer unplugs: n/a" \
		bad/summary.txt
'

test_done
