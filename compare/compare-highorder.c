// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * High-order allocation success (latency-highorder, result.json's
 * high_order) per label and order: the probes of a label's results pooled,
 * and each order's success rate against the baseline's by a test for two
 * proportions (a rate of successes out of attempts is a proportion, not a
 * mean of samples, so Welch's test does not apply), with the smallest
 * difference the test could have seen.  Probes 100 ms apart succeed and
 * fail together (the machine stays fragmented for a while), so they are
 * not independent trials: where every result has its probes per fake-gitk
 * run (gitk_runs[].high_order), the runs are clusters and the variance is
 * the cluster-robust one (stats_two_prop_clustered), and where both labels
 * have two results or more, the results are the clusters instead (a
 * result's runs share its boot's state: under global pressure one result
 * of a configuration got 0% at order 9 in every run, the next 73%, so runs
 * as clusters called +28 points significant, p 0.01); otherwise the
 * binomial z test, which then overstates significance (an A/A of two
 * results of one configuration called +12 points significant with it).  The fault time
 * (fault_p99_us per order, and monitors.highorder.fault_p99_us over every
 * probe) is a percentile, which cannot be pooled: a label's is the mean of
 * its results'.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/output.h"
#include "lib/stats.h"
#include "lib/xalloc.h"
#include "compare/compare.h"

const struct cmp_ho *cmp_ho_find_in(const struct cmp_ho *list, size_t n,
				    unsigned order)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i].order == order)
			return &list[i];
	return NULL;
}

const struct cmp_ho *cmp_ho_find(const struct cmp_label *l, unsigned order)
{
	return cmp_ho_find_in(l->ho, l->n_ho, order);
}

void cmp_ho_add_run(struct cmp_ho *ho, uint64_t attempts, uint64_t successes)
{
	ho->run_attempts = xreallocarray(ho->run_attempts, ho->n_runs + 1,
					 sizeof(*ho->run_attempts));
	ho->run_successes = xreallocarray(ho->run_successes, ho->n_runs + 1,
					  sizeof(*ho->run_successes));
	ho->run_attempts[ho->n_runs] = attempts;
	ho->run_successes[ho->n_runs++] = successes;
}

void cmp_ho_add(struct cmp_ho **list, size_t *n, const struct cmp_ho *ho)
{
	struct cmp_ho *h =
		(struct cmp_ho *)cmp_ho_find_in(*list, *n, ho->order);
	size_t i;

	if (h) {
		h->attempts += ho->attempts;
		h->successes += ho->successes;
		h->fault_p99_sum_us += ho->fault_p99_sum_us;
		h->fault_p99_n += ho->fault_p99_n;
		h->per_run = h->per_run && ho->per_run;
	} else {
		*list = xreallocarray(*list, *n + 1, sizeof(**list));
		for (i = *n; i > 0 && (*list)[i - 1].order > ho->order; i--)
			(*list)[i] = (*list)[i - 1];
		h = &(*list)[i];
		*h = *ho;
		h->n_runs = 0;
		h->run_attempts = h->run_successes = NULL;
		(*n)++;
	}
	for (i = 0; i < ho->n_runs; i++)
		cmp_ho_add_run(h, ho->run_attempts[i], ho->run_successes[i]);
}

void cmp_ho_free(struct cmp_ho *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(list[i].run_attempts);
		free(list[i].run_successes);
		free(list[i].res_attempts);
		free(list[i].res_successes);
	}
	free(list);
}

void cmp_ho_pool(struct cmp_label *l)
{
	double sum = 0;
	size_t i, k, n = 0;

	for (i = 0; i < l->n; i++) {
		for (k = 0; k < l->r[i]->n_ho; k++) {
			const struct cmp_ho *ho = &l->r[i]->ho[k];
			struct cmp_ho *h;
			uint64_t ra, rs;

			cmp_ho_add(&l->ho, &l->n_ho, ho);
			if (!cmp_ho_runs(ho, &ra, &rs))
				continue;
			h = (struct cmp_ho *)cmp_ho_find_in(l->ho, l->n_ho,
							    ho->order);
			h->res_attempts =
				xreallocarray(h->res_attempts, h->n_res + 1,
					      sizeof(*h->res_attempts));
			h->res_successes =
				xreallocarray(h->res_successes, h->n_res + 1,
					      sizeof(*h->res_successes));
			h->res_attempts[h->n_res] = ra;
			h->res_successes[h->n_res++] = rs;
		}
		if (!isnan(l->r[i]->ho_p99_us)) {
			sum += l->r[i]->ho_p99_us;
			n++;
		}
	}
	l->ho_p99_us = n ? sum / (double)n : NAN;
}

