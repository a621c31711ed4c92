#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: the state of each figure, worse, better, same or inconclusive (hand-computed)'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# result DIR LABEL E...: a format 2 result.json with fake-gitk runs of
# E... seconds, no page allocation failure.
result() {
	_dir=$1 _label=$2
	shift 2
	_runs=''
	for _e; do
		_runs="$_runs${_runs:+,}{\"elapsed_s\":$_e}"
	done
	mkdir -p "$_dir" &&
	printf '{"format_version":2,"program":"run-test.sh","label":"%s","run_label":"%s","partial":false,"gitk_runs":[%s],"failures":0}\n' \
		"$_label" "$_dir" "$_runs" >"$_dir/result.json"
}

# The line of FIGURE of LABEL in compare-states' output OUT.
state_of() {
	grep "^$1 $2 " "$3"
}

# Runs of one result a side against B (10, 11, 12 s: mean 11, sd 1).
# Welch, equal variances: se = sqrt(1/3 + 1/3) = 0.816497 on 4 df,
# t(0.975, 4) = 2.776445, t(0.8, 4) = 0.940965: the 95% CI is the
# difference -+2.266966 s, the MDE 3.717410 * se = 3.035294 s = 27.59%
# of 11 s.
# SLOW (20, 21, 22): +10 s = +90.91%, CI 70.30..111.52%: worse.
# FAST (5, 6, 7): -5 s = -45.45%, CI -66.06..-24.85%: better.
# SAME (10, 11, 12): 0, CI -20.61..+20.61%, within +-27.59%: same.
# WIDE (11, 13, 15; sd 2): +2 s = +18.18%, se = sqrt(1/3 + 4/3) =
# 1.290994 on 50/17 = 2.94 df (Welch), t 1.549, p 0.22; the CI's upper
# end 2 + t(0.975) se lies beyond the MDE (t(0.975) + t(0.8)) se as
# 2 s > t(0.8, 2.94) se = 0.98 * 1.29 s: inconclusive, more runs.
# ONCE (30, one run): +172.7%, untested: inconclusive, more runs.
# failures 0 against 0 on one result each: a count a result, untested:
# inconclusive, more results (boots).
test_expect_success 'runs of one result: worse, better, same, inconclusive' '
	result b B 10 11 12 && result slow SLOW 20 21 22 &&
	result fast FAST 5 6 7 && result same SAME 10 11 12 &&
	result wide WIDE 11 13 15 && result once ONCE 30 &&
	compare-states b slow fast same wide once >out &&
	cat >expect <<-\EOF &&
	SLOW elapsed lower worse - delta=90.91 ci=70.3..111.5 mde=27.59
	FAST elapsed lower better - delta=-45.45 ci=-66.06..-24.85 mde=27.59
	SAME elapsed lower same - delta=0 ci=-20.61..20.61 mde=27.59
	ONCE elapsed lower inconclusive runs delta=172.7 ci=nan..nan mde=nan
	EOF
	grep -v -e "^WIDE" -e " failures " out >got &&
	test_cmp expect got &&
	state_of WIDE elapsed out >got &&
	grep "^WIDE elapsed lower inconclusive runs delta=18.18 " got &&
	state_of SLOW failures out >got &&
	echo "SLOW failures lower inconclusive boots delta=0 ci=nan..nan mde=nan" >expect &&
	test_cmp expect got
'

