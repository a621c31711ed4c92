#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-machine swapon, swapfile, zram, cgroup, cgroup-exec, drop-caches: recorded, made, undone'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-machine.sh"

# Stub mkswap, swapon and swapoff: they log what they were asked, and
# swapon and swapoff keep the fake /proc/swaps as the kernel would.
mkdir bin &&
cat >bin/mkswap <<STUB &&
#!/bin/sh
echo "mkswap \$*" >>"$TRASH_DIRECTORY/tools.log"
STUB
cat >bin/swapon <<STUB &&
#!/bin/sh
echo "swapon \$*" >>"$TRASH_DIRECTORY/tools.log"
test -e "\$1.refuse" && exit 255
printf '%s\tfile\t1024\t0\t-2\n' "\$1" >>"$FAKE/proc/swaps"
STUB
cat >bin/swapoff <<STUB &&
#!/bin/sh
echo "swapoff \$*" >>"$TRASH_DIRECTORY/tools.log"
grep -v "^\$1	" "$FAKE/proc/swaps" >"$FAKE/proc/swaps.new"
mv "$FAKE/proc/swaps.new" "$FAKE/proc/swaps"
STUB
chmod +x bin/mkswap bin/swapon bin/swapoff || exit 1
PATH=$TRASH_DIRECTORY/bin:$PATH
# The zram device nodes are files of the fake tree.
LATENCY_DEV=$FAKE/dev
export LATENCY_DEV

setup() {
	rm -rf state tools.log run "$CGROOT" &&
	fake_tree 2048 1536 16384 &&
	fake_pid 4242 1000 &&
	fake_pid 4343 1001 &&
	mkdir -m 755 run "$CGROOT" &&
	machine begin --owner=4242 --root="$PWD/run" &&
	cp "$FAKE/proc/swaps" swaps.before
}

test_expect_success 'swapfile: made, recorded as rmfile and swapoff, enabled' '
	setup &&
	machine swapfile --owner=4242 "$PWD/run/swap" 64k &&
	test "$(stat -c %s:%a run/swap)" = 65536:600 &&
	head -c 65536 /dev/zero >zeros &&
	test_cmp zeros run/swap &&
	{
		record_head 4242 1000 0 "$PWD/run" &&
		printf "rmfile\t%s\t%s\n" "$PWD/run/swap" "$(stat -c %d:%i run/swap)" &&
		printf "swapoff\t%s\tfile\t%s\n" "$PWD/run/swap" "$(stat -c %d:%i run/swap)"
	} >expect &&
	record_body >actual &&
	test_cmp expect actual &&
	printf "%s\n" "mkswap -q $PWD/run/swap" "swapon $PWD/run/swap" >expect &&
	test_cmp expect tools.log
'

test_expect_success 'restore undoes it exactly: swapoff, then the file removed' '
	machine restore --owner=4242 2>err &&
	p="latency-machine: restoring run pid 4242" &&
	printf "%s\n" "$p: swapoff $PWD/run/swap" "$p: rmfile $PWD/run/swap" >expect &&
	test_cmp expect err &&
	test_cmp swaps.before "$FAKE/proc/swaps" &&
	! test -e run/swap && ! test -e state/state
'

test_expect_success 'swapfile: refused outside the run'"'"'s directories, an existing file kept' '
	setup &&
	test_expect_code 2 machine swapfile --owner=4242 "$PWD/swap" 64k 2>err &&
	grep -x "latency-machine: swapfile: refusing .$PWD/swap.: not inside a directory the run declared" err &&
	: >run/taken &&
	test_expect_code 1 machine swapfile --owner=4242 "$PWD/run/taken" 64k 2>err &&
	grep -x "latency-machine: swapfile: cannot create .$PWD/run/taken.: File exists" err &&
	test_expect_code 2 machine swapfile --owner=4242 "$PWD/run/x" 0x 2>err &&
	record_head 4242 1000 0 "$PWD/run" >expect &&
	record_body >actual &&
	test_cmp expect actual &&
	test -f run/taken && ! test -e run/x && ! test -e tools.log
