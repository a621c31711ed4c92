// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-compare's machine-readable reports: CSV (one row per label,
 * then the ringbench, seqbench and high-order rows, each section after an
 * empty line with its own header) and JSON (the header of doc/design.md,
 * contract 4, one object per label with its changes against the baseline,
 * then the seqbench and ringbench rows).
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "lib/output.h"
#include "compare/compare.h"

/* What a paired test paired ("pairing"): null when none. */
static const char *const pairing_names[] = {
	[PAIRING_NONE] = NULL,
	[PAIRING_RUNS] = "runs",
	[PAIRING_BOOTS] = "boots",
};

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

/*
 * The change columns of figures FROM to TO.  The columns of format 1
 * come first, in their old order, so that a reader that counts columns
 * still finds them; what came later follows.
 */
static void csv_change_heads(FILE *out, int from, int to)
{
	int f;

	for (f = from; f < to; f++) {
		if (fig_desc[f].change == CHANGE_NONE)
			continue;
		fprintf(out, ",%s,%s_p,%s_significant", fig_desc[f].change_key,
			fig_desc[f].key, fig_desc[f].key);
	}
}

static void csv_heads(FILE *out, bool block)
{
	int f;

	fputs("label,partial,runs", out);
	for (f = 0; f < FIG_KERNEL_FIRST; f++)
		fprintf(out, ",%s", fig_desc[f].key);
	csv_change_heads(out, 0, FIG_KERNEL_FIRST);
	fputs(",results,between_cv_pct", out);
	for (f = FIG_KERNEL_FIRST; f < FIG_CPU_FIRST; f++)
		fprintf(out, ",%s", fig_desc[f].key);
	csv_change_heads(out, FIG_KERNEL_FIRST, FIG_CPU_FIRST);
	for (f = 0; f < FIG_CPU_FIRST; f++)
		if (fig_desc[f].change != CHANGE_NONE)
			fprintf(out, ",%s_mde_pct", fig_desc[f].key);
	fputs(",test,verdict", out);
	/* Later columns after the verdict, so the earlier keep their place. */
	for (f = FIG_CPU_FIRST; f < FIG_CPU_END; f++)
		fprintf(out, ",%s", fig_desc[f].key);
	csv_change_heads(out, FIG_CPU_FIRST, FIG_CPU_END);
	for (f = FIG_CPU_FIRST; f < FIG_CPU_END; f++)
		fprintf(out, ",%s_mde_pct", fig_desc[f].key);
	fputs(",elapsed_per_user_mean_ci_low_pct,"
	      "elapsed_per_user_mean_ci_high_pct,paired,busier,pairing,"
	      "host_others_cpus_mean",
	      out);
	/* The block figures last, where some label has them. */
	if (block) {
		for (f = FIG_BLOCK_FIRST; f < FIG_COUNT; f++)
			fprintf(out, ",%s", fig_desc[f].key);
		csv_change_heads(out, FIG_BLOCK_FIRST, FIG_COUNT);
		for (f = FIG_BLOCK_FIRST; f < FIG_COUNT; f++)
			fprintf(out, ",%s_mde_pct", fig_desc[f].key);
	}
	fputc('\n', out);
}

static void csv_changes(FILE *out, const struct cmp_entry *e, int from, int to)
{
	int f;

	for (f = from; f < to; f++) {
		const struct change c = e->fig[f].c;

		if (fig_desc[f].change == CHANGE_NONE)
			continue;
		if (e->is_base) {
			fputs(",,,", out);
			continue;
		}
		fputc(',', out);
		csv_num(out, c.delta);
		fputc(',', out);
		csv_num(out, c.p);
		fputc(',', out);
		csv_bool(out, !isnan(c.p), c.significant);
	}
}

static void csv_values(FILE *out, const struct cmp_label *l, int from, int to)
{
	int f;

	for (f = from; f < to; f++) {
		fputc(',', out);
		csv_num(out, l->fig[f].value);
	}
}

