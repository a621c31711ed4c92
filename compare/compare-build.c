// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The comparison built once: every label against the baseline, each
 * figure's change with its test, Holm's set of changed figures, the lead
 * figure, the busier side, the pairing, the headline and its notes, the
 * setup differences, the seqbench, ringbench and high-order rows, and what
 * the fleet formats read of each result.  The writers (compare-report.c,
 * compare-data.c, compare-fleet.c, compare-plot.c) and latency-bisect
 * only read it, so every format says the same thing and nothing is tested
 * twice.  Each compared figure also gets a direction and a state (worse,
 * better, same, inconclusive; compare.h says exactly when), which the
 * current formats do not print.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json-read.h"
#include "lib/stats.h"
#include "lib/xalloc.h"
#include "compare/compare.h"

static const char *const state_names[] = {
	[CMP_UNCOMPARED] = NULL,
	[CMP_WORSE] = "worse",
	[CMP_BETTER] = "better",
	[CMP_SAME] = "same",
	[CMP_INCONCLUSIVE] = "inconclusive",
};

static const char *const need_names[] = {
	[CMP_NEED_NOTHING] = NULL,  [CMP_NEED_RUNS] = "runs",
	[CMP_NEED_BOOTS] = "boots", [CMP_NEED_PAIRS] = "pairs",
	[CMP_NEED_QUIET] = "quiet",
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

const char *cmp_state_name(enum cmp_state s)
{
	return state_names[s];
}

const char *cmp_need_name(enum cmp_need n)
{
	return need_names[n];
}

const char *cmp_direction_name(enum cmp_direction d)
{
	return d == CMP_HIGHER_BETTER ? "higher" : "lower";
}

/* The figures the headline leads with, tested at alpha alone. */
static bool is_lead(int f)
{
	return f == FIG_ELAPSED || f == FIG_EPU || f == FIG_ERPU;
}

/*
 * What would narrow the interval of change C: more of the samples its
 * test is on, or pairs where user CPU moved between unpaired sides
 * (PAIRS_HELP).  Untested: more runs where the figure is measured per run
 * on both sides (lone results, KB and KV SAMPLES_RUNS, B and V with
 * samples), else more results (a count per result: failures).
 */
static enum cmp_need need_of(const struct change *c, bool pairs_help,
			     const struct figure *b, enum cmp_samples kb,
			     const struct figure *v, enum cmp_samples kv)
{
	switch (c->test) {
	case TEST_NONE:
		if (kb == SAMPLES_RUNS && kv == SAMPLES_RUNS && b->n && v->n)
			return CMP_NEED_RUNS;
		return CMP_NEED_BOOTS;
	case TEST_RUNS:
		return pairs_help ? CMP_NEED_PAIRS : CMP_NEED_RUNS;
	case TEST_RESULTS:
	case TEST_SPREAD:
		return pairs_help ? CMP_NEED_PAIRS : CMP_NEED_BOOTS;
	case TEST_PAIRED:
	case TEST_PAIRED_BOOTS:
		return CMP_NEED_PAIRS;
	}
	return CMP_NEED_NOTHING;
}

/*
 * Change C, significant as SIGNIFICANT says, in direction DIR: its state.
 * DEFINED: both sides have the figure.  NEED as need_of().
 */
static void judge(struct cmp_judged *j, const struct change *c,
		  enum cmp_direction dir, bool significant, bool defined,
		  enum cmp_need need)
{
	j->c = *c;
	j->dir = dir;
	j->significant = significant;
	j->need = CMP_NEED_NOTHING;
	if (!defined) {
		j->state = CMP_UNCOMPARED;
		return;
	}
	if (c->test != TEST_NONE && significant && !isnan(c->delta)) {
		bool up = c->delta > 0;

		j->state = up == (dir == CMP_HIGHER_BETTER) ? CMP_BETTER
							    : CMP_WORSE;
		return;
	}
	/* The interval rules out any change the test could have seen. */
	if (c->test != TEST_NONE && !isnan(c->ci_lo) && !isnan(c->ci_hi) &&
	    !isnan(c->mde_pct) && c->ci_lo >= -c->mde_pct &&
	    c->ci_hi <= c->mde_pct) {
		j->state = CMP_SAME;
		return;
	}
	j->state = CMP_INCONCLUSIVE;
	j->need = need;
}

/*
 * Do B and V hold two samples or more each, all of one value (page
 * allocation failures 0 in every run on both sides)?  Nothing moved, yet
 * a change in percent of 0 has no interval.
 */
static bool flat(const struct figure *b, const struct figure *v)
{
	size_t i;

	if (b->n < 2 || v->n < 2 || b->value != v->value)
		return false;
	for (i = 0; i < b->n; i++)
		if (b->samples[i] != b->value)
			return false;
	for (i = 0; i < v->n; i++)
		if (v->samples[i] != v->value)
			return false;
	return true;
}

/* Every figure of E's label against BASE, judged. */
static void judge_figures(struct cmp_entry *e, const struct cmp_label *base,
			  double alpha)
{
	const struct cmp_label *l = e->l;
	bool holm[FIG_COUNT] = { false };
	size_t k;
	int f;

	for (k = 0; k < e->changed.n_fig; k++)
		holm[e->changed.fig[k]] = true;
	for (f = 0; f < FIG_COUNT; f++) {
		struct change c = CHANGE_UNTESTED;
		bool defined = fig_desc[f].change != CHANGE_NONE &&
			       f != FIG_STDDEV && f != FIG_CV &&
			       !isnan(base->fig[f].value) &&
			       !isnan(l->fig[f].value);
		bool sig;
		enum cmp_need need;

		if (fig_desc[f].change != CHANGE_NONE)
			c = cmp_change(base, l, (enum fig)f, alpha);
		sig = is_lead(f) || fig_desc[f].machine ? c.significant
							: holm[f];
		need = need_of(
			&c, e->user_cpu_differs && e->pairing == PAIRING_NONE,
			&base->fig[f], base->kind[f], &l->fig[f], l->kind[f]);
		judge(&e->fig[f], &c, CMP_LOWER_BETTER, sig, defined, need);
		if (e->fig[f].state == CMP_INCONCLUSIVE &&
		    flat(&base->fig[f], &l->fig[f])) {
			e->fig[f].state = CMP_SAME;
			e->fig[f].need = CMP_NEED_NOTHING;
		}
		/* A busier side: the lead figures are not judged. */
		if (e->busier && is_lead(f) && defined) {
			e->fig[f].state = CMP_INCONCLUSIVE;
			e->fig[f].need = CMP_NEED_QUIET;
		}
	}
}

/* The changed figures as the JSON report lists them, leads first. */
static void changed_names(struct cmp_entry *e)
{
	size_t k;

	if (e->lead == FIG_EPU && e->fig[FIG_EPU].c.significant)
		e->changed_names[e->n_changed_names++] = fig_desc[FIG_EPU].name;
	if (e->fig[FIG_ELAPSED].c.significant)
		e->changed_names[e->n_changed_names++] =
			fig_desc[FIG_ELAPSED].name;
	if (e->lead == FIG_EPU && e->without_runq &&
	    e->fig[FIG_ERPU].c.significant)
		e->changed_names[e->n_changed_names++] =
			fig_desc[FIG_ERPU].name;
	for (k = 0; k < e->changed.n_fig && e->n_changed_names < FIG_COUNT; k++)
		e->changed_names[e->n_changed_names++] =
			fig_desc[e->changed.fig[k]].name;
}

static bool pressure_differs(const struct cmp_label *base,
			     const struct cmp_label *l)
{
	size_t a, b;

	for (a = 0; a < base->n; a++)
		for (b = 0; b < l->n; b++)
			if (cmp_pressure_differs(&base->r[a]->pressure,
						 &l->r[b]->pressure))
				return true;
	return false;
}

/*
 * The high-order order H of E's label judged: its change C against the
 * baseline's as a change in points, with the z test's interval.
 */
static void judge_one_ho(struct cmp_ho_judged *h, double alpha)
{
	struct change c = CHANGE_UNTESTED;
	struct cmp_judged j;

	h->ci_lo_pp = h->ci_hi_pp = NAN;
	if (h->c.tested && !isnan(h->c.se_pp)) {
		double z = stats_normal_quantile(1 - alpha / 2);

		h->ci_lo_pp = h->c.diff_pp - z * h->c.se_pp;
		h->ci_hi_pp = h->c.diff_pp + z * h->c.se_pp;
	}
	if (h->c.tested) {
		c.delta = h->c.diff_pp;
		c.p = h->c.p;
		c.mde_pct = h->c.mde_pp;
		c.test = h->c.by_result ? TEST_RESULTS : TEST_RUNS;
		c.ci_lo = h->ci_lo_pp;
		c.ci_hi = h->ci_hi_pp;
	}
	judge(&j, &c, CMP_HIGHER_BETTER, h->significant,
	      h->c.tested || !isnan(h->c.base_pct),
	      h->c.by_result ? CMP_NEED_BOOTS : CMP_NEED_RUNS);
	h->state = j.state;
	h->need = j.need;
}

/* The high-order orders of E's label against BASE's probes. */
static void judge_ho(struct cmp_entry *e, const struct cmp_label *base,
		     double alpha)
{
	const struct cmp_label *l = e->l;
	size_t k, m;

	e->ho = xcalloc(l->n_ho ? l->n_ho : 1, sizeof(*e->ho));
	for (k = 0; k < l->n_ho; k++) {
		struct cmp_ho_judged *h = &e->ho[k];

		h->c = (struct cmp_ho_change){ .base_pct = NAN,
					       .diff_pp = NAN,
					       .p = NAN,
					       .mde_pp = NAN,
					       .se_pp = NAN };
		h->ci_lo_pp = h->ci_hi_pp = NAN;
		if (e->is_base)
			continue;
		h->c = cmp_ho_change(base, &l->ho[k], alpha);
		for (m = 0; m < e->changed.n_ho; m++)
			h->significant |=
				e->changed.ho_order[m] == l->ho[k].order;
		judge_one_ho(h, alpha);
	}
}

static void setup_collect(void *ctx, const struct cmp_setup_diff *d)
{
	struct cmp_setup_diffs *s = ctx;

	s->d = xreallocarray(s->d, s->n + 1, sizeof(*s->d));
	s->text = xreallocarray(s->text, s->n + 1, sizeof(*s->text));
	s->d[s->n] = *d;
	s->d[s->n].words = d->words ? xstrdup(d->words) : NULL;
	s->text[s->n++] = cmp_setup_text(d);
}

static void setup_release(struct cmp_setup_diffs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->d[i].words);
		free(s->text[i]);
	}
	free(s->d);
	free(s->text);
}

