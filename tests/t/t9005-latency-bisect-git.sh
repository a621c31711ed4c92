#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC2016,SC2154
test_description='latency-bisect --git: commits built in its own worktree, git bisect state driven'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-bisect.sh"

fake_boot fb
FAKE_TABLE=$PWD/table
export FAKE_TABLE
standard_table table

test_expect_success 'a repository of six commits, k3 the regression' '
	git_history repo k0 k1 k2 k3 k4 k5
'

test_expect_success JQ 'the culprit commit found and validated, git bisect log says it, the checkout untouched' '
	git -C repo status --porcelain >before &&
	"$bisect" --git=repo --good=k0 --bad=k5 --build="$fake_build" \
		--results=r --boot-command="$PWD/fb" --max-pairs=4 --alpha=0.05 --probe-alpha=0.05 -q &&
	k3=$(git -C repo rev-parse k3) && k2=$(git -C repo rev-parse k2) &&
	test_json r/bisect.json ".culprit, .validation.state" "$(printf %.12s "$k3")
validated" &&
	test_json r/bisect.json "[.series[].kernel] | join(\" \")" \
		"$(git -C repo rev-list --reverse k0~0 -1) $(git -C repo rev-list --reverse k0..k5 | tr "\n" " " | sed "s/ $//")" &&
	git -C r/worktree bisect log >log &&
	grep -x "git bisect good $k2" log &&
	grep -x "git bisect bad $k3" log &&
	grep -x "# first bad commit: \[$k3\] k3" log &&
	git -C repo status --porcelain >after &&
	test_cmp before after &&
	test "$(git -C repo rev-parse HEAD)" = "$(git -C repo rev-parse k5)" &&
	test -s "r/builds/$(printf %.12s "$k3").bzImage" &&
	test_json r/bisect.json ".settings.build_command" "$fake_build"
'

test_expect_success JQ 'git bisect replay takes the log; an unknown commit is written as a skip' '
	git -C r/worktree bisect log >log &&
	git -C r/worktree bisect reset HEAD >/dev/null 2>&1 &&
	git -C r/worktree bisect replay "$PWD/log" >out &&
	grep "is the first bad commit" out &&
	sed "s/^k2 .*/k2 2.06 2.16 2.04 2.14/" table >t2 &&
	test_expect_code 1 env FAKE_TABLE=$PWD/t2 "$bisect" --git=repo --good=k0 --bad=k4 \
		--build="$fake_build" --results=r2 --boot-command="$PWD/fb" \
		--max-pairs=4 --alpha=0.05 --probe-alpha=0.05 -q &&
	git -C r2/worktree bisect log >log2 &&
	grep -x "git bisect skip $(git -C repo rev-parse k2)" log2
'

test_expect_success JQ 'a commit that does not build: skipped with the build log named' '
	build="test \"\$(cat which)\" != k2 || exit 7; $fake_build" &&
	test_expect_code 1 "$bisect" --git=repo --good=k0 --bad=k5 --build="$build" \
		--results=r3 --boot-command="$PWD/fb" --max-pairs=4 --alpha=0.05 --probe-alpha=0.05 -q &&
	k2=$(git -C repo rev-parse --short=12 k2) &&
	test_json r3/bisect.json ".series[2] | [.state, .reason] | tojson" \
		"[\"skipped\",\"boot boots/0007-$k2: the build failed (exit 7, r3/builds/$k2.log)\"]"
'

# A history where the regression is a file of its own (k3 adds "slow"),
# so that its revert applies cleanly on the bad end.
test_expect_success JQ 'the culprit reverted on the bad end: the regression goes away, revert validated' '
	git init -q rv &&
	for k in k0 k1 k2 k3 k4 k5; do
		echo "$k" >"rv/$k" &&
		if [ $k = k3 ]; then echo 1 >rv/slow; fi &&
		git -C rv add . &&
		git -C rv -c user.name=t -c user.email=t@example.org commit -q -m $k &&
		git -C rv tag $k || return 1
	done &&
	printf "good 2.00 2.02 1.98 2.01 1.99\nslow 2.20 2.22 2.18 2.21\n" >t5 &&
	build="if [ -e slow ]; then k=slow; else k=good; fi; printf \"fake-kernel %s\\n\" \$k >image; echo image" &&
	FAKE_TABLE=$PWD/t5 "$bisect" --git=rv --good=k0 --bad=k5 --build="$build" \
		--results=r5 --boot-command="$PWD/fb" --max-pairs=4 --alpha=0.05 --probe-alpha=0.05 -q &&
	k3=$(git -C rv rev-parse --short=12 k3) &&
	test_json r5/bisect.json ".culprit, .validation.state, .revert.kernel, .revert.state, .revert.pairs" "$k3
revert validated
revert-$k3
revert validated
3" &&
	test_json r5/bisect.json ".revert.change_pct | . * 100 | round" -909 &&
	tail -n 1 r5/bisect.log | grep "^revert: revert-$k3 ($k3 reverted on .*) against .*, 3 fresh pairs: -9.09% .*: revert validated$" &&
	test -z "$(git -C rv status --porcelain)"
'

test_expect_success JQ 'a revert that does not apply cleanly: said, not tried' '
	FAKE_TABLE=$PWD/table "$bisect" --git=repo --good=k0 --bad=k5 --build="$fake_build" \
		--results=r6 --boot-command="$PWD/fb" --max-pairs=4 --alpha=0.05 --probe-alpha=0.05 -q &&
	k3=$(git -C repo rev-parse --short=12 k3) && k5=$(git -C repo rev-parse --short=12 k5) &&
	test_json r6/bisect.json ".validation.state, .revert.kernel, .revert.reason" "validated
null
the revert of $k3 does not apply cleanly on $k5: not tried" &&
	tail -n 1 r6/bisect.log >line &&
	echo "revert: the revert of $k3 does not apply cleanly on $k5: not tried" >expect &&
	test_cmp expect line
'

test_expect_success 'git mode: bad revisions and options, one line, exit 2' '
	test_expect_code 2 "$bisect" --git=repo --good=k0 --bad=nope --results=r4 2>err &&
	echo "latency-bisect: '\''nope'\'' is not a commit of the git tree '\''repo'\''" >expect &&
	test_cmp expect err &&
	test_expect_code 2 "$bisect" --git=repo --good=k5 --bad=k0 --results=r4 2>err &&
	echo "latency-bisect: no commit from '\''k5'\'' to '\''k0'\'' on the first-parent history: the bad revision must descend from the good one" >expect &&
	test_cmp expect err &&
	test_expect_code 2 "$bisect" --git=repo --good=k0 2>err &&
	grep -x "latency-bisect: --git needs --good=REV and --bad=REV" err &&
	test_expect_code 2 "$bisect" --series=s --build=make 2>err &&
	grep -x "latency-bisect: --build goes with --git" err &&
	! test -e r4
'
test_done
