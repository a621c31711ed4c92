// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pictures of --format=html, drawn by gnuplot's SVG terminal and
 * embedded in the page: each run of the headline figures per label, the
 * latency distribution per label, fake-gitk's gaps over a typical run,
 * seqbench and ringbench rates with their intervals, the spread between
 * boots and a figure along a series of labels.  gnuplot reads the numbers
 * from data files in a private temporary directory; the only strings from
 * results it sees are labels in its own quoting (gnuplot_quote()).  Its
 * SVG is then checked and cleaned before it joins the page (the XML
 * prolog dropped, its ids made unique to the plot, anything that could
 * load or run refused), so the page stays one inert file.  Without gnuplot
 * the page says so and keeps its tables.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/gnuplot.h"
#include "lib/json-read.h"
#include "lib/sig.h"
#include "lib/stats.h"
#include "lib/xalloc.h"
#include "compare/compare.h"

/* Points of a gap series drawn, at most: the largest gap of each slice. */
#define SERIES_POINTS 400
/* Lines of a series read, and bytes of an SVG taken, at most. */
#define SERIES_MAX_LINES 4000000
#define SVG_MAX_BYTES (4 << 20)

struct plotter {
	FILE *out;
	const struct cmp_label *l;
	size_t n;
	char *dir;	 /* the temporary directory, or NULL */
	const char *off; /* why there are no pictures, or NULL */
	unsigned made;
};

/* A point of an interval plot: a run (LO, HI NaN) or a mean and its CI. */
struct ipoint {
	double x, y, lo, hi;
	size_t set; /* its label: colour and key */
};

struct iplot {
	const char *name, *ylabel;
	char *caption;
	size_t ntic;
	char **tic; /* x tic labels at 0, 1, ... */
	size_t npt;
	struct ipoint *pt;
	bool lines;	       /* join the means (a series) */
	const char *key_title; /* of the one line of a series, else labels */
};

static void ip_add(struct iplot *ip, double x, double y, double lo, double hi,
		   size_t set)
{
	if (!isfinite(y))
		return;
	ip->pt = xreallocarray(ip->pt, ip->npt + 1, sizeof(*ip->pt));
	ip->pt[ip->npt++] = (struct ipoint){ x, y, lo, hi, set };
}

/* The mean of V and its 95% interval, as a point at X. */
static void ip_mean(struct iplot *ip, double x, const double *v, size_t n,
		    size_t set)
{
	struct stats_ci ci;

	if (!n)
		return;
	if (n < 2) {
		ip_add(ip, x, v[0], v[0], v[0], set);
		return;
	}
	ci = stats_ci_of(v, n, 0.95);
	ip_add(ip, x, ci.mean, ci.mean - ci.half, ci.mean + ci.half, set);
}

static void ip_tic(struct iplot *ip, char *tic)
{
	ip->tic = xreallocarray(ip->tic, ip->ntic + 1, sizeof(*ip->tic));
	ip->tic[ip->ntic++] = tic;
}

static void ip_release(struct iplot *ip)
{
	size_t k;

	for (k = 0; k < ip->ntic; k++)
		free(ip->tic[k]);
	free(ip->tic);
	free(ip->pt);
	free(ip->caption);
}

static char *path_in(const struct plotter *p, const char *name)
{
	return xasprintf("%s/%s", p->dir, name);
}

static FILE *open_in(struct plotter *p, const char *name)
{
	char *path = path_in(p, name);
	FILE *f = fopen(path, "w");

	if (!f)
		warn_errno("cannot create '%s'", path);
	free(path);
	return f;
}

static int close_checked(FILE *f)
{
	int bad = ferror(f);

	return fclose(f) || bad ? -1 : 0;
}

/* The script's start: an SVG of W x H, no enhanced text anywhere. */
static void script_head(FILE *g, unsigned w, unsigned h, const char *ylabel)
{
	fprintf(g,
		"set terminal svg size %u,%u font 'sans,10' "
		"background '#ffffff'\n"
		"set termoption noenhanced\nset output 'o.svg'\n"
		"set grid\nset key outside right top\n",
		w, h);
	fputs("set ylabel ", g);
	gnuplot_quote(g, ylabel);
	fputc('\n', g);
}

/* Is C a name character of an XML tag or attribute? */
static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_' || c == ':';
}

