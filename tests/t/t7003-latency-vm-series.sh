#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='latency-vm with two kernels: pairs of boots in a seeded order, each a result of the series'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-vm.sh"

plan=$abs_top_builddir/compare/latency-plan

# Two kernels QEMU boots that loop in their first instruction.
fake_bzimage ka 9.8.7-a
fake_bzimage kb 9.8.7-b

test_expect_success 'the options of a series are checked before any work' '
	test_expect_code 2 "$vm" --kernel=ka --pairs=2 2>err &&
	grep -x "latency-vm: --pairs goes with a second --kernel" err &&
	test_expect_code 2 "$vm" --kernel=ka --order-seed=1 2>err &&
	grep -x "latency-vm: --order-seed goes with a second --kernel" err &&
	test_expect_code 2 "$vm" --kernel=ka --kernel=kb --kernel=ka 2>err &&
	grep -x "latency-vm: --kernel given more than twice (two kernels are booted in turn)" err &&
	test_expect_code 2 "$vm" --kernel=ka --kernel=kb --pairs=0 2>err &&
	grep -x "latency-vm: invalid value '\''0'\'' for --pairs (expected 1 to 100)" err &&
	test_expect_code 2 "$vm" --kernel=ka --kernel=kb --pairs=101 2>err &&
	test_expect_code 2 "$vm" --kernel=ka --kernel=kb --order-seed=x 2>err &&
	grep -x "latency-vm: invalid value '\''x'\'' for --order-seed (expected a number, at most 17 digits)" err &&
	test_expect_code 2 "$vm" --kernel=ka --kernel=kb --label=x,x 2>err &&
	grep -x "latency-vm: invalid value '\''x,x'\'' for --label (the two labels are the same)" err &&
	test_expect_code 2 "$vm" --kernel=ka --kernel=kb --label=x,y,z 2>err &&
	test_expect_code 2 "$vm" --kernel=ka --kernel=kb --label=x, 2>err &&
	grep -x "latency-vm: invalid value '\''x,'\'' for --label (two kernels: A,B or one LABEL)" err &&
	test_expect_code 2 "$vm" --kernel=ka --kernel=kb --label=../x,y 2>err &&
	grep -x "latency-vm: invalid value '\''../x'\'' for --label (letters, digits, . _ + -, not starting with .)" err &&
	test_expect_code 2 "$vm" --kernel=ka --kernel=kb --build-image=kernel 2>err &&
	grep -x "latency-vm: --build-image takes one --kernel" err &&
	test_expect_code 2 "$vm" --kernel=ka --kernel=kb --modules=. 2>err &&
	grep -x "latency-vm: --modules names one kernel'\''s module tree: not with two --kernel" err &&
	test_expect_code 2 "$vm" --kernel=ka --kernel=kb --series-boot=s,1,AB,1,1,a,x,y 2>err &&
	grep -x "latency-vm: --series-boot is given by latency-vm to each boot of a series" err &&
	! test -e results && test -z "$(vm_runs_left)"
'

test_expect_success 'a hand-made --series-boot is checked field by field' '
	for v in "s,1,AB,1,1,a,x,y" "s,2,ABBA,1,3,a,x,y" "s,2,ABB,1,1,a,x,y" \
		"s,1,AC,1,1,a,x,y" "s,1,AB,1,1,c,x,y" "s,1,AB,1,1,a,x" \
		"s;x,1,AB,1,1,a,x,y" ",1,AB,1,1,a,x,y" "s,1,AB,-1,1,a,x,y"; do
		test_expect_code 2 "$vm" --kernel=ka --label=z --series-boot="$v" 2>err &&
		grep -x "latency-vm: invalid value '\''$v'\'' for --series-boot (latency-vm gives it to each boot of a series)" err ||
		return 1
	done
'

