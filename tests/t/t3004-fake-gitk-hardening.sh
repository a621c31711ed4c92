#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh sets the rest)
test_description='fake-gitk --list-refs, broken refs, --create-repo and outputs that cannot be written'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-fake-gitk.sh"

test_have_prereq GIT || test_skip_all 'git is not installed'

# expect_error TEXT...: err is one fake-gitk line holding every TEXT.
expect_error() {
	test_line_count '=' 1 err &&
	grep -q "^fake-gitk: " err || return 1
	for t in "$@"; do
		grep -q -e "$t" err || test_fail "no '$t' in: $(cat err)" ||
			return 1
	done
}

# show_refs DIR: what --list-refs must print, from git itself.
show_refs() {
	git -C "$1" show-ref --head | sort -k 2
}

test_expect_success 'setup' '
	make_merge_repo repo &&
	git_figures repo
'

test_expect_success '--list-refs prints HEAD and every ref, sorted by name' '
	fake-gitk --list-refs repo >got 2>err &&
	show_refs repo >expect &&
	test_cmp expect got &&
	test_line_count = 0 err &&
	grep -q " refs/tags/v1$" got &&
	test "$(grep " refs/tags/v1$" got | cut -c1-40)" = "$(git -C repo rev-parse v1)" &&
	test_line_count = 9 got
'

test_expect_success '--list-refs: packed refs, a loose ref over a packed one, a symbolic ref' '
	cp -R repo packed &&
	git -C packed pack-refs --all &&
	git -C packed update-ref refs/heads/a main &&
	git -C packed rev-parse a >a && git -C packed rev-parse main >m && test_cmp m a &&
	git -C packed symbolic-ref refs/heads/sym refs/heads/b &&
	test -f packed/.git/refs/heads/a &&
	fake-gitk --list-refs packed >got 2>err &&
	show_refs packed >expect &&
	test_cmp expect got &&
	grep -q "^$(git -C packed rev-parse b) refs/heads/sym$" got
'

test_expect_success '--list-refs: a detached HEAD is listed with its own id' '
	git clone -q --no-local repo det &&
	git -C det checkout -q --detach main~2 &&
	fake-gitk --list-refs det >got &&
	show_refs det >expect &&
	test_cmp expect got &&
	grep -q "^$(git -C det rev-parse main~2) HEAD$" got
'

test_expect_success '--list-refs: the same repository, the same bytes' '
	fake-gitk --list-refs repo >again &&
	fake-gitk --list-refs repo >got &&
	test_cmp again got
'

test_expect_success JQ 'a dangling symbolic ref is skipped with a warning, as git skips it' '
	git clone -q --no-local repo dangle &&
	git -C dangle symbolic-ref refs/heads/gone refs/heads/nowhere &&
	fake-gitk --list-refs dangle >got 2>err &&
	show_refs dangle >expect &&
	test_cmp expect got &&
	grep -q "warning: .*dangling symbolic ref .refs/heads/gone." err &&
	git_figures dangle &&
	fake-gitk -q -n 1 --format json dangle >out.json 2>err &&
	json_get out.json .commits >got && test_cmp commits got
'

test_expect_success 'a ref file of junk: exit 1, as git log --all fails' '
	git clone -q --no-local repo junk &&
	echo junk >junk/.git/refs/heads/e &&
	test_must_fail git -C junk log --all >/dev/null 2>&1 &&
	test_expect_code 1 fake-gitk -n 1 --every 1 junk >out 2>err &&
	expect_error "repository .junk.: bad ref .refs/heads/e." &&
	test_line_count = 0 out &&
	test_expect_code 1 fake-gitk --list-refs junk >out 2>err &&
	expect_error "repository .junk.: bad ref .refs/heads/e." &&
	test_line_count = 0 out
'

test_expect_success 'a ref file of junk where HEAD points' '
	git clone -q --no-local repo junkhead &&
	echo junk >junkhead/.git/refs/heads/main &&
	test_expect_code 1 fake-gitk -q -n 1 junkhead >out 2>err &&
	expect_error "bad ref .refs/heads/main."
'

test_expect_success 'a broken loose ref over a packed one is not replaced by it' '
	git clone -q --no-local repo shadow &&
	git -C shadow pack-refs --all &&
	: >shadow/.git/refs/heads/e &&
	test_expect_code 1 fake-gitk -q -n 1 shadow >out 2>err &&
	expect_error "bad ref .refs/heads/e."
'

test_expect_success 'a ref naming a missing object: exit 1' '
	git clone -q --no-local repo missing &&
	echo 0123456789012345678901234567890123456789 >missing/.git/refs/heads/e &&
	test_must_fail git -C missing log --all >/dev/null 2>&1 &&
	test_expect_code 1 fake-gitk -q -n 1 missing >out 2>err &&
	expect_error "repository .missing.: ref .refs/heads/e. leads to object 0123456789012345678901234567890123456789" &&
	test_expect_code 1 fake-gitk --list-refs missing >out 2>err &&
	expect_error "bad object 0123456789012345678901234567890123456789 of ref .refs/heads/e." &&
	test_line_count = 0 out
'

test_expect_success 'a link to a directory among the refs is an error, not lost refs' '
	git clone -q --no-local repo linked &&
	ln -s .. linked/.git/refs/heads/loop &&
	test_expect_code 1 fake-gitk -q -n 1 linked >out 2>err &&
	expect_error "bad ref .refs/heads/loop.: a link to a directory"
'

