// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-compare's report writers: the 2009 one-line form, an aligned
 * text table for mail, Markdown (the same tables), CSV and JSON (contract 4
 * header plus one row per label).  The text and Markdown tables are built
 * as a grid of cells first, so column widths fit the longest cell.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/output.h"
#include "lib/stats.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "scripts/compare.h"

static const char *const format_names[] = {
	[CMP_2009] = "2009", [CMP_TEXT] = "text",	  [CMP_CSV] = "csv",
	[CMP_JSON] = "json", [CMP_MARKDOWN] = "markdown",
};

int cmp_format_parse(const char *s, enum cmp_format *f)
{
	size_t i;

	for (i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
		if (!strcmp(s, format_names[i])) {
			*f = (enum cmp_format)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* A grid of cells, filled row by row. */
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
		die(EXIT_RUN_FAILED, "out of memory");
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

/* Markdown cells: a '|' would end the cell and a '*' start emphasis. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '*' || *s == '\\' || *s == '_')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/*
 * Text: the leading LEFT columns left-aligned (names), the others
 * right-aligned (numbers), two spaces apart, no trailing blanks.  Markdown: a pipe table whose numeric
 * columns are right-aligned.
 */
static void table_print(FILE *f, struct table *t, bool markdown)
{
	size_t *w = xcalloc(t->cols, sizeof(*w));
	size_t i, c;

	for (i = 0; i < t->n; i++) {
		size_t len = strlen(t->cell[i]);

		if (len > w[i % t->cols])
			w[i % t->cols] = len;
	}
	for (i = 0; i < t->n; i++) {
		c = i % t->cols;
		if (markdown) {
			fputs(c ? " | " : "| ", f);
			md_cell(f, t->cell[i]);
		} else {
			fputs(c ? "  " : "", f);
			fprintf(f, c < t->left ? "%-*s" : "%*s",
				c + 1 < t->cols || c >= t->left ? (int)w[c] : 0,
				t->cell[i]);
		}
		if (c + 1 < t->cols)
			continue;
		fputs(markdown ? " |\n" : "\n", f);
		if (markdown && i + 1 == t->cols) {
			for (c = 0; c < t->cols; c++)
				fputs(c < t->left ? (c ? " | ---" : "| ---")
						  : " | ---:",
				      f);
			fputs(" |\n", f);
		}
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

static size_t count_heads(bool change)
{
	size_t n = 0;
	int f;

	for (f = 0; f < FIG_COUNT; f++)
		n += (change ? fig_desc[f].change_head : fig_desc[f].head) != 0;
	return n;
}

static void table_values(FILE *out, const struct cmp_result *r, size_t n,
			 bool md)
{
	struct table t = { 2 + count_heads(false), 1, 0, NULL };
	size_t i;
	int f;

	table_add(&t, "label");
	table_add(&t, "runs");
	for (f = 0; f < FIG_COUNT; f++)
		if (fig_desc[f].head)
			table_add(&t, "%s", fig_desc[f].head);
	for (i = 0; i < n; i++) {
		table_add(&t, "%s%s", r[i].label,
			  r[i].partial ? " [partial]" : "");
		if (r[i].has_run)
			table_add(&t, "%zu", r[i].fig[FIG_ELAPSED].n);
		else
			table_add(&t, "-");
		for (f = 0; f < FIG_COUNT; f++)
			if (fig_desc[f].head)
				add_value(&t, r[i].fig[f].value, (enum fig)f);
	}
	table_print(out, &t, md);
}

static void table_changes(FILE *out, const struct cmp_result *r, size_t n,
			  bool md, double alpha)
{
	struct table t = { 2 + count_heads(true), 1, 0, NULL };
	size_t i;
	int f;

	fprintf(out,
		"\nChange against %s (* significant, Welch's t-test, p < "
		"%g):\n",
		r[0].label, alpha);
	if (md)
		fputc('\n', out);
	table_add(&t, "label");
	for (f = 0; f < FIG_COUNT; f++) {
		if (!fig_desc[f].change_head)
			continue;
		table_add(&t, "%s", fig_desc[f].change_head);
		if (f == FIG_ELAPSED)
			table_add(&t, "p");
	}
	for (i = 1; i < n; i++) {
		table_add(&t, "%s", r[i].label);
		for (f = 0; f < FIG_COUNT; f++) {
			struct change c;

			if (!fig_desc[f].change_head)
				continue;
			c = cmp_change(&r[0], &r[i], (enum fig)f, alpha);
			add_change(&t, &c, fig_desc[f].change);
			if (f == FIG_ELAPSED)
				add_p(&t, c.p);
		}
	}
	table_print(out, &t, md);
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

struct sb_row {
	double mean, sd, ci99, cpu;
	struct change change;
};

static struct sb_row sb_row_of(const struct cmp_result *base,
			       const struct sb_group *g, double alpha)
{
	struct sb_row row;

	row.mean = stats_mean_of(g->rate, g->n);
	row.sd = g->n >= 2 ? stats_stddev_of(g->rate, g->n) : NAN;
	row.ci99 = stats_ci_of(g->rate, g->n, 0.99).half;
	row.cpu = sb_cpu(g);
	row.change = cmp_sb_change(base, g, alpha);
	return row;
}

static bool has_seqbench(const struct cmp_result *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (r[i].n_sb)
			return true;
	return false;
}

/* What a seqbench row writer gets: the result, its index, the row. */
typedef void sb_row_fn(void *ctx, const struct cmp_result *r, size_t i,
		       const struct sb_group *g, const struct sb_row *row);

/*
 * Call FN for every seqbench configuration found in any result, in the
 * order of cmp_sb_order(), and within one for each result that has it.
 * Returns the number of configurations.
 */
static size_t sb_each(const struct cmp_result *r, size_t n, double alpha,
		      sb_row_fn *fn, void *ctx)
{
	struct sb_group *keys = NULL;
	size_t nk = 0, k, i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < r[i].n_sb; j++) {
			keys = xreallocarray(keys, nk + 1, sizeof(*keys));
			keys[nk++] = r[i].sb[j];
		}
	}
	if (nk > 1)
		qsort(keys, nk, sizeof(*keys), cmp_sb_order);
	for (k = 0, j = 0; k < nk; k++) {
		if (k && !cmp_sb_order(&keys[k - 1], &keys[k]))
			continue;
		j++;
		for (i = 0; i < n; i++) {
			const struct sb_group *g = cmp_sb_find(&r[i], &keys[k]);
			struct sb_row row;

			if (!g)
				continue;
			row = sb_row_of(&r[0], g, alpha);
			fn(ctx, &r[i], i, g, &row);
		}
	}
	free(keys);
	return j;
}

static void add_num(struct table *t, double v, int decimals)
{
	if (isnan(v))
		table_add(t, "-");
	else
		table_add(t, "%.*f", decimals, v);
}

static void sb_table_row(void *ctx, const struct cmp_result *r, size_t i,
			 const struct sb_group *g, const struct sb_row *row)
{
	struct table *t = ctx;

	table_add(t, "%s", r->label);
	table_add(t, "%s", sb_phase_name[g->phase]);
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

static void table_seqbench(FILE *out, const struct cmp_result *r, size_t n,
			   bool md, double alpha)
{
	static const char *const heads[] = {
		"label",      "phase",	"size_mib", "block", "threads", "runs",
		"rate_mib_s", "stddev", "ci99",	    "cpu%",  "change",
	};
	struct table t = { sizeof(heads) / sizeof(heads[0]), 2, 0, NULL };
	size_t i;

	if (!has_seqbench(r, n))
		return;
	for (i = 0; i < t.cols; i++)
		table_add(&t, "%s", heads[i]);
	sb_each(r, n, alpha, sb_table_row, &t);
	fprintf(out,
		"\nseqbench (rate over runs, 99%% confidence interval, "
		"change against %s):\n",
		r[0].label);
	if (md)
		fputc('\n', out);
	table_print(out, &t, md);
}

static void report_table(FILE *out, const struct cmp_result *r, size_t n,
			 const struct cmp_options *o, bool md)
{
	size_t i;
	bool runs = false;

	for (i = 0; i < n; i++)
		runs |= r[i].has_run;
	if (runs) {
		table_values(out, r, n, md);
		if (n > 1)
			table_changes(out, r, n, md, o->alpha);
		fprintf(out,
			"\nTimes in seconds. ci95, ci99: half width of the "
			"confidence interval of the mean\nelapsed time. p99, "
			"max, stalls: gaps of %s.\n",
			o->workload);
	}
	table_seqbench(out, r, n, md, o->alpha);
}

static void report_2009(FILE *out, const struct cmp_result *r, size_t n,
			double alpha)
{
	char mmss[32];
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct figure *f = r[i].fig;

		if (!r[i].has_run)
			continue;
		fprintf(out, "%s Elapsed:%s", r[i].label,
			fmt_mmss(mmss, f[FIG_ELAPSED].value));
		if (isnan(f[FIG_STDDEV].value))
			fputs("(stddev:-)", out);
		else
			fprintf(out, "(stddev:%.3f)", f[FIG_STDDEV].value);
		if (isnan(f[FIG_FAILURES].value))
			fputs(" Failures:-\n", out);
		else
			fprintf(out, " Failures:%.0f\n", f[FIG_FAILURES].value);
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < r[i].n_sb; j++) {
			const struct sb_group *g = &r[i].sb[j];
			struct sb_row row = sb_row_of(&r[0], g, alpha);

			fprintf(out,
				"%s %s Size:%gMiB Block:%g Threads:%g "
				"Rate:%.2f(stddev:%.2f) MiB/s\n",
				r[i].label, sb_phase_name[g->phase],
				g->size_mib, g->block_bytes, g->threads,
				row.mean, isnan(row.sd) ? 0.0 : row.sd);
		}
	}
}

/* A number, or nothing when absent; the caller writes the separators. */
static void csv_num(FILE *out, double v)
{
	if (!isnan(v))
		fprintf(out, "%.10g", v);
}

static void csv_bool(FILE *out, bool defined, bool v)
{
	if (defined)
		fputs(v ? "true" : "false", out);
}

static void csv_change_heads(FILE *out)
{
	int f;

	for (f = 0; f < FIG_COUNT; f++) {
		if (fig_desc[f].change == CHANGE_NONE)
			continue;
		fprintf(out, ",%s,%s_p,%s_significant", fig_desc[f].change_key,
			fig_desc[f].key, fig_desc[f].key);
	}
	fputc('\n', out);
}

static void sb_csv_row(void *ctx, const struct cmp_result *r, size_t i,
		       const struct sb_group *g, const struct sb_row *row)
{
	FILE *out = ctx;

	csv_field(out, r->label, ',');
	fprintf(out, "%s,%g,%g,%g,%zu,", sb_phase_name[g->phase], g->size_mib,
		g->block_bytes, g->threads, g->n);
	csv_num(out, row->mean);
	fputc(',', out);
	csv_num(out, row->sd);
	fputc(',', out);
	csv_num(out, row->ci99);
	fputc(',', out);
	csv_num(out, row->cpu);
	fputc(',', out);
	csv_num(out, i ? row->change.delta : NAN);
	fputc(',', out);
	csv_num(out, i ? row->change.p : NAN);
	fputc(',', out);
	csv_bool(out, i && !isnan(row->change.p), row->change.significant);
	fputc('\n', out);
}

static void report_csv(FILE *out, const struct cmp_result *r, size_t n,
		       double alpha)
{
	size_t i;
	int f;

	fputs("label,partial,runs", out);
	for (f = 0; f < FIG_COUNT; f++)
		fprintf(out, ",%s", fig_desc[f].key);
	csv_change_heads(out);
	for (i = 0; i < n; i++) {
		csv_field(out, r[i].label, ',');
		fprintf(out, "%s,%zu", r[i].partial ? "true" : "false",
			r[i].fig[FIG_ELAPSED].n);
		for (f = 0; f < FIG_COUNT; f++) {
			fputc(',', out);
			csv_num(out, r[i].fig[f].value);
		}
		for (f = 0; f < FIG_COUNT; f++) {
			struct change c;

			if (fig_desc[f].change == CHANGE_NONE)
				continue;
			if (!i) {
				fputs(",,,", out);
				continue;
			}
			c = cmp_change(&r[0], &r[i], (enum fig)f, alpha);
			fputc(',', out);
			csv_num(out, c.delta);
			fputc(',', out);
			csv_num(out, c.p);
			fputc(',', out);
			csv_bool(out, !isnan(c.p), c.significant);
		}
		fputc('\n', out);
	}
	if (!has_seqbench(r, n))
		return;
	fputs("\nlabel,phase,size_mib,block_bytes,threads,runs,"
	      "rate_mib_s_mean,rate_mib_s_stddev,rate_mib_s_ci99_half,"
	      "cpu_pct_mean,rate_change_pct,rate_p,rate_significant\n",
	      out);
	sb_each(r, n, alpha, sb_csv_row, out);
}

static void json_result(struct json *j, const struct cmp_result *base,
			const struct cmp_result *r, double alpha)
{
	char key[96];
	size_t k;
	int f;

	json_object_begin(j, NULL);
	json_str(j, "label", r->label);
	json_str(j, "path", r->path);
	json_bool(j, "partial", r->partial);
	json_u64(j, "runs", r->fig[FIG_ELAPSED].n);
	json_array_begin(j, "elapsed_s");
	for (k = 0; k < r->fig[FIG_ELAPSED].n; k++)
		json_double(j, NULL, r->fig[FIG_ELAPSED].samples[k]);
	json_array_end(j);
	for (f = 0; f < FIG_COUNT; f++)
		json_double(j, fig_desc[f].key, r->fig[f].value);
	if (r != base) {
		json_object_begin(j, "change");
		for (f = 0; f < FIG_COUNT; f++) {
			struct change c;

			if (fig_desc[f].change == CHANGE_NONE)
				continue;
			c = cmp_change(base, r, (enum fig)f, alpha);
			json_double(j, fig_desc[f].change_key, c.delta);
			snprintf(key, sizeof(key), "%s_p", fig_desc[f].key);
			json_double(j, key, c.p);
			snprintf(key, sizeof(key), "%s_significant",
				 fig_desc[f].key);
			if (isnan(c.p))
				json_null(j, key);
			else
				json_bool(j, key, c.significant);
		}
		json_object_end(j);
	}
	json_object_end(j);
}

static void sb_json_row(void *ctx, const struct cmp_result *r, size_t i,
			const struct sb_group *g, const struct sb_row *row)
{
	struct json *j = ctx;

	json_object_begin(j, NULL);
	json_str(j, "label", r->label);
	json_str(j, "phase", sb_phase_name[g->phase]);
	json_double(j, "size_mib", g->size_mib);
	json_double(j, "block_bytes", g->block_bytes);
	json_double(j, "threads", g->threads);
	json_u64(j, "runs", g->n);
	json_double(j, "rate_mib_s_mean", row->mean);
	json_double(j, "rate_mib_s_stddev", row->sd);
	json_double(j, "rate_mib_s_ci99_half", row->ci99);
	json_double(j, "cpu_pct_mean", row->cpu);
	if (i) {
		json_double(j, "rate_change_pct", row->change.delta);
		json_double(j, "rate_p", row->change.p);
		if (isnan(row->change.p))
			json_null(j, "rate_significant");
		else
			json_bool(j, "rate_significant",
				  row->change.significant);
	}
	json_object_end(j);
}

static void report_json(FILE *out, const struct cmp_result *r, size_t n,
			const struct cmp_options *o, const struct run_info *ri)
{
	struct json j;
	size_t i;

	json_init(&j, out, true);
	json_object_begin(&j, NULL);
	json_run_header(&j, ri);
	json_str(&j, "baseline", r[0].label);
	json_str(&j, "workload", o->workload);
	json_double(&j, "alpha", o->alpha);
	json_array_begin(&j, "results");
	for (i = 0; i < n; i++)
		json_result(&j, &r[0], &r[i], o->alpha);
	json_array_end(&j);
	json_array_begin(&j, "seqbench");
	sb_each(r, n, o->alpha, sb_json_row, &j);
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

void cmp_report(FILE *f, enum cmp_format fmt, const struct cmp_result *r,
		size_t n, const struct cmp_options *o,
		const struct run_info *ri)
{
	switch (fmt) {
	case CMP_2009:
		report_2009(f, r, n, o->alpha);
		break;
	case CMP_TEXT:
	case CMP_MARKDOWN:
		report_table(f, r, n, o, fmt == CMP_MARKDOWN);
		break;
	case CMP_CSV:
		report_csv(f, r, n, o->alpha);
		break;
	case CMP_JSON:
		report_json(f, r, n, o, ri);
		break;
	}
}
