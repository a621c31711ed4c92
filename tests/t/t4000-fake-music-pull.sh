#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Test bodies are single-quoted and eval'd by test-lib.sh; variables it
# sets and uses are invisible here.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='fake-music: the built-in album, pulling, playing, output'
. "$abs_top_srcdir/tests/t/test-lib.sh"

# Small songs and high rates keep every test well under a second.
album='--songs 3 --song-size 100k'

test_expect_success 'bad rate, size and address are usage errors' '
	test_expect_code 2 fake-music --to d --bwlimit 12q 2>err &&
	grep "invalid value .12q. for --bwlimit" err &&
	test_expect_code 2 fake-music --to d --song-size -1 2>err &&
	test_expect_code 2 fake-music --to d --from nohost 2>err &&
	grep "invalid address .nohost. for --from" err &&
	test_expect_code 2 fake-music --to d --from 1.2.3.4:99999 2>err &&
	test_expect_code 2 fake-music --to d --from "a]b:80" 2>err &&
	grep -x "fake-music: invalid address .a\]b:80. for --from (expected HOST:PORT)" err &&
	test_expect_code 2 fake-music --serve . --listen "a]b:0" 2>err &&
	grep "invalid address .a\]b:0. for --listen" err &&
	test_expect_code 2 fake-music --to d --serve s 2>err &&
	test_expect_code 2 fake-music --play 2>err &&
	test_expect_code 2 fake-music --to d extra 2>err &&
	test_expect_code 2 fake-music --to d --format csv 2>err &&
	test_expect_code 2 fake-music 2>err &&
	test_expect_code 2 fake-music --serve . --listen bogus 2>err &&
	grep "invalid address .bogus. for --listen" err &&
	test_expect_code 2 fake-music --to d --bitrate 1bit 2>err &&
	! test -e d
'

test_expect_success 'an unreachable server is one clear line and status 1' '
	test_expect_code 1 fake-music --to d --from 127.0.0.1:1 --retries 0 \
		>out 2>err &&
	echo "fake-music: cannot connect to 127.0.0.1:1: Connection refused" \
		>expect &&
	test_cmp expect err &&
	! test -s out
'

test_expect_success 'the generated album is the same for the same seed' '
	fake-music --generate a $album &&
	fake-music --generate b $album &&
	fake-music --generate c $album --seed 7 &&
	ls a >list &&
	printf "track-0%d.mp3\n" 1 2 3 >expect &&
	test_cmp expect list &&
	test "$(wc -c <a/track-02.mp3)" = 102400 &&
	cmp a/track-01.mp3 b/track-01.mp3 &&
	cmp a/track-03.mp3 b/track-03.mp3 &&
	! cmp a/track-01.mp3 c/track-01.mp3 &&
	! cmp a/track-01.mp3 a/track-02.mp3
'

test_expect_success 'a default song is 3 to 8 MiB' '
	fake-music --generate g --songs 1 &&
	size=$(wc -c <g/track-01.mp3) &&
	test "$size" -ge 3145728 && test "$size" -le 8388608
'

test_expect_success JQ 'pull the built-in album: identical files, exact lines' '
	fake-music --to dst $album --bwlimit 20MB/s --bitrate 800kbit \
		--format json -o sum.json >lines &&
	for f in a/*; do cmp "$f" "dst/${f#a/}" || return 1; done &&
	ls -a dst >list &&
	printf "%s\n" . .. track-01.mp3 track-02.mp3 track-03.mp3 >expect &&
	test_cmp expect list &&
	test_json sum.json .bytes_written 307200 &&
	test_json sum.json .files 3 &&
	test_json sum.json .deltas 0 &&
	# 0.1 s of 800kbit is 10000 bytes: 307200 / 10000 = 30 lines.
	test_line_count = 30 lines &&
	test_json sum.json .lines 30 &&
	grep -c "^[0-9]*\.[0-9]\{9\} fake-music bytes=[0-9]*0000 wire=[0-9]*$" \
		lines >count &&
	echo 30 >expect && test_cmp expect count &&
	tail -n 1 lines >last &&
	grep " bytes=300000 " last
'

test_expect_success JQ 'JSON summary has the fields of doc/design.md, contract 4' '
	for k in format_version program version command_line seed kernel \
		bytes_wire bytes_written files deltas rate_bytes_s lines \
		max_gap_s interrupted; do
		test_json sum.json "has(\"$k\")" true || return 1
	done &&
	test_json sum.json .program fake-music &&
	test_json sum.json .interrupted false
'

test_expect_success JQ 'a second pull of the unchanged album moves almost nothing' '
	fake-music --to dst $album --bwlimit 0 -q --format json -o sum2.json &&
	test_json sum2.json .files_up_to_date 3 &&
	test_json sum2.json .bytes_written 0 &&
	wire=$(json_get sum2.json .bytes_wire) &&
	test "$wire" -lt 1024
'

test_expect_success 'text summary on stderr' '
	rm -rf dst &&
	fake-music --to dst $album --bwlimit 0 -q >out 2>err &&
	! test -s out &&
	grep "^fake-music: pull done after [0-9.]* s: 3 files (0 deltas, 0 up to date), 0 reconnects$" err &&
	grep "^fake-music: 76 lines of 4000 bytes, longest gap" err
'

test_expect_success JQ '--play prints a line per 0.1 s of audio read' '
	fake-music --play a/track-01.mp3 a/track-02.mp3 --bitrate 8Mbit \
		--format json -o play.json >lines &&
	# 204800 bytes / 100000 bytes per line
	test_line_count = 2 lines &&
	test_json play.json .bytes_read 204800 &&
	test_json play.json .files 2 &&
	# A bare --bitrate is kbit/s: 8000 is 8Mbit.
	fake-music --play a/track-01.mp3 --bitrate 8000 >lines &&
	test_line_count = 1 lines &&
	fake-music --play a --bitrate 8Mbit -q --format json -o play.json &&
	test_json play.json .bytes_read 307200 &&
	test_json play.json .files 3
'

test_expect_success JQ '--play runs for --duration with --loop' '
	fake-music --play a --loop --duration 500ms --bitrate 80Mbit \
		--format json -o loop.json >lines &&
	test_json loop.json .interrupted false &&
	files=$(json_get loop.json .files) &&
	test "$files" -ge 4
'

test_expect_success JQ '--duration ends a pull with status 0 and no partial file' '
	fake-music --to dur $album --bwlimit 200KB/s --duration 300ms -q \
		--format json -o dur.json &&
	test_json dur.json .interrupted false &&
	test "$(json_get dur.json .bytes_written)" \
		-lt 307200 &&
	ls -a dur >list &&
	! grep "fm-part\|fm-basis" list
'

test_expect_success JQ '--loop pulls the album again and again' '
	fake-music --to loop $album --bwlimit 0 --loop --duration 500ms -q \
		--format json -o loop2.json &&
	files=$(json_get loop2.json .files) &&
	test "$files" -gt 3 &&
	for f in a/*; do cmp "$f" "loop/${f#a/}" || return 1; done
'

test_expect_success JQ 'SIGINT stops the pull, removes partial files, exits 130' '
	(fake-music --to slow $album --bwlimit 100KB/s -q --format json \
		-o int.json & echo $! >pid; wait $!; echo $? >status) &
	while ! test -s pid; do sleep 0.05; done &&
	sleep 0.5 &&
	kill -INT "$(cat pid)" &&
	while ! test -s status; do sleep 0.05; done &&
	echo 130 >expect && test_cmp expect status &&
	test_json int.json .interrupted true &&
	ls -a slow >list &&
	! grep "fm-part\|fm-basis" list
'

test_done
