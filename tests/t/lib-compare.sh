# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of the latency-compare tests (t58xx), sourced after test-lib.sh.
# shellcheck shell=sh

# Field NAME of the CSV row of LABEL in FILE (fields may be quoted, with
# commas and doubled quotes inside).
csv_get() {
	awk -v name="$1" -v label="$2" '
		function split_csv(s, f,    n, i, c, q, cur) {
			n = 1; q = 0; cur = ""
			for (i = 1; i <= length(s); i++) {
				c = substr(s, i, 1)
				if (q && c == "\"" && substr(s, i + 1, 1) == "\"") {
					cur = cur c; i++
				} else if (c == "\"") {
					q = !q
				} else if (c == "," && !q) {
					f[n++] = cur; cur = ""
				} else {
					cur = cur c
				}
			}
			f[n] = cur
			return n
		}
		NR == 1 { n = split_csv($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; next }
		{ split_csv($0, f) }
		f[1] == label { print f[col[name]] }' "$3"
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