/*
 * Whether the attributes of the tag from S to END are inert: no event
 * handler, no reference but to a fragment of the plot itself.
 */
static bool attrs_inert(const char *s, const char *end)
{
	while (s < end) {
		const char *name = s, *v, *ve;
		char q;

		if (!name_char(*s)) {
			s++;
			continue;
		}
		while (s < end && name_char(*s))
			s++;
		if (s >= end || *s != '=')
			continue;
		q = *++s;
		if (q != '\'' && q != '"')
			return false;
		v = ++s;
		ve = memchr(v, q, (size_t)(end - v));
		if (!ve)
			return false;
		if (!strncasecmp(name, "on", 2))
			return false;
		if (s - name > 5 && !strncmp(s - 6, "href=", 5) && *v != '#')
			return false;
		for (s = v; s < ve; s++)
			if (!strncasecmp(s, "url(", 4) && s[4] != '#')
				return false;
		s = ve + 1;
	}
	return true;
}

/* The elements gnuplot's SVG terminal writes; anything else is refused. */
static bool tag_allowed(const char *t, size_t len)
{
	static const char *const ok[] = {
		"svg",	   "g",	       "title",	  "desc",	 "defs",
		"rect",	   "circle",   "path",	  "use",	 "text",
		"tspan",   "polyline", "polygon", "line",	 "clipPath",
		"ellipse", "filter",   "feFlood", "feComposite",
	};
	size_t k;

	for (k = 0; k < sizeof(ok) / sizeof(*ok); k++)
		if (strlen(ok[k]) == len && !strncmp(t, ok[k], len))
			return true;
	return false;
}

/* Add text to BUF, the ids of plot ID made its own. */
static void put_renamed(FILE *o, const char *s, const char *end, unsigned id)
{
	static const char *const refs[] = { "id='", "id=\"", "href='#",
					    "href=\"#", "url(#" };
	size_t k;

	while (s < end) {
		for (k = 0; k < sizeof(refs) / sizeof(*refs); k++) {
			size_t len = strlen(refs[k]);

			if ((size_t)(end - s) >= len &&
			    !strncmp(s, refs[k], len) &&
			    (k == 4 || s[-1] == ' ' || s[-1] == ':')) {
				fwrite(s, 1, len, o);
				fprintf(o, "p%u-", id);
				s += len;
				break;
			}
		}
		if (k == sizeof(refs) / sizeof(*refs))
			fputc(*s++, o);
	}
}

/*
 * Write gnuplot's SVG S (of LEN bytes) to O as an inline element: from
 * <svg to </svg>, comments dropped, '>' and quotes in text spelled out
 * (gnuplot escapes '<' and '&' only, and "]]>" is not XML).  Returns 0, or -1
 * when anything in it is not inert, and then writes nothing.
 */
static int svg_embed(FILE *o, const char *s, size_t len, unsigned id)
{
	const char *end = s + len, *start = NULL, *p, *close;
	char *buf = NULL;
	size_t blen = 0;
	FILE *b;

	for (p = s; p + 4 <= end; p++)
		if (!strncmp(p, "<svg", 4)) {
			start = p;
			break;
		}
	for (close = NULL, p = end - 6; start && p > start; p--)
		if (!strncmp(p, "</svg>", 6)) {
			close = p + 6;
			break;
		}
	if (!start || !close)
		return -1;
	b = open_memstream(&buf, &blen);
	if (!b)
		xalloc_die();
	for (p = start; p < close;) {
		const char *gt, *t;

		if (*p == '>' || *p == '"' || *p == '\'') {
			fputs(*p == '>'	  ? "&gt;"
			      : *p == '"' ? "&quot;"
					  : "&#39;",
			      b);
			p++;
			continue;
		}
		if (*p != '<') {
			fputc(*p++, b);
			continue;
		}
		if (!strncmp(p, "<!--", 4)) {
			gt = memmem(p, (size_t)(close - p), "-->", 3);
			if (!gt)
				goto bad;
			p = gt + 3;
			continue;
		}
		gt = memchr(p, '>', (size_t)(close - p));
		if (!gt)
			goto bad;
		t = p + 1 + (p[1] == '/');
		for (len = 0; name_char(t[len]); len++)
			;
		if (!tag_allowed(t, len) || !attrs_inert(t + len, gt))
			goto bad;
		put_renamed(b, p, gt + 1, id);
		p = gt + 1;
	}
	if (fclose(b))
		xalloc_die();
	fwrite(buf, 1, blen, o);
	fputc('\n', o);
	free(buf);
	return 0;
bad:
	(void)fclose(b); /* what it held is refused anyway */
	free(buf);
	return -1;
}

