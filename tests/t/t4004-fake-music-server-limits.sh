#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Test bodies are single-quoted and eval'd by test-lib.sh; variables it
# sets and uses are invisible here.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='fake-music: a server no peer can lock up or fill up'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/fake-music-lib.sh"

files='track-01.mp3 track-02.mp3 big.mp3'

# serve NAME [OPTION...]: serve src as NAME (start_server); sets $port.
serve() {
	start_server src "$@" &&
	port=$(cat "$1.port")
}

# good_pull DEST: a well-behaved client pulls everything from $port.
# shellcheck disable=SC2086 # $files is a list of names
good_pull() {
	fake-music --from "127.0.0.1:$port" --to "$1" --bwlimit 0 -q &&
		same_files src "$1" $files
}

# start_peers NAME ARG...: fake-music-peer attack in the background, its
# report in NAME.out, pid in NAME.pid; returns once it says "ready".
start_peers() {
	_name=$1
	shift
	fake-music-peer attack "$@" >"$_name.out" 2>"$_name.err" &
	echo $! >"$_name.pid"
	while ! grep -q "^ready$" "$_name.out"; do
		kill -0 "$(cat "$_name.pid")" 2>/dev/null || return 1
		sleep 0.05
	done
}

# stop_peers NAME: SIGTERM, then wait for its report.
stop_peers() {
	kill "$(cat "$1.pid")" &&
	while kill -0 "$(cat "$1.pid")" 2>/dev/null; do
		sleep 0.05
	done
}

# wait_gone NAME: the server NAME exits after SIGTERM (within 20 s: a
# server blocked for good would otherwise hang the suite).
wait_gone() {
	kill "$(cat "$1.pid")" &&
	_i=0 &&
	while kill -0 "$(cat "$1.pid")" 2>/dev/null; do
		_i=$((_i + 1))
		test "$_i" -lt 400 || return 1
		sleep 0.05
	done
}

# served NAME COUNTS: server NAME stops and its summary counts COUNTS.
served() {
	wait_gone "$1" &&
	grep "^fake-music: $2$" "$1.log"
}

# peak_kib PID: the peak resident memory of a process, in KiB.
peak_kib() {
	sed -n "s/^VmHWM:[[:space:]]*\([0-9]*\) kB$/\1/p" "/proc/$1/status"
}

test_expect_success 'setup: two songs, a big one, a FIFO' '
	fake-music --generate src --songs 2 --song-size 1M &&
	fake-music --generate big --songs 1 --song-size 16M &&
	mv big/track-01.mp3 src/big.mp3 &&
	mkfifo src/fifo.mp3
'

test_expect_success JQ 'a well-behaved client is served while 200 idle, 5 never-reading and hello-only peers and huge signatures hold on' '
	serve srv &&
	start_peers peers $port idle:200 hello:3 noread:5:big.mp3 \
		sig:2:64M:track-01.mp3 &&
	fake-music --from 127.0.0.1:$port --to dst --bwlimit 0 -q \
		--format json -o sum.json &&
	same_files src dst $files &&
	! test -e dst/fifo.mp3 &&
	test "$(json_get sum.json .files)" = 3 &&
	if test_have_prereq NO_SANITIZER; then
		peak=$(peak_kib "$(cat srv.pid)") &&
		# Two 64 MiB signatures once cost over 256 MiB.
		test "$peak" -lt 49152 || test_fail "server peak $peak KiB"
	fi &&
	stop_peers peers &&
	cat >expect <<-EOF &&
	idle: open=200 closed=0
	hello: open=3 closed=0
	noread: open=5 closed=0
	sig: open=0 closed=2
	sig said: signature too large
	EOF
	grep -v "^ready$" peers.out >report &&
	test_cmp expect report &&
	test "$(grep -c "dropping connection from 127.0.0.1:[0-9]*: signature too large: Message too long$" srv.log)" = 2 &&
	wait_gone srv
'

