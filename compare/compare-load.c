// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading results for latency-compare: a run-test.sh result directory
 * (doc/design.md, contract 3: its result.json, which holds the seqbench
 * and ringbench passes too), or a JSON file given directly.  Input is checked field by field,
 * because a wrong comparison published on a mailing list costs more than a
 * refused file: every problem ends the load with one line naming the file
 * and the key, and cmp_load() returns the status for main to exit with.  A result may come from anyone, so nothing in it is trusted:
 * no string from it is printed in a message, and sizes and values are
 * bounded.  Also the figures derived from each result's runs.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <setjmp.h>
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
#include "compare/compare.h"

/* Results are a few kilobytes; anything this big is not one. */
#define MAX_RESULT_BYTES (64u << 20)

/*
 * Bounds on what a result may hold.  A result file may come from anyone
 * (bug reports, CI artifacts): no figure is negative or beyond any real
 * count, labels stay printable in a table, and the lists that are merged
 * by lookup stay short enough that merging is not quadratic in the file.
 */
#define MAX_FIGURE 1e15
#define MAX_LABEL_BYTES 200
#define MAX_HIST_BUCKETS 1024  /* latency-output writes about 30 */
#define MAX_HIST_ENTRIES 65536 /* over all summaries of a result */
#define MAX_SB_GROUPS 1024
#define MAX_SB_ENTRIES 65536
#define MAX_RB_RUNS 65536
/* The most pairs an interleaved run's order may list, or a series of boots. */
#define ORDER_MAX_PAIRS 100000
/* A series of boots is named by a time and a pid: 30 bytes or so. */
#define MAX_SERIES_BYTES 100
/* The most CPUs a latency-vm host may have. */
#define MAX_HOST_CPUS 4096

/* The format versions of result.json this program reads. */
#define MIN_VERSION 1
#define MAX_VERSION 2

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

static const char *const pressure_modes[] = { "global", "memcg", "none" };

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

static noreturn void refuse(int errnum, const char *fmt, ...) PRINTF_LIKE(2, 3);
static noreturn void bad(const char *file, const char *fmt, ...)
	PRINTF_LIKE(2, 3);

/*
 * Where a refusal goes back to: cmp_load(), which frees what the load
 * held outside the result (the result itself is its caller's to release)
 * and returns EXIT_RUN_FAILED.  The loader checks a hostile file at a
 * hundred places, each of which would otherwise unwind by hand.
 */
static struct {
	jmp_buf back;
	struct json_node *tree; /* the JSON being read */
	char *path;		/* a directory's result.json */
	char *config;		/* a ringbench configuration being built */
} held;

/*
 * A result refused: one line (ERRNUM: the cause, 0 for none), then back
 * to cmp_load().  Nothing allocated may be live in a frame it leaves: the
 * messages are built in buffers.
 */
static noreturn void refuse(int errnum, const char *fmt, ...)
{
	char msg[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	(void)error_err(errnum, "%s", msg); /* -1: the status is ours */
	longjmp(held.back, 1);
}

/* FILE is the user's own argument; nothing from inside a file is quoted. */
static noreturn void bad(const char *file, const char *fmt, ...)
{
	char msg[512], line[8192], *f = text_escape(file);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "'%s': %s", f, msg);
	free(f);
	refuse(0, "%s", line);
}

/* "WHAT 'FILE'" refused with ERRNUM, FILE escaped. */
static noreturn void refuse_file(int errnum, const char *what, const char *file)
{
	char line[8192], *f = text_escape(file);

	snprintf(line, sizeof(line), "%s '%s'", what, f);
	free(f);
	refuse(errnum, "%s", line);
}

static struct json_node *load_json(const char *file, int *version)
{
	struct json_read_error err;
	struct json_node *root;
	const struct json_node *v;
	int r = json_read_file(file, MAX_RESULT_BYTES, &root, &err);

	if (r == -EINVAL && !err.line)
		bad(file, "not a regular file");
	if (r == -EINVAL) {
		char line[8192], *f = text_escape(file);

		snprintf(line, sizeof(line),
			 "invalid JSON in '%s' at line %zu, column %zu: %s", f,
			 err.line, err.column, err.msg);
		free(f);
		refuse(0, "%s", line);
	}
	if (r == -EFBIG)
		bad(file, "larger than %u MiB, not a result",
		    MAX_RESULT_BYTES >> 20);
	if (r)
		refuse_file(-r, "cannot read", file);
	held.tree = root;
	if (root->type != JSON_OBJECT)
		bad(file, "%s, expected a JSON object", a_type(root->type));
	v = json_read_member(root, "format_version");
	if (!v)
		bad(file, "no \"format_version\": not a latency-tests result");
	if (v->type != JSON_NUMBER)
		bad(file, "\"format_version\" is %s, expected a number",
		    a_type(v->type));
	if (v->num != floor(v->num) || v->num < MIN_VERSION ||
	    v->num > MAX_VERSION)
		bad(file,
		    "unsupported format_version %.6g (this %s reads %d to %d)",
		    v->num, progname(), MIN_VERSION, MAX_VERSION);
	*version = (int)v->num;
	return root;
}

/*
 * The number at PATH below N (named NAME in messages) into *OUT: false
 * when absent or null; dies when it is another type or out of [0,
 * MAX_FIGURE].
 */
static bool get_num(const char *file, const struct json_node *n,
		    const char *path, const char *name, double *out)
{
	int r = json_read_number(n, path, out);

	if (r == -EINVAL)
		bad(file, "\"%s\" is %s, expected a number", name,
		    a_type(json_read_path(n, path)->type));
	if (r)
		return false;
	if (!(*out >= 0 && *out <= MAX_FIGURE))
		bad(file, "\"%s\" is %.6g, expected 0 to %g", name, *out,
		    MAX_FIGURE);
	return true;
}

bool cmp_get_num(const char *file, const struct json_node *n, const char *path,
		 const char *name, double *out)
{
	return get_num(file, n, path, name, out);
}

