// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Labels and the tests between them.  A label gathers the results that
 * share it: several results of one label are several boots of one kernel,
 * and runs inside one boot share its memory layout and swap state, so they
 * vary less than boots do.  A label with one result is judged on its runs
 * (the spread between boots is then unknown); a label with several on the
 * means of its results, one sample per boot, which carries both spreads; a
 * lone result against a label with several is judged against that label's
 * spread between boots (a prediction interval).  The two arms of a
 * latency-vm series of boots (kernel A and kernel B booted in turn) are
 * judged on the differences within pairs of boots, which shared the
 * host's speed of their time.  The man page explains the choice.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/output.h"
#include "lib/stats.h"
#include "lib/xalloc.h"
#include "compare/compare.h"

/* clang-format off */
const struct fig_desc fig_desc[FIG_COUNT] = {
	[FIG_ELAPSED] = { "elapsed_mean_s", "elapsed", "elapsed_change_pct",
			  "elapsed", CHANGE_PCT, false, "elapsed_s", "elapsed", false, false },
	[FIG_STDDEV] = { "elapsed_stddev_s", "stddev", "stddev_change_pct",
			 "stddev", CHANGE_PCT, false, NULL, "stddev", false, false },
	[FIG_CV] = { "elapsed_cv_pct", "cv%", "cv_change_pct", "cv",
		     CHANGE_PCT, false, NULL, "cv", false, false },
	[FIG_CI95] = { "elapsed_ci95_half_s", "ci95", NULL, NULL,
		       CHANGE_NONE, false, NULL, "ci95", false, false },
	[FIG_CI99] = { "elapsed_ci99_half_s", "ci99", NULL, NULL,
		       CHANGE_NONE, false, NULL, "ci99", false, false },
	[FIG_FAILURES] = { "failures", "failures", "failures_change",
			   "failures", CHANGE_DIFF, true, NULL, "failures", false, false },
	[FIG_OOM] = { "oom_kills", NULL, "oom_kills_change", NULL,
		      CHANGE_DIFF, true, NULL, "oom_kills", false, false },
	[FIG_P99] = { "stall_p99_s", "p99", "stall_p99_change_pct", "p99",
		      CHANGE_PCT, false, NULL, "p99", false, false },
	[FIG_MAX] = { "stall_max_s", "max", "stall_max_change_pct", "max",
		      CHANGE_PCT, false, NULL, "max", false, false },
	[FIG_STALLS] = { "stall_count", "stalls", "stall_count_change",
			 "stalls", CHANGE_DIFF, true, NULL, "stalls", false, false },
	[FIG_STALL_TIME] = { "stall_time_s", NULL, "stall_time_change_pct",
			     NULL, CHANGE_PCT, false, NULL, "stall_time", false, false },
	[FIG_RECLAIM] = { "reclaim_stall_s", "reclaim",
			  "reclaim_stall_change_pct", "reclaim", CHANGE_PCT,
			  false, NULL, "reclaim_stall", false, false },
	[FIG_SWAPOUT] = { "pswpout_delta", NULL, "pswpout_change_pct", NULL,
			  CHANGE_PCT, true, NULL, "pswpout_delta", false, false },
	[FIG_MAJFLT] = { "gitk_majflt_mean", "majflt",
			 "gitk_majflt_change_pct", NULL, CHANGE_PCT, true,
			 "majflt", "majflt", false, false },
	[FIG_PSWPIN] = { "gitk_pswpin_mean", "pswpin",
			 "gitk_pswpin_change_pct", NULL, CHANGE_PCT, true,
			 "pswpin", "pswpin", false, false },
	[FIG_PSWPOUT] = { "gitk_pswpout_mean", "pswpout",
			  "gitk_pswpout_change_pct", NULL, CHANGE_PCT, true,
			  "pswpout", "pswpout", false, false },
	[FIG_RUN_RECLAIM] = { "gitk_reclaim_mean_s", "reclaim_s",
			      "gitk_reclaim_change_pct", NULL, CHANGE_PCT,
			      false, "reclaim_s", "reclaim_s", false, false },
	[FIG_COMPACT] = { "gitk_compact_mean_s", "compact_s",
			  "gitk_compact_change_pct", NULL, CHANGE_PCT, false,
			  "compact_s", "compact_s", false, false },
	[FIG_PSI_SOME] = { "gitk_psi_some_mean_s", "psi_some_s",
			   "gitk_psi_some_change_pct", NULL, CHANGE_PCT,
			   false, "psi_some_s", "psi_some_s", false, false },
	[FIG_PSI_FULL] = { "gitk_psi_full_mean_s", "psi_full_s",
			   "gitk_psi_full_change_pct", NULL, CHANGE_PCT,
			   false, "psi_full_s", "psi_full_s", false, false },
	[FIG_PGSCAN_KSWAPD] = { "gitk_pgscan_kswapd_mean", "pgscan_kswapd",
				"gitk_pgscan_kswapd_change_pct", NULL,
				CHANGE_PCT, true, "pgscan_kswapd",
				"pgscan_kswapd", false, false },
	[FIG_PGSCAN_DIRECT] = { "gitk_pgscan_direct_mean", "pgscan_direct",
				"gitk_pgscan_direct_change_pct", NULL,
				CHANGE_PCT, true, "pgscan_direct",
				"pgscan_direct", false, false },
	[FIG_ALLOCSTALL] = { "gitk_allocstall_mean", "allocstall",
			     "gitk_allocstall_change_pct", NULL, CHANGE_PCT,
			     true, "allocstall", "allocstall", false, false },
	[FIG_PGSTEAL_ANON] = { "gitk_pgsteal_anon_mean", "pgsteal_anon",
			       "gitk_pgsteal_anon_change_pct", NULL,
			       CHANGE_PCT, true, "pgsteal_anon",
			       "pgsteal_anon", false, false },
	[FIG_PGSTEAL_FILE] = { "gitk_pgsteal_file_mean", "pgsteal_file",
			       "gitk_pgsteal_file_change_pct", NULL,
			       CHANGE_PCT, true, "pgsteal_file",
			       "pgsteal_file", false, false },
	[FIG_EPU] = { "elapsed_per_user_mean", "e/user",
		      "elapsed_per_user_change_pct", "e/user", CHANGE_PCT,
		      false, "elapsed_per_user", "elapsed_per_user", true, false },
	[FIG_ERPU] = { "elapsed_less_runq_per_user_mean", "(e-runq)/user",
		       "elapsed_less_runq_per_user_change_pct", "(e-runq)/user",
		       CHANGE_PCT, false, "elapsed_less_runq_per_user",
		       "elapsed_less_runq_per_user", true, false },
	[FIG_SPU] = { "sys_per_user_mean", "sys/user",
		      "sys_per_user_change_pct", "sys/user", CHANGE_PCT,
		      false, "sys_per_user", "sys_per_user", false, false },
	[FIG_WPU] = { "wait_per_user_mean", "wait/user",
		      "wait_per_user_change_pct", "wait/user", CHANGE_PCT,
		      false, "wait_per_user", "wait_per_user", false, false },
	[FIG_USER] = { "user_mean_s", "user_s", "user_change_pct", "user",
		       CHANGE_PCT, false, "user_s", "user_s", false, true },
	[FIG_RUNQ] = { "runq_mean_s", "runq_s", "runq_change_pct", "runq",
		       CHANGE_PCT, false, "runq_s", "runq_s", false, true },
	[FIG_OTHERS] = { "others_cpu_mean_s", "others_s",
			 "others_cpu_change_pct", "others", CHANGE_PCT, false,
			 "others_cpu_s", "others_cpu_s", false, true },
	[FIG_BLOCK_RQ_PER_MIB] = { "block_requests_per_mib", "rq/MiB",
				   "block_requests_per_mib_change_pct", NULL,
				   CHANGE_PCT, false, NULL, "requests/MiB",
				   false, false },
	[FIG_BLOCK_RQ_BYTES] = { "block_request_bytes", "rq bytes",
				 "block_request_bytes_change_pct", NULL,
				 CHANGE_PCT, false, NULL, "request size",
				 false, false },
	[FIG_BLOCK_MERGES_PER_RQ] = { "block_merges_per_request", "merges/rq",
				      "block_merges_per_request_change_pct",
				      NULL, CHANGE_PCT, false, NULL,
				      "merges/request", false, false },
	[FIG_BLOCK_UNPLUGS_PER_S] = { "block_unplugs_per_s", "unplugs/s",
				      "block_unplugs_per_s_change_pct", NULL,
				      CHANGE_PCT, false, NULL, "IO unplugs/s",
				      false, false },
	[FIG_BLOCK_Q2C_P99] = { "block_q2c_p99_us", "Q2C p99 us",
				"block_q2c_p99_us_change_pct", NULL,
				CHANGE_PCT, false, NULL, "Q2C p99", false,
				false },
};
/* clang-format on */

