// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-compare's report writers for people: the 2009 one-line form, an
 * aligned text table for mail and Markdown (the same tables); CSV and JSON
 * are in compare-data.c.  The text and Markdown tables are built
 * as a grid of raw cells first and escaped for their format when printed,
 * so column widths fit the longest cell and no string from a result file
 * reaches a terminal or a Markdown page as anything but text.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/output.h"
#include "lib/stats.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "compare/compare.h"

const char *const cmp_format_names[] = {
	[CMP_2009] = "2009",   [CMP_TEXT] = "text",	    [CMP_CSV] = "csv",
	[CMP_JSON] = "json",   [CMP_MARKDOWN] = "markdown", [CMP_LAVA] = "lava",
	[CMP_KCIDB] = "kcidb", [CMP_HTML] = "html",	    NULL,
};

static const char *const test_names[] = {
	[TEST_NONE] = NULL,	    [TEST_RUNS] = "runs",
	[TEST_RESULTS] = "results", [TEST_SPREAD] = "spread",
	[TEST_PAIRED] = "paired",   [TEST_PAIRED_BOOTS] = "paired-boots",
};

const char *cmp_test_name(enum cmp_test t)
{
	return test_names[t];
}

/* A grid of cells, filled row by row, holding raw strings. */
struct table {
	size_t cols;
	size_t left; /* leading columns that are left-aligned */
	size_t n;
	char **cell;
};

static void table_add(struct table *t, const char *fmt, ...) PRINTF_LIKE(2, 3);

static void table_add(struct table *t, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		xalloc_die();
	t->cell = xreallocarray(t->cell, t->n + 1, sizeof(*t->cell));
	t->cell[t->n++] = s;
}

static void table_release(struct table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->cell[i]);
	free(t->cell);
	t->cell = NULL;
	t->n = 0;
}

