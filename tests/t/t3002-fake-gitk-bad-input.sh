#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh sets the rest)
test_description='fake-gitk on bad input: one clear line, or it works'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-fake-gitk.sh"

test_have_prereq GIT || test_skip_all 'git is not installed'

# expect_one_line REPO [TEXT...]: err has one line, naming REPO and TEXTs.
expect_one_line() {
	test_line_count '=' 1 err &&
	grep -q "^fake-gitk: .*'$1'" err || return 1
	shift
	for t in "$@"; do
		grep -q -e "$t" err || test_fail "no '$t' in: $(cat err)" ||
			return 1
	done
}

# unpack_all REPO: turn REPO's packs into loose objects.
unpack_all() {
	git -C "$1" repack -q -a -d &&
	mv "$1"/.git/objects/pack/*.pack all.pack &&
	rm -f "$1"/.git/objects/pack/* &&
	git -C "$1" unpack-objects -q <all.pack &&
	rm all.pack
}

test_expect_success 'setup' '
	make_merge_repo repo &&
	git_figures repo
'

test_expect_success 'not a repository' '
	mkdir plain &&
	test_expect_code 1 fake-gitk -q plain >out 2>err &&
	expect_one_line plain "cannot open repository" &&
	test_expect_code 1 fake-gitk -q no-such-dir >out 2>err &&
	expect_one_line no-such-dir "cannot open repository"
'

test_expect_success 'an empty repository' '
	git init -q empty &&
	test_expect_code 1 fake-gitk -q empty >out 2>err &&
	expect_one_line empty "no commits (empty repository)"
'

test_expect_success JQ 'a bare repository works' '
	git clone -q --bare repo bare.git &&
	fake-gitk -q -n 1 --format json bare.git >out.json &&
	json_get out.json .commits >got && test_cmp commits got
'

test_expect_success JQ 'a shallow clone works, its boundary a root as in git' '
	git clone -q --depth 3 "file://$TRASH_DIRECTORY/repo" shallow &&
	git_figures shallow &&
	fake-gitk -q -n 1 --format json shallow >out.json &&
	json_get out.json .commits >got && test_cmp commits got &&
	json_get out.json .edges >got && test_cmp edges got &&
	test_json out.json .shallow true
'

test_expect_success 'a missing object' '
	git clone -q --no-local repo miss &&
	unpack_all miss &&
	oid=$(git -C miss rev-parse HEAD~2) &&
	rm "miss/.git/objects/$(echo $oid | cut -c1-2)/$(echo $oid | cut -c3-)" &&
	test_expect_code 1 fake-gitk -q miss >out 2>err &&
	expect_one_line miss "missing commit $oid" "not found"
'

test_expect_success 'a corrupt (truncated) loose object' '
	git clone -q --no-local repo corrupt &&
	unpack_all corrupt &&
	oid=$(git -C corrupt rev-parse HEAD~1) &&
	f="corrupt/.git/objects/$(echo $oid | cut -c1-2)/$(echo $oid | cut -c3-)" &&
	chmod u+w "$f" && truncate -s 20 "$f" &&
	test_expect_code 1 fake-gitk -q corrupt >out 2>err &&
	expect_one_line corrupt "$oid" "truncated or corrupt loose object"
'

# bad_tree_commit REPO TREE: a commit on main's tip with TREE as its tree id
# (as git hash-object --literally writes any), on the branch "odd".
bad_tree_commit() {
	git clone -q --no-local repo "$1" &&
	printf "tree %s\nparent %s\nauthor A <a@b> 1 +0000\ncommitter A <a@b> 1 +0000\n\nodd\n" \
		"$2" "$(git -C "$1" rev-parse main)" >"$1.raw" &&
	git -C "$1" hash-object -t commit --literally -w --stdin <"$1.raw" \
		>"$1.oid" &&
	# update-ref would refuse it: git itself cannot read it.
	cp "$1.oid" "$1/.git/refs/heads/odd"
}

test_expect_success 'a commit whose tree id is not hex' '
	bad_tree_commit badtree zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz &&
	test_expect_code 1 fake-gitk -q badtree >out 2>err &&
	expect_one_line badtree "corrupt commit $(cat badtree.oid)" \
		"malformed commit header"
'

test_expect_success JQ 'a tree id in upper-case hex is read, as git reads it' '
	bad_tree_commit uptree "$(git -C repo rev-parse "main^{tree}" |
		tr a-f A-F)" &&
	git -C uptree log --oneline odd >/dev/null &&
	fake-gitk -q -n 1 --format json uptree >out.json &&
	git -C uptree rev-list --all >all &&
	test "$(json_get out.json .commits)" = "$(wc -l <all)"
'

test_expect_success 'a damaged pack' '
	git clone -q --no-local repo badpack &&
	git -C badpack repack -q -a -d &&
	oid=$(git -C badpack rev-parse main) &&
	for p in badpack/.git/objects/pack/*.pack; do
		chmod u+w "$p" && truncate -s 100 "$p" || exit 1
	done &&
	test_expect_code 1 fake-gitk -q badpack >out 2>err &&
	expect_one_line badpack "$oid" "pack .* is truncated or damaged"
'

test_expect_success 'a pack that is not a pack' '
	git clone -q --no-local repo junkpack &&
	git -C junkpack repack -q -a -d &&
	for p in junkpack/.git/objects/pack/*.pack; do
		chmod u+w "$p" &&
		printf "JUNK" | dd of="$p" conv=notrunc 2>/dev/null || exit 1
	done &&
	test_expect_code 1 fake-gitk -q junkpack >out 2>err &&
	expect_one_line junkpack "$(git -C repo rev-parse main)"
'

test_expect_success JQ 'thousands of refs' '
	git clone -q --no-local repo refs &&
	git -C refs rev-list --all >all &&
	git -C refs pack-refs --all &&
	# Appended in order, so the file stays sorted as it says.
	awk "{ for (i = 0; i < 200; i++)
		printf \"%s refs/zzz/r%05d-%03d\\n\", \$1, NR, i }" \
		all >>refs/.git/packed-refs &&
	git -C refs for-each-ref >list &&
	test "$(wc -l <list)" -ge 3600 &&
	git_figures refs &&
	fake-gitk -q -n 1 --format json refs >out.json &&
	json_get out.json .commits >got && test_cmp commits got
'

test_expect_success JQ 'a detached HEAD with no branch' '
	git clone -q --no-local repo detached &&
	git -C detached checkout -q --detach HEAD~1 &&
	git -C detached remote remove origin &&
	git -C detached for-each-ref --format="delete %(refname)" >del &&
	git -C detached update-ref --stdin <del &&
	git_figures detached &&
	fake-gitk -q -n 1 --format json detached >out.json &&
	json_get out.json .commits >got && test_cmp commits got
'

test_expect_success 'a bad revision' '
	test_expect_code 1 fake-gitk -q repo no-such-branch >out 2>err &&
	expect_one_line repo "bad revision .no-such-branch." &&
	tree=$(git -C repo rev-parse HEAD^{tree}) &&
	test_expect_code 1 fake-gitk -q repo "$tree" >out 2>err &&
	expect_one_line repo "is not a commit but $tree" &&
	test_expect_code 1 fake-gitk -q repo HEAD..HEAD >out 2>err &&
	expect_one_line repo "no commits in the range given"
'

test_expect_success 'a summary that cannot be written' '
	test_expect_code 1 fake-gitk -q -n 1 -o no-dir/out.json repo >out 2>err &&
	expect_one_line no-dir/out.json "cannot create"
'

test_done
