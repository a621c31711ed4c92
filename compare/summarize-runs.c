// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The figures of each counted fake-gitk run: its elapsed time, major
 * faults and progress lines (from fake-gitk's own JSON), the kernel's
 * counters as deltas between the snapshots taken just before and just
 * after it (swap, scanning, allocation stalls, PSI), and the time its
 * tasks stalled in reclaim and compaction (from the trace monitor's event
 * log, by the events' end times inside the run's window).  Then the
 * statistics of the elapsed times.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/json-read.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/progress.h"
#include "lib/stats.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "compare/summarize.h"

/* Output names of the counters; the snapshot member is SNAP_KEY. */
const char *const summ_counter_key[SC_COUNT] = {
	[SC_PSWPIN] = "pswpin",
	[SC_PSWPOUT] = "pswpout",
	[SC_PGSCAN_KSWAPD] = "pgscan_kswapd",
	[SC_PGSCAN_DIRECT] = "pgscan_direct",
	[SC_ALLOCSTALL] = "allocstall",
	[SC_PGSTEAL_ANON] = "pgsteal_anon",
	[SC_PGSTEAL_FILE] = "pgsteal_file",
	[SC_PSI_SOME_US] = "psi_some_s",
	[SC_PSI_FULL_US] = "psi_full_s",
};

static const char *const snap_key[SC_COUNT] = {
	[SC_PSWPIN] = "pswpin",
	[SC_PSWPOUT] = "pswpout",
	[SC_PGSCAN_KSWAPD] = "pgscan_kswapd",
	[SC_PGSCAN_DIRECT] = "pgscan_direct",
	[SC_ALLOCSTALL] = "allocstall",
	[SC_PGSTEAL_ANON] = "pgsteal_anon",
	[SC_PGSTEAL_FILE] = "pgsteal_file",
	[SC_PSI_SOME_US] = "psi_memory_some_total_us",
	[SC_PSI_FULL_US] = "psi_memory_full_total_us",
};

/* A copy of the number at KEY of IT, or JSON_NULL (noted when wrong). */
static void get_number(struct summ_run *r, const char *file,
		       const struct json_node *it, const char *key,
		       struct json_node *out)
{
	const struct json_node *n = json_read_member(it, key);

	memset(out, 0, sizeof(*out));
	out->type = JSON_NULL;
	if (!n || n->type == JSON_NULL)
		return;
	if (n->type != JSON_NUMBER || !(n->num >= 0)) {
		summ_note(r,
			  "%s: iterations[0].%s: %s, expected a number "
			  ">= 0",
			  file, key,
			  n->type == JSON_NUMBER ? n->str
						 : json_type_name(n->type));
		return;
	}
	*out = *n;
	out->key = NULL;
	out->str = xstrdup(n->str);
}

static void get_u64(struct summ_run *r, const char *file,
		    const struct json_node *obj, const char *where,
		    const char *key, struct summ_u64 *out)
{
	int ret = json_read_u64(obj, key, &out->v);

	out->set = ret == 0;
	if (ret && ret != -ENOENT)
		summ_note(r, "%s: %s%s is not a whole number", file, where,
			  key);
}

/*
 * CLOCK_MONOTONIC seconds (a JSON number) in ns: from the literal when it
 * is plain decimal seconds, else from the double.
 */
static bool to_ns(const struct json_node *n, uint64_t *ns)
{
	if (n->type != JSON_NUMBER)
		return false;
	if (!parse_duration(n->str, ns))
		return true;
	if (!(n->num >= 0 && n->num < 1.8e10))
		return false;
	*ns = (uint64_t)llround(n->num * 1e9);
	return true;
}

static void read_gitk(struct summ_run *r, size_t i)
{
	struct summ_gitk_run *g = &r->runs[i];
	char *file = xasprintf("fake-gitk-%zu.json", i + 1);
	struct json_node *root = summ_load_object(r, file, true);
	const struct json_node *it = json_read_path(root, "iterations.0");

	if (root && (!it || it->type != JSON_OBJECT))
		summ_note(r, "%s: no iterations[0] object", file);
	get_number(r, file, it, "elapsed_s", &g->elapsed_s);
	get_number(r, file, it, "start_mono_s", &g->start_mono_s);
	get_number(r, file, it, "end_mono_s", &g->end_mono_s);
	get_number(r, file, it, "user_s", &g->user_s);
	get_number(r, file, it, "sys_s", &g->sys_s);
	get_number(r, file, it, "runq_s", &g->runq_s);
	get_number(r, file, it, "user_sampled_s", &g->user_sampled_s);
	get_u64(r, file, it, "iterations[0].", "majflt", &g->majflt);
	get_u64(r, file, it, "iterations[0].", "lines", &g->progress_lines);
	g->has_window = to_ns(&g->start_mono_s, &g->start_ns) &&
			to_ns(&g->end_mono_s, &g->end_ns) &&
			g->start_ns <= g->end_ns;
	json_read_free(root);
	free(file);
}

/* The change of the snapshots' KEY (ticks), unset when unknown. */
static struct summ_u64 tick_delta(struct summ_run *r, const char *fb,
				  const struct json_node *before,
				  const char *fa, const struct json_node *after,
				  const char *key)
{
	struct summ_u64 b, a, d = { false, 0 };

	get_u64(r, fb, before, "", key, &b);
	get_u64(r, fa, after, "", key, &a);
	if (a.set && b.set && a.v >= b.v)
		d = (struct summ_u64){ true, a.v - b.v };
	return d;
}

/*
 * The CPU time of the rest of the machine between the snapshots: all
 * CPUs' busy time less the suite's processes (the driver's tree) and the
 * kernel's threads, in clock ticks; below 0 (the counters tick apart) is
 * 0.  Without the suite's time (a snapshot without --suite-pid) unknown.
 */
static void read_cpu(struct summ_run *r, struct summ_gitk_run *g,
		     const char *fb, const struct json_node *before,
		     const char *fa, const struct json_node *after)
{
	struct summ_u64 busy, suite, kthreads, hz_b, hz_a;
	uint64_t used;

	busy = tick_delta(r, fb, before, fa, after, "cpu_busy_ticks");
	suite = tick_delta(r, fb, before, fa, after, "suite_cpu_ticks");
	kthreads = tick_delta(r, fb, before, fa, after, "kthreads_cpu_ticks");
	get_u64(r, fb, before, "", "clock_ticks_per_s", &hz_b);
	get_u64(r, fa, after, "", "clock_ticks_per_s", &hz_a);
	if (!hz_b.set || !hz_a.set || hz_a.v != hz_b.v || !hz_a.v ||
	    hz_a.v > 1000000)
		return;
	if (kthreads.set && kthreads.v <= UINT64_MAX / NSEC_PER_SEC)
		g->kthreads_cpu_ns =
			(struct summ_u64){ true,
					   kthreads.v * NSEC_PER_SEC / hz_a.v };
	if (!busy.set || !suite.set || !kthreads.set ||
	    busy.v > UINT64_MAX / NSEC_PER_SEC)
		return;
	used = suite.v + kthreads.v;
	g->others_cpu_ns = (struct summ_u64){
		true,
		busy.v > used ? (busy.v - used) * NSEC_PER_SEC / hz_a.v : 0
	};
}

/* Snapshot deltas of run I (missing files noted if NOTE_MISSING). */
static void read_snapshots(struct summ_run *r, size_t i, bool note_missing)
{
	struct summ_gitk_run *g = &r->runs[i];
	char *fb = xasprintf("fake-gitk-%zu.snap-before.json", i + 1);
	char *fa = xasprintf("fake-gitk-%zu.snap-after.json", i + 1);
	struct json_node *before = summ_load_object(r, fb, note_missing);
	struct json_node *after = summ_load_object(r, fa, note_missing);
	struct summ_u64 b, a;
	int k;

	for (k = 0; k < SC_COUNT && before && after; k++) {
		get_u64(r, fb, before, "", snap_key[k], &b);
		get_u64(r, fa, after, "", snap_key[k], &a);
		g->delta[k].set = a.set && b.set && a.v >= b.v;
		g->delta[k].v = a.v - b.v;
		if (a.set && b.set && a.v < b.v)
			summ_note(r,
				  "fake-gitk-%zu: %s went backwards between "
				  "the snapshots",
				  i + 1, snap_key[k]);
	}
	if (before && after)
		read_cpu(r, g, fb, before, fa, after);
	json_read_free(before);
	json_read_free(after);
	free(fb);
	free(fa);
}

/* Whether any snapshot file is there at all. */
static bool any_snapshot(const struct summ_run *r)
{
	struct stat st;
	size_t i;
	bool found = false;
	char *p;

	for (i = 0; i < r->n_runs && !found; i++) {
		p = xasprintf("%s/fake-gitk-%zu.snap-before.json", r->dir,
			      i + 1);
		found = !lstat(p, &st);
		free(p);
		p = xasprintf("%s/fake-gitk-%zu.snap-after.json", r->dir,
			      i + 1);
		found = found || !lstat(p, &st);
		free(p);
	}
	return found;
}

enum stall_kind { STALL_RECLAIM, STALL_COMPACT, STALL_OTHER, STALL_BAD };

static enum stall_kind stall_kind(const char *s)
{
	if (!strcmp(s, "direct_reclaim") || !strcmp(s, "memcg_reclaim"))
		return STALL_RECLAIM;
	if (!strcmp(s, "compaction"))
		return STALL_COMPACT;
	if (!strcmp(s, "balance_dirty_pages") ||
	    !strcmp(s, "reclaim_throttled"))
		return STALL_OTHER;
	return STALL_BAD;
}

static void add_sat(struct summ_u64 *u, uint64_t v)
{
	u->v = u->v > UINT64_MAX - v ? UINT64_MAX : u->v + v;
}

/* One line "<end_mono_s> <stall> <duration_s> pid=<pid>"; false if bad. */
static bool event_line(struct summ_run *r, char *line)
{
	char *f[4], *tok, *save = NULL;
	uint64_t end_ns, dur_ns, pid;
	enum stall_kind kind;
	size_t i, n = 0;

	for (tok = strtok_r(line, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (n == 4)
			return false;
		f[n++] = tok;
	}
	if (n != 4 || strncmp(f[3], "pid=", 4) || parse_u64(f[3] + 4, &pid) ||
	    parse_duration(f[0], &end_ns) || parse_duration(f[2], &dur_ns))
		return false;
	kind = stall_kind(f[1]);
	if (kind == STALL_BAD)
		return false;
	for (i = 0; i < r->n_runs; i++) {
		struct summ_gitk_run *g = &r->runs[i];

		if (!g->has_window || end_ns < g->start_ns ||
		    end_ns > g->end_ns)
			continue;
		if (kind == STALL_RECLAIM)
			add_sat(&g->reclaim_ns, dur_ns);
		else if (kind == STALL_COMPACT)
			add_sat(&g->compact_ns, dur_ns);
	}
	return true;
}

/*
 * Read one line of F into BUF (SIZE bytes, NUL-terminated, without the
 * newline), counting the bytes read in *BYTES.  A line too long for BUF
 * or holding a NUL is read whole and marked *BAD.  Returns false at the
 * end of the file.
 */
static bool read_line(FILE *f, char *buf, size_t size, bool *bad,
		      uint64_t *bytes)
{
	size_t n = 0;
	int c;

	*bad = false;
	while ((c = getc(f)) != EOF) {
		++*bytes;
		if (c == '\n')
			break;
		if (!c || n + 1 >= size)
			*bad = true;
		else
			buf[n++] = (char)c;
	}
	buf[n] = '\0';
	return c != EOF || n || *bad;
}

/*
 * Every line of the run directory's log NAME (fd FD, at most
 * SUMM_MAX_EVENTS_BYTES) through LINE_FN; lines it refuses, too long or
 * holding a NUL are counted in a note.
 */
static void read_log(struct summ_run *r, const char *name, int fd,
		     bool (*line_fn)(struct summ_run *, char *))
{
	uint64_t bytes = 0, bad_lines = 0;
	/* A monitor's line, its summary line too, is at most this long. */
	char line[PROGRESS_LINE_MAX + 1];
	FILE *f = fdopen(fd, "r");
	bool bad;

	/* fdopen() of an open descriptor for reading fails only for memory. */
	if (!f)
		xalloc_die();
	while (read_line(f, line, sizeof(line), &bad, &bytes)) {
		if (bad || (*line && !line_fn(r, line)))
			bad_lines++;
		if (bytes >= SUMM_MAX_EVENTS_BYTES) {
			summ_note(r, "%s: only the first %llu MiB read", name,
				  SUMM_MAX_EVENTS_BYTES >> 20);
			break;
		}
	}
	if (ferror(f))
		summ_note(r, "%s: read error", name);
	(void)fclose(f); /* read only: nothing to lose */
	if (bad_lines)
		summ_note(r, "%s: %llu malformed lines ignored", name,
			  (unsigned long long)bad_lines);
}

static void read_events(struct summ_run *r)
{
	char *path = xasprintf("%s/trace-events.log", r->dir);
	int fd = json_read_open(path);
	size_t i;

	free(path);
	if (fd < 0) {
		summ_note(r,
			  "trace-events.log: %s: reclaim_s and compact_s "
			  "are null",
			  summ_why(fd));
		return;
	}
	for (i = 0; i < r->n_runs; i++) {
		r->runs[i].reclaim_ns.set = r->runs[i].has_window;
		r->runs[i].compact_ns.set = r->runs[i].has_window;
	}
	read_log(r, "trace-events.log", fd, event_line);
}

/*
 * One line of highorder.log: "MONO latency-highorder order=N attempt=K
 * success=0|1 ..." counted in the run whose window holds MONO; other
 * lines of the probe (started=, the end line) are not attempts.  False for
 * a line that is not the probe's.
 */
static bool probe_line(struct summ_run *r, char *line)
{
	char *tok, *save = NULL;
	uint64_t t_ns, order = UINT64_MAX, success = UINT64_MAX, v;
	bool attempt = false;
	size_t i;

	tok = strtok_r(line, " ", &save);
	if (!tok || parse_duration(tok, &t_ns))
		return false;
	tok = strtok_r(NULL, " ", &save);
	if (!tok || strcmp(tok, "latency-highorder"))
		return false;
	while ((tok = strtok_r(NULL, " ", &save))) {
		if (!strncmp(tok, "order=", 6) && !parse_u64(tok + 6, &v))
			order = v;
		else if (!strncmp(tok, "success=", 8) &&
			 !parse_u64(tok + 8, &v))
			success = v;
		else if (!strncmp(tok, "attempt=", 8) &&
			 !parse_u64(tok + 8, &v))
			attempt = true;
	}
	if (!attempt)
		return true;
	if (order >= SUMM_HO_ORDERS || success > 1)
		return false;
	for (i = 0; i < r->n_runs; i++) {
		struct summ_gitk_run *g = &r->runs[i];

		if (!g->has_window || t_ns < g->start_ns || t_ns > g->end_ns)
			continue;
		g->ho_attempts[order]++;
		g->ho_successes[order] += success;
	}
	return true;
}

/* highorder.log, when the probe ran: its attempts per run and order. */
static void read_probes(struct summ_run *r)
{
	char *path = xasprintf("%s/highorder.log", r->dir);
	int fd = json_read_open(path);
	size_t i;

	free(path);
	if (fd == -ENOENT)
		return;
	if (fd < 0) {
		summ_note(r, "highorder.log: %s: no probes per run",
			  summ_why(fd));
		return;
	}
	for (i = 0; i < r->n_runs; i++)
		r->runs[i].has_ho = r->runs[i].has_window;
	read_log(r, "highorder.log", fd, probe_line);
}

/* Mean and CoV of the runs' user_s (SYS: sys_s); NAN when unknown. */
static void cpu_stats(const struct summ_run *r, bool sys, double *mean,
		      double *cv)
{
	double *v = xcalloc(r->n_runs + 1, sizeof(*v)), sd;
	size_t i, n = 0;

	for (i = 0; i < r->n_runs; i++) {
		const struct json_node *x =
			sys ? &r->runs[i].sys_s : &r->runs[i].user_s;

		if (x->type == JSON_NUMBER)
			v[n++] = x->num;
	}
	*mean = *cv = NAN;
	if (n)
		*mean = stats_mean_of(v, n);
	if (n >= 2 && *mean > 0) {
		sd = stats_stddev_of(v, n);
		*cv = 100 * sd / *mean;
	}
	free(v);
}

/* A number node's value, NaN when null. */
static double num_of(const struct json_node *n)
{
	return n->type == JSON_NUMBER ? n->num : NAN;
}

/* The time split of run G per user-CPU second. */
static void run_ratios(struct summ_gitk_run *g)
{
	double e = num_of(&g->elapsed_s), u = num_of(&g->user_s);
	double s = num_of(&g->sys_s), sampled = num_of(&g->user_sampled_s);

	g->wait_s = g->elapsed_per_user = g->sys_per_user = NAN;
	g->wait_per_user = g->elapsed_less_runq_per_user = NAN;
	if (isnan(e) || isnan(u) || isnan(s))
		return;
	/* The clocks tick apart: a wait below 0 is none. */
	g->wait_s = e - u - s > 0 ? e - u - s : 0;
	/*
	 * The on-CPU time is exact, its split is not: the denser samples
	 * divide it where fake-gitk took them.
	 */
	if (sampled > 0 && sampled <= u + s) {
		s = u + s - sampled;
		u = sampled;
	}
	if (!(u > 0))
		return;
	g->elapsed_per_user = e / u;
	g->sys_per_user = s / u;
	g->wait_per_user = g->wait_s / u;
	if (!isnan(num_of(&g->runq_s)) && e > num_of(&g->runq_s))
		g->elapsed_less_runq_per_user = (e - num_of(&g->runq_s)) / u;
}

/* The geometric mean of the runs' values at OFF (> 0 only); NaN if none. */
static double run_geomean(const struct summ_run *r, size_t off)
{
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < r->n_runs; i++) {
		double v = *(const double *)((const char *)&r->runs[i] + off);

		if (v > 0) {
			sum += log(v);
			n++;
		}
	}
	return n ? exp(sum / (double)n) : NAN;
}

double summ_geo_ci95_pct(const double *v, size_t n)
{
	double *l, half;
	size_t i;

	if (n < 2)
		return NAN;
	l = xcalloc(n, sizeof(*l));
	for (i = 0; i < n; i++)
		l[i] = log(v[i]);
	half = stats_ci_of(l, n, 0.95).half;
	free(l);
	return 100 * (exp(half) - 1);
}

/* The mean of the runs' values at OFF (a double of summ_gitk_run). */
static double run_mean(const struct summ_run *r, size_t off)
{
	struct stats s;
	size_t i;

	stats_init(&s);
	for (i = 0; i < r->n_runs; i++) {
		double v = *(const double *)((const char *)&r->runs[i] + off);

		if (!isnan(v))
			stats_add(&s, v);
	}
	return s.n ? s.mean : NAN;
}

/* The mean of the runs' times at OFF (a summ_u64 of ns), in seconds. */
static double run_mean_ns(const struct summ_run *r, size_t off)
{
	struct stats s;
	size_t i;

	stats_init(&s);
	for (i = 0; i < r->n_runs; i++) {
		const char *base = (const char *)&r->runs[i];
		const struct summ_u64 *v = (const void *)(base + off);

		if (v->set)
			stats_add(&s, (double)v->v / 1e9);
	}
	return s.n ? s.mean : NAN;
}

/* The mean of the runs' runqueue waits (s). */
static double runq_mean(const struct summ_run *r)
{
	struct stats s;
	size_t i;

	stats_init(&s);
	for (i = 0; i < r->n_runs; i++)
		if (r->runs[i].runq_s.type == JSON_NUMBER)
			stats_add(&s, r->runs[i].runq_s.num);
	return s.n ? s.mean : NAN;
}

/*
 * Whether a lag-1 autocorrelation R of N values is too large for
 * independent ones: above 1.96 / sqrt(N), the 5% bound of white noise,
 * with 8 values at least.
 */
static bool serial(double r, size_t n)
{
	return n >= 8 && r > 1.96 / sqrt((double)n);
}

/* Elapsed per user-CPU second and the machine's figures over the runs. */
static void ratio_stats(struct summ_run *r)
{
	double sum = 0;
	size_t i;

	r->epu = xcalloc(r->n_runs + 1, sizeof(*r->epu));
	for (i = 0; i < r->n_runs; i++) {
		run_ratios(&r->runs[i]);
		if (!isnan(r->runs[i].elapsed_per_user) &&
		    r->runs[i].elapsed_per_user > 0)
			r->epu[r->n_epu++] = r->runs[i].elapsed_per_user;
	}
	r->epu_mean = r->epu_cv_pct = r->epu_ci95_pct = NAN;
	for (i = 0; i < r->n_epu; i++)
		sum += log(r->epu[i]);
	if (r->n_epu)
		r->epu_mean = exp(sum / (double)r->n_epu);
	if (r->n_epu >= 2) {
		r->epu_cv_pct = 100 * stats_stddev_of(r->epu, r->n_epu) /
				stats_mean_of(r->epu, r->n_epu);
		r->epu_ci95_pct = summ_geo_ci95_pct(r->epu, r->n_epu);
	}
	r->epu_lag1 = NAN;
	if (r->n_epu == r->n_runs) {
		r->epu_lag1 = stats_lag1_of(r->epu, r->n_epu);
		r->epu_serial = serial(r->epu_lag1, r->n_epu);
	}
	r->spu_mean = run_mean(r, offsetof(struct summ_gitk_run, sys_per_user));
	r->wpu_mean =
		run_mean(r, offsetof(struct summ_gitk_run, wait_per_user));
	r->others_mean_s =
		run_mean_ns(r, offsetof(struct summ_gitk_run, others_cpu_ns));
	r->kthreads_mean_s =
		run_mean_ns(r, offsetof(struct summ_gitk_run, kthreads_cpu_ns));
	r->runq_mean_s = runq_mean(r);
	r->erpu_mean = run_geomean(
		r, offsetof(struct summ_gitk_run, elapsed_less_runq_per_user));
}

/*
 * The split of reclaim between anonymous memory and the page cache, run
 * by run.  Under global pressure it varies between runs although each
 * starts from dropped caches and an emptied swap, and it holds for
 * stretches of runs (measured here: 15-18% anonymous and 22-25k pages
 * swapped a run for several runs, then 30-44% and 34-35k), with elapsed
 * per user-CPU second following it.  The share "varied" when its highest
 * is 1.5 times its lowest and 2 points above it, and "held" when its
 * lag-1 autocorrelation is too large for independent runs.
 */
static void reclaim_split(struct summ_run *r)
{
	double *share = xcalloc(r->n_runs + 1, sizeof(*share));
	double *epu = xcalloc(r->n_runs + 1, sizeof(*epu));
	bool all_epu = true;
	struct stats s;
	size_t i;

	stats_init(&s);
	r->anon_pct_mean = r->anon_pct_min = r->anon_pct_max = NAN;
	r->anon_epu_r = NAN;
	for (i = 0; i < r->n_runs; i++) {
		const struct summ_gitk_run *g = &r->runs[i];
		struct summ_u64 a = g->delta[SC_PGSTEAL_ANON];
		struct summ_u64 f = g->delta[SC_PGSTEAL_FILE];
		double pct;

		if (!a.set || !f.set || !(a.v + f.v))
			continue;
		pct = 100 * (double)a.v / ((double)a.v + (double)f.v);
		if (!s.n || pct < s.min)
			r->anon_min_run = i + 1;
		if (!s.n || pct > s.max)
			r->anon_max_run = i + 1;
		stats_add(&s, pct);
		epu[r->n_anon] = g->elapsed_per_user;
		all_epu &= !isnan(g->elapsed_per_user);
		share[r->n_anon++] = pct;
	}
	r->anon_lag1 = NAN;
	if (r->n_anon) {
		r->anon_pct_mean = s.mean;
		r->anon_pct_min = s.min;
		r->anon_pct_max = s.max;
		r->anon_varied = s.max >= 1.5 * s.min && s.max - s.min >= 2;
	}
	if (all_epu)
		r->anon_epu_r = stats_correlation_of(share, epu, r->n_anon);
	/* Neighbours only where no run is missing between them. */
	if (r->n_anon == r->n_runs) {
		r->anon_lag1 = stats_lag1_of(share, r->n_anon);
		r->anon_held = serial(r->anon_lag1, r->n_anon);
	}
	free(share);
	free(epu);
}

/*
 * The kernel splits a task's CPU time between user and system mode by
 * sampling at the clock tick: below this much user time a run's split,
 * and so its elapsed per user-CPU second, is too coarse to stop on.
 */
#define MIN_USER_S 0.1

double summ_precision(const struct summ_run *r, const char **what)
{
	struct stats_ci ci;
	bool coarse = false;
	size_t i;

	for (i = 0; i < r->n_runs; i++)
		coarse |= r->runs[i].user_s.type == JSON_NUMBER &&
			  r->runs[i].user_s.num < MIN_USER_S;
	if (r->n_epu && r->n_epu == r->n_elapsed && !coarse) {
		*what = "elapsed_per_user";
		return r->epu_ci95_pct;
	}
	*what = "elapsed";
	if (r->n_elapsed < 2 || !(r->mean_s > 0))
		return NAN;
	ci = stats_ci_of(r->elapsed, r->n_elapsed, 0.95);
	return 100 * ci.half / r->mean_s;
}

static void elapsed_stats(struct summ_run *r)
{
	struct stats_ci ci;
	size_t i;

	r->elapsed = xcalloc(r->n_runs + 1, sizeof(*r->elapsed));
	for (i = 0; i < r->n_runs; i++)
		if (r->runs[i].elapsed_s.type == JSON_NUMBER)
			r->elapsed[r->n_elapsed++] = r->runs[i].elapsed_s.num;
	r->mean_s = r->stddev_s = r->cv_pct = r->ci95_pct = NAN;
	cpu_stats(r, false, &r->user_mean_s, &r->user_cv_pct);
	cpu_stats(r, true, &r->sys_mean_s, &r->sys_cv_pct);
	ratio_stats(r);
	reclaim_split(r);
	if (!r->n_elapsed)
		return;
	r->mean_s = stats_mean_of(r->elapsed, r->n_elapsed);
	r->stddev_s = stats_stddev_of(r->elapsed, r->n_elapsed);
	if (r->n_elapsed < 2 || !(r->mean_s > 0))
		return;
	r->cv_pct = 100 * r->stddev_s / r->mean_s;
	ci = stats_ci_of(r->elapsed, r->n_elapsed, 0.95);
	r->ci95_pct = 100 * ci.half / r->mean_s;
}

void summ_runs_read(struct summ_run *r)
{
	bool snapshots;
	size_t i;

	r->n_runs = r->facts.runs_done.set ? (size_t)r->facts.runs_done.v : 0;
	if (!r->facts.runs_done.set)
		summ_note(r, "run.facts: no runs_done: no fake-gitk run read");
	r->runs = xcalloc(r->n_runs + 1, sizeof(*r->runs));
	for (i = 0; i < r->n_runs; i++)
		read_gitk(r, i);
	/* No snapshots at all: one note, not one per file. */
	snapshots = any_snapshot(r);
	if (r->n_runs && !snapshots)
		summ_note(r, "no snapshots (fake-gitk-N.snap-before.json, "
			     "-after.json): the per-run kernel figures are "
			     "null");
	for (i = 0; i < r->n_runs; i++)
		read_snapshots(r, i, snapshots);
	read_events(r);
	read_probes(r);
	elapsed_stats(r);
}

void summ_elapsed_opt(struct summ_elapsed *e, int argc, char **argv)
{
	double *v = xcalloc((size_t)argc + 1, sizeof(*v));
	int i;

	for (i = 0; i < argc; i++) {
		uint64_t ns;

		if (parse_duration(argv[i], &ns))
			usage_error("invalid elapsed time '%s' (expected "
				    "seconds, e.g. 12.5 or 250ms)",
				    argv[i]);
		v[i] = (double)ns / 1e9;
	}
	e->n = (size_t)argc;
	e->elapsed_s = v;
	e->mean_s = stats_mean_of(v, e->n);
	e->stddev_s = stats_stddev_of(v, e->n);
}
