#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bodies are single-quoted for eval; abs_top_srcdir comes from make check.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='latency-compare --format=html in a real headless browser (chromium), with no network'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/lib-html.sh"

# A browser takes seconds and a package make check does not need, so make
# check runs this only when asked (.ci/run does, in its browser step):
#   LATENCY_BROWSER_TEST=1       run it
#   LATENCY_BROWSER_SHOTS=DIR    keep the screenshot there (page.png)
[ -n "${LATENCY_BROWSER_TEST:-}" ] ||
	test_skip_all 'no LATENCY_BROWSER_TEST: set it to 1 to open the pages in headless chromium (packages chromium chromium-driver python3-selenium)'
if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ]; then
	test_skip_all 'no browser: Debian'"'"'s chromium and chromium-driver are not installed'
fi
/usr/bin/python3 -c 'import selenium' 2>/dev/null ||
	test_skip_all 'python3-selenium is not installed'

F=$TEST_DIRECTORY/fixtures/compare
shots=${LATENCY_BROWSER_SHOTS:-$PWD}

test_expect_success 'setup: a comparison and a page of hostile labels' '
	cp -R "$F"/. . && chmod -R u+w . &&
	html_result ten-a a 10 &&
	html_result evil "<img src=x onerror=alert(1)>" 10 11 &&
	html_result pwned "<img src=x onerror=\\\"window.pwned=1\\\">" 3 12 &&
	html_result svg "<svg onload=alert(2)><script>alert(3)</script>" 3 &&
	latency-compare --format=html -o page.html base slow same &&
	latency-compare --format=html -o hostile.html ten-a evil pwned svg &&
	mkdir -p "$shots"
'

test_expect_success 'the pages load, filter, sort and run nothing hostile' '
	/usr/bin/python3 "$abs_top_srcdir/tests/browser/html-browser.py" \
		"$shots/page.png" "$PWD/page.html" "$PWD/hostile.html" >out &&
	cat out &&
	grep -c "^ok " out >n && echo 7 >want && test_cmp want n &&
	test -s "$shots/page.png" &&
	say "screenshot: $shots/page.png"
'

test_done
