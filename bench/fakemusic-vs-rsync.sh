#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fake-music against rsync --bwlimit, over loopback, at the same limit, for
# the same folder.  Both pull from a local server (fake-music --serve; an
# rsync daemon started here with its own config in a temporary directory)
# while tests/helpers/dir-sampler records the destination folder's size
# every 10 ms, the same way for both tools.  Reported per tool: the
# achieved rate against the requested one, the mean, standard deviation and
# maximum of the bytes landing in each 100 ms window, the share of empty
# 100 ms and 10 ms windows, and the p99 and maximum gap between
# "progress lines" (the moments another 0.1 s of 320 kbit/s audio has
# arrived, seen at 10 ms resolution); for fake-music also the p99 gap of its
# own progress lines.  Ends with the rsync / fake-music ratios.
#
# Environment (defaults):
#   FM_BENCH_RATE=2000        the limit, in KiB/s (rsync's --bwlimit unit)
#   FM_BENCH_SONGS=2          songs in the generated folder
#   FM_BENCH_SONG_SIZE=8M     size of each song
#   FM_BENCH_BUILDDIR=.       build tree with fakemusic/fake-music and
#                             tests/helpers/dir-sampler (make check builds it)
#   FM_BENCH_KEEP=            non-empty: keep the temporary directory
set -eu

: "${FM_BENCH_RATE:=2000}"
: "${FM_BENCH_SONGS:=2}"
: "${FM_BENCH_SONG_SIZE:=8M}"
: "${FM_BENCH_BUILDDIR:=.}"
: "${FM_BENCH_KEEP:=}"

die() {
	echo "$0: $*" >&2
	exit 1
}

fm=$FM_BENCH_BUILDDIR/fakemusic/fake-music
sampler=$FM_BENCH_BUILDDIR/tests/helpers/dir-sampler
[ -x "$fm" ] || die "no $fm: build first (or set FM_BENCH_BUILDDIR)"
[ -x "$sampler" ] || die "no $sampler: run 'make tests/helpers/dir-sampler'"
command -v rsync >/dev/null || die "rsync not found"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fm-bench.XXXXXX")
pids=
cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null || :
	done
	wait 2>/dev/null || :
	if [ -z "$FM_BENCH_KEEP" ]; then
		rm -rf "$tmp"
	else
		echo "kept $tmp" >&2
	fi
}
trap cleanup EXIT

echo "# $("$fm" --version); $(rsync --version | head -n 1); kernel $(uname -r)"
echo "# limit ${FM_BENCH_RATE} KiB/s, ${FM_BENCH_SONGS} songs of ${FM_BENCH_SONG_SIZE}"

"$fm" --generate "$tmp/src" --songs "$FM_BENCH_SONGS" \
	--song-size "$FM_BENCH_SONG_SIZE"
total=$(cat "$tmp"/src/* | wc -c)
rate=$((FM_BENCH_RATE * 1024))

# The rsync daemon, on a free port (tried until one is).
cat >"$tmp/rsyncd.conf" <<CONF
use chroot = no
uid = $(id -u)
gid = $(id -g)
[music]
	path = $tmp/src
	read only = yes
CONF
rport=
for try in 1 2 3 4 5 6 7 8 9 10; do
	p=$((20000 + (RANDOM % 20000) + try))
	rsync --daemon --no-detach --config="$tmp/rsyncd.conf" \
		--address=127.0.0.1 --port="$p" --log-file="$tmp/rsyncd.log" &
	rpid=$!
	sleep 0.3
	if kill -0 "$rpid" 2>/dev/null; then
		rport=$p
		pids="$pids $rpid"
		break
	fi
done
[ -n "$rport" ] || die "cannot start an rsync daemon (see $tmp/rsyncd.log)"

"$fm" --serve "$tmp/src" --port-file "$tmp/fm.port" -q &
pids="$pids $!"
for _ in $(seq 100); do
	[ -s "$tmp/fm.port" ] && break
	sleep 0.05
done
[ -s "$tmp/fm.port" ] || die "fake-music server did not start"
fport=$(cat "$tmp/fm.port")

# sample NAME CMD...: run CMD while sampling $tmp/dst-NAME every 10 ms.
sample() {
	local name=$1 spid
	shift
	mkdir "$tmp/dst-$name"
	"$sampler" "$tmp/dst-$name" 10 >"$tmp/$name.samples" &
	spid=$!
	"$@" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
		die "$name failed: $(cat "$tmp/$name.err")"
	sleep 0.05
	kill -TERM "$spid"
	wait "$spid" || :
}

sample fake-music "$fm" --from "127.0.0.1:$fport" --to "$tmp/dst-fake-music" \
	--bwlimit "$FM_BENCH_RATE"
sample rsync rsync -rt --bwlimit="$FM_BENCH_RATE" \
	"rsync://127.0.0.1:$rport/music/" "$tmp/dst-rsync/"
for f in "$tmp"/src/*; do
	cmp "$f" "$tmp/dst-fake-music/${f##*/}" || die "fake-music copy differs"
	cmp "$f" "$tmp/dst-rsync/${f##*/}" || die "rsync copy differs"
