// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fake-gitk's results: the summary (text for people on stderr, JSON for
 * programs: doc/design.md, contract 4) and the --dump-map debug output the
 * tests compare with git rev-list --children.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "lib/err.h"
#include "lib/output.h"
#include "lib/stats.h"
#include "lib/timing.h"
#include "lib/xalloc.h"

#include "fakegitk/fake-gitk.h"

static const char *const hold_name[] = { "all", "headers", "none" };

struct totals {
	const struct walk_result *last;
	uint64_t commits, elapsed_ns, peak_rss;
	double mean_s, stddev_s, rate;
};

static void sum_up(const struct fg_config *c, struct totals *t)
{
	double *el = xcalloc(c->done, sizeof(*el));
	struct rusage ru;
	unsigned i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < c->done; i++) {
		t->commits += c->res[i].commits;
		t->elapsed_ns += c->res[i].elapsed_ns;
		el[i] = (double)c->res[i].elapsed_ns / 1e9;
	}
	t->last = &c->res[c->done - 1];
	t->mean_s = stats_mean_of(el, c->done);
	t->stddev_s = stats_stddev_of(el, c->done);
	t->rate = t->elapsed_ns
			  ? (double)t->commits * 1e9 / (double)t->elapsed_ns
			  : 0.0;
	/* ru_maxrss is in KiB on Linux: the high-water mark, like VmHWM. */
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		t->peak_rss = (uint64_t)ru.ru_maxrss * 1024;
	free(el);
}

static void write_json(const struct fg_config *c, const struct totals *t,
		       FILE *f, bool interrupted)
{
	int major, minor, rev;
	char lg2[48];
	struct json j;
	unsigned i;

	git_libgit2_version(&major, &minor, &rev);
	snprintf(lg2, sizeof(lg2), "%d.%d.%d", major, minor, rev);
	json_init(&j, f, false);
	json_object_begin(&j, NULL);
	json_run_header(&j, &c->run);
	json_str(&j, "libgit2_version", lg2);
	json_str(&j, "repository", c->walk.repo_path);
	json_bool(&j, "commit_graph", c->commit_graph);
	json_bool(&j, "shallow", t->last->shallow);
	json_str(&j, "hold", hold_name[c->walk.hold]);
	json_bool(&j, "reread", c->walk.reread);
	json_u64(&j, "every", c->walk.every);
	json_object_begin(&j, "progress");
	json_str(&j, "by", c->by_commits ? "commits" : "time");
	if (c->by_commits) {
		json_null(&j, "interval_s");
		json_u64(&j, "every", c->walk.every);
	} else {
		json_ns_as_s(&j, "interval_s", c->walk.interval_ns);
		json_null(&j, "every");
	}
	json_object_end(&j);
	json_u64(&j, "commits", t->last->commits);
	json_u64(&j, "edges", t->last->edges);
	json_u64(&j, "bytes_held", t->last->bytes_held);
	json_u64(&j, "bytes_read", t->last->bytes_read);
	json_u64(&j, "peak_rss_bytes", t->peak_rss);
	if (c->walk.sample) {
		json_ns_as_s(&j, "user_sample_period_s", c->sample_period_ns);
		json_null(&j, "user_sample_why");
	} else {
		json_null(&j, "user_sample_period_s");
		json_str(&j, "user_sample_why", c->sample_why);
	}
	json_array_begin(&j, "iterations");
	for (i = 0; i < c->done; i++) {
		json_object_begin(&j, NULL);
		json_ns_as_s(&j, "elapsed_s", c->res[i].elapsed_ns);
		json_u64(&j, "commits", c->res[i].commits);
		json_bool(&j, "interrupted", c->res[i].interrupted);
		json_ns_as_s(&j, "start_mono_s", c->res[i].start_ns);
		json_ns_as_s(&j, "end_mono_s", c->res[i].end_ns);
		json_u64(&j, "majflt", c->res[i].majflt);
		json_u64(&j, "minflt", c->res[i].minflt);
		json_ns_as_s(&j, "user_s", c->res[i].user_ns);
		json_ns_as_s(&j, "sys_s", c->res[i].sys_ns);
		if (c->res[i].has_user_sampled)
			json_ns_as_s(&j, "user_sampled_s",
				     c->res[i].user_sampled_ns);
		else
			json_null(&j, "user_sampled_s");
		json_u64(&j, "lines", c->res[i].lines);
		if (c->res[i].has_runq)
			json_ns_as_s(&j, "runq_s", c->res[i].runq_ns);
		else
			json_null(&j, "runq_s");
		json_object_end(&j);
	}
	json_array_end(&j);
	json_double(&j, "commits_per_s", t->rate);
	json_double(&j, "elapsed_mean_s", t->mean_s);
	json_double(&j, "elapsed_stddev_s", t->stddev_s);
	json_bool(&j, "interrupted", interrupted);
	json_object_end(&j);
	json_finish(&j);
}

