#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: the boots of a latency-vm --pairs series tested in pairs (hand-computed)'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-compare.sh"

KA=6.1.0-28-amd64
KB=6.1.0-28-rt-amd64
SERIES=20261205T050102Z-12345

# boot DIR ARM PAIR R U [BOOTS]: the result.json of one boot of the series
# (3 pairs, order ABBAAB, seed 137), arm ARM (a or b) of pair PAIR.  Its
# two runs take R seconds per user-CPU second, with U - 0.1 and U + 0.1
# user seconds: the result's elapsed per user-CPU second is R, its user
# CPU U and its elapsed R * U.  BOOTS replaces the "boots" object's
# members (JSON text without braces); SERIES overrides the series.
boot() {
	_label=$KA
	[ "$2" = a ] || _label=$KB
	_b=${6-"\"series\":\"${SERIES_NAME:-$SERIES}\",\"pairs\":3,\"order\":\"ABBAAB\",\"seed\":137,\"pair\":$3,\"arm\":\"$2\",\"labels\":[\"$KA\",\"$KB\"]"}
	mkdir -p "$1" &&
	# In the environment: awk -v would read the escapes of the JSON.
	BOOTS=$_b awk -v r="$4" -v u="$5" -v l="$_label" -v d="$1" 'BEGIN {
		printf "{\"format_version\":2,\"program\":\"run-test.sh\",\"label\":\"%s\",\"run_label\":\"%s\",\"partial\":false,\"gitk_runs\":[", l, d
		for (i = 0; i < 2; i++) {
			x = u - 0.1 + 0.2 * i
			printf "%s{\"elapsed_s\":%.10g,\"user_s\":%.10g,\"elapsed_per_user\":%s}", i ? "," : "", r * x, x, r
		}
		printf "],\"vm\":{\"accel\":\"kvm\",\"boots\":{%s}}}\n", ENVIRON["BOOTS"]
	}' >"$1/result.json"
}

# series DIR RA1 RA2 RA3 RB1 RB2 RB3: the six boots of a series under DIR
# (DIR/a1 ... DIR/b3), arm a's elapsed per user-CPU second RA1..RA3 and
# arm b's RB1..RB3.  The host was slower for pair 1 (6 user-CPU seconds a
# run against 5 afterwards, as measured: user CPU -17%) and arm b used a
# little more or less user CPU: a 6.0, 5.0, 5.02; b 6.05, 4.98, 5.0.
series() {
	boot "$1/a1" a 1 "$2" 6.0 && boot "$1/a2" a 2 "$3" 5.0 &&
	boot "$1/a3" a 3 "$4" 5.02 &&
	boot "$1/b1" b 1 "$5" 6.05 && boot "$1/b2" b 2 "$6" 4.98 &&
	boot "$1/b3" b 3 "$7" 5.0
}

# (a) No difference, a host step between pair 1 and pairs 2-3 that moved
# both arms alike: a 2.09, 2.00, 2.01; b 2.10, 1.99, 2.02.
# Logs of b/a in each pair: 0.004773, -0.005013, 0.004963; mean
# m = 0.0015745, sd s = 0.0057050, se = s/sqrt(3) = 0.0032938,
# t = 0.47802 on 2 df, where the two-sided p is 1 - t/sqrt(t^2 + 2) =
# 0.67980.  exp(m) - 1 = +0.1576%.  t(0.975, 2) = 0.95/sqrt(0.04875) =
# 4.30265 and t(0.8, 2) = 0.6/sqrt(0.32) = 1.06066: mde exp(5.36331 * se)
# - 1 = 1.7824%, 95% CI exp(m -+ 4.30265 * se) - 1 = -1.2519..+1.5872%.
# Raw elapsed (R * U): 12.54, 10.0, 10.0902 against 12.705, 9.9102,
# 10.1: differences 0.165, -0.0898, 0.0098, mean 0.028333 of a's
# 10.87673 (+0.2605%), t 0.3826, p 0.739.  Unpaired, Welch on the logs
# of the result means (se 0.021230 on 3.9223 df, t(0.975) 2.79826,
# t(0.8) 0.94313) could have seen >= 8.27% only: (e) below.
test_expect_success JQ '(a) a host step shared by the pairs: no change, and it says so' '
	series a 2.09 2.00 2.01 2.10 1.99 2.02 &&
	latency-compare a/a1 a/a2 a/a3 a/b1 a/b2 a/b3 >out &&
	grep "^$KB vs $KA" out >line &&
	echo "$KB vs $KA (paired boots, 3 pairs): elapsed per user-CPU second +0.2% (95% CI -1.3..+1.6%, p 0.68, no significant change; could have seen >= 1.8%), raw elapsed +0.3% (p 0.74)" >expect &&
	test_cmp expect line &&
	grep -A1 "^$KB vs $KA" out | sed 1d >note &&
	echo "  paired boots: 3 pairs of $KA and $KB booted in turn (series $SERIES, order ABBAAB, seed 137): each pair'\''s boots share the host'\''s speed of their time" >expect &&
	test_cmp expect note &&
	! grep "between-boot spread unknown" out &&
	latency-compare --format=json a/a1 a/a2 a/a3 a/b1 a/b2 a/b3 >j &&
	test "$(change_get paired j)" = true &&
	test "$(change_get pairing j)" = "\"boots\"" &&
	test "$(change_get test j)" = "\"paired-boots\"" &&
	test "$(change_get between_spread_known j)" = true &&
	near "$(change_get elapsed_per_user_change_pct j)" 0.15757 0.0001 &&
	near "$(change_get elapsed_per_user_mean_p j)" 0.679801 0.000001 &&
	near "$(change_get elapsed_per_user_mean_mde_pct j)" 1.7824 0.0001 &&
	near "$(change_get elapsed_per_user_mean_ci_low_pct j)" -1.2519 0.0001 &&
	near "$(change_get elapsed_per_user_mean_ci_high_pct j)" 1.5872 0.0001 &&
	near "$(change_get elapsed_change_pct j)" 0.26049 0.0001 &&
	near "$(change_get elapsed_mean_s_p j)" 0.739116 0.000001
