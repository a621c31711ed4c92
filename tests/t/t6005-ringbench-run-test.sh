#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016,SC2034,SC1091,SC1094,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh defines the rest)
test_description='run-test.sh --ringbench: a ringbench pass after the fake-gitk runs'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-run-test.sh"
. "$abs_top_srcdir/tests/t/lib-ringbench.sh"

rt=$abs_top_srcdir/run-test.sh
LATENCY_STATE_DIR=$TRASH_DIRECTORY/state
export LATENCY_STATE_DIR

test_expect_success 'the option is a configuration key' '
	"$rt" --print-config --ringbench "ring -t 3" >config &&
	grep -x "ringbench=ring -t 3" config
'

test_expect_success JQ 'a reduced run with --ringbench: ringbench.json, compared' '
	"$rt" --label=rb --commits=300 --gitk-runs=2 --warmup=1 \
		--no-drop-caches --confine=none --gitk-args=--every=50 \
		--music-args="--songs=1 --song-size=64k" --results=res \
		--ringbench="ring -t 3 -N 50 --warmup 0 -n 2" >out 2>err &&
	json_get res/rb/ringbench.json "[.mode, (.runs | length), .runs[1].tokens_passed] | join(\" \")" >got &&
	echo "ring 2 150" >expect &&
	test_cmp expect got &&
	grep -q "ringbench.*ring -t 3 -N 50" res/rb/commands.log &&
	grep -q "^ringbench (latency-tests)" res/rb/versions &&
	latency-compare --format=csv res/rb >cmp &&
	grep -q "^rb,ring -t 3 --via pipe -w 0us -s 0us,2," cmp
'

# latency-compare reads ringbench.json beside result.json, as it reads
# seqbench.json: the copy in result.json is not counted again.
test_expect_success JQ 'result.json carries ringbench.json, summary.txt a line of it' '
	json_get -S res/rb/result.json .ringbench >got &&
	json_get -S res/rb/ringbench.json . >want &&
	test_cmp want got &&
	rate=$(json_get res/rb/ringbench.json .cycles_per_s) &&
	us=$(json_get res/rb/ringbench.json .us_per_cycle) &&
	echo "ringbench: mode=ring cycles_per_s=$rate us_per_cycle=$us" >want &&
	grep "^ringbench: mode=ring " res/rb/summary.txt >line &&
	cut -d" " -f1-4 line >got &&
	test_cmp want got &&
	grep -q " runs_counted=2 rate_stddev=[0-9.e+-]* rate_cov_pct=[0-9.e+-]* partial=no\$" line &&
	grep -c "^rb,ring -t 3 " cmp >n &&
	echo 1 >expect && test_cmp expect n
'

test_done
