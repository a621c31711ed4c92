# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# lib-bisect.sh: what the latency-bisect tests share (sourced after
# test-lib.sh).  A fake boot command stands for latency-vm: it writes a
# run-test.sh result whose figures come from a known table, so that the
# decisions are exact on known input.

bisect=$abs_top_builddir/bisect/latency-bisect

# fake_boot FILE: write the boot command FILE.  Called as
# FILE KERNEL CMDLINE RESULT-DIR, it takes the next figure of KERNEL from
# the table $FAKE_TABLE (lines "KERNEL V1 V2 ..."; the N-th boot of a
# kernel takes VN, the last one once they run out; counters in
# $FAKE_TABLE.n/) and writes RESULT-DIR/result.json: two fake-gitk runs of
# 5 user-CPU seconds, each at that elapsed per user-CPU second.  A figure
# "fail" is a guest that does not boot (a partial result, exit 1);
# $FAKE_SLEEP seconds of sleep first, in the background of a wait, so a
# signal reaches the shell at once; $FAKE_LOG gets a line a boot.
fake_boot() {
	cat >"$1" <<'EOS'
#!/bin/sh
set -eu
kernel=$1 res=$3
mkdir -p "$FAKE_TABLE.n"
key=$(printf %s "$kernel" | tr -c 'A-Za-z0-9._-' _)
n=$(cat "$FAKE_TABLE.n/$key" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >"$FAKE_TABLE.n/$key"
v=$(awk -v k="$kernel" -v n="$n" '$1 == k { i = n + 1; if (i > NF) i = NF; print $i }' "$FAKE_TABLE")
[ -n "$v" ] || { echo "fake-boot: no figure for $kernel" >&2; exit 1; }
[ -z "${FAKE_LOG:-}" ] || echo "$kernel $2 $n $v ${LATENCY_BISECT_SERIES_BOOT:-}" >>"$FAKE_LOG"
if [ -n "${FAKE_SLEEP:-}" ]; then
	sleep "$FAKE_SLEEP" &
	wait $!
fi
mkdir -p "$res"
if [ "$v" = fail ]; then
	printf '{"format_version":2,"program":"run-test.sh","label":"%s","partial":true,"partial_reason":"the guest did not reach the suite","gitk_runs":[]}\n' "$LATENCY_BISECT_LABEL" >"$res/result.json"
	exit 1
fi
awk -v r="$v" -v l="$LATENCY_BISECT_LABEL" 'BEGIN {
	printf "{\"format_version\":2,\"program\":\"run-test.sh\",\"label\":\"%s\",\"partial\":false,\"gitk_runs\":[", l
	for (i = 0; i < 2; i++)
		printf "%s{\"elapsed_s\":%.10g,\"user_s\":5,\"elapsed_per_user\":%s}", i ? "," : "", r * 5, r
	printf "]}\n"
}' >"$res/result.json"
EOS
	chmod +x "$1"
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