const char *const sb_phase_name[SB_PHASES] = {
	"seq_write", "rand_write", "seq_read",
	"rand_read", "cold_read",  "tree_read",
};

const char *cmp_sb_phase(const struct sb_group *g, char *buf)
{
	if (g->readahead_kb < 0)
		return sb_phase_name[g->phase];
	snprintf(buf, SB_PHASE_TEXT, "%s(ra=%.0fk)", sb_phase_name[g->phase],
		 g->readahead_kb);
	return buf;
}

double cmp_fig_mean(enum fig f, const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	if (!fig_desc[f].log)
		return stats_mean_of(v, n);
	for (i = 0; i < n; i++)
		sum += log(v[i]);
	return n ? exp(sum / (double)n) : NAN;
}

/* The figures derived from the elapsed samples, not tested themselves. */
static bool derived(int f)
{
	return f == FIG_STDDEV || f == FIG_CV || f == FIG_CI95 || f == FIG_CI99;
}

static void copy_samples(struct figure *to, const struct figure *from)
{
	to->n = from->n;
	to->samples = from->n ? xcalloc(from->n, sizeof(*to->samples)) : NULL;
	if (from->n)
		memcpy(to->samples, from->samples,
		       from->n * sizeof(*to->samples));
}

/*
 * Figure F of label L from its results: the value of a lone result with
 * its runs as samples, or the mean of the results' values with those as
 * samples.
 */