/* Read the SVG gnuplot wrote; NULL (warned) when it cannot be read. */
static char *read_svg(const struct plotter *p, size_t *len)
{
	char *path = path_in(p, "o.svg"), *buf = NULL;
	int r = json_read_load(path, SVG_MAX_BYTES, &buf, len);

	if (r) {
		errno = -r;
		warn_errno("cannot read gnuplot's '%s'", path);
	}
	free(path);
	return r ? NULL : buf;
}

/* Say once why the pictures are missing. */
static void plots_off(struct plotter *p, const char *why)
{
	if (!p->off)
		p->off = why;
}

/* The data and the script of a picture; -1 (said once) when not. */
static int files_open(struct plotter *p, FILE **d, FILE **g)
{
	/* Told to stop (latency-compare.c): no more pictures, no page. */
	if (sig_stop) {
		plots_off(p, "interrupted");
		return -1;
	}
	*d = open_in(p, "d.dat");
	*g = open_in(p, "p.gp");
	if (*d && *g)
		return 0;
	if (*d)
		fclose(*d);
	if (*g)
		fclose(*g);
	plots_off(p, "the pictures' temporary files cannot be written");
	return -1;
}

static int files_close(struct plotter *p, FILE *d, FILE *g)
{
	if (!(close_checked(d) | close_checked(g)))
		return 0;
	plots_off(p, "the pictures' temporary files cannot be written");
	return -1;
}

/* Run the script p.gp and embed its picture as figure NAME. */
static void plot_run(struct plotter *p, const char *name, const char *caption)
{
	char *svg;
	size_t len;
	int r;

	r = gnuplot_run(p->dir, "p.gp");
	if (sig_stop) {
		plots_off(p, "interrupted");
		return;
	}
	if (r == -ENOENT) {
		plots_off(p, "gnuplot is not installed (package gnuplot-nox): "
			     "no pictures, the tables above hold every figure");
		return;
	}
	if (r) {
		warn("gnuplot failed on the %s picture of the page", name);
		return;
	}
	svg = read_svg(p, &len);
	if (!svg)
		return;
	fprintf(p->out, "<figure id=\"plot-%s\">\n", name);
	if (svg_embed(p->out, svg, len, p->made))
		warn("gnuplot's %s picture holds more than the page allows: "
		     "left out",
		     name);
	fputs("<figcaption>", p->out);
	cmp_html_write(p->out, caption);
	fputs("</figcaption>\n</figure>\n", p->out);
	p->made++;
	free(svg);
}

/*
 * An interval plot: per label its runs as small points and its means with
 * their 95% intervals as error bars, on categories along x.
 */
static void plot_intervals(struct plotter *p, const struct iplot *ip)
{
	FILE *d, *g;
	size_t s, k, block = 0;
	bool first = true;
	double ylo, yhi;
	size_t len;

	if (p->off || !ip->npt)
		return;
	if (files_open(p, &d, &g))
		return;
	script_head(g, ip->ntic > 6 ? 900 : 640, 360, ip->ylabel);
	fprintf(g, "set xrange [-0.6:%zu.6]\nset xtics (", ip->ntic - 1);
	for (k = 0; k < ip->ntic; k++) {
		fputs(k ? ", " : "", g);
		gnuplot_quote(g, ip->tic[k]);
		fprintf(g, " %zu", k);
	}
	fputs(")\n", g);
	for (k = 0, len = 0; k < ip->ntic; k++)
		len += strlen(ip->tic[k]);
	/* Names longer than their share of the axis would overlap. */
	if (ip->ntic > 4 || len > 60)
		fputs("set xtics rotate by -20\n", g);
	ylo = INFINITY;
	yhi = -INFINITY;
	for (k = 0; k < ip->npt; k++) {
		const struct ipoint *q = &ip->pt[k];

		ylo = fmin(ylo, isnan(q->lo) ? q->y : q->lo);
		yhi = fmax(yhi, isnan(q->hi) ? q->y : q->hi);
	}
	/* One value alone: gnuplot would warn into the run's report.log. */
	gnuplot_range(g, "y", ylo, yhi, 0);
	fputs("plot", g);
	for (s = 0; s < p->n; s++) {
		for (int mean = 0; mean < 2; mean++) {
			size_t rows = 0;

			for (k = 0; k < ip->npt; k++) {
				const struct ipoint *q = &ip->pt[k];

				if (q->set != s || isnan(q->lo) == mean)
					continue;
				fprintf(d, "%.9g %.9g %.9g %.9g\n", q->x, q->y,
					mean ? q->lo : q->y,
					mean ? q->hi : q->y);
				rows++;
			}
			if (!rows)
				continue;
			fputs("\n\n", d);
			fprintf(g, "%s 'd.dat' index %zu ", first ? "" : ",",
				block++);
			first = false;
			if (mean) {
				fprintf(g,
					"using 1:2:3:4 with %s lw 2 pt 5 "
					"lc %zu title ",
					ip->lines ? "yerrorlines"
						  : "yerrorbars",
					s + 1);
				gnuplot_quote(g, ip->key_title ? ip->key_title
							       : p->l[s].label);
			} else {
				fprintf(g,
					"using 1:2 with points pt 7 ps 0.6 "
					"lc %zu notitle",
					s + 1);
			}
		}
	}
	fputc('\n', g);
	if (files_close(p, d, g))
		return;
	plot_run(p, ip->name, ip->caption);
}

