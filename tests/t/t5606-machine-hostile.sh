#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016
# (test bodies are single-quoted on purpose; test-lib.sh evaluates them)
test_description='latency-machine: a hostile, torn or planted record undoes only what a run did'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-machine.sh"

# Everything here is fake or in this directory: the kernel is $FAKE (proc
# and sys), swapoff is a stub that logs, the files a record names to remove
# are victim files in this directory (a version without the checks deletes
# them: nothing outside), and no pid entry names a process that exists.
mkdir bin &&
cat >bin/swapoff <<EOF &&
#!/bin/sh
echo "swapoff \$*" >>"$TRASH_DIRECTORY/swapoff.log"
EOF
chmod +x bin/swapoff || exit 1
PATH=$TRASH_DIRECTORY/bin:$PATH

# The machine of every test: run pid 4242 (start 1000) alive, the knobs a
# hostile record aims at, a swap device that is the system's, victims.
setup() {
	rm -rf state swapoff.log run victim* relfile "$CGROOT" &&
	fake_tree 2048 1536 16384 &&
	fake_pid 4242 1000 &&
	mkdir -p "$FAKE/proc/sys/kernel" "$FAKE/sys/power" run &&
	echo core >"$FAKE/proc/sys/kernel/core_pattern" &&
	echo "freeze mem" >"$FAKE/sys/power/state" &&
	echo 3 >"$FAKE/proc/sys/vm/page-cluster" &&
	echo keep >victim && echo keep >victim2 && echo keep >relfile &&
	printf "/dev/sda9                               partition\t1048572\t0\t-2\n" \
		>>"$FAKE/proc/swaps"
}

# unchanged: nothing the hostile entries aim at was touched.
unchanged() {
	test "$(cat "$FAKE/proc/sys/kernel/core_pattern")" = core &&
	test "$(cat "$FAKE/sys/power/state")" = "freeze mem" &&
	test "$(cat "$FAKE/proc/sys/vm/nr_hugepages")" = 0 &&
	! test -e swapoff.log &&
	test -e victim && test -e victim2 && test -e relfile
}

# The audit's record, as a version without checks wrote records (format
# 1): every entry it held was applied by a restore as root.
audit_entries() {
	printf "sysctl\tkernel.core_pattern\t|/x/evil %%p\n"
	printf "sysfs\t/sys/power/state\tmem\n"
	printf "hugepages\t18446744073709551615\n"
	printf "swapoff\t/dev/sda9\n"
	printf "rmfile\trelfile\n"
	printf "rmfile\t/var/..%s/victim\n" "$PWD"
	printf "rmfile\t%s/victim2\n" "$PWD"
	printf "pid\t1\t0\n"
}

test_expect_success 'a format-1 record of the audit: every entry refused, kept, none applied' '
	setup &&
	mkdir -m 700 state &&
	{ printf "format\t1\nowner\t4242\t1000\n" && audit_entries; } >state/state &&
	chmod 600 state/state && cp state/state before &&
	test_expect_code 1 machine restore --owner=4242 2>err &&
	unchanged &&
	test_cmp before state/state &&
	test "$(grep -c "^latency-machine: restoring run pid 4242: refusing .*; kept in the record, not applied$" err)" = 8 &&
	p="latency-machine: restoring run pid 4242: refusing" &&
	grep -x "$p .sysctl kernel.core_pattern |/x/evil %p.: only sysctls under vm. may be changed (vm.NAME); kept in the record, not applied" err &&
	grep -x "$p .sysfs /sys/power/state mem.: only sysfs knobs under /sys/kernel/mm/, /sys/module/zswap/parameters/ and a block device.s queue/read_ahead_kb, scheduler, max_sectors_kb and nr_requests may be changed; kept in the record, not applied" err &&
	grep -x "$p .hugepages 18446744073709551615.: above the pool there is now; kept in the record, not applied" err &&
	grep -x "$p .pid 1.: init, latency-machine itself or the run.s driver; kept in the record, not applied" err &&
	grep -x "$p .rmfile relfile.: written by an older .*" err &&
	grep "8 change(s) could not be undone" err
