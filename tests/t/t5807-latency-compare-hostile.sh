#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare: strings from result files reach every output inert'
. "$abs_top_srcdir/tests/t/test-lib.sh"

F=$TEST_DIRECTORY/fixtures/compare

# A copy of the base fixture whose "label" is the JSON string text $1.
relabel() {
	mkdir -p "$2" &&
	LABEL_JSON=$1 awk '/^  "label": / {
		print "  \"label\": \"" ENVIRON["LABEL_JSON"] "\","; next
	} { print }' "$F/base/result.json" >"$2/result.json"
}

# The label of a working exploit (before the fix, it made gnuplot run a shell
# command), as JSON text and as latency-compare must show it (the newlines
# spelled out, nothing else changed).
inj_json='x\nsystem \"touch '"$PWD"'/PWNED\"\n#'
inj_shown='x\nsystem "touch '"$PWD"'/PWNED"\n#'

test_expect_success 'setup' '
	cp -R "$F"/. . && chmod -R u+w . &&
	relabel "$inj_json" inj &&
	grep -c "PWNED" inj/result.json >n && echo 1 >want && test_cmp want n
'

# The exploit: the newline ended the title's command and the
# next line ran a shell command through gnuplot.
test_expect_success 'a label cannot make gnuplot run a command' '
	latency-compare --plot=p base inj >out &&
	test -s p.gp &&
	! test -e PWNED &&
	! grep -q "^system" p.gp p.dat &&
	grep -c "^" p.gp >lines && echo 19 >want && test_cmp want lines &&
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

# A label with a newline, a terminal colour escape, a Markdown cell end
# and a quote; another that a spreadsheet would take for a formula.
ev_json='evil\n\u001b[31mred|pipe\"q'
ev_text='evil\n\x1b[31mred|pipe"q'
ev_md='evil\\n\\x1b\[31mred\|pipe"q'
ev_csv='"evil\n\x1b[31mred|pipe""q"'
esc=$(printf '\033')

test_expect_success 'setup: hostile labels' '
	relabel "$ev_json" ev &&
	relabel "=HYPERLINK(\\\"http://x\\\")" formula
'

test_expect_success 'text: the label spelled out, nothing raw' '
	latency-compare base ev >out &&
	printf "%s\n" "$ev_text vs 2.6.31-base: elapsed +0.0% (p 1, no significant change; could have seen >= 50.6%)" >want &&
	head -n 1 out >got &&
	test_cmp want got &&
	grep -F "$ev_text        1     3   12.000" out >/dev/null &&
	! grep -q "$esc" out &&
	test "$(grep -c "^evil" out)" = 4
'

test_expect_success 'markdown: escaped for a page, one row per label' '
	latency-compare --format=markdown base ev >out &&
	printf "%s\n" "- $ev_md vs 2.6.31-base: elapsed +0.0% (p 1, no significant change; could have seen \\>= 50.6%)" >want &&
	head -n 1 out >got &&
	test_cmp want got &&
	grep -F "| $ev_md | 1 | 3 | 12.000 |" out >/dev/null &&
	! grep -q "$esc" out
'

test_expect_success 'csv: one record per label, quoted, formulas defused' '
	latency-compare --format=csv base ev formula >out &&
	test_line_count = 4 out &&
	printf "%s\n" "$ev_csv,false,3,12,2" >want &&
	sed -n 3p out | cut -d, -f1-5 >got &&
	test_cmp want got &&
	printf "%s\n" "\"'"'"'=HYPERLINK(\"\"http://x\"\")\",false" >want &&
	sed -n 4p out | cut -d, -f1-2 >got &&
	test_cmp want got &&
	! grep -q "$esc" out
'

test_expect_success 'json: the label as a JSON string, exactly' '
	latency-compare --format=json base ev >out &&
	printf "      \"label\": \"%s\",\n" "$ev_json" >want &&
	grep -F "$ev_json\"," out >got &&
	test_cmp want got &&
	! grep -q "$esc" out
'

test_expect_success '2009 lines and messages on stderr are escaped too' '
	latency-compare --format=2009 ev >out &&
	printf "%s\n" "$ev_text Elapsed:00:12.000(stddev:2.000) Failures:0" >want &&
	test_cmp want out &&
	latency-compare --format=2009 --fail-if-slower=1 base ev >out 2>err &&
	printf "%s\n" "latency-compare: $ev_text is +0.00% against 2.6.31-base (p = 1): not slower" >want &&
	test_cmp want err
'

test_expect_success 'a label given as LABEL= is escaped as well' '
	latency-compare --format=2009 "$(printf "a\033[2Jb")=base" >out &&
	printf "%s\n" "a\\x1b[2Jb Elapsed:00:12.000(stddev:2.000) Failures:0" >want &&
	test_cmp want out
'

# The audit: latency-compare hung for good on a FIFO given as a result or
# as a directory's result.json (latency-summarize refused it).
test_expect_success 'a FIFO as a result, or as a result.json, is refused at once' '
	mkfifo pipe.json &&
	test_expect_code 1 timeout 20 latency-compare base pipe.json >out 2>err &&
	echo "latency-compare: '\''pipe.json'\'': not a regular file" >want &&
	test_cmp want err &&
	mkdir fifodir && mkfifo fifodir/result.json &&
	test_expect_code 1 timeout 20 latency-compare base fifodir >out 2>err &&
	echo "latency-compare: '\''fifodir/result.json'\'': not a regular file" >want &&
	test_cmp want err &&
	test_expect_code 1 timeout 20 latency-compare base /dev/zero >out 2>err &&
	grep -x "latency-compare: ./dev/zero.: not a regular file" err
'

test_expect_success 'a label with newlines keeps each note under the verdict on one line' '
	mkdir -p nl p2 &&
	sed "s/\"label\": \"6.1\"/\"label\": \"x\\\\n\\\\n\"/" v2/a1/result.json >nl/result.json &&
	sed "s/\"ratio\": 4/\"ratio\": 2/" v2/b1/result.json >p2/result.json &&
	latency-compare nl p2 >out 2>err &&
	grep -x "  pressure differs: x\\\\n\\\\n ran with memcg ratio 4, 6.2-rc1 with memcg ratio 2" out &&
	test "$(grep -c "ratio" out)" = 1
'

test_done