/* Per label, each run of figure F, each result's runs beside each other. */
static void plot_runs(struct plotter *p, enum fig f, const char *ylabel)
{
	struct iplot ip = { 0 };
	size_t i, j, k;

	ip.name = f == FIG_ELAPSED ? "runs-elapsed" : "runs-epu";
	ip.ylabel = ylabel;
	ip.caption = xasprintf(
		"%s of each fake-gitk run (small points; several results of "
		"a label side by side) and the label's mean with its 95%% "
		"interval",
		fig_desc[f].name);
	for (i = 0; i < p->n; i++) {
		const struct cmp_label *l = &p->l[i];

		ip_tic(&ip, xstrdup(l->label));
		for (j = 0; j < l->n; j++) {
			const struct cmp_result *r = l->r[j];
			double x = (double)i +
				   0.15 * ((double)j - (double)(l->n - 1) / 2);

			if (!r->per_run[f])
				continue;
			for (k = 0; k < r->n_runs; k++)
				ip_add(&ip, x + 0.03 * (double)(k % 3) - 0.03,
				       r->per_run[f][k], NAN, NAN, i);
		}
		ip_mean(&ip, (double)i + 0.3, l->fig[f].samples, l->fig[f].n,
			i);
	}
	plot_intervals(p, &ip);
	ip_release(&ip);
}

/* The means of each result of a label with their intervals (boots). */
static void plot_boots(struct plotter *p)
{
	struct iplot ip = { 0 };
	size_t i, j, many = 0;

	for (i = 0; i < p->n; i++)
		many += p->l[i].n > 1;
	if (!many)
		return;
	ip.name = "boots";
	ip.ylabel = "elapsed (s)";
	ip.caption = xstrdup("the spread between boots: each result's mean "
			     "elapsed with the 95% interval of its runs, "
			     "the results of a label side by side");
	for (i = 0; i < p->n; i++) {
		const struct cmp_label *l = &p->l[i];

		ip_tic(&ip, xstrdup(l->label));
		for (j = 0; j < l->n; j++) {
			const struct cmp_result *r = l->r[j];
			double x = (double)i +
				   0.6 * ((double)j + 0.5) / (double)l->n - 0.3;

			if (r->per_run[FIG_ELAPSED])
				ip_mean(&ip, x, r->per_run[FIG_ELAPSED],
					r->n_runs, i);
		}
	}
	plot_intervals(p, &ip);
	ip_release(&ip);
}

/* The lead figure along the labels, when there are three or more. */
static void plot_series(struct plotter *p, enum fig f)
{
	struct iplot ip = { 0 };
	size_t i;

	if (p->n < 3)
		return;
	ip.name = "series";
	ip.ylabel =
		f == FIG_EPU ? "elapsed per user-CPU second" : "elapsed (s)";
	ip.lines = true;
	ip.key_title = fig_desc[f].name;
	ip.caption = xasprintf("%s along the labels in the order given, each "
			       "with its 95%% interval",
			       fig_desc[f].name);
	for (i = 0; i < p->n; i++) {
		ip_tic(&ip, xstrdup(p->l[i].label));
		/* One set: one line through the series. */
		ip_mean(&ip, (double)i, p->l[i].fig[f].samples,
			p->l[i].fig[f].n, 0);
	}
	plot_intervals(p, &ip);
	ip_release(&ip);
}