test_expect_success '--dry-run: the boots in the order latency-plan gives for the seed' '
	"$plan" --interleave-order=3 --seed=5 >order &&
	order=$(sed -n "s/^order=//p" order) &&
	test ${#order} = 6 &&
	"$vm" --kernel=ka --kernel=kb --pairs=3 --order-seed=5 --memory=256M \
		--dry-run -- --quick >out 2>err &&
	grep -x "latency-vm: 3 pairs of boots: 9.8.7-a (a, --kernel=ka) and 9.8.7-b (b, --kernel=kb), order $order (--order-seed=5)" err &&
	test $(grep -c "^# boot " out) = 6 &&
	i=0 &&
	while [ $i -lt 6 ]; do
		i=$((i + 1)) &&
		pair=$(((i + 1) / 2)) &&
		if [ "$(printf %s "$order" | cut -c$i)" = A ]; then
			arm=a k=ka l=9.8.7-a
		else
			arm=b k=kb l=9.8.7-b
		fi &&
		sed -n "${i}p" out >line &&
		grep -x "# boot $i of 6 (pair $pair, arm $arm): latency-vm --memory=256M --kernel=$k --label=$l --series-boot=[0-9TZ]*-[0-9]*,3,$order,5,$pair,$arm,9.8.7-a,9.8.7-b -- --quick" line ||
		return 1
	done &&
	"$vm" --kernel=ka --kernel=ka --pairs=1 --dry-run >out 2>err &&
	grep "^# boot .*--label=9.8.7-a-a " out &&
	grep "^# boot .*--label=9.8.7-a-b " out &&
	"$vm" --kernel=ka --kernel=kb --pairs=1 --label=rt --dry-run >out 2>err &&
	grep "^# boot .*--label=rt-a " out && grep "^# boot .*--label=rt-b " out &&
	"$vm" --kernel=ka --kernel=kb --pairs=1 --label=old,new --dry-run >out 2>err &&
	grep "^# boot .*--kernel=ka --label=old " out &&
	grep "^# boot .*--kernel=kb --label=new " out &&
	! test -e results
'

test_expect_success QEMU,VM_TOOLS,JQ 'two pairs of boots: four results of one series, and the command to compare them (quoted)' '
	test_expect_code 1 "$vm" --kernel=ka --kernel=kb --pairs=2 --order-seed=3 \
		--accel=tcg --memory=128M --cpus=1 --boot-timeout=2s \
		--results="res dir" -- --commits=2000 >out 2>err &&
	order=$("$plan" --interleave-order=2 --seed=3 | sed -n "s/^order=//p") &&
	grep -x "latency-vm: 4 of 4 boots made, 4 failed; compare them with:" err &&
	grep -x "  latency-compare '\''res dir/9.8.7-a'\'' '\''res dir/9.8.7-a-2'\'' '\''res dir/9.8.7-b'\'' '\''res dir/9.8.7-b-2'\''" err &&
	series=$(jq -r .vm.boots.series "res dir/9.8.7-a/result.json") &&
	test -n "$series" &&
	# Boots that never reached the suite: no page, said, the series stands.
	grep -x "latency-vm: warning: no series page: latency-compare failed (see res dir/series-$series.html.log)" err &&
	grep -q "^latency-compare: " "res dir/series-$series.html.log" &&
	! test -e "res dir/series-$series.html" &&
	for r in 9.8.7-a 9.8.7-a-2 9.8.7-b 9.8.7-b-2; do
		test_json "res dir/$r/result.json" .partial true &&
		test_json "res dir/$r/result.json" .run_label $r &&
		test_json "res dir/$r/result.json" \
			".vm.boots | [.series, .pairs, .order, .seed, .labels] | tojson" \
			"[\"$series\",2,\"$order\",3,[\"9.8.7-a\",\"9.8.7-b\"]]" ||
		return 1
	done &&
	test_json "res dir/9.8.7-a/result.json" "[.label, .vm.boots.arm, .vm.boots.pair] | tojson" "[\"9.8.7-a\",\"a\",1]" &&
	test_json "res dir/9.8.7-a-2/result.json" "[.label, .vm.boots.arm, .vm.boots.pair] | tojson" "[\"9.8.7-a\",\"a\",2]" &&
	test_json "res dir/9.8.7-b/result.json" "[.label, .vm.boots.arm, .vm.boots.pair] | tojson" "[\"9.8.7-b\",\"b\",1]" &&
	test_json "res dir/9.8.7-b-2/result.json" "[.label, .vm.boots.arm, .vm.boots.pair] | tojson" "[\"9.8.7-b\",\"b\",2]" &&
	first=$(printf %s "$order" | cut -c1) &&
	if [ "$first" = A ]; then first=9.8.7-a; else first=9.8.7-b; fi &&
	grep -x "latency-vm: boot 1 of 4: pair 1, arm .* ($first)" err &&
	grep -x "latency-vm: booting $first (tcg, 128M, 1 CPUs) for $PWD/res dir/$first" err &&
	test -z "$(vm_runs_left)"
'

# A series stopped by SIG (TERM, or INT as Ctrl-C sends it: the test
# shell starts a background job with SIGINT ignored, env gives it back):
# the running boot, which gets SIGTERM (it starts with SIGINT ignored),
# keeps its partial result, and no boot follows.
for sig in TERM INT; do
	case $sig in TERM) code=143 ;; INT) code=130 ;; esac
	test_expect_success QEMU,VM_TOOLS,JQ "SIG$sig during a series: the running boot partial, no boot after it" "
		env --default-signal=$sig \"\$vm\" --kernel=ka --kernel=kb --pairs=2 \
			--accel=tcg --memory=128M --cpus=1 --boot-timeout=5m \
			--results=sig-$sig -- --commits=2000 >out 2>err &
		pid=\$! &&
		vm_wait_qemu &&
		kill -$sig \$pid &&
		{ wait \$pid; st=\$?; } ;
		test \"\$st\" = $code &&
		! kill -0 \"\$qpid\" 2>/dev/null &&
		test -z \"\$(vm_runs_left)\" &&
		test \$(ls sig-$sig | wc -l) = 1 &&
		r=\$(ls sig-$sig) &&
		test_json sig-$sig/\$r/result.json \"[.partial_reason, .vm.outcome, .vm.boots.pair] | tojson\" \
			'[\"interrupted by SIGTERM\",\"stopped\",1]' &&
		grep -x \"latency-vm: SIG$sig: stopping the series (the running boot keeps a partial result)\" err &&
		grep -x \"latency-vm: 1 of 4 boots made, 0 failed, stopped by SIG$sig; compare them with:\" err &&
		grep -x \"  latency-compare sig-$sig/\$r\" err
	"
done

test_done