'

test_expect_success 'swapfile: larger than the free space: refused before anything is made' '
	setup &&
	for size in 18446744073709551615 100T; do
		test_expect_code 3 machine swapfile --owner=4242 "$PWD/run/x" $size 2>err &&
		grep -x "latency-machine: swapfile: [0-9]* bytes for .$PWD/run/x. are more than the [0-9]* bytes free in .$PWD/run." err &&
		test "$(wc -l <err)" = 1 || return 1
	done &&
	record_head 4242 1000 0 "$PWD/run" >expect &&
	record_body >actual &&
	test_cmp expect actual &&
	! test -e run/x && ! test -e tools.log
'

test_expect_success 'swapfile: allocation failing (too large here): no zeros written, the file removed' '
	setup &&
	limited() { (trap "" XFSZ && ulimit -f 64 && machine "$@"); } &&
	test_expect_code 1 limited swapfile --owner=4242 "$PWD/run/x" 1M 2>err &&
	grep -x "latency-machine: swapfile: cannot write .$PWD/run/x.: File too large" err &&
	! test -e run/x &&
	record_head 4242 1000 0 "$PWD/run" >expect &&
	record_body >actual &&
	test_cmp expect actual && ! test -e tools.log
'

test_expect_success 'swapfile --cache: kept, reused at its size, only turned off' '
	setup &&
	machine swapfile --owner=4242 --cache "$PWD/run/cached" 64k &&
	ino=$(stat -c %i run/cached) &&
	machine restore --owner=4242 &&
	test -f run/cached && test_cmp swaps.before "$FAKE/proc/swaps" &&
	machine begin --owner=4242 --root="$PWD/run" &&
	machine swapfile --owner=4242 --cache "$PWD/run/cached" 64k &&
	test "$(stat -c %i run/cached)" = "$ino" &&
	{
		record_head 4242 1000 0 "$PWD/run" &&
		printf "swapoff\t%s\tfile\t%s\n" "$PWD/run/cached" "$(stat -c %d:%i run/cached)"
	} >expect &&
	record_body >actual &&
	test_cmp expect actual &&
	printf "%s\n" "mkswap -q $PWD/run/cached" "swapon $PWD/run/cached" \
		"swapoff $PWD/run/cached" "swapon $PWD/run/cached" >expect &&
	test_cmp expect tools.log &&
	machine restore --owner=4242 &&
	test -f run/cached && test_cmp swaps.before "$FAKE/proc/swaps"
'

test_expect_success 'swapon: a swapon that fails takes its entry back' '
	setup &&
	: >run/dev && : >run/dev.refuse &&
	test_expect_code 1 machine swapon --owner=4242 "$PWD/run/dev" 2>err &&
	grep -x "latency-machine: .swapon $PWD/run/dev. exited with status 255" err &&
	record_head 4242 1000 0 "$PWD/run" >expect &&
	record_body >actual &&
	test_cmp expect actual &&
	rm run/dev.refuse &&
	machine swapon --owner=4242 "$PWD/run/dev" &&
	printf "swapoff\t%s\tfile\t%s\n" "$PWD/run/dev" "$(stat -c %d:%i run/dev)" >>expect &&
	record_body >actual &&
	test_cmp expect actual &&
	test_expect_code 1 machine swapon --owner=4242 "$PWD/run/dev" 2>err &&
	grep -q "is swap already" err &&
	machine restore --owner=4242 &&
	test_cmp swaps.before "$FAKE/proc/swaps" && test -f run/dev
'

