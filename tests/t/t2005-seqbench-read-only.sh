#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2016,SC2034,SC1094,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh defines the rest)
test_description='seqbench: --read-only cold reads of a file and of a tree, --prepare, --make-tree'
. "$abs_top_srcdir/tests/t/test-lib.sh"

command -v setpriv >/dev/null 2>&1 && test_have_prereq ROOT &&
	test_set_prereq SETPRIV

test_expect_success '--make-tree: exactly N files of SIZE, nothing else' '
	seqbench --make-tree 70:3k -d tree &&
	find tree -type f >files &&
	test_line_count = 70 files &&
	find tree ! -type f ! -type d >others &&
	! test -s others &&
	find tree -type f -size -3072c >short &&
	find tree -type f -size +3072c >long &&
	! test -s short && ! test -s long &&
	find tree -mindepth 1 -type d >dirs &&
	test_line_count = 3 dirs
'

test_expect_success '--make-tree: the same seed makes the same tree' '
	seqbench --make-tree 70:3k -d tree2 &&
	(cd tree && find . -type f -exec cksum {} + | sort) >a &&
	(cd tree2 && find . -type f -exec cksum {} + | sort) >b &&
	test_cmp a b &&
	seqbench --make-tree 70:3k --seed 5 -d tree3 &&
	(cd tree3 && find . -type f -exec cksum {} + | sort) >c &&
	! cmp -s a c
'

test_expect_success '--make-tree refuses a directory that is not empty' '
	test_expect_code 1 seqbench --make-tree 1:1k -d tree >out 2>err &&
	echo "seqbench: refusing to make a tree in '\''tree'\'': not an empty directory" >expect &&
	test_cmp expect err
'

test_expect_success '--prepare writes SIZE bytes, seeded, and refuses a FIFO' '
	seqbench --prepare -s 3M -d big &&
	test "$(wc -c <big)" = 3145728 &&
	seqbench --prepare -s 3M -b 4k -d big2 &&
	cmp big big2 &&
	mkfifo fifo &&
	test_expect_code 1 seqbench --prepare -s 1M -d fifo >out 2>err &&
	echo "seqbench: refusing to write '\''fifo'\'': not a regular file" >expect &&
	test_cmp expect err
'

test_expect_success '--prepare truncates its own file, never a hard link' '
	seqbench --prepare -s 1M -d big2 &&
	test "$(wc -c <big2)" = 1048576 &&
	printf "keep me\n" >target &&
	ln target linked &&
	test_expect_code 1 seqbench --prepare -s 1M -d linked >out 2>err &&
	echo "seqbench: '\''linked'\'' is not a regular file of ours with one link: refusing to overwrite it" >expect &&
	test_cmp expect err &&
	printf "keep me\n" >expect &&
	test_cmp expect target
'

test_expect_success 'usage errors' '
	test_expect_code 2 seqbench --read-only --nofrag -d big 2>err &&
	grep -q "^seqbench: --nofrag cannot be combined with --read-only$" err &&
	test_expect_code 2 seqbench --read-only -t 2 -d big 2>err &&
	test_expect_code 2 seqbench --read-only -d big -d tree 2>err &&
	test_expect_code 2 seqbench --readahead 1M -d . 2>err &&
	grep -q "^seqbench: --readahead needs --read-only$" err &&
	test_expect_code 2 seqbench --read-only --readahead 5k -d big 2>err &&
	test_expect_code 2 seqbench --read-only -s 1M -d tree 2>err &&
	test_expect_code 2 seqbench --read-only --prepare -d big 2>err &&
	grep -q "^seqbench: --read-only and --prepare cannot be combined$" err &&
	test_expect_code 2 seqbench --make-tree 5 -d t5 2>err &&
	test_expect_code 2 seqbench --prepare -d big 2>err
'