/* The KEY_mde_pct columns of figures FROM to TO (empty for the base). */
static void csv_mdes(FILE *out, const struct cmp_entry *e, int from, int to)
{
	int f;

	for (f = from; f < to; f++) {
		if (fig_desc[f].change == CHANGE_NONE)
			continue;
		fputc(',', out);
		if (!e->is_base)
			csv_num(out, e->fig[f].c.mde_pct);
	}
}

static void csv_row(FILE *out, const struct cmp_entry *e, bool block)
{
	const struct cmp_label *l = e->l;
	struct change u = CHANGE_UNTESTED;
	const struct change *c = e->is_base ? &u : &e->fig[FIG_ELAPSED].c;

	csv_field(out, l->label, ',');
	fprintf(out, "%s,%zu", l->partial ? "true" : "false", l->runs);
	csv_values(out, l, 0, FIG_KERNEL_FIRST);
	csv_changes(out, e, 0, FIG_KERNEL_FIRST);
	fprintf(out, ",%zu,", l->n);
	csv_num(out, l->between_cv);
	csv_values(out, l, FIG_KERNEL_FIRST, FIG_CPU_FIRST);
	csv_changes(out, e, FIG_KERNEL_FIRST, FIG_CPU_FIRST);
	csv_mdes(out, e, 0, FIG_CPU_FIRST);
	fprintf(out, ",%s,",
		cmp_test_name(c->test) ? cmp_test_name(c->test) : "");
	if (e->verdict)
		csv_field(out, e->verdict, ',');
	else
		fputc(',', out);
	/* The verdict's separator is written: the first one without. */
	csv_num(out, l->fig[FIG_CPU_FIRST].value);
	csv_values(out, l, FIG_CPU_FIRST + 1, FIG_CPU_END);
	csv_changes(out, e, FIG_CPU_FIRST, FIG_CPU_END);
	csv_mdes(out, e, FIG_CPU_FIRST, FIG_CPU_END);
	c = e->is_base ? &u : &e->fig[FIG_EPU].c;
	fputc(',', out);
	csv_num(out, c->ci_lo);
	fputc(',', out);
	csv_num(out, c->ci_hi);
	fputc(',', out);
	csv_bool(out, !e->is_base, e->pairing != PAIRING_NONE);
	fputc(',', out);
	if (e->busier)
		csv_field(out, e->busier->label, ',');
	else
		fputc(',', out);
	fprintf(out, "%s,",
		pairing_names[e->pairing] ? pairing_names[e->pairing] : "");
	csv_num(out, l->host_others_cpus);
	if (block) {
		csv_values(out, l, FIG_BLOCK_FIRST, FIG_COUNT);
		csv_changes(out, e, FIG_BLOCK_FIRST, FIG_COUNT);
		csv_mdes(out, e, FIG_BLOCK_FIRST, FIG_COUNT);
	}
	fputc('\n', out);
}

