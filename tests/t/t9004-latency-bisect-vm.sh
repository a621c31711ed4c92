#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC2016,SC2154
test_description='latency-bisect with latency-vm: a guest that does not boot'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-vm.sh"
. "$abs_top_srcdir/tests/t/lib-bisect.sh"

test_have_prereq QEMU ||
	test_skip_all 'qemu-system-x86_64 is not installed (package qemu-system-x86)'
test_have_prereq VM_TOOLS ||
	test_skip_all 'the quick image tools are not installed (busybox-static cryptsetup-bin lvm2 dmsetup e2fsprogs kmod cpio dash)'

# Kernels QEMU boots that loop in their first instruction: no guest ever
# reaches the suite.
fake_bzimage ka 9.8.7-a
fake_bzimage kb 9.8.7-b
printf "a %s\nb %s panic=5\n" "$PWD/ka" "$PWD/kb" >series

test_expect_success JQ 'an end whose guest does not boot: latency-vm says why, no bisection, exit 1' '
	test_expect_code 1 "$bisect" --series=series --results=r --accel=tcg \
		--memory=128M --cpus=1 --boot-timeout=3s -q -- --commits=2000 2>err &&
	test_json r/bisect.json ".outcome, .boots_total, .boots_used" "range
1
0" &&
	first=$(json_get r/bisect.json ".boots[0].dir") &&
	case $first in boots/0001-a) want=a ;; boots/0001-b) want=b ;; *) false ;; esac &&
	grep -x "ends: $want did not boot (boot $first: exit 1: the guest did not reach the suite within 3s): no bisection" r/bisect.log &&
	test_json "r/$first/result.json" ".partial, .label, .vm.boots.series, .vm.boots.pair, .vm.boots.pairs" "true
$want
bisect-137-1
1
20" &&
	test_json "r/$first/result.json" ".vm.boots.labels | join(\",\")" a,b &&
	grep "^latency-vm: " "r/$first.log" &&
	test -z "$(vm_runs_left)" && ! test -e r/tmp
'
test_expect_success JQ 'SIGTERM during a boot: latency-vm stops its guest, the partial result kept, exit 143' '
	"$bisect" --series=series --results=sig --accel=tcg --memory=128M \
		--cpus=1 --boot-timeout=5m -q -- --commits=2000 2>err &
	pid=$!
	vm_wait_qemu &&
	kill -TERM "$pid"
	wait "$pid"
	status=$?
	test $status = 143 &&
	test_json sig/bisect.json ".outcome, .boots_total, .boots[0].end, .boots[0].reason" "stopped
1
partial
stopped by signal 15" &&
	dir=$(json_get sig/bisect.json ".boots[0].dir") &&
	test_json "sig/$dir/result.json" .partial true &&
	grep "^latency-vm: " "sig/$dir.log" &&
	test -z "$(vm_runs_left)" &&
	! kill -0 "$qpid" 2>/dev/null
'
test_done
