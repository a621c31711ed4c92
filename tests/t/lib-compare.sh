# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of the latency-compare tests (t58xx), sourced after test-lib.sh.
# shellcheck shell=sh

# Field NAME of the CSV row of LABEL in FILE.
csv_get() {
	awk -F, -v name="$1" -v label="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == label { print $col[name] }' "$3"
}

# The member KEY of the change object in the JSON report FILE (with one
# label compared to the baseline), as JSON: 0.25, true, null, "runs".
change_get() {
	json_get "$2" ".results[1].change.$1 | tojson"
}

# Succeed when A and B differ by at most TOL.
near() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		if (a == "" || d > t) { print "got " a ", want " b; exit 1 }
	}'
}
