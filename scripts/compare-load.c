// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading results for latency-compare: a run-test.sh result directory
 * (contract 3: result.json, optionally seqbench.json beside it), or a JSON
 * file given directly.  Input is checked field by field, because a wrong
 * comparison published on a mailing list costs more than a refused file:
 * every problem ends the program with one line naming the file and the
 * cause.  Also the figures derived from the samples, and the changes
 * against the baseline.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/err.h"
#include "lib/json-read.h"
#include "lib/output.h"
#include "lib/stats.h"
#include "lib/xalloc.h"
#include "scripts/compare.h"

/* Results are a few kilobytes; anything this big is not one. */
#define MAX_RESULT_BYTES (64u << 20)

/* clang-format off */
const struct fig_desc fig_desc[FIG_COUNT] = {
	[FIG_ELAPSED] = { "elapsed_mean_s", "elapsed", "elapsed_change_pct",
			  "elapsed", CHANGE_PCT, false },
	[FIG_STDDEV] = { "elapsed_stddev_s", "stddev", "stddev_change_pct",
			 "stddev", CHANGE_PCT, false },
	[FIG_CV] = { "elapsed_cv_pct", "cv%", "cv_change_pct", "cv",
		     CHANGE_PCT, false },
	[FIG_CI95] = { "elapsed_ci95_half_s", "ci95", NULL, NULL,
		       CHANGE_NONE, false },
	[FIG_CI99] = { "elapsed_ci99_half_s", "ci99", NULL, NULL,
		       CHANGE_NONE, false },
	[FIG_FAILURES] = { "failures", "failures", "failures_change",
			   "failures", CHANGE_DIFF, true },
	[FIG_OOM] = { "oom_kills", NULL, "oom_kills_change", NULL,
		      CHANGE_DIFF, true },
	[FIG_P99] = { "stall_p99_s", "p99", "stall_p99_change_pct", "p99",
		      CHANGE_PCT, false },
	[FIG_MAX] = { "stall_max_s", "max", "stall_max_change_pct", "max",
		      CHANGE_PCT, false },
	[FIG_STALLS] = { "stall_count", "stalls", "stall_count_change",
			 "stalls", CHANGE_DIFF, true },
	[FIG_STALL_TIME] = { "stall_time_s", NULL, "stall_time_change_pct",
			     NULL, CHANGE_PCT, false },
	[FIG_RECLAIM] = { "reclaim_stall_s", "reclaim",
			  "reclaim_stall_change_pct", "reclaim", CHANGE_PCT,
			  false },
	[FIG_SWAPOUT] = { "pswpout_delta", NULL, "pswpout_change_pct", NULL,
			  CHANGE_PCT, true },
};
/* clang-format on */

const char *const sb_phase_name[SB_PHASES] = {
	"seq_write",
	"rand_write",
	"seq_read",
	"rand_read",
};

/* The latency-output field behind each per-workload figure. */
static const struct {
	enum fig fig;
	const char *key;
} lat_fields[] = {
	{ FIG_P99, "p99_s" },
	{ FIG_MAX, "max_s" },
	{ FIG_STALLS, "stall_count" },
	{ FIG_STALL_TIME, "stall_time_s" },
};

/*
 * Where the trace monitor's summary may be in a result.json, and the parts
 * of the reclaim stall time in it: direct reclaim, and the reclaim a
 * memory cgroup at its limit makes its tasks do (--mem-limit runs).
 */
static const char *const trace_paths[] = { "monitors.trace", "trace" };
static const char *const reclaim_parts[] = {
	"direct_reclaim_total_s",
	"memcg_reclaim_total_s",
};

/* A JSON type with its article, for messages: "an array", "null". */
static const char *a_type(enum json_type t)
{
	switch (t) {
	case JSON_NUMBER:
	case JSON_STRING:
		return t == JSON_NUMBER ? "a number" : "a string";
	case JSON_ARRAY:
		return "an array";
	case JSON_OBJECT:
		return "an object";
	default:
		return json_type_name(t);
	}
}

static noreturn void bad(const char *file, const char *fmt, ...)
	PRINTF_LIKE(2, 3);

static noreturn void bad(const char *file, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	die(EXIT_RUN_FAILED, "'%s': %s", file, msg);
}