static void sb_csv_row(FILE *out, const struct cmp_label *l, size_t i,
		       const struct sb_group *g, const struct cmp_sb_row *row)
{
	char ph[SB_PHASE_TEXT];

	csv_field(out, l->label, ',');
	fprintf(out, "%s,%g,%g,%g,%zu,", cmp_sb_phase(g, ph), g->size_mib,
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
	fputc(',', out);
	csv_num(out, i ? row->change.mde_pct : NAN);
	fputc('\n', out);
}

static void rb_csv_row(FILE *out, const struct cmp_label *l, size_t i,
		       const struct rb_group *g, const struct cmp_rb_row *row)
{
	int f;

	csv_field(out, l->label, ',');
	csv_field(out, g->config, ',');
	fprintf(out, "%zu", g->runs);
	for (f = 0; f < RBF_COUNT; f++) {
		const struct change *c = &row->change[f];

		fputc(',', out);
		csv_num(out, row->mean[f]);
		fputc(',', out);
		csv_num(out, row->sd[f]);
		fputc(',', out);
		csv_num(out, i ? c->delta : NAN);
		fputc(',', out);
		csv_num(out, i ? c->p : NAN);
		fputc(',', out);
		csv_bool(out, i && !isnan(c->p), c->significant);
		fputc(',', out);
		csv_num(out, i ? c->mde_pct : NAN);
	}
	fputc('\n', out);
}

static void rb_csv(FILE *out, const struct cmp_comparison *c)
{
	const struct cmp_label *l = c->labels;
	size_t i;
	int f;

	if (!c->has_ringbench)
		return;
	fputs("\nlabel,config,runs", out);
	for (f = 0; f < RBF_COUNT; f++)
		fprintf(out,
			",%s_mean,%s_stddev,%s_change_pct,%s_p,%s_significant,"
			"%s_mde_pct",
			rb_fig_name[f], rb_fig_name[f], rb_fig_name[f],
			rb_fig_name[f], rb_fig_name[f], rb_fig_name[f]);
	fputc('\n', out);
	for (i = 0; i < c->n_rb_rows; i++) {
		const struct cmp_row_ref *r = &c->rb_rows[i];

		rb_csv_row(out, &l[r->label], r->label, &l[r->label].rb[r->k],
			   &c->e[r->label].rb[r->k]);
	}
}

/*
 * The high-order rows, the names of the JSON report's high_order list:
 * one per label and order, the change columns empty for the baseline and
 * for an order it did not probe.
 */
static void ho_csv(FILE *out, const struct cmp_comparison *cmp)
{
	const struct cmp_label *l = cmp->labels;
	size_t i, k;

	if (!cmp->has_ho)
		return;
	fputs("\nlabel,order,attempts,successes,success_pct,fault_p99_us,"
	      "change_pp,p,significant,mde_pp,test,runs_attempts,"
	      "runs_successes\n",
	      out);
	for (i = 0; i < cmp->n; i++) {
		for (k = 0; k < l[i].n_ho; k++) {
			const struct cmp_ho *h = &l[i].ho[k];
			const struct cmp_ho_change c = cmp->e[i].ho[k].c;
			uint64_t ra, rs;

			csv_field(out, l[i].label, ',');
			fprintf(out, "%u,%llu,%llu,", h->order,
				(unsigned long long)h->attempts,
				(unsigned long long)h->successes);
			csv_num(out, cmp_ho_pct(h));
			fputc(',', out);
			csv_num(out, cmp_ho_fault_p99(h));
			fputc(',', out);
			csv_num(out, c.diff_pp);
			fputc(',', out);
			csv_num(out, c.p);
			fputc(',', out);
			csv_bool(out, c.tested, c.significant);
			fputc(',', out);
			csv_num(out, c.mde_pp);
			fputs(!c.tested	    ? ","
			      : c.by_result ? ",clustered-results"
			      : c.clustered ? ",clustered"
					    : ",binomial",
			      out);
			if (cmp_ho_runs(h, &ra, &rs))
				fprintf(out, ",%llu,%llu\n",
					(unsigned long long)ra,
					(unsigned long long)rs);
			else
				fputs(",,\n", out);
		}
	}
}

void cmp_report_csv(FILE *out, const struct cmp_comparison *c)
{
	const struct cmp_label *l = c->labels;
	size_t i;

	csv_heads(out, c->has_block);
	for (i = 0; i < c->n; i++)
		csv_row(out, &c->e[i], c->has_block);
	rb_csv(out, c);
	if (c->has_seqbench) {
		fputs("\nlabel,phase,size_mib,block_bytes,threads,runs,"
		      "rate_mib_s_mean,rate_mib_s_stddev,"
		      "rate_mib_s_ci99_half,cpu_pct_mean,rate_change_pct,"
		      "rate_p,rate_significant,rate_mde_pct\n",
		      out);
		for (i = 0; i < c->n_sb_rows; i++) {
			const struct cmp_row_ref *r = &c->sb_rows[i];

			sb_csv_row(out, &l[r->label], r->label,
				   &l[r->label].sb[r->k],
				   &c->e[r->label].sb[r->k]);
		}
	}
	/* Last, so that the sections before keep their places. */
	ho_csv(out, c);
}

static void json_key_of(char *key, size_t len, int f, const char *suffix)
{
	snprintf(key, len, "%s%s", fig_desc[f].key, suffix);
}

static void json_change(struct json *j, const struct cmp_entry *e, bool block)
{
	const struct change *c;
	char key[96];
	size_t k;
	int f;

	json_object_begin(j, "change");
	for (f = 0; f < (block ? FIG_COUNT : FIG_BLOCK_FIRST); f++) {
		if (fig_desc[f].change == CHANGE_NONE)
			continue;
		c = &e->fig[f].c;
		json_double(j, fig_desc[f].change_key, c->delta);
		json_key_of(key, sizeof(key), f, "_p");
		json_double(j, key, c->p);
		json_key_of(key, sizeof(key), f, "_significant");
		if (isnan(c->p))
			json_null(j, key);
		else
			json_bool(j, key, c->significant);
		json_key_of(key, sizeof(key), f, "_mde_pct");
		json_double(j, key, c->mde_pct);
		if (!fig_desc[f].log)
			continue;
		/* A ratio of geometric means: its interval, as % too. */
		json_key_of(key, sizeof(key), f, "_ci_low_pct");
		json_double(j, key, c->ci_lo);
		json_key_of(key, sizeof(key), f, "_ci_high_pct");
		json_double(j, key, c->ci_hi);
	}
	json_str(j, "lead", fig_desc[e->lead].name);
	json_bool(j, "paired", e->pairing != PAIRING_NONE);
	json_str(j, "pairing", pairing_names[e->pairing]);
	json_str(j, "busier", e->busier ? e->busier->label : NULL);
	json_bool(j, "user_cpu_differs", e->user_cpu_differs);
	c = &e->fig[FIG_ELAPSED].c;
	json_str(j, "test", cmp_test_name(c->test));
	/* Each pair of boots differs by the spread between boots too. */
	json_bool(j, "between_spread_known",
		  c->test == TEST_RESULTS || c->test == TEST_SPREAD ||
			  c->test == TEST_PAIRED_BOOTS);
	json_bool(j, "pressure_differs", e->pressure_differs);
	/* Elapsed at alpha; the others as the headline names them. */
	json_array_begin(j, "changed");
	for (k = 0; k < e->n_changed_names; k++)
		json_str(j, NULL, e->changed_names[k]);
	json_array_end(j);
	json_u64(j, "changed_tests", e->changed.tests);
	if (e->verdict)
		json_str(j, "verdict", e->verdict);
	else
		json_null(j, "verdict");
	json_object_end(j);
}

static void json_pressure(struct json *j, const struct cmp_pressure *p)
{
	if (!p->known) {
		json_null(j, "pressure");
		return;
	}
	json_object_begin(j, "pressure");
	json_str(j, "mode", p->mode);
	json_double(j, "ratio", p->ratio);
	json_double(j, "footprint_bytes", p->footprint);
	json_double(j, "memory_bytes", p->memory);
	json_object_end(j);
}

static void json_label(struct json *j, const struct cmp_entry *e, bool block)
{
	const struct cmp_label *l = e->l;
	size_t k, i;
	int f;

	json_object_begin(j, NULL);
	json_str(j, "label", l->label);
	json_str(j, "path", l->r[0]->path);
	json_bool(j, "partial", l->partial);
	json_u64(j, "runs", l->runs);
	json_array_begin(j, "elapsed_s");
	for (i = 0; i < l->n; i++) {
		const struct figure *el = &l->r[i]->fig[FIG_ELAPSED];

		for (k = 0; k < el->n; k++)
			json_double(j, NULL, el->samples[k]);
	}
	json_array_end(j);
	for (f = 0; f < (block ? FIG_COUNT : FIG_BLOCK_FIRST); f++)
		json_double(j, fig_desc[f].key, l->fig[f].value);
	json_u64(j, "results", l->n);
	json_double(j, "between_cv_pct", l->between_cv);
	json_array_begin(j, "paths");
	for (i = 0; i < l->n; i++)
		json_str(j, NULL, l->r[i]->path);
	json_array_end(j);
	json_array_begin(j, "run_labels");
	for (i = 0; i < l->n; i++)
		json_str(j, NULL, l->r[i]->run_label);
	json_array_end(j);
	json_array_begin(j, "result_elapsed_mean_s");
	for (i = 0; i < l->n; i++)
		json_double(j, NULL, l->r[i]->fig[FIG_ELAPSED].value);
	json_array_end(j);
	/* The latency-vm host's load: the label's, and each result's. */
	json_double(j, "host_others_cpus_mean", l->host_others_cpus);
	json_array_begin(j, "result_host_others_cpus");
	for (i = 0; i < l->n; i++)
		json_double(j, NULL,
			    l->r[i]->host.on ? l->r[i]->host.others_cpus : NAN);
	json_array_end(j);
	json_pressure(j, &l->r[0]->pressure);
	cmp_setup_json(j, &e->setup);
	cmp_ho_json(j, e);
	if (!e->is_base)
		json_change(j, e, block);
	json_object_end(j);
}

static void sb_json_row(struct json *j, const struct cmp_label *l, size_t i,
			const struct sb_group *g, const struct cmp_sb_row *row)
{
	json_object_begin(j, NULL);
	json_str(j, "label", l->label);
	json_str(j, "phase", sb_phase_name[g->phase]);
	if (g->readahead_kb >= 0)
		json_double(j, "readahead_kb", g->readahead_kb);
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
		json_double(j, "rate_mde_pct", row->change.mde_pct);
	}
	json_object_end(j);
}

