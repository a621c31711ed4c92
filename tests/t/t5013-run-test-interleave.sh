#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='run-test.sh --interleave: A/B runs in randomized pairs in one boot, the knob through the record'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-run-test.sh"

rt=$abs_top_srcdir/run-test.sh
# This script's machine-state record, and a sysfs of its own whose knobs
# the run may change without root (every program reads LATENCY_SYS).
LATENCY_STATE_DIR=$TRASH_DIRECTORY/state
LATENCY_SYS=$TRASH_DIRECTORY/sys
export LATENCY_STATE_DIR LATENCY_SYS
ZSWAP=/sys/module/zswap/parameters/enabled

test_expect_success 'setup: a fake sysfs with a zswap switch' '
	mkdir -p sys/module/zswap/parameters sys/kernel/mm &&
	echo N >"sys${ZSWAP#/sys}"
'

test_expect_success 'the order: pairs AB or BA, seeded, the same for a seed' '
	latency-plan --interleave-order=6 --seed=137 >o1 &&
	latency-plan --interleave-order=6 --seed=137 >o2 &&
	test_cmp o1 o2 &&
	echo "order=BABABAABABBA" >expect &&
	test_cmp expect o1 &&
	latency-plan --interleave-order=6 --seed=1 >o3 &&
	! test_cmp o1 o3 >/dev/null &&
	sed -e "s/^order=//" -e "s/\(..\)/\1 /g" o3 | tr " " "\n" | grep . >pairs &&
	test_line_count = 6 pairs &&
	! grep -v -x -e AB -e BA pairs &&
	test_expect_code 2 latency-plan --interleave-order=0 2>err &&
	test_expect_code 2 latency-plan --seed=3 --result-dir=. 2>err &&
	grep -x "latency-plan: --seed goes with --interleave-order" err
'

# A small run: 3000 commits (a load of about 0.1 s, so that its user CPU
# time is not lost between clock ticks), one warmup, two pairs.
test_expect_success 'a reduced interleaved run leaves two arms' '
	"$rt" --label=ab --commits=3000 --gitk-runs=2 --warmup=1 \
		--no-drop-caches --confine=none --gitk-args=--every=500 \
		--music-args="--songs=1 --song-size=64k" --results=res \
		--interleave=$ZSWAP=N,Y >out 2>err &&
	grep "results in $PWD/res/ab-a and $PWD/res/ab-b" err &&
	test -s res/ab-a/summary.txt && test -s res/ab-b/summary.txt &&
	grep -q -x "ab-b Elapsed:[0-9:.]*(stddev:[0-9.]*) Failures:[0-9]*" res/ab-b/summary.txt &&
	for f in fake-gitk-1.json fake-gitk-2.json fake-gitk-2.snap-after.json \
		kmsg.json vmstat.json config sysinfo/before/kernel; do
		test -s res/ab-a/$f && test -s res/ab-b/$f ||
			test_fail "missing: $f" || return 1
	done &&
	test -s res/ab-a/warmup-1.json && ! test -e res/ab-b/warmup-1.json
'