static double need_num(const char *file, const struct json_node *n,
		       const char *path, const char *name)
{
	double v;

	if (!get_num(file, n, path, name, &v))
		bad(file, "missing \"%s\"", name);
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

/*
 * The object at PATH of ROOT: NULL when absent or null (a part the result
 * does not have); dies when it is another type.
 */
static const struct json_node *
get_object(const char *file, const struct json_node *root, const char *path)
{
	const struct json_node *o = json_read_path(root, path);

	if (!o || o->type == JSON_NULL)
		return NULL;
	if (o->type != JSON_OBJECT)
		bad(file, "\"%s\" is %s, expected an object", path,
		    a_type(o->type));
	return o;
}

/*
 * The string V (named NAME) as a label: dies on another type, an empty
 * string, a NUL inside (it would cut the label short silently) or more
 * than MAX_LABEL_BYTES.
 */
static const char *label_of(const char *file, const struct json_node *v,
			    const char *name)
{
	if (v->type != JSON_STRING)
		bad(file, "\"%s\" is %s, expected a string", name,
		    a_type(v->type));
	if (!v->len)
		bad(file, "\"%s\" is empty", name);
	if (strlen(v->str) != v->len)
		bad(file, "\"%s\" holds a NUL character", name);
	if (v->len > MAX_LABEL_BYTES)
		bad(file, "\"%s\" is longer than %d bytes", name,
		    MAX_LABEL_BYTES);
	return v->str;
}

/*
 * The string at KEY of N, as a label (label_of()): NULL when absent (or
 * null, when NULL_OK).
 */
static const char *get_label(const char *file, const struct json_node *n,
			     const char *key, bool null_ok)
{
	const struct json_node *v = json_read_member(n, key);

	if (!v || (null_ok && v->type == JSON_NULL))
		return NULL;
	return label_of(file, v, key);
}

static void add_sample(struct figure *f, double x)
{
	f->samples = xreallocarray(f->samples, f->n + 1, sizeof(*f->samples));
	f->samples[f->n++] = x;
}

/* Add COUNT gaps to bucket LE of H; false when H is full. */
static bool hist_add_bucket(struct cmp_hist *h, double le, double count)
{
	size_t j;

	for (j = 0; j < h->n && h->le_s[j] != le; j++)
		;
	if (j == h->n) {
		if (h->n >= MAX_HIST_BUCKETS)
			return false;
		h->le_s = xreallocarray(h->le_s, h->n + 1, sizeof(*h->le_s));
		h->count = xreallocarray(h->count, h->n + 1, sizeof(*h->count));
		h->le_s[h->n] = le;
		h->count[h->n++] = 0;
	}
	h->count[j] += count;
	return true;
}

bool cmp_hist_add(struct cmp_hist *to, const struct cmp_hist *from)
{
	size_t i;

	for (i = 0; i < from->n; i++)
		if (!hist_add_bucket(to, from->le_s[i], from->count[i]))
			return false;
	return true;
}

/* Add the counts of histogram H (a latency-output "histogram" list). */
static void add_hist(struct cmp_hist *h, const char *file,
		     const struct json_node *list, size_t *entries)
{
	size_t i;

	if (list->type != JSON_ARRAY)
		bad(file, "\"histogram\" is %s, expected an array",
		    a_type(list->type));
	*entries += list->count;
	if (*entries > MAX_HIST_ENTRIES)
		bad(file, "more than %d histogram entries", MAX_HIST_ENTRIES);
	for (i = 0; i < list->count; i++) {
		const struct json_node *b = &list->items[i], *bound;
		double le, count;

		if (b->type != JSON_OBJECT)
			bad(file, "\"histogram\" holds %s, expected objects",
			    a_type(b->type));
		/* latency-output's last bucket has no upper bound: null. */
		bound = json_read_member(b, "le_s");
		if (bound && bound->type == JSON_NULL)
			le = INFINITY;
		else
			le = need_num(file, b, "le_s", "le_s in histogram");
		count = need_num(file, b, "count", "count in histogram");
		if (!hist_add_bucket(h, le, count))
			bad(file, "more than %d histogram buckets",
			    MAX_HIST_BUCKETS);
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

		if (get_num(file, lat, lat_fields[i].key, lat_fields[i].key,
			    &v))
			add_sample(&r->fig[lat_fields[i].fig], v);
	}
	h = json_read_member(lat, "histogram");
	if (h)
		add_hist(&r->hist, file, h, &r->hist_entries);
	r->has_workload = true;
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
	const struct json_node *all = get_object(file, root, "latency");
	const struct json_node *lat;
	size_t i;

	if (!all)
		return;
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

/*
 * Reclaim stall time: "reclaim_stall_s" if the result has it, else the sum
 * of the parts the trace monitor recorded; NaN when it recorded none.
 */
static double reclaim_of(const char *file, const struct json_node *root)
{
	const struct json_node *trace;
	size_t i, k;
	double v, sum = NAN;

	if (get_num(file, root, "reclaim_stall_s", "reclaim_stall_s", &v))
		return v;
	for (i = 0; i < sizeof(trace_paths) / sizeof(trace_paths[0]); i++) {
		trace = json_read_path(root, trace_paths[i]);
		if (!trace || trace->type != JSON_OBJECT)
			continue;
		for (k = 0;
		     k < sizeof(reclaim_parts) / sizeof(reclaim_parts[0]); k++)
			if (get_num(file, trace, reclaim_parts[k],
				    reclaim_parts[k], &v))
				sum = isnan(sum) ? v : sum + v;
		break;
	}
	return sum;
}

/*
 * The block figures of result.json "block" (latency-block): of the first
 * request-based device that completed IO, in latency-block's order (the
 * driver names the scratch directory's stack first, top down: the disk
 * under a crypt and LVM stack, whose bio-based layers have no requests;
 * then the results' device and the swap devices), its completed
 * requests and bytes, merges, IO unplugs over the monitor's window and
 * Q2C p99.  Absent or null: NaN (an older result, a run without tracing
 * for what only tracing sees).
 */
static void load_block(struct cmp_result *r, const char *file,
		       const struct json_node *root)
{
	const struct json_node *devs = json_read_path(root, "block.devices");
	const struct json_node *best = NULL;
	double best_bytes = 0, rq = 0, bytes = 0, merges = 0, v, s;
	int n_merges = 0;
	const char *const dirs[] = { "reads", "writes" };
	char name[96];
	size_t i, k;

	if (!devs || devs->type != JSON_ARRAY)
		return;
	for (i = 0; i < devs->count && i < 4096; i++) {
		const struct json_node *d = &devs->items[i], *rb;

		if (d->type != JSON_OBJECT)
			continue;
		rb = json_read_member(d, "request_based");
		if (!rb || rb->type != JSON_TRUE)
			continue;
		for (k = 0, s = 0; k < 2; k++) {
			snprintf(name, sizeof(name),
				 "block.devices[%zu].%s.completed_bytes", i,
				 dirs[k]);
			if (get_num(file, json_read_member(d, dirs[k]),
				    "completed_bytes", name, &v))
				s += v;
		}
		if (s > 0) {
			best_bytes = s;
			best = d;
			break;
		}
	}
	if (!best || !(best_bytes > 0))
		return;
	for (k = 0; k < 2; k++) {
		const struct json_node *x = json_read_member(best, dirs[k]);

		if (get_num(file, x, "completed", "block completed", &v))
			rq += v;
		if (get_num(file, x, "completed_bytes", "block bytes", &v))
			bytes += v;
		if (get_num(file, x, "merges", "block merges", &v)) {
			merges += v;
			n_merges++;
		}
	}
	if (!(rq > 0))
		return;
	r->fig[FIG_BLOCK_RQ_PER_MIB].value = rq / (bytes / (1024.0 * 1024));
	r->fig[FIG_BLOCK_RQ_BYTES].value = bytes / rq;
	if (n_merges == 2)
		r->fig[FIG_BLOCK_MERGES_PER_RQ].value = merges / rq;
	if (get_num(file, best, "unplugs_io", "block unplugs_io", &v) &&
	    get_num(file, json_read_member(root, "block"), "duration_s",
		    "block.duration_s", &s) &&
	    s > 0)
		r->fig[FIG_BLOCK_UNPLUGS_PER_S].value = v / s;
	if (get_num(file, json_read_member(best, "q2c_us"), "p99",
		    "block q2c_us.p99", &v))
		r->fig[FIG_BLOCK_Q2C_P99].value = v;
}

/*
 * The single-valued figures of a result.json; all may be null (a partial
 * run may not have counted its failures).
 */
static void load_scalars(struct cmp_result *r, const char *file,
			 const struct json_node *root)
{
	double v;

	if (get_num(file, root, "failures", "failures", &v))
		r->fig[FIG_FAILURES].value = v;
	if (get_num(file, root, "oom_kills", "oom_kills", &v))
		r->fig[FIG_OOM].value = v;
	if (get_num(file, root, "pswpout_delta", "pswpout_delta", &v))
		r->fig[FIG_SWAPOUT].value = v;
	r->fig[FIG_RECLAIM].value = reclaim_of(file, root);
	load_block(r, file, root);
}

/*
 * The time split per user-CPU second of a run whose result is older than
 * it (elapsed_s, user_s and sys_s, but not the ratios), as
 * latency-summarize computes it.
 */
static void run_split(double *x, const char *file, const struct json_node *run,
		      size_t i)
{
	double e = x[FIG_ELAPSED], u = x[FIG_USER], s, w;
	char name[64];

	if (isnan(e) || isnan(u) || !(u > 0))
		return;
	if (isnan(x[FIG_EPU]))
		x[FIG_EPU] = e / u;
	if (isnan(x[FIG_ERPU]) && !isnan(x[FIG_RUNQ]) && e > x[FIG_RUNQ])
		x[FIG_ERPU] = (e - x[FIG_RUNQ]) / u;
	snprintf(name, sizeof(name), "gitk_runs[%zu].sys_s", i);
	if (!get_num(file, run, "sys_s", name, &s))
		return;
	w = e - u - s > 0 ? e - u - s : 0;
	if (isnan(x[FIG_SPU]))
		x[FIG_SPU] = s / u;
	if (isnan(x[FIG_WPU]))
		x[FIG_WPU] = w / u;
}

/*
 * One entry of gitk_runs: elapsed_s must be there (null: the run has no
 * time); the kernel's figures (format_version 2) may each be absent or
 * null.
 */
static void load_gitk_run(struct cmp_result *r, const char *file,
			  const struct json_node *run, size_t i)
{
	/* On the stack: nothing to free when bad() ends the load. */
	double v, x[FIG_COUNT];
	char name[64];
	int f;

	if (run->type != JSON_OBJECT)
		bad(file, "\"gitk_runs[%zu]\" is %s, expected an object", i,
		    a_type(run->type));
	if (!json_read_member(run, "elapsed_s"))
		bad(file, "missing \"gitk_runs[%zu].elapsed_s\"", i);
	for (f = 0; f < FIG_COUNT; f++) {
		x[f] = NAN;
		if (!fig_desc[f].run_key)
			continue;
		snprintf(name, sizeof(name), "gitk_runs[%zu].%s", i,
			 fig_desc[f].run_key);
		if (get_num(file, run, fig_desc[f].run_key, name, &v))
			x[f] = v;
	}
	run_split(x, file, run, i);
	for (f = 0; f < FIG_COUNT; f++) {
		if (!fig_desc[f].run_key)
			continue;
		/* A ratio on logs needs a value above 0. */
		if (!isnan(x[f]) && !(fig_desc[f].log && x[f] <= 0))
			add_sample(&r->fig[f], x[f]);
		else
			x[f] = NAN;
		r->per_run[f] = xreallocarray(r->per_run[f], i + 1,
					      sizeof(*r->per_run[f]));
		r->per_run[f][i] = x[f];
	}
	r->n_runs = i + 1;
}

/*
 * gitk_runs[].high_order: null or absent (the probe's log was not read),
 * or a list of {"order", "attempts", "successes"}, the probes made during
 * that run.  Only when every run has one are the runs the clusters of
 * R's orders (an order a run does not list had no attempt in it).
 */
static void load_ho_runs(struct cmp_result *r, const char *file,
			 const struct json_node *root)
{
	const struct json_node *runs = json_read_member(root, "gitk_runs");
	char name[80];
	size_t i, k, o;

	if (!runs || runs->type != JSON_ARRAY || runs->count < 2)
		return;
	for (i = 0; i < runs->count; i++) {
		const struct json_node *l =
			runs->items[i].type == JSON_OBJECT
				? json_read_member(&runs->items[i],
						   "high_order")
				: NULL;

		if (!l || l->type != JSON_ARRAY)
			return;
	}
	for (o = 0; o < r->n_ho; o++) {
		struct cmp_ho *h = &r->ho[o];

		h->per_run = true;
		for (i = 0; i < runs->count; i++) {
			const struct json_node *l =
				json_read_member(&runs->items[i], "high_order");
			double order, att = 0, suc = 0;
			bool found = false;

			for (k = 0; k < l->count && !found; k++) {
				const struct json_node *e = &l->items[k];

				snprintf(name, sizeof(name),
					 "gitk_runs[%zu].high_order[%zu]", i,
					 k);
				if (e->type != JSON_OBJECT)
					bad(file,
					    "\"%s\" is %s, expected an "
					    "object",
					    name, a_type(e->type));
				order = need_num(file, e, "order", name);
				att = need_num(file, e, "attempts", name);
				suc = need_num(file, e, "successes", name);
				if (order != floor(order) ||
				    att != floor(att) || suc != floor(suc) ||
				    att < 0 || suc < 0 || suc > att ||
				    att > 9007199254740992.0)
					bad(file,
					    "\"%s\": not whole attempts and "
					    "successes",
					    name);
				found = order == h->order && att > 0;
			}
			if (found)
				cmp_ho_add_run(h, (uint64_t)att, (uint64_t)suc);
		}
	}
}

/*
 * "high_order": absent or null (no probe), or a list of {"order",
 * "attempts", "successes", "fault_p99_us" (null or absent when unknown),
 * ...}; an entry whose counts are null (the probe's were not valid) is
 * left out.  The p99 fault time of every probe is the probe's own summary
 * copied into monitors.highorder.
 */
static void load_high_order(struct cmp_result *r, const char *file,
			    const struct json_node *root)
{
	const struct json_node *list = json_read_member(root, "high_order");
	char name[64];
	double order, att, suc, p99;
	size_t i;

	if (get_num(file, root, "monitors.highorder.fault_p99_us",
		    "monitors.highorder.fault_p99_us", &p99))
		r->ho_p99_us = p99;
	if (!list || list->type == JSON_NULL)
		return;
	list = need_type(file, root, "high_order", JSON_ARRAY);
	for (i = 0; i < list->count; i++) {
		const struct json_node *e = &list->items[i];
		struct cmp_ho h;

		memset(&h, 0, sizeof(h));
		if (e->type != JSON_OBJECT)
			bad(file,
			    "\"high_order[%zu]\" is %s, expected an object", i,
			    a_type(e->type));
		snprintf(name, sizeof(name), "high_order[%zu].order", i);
		order = need_num(file, e, "order", name);
		snprintf(name, sizeof(name), "high_order[%zu].attempts", i);
		if (!get_num(file, e, "attempts", name, &att))
			continue;
		snprintf(name, sizeof(name), "high_order[%zu].successes", i);
		suc = need_num(file, e, "successes", name);
		if (order != floor(order) || order < 1 || order > 63 ||
		    att != floor(att) || suc != floor(suc) || suc > att)
			bad(file,
			    "\"high_order[%zu]\": not an order 1 to 63 "
			    "with whole attempts and successes",
			    i);
		h.order = (unsigned)order;
		h.attempts = (uint64_t)att;
		h.successes = (uint64_t)suc;
		snprintf(name, sizeof(name), "high_order[%zu].fault_p99_us", i);
		h.fault_p99_n = get_num(file, e, "fault_p99_us", name, &p99);
		h.fault_p99_sum_us = h.fault_p99_n ? p99 : 0;
		if (cmp_ho_find_in(r->ho, r->n_ho, h.order))
			bad(file, "\"high_order\" lists order %u twice",
			    h.order);
		cmp_ho_add(&r->ho, &r->n_ho, &h);
	}
	load_ho_runs(r, file, root);
}

/* "pressure": null, or {"mode", "ratio", "footprint_bytes", ...}. */
static void load_pressure(struct cmp_pressure *p, const char *file,
			  const struct json_node *root)
{
	const struct json_node *o = get_object(file, root, "pressure");
	const struct json_node *mode;
	size_t i;

	p->ratio = p->footprint = p->memory = NAN;
	if (!o)
		return;
	mode = need_type(file, root, "pressure.mode", JSON_STRING);
	for (i = 0; i < sizeof(pressure_modes) / sizeof(pressure_modes[0]); i++)
		if (!strcmp(mode->str, pressure_modes[i]))
			break;
	if (i == sizeof(pressure_modes) / sizeof(pressure_modes[0]) ||
	    strlen(mode->str) != mode->len)
		bad(file, "\"pressure.mode\" is none of global, memcg, none");
	snprintf(p->mode, sizeof(p->mode), "%s", pressure_modes[i]);
	get_num(file, o, "ratio", "pressure.ratio", &p->ratio);
	if (p->ratio == 0)
		bad(file,
		    "\"pressure.ratio\" is 0, expected a positive number");
	get_num(file, o, "footprint_bytes", "pressure.footprint_bytes",
		&p->footprint);
	get_num(file, o, "memory_bytes", "pressure.memory_bytes", &p->memory);
	p->known = true;
}

/* A string of "interleave" (a label's bounds), NULL when absent. */
static char *il_str(const char *file, const struct json_node *o,
		    const char *key)
{
	const char *v = get_label(file, o, key, true);

	return v ? xstrdup(v) : NULL;
}

/*
 * "interleave": null or absent, or the arm of an interleaved run: "name",
 * "values" (two strings), "arm" ("a" or "b"), "order" (A and B only),
 * "seed" and "other" (the other arm's run_label); anything else in it
 * is an error, as it would pair runs wrongly.
 */
static void load_interleave(struct cmp_interleave *il, const char *file,
			    const struct json_node *root)
{
	const struct json_node *o = get_object(file, root, "interleave");
	const struct json_node *v, *ord;

	il->seed = NAN;
	if (!o)
		return;
	il->name = il_str(file, o, "name");
	il->arm = il_str(file, o, "arm");
	il->other = il_str(file, o, "other");
	v = need_type(file, root, "interleave.values", JSON_ARRAY);
	if (v->count != 2 || v->items[0].type != JSON_STRING ||
	    v->items[1].type != JSON_STRING)
		bad(file, "\"interleave.values\" is not two strings");
	il->values = xasprintf("%s,%s", v->items[0].str, v->items[1].str);
	ord = need_type(file, root, "interleave.order", JSON_STRING);
	if (!ord->len || ord->len > 2 * ORDER_MAX_PAIRS ||
	    strspn(ord->str, "AB") != ord->len)
		bad(file, "\"interleave.order\" is not a string of A and B");
	il->order = xstrdup(ord->str);
	if (!get_num(file, o, "seed", "interleave.seed", &il->seed))
		il->seed = NAN;
	if (!il->name || !il->arm || !il->other ||
	    (strcmp(il->arm, "a") && strcmp(il->arm, "b")))
		bad(file, "\"interleave\" lacks its name, its arm (a or b) or "
			  "the other arm");
	il->on = true;
}

/*
 * The number at KEY of O (named NAME); dies when it is absent or not a
 * number (null included: a member that must be there).
 */
static double need_number(const char *file, const struct json_node *o,
			  const char *key, const char *name)
{
	const struct json_node *v = json_read_member(o, key);

	if (!v)
		bad(file, "missing \"%s\"", name);
	if (v->type != JSON_NUMBER)
		bad(file, "\"%s\" is %s, expected a number", name,
		    a_type(v->type));
	return v->num;
}

/*
 * The whole number at KEY of O (named NAME) from LO to HI; dies when it
 * is absent, not a number or not one of them.
 */
static double need_whole(const char *file, const struct json_node *o,
			 const char *key, const char *name, double lo,
			 double hi)
{
	double v = need_number(file, o, key, name);

	if (v != floor(v) || v < lo || v > hi)
		bad(file, "\"%s\" is %.6g, expected a whole number %g to %g",
		    name, v, lo, hi);
	return v;
}

/*
 * "vm.boots.series": what tells the boots of one series from another's
 * (latency-vm's start time and pid), printed in the notes: printable
 * ASCII, so that no byte of it can move a terminal's cursor or end a
 * line of the report.
 */
static const char *boots_series(const char *file, const struct json_node *root)
{
	const struct json_node *v =
		need_type(file, root, "vm.boots.series", JSON_STRING);
	size_t i;

	if (!v->len)
		bad(file, "\"vm.boots.series\" is empty");
	if (v->len > MAX_SERIES_BYTES)
		bad(file, "\"vm.boots.series\" is longer than %d bytes",
		    MAX_SERIES_BYTES);
	for (i = 0; i < v->len; i++)
		if (v->str[i] < ' ' || v->str[i] > '~')
			bad(file, "\"vm.boots.series\" holds a byte that is "
				  "not printable ASCII");
	return v->str;
}

/* "vm.boots.order": PAIRS pairs, each AB or BA. */
static const char *boots_order(const char *file, const struct json_node *root,
			       size_t pairs)
{
	const struct json_node *v =
		need_type(file, root, "vm.boots.order", JSON_STRING);
	size_t i;

	for (i = 0; v->len == 2 * pairs && i < v->len; i += 2)
		if (strncmp(v->str + i, "AB", 2) &&
		    strncmp(v->str + i, "BA", 2))
			break;
	if (v->len != 2 * pairs || i < v->len)
		bad(file, "\"vm.boots.order\" is not %zu pairs of AB or BA",
		    pairs);
	return v->str;
}

/*
 * "vm.boots": null or absent, or the boot of a latency-vm --pairs series
 * this result is.  The boots of two labels are tested in pairs on the
 * strength of it, so every member must be there with its type and in
 * range, and the result's LABEL must be its arm's.
 */
static void load_boots(struct cmp_boots *b, const char *file,
		       const struct json_node *root, const char *label)
{
	const struct json_node *o = get_object(file, root, "vm.boots");
	const struct json_node *v;
	const char *series, *order, *arm, *labels[2];
	char name[32];
	double pairs, pair, seed;
	int i;

	if (!o)
		return;
	series = boots_series(file, root);
	pairs = need_whole(file, o, "pairs", "vm.boots.pairs", 1,
			   ORDER_MAX_PAIRS);
	order = boots_order(file, root, (size_t)pairs);
	/*
	 * Any seed of latency-plan's, a 64-bit number (2^64 - 1 reads as
	 * 2^64; above 2^53 seeds read rounded, and the series' name and
	 * order still tell series apart).
	 */
	seed = need_whole(file, o, "seed", "vm.boots.seed", 0, 0x1p64);
	pair = need_whole(file, o, "pair", "vm.boots.pair", 1, pairs);
	v = need_type(file, root, "vm.boots.arm", JSON_STRING);
	arm = v->str;
	if (v->len != 1 || (*arm != 'a' && *arm != 'b'))
		bad(file, "\"vm.boots.arm\" is neither \"a\" nor \"b\"");
	v = need_type(file, root, "vm.boots.labels", JSON_ARRAY);
	if (v->count != 2)
		bad(file, "\"vm.boots.labels\" is not two labels");
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "vm.boots.labels[%d]", i);
		labels[i] = label_of(file, &v->items[i], name);
	}
	if (strcmp(label, labels[*arm - 'a']))
		bad(file,
		    "\"label\" is not \"vm.boots.labels[%d]\", the label "
		    "of arm %c",
		    *arm - 'a', *arm);
	b->series = xstrdup(series);
	b->order = xstrdup(order);
	b->labels[0] = xstrdup(labels[0]);
	b->labels[1] = xstrdup(labels[1]);
	b->seed = seed;
	b->pairs = (size_t)pairs;
	b->pair = (size_t)pair;
	b->arm = *arm;
	b->on = true;
}

