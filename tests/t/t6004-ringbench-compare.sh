#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016,SC2034,SC1091,SC1094,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh defines the rest)
test_description='latency-compare: ringbench results across kernels, Welch per figure'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-ringbench.sh"

F=$TEST_DIRECTORY/fixtures/ringbench

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w .
'

# base: cycles/s {100,110,120}, p99 {5,5,5}; new: {90,95,100} (and a run
# cut short, left out), p99 {6,6,6}: rate -13.64% (Welch p 0.105, not
# significant at 3 runs); p99 +20%, no spread: significant.
test_expect_success 'CSV: mean, stddev, change and Welch per figure' '
	latency-compare --format=csv base.json new.json >out &&
	sed -n "/^label,config,runs,rate_per_s_mean/,\$p" out >rb &&
	test_line_count = 3 rb &&
	awk -F, "\$1 == \"new\" { printf \"%s %s %s %.2f %s %s %s\n\", \$2, \$3, \$4, \$6, \$8, \$24, \$26 }" rb >got &&
	echo "ring -t 2 --via pipe -w 0us -s 0us 3 95 -13.64 false 20 true" >expect &&
	test_cmp expect got &&
	awk -F, "\$1 == \"new\" { exit !(\$7 > 0.1 && \$7 < 0.11) }" rb
'

test_expect_success JQ 'JSON: a ringbench list, one entry per label and configuration' '
	latency-compare --format=json base.json new.json rr.json >out.json &&
	json_get out.json "[.ringbench[] | \"\(.label)|\(.config)|\(.runs)\"] | join(\"\n\")" >got &&
	cat >expect <<-\EOF &&
	base|ring -t 2 --via pipe -w 0us -s 0us|3
	new|ring -t 2 --via pipe -w 0us -s 0us|3
	rr|rr tcp -c 1 --size 1,1 --cpus 0,1|2
	EOF
	test_cmp expect got &&
	json_get out.json ".ringbench[1].p99_us.significant, .ringbench[1].rate_per_s.significant" >got &&
	printf "true\nfalse\n" >expect &&
	test_cmp expect got
'

test_expect_success 'a ringbench.json labelled on the command line' '
	latency-compare base.json dir=dir/ringbench.json >out &&
	grep -q "^dir  *ring -t 2 --via pipe -w 0us -s 0us  *3  *95.0  *5.0  *-13.64%" out
'

test_expect_success 'real results of two runs each load and compare' '
	ringbench ring -N 100 --warmup 0 -n 2 --format json -o k1.json &&
	ringbench ring -N 100 --warmup 0 -n 2 --format json -o k2.json &&
	latency-compare --format=csv k1.json k2.json >out &&
	grep -c "^k[12],ring -t 2 --via pipe -w 0us -s 0us,2," out >n &&
	echo 2 >expect &&
	test_cmp expect n
'

test_expect_success 'a ringbench result with a bad run is refused in one line' '
	sed "s/\"complete\": true/\"complete\": 1/" base.json >bad.json &&
	test_expect_code 1 latency-compare bad.json 2>err &&
	echo "latency-compare: '"'"'bad.json'"'"': \"runs[].complete\" is missing or not true or false" >expect &&
	test_cmp expect err
'

test_done