double cmp_ho_pct(const struct cmp_ho *h)
{
	return h && h->attempts
		       ? 100.0 * (double)h->successes / (double)h->attempts
		       : NAN;
}

bool cmp_ho_runs(const struct cmp_ho *h, uint64_t *att, uint64_t *succ)
{
	size_t i;

	*att = *succ = 0;
	if (!h->per_run || !h->n_runs)
		return false;
	for (i = 0; i < h->n_runs; i++) {
		*att += h->run_attempts[i];
		*succ += h->run_successes[i];
	}
	return true;
}

double cmp_ho_fault_p99(const struct cmp_ho *h)
{
	return h && h->fault_p99_n
		       ? h->fault_p99_sum_us / (double)h->fault_p99_n
		       : NAN;
}

struct cmp_ho_change cmp_ho_change(const struct cmp_label *base,
				   const struct cmp_ho *h, double alpha)
{
	const struct cmp_ho *b = cmp_ho_find(base, h->order);
	struct cmp_ho_change c = { .base_pct = NAN,
				   .diff_pp = NAN,
				   .p = NAN,
				   .mde_pp = NAN,
				   .se_pp = NAN };
	struct stats_prop t;

	if (!b)
		return c;
	c.base_pct = cmp_ho_pct(b);
	c.clustered =
		b->per_run && h->per_run && b->n_runs >= 2 && h->n_runs >= 2;
	c.by_result = c.clustered && b->n_res >= 2 && h->n_res >= 2;
	if (c.by_result)
		t = stats_two_prop_clustered(b->res_successes, b->res_attempts,
					     b->n_res, h->res_successes,
					     h->res_attempts, h->n_res, alpha,
					     CMP_POWER);
	else if (c.clustered)
		t = stats_two_prop_clustered(b->run_successes, b->run_attempts,
					     b->n_runs, h->run_successes,
					     h->run_attempts, h->n_runs, alpha,
					     CMP_POWER);
	else
		t = stats_two_prop_test(b->successes, b->attempts, h->successes,
					h->attempts, alpha, CMP_POWER);
	if (isnan(t.p))
		return c;
	c.tested = true;
	c.diff_pp = 100.0 * t.diff;
	c.p = t.p;
	c.significant = t.p < alpha;
	c.mde_pp = 100.0 * t.mde;
	c.se_pp = 100.0 * t.se;
	return c;
}

bool cmp_has_ho(const struct cmp_label *l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (l[i].n_ho)
			return true;
	return false;
}

void cmp_ho_json(struct json *j, const struct cmp_entry *e)
{
	const struct cmp_label *l = e->l;
	uint64_t ra, rs;
	size_t i;

	json_array_begin(j, "high_order");
	for (i = 0; i < l->n_ho; i++) {
		const struct cmp_ho *h = &l->ho[i];

		json_object_begin(j, NULL);
		json_u64(j, "order", h->order);
		json_u64(j, "attempts", h->attempts);
		json_u64(j, "successes", h->successes);
		json_double(j, "success_pct", cmp_ho_pct(h));
		json_double(j, "fault_p99_us", cmp_ho_fault_p99(h));
		if (cmp_ho_runs(h, &ra, &rs)) {
			json_u64(j, "runs_attempts", ra);
			json_u64(j, "runs_successes", rs);
			json_double(j, "runs_success_pct",
				    ra ? 100.0 * (double)rs / (double)ra : NAN);
		}
		if (!e->is_base) {
			const struct cmp_ho_change *c = &e->ho[i].c;

			json_double(j, "change_pp", c->diff_pp);
			json_double(j, "p", c->p);
			if (c->tested)
				json_bool(j, "significant", c->significant);
			else
				json_null(j, "significant");
			json_double(j, "mde_pp", c->mde_pp);
			if (c->tested)
				json_str(j, "test",
					 c->by_result	? "clustered-results"
					 : c->clustered ? "clustered"
							: "binomial");
			else
				json_null(j, "test");
		}
		json_object_end(j);
	}
	json_array_end(j);
	json_double(j, "high_order_fault_p99_us", l->ho_p99_us);
}

void cmp_ho_line(FILE *f, const struct cmp_label *l)
{
	struct highorder_pct *o = xcalloc(l->n_ho + 1, sizeof(*o));
	size_t i;

	for (i = 0; i < l->n_ho; i++) {
		o[i].order = l->ho[i].order;
		o[i].pct = cmp_ho_pct(&l->ho[i]);
	}
	highorder_line_write(f, o, l->n_ho, l->ho_p99_us);
	free(o);
}
