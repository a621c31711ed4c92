#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='run-test.sh: a reduced end-to-end run leaves a complete result directory'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-run-test.sh"
command -v seqbench >/dev/null 2>&1 && test_set_prereq SEQBENCH
# latency-highorder runs where the kernel has THP and reads kpageflags.
if [ -d /sys/kernel/mm/transparent_hugepage ] && [ -r /proc/kpageflags ] &&
	test_have_prereq ROOT; then
	test_set_prereq PROBE
fi

rt=$abs_top_srcdir/run-test.sh
# This script's machine-state record, apart from any real run's.
LATENCY_STATE_DIR=$TRASH_DIRECTORY/state
export LATENCY_STATE_DIR
if test_have_prereq ROOT && command -v swapon >/dev/null 2>&1 &&
	{ [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ] ||
	grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; }; then
	test_set_prereq CONFINE
fi
# A tiny repository (300 commits, a line every 50) and a one-song folder of
# 64 KiB keep the run to a few seconds.
test_expect_success 'a reduced run completes' '
	"$rt" --label=e2e --commits=300 --gitk-runs=2 --warmup=1 --no-drop-caches \
		--confine=none --gitk-args=--every=50 \
		--music-args="--songs=1 --song-size=64k" --results=res >out 2>err &&
	! test -s out &&
	grep "result in $PWD/res/e2e\$" err
'

test_expect_success 'the headline has exactly the 2009 format' '
	sed -n 1p res/e2e/summary.txt >headline &&
	grep -E -x "e2e Elapsed:[0-9]{2,}:[0-5][0-9]\.[0-9]{3}\(stddev:[0-9]+\.[0-9]{3}\) Failures:[0-9]+" headline &&
	! grep "^PARTIAL" res/e2e/summary.txt &&
	grep -x "runs: 2 of 2 counted fake-gitk runs (warmup 1)" res/e2e/summary.txt &&
	grep "^swapped: pswpout_delta=[0-9]* pswpin_delta=[0-9]* pages" res/e2e/summary.txt
'

test_expect_success 'every file of the result directory is there' '
	cd res/e2e &&
	for f in summary.txt result.json config versions commands.log \
		fake-gitk-1.latency fake-gitk-2.latency fake-music.latency \
		warmup-1.latency warmup-1.json \
		fake-gitk-1.json fake-gitk-2.json fake-music.json \
		fake-gitk-1.report.json fake-music.report.json \
		fake-gitk-1.snap-before.json fake-gitk-2.snap-after.json \
		run.facts machine-before.json machine-after.json \
		vmstat.log vmstat.json kmsg.json plot.gp vmstat.dat; do
		test -s $f || test_fail "missing or empty: $f" || return 1
	done &&
	test -f kern.log &&
	for d in before after; do
		for f in kernel cmdline meminfo vmstat swaps mounts slabinfo \
			cpuinfo sys-vm block-queue; do
			test -s sysinfo/$d/$f ||
				test_fail "missing or empty: sysinfo/$d/$f" || return 1
		done
	done &&
	grep -q "^dirty_ratio [0-9]" sysinfo/before/sys-vm &&
	! test -e scratch
'

# The devices under the result directory; none where it is on tmpfs.
test_expect_success JQ 'the block layer'"'"'s account: block.json, result.json block' '
	test_json res/e2e/block.json .program latency-block &&
	test_json res/e2e/block.json .end_reason signal &&
	test_json res/e2e/result.json ".block.devices | type" array &&
	json_get res/e2e/block.json .source >source &&
	test_json res/e2e/result.json .block.source "$(cat source)" &&
	grep -q "^latency-block " res/e2e/versions &&
	# The counters alone unless --block-trace asks for the tracepoints.
	test "$(cat source)" = counters &&
	test_json res/e2e/block.json .no_tracing asked-for-the-counters-only
'

test_expect_success 'the series are latency-output lines of the workloads' '
	cd res/e2e &&
	# 300 commits, a line every 50, and the end-of-load line.
	test_line_count = 7 fake-gitk-1.latency &&
	grep -c -E "^ *[0-9]+\.[0-9]{4} +[0-9]+\.[0-9]{4} +[0-9]+\.[0-9]{4} -- [0-9]+\.[0-9]{9} fake-gitk " \
		fake-gitk-1.latency >count &&
	echo 7 >expect && test_cmp expect count &&
	grep -q -E "^ *[0-9.]+ +[0-9.]+ +[0-9.]+ -- [0-9.]+ fake-music bytes=" fake-music.latency