static void write_text(const struct fg_config *c, const struct totals *t,
		       FILE *f, bool interrupted)
{
	const char *p = progname();
	unsigned i;

	fprintf(f,
		"%s: repository '%s' (commit-graph: %s, shallow: %s), "
		"hold %s%s\n",
		p, c->walk.repo_path, c->commit_graph ? "yes" : "no",
		t->last->shallow ? "yes" : "no", hold_name[c->walk.hold],
		c->walk.reread ? ", reread" : "");
	for (i = 0; i < c->done; i++) {
		const struct walk_result *r = &c->res[i];
		char el[32];

		el[fmt_ns_fixed(el, r->elapsed_ns, 3)] = '\0';
		fprintf(f,
			"%s: iteration %u: %llu commits in %s s (%.0f "
			"commits/s), %llu major faults, %llu lines%s\n",
			p, i + 1, (unsigned long long)r->commits, el,
			r->elapsed_ns ? (double)r->commits * 1e9 /
						(double)r->elapsed_ns
				      : 0.0,
			(unsigned long long)r->majflt,
			(unsigned long long)r->lines,
			r->interrupted ? " interrupted" : "");
	}
	fprintf(f,
		"%s: commits=%llu edges=%llu bytes_held=%llu "
		"peak_rss_bytes=%llu commits_per_s=%.0f elapsed_mean_s=%.3f "
		"elapsed_stddev_s=%.3f%s\n",
		p, (unsigned long long)t->last->commits,
		(unsigned long long)t->last->edges,
		(unsigned long long)t->last->bytes_held,
		(unsigned long long)t->peak_rss, t->rate, t->mean_s,
		t->stddev_s, interrupted ? " interrupted" : "");
}

int report_summary(struct fg_config *c, bool interrupted)
{
	struct totals t;
	FILE *f;
	int r;

	if (!c->done)
		return 0;
	sum_up(c, &t);
	c->run.end_real_ns = real_ns();
	if (c->common.output) {
		f = c->out.f;
	} else if (c->format == FORMAT_JSON) {
		f = stdout;
	} else if (c->common.quiet) {
		return 0;
	} else {
		f = stderr;
	}
	if (c->format == FORMAT_JSON)
		write_json(c, &t, f, interrupted);
	else
		write_text(c, &t, f, interrupted);
	if (c->common.output) {
		r = atomic_commit(&c->out);
		if (r) {
			atomic_abort(&c->out);
			return error_err(-r, "cannot write '%s'",
					 c->common.output);
		}
	}
	return 0;
}

static const struct children_map *sort_map;

static int by_id(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	return git_oid_cmp(&sort_map->node[*x].id, &sort_map->node[*y].id);
}

static void dump_node(FILE *f, const struct children_map *m, uint32_t i,
		      uint32_t *kids)
{
	char hex[GIT_OID_HEXSZ + 1];
	uint32_t n = 0, e, k;

	for (e = m->node[i].first_child; e != UINT32_MAX; e = m->edge[e].next)
		kids[n++] = m->edge[e].child;
	qsort(kids, n, sizeof(*kids), by_id);
	fputs(git_oid_tostr(hex, sizeof(hex), &m->node[i].id), f);
	for (k = 0; k < n; k++) {
		fputc(' ', f);
		fputs(git_oid_tostr(hex, sizeof(hex), &m->node[kids[k]].id), f);
	}
	fputc('\n', f);
}

int report_dump_map(struct atomic_file *af, const char *path,
		    const struct children_map *m)
{
	uint32_t *order = xcalloc(m->nnodes + 1, sizeof(*order));
	uint32_t *kids = xcalloc(m->nnodes + 1, sizeof(*kids));
	uint32_t n = 0, i;
	int r;

	/* The commits loaded: git rev-list --children lists those. */
	for (i = 0; i < m->nnodes; i++)
		if (m->node[i].seen && !m->node[i].hidden)
			order[n++] = i;
	sort_map = m;
	qsort(order, n, sizeof(*order), by_id);
	for (i = 0; i < n; i++)
		dump_node(af->f, m, order[i], kids);
	r = atomic_commit(af);
	if (r)
		atomic_abort(af);
	free(order);
	free(kids);
	if (r)
		return error_err(-r, "cannot write '%s'", path);
	return 0;
}
