#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-vm under QEMU with a kernel that never reports: the boot timeout, SIGTERM during the boot'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-vm.sh"

vm_need_qemu

# A kernel QEMU boots that loops in its first instruction: the guest never
# reaches the suite, whatever the timeout.
fake_bzimage bzImage 9.8.7-loop

test_expect_success JQ 'a guest that never reports: stopped at the boot timeout, a partial result' '
	test_expect_code 1 "$vm" --kernel=bzImage --accel=tcg --memory=128M \
		--cpus=1 --boot-timeout=3s --results=res -- --commits=2000 \
		>out 2>err &&
	grep -x "latency-vm: the guest did not reach the suite within 3s (result in $PWD/res/9.8.7-loop)" err &&
	r=res/9.8.7-loop &&
	test -f $r/console.log && test -f $r/qemu.cmdline &&
	test_json $r/result.json .partial true &&
	test_json $r/result.json .partial_reason \
		"the guest did not reach the suite within 3s" &&
	test_json $r/result.json ".vm | [.accel, .memory_bytes, .outcome, .host] |
		tojson" "[\"tcg\",134217728,\"boot-timeout\",null]" &&
	sed -n 1p $r/summary.txt >line1 &&
	echo "9.8.7-loop partial: no fake-gitk run completed" >expect &&
	test_cmp expect line1 &&
	grep -x "vm: kernel=9.8.7-loop accel=tcg memory_bytes=134217728 cpus=1 qemu=.*" $r/summary.txt &&
	test -z "$(vm_runs_left)" &&
	! pgrep -f "qemu-system-x86_64 -name latency-vm .*$LATENCY_CACHE_DIR" >/dev/null
'

# A kernel that says a CPU is stuck for 999 s, then loops: stopped at the
# lockup timeout (here before the boot timeout), a partial result.
fake_lockup_bzimage lockup 9.8.7-stuck 999
fake_lockup_bzimage brief 9.8.7-brief 59

test_expect_success JQ 'a guest kernel stuck in a soft lockup: stopped, named, partial' '
	test_expect_code 1 "$vm" --kernel=lockup --accel=tcg --memory=128M \
		--cpus=1 --boot-timeout=5m --lockup-timeout=60s --results=res \
		-- --commits=2000 >out 2>err &&
	grep -x "latency-vm: the guest kernel locked up (soft lockup - CPU#0 stuck for 999s; see console.log) (result in $PWD/res/9.8.7-stuck)" err &&
	r=res/9.8.7-stuck &&
	grep -q "soft lockup - CPU#0 stuck for 999s" $r/console.log &&
	test_json $r/result.json .partial_reason \
		"the guest kernel locked up (soft lockup - CPU#0 stuck for 999s; see console.log)" &&
	test_json $r/result.json .vm.outcome lockup &&
	test -z "$(vm_runs_left)"
'

# A kernel that oopses and panics (oops=panic, panic=-1): QEMU exits at
# once, and the reason names the oops, not only the panic.
fake_panic_bzimage oops 9.8.7-oops "[   15.06] BUG: kernel NULL pointer dereference, address: 0\r\nKernel panic - not syncing: Fatal exception"

test_expect_success JQ 'a guest kernel that oopses: ended at once, the oops named' '
	test_expect_code 1 "$vm" --kernel=oops --accel=tcg --memory=128M \
		--cpus=1 --boot-timeout=5m --results=res \
		-- --commits=2000 >out 2>err &&
	grep -x "latency-vm: the guest kernel panicked: Kernel panic - not syncing: Fatal exception, after BUG: kernel NULL pointer dereference, address: 0 (result in $PWD/res/9.8.7-oops)" err &&
	test_json res/9.8.7-oops/result.json .partial_reason \
		"the guest kernel panicked: Kernel panic - not syncing: Fatal exception, after BUG: kernel NULL pointer dereference, address: 0" &&
	grep -q -- "-append .*panic=-1 oops=panic" res/9.8.7-oops/qemu.cmdline &&
	test -z "$(vm_runs_left)"
'

# One second under the lockup timeout is not a lockup: that guest runs
# on to its boot timeout.
test_expect_success JQ 'a CPU stuck for less than --lockup-timeout does not stop the guest' '
	test_expect_code 1 "$vm" --kernel=brief --accel=tcg --memory=128M \
		--cpus=1 --boot-timeout=4s --lockup-timeout=60s --results=res \
		-- --commits=2000 >out 2>err &&
	grep -q "soft lockup - CPU#0 stuck for 59s" res/9.8.7-brief/console.log &&
	grep -x "latency-vm: the guest did not reach the suite within 4s (result in $PWD/res/9.8.7-brief)" err &&
	test_json res/9.8.7-brief/result.json .vm.outcome boot-timeout
'

test_expect_success 'an invalid --lockup-timeout is a usage error' '
	test_expect_code 2 "$vm" --kernel=lockup --lockup-timeout=5h 2>err &&
	grep -x "latency-vm: invalid value '"'"'5h'"'"' for --lockup-timeout (expected a duration such as 90s or 5m)" err
'

# A guest that says it started the suite, then loops: the host's CPU
# times are read from then to QEMU's exit.  A CPU hog beside it is work
# the guest cannot see (its others_cpu_s): the host's own figures name it.
fake_say_bzimage started 9.8.7-started "latency-vm-guest: started"

test_expect_success JQ 'the host measured while the guest ran: a busy host named' '
	cpus=$(getconf _NPROCESSORS_ONLN) ;
	sh -c "while :; do :; done" &
	hog=$! ;
	{ "$vm" --kernel=started --accel=tcg --memory=128M --cpus=1 \
		--timeout=6s --results=res -- --commits=2000 >out 2>err;
	st=$?; } ;
	kill $hog && wait $hog ;
	test "$st" = 1 &&
	grep -x "latency-vm: the run did not finish within 6s (result in $PWD/res/9.8.7-started)" err &&
	grep "^latency-vm: host: other processes used [0-9.]* of $cpus CPUs while the guest ran ([0-9.]* s; QEMU [0-9.]* CPU s)$" err &&
	grep "^latency-vm: warning: the host was busy while the guest ran: other processes used [0-9.]* of its $cpus CPUs; this boot" err &&
	r=res/9.8.7-started &&
	test_json $r/result.json ".vm.host | keys | tojson" \
		"[\"cpus\",\"kthreads_cpu_s\",\"others_cpu_s\",\"others_cpus\",\"qemu_cpu_s\",\"wall_s\"]" &&
	test_json $r/result.json ".vm.host | .cpus == $cpus and
		.others_cpus >= 0.5 and .others_cpus <= .cpus and
		.wall_s >= 2 and .wall_s <= 15 and .qemu_cpu_s >= 0.5 and
		(.others_cpus - .others_cpu_s / .wall_s | fabs) < 0.01" true &&
	grep -x "vm host: others_cpus=[0-9.]* cpus=$cpus wall_s=[0-9.]* qemu_cpu_s=[0-9.]* others_cpu_s=[0-9.]* kthreads_cpu_s=[0-9.]*" $r/summary.txt
'

test_expect_success JQ 'a host snapshot that fails: said, the host null, the run goes on' '
	mkdir -p failbin &&
	printf "#!/bin/sh\necho \"latency-vmstat: cannot read /proc/stat: Permission denied\" >&2\nexit 1\n" \
		>failbin/latency-vmstat &&
	chmod +x failbin/latency-vmstat &&
	test_expect_code 1 env LATENCY_TESTS_BINDIR=$PWD/failbin "$vm" \
		--kernel=started --accel=tcg --memory=128M --cpus=1 \
		--timeout=4s --results=res --label=nohost -- --commits=2000 \
		>out 2>err &&
	grep -x "latency-vm: warning: the host'"'"'s load was not measured: latency-vmstat: cannot read /proc/stat: Permission denied" err &&
	! grep "^latency-vm: host:" err &&
	test_json res/nohost/result.json "[.vm.host, .vm.outcome] | tojson" \
		"[null,\"timeout\"]"
'

test_expect_success JQ 'a second run of the same label is LABEL-2, the first kept' '
	test_expect_code 1 "$vm" --kernel=bzImage --accel=tcg --memory=128M \
		--cpus=1 --boot-timeout=2s --results=res -- --commits=2000 \
		2>err &&
	test -f res/9.8.7-loop/result.json &&
	test_json res/9.8.7-loop-2/result.json "[.run_label, .label] | tojson" \
		"[\"9.8.7-loop-2\",\"9.8.7-loop\"]"
'

test_expect_success JQ 'SIGTERM during the boot: QEMU stopped, the disks removed, the result partial' '
	"$vm" --kernel=bzImage --accel=tcg --memory=128M --cpus=1 \
		--boot-timeout=5m --results=sig --label=sig -- --commits=2000 \
		>out 2>err &
	pid=$! &&
	vm_wait_qemu &&
	kill -TERM $pid &&
	{ wait $pid; st=$?; } ;
	test "$st" = 143 &&
	! kill -0 "$qpid" 2>/dev/null &&
	test -z "$(vm_runs_left)" &&
	test_json sig/sig/result.json "[.partial_reason, .vm.outcome] | tojson" \
		"[\"interrupted by SIGTERM\",\"stopped\"]"
'

test_done