/* E's label against the baseline BASE (E's own when it is the base). */
static void build_entry(struct cmp_entry *e, const struct cmp_label *base,
			double alpha)
{
	const struct cmp_label *l = e->l;
	size_t j;

	for (j = 0; j < FIG_COUNT; j++)
		e->fig[j] =
			(struct cmp_judged){ CHANGE_UNTESTED, CMP_LOWER_BETTER,
					     false, CMP_UNCOMPARED,
					     CMP_NEED_NOTHING };
	e->lead = FIG_ELAPSED;
	if (!e->is_base) {
		e->lead = cmp_lead(base, l);
		e->machine_busier = cmp_machine_busier(base, l, alpha);
		e->host_busier = cmp_host_busier(base, l);
		e->busier = cmp_busier(base, l, alpha);
		e->without_runq = cmp_without_runq(base, l, alpha);
		e->user_cpu_differs =
			cmp_change(base, l, FIG_USER, alpha).significant;
		e->pressure_differs = pressure_differs(base, l);
		e->pairing = cmp_pairing(base, l);
		cmp_boot_pairs(base, l, &e->boots);
		cmp_changed_find(base, l, alpha, &e->changed);
		judge_figures(e, base, alpha);
		e->lead_changed = e->fig[e->lead].c.significant ||
				  (e->lead == FIG_EPU &&
				   e->fig[FIG_ELAPSED].c.significant);
		changed_names(e);
		e->judged = base->has_run && l->has_run;
		if (e->judged) {
			e->verdict = cmp_verdict(base, l, alpha);
			cmp_verdict_notes(base, l, &e->notes);
		}
	}
	judge_ho(e, base, alpha);
	cmp_setup_each(base, l, setup_collect, &e->setup);
}

