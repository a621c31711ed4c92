#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-machine: the state record, its restore, a dead run'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-machine.sh"

# A stub swapoff that only logs what it was asked.
mkdir bin &&
cat >bin/swapoff <<EOF &&
#!/bin/sh
echo "swapoff \$*" >>"$TRASH_DIRECTORY/swapoff.log"
EOF
chmod +x bin/swapoff || exit 1
PATH=$TRASH_DIRECTORY/bin:$PATH

# The tree every test here starts from: run pid 4242 alive, a sysctl, a
# THP setting, an offline memory block, an empty hugetlb pool; the run's
# directory run/ (its --root) with a swap file and a file to remove.
setup() {
	rm -rf state swapoff.log run "$CGROOT" &&
	fake_tree 2048 1536 16384 &&
	fake_blocks 1 4 &&
	fake_pid 4242 1000 &&
	mkdir -p "$FAKE/proc/sys/vm" "$FAKE/sys/kernel/mm/transparent_hugepage" &&
	echo 3 >"$FAKE/proc/sys/vm/page-cluster" &&
	echo "always [madvise] never" \
		>"$FAKE/sys/kernel/mm/transparent_hugepage/enabled" &&
	mkdir -m 755 run "$CGROOT" &&
	: >"run/swap file" && : >run/swapfile
}

# record_all: what a run records, as the driver would call it.
record_all() {
	machine begin --owner=4242 --root="$PWD/run" &&
	machine record --owner=4242 swapoff "$PWD/run/swap file" &&
	machine record --owner=4242 rmfile "$PWD/run/swapfile" &&
	machine record --owner=4242 rmdir "$CGROOT/latency-tests.4242" &&
	machine record --owner=4242 sysctl vm.page-cluster &&
	machine record --owner=4242 sysfs /sys/kernel/mm/transparent_hugepage/enabled &&
	machine record --owner=4242 online 3 &&
	machine record --owner=4242 hugepages
}

# change_all: the changes those entries stand for.
change_all() {
	mkdir "$CGROOT/latency-tests.4242" &&
	printf '%s                       file\t\t1048572\t\t0\t\t-2\n' \
		"$PWD/run/swap\\040file" >>"$FAKE/proc/swaps" &&
	echo 0 >"$FAKE/proc/sys/vm/page-cluster" &&
	echo always >"$FAKE/sys/kernel/mm/transparent_hugepage/enabled" &&
	echo offline >"$FAKE/sys/devices/system/memory/memory3/state" &&
	echo 5 >"$FAKE/proc/sys/vm/nr_hugepages"
}

test_expect_success 'begin makes a 0700 directory and a record of the owner' '
	setup &&
	machine begin --owner=4242 &&
	test "$(stat -c %a state)" = 700 &&
	test "$(stat -c %a state/state)" = 600 &&
	record_head 4242 1000 >expect &&
	record_body >actual &&
	test_cmp expect actual
'

test_expect_success 'every line of the record carries its CRC-32' '
	setup &&
	record_all &&
	record_body | while IFS= read -r line; do
		crc_line "$line" || exit 1
	done >expect &&
	test_cmp expect state/state &&
	test_line_count = 12 state/state
'

test_expect_success 'record appends each entry, completed, in order' '
	setup &&
	record_all &&
	{
		record_head 4242 1000 0 "$PWD/run" &&
		printf "swapoff\t%s\tfile\t%s\n" "$PWD/run/swap file" \
			"$(stat -c %d:%i "run/swap file")" &&
		printf "rmfile\t%s/run/swapfile\t%s\n" "$PWD" \
			"$(stat -c %d:%i run/swapfile)" &&
		printf "rmdir\t%s/latency-tests.4242\tcgroup\n" "$CGROOT" &&
		printf "sysctl\tvm.page-cluster\t3\n" &&
		printf "sysfs\t/sys/kernel/mm/transparent_hugepage/enabled\tmadvise\n" &&
		printf "online\tmemory3\n" &&
		printf "hugepages\t0\n"
	} >expect &&
	record_body >actual &&
	test_cmp expect actual
'