'

test_expect_success '(a) every format says which pairing, and the tests table its pairs' '
	latency-compare --format=csv a/a1 a/a2 a/a3 a/b1 a/b2 a/b3 >csv &&
	test "$(csv_get paired $KB csv)" = true &&
	test "$(csv_get pairing $KB csv)" = boots &&
	test "$(csv_get test $KB csv)" = paired-boots &&
	test "$(csv_get pairing $KA csv)" = "" &&
	grep -q "^$KB  *elapsed_per_user  *+0.16%  *0.6798  *1.78%  *paired-boots 3 pairs$" out
'

# (b) Arm b is 10% slower, with the same host step: a 2.30, 2.00, 2.02;
# b 2.52, 2.21, 2.23.  Logs of b/a: 0.091350, 0.099845, 0.098904; mean
# 0.096700, sd 0.0046567, se 0.0026885, t 35.965 on 2 df, p = 1 -
# t/sqrt(t^2 + 2) = 0.00077223.  +10.1530%, 95% CI exp(0.0967 -+ 4.30265
# * se) - 1 = +8.8860..+11.4347%.  Raw elapsed: differences 1.446,
# 1.0058, 1.0096, mean 1.1538 of a's 11.31347 (+10.1985%), sd 0.25302,
# t 7.8983, p 0.015659.  Unpaired, Welch on the logs of the result
# means: t 1.5738 on 3.985 df, p 0.193: the host's step hides it.
test_expect_success JQ '(b) a real +10% through a host step: significant in pairs' '
	series b 2.30 2.00 2.02 2.52 2.21 2.23 &&
	latency-compare b/a1 b/b1 b/a2 b/b2 b/a3 b/b3 >out &&
	grep "^$KB vs $KA" out >line &&
	echo "$KB vs $KA (paired boots, 3 pairs): elapsed per user-CPU second +10.2% (95% CI +8.9..+11.4%, p 0.00077, significant), raw elapsed +10.2% (p 0.016, significant)" >expect &&
	test_cmp expect line &&
	latency-compare --format=json b/a1 b/b1 b/a2 b/b2 b/a3 b/b3 >j &&
	near "$(change_get elapsed_per_user_change_pct j)" 10.1530 0.0001 &&
	near "$(change_get elapsed_per_user_mean_p j)" 0.00077223 0.0000001 &&
	near "$(change_get elapsed_change_pct j)" 10.1985 0.0001 &&
	near "$(change_get elapsed_mean_s_p j)" 0.0156592 0.000001 &&
	test "$(change_get changed j | tr -d " \n")" = "[\"elapsed_per_user\",\"elapsed\"]"
'

test_expect_success '(b) either label may be the baseline' '
	latency-compare b/b1 b/b2 b/b3 b/a1 b/a2 b/a3 >out &&
	grep -q "^$KA vs $KB (paired boots, 3 pairs): elapsed per user-CPU second -9.2% (95% CI -10.3..-8.2%, p 0.00077, significant)" out &&
	grep -q "^  paired boots: 3 pairs of $KA and $KB booted in turn" out
'