'

test_expect_success 'the same entries with valid checksums (format 2): refused by the checks' '
	setup &&
	mkdir -m 700 state &&
	{
		crc_line "format	2" &&
		crc_line "owner	4242	1000" &&
		crc_line "pool	0" &&
		crc_line "cgroup	$CGROOT" &&
		crc_line "root	$PWD/run	$(stat -c %d:%i run)" &&
		crc_line "sysctl	kernel.core_pattern	|/x/evil %p" &&
		crc_line "sysfs	/sys/power/state	mem" &&
		crc_line "hugepages	18446744073709551615" &&
		crc_line "rmfile	relfile	1:2" &&
		crc_line "rmfile	/var/..$PWD/victim	1:2" &&
		crc_line "rmfile	$PWD/victim2	$(stat -c %d:%i victim2)" &&
		crc_line "rmdir	$PWD/run/../victim	cgroup" &&
		crc_line "pid	1	2000" &&
		crc_line "pid	4242	1000" &&
		crc_line "pid	4343	999"
	} >state/state &&
	chmod 600 state/state && cp state/state before &&
	test_expect_code 1 machine restore --owner=4242 2>err &&
	unchanged &&
	test_cmp before state/state &&
	p="latency-machine: restoring run pid 4242: refusing" &&
	grep -x "$p .hugepages 18446744073709551615.: above the pool the run began with; kept in the record, not applied" err &&
	grep -x "$p .rmfile relfile.: not a clean absolute path; kept .*" err &&
	grep -x "$p .rmfile /var/..$PWD/victim.: not a clean absolute path; kept .*" err &&
	grep -x "$p .rmfile $PWD/victim2.: not inside a directory the run declared; kept .*" err &&
	grep -x "$p .rmdir $PWD/run/../victim.: not a clean absolute path; kept .*" err &&
	grep -x "$p .pid 1.: init, latency-machine itself or the run.s driver; kept .*" err &&
	grep -x "$p .pid 4242.: init, latency-machine itself or the run.s driver; kept .*" err &&
	grep -x "$p .pid 4343.: a process older than the run; kept .*" err &&
	grep "10 change(s) could not be undone" err
'

test_expect_success 'swap is turned off only where the run recorded it, by identity' '
	setup &&
	mkdir -m 700 state &&
	: >run/swapfile && : >run/other &&
	{
		crc_line "format	2" &&
		crc_line "owner	4242	1000" &&
		crc_line "pool	0" &&
		crc_line "cgroup	$CGROOT" &&
		crc_line "root	$PWD/run	$(stat -c %d:%i run)" &&
		crc_line "swapoff	$PWD/run/swapfile	file	$(stat -c %d:%i run/other)"
	} >state/state &&
	chmod 600 state/state &&
	printf "%s file 1024 0 -3\n" "$PWD/run/swapfile" >>"$FAKE/proc/swaps" &&
	machine restore --owner=4242 2>err &&
	echo "latency-machine: restoring run pid 4242: swapoff $PWD/run/swapfile (not enabled)" >expect &&
	test_cmp expect err &&
	! test -e swapoff.log
'

test_expect_success 'record refuses what the audit recorded' '
	setup &&
	machine begin --owner=4242 --root="$PWD/run" &&
	cp state/state before &&
	test_expect_code 2 machine record --owner=4242 sysctl kernel.core_pattern "|/x/evil %p" 2>err &&
	grep -x "latency-machine: sysctl: refusing .kernel.core_pattern.: only sysctls under vm. may be changed (vm.NAME)" err &&
	test_expect_code 2 machine record --owner=4242 sysfs /sys/power/state mem 2>err &&
	test_expect_code 2 machine record --owner=4242 hugepages 18446744073709551615 2>err &&
	grep -x "latency-machine: record: refusing .hugepages 18446744073709551615.: above the pool the run began with" err &&
	test_expect_code 2 machine record --owner=4242 rmfile relfile 2>err &&
	test_expect_code 2 machine record --owner=4242 rmfile "/var/..$PWD/victim" 2>err &&
	grep -x "latency-machine: rmfile: ./var/..$PWD/victim. is not a clean absolute path" err &&
	test_expect_code 2 machine record --owner=4242 rmfile "$PWD/victim" 2>err &&
	grep -x "latency-machine: rmfile: .$PWD/victim. is not inside a directory the run declared (begin --root)" err &&
	test_expect_code 2 machine record --owner=4242 rmdir "$CGROOT/latency-tests.4343" 2>err &&
	test_expect_code 2 machine record --owner=4242 pid 1 2>err &&
	grep -x "latency-machine: pid: refusing 1: init, latency-machine itself or the run.s own driver" err &&
	test_expect_code 2 machine record --owner=4242 pid 4242 2>err &&
	test_cmp before state/state &&
	unchanged
