// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --plot PREFIX: data files and gnuplot scripts for latency over time (raw
 * points and a `smooth bezier` line per group) and for the histogram (by
 * count and by time), and the PNG and SVG images when gnuplot is installed.
 * The scripts name their files without directory and gnuplot runs in the
 * prefix's directory, so the set can be moved and replotted by hand.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/gnuplot.h"
#include "lib/hist.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "latency-output/latout.h"

/* A plot title: KEY=VALUE[SUFFIX] under --by, else PLAIN. */
static void gp_quote_label(FILE *f, const char *key, const char *value,
			   const char *plain, const char *suffix)
{
	char *label;

	if (!key) {
		gnuplot_quote(f, plain);
		return;
	}
	label = xasprintf("%s=%s%s", key, value, suffix);
	gnuplot_quote(f, label);
	free(label);
}

static void put_secs(FILE *f, int64_t ns, char sep)
{
	char b[64];
	size_t n = lo_fmt_col(b, ns, 9, 0);

	fwrite(b, 1, n, f);
	fputc(sep, f);
}

static int write_series(const struct lo_report *r, FILE *f)
{
	const struct lo_state *st = r->st;
	size_t i, k, block = 0;

	fputs("# latency-output: seconds into test, gap (s); one block per "
	      "group\n",
	      f);
	for (i = 0; i < st->ngroups; i++) {
		const struct lo_series *g = st->groups[i];

		if (!g->n)
			continue;
		if (block++)
			fputs("\n\n", f);
		fprintf(f, "# group %s\n", g->name ? g->name : "(none)");
		for (k = 0; k < g->n; k++) {
			put_secs(f, g->at[k], ' ');
			put_secs(f, (int64_t)g->gaps[k], '\n');
		}
	}
	return 0;
}

static void write_hist(const struct lo_summary *s, FILE *f)
{
	unsigned i, first = HIST_R10_N, last = 0;
	char lab[24];

	for (i = 0; i < HIST_R10_N; i++) {
		if (s->hist_count[i]) {
			if (first == HIST_R10_N)
				first = i;
			last = i;
		}
	}
	fputs("# bucket label, gaps, seconds spent in them\n", f);
	for (i = first; i <= last && first < HIST_R10_N; i++) {
		fprintf(f, "\"%s\" %llu ", hist_r10_label(lab, i),
			(unsigned long long)s->hist_count[i]);
		put_secs(f, (int64_t)s->hist_ns[i], '\n');
	}
}

static const char *const terms[][2] = {
	{ "png size 1024,640", "png" },
	{ "svg size 1024,640 dynamic", "svg" },
};

/* Switch script F to terminal T, writing BASE-WHAT.<ext>. */
static void gp_terminal(FILE *f, size_t t, const char *base, const char *what)
{
	char *out = xasprintf("%s-%s.%s", base, what, terms[t][1]);

	fprintf(f, "set terminal %s\nset output ", terms[t][0]);
	gnuplot_quote(f, out);
	fputc('\n', f);
	free(out);
}

/*
 * The axes of the latency plot: the time span of the points (one instant
 * when there is one point) and gaps from 0.
 */
static void latency_ranges(const struct lo_state *st, FILE *f)
{
	double lo = INFINITY, hi = -INFINITY, top = 0;
	size_t i, k;

	for (i = 0; i < st->ngroups; i++) {
		const struct lo_series *g = st->groups[i];

		for (k = 0; k < g->n; k++) {
			lo = fmin(lo, (double)g->at[k] / 1e9);
			hi = fmax(hi, (double)g->at[k] / 1e9);
			top = fmax(top, (double)g->gaps[k] / 1e9);
		}
	}
	gnuplot_range(f, "x", lo, hi, 0);
	gnuplot_range(f, "y", 0, top, GNUPLOT_FROM_ZERO);
}

static void write_latency_gp(const struct lo_report *r, const char *base,
			     FILE *f)
{
	const struct lo_state *st = r->st;
	size_t i, t, block;
	char *dat = xasprintf("%s.dat", base);

	fputs("# latency-output: gaps between lines over time\n", f);
	latency_ranges(st, f);
	for (t = 0; t < 2; t++) {
		gp_terminal(f, t, base, "latency");
		fputs("set title 'gap between lines over time'\n"
		      "set xlabel 'seconds into test'\n"
		      "set ylabel 'gap (s)'\nset grid\nset key top left\n"
		      "plot ",
		      f);
		for (i = 0, block = 0; i < st->ngroups; i++) {
			const struct lo_series *g = st->groups[i];
			const char *name = g->name ? g->name : "(none)";

			if (!g->n)
				continue;
			if (block)
				fputs(", \\\n     ", f);
			gnuplot_quote(f, dat);
			fprintf(f,
				" index %zu using 1:2 with points pt 7 ps 0.8 "
				"title ",
				block);
			gp_quote_label(f, st->cfg.by, name, "raw", "");
			fputs(", \\\n     ", f);
			gnuplot_quote(f, dat);
			fprintf(f,
				" index %zu using 1:2 smooth bezier lw 2 "
				"title ",
				block);
			gp_quote_label(f, st->cfg.by, name, "smooth bezier",
				       " (bezier)");
			block++;
		}
		fputs("\nset output\n", f);
	}
	free(dat);
}

