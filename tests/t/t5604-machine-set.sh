#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-machine set: a knob set through the record, its value from before the run restored'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-machine.sh"

THP=/sys/kernel/mm/transparent_hugepage/enabled

setup() {
	rm -rf state &&
	fake_tree 2048 1536 16384 &&
	fake_pid 4242 1000 &&
	mkdir -p "$FAKE/sys/kernel/mm/transparent_hugepage" \
		"$FAKE/sys/module/zswap/parameters" &&
	echo 3 >"$FAKE/proc/sys/vm/page-cluster" &&
	echo "always [madvise] never" >"$FAKE$THP" &&
	echo N >"$FAKE/sys/module/zswap/parameters/enabled" &&
	machine begin --owner=4242
}

test_expect_success 'the first set records the value before it, then writes' '
	setup &&
	machine set --owner=4242 vm.page-cluster 0 &&
	test "$(cat "$FAKE/proc/sys/vm/page-cluster")" = 0 &&
	{ record_head 4242 1000 && printf "sysctl\tvm.page-cluster\t3\n"; } >expect &&
	record_body >actual &&
	test_cmp expect actual
'

test_expect_success 'later sets of the knob do not record again, in any spelling' '
	machine set --owner=4242 vm.page-cluster 3 &&
	machine set --owner=4242 vm/page-cluster 1 &&
	test "$(cat "$FAKE/proc/sys/vm/page-cluster")" = 1 &&
	record_body >actual &&
	test_cmp expect actual
'

test_expect_success 'sysfs knobs: a THP choice is recorded as its bracketed word' '
	machine set --owner=4242 $THP never &&
	machine set --owner=4242 $THP always &&
	machine set --owner=4242 /sys/module/zswap/parameters/enabled Y &&
	printf "sysfs\t%s\tmadvise\nsysfs\t%s\tN\n" $THP \
		/sys/module/zswap/parameters/enabled >>expect &&
	record_body >actual &&
	test_cmp expect actual &&
	test "$(cat "$FAKE$THP")" = always
'

test_expect_success 'restore gives back the values from before the run' '
	machine restore --owner=4242 2>err &&
	test "$(cat "$FAKE/proc/sys/vm/page-cluster")" = 3 &&
	test "$(cat "$FAKE$THP")" = madvise &&
	test "$(cat "$FAKE/sys/module/zswap/parameters/enabled")" = N &&
	grep -x "latency-machine: restoring run pid 4242: sysctl vm.page-cluster 3" err &&
	! test -e state/state
'

# A disk's queue: the scheduler is a choice shown with brackets, as the
# kernel shows it; what restore writes back is the bracketed word.
test_expect_success 'a disk'"'"'s scheduler, max_sectors_kb and nr_requests' '
	setup &&
	Q=/sys/block/vda/queue &&
	mkdir -p "$FAKE$Q" &&
	echo "[none] mq-deadline kyber" >"$FAKE$Q/scheduler" &&
	echo 1280 >"$FAKE$Q/max_sectors_kb" &&
	echo 256 >"$FAKE$Q/nr_requests" &&
	machine set --owner=4242 $Q/scheduler mq-deadline &&
	machine set --owner=4242 $Q/max_sectors_kb 64 &&
	machine set --owner=4242 $Q/nr_requests 32 &&
	test "$(cat "$FAKE$Q/scheduler")" = mq-deadline &&
	test "$(cat "$FAKE$Q/max_sectors_kb")" = 64 &&
	{ record_head 4242 1000 &&
		printf "sysfs\t%s\tnone\nsysfs\t%s\t1280\nsysfs\t%s\t256\n" \
			$Q/scheduler $Q/max_sectors_kb $Q/nr_requests; } >expect &&
	record_body >actual &&
	test_cmp expect actual &&
	machine restore --owner=4242 2>err &&
	test "$(cat "$FAKE$Q/scheduler")" = none &&
	test "$(cat "$FAKE$Q/max_sectors_kb")" = 1280 &&
	test "$(cat "$FAKE$Q/nr_requests")" = 256 &&
	test_expect_code 2 machine set --owner=4242 $Q/rotational 0
'

test_expect_success 'hostile names are refused before anything is read (exit 2)' '
	setup &&
	for n in kernel.core_pattern vm.drop_caches vm/../kernel/x \
		/sys/power/state /sys/kernel/mm/../../power/state \
		/proc/sys/vm/page-cluster "/sys/kernel/mm/a
b" /sys/kernel/mm//x /sys/kernel/mm/x/ vm.a.b; do
		test_expect_code 2 machine set --owner=4242 "$n" 1 2>err ||
			return 1
		grep -q "^latency-machine: set: .* cannot be changed: " err ||
			return 1
	done &&
	record_head 4242 1000 >expect &&
	record_body >actual &&
	test_cmp expect actual
'

test_expect_success 'bad values are refused (exit 2)' '
	for v in "" "1;reboot" "a  b" " 1" "$(printf "1\n2")"; do
		test_expect_code 2 machine set --owner=4242 vm.page-cluster "$v" 2>err ||
			return 1
	done &&
	test "$(cat "$FAKE/proc/sys/vm/page-cluster")" = 3 &&
	record_body >actual &&
	test_cmp expect actual
'

test_expect_success 'a knob this machine does not have is exit 3, nothing recorded' '
	test_expect_code 3 machine set --owner=4242 vm.no-such-knob 1 2>err &&
	grep "^latency-machine: set: no knob .vm.no-such-knob. here" err &&
	record_body >actual &&
	test_cmp expect actual
'

test_expect_success 'a value the kernel refuses is exit 1 and leaves no entry' '
	cat >"$FAKE/refusing-writer" <<-EOF &&
	#!/bin/sh
	exit 22
	EOF
	chmod +x "$FAKE/refusing-writer" &&
	test_expect_code 1 env LATENCY_MACHINE_WRITER="$FAKE/refusing-writer" \
		LATENCY_PROC="$FAKE/proc" LATENCY_SYS="$FAKE/sys" \
		LATENCY_STATE_DIR="$TRASH_DIRECTORY/state" \
		latency-machine set --owner=4242 vm.page-cluster 99 2>err &&
	grep "^latency-machine: set: the kernel refused .99. for vm.page-cluster: Invalid argument$" err &&
	record_body >actual &&
	test_cmp expect actual
'

test_expect_success 'a knob whose value cannot be put back is refused (exit 1)' '
	printf "a\nb\n" >"$FAKE/sys/kernel/mm/two-lines" &&
	test_expect_code 1 machine set --owner=4242 /sys/kernel/mm/two-lines x 2>err &&
	grep "spans lines" err &&
	test "$(sed -n 1p "$FAKE/sys/kernel/mm/two-lines")" = a &&
	record_body >actual &&
	test_cmp expect actual
'

test_expect_success 'set needs the run'\''s record' '
	test_expect_code 1 machine set --owner=4343 vm.page-cluster 0 2>err &&
	grep "no record of run pid 4343" err &&
	test_expect_code 2 machine set vm.page-cluster 0 2>err &&
	test_expect_code 2 machine set --owner=4242 vm.page-cluster 2>err &&
	grep "set: takes NAME and VALUE" err
'

test_done