/* Columns a UTF-8 string takes: its characters (no continuation bytes). */
static size_t width_of(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void print_padded(FILE *f, const char *s, size_t w, bool left)
{
	size_t pad = w - width_of(s);

	if (left)
		fputs(s, f);
	while (pad--)
		fputc(' ', f);
	if (!left)
		fputs(s, f);
}

/* A pipe table whose numeric columns are right-aligned. */
static void table_print_md(FILE *f, const struct table *t)
{
	size_t i, c;

	for (i = 0; i < t->n; i++) {
		c = i % t->cols;
		fputs(c ? " | " : "| ", f);
		md_cell_write(f, t->cell[i]);
		if (c + 1 < t->cols)
			continue;
		fputs(" |\n", f);
		if (i + 1 != t->cols)
			continue;
		for (c = 0; c < t->cols; c++)
			fputs(c < t->left ? (c ? " | ---" : "| ---")
					  : " | ---:",
			      f);
		fputs(" |\n", f);
	}
}

/*
 * Text: cells escaped for a terminal, the leading LEFT columns
 * left-aligned (names), the others right-aligned (numbers), two spaces
 * apart, no trailing blanks.  Markdown: see table_print_md().  Empties T.
 */
static void table_print(FILE *f, struct table *t, bool markdown)
{
	size_t *w, i, c;

	if (markdown) {
		table_print_md(f, t);
		table_release(t);
		return;
	}
	w = xcalloc(t->cols, sizeof(*w));
	for (i = 0; i < t->n; i++) {
		char *e = text_escape(t->cell[i]);

		free(t->cell[i]);
		t->cell[i] = e;
		if (width_of(e) > w[i % t->cols])
			w[i % t->cols] = width_of(e);
	}
	for (i = 0; i < t->n; i++) {
		bool last = (i + 1) % t->cols == 0;

		c = i % t->cols;
		if (c)
			fputs("  ", f);
		/* A left-aligned last column gets no trailing blanks. */
		print_padded(f, t->cell[i],
			     last && c < t->left ? width_of(t->cell[i]) : w[c],
			     c < t->left);
		if (last)
			fputc('\n', f);
	}
	free(w);
	table_release(t);
}

/* Figure V as a table cell: '-' when absent. */
static void add_value(struct table *t, double v, enum fig f)
{
	if (isnan(v))
		table_add(t, "-");
	else if (f == FIG_CV)
		table_add(t, "%.1f", v);
	else if (fig_desc[f].count)
		table_add(t, v == floor(v) ? "%.0f" : "%.1f", v);
	else
		table_add(t, "%.3f", v);
}

static void add_change(struct table *t, const struct change *c,
		       enum change_kind kind)
{
	const char *mark = c->significant ? "*" : "";

	if (isnan(c->delta))
		table_add(t, "-%s", mark);
	else if (kind == CHANGE_PCT)
		table_add(t, "%+.2f%%%s", c->delta, mark);
	else
		table_add(t,
			  c->delta == floor(c->delta) ? "%+.0f%s" : "%+.1f%s",
			  c->delta, mark);
}

static void add_p(struct table *t, double p)
{
	if (isnan(p))
		table_add(t, "-");
	else if (p < 0.0001)
		table_add(t, "<0.0001");
	else
		table_add(t, "%.4f", p);
}

static void add_num(struct table *t, double v, int decimals)
{
	if (isnan(v))
		table_add(t, "-");
	else
		table_add(t, "%.*f", decimals, v);
}

static void add_pct(struct table *t, double v)
{
	if (isnan(v))
		table_add(t, "-");
	else
		table_add(t, "%.1f", v);
}

/* Columns of the main tables: the headed figures that are not kernel's. */
static size_t count_heads(bool change)
{
	size_t n = 0;
	int f;

	for (f = 0; f < FIG_KERNEL_FIRST; f++)
		n += (change ? fig_desc[f].change_head : fig_desc[f].head) != 0;
	return n;
}

static void table_values(FILE *out, const struct cmp_label *l, size_t n,
			 bool md)
{
	struct table t = { 4 + count_heads(false), 1, 0, NULL };
	size_t i;
	int f;

	table_add(&t, "label");
	table_add(&t, "results");
	table_add(&t, "runs");
	for (f = 0; f < FIG_KERNEL_FIRST; f++) {
		if (fig_desc[f].head)
			table_add(&t, "%s", fig_desc[f].head);
		if (f == FIG_CV)
			table_add(&t, "between%%");
	}
	for (i = 0; i < n; i++) {
		table_add(&t, "%s%s", l[i].label,
			  l[i].partial ? " [partial]" : "");
		table_add(&t, "%zu", l[i].n);
		if (l[i].has_run)
			table_add(&t, "%zu", l[i].runs);
		else
			table_add(&t, "-");
		for (f = 0; f < FIG_KERNEL_FIRST; f++) {
			if (fig_desc[f].head)
				add_value(&t, l[i].fig[f].value, (enum fig)f);
			if (f == FIG_CV)
				add_pct(&t, l[i].between_cv);
		}
	}
	table_print(out, &t, md);
}

/* Success per order, each against the baseline's probes of that order. */
static void table_high_order(FILE *out, const struct cmp_label *l, size_t n,
			     bool md, double alpha)
{
	struct table t = { 8, 1, 0, NULL };
	char ms[FMT_FAULT_MS];
	size_t i, k;
	bool runs = false, by_result = false;

	fputs("\nHigh-order allocation success (latency-highorder), against ",
	      out);
	(md ? md_cell_write : text_write)(out, l[0].label);
	fprintf(out, " by the two-proportion z test (* significant, p < %g):\n",
		alpha);
	if (md)
		fputc('\n', out);
	table_add(&t, "label");
	table_add(&t, "order");
	table_add(&t, "attempts");
	table_add(&t, "success%%");
	table_add(&t, "fault_p99_ms");
	table_add(&t, "change");
	table_add(&t, "p");
	table_add(&t, "mde");
	for (i = 0; i < n; i++) {
		for (k = 0; k < l[i].n_ho; k++) {
			const struct cmp_ho *h = &l[i].ho[k];
			struct cmp_ho_change c = cmp_ho_change(&l[0], h, alpha);

			uint64_t ra, rs;

			table_add(&t, "%s", l[i].label);
			table_add(&t, "%u", h->order);
			if (cmp_ho_runs(h, &ra, &rs)) {
				/* the test's sample: the counted runs */
				runs = true;
				table_add(&t, "%llu", (unsigned long long)ra);
				add_pct(&t, ra ? 100.0 * (double)rs / (double)ra
					       : NAN);
			} else {
				table_add(&t, "%llu",
					  (unsigned long long)h->attempts);
				add_pct(&t, cmp_ho_pct(h));
			}
			if (isnan(cmp_ho_fault_p99(h)))
				table_add(&t, "-");
			else
				table_add(
					&t, "%s",
					fmt_fault_ms(ms, cmp_ho_fault_p99(h)));
			if (!i || !c.tested) {
				table_add(&t, "-");
				table_add(&t, "-");
				table_add(&t, "-");
				continue;
			}
			by_result = by_result || c.by_result;
			table_add(&t, "%+.1f pp%s", c.diff_pp,
				  c.significant ? "*" : "");
			add_p(&t, c.p);
			table_add(&t, "%.1f pp", c.mde_pp);
		}
	}
	table_print(out, &t, md);
	if (by_result)
		fputs("\nchange, p, mde: the results as clusters (two or more "
		      "a label: a result's runs share\nits boot's state, so "
		      "the results differ more than the runs).\n",
		      out);
	if (runs)
		fputs("\nattempts, success%: during the counted fake-gitk "
		      "runs, "
		      "the sample of the test\n(summary.txt's HighOrder line "
		      "counts all of the probe's attempts).\n",
		      out);
}

static bool has_kernel(const struct cmp_label *l, size_t n)
{
	size_t i;
	int f;

	for (i = 0; i < n; i++)
		for (f = FIG_KERNEL_FIRST; f < FIG_CPU_FIRST; f++)
			if (!isnan(l[i].fig[f].value))
				return true;
	return false;
}

static void table_kernel(FILE *out, const struct cmp_label *l, size_t n,
			 bool md)
{
	struct table t = { 1 + FIG_CPU_FIRST - FIG_KERNEL_FIRST, 1, 0, NULL };
	size_t i;
	int f;

	if (!has_kernel(l, n))
		return;
	fputs("\nThe kernel's figures per fake-gitk run, means (pages, "
	      "counts; times in seconds):\n",
	      out);
	if (md)
		fputc('\n', out);
	table_add(&t, "label");
	for (f = FIG_KERNEL_FIRST; f < FIG_CPU_FIRST; f++)
		table_add(&t, "%s", fig_desc[f].head);
	for (i = 0; i < n; i++) {
		table_add(&t, "%s", l[i].label);
		for (f = FIG_KERNEL_FIRST; f < FIG_CPU_FIRST; f++)
			add_value(&t, l[i].fig[f].value, (enum fig)f);
	}
	table_print(out, &t, md);
}

/* Does any label have the time split per user-CPU second? */
static bool has_cpu(const struct cmp_label *l, size_t n)
{
	size_t i;
	int f;

	for (i = 0; i < n; i++)
		for (f = FIG_CPU_FIRST; f < FIG_COUNT; f++)
			if (!isnan(l[i].fig[f].value))
				return true;
	return false;
}

/*
 * The machine's speed divided out: per label the means of the time split
 * per user-CPU second and of the machine's figures, and each one's change
 * against the baseline.
 */
static void table_cpu(FILE *out, const struct cmp_label *l, size_t n, bool md,
		      double alpha)
{
	struct table t = { 1 + 2 * (FIG_COUNT - FIG_CPU_FIRST), 1, 0, NULL };
	size_t i;
	int f;

	if (!has_cpu(l, n))
		return;
	fputs("\nPer user-CPU second (elapsed, sys and off-CPU time over "
	      "fake-gitk's user CPU time),\nand the machine per run (user "
	      "CPU, wait for a CPU, other processes' CPU), means;\nchange "
	      "against ",
	      out);
	(md ? md_cell_write : text_write)(out, l[0].label);
	fputs(" (* significant):\n", out);
	if (md)
		fputc('\n', out);
	table_add(&t, "label");
	for (f = FIG_CPU_FIRST; f < FIG_COUNT; f++) {
		table_add(&t, "%s", fig_desc[f].head);
		table_add(&t, "change");
	}
	for (i = 0; i < n; i++) {
		table_add(&t, "%s", l[i].label);
		for (f = FIG_CPU_FIRST; f < FIG_COUNT; f++) {
			struct change c;

			if (f == FIG_EPU || f == FIG_SPU || f == FIG_WPU)
				add_num(&t, l[i].fig[f].value, 4);
			else
				add_value(&t, l[i].fig[f].value, (enum fig)f);
			if (!i) {
				table_add(&t, "-");
				continue;
			}
			c = cmp_change(&l[0], &l[i], (enum fig)f, alpha);
			add_change(&t, &c, CHANGE_PCT);
		}
	}
	table_print(out, &t, md);
}

static void table_changes(FILE *out, const struct cmp_label *l, size_t n,
			  bool md, double alpha)
{
	struct table t = { 2 + count_heads(true), 1, 0, NULL };
	size_t i;
	int f;

	fputs("\nChange against ", out);
	(md ? md_cell_write : text_write)(out, l[0].label);
	fprintf(out, " (* significant, p < %g):\n", alpha);
	if (md)
		fputc('\n', out);
	table_add(&t, "label");
	for (f = 0; f < FIG_KERNEL_FIRST; f++) {
		if (!fig_desc[f].change_head)
			continue;
		table_add(&t, "%s", fig_desc[f].change_head);
		if (f == FIG_ELAPSED)
			table_add(&t, "p");
	}
	for (i = 1; i < n; i++) {
		table_add(&t, "%s", l[i].label);
		for (f = 0; f < FIG_KERNEL_FIRST; f++) {
			struct change c;

			if (!fig_desc[f].change_head)
				continue;
			c = cmp_change(&l[0], &l[i], (enum fig)f, alpha);
			add_change(&t, &c, fig_desc[f].change);
			if (f == FIG_ELAPSED)
				add_p(&t, c.p);
		}
	}
	table_print(out, &t, md);
}

/* "runs 3+4", "results 3+3", "spread 3+1": the samples on each side. */
static void add_samples(struct table *t, const struct change *c,
			const struct cmp_label *base, const struct cmp_label *l,
			int f)
{
	size_t nb = base->fig[f].n, nl = l->fig[f].n;

	if (c->test == TEST_SPREAD)
		table_add(t, "spread %zu+%zu",
			  base->kind[f] == SAMPLES_RESULTS ? nb : 1,
			  l->kind[f] == SAMPLES_RESULTS ? nl : 1);
	else if (c->test == TEST_PAIRED_BOOTS)
		table_add(t, "paired-boots %zu pairs", c->pairs);
	else
		table_add(t, "%s %zu+%zu", test_names[c->test], nb, nl);
}

/* Every figure that could be tested: change, p and what it could see. */
static void table_tests(FILE *out, const struct cmp_label *l, size_t n, bool md,
			double alpha)
{
	struct table t = { 6, 2, 0, NULL };
	size_t i;
	int f;

	table_add(&t, "label");
	table_add(&t, "figure");
	table_add(&t, "change");
	table_add(&t, "p");
	table_add(&t, "mde");
	table_add(&t, "samples");
	for (i = 1; i < n; i++) {
		for (f = 0; f < FIG_COUNT; f++) {
			struct change c;

			if (fig_desc[f].change == CHANGE_NONE)
				continue;
			c = cmp_change(&l[0], &l[i], (enum fig)f, alpha);
			if (c.test == TEST_NONE)
				continue;
			table_add(&t, "%s", l[i].label);
			table_add(&t, "%s", fig_desc[f].name);
			add_change(&t, &c, fig_desc[f].change);
			add_p(&t, c.p);
			if (isnan(c.mde_pct))
				table_add(&t, "-");
			else
				table_add(&t, "%.2f%%", c.mde_pct);
			add_samples(&t, &c, &l[0], &l[i], f);
		}
	}
	if (t.n == t.cols) {
		table_release(&t);
		return;
	}
	fprintf(out,
		"\nTests (Welch's t-test; paired: a one-sample t-test of the "
		"pairs' differences; * p < %g; mde: the smallest change it "
		"sees with %.0f%% power):\n",
		alpha, CMP_POWER * 100);
	if (md)
		fputc('\n', out);
	table_print(out, &t, md);
}

/* The verdicts: a line each (a Markdown list item), notes under it. */
/* A note line: "  NOTE" under a verdict, or "- NOTE" alone (Markdown). */
static void put_note(FILE *out, const char *note, bool md, bool under)
{
	if (under)
		fputs(md ? "  - " : "  ", out);
	else if (md)
		fputs("- ", out);
	(md ? md_cell_write : text_write)(out, note);
	fputc('\n', out);
}

static void setup_within_note(void *ctx, const struct cmp_setup_diff *d)
{
	struct cmp_notes *no = ctx;
	char *s;

	if (d->la != d->lb)
		return;
	s = cmp_setup_text(d);
	cmp_notes_add(no, "%s", s);
	free(s);
}

static void report_verdicts(FILE *out, const struct cmp_label *l, size_t n,
			    bool md, double alpha)
{
	struct cmp_notes no = { 0, NULL };
	size_t i, k;

	for (i = 1; i < n; i++) {
		char *v;

		if (!l[0].has_run || !l[i].has_run)
			continue;
		v = cmp_verdict(&l[0], &l[i], alpha);
		cmp_verdict_notes(&l[0], &l[i], &no);
		put_note(out, v, md, false);
		for (k = 0; k < no.n; k++)
			put_note(out, no.line[k], md, true);
		cmp_notes_release(&no);
		free(v);
	}
	if (cmp_spread_note(l, n)) {
		fputs(md ? "\n" : "", out);
		(md ? md_cell_write : text_write)(out, cmp_spread_note(l, n));
		fputc('\n', out);
	}
	/* Results of one label that ran differently, and busy hosts: once. */
	for (i = 0; i < n; i++) {
		cmp_setup_each(&l[i], &l[i], setup_within_note, &no);
		cmp_host_notes(&l[i], &no);
	}
	for (k = 0; k < no.n; k++)
		put_note(out, no.line[k], md, false);
	cmp_notes_release(&no);
	if (n > 1 || k)
		fputc('\n', out);
}

/* Mean of the cpu_pct of G's runs that have one; NaN if none do. */
static double sb_cpu(const struct sb_group *g)
{
	struct stats s;
	size_t i;

	stats_init(&s);
	for (i = 0; i < g->n; i++)
		if (!isnan(g->cpu[i]))
			stats_add(&s, g->cpu[i]);
	return s.n ? s.mean : NAN;
}

struct cmp_sb_row cmp_sb_row_of(const struct cmp_label *base,
				const struct sb_group *g, double alpha)
{
	struct cmp_sb_row row;

	row.mean = stats_mean_of(g->rate, g->n);
	row.sd = g->n >= 2 ? stats_stddev_of(g->rate, g->n) : NAN;
	row.ci99 = stats_ci_of(g->rate, g->n, 0.99).half;
	row.cpu = sb_cpu(g);
	row.change = cmp_sb_change(base, g, alpha);
	return row;
}

bool cmp_has_seqbench(const struct cmp_label *l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (l[i].n_sb)
			return true;
	return false;
}

size_t cmp_sb_each(const struct cmp_label *l, size_t n, double alpha,
		   cmp_sb_row_fn *fn, void *ctx)
{
	struct sb_group *keys = NULL;
	size_t nk = 0, k, i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < l[i].n_sb; j++) {
			keys = xreallocarray(keys, nk + 1, sizeof(*keys));
			keys[nk++] = l[i].sb[j];
		}
	}
	if (nk > 1)
		qsort(keys, nk, sizeof(*keys), cmp_sb_order);
	for (k = 0, j = 0; k < nk; k++) {
		if (k && !cmp_sb_order(&keys[k - 1], &keys[k]))
			continue;
		j++;
		for (i = 0; i < n; i++) {
			const struct sb_group *g =
				cmp_sb_find(l[i].sb, l[i].n_sb, &keys[k]);
			struct cmp_sb_row row;

			if (!g)
				continue;
			row = cmp_sb_row_of(&l[0], g, alpha);
			fn(ctx, &l[i], i, g, &row);
		}
	}
	free(keys);
	return j;
}

