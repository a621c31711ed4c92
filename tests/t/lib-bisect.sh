# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# lib-bisect.sh: what the latency-bisect tests share (sourced after
# test-lib.sh).  A fake boot command stands for latency-vm: it writes a
# run-test.sh result whose figures come from a known table, so that the
# decisions are exact on known input.

bisect=$abs_top_builddir/bisect/latency-bisect

# fake_boot FILE: write the boot command FILE.  Called as
# FILE KERNEL CMDLINE RESULT-DIR, it writes RESULT-DIR/result.json: two
# fake-gitk runs of 5 user-CPU seconds, each at the elapsed per user-CPU
# second that the table $FAKE_TABLE gives the boot.  The table's lines are
# "KEY V1 V2 ...": pair N of a series takes VN (cycling), KEY being
# "KERNEL/OTHER" (OTHER the label of the other kernel of the pair) when
# there is such a line, else "KERNEL"; so a boot's figure depends on its place, not on when
# it was made, and a bisection stopped and resumed sees the same figures.
# A figure "fail" is a guest that does not boot (a partial result, exit
# 1).  The result is first written partial, then whole after $FAKE_SLEEP
# seconds (a sleep in the background of a wait, so a signal ends it at
# once); $FAKE_LOG gets a line a boot: LABEL OTHER PAIR ARM FIGURE.  With
# $FAKE_STOP_AT=N, boot N (by $FAKE_LOG's lines) creates $FAKE_READY and
# waits two minutes, to be stopped.
fake_boot() {
	cat >"$1" <<'EOS'
#!/bin/sh
set -eu
kernel=$1 res=$3
# An image a --build made names its table key: "fake-kernel KEY".
if [ -f "$kernel" ] && [ "$(head -c 12 "$kernel")" = "fake-kernel " ]; then
	kernel=$(sed -n '1s/^fake-kernel //p' "$kernel")
fi
old_ifs=$IFS
IFS=,
# shellcheck disable=SC2086 # split on the commas
set -- $LATENCY_BISECT_SERIES_BOOT
IFS=$old_ifs
pair=$5 arm=$6
label=$LATENCY_BISECT_LABEL
if [ "$arm" = a ]; then other=$8; else other=$7; fi
v=$(awk -v k1="$kernel/$other" -v k2="$kernel" -v n="$pair" '
	$1 == k1 { a = $0 } $1 == k2 { b = $0 }
	END { if (a == "") a = b; if (a == "") exit
		m = split(a, f); print f[(n - 1) % (m - 1) + 2] }' "$FAKE_TABLE")
[ -n "$v" ] || { echo "fake-boot: no figure for $kernel" >&2; exit 1; }
[ -z "${FAKE_LOG:-}" ] || echo "$label $other $pair $arm $v" >>"$FAKE_LOG"
mkdir -p "$res"
printf '{"format_version":2,"program":"run-test.sh","label":"%s","partial":true,"partial_reason":"stopped","gitk_runs":[]}\n' "$label" >"$res/result.json"
# The $FAKE_STOP_AT-th boot says so in $FAKE_READY and waits to be stopped.
if [ -n "${FAKE_STOP_AT:-}" ] && [ "$(wc -l <"$FAKE_LOG")" = "$FAKE_STOP_AT" ]; then
	echo "$label" >"$FAKE_READY"
	FAKE_SLEEP=120
fi
if [ -n "${FAKE_SLEEP:-}" ]; then
	sleep "$FAKE_SLEEP" &
	sleeper=$!
	trap 'kill $sleeper; exit 143' TERM INT HUP
	wait $sleeper
fi
if [ "$v" = fail ]; then
	printf '{"format_version":2,"program":"run-test.sh","label":"%s","partial":true,"partial_reason":"the guest did not reach the suite","gitk_runs":[]}\n' "$label" >"$res/result.json"
	exit 1
fi
awk -v r="$v" -v l="$label" 'BEGIN {
	printf "{\"format_version\":2,\"program\":\"run-test.sh\",\"label\":\"%s\",\"partial\":false,\"gitk_runs\":[", l
	for (i = 0; i < 2; i++)
		printf "%s{\"elapsed_s\":%.10g,\"user_s\":5,\"elapsed_per_user\":%s}", i ? "," : "", r * 5, r
	printf "]}\n"
}' >"$res/result.json.tmp"
mv "$res/result.json.tmp" "$res/result.json"
EOS
	chmod +x "$1"
}

# git_history DIR KERNEL...: a repository DIR with a commit a KERNEL, in
# order, each writing the file "which" with the KERNEL's name (the table
# key its image boots as).
git_history() {
	git init -q "$1" &&
	for _k in "$@"; do
		[ "$_k" = "$1" ] && continue
		echo "$_k" >"$1/which" &&
		git -C "$1" add which &&
		git -C "$1" -c user.name=t -c user.email=t@example.org \
			commit -q -m "$_k" &&
		git -C "$1" tag "$_k" || return 1
	done
}

# The --build of git mode in the tests: a prebuilt "image" for the commit
# checked out, naming its table key.
fake_build='printf "fake-kernel %s\n" "$(cat which)" >image && echo image'

# standard_table FILE: the tests' table of six kernels, k0 to k5, at
# 2.00 per user-CPU second with a spread of 1%, k3 and after 10% slower.
standard_table() {
	cat >"$1" <<'EOT'
k0 2.00 2.02 1.98 2.01 1.99
k1 2.00 2.01 1.99 2.02
k2 2.01 1.99 2.00 2.02
k3 2.20 2.22 2.18 2.21
k4 2.21 2.19 2.22 2.20
k5 2.20 2.21 2.19 2.22
EOT
}

# series_file FILE KERNEL...: a series of the kernels, labelled as named.
series_file() {
	_f=$1
	shift
	: >"$_f"
	for _k; do
		echo "$_k $_k" >>"$_f"
	done
}
