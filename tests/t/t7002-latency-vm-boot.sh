#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-vm with a real kernel: a panic, a run stopped by SIGTERM and its partial result brought back'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-vm.sh"

# Each boots a kernel: seconds with KVM, tens of seconds under TCG, so
# make check runs them only when asked (.ci/run does, in its VM step).
test_have_prereq VM_KERNEL ||
	test_skip_all 'no LATENCY_VM_TEST_KERNEL: set it to a kernel image to boot (latency-vm --build-image=quick --print-paths names one)'
test_have_prereq QEMU ||
	test_skip_all 'qemu-system-x86_64 is not installed (package qemu-system-x86)'
test_have_prereq VM_TOOLS ||
	test_skip_all 'the quick image tools are not installed (busybox-static cryptsetup-bin lvm2 dmsetup e2fsprogs kmod cpio dash)'

kernel=$LATENCY_VM_TEST_KERNEL

test_expect_success JQ 'a kernel that panics: exit 1, the panic named, the console kept' '
	test_expect_code 1 "$vm" --kernel="$kernel" --memory=256M --cpus=1 \
		--cmdline=rdinit=/no-such-init --boot-timeout=5m --results=res \
		--label=panic -- --commits=2000 >out 2>err &&
	grep "^latency-vm: the guest kernel panicked: Kernel panic - not syncing: " err &&
	grep -q "Kernel panic - not syncing" res/panic/console.log &&
	test_json res/panic/result.json ".partial_reason |
		startswith(\"the guest kernel panicked: Kernel panic - not syncing: \")" \
		true &&
	test -z "$(vm_runs_left)"
'

test_expect_success JQ 'SIGTERM during the run: the guest stops the driver, its partial result comes back' '
	"$vm" --kernel="$kernel" --cpus=1 --results=res --label=stopped \
		-- --commits=2000 --gitk-runs=50 --confine=none >out 2>err &
	pid=$! &&
	n=0 &&
	while ! grep -q "fake-gitk run 1 of 50" "$LATENCY_CACHE_DIR"/vm/run.*/console.log 2>/dev/null &&
		[ $n -lt 3000 ]; do
		sleep 0.2
		n=$((n + 1))
	done &&
	kill -TERM $pid &&
	{ wait $pid; st=$?; } ;
	test "$st" = 143 &&
	r=res/stopped &&
	test_json $r/result.json "[.partial, .partial_reason] | tojson" \
		"[true,\"interrupted by SIGTERM\"]" &&
	test -f $r/run.facts && test -f $r/commands.log && test -f $r/vm.json &&
	test_json $r/result.json .vm.outcome stopped &&
	test_json $r/result.json ".vm.host | .wall_s > 0 and .qemu_cpu_s > 0 and
		.others_cpus >= 0 and .others_cpus <= .cpus" true &&
	grep -q "^vm host: others_cpus=" $r/summary.txt &&
	grep -q "latency-vm-guest: stop asked" $r/console.log &&
	test -z "$(vm_runs_left)"
'

test_done
