// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --plot: the labels' latency histograms overlaid in one gnuplot chart.
 * The data and the script are always written, so a machine without
 * gnuplot can still hand them to one that has it; the images are made
 * only when gnuplot is in PATH.  Each curve is the share of gaps per
 * bucket, so runs of different lengths compare.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/gnuplot.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "compare/compare.h"

/* Buckets of H in increasing order (the lists may arrive merged). */
static size_t *sorted_buckets(const struct cmp_hist *h)
{
	size_t *idx = xcalloc(h->n, sizeof(*idx));
	size_t i, j;

	for (i = 0; i < h->n; i++) {
		for (j = i; j > 0 && h->le_s[idx[j - 1]] > h->le_s[i]; j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
	}
	return idx;
}

/* The gaps counted in H, the 100% of its shares. */
static double hist_total(const struct cmp_hist *h)
{
	double total = 0;
	size_t k;

	for (k = 0; k < h->n; k++)
		total += h->count[k];
	return total;
}

static void write_data(FILE *f, const struct cmp_label *l, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		const struct cmp_hist *h = &l[i].hist;
		double total = hist_total(h);
		size_t *idx;

		if (!h->n)
			continue;
		idx = sorted_buckets(h);
		fputs("# ", f);
		text_write(f, l[i].label);
		fputs(": le_s count percent\n", f);
		for (k = 0; k < h->n; k++) {
			/* The unbounded last bucket has no place on a log
			 * axis; its share still counts in the total. */
			if (!isfinite(h->le_s[idx[k]]))
				continue;
			fprintf(f, "%.9g %.10g %.6f\n", h->le_s[idx[k]],
				h->count[idx[k]],
				total > 0 ? h->count[idx[k]] / total * 100 : 0);
		}
		fputs("\n\n", f);
		free(idx);
	}
}

/*
 * The axes: the buckets' bounds on a log scale (a factor either side of a
 * lone bucket) and the shares from 0, as for any histogram.
 */
static void write_ranges(FILE *f, const struct cmp_label *l, size_t n)
{
	double lo = INFINITY, hi = -INFINITY, top = 0;
	size_t i, k;

	for (i = 0; i < n; i++) {
		const struct cmp_hist *h = &l[i].hist;
		double total = hist_total(h);

		for (k = 0; k < h->n; k++) {
			if (!isfinite(h->le_s[k]))
				continue;
			lo = fmin(lo, h->le_s[k]);
			hi = fmax(hi, h->le_s[k]);
			if (total > 0)
				top = fmax(top, h->count[k] / total * 100);
		}
	}
	gnuplot_range(f, "x", lo, hi, GNUPLOT_LOG);
	gnuplot_range(f, "y", 0, top, GNUPLOT_FROM_ZERO);
}

static void write_script(FILE *f, const char *prefix, const char *dat,
			 const struct cmp_label *l, size_t n,
			 const char *workload)
{
	static const char *const terms[][2] = {
		{ "pngcairo size 1024,640", ".png" },
		{ "svg size 1024,640 dynamic", ".svg" },
	};
	char *title = xasprintf("%s: latency histogram", workload);
	size_t i, t, block;

	fputs("# gnuplot script written by latency-compare\n", f);
	fputs("set title ", f);
	gnuplot_quote(f, title);
	free(title);
	fputs(" noenhanced\n"
	      "set logscale x\n"
	      "set xlabel 'gap (s, upper bound of the bucket)'\n"
	      "set ylabel 'share of gaps (%)'\n"
	      "set grid\nset key top right\n",
	      f);
	write_ranges(f, l, n);
	for (t = 0; t < 2; t++) {
		char *out = xasprintf("%s%s", prefix, terms[t][1]);

		fprintf(f, "set terminal %s\nset output ", terms[t][0]);
		gnuplot_quote(f, out);
		fputs("\nplot", f);
		for (i = 0, block = 0; i < n; i++) {
			if (!l[i].hist.n)
				continue;
			fputs(block ? ", \\\n     " : " ", f);
			gnuplot_quote(f, dat);
			fprintf(f,
				" index %zu using 1:3 with linespoints title ",
				block++);
			gnuplot_quote(f, l[i].label);
			fputs(" noenhanced", f);
		}
		fputs("\nset output\n", f);
		free(out);
	}
}

static int write_file(const char *path, const char *prefix, const char *dat,
		      const struct cmp_label *l, size_t n, const char *workload)
{
	struct atomic_file af;
	int ret = atomic_open(&af, path);

	if (ret) {
		errno = -ret;
		return error_errno("cannot create '%s'", path);
	}
	if (dat)
		write_script(af.f, prefix, dat, l, n, workload);
	else
		write_data(af.f, l, n);
	ret = atomic_commit(&af);
	if (ret) {
		errno = -ret;
		return error_errno("cannot write '%s'", path);
	}
	return 0;
}

/* Make the images; a machine without gnuplot keeps the script only. */
static int run_gnuplot(const char *script)
{
	int r = gnuplot_run(NULL, script);

	if (r == -ENOENT)
		return 0;
	if (r == -ECHILD) {
		warn("gnuplot failed on '%s'", script);
		return -1;
	}
	if (r) {
		errno = -r;
		return error_errno("cannot run gnuplot");
	}
	return 0;
}

int cmp_plot(const char *prefix, const struct cmp_comparison *c)
{
	const struct cmp_label *l = c->labels;
	const struct cmp_options *o = c->o;
	size_t n = c->n;
	char *dat = xasprintf("%s.dat", prefix);
	char *gp = xasprintf("%s.gp", prefix);
	size_t i, have = 0;
	int ret = 0;

	for (i = 0; i < n; i++)
		have += l[i].hist.n > 0;
	if (!have)
		warn("no result has a latency histogram of %s: nothing to plot",
		     o->workload);
	else if (write_file(dat, prefix, NULL, l, n, o->workload) ||
		 write_file(gp, prefix, dat, l, n, o->workload))
		ret = -1;
	else
		ret = run_gnuplot(gp);
	free(dat);
	free(gp);
	return ret;
}