test_expect_success 'a tree with a link, a FIFO, an empty file and depth' '
	seqbench --make-tree 40:2k --seed 9 -d walk &&
	sub=$(ls walk | head -n 1) &&
	mkdir -p "walk/$sub/deep/er" &&
	echo hello >"walk/$sub/deep/er/x" &&
	: >"walk/$sub/deep/empty" &&
	ln -s ../../big "walk/$sub/link" &&
	mkfifo "walk/$sub/pipe"
'

test_expect_success 'the tree is read in find -type f order' '
	seqbench --read-only --no-drop-caches -d walk --dump-offsets order \
		--json >walk.json &&
	find walk -type f >expect &&
	test_line_count = 42 expect &&
	test_cmp expect order
'

test_expect_success JQ 'the bytes and files read are the tree exactly' '
	find walk -type f -printf "%s\n" | awk "{ s += \$1 } END { print s }" >expect &&
	json_get walk.json .results[0].phases.tree_read.bytes >got &&
	test_cmp expect got &&
	test_json walk.json .results[0].phases.tree_read.files 42 &&
	test_json walk.json .results[0].phases.tree_read.complete true &&
	test_json walk.json .read_only true &&
	test_json walk.json .results[0].block_bytes 10240
'

test_expect_success JQ 'a file shorter than one block: one read, bytes exact' '
	printf "%0100d" 0 >short &&
	seqbench --read-only --no-drop-caches -b 4k -d short --json >s.json &&
	test_json s.json .results[0].phases.cold_read.bytes 100 &&
	test_json s.json .results[0].phases.cold_read.ops 1
'

test_expect_success 'a cold read of a file: -b reads, -s cuts it' '
	seqbench --read-only --no-drop-caches -b 64k -s 1M -d big \
		--format terse >t &&
	grep -q "^coldread:1\.00000," t &&
	seqbench --read-only --no-drop-caches -b 1M -d big --csv >c &&
	test_line_count = 2 c &&
	grep -q ",files,readahead_kb,cold,user_s,sys_s$" c &&
	grep -q ",3145728,1048576,1,1,cold_read,1,3,3145728," c
'

test_expect_success JQ 'an empty tree: nothing read, complete' '
	seqbench --make-tree 0:1k -d empty &&
	seqbench --read-only --no-drop-caches -d empty --json >e.json &&
	test_json e.json .results[0].phases.tree_read.bytes 0 &&
	test_json e.json .results[0].phases.tree_read.files 0 &&
	test_json e.json .incomplete false
'

test_expect_success 'warm data is reported as not cold' '
	cat big >/dev/null &&
	seqbench --read-only --no-drop-caches -d big -n 2 >warm.txt &&
	grep -q "^[^ ].*  not cold$" warm.txt &&
	grep -q "cold=no cached_bytes=3145728 " warm.txt
'

test_expect_success ROOT,JQ 'as root the cache is dropped: cold' '
	seqbench --read-only -d big --json >cold.json &&
	test_json cold.json .results[0].phases.cold_read.cold true &&
	test_json cold.json .results[0].phases.cold_read.cached_bytes 0
'

test_expect_success SETPRIV 'dropping the cache needs root: exit 3' '
	test_expect_code 3 setpriv --reuid=65534 --regid=65534 --clear-groups \
		seqbench --read-only -d short >out 2>err &&
	echo "seqbench: cold reads drop the page cache, which needs root (or --no-drop-caches): cannot open '\''/proc/sys/vm/drop_caches'\'': Permission denied" >expect &&
	test_cmp expect err
'

test_expect_success SETPRIV,JQ 'an unreadable file: named, the run incomplete, the rest read' '
	top=$(mktemp -d "${TMPDIR:-/tmp}/t2005-seqbench.XXXXXX") &&
	echo "$top" >top &&
	chmod 755 "$top" &&
	seqbench --make-tree 10:1k --seed 3 -d "$top/t" &&
	f=$(find "$top/t" -type f | sed -n 4p) &&
	chmod 000 "$f" &&
	test_expect_code 1 setpriv --reuid=65534 --regid=65534 --clear-groups \
		seqbench --read-only --no-drop-caches -n 2 -d "$top/t" --json \
		>u.json 2>err &&
	echo "seqbench: cannot open '\''$f'\'': Permission denied" >expect &&
	test_cmp expect err &&
	test_json u.json .incomplete true &&
	test_json u.json .results[0].phases.tree_read.files 9 &&
	test_json u.json .results[0].phases.tree_read.bytes 9216 &&
	test_json u.json .results[0].phases.tree_read.errors 1 &&
	test_json u.json "[.results[].phases.tree_read] | length" 2