'

test_expect_success GNUPLOT 'the plots are drawn' '
	cd res/e2e &&
	test -s fake-gitk-1.png && test -s fake-gitk-2.png && test -s fake-music.png
'

test_expect_success 'report.html: the run alone as one page' '
	cd res/e2e &&
	grep -q "^<!DOCTYPE html>" report.html &&
	grep -q "<tr id=\"row-0-elapsed_mean_s\" " report.html &&
	grep -q "<pre id=\"headline\">e2e Elapsed:" report.html &&
	! grep -q "src=\|href=\"http" report.html &&
	! test -e report.log &&
	! grep -q "report.html" notes
'

test_expect_success 'a page that cannot be made is said, and the run stands' '
	mkdir fakebin &&
	printf "#!/bin/sh\necho \"latency-compare: broken\" >&2\nexit 1\n" \
		>fakebin/latency-compare &&
	chmod +x fakebin/latency-compare &&
	LATENCY_TESTS_BINDIR=$PWD/fakebin "$rt" --label=nopage --commits=300 \
		--gitk-runs=2 --warmup=0 --no-drop-caches --confine=none \
		--gitk-args=--every=50 --music-args="--songs=1 --song-size=64k" \
		--results=res >out 2>err &&
	grep -x "no report.html: latency-compare failed (see report.log)" res/nopage/notes &&
	grep -x "latency-compare: broken" res/nopage/report.log &&
	grep "warning: no report.html in .*res/nopage: latency-compare failed" err &&
	! test -e res/nopage/report.html &&
	test -s res/nopage/result.json
'

# gnuplot's "empty y range" warnings on a series of a few lines
# were kept in *.latency-output.err and plot.log.
test_expect_success GNUPLOT 'plotting leaves no error file, and the scripts stay' '
	cd res/e2e &&
	for f in *.latency-output.err plot.log; do
		! test -e "$f" || test_fail "left behind: $f" || return 1
	done &&
	for s in fake-gitk-1 fake-gitk-2 fake-music; do
		test -s $s-hist.gp && test -s $s-latency.gp &&
		test -s $s-hist.png || test_fail "no plot of $s" || return 1
	done &&
	grep -x "set yrange \[0:\*\]" fake-music-hist.gp
'

test_expect_success 'versions, command lines and the seed are recorded' '
	cd res/e2e &&
	for p in latency-output unbuffered fake-gitk fake-music latency-vmstat \
		latency-kmsg latency-trace latency-plan latency-summarize; do
		grep -q "^$p (latency-tests) " versions ||
			test_fail "no version of $p" || return 1
	done &&
	grep -x "uname -r: $(uname -r)" versions &&
	grep -x "seed: 137" versions &&
	grep -q "fake-gitk --create-repo .* --commits 300 --seed 137$" commands.log &&
	grep -q "fake-gitk --iterations 1 --format json -o .*/fake-gitk-2.json --every=50 " commands.log
'