static void label_figure(struct cmp_label *l, int f)
{
	struct figure *to = &l->fig[f];
	const struct cmp_result *one = NULL;
	size_t i, k = 0;

	for (i = 0; i < l->n; i++) {
		if (isnan(l->r[i]->fig[f].value))
			continue;
		one = l->r[i];
		k++;
	}
	if (!k)
		return;
	if (k == 1) {
		to->value = one->fig[f].value;
		copy_samples(to, &one->fig[f]);
		l->kind[f] = SAMPLES_RUNS;
		return;
	}
	to->samples = xcalloc(k, sizeof(*to->samples));
	for (i = 0; i < l->n; i++)
		if (!isnan(l->r[i]->fig[f].value))
			to->samples[to->n++] = l->r[i]->fig[f].value;
	to->value = cmp_fig_mean((enum fig)f, to->samples, to->n);
	l->kind[f] = SAMPLES_RESULTS;
}

/*
 * The spread figures of the elapsed time.  One result: its own.  Several:
 * stddev and cv are the spread within results (the pooled variance of
 * their runs), the intervals are those of the mean of the result means,
 * and between_cv the spread of the result means.
 */
static void label_spread(struct cmp_label *l)
{
	const struct figure *e = &l->fig[FIG_ELAPSED];
	double ss = 0, df = 0;
	size_t i;

	if (l->kind[FIG_ELAPSED] != SAMPLES_RESULTS) {
		for (i = 0; i < l->n; i++) {
			if (isnan(l->r[i]->fig[FIG_ELAPSED].value))
				continue;
			l->fig[FIG_STDDEV].value =
				l->r[i]->fig[FIG_STDDEV].value;
			l->fig[FIG_CV].value = l->r[i]->fig[FIG_CV].value;
			l->fig[FIG_CI95].value = l->r[i]->fig[FIG_CI95].value;
			l->fig[FIG_CI99].value = l->r[i]->fig[FIG_CI99].value;
		}
		return;
	}
	for (i = 0; i < l->n; i++) {
		const struct figure *re = &l->r[i]->fig[FIG_ELAPSED];
		double sd = stats_stddev_of(re->samples, re->n);

		if (re->n < 2)
			continue;
		ss += sd * sd * (double)(re->n - 1);
		df += (double)(re->n - 1);
	}
	if (df > 0)
		l->fig[FIG_STDDEV].value = sqrt(ss / df);
	if (e->value > 0 && !isnan(l->fig[FIG_STDDEV].value))
		l->fig[FIG_CV].value =
			l->fig[FIG_STDDEV].value / e->value * 100;
	l->fig[FIG_CI95].value = stats_ci_of(e->samples, e->n, 0.95).half;
	l->fig[FIG_CI99].value = stats_ci_of(e->samples, e->n, 0.99).half;
	if (e->value > 0)
		l->between_cv =
			stats_stddev_of(e->samples, e->n) / e->value * 100;
}

