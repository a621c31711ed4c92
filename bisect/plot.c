// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The plot of a bisection: the figure of every complete boot along the
 * series (a point a boot, the kernels in order on the x axis), the good
 * kernels, the bad ones and the rest (unknown, skipped, untested) each in
 * a colour of its own, written as series.dat and series.gp in the
 * bisection's directory and drawn by gnuplot where it is installed
 * (series.png, series.svg), as the suite's other plots are.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/err.h"
#include "lib/gnuplot.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "bisect/bisect.h"

/* The groups of kernels drawn, one data block each. */
static const char *const group_title[] = { "good", "bad",
					   "unknown, skipped, untested" };

static int group_of(enum kstate s)
{
	return s == KS_GOOD ? 0 : s == KS_BAD ? 1 : 2;
}

/* The kernel index of boot BT. */
static size_t kernel_of(const struct bisect *b, const struct boot *bt)
{
	const struct series *s = &b->series[bt->series];

	return bt->arm == 'a' ? s->ref : s->k;
}

static void write_data(FILE *f, const struct bisect *b, double *lo, double *hi)
{
	size_t i;
	int g;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (g = 0; g < 3; g++) {
		fprintf(f, "# %s: kernel index, figure of a boot\n",
			group_title[g]);
		/* gnuplot wants a point in every block it is told of. */
		fputs("NaN NaN\n", f);
		for (i = 0; i < b->n_boots; i++) {
			const struct boot *bt = &b->boots[i];
			size_t k = kernel_of(b, bt);

			if (bt->end != BOOT_DONE ||
			    group_of(b->k[k].state) != g)
				continue;
			fprintf(f, "%zu %.10g\n", k, bt->value);
			*lo = fmin(*lo, bt->value);
			*hi = fmax(*hi, bt->value);
		}
		fputs("\n\n", f);
	}
}

static void write_script(FILE *f, const struct bisect *b, double lo, double hi)
{
	static const char *const terms[][2] = {
		{ "pngcairo size 1024,640", "series.png" },
		{ "svg size 1024,640 dynamic", "series.svg" },
	};
	static const char *const colours[] = { "#1a9641", "#d7191c",
					       "#7f7f7f" };
	char *title = xasprintf("%s along the series, a point a boot",
				fig_desc[b->o.metric].name);
	size_t i, t;
	int g;

	fputs("# gnuplot script written by latency-bisect\nset title ", f);
	gnuplot_quote(f, title);
	free(title);
	fputs(" noenhanced\nset ylabel ", f);
	gnuplot_quote(f, fig_desc[b->o.metric].name);
	fputs(" noenhanced\nset grid\nset key top left\nset xtics rotate "
	      "by -45 noenhanced (",
	      f);
	for (i = 0; i < b->n; i++) {
		fputs(i ? ", " : "", f);
		gnuplot_quote(f, b->k[i].label);
		fprintf(f, " %zu", i);
	}
	fprintf(f, ")\nset xrange [-0.5:%zu.5]\n", b->n - 1);
	gnuplot_range(f, "y", lo, hi, 0);
	for (t = 0; t < 2; t++) {
		fprintf(f, "set terminal %s\nset output '%s'\nplot",
			terms[t][0], terms[t][1]);
		for (g = 0; g < 3; g++) {
			fprintf(f,
				"%s'series.dat' index %d using 1:2 with points "
				"pt 7 lc rgb '%s' title ",
				g ? ", \\\n     " : " ", g, colours[g]);
			gnuplot_quote(f, group_title[g]);
		}
		fputs("\nset output\n", f);
	}
}

/* Write NAME: the data (DATA, its range into *LO and *HI) or the script. */
static int write_file(const struct bisect_run *run, const char *name,
		      const struct bisect *b, bool data, double *lo, double *hi)
{
	char *path = xasprintf("%s/%s", run->dir, name);
	struct atomic_file af;
	int ret = atomic_open(&af, path);

	if (!ret) {
		if (data)
			write_data(af.f, b, lo, hi);
		else
			write_script(af.f, b, *lo, *hi);
		ret = atomic_commit(&af);
		atomic_abort(&af);
	}
	if (ret)
		warn_err(-ret, "cannot write '%s'", path);
	free(path);
	return ret;
}

int report_plot(const struct bisect *b, const struct bisect_run *run)
{
	double lo, hi;
	int ret;

	if (write_file(run, "series.dat", b, true, &lo, &hi) ||
	    write_file(run, "series.gp", b, false, &lo, &hi))
		return -1;
	if (lo > hi)
		return 0; /* no complete boot: nothing to draw */
	ret = gnuplot_run(run->dir, "series.gp");
	if (ret == -ENOENT)
		return 0; /* the script stays for a machine that has it */
	if (ret) {
		warn("gnuplot failed on '%s/series.gp'", run->dir);
		return -1;
	}
	return 0;
}