/*
 * "vm.host": null or absent (not measured), or the host's load from the
 * guest's start of the suite until QEMU exited: "cpus" (the host's
 * online CPUs), "wall_s", "qemu_cpu_s", "others_cpu_s", "kthreads_cpu_s"
 * and "others_cpus" (others_cpu_s / wall_s).  A busier host is named
 * instead of a kernel change on the strength of it, so every member must
 * be there with its type and in range.
 */
static void load_host(struct cmp_host *h, const char *file,
		      const struct json_node *root)
{
	enum { WALL, QEMU, OTHERS, KTHREADS, OTHERS_CPUS, KEYS };
	static const char *const keys[KEYS] = {
		[WALL] = "wall_s",
		[QEMU] = "qemu_cpu_s",
		[OTHERS] = "others_cpu_s",
		[KTHREADS] = "kthreads_cpu_s",
		[OTHERS_CPUS] = "others_cpus",
	};
	const struct json_node *o = get_object(file, root, "vm.host");
	double v[KEYS];
	char name[32];
	size_t i;

	if (!o)
		return;
	h->cpus = need_whole(file, o, "cpus", "vm.host.cpus", 1, MAX_HOST_CPUS);
	for (i = 0; i < KEYS; i++) {
		snprintf(name, sizeof(name), "vm.host.%s", keys[i]);
		v[i] = need_number(file, o, keys[i], name);
		if (!(v[i] >= 0 && v[i] <= MAX_FIGURE))
			bad(file, "\"%s\" is %.6g, expected 0 to %g", name,
			    v[i], MAX_FIGURE);
	}
	if (!(v[WALL] > 0))
		bad(file, "\"vm.host.wall_s\" is 0, expected more than 0");
	/* A rounded quotient: a hundredth over is taken as rounding. */
	if (v[OTHERS_CPUS] > h->cpus + 0.01)
		bad(file,
		    "\"vm.host.others_cpus\" is %.6g, more than "
		    "\"vm.host.cpus\" (%g)",
		    v[OTHERS_CPUS], h->cpus);
	h->others_cpus = v[OTHERS_CPUS];
	h->on = true;
}