static struct json_node *load_json(const char *file)
{
	struct json_read_error err;
	struct json_node *root;
	const struct json_node *v;
	int r = json_read_file(file, MAX_RESULT_BYTES, &root, &err);

	if (r == -EINVAL)
		die(EXIT_RUN_FAILED,
		    "invalid JSON in '%s' at line %zu, column %zu: %s", file,
		    err.line, err.column, err.msg);
	if (r == -EFBIG)
		bad(file, "larger than %u MiB, not a result",
		    MAX_RESULT_BYTES >> 20);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot read '%s'", file);
	if (root->type != JSON_OBJECT)
		bad(file, "%s, expected a JSON object", a_type(root->type));
	v = json_read_member(root, "format_version");
	if (!v)
		bad(file, "no \"format_version\": not a latency-tests result");
	if (v->type != JSON_NUMBER || v->num != OUTPUT_FORMAT_VERSION)
		bad(file, "unsupported format_version %s (this %s reads %d)",
		    v->type == JSON_NUMBER || v->type == JSON_STRING
			    ? v->str
			    : json_type_name(v->type),
		    progname(), OUTPUT_FORMAT_VERSION);
	return root;
}

/* A number at PATH below N: false when absent, dies on another type. */
static bool get_num(const char *file, const struct json_node *n,
		    const char *path, double *out)
{
	int r = json_read_number(n, path, out);

	if (r == -EINVAL)
		bad(file, "\"%s\" is %s, expected a number", path,
		    a_type(json_read_path(n, path)->type));
	return r == 0;
}

static double need_num(const char *file, const struct json_node *n,
		       const char *path, const char *where)
{
	double v;

	if (!get_num(file, n, path, &v))
		bad(file, "missing \"%s\"%s", path, where);
	return v;
}

static const struct json_node *need_type(const char *file,
					 const struct json_node *n,
					 const char *path, enum json_type t)
{
	const struct json_node *v = json_read_path(n, path);

	if (!v)
		bad(file, "missing \"%s\"", path);
	if (v->type != t)
		bad(file, "\"%s\" is %s, expected %s", path, a_type(v->type),
		    a_type(t));
	return v;
}

static void add_sample(struct figure *f, double x)
{
	f->samples = xreallocarray(f->samples, f->n + 1, sizeof(*f->samples));
	f->samples[f->n++] = x;
}

/* Add the counts of histogram H (a latency-output "histogram" list). */
static void add_hist(struct cmp_hist *h, const char *file,
		     const struct json_node *list)
{
	size_t i, j;

	if (list->type != JSON_ARRAY)
		bad(file, "\"histogram\" is %s, expected an array",
		    a_type(list->type));
	for (i = 0; i < list->count; i++) {
		const struct json_node *bound;
		double le, count;

		/* latency-output's last bucket has no upper bound: null. */
		bound = json_read_member(&list->items[i], "le_s");
		if (bound && bound->type == JSON_NULL)
			le = INFINITY;
		else
			le = need_num(file, &list->items[i], "le_s",
				      " in histogram");
		count = need_num(file, &list->items[i], "count",
				 " in histogram");
		for (j = 0; j < h->n && h->le_s[j] != le; j++)
			;
		if (j == h->n) {
			h->le_s = xreallocarray(h->le_s, h->n + 1,
						sizeof(*h->le_s));
			h->count = xreallocarray(h->count, h->n + 1,
						 sizeof(*h->count));
			h->le_s[h->n] = le;
			h->count[h->n++] = 0;
		}
		h->count[j] += count;
	}
}

/* One latency-output summary (an object) of the compared workload. */
static void load_latency_one(struct cmp_result *r, const char *file,
			     const struct json_node *lat)
{
	const struct json_node *h;
	size_t i;

	if (lat->type != JSON_OBJECT)
		bad(file, "a latency summary is %s, expected an object",
		    a_type(lat->type));
	for (i = 0; i < sizeof(lat_fields) / sizeof(lat_fields[0]); i++) {
		double v;

		if (get_num(file, lat, lat_fields[i].key, &v))
			add_sample(&r->fig[lat_fields[i].fig], v);
	}
	h = json_read_member(lat, "histogram");
	if (h)
		add_hist(&r->hist, file, h);
}

/* Is KEY "WORKLOAD-N", the summary of run N (as run-test.sh names them)? */
static bool is_run_of(const char *key, const char *workload)
{
	size_t len = strlen(workload);

	if (strncmp(key, workload, len) || key[len] != '-' || !key[len + 1])
		return false;
	return strspn(key + len + 1, "0123456789") == strlen(key + len + 1);
}