test_expect_success JQ 'result.json carries the fields of doc/design.md, contract 4' '
	json_get res/e2e/result.json "[.format_version, .program, .label, .partial,
		(.gitk_runs | length), (.elapsed_mean_s | type),
		(.elapsed_stddev_s | type), (.failures | type),
		(.oom_kills | type), (.pswpout_delta | type),
		(.pswpin_delta | type), (.latency | keys | join(\",\")),
		(.latency[\"fake-gitk-1\"].stall_threshold_s),
		(.monitors | keys | join(\",\"))] | map(tostring) | join(\" \")" >fields &&
	echo "2 run-test.sh e2e false 2 number number number number number number fake-gitk-1,fake-gitk-2,fake-music,warmup-1 1 highorder,kmsg,trace,vmstat" >expect &&
	test_cmp expect fields
'

# Where the probe cannot run, line 2 says so: no skip either way.
test_expect_success JQ 'summary line 2: the high-order probe, or that it did not run' '
	sed -n 2p res/e2e/summary.txt >second &&
	if test_have_prereq PROBE; then
		grep -x "e2e HighOrder:\( order-[0-9]* [0-9]*\.[0-9]%\)\{1,\} (p99 fault [0-9]*\.[0-9]* ms)" second &&
		test_json res/e2e/result.json ".high_order | length > 0 and all(.[]; .attempts > 0 and .successes <= .attempts and (.order | type) == \"number\")" true &&
		test_json res/e2e/result.json ".failures_by_order | type == \"object\"" true &&
		grep -q "latency-highorder --summary .*/highorder.json --format json" res/e2e/commands.log
	else
		echo "e2e HighOrder: none (not probed)" >expect &&
		test_cmp expect second
	fi
'

test_expect_success JQ 'every run has its kernel figures; no pressure is said plainly' '
	json_get res/e2e/result.json ".gitk_runs[] | [.majflt, .pswpin, .pswpout, .psi_some_s,
		.pgscan_kswapd, .allocstall, .progress_lines] | map(type) | join(\" \")" >types &&
	printf "number number number number number number number\n%.0s" 1 2 >expect &&
	test_cmp expect types &&
	json_get res/e2e/result.json "[.pressure.mode, .pressure.ratio, .runs.asked, .runs.done,
		.runs.stopped_by] | map(tostring) | join(\" \")" >p &&
	echo "none null 2 2 runs" >expect &&
	test_cmp expect p &&
	grep -x "pressure: none: no memory pressure was applied: --confine=none: nothing was pressed" res/e2e/summary.txt
'

# fake-music.json and machine-confined.json are in result.json, as written.
test_expect_success JQ 'fake-music and the confined machine are in the result' '
	json_get -S res/e2e/fake-music.json . >want &&
	json_get -S res/e2e/result.json .fake_music >got &&
	test_cmp want got &&
	json_get -S res/e2e/machine-confined.json . >want &&
	json_get -S res/e2e/result.json .pressure.machine_confined >got &&
	test_cmp want got
'

test_expect_success JQ 'the mean and stddev are those of the runs' '
	json_get res/e2e/result.json ".gitk_runs[].elapsed_s" >runs &&
	latency-summarize --format=csv $(cat runs) >csv &&
	json_get res/e2e/result.json "\"runs,mean_s,stddev_s\", \"2,\(.elapsed_mean_s),\(.elapsed_stddev_s)\"" >from-json &&
	sed -n 2p csv >a && sed -n 2p from-json >b &&
	IFS=, read -r n1 m1 s1 <a && IFS=, read -r n2 m2 s2 <b &&
	test "$n1" = "$n2" &&
	awk -v a="$m1" -v b="$m2" -v c="$s1" -v d="$s2" \
		"BEGIN { d1 = a - b; d2 = c - d; exit !(d1 * d1 < 1e-18 && d2 * d2 < 1e-18) }"
'

test_expect_success 'the config repeats the run, in a new directory' '
	"$rt" --config=res/e2e/config >out 2>err &&
	test_cmp res/e2e/config res/e2e-2/config &&
	sed -n 1p res/e2e-2/summary.txt >headline &&
	grep -E -x "e2e-2 Elapsed:[0-9]{2,}:[0-5][0-9]\.[0-9]{3}\(stddev:[0-9]+\.[0-9]{3}\) Failures:[0-9]+" headline &&
	test_line_count = 7 res/e2e-2/fake-gitk-2.latency
'

# The 2009 form is summary.txt's line 1, and line 2 where the probe ran.
test_expect_success 'latency-compare reads the results and agrees' '
	latency-compare --format=2009 e2e=res/e2e e2e-2=res/e2e-2 >compare.out &&
	lines=1 &&
	if test_have_prereq PROBE; then lines=1,2; fi &&
	sed -n "${lines}p" res/e2e/summary.txt >want &&
	sed -n "${lines}p" res/e2e-2/summary.txt >>want &&
	test_cmp want compare.out
'

test_expect_success SEQBENCH,JQ 'a seqbench pass' '
	"$rt" --label=sb --commits=300 --gitk-runs=1 --no-drop-caches --confine=none \
		--music-args="--songs=1 --song-size=64k" \
		--seqbench="-t 1 -t 2 -s 2 -b 4k -r 20" --results=res >out 2>err &&
	test_json res/sb/seqbench.json ".results | type" array &&
	test_json res/sb/result.json ".seqbench | type" object &&
	grep -q "seqbench -t 1 -t 2 -s 2 -b 4k -r 20 -d .*/scratch/seqbench --seed 137 --json-output .*/seqbench.json" res/sb/commands.log &&
	grep -x "Sequential Reads" res/sb/seqbench.txt &&
	grep -x "Random Writes" res/sb/seqbench.txt &&
	test "$(grep -c "^$(uname -r) .* 4096 *[12] " res/sb/seqbench.txt)" = 8 &&
	grep -q "^seqbench (latency-tests) " res/sb/versions
'

test_expect_success JQ 'gitk-runs=auto stops at the precision, or at max-runs' '
	"$rt" --label=auto --commits=300 --warmup=0 --no-drop-caches \
		--confine=none --precision=1000 --gitk-args=--every=50 \
		--music-args="--songs=1 --song-size=64k" --results=res >out 2>err &&
	json_get res/auto/result.json "[.runs.asked, .runs.done, .runs.stopped_by] | map(tostring) | join(\" \")" >got &&
	echo "auto 5 precision" >expect &&
	test_cmp expect got &&
	"$rt" --label=auto --commits=300 --warmup=0 --no-drop-caches \
		--confine=none --precision=0.001 --max-runs=4 --gitk-args=--every=50 \
		--music-args="--songs=1 --song-size=64k" --results=res >out 2>err &&
	json_get res/auto-2/result.json "[.runs.asked, .runs.done, .runs.stopped_by] | map(tostring) | join(\" \")" >got &&
	echo "auto 4 max-runs" >expect &&
	test_cmp expect got &&
	grep -x "stopped by: max-runs; precision target 0.001%, max runs 4, time budget 360 s; precision of elapsed" res/auto-2/summary.txt &&
	json_get res/auto-2/result.json ".runs.precision_of" >got &&
	echo elapsed >expect &&
	test_cmp expect got
'

test_expect_success CONFINE,JQ 'memcg pressure: the footprint calibrated once, divided by the ratio' '
	"$rt" --label=mc --commits=300 --gitk-runs=1 --warmup=0 --no-drop-caches \
		--confine=memcg --pressure=2 --music-args="--songs=1 --song-size=64k" \
		--results=res >out 2>err &&
	json_get res/mc/result.json "[.pressure.mode, .pressure.ratio, .pressure.calibration,
		.pressure.footprint_bytes == .pressure.calibration_peak_rss_bytes,
		(.pressure.footprint_bytes / 2 / 4096 | floor) * 4096 == .pressure.memory_bytes,
		(.pswpout_delta | type)] | map(tostring) | join(\" \")" >got &&
	echo "memcg 2 measured true true number" >expect &&
	test_cmp expect got &&
	grep -q "/latency-tests\.[0-9]*/memory\.limit_in_bytes\|/latency-tests\.[0-9]*/memory\.max" res/mc/notes &&
	"$rt" --label=mc --commits=300 --gitk-runs=1 --warmup=0 --no-drop-caches \
		--confine=memcg --pressure=2 --music-args="--songs=1 --song-size=64k" \
		--results=res >out 2>err &&
	json_get res/mc-2/result.json ".pressure.calibration" >got &&
	echo cached >expect && test_cmp expect got &&
	"$rt" --label=mc --commits=300 --gitk-runs=1 --warmup=0 --no-drop-caches \
		--confine=memcg --pressure=2 --gitk-args=none \
		--music-args="--songs=1 --song-size=64k" --results=res >out 2>err &&
	json_get res/mc-3/result.json ".pressure.calibration" >got &&
	echo measured >expect && test_cmp expect got &&
	! grep -F "$LATENCY_CACHE_DIR/swapfile" /proc/swaps &&
	test -f "$LATENCY_CACHE_DIR/swapfile" &&
	! test -e "$LATENCY_STATE_DIR/state"
'

test_expect_success 'nothing is left running' '
	ps -eo args >ps.out &&
	! grep -F "$PWD/res" ps.out
'

test_done
