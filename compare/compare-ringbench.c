// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ringbench results in latency-compare: each configuration (mode and
 * options) is a group holding the per-run samples of its rate, its
 * microseconds per cycle and its p50 and p99 latency; the runs of a label's
 * results are pooled, and every figure of a label is tested against the
 * baseline's by Welch's test on those runs, as seqbench's rates are.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"
#include "lib/xalloc.h"
#include "compare/compare.h"

const char *const rb_fig_name[RBF_COUNT] = {
	"rate_per_s",
	"us_per_cycle",
	"p50_us",
	"p99_us",
};

static struct rb_group *find(const struct rb_group *rb, size_t n,
			     const char *config)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(rb[i].config, config))
			return (struct rb_group *)&rb[i];
	return NULL;
}

static struct rb_group *group_of(struct rb_group **rb, size_t *n,
				 const char *config)
{
	struct rb_group *g = find(*rb, *n, config);

	if (g)
		return g;
	*rb = xreallocarray(*rb, *n + 1, sizeof(**rb));
	g = &(*rb)[(*n)++];
	memset(g, 0, sizeof(*g));
	g->config = xstrdup(config);
	return g;
}

static void push(struct rb_group *g, int f, double x)
{
	if (isnan(x))
		return;
	g->v[f] = xreallocarray(g->v[f], g->n[f] + 1, sizeof(*g->v[f]));
	g->v[f][g->n[f]++] = x;
}

void cmp_rb_add_run(struct rb_group **rb, size_t *n, const char *config,
		    const double v[RBF_COUNT])
{
	struct rb_group *g = group_of(rb, n, config);
	int f;

	g->runs++;
	for (f = 0; f < RBF_COUNT; f++)
		push(g, f, v[f]);
}

void cmp_rb_add(struct rb_group **rb, size_t *n, const struct rb_group *from)
{
	struct rb_group *g = group_of(rb, n, from->config);
	size_t i;
	int f;

	g->runs += from->runs;
	for (f = 0; f < RBF_COUNT; f++)
		for (i = 0; i < from->n[f]; i++)
			push(g, f, from->v[f][i]);
}

void cmp_rb_release(struct rb_group *rb, size_t n)
{
	size_t i;
	int f;

	for (i = 0; i < n; i++) {
		for (f = 0; f < RBF_COUNT; f++)
			free(rb[i].v[f]);
		free(rb[i].config);
	}
	free(rb);
}

bool cmp_has_ringbench(const struct cmp_label *l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (l[i].n_rb)
			return true;
	return false;
}

static struct cmp_rb_row row_of(const struct cmp_label *base,
				const struct rb_group *g, double alpha)
{
	const struct rb_group *b = find(base->rb, base->n_rb, g->config);
	struct cmp_rb_row row;
	int f;

	for (f = 0; f < RBF_COUNT; f++) {
		row.mean[f] = g->n[f] ? stats_mean_of(g->v[f], g->n[f]) : NAN;
		row.sd[f] =
			g->n[f] >= 2 ? stats_stddev_of(g->v[f], g->n[f]) : NAN;
		row.change[f] =
			cmp_samples_change(b ? b->v[f] : NULL, b ? b->n[f] : 0,
					   g->v[f], g->n[f], alpha);
	}
	return row;
}

static int by_config(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t cmp_rb_each(const struct cmp_label *l, size_t n, double alpha,
		   cmp_rb_row_fn *fn, void *ctx)
{
	const char **keys = NULL;
	size_t nk = 0, k, i, j, done = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j < l[i].n_rb; j++) {
			keys = xreallocarray(keys, nk + 1, sizeof(*keys));
			keys[nk++] = l[i].rb[j].config;
		}
	if (nk > 1)
		qsort(keys, nk, sizeof(*keys), by_config);
	for (k = 0; k < nk; k++) {
		if (k && !strcmp(keys[k - 1], keys[k]))
			continue;
		done++;
		for (i = 0; i < n; i++) {
			const struct rb_group *g =
				find(l[i].rb, l[i].n_rb, keys[k]);
			struct cmp_rb_row row;

			if (!g)
				continue;
			row = row_of(&l[0], g, alpha);
			fn(ctx, &l[i], i, g, &row);
		}
	}
	free(keys);
	return done;
}
