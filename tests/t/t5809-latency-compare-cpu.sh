#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: elapsed per user-CPU second on logs, user CPU, a busier machine, interleaved pairs (hand-computed)'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-compare.sh"

# result DIR LABEL RUN... [-- EXTRA]: a format 2 result.json whose runs are
# the JSON objects RUN (without braces); EXTRA members after them.
result() {
	_dir=$1 _label=$2
	shift 2
	_runs='' _extra=''
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		_runs="$_runs${_runs:+,}{$1}"
		shift
	done
	[ $# -eq 0 ] || { shift; _extra=",$*"; }
	mkdir -p "$_dir" &&
	printf '{"format_version":2,"program":"run-test.sh","label":"%s","run_label":"%s","partial":false,"gitk_runs":[%s]%s}\n' \
		"$_label" "$_dir" "$_runs" "$_extra" >"$_dir/result.json"
}

# run E U S [MORE]: one run's members: elapsed, user and sys seconds.
run() {
	printf '"elapsed_s":%s,"user_s":%s,"sys_s":%s%s' "$1" "$2" "$3" "${4:+,$4}"
}

# A: elapsed per user-CPU second 2.0, 2.1, 2.2 computed from the times (a
# result written before the ratios); B: 2.6, 2.7, 2.8 as written.
test_expect_success 'fixtures' '
	result a A "$(run 10 5 1)" "$(run 10.5 5 1)" "$(run 11 5 1)" &&
	result b B "$(run 13 5 1.5 "\"elapsed_per_user\":2.6")" \
		"$(run 13.5 5 1.5 "\"elapsed_per_user\":2.7")" \
		"$(run 14 5 1.5 "\"elapsed_per_user\":2.8")" &&
	result c C "$(run 13 6.5 1)" "$(run 13.5 6.75 1)" "$(run 14 7 1)" &&
	result d D "$(run 10 5 1 "\"runq_s\":1.0,\"others_cpu_s\":5.0")" \
		"$(run 10.5 5 1 "\"runq_s\":1.1,\"others_cpu_s\":5.2")" \
		"$(run 11 5 1 "\"runq_s\":1.2,\"others_cpu_s\":5.4")" &&
	result a2 A "$(run 10 5 1 "\"runq_s\":0.01,\"others_cpu_s\":0.1")" \
		"$(run 10.5 5 1 "\"runq_s\":0.02,\"others_cpu_s\":0.2")" \
		"$(run 11 5 1 "\"runq_s\":0.03,\"others_cpu_s\":0.1")"
'

# By hand: the geometric means are (2.0*2.1*2.2)^(1/3) = 2.098411 and
# 2.698765; their ratio is +28.6099%.  Welch on the logs: df 3.7709,
# p 0.0024407; the 95% interval of the ratio +16.4717..+42.0131%; the
# smallest change seen with 80% power +14.1297%.
test_expect_success JQ 'elapsed per user-CPU second: a ratio of geometric means, on logs' '
	latency-compare --format=json a b >out &&
	near "$(change_get elapsed_per_user_change_pct out)" 28.6099 0.0001 &&
	near "$(change_get elapsed_per_user_mean_p out)" 0.0024407 0.0000001 &&
	test "$(change_get elapsed_per_user_mean_significant out)" = true &&
	near "$(change_get elapsed_per_user_mean_ci_low_pct out)" 16.4717 0.0001 &&
	near "$(change_get elapsed_per_user_mean_ci_high_pct out)" 42.0131 0.0001 &&
	near "$(change_get elapsed_per_user_mean_mde_pct out)" 14.1297 0.0001 &&
	json_get out ".results[].elapsed_per_user_mean" >means &&
	near "$(sed -n 1p means)" 2.098411 0.000001 &&
	near "$(sed -n 2p means)" 2.698765 0.000001 &&
	test "$(change_get lead out)" = "\"elapsed_per_user\"" &&
	test "$(change_get paired out)" = false
'

# sys per user-CPU second 0.2 -> 0.3 (+50%), wait per user-CPU second
# (elapsed - user - sys) / user: 0.8, 0.9, 1.0 -> 1.3, 1.4, 1.5 (+55.56%).
test_expect_success JQ 'sys and off-CPU time per user-CPU second beside it' '
	near "$(change_get sys_per_user_change_pct out)" 50 0.0001 &&
	near "$(change_get wait_per_user_change_pct out)" 55.5556 0.0001 &&
	test "$(change_get wait_per_user_mean_significant out)" = true
'