struct cat_plot {
	struct iplot ip;
	size_t n;		   /* labels */
	const struct sb_group *sb; /* the configuration of the last tic */
	const char *rb;
};

/* Place of label I in the category of the last tic. */
static double cat_x(const struct cat_plot *x, size_t i)
{
	return (double)(x->ip.ntic - 1) +
	       0.6 * ((double)i + 0.5) / (double)x->n - 0.3;
}

static void cat_points(struct cat_plot *x, size_t i, const double *v, size_t n)
{
	double at = cat_x(x, i);
	size_t k;

	for (k = 0; k < n; k++)
		ip_add(&x->ip, at - 0.04, v[k], NAN, NAN, i);
	ip_mean(&x->ip, at + 0.04, v, n, i);
}

/* A new category when group G's configuration is not the last one's. */
static void sb_tic(struct cat_plot *x, const struct sb_group *g)
{
	char ph[SB_PHASE_TEXT];

	if (!x->sb || cmp_sb_order(x->sb, g))
		ip_tic(&x->ip,
		       xasprintf("%s %gM %gB t%g", cmp_sb_phase(g, ph),
				 g->size_mib, g->block_bytes, g->threads));
	x->sb = g;
}

static void plot_seqbench(struct plotter *p, const struct cmp_comparison *c)
{
	struct cat_plot x = { { 0 }, p->n, NULL, NULL };
	size_t i;

	if (!c->has_seqbench)
		return;
	x.ip.name = "seqbench";
	x.ip.ylabel = "MiB/s";
	x.ip.caption = xstrdup("seqbench: the rate of each run and each "
			       "label's mean with its 95% interval, per "
			       "phase, size, block and threads");
	for (i = 0; i < c->n_sb_rows; i++) {
		const struct cmp_row_ref *r = &c->sb_rows[i];
		const struct sb_group *g = &p->l[r->label].sb[r->k];

		sb_tic(&x, g);
		cat_points(&x, r->label, g->rate, g->n);
	}
	plot_intervals(p, &x.ip);
	ip_release(&x.ip);
}

static void plot_ringbench(struct plotter *p, const struct cmp_comparison *c)
{
	struct cat_plot x = { { 0 }, p->n, NULL, NULL };
	size_t i;

	if (!c->has_ringbench)
		return;
	x.ip.name = "ringbench";
	x.ip.ylabel = "cycles or transactions per second";
	x.ip.caption = xstrdup("ringbench: the rate of each run and each "
			       "label's mean with its 95% interval, per "
			       "configuration");
	for (i = 0; i < c->n_rb_rows; i++) {
		const struct cmp_row_ref *r = &c->rb_rows[i];
		const struct rb_group *g = &p->l[r->label].rb[r->k];

		if (!x.rb || strcmp(x.rb, g->config))
			ip_tic(&x.ip, xstrdup(g->config));
		x.rb = g->config;
		cat_points(&x, r->label, g->v[RBF_RATE], g->n[RBF_RATE]);
	}
	plot_intervals(p, &x.ip);
	ip_release(&x.ip);
}

/* The labels' latency histograms, as --plot draws them (compare-plot.c). */
static void plot_hist(struct plotter *p, const char *workload)
{
	FILE *d, *g;
	size_t i, block = 0;
	char *cap;

	for (i = 0; i < p->n && !p->l[i].hist.n; i++)
		;
	if (p->off || i == p->n)
		return;
	if (files_open(p, &d, &g))
		return;
	cmp_plot_hist_data(d, p->l, p->n);
	script_head(g, 640, 360, "share of gaps (%)");
	fputs("set logscale x\nset xlabel 'gap (s, upper bound of the "
	      "bucket)'\n",
	      g);
	cmp_plot_hist_ranges(g, p->l, p->n);
	fputs("plot", g);
	for (i = 0; i < p->n; i++) {
		if (!p->l[i].hist.n)
			continue;
		fprintf(g,
			"%s 'd.dat' index %zu using 1:3 with linespoints "
			"lw 2 lc %zu title ",
			block ? "," : "", block, i + 1);
		block++;
		gnuplot_quote(g, p->l[i].label);
	}
	fputc('\n', g);
	if (files_close(p, d, g))
		return;
	cap = xasprintf("%s: the distribution of the gaps between progress "
			"lines, each label's share per bucket (log axis)",
			workload);
	plot_run(p, "latency", cap);
	free(cap);
}

