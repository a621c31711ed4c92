#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC2016,SC2154
test_description='latency-bisect: stopped at each stage (kill -9, SIGTERM, SIGINT), --continue goes on without repeating a boot; --status; a hostile bisect.json'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-bisect.sh"

fake_boot fb
FAKE_TABLE=$PWD/table
FAKE_READY=$PWD/ready
export FAKE_TABLE FAKE_READY
standard_table table
series_file s6 k0 k1 k2 k3 k4 k5

test_expect_success JQ 'the bisection not stopped, for reference' '
	FAKE_LOG=$PWD/ref.log "$bisect" --series=s6 --results=ref \
		--boot-command="$PWD/fb" --max-pairs=4 --alpha=0.05 --probe-alpha=0.05 -q &&
	test_json ref/bisect.json ".outcome, .boots_total" "found
24"
'

# stopped_at N SIGNAL DIR: start the bisection into DIR, send SIGNAL to it
# during boot N, and wait for it; its status in $status.
stopped_at() {
	rm -f "$FAKE_READY"
	FAKE_LOG=$PWD/$3.log FAKE_STOP_AT=$1 "$bisect" --series=s6 --results="$3" \
		--boot-command="$PWD/fb" --max-pairs=4 --alpha=0.05 --probe-alpha=0.05 -q 2>"$3.err" &
	_pid=$!
	test_wait_for "$FAKE_READY" &&
	kill -s "$2" "$_pid"
	wait "$_pid"
	status=$?
}

# resumed DIR N: DIR, stopped during boot N, goes on to the reference's
# decisions: the boot stopped is kept, partial and counted, no other boot
# is made twice (every boot started is in DIR.log once).
resumed() {
	FAKE_LOG=$PWD/$1.log "$bisect" --continue="$1" 2>"$1.err2" &&
	test_json "$1/bisect.json" ".boots[] | select(.seq == $2) | .end" partial &&
	test -f "$1/boots/$(printf %04d "$2")-$(sed -n "${2}p" "$1.log" | cut -d" " -f1)/result.json" &&
	test_cmp ref/bisect.log "$1/bisect.log" &&
	test_json "$1/bisect.json" ".outcome, .culprit, .boots_total, .boots_used" "found
k3
25
24" &&
	test "$(wc -l <"$1.log")" = 25 &&
	test "$(find "$1" -name result.json | wc -l)" = 25 &&
	! test -e "$1/tmp"
}

for stage in 2:ends 11:probe 21:validation; do
	n=${stage%%:*}
	test_expect_success JQ "kill -9 during boot $n (${stage#*:}): --continue goes on, the boot kept as partial" "
		stopped_at $n KILL k$n &&
		test \$status = 137 &&
		test_json k$n/bisect.json '.boots[] | select(.seq == $n) | .end' running &&
		resumed k$n $n &&
		test_json k$n/bisect.json '.boots[] | select(.seq == $n) | .reason' \
			'latency-bisect was killed during this boot'
	"
done

test_expect_success JQ 'SIGTERM during a boot: exit 143, stopped, the boot partial; --status; --continue' '
	stopped_at 15 TERM term &&
	test $status = 143 &&
	test_json term/bisect.json ".outcome" stopped &&
	test_json term/bisect.json ".boots[] | select(.seq == 15) | [.end, .reason] | tojson" \
		"[\"partial\",\"stopped by signal 15\"]" &&
	head -n 1 term/summary.txt >line &&
	echo "latency-bisect: stopped (resume with --continue)" >expect &&
	test_cmp expect line &&
	"$bisect" --status=term >status &&
	head -n 1 status >line && test_cmp expect line &&
	grep -x "next: the .*, pair [0-9] of k3 against k0" status &&
	resumed term 15 &&
	"$bisect" --status=term >status &&
	head -n 1 status >line &&
	echo "latency-bisect: k3 is the culprit (validated)" >expect &&
	test_cmp expect line
'

test_expect_success JQ 'SIGINT during a boot: exit 130, resumable' '
	stopped_at 5 INT int &&
	test $status = 130 &&
	test_json int/bisect.json ".outcome" stopped &&
	resumed int 5
'

test_expect_success JQ 'a finished bisection goes on to nothing: no boot, the same outcome' '
	cp -R ref again &&
	FAKE_LOG=$PWD/again.log "$bisect" --continue=again &&
	! test -e again.log &&
	test_cmp ref/bisect.log again/bisect.log &&
	test_json again/bisect.json .boots_total 24
'

# Killed between two writes: after a boot's directory was renamed in but
# before bisect.json said so (the boot is whole: used, not made again),
# and after bisect.json recorded a boot that never started (forgotten).
test_expect_success JQ 'killed between the rename and the state: the boot found whole and used' '
	cp -R ref late &&
	jq ".boots[-1].end = \"running\" | .boots[-1].value = null | .outcome = \"running\"" \
		ref/bisect.json >late/bisect.json &&
	FAKE_LOG=$PWD/late.log "$bisect" --continue=late &&
	! test -e late.log &&
	test_cmp ref/bisect.log late/bisect.log &&
	test_json late/bisect.json ".outcome, .boots_total, .boots_used, .boots[-1].end" "found
