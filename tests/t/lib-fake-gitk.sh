# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the fake-gitk tests (t3xxx): repositories of known shape made
# with the git CLI, and the figures git itself gives for them.

GIT_AUTHOR_NAME='A U Thor'
GIT_AUTHOR_EMAIL=author@example.com
GIT_COMMITTER_NAME='C O Mitter'
GIT_COMMITTER_EMAIL=committer@example.com
GIT_AUTHOR_DATE='1112911993 -0700'
GIT_COMMITTER_DATE='1112911993 -0700'
GIT_CONFIG_NOSYSTEM=1
HOME=$TRASH_DIRECTORY
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME \
	GIT_COMMITTER_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_DATE \
	GIT_CONFIG_NOSYSTEM HOME

# commit_file FILE TEXT: append TEXT to FILE and commit it.
commit_file() {
	echo "$2" >>"$1" && git add "$1" && git commit -q -m "$1: $2"
}

# make_merge_repo DIR: main with 5 commits, branches a, b, c and d, a
# two-parent merge of a, an octopus merge of b, c and d, an annotated and
# a lightweight tag, and a branch left unmerged.  18 commits.
make_merge_repo() {
	git init -q -b main "$1" && (
		cd "$1" &&
		for i in 1 2 3 4 5; do commit_file main.c "$i" || exit 1; done &&
		for b in a b c d e; do
			git branch "$b" || exit 1
		done &&
		for b in a b c d e; do
			git checkout -q "$b" &&
			commit_file "$b.c" one &&
			commit_file "$b.c" two || exit 1
		done &&
		git checkout -q main &&
		git merge -q --no-ff -m 'Merge branch a' a &&
		git merge -q --no-ff -m 'Merge branches b, c and d' b c d &&
		git tag -a -m 'release 1' v1 &&
		commit_file main.c 6 &&
		git tag light HEAD~1
	)
}

# git_figures DIR: write commits, edges and bytes (the sum of raw commit
# sizes) of git rev-list --all in DIR to files of those names.
git_figures() {
	git -C "$1" rev-list --all >revs &&
	wc -l <revs | tr -d ' ' >commits &&
	git -C "$1" rev-list --all --parents |
		awk '{ n += NF - 1 } END { print n + 0 }' >edges &&
	git -C "$1" cat-file --batch-check='%(objectsize)' <revs |
		awk '{ n += $1 } END { print n + 0 }' >bytes
}

# The members of each iterations[] entry of the JSON result, in order.
iteration_keys='elapsed_s commits interrupted start_mono_s end_mono_s majflt minflt user_s sys_s user_sampled_s lines runq_s'