static void label_fill(struct cmp_label *l)
{
	size_t i, j, full = 0, hosts = 0;
	double host_sum = 0;
	int f;

	for (f = 0; f < FIG_COUNT; f++)
		l->fig[f].value = NAN;
	l->between_cv = NAN;
	for (i = 0; i < l->n; i++) {
		const struct cmp_result *r = l->r[i];

		if (r->host.on) {
			host_sum += r->host.others_cpus;
			hosts++;
		}
		l->partial |= r->partial;
		l->has_run |= r->has_run;
		l->runs += r->fig[FIG_ELAPSED].n;
		if (!cmp_hist_add(&l->hist, &r->hist) && !full++) {
			char *e = text_escape(l->label);

			warn("the results of %s have too many different "
			     "histogram buckets: --plot leaves some out",
			     e);
			free(e);
		}
		for (j = 0; j < r->n_sb; j++)
			cmp_sb_add(&l->sb, &l->n_sb, &r->sb[j]);
		for (j = 0; j < r->n_rb; j++)
			cmp_rb_add(&l->rb, &l->n_rb, &r->rb[j]);
	}
	if (l->n_sb > 1)
		qsort(l->sb, l->n_sb, sizeof(*l->sb), cmp_sb_order);
	/* A label some of whose hosts were not measured has no host load. */
	l->host_others_cpus = hosts == l->n ? host_sum / (double)hosts : NAN;
	for (f = 0; f < FIG_COUNT; f++)
		if (!derived(f))
			label_figure(l, f);
	label_spread(l);
}

size_t cmp_group(struct cmp_result *r, size_t n, struct cmp_label **out)
{
	struct cmp_label *l = xcalloc(n, sizeof(*l));
	size_t nl = 0, i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < nl && strcmp(l[j].label, r[i].label); j++)
			;
		if (j == nl)
			l[nl++].label = xstrdup(r[i].label);
		l[j].r = xreallocarray(l[j].r, l[j].n + 1, sizeof(*l[j].r));
		l[j].r[l[j].n++] = &r[i];
	}
	for (j = 0; j < nl; j++) {
		label_fill(&l[j]);
		cmp_ho_pool(&l[j]);
	}
	*out = l;
	return nl;
}

void cmp_label_release(struct cmp_label *l)
{
	int f;

	for (f = 0; f < FIG_COUNT; f++)
		free(l->fig[f].samples);
	cmp_sb_release(l->sb, l->n_sb);
	cmp_rb_release(l->rb, l->n_rb);
	cmp_ho_free(l->ho, l->n_ho);
	free(l->hist.le_s);
	free(l->hist.count);
	free(l->r);
	free(l->label);
}

void cmp_free_all(struct cmp_label *l, size_t nl, struct cmp_result *r,
		  size_t n)
{
	size_t i;

	for (i = 0; i < nl; i++)
		cmp_label_release(&l[i]);
	free(l);
	for (i = 0; i < n; i++)
		cmp_result_release(&r[i]);
	free(r);
}

static double variance_of(const struct figure *f)
{
	double sd = stats_stddev_of(f->samples, f->n);

	return sd * sd;
}

/*
 * A test of a difference on one scale (raw, or logs): DIFF (the other
 * side less the baseline), its standard error SE on DF degrees of
 * freedom, and its p; BASE, what a change in percent is of; the PAIRS
 * of a paired test.
 */
struct diff_test {
	double diff, se, df, p;
	enum cmp_test test;
	double base;
	size_t pairs;
};

/* Welch's test between two sample sets. */
static void welch(struct diff_test *d, const struct figure *b,
		  const struct figure *v)
{
	double mb = stats_mean_of(b->samples, b->n);
	double vb = variance_of(b), vv = variance_of(v);
	struct stats_welch w = stats_welch_summary(
		mb, vb, b->n, stats_mean_of(v->samples, v->n), vv, v->n);

	d->p = w.p;
	d->df = w.df;
	d->se = sqrt(vb / (double)b->n + vv / (double)v->n);
}

/*
 * One result's value against the K result values of SPREAD: is it
 * outside what one more result of that label would give?  The difference
 * from their mean has variance v/k + v (v the variance of the result
 * values, assumed the same for the lone result's label) on k - 1 degrees
 * of freedom.
 */
static void against_spread(struct diff_test *d, const struct figure *spread)
{
	double v = variance_of(spread), k = (double)spread->n;

	d->se = sqrt(v / k + v);
	d->df = k - 1;
	d->p = stats_t_test(d->diff, d->se, d->df).p;
}