test_expect_success '(b) --fail-if-slower judges on the pairs' '
	test_expect_code 1 latency-compare --fail-if-slower=5 b/a1 b/a2 b/a3 b/b1 b/b2 b/b3 >/dev/null 2>err &&
	grep -q "^latency-compare: $KB is +10.15% against $KA in elapsed per user-CPU second (p = 0.0007722): slower$" err
'

# (c) Pair 3's boot of arm b failed and left no result: pairs 1 and 2.
# Logs of b/a: 0.091350, 0.099845; mean 0.095598, sd 0.0060070, se
# 0.0042476, t 22.506 on 1 df, p = 1 - 2/pi atan(t) = 0.028269;
# +10.0316%.
test_expect_success JQ '(c) a missing boot: its pair is left out, and said' '
	latency-compare b/a1 b/a2 b/a3 b/b1 b/b2 >out &&
	grep -q "^$KB vs $KA (paired boots, 2 pairs): elapsed per user-CPU second +10.0% (95% CI +4.3..+16.1%, p 0.028, significant)" out &&
	grep -A2 "^$KB vs $KA" out | sed 1d >notes &&
	cat >expect <<-EOF &&
	  paired boots: 2 pairs of $KA and $KB booted in turn (series $SERIES, order ABBAAB, seed 137): each pair'\''s boots share the host'\''s speed of their time
	  1 pair left out: only one of its boots is among the results
	EOF
	test_cmp expect notes &&
	latency-compare --format=json b/a1 b/a2 b/a3 b/b1 b/b2 >j &&
	near "$(change_get elapsed_per_user_mean_p j)" 0.0282689 0.000001 &&
	near "$(change_get elapsed_per_user_change_pct j)" 10.0316 0.0001
'

test_expect_success '(c) a partial result still pairs, marked partial' '
	mkdir -p p &&
	sed "s/\"partial\":false/\"partial\":true/" b/b3/result.json >p/result.json &&
	latency-compare b/a1 b/a2 b/a3 b/b1 b/b2 p >out &&
	grep -q "^$KB \[partial\] vs $KA (paired boots, 3 pairs): elapsed per user-CPU second +10.2% (95% CI +8.9..+11.4%, p 0.00077, significant)" out
'

test_expect_success JQ '(d) one pair only: not paired, judged on the runs' '
	latency-compare b/a1 b/b1 >out &&
	grep "^$KB vs $KA" out >line &&
	grep -q "^$KB vs $KA: elapsed per user-CPU second +9.6% " line &&
	! grep -q "paired" line &&
	grep -A1 "^$KB vs $KA" out | sed 1d >note &&
	echo "  boots not paired: 1 complete pair of series $SERIES, 2 needed" >expect &&
	test_cmp expect note &&
	grep -q "^between-boot spread unknown" out &&
	latency-compare --format=json b/a1 b/b1 >j &&
	test "$(change_get paired j)" = false &&
	test "$(change_get pairing j)" = null &&
	test "$(change_get test j)" = "\"runs\""
'

# (e) The data of (b) with arm b from another series: Welch on the result
# means' logs (as with several results of each label), p 0.19295; the
# data of (a) so: p 0.94451, mde 8.27%.
test_expect_success JQ '(e) results of two series are not paired' '
	SERIES_NAME=20261205T070000Z-999 series ea 2.09 2.00 2.01 2.10 1.99 2.02 &&
	latency-compare a/a1 a/a2 a/a3 ea/b1 ea/b2 ea/b3 >out &&
	grep -q "^$KB vs $KA: elapsed per user-CPU second +0.2% (95% CI [-+0-9.]*\.\.[-+0-9.]*%, p 0.94, no significant change; could have seen >= 8.3%)" out &&
	SERIES_NAME=20261205T070000Z-999 series e 2.30 2.00 2.02 2.52 2.21 2.23 &&
	latency-compare b/a1 b/a2 b/a3 e/b1 e/b2 e/b3 >out &&
	grep "^$KB vs $KA" out >line &&
	grep -q "^$KB vs $KA: elapsed per user-CPU second +10.2% (95% CI [-+0-9.]*\.\.[-+0-9.]*%, p 0.19, no significant change; could have seen >= " line &&
	grep -A2 "^$KB vs $KA" out | sed 1,2d >note &&
	echo "  boots not paired: the results of $KA and $KB are not of one series" >expect &&
	test_cmp expect note &&
	latency-compare --format=json b/a1 b/a2 b/a3 e/b1 e/b2 e/b3 >j &&
	test "$(change_get pairing j)" = null &&
	test "$(change_get test j)" = "\"results\"" &&
	near "$(change_get elapsed_per_user_mean_p j)" 0.192954 0.000001
