#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Test bodies are single-quoted and eval'd by test-lib.sh; variables it
# sets and uses are invisible here.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='fake-music: server killed, retries, disk full'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/fake-music-lib.sh"

files='track-01.mp3 track-02.mp3'

test_expect_success 'setup' '
	fake-music --generate src --songs 2 --song-size 1M
'

test_expect_success JQ 'server killed mid-run and restarted: the client resumes' '
	rm -f status &&
	start_server src one &&
	port=$(cat one.port) &&
	{
		(fake-music --from 127.0.0.1:$port --to dst --bwlimit 1MB/s \
			-q --retries 100 --format json -o sum.json \
			2>client.err; echo $? >status) &
	} &&
	# Kill it once a good part of the first song has arrived.
	part=dst/.track-01.mp3.fm-part &&
	while ! test -s status &&
		! test "$(wc -c <$part 2>/dev/null || echo 0)" -ge 200000; do
		sleep 0.02
	done &&
	kill -KILL "$(cat one.pid)" &&
	sleep 0.3 &&
	start_server src two --listen 127.0.0.1:$port &&
	while ! test -s status; do sleep 0.05; done &&
	stop_server two &&
	echo 0 >expect && test_cmp expect status &&
	same_files src dst $files &&
	test "$(json_get sum.json .reconnects)" -ge 1 &&
	test "$(json_get sum.json .files)" = 2 &&
	# Resumed by delta against the partial file: no second copy moved.
	test "$(json_get sum.json .deltas)" = 1 &&
	test "$(json_get sum.json .bytes_wire_in)" -lt 2200000 &&
	ls -a dst >list &&
	printf "%s\n" . .. $files >expect &&
	test_cmp expect list
'

test_expect_success 'no server comes back: clear error after --retries' '
	rm -f status &&
	start_server src three &&
	port=$(cat three.port) &&
	{
		(fake-music --from 127.0.0.1:$port --to dst2 --bwlimit 1MB/s \
			-q --retries 2 2>client.err; echo $? >status) &
	} &&
	sleep 0.5 &&
	kill -KILL "$(cat three.pid)" &&
	while ! test -s status; do sleep 0.05; done &&
	echo 1 >expect && test_cmp expect status &&
	grep "^fake-music: cannot connect to 127.0.0.1:$port: Connection refused (gave up after 2 retries)$" client.err &&
	ls -a dst2 >list &&
	printf "%s\n" . .. >expect &&
	test_cmp expect list
'

# A small tmpfs: only root may mount one, and not in every container.
if test_have_prereq ROOT && mkdir small &&
	mount -t tmpfs -o size=1536k tmpfs small 2>/dev/null; then
	test_set_prereq TMPFS
fi

test_expect_success TMPFS 'disk full: clear error, no torn file' '
	test_expect_code 1 fake-music --to small/d --songs 2 --song-size 1M \
		--bwlimit 0 -q 2>err &&
	grep "^fake-music: cannot write .small/d/track-02.mp3.: No space left on device$" err &&
	ls -a small/d >list &&
	printf "%s\n" . .. track-01.mp3 >expect &&
	test_cmp expect list &&
	fake-music --generate gen --songs 1 --song-size 1M &&
	cmp gen/track-01.mp3 small/d/track-01.mp3
'

test_have_prereq TMPFS && umount small

test_done