static void sb_table_row(void *ctx, const struct cmp_label *l, size_t i,
			 const struct sb_group *g, const struct cmp_sb_row *row)
{
	struct table *t = ctx;
	char ph[SB_PHASE_TEXT];

	table_add(t, "%s", l->label);
	table_add(t, "%s", cmp_sb_phase(g, ph));
	table_add(t, "%g", g->size_mib);
	table_add(t, "%g", g->block_bytes);
	table_add(t, "%g", g->threads);
	table_add(t, "%zu", g->n);
	add_num(t, row->mean, 2);
	add_num(t, row->sd, 2);
	add_num(t, row->ci99, 2);
	add_num(t, row->cpu, 1);
	if (i)
		add_change(t, &row->change, CHANGE_PCT);
	else
		table_add(t, "-");
}

static void table_seqbench(FILE *out, const struct cmp_label *l, size_t n,
			   bool md, double alpha)
{
	static const char *const heads[] = {
		"label",      "phase",	"size_mib", "block", "threads", "runs",
		"rate_mib_s", "stddev", "ci99",	    "cpu%",  "change",
	};
	struct table t = { sizeof(heads) / sizeof(heads[0]), 2, 0, NULL };
	size_t i;

	if (!cmp_has_seqbench(l, n))
		return;
	for (i = 0; i < t.cols; i++)
		table_add(&t, "%s", heads[i]);
	cmp_sb_each(l, n, alpha, sb_table_row, &t);
	fputs("\nseqbench (rate over runs, 99% confidence interval, "
	      "change against ",
	      out);
	(md ? md_cell_write : text_write)(out, l[0].label);
	fputs("):\n", out);
	if (md)
		fputc('\n', out);
	table_print(out, &t, md);
}