static void load_passes(struct cmp_result *r, const char *file,
			const struct json_node *root);

static void load_run(struct cmp_result *r, const char *file,
		     const struct json_node *root, int version,
		     const struct cmp_options *o)
{
	const struct json_node *runs, *partial;
	const char *s, *label;
	size_t i;
	double v;

	label = get_label(file, root, "label", false);
	if (!label)
		bad(file, "missing \"label\"");
	if (!r->label)
		r->label = xstrdup(label);
	if (version >= 2 && (s = get_label(file, root, "run_label", true)))
		r->run_label = xstrdup(s);
	partial = json_read_member(root, "partial");
	if (!partial)
		bad(file, "missing \"partial\"");
	if (partial->type != JSON_TRUE && partial->type != JSON_FALSE)
		bad(file, "\"partial\" is %s, expected true or false",
		    a_type(partial->type));
	r->partial = partial->type == JSON_TRUE;
	runs = need_type(file, root, "gitk_runs", JSON_ARRAY);
	for (i = 0; i < runs->count; i++)
		load_gitk_run(r, file, &runs->items[i], i);
	/* Without per-run times, the driver's own mean is all there is. */
	if (!runs->count &&
	    get_num(file, root, "elapsed_mean_s", "elapsed_mean_s", &v)) {
		r->fig[FIG_ELAPSED].value = v;
		if (get_num(file, root, "elapsed_stddev_s", "elapsed_stddev_s",
			    &v))
			r->fig[FIG_STDDEV].value = v;
	}
	load_scalars(r, file, root);
	load_latency(r, file, root, o->workload);
	if (version >= 2) {
		load_pressure(&r->pressure, file, root);
		load_interleave(&r->il, file, root);
		load_boots(&r->boots, file, root, label);
		load_host(&r->host, file, root);
	}
	load_high_order(r, file, root);
	load_passes(r, file, root);
	r->has_run = true;
}