'

test_expect_success 'record: a file must exist and be the run'\''s; swap must not be on already' '
	setup &&
	machine begin --owner=4242 --root="$PWD/run" &&
	cp state/state before &&
	test_expect_code 1 machine record --owner=4242 rmfile "$PWD/run/nothing" 2>err &&
	grep "rmfile: cannot record .*nothing. (make it first, then record it): No such file or directory" err &&
	ln -s ../victim run/link &&
	test_expect_code 1 machine record --owner=4242 rmfile "$PWD/run/link" 2>err &&
	grep "rmfile: .*/run/link. is not a regular file with one link" err &&
	: >run/swapfile &&
	printf "%s file 1024 0 -3\n" "$PWD/run/swapfile" >>"$FAKE/proc/swaps" &&
	test_expect_code 1 machine record --owner=4242 swapoff "$PWD/run/swapfile" 2>err &&
	grep -x "latency-machine: swapoff: .$PWD/run/swapfile. is swap already: not the run.s to turn off" err &&
	test_cmp before state/state
'

test_expect_success 'a file replaced after it was recorded is left alone' '
	setup &&
	machine begin --owner=4242 --root="$PWD/run" &&
	echo run >run/file &&
	machine record --owner=4242 rmfile "$PWD/run/file" &&
	mv run/file run/moved && echo other >run/file &&
	machine restore --owner=4242 2>err &&
	echo "latency-machine: restoring run pid 4242: rmfile $PWD/run/file (another file is there now; left alone)" >expect &&
	test_cmp expect err &&
	test "$(cat run/file)" = other
'

test_expect_success 'a root that is another directory now: its files are left alone' '
	setup &&
	machine begin --owner=4242 --root="$PWD/run" &&
	echo run >run/file &&
	machine record --owner=4242 rmfile "$PWD/run/file" &&
	mv run run.old && mkdir run && echo other >run/file &&
	machine restore --owner=4242 2>err &&
	grep -x "latency-machine: restoring run pid 4242: rmfile $PWD/run/file (the run.s directory is another one now; left alone)" err &&
	test "$(cat run/file)" = other && test -e run.old/file &&
	rm -rf run.old
'

test_expect_success 'begin refuses a root others can change, a link, or /' '
	setup &&
	mkdir -m 777 open && ln -s run linked &&
	test_expect_code 1 machine begin --owner=4242 --root="$PWD/open" 2>err &&
	grep "refusing .*/open.: others can change what is in it" err &&
	test_expect_code 1 machine begin --owner=4242 --root="$PWD/linked" 2>err &&
	test_expect_code 2 machine begin --owner=4242 --root=/ 2>err &&
	test_expect_code 2 machine begin --owner=4242 --root=run 2>err &&
	! test -e state/state
'

# A record cut short two bytes from its end (the audit: "restore wrote 1"
# for a recorded 10), by the tool's own record, whatever its format.
test_expect_success 'a torn last line is not an entry: ignored and reported' '
	setup &&
	machine begin --owner=4242 &&
	machine record --owner=4242 sysctl vm.page-cluster 10 &&
	echo 0 >"$FAKE/proc/sys/vm/page-cluster" &&
	size=$(wc -c <state/state) &&
	head -c $((size - 2)) state/state >cut && cat cut >state/state &&
	machine restore --owner=4242 2>err &&
	grep "^latency-machine: restoring run pid 4242: ignoring the torn last line .sysctl\\\\tvm.page-cluster\\\\t10.* (no newline: a write cut short, not an entry)$" err &&
	test "$(cat "$FAKE/proc/sys/vm/page-cluster")" = 0 &&
	! test -e state/state