static void sb_ref(void *ctx, const struct cmp_label *l, size_t i,
		   const struct sb_group *g, const struct cmp_sb_row *row)
{
	struct cmp_comparison *c = ctx;

	(void)row;
	c->sb_rows = xreallocarray(c->sb_rows, c->n_sb_rows + 1,
				   sizeof(*c->sb_rows));
	c->sb_rows[c->n_sb_rows++] =
		(struct cmp_row_ref){ i, (size_t)(g - l->sb) };
}

static void rb_ref(void *ctx, const struct cmp_label *l, size_t i,
		   const struct rb_group *g, const struct cmp_rb_row *row)
{
	struct cmp_comparison *c = ctx;
	struct cmp_entry *e = &c->e[i];
	size_t k = (size_t)(g - l->rb);
	int f;

	e->rb[k] = *row;
	for (f = 0; f < RBF_COUNT; f++)
		judge(&e->rb_judged[k][f], &row->change[f],
		      f == RBF_RATE ? CMP_HIGHER_BETTER : CMP_LOWER_BETTER,
		      row->change[f].significant,
		      i && !isnan(row->change[f].delta), CMP_NEED_RUNS);
	c->rb_rows = xreallocarray(c->rb_rows, c->n_rb_rows + 1,
				   sizeof(*c->rb_rows));
	c->rb_rows[c->n_rb_rows++] = (struct cmp_row_ref){ i, k };
}