/* Bars from 0: a bar of 8 beside one of 36 must not look like 1 to 10. */
static void write_hist_gp(const struct lo_summary *s, const char *base, FILE *f)
{
	char *dat = xasprintf("%s-hist.dat", base);
	uint64_t top_count = 0, top_ns = 0;
	size_t i, t;

	for (i = 0; i < HIST_R10_N; i++) {
		if (s->hist_count[i] > top_count)
			top_count = s->hist_count[i];
		if (s->hist_ns[i] > top_ns)
			top_ns = s->hist_ns[i];
	}
	fputs("# latency-output: histogram of gaps, by count and by time\n", f);
	for (t = 0; t < 2; t++) {
		gp_terminal(f, t, base, "hist");
		fputs("set style data histograms\nset style fill solid 0.6\n"
		      "set xtics rotate by -45\nset grid ytics\nunset key\n"
		      "set multiplot layout 2,1\n"
		      "set title 'gaps by count'\nset ylabel 'gaps'\n",
		      f);
		gnuplot_range(f, "y", 0, (double)top_count, GNUPLOT_FROM_ZERO);
		fputs("plot ", f);
		gnuplot_quote(f, dat);
		fputs(" using 2:xtic(1)\n"
		      "set title 'time spent in gaps'\nset ylabel 'seconds'\n",
		      f);
		gnuplot_range(f, "y", 0, (double)top_ns / 1e9,
			      GNUPLOT_FROM_ZERO);
		fputs("plot ", f);
		gnuplot_quote(f, dat);
		fputs(" using 3:xtic(1)\nunset multiplot\nset output\n", f);
	}
	free(dat);
}

/* Write PATH atomically through FN. */
static int write_file(const char *path, const struct lo_report *r,
		      const struct lo_summary *s, const char *base,
		      int (*fn)(const struct lo_report *,
				const struct lo_summary *, const char *,
				FILE *))
{
	struct atomic_file af;
	int ret = atomic_open(&af, path);

	if (ret)
		return ret;
	ret = fn(r, s, base, af.f);
	if (ret) {
		atomic_abort(&af);
		return ret;
	}
	return atomic_commit(&af);
}

static int do_series(const struct lo_report *r, const struct lo_summary *s,
		     const char *base, FILE *f)
{
	(void)s;
	(void)base;
	return write_series(r, f);
}

static int do_hist(const struct lo_report *r, const struct lo_summary *s,
		   const char *base, FILE *f)
{
	(void)r;
	(void)base;
	write_hist(s, f);
	return 0;
}

static int do_latency_gp(const struct lo_report *r, const struct lo_summary *s,
			 const char *base, FILE *f)
{
	(void)s;
	write_latency_gp(r, base, f);
	return 0;
}

static int do_hist_gp(const struct lo_report *r, const struct lo_summary *s,
		      const char *base, FILE *f)
{
	(void)r;
	write_hist_gp(s, base, f);
	return 0;
}

int lo_plot(const struct lo_report *r, const struct lo_summary *all,
	    const char *prefix, bool *ran)
{
	const char *slash = strrchr(prefix, '/');
	const char *base = slash ? slash + 1 : prefix;
	char *dir, *p;
	int ret;

	*ran = false;
	dir = slash ? xasprintf("%.*s", (int)(slash - prefix + 1), prefix)
		    : xstrdup(".");
	p = xasprintf("%s.dat", prefix);
	ret = write_file(p, r, all, base, do_series);
	free(p);
	if (!ret) {
		p = xasprintf("%s-hist.dat", prefix);
		ret = write_file(p, r, all, base, do_hist);
		free(p);
	}
	if (!ret) {
		p = xasprintf("%s-latency.gp", prefix);
		ret = write_file(p, r, all, base, do_latency_gp);
		free(p);
	}
	if (!ret) {
		p = xasprintf("%s-hist.gp", prefix);
		ret = write_file(p, r, all, base, do_hist_gp);
		free(p);
	}
	/* gnuplot refuses to plot nothing: without gaps, scripts only. */
	if (!ret && all->gaps) {
		p = xasprintf("%s-latency.gp", base);
		ret = gnuplot_run(dir, p);
		free(p);
		if (!ret) {
			p = xasprintf("%s-hist.gp", base);
			ret = gnuplot_run(dir, p);
			free(p);
		}
		if (!ret)
			*ran = true;
		else if (ret == -ENOENT)
			ret = 0;
	}
	free(dir);
	return ret;
}