test_expect_success 'restore undoes everything, last first, and removes the record' '
	setup &&
	record_all &&
	change_all &&
	machine restore --owner=4242 2>err &&
	p="latency-machine: restoring run pid 4242" &&
	{
		echo "$p: hugepages 0" &&
		echo "$p: online memory3" &&
		echo "$p: sysfs /sys/kernel/mm/transparent_hugepage/enabled madvise" &&
		echo "$p: sysctl vm.page-cluster 3" &&
		echo "$p: rmdir $CGROOT/latency-tests.4242" &&
		echo "$p: rmfile $PWD/run/swapfile" &&
		echo "$p: swapoff $PWD/run/swap file"
	} >expect &&
	test_cmp expect err &&
	echo "swapoff $PWD/run/swap file" >expect &&
	test_cmp expect swapoff.log &&
	! test -e state/state && ! test -e "$CGROOT/latency-tests.4242" &&
	! test -e run/swapfile && test -e "run/swap file" &&
	test "$(cat "$FAKE/proc/sys/vm/page-cluster")" = 3 &&
	test "$(cat "$FAKE/sys/kernel/mm/transparent_hugepage/enabled")" = madvise &&
	test "$(cat "$FAKE/sys/devices/system/memory/memory3/state")" = online &&
	test "$(cat "$FAKE/proc/sys/vm/nr_hugepages")" = 0
'

test_expect_success 'restore of changes never made says there was nothing to do' '
	setup &&
	record_all &&
	machine restore --owner=4242 2>err &&
	p="latency-machine: restoring run pid 4242" &&
	grep -x "$p: online memory3 (already online)" err &&
	grep -x "$p: rmdir $CGROOT/latency-tests.4242 (already gone)" err &&
	grep -x "$p: swapoff $PWD/run/swap file (not enabled)" err &&
	grep -x "$p: hugepages 0 (the pool holds 0 pages)" err &&
	! test -e swapoff.log && ! test -e state/state
'

test_expect_success 'without a record: nothing to restore, exit 0' '
	setup &&
	machine restore >out 2>err &&
	! test -s out &&
	echo "latency-machine: nothing to restore" >expect &&
	test_cmp expect err
'

test_expect_success 'a change that cannot be undone is reported and kept' '
	setup &&
	machine begin --owner=4242 --root="$PWD/run" &&
	machine record --owner=4242 rmfile "$PWD/run/swapfile" &&
	machine record --owner=4242 sysctl vm.no-such-knob 7 &&
	machine record --owner=4242 sysctl vm.page-cluster &&
	echo 0 >"$FAKE/proc/sys/vm/page-cluster" &&
	test_expect_code 1 machine restore --owner=4242 2>err &&
	grep "^latency-machine: restoring run pid 4242: sysctl vm.no-such-knob 7 failed: cannot write .*/vm/no-such-knob.: No such file or directory; kept in the record$" err &&
	grep "could not be undone; they stay in" err &&
	! test -e run/swapfile &&
	test "$(cat "$FAKE/proc/sys/vm/page-cluster")" = 3 &&
	{
		record_head 4242 1000 0 "$PWD/run" &&
		printf "sysctl\tvm.no-such-knob\t7\n"
	} >expect &&
	record_body >actual &&
	test_cmp expect actual &&
	echo 0 >"$FAKE/proc/sys/vm/no-such-knob" &&
	machine restore --owner=4242 2>err &&
	test "$(cat "$FAKE/proc/sys/vm/no-such-knob")" = 7 &&
	! test -e state/state
'

test_expect_success 'begin after a dead run restores it first, then records the new run' '
	setup &&
	record_all &&
	change_all &&
	rm -r "$FAKE/proc/4242" &&
	fake_pid 4343 2000 &&
	machine begin --owner=4343 2>err &&
	p="latency-machine: restoring after run pid 4242 (dead)" &&
	test_line_count = 7 err &&
	head -n 1 err >first && echo "$p: hugepages 0" >expect && test_cmp expect first &&
	tail -n 1 err >last && echo "$p: swapoff $PWD/run/swap file" >expect && test_cmp expect last &&
	test "$(cat "$FAKE/sys/devices/system/memory/memory3/state")" = online &&
	! test -e "$CGROOT/latency-tests.4242" &&
	record_head 4343 2000 >expect &&
	record_body >actual &&
	test_cmp expect actual
