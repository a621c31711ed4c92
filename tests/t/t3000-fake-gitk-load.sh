#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh sets the rest)
test_description='fake-gitk loads exactly what git rev-list walks'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-fake-gitk.sh"

test_have_prereq GIT || test_skip_all 'git is not installed'

test_expect_success 'a repository with merges and an octopus' '
	make_merge_repo repo &&
	git_figures repo &&
	echo 18 >expect && test_cmp expect commits &&
	echo 21 >expect && test_cmp expect edges
'

test_expect_success JQ 'commits, edges and held bytes equal git'"'"'s' '
	fake-gitk -q -n 2 --format json repo >out.json &&
	json_get out.json .commits >got && test_cmp commits got &&
	json_get out.json .edges >got && test_cmp edges got &&
	json_get out.json .bytes_held >got && test_cmp bytes got &&
	json_get out.json .bytes_read >got && test_cmp bytes got
'

test_expect_success JQ 'the JSON result carries the fields of doc/design.md, contract 4' '
	for f in format_version program command_line libgit2_version commits edges \
		bytes_held peak_rss_bytes iterations elapsed_s \
		commits_per_s commit_graph; do
		test_json out.json "[paths | last] | index(\"$f\") != null" \
			true || return 1
	done &&
	test_json out.json ".iterations | length" 2 &&
	test_json out.json ".iterations[0] | keys_unsorted | join(\" \")" \
		"$iteration_keys" &&
	test_json out.json ".iterations[0] | [.commits, .interrupted, .lines] |
		tojson" "[18,false,0]" &&
	test_json out.json ".iterations[0] | [.elapsed_s, .start_mono_s,
		.end_mono_s, .majflt, .minflt, .user_s, .sys_s, .runq_s] |
		map(type == \"number\") | all" true &&
	test_json out.json .commit_graph false &&
	test_json out.json .interrupted false
'

test_expect_success JQ 'peak RSS is at least the bytes held' '
	rss=$(json_get out.json .peak_rss_bytes) &&
	test "$rss" -ge "$(cat bytes)"
'

test_expect_success JQ 'a commit-graph file is noticed' '
	git -C repo commit-graph write --reachable &&
	fake-gitk -q -n 1 --format json repo >cg.json &&
	test_json cg.json .commit_graph true &&
	rm -f repo/.git/objects/info/commit-graph
'

test_expect_success 'the parent -> children map equals git rev-list --children' '
	fake-gitk -q -n 1 --dump-map map repo &&
	git -C repo rev-list --all --children >kids &&
	while read -r c rest; do
		printf "%s" "$c" &&
		for k in $(printf "%s\n" $rest | sort); do
			printf " %s" "$k"
		done &&
		echo || exit 1
	done <kids | sort >expect &&
	test_cmp expect map
'

test_expect_success 'the children of the octopus merge'"'"'s parents' '
	octopus=$(git -C repo rev-parse v1^{commit}) &&
	for p in $(git -C repo rev-parse "$octopus^1" "$octopus^2" \
		"$octopus^3" "$octopus^4"); do
		grep "^$p " map >line &&
		grep -q " $octopus" line || test_fail "$p lacks $octopus" ||
			return 1
	done &&
	first=$(git -C repo rev-parse "$octopus^1") &&
	grep "^$first " map | wc -w >n &&
	echo 2 >expect && test_cmp expect n
'

test_expect_success 'a progress line every N commits, one end line per load' '
	fake-gitk -n 3 -e 4 repo >out 2>err &&
	grep -c " fake-gitk iter=[123] phase=walk commits=[0-9]* bytes=[0-9]*$" out >n &&
	echo 12 >expect && test_cmp expect n &&
	grep -c " fake-gitk iter=[123] commits=18 edges=21 bytes=$(cat bytes) elapsed=[0-9]*\\.[0-9]\\{9\\}$" out >n &&
	echo 3 >expect && test_cmp expect n &&
	test_line_count '=' 15 out &&
	grep -q "^fake-gitk: commits=18 edges=21 bytes_held=$(cat bytes) " err
'

test_expect_success 'progress lines start with a monotonic timestamp' '
	head -n 1 out >first &&
	grep -q "^[0-9][0-9]*\\.[0-9]\\{9\\} fake-gitk iter=1 phase=walk commits=4 bytes=[0-9]*$" first &&
	fake-gitk -n 1 -e 0 repo >out 2>err &&
	test_line_count '=' 1 out
'

test_expect_success JQ '--hold none and --hold headers hold what they say' '
	fake-gitk -q -n 1 --hold none --format json repo >none.json &&
	json_get none.json .bytes_held >got &&
	echo 0 >expect && test_cmp expect got &&
	json_get none.json .bytes_read >got && test_cmp bytes got &&
	git -C repo rev-list --all | git -C repo cat-file --batch |
		awk "
			hdr == 0 && /^[0-9a-f]+ commit [0-9]+\$/ {
				left = \$3 + 1; hdr = 1; next
			}
			{ left -= length(\$0) + 1 }
			hdr == 1 { n += length(\$0) + 1; if (\$0 == \"\") hdr = 2 }
			hdr && left <= 0 { hdr = 0 }
			END { print n }
		" >expect &&
	fake-gitk -q -n 1 --hold headers --format json repo >h.json &&
	json_get h.json .bytes_held >got && test_cmp expect got
'

test_expect_success JQ '--reread gives the same figures' '
	fake-gitk -q -n 2 --reread --format json repo >rr.json &&
	json_get rr.json .bytes_held >got && test_cmp bytes got &&
	test_json rr.json .reread true
'

test_expect_success JQ 'revision ranges walk what git rev-list walks' '
	for r in HEAD "HEAD~2..HEAD" "a...main" "^a main" "v1" "main~1"; do
		git -C repo rev-list $r >revs &&
		fake-gitk -q -n 1 --format json repo $r >r.json &&
		wc -l <revs | tr -d " " >expect &&
		json_get r.json .commits >got &&
		test_cmp expect got || exit 1
	done
'

test_expect_success JQ 'a detached HEAD is part of --all' '
	git clone -q repo det &&
	git -C det checkout -q --detach HEAD &&
	(cd det && commit_file new.c detached) &&
	git_figures det &&
	fake-gitk -q -n 1 --format json det >d.json &&
	json_get d.json .commits >got && test_cmp commits got &&
	json_get d.json .edges >got && test_cmp edges got
'

test_expect_success JQ 'a generated repository loads exactly too' '
	fake-gitk -q --create-repo gen --commits 1500 --seed 7 >head &&
	git_figures gen &&
	fake-gitk -q -n 1 --format json gen >g.json &&
	json_get g.json .commits >got && test_cmp commits got &&
	json_get g.json .edges >got && test_cmp edges got &&
	json_get g.json .bytes_held >got && test_cmp bytes got
'

test_expect_success 'SIGINT stops cleanly with a partial summary' '
	fake-gitk -n 100000 -e 100 gen >out 2>err &
	pid=$! &&
	i=0 &&
	while ! grep -q "iter=2" out && test $i -lt 300; do
		sleep 0.1; i=$((i + 1))
	done &&
	kill -INT $pid &&
	{ wait $pid; status=$?; } &&
	echo 130 >expect && echo $status >got && test_cmp expect got &&
	grep -q "interrupted" err &&
	grep -q "^fake-gitk: commits=[0-9]* edges=" err
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 fake-gitk &&
	test_expect_code 2 fake-gitk --hold some repo &&
	test_expect_code 2 fake-gitk --iterations 0 repo &&
	test_expect_code 2 fake-gitk --format csv repo &&
	test_expect_code 2 fake-gitk --create-repo x repo
'

test_done