'

test_expect_success '(e) a pair twice in one label is not paired either' '
	latency-compare b/a1 b/a2 b/a3 b/b1 b/b2 b/b2 >out &&
	grep -q "^  boots not paired: pair 2 of series $SERIES is twice among the results of one label$" out
'

# User CPU about 5% higher on arm b in every pair (6.3, 5.26, 5.27
# against 6.0, 5.0, 5.02), elapsed per user-CPU second as in (b).  User
# CPU: differences 0.3, 0.26, 0.25, mean 0.27 of a's 5.34 (+5.06%), sd
# sqrt(0.0007), t 17.676, p 1 - t/sqrt(t^2 + 2) = 0.0032.  Raw elapsed:
# 15.876, 11.6246, 11.7521 against 13.8, 10.0, 10.1404, differences
# 2.076, 1.6246, 1.6117, mean 1.77077 of 11.31347 (+15.65%), p 0.0074.
# The words for pairs of boots, and none on a host's speed.
test_expect_success '(b) user CPU that differs within pairs is said in words' '
	boot u/a1 a 1 2.30 6.0 && boot u/a2 a 2 2.00 5.0 &&
	boot u/a3 a 3 2.02 5.02 && boot u/b1 b 1 2.52 6.3 &&
	boot u/b2 b 2 2.21 5.26 && boot u/b3 b 3 2.23 5.27 &&
	latency-compare u/a1 u/a2 u/a3 u/b1 u/b2 u/b3 >out &&
	grep "^$KB vs $KA" out >line &&
	echo "$KB vs $KA (paired boots, 3 pairs): elapsed per user-CPU second +10.2% (95% CI +8.9..+11.4%, p 0.00077, significant), raw elapsed +15.7% (p 0.0074, significant); user CPU +5.1% (p 0.0032): the kernel changed user-space cost, or the host'\''s speed moved within pairs; raw elapsed is not comparable on its own" >expect &&
	test_cmp expect line
'

# hostile NAME MEMBERS WANT: a boot of arm a whose "boots" object is
# MEMBERS; latency-compare refuses it with exactly WANT after the file.
hostile() {
	boot "h/$1" a 1 2.0 5.0 "$2" &&
	test_expect_code 1 latency-compare "h/$1" b/b1 >out 2>err &&
	! test -s out &&
	printf "latency-compare: 'h/%s/result.json': %s\n" "$1" "$3" >want &&
	test_cmp want err
}

# The members before the seed, and before the pair.
OK3="\"series\":\"$SERIES\",\"pairs\":3,\"order\":\"ABBAAB\""
OK="$OK3,\"seed\":137"