test_expect_success 'the knob is back as it was; the record is gone' '
	test "$(cat "sys${ZSWAP#/sys}")" = N &&
	! test -e state/state &&
	grep -q "latency-machine set --owner=[0-9]* $ZSWAP Y$" res/ab-a/commands.log ||
	grep -q "interleave: $ZSWAP=N (arm a), Y (arm b); order BABA (seed 137)" res/ab-a/notes
'

test_expect_success JQ 'each arm: its interleave object and its runs'\'' pairs' '
	json_get res/ab-a/result.json ".interleave | tojson" >a &&
	echo "{\"name\":\"$ZSWAP\",\"values\":[\"N\",\"Y\"],\"arm\":\"a\",\"value\":\"N\",\"order\":\"BABA\",\"seed\":137,\"other\":\"ab-b\"}" >expect &&
	test_cmp expect a &&
	json_get res/ab-b/result.json ".label, .interleave.arm, .interleave.value, .interleave.other, ([.gitk_runs[].pair] | map(tostring) | join(\",\")), .runs.precision_of" >b &&
	printf "%s\n" ab-b b Y ab-a 1,2 paired_elapsed_per_user >expect &&
	test_cmp expect b &&
	test_json res/ab-a/result.json "[.gitk_runs[] | (.elapsed_per_user | type) == \"number\" and .wait_s >= 0 and (.others_cpu_s | type) == \"number\"] | all" true
'

test_expect_success JQ 'latency-compare tests the two arms in pairs' '
	latency-compare --format=json res/ab-a res/ab-b >cmp &&
	test_json cmp ".results[1].change | [.paired, .test] | tojson" \
		"[true,\"paired\"]" &&
	latency-compare res/ab-a res/ab-b >text &&
	grep -q "^ab-b vs ab-a (paired, 2 pairs): " text
'

test_expect_success 'a knob this machine lacks is refused before any run (exit 3)' '
	test_expect_code 3 "$rt" --label=nk --commits=300 --confine=none \
		--results=res2 --interleave=/sys/kernel/mm/no-such-knob=1,2 \
		>out 2>err &&
	grep "set: no knob ./sys/kernel/mm/no-such-knob. here" err &&
	! test -e res2/nk-a && ! test -e state/state
'

test_expect_success 'a knob whose value cannot be put back is refused before any run' '
	printf "a\nb\n" >sys/kernel/mm/two-lines &&
	test_expect_code 3 "$rt" --label=tl --commits=300 --confine=none \
		--results=res2 --interleave=/sys/kernel/mm/two-lines=x,y \
		>out 2>err &&
	grep "spans lines" err &&
	grep "^run-test.sh: cannot set /sys/kernel/mm/two-lines here" err &&
	printf "a\nb\n" >expect && test_cmp expect sys/kernel/mm/two-lines &&
	! test -e res2/tl-a && ! test -e state/state
'

test_expect_success 'hostile knob names are refused before any work (exit 2)' '
	for n in /sys/kernel/mm/../../power/state /sys/power/state \
		vm/../kernel/core_pattern kernel.core_pattern "/sys/kernel/mm/a
b"; do
		test_expect_code 2 "$rt" --confine=none --results=res3 \
			"--interleave=$n=1,2" >out 2>err || return 1
		grep -q "^run-test.sh: invalid knob " err || return 1
	done &&
	! test -e res3 && ! test -e state/state
'

# run_json DIR N ELAPSED USER: the fake-gitk JSON of run N of an arm.
run_json() {
	printf '{"iterations":[{"elapsed_s":%s,"user_s":%s,"sys_s":0.1}]}\n' \
		"$3" "$4" >"$1/fake-gitk-$2.json"
}

# arm_facts DIR ARM RUNS: an arm of an auto run, RUNS done.
arm_facts() {
	mkdir -p "$1" &&
	printf "%s\n" "label=x-$2" "run_label=x-$2" "runs_done=$3" \
		"interleave_arm=$2" >"$1/run.facts" &&
	printf "%s\n" gitk-runs=auto precision=2 max-runs=6 >"$1/config"
}

# By hand: pairs of elapsed per user-CPU second 2.00/2.60, 2.20/2.86,
# 1.90/2.47, 2.10/2.73, 1.80/2.34 have one ratio, 1.3: an interval of
# zero width, taken from 5 pairs on, not from 4.
test_expect_success '--gitk-runs=auto: the stop rule is on the paired ratio' '
	arm_facts pa a 2 && arm_facts pb b 2 &&
	run_json pa 1 10 5 && run_json pb 1 13 5 &&
	run_json pa 2 11 5 && run_json pb 2 14.3 5 &&
	latency-plan --stop-rule --result-dir=pa --paired-dir=pb >s &&
	echo "stop=" >expect && test_cmp expect s &&
	arm_facts pa a 4 && arm_facts pb b 4 &&
	run_json pa 3 9.5 5 && run_json pb 3 12.35 5 &&
	run_json pa 4 10.5 5 && run_json pb 4 13.65 5 &&
	latency-plan --stop-rule --result-dir=pa --paired-dir=pb >s &&
	echo "stop=" >expect && test_cmp expect s &&
	arm_facts pa a 5 && arm_facts pb b 5 &&
	run_json pa 5 9 5 && run_json pb 5 11.7 5 &&
	latency-plan --stop-rule --result-dir=pa --paired-dir=pb >s &&
	echo "stop=precision" >expect && test_cmp expect s &&
	run_json pb 5 20 5 &&
	latency-plan --stop-rule --result-dir=pa --paired-dir=pb >s &&
	echo "stop=" >expect && test_cmp expect s &&
	arm_facts pa a 6 && arm_facts pb b 6 &&
	run_json pa 6 9 5 && run_json pb 6 9 5 &&
	latency-plan --stop-rule --result-dir=pa --paired-dir=pb >s &&
	echo "stop=max-runs" >expect && test_cmp expect s
'

test_done
