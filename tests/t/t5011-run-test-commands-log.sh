#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='run-test.sh: commands.log holds every command, whole, in the order started'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-run-test.sh"
command -v seqbench >/dev/null 2>&1 && test_set_prereq SEQBENCH

rt=$abs_top_srcdir/run-test.sh
LATENCY_STATE_DIR=$TRASH_DIRECTORY/state
export LATENCY_STATE_DIR

# The quick path with every workload: five counted fake-gitk runs (asked
# for: --quick's auto stops anywhere from 5 to 10), each with its
# latency-output, beside fake-music, the monitors and seqbench; a tiny
# repository keeps it to seconds.
test_expect_success SEQBENCH 'a quick run with several workloads' '
	LATENCY_QUICK_COMMITS=300 "$rt" --quick --gitk-runs=5 --label=q \
		--confine=none --no-drop-caches --gitk-args=--every=50 \
		--music-args="--songs=1 --song-size=64k" \
		--seqbench="-t 1 -s 2 -b 4k -r 20" --results=res >out 2>err
'

# Each line is one whole command: the programs' folders and the test's
# directory taken out, every command in the order the driver starts them,
# each series' latency-output before its workload; seqbench with the
# environment that puts what it changes in the driver's record, and so
# latency-block (its --device options, this machine's disks, taken out).
cat >expect <<'EOF'
fake-gitk --create-repo cache/repo-300-137.tmp.PID --commits 300 --seed 137
latency-vmstat --interval 1s --summary res/q/vmstat.json --format json
latency-kmsg --log res/q/kern.log --summary res/q/kmsg.json --format json
latency-trace --summary res/q/trace.json --format json --events res/q/trace-events.log
latency-highorder --summary res/q/highorder.json --format json
env LATENCY_MACHINE_OWNER=PID LATENCY_MACHINE=latency-machine latency-block --summary res/q/block.json --format json --counters-only
latency-output --stall 1s --format json --report res/q/fake-music.report.json --plot res/q/fake-music
fake-music --to res/q/scratch/music --loop --format json -o res/q/fake-music.json --songs=1 --song-size=64k
latency-output --stall 1s --format json --report res/q/fake-gitk-1.report.json --plot res/q/fake-gitk-1
unbuffered fake-gitk --iterations 1 --format json -o res/q/fake-gitk-1.json --every=50 cache/repo-300-137
latency-output --stall 1s --format json --report res/q/fake-gitk-2.report.json --plot res/q/fake-gitk-2
unbuffered fake-gitk --iterations 1 --format json -o res/q/fake-gitk-2.json --every=50 cache/repo-300-137
latency-output --stall 1s --format json --report res/q/fake-gitk-3.report.json --plot res/q/fake-gitk-3
unbuffered fake-gitk --iterations 1 --format json -o res/q/fake-gitk-3.json --every=50 cache/repo-300-137
latency-output --stall 1s --format json --report res/q/fake-gitk-4.report.json --plot res/q/fake-gitk-4
unbuffered fake-gitk --iterations 1 --format json -o res/q/fake-gitk-4.json --every=50 cache/repo-300-137
latency-output --stall 1s --format json --report res/q/fake-gitk-5.report.json --plot res/q/fake-gitk-5
unbuffered fake-gitk --iterations 1 --format json -o res/q/fake-gitk-5.json --every=50 cache/repo-300-137
env LATENCY_MACHINE_OWNER=PID LATENCY_MACHINE=latency-machine seqbench -t 1 -s 2 -b 4k -r 20 -d res/q/scratch/seqbench --seed 137 --json-output res/q/seqbench.json
latency-summarize --result-dir=res/q
latency-compare --format=html -o res/q/report.html res/q
EOF
# The high-order probe runs only where the kernel has THP.
if ! [ -d /sys/kernel/mm/transparent_hugepage ]; then
	grep -v "^latency-highorder " expect >expect.nothp && mv expect.nothp expect
fi

test_expect_success SEQBENCH 'every line of commands.log is one whole command, in order' '
	sed -e "s|$PWD/||g" -e "s|^/[^ ]*/||" -e "s|^unbuffered /[^ ]*/|unbuffered |" \
		-e "s|\.tmp\.[0-9]*|.tmp.PID|" \
		-e "s|^env LATENCY_MACHINE_OWNER=[0-9]* LATENCY_MACHINE=/[^ ]*/\([^ ]*\) /[^ ]*/|env LATENCY_MACHINE_OWNER=PID LATENCY_MACHINE=\1 |" \
		-e "s| --device=[^ ]*||g" \
		res/q/commands.log >got &&
	test_cmp expect got
'

# --block-trace: latency-block reads the tracepoints too (it is told no
# --counters-only); by default the counters alone, which cost nothing.
test_expect_success '--block-trace: latency-block traces, asked for' '
	LATENCY_QUICK_COMMITS=300 "$rt" --quick --gitk-runs=2 --label=t \
		--confine=none --no-drop-caches --gitk-args=--every=50 \
		--music-args="--songs=1 --song-size=64k" --block-trace \
		--results=res >out 2>err &&
	grep "latency-block --summary $PWD/res/t/block.json" res/t/commands.log >line &&
	! grep -e --counters-only line &&
	grep -x "block-trace=yes" res/t/config
'

test_done