/* Every seqbench group of every label, then the rows in report order. */
static void build_rows(struct cmp_comparison *c)
{
	const struct cmp_label *l = c->labels;
	double alpha = c->o->alpha;
	size_t i, k;

	for (i = 0; i < c->n; i++) {
		struct cmp_entry *e = &c->e[i];

		e->sb = xcalloc(l[i].n_sb ? l[i].n_sb : 1, sizeof(*e->sb));
		e->sb_judged = xcalloc(l[i].n_sb ? l[i].n_sb : 1,
				       sizeof(*e->sb_judged));
		for (k = 0; k < l[i].n_sb; k++) {
			e->sb[k] = cmp_sb_row_of(&l[0], &l[i].sb[k], alpha);
			judge(&e->sb_judged[k], &e->sb[k].change,
			      CMP_HIGHER_BETTER, e->sb[k].change.significant,
			      i && !isnan(e->sb[k].change.delta),
			      CMP_NEED_RUNS);
		}
		e->rb = xcalloc(l[i].n_rb ? l[i].n_rb : 1, sizeof(*e->rb));
		e->rb_judged = xcalloc(l[i].n_rb ? l[i].n_rb : 1,
				       sizeof(*e->rb_judged));
	}
	c->n_sb_configs = cmp_sb_each(l, c->n, alpha, sb_ref, c);
	c->n_rb_configs = cmp_rb_each(l, c->n, alpha, rb_ref, c);
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

/* The latency summaries' gap figures of R, summed a workload. */
static void fleet_latency(struct cmp_fleet_src *s, const struct cmp_result *r)
{
	static const char *const keys[4] = { "p99_s", "max_s", "stall_count",
					     "stall_time_s" };
	const struct json_node *all = json_read_member(r->json, "latency");
	struct cmp_names groups = { 0 };
	size_t i, k, at;

	if (!all || all->type != JSON_OBJECT)
		return;
	for (i = 0; i < all->count; i++) {
		const struct json_node *lat = &all->items[i];
		char *w = cmp_workload_of(lat->key);

		if (cmp_names_add(&groups, w, s->n_lat, &at)) {
			s->lat = xreallocarray(s->lat, s->n_lat + 1,
					       sizeof(*s->lat));
			memset(&s->lat[s->n_lat], 0, sizeof(*s->lat));
			s->lat[s->n_lat].name = w;
			at = s->n_lat++;
		} else {
			free(w);
		}
		for (k = 0; k < 4; k++) {
			double v;

			if (lat->type == JSON_OBJECT &&
			    cmp_get_num(r->json_file, lat, keys[k], keys[k],
					&v)) {
				s->lat[at].sum[k] += v;
				s->lat[at].n[k]++;
			}
		}
	}
	cmp_names_release(&groups);
}

static void fleet_src(struct cmp_fleet_src *s, const struct cmp_result *r)
{
	memset(s, 0, sizeof(*s));
	if (r->has_run) {
		s->has_epu_mean = cmp_get_num(
			r->json_file, r->json, "elapsed_per_user_mean",
			"elapsed_per_user_mean", &s->epu_mean);
		fleet_latency(s, r);
	}
	/* A result without its kernel is of the kernel its label names. */
	s->release = r->json ? json_read_string(r->json, "kernel") : NULL;
	if (!s->release || !*s->release || strlen(s->release) > 200)
		s->release = r->label;
	s->uname = cmp_sysinfo_line(r->json_file, "kernel");
}

static bool any_fig(const struct cmp_label *l, size_t n, int from, int to)
{
	size_t i;
	int f;

	for (i = 0; i < n; i++)
		for (f = from; f < to; f++)
			if (!isnan(l[i].fig[f].value))
				return true;
	return false;
}

static void build_global(struct cmp_comparison *c)
{
	const struct cmp_label *l = c->labels;
	size_t i;

	for (i = 0; i < c->n; i++)
		c->has_run |= l[i].has_run;
	c->has_ho = cmp_has_ho(l, c->n);
	c->has_kernel = any_fig(l, c->n, FIG_KERNEL_FIRST, FIG_CPU_FIRST);
	c->has_cpu = any_fig(l, c->n, FIG_CPU_FIRST, FIG_CPU_END);
	c->has_block = any_fig(l, c->n, FIG_BLOCK_FIRST, FIG_COUNT);
	c->has_seqbench = cmp_has_seqbench(l, c->n);
	c->has_ringbench = cmp_has_ringbench(l, c->n);
	c->spread_note = cmp_spread_note(l, c->n);
	/* Results of one label that ran differently, and busy hosts. */
	for (i = 0; i < c->n; i++) {
		const struct cmp_setup_diffs *s = &c->e[i].setup;
		size_t k;

		for (k = 0; k < s->n; k++)
			if (s->d[k].la == s->d[k].lb)
				cmp_notes_add(&c->notes, "%s", s->text[k]);
		cmp_host_notes(&l[i], &c->notes);
	}
}

struct cmp_comparison *cmp_build(const struct cmp_label *l, size_t n,
				 const struct cmp_options *o)
{
	struct cmp_comparison *c = xcalloc(1, sizeof(*c));
	size_t i, j;

	c->o = o;
	c->n = n;
	c->labels = l;
	c->e = xcalloc(n ? n : 1, sizeof(*c->e));
	for (i = 0; i < n; i++) {
		struct cmp_entry *e = &c->e[i];

		e->l = &l[i];
		e->is_base = i == 0;
		build_entry(e, &l[0], o->alpha);
		if (!o->fleet)
			continue;
		e->fleet = xcalloc(l[i].n ? l[i].n : 1, sizeof(*e->fleet));
		for (j = 0; j < l[i].n; j++)
			fleet_src(&e->fleet[j], l[i].r[j]);
	}
	build_rows(c);
	build_global(c);
	return c;
}

static void entry_release(struct cmp_entry *e)
{
	size_t j, k;

	free(e->verdict);
	cmp_notes_release(&e->notes);
	free(e->ho);
	free(e->sb);
	free(e->sb_judged);
	free(e->rb);
	free(e->rb_judged);
	setup_release(&e->setup);
	if (!e->fleet)
		return;
	for (j = 0; j < e->l->n; j++) {
		for (k = 0; k < e->fleet[j].n_lat; k++)
			free(e->fleet[j].lat[k].name);
		free(e->fleet[j].lat);
		free(e->fleet[j].uname);
	}
	free(e->fleet);
}

void cmp_comparison_free(struct cmp_comparison *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++)
		entry_release(&c->e[i]);
	free(c->e);
	cmp_notes_release(&c->notes);
	free(c->sb_rows);
	free(c->rb_rows);
	free(c);
}