/*
 * The summary of the compared workload: latency.WORKLOAD, one summary (an
 * object) or one per run (an array of objects), or else one per run under
 * latency.WORKLOAD-1, -2, ...  Per-run summaries give the stall figures
 * samples to test.
 */
static void load_latency(struct cmp_result *r, const char *file,
			 const struct json_node *root, const char *workload)
{
	const struct json_node *all = json_read_member(root, "latency");
	const struct json_node *lat;
	size_t i;

	if (!all || all->type == JSON_NULL)
		return;
	if (all->type != JSON_OBJECT)
		bad(file, "\"latency\" is %s, expected an object",
		    a_type(all->type));
	lat = json_read_member(all, workload);
	if (lat && lat->type == JSON_ARRAY) {
		for (i = 0; i < lat->count; i++)
			load_latency_one(r, file, &lat->items[i]);
	} else if (lat) {
		load_latency_one(r, file, lat);
	} else {
		for (i = 0; i < all->count; i++)
			if (is_run_of(all->items[i].key, workload))
				load_latency_one(r, file, &all->items[i]);
	}
}

static void set_value(struct figure *f, double v)
{
	f->value = v;
}

/*
 * Reclaim stall time: "reclaim_stall_s" if the result has it, else the sum
 * of the parts the trace monitor recorded; NaN when it recorded none.
 */
static double reclaim_of(const char *file, const struct json_node *root)
{
	const struct json_node *trace;
	size_t i, k;
	double v, sum = NAN;

	if (get_num(file, root, "reclaim_stall_s", &v))
		return v;
	for (i = 0; i < sizeof(trace_paths) / sizeof(trace_paths[0]); i++) {
		trace = json_read_path(root, trace_paths[i]);
		if (!trace || trace->type != JSON_OBJECT)
			continue;
		for (k = 0;
		     k < sizeof(reclaim_parts) / sizeof(reclaim_parts[0]); k++)
			if (get_num(file, trace, reclaim_parts[k], &v))
				sum = isnan(sum) ? v : sum + v;
		break;
	}
	return sum;
}

/*
 * The single-valued figures of a result.json; all may be null (a partial
 * run may not have counted its failures).
 */
static void load_scalars(struct cmp_result *r, const char *file,
			 const struct json_node *root)
{
	double v;

	if (get_num(file, root, "failures", &v))
		set_value(&r->fig[FIG_FAILURES], v);
	if (get_num(file, root, "oom_kills", &v))
		set_value(&r->fig[FIG_OOM], v);
	if (get_num(file, root, "pswpout_delta", &v))
		set_value(&r->fig[FIG_SWAPOUT], v);
	set_value(&r->fig[FIG_RECLAIM], reclaim_of(file, root));
}

static void load_run(struct cmp_result *r, const char *file,
		     const struct json_node *root, const struct cmp_options *o)
{
	const struct json_node *runs, *partial;
	size_t i;
	double v;

	r->label = xstrdup(need_type(file, root, "label", JSON_STRING)->str);
	if (!*r->label)
		bad(file, "\"label\" is empty");
	partial = json_read_member(root, "partial");
	if (!partial)
		bad(file, "missing \"partial\"");
	if (partial->type != JSON_TRUE && partial->type != JSON_FALSE)
		bad(file, "\"partial\" is %s, expected true or false",
		    a_type(partial->type));
	r->partial = partial->type == JSON_TRUE;
	runs = need_type(file, root, "gitk_runs", JSON_ARRAY);
	for (i = 0; i < runs->count; i++) {
		if (runs->items[i].type != JSON_OBJECT)
			bad(file, "\"gitk_runs\" holds %s, expected objects",
			    a_type(runs->items[i].type));
		v = need_num(file, &runs->items[i], "elapsed_s",
			     " in gitk_runs");
		if (!(v >= 0))
			bad(file, "negative elapsed_s in gitk_runs");
		add_sample(&r->fig[FIG_ELAPSED], v);
	}
	/* Without per-run times, the driver's own mean is all there is. */
	if (!runs->count && get_num(file, root, "elapsed_mean_s", &v)) {
		set_value(&r->fig[FIG_ELAPSED], v);
		if (get_num(file, root, "elapsed_stddev_s", &v))
			set_value(&r->fig[FIG_STDDEV], v);
	}
	load_scalars(r, file, root);
	load_latency(r, file, root, o->workload);
	r->has_run = true;
}