'

# Cut so that the path of the victim2 entry reads victim: a shorter-named
# file than the one recorded.
test_expect_success 'a torn rmfile line never removes a shorter-named file' '
	setup &&
	echo keep >run/victim && echo keep >run/victim2 &&
	machine begin --owner=4242 --root="$PWD/run" &&
	machine record --owner=4242 rmfile "$PWD/run/victim2" &&
	at=$(grep -b -o "run/victim2" state/state | cut -d: -f1) &&
	head -c $((at + 10)) state/state >cut && cat cut >state/state &&
	machine restore --owner=4242 2>err &&
	grep "ignoring the torn last line .rmfile\\\\t$PWD/run/victim." err &&
	test -e run/victim && test -e run/victim2
'

test_expect_success 'the next record cuts a torn line off instead of completing it' '
	setup &&
	echo keep >run/victim && echo keep >run/victim2 &&
	machine begin --owner=4242 --root="$PWD/run" &&
	machine record --owner=4242 rmfile "$PWD/run/victim2" &&
	at=$(grep -b -o "run/victim2" state/state | cut -d: -f1) &&
	head -c $((at + 10)) state/state >cut && cat cut >state/state &&
	machine record --owner=4242 sysctl vm.page-cluster 2>err &&
	grep "^latency-machine: dropping the torn last line .rmfile.*victim. of .*state. (no newline: a write cut short)$" err &&
	! grep victim state/state &&
	machine restore --owner=4242 2>err &&
	test -e run/victim && test -e run/victim2 &&
	echo "latency-machine: restoring run pid 4242: sysctl vm.page-cluster 3" >expect &&
	test_cmp expect err
'

test_expect_success 'a line whose checksum fails is kept, reported, not applied' '
	setup &&
	machine begin --owner=4242 &&
	machine record --owner=4242 sysctl vm.page-cluster 3 &&
	sed "s/page-cluster\t3/page-cluster\t1/" state/state >s.new &&
	cat s.new >state/state &&
	echo 0 >"$FAKE/proc/sys/vm/page-cluster" &&
	test_expect_code 1 machine restore --owner=4242 2>err &&
	grep "restoring run pid 4242: line 5 .sysctl\\\\tvm.page-cluster\\\\t1\\\\t[0-9a-f]*. is not a whole entry: its checksum does not match (a line cut short or changed); kept in the record, not applied$" err &&
	test "$(cat "$FAKE/proc/sys/vm/page-cluster")" = 0 &&
	grep "page-cluster	1	" state/state
'

test_expect_success 'a FIFO as the record: refused at once, nothing held' '
	setup &&
	mkdir -m 700 state && mkfifo -m 600 state/state &&
	test_expect_code 1 timeout 20 env LATENCY_PROC=$FAKE/proc \
		LATENCY_STATE_DIR=$PWD/state latency-machine restore 2>err &&
	grep -x "latency-machine: refusing record .$PWD/state/state.: not a regular file of uid [0-9]* that only it can write" err &&
	test_expect_code 1 timeout 20 env LATENCY_PROC=$FAKE/proc \
		LATENCY_STATE_DIR=$PWD/state latency-machine begin --owner=4242 2>err &&
	grep "not a regular file" err
'

test_expect_success 'control characters of a record are escaped in messages' '
	setup &&
	mkdir -m 700 state &&
	{ printf "format\t1\nowner\t4242\t1000\n" && printf "sysctl\tvm.x\t\033[31mred\n"; } >state/state &&
	chmod 600 state/state &&
	test_expect_code 1 machine restore --owner=4242 2>err &&
	! grep -q "$(printf "\033")" err &&
	grep -F "vm.x \\x1b[31mred" err
'

test_done
