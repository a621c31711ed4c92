#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: the block figures of latency-block between labels'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$TEST_DIRECTORY/lib-compare.sh"

F=$TEST_DIRECTORY/fixtures/compare

# The three results of each label of v2, each given a block object as
# latency-summarize writes it: a bio-based dm-0 (no request figures) over
# vda, 10 s of monitoring.  6.1 writes N requests of 64 KiB (N 1000, 1010,
# 990), 6.2-rc1 N of 8 KiB (8000, 8100, 7900): requests per MiB 16 against
# 128 (+700%), mean request size -87.5%, IO unplugs (one a request) 100/s
# against 800/s; merges per request 3 and Q2C p99 500 us on average on
# both sides (490 to 510): no change.
test_expect_success JQ 'setup: results with block figures' '
	cp -R "$F/v2" v2 && chmod -R u+w v2 &&
	for r in a1:1000:65536:500 a2:1010:65536:510 a3:990:65536:490 \
		b1:8000:8192:505 b2:8100:8192:495 b3:7900:8192:500; do
		IFS=: read -r d n sz q <<-EOF
		$r
		EOF
		jq --argjson n "$n" --argjson sz "$sz" --argjson q "$q" \
			".block = {source: \"tracepoints\", duration_s: 10, devices: [
			{name: \"dm-0\", request_based: false,
			 reads: {completed: 0, completed_bytes: 0, merges: null},
			 writes: {completed: \$n, completed_bytes: (\$n * \$sz), merges: null},
			 unplugs_io: null, q2c_us: {p99: 900}},
			{name: \"vda\", request_based: true,
			 reads: {completed: 0, completed_bytes: 0, merges: 0},
			 writes: {completed: \$n, completed_bytes: (\$n * \$sz), merges: (\$n * 3)},
			 unplugs_io: \$n, q2c_us: {p99: \$q}}]}" \
			"v2/$d/result.json" >tmp.json &&
		mv tmp.json "v2/$d/result.json" || return 1
	done
'

test_expect_success JQ 'the headline names the block figures that changed' '
	latency-compare v2/a1 v2/a2 v2/a3 v2/b1 v2/b2 v2/b3 >out &&
	head -n 1 out >got &&
	echo "6.2-rc1 vs 6.1: elapsed +15.4% (p 0.29, no significant change; could have seen >= 46.7%); changed: majflt +430%, pswpin +210%, requests/MiB +700%, request size -87.5%, IO unplugs/s +700%" >want &&
	test_cmp want got
'

test_expect_success JQ 'the block table and the tests of its figures' '
	sed -n "/^The block layer/,/^\$/p" out >got &&
	cat >want <<-\EOT &&
	The block layer (latency-block, the scratch directory'"'"'s disk), means of the results:
	label     rq/MiB   rq bytes  merges/rq  unplugs/s  Q2C p99 us
	6.1       16.000  65536.000      3.000    100.000     500.000
	6.2-rc1  128.000   8192.000      3.000    800.000     500.000

	EOT
	test_cmp want got &&
	grep -E "^6\.2-rc1  requests/MiB +\+700\.00%\* +<0\.0001 .* results 3\+3$" out &&
	grep -E "^6\.2-rc1  Q2C p99 +\+0\.00% +1\.0000 .* results 3\+3$" out
'

test_expect_success JQ 'JSON: block_<figure>_change_pct, _p, _significant' '
	latency-compare --format=json v2/a1 v2/a2 v2/a3 v2/b1 v2/b2 v2/b3 \
		>out.json &&
	test_json out.json .results[0].block_requests_per_mib 16 &&
	test "$(change_get block_requests_per_mib_change_pct out.json)" = 700 &&
	test "$(change_get block_requests_per_mib_significant out.json)" = true &&
	test "$(change_get block_request_bytes_change_pct out.json)" = -87.5 &&
	test "$(change_get block_unplugs_per_s_significant out.json)" = true &&
	test "$(change_get block_merges_per_request_significant out.json)" = false &&
	test "$(change_get block_q2c_p99_us_change_pct out.json)" = 0 &&
	test "$(change_get block_q2c_p99_us_p out.json)" = 1 &&
	test "$(change_get block_q2c_p99_us_significant out.json)" = false
'

test_expect_success JQ 'CSV, LAVA and KCIDB carry them as figures' '
	latency-compare --format=csv v2/a1 v2/b1 >out.csv &&
	test "$(csv_get block_requests_per_mib 6.2-rc1 out.csv)" = 128 &&
	test "$(csv_get block_request_bytes 6.1 out.csv)" = 65536 &&
	latency-compare --format=lava v2/a1 v2/b1 >out.lava &&
	grep -x "lava-test-case 6_2-rc1.block_requests_per_mib --result pass --measurement 128 --units /MiB" out.lava &&
	grep -x "lava-test-case 6_1.block_q2c_p99_us --result pass --measurement 500 --units us" out.lava &&
	latency-compare --format=kcidb v2/a1 v2/b1 >out.kcidb &&
	test_json out.kcidb "[.tests[] | select(.path == \"latency-tests.block_requests_per_mib\")] | length" 2
'

test_expect_success JQ 'without block figures: no block keys, columns or table' '
	latency-compare --format=json "$F/v2/a1" "$F/v2/b1" >plain.json &&
	test_json plain.json ".results[1].change | has(\"block_requests_per_mib_p\")" false &&
	latency-compare --format=csv "$F/v2/a1" "$F/v2/b1" >plain.csv &&
	! grep -q block plain.csv &&
	latency-compare "$F/v2/a1" "$F/v2/b1" >plain.txt &&
	! grep -q "^The block layer" plain.txt
'

test_expect_success JQ 'a block figure of the wrong type is refused, named' '
	mkdir bad && cp -R v2/a1 bad/a1 &&
	jq ".block.devices[1].writes.completed = \"many\"" v2/a1/result.json \
		>bad/a1/result.json &&
	test_expect_code 1 latency-compare bad/a1 v2/b1 >out 2>err &&
	grep -q "block completed.* is a string, expected a number" err
'

test_done