# Two results a label: the result means.  A: 11 and 13 (runs 10-12,
# 12-14); N: 14 and 16 (13-15, 15-17).  Welch on the means: +3 s of 12 =
# +25%, se = sqrt(2/2 + 2/2) = 1.414214 on 2 df, t 2.1213, p = 1 -
# t/sqrt(t^2 + 2) = 0.168; t(0.975, 2) = 4.302652, t(0.8, 2) = 1.060660:
# CI 3 -+ 6.084904 s = -25.71..+75.71%, MDE 7.584838 s = 63.21%:
# inconclusive, more boots.  failures 0 in every result on both sides:
# nothing moved, same.
test_expect_success 'results of two boots a label: inconclusive, more boots' '
	result a1 A 10 11 12 && result a2 A 12 13 14 &&
	result n1 N 13 14 15 && result n2 N 15 16 17 &&
	compare-states a1 a2 n1 n2 >out &&
	cat >expect <<-\EOF &&
	N elapsed lower inconclusive boots delta=25 ci=-25.71..75.71 mde=63.21
	N failures lower same - delta=0 ci=nan..nan mde=nan
	EOF
	test_cmp expect out
'

KA=6.1.0-28-amd64
KB=6.1.0-28-rt-amd64

# boot DIR ARM PAIR R: a boot of a latency-vm --pairs series (3 pairs,
# order ABBAAB, seed 137), arm ARM of pair PAIR, whose two runs took R
# seconds per user-CPU second with 4.9 and 5.1 user seconds.
boot() {
	_label=$KA
	[ "$2" = a ] || _label=$KB
	mkdir -p "$1" &&
	awk -v r="$4" -v l="$_label" -v d="$1" -v arm="$2" -v pair="$3" \
		-v ka="$KA" -v kb="$KB" 'BEGIN {
		printf "{\"format_version\":2,\"program\":\"run-test.sh\",\"label\":\"%s\",\"run_label\":\"%s\",\"partial\":false,\"gitk_runs\":[", l, d
		for (i = 0; i < 2; i++) {
			x = 4.9 + 0.2 * i
			printf "%s{\"elapsed_s\":%.10g,\"user_s\":%.10g,\"elapsed_per_user\":%s}", i ? "," : "", r * x, x, r
		}
		printf "],\"vm\":{\"accel\":\"kvm\",\"boots\":{\"series\":\"s1\",\"pairs\":3,\"order\":\"ABBAAB\",\"seed\":137,\"pair\":%s,\"arm\":\"%s\",\"labels\":[\"%s\",\"%s\"]}}}\n", pair, arm, ka, kb
	}' >"$1/result.json"
}

# Paired boots, elapsed per user-CPU second a 2.0, 2.0, 2.0 and b 2.4,
# 1.9, 2.2.  Logs of b/a: 0.182322, -0.051293, 0.095310; mean m =
# 0.075446, sd 0.118067, se 0.068166, t 1.1068 on 2 df, p 0.384;
# exp(m) - 1 = +7.837%, CI exp(m -+ 4.302652 se) - 1 = -19.58..+44.59%,
# MDE exp(5.363312 se) - 1 = 44.14%: the upper end lies beyond it,
# inconclusive, more pairs.
test_expect_success 'paired boots: inconclusive, more pairs' '
	boot a1 a 1 2.0 && boot a2 a 2 2.0 && boot a3 a 3 2.0 &&
	boot b1 b 1 2.4 && boot b2 b 2 1.9 && boot b3 b 3 2.2 &&
	compare-states a1 b1 a2 b2 a3 b3 >out &&
	state_of $KB elapsed_per_user out >got &&
	echo "$KB elapsed_per_user lower inconclusive pairs delta=7.837 ci=-19.58..44.59 mde=44.14" >expect &&
	test_cmp expect got
'

# host DIR LABEL OTHERS: a latency-vm guest's result whose host's other
# processes used OTHERS CPUs of 2 over a 200 s window (t5812's), two
# runs of 10 and 11 s on 5 user-CPU seconds each (elapsed per user-CPU
# second 2.0 and 2.2).
host() {
	mkdir -p "$1" &&
	awk -v d="$1" -v l="$2" -v o="$3" 'BEGIN {
		printf "{\"format_version\":2,\"program\":\"run-test.sh\",\"label\":\"%s\",\"run_label\":\"%s\",\"partial\":false,\"gitk_runs\":[{\"elapsed_s\":10,\"user_s\":5},{\"elapsed_s\":11,\"user_s\":5}],", l, d
		printf "\"vm\":{\"accel\":\"kvm\",\"host\":{\"cpus\":2,\"wall_s\":200.00,\"qemu_cpu_s\":350.50,\"others_cpu_s\":%.2f,\"kthreads_cpu_s\":1.10,\"others_cpus\":%s}}}\n", o * 200, o
	}' >"$1/result.json"
}