int cmp_sb_order(const void *a, const void *b)
{
	const struct sb_group *x = a, *y = b;

	if (x->phase != y->phase)
		return x->phase < y->phase ? -1 : 1;
	if (x->readahead_kb != y->readahead_kb)
		return x->readahead_kb < y->readahead_kb ? -1 : 1;
	if (x->size_mib != y->size_mib)
		return x->size_mib < y->size_mib ? -1 : 1;
	if (x->block_bytes != y->block_bytes)
		return x->block_bytes < y->block_bytes ? -1 : 1;
	if (x->threads != y->threads)
		return x->threads < y->threads ? -1 : 1;
	return 0;
}

const struct sb_group *cmp_sb_find(const struct sb_group *sb, size_t n,
				   const struct sb_group *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!cmp_sb_order(&sb[i], key))
			return &sb[i];
	return NULL;
}

/* The group of *SB with KEY's configuration, added empty if new. */
static struct sb_group *sb_group_of(struct sb_group **sb, size_t *n,
				    const struct sb_group *key)
{
	struct sb_group *g = (struct sb_group *)cmp_sb_find(*sb, *n, key);

	if (g)
		return g;
	*sb = xreallocarray(*sb, *n + 1, sizeof(**sb));
	g = &(*sb)[(*n)++];
	*g = *key;
	g->n = 0;
	g->rate = NULL;
	g->cpu = NULL;
	return g;
}