static void rb_json_row(struct json *j, const struct cmp_label *l, size_t i,
			const struct rb_group *g, const struct cmp_rb_row *row)
{
	int f;

	json_object_begin(j, NULL);
	json_str(j, "label", l->label);
	json_str(j, "config", g->config);
	json_u64(j, "runs", g->runs);
	for (f = 0; f < RBF_COUNT; f++) {
		const struct change *c = &row->change[f];

		json_object_begin(j, rb_fig_name[f]);
		json_double(j, "mean", row->mean[f]);
		json_double(j, "stddev", row->sd[f]);
		if (i) {
			json_double(j, "change_pct", c->delta);
			json_double(j, "p", c->p);
			if (isnan(c->p))
				json_null(j, "significant");
			else
				json_bool(j, "significant", c->significant);
			json_double(j, "mde_pct", c->mde_pct);
		}
		json_object_end(j);
	}
	json_object_end(j);
}

void cmp_report_json(FILE *out, const struct cmp_comparison *c,
		     const struct run_info *ri)
{
	const struct cmp_label *l = c->labels;
	const struct cmp_row_ref *r;
	struct json j;
	size_t i;

	json_init(&j, out, true);
	json_object_begin(&j, NULL);
	json_run_header(&j, ri);
	json_str(&j, "baseline", l[0].label);
	json_str(&j, "workload", c->o->workload);
	json_double(&j, "alpha", c->o->alpha);
	json_double(&j, "power", CMP_POWER);
	json_array_begin(&j, "results");
	for (i = 0; i < c->n; i++)
		json_label(&j, &c->e[i], c->has_block);
	json_array_end(&j);
	json_array_begin(&j, "seqbench");
	for (i = 0; i < c->n_sb_rows; i++) {
		r = &c->sb_rows[i];
		sb_json_row(&j, &l[r->label], r->label, &l[r->label].sb[r->k],
			    &c->e[r->label].sb[r->k]);
	}
	json_array_end(&j);
	/* Only when there are some: older consumers' output stays the same. */
	if (c->has_ringbench) {
		json_array_begin(&j, "ringbench");
		for (i = 0; i < c->n_rb_rows; i++) {
			r = &c->rb_rows[i];
			rb_json_row(&j, &l[r->label], r->label,
				    &l[r->label].rb[r->k],
				    &c->e[r->label].rb[r->k]);
		}
		json_array_end(&j);
	}
	json_object_end(&j);
	json_finish(&j);
}