/* The run of R with the median elapsed time (the lower of two), or -1. */
static long typical_run(const struct cmp_result *r)
{
	const double *v = r->per_run[FIG_ELAPSED];
	size_t k, j, m = 0, below;

	for (k = 0; v && k < r->n_runs; k++)
		m += !isnan(v[k]);
	for (k = 0; v && k < r->n_runs; k++) {
		if (isnan(v[k]))
			continue;
		for (j = 0, below = 0; j < r->n_runs; j++)
			below += !isnan(v[j]) &&
				 (v[j] < v[k] || (v[j] == v[k] && j < k));
		if (below == (m - 1) / 2)
			return (long)k;
	}
	return -1;
}

/* A gap series: seconds into the run and the gap that ended there. */
struct series {
	size_t n;
	double *t, *gap;
};

/*
 * Read the latency-output series PATH (a file of a result directory, so
 * hostile: lines are bounded and only numbers are kept).  Returns 0, or
 * -1 when it cannot be opened or holds no gap.
 */
static int series_read(const char *path, struct series *s)
{
	char line[512];
	int fd = json_read_open(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	bool whole = true;

	s->n = 0;
	s->t = s->gap = NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (s->n < SERIES_MAX_LINES && fgets(line, sizeof(line), f)) {
		bool starts = whole;
		double epoch, into, gap;

		/* The rest of a longer line is not a line of its own. */
		whole = strchr(line, '\n') != NULL;
		if (!starts ||
		    sscanf(line, "%lf %lf %lf", &epoch, &into, &gap) != 3 ||
		    !isfinite(into) || !isfinite(gap) || gap <= 0)
			continue;
		if (!(s->n & (s->n - 1))) {
			s->t = xreallocarray(s->t, s->n ? 2 * s->n : 1,
					     sizeof(*s->t));
			s->gap = xreallocarray(s->gap, s->n ? 2 * s->n : 1,
					       sizeof(*s->gap));
		}
		s->t[s->n] = into;
		s->gap[s->n++] = gap;
	}
	fclose(f); /* read only: nothing to lose */
	return s->n ? 0 : -1;
}

/*
 * Write S downsampled: the largest gap of each of SERIES_POINTS slices;
 * the smallest and largest gap written widen *LO and *HI.
 */
static void series_write(FILE *d, const struct series *s, double *lo,
			 double *hi)
{
	size_t per = (s->n + SERIES_POINTS - 1) / SERIES_POINTS, k, j;

	for (k = 0; k < s->n; k += per) {
		size_t best = k;

		for (j = k; j < s->n && j < k + per; j++)
			if (s->gap[j] > s->gap[best])
				best = j;
		fprintf(d, "%.9g %.9g\n", s->t[best], s->gap[best]);
		*lo = fmin(*lo, s->gap[best]);
		*hi = fmax(*hi, s->gap[best]);
	}
	fputs("\n\n", d);
}

/* The series file of L's typical run, its run number into *RUN. */
static char *typical_series(const struct cmp_label *l, long *run,
			    const struct cmp_result **from)
{
	size_t j;

	for (j = 0; j < l->n; j++) {
		const struct cmp_result *r = l->r[j];
		const char *slash;

		*run = typical_run(r);
		if (*run < 0 || !r->json_file)
			continue;
		*from = r;
		slash = strrchr(r->json_file, '/');
		if (!slash)
			return xasprintf("fake-gitk-%ld.latency", *run + 1);
		return xasprintf("%.*s/fake-gitk-%ld.latency",
				 (int)(slash - r->json_file), r->json_file,
				 *run + 1);
	}
	return NULL;
}

/* fake-gitk's gaps over a typical run of each label, log axis. */
static void plot_progress(struct plotter *p)
{
	char *cap = NULL, *part;
	size_t i, block = 0, caplen = 0;
	double lo = INFINITY, hi = -INFINITY;
	FILE *d, *g, *c, *rg;
	bool ranged = false;

	if (p->off)
		return;
	if (files_open(p, &d, &g))
		return;
	c = open_memstream(&cap, &caplen);
	if (!c)
		xalloc_die();
	fprintf(c,
		"fake-gitk: the gap between progress lines over a typical "
		"run of each label (the run of median elapsed time; the "
		"largest gap of each of at most %d slices), log axis:",
		SERIES_POINTS);
	script_head(g, 640, 360, "gap (s)");
	fputs("set logscale y\nset xlabel 'seconds into the run'\n", g);
	/* The range is known only once the data is: after the plot line. */
	fputs("load 'r.gp'\nplot", g);
	for (i = 0; i < p->n; i++) {
		const struct cmp_result *r = NULL;
		struct series s;
		long run;
		char *path = typical_series(&p->l[i], &run, &r);

		if (!path || series_read(path, &s)) {
			free(path);
			continue;
		}
		series_write(d, &s, &lo, &hi);
		fprintf(g,
			"%s 'd.dat' index %zu using 1:2 with lines lw 1 "
			"lc %zu title ",
			block ? "," : "", block, i + 1);
		block++;
		gnuplot_quote(g, p->l[i].label);
		part = xasprintf(" %s%s run %ld of %s (%zu gaps)",
				 block > 1 ? ";" : "", p->l[i].label, run + 1,
				 cmp_result_name(r), s.n);
		fputs(part, c);
		free(part);
		free(path);
		free(s.t);
		free(s.gap);
	}
	fputc('\n', g);
	if (fclose(c))
		xalloc_die();
	rg = open_in(p, "r.gp");
	if (rg) {
		gnuplot_range(rg, "y", lo, hi, GNUPLOT_LOG);
		ranged = !close_checked(rg);
	}
	if (!ranged)
		plots_off(p, "the pictures' temporary files cannot be written");
	if (!files_close(p, d, g) && block && ranged)
		plot_run(p, "progress", cap);
	free(cap);
}

static bool all_have(const struct cmp_label *l, size_t n, enum fig f)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (isnan(l[i].fig[f].value))
			return false;
	return true;
}