test_expect_success 'a ref being updated (.lock) is ignored, as git ignores it' '
	git clone -q --no-local repo locked &&
	echo junk >locked/.git/refs/heads/main.lock &&
	fake-gitk --list-refs locked >got 2>err &&
	show_refs locked >expect && test_cmp expect got &&
	test_line_count = 0 err
'

test_expect_success '--list-refs usage errors' '
	test_expect_code 2 fake-gitk --list-refs &&
	test_expect_code 2 fake-gitk --list-refs repo HEAD &&
	test_expect_code 2 fake-gitk --list-refs --create-repo x &&
	test_expect_code 1 fake-gitk --list-refs no-such-repo 2>err &&
	expect_error "cannot open repository .no-such-repo."
'

# no_temp NAME: no NAME.tmp.* is left beside NAME.
no_temp() {
	for t in "$1".tmp.*; do
		test -e "$t" && test_fail "left behind: $t" && return 1
	done
	return 0
}

test_expect_success '--create-repo refuses a non-empty directory and leaves it alone' '
	mkdir full && echo keep >full/file && mkdir full/sub &&
	ls -lA --time-style=+%s full >before &&
	test_expect_code 1 fake-gitk --create-repo full --commits 10 >out 2>err &&
	expect_error "cannot create repository .full.: the directory is not empty" &&
	test_line_count = 0 out &&
	ls -lA --time-style=+%s full >after && test_cmp before after &&
	echo keep >expect && test_cmp expect full/file &&
	no_temp full
'

test_expect_success '--create-repo refuses a file' '
	echo data >plain &&
	test_expect_code 1 fake-gitk -q --create-repo plain --commits 10 2>err &&
	expect_error "cannot create repository .plain.: not a directory" &&
	echo data >expect && test_cmp expect plain && no_temp plain
'

test_expect_success '--create-repo fills an empty directory, named with a slash too' '
	mkdir empty &&
	fake-gitk -q --create-repo empty/ --commits 50 >head &&
	test "$(git -C empty rev-parse HEAD)" = "$(cat head)" &&
	no_temp empty &&
	fake-gitk -q --create-repo fresh --commits 50 >head2 &&
	test_cmp head head2 && no_temp fresh &&
	test "$(stat -c %a fresh)" = "$(mkdir probe && stat -c %a probe)"
'

test_expect_success '--create-repo in a missing parent: one line, nothing made' '
	test_expect_code 1 fake-gitk -q --create-repo no/such/dir --commits 10 2>err &&
	expect_error "cannot create repository .no/such/dir." &&
	! test -e no
'

# A file size limit makes the pack write fail (EFBIG, SIGXFSZ ignored) the
# way a full disk does, without root.
test_expect_success 'a write failing mid-creation leaves neither DIR nor a temporary' '
	(
		trap "" XFSZ &&
		ulimit -f 200 &&
		exec fake-gitk -q --create-repo small --commits 3000 >out 2>err
	) ;
	echo $? >status &&
	echo 1 >expect && test_cmp expect status &&
	expect_error "small" &&
	! test -e small && no_temp small
'

# As root, a small tmpfs gives a real ENOSPC.
if test_have_prereq ROOT && mkdir tiny &&
	mount -t tmpfs -o size=1m tmpfs tiny 2>/dev/null; then
	test_set_prereq TMPFS
fi

test_expect_success TMPFS 'a full disk (ENOSPC) mid-creation leaves nothing behind' '
	fake-gitk -q --create-repo tiny/repo --commits 3000 >out 2>err;
	echo $? >status &&
	ls -A tiny >left &&
	umount tiny &&
	echo 1 >expect && test_cmp expect status &&
	expect_error "tiny/repo" "No space left on device" &&
	test_line_count = 0 left
'

# The stop is sent whatever happened before it: nothing is left running.
test_expect_success 'SIGTERM during creation removes the temporary' '
	fake-gitk -q --create-repo big --commits 1000000 >out 2>err &
	pid=$! &&
	i=0 &&
	while ! ls -d big.tmp.* >/dev/null 2>&1 && test $i -lt 300; do
		sleep 0.1; i=$((i + 1))
	done
	ls -d big.tmp.* >seen 2>&1
	kill -TERM $pid
	wait $pid
	echo $? >status &&
	grep -q "^big\.tmp\.......$" seen &&
	echo 143 >expect && test_cmp expect status &&
	! test -e big && no_temp big
'

test_expect_success '-o into a missing directory fails before the load' '
	test_expect_code 1 fake-gitk -n 1 --every 1 -o no-dir/out.json repo >out 2>err &&
	expect_error "cannot create .no-dir/out.json.: No such file or directory" &&
	test_line_count = 0 out
'

test_expect_success '--dump-map under a file fails before the load, -o leaves nothing' '
	echo x >afile &&
	test_expect_code 1 fake-gitk -n 1 --every 1 -o res.json --dump-map afile/map repo >out 2>err &&
	expect_error "cannot create .afile/map.: Not a directory" &&
	test_line_count = 0 out &&
	! test -e res.json && no_temp res.json
'

test_expect_success 'a load that fails leaves no result and no temporary' '
	test_expect_code 1 fake-gitk -q -n 1 -o res.json --dump-map map junk 2>err &&
	expect_error "bad ref" &&
	! test -e res.json && no_temp res.json &&
	! test -e map && no_temp map
'

test_expect_success JQ 'a load that works writes both' '
	fake-gitk -q -n 1 --format json -o res.json --dump-map map repo &&
	json_get res.json .commits >got && test_cmp commits got &&
	test_line_count = "$(cat commits)" map &&
	no_temp res.json && no_temp map
'

test_done