int cmp_sb_order(const void *a, const void *b)
{
	const struct sb_group *x = a, *y = b;

	if (x->phase != y->phase)
		return x->phase < y->phase ? -1 : 1;
	if (x->size_mib != y->size_mib)
		return x->size_mib < y->size_mib ? -1 : 1;
	if (x->block_bytes != y->block_bytes)
		return x->block_bytes < y->block_bytes ? -1 : 1;
	if (x->threads != y->threads)
		return x->threads < y->threads ? -1 : 1;
	return 0;
}

static struct sb_group *sb_group_of(struct cmp_result *r,
				    const struct sb_group *key)
{
	struct sb_group *g = (struct sb_group *)cmp_sb_find(r, key);

	if (g)
		return g;
	r->sb = xreallocarray(r->sb, r->n_sb + 1, sizeof(*r->sb));
	g = &r->sb[r->n_sb++];
	*g = *key;
	g->n = 0;
	g->rate = NULL;
	g->cpu = NULL;
	return g;
}

/* One entry of a seqbench "results" list: a run of each present phase. */
static void load_sb_entry(struct cmp_result *r, const char *file,
			  const struct json_node *e)
{
	const char *where = " in seqbench results";
	struct sb_group key = { 0 };
	const struct json_node *phases;
	int ph;

	if (e->type != JSON_OBJECT)
		bad(file, "\"results\" holds %s, expected objects",
		    a_type(e->type));
	key.size_mib = need_num(file, e, "size_mib", where);
	key.block_bytes = need_num(file, e, "block_bytes", where);
	key.threads = need_num(file, e, "threads", where);
	phases = need_type(file, e, "phases", JSON_OBJECT);
	for (ph = 0; ph < SB_PHASES; ph++) {
		const struct json_node *p;
		struct sb_group *g;
		double cpu;

		p = json_read_member(phases, sb_phase_name[ph]);
		if (!p || p->type == JSON_NULL)
			continue;
		key.phase = (enum sb_phase)ph;
		g = sb_group_of(r, &key);
		g->rate = xreallocarray(g->rate, g->n + 1, sizeof(*g->rate));
		g->cpu = xreallocarray(g->cpu, g->n + 1, sizeof(*g->cpu));
		g->rate[g->n] = need_num(file, p, "rate_mib_s", where);
		g->cpu[g->n] = get_num(file, p, "cpu_pct", &cpu) ? cpu : NAN;
		g->n++;
	}
}

static void load_seqbench(struct cmp_result *r, const char *file,
			  const struct json_node *root)
{
	const struct json_node *list, *v;
	size_t i;

	list = need_type(file, root, "results", JSON_ARRAY);
	for (i = 0; i < list->count; i++)
		load_sb_entry(r, file, &list->items[i]);
	if (r->n_sb > 1)
		qsort(r->sb, r->n_sb, sizeof(*r->sb), cmp_sb_order);
	/* An interrupted seqbench is as partial as an interrupted run. */
	v = json_read_member(root, "interrupted");
	if (v && v->type == JSON_TRUE)
		r->partial = true;
	if (!r->label && json_read_string(root, "label"))
		r->label = xstrdup(json_read_string(root, "label"));
}

/* The last component of PATH without trailing slashes or SUFFIX. */
static char *base_name(const char *path, const char *suffix)
{
	char *s = xstrdup(path), *b;
	size_t len = strlen(s), sl = strlen(suffix);

	while (len > 1 && s[len - 1] == '/')
		s[--len] = '\0';
	b = strrchr(s, '/');
	b = xstrdup(b && b[1] ? b + 1 : s);
	free(s);
	len = strlen(b);
	if (len > sl && !strcmp(b + len - sl, suffix))
		b[len - sl] = '\0';
	return b;
}