static void sb_add_run(struct sb_group *g, double rate, double cpu)
{
	g->rate = xreallocarray(g->rate, g->n + 1, sizeof(*g->rate));
	g->cpu = xreallocarray(g->cpu, g->n + 1, sizeof(*g->cpu));
	g->rate[g->n] = rate;
	g->cpu[g->n++] = cpu;
}

void cmp_sb_add(struct sb_group **sb, size_t *n, const struct sb_group *g)
{
	struct sb_group *to = sb_group_of(sb, n, g);
	size_t i;

	for (i = 0; i < g->n; i++)
		sb_add_run(to, g->rate[i], g->cpu[i]);
}

void cmp_sb_release(struct sb_group *sb, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(sb[i].rate);
		free(sb[i].cpu);
	}
	free(sb);
}

/* One entry of a seqbench "results" list: a run of each present phase. */
static void load_sb_entry(struct cmp_result *r, const char *file,
			  const struct json_node *e)
{
	struct sb_group key = { 0 };
	const struct json_node *phases;
	int ph;

	if (e->type != JSON_OBJECT)
		bad(file, "\"results\" holds %s, expected objects",
		    a_type(e->type));
	key.size_mib = need_num(file, e, "size_mib", "results[].size_mib");
	key.block_bytes =
		need_num(file, e, "block_bytes", "results[].block_bytes");
	key.threads = need_num(file, e, "threads", "results[].threads");
	phases = need_type(file, e, "phases", JSON_OBJECT);
	for (ph = 0; ph < SB_PHASES; ph++) {
		const struct json_node *p, *done, *ra;
		double rate, cpu;

		p = json_read_member(phases, sb_phase_name[ph]);
		if (!p || p->type == JSON_NULL)
			continue;
		/* A phase cut short has no rate (null): the run is partial. */
		done = json_read_member(p, "complete");
		if (done && done->type == JSON_FALSE) {
			r->partial = true;
			continue;
		}
		key.phase = (enum sb_phase)ph;
		/*
		 * Rows of one --readahead (set by the row, not merely found)
		 * are compared with each other.
		 */
		ra = json_read_member(e, "readahead_kb");
		if (!ra || ra->type == JSON_NULL ||
		    !get_num(file, e, "readahead_kb", "results[].readahead_kb",
			     &key.readahead_kb))
			key.readahead_kb = -1;
		if (!cmp_sb_find(r->sb, r->n_sb, &key) &&
		    r->n_sb >= MAX_SB_GROUPS)
			bad(file, "more than %d seqbench configurations",
			    MAX_SB_GROUPS);
		rate = need_num(file, p, "rate_mib_s",
				"results[].phases.rate_mib_s");
		if (!get_num(file, p, "cpu_pct", "results[].phases.cpu_pct",
			     &cpu))
			cpu = NAN;
		sb_add_run(sb_group_of(&r->sb, &r->n_sb, &key), rate, cpu);
	}
}