'

test_expect_success 'a live owner is refused, by begin and by restore without --owner' '
	setup &&
	record_all &&
	fake_pid 4343 2000 &&
	cp state/state before &&
	test_expect_code 3 machine begin --owner=4343 2>err &&
	echo "latency-machine: another run (pid 4242: ?) is in progress; it holds '\''$LATENCY_LOCK_DIR/latency-tests.lock'\''" >expect &&
	test_cmp expect err &&
	test_expect_code 3 machine restore 2>err &&
	echo "latency-machine: another run (pid 4242: ?) is in progress" >expect &&
	test_cmp expect err &&
	test_cmp before state/state
'

test_expect_success 'an owner whose pid now runs another process counts as dead' '
	setup &&
	machine begin --owner=4242 &&
	fake_pid 4242 1001 &&
	fake_pid 4343 2000 &&
	machine begin --owner=4343 &&
	record_head 4343 2000 >expect &&
	record_body >actual &&
	test_cmp expect actual
'

test_expect_success 'a zombie owner counts as dead' '
	setup &&
	machine begin --owner=4242 &&
	fake_pid 4242 1000 Z &&
	machine restore 2>err &&
	! test -e state/state
'

test_expect_success 'restore --owner leaves another run'\''s record alone' '
	setup &&
	record_all &&
	cp state/state before &&
	machine restore --owner=4343 2>err &&
	grep "nothing to restore for pid 4343 (the record belongs to run pid 4242)" err &&
	test_cmp before state/state
'

test_expect_success 'begin needs a live owner' '
	setup &&
	test_expect_code 1 machine begin --owner=4999 2>err &&
	grep "^latency-machine: cannot begin a record for pid 4999: No such process$" err &&
	! test -e state/state
'

test_expect_success 'record without a record of that owner fails' '
	setup &&
	test_expect_code 1 machine record --owner=4242 rmfile /tmp/x 2>err &&
	grep "no record of run pid 4242" err &&
	machine begin --owner=4242 &&
	test_expect_code 1 machine record --owner=4343 rmfile /tmp/x 2>err &&
	grep "no record of run pid 4343" err
'

test_expect_success 'record refuses a value with a tab or a newline' '
	setup &&
	machine begin --owner=4242 &&
	cp state/state before &&
	tab=$(printf "\t") &&
	test_expect_code 2 machine record --owner=4242 sysctl vm.x "1${tab}2" 2>err &&
	grep "refusing a value with a tab, newline" err &&
	test_expect_code 2 machine record --owner=4242 sysfs /sys/kernel/mm/b "1
2" 2>err &&
	test_expect_code 2 machine record --owner=4242 rmfile "/tmp/a${tab}b" 2>err &&
	test_cmp before state/state
'

test_expect_success 'zram: swapoff if still swap, reset, and hot_remove when the run made it' '
	setup &&
	mkdir -p "$FAKE/sys/block/zram0" "$FAKE/sys/block/zram1" \
		"$FAKE/sys/class/zram-control" &&
	for d in zram0 zram1; do
		echo 0 >"$FAKE/sys/block/$d/reset" &&
		echo 0 >"$FAKE/sys/block/$d/disksize" || return 1
	done &&
	: >"$FAKE/sys/class/zram-control/hot_remove" &&
	machine begin --owner=4242 &&
	machine record --owner=4242 zram zram0 &&
	machine record --owner=4242 zram 1 hot &&
	{
		record_head 4242 1000 &&
		printf "zram\tzram0\tkept\nzram\tzram1\thot\n"
	} >expect &&
	record_body >actual &&
	test_cmp expect actual &&
	for d in zram0 zram1; do
		echo 734003200 >"$FAKE/sys/block/$d/disksize" || return 1
	done &&
	printf "/dev/zram1                              partition\t1048572\t\t0\t\t-2\n" \
		>>"$FAKE/proc/swaps" &&
	machine restore --owner=4242 2>err &&
	p="latency-machine: restoring run pid 4242" &&
	printf "%s\n" "$p: zram zram1 hot" "$p: zram zram0 kept" >expect &&
	test_cmp expect err &&
	echo "swapoff /dev/zram1" >expect &&
	test_cmp expect swapoff.log &&
	test "$(cat "$FAKE/sys/block/zram0/reset")" = 1 &&
	test "$(cat "$FAKE/sys/block/zram1/reset")" = 1 &&
	test "$(cat "$FAKE/sys/class/zram-control/hot_remove")" = 1 &&
	! test -e state/state
