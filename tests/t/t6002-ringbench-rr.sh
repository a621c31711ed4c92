#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016,SC2034,SC1091,SC1094,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh defines the rest)
test_description='ringbench rr: exact transactions, a server killed, junk on the port'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-ringbench.sh"

# counts FILE: transactions requests responses server_requests
# server_responses latency_samples complete, of run 1.
counts() {
	json_get "$1" '.runs[0] | "\(.transactions) \(.requests) \(.responses) \(.server_requests) \(.server_responses) \(.latency_samples) \(.complete)"'
}

test_expect_success JQ 'TCP, 2 clients x 300: transactions = requests = responses' '
	ringbench rr -c 2 -N 300 --warmup 0 --format json >out.json &&
	echo "600 600 600 600 600 600 true" >expect &&
	counts out.json >got &&
	test_cmp expect got &&
	json_get out.json ".config.protocol, .config.server" >got &&
	test "$(sed -n 1p got)" = tcp &&
	sed -n 2p got | grep -q "^127\.0\.0\.1:[0-9][0-9]*$"
'

test_expect_success JQ 'UDP, and big TCP messages: the same exact counts' '
	ringbench rr --udp -c 2 -N 200 --warmup 0 --size 100,1000 \
		--format json >udp.json &&
	echo "400 400 400 400 400 400 true" >expect &&
	counts udp.json >got &&
	test_cmp expect got &&
	ringbench rr -N 20 --warmup 0 --size 200k,300k --format json >big.json &&
	echo "20 20 20 20 20 20 true" >expect &&
	counts big.json >got &&
	test_cmp expect got
'

test_expect_success JQ 'warmup transactions reach the server but are not measured' '
	ringbench rr -N 100 --warmup 50ms --format json >out.json &&
	w=$(json_get out.json .runs[0].warmup_transactions) &&
	test "$w" -gt 0 &&
	echo "100 $((100 + w)) $((100 + w)) $((100 + w)) $((100 + w)) 100 true" >expect &&
	counts out.json >got &&
	test_cmp expect got
'

test_expect_success JQ 'rr keys, placement round-robin: client 0, server 0, ...' '
	ringbench rr -c 2 --cpus 0,1 -N 10 --warmup 0 --format json >out.json &&
	for f in transactions_per_s us_per_cycle p50_us p9999_us max_us; do
		test_json out.json "has(\"$f\")" true || return 1
	done &&
	json_get out.json "[.placement[] | \"\(.role)\(.index)@\(.cpu)\"] | sort | join(\" \")" >got &&
	echo "client0@0 client1@0 server0@1 server1@1" >expect &&
	test_cmp expect got
'

test_expect_success 'progress lines per client' '
	ringbench rr -c 2 -N 100 --warmup 0 --progress 50 -o out.txt >progress &&
	test_line_count = 4 progress &&
	! grep -Ev "^[0-9]+\.[0-9]{9} ringbench mode=rr client=[01] transactions=(50|100)$" progress
'

test_expect_success JQ 'a server killed mid-run: clear error, partial result, exit 1' '
	start_server srv &&
	{
		ringbench rr --connect 127.0.0.1:$port -d 60s --warmup 0 \
			--progress 200 --format json -o out.json \
			>kill.progress 2>err &
	} &&
	pid=$! &&
	wait_lines kill.progress 2 &&
	kill -KILL "$(cat srv.pid)" &&
	{ wait $pid; test $? = 1; } &&
	grep -x "ringbench: client 0: the server 127.0.0.1:$port closed the connection (after [0-9]* transactions)" err &&
	test_line_count = 1 err &&
	json_get out.json ".partial, .runs[0].complete" >got &&
	printf "true\nfalse\n" >expect &&
	test_cmp expect got &&
	json_get out.json .error | grep -q "closed the connection" &&
	test "$(json_get out.json .runs[0].transactions)" -ge 400
'