# The same runs a side: Welch on the logs, difference 0, se 0.0673945 on
# 2 df, CI -25.17..+33.64%, MDE 43.54% (t5812): same; but with the host
# of one side busier by a tenth of a CPU or more, the lead figures are
# not judged: inconclusive, a quiet host needed.
test_expect_success 'a busier host: the lead figures need a quiet one' '
	host q1 A 0.014 && host q2 B 0.02 && host q3 C 0.62 &&
	compare-states q1 q2 >out &&
	state_of B elapsed_per_user out >got &&
	echo "B elapsed_per_user lower same - delta=0 ci=-25.17..33.64 mde=43.54" >expect &&
	test_cmp expect got &&
	compare-states q1 q3 >out &&
	state_of C elapsed_per_user out >got &&
	echo "C elapsed_per_user lower inconclusive quiet delta=0 ci=-25.17..33.64 mde=43.54" >expect &&
	test_cmp expect got
'

# ho DIR LABEL SUCCESSES: a result whose order-9 probes succeeded
# SUCCESSES times of 1000 (no per-run counts: the binomial test).
ho() {
	mkdir -p "$1" &&
	printf '{"format_version":2,"program":"run-test.sh","label":"%s","run_label":"%s","partial":false,"gitk_runs":[{"elapsed_s":10},{"elapsed_s":11}],"high_order":[{"order":9,"attempts":1000,"successes":%s,"success_pct":0,"fault_p99_us":3100}]}\n' \
		"$2" "$1" "$3" >"$1/result.json"
}

# High-order success, higher is better, in points; the two-proportion z
# test, se from the pooled proportion, z(0.975) = 1.959964, z(0.8) =
# 0.841621.  B: 600 against 412 of 1000: pooled 0.506, se =
# sqrt(0.506 * 0.494 * 2/1000) = 2.2359 points, +18.8 points, CI
# 18.8 -+ 4.3823 = +14.42..+23.18, MDE 2.801585 se = 6.264: the only
# test, significant: better.  C: 420: pooled 0.416, se 2.2043, +0.8,
# CI -3.52..+5.12 within +-6.175: same.
test_expect_success 'high-order success: higher is better, in points' '
	ho h1 A 412 && ho h2 B 600 && ho h3 C 420 &&
	compare-states h1 h2 h3 >out &&
	grep " order-9 " out >got &&
	cat >expect <<-\EOF &&
	B order-9 higher better - delta=18.8 ci=14.42..23.18 mde=6.264
	C order-9 higher same - delta=0.8 ci=-3.52..5.12 mde=6.175
	EOF
	test_cmp expect got
'

# seqbench (t5804's fixtures): a rate, higher is better.  Its seq_read
# 4-thread rows: 500, 510, 520 against 400, 410, 420 MiB/s (sd 10 a
# side): +100 MiB/s of 410 = +24.39%, CI 100 -+ 22.66966 (10 times the
# runs' above) = +18.86..+29.92%: better.
test_expect_success 'seqbench: higher is better' '
	compare-states "$TEST_DIRECTORY/fixtures/compare/sb-base.json" \
		"$TEST_DIRECTORY/fixtures/compare/sbdir/seqbench.json" >out &&
	grep "^seqbench seqbench:seq_read:64:4096:4 higher better - delta=24.39 ci=18.86..29.92 " out &&
	! grep -v " higher " out
'

test_done
