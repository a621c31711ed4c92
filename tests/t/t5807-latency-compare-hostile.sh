#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: strings from result files reach every output inert (issue 11)'
. "$abs_top_srcdir/tests/t/test-lib.sh"

F=$TEST_DIRECTORY/fixtures/compare

# A copy of the base fixture whose "label" is the JSON string text $1.
relabel() {
	mkdir -p "$2" &&
	LABEL_JSON=$1 awk '/^  "label": / {
		print "  \"label\": \"" ENVIRON["LABEL_JSON"] "\","; next
	} { print }' "$F/base/result.json" >"$2/result.json"
}

# The label of issue 11's exploit, as JSON text and as latency-compare
# must show it (the newlines spelled out, nothing else changed).
inj_json='x\nsystem \"touch '"$PWD"'/PWNED\"\n#'
inj_shown='x\nsystem "touch '"$PWD"'/PWNED"\n#'

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w . &&
	relabel "$inj_json" inj &&
	grep -c "PWNED" inj/result.json >n && echo 1 >want && test_cmp want n
'

# The exploit of issue 11: the newline ended the title's command and the
# next line ran a shell command through gnuplot.
test_expect_success 'a label cannot make gnuplot run a command' '
	latency-compare --plot=p base inj >out &&
	test -s p.gp &&
	! test -e PWNED &&
	! grep -q "^system" p.gp p.dat &&
	grep -c "^" p.gp >lines && echo 17 >want && test_cmp want lines &&
	printf "# %s: le_s count percent\n" "$inj_shown" >want &&
	grep -F "PWNED" p.dat >got && test_cmp want got &&
	printf "%s\n" "$inj_shown" >want &&
	sed -n "s/.* index 1 using 1:3 with linespoints title .\(.*\). noenhanced\$/\1/p" p.gp | sed -n 1p >got &&
	test_cmp want got
'

test_expect_success GNUPLOT 'gnuplot itself runs the script and runs nothing else' '
	rm -f p.* PWNED &&
	latency-compare --plot=p base inj >out &&
	test -s p.png && test -s p.svg &&
	! test -e PWNED
'

test_done
