#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016,SC2034,SC1094,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh defines the rest)
test_description='seqbench: full file system, stop signals, block devices'
. "$abs_top_srcdir/tests/t/test-lib.sh"

command -v losetup >/dev/null 2>&1 && test_have_prereq ROOT &&
	test_set_prereq LOSETUP
command -v mkfs.ext2 >/dev/null 2>&1 && test_set_prereq MKFS

test_expect_success ROOT 'set up a 1 MiB tmpfs' '
	mkdir small &&
	mount -t tmpfs -o size=1m seqbench-small small
'

test_expect_success ROOT,JQ 'ENOSPC: stop, report what was measured, exit 1' '
	test_expect_code 1 seqbench -t 2 -b 4k -s 4M -r 8 -d small --json \
		>full.json 2>err &&
	test_line_count -eq 1 err &&
	grep -q "^seqbench: thread [01]: pwrite of 4096 bytes at offset [0-9]* of .small/seqbench\.[0-9a-f]\{16\}. failed: No space left on device$" err &&
	test_json full.json .incomplete true &&
	test_json full.json \
		".error | test(\"^thread [01]: pwrite .*No space left on device\")" \
		true &&
	test_json full.json ".results[0].phases | keys | tojson" \
		"[\"seq_write\"]" &&
	test_json full.json .results[0].phases.seq_write.complete false
'

test_expect_success ROOT,JQ 'ENOSPC: the incomplete phase has no rate (null)' '
	test_json full.json .results[0].phases.seq_write.complete false &&
	test_json full.json .results[0].phases.seq_write.rate_mib_s null &&
	test_json full.json .summary[0].phases.seq_write.incomplete_runs 1
'

test_expect_success ROOT,JQ 'ENOSPC: latency-compare takes the result as partial' '
	latency-compare --format json full.json full.json >cmp.json &&
	test_json cmp.json "[.results[].partial] | tojson" "[true]"
'

test_expect_success ROOT 'ENOSPC: the table shows the write, marked incomplete' '
	test_expect_code 1 seqbench -t 2 -b 4k -s 4M -r 8 -d small \
		--identifier full >full.txt 2>err &&
	grep -A5 "^Sequential Writes$" full.txt >sec &&
	grep -q "^full  *4  *4096  *2  *-  *[0-9.]*%  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *-  incomplete$" sec &&
	grep -q "^note: incomplete: thread [01]: pwrite .*No space left on device$" full.txt &&
	grep -q "phase=seq_write .* incomplete$" full.txt
'

test_expect_success ROOT 'ENOSPC: CSV leaves the rate of the phase empty' '
	test_expect_code 1 seqbench -t 2 -b 4k -s 4M -r 8 -d small --csv \
		>full.csv 2>err &&
	grep -q ",seq_write,0,[0-9]*,[0-9]*,[0-9.]*,,[0-9.]*," full.csv
'

test_expect_success ROOT 'ENOSPC: the files are gone' '
	ls small >left &&
	! test -s left
'

test_expect_success ROOT 'tear down the tmpfs' '
	umount small
'

# Start a 30 s run with options "$@" and its report in REPORT, wait for its
# first progress line, send SIGNAL, and leave the exit status in "status".
stop_run() {
	_sig=$1 _report=$2
	shift 2
	rm -f progress
	seqbench -b 4k -s 1M --time 30s --progress 64k -d . -o "$_report" \
		"$@" >progress 2>err &
	_pid=$!
	test_wait_for progress &&
	kill -"$_sig" "$_pid"
	wait "$_pid"
	echo $? >status
}

test_expect_success JQ 'SIGINT: partial report marked interrupted, exit 130' '
	stop_run INT int.json -t 2 --json &&
	echo 130 >expect && test_cmp expect status &&
	test_json int.json .interrupted true &&
	test_json int.json .incomplete true &&
	test_json int.json "[.results[].phases[].complete] | any(. == false)" \
		true &&
	ls >files &&
	! grep -q "^seqbench\." files
'

test_expect_success 'SIGTERM: tiobench report with a note, exit 143' '
	stop_run TERM term.txt -t 1 &&
	echo 143 >expect && test_cmp expect status &&
	grep -q "^Sequential Writes$" term.txt &&
	grep -q "^note: interrupted: the results are partial$" term.txt
'

test_expect_success LOSETUP 'set up an 8 MiB loop device' '
	truncate -s 8M disk.img &&
	losetup -f --show disk.img >loopdev
'

test_expect_success LOSETUP 'a block device needs --yes-destroy' '
	dev=$(cat loopdev) &&
	test_expect_code 2 seqbench --target "$dev" -t 2 -s 4M >out 2>err &&
	grep -q "is a block device: writing to it destroys its data" err &&
	test_expect_code 2 seqbench --target "$dev" --yes-destroy disk.img \
		-t 2 -s 4M >out 2>err
'

test_expect_success LOSETUP 'a block device too small is refused' '
	dev=$(cat loopdev) &&
	test_expect_code 1 seqbench --target "$dev" --yes-destroy "$dev" \
		-t 2 -s 16M >out 2>err &&
	grep -q "holds 8388608 bytes; this run needs 16777216" err
'

test_expect_success LOSETUP 'raw device: each thread its own area' '
	dev=$(cat loopdev) &&
	seqbench --target "$dev" --yes-destroy "$dev" -t 2 -b 64k -s 4M \
		-r 8 --format terse >raw &&
	grep -q "^write:4\.00000," raw &&
	grep -q "^rread:0\.50000," raw &&
	test -b "$dev"
'

test_expect_success LOSETUP 'a device in use (held by O_EXCL) is refused' '
	seqbench --target "$(cat loopdev)" --yes-destroy "$(cat loopdev)" \
		-t 1 -s 1M --time 30s --progress 64k >holder 2>err &
	pid=$! &&
	dev=$(cat loopdev) &&
	test_wait_for holder &&
	seqbench --target "$dev" --yes-destroy "$dev" -t 1 -s 1M >out 2>err2
	echo $? >status &&
	kill -INT $pid &&
	wait $pid
	echo 1 >expect && test_cmp expect status &&
	grep -q "refusing to write to .*: it is in use" err2
'

test_expect_success LOSETUP,MKFS 'a mounted device is refused' '
	dev=$(cat loopdev) &&
	mkfs.ext2 -q "$dev" && mkdir mnt &&
	mount "$dev" mnt &&
	{
		seqbench --target "$dev" --yes-destroy "$dev" -t 1 -s 1M \
			>out 2>err
		echo $? >status
		umount mnt
	} &&
	echo 1 >expect && test_cmp expect status &&
	grep -q "refusing to write to .*: it is mounted" err
'

test_expect_success LOSETUP 'tear down the loop device' '
	losetup -d "$(cat loopdev)"
'

test_done