/* The test of B against V (values and samples on one scale). */
static void test_of(struct diff_test *d, const struct figure *b,
		    enum cmp_samples kb, const struct figure *v,
		    enum cmp_samples kv)
{
	d->diff = v->value - b->value;
	d->se = d->df = d->p = NAN;
	d->test = TEST_NONE;
	if (kb == SAMPLES_RESULTS && kv == SAMPLES_RESULTS) {
		welch(d, b, v);
		d->test = TEST_RESULTS;
	} else if (kb == SAMPLES_RESULTS && kv == SAMPLES_RUNS) {
		against_spread(d, b);
		d->test = TEST_SPREAD;
	} else if (kb == SAMPLES_RUNS && kv == SAMPLES_RESULTS) {
		against_spread(d, v);
		d->test = TEST_SPREAD;
	} else if (b->n >= 2 && v->n >= 2) {
		welch(d, b, v);
		d->test = TEST_RUNS;
	}
	if (isnan(d->p))
		d->test = TEST_NONE;
}

/* F's figure with its value and samples on logs (to free). */
static struct figure log_figure(const struct figure *f)
{
	struct figure l = { log(f->value), NULL, f->n };
	size_t i;

	l.samples = xcalloc(f->n + 1, sizeof(*l.samples));
	for (i = 0; i < f->n; i++)
		l.samples[i] = log(f->samples[i]);
	return l;
}

/*
 * The difference V - B of one pair's figure F into *D, of logs where F
 * is on logs; false when the pair lacks it.
 */
static bool pair_diff(enum fig f, double b, double v, double *d)
{
	if (isnan(b) || isnan(v))
		return false;
	if (fig_desc[f].log && !(b > 0 && v > 0))
		return false;
	*d = fig_desc[f].log ? log(v) - log(b) : v - b;
	return true;
}

/*
 * The pairs of BASE's and L's figure F (an interleaved run: run N of one
 * arm against run N of the other): their differences into *D (to free);
 * returns how many pairs have both.
 */
static size_t pair_diffs(const struct cmp_result *base,
			 const struct cmp_result *l, enum fig f, double **d)
{
	size_t n = base->n_runs < l->n_runs ? base->n_runs : l->n_runs, i, k;
	const double *b = base->per_run[f], *v = l->per_run[f];

	*d = xcalloc(n + 1, sizeof(**d));
	for (i = 0, k = 0; i < n && b && v; i++)
		k += pair_diff(f, b[i], v[i], &(*d)[k]);
	return k;
}

/*
 * The paired test of the N differences DIFFS: their mean against 0, a
 * one-sample t test on N - 1 degrees of freedom, judged as TEST.
 */
static void diffs_test(struct diff_test *d, const double *diffs, size_t n,
		       enum cmp_test test)
{
	d->diff = stats_mean_of(diffs, n);
	d->se = n >= 2 ? stats_stddev_of(diffs, n) / sqrt((double)n) : NAN;
	d->df = (double)n - 1;
	d->p = n >= 2 ? stats_t_test(d->diff, d->se, d->df).p : NAN;
	d->test = isnan(d->p) ? TEST_NONE : test;
	d->pairs = n;
}

/* The paired test of an interleaved run's runs. */
static void paired(struct diff_test *d, const struct cmp_label *base,
		   const struct cmp_label *l, enum fig f)
{
	double *diffs;
	size_t n = pair_diffs(base->r[0], l->r[0], f, &diffs);

	diffs_test(d, diffs, n, TEST_PAIRED);
	free(diffs);
}

/* The result of L that is boot PAIR of its series, or NULL. */
static const struct cmp_result *boot_of(const struct cmp_label *l, size_t pair)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->r[i]->boots.pair == pair)
			return l->r[i];
	return NULL;
}

/*
 * The paired test of two arms of a series of boots: the difference of
 * the result values (a result's mean) within each pair that both labels
 * have.  A change in percent is of the baseline's mean over those pairs:
 * a pair left out must not move it.
 */
static void paired_boots(struct diff_test *d, const struct cmp_label *base,
			 const struct cmp_label *l, enum fig f)
{
	double *diffs = xcalloc(base->n + 1, sizeof(*diffs)), sum = 0;
	const struct cmp_result *b, *v;
	size_t i, n = 0;

	for (i = 0; i < base->n; i++) {
		b = base->r[i];
		v = boot_of(l, b->boots.pair);
		if (!v ||
		    !pair_diff(f, b->fig[f].value, v->fig[f].value, &diffs[n]))
			continue;
		sum += b->fig[f].value;
		n++;
	}
	diffs_test(d, diffs, n, TEST_PAIRED_BOOTS);
	d->base = n ? sum / (double)n : NAN;
	free(diffs);
}