# zram0 in use; zram-control hands out zram1 (made here in advance: the
# fake kernel cannot make it when hot_add is read).
fake_zram() {
	mkdir -p "$FAKE/sys/block/zram0" "$FAKE/sys/block/zram1" \
		"$FAKE/sys/class/zram-control" "$FAKE/dev" &&
	for d in zram0 zram1; do
		echo 0 >"$FAKE/sys/block/$d/reset" &&
		echo "lzo [lzo-rle] zstd" >"$FAKE/sys/block/$d/comp_algorithm" &&
		: >"$FAKE/dev/$d" || return 1
	done &&
	echo 1048576 >"$FAKE/sys/block/zram0/disksize" &&
	echo 0 >"$FAKE/sys/block/zram1/disksize" &&
	echo 1 >"$FAKE/sys/class/zram-control/hot_add" &&
	: >"$FAKE/sys/class/zram-control/hot_remove"
}

test_expect_success 'zram: the devices before, the new one, its swap; then set up' '
	setup &&
	fake_zram &&
	machine zram --owner=4242 1M zstd >out &&
	echo "$FAKE/dev/zram1" >expect &&
	test_cmp expect out &&
	test "$(cat "$FAKE/sys/block/zram1/disksize")" = 1048576 &&
	test "$(cat "$FAKE/sys/block/zram1/comp_algorithm")" = zstd &&
	{
		record_head 4242 1000 0 "$PWD/run" &&
		printf "zramnew\t0,1\nzram\tzram1\thot\n" &&
		printf "swapoff\t%s\tfile\t%s\n" "$FAKE/dev/zram1" "$(stat -c %d:%i "$FAKE/dev/zram1")"
	} >expect &&
	record_body >actual &&
	test_cmp expect actual &&
	printf "%s\n" "mkswap -q $FAKE/dev/zram1" "swapon $FAKE/dev/zram1" >expect &&
	test_cmp expect tools.log
'

test_expect_success 'zram: restore turns it off, resets and removes it' '
	machine restore --owner=4242 2>err &&
	p="latency-machine: restoring run pid 4242" &&
	printf "%s\n" "$p: swapoff $FAKE/dev/zram1" "$p: zram zram1 hot" \
		"$p: zramnew 0,1" >expect &&
	test_cmp expect err &&
	test "$(cat "$FAKE/sys/block/zram1/reset")" = 1 &&
	test "$(cat "$FAKE/sys/block/zram0/reset")" = 0 &&
	test "$(cat "$FAKE/sys/class/zram-control/hot_remove")" = 1 &&
	test_cmp swaps.before "$FAKE/proc/swaps" && ! test -e state/state
'

test_expect_success 'zram: without zram-control the unused zram0; a used one refused' '
	setup &&
	fake_zram &&
	rm "$FAKE/sys/class/zram-control/hot_add" &&
	test_expect_code 1 machine zram --owner=4242 1M 2>err &&
	grep -x "latency-machine: zram: zram0 is set up already (disksize 1048576): not the run.s to reset" err &&
	echo 0 >"$FAKE/sys/block/zram0/disksize" &&
	machine zram --owner=4242 2M >out &&
	echo "$FAKE/dev/zram0" >expect && test_cmp expect out &&
	test "$(cat "$FAKE/sys/block/zram0/disksize")" = 2097152 &&
	{
		record_head 4242 1000 0 "$PWD/run" &&
		printf "zram\tzram0\tkept\n" &&
		printf "swapoff\t%s\tfile\t%s\n" "$FAKE/dev/zram0" "$(stat -c %d:%i "$FAKE/dev/zram0")"
	} >expect &&
	record_body >actual &&
	test_cmp expect actual &&
	test_expect_code 2 machine zram --owner=4242 1M "a;b" &&
	machine restore --owner=4242 &&
	test "$(cat "$FAKE/sys/block/zram0/reset")" = 1 &&
	test_cmp swaps.before "$FAKE/proc/swaps"
'

