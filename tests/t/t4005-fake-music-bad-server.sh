#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Test bodies are single-quoted and eval'd by test-lib.sh; variables it
# sets and uses are invisible here.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='fake-music: a server that sends more than it listed'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/fake-music-lib.sh"

# start_liar NAME LISTED SENT: a server listing track-01.mp3 with LISTED
# bytes that sends SENT; its port in NAME.port, pid in NAME.pid.
start_liar() {
	rm -f "$1.port"
	fake-music-peer liar "$1.port" "$2" "$3" 2>"$1.log" &
	echo $! >"$1.pid"
	while ! test -s "$1.port"; do
		kill -0 "$(cat "$1.pid")" 2>/dev/null || return 1
		sleep 0.05
	done
}

# wait_liar NAME: it ends when the client hangs up.
wait_liar() {
	while kill -0 "$(cat "$1.pid")" 2>/dev/null; do
		sleep 0.05
	done
}

# refused_pull NAME DEST: a pull from liar NAME into DEST fails with the
# one-line size error, having written nothing and printed no line.
refused_pull() {
	_port=$(cat "$1.port") &&
	test_expect_code 1 fake-music --from "127.0.0.1:$_port" --to "$2" \
		--bwlimit 0 --format json -o "$1.json" >"$1.lines" 2>"$1.err" &&
	wait_liar "$1" &&
	echo "fake-music: protocol error from 127.0.0.1:$_port: 'track-01.mp3' is larger than the 10240 bytes listed" >"$1.expect" &&
	test_cmp "$1.expect" "$1.err" &&
	test "$(json_get "$1.json" .bytes_written)" = 0 &&
	test_line_count "=" 0 "$1.lines"
}

test_expect_success JQ 'a reply larger than listed is refused before a byte is written' '
	start_liar whole 10k 2M &&
	refused_pull whole dst &&
	ls -a dst >list &&
	printf "%s\n" . .. >expect &&
	test_cmp expect list
'

test_expect_success JQ 'a delta that patches into more than listed is refused too' '
	mkdir dst2 &&
	printf "an older, shorter version" >dst2/track-01.mp3 &&
	cp dst2/track-01.mp3 before &&
	start_liar delta 10k 2M &&
	refused_pull delta dst2 &&
	cmp before dst2/track-01.mp3 &&
	ls -a dst2 >list &&
	printf "%s\n" . .. track-01.mp3 >expect &&
	test_cmp expect list
'

test_expect_success 'an honest reply of the listed size is taken' '
	start_liar honest 64k 64k &&
	port=$(cat honest.port) &&
	fake-music --from 127.0.0.1:$port --to dst3 --bwlimit 0 -q 2>err &&
	wait_liar honest &&
	fake-music --generate gen --seed 1 --songs 1 --song-size 64k &&
	same_files gen dst3 track-01.mp3
'

test_done