test_expect_success 'peers that send or take nothing time out, each where it stalled' '
	serve idle --idle-timeout 1s &&
	start_peers stall $port --until-closed idle:3 hello:2 \
		noread:2:big.mp3 sig:1:256k:track-01.mp3 &&
	while kill -0 "$(cat stall.pid)" 2>/dev/null; do sleep 0.05; done &&
	cat >expect <<-EOF &&
	ready
	idle: open=0 closed=3
	hello: open=0 closed=2
	noread: open=0 closed=2
	sig: open=0 closed=1
	EOF
	test_cmp expect stall.out &&
	test "$(grep -c "dropping connection from 127.0.0.1:[0-9]*: request: Connection timed out$" idle.log)" = 2 &&
	test "$(grep -c "dropping connection from 127.0.0.1:[0-9]*: send: Connection timed out$" idle.log)" = 2 &&
	test "$(grep -c "dropping connection from 127.0.0.1:[0-9]*: signature: Connection timed out$" idle.log)" = 1 &&
	good_pull dst2 &&
	served idle "6 connections served, 0 refused (busy), 8 dropped"
'

test_expect_success 'beyond --max-clients a newcomer is refused with a busy error' '
	serve full --max-clients 1 --idle-timeout 10m &&
	start_peers one $port hello:1 &&
	test_expect_code 1 fake-music --from 127.0.0.1:$port --to dst3 \
		--bwlimit 0 -q --retries 0 2>err &&
	echo "fake-music: server 127.0.0.1:$port: busy: 1 clients connected, try again later" >expect &&
	tail -n 1 err >last &&
	test_cmp expect last &&
	stop_peers one &&
	served full "1 connections served, 1 refused (busy), 0 dropped"
'

test_expect_success 'a full server makes room by evicting the client stalled longest' '
	serve evict --max-clients 2 --idle-timeout 10s &&
	start_peers two $port hello:2 &&
	# Stalled for more than a tenth of the idle limit: evictable.
	sleep 1.5 &&
	good_pull dst4 &&
	stop_peers two &&
	cat >expect <<-EOF &&
	ready
	hello: open=1 closed=1
	EOF
	test_cmp expect two.out &&
	grep "dropping connection from 127.0.0.1:[0-9]*: evicted for a new client after [0-9.]* s without progress$" evict.log &&
	wait_gone evict
'

test_expect_success '--sig-memory bounds what the signatures of all clients hold' '
	# 1 MiB each; a 256 KiB frame of 36-byte blocks costs 757224 bytes,
	# so 5 fit in 4 MiB and the sixth does not.
	serve pool --sig-memory 4M &&
	start_peers six $port sig:6:256k:track-01.mp3 &&
	good_pull dst5 &&
	stop_peers six &&
	cat >expect <<-EOF &&
	ready
	sig: open=5 closed=1
	sig said: signature memory of the server exhausted
	EOF
	test_cmp expect six.out &&
	grep "dropping connection from 127.0.0.1:[0-9]*: signature memory of the server exhausted: Cannot allocate memory$" pool.log &&
	wait_gone pool
'

test_expect_success BASH 'a FIFO is refused at once and does not hold up the exit' '
	serve fifo &&
	printf "\000\000\000\007\001FMUS\000\001\000\000\000\012\005\000fifo.mp3" >get &&
	raw $port get answer &&
	grep -a "refused path" answer &&
	grep "refused path .fifo\.mp3." fifo.log &&
	wait_gone fifo
'

test_expect_success 'the limits are usage errors with other modes or bad values' '
	test_expect_code 2 fake-music --to x --max-clients 2 2>err &&
	grep "^fake-music: --max-clients, --idle-timeout and --sig-memory need --serve$" err &&
	test_expect_code 2 fake-music --serve src --max-clients 0 2>err &&
	test_expect_code 2 fake-music --serve src --idle-timeout 1x 2>err &&
	test_expect_code 2 fake-music --serve src --sig-memory 1k 2>err &&
	grep "^fake-music: --sig-memory must be at least 64k$" err &&
	! test -e x
'

test_done