test_expect_success 'the headline leads with it and names raw elapsed beside it' '
	latency-compare a b >out &&
	sed -n 1p out >line &&
	echo "B vs A: elapsed per user-CPU second +28.6% (95% CI +16.5..+42.0%, p 0.0024, significant), raw elapsed +28.6% (p 0.0018, significant); also changed: sys_per_user +50.0%, wait_per_user +55.6%" >expect &&
	test_cmp expect line &&
	grep -q "^label  *e/user  *change  *(e-runq)/user  *change  *sys/user  *change  *wait/user  *change  *user_s  *change  *runq_s  *change  *others_s  *change$" out
'

test_expect_success 'every format says it: csv columns after the verdict' '
	latency-compare --format=csv a b >out &&
	test "$(csv_get elapsed_per_user_change_pct B out | cut -c1-7)" = 28.6098 &&
	test "$(csv_get paired B out)" = false &&
	test "$(csv_get elapsed_per_user_mean A out | cut -c1-8)" = 2.098411 &&
	latency-compare --format=markdown a b >md &&
	grep -q "^- B vs A: elapsed per user-CPU second +28.6%" md
'

# C: the same elapsed per user-CPU second as A nearly, but 35% more user
# CPU (6.5, 6.75, 7 against 5): raw elapsed alone would call +28.6%.
test_expect_success JQ 'user CPU that differs is said in words' '
	latency-compare a c >out &&
	sed -n 1p out >line &&
	grep -q "; user CPU +35.0% (p 0.0067): the machines (or boots) ran at different speeds, or the kernel changed user-space cost; raw elapsed is not comparable on its own, and a host'\''s speed moves elapsed per user-CPU second too, less (a virtual machine'\''s kernel work slows more than its user work): judge on several results a side, or in pairs (an interleaved run for a knob, latency-vm'\''s paired boots for two kernels)[;]" line &&
	grep -q "^C vs A: elapsed per user-CPU second -4.7% " line &&
	latency-compare --format=json a c >j &&
	test "$(change_get user_cpu_differs j)" = true
'

# D: the same times, but fake-gitk waited 1.0-1.2 s for a CPU (A: 0.01-
# 0.03 s) while other processes used 5 s of CPU a run.
test_expect_success JQ 'a busier machine is named before any kernel change' '
	latency-compare a2 d >out &&
	sed -n 1p out >line &&
	echo "D vs A: the machine was busier on D (other processes'\'' CPU 5.20 s a run against 0.13 s, fake-gitk'\''s wait for a CPU 1.10 s against 0.02 s): not judged as a kernel change; elapsed per user-CPU second +0.0% (95% CI -10.2..+11.4%, p 1, no significant change; could have seen >= 15.6%), raw elapsed +0.0% (p 1), without the wait for a CPU -10.3% (95% CI -19.0..-0.7%, p 0.041, significant)" >expect &&
	test_cmp expect line &&
	latency-compare --format=json a2 d >j &&
	test "$(change_get busier j)" = "\"D\"" &&
	latency-compare --format=json d a2 >j &&
	test "$(change_get busier j)" = "\"D\"" &&
	latency-compare --format=json a X=a2 >j &&
	test "$(change_get busier j)" = null
'

# G waited 1 s of 10-11 s for a CPU, H 3-3.2 s of 12-13.2 s: elapsed per
# user-CPU second +20% (2.0-2.2 against 2.4-2.64), but without the wait
# (1.8, 1.9, 2.0 on both sides) nothing changed.
test_expect_success JQ 'the wait for a CPU taken out beside, where it was 5% or more' '
	result g G "$(run 10 5 1 "\"runq_s\":1")" "$(run 10.5 5 1 "\"runq_s\":1")" \
		"$(run 11 5 1 "\"runq_s\":1")" &&
	result h H "$(run 12 5 1 "\"runq_s\":3")" \
		"$(run 12.6 5 1 "\"runq_s\":3.1")" \
		"$(run 13.2 5 1 "\"runq_s\":3.2")" &&
	latency-compare g h >out &&
	sed -n 1p out >line &&
	grep -q "^H vs G: the machine was busier on H (other processes'\'' CPU - a run against -, fake-gitk'\''s wait for a CPU 3.10 s against 1.00 s): not judged as a kernel change; elapsed per user-CPU second +20.0% (95% CI " line &&
	grep -q ", without the wait for a CPU +0.0% (95% CI [-+0-9.]*\.\.[-+0-9.]*%, p 1, no significant change; could have seen >= " line &&
	latency-compare --format=json g h >j &&
	near "$(change_get elapsed_less_runq_per_user_change_pct j)" 0 0.000001 &&
	near "$(change_get elapsed_per_user_change_pct j)" 20 0.000001 &&
	latency-compare a b >out &&
	! grep -q "without the wait" out
