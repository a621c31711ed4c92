#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
# (test bodies are single-quoted on purpose; test-lib.sh sets the rest)
test_description='fake-gitk --create-repo makes a deterministic kernel-shaped repository'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-fake-gitk.sh"

test_expect_success 'create a repository and print its HEAD' '
	fake-gitk --create-repo one --commits 2000 --seed 5 >head1 2>err &&
	test_line_count '=' 1 head1 &&
	grep -q "^[0-9a-f]\\{40\\}$" head1 &&
	grep -q "^fake-gitk: created .one.: 2000 commits, seed 5, HEAD $(cat head1) in " err
'

test_expect_success 'the same seed gives the same HEAD' '
	fake-gitk -q --create-repo two --commits 2000 --seed 5 >head2 &&
	test_cmp head1 head2
'

test_expect_success 'another seed gives another HEAD' '
	fake-gitk -q --create-repo three --commits 2000 --seed 6 >head3 &&
	! test_cmp head1 head3 >/dev/null
'

test_expect_success JQ 'the repository is loadable and has every commit' '
	fake-gitk -q -n 1 --format json one >out.json &&
	json_get out.json .commits >got &&
	echo 2000 >expect && test_cmp expect got
'

test_expect_success 'an existing repository is not overwritten' '
	test_must_fail fake-gitk -q --create-repo one --commits 10 >out 2>err &&
	test_line_count '=' 1 err &&
	grep -q "^fake-gitk: cannot create repository .one.: a repository exists there$" err
'

test_expect_success GIT 'it is bare, packed, and passes git fsck' '
	test "$(git -C one rev-parse --is-bare-repository)" = true &&
	test "$(git -C one rev-parse HEAD)" = "$(cat head1)" &&
	git -C one count-objects -v >counts &&
	grep -q "^count: 0$" counts &&
	grep -q "^packs: 1$" counts &&
	git -C one fsck --strict --no-dangling >fsck 2>&1 &&
	! test -s fsck
'

test_expect_success GIT 'its shape is a kernel'"'"'s' '
	git -C one rev-list --all --parents >parents &&
	test_line_count '=' 2000 parents &&
	awk "NF > 2 { m++ } NF > 3 { o++ } NF == 1 { r++ }
		END { print m, o, r }" parents >shape &&
	read merges octopus roots <shape &&
	test "$roots" -eq 1 &&
	test "$octopus" -ge 1 &&
	test "$merges" -ge 100 && test "$merges" -le 200 &&
	git -C one rev-list --all |
		git -C one cat-file --batch-check="%(objectsize)" >sizes &&
	awk "{ s += \$1; if (\$1 > max) max = \$1 } END {
		print int(s / NR), max }" sizes >size &&
	read mean max <size &&
	test "$mean" -ge 650 && test "$mean" -le 850 &&
	test "$max" -ge 3000 &&
	git -C one log --all --format="%an%n%cn" >names &&
	test "$(sort -u names | wc -l)" -ge 20 &&
	git -C one log --all --format=%ct >dates &&
	test "$(sort -u dates | wc -l)" -ge 1900 &&
	git -C one for-each-ref >refs &&
	test "$(wc -l <refs)" -ge 10
'

test_expect_success GIT 'commits change a few files each' '
	git -C one log --no-merges --format= --name-only -n 200 >files &&
	test "$(wc -l <files)" -ge 200 &&
	test "$(wc -l <files)" -le 1000
'

test_expect_success 'bad values are usage errors' '
	test_expect_code 2 fake-gitk --create-repo x --commits 0 &&
	test_expect_code 2 fake-gitk --create-repo x --commits lots &&
	! test -e x
'

test_done