static void rb_table_row(void *ctx, const struct cmp_label *l, size_t i,
			 const struct rb_group *g, const struct cmp_rb_row *row)
{
	struct table *t = ctx;
	int f;

	table_add(t, "%s", l->label);
	table_add(t, "%s", g->config);
	table_add(t, "%zu", g->runs);
	for (f = 0; f < RBF_COUNT; f++) {
		add_num(t, row->mean[f], f == RBF_RATE ? 1 : 3);
		if (f == RBF_RATE)
			add_num(t, row->sd[f], 1);
		if (i)
			add_change(t, &row->change[f], CHANGE_PCT);
		else
			table_add(t, "-");
	}
}

static void table_ringbench(FILE *out, const struct cmp_label *l, size_t n,
			    bool md, double alpha)
{
	static const char *const heads[] = {
		"label",  "config", "runs",   "rate/s", "stddev", "change",
		"us/cyc", "change", "p50_us", "change", "p99_us", "change",
	};
	struct table t = { sizeof(heads) / sizeof(heads[0]), 3, 0, NULL };
	size_t i;

	if (!cmp_has_ringbench(l, n))
		return;
	for (i = 0; i < t.cols; i++)
		table_add(&t, "%s", heads[i]);
	cmp_rb_each(l, n, alpha, rb_table_row, &t);
	fputs("\nringbench (over runs; rate: cycles or transactions per "
	      "second; change against ",
	      out);
	(md ? md_cell_write : text_write)(out, l[0].label);
	fputs(", * significant):\n", out);
	if (md)
		fputc('\n', out);
	table_print(out, &t, md);
}

