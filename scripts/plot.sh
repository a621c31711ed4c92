# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# plot.sh: sourced by run-test.sh.  plot_result DIR GNUPLOT writes
# DIR/plot.gp, a gnuplot script that draws, per workload series
# (*.latency), the latency over time above the kernel's nr_writeback and
# swap IO from vmstat.log, all on the same time axis (seconds of
# CLOCK_MONOTONIC from the first vmstat sample), and renders it to
# DIR/<series>.png with GNUPLOT (empty: only the script).  The stall
# histograms come from latency-output itself.  Leaf functions: they use
# their arguments only.

# plot_vmstat_columns LOG: "ts nr_writeback pswpin pswpout" per sample, from
# the key=value fields of the monitor's lines (reformatting only: rates are
# computed by gnuplot).
plot_vmstat_columns() {
	awk '$1 ~ /^[0-9]+\.[0-9]+$/ {
		w = ""; i = ""; o = ""
		for (k = 2; k <= NF; k++) {
			n = index($k, "=")
			if (!n)
				continue
			key = substr($k, 1, n - 1)
			if (key == "nr_writeback") w = substr($k, n + 1)
			else if (key == "pswpin") i = substr($k, n + 1)
			else if (key == "pswpout") o = substr($k, n + 1)
		}
		if (w != "" && i != "" && o != "")
			print $1, w, i, o
	}' "$1"
}

# plot_script DIR T0 SERIES...: the gnuplot program on stdout.
plot_script() {
	_dir=$1
	_t0=$2
	shift 2
	cat <<EOF
# Written by run-test.sh: gnuplot plot.gp (in the result directory).
set terminal pngcairo size 1200,800 noenhanced
t0 = $_t0
old_in = -1; old_out = -1
rate_in(x) = (r = (old_in < 0 ? 0 : x - old_in), old_in = x, r)
rate_out(x) = (r = (old_out < 0 ? 0 : x - old_out), old_out = x, r)
set grid
set key top left
# The same margins in both panels keep their time axes aligned.
set lmargin 12
set rmargin 12
# The axes start at 0 and never hold one value only: gnuplot widens an
# "empty range" itself but warns on stderr, and plot.log is kept when not
# empty.  in_window(t) is whether a vmstat sample is on a panel's time axis.
in_window(t) = (t - t0 >= STATS_min - 1 && t - t0 <= STATS_max + 1)
EOF
	for _s in "$@"; do
		_name=${_s%.latency}
		cat <<EOF

set output '$_name.png'
stats '$_s' using (\$5 - t0) nooutput
stats '$_s' using 3 name 'GAP' nooutput
stats 'vmstat.dat' using (\$2 * in_window(\$1)) name 'WB' nooutput
old_in = -1; old_out = -1
stats 'vmstat.dat' using (rate_in(\$3) * in_window(\$1)) name 'IN' nooutput
stats 'vmstat.dat' using (rate_out(\$4) * in_window(\$1)) name 'OUT' nooutput
# Padded by a sampling interval so the vmstat panel has samples.
set xrange [STATS_min - 1:STATS_max + 1]
set multiplot layout 2,1 title '$_name: latency and kernel activity'
set xlabel 'seconds (CLOCK_MONOTONIC from the first vmstat sample)'
set ylabel 'gap since previous line (s)'
if (GAP_max > 0) { set yrange [0:*] } else { set yrange [0:1] }
unset y2tics
plot '$_s' using (\$5 - t0):3 with points pt 7 ps 0.8 title 'latency', \\
     '' using (\$5 - t0):3 smooth bezier lw 2 title 'smoothed'
set ylabel 'nr_writeback (pages)'
set y2label 'swap IO (pages per sample)'
set y2tics
if (WB_max > 0) { set yrange [0:*] } else { set yrange [0:1] }
if (IN_max > 0 || OUT_max > 0) { set y2range [0:*] } else { set y2range [0:1] }
old_in = -1; old_out = -1
plot 'vmstat.dat' using (\$1 - t0):2 with lines title 'nr_writeback', \\
     '' using (\$1 - t0):(rate_in(\$3)) axes x1y2 with lines title 'pswpin', \\
     '' using (\$1 - t0):(rate_out(\$4)) axes x1y2 with lines title 'pswpout'
unset multiplot
unset y2label
# The next series's stats read every point: no range of this one stays.
set autoscale
EOF
	done
}

# plot_result DIR GNUPLOT: write DIR/vmstat.dat and DIR/plot.gp; render
# them with GNUPLOT unless it is empty.
plot_result() {
	_pdir=$1
	[ -s "$_pdir/vmstat.log" ] || return 0
	plot_vmstat_columns "$_pdir/vmstat.log" >"$_pdir/vmstat.dat" || return 1
	read -r _t0 _rest <"$_pdir/vmstat.dat" || return 0
	_series=
	for _l in "$_pdir"/*.latency; do
		[ -s "$_l" ] || continue
		_series="$_series ${_l##*/}"
	done
	[ -n "$_series" ] || return 0
	# shellcheck disable=SC2086 # a list of file names without spaces
	plot_script "$_pdir" "$_t0" $_series >"$_pdir/plot.gp" || return 1
	[ -n "$2" ] || return 0
	(cd "$_pdir" && "$2" plot.gp)
}