'

test_expect_success 'zram: a device that went away has nothing to undo; bad entries refused' '
	setup &&
	machine begin --owner=4242 &&
	machine record --owner=4242 zram zram7 hot &&
	machine restore --owner=4242 2>err &&
	grep -x "latency-machine: restoring run pid 4242: zram zram7 hot (no such device now)" err &&
	machine begin --owner=4242 &&
	test_expect_code 2 machine record --owner=4242 zram sda 2>err &&
	grep "zram: .sda. is not a zram device" err &&
	test_expect_code 2 machine record --owner=4242 zram zram1 cold 2>err &&
	grep "zram: .cold. is not .hot." err
'

# hot_add makes the device before the run knows its number: zramnew,
# recorded before, removes what a run killed in between left.
test_expect_success 'zramnew: the devices a dead run hot_added and never set up are removed' '
	setup &&
	for d in zram0 zram2 zram3 zram4; do
		mkdir -p "$FAKE/sys/block/$d" &&
		echo 0 >"$FAKE/sys/block/$d/disksize" || return 1
	done &&
	echo 734003200 >"$FAKE/sys/block/zram3/disksize" &&
	mkdir -p "$FAKE/sys/block/sda" "$FAKE/sys/class/zram-control" &&
	: >"$FAKE/sys/class/zram-control/hot_remove" &&
	machine begin --owner=4242 &&
	machine record --owner=4242 zramnew 0,2 &&
	{ record_head 4242 1000 && printf "zramnew\t0,2\n"; } >expect &&
	record_body >actual &&
	test_cmp expect actual &&
	machine restore --owner=4242 2>err &&
	echo "latency-machine: restoring run pid 4242: zramnew 0,2 (removed zram4)" >expect &&
	test_cmp expect err &&
	echo 4 >expect &&
	test_cmp expect "$FAKE/sys/class/zram-control/hot_remove" &&
	! test -e state/state
'

test_expect_success 'zramnew: nothing new, nothing removed; bad lists refused' '
	setup &&
	mkdir -p "$FAKE/sys/block/zram0" &&
	echo 0 >"$FAKE/sys/block/zram0/disksize" &&
	machine begin --owner=4242 &&
	machine record --owner=4242 zramnew 0 &&
	machine restore --owner=4242 2>err &&
	echo "latency-machine: restoring run pid 4242: zramnew 0" >expect &&
	test_cmp expect err &&
	machine begin --owner=4242 &&
	machine record --owner=4242 zramnew none &&
	for bad in "" "0," ",1" "a" "1,,2" "12345678" "0;rm"; do
		test_expect_code 2 machine record --owner=4242 zramnew "$bad" 2>err &&
		grep -q "zramnew: .* is not a list of zram device numbers" err || return 1
	done
'

test_expect_success 'record checks kinds and arguments' '
	setup &&
	machine begin --owner=4242 &&
	cp state/state before &&
	test_expect_code 2 machine record --owner=4242 mkfs /dev/sda 2>err &&
	grep "unknown KIND .mkfs." err &&
	test_expect_code 2 machine record --owner=4242 rmfile relative/path &&
	test_expect_code 2 machine record --owner=4242 rmdir /sys/fs/cgroup/../x &&
	test_expect_code 2 machine record --owner=4242 sysfs /etc/passwd x &&
	test_expect_code 2 machine record --owner=4242 sysctl ../../etc/x 1 &&
	test_expect_code 2 machine record --owner=4242 online memoryX &&
	test_expect_code 2 machine record --owner=4242 hugepages -1 &&
	test_expect_code 2 machine record --owner=4242 swapoff &&
	test_expect_code 2 machine record --owner=4242 swapoff /a /b &&
	test_expect_code 2 machine record --owner=4242 2>err &&
	grep "no KIND given" err &&
	test_expect_code 1 machine record --owner=4242 sysctl vm.absent 2>err &&
	grep "cannot read the current value" err &&
	test_cmp before state/state
