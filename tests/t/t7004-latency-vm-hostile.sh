#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-vm and a hostile guest: what comes back from its results disk'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-vm.sh"

vm_need_qemu

fake_bzimage bzImage 9.8.7-guest

# guest_tree DIR: a results disk's content: the job's status (exit 0)
# and the result directory of label g, empty.
guest_tree() {
	mkdir -p "$1/.latency-vm" "$1/g" &&
	echo exit=0 >"$1/.latency-vm/status"
}

# vm_guest TREE [OPTION]...: latency-vm with the guest writing TREE, as
# label g in res-TREE; its status in st, the result directory in R.
vm_guest() {
	_t=$1 && shift &&
	fake_guest_qemu fake-qemu "$PWD/$_t" &&
	R=res-$_t/g &&
	{ LATENCY_VM_QEMU=$PWD/fake-qemu "$vm" --kernel=bzImage --accel=tcg \
		--memory=128M --cpus=1 --results="res-$_t" --label=g "$@" \
		-- --commits=2000 >out 2>err; st=$?; } &&
	test -z "$(vm_runs_left)"
}

test_expect_success JQ "a guest's links, devices, modes and owners: not followed, not kept" '
	guest_tree t1 && r=t1/g &&
	echo "host file" >victim && mkdir victim-dir cron &&
	echo "root only" >secret && chmod 600 secret &&
	ln -s "$PWD/cron/job" $r/run.facts.tmp &&
	ln -s "$PWD/victim" $r/console.log &&
	ln -s "$PWD/victim-dir" $r/vm.json &&
	ln -s "$PWD/secret" $r/run.facts &&
	ln -s "$PWD" $r/up &&
	mkfifo $r/fifo &&
	mkdir -m 777 $r/sysinfo && echo data >$r/sysinfo/data &&
	chmod 4755 $r/sysinfo/data && chown -R 1000:1000 $r/sysinfo &&
	mkdir $r/qemu.err $r/report.html &&
	vm_guest t1 &&
	test "$st" = 0 &&
	echo "host file" >expect && test_cmp expect victim &&
	test -z "$(ls -A victim-dir)" && test -z "$(ls -A cron)" &&
	! grep -r "root only" $R &&
	test -z "$(find $R ! -type f ! -type d)" &&
	test -z "$(find $R ! -user 0)" &&
	test "$(stat -c %a $R/sysinfo $R/sysinfo/data)" = "755