static void report_table(FILE *out, const struct cmp_label *l, size_t n,
			 const struct cmp_options *o, bool md)
{
	size_t i;
	bool runs = false;

	for (i = 0; i < n; i++)
		runs |= l[i].has_run;
	if (runs) {
		report_verdicts(out, l, n, md, o->alpha);
		table_values(out, l, n, md);
		if (cmp_has_ho(l, n))
			table_high_order(out, l, n, md, o->alpha);
		table_kernel(out, l, n, md);
		table_cpu(out, l, n, md, o->alpha);
		if (n > 1) {
			table_changes(out, l, n, md, o->alpha);
			table_tests(out, l, n, md, o->alpha);
		}
		fputs("\nTimes in seconds. cv%: spread of the runs within a "
		      "result; between%: of the\nresult means of a label. "
		      "ci95, ci99: half width of the confidence interval\n"
		      "of the mean elapsed time. p99, max, stalls: gaps of ",
		      out);
		(md ? md_cell_write : text_write)(out, o->workload);
		fputs(".\n", out);
	}
	table_seqbench(out, l, n, md, o->alpha);
	table_ringbench(out, l, n, md, o->alpha);
}

/* A count as the 2009 lines print it: whole, or one decimal for a mean. */
static void put_count(FILE *out, double v)
{
	if (isnan(v))
		fputs("-", out);
	else
		fprintf(out, v == floor(v) ? "%.0f" : "%.1f", v);
}