'

test_expect_success 'a sysctl value may start with a dash (options stop at KIND)' '
	setup &&
	machine begin --owner=4242 &&
	machine record --owner=4242 sysctl vm.page-cluster -1 &&
	record_body | tail -n 1 >last &&
	printf "sysctl\tvm.page-cluster\t-1\n" >expect &&
	test_cmp expect last
'

test_expect_success 'a symlinked record is refused, and its target left alone' '
	setup &&
	mkdir -m 700 state &&
	ln -s "$PWD/planted" state/state &&
	test_expect_code 1 machine begin --owner=4242 2>err &&
	grep "refusing record .*/state/state.: it is a symbolic link" err &&
	! test -e planted &&
	echo keep >planted &&
	test_expect_code 1 machine restore 2>err &&
	grep "symbolic link" err &&
	echo keep >expect && test_cmp expect planted
'

test_expect_success 'a group-writable or symlinked state directory is refused' '
	setup &&
	mkdir -m 770 state &&
	chmod 770 state &&
	test_expect_code 1 machine begin --owner=4242 2>err &&
	grep "refusing state directory .*: writable by group or others (mode 0770)" err &&
	! test -e state/state &&
	rmdir state && mkdir -m 700 real && ln -s real state &&
	test_expect_code 1 machine begin --owner=4242 2>err &&
	grep "refusing state directory .*: it is a symbolic link" err &&
	! test -e real/state
'

test_expect_success 'a record that is not ours to read is refused' '
	setup &&
	mkdir -m 700 state &&
	echo "not a record" >state/state && chmod 600 state/state &&
	test_expect_code 1 machine restore 2>err &&
	grep "is not a latency-machine record of format 1" err
'

# The pid entries on real processes (LATENCY_PROC is the real /proc here).
real_machine() {
	LATENCY_STATE_DIR=$TRASH_DIRECTORY/state latency-machine "$@"
}

test_expect_success 'a recorded process is stopped by restore' '
	rm -rf state &&
	real_machine begin --owner=$$ &&
	{ sleep 600 & } &&
	pid=$! &&
	real_machine record --owner=$$ pid $pid &&
	real_machine restore --owner=$$ 2>err &&
	echo "latency-machine: restoring run pid $$: pid $pid" >expect &&
	test_cmp expect err &&
	test_expect_code 143 wait $pid
'

test_expect_success 'a recycled pid (another start time) is left alone' '
	rm -rf state &&
	real_machine begin --owner=$$ &&
	{ sleep 600 & } &&
	pid=$! &&
	real_machine record --owner=$$ pid $pid &&
	start=$(record_body | sed -n "s/^pid\t$pid\t//p") &&
	grep -v "^pid	" state/state >s.new &&
	crc_line "$(printf "pid\t%s\t%s" $pid $((start + 1)))" >>s.new &&
	cat s.new >state/state &&
	real_machine restore --owner=$$ 2>err &&
	echo "latency-machine: restoring run pid $$: pid $pid (another process has that pid now; left alone)" >expect &&
	test_cmp expect err &&
	kill -0 $pid &&
	kill $pid && test_expect_code 143 wait $pid
'

test_expect_success 'a recorded process that ignores SIGTERM is killed' '
	rm -rf state &&
	real_machine begin --owner=$$ &&
	{ sh -c "trap \"\" TERM; touch ready; exec sleep 600" & } &&
	pid=$! &&
	while ! test -e ready; do sleep 0.1; done &&
	real_machine record --owner=$$ pid $pid &&
	real_machine restore --owner=$$ 2>err &&
	test_expect_code 137 wait $pid
'

test_done
