#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: the boots of a latency-vm --pairs series, read'
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

test_expect_success 'setup: the six boots of a series' '
	series b 2.30 2.00 2.02 2.52 2.21 2.23
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

test_expect_success 'a seed of 64 bits is a seed' '
	mkdir -p big &&
	for d in a1 a2 a3 b1 b2 b3; do
		mkdir -p big/$d &&
		sed "s/\"seed\":137/\"seed\":18446744073709551615/" b/$d/result.json >big/$d/result.json || return 1
	done &&
	latency-compare big/a1 big/a2 big/a3 big/b1 big/b2 big/b3 >out &&
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
	! grep -q "boots\|paired" out
'

test_done