/* Mean, deviation and intervals from the per-run samples. */
static void derive(struct cmp_result *r)
{
	struct figure *e = &r->fig[FIG_ELAPSED];
	int f;

	for (f = 0; f < FIG_COUNT; f++)
		if (r->fig[f].n)
			r->fig[f].value =
				stats_mean_of(r->fig[f].samples, r->fig[f].n);
	if (e->n >= 2) {
		r->fig[FIG_STDDEV].value = stats_stddev_of(e->samples, e->n);
		r->fig[FIG_CI95].value =
			stats_ci_of(e->samples, e->n, 0.95).half;
		r->fig[FIG_CI99].value =
			stats_ci_of(e->samples, e->n, 0.99).half;
	}
	if (e->value > 0 && !isnan(r->fig[FIG_STDDEV].value))
		r->fig[FIG_CV].value =
			r->fig[FIG_STDDEV].value / e->value * 100.0;
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static void load_dir(struct cmp_result *r, const char *dir,
		     const struct cmp_options *o)
{
	char *run = xasprintf("%s/result.json", dir);
	char *sb = xasprintf("%s/seqbench.json", dir);
	struct json_node *root;

	if (exists(run) || !exists(sb)) {
		root = load_json(run);
		load_run(r, run, root, o);
		json_read_free(root);
	}
	if (exists(sb)) {
		root = load_json(sb);
		load_seqbench(r, sb, root);
		json_read_free(root);
		if (!r->label)
			r->label = base_name(dir, "");
	}
	free(run);
	free(sb);
}

void cmp_load(struct cmp_result *r, const char *path,
	      const struct cmp_options *o)
{
	struct json_node *root;
	struct stat st;
	int f;

	memset(r, 0, sizeof(*r));
	for (f = 0; f < FIG_COUNT; f++)
		r->fig[f].value = NAN;
	r->path = xstrdup(path);
	if (stat(path, &st))
		die_errno(EXIT_RUN_FAILED, "cannot open '%s'", path);
	if (S_ISDIR(st.st_mode)) {
		load_dir(r, path, o);
	} else {
		root = load_json(path);
		if (json_read_member(root, "gitk_runs"))
			load_run(r, path, root, o);
		else if (json_read_member(root, "results"))
			load_seqbench(r, path, root);
		else
			bad(path, "neither a run-test.sh result (no "
				  "\"gitk_runs\") nor a seqbench result (no "
				  "\"results\")");
		json_read_free(root);
		if (!r->label)
			r->label = base_name(path, ".json");
	}
	derive(r);
}

void cmp_result_release(struct cmp_result *r)
{
	size_t i;
	int f;

	for (f = 0; f < FIG_COUNT; f++)
		free(r->fig[f].samples);
	for (i = 0; i < r->n_sb; i++) {
		free(r->sb[i].rate);
		free(r->sb[i].cpu);
	}
	free(r->sb);
	free(r->hist.le_s);
	free(r->hist.count);
	free(r->label);
	free(r->path);
}

static struct change change_of(double b, double v, enum change_kind kind,
			       const double *bs, size_t bn, const double *vs,
			       size_t vn, double alpha)
{
	struct change c = { NAN, NAN, false };

	if (!isnan(b) && !isnan(v)) {
		if (kind == CHANGE_DIFF)
			c.delta = v - b;
		else if (b != 0)
			c.delta = (v - b) / fabs(b) * 100.0;
		else if (v == 0)
			c.delta = 0;
	}
	if (bn >= 2 && vn >= 2) {
		c.p = stats_welch_test(bs, bn, vs, vn).p;
		c.significant = c.p < alpha;
	}
	return c;
}

struct change cmp_change(const struct cmp_result *base,
			 const struct cmp_result *r, enum fig f, double alpha)
{
	const struct figure *b = &base->fig[f], *v = &r->fig[f];

	return change_of(b->value, v->value, fig_desc[f].change, b->samples,
			 b->n, v->samples, v->n, alpha);
}

const struct sb_group *cmp_sb_find(const struct cmp_result *r,
				   const struct sb_group *key)
{
	size_t i;

	for (i = 0; i < r->n_sb; i++)
		if (!cmp_sb_order(&r->sb[i], key))
			return &r->sb[i];
	return NULL;
}

struct change cmp_sb_change(const struct cmp_result *base,
			    const struct sb_group *g, double alpha)
{
	const struct sb_group *b = cmp_sb_find(base, g);
	struct change none = { NAN, NAN, false };

	if (!b)
		return none;
	return change_of(stats_mean_of(b->rate, b->n),
			 stats_mean_of(g->rate, g->n), CHANGE_PCT, b->rate,
			 b->n, g->rate, g->n, alpha);
}