static void load_seqbench(struct cmp_result *r, const char *file,
			  const struct json_node *root)
{
	const struct json_node *list, *v;
	const char *s;
	size_t i;

	list = need_type(file, root, "results", JSON_ARRAY);
	if (list->count > MAX_SB_ENTRIES)
		bad(file, "more than %d seqbench results", MAX_SB_ENTRIES);
	for (i = 0; i < list->count; i++)
		load_sb_entry(r, file, &list->items[i]);
	if (r->n_sb > 1)
		qsort(r->sb, r->n_sb, sizeof(*r->sb), cmp_sb_order);
	/* An interrupted seqbench is as partial as an interrupted run. */
	v = json_read_member(root, "interrupted");
	if (v && v->type == JSON_TRUE)
		r->partial = true;
	s = get_label(file, root, "label", true);
	if (!r->label && s)
		r->label = xstrdup(s);
}

/* A number, or NaN when it is null or absent (a figure a run lacks). */
static double num_or_nan(const char *file, const struct json_node *n,
			 const char *key, const char *name)
{
	const struct json_node *v = json_read_member(n, key);
	double x;

	if (!v || v->type == JSON_NULL)
		return NAN;
	return get_num(file, n, key, name, &x) ? x : NAN;
}

/* "ring -t 2 --via pipe -w 0us -s 0us --cpus 0,1": what a group is. */
static char *rb_config(const char *file, const struct json_node *root)
{
	const char *mode = get_label(file, root, "mode", false);
	const struct json_node *cfg =
		need_type(file, root, "config", JSON_OBJECT);
	const struct json_node *cpus = json_read_member(root, "cpus");
	char *s, *t;
	size_t i;

	if (!strcmp(mode, "ring"))
		s = xasprintf(
			"ring -t %g --via %s%s -w %gus -s %gus",
			need_num(file, cfg, "members", "config.members"),
			get_label(file, cfg, "via", false),
			!strcmp(get_label(file, cfg, "tasks", false),
				"processes")
				? " --processes"
				: "",
			need_num(file, cfg, "work_s", "config.work_s") * 1e6,
			need_num(file, cfg, "sleep_s", "config.sleep_s") * 1e6);
	else if (!strcmp(mode, "rr"))
		s = xasprintf("rr %s -c %g --size %g,%g",
			      get_label(file, cfg, "protocol", false),
			      need_num(file, cfg, "clients", "config.clients"),
			      need_num(file, cfg, "request_bytes",
				       "config.request_bytes"),
			      need_num(file, cfg, "response_bytes",
				       "config.response_bytes"));
	else if (!strcmp(mode, "tbench"))
		s = xasprintf("tbench -c %g",
			      need_num(file, cfg, "clients", "config.clients"));
	else {
		char m[512], *e = text_escape(mode);

		snprintf(m, sizeof(m), "%s", e);
		free(e);
		bad(file, "ringbench mode \"%s\" has nothing to compare", m);
	}
	held.config = s;
	for (i = 0;
	     cpus && cpus->type == JSON_ARRAY && i < cpus->count && i < 64;
	     i++) {
		double c = need_num(file, &cpus->items[i], "", "cpus[]");

		t = xasprintf("%s%s%g", s, i ? "," : " --cpus ", c);
		free(s);
		s = held.config = t;
	}
	return s;
}