/* Whether boots A and B are of one series. */
static bool same_series(const struct cmp_boots *a, const struct cmp_boots *b)
{
	return !strcmp(a->series, b->series) && !strcmp(a->order, b->order) &&
	       a->seed == b->seed && !strcmp(a->labels[0], b->labels[0]) &&
	       !strcmp(a->labels[1], b->labels[1]);
}

/*
 * Whether R, a result of BASE (SIDE 0) or of L (1), is a boot of series
 * S of BASE's arm (SIDE 0) or of the other: the first check it fails.
 */
static enum cmp_boots_why boot_check(const struct cmp_result *r,
				     const struct cmp_boots *s, int side)
{
	if (!r->boots.on)
		return BOOTS_NONE;
	if (!same_series(s, &r->boots))
		return BOOTS_SERIES;
	if ((r->boots.arm == s->arm) != !side)
		return BOOTS_ARMS;
	return BOOTS_PAIRED;
}

/* A pair of which L has two results, or 0. */
static size_t pair_twice(const struct cmp_label *l)
{
	size_t i, j;

	for (i = 0; i < l->n; i++)
		for (j = i + 1; j < l->n; j++)
			if (l->r[i]->boots.pair == l->r[j]->boots.pair)
				return l->r[i]->boots.pair;
	return 0;
}

void cmp_boot_pairs(const struct cmp_label *base, const struct cmp_label *l,
		    struct cmp_boot_pairs *out)
{
	const struct cmp_label *side[2] = { base, l };
	enum cmp_boots_why w, why;
	size_t i;
	int k;

	memset(out, 0, sizeof(*out));
	if (!base->n || !l->n || !base->r[0]->boots.on)
		return;
	/* A result not of a series says nothing; else the first check. */
	why = BOOTS_PAIRED;
	for (k = 0; k < 2; k++)
		for (i = 0; i < side[k]->n; i++) {
			w = boot_check(side[k]->r[i], &base->r[0]->boots, k);
			if (w == BOOTS_NONE)
				return;
			if (w != BOOTS_PAIRED &&
			    (why == BOOTS_PAIRED || w < why))
				why = w;
		}
	out->why = why;
	out->series = &base->r[0]->boots;
	for (k = 0; k < 2 && out->why == BOOTS_PAIRED; k++)
		if ((out->twice = pair_twice(side[k])))
			out->why = BOOTS_TWICE;
	if (out->why != BOOTS_PAIRED)
		return;
	out->arm_a = out->series->arm == 'a' ? base : l;
	out->arm_b = out->arm_a == base ? l : base;
	for (i = 0; i < base->n; i++)
		out->pairs += boot_of(l, base->r[i]->boots.pair) != NULL;
	out->dropped = base->n + l->n - 2 * out->pairs;
	if (out->pairs < 2)
		out->why = BOOTS_FEW;
}

enum cmp_pairing cmp_pairing(const struct cmp_label *base,
			     const struct cmp_label *l)
{
	struct cmp_boot_pairs bp;

	if (cmp_paired(base, l))
		return PAIRING_RUNS;
	cmp_boot_pairs(base, l, &bp);
	return bp.why == BOOTS_PAIRED ? PAIRING_BOOTS : PAIRING_NONE;
}

/* X on F's scale as a change in percent of BASE (NaN stays NaN). */
static double pct_of(enum fig f, double x, double base)
{
	if (fig_desc[f].log)
		return 100 * (exp(x) - 1);
	return base != 0 ? x / fabs(base) * 100 : NAN;
}

bool cmp_paired(const struct cmp_label *base, const struct cmp_label *l)
{
	const struct cmp_result *a, *b;

	if (base->n != 1 || l->n != 1)
		return false;
	a = base->r[0];
	b = l->r[0];
	return a->il.on && b->il.on && strcmp(a->il.arm, b->il.arm) &&
	       !strcmp(a->il.name, b->il.name) &&
	       !strcmp(a->il.values, b->il.values) &&
	       !strcmp(a->il.order, b->il.order) && a->il.seed == b->il.seed &&
	       a->run_label && b->run_label &&
	       !strcmp(a->il.other, b->run_label) &&
	       !strcmp(b->il.other, a->run_label);
}

/*
 * The rest of change C from the test D of figure F: its p, whether it is
 * significant at ALPHA, the smallest change it could see and its interval.
 */