24
24
done"
'

test_expect_success JQ 'killed before a recorded boot started: forgotten, made afresh' '
	stopped_at 7 KILL early &&
	jq ".boots += [.boots[-1] | .seq = 99 | .dir = (\"boots/0099-\" + (.dir | sub(\"^boots/[0-9]+-\"; \"\")))]" \
		early/bisect.json >early/b.json && mv early/b.json early/bisect.json &&
	FAKE_LOG=$PWD/early.log "$bisect" --continue=early &&
	test_cmp ref/bisect.log early/bisect.log &&
	test_json early/bisect.json "[.boots[] | select(.seq == 99)] | length" 0 &&
	test_json early/bisect.json ".boots_total" 25
'

# hostile FILTER WHAT: ref with bisect.json changed by the jq FILTER is
# refused by --continue: one line, exit 2, no boot made.
hostile() {
	rm -rf h && cp -R ref h &&
	jq "$1" ref/bisect.json >h/bisect.json &&
	test_expect_code 2 env FAKE_LOG="$PWD/h.log" "$bisect" --continue=h 2>err &&
	echo "latency-bisect: h/bisect.json: bad $2: not a bisection this program wrote" >expect &&
	test_cmp expect err &&
	! test -e h.log
}

test_expect_success JQ 'a hostile bisect.json under --continue: one line naming the member, exit 2' '
	hostile ".boots[0].dir = \"../../etc\"" boots.dir &&
	hostile ".boots[0].dir = \"boots/0001-k5\"" boots.dir &&
	hostile ".format_version = 2" format_version &&
	hostile ".program = \"latency-compare\"" program &&
	hostile ".series[1].label = \"../x\"" series &&
	hostile ".series[1].label = \"k0\"" series &&
	hostile ".series = [.series[0]]" series &&
	hostile ".settings.good = \"k9\"" good &&
	hostile ".settings.max_pairs = 1000" max_pairs &&
	hostile ".settings.alpha = 2" settings.alpha &&
	hostile ".settings.metric = \"rm -rf\"" settings.metric &&
	hostile ".pair_series[0].order = \"AAAAAAAA\"" pair_series.order &&
	hostile ".pair_series[0].name = \"a/b\"" pair_series.name &&
	hostile ".boots[1].seq = 1" boots.seq &&
	hostile ".boots[0].series = 99" series &&
	hostile ".boots[0].end = \"fine\"" boots.end &&
	hostile ".boots[0].value = \"2\"" value &&
	hostile ".boots = 3" boots &&
	hostile ".wall_s = -1" wall_s
'

test_expect_success 'not JSON, or a done boot without its result: one line, exit 2' '
	rm -rf h && cp -R ref h &&
	printf "{\"format_version\": 1,\n  x" >h/bisect.json &&
	test_expect_code 2 "$bisect" --continue=h 2>err &&
	test_line_count = 1 err &&
	grep "^latency-bisect: h/bisect.json:2:3: " err &&
	rm -rf h && cp -R ref h &&
	rm h/boots/0003-*/result.json &&
	test_expect_code 2 "$bisect" --continue=h 2>err &&
	echo "latency-bisect: h/bisect.json: boot '\''boots/0003-$(ls h/boots | sed -n "s/^0003-\(k[0-9]\)$/\1/p")'\'' is done but its result cannot be read" >expect &&
	test_cmp expect err &&
	test_expect_code 2 "$bisect" --continue=no-such 2>err &&
	echo "latency-bisect: cannot open '\''no-such'\'': No such file or directory" >expect &&
	test_cmp expect err
'
# --continue runs the boot and build commands bisect.json holds: only
# from a directory and file that are the caller's alone.
test_expect_success 'a bisection others may write, or not a file: refused, no boot' '
	msg="is not yours alone (another user owns it or may write it): --continue would run the boot and build commands it holds" &&
	rm -rf h && cp -R ref h && chmod 0666 h/bisect.json &&
	test_expect_code 2 env FAKE_LOG="$PWD/h.log" "$bisect" --continue=h 2>err &&
	echo "latency-bisect: '\''h'\'' or its bisect.json $msg" >expect &&
	test_cmp expect err &&
	rm -rf h && cp -R ref h && chmod 0777 h &&
	test_expect_code 2 env FAKE_LOG="$PWD/h.log" "$bisect" --continue=h 2>err &&
	test_cmp expect err &&
	rm -rf h && cp -R ref h && mv h/bisect.json h/real.json &&
	ln -s real.json h/bisect.json &&
	test_expect_code 2 env FAKE_LOG="$PWD/h.log" "$bisect" --continue=h 2>err &&
	echo "latency-bisect: '\''h/bisect.json'\'' is not a regular file" >expect &&
	test_cmp expect err &&
	! test -e h.log
'
test_done