/* A ringbench result: the complete runs of its one configuration. */
static void load_ringbench(struct cmp_result *r, const char *file,
			   const struct json_node *root)
{
	char *config = rb_config(file, root);
	const struct json_node *runs =
		need_type(file, root, "runs", JSON_ARRAY);
	const struct json_node *v;
	const char *rate = strcmp(get_label(file, root, "mode", false), "ring")
				   ? "transactions_per_s"
				   : "cycles_per_s";
	size_t i;

	if (runs->count > MAX_RB_RUNS)
		bad(file, "more than %d ringbench runs", MAX_RB_RUNS);
	for (i = 0; i < runs->count; i++) {
		const struct json_node *run = &runs->items[i], *done;
		double x[RBF_COUNT];

		if (run->type != JSON_OBJECT)
			bad(file, "\"runs\" holds %s, expected objects",
			    a_type(run->type));
		done = json_read_member(run, "complete");
		if (!done ||
		    (done->type != JSON_TRUE && done->type != JSON_FALSE))
			bad(file, "\"runs[].complete\" is missing or not "
				  "true or false");
		if (done->type == JSON_FALSE) {
			r->partial = true; /* a run cut short is left out */
			continue;
		}
		x[RBF_RATE] = num_or_nan(file, run, rate, "runs[].rate");
		x[RBF_US] = num_or_nan(file, run, "us_per_cycle",
				       "runs[].us_per_cycle");
		x[RBF_P50] = num_or_nan(file, run, "p50_us", "runs[].p50_us");
		x[RBF_P99] = num_or_nan(file, run, "p99_us", "runs[].p99_us");
		cmp_rb_add_run(&r->rb, &r->n_rb, config, x);
	}
	v = json_read_member(root, "partial");
	if (v && v->type == JSON_TRUE)
		r->partial = true;
	free(config);
	held.config = NULL;
}

/*
 * The --seqbench and --ringbench passes of a run, as latency-summarize put
 * them in its result.json.
 */
static void load_passes(struct cmp_result *r, const char *file,
			const struct json_node *root)
{
	const struct json_node *v;

	v = json_read_member(root, "seqbench");
	if (v && v->type != JSON_NULL)
		load_seqbench(r, file,
			      need_type(file, root, "seqbench", JSON_OBJECT));
	v = json_read_member(root, "ringbench");
	if (v && v->type != JSON_NULL)
		load_ringbench(r, file,
			       need_type(file, root, "ringbench", JSON_OBJECT));
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

/* The result's figures from its runs' samples. */
static void derive(struct cmp_result *r)
{
	struct figure *e = &r->fig[FIG_ELAPSED];
	int f;

	for (f = 0; f < FIG_COUNT; f++)
		if (r->fig[f].n)
			r->fig[f].value = cmp_fig_mean(
				(enum fig)f, r->fig[f].samples, r->fig[f].n);
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

/*
 * Keep the result.json ROOT read from FILE for the fleet formats, and
 * read where it ran.
 */
static void keep_json(struct cmp_result *r, const char *file,
		      struct json_node *root)
{
	r->json = root;
	held.tree = NULL;
	r->json_file = xstrdup(file);
	cmp_setup_load(&r->setup, file, root);
}

/* A directory is its result.json: every pass of the run is in it. */
static void load_dir(struct cmp_result *r, const char *dir,
		     const struct cmp_options *o)
{
	char *run = xasprintf("%s/result.json", dir);
	struct json_node *root;
	int version;

	held.path = run;
	root = load_json(run, &version);
	load_run(r, run, root, version, o);
	keep_json(r, run, root);
	free(run);
	held.path = NULL;
}

int cmp_load(struct cmp_result *r, const char *path, const char *label,
	     const struct cmp_options *o)
{
	struct json_node *root;
	struct stat st;
	int f, version;

	memset(r, 0, sizeof(*r));
	for (f = 0; f < FIG_COUNT; f++)
		r->fig[f].value = NAN;
	r->pressure.ratio = r->pressure.footprint = r->pressure.memory = NAN;
	r->ho_p99_us = NAN;
	r->path = xstrdup(path);
	r->label = label ? xstrdup(label) : NULL;
	if (setjmp(held.back)) {
		json_read_free(held.tree);
		free(held.path);
		free(held.config);
		held.tree = NULL;
		held.path = held.config = NULL;
		return EXIT_RUN_FAILED;
	}
	if (stat(path, &st))
		refuse_file(errno, "cannot open", path);
	if (S_ISDIR(st.st_mode)) {
		load_dir(r, path, o);
	} else {
		root = load_json(path, &version);
		const char *prog =
			json_read_member(root, "program")
				? get_label(path, root, "program", true)
				: NULL;

		if (json_read_member(root, "gitk_runs"))
			load_run(r, path, root, version, o);
		else if (prog && !strcmp(prog, "ringbench"))
			load_ringbench(r, path, root);
		else if (json_read_member(root, "results"))
			load_seqbench(r, path, root);
		else
			bad(path, "neither a run-test.sh result (no "
				  "\"gitk_runs\") nor a seqbench result (no "
				  "\"results\")");
		if (r->has_run)
			keep_json(r, path, root);
		else
			json_read_free(root);
		held.tree = NULL;
		if (!r->label)
			r->label = base_name(path, ".json");
	}
	derive(r);
	return 0;
}

void cmp_result_release(struct cmp_result *r)
{
	int f;

	for (f = 0; f < FIG_COUNT; f++) {
		free(r->fig[f].samples);
		free(r->per_run[f]);
	}
	free(r->il.name);
	free(r->il.values);
	free(r->il.arm);
	free(r->il.order);
	free(r->il.other);
	free(r->boots.series);
	free(r->boots.order);
	free(r->boots.labels[0]);
	free(r->boots.labels[1]);
	cmp_sb_release(r->sb, r->n_sb);
	cmp_rb_release(r->rb, r->n_rb);
	cmp_ho_free(r->ho, r->n_ho);
	free(r->hist.le_s);
	free(r->hist.count);
	free(r->label);
	free(r->run_label);
	free(r->path);
	json_read_free(r->json);
	free(r->json_file);
	cmp_setup_release(&r->setup);
}
