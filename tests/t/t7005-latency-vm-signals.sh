#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-vm stopped by signals at every stage: the image build, a guest that does not listen, SIGKILL; what the next run finds'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-vm.sh"

vm_need_qemu

fake_bzimage bzImage 9.8.7-sig
mkdir -p tree/.latency-vm tree/s && echo exit=0 >tree/.latency-vm/status
fake_guest_qemu fake-qemu "$PWD/tree"

# vm_bg NAME [OPTION]...: latency-vm with the stand-in QEMU, a guest that
# says it started and then runs on, not reading its control pipe, in the
# background (pid), results in NAME, label s.  A watchdog kills it after
# 60 s (a hang shows as status 137).  VM_SETSID="env --default-signal=INT
# setsid": latency-vm leads a process group of its own (pid is its id)
# with SIGINT not ignored (a script's background job ignores it), as a
# terminal's foreground job.
vm_bg() {
	_r=$1
	shift
	FAKE_GUEST_WAIT=yes LATENCY_VM_QEMU=$PWD/fake-qemu ${VM_SETSID:-} "$vm" \
		--kernel=bzImage --accel=tcg --memory=128M --cpus=1 \
		--results="$_r" --label=s "$@" -- --commits=2000 >out 2>err &
	pid=$!
	{ sleep 60 && kill -KILL "$pid"; } >/dev/null 2>&1 &
	watchdog=$!
}

# vm_end: latency-vm's status in st, the watchdog gone.
vm_end() {
	{ wait "$pid"; st=$?; } ;
	# The watchdog's sleep, then the watchdog.
	pkill -P "$watchdog" 2>/dev/null ;
	kill "$watchdog" 2>/dev/null ;
	wait "$watchdog" 2>/dev/null ;
	:
}

# vm_started: wait (up to 60 s) until latency-vm saw the guest start.
vm_started() {
	_n=0
	while ! ls "$LATENCY_CACHE_DIR"/vm/run.*/host-start.json >/dev/null 2>&1; do
		[ "$_n" -lt 600 ] || return 1
		sleep 0.1
		_n=$((_n + 1))
	done
}

# gone PID: PID has exited (a zombie nobody reaped counts).
gone() {
	! kill -0 "$1" 2>/dev/null || grep -q "^[0-9]* (.*) Z " "/proc/$1/stat"
}

test_expect_success JQ 'SIGTERM, a guest that does not read its control pipe: stopped after the grace, partial' '
	LATENCY_VM_STOP_GRACE=2 && export LATENCY_VM_STOP_GRACE &&
	vm_bg r1 && vm_started && vm_wait_qemu &&
	kill -TERM $pid && vm_end &&
	unset LATENCY_VM_STOP_GRACE &&
	test "$st" = 143 &&
	grep -x "latency-vm: SIGTERM: asking the guest to stop (a partial result)" err &&
	test_json r1/s/result.json "[.partial_reason, .vm.outcome] | tojson" \
		"[\"interrupted by SIGTERM\",\"stopped\"]" &&
	gone "$qpid" && test -z "$(vm_runs_left)"
'

# Ctrl-C in a terminal signals the whole foreground process group (and
# latency-bisect signals a boot's group): QEMU, in a session of its own,
# is not in it, so latency-vm asks the guest to stop and ends QEMU itself
# (TERM after the grace), and the result is partial, not lost.
test_expect_success JQ 'SIGINT to the process group, as Ctrl-C: QEMU left to latency-vm' '
	LATENCY_VM_STOP_GRACE=2 FAKE_GUEST_TERM_MARK=$PWD/got-term &&
	export LATENCY_VM_STOP_GRACE FAKE_GUEST_TERM_MARK &&
	VM_SETSID="env --default-signal=INT setsid" vm_bg rg &&
	vm_started && vm_wait_qemu &&
	kill -INT -- -$pid && vm_end &&
	unset LATENCY_VM_STOP_GRACE FAKE_GUEST_TERM_MARK &&
	test "$st" = 130 &&
	echo term >expect && test_cmp expect got-term &&
	test_json rg/s/result.json "[.partial_reason, .vm.outcome] | tojson" \
		"[\"interrupted by SIGINT\",\"stopped\"]" &&
	gone "$qpid" && test -z "$(vm_runs_left)"
'

test_expect_success JQ 'a second SIGTERM stops at once; the result is still partial, the disks removed' '
	vm_bg r2 && vm_started && vm_wait_qemu &&
	kill -TERM $pid && sleep 1 && kill -TERM $pid && vm_end &&
	test "$st" = 143 &&
	test_json r2/s/result.json "[.partial_reason, .vm.outcome] | tojson" \
		"[\"interrupted by SIGTERM\",\"stopped\"]" &&
	gone "$qpid" && test -z "$(vm_runs_left)"
'

test_expect_success 'SIGTERM during the image build: exit 143, nothing half-made left' '
	mkdir -p slow &&
	printf "#!/bin/sh\ntouch \"%s\"\nsleep 2\nexec \"%s\" \"\$@\"\n" \
		"$PWD/building" "$(command -v mke2fs)" >slow/mke2fs &&
	chmod +x slow/mke2fs &&
	{ PATH=$PWD/slow:$PATH LATENCY_CACHE_DIR=$PWD/cache3 \
		LATENCY_VM_QEMU=$PWD/fake-qemu "$vm" --kernel=bzImage \
		--accel=tcg --memory=128M --cpus=1 --results=r3 --label=s \
		-- --commits=2000 >out 2>err & } ;
	pid=$! &&
	n=0 && while ! test -e building && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done &&
	kill -TERM $pid &&
	{ wait $pid; st=$?; } &&
	test "$st" = 143 &&
	! grep "parameter not set" err &&
	test -z "$(ls -d cache3/vm/images/*.tmp.* cache3/vm/run.* 2>/dev/null)" &&
	! test -e cache3/vm/images/quick-*
'

test_expect_success 'SIGKILL: QEMU dies with latency-vm; the next run removes what it left' '
	vm_bg r4 && vm_wait_qemu &&
	kill -KILL $pid && vm_end &&
	n=0 && while ! gone "$qpid" && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done &&
	gone "$qpid" &&
	left=$(vm_runs_left) && test -n "$left" &&
	i=$LATENCY_CACHE_DIR/vm/images &&
	mkdir "$i/quick-x.tmp.dead" "$i/quick-x.tmp.live" "$i/quick-x.tmp.old" \
		"$i/quick-x.tmp.new" &&
	echo "$pid 1" >"$i/quick-x.tmp.dead/.owner" &&
	echo "$$ $(sed -n "s/^.*) //p" /proc/$$/stat | cut -d" " -f20)" \
		>"$i/quick-x.tmp.live/.owner" &&
	touch -d "2 hours ago" "$i/quick-x.tmp.old" &&
	LATENCY_VM_QEMU=$PWD/fake-qemu "$vm" --kernel=bzImage --accel=tcg \
		--memory=128M --cpus=1 --results=r4 --label=s \
		-- --commits=2000 >out 2>err &&
	grep -x "latency-vm: removed $left (its latency-vm is gone)" err &&
	grep -x "latency-vm: removed $i/quick-x.tmp.dead (its latency-vm is gone)" err &&
	grep -x "latency-vm: removed $i/quick-x.tmp.old (its latency-vm is gone)" err &&
	test -d "$i/quick-x.tmp.live" && test -d "$i/quick-x.tmp.new" &&
	test -z "$(vm_runs_left)" && test -f r4/s-2/result.json
'

test_done