done

# analyse SAMPLES: rate, 100 ms windows, empty windows, unit-crossing gaps.
# The rate is taken between the samples that first reach 5% and 95% of the
# folder, so neither tool's start-up nor the 10 ms sampling blurs it.
analyse() {
	awk -v total="$total" -v unit=4000 '
	BEGIN { n = 0 }
	{ t[n] = $1; b[n] = $2; n++ }
	END {
		s = -1; a = -1; z = -1; e = n - 1
		for (i = 0; i < n; i++) {
			if (s < 0 && b[i] > 0) s = i
			if (a < 0 && b[i] >= 0.05 * total) a = i
			if (z < 0 && b[i] >= 0.95 * total) z = i
			if (b[i] >= total) { e = i; break }
		}
		printf "%.1f", (b[z] - b[a]) * 1e9 / (t[z] - t[a])
		# The transfer runs from the last empty sample to the first full one.
		if (s > 0) s--
		t0 = t[s]; t1 = t[e]
		# 100 ms windows: bytes of the last sample at or before each edge.
		k = s; w = 0; sum = 0; sq = 0; max = 0; zero = 0
		for (edge = t0 + 1e8; edge <= t1; edge += 1e8) {
			prev = b[k]
			while (k + 1 <= e && t[k + 1] <= edge) k++
			d = b[k] - prev
			w++; sum += d; sq += d * d
			if (d > max) max = d
			if (d == 0) zero++
		}
		mean = w ? sum / w : 0
		sd = w > 1 ? sqrt((sq - w * mean * mean) / (w - 1)) : 0
		printf " %.0f %.0f %d %.1f", mean, sd, max, w ? 100 * zero / w : 0
		z10 = 0
		for (i = s + 1; i <= e; i++) if (b[i] == b[i - 1]) z10++
		printf " %.1f", (e > s ? 100 * z10 / (e - s) : 0)
		# Gaps between the moments another unit arrived.
		last = t0; g = 0; u = 0
		for (i = s + 1; i <= e; i++) {
			nu = int(b[i] / unit)
			for (; u < nu; u++) { gap[g++] = t[i] - last; last = t[i] }
		}
		for (i = 0; i < g; i++) print gap[i] > "/dev/stderr"
		printf "\n"
	}' "$1"
}

# p99 and max of the numbers (gaps in ns or s, scaled by $2) on stdin.
p99_max() {
	sort -g | awk -v scale="$1" '{ v[NR] = $1 } END {
		r = int(0.99 * NR + 0.999999)
		printf "%.4f %.4f\n", v[r] * scale, v[NR] * scale }'
}

# analysed NAME: the figures of NAME's samples, gap percentiles appended.
analysed() {
	local figures
	figures=$(analyse "$tmp/$1.samples" 2>"$tmp/$1.gaps")
	echo "$figures $(p99_max 1e-9 <"$tmp/$1.gaps")"
}

read -r fm_rate fm_mean fm_sd fm_max fm_z100 fm_z10 fm_p99 fm_gmax \
	< <(analysed fake-music)
read -r rs_rate rs_mean rs_sd rs_max rs_z100 rs_z10 rs_p99 rs_gmax \
	< <(analysed rsync)
read -r ln_p99 ln_max < <(awk '{ if (NR > 1) print $1 - prev; prev = $1 }' \
	"$tmp/fake-music.out" | p99_max 1)

# calc EXPR: floating-point arithmetic (awk, so bc is not needed).
calc() {
	awk "BEGIN { print $1 }"
}

printf '%-11s %9s %10s %8s %10s %10s %10s %7s %7s %9s %9s\n' tool \
	requested achieved accuracy win_mean win_stddev win_max 'empty%' \
	'e10ms%' p99_gap_s max_gap_s
row() {
	printf '%-11s %9d %10.0f %7.2f%% %10.0f %10.0f %10d %7.1f %7.1f %9.4f %9.4f\n' \
		"$1" "$rate" "$2" "$(calc "$2 * 100 / $rate")" \
		"$3" "$4" "$5" "$6" "$7" "$8" "$9"
}
row fake-music "$fm_rate" "$fm_mean" "$fm_sd" "$fm_max" "$fm_z100" \
	"$fm_z10" "$fm_p99" "$fm_gmax"
row rsync "$rs_rate" "$rs_mean" "$rs_sd" "$rs_max" "$rs_z100" "$rs_z10" \
	"$rs_p99" "$rs_gmax"
echo "fake-music progress lines: p99 gap ${ln_p99} s, max ${ln_max} s"
echo "bench: fakemusic_accuracy=$(calc "$fm_rate * 100 / $rate") % of the limit closer-to-100"
echo "bench: fakemusic_win_stddev=$fm_sd bytes lower"
echo "bench: fakemusic_p99_gap=$fm_p99 s lower"
printf 'ratio rsync/fake-music: stddev %.2f, max window %.2f, p99 gap %.2f\n' \
	"$(calc "$rs_sd / ($fm_sd + 1)")" "$(calc "$rs_max / $fm_max")" \
	"$(calc "$rs_p99 / $fm_p99")"