static bool any_runs(const struct cmp_label *l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (l[i].has_run)
			return true;
	return false;
}

/* Remove the temporary directory and what gnuplot was given in it. */
static void plots_clean(struct plotter *p)
{
	static const char *const files[] = { "d.dat", "p.gp", "r.gp", "o.svg" };
	size_t k;

	for (k = 0; k < sizeof(files) / sizeof(*files); k++) {
		char *path = path_in(p, files[k]);

		(void)unlink(path); /* absent when that step never came */
		free(path);
	}
	if (rmdir(p->dir))
		warn_errno("cannot remove '%s'", p->dir);
	free(p->dir);
}

void cmp_html_plots(FILE *f, const struct cmp_comparison *c)
{
	const struct cmp_label *l = c->labels;
	const struct cmp_options *o = c->o;
	size_t n = c->n;
	struct plotter p = { f, l, n, NULL, NULL, 0 };
	const char *tmp = getenv("TMPDIR");

	fputs("<h2 id=\"pictures\">Pictures</h2>\n<div id=\"plots\">\n", f);
	p.dir = xasprintf("%s/latency-compare.XXXXXX",
			  tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(p.dir)) {
		warn_errno("cannot create '%s'", p.dir);
		free(p.dir);
		p.dir = NULL;
		plots_off(&p, "no temporary directory for the pictures");
	}
	if (p.dir && any_runs(l, n)) {
		plot_runs(&p, FIG_ELAPSED, "elapsed (s)");
		if (all_have(l, n, FIG_EPU))
			plot_runs(&p, FIG_EPU, "elapsed per user-CPU second");
		plot_hist(&p, o->workload);
		if (!strcmp(o->workload, "fake-gitk"))
			plot_progress(&p);
		plot_boots(&p);
		plot_series(&p,
			    all_have(l, n, FIG_EPU) ? FIG_EPU : FIG_ELAPSED);
	}
	if (p.dir) {
		plot_seqbench(&p, c);
		plot_ringbench(&p, c);
		plots_clean(&p);
	}
	fputs("</div>\n", f);
	if (p.off) {
		fputs("<p class=\"note\" id=\"no-plots\">", f);
		cmp_html_write(f, p.off);
		fputs("</p>\n", f);
	}
}
