# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of the HTML report tests (t98xx), sourced after test-lib.sh:
# html_check, Debian's python3 with html5lib reading a page
# (tests/t/html-check.py), and the fixtures they share.
# shellcheck shell=sh

# The python3 that has html5lib: the one in PATH, else Debian's (a
# python3 of one's own in PATH may lack the Debian modules).
html_python=
for _py in python3 /usr/bin/python3; do
	if "$_py" -c 'import html5lib' >/dev/null 2>&1; then
		html_python=$_py
		break
	fi
done
[ -n "$html_python" ] && test_set_prereq HTML5LIB
test_prereq_reason HTML5LIB 'python3 with html5lib reads the pages (package python3-html5lib; bootstrap.sh and .ci/run install it)'

html_check() {
	"$html_python" "$TEST_DIRECTORY/html-check.py" "$@"
}

# html_result DIR LABEL RUNS [BASE]: a result.json of RUNS fake-gitk runs
# (elapsed BASE s [10], then 0.5 s more up to BASE + 2, again) labelled
# LABEL (JSON string text), into DIR.
html_result() {
	mkdir -p "$1" &&
	# From the environment: awk -v would read escapes in the label.
	HTML_LABEL=$2 awk -v runs="$3" -v base="${4:-10}" 'BEGIN {
		label = ENVIRON["HTML_LABEL"]
		printf "{\n  \"format_version\": 2,\n  \"program\": \"run-test.sh\",\n"
		printf "  \"version\": \"0.1\",\n"
		printf "  \"command_line\": \"./run-test.sh --label %s\",\n", label
		printf "  \"kernel\": \"%s\",\n  \"label\": \"%s\",\n", label, label
		printf "  \"partial\": false,\n  \"gitk_runs\": ["
		for (i = 0; i < runs; i++)
			printf "%s{\"elapsed_s\": %.3f, \"majflt\": %d}", i ? ", " : "",
				base + (i % 5) * 0.5, 100 + i
		printf "],\n  \"failures\": 0,\n  \"oom_kills\": 0,\n"
		printf "  \"latency\": {\"fake-gitk\": {\"gaps\": 100, \"p99_s\": 0.2,"
		printf " \"max_s\": 1.5, \"stall_count\": 2, \"stall_time_s\": 1.1,"
		printf " \"histogram\": [{\"le_s\": 0.001, \"count\": 50},"
		printf " {\"le_s\": 0.1, \"count\": 45}, {\"le_s\": 1, \"count\": 4},"
		printf " {\"le_s\": 10, \"count\": 1}]}}\n}\n"
	}' >"$1/result.json"
}