test_expect_success 'cgroup: recorded, made and limited; restore removes it' '
	setup &&
	machine cgroup --owner=4242 "$CGROOT/latency-tests.4242" 256M >out &&
	echo "$CGROOT/latency-tests.4242/memory.max" >expect &&
	test_cmp expect out &&
	test "$(cat "$CGROOT/latency-tests.4242/memory.max")" = 268435456 &&
	{
		record_head 4242 1000 0 "$PWD/run" &&
		printf "rmdir\t%s\tcgroup\n" "$CGROOT/latency-tests.4242"
	} >expect &&
	record_body >actual &&
	test_cmp expect actual &&
	machine cgroup-exec --owner=4242 "$CGROOT/latency-tests.4242" \
		sh -c "echo \$\$ >pid" &&
	test_cmp pid "$CGROOT/latency-tests.4242/cgroup.procs" &&
	rm "$CGROOT/latency-tests.4242/"* &&
	machine restore --owner=4242 2>err &&
	echo "latency-machine: restoring run pid 4242: rmdir $CGROOT/latency-tests.4242" >expect &&
	test_cmp expect err &&
	! test -e "$CGROOT/latency-tests.4242"
'

test_expect_success 'cgroup: v1 limit file; another cgroup refused; exec only in the run'"'"'s' '
	setup &&
	mkdir "$CGROOT/memory" &&
	machine cgroup --owner=4242 "$CGROOT/memory/latency-tests.4242" 1M >out &&
	echo "$CGROOT/memory/latency-tests.4242/memory.limit_in_bytes" >expect &&
	test_cmp expect out &&
	test_expect_code 2 machine cgroup --owner=4242 "$CGROOT/latency-tests.4343" 1M 2>err &&
	! test -e "$CGROOT/latency-tests.4343" &&
	test_expect_code 2 machine cgroup-exec --owner=4242 "$CGROOT" true 2>err &&
	grep -x "latency-machine: cgroup-exec: .$CGROOT. is not a cgroup of run pid 4242" err &&
	! test -e "$CGROOT/cgroup.procs" &&
	rm "$CGROOT/memory/latency-tests.4242/"* &&
	machine restore --owner=4242 &&
	! test -e "$CGROOT/memory/latency-tests.4242"
'

test_expect_success 'drop-caches: dropped, the run'"'"'s swap emptied, compacted; nothing recorded' '
	setup &&
	: >"$FAKE/proc/sys/vm/drop_caches" &&
	: >"$FAKE/proc/sys/vm/compact_memory" &&
	: >run/dev &&
	machine swapon --owner=4242 "$PWD/run/dev" &&
	cp state/state record.before &&
	machine drop-caches --owner=4242 "$PWD/run/dev" &&
	test "$(cat "$FAKE/proc/sys/vm/drop_caches")" = 3 &&
	test "$(cat "$FAKE/proc/sys/vm/compact_memory")" = 1 &&
	printf "%s\n" "swapon $PWD/run/dev" "swapoff $PWD/run/dev" "swapon $PWD/run/dev" >expect &&
	test_cmp expect tools.log &&
	test_cmp record.before state/state &&
	: >"$FAKE/proc/sys/vm/drop_caches" &&
	test_expect_code 2 machine drop-caches --owner=4242 /dev/sda9 2>err &&
	grep -x "latency-machine: drop-caches: ./dev/sda9. is not swap run pid 4242 enabled" err &&
	test_line_count = 1 err &&
	! test -s "$FAKE/proc/sys/vm/drop_caches" &&
	rm "$FAKE/proc/sys/vm/compact_memory" &&
	machine drop-caches --owner=4242 &&
	machine restore --owner=4242 &&
	test_cmp swaps.before "$FAKE/proc/swaps"
'

test_expect_success 'the new commands need --owner and the run'"'"'s record' '
	setup &&
	for c in "swapon /x" "swapfile /x 1M" "zram 1M" "cgroup /x 1M" \
		"cgroup-exec /x true" drop-caches; do
		# shellcheck disable=SC2086 # the words of the command
		test_expect_code 2 machine $c 2>err || return 1
		grep -q "needs --owner" err || return 1
	done &&
	test_expect_code 1 machine swapfile --owner=4343 "$PWD/run/s" 1M &&
	! test -e run/s
'

test_done