'

test_expect_success 'a busier machine: --fail-if-slower cannot judge' '
	test_expect_code 125 latency-compare --fail-if-slower=1 a2 d >/dev/null 2>err &&
	grep "the machine was busier on D" err
'

# Two arms of one interleaved run: pairs (2.0, 2.2), (2.4, 2.6),
# (2.1, 2.35), (2.3, 2.5).  The logs' differences have mean 0.092804
# and a small spread: +9.7246%, p 0.0010633 on 3 degrees of freedom,
# 95% interval +7.1942..+12.3147%; unpaired, Welch gives p 0.146.
# arm ARM E1 E2 E3 E4: arm ARM (a or b) of the interleaved run P, its
# runs' elapsed per user-CPU second E1 ... E4.
# USER (default 5): every run's user CPU seconds.
arm() {
	_o=$(if [ "$1" = a ]; then echo Pb; else echo Pa; fi)
	_u=${USER_S:-5}
	result "P$1" "P-$1" \
		"$(run 10 "$_u" 1 "\"elapsed_per_user\":$2")" \
		"$(run 12 "$_u" 1 "\"elapsed_per_user\":$3")" \
		"$(run 10.5 "$_u" 1 "\"elapsed_per_user\":$4")" \
		"$(run 11.5 "$_u" 1 "\"elapsed_per_user\":$5")" -- \
		"\"interleave\":{\"name\":\"vm.page-cluster\",\"values\":[\"3\",\"0\"],\"arm\":\"$1\",\"value\":\"x\",\"order\":\"ABBAABBA\",\"seed\":137,\"other\":\"$_o\"}"
}

test_expect_success JQ 'the arms of an interleaved run are tested in pairs' '
	arm a 2.0 2.4 2.1 2.3 &&
	arm b 2.2 2.6 2.35 2.5 &&
	latency-compare --format=json Pa Pb >out &&
	test "$(change_get paired out)" = true &&
	test "$(change_get test out)" = "\"paired\"" &&
	near "$(change_get elapsed_per_user_change_pct out)" 9.7246 0.0001 &&
	near "$(change_get elapsed_per_user_mean_p out)" 0.0010633 0.0000001 &&
	near "$(change_get elapsed_per_user_mean_ci_low_pct out)" 7.1942 0.0001 &&
	near "$(change_get elapsed_per_user_mean_ci_high_pct out)" 12.3147 0.0001 &&
	latency-compare Pa Pb >text &&
	grep -q "^P-b vs P-a (paired, 4 pairs): elapsed per user-CPU second +9.7% (95% CI +7.2..+12.3%, p 0.0011, significant)" text &&
	grep -q "^  paired: the two arms of one interleaved run (vm.page-cluster=3,0, order ABBAABBA)" text
'

# The pairs share the host's speed: user CPU that differs between the
# arms (5 against 6) is the knob's, said so, and the words on the host's
# speed, which unpaired results get, are not said.
test_expect_success JQ 'paired arms whose user CPU differs: no words on the host' '
	mkdir q &&
	(cd q && arm a 2.0 2.4 2.1 2.3 && USER_S=6 arm b 2.2 2.6 2.35 2.5) &&
	latency-compare q/Pa q/Pb >text &&
	sed -n 1p text >line &&
	grep -q "^P-b vs P-a (paired, 4 pairs): .*; user CPU +20.0% (p < 0.0001): the knob changed user-space cost (the pairs shared the machine'\''s speed); raw elapsed is not comparable on its own; also changed" line &&
	! grep "host'\''s speed" line
'

test_expect_success JQ 'results that do not name each other are not paired' '
	sed "s/\"other\":\"Pa\"/\"other\":\"elsewhere\"/" Pb/result.json >x &&
	mkdir -p Pc && mv x Pc/result.json &&
	latency-compare --format=json Pa Pc >out &&
	test "$(change_get paired out)" = false &&
	near "$(change_get elapsed_per_user_mean_p out)" 0.14567 0.00001
'

test_expect_success 'a bad interleave object is an error naming the key' '
	sed "s/\"order\":\"ABBAABBA\"/\"order\":\"AB;rm\"/" Pb/result.json >bad.json &&
	test_expect_code 1 latency-compare Pa bad.json 2>err &&
	grep "^latency-compare: '\''bad.json'\'': \"interleave.order\" is not a string of A and B$" err
'

test_done