test_expect_success JQ 'junk on the port: dropped, and the server serves on' '
	start_server junk &&
	rr-junk $port "GET / HTTP/1.0\\n\\n" >reply1 &&
	echo "ERR bad hello" >expect &&
	test_cmp expect reply1 &&
	rr-junk $port "RINGBENCH-RR/1 99999999 1\\n" >reply2 &&
	test_cmp expect reply2 &&
	rr-junk $port "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" >reply3 &&
	test_cmp expect reply3 &&
	ringbench rr --connect 127.0.0.1:$port -N 100 --warmup 0 \
		--format json >client.json &&
	test "$(json_get client.json .runs[0].transactions)" = 100 &&
	stop_server junk 143 &&
	json_get junk.json ".runs[0] | \"\(.server_requests) \(.server_responses) \(.server_connections) \(.server_dropped)\"" >got &&
	echo "100 100 4 3" >expect &&
	test_cmp expect got &&
	grep -c "^ringbench: warning: dropped 127\.0\.0\.1:[0-9]*: bad hello$" junk.err >n &&
	echo 3 >expect &&
	test_cmp expect n
'

test_expect_success JQ 'a full server answers "ERR busy"; the client says so' '
	start_server full --max-clients 1 &&
	{
		ringbench rr --connect 127.0.0.1:$port -d 60s --warmup 0 \
			--progress 100 -o hold.txt >hold.progress &
	} &&
	hold=$! &&
	wait_lines hold.progress 1 &&
	test_expect_code 1 ringbench rr --connect 127.0.0.1:$port -N 1 \
		--warmup 0 -o /dev/null 2>err &&
	echo "ringbench: client 0: 127.0.0.1:$port refused the connection: ERR busy" >expect &&
	test_cmp expect err &&
	kill -INT $hold &&
	{ wait $hold; test $? = 130; } &&
	stop_server full 143
'

# The audit: a byte every 0.9 s held a --max-clients=1 slot for good, and
# a hello sent over 19 s was answered OK.  The 5 s are from connecting.
test_expect_success JQ 'a hello dripped a byte at a time is dropped 5 s after connecting' '
	start_server drip --max-clients 1 &&
	rr-junk --drip=400 $port "RINGBENCH-RR/1 1 1\\n" >reply &&
	echo "ERR bad hello" >expect &&
	test_cmp expect reply &&
	grep -x "ringbench: warning: dropped 127\.0\.0\.1:[0-9]*: no hello within 5 s" drip.err &&
	ringbench rr --connect 127.0.0.1:$port -N 10 --warmup 0 \
		--format json >client.json &&
	test_json client.json .runs[0].transactions 10 &&
	stop_server drip 143
'

# The audit: one stderr line per refused connection (2,007 from a flood).
test_expect_success JQ 'refused connections are counted, and logged once a second at most' '
	start_server flood --max-clients 1 &&
	{
		ringbench rr --connect 127.0.0.1:$port -d 60s --warmup 0 \
			--progress 100 -o flood-hold.txt >flood-hold.progress &
	} &&
	hold=$! &&
	wait_lines flood-hold.progress 1 &&
	i=0 &&
	while [ $i -lt 50 ]; do
		rr-junk $port "" >>busy.out || return 1
		i=$((i + 1))
	done &&
	test "$(grep -c "^ERR busy$" busy.out)" = 50 &&
	kill -INT $hold &&
	{ wait $hold; test $? = 130; } &&
	stop_server flood 143 &&
	test_json flood.json .runs[0].server_refused 50 &&
	sed -n "s/^ringbench: warning: refused \([0-9]*\) connections*: 1 client connected (--max-clients)$/\1/p" \
		flood.err >counts &&
	test "$(awk "{ n += \$1 } END { print n }" counts)" = 50 &&
	test "$(wc -l <counts)" -lt 50 &&
	! grep "too many clients" flood.err
'

test_done
