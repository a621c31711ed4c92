#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016,SC2034,SC1091,SC1094,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh defines the rest)
test_description='ringbench: bad options are one-line usage errors, exit 2'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-ringbench.sh"

# bad 'ARGS' 'MESSAGE': exit 2, "ringbench: MESSAGE" and the Try line.
bad() {
	# shellcheck disable=SC2086 # ARGS is a list of words
	test_expect_code 2 ringbench $1 >out 2>err &&
	! test -s out &&
	printf "ringbench: %s\nTry 'ringbench --help' for more information.\n" \
		"$2" >expect &&
	test_cmp expect err
}

test_expect_success 'no mode, an unknown mode, an extra argument' '
	bad "" "no mode given (ring, rr, tbench or calibrate)" &&
	bad "spin" "invalid value '"'"'spin'"'"' for mode: not understood (expected ring, rr, tbench or calibrate)" &&
	bad "ring extra" "unexpected argument '"'"'extra'"'"'"
'

test_expect_success 'bad values' '
	bad "ring --via=sockets" "invalid value '"'"'sockets'"'"' for --via: not understood (expected pipe, futex or eventfd)" &&
	bad "ring -t 0" "invalid value '"'"'0'"'"' for --tasks: out of range (expected a whole number from 1 to 1024)" &&
	bad "rr --size 1" "invalid value '"'"'1'"'"' for --size (expected REQ,RESP)" &&
	bad "rr --size 0,1" "--size takes sizes from 1 byte to 1M, not '"'"'0,1'"'"'" &&
	bad "rr --size 2M,1" "--size takes sizes from 1 byte to 1M, not '"'"'2M,1'"'"'" &&
	bad "rr --udp --size 64k,1" "--udp takes sizes up to 65507 bytes" &&
	bad "ring --cpus 1-0" "invalid value '"'"'1-0'"'"' for --cpus (expected a list like 0,2-3)" &&
	bad "ring --cpus 0," "invalid value '"'"'0,'"'"' for --cpus (expected a list like 0,2-3)" &&
	bad "ring --format xml" "invalid value '"'"'xml'"'"' for --format: not understood (expected text, json or csv)" &&
	bad "ring -d 0" "--duration must be greater than zero"
'

test_expect_success 'options of another mode, and combinations' '
	bad "rr --via pipe" "--via is an option of ring mode" &&
	bad "ring --udp" "--udp is an option of rr mode" &&
	bad "ring -c 2" "--clients is an option of rr and tbench modes" &&
	bad "rr -w 1" "--work is an option of ring and calibrate modes" &&
	bad "ring -N 10 -d 1s" "--count and --duration cannot be combined" &&
	bad "tbench -N 10" "tbench runs for a --duration, not a --count" &&
	bad "tbench --warmup 1s" "tbench keeps its own warmup; --warmup is for ring and rr" &&
	bad "rr --listen 127.0.0.1:0 --connect 127.0.0.1:1" "--listen and --connect cannot be combined" &&
	bad "rr --listen 127.0.0.1:0 -n 2" "--listen serves until stopped or --duration; --count and --runs are for clients" &&
	bad "calibrate" "calibrate needs --work=TIME" &&
	bad "rr --listen nonsense" "invalid address '"'"'nonsense'"'"' for --listen"
'

test_expect_success 'a CPU that is not here is "unsupported" (exit 3)' '
	test_expect_code 3 ringbench ring --cpus 1023 -N 1 2>err &&
	echo "ringbench: cannot pin to CPU 1023: not online or not allowed here (--cpus)" >expect &&
	test_cmp expect err
'

test_done