'

test_expect_success SETPRIV 'remove the shared tree' '
	rm -rf "$(cat top)"
'

test_expect_success '--output to /dev/stdout and to a FIFO is written in place' '
	was=$(test -L /dev/stdout && echo link) &&
	seqbench --read-only --no-drop-caches -d short --csv \
		-o /dev/stdout >via-stdout &&
	test_line_count = 2 via-stdout &&
	{ test "$was" != link || test -L /dev/stdout; } &&
	mkfifo report.fifo &&
	{ cat report.fifo >via-fifo & } &&
	seqbench --read-only --no-drop-caches -d short --csv -o report.fifo &&
	wait &&
	test_line_count = 2 via-fifo &&
	test -p report.fifo
'

# Two labels, the same rows; rates {100,110,120} against {90,95,100} at
# readahead 128k, and {200,200,200} at 1024k (another row), a tree row.
sb_fixture() {
	label=$1 r1=$2 r2=$3 r3=$4
	{
		printf '{"format_version":1,"program":"seqbench","label":"%s",' "$label"
		printf '"interrupted":false,"results":['
		for r in $r1 $r2 $r3; do
			printf '{"size_mib":64,"block_bytes":65536,"threads":1,'
			printf '"readahead_kb":128,"phases":{"cold_read":{'
			printf '"complete":true,"rate_mib_s":%s,"cpu_pct":5,' "$r"
			printf '"files":1,"readahead_kb":128,"cold":true}}},'
			printf '{"size_mib":64,"block_bytes":65536,"threads":1,'
			printf '"readahead_kb":1024,"phases":{"cold_read":{'
			printf '"complete":true,"rate_mib_s":200,"cpu_pct":5,'
			printf '"files":1,"readahead_kb":1024,"cold":true}}},'
			printf '{"size_mib":2,"block_bytes":10240,"threads":1,'
			printf '"phases":{"tree_read":{"complete":true,'
			printf '"rate_mib_s":%s,"cpu_pct":2,"files":500,' "$r"
			printf '"readahead_kb":null,"cold":true}}},'
		done
		printf '{"size_mib":64,"block_bytes":65536,"threads":1,'
		printf '"phases":{}}]}\n'
	} >"$label.json"
}

test_expect_success JQ 'latency-compare compares the read-only phases' '
	sb_fixture base 100 110 120 &&
	sb_fixture new 90 95 100 &&
	latency-compare --format=csv base.json new.json >cmp.csv &&
	grep -c "cold_read\|tree_read" cmp.csv >n &&
	echo 6 >expect && test_cmp expect n &&
	grep -q "^base,cold_read(ra=128k),64,65536,1,3,110,10," cmp.csv &&
	grep -q "^new,cold_read(ra=128k),64,65536,1,3,95,5,.*,-13.636" cmp.csv &&
	grep -q "^new,cold_read(ra=1024k),64,65536,1,3,200,0," cmp.csv &&
	grep -q "^base,tree_read,2,10240,1,3,110,10," cmp.csv &&
	latency-compare --format=json base.json new.json >cmp.json &&
	json_get cmp.json ".seqbench[] | [.label, .phase, .readahead_kb] | @tsv" \
		>got &&
	printf "%s\t%s\t%s\n" base cold_read 128 new cold_read 128 \
		base cold_read 1024 new cold_read 1024 base tree_read "" \
		new tree_read "" >expect &&
	test_cmp expect got
'

test_done