test_expect_success '(f) a hostile boots object is refused, naming the member' '
	hostile obj "" "missing \"vm.boots.series\"" &&
	mkdir -p h/str && sed "s/\"boots\":{[^}]*}/\"boots\":\"x\"/" b/a1/result.json >h/str/result.json &&
	test_expect_code 1 latency-compare h/str b/b1 2>err &&
	echo "latency-compare: '\''h/str/result.json'\'': \"vm.boots\" is a string, expected an object" >want &&
	test_cmp want err &&
	hostile series-num "\"series\":7,\"pairs\":3" "\"vm.boots.series\" is a number, expected a string" &&
	hostile series-nl "\"series\":\"a\\nb\"" "\"vm.boots.series\" holds a byte that is not printable ASCII" &&
	hostile series-esc "\"series\":\"a\\u001b[31m\"" "\"vm.boots.series\" holds a byte that is not printable ASCII" &&
	hostile series-nul "\"series\":\"a\\u0000b\"" "\"vm.boots.series\" holds a byte that is not printable ASCII" &&
	hostile series-empty "\"series\":\"\"" "\"vm.boots.series\" is empty" &&
	hostile series-long "\"series\":\"$(printf "%0101d" 0)\"" "\"vm.boots.series\" is longer than 100 bytes" &&
	hostile pairs-str "\"series\":\"s\",\"pairs\":\"3\"" "\"vm.boots.pairs\" is a string, expected a number" &&
	hostile pairs-0 "\"series\":\"s\",\"pairs\":0" "\"vm.boots.pairs\" is 0, expected a whole number 1 to 100000" &&
	hostile pairs-half "\"series\":\"s\",\"pairs\":1.5" "\"vm.boots.pairs\" is 1.5, expected a whole number 1 to 100000" &&
	hostile order-ab "\"series\":\"s\",\"pairs\":3,\"order\":\"ABBAAC\"" "\"vm.boots.order\" is not 3 pairs of AB or BA" &&
	hostile order-aa "\"series\":\"s\",\"pairs\":3,\"order\":\"ABAABB\"" "\"vm.boots.order\" is not 3 pairs of AB or BA" &&
	hostile order-len "\"series\":\"s\",\"pairs\":3,\"order\":\"ABBA\"" "\"vm.boots.order\" is not 3 pairs of AB or BA" &&
	hostile seed-null "$OK3,\"seed\":null" "\"vm.boots.seed\" is null, expected a number" &&
	hostile seed-neg "$OK3,\"seed\":-1" "\"vm.boots.seed\" is -1, expected a whole number 0 to 1.84467e+19" &&
	hostile pair-0 "$OK,\"pair\":0" "\"vm.boots.pair\" is 0, expected a whole number 1 to 3" &&
	hostile pair-4 "$OK,\"pair\":4" "\"vm.boots.pair\" is 4, expected a whole number 1 to 3" &&
	hostile arm-c "$OK,\"pair\":1,\"arm\":\"c\"" "\"vm.boots.arm\" is neither \"a\" nor \"b\"" &&
	hostile arm-ab "$OK,\"pair\":1,\"arm\":\"ab\"" "\"vm.boots.arm\" is neither \"a\" nor \"b\"" &&
	hostile arm-num "$OK,\"pair\":1,\"arm\":1" "\"vm.boots.arm\" is a number, expected a string" &&
	hostile labels-one "$OK,\"pair\":1,\"arm\":\"a\",\"labels\":[\"$KA\"]" "\"vm.boots.labels\" is not two labels" &&
	hostile labels-num "$OK,\"pair\":1,\"arm\":\"a\",\"labels\":[\"$KA\",5]" "\"vm.boots.labels[1]\" is a number, expected a string" &&
	hostile labels-str "$OK,\"pair\":1,\"arm\":\"a\",\"labels\":\"$KA\"" "\"vm.boots.labels\" is a string, expected an array" &&
	hostile label-arm "$OK,\"pair\":1,\"arm\":\"a\",\"labels\":[\"$KB\",\"$KA\"]" "\"label\" is not \"vm.boots.labels[0]\", the label of arm a"
'

test_expect_success '(e) results of both arms in one label are not paired' '
	latency-compare X=b/a1 X=b/b2 X=b/a3 Y=b/b1 Y=b/a2 Y=b/b3 >out &&
	grep -q "^Y vs X: elapsed per user-CPU second " out &&
	grep -q "^  boots not paired: the results of X and Y are not one arm each of series $SERIES$" out
'

test_expect_success 'a seed of 64 bits is a seed' '
	mkdir -p big &&
	for d in a1 a2 a3 b1 b2 b3; do
		mkdir -p big/$d &&
		sed "s/\"seed\":137/\"seed\":18446744073709551615/" b/$d/result.json >big/$d/result.json || return 1
	done &&
	latency-compare big/a1 big/a2 big/a3 big/b1 big/b2 big/b3 >out &&
	grep -q "^$KB vs $KA (paired boots, 3 pairs): " out &&
	hostile seed-big "$OK3,\"seed\":18446744073709600000" "\"vm.boots.seed\" is 1.84467e+19, expected a whole number 0 to 1.84467e+19"
'

test_expect_success 'boots null or absent: not a series' '
	mkdir -p n1 n2 &&
	sed "s/\"boots\":{[^}]*}/\"boots\":null/" b/a1/result.json >n1/result.json &&
	sed "s/,\"boots\":{[^}]*}//" b/b1/result.json >n2/result.json &&
	latency-compare n1 n2 >out &&
	grep -q "^$KB vs $KA: elapsed per user-CPU second +9.6% " out &&
	! grep -q "boots" out &&
	latency-compare b/a1 b/a2 b/a3 b/b2 b/b3 n2 >out &&
	grep -q "^$KB vs $KA: elapsed per user-CPU second +10.2% (95% CI [-+0-9.]*\.\.[-+0-9.]*%, p 0.19, " out &&
	! grep -v "^Tests (" out | grep -q "boots\|paired"
'

test_expect_success JQ 'KCIDB tests say which boot of which series' '
	latency-compare --format=kcidb b/b2 >k &&
	test_json k "[.tests[].environment.misc | [.boots_series, .boots_pair, .boots_arm]] | unique | tojson" \
		"[[\"$SERIES\",2,\"b\"]]" &&
	latency-compare --format=kcidb n2 >k &&
	test_json k "[.tests[].environment.misc | has(\"boots_series\")] | unique | tojson" "[false]"
'

test_done
