#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Test bodies are single-quoted and eval'd by test-lib.sh; variables it
# sets and uses are invisible here.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='fake-music: serving a folder over loopback TCP'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/fake-music-lib.sh"

files='track-01.mp3 track-02.mp3 track-03.mp3 disc2/bonus.mp3 alias.mp3'

test_expect_success 'setup: a folder with a subfolder and symlinks' '
	fake-music --generate src --songs 3 --song-size 200k &&
	mkdir src/disc2 &&
	cp src/track-01.mp3 src/disc2/bonus.mp3 &&
	echo secret >secret &&
	ln -s ../secret src/outside &&
	ln -s track-03.mp3 src/alias.mp3 &&
	start_server src srv
'

test_expect_success JQ 'pull over loopback: identical files, nothing else' '
	port=$(cat srv.port) &&
	fake-music --from 127.0.0.1:$port --to dst --bwlimit 0 -q \
		--format json -o sum.json &&
	same_files src dst $files &&
	! test -e dst/outside &&
	test "$(json_get sum.json .files)" = 5 &&
	test "$(json_get sum.json .bytes_written)" = 1024000
'

test_expect_success 'several clients at once all finish identical' '
	port=$(cat srv.port) &&
	for i in 1 2 3 4; do
		fake-music --from 127.0.0.1:$port --to "c$i" --bwlimit 4MB/s \
			-q 2>"c$i.err" &
	done &&
	wait &&
	for i in 1 2 3 4; do
		same_files src "c$i" $files || return 1
	done
'

test_expect_success JQ 'after a change to part of a file only a delta moves' '
	port=$(cat srv.port) &&
	printf "changed!" >patch &&
	dd if=patch of=src/track-02.mp3 bs=1 seek=100000 conv=notrunc \
		2>/dev/null &&
	fake-music --from 127.0.0.1:$port --to dst --bwlimit 0 -q \
		--format json -o delta.json &&
	same_files src dst $files &&
	test "$(json_get delta.json .deltas)" = 1 &&
	test "$(json_get delta.json .files_up_to_date)" = 4 &&
	test "$(json_get delta.json .bytes_written)" = 204800 &&
	# 204800 bytes changed in 8: one block and the protocol cross.
	test "$(json_get delta.json .bytes_wire_in)" -lt 10000 &&
	test "$(json_get delta.json .bytes_wire)" -lt 20000
'

test_expect_success JQ 'a second pull of the unchanged folder moves almost nothing' '
	port=$(cat srv.port) &&
	fake-music --from 127.0.0.1:$port --to dst --bwlimit 0 -q \
		--format json -o again.json &&
	test "$(json_get again.json .files)" = 0 &&
	test "$(json_get again.json .files_up_to_date)" = 5 &&
	test "$(json_get again.json .bytes_written)" = 0 &&
	test "$(json_get again.json .bytes_wire)" -lt 1024
'

hello='\000\000\000\007\001FMUS\000\001'

test_expect_success BASH 'path traversal, absolute paths and escaping symlinks are refused' '
	port=$(cat srv.port) &&
	printf "$hello\000\000\000\013\005\000../secret" >dotdot &&
	raw $port dotdot answer1 &&
	grep -a "refused path" answer1 &&
	printf "$hello\000\000\000\015\005\000/etc/passwd" >abs &&
	raw $port abs answer2 &&
	grep -a "refused path" answer2 &&
	printf "$hello\000\000\000\011\005\000outside" >link &&
	raw $port link answer3 &&
	grep -a "refused path" answer3 &&
	! grep -a secret answer1 answer2 answer3 &&
	grep "refused path .\.\./secret." srv.log &&
	grep "refused path ./etc/passwd." srv.log &&
	grep "refused path .outside." srv.log
'

test_expect_success BASH 'malformed and oversized messages drop only that connection' '
	port=$(cat srv.port) &&
	printf "\000\000\000\007\001MP3!\000\001" >badmagic &&
	raw $port badmagic answer4 &&
	grep -a "unsupported protocol version" answer4 &&
	printf "$hello\377\377\377\377\002" >huge &&
	raw $port huge answer5 &&
	printf "$hello\000\000\000\001\077" >badtype &&
	raw $port badtype answer6 &&
	grep "dropping connection from 127.0.0.1:[0-9]*: hello: Protocol error" srv.log &&
	grep "dropping connection from 127.0.0.1:[0-9]*: request: Message too long" srv.log &&
	grep "dropping connection from 127.0.0.1:[0-9]*: request: Protocol error" srv.log &&
	fake-music --from 127.0.0.1:$port --to after --bwlimit 0 -q &&
	same_files src after $files
'

test_expect_success BASH 'a corrupt signature is one line of ours, none of librsync' '
	port=$(cat srv.port) &&
	printf "$hello\000\000\000\016\005\001track-01.mp3" >badsig &&
	printf "\000\000\000\015\006JUNKJUNKJUNK\000\000\000\001\007" >>badsig &&
	raw $port badsig answer7 &&
	grep "dropping connection from 127.0.0.1:[0-9]*: stream corrupt: Protocol error" srv.log &&
	! grep librsync srv.log
'

test_expect_success 'SIGTERM stops the server with status 143 and a summary' '
	pid=$(cat srv.pid) &&
	kill -TERM $pid &&
	while kill -0 $pid 2>/dev/null; do sleep 0.05; done &&
	grep "^fake-music: serve interrupted after" srv.log
'

test_expect_success 'a server that paces its sends' '
	start_server src paced --bwlimit 8MB/s &&
	port=$(cat paced.port) &&
	fake-music --from 127.0.0.1:$port --to dst2 --bwlimit 0 -q &&
	same_files src dst2 $files &&
	stop_server paced
'

test_done
