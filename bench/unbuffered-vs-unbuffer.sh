#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Compare unbuffered with the tools people use for the same job, in one run:
# throughput of random bytes through the pseudo-terminal (MiB/s, and the
# ratio unbuffered / expect's unbuffer), and what each does to exit status,
# bytes and stderr.  A measurement, not a test: nothing here fails on speed.
#
# Environment:
#   UNBUFFERED        the program to measure (default: unbuffered on PATH,
#                     else ./unbuffered/unbuffered)
#   BENCH_MIB=64      MiB of random data to pass through each tool
#   BENCH_RUNS=3      runs per tool; the best (fastest) run counts
set -eu

: "${BENCH_MIB:=64}"
: "${BENCH_RUNS:=3}"
if [ -z "${UNBUFFERED:-}" ]; then
	UNBUFFERED=$(command -v unbuffered || echo ./unbuffered/unbuffered)
fi

die() {
	echo "$0: $*" >&2
	exit 1
}

[ -x "$UNBUFFERED" ] || die "cannot run '$UNBUFFERED' (set UNBUFFERED)"
command -v unbuffer >/dev/null || die "expect's unbuffer is not installed (apt-get install expect)"
command -v script >/dev/null || die "script is not installed (util-linux)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dd if=/dev/urandom of="$tmp/in" bs=1048576 count="$BENCH_MIB" 2>/dev/null

now_ns() {
	date +%s%N
}

# best_mib_s CMD...: the best throughput of CMD over BENCH_RUNS runs, in
# MiB/s, with CMD's output in $tmp/out.
best_mib_s() {
	local best=0 i t0 t1 ns
	for ((i = 0; i < BENCH_RUNS; i++)); do
		t0=$(now_ns)
		"$@" >"$tmp/out" </dev/null
		t1=$(now_ns)
		ns=$((t1 - t0))
		if [ "$best" -eq 0 ] || [ "$ns" -lt "$best" ]; then
			best=$ns
		fi
	done
	awk -v mib="$BENCH_MIB" -v ns="$best" 'BEGIN { printf "%.1f", mib / (ns / 1e9) }'
}

same_bytes() {
	if cmp -s "$tmp/in" "$tmp/out"; then echo yes; else echo "no ($(wc -c <"$tmp/out") bytes for $((BENCH_MIB * 1048576)))"; fi
}

echo "== throughput: $BENCH_MIB MiB of random bytes, best of $BENCH_RUNS runs"
ours=$(best_mib_s "$UNBUFFERED" cat "$tmp/in")
ours_same=$(same_bytes)
theirs=$(best_mib_s unbuffer cat "$tmp/in")
theirs_same=$(same_bytes)
scr=$(best_mib_s script -q -e -c "cat $tmp/in" /dev/null)
scr_same=$(same_bytes)
printf '%-12s %10s MiB/s   bytes unchanged: %s\n' unbuffered "$ours" "$ours_same" \
	unbuffer "$theirs" "$theirs_same" script "$scr" "$scr_same"
awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "ratio unbuffered/unbuffer: %.2f\n", a / b }'
echo "bench: unbuffered=$ours MiB/s higher"

# status CMD...: the exit status of CMD.
status() {
	local rc=0
	"$@" >/dev/null 2>&1 </dev/null || rc=$?
	echo "$rc"
}

echo
echo "== behaviour (want: 139, 137, 42; stderr kept apart)"
for tool in "$UNBUFFERED" unbuffer; do
	segv=$(status "$tool" sh -c 'kill -SEGV $$')
	kill9=$(status "$tool" sh -c 'kill -KILL $$')
	code=$(status "$tool" sh -c 'exit 42')
	"$tool" sh -c 'echo err >&2' >"$tmp/o" 2>"$tmp/e" </dev/null || true
	if [ -s "$tmp/e" ] && ! [ -s "$tmp/o" ]; then apart=yes; else apart=no; fi
	printf '%-12s SIGSEGV=%s SIGKILL=%s exit42=%s stderr-apart=%s\n' \
		"$(basename "$tool")" "$segv" "$kill9" "$code" "$apart"
done
