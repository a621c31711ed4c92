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
static void table_high_order(FILE *out, const struct cmp_comparison *cmp,
			     bool md)
{
	const struct cmp_label *l = cmp->labels;
	double alpha = cmp->o->alpha;
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
	for (i = 0; i < cmp->n; i++) {
		for (k = 0; k < l[i].n_ho; k++) {
			const struct cmp_ho *h = &l[i].ho[k];
			const struct cmp_ho_change c = cmp->e[i].ho[k].c;
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

static void table_kernel(FILE *out, const struct cmp_comparison *c, bool md)
{
	struct table t = { 1 + FIG_CPU_FIRST - FIG_KERNEL_FIRST, 1, 0, NULL };
	const struct cmp_label *l = c->labels;
	size_t i, n = c->n;
	int f;

	if (!c->has_kernel)
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

/* The block layer's figures (latency-block), where a label has them. */
static void table_block(FILE *out, const struct cmp_comparison *c, bool md)
{
	struct table t = { 1 + FIG_COUNT - FIG_BLOCK_FIRST, 1, 0, NULL };
	const struct cmp_label *l = c->labels;
	size_t i;
	int f;

	if (!c->has_block)
		return;
	fputs("\nThe block layer (latency-block, the scratch directory's "
	      "disk), means of the results:\n",
	      out);
	if (md)
		fputc('\n', out);
	table_add(&t, "label");
	for (f = FIG_BLOCK_FIRST; f < FIG_COUNT; f++)
		table_add(&t, "%s", fig_desc[f].head);
	for (i = 0; i < c->n; i++) {
		table_add(&t, "%s", l[i].label);
		for (f = FIG_BLOCK_FIRST; f < FIG_COUNT; f++)
			add_value(&t, l[i].fig[f].value, (enum fig)f);
	}
	table_print(out, &t, md);
}

/*
 * The machine's speed divided out: per label the means of the time split
 * per user-CPU second and of the machine's figures, and each one's change
 * against the baseline.
 */
static void table_cpu(FILE *out, const struct cmp_comparison *c, bool md)
{
	struct table t = { 1 + 2 * (FIG_CPU_END - FIG_CPU_FIRST), 1, 0, NULL };
	const struct cmp_label *l = c->labels;
	size_t i, n = c->n;
	int f;

	if (!c->has_cpu)
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
	for (f = FIG_CPU_FIRST; f < FIG_CPU_END; f++) {
		table_add(&t, "%s", fig_desc[f].head);
		table_add(&t, "change");
	}
	for (i = 0; i < n; i++) {
		table_add(&t, "%s", l[i].label);
		for (f = FIG_CPU_FIRST; f < FIG_CPU_END; f++) {
			if (f == FIG_EPU || f == FIG_SPU || f == FIG_WPU)
				add_num(&t, l[i].fig[f].value, 4);
			else
				add_value(&t, l[i].fig[f].value, (enum fig)f);
			if (!i) {
				table_add(&t, "-");
				continue;
			}
			add_change(&t, &c->e[i].fig[f].c, CHANGE_PCT);
		}
	}
	table_print(out, &t, md);
}

static void table_changes(FILE *out, const struct cmp_comparison *cmp, bool md)
{
	struct table t = { 2 + count_heads(true), 1, 0, NULL };
	const struct cmp_label *l = cmp->labels;
	double alpha = cmp->o->alpha;
	size_t i, n = cmp->n;
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
			const struct change *c = &cmp->e[i].fig[f].c;

			if (!fig_desc[f].change_head)
				continue;
			add_change(&t, c, fig_desc[f].change);
			if (f == FIG_ELAPSED)
				add_p(&t, c->p);
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
		table_add(t, "%s %zu+%zu", cmp_test_name(c->test), nb, nl);
}

/* Every figure that could be tested: change, p and what it could see. */
static void table_tests(FILE *out, const struct cmp_comparison *cmp, bool md)
{
	struct table t = { 6, 2, 0, NULL };
	const struct cmp_label *l = cmp->labels;
	double alpha = cmp->o->alpha;
	size_t i, n = cmp->n;
	int f;

	table_add(&t, "label");
	table_add(&t, "figure");
	table_add(&t, "change");
	table_add(&t, "p");
	table_add(&t, "mde");
	table_add(&t, "samples");
	for (i = 1; i < n; i++) {
		for (f = 0; f < FIG_COUNT; f++) {
			struct change c = cmp->e[i].fig[f].c;

			if (fig_desc[f].change == CHANGE_NONE)
				continue;
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

static void report_verdicts(FILE *out, const struct cmp_comparison *c, bool md)
{
	size_t i, k;

	for (i = 1; i < c->n; i++) {
		const struct cmp_entry *e = &c->e[i];

		if (!e->judged)
			continue;
		put_note(out, e->verdict, md, false);
		for (k = 0; k < e->notes.n; k++)
			put_note(out, e->notes.line[k], md, true);
	}
	if (c->spread_note) {
		fputs(md ? "\n" : "", out);
		(md ? md_cell_write : text_write)(out, c->spread_note);
		fputc('\n', out);
	}
	/* Results of one label that ran differently, and busy hosts: once. */
	for (k = 0; k < c->notes.n; k++)
		put_note(out, c->notes.line[k], md, false);
	if (c->n > 1 || k)
		fputc('\n', out);
}

static void sb_table_row(struct table *t, const struct cmp_label *l, size_t i,
			 const struct sb_group *g, const struct cmp_sb_row *row)
{
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

static void table_seqbench(FILE *out, const struct cmp_comparison *c, bool md)
{
	const struct cmp_label *l = c->labels;
	static const char *const heads[] = {
		"label",      "phase",	"size_mib", "block", "threads", "runs",
		"rate_mib_s", "stddev", "ci99",	    "cpu%",  "change",
	};
	struct table t = { sizeof(heads) / sizeof(heads[0]), 2, 0, NULL };
	size_t i;

	if (!c->has_seqbench)
		return;
	for (i = 0; i < t.cols; i++)
		table_add(&t, "%s", heads[i]);
	for (i = 0; i < c->n_sb_rows; i++) {
		const struct cmp_row_ref *r = &c->sb_rows[i];

		sb_table_row(&t, &l[r->label], r->label, &l[r->label].sb[r->k],
			     &c->e[r->label].sb[r->k]);
	}
	fputs("\nseqbench (rate over runs, 99% confidence interval, "
	      "change against ",
	      out);
	(md ? md_cell_write : text_write)(out, l[0].label);
	fputs("):\n", out);
	if (md)
		fputc('\n', out);
	table_print(out, &t, md);
}

static void rb_table_row(struct table *t, const struct cmp_label *l, size_t i,
			 const struct rb_group *g, const struct cmp_rb_row *row)
{
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

static void table_ringbench(FILE *out, const struct cmp_comparison *c, bool md)
{
	const struct cmp_label *l = c->labels;
	static const char *const heads[] = {
		"label",  "config", "runs",   "rate/s", "stddev", "change",
		"us/cyc", "change", "p50_us", "change", "p99_us", "change",
	};
	struct table t = { sizeof(heads) / sizeof(heads[0]), 3, 0, NULL };
	size_t i;

	if (!c->has_ringbench)
		return;
	for (i = 0; i < t.cols; i++)
		table_add(&t, "%s", heads[i]);
	for (i = 0; i < c->n_rb_rows; i++) {
		const struct cmp_row_ref *r = &c->rb_rows[i];

		rb_table_row(&t, &l[r->label], r->label, &l[r->label].rb[r->k],
			     &c->e[r->label].rb[r->k]);
	}
	fputs("\nringbench (over runs; rate: cycles or transactions per "
	      "second; change against ",
	      out);
	(md ? md_cell_write : text_write)(out, l[0].label);
	fputs(", * significant):\n", out);
	if (md)
		fputc('\n', out);
	table_print(out, &t, md);
}

static void report_table(FILE *out, const struct cmp_comparison *c, bool md)
{
	if (c->has_run) {
		report_verdicts(out, c, md);
		table_values(out, c->labels, c->n, md);
		if (c->has_ho)
			table_high_order(out, c, md);
		table_kernel(out, c, md);
		table_cpu(out, c, md);
		table_block(out, c, md);
		if (c->n > 1) {
			table_changes(out, c, md);
			table_tests(out, c, md);
		}
		fputs("\nTimes in seconds. cv%: spread of the runs within a "
		      "result; between%: of the\nresult means of a label. "
		      "ci95, ci99: half width of the confidence interval\n"
		      "of the mean elapsed time. p99, max, stalls: gaps of ",
		      out);
		(md ? md_cell_write : text_write)(out, c->o->workload);
		fputs(".\n", out);
	}
	table_seqbench(out, c, md);
	table_ringbench(out, c, md);
}

/* A count as the 2009 lines print it: whole, or one decimal for a mean. */
static void put_count(FILE *out, double v)
{
	if (isnan(v))
		fputs("-", out);
	else
		fprintf(out, v == floor(v) ? "%.0f" : "%.1f", v);
}

static void report_2009(FILE *out, const struct cmp_comparison *c)
{
	const struct cmp_label *l = c->labels;
	size_t i, j, n = c->n;
	char mmss[32];

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
		if (c->has_ho) {
			text_write(out, l[i].label);
			cmp_ho_line(out, &l[i]);
		}
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < l[i].n_sb; j++) {
			const struct sb_group *g = &l[i].sb[j];
			const struct cmp_sb_row *row = &c->e[i].sb[j];
			char ph[SB_PHASE_TEXT];

			text_write(out, l[i].label);
			fprintf(out,
				" %s Size:%gMiB Block:%g Threads:%g "
				"Rate:%.2f(stddev:%.2f) MiB/s\n",
				cmp_sb_phase(g, ph), g->size_mib,
				g->block_bytes, g->threads, row->mean,
				isnan(row->sd) ? 0.0 : row->sd);
		}
	}
}

void cmp_report(FILE *f, enum cmp_format fmt, const struct cmp_comparison *c,
		const struct run_info *ri)
{
	switch (fmt) {
	case CMP_2009:
		report_2009(f, c);
		break;
	case CMP_TEXT:
	case CMP_MARKDOWN:
		report_table(f, c, fmt == CMP_MARKDOWN);
		break;
	case CMP_CSV:
		cmp_report_csv(f, c);
		break;
	case CMP_JSON:
		cmp_report_json(f, c, ri);
		break;
	case CMP_LAVA:
		cmp_report_lava(f, c);
		break;
	case CMP_KCIDB:
		cmp_report_kcidb(f, c);
		break;
	case CMP_HTML:
		cmp_report_html(f, c, ri);
		break;
	}
}