644" &&
	echo data >expect && test_cmp expect $R/sysinfo/data &&
	test -f $R/console.log && test -f $R/vm.json &&
	test -f $R/qemu.cmdline &&
	test_json $R/result.json ".notes | map(select(startswith(\"latency-vm:\"))) |
		sort | join(\"|\")" \
"latency-vm: refused from the results disk: console.log (a symbolic link)|latency-vm: refused from the results disk: fifo (not a regular file or directory)|latency-vm: refused from the results disk: qemu.err (a name the host writes)|latency-vm: refused from the results disk: report.html (a name the host writes)|latency-vm: refused from the results disk: run.facts (a symbolic link)|latency-vm: refused from the results disk: run.facts.tmp (a symbolic link)|latency-vm: refused from the results disk: up (a symbolic link)|latency-vm: refused from the results disk: vm.json (a symbolic link)" &&
	! test -d $R/report.html &&
	grep "^latency-vm: warning: 8 entries of the guest.s results disk refused (see the notes in $PWD/$R)$" err
'

test_expect_success JQ 'a sparse file over the caps: refused, noted, partial; holes kept' '
	guest_tree t2 && r=t2/g &&
	truncate -s 2G $r/big &&
	truncate -s 8M $r/holey && echo end >>$r/holey &&
	echo small >$r/small &&
	vm_guest t2 &&
	test "$st" = 1 &&
	! test -e $R/big &&
	cmp t2/g/holey $R/holey &&
	test "$(du -k $R/holey | cut -f1)" -lt 1024 &&
	test_json $R/result.json "[.partial, .partial_reason] | tojson" \
		"[true,\"1 files of the guest'"'"'s result were refused (see notes)\"]" &&
	test_json $R/result.json ".notes[0]" \
		"latency-vm: refused from the results disk: big (2147483648 bytes, over the 268435456 bytes the host takes back)" &&
	grep -x "latency-vm: 1 files of the guest.s result were refused (see notes) (result in $PWD/$R)" err
'

test_expect_success JQ 'a file claiming 16 TiB (set by debugfs, no data): refused, its size said' '
	guest_tree t2b && echo x >t2b/g/huge && echo y >t2b/g/small &&
	FAKE_GUEST_DEBUGFS="sif /g/huge size 17592186040320" vm_guest t2b &&
	test "$st" = 1 &&
	! test -e $R/huge && test -f $R/small &&
	test_json $R/result.json ".notes[0]" \
		"latency-vm: refused from the results disk: huge (17592186040320 bytes, over the 268435456 bytes the host takes back)"
'

# A run removes files (an empty report.log); where one began a directory
# block, ext4 leaves an empty slot (inode 0) that debugfs lists: not a
# file, nothing refused.
test_expect_success JQ 'removed entries (empty slots of a directory): skipped, nothing refused' '
	guest_tree t2c && echo y >t2c/g/small &&
	for i in $(seq 10 69); do
		echo "rm /g/removed-entry-with-a-long-name-to-fill-directory-blocks-$i" &&
		: >t2c/g/removed-entry-with-a-long-name-to-fill-directory-blocks-$i ||
		return 1
	done >rm-cmds &&
	FAKE_GUEST_DEBUGFS_FILE=$PWD/rm-cmds vm_guest t2c &&
	test "$st" = 0 &&
	test -f $R/small && ! ls $R | grep -q removed &&
	test_json $R/result.json ".notes | map(select(startswith(\"latency-vm:\"))) | length" 0 &&
	! grep "refused" err
'

test_expect_success JQ 'the caps of bytes and files: the rest refused, the run partial' '
	guest_tree t3 &&
	for i in 1 2 3 4 5 6 7; do echo "$i" >t3/g/f$i || return 1; done &&
	LATENCY_VM_RESULT_FILES=5 vm_guest t3 &&
	test "$st" = 1 &&
	test "$(ls $R | grep -c "^f")" = 5 &&
	test_json $R/result.json ".notes | map(select(test(\"^latency-vm: refused from the results disk: f[1-7] .over the 5 files the host takes back.$\"))) | length" 2 &&
	test_json $R/result.json .partial_reason \
		"2 files of the guest'"'"'s result were refused (see notes)" &&
	guest_tree t3b && echo small >t3b/g/small &&
	head -c 3000 /dev/zero >t3b/g/f3000 &&
	LATENCY_VM_RESULT_BYTES=2000 vm_guest t3b &&
	test "$st" = 1 &&
	ls $R/small && ! test -e $R/f3000 &&
	test_json $R/result.json ".notes[0]" \
		"latency-vm: refused from the results disk: f3000 (3000 bytes, over the 2000 bytes the host takes back)"
'

test_expect_success 'a guest status that is not a small number is not taken' '
	guest_tree t4 && echo exit=99999999999999999999 >t4/.latency-vm/status &&
	vm_guest t4 &&
	test "$st" = 1 &&
	grep -e "^latency-vm: the guest stopped without saying why" \
		-e "^latency-vm: the guest never reached the suite" err
'

test_expect_success 'a release that is not a label: refused before anything is made' '
	fake_bzimage dotdot .. &&
	guest_tree t5 && fake_guest_qemu fake-qemu "$PWD/t5" &&
	test_expect_code 1 env LATENCY_VM_QEMU=$PWD/fake-qemu "$vm" \
		--kernel=dotdot --accel=tcg --memory=128M --cpus=1 \
		--results=res5 -- --commits=2000 2>err &&
	grep -x "latency-vm: the release '"'"'..'"'"' of --kernel=dotdot is not a label (letters, digits, . _ + -, not starting with .): give --label" err &&
	! test -e res5 && test -z "$(vm_runs_left)"
'

test_expect_success 'latency-summarize failing: no "result in", exit 1' '
	guest_tree t6 && echo 1 >t6/g/one &&
	mkdir -p failbin &&
	printf "#!/bin/sh\necho \"latency-summarize: broken\" >&2\nexit 1\n" \
		>failbin/latency-summarize &&
	chmod +x failbin/latency-summarize &&
	LATENCY_TESTS_BINDIR=$PWD/failbin vm_guest t6 &&
	test "$st" = 1 &&
	! test -e $R/result.json &&
	grep -x "latency-vm: no result: latency-summarize made no result.json in $PWD/$R" err &&
	! grep "result in" err
'

test_expect_success 'a comma in the cache directory: the disks are where QEMU is told' '
	guest_tree t7 && echo 1 >t7/g/one &&
	LATENCY_CACHE_DIR=$PWD/ca,che vm_guest t7 &&
	test "$st" = 0 &&
	echo 1 >expect && test_cmp expect $R/one &&
	grep -q "file=$PWD/ca,,che/vm/run\.[A-Za-z0-9]*/results.img," $R/qemu.cmdline &&
	test -z "$(ls -d ca,che/vm/run.* 2>/dev/null)"
'

test_expect_success '--verbose: the guest console reaches the terminal without control characters' '
	guest_tree t8 && echo 1 >t8/g/one &&
	printf "title\033]0;pwned\007 bell\033[2J end\r\n" >console-in &&
	FAKE_CONSOLE=$PWD/console-in vm_guest t8 --verbose &&
	test "$st" = 0 &&
	grep -F -x "title]0;pwned bell[2J end" err &&
	! LC_ALL=C grep -q "[[:cntrl:]]" err
'

test_expect_success JQ 'a results disk e2fsck cannot repair: not read, partial, said' '
	guest_tree t9 && echo 1 >t9/g/one &&
	FAKE_GUEST_DISK=garbage vm_guest t9 &&
	test "$st" = 1 &&
	why="the guest'"'"'s results disk could not be repaired (e2fsck exited 8): nothing read from it" &&
	grep -x "latency-vm: $why (result in $PWD/$R)" err &&
	test_json $R/result.json .partial_reason "$why" &&
	! test -e $R/one
'

test_done