static void report_2009(FILE *out, const struct cmp_label *l, size_t n,
			double alpha)
{
	char mmss[32];
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct figure *f = l[i].fig;

		if (!l[i].has_run)
			continue;
		text_write(out, l[i].label);
		fprintf(out, " Elapsed:%s",
			fmt_mmss(mmss, f[FIG_ELAPSED].value));
		if (isnan(f[FIG_STDDEV].value))
			fputs("(stddev:-)", out);
		else
			fprintf(out, "(stddev:%.3f)", f[FIG_STDDEV].value);
		fputs(" Failures:", out);
		put_count(out, f[FIG_FAILURES].value);
		fputc('\n', out);
		/* Then summary.txt's line 2, where any result probed. */
		if (cmp_has_ho(l, n)) {
			text_write(out, l[i].label);
			cmp_ho_line(out, &l[i]);
		}
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < l[i].n_sb; j++) {
			const struct sb_group *g = &l[i].sb[j];
			struct cmp_sb_row row = cmp_sb_row_of(&l[0], g, alpha);
			char ph[SB_PHASE_TEXT];

			text_write(out, l[i].label);
			fprintf(out,
				" %s Size:%gMiB Block:%g Threads:%g "
				"Rate:%.2f(stddev:%.2f) MiB/s\n",
				cmp_sb_phase(g, ph), g->size_mib,
				g->block_bytes, g->threads, row.mean,
				isnan(row.sd) ? 0.0 : row.sd);
		}
	}
}

void cmp_report(FILE *f, enum cmp_format fmt, const struct cmp_label *l,
		size_t n, const struct cmp_options *o,
		const struct run_info *ri)
{
	switch (fmt) {
	case CMP_2009:
		report_2009(f, l, n, o->alpha);
		break;
	case CMP_TEXT:
	case CMP_MARKDOWN:
		report_table(f, l, n, o, fmt == CMP_MARKDOWN);
		break;
	case CMP_CSV:
		cmp_report_csv(f, l, n, o->alpha);
		break;
	case CMP_JSON:
		cmp_report_json(f, l, n, o, ri);
		break;
	case CMP_LAVA:
		cmp_report_lava(f, l, n);
		break;
	case CMP_KCIDB:
		cmp_report_kcidb(f, l, n, o);
		break;
	case CMP_HTML:
		cmp_report_html(f, l, n, o, ri);
		break;
	}
}