static void change_of(struct change *c, const struct diff_test *d, enum fig f,
		      double alpha)
{
	double t, mde;

	c->test = d->test;
	if (d->test == TEST_NONE)
		return;
	c->p = d->p;
	c->pairs = d->pairs;
	c->significant = c->p < alpha;
	mde = stats_mde(d->se, d->df, alpha, CMP_POWER);
	c->mde_pct = fig_desc[f].log ? pct_of(f, mde, d->base)
				     : fabs(pct_of(f, mde, d->base));
	t = stats_t_quantile(1 - alpha / 2, d->df);
	if (d->se == 0)
		t = 0;
	c->ci_lo = pct_of(f, d->diff - t * d->se, d->base);
	c->ci_hi = pct_of(f, d->diff + t * d->se, d->base);
}

struct change cmp_change(const struct cmp_label *base,
			 const struct cmp_label *l, enum fig f, double alpha)
{
	const struct figure *b = &base->fig[f], *v = &l->fig[f];
	struct change c = CHANGE_UNTESTED;
	enum cmp_pairing pairing;
	struct diff_test d;

	if (!isnan(b->value) && !isnan(v->value)) {
		if (fig_desc[f].change == CHANGE_DIFF)
			c.delta = v->value - b->value;
		else if (b->value != 0)
			c.delta =
				(v->value - b->value) / fabs(b->value) * 100.0;
		else if (v->value == 0)
			c.delta = 0;
	}
	if (fig_desc[f].change == CHANGE_NONE || derived(f) ||
	    isnan(b->value) || isnan(v->value))
		return c;
	d.base = b->value;
	d.pairs = 0;
	pairing = cmp_pairing(base, l);
	if (fig_desc[f].run_key && pairing == PAIRING_RUNS) {
		paired(&d, base, l, f);
		c.delta = pct_of(f, d.diff, d.base);
	} else if (pairing == PAIRING_BOOTS) {
		/* Every figure: each result has its value. */
		paired_boots(&d, base, l, f);
		c.delta = fig_desc[f].change == CHANGE_DIFF
				  ? d.diff
				  : pct_of(f, d.diff, d.base);
	} else if (fig_desc[f].log) {
		struct figure lb, lv;

		if (!(b->value > 0 && v->value > 0))
			return c;
		lb = log_figure(b);
		lv = log_figure(v);
		test_of(&d, &lb, base->kind[f], &lv, l->kind[f]);
		free(lb.samples);
		free(lv.samples);
	} else {
		test_of(&d, b, base->kind[f], v, l->kind[f]);
	}
	change_of(&c, &d, f, alpha);
	return c;
}

/*
 * The differences of the pairs of B and V of figure F (on its scale) into
 * a new array *D; returns how many pairs have both, adding their
 * baseline's values to *SUM.
 */
static size_t diffs_of(enum fig f, const double *b, const double *v, size_t n,
		       double **d, double *sum)
{
	size_t i, k = 0;

	*d = xcalloc(n + 1, sizeof(**d));
	for (i = 0; i < n; i++)
		if (pair_diff(f, b[i], v[i], &(*d)[k])) {
			*sum += b[i];
			k++;
		}
	return k;
}

struct change cmp_pairs_change(enum fig f, const double *b, const double *v,
			       size_t n, double alpha)
{
	struct change c = CHANGE_UNTESTED;
	struct diff_test d;
	double *diffs, sum = 0;
	size_t k = diffs_of(f, b, v, n, &diffs, &sum);

	diffs_test(&d, diffs, k, TEST_PAIRED_BOOTS);
	d.base = k ? sum / (double)k : NAN;
	free(diffs);
	if (k)
		c.delta = pct_of(f, d.diff, d.base);
	change_of(&c, &d, f, alpha);
	return c;
}

struct change cmp_pairs_between(enum fig f, const double *b1, const double *v1,
				size_t n1, const double *b2, const double *v2,
				size_t n2, double alpha)
{
	struct change c = CHANGE_UNTESTED;
	struct figure f1, f2;
	struct diff_test d;
	double *d1, *d2, sum = 0;
	size_t k1 = diffs_of(f, b1, v1, n1, &d1, &sum);
	size_t k2 = diffs_of(f, b2, v2, n2, &d2, &sum);

	d.base = k1 + k2 ? sum / (double)(k1 + k2) : NAN;
	d.pairs = 0;
	if (k1 && k2) {
		f1 = (struct figure){ stats_mean_of(d1, k1), d1, k1 };
		f2 = (struct figure){ stats_mean_of(d2, k2), d2, k2 };
		test_of(&d, &f1, SAMPLES_RUNS, &f2, SAMPLES_RUNS);
		c.delta = pct_of(f, d.diff, d.base);
		change_of(&c, &d, f, alpha);
	}
	free(d1);
	free(d2);
	return c;
}

struct change cmp_samples_change(const double *b, size_t nb, const double *v,
				 size_t nv, double alpha)
{
	struct change c = CHANGE_UNTESTED;
	struct figure fb, fv;
	struct diff_test d;
	double mb, t;

	if (!nb || !nv)
		return c;
	mb = stats_mean_of(b, nb);
	if (mb != 0)
		c.delta = (stats_mean_of(v, nv) - mb) / fabs(mb) * 100;
	if (nb < 2 || nv < 2)
		return c;
	fb = (struct figure){ mb, (double *)b, nb };
	fv = (struct figure){ stats_mean_of(v, nv), (double *)v, nv };
	test_of(&d, &fb, SAMPLES_RUNS, &fv, SAMPLES_RUNS);
	c.p = d.p;
	c.test = d.test;
	c.mde_pct = mb != 0 ? stats_mde(d.se, d.df, alpha, CMP_POWER) /
				      fabs(mb) * 100
			    : NAN;
	c.significant = c.p < alpha;
	/* The interval too, in percent of B's mean, as cmp_change()'s. */
	if (d.test != TEST_NONE && mb != 0) {
		t = d.se == 0 ? 0 : stats_t_quantile(1 - alpha / 2, d.df);
		c.ci_lo = (d.diff - t * d.se) / fabs(mb) * 100;
		c.ci_hi = (d.diff + t * d.se) / fabs(mb) * 100;
	}
	return c;
}

struct change cmp_sb_change(const struct cmp_label *base,
			    const struct sb_group *g, double alpha)
{
	const struct sb_group *bg = cmp_sb_find(base->sb, base->n_sb, g);

	if (!bg)
		return cmp_samples_change(NULL, 0, NULL, 0, alpha);
	return cmp_samples_change(bg->rate, bg->n, g->rate, g->n, alpha);
}

bool cmp_pressure_differs(const struct cmp_pressure *a,
			  const struct cmp_pressure *b)
{
	if (!a->known || !b->known)
		return false;
	if (strcmp(a->mode, b->mode) || isnan(a->ratio) != isnan(b->ratio))
		return true;
	return !isnan(a->ratio) &&
	       fabs(a->ratio - b->ratio) > 1e-9 * fabs(a->ratio);
}

const char *cmp_pressure_str(char *buf, size_t len,
			     const struct cmp_pressure *p)
{
	if (!p->known)
		snprintf(buf, len, "unknown pressure");
	else if (isnan(p->ratio))
		snprintf(buf, len, "%s (no ratio)", p->mode);
	else
		snprintf(buf, len, "%s ratio %g", p->mode, p->ratio);
	return buf;
}

/* The pressure of the first result of L that records one, or NULL. */
static const struct cmp_pressure *pressure_of(const struct cmp_label *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->r[i]->pressure.known)
			return &l->r[i]->pressure;
	return NULL;
}

size_t cmp_pressure_warn(const struct cmp_label *l, size_t n)
{
	const struct cmp_pressure *ref = pressure_of(&l[0]), *p;
	char a[64], b[64], *la, *lb;
	size_t i, j, warned = 0;

	for (i = 0; i < n; i++) {
		p = pressure_of(&l[i]);
		for (j = 0; p && j < l[i].n; j++) {
			if (!cmp_pressure_differs(p, &l[i].r[j]->pressure))
				continue;
			la = text_escape(l[i].label);
			warn("the results of %s ran with different pressure "
			     "(%s and %s)",
			     la, cmp_pressure_str(a, sizeof(a), p),
			     cmp_pressure_str(b, sizeof(b),
					      &l[i].r[j]->pressure));
			free(la);
			warned++;
			break;
		}
		if (!i || !ref || !p || !cmp_pressure_differs(ref, p))
			continue;
		la = text_escape(l[0].label);
		lb = text_escape(l[i].label);
		warn("%s ran with %s, %s with %s: not the same pressure", la,
		     cmp_pressure_str(a, sizeof(a), ref), lb,
		     cmp_pressure_str(b, sizeof(b), p));
		free(la);
		free(lb);
		warned++;
	}
	return warned;
}
