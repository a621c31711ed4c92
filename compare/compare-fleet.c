// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fleet formats of latency-compare, for labs that run the suite through
 * a test engine: every figure of every result as a LAVA test case (lines
 * "lava-test-case NAME --result R --measurement X --units U" that the
 * packaged LAVA test definition runs), or as a KCIDB v5.3 object (the
 * kernel under test as checkout and build, one test per figure) for
 * KernelCI.  Both are one list of figures per result, made here once: a
 * measurement (LAVA pass, KCIDB DONE), a count that fails when non-zero
 * (page allocation failures, OOM kills), and whether the run completed.
 * Names come from result files, which may come from anyone: each part of a
 * name keeps [A-Za-z0-9_-] only (LAVA takes a name with a blank as no test
 * case, a KCIDB path nothing else), so nothing else reaches a shell, and
 * names are made unique and at most 100 bytes long (LAVA's limit).
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/json-read.h"
#include "lib/output.h"
#include "lib/stats.h"
#include "lib/xalloc.h"
#include "compare/compare.h"

/* A test case name in LAVA's database is at most this long. */
#define NAME_MAX_BYTES 100
/* The KCIDB test path of the suite, above every figure's. */
#define KCIDB_ROOT "latency-tests"

enum fleet_kind {
	FLEET_MEASURE,	/* a measurement: LAVA pass, KCIDB DONE */
	FLEET_ZERO,	/* a count: passes at 0; NaN: not counted */
	FLEET_COMPLETE, /* VALUE 1 when the run completed, 0 when partial */
};

struct fleet_fig {
	char *name;
	enum fleet_kind kind;
	double value;
	const char *unit; /* NULL: a count, without unit */
};

/* The figures of one result, named under PREFIX ("" or "label."). */
struct fleet {
	struct fleet_fig *f;
	size_t n;
	struct cmp_names names;
	const char *prefix;
};

/*
 * S as one part of a name: [A-Za-z0-9_-] kept, every run of other bytes
 * one '_', a leading '-' made '_' (no name looks like an option), never
 * empty.  A new string.
 */
static char *name_part(const char *s)
{
	char *out = xmalloc(strlen(s) + 2), *o = out;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_' || c == '-';

		if (!ok && o > out && o[-1] == '_')
			continue;
		*o++ = ok ? (char)c : '_';
	}
	if (o == out)
		*o++ = '_';
	*o = '\0';
	if (out[0] == '-')
		out[0] = '_';
	return out;
}

/*
 * Add a figure named PREFIX + the formatted name (whose parts the caller
 * made with name_part()), cut to NAME_MAX_BYTES and made unique with
 * "-2", "-3", ... when an earlier figure of FL has that name.
 */
static void fleet_add(struct fleet *fl, enum fleet_kind kind, double value,
		      const char *unit, const char *fmt, ...) PRINTF_LIKE(5, 6);

static void fleet_add(struct fleet *fl, enum fleet_kind kind, double value,
		      const char *unit, const char *fmt, ...)
{
	char base[NAME_MAX_BYTES + 1], name[NAME_MAX_BYTES + 1], tail[24];
	struct fleet_fig *f;
	size_t k, len;
	va_list ap;
	int used;

	used = snprintf(base, sizeof(base), "%s", fl->prefix);
	va_start(ap, fmt);
	if ((size_t)used < sizeof(base))
		vsnprintf(base + used, sizeof(base) - (size_t)used, fmt, ap);
	va_end(ap);
	snprintf(name, sizeof(name), "%s", base);
	for (k = 2; !cmp_names_add(&fl->names, name, fl->n, NULL); k++) {
		snprintf(tail, sizeof(tail), "-%zu", k);
		len = strlen(base);
		if (len + strlen(tail) > NAME_MAX_BYTES)
			len = NAME_MAX_BYTES - strlen(tail);
		snprintf(name, sizeof(name), "%.*s%s", (int)len, base, tail);
	}
	fl->f = xreallocarray(fl->f, fl->n + 1, sizeof(*fl->f));
	f = &fl->f[fl->n++];
	f->name = xstrdup(name);
	f->kind = kind;
	f->value = value;
	f->unit = unit;
}

static void fleet_measure(struct fleet *fl, double value, const char *unit,
			  const char *name)
{
	if (isfinite(value))
		fleet_add(fl, FLEET_MEASURE, value, unit, "%s", name);
}

static void fleet_release(struct fleet *fl)
{
	size_t i;

	for (i = 0; i < fl->n; i++)
		free(fl->f[i].name);
	free(fl->f);
	cmp_names_release(&fl->names);
}

/* The names and units of the four gap figures of a workload. */
static const struct {
	const char *name, *unit;
} lat_figs[4] = {
	{ "p99_gap", "s" },
	{ "max_gap", "s" },
	{ "stall_count", NULL },
	{ "stall_time", "s" },
};

/*
 * Every workload's gap figures (result.json "latency"): the mean over its
 * runs of each, as latency-compare compares them.
 */
static void add_latency(struct fleet *fl, const struct cmp_fleet_src *s)
{
	size_t i, k;

	for (i = 0; i < s->n_lat; i++) {
		const struct cmp_lat_sum *g = &s->lat[i];
		char *part = name_part(g->name);

		for (k = 0; k < 4; k++)
			if (g->n[k])
				fleet_add(fl, FLEET_MEASURE,
					  g->sum[k] / (double)g->n[k],
					  lat_figs[k].unit, "%s.%s", part,
					  lat_figs[k].name);
		free(part);
	}
}

static void add_seqbench(struct fleet *fl, const struct cmp_result *r)
{
	size_t i, k, ncpu;

	for (i = 0; i < r->n_sb; i++) {
		const struct sb_group *g = &r->sb[i];
		char ra[32] = "", conf[96];
		double cpu = 0;

		if (g->readahead_kb >= 0)
			snprintf(ra, sizeof(ra), "_ra%gk", g->readahead_kb);
		snprintf(conf, sizeof(conf), "seqbench.%s%s.%gM-%gB-%gt",
			 sb_phase_name[g->phase], ra, g->size_mib,
			 g->block_bytes, g->threads);
		fleet_add(fl, FLEET_MEASURE, stats_mean_of(g->rate, g->n),
			  "MiB/s", "%s.rate", conf);
		for (k = ncpu = 0; k < g->n; k++)
			if (!isnan(g->cpu[k])) {
				cpu += g->cpu[k];
				ncpu++;
			}
		if (ncpu)
			fleet_add(fl, FLEET_MEASURE, cpu / (double)ncpu, "%",
				  "%s.cpu", conf);
	}
}

static void add_ringbench(struct fleet *fl, const struct cmp_result *r)
{
	static const char *const unit[RBF_COUNT] = { "/s", "us", "us", "us" };
	size_t i;
	int f;

	for (i = 0; i < r->n_rb; i++) {
		const struct rb_group *g = &r->rb[i];
		char *conf = name_part(g->config);

		for (f = 0; f < RBF_COUNT; f++)
			if (g->n[f])
				fleet_add(fl, FLEET_MEASURE,
					  stats_mean_of(g->v[f], g->n[f]),
					  unit[f], "ringbench.%s.%s", conf,
					  rb_fig_name[f]);
		free(conf);
	}
}

static void add_high_order(struct fleet *fl, const struct cmp_result *r)
{
	size_t i;

	for (i = 0; i < r->n_ho; i++) {
		double pct = cmp_ho_pct(&r->ho[i]);

		if (isfinite(pct))
			fleet_add(fl, FLEET_MEASURE, pct, "%",
				  "high_order.order_%u.success",
				  r->ho[i].order);
	}
	fleet_measure(fl, r->ho_p99_us, "us", "high_order.fault_p99");
}

/* The block layer's figures (latency-block), where the result has them. */
static void add_block(struct fleet *fl, const struct cmp_result *r)
{
	static const char *const unit[FIG_COUNT - FIG_BLOCK_FIRST] = {
		"/MiB", "B", "/request", "/s", "us"
	};
	int f;

	for (f = FIG_BLOCK_FIRST; f < FIG_COUNT; f++)
		fleet_measure(fl, r->fig[f].value, unit[f - FIG_BLOCK_FIRST],
			      fig_desc[f].key);
}

/* The figures of result R, in report order. */
static void fleet_of(struct fleet *fl, const struct cmp_result *r,
		     const struct cmp_fleet_src *s)
{
	fleet_add(fl, FLEET_COMPLETE, r->partial ? 0 : 1, NULL, "complete");
	if (r->has_run) {
		fleet_measure(fl, r->fig[FIG_ELAPSED].value, "s",
			      "elapsed_mean");
		fleet_measure(fl, r->fig[FIG_STDDEV].value, "s",
			      "elapsed_stddev");
		if (s->has_epu_mean)
			fleet_measure(fl, s->epu_mean, "s/s",
				      "elapsed_per_user_mean");
		fleet_add(fl, FLEET_ZERO, r->fig[FIG_FAILURES].value, NULL,
			  "failures");
		fleet_add(fl, FLEET_ZERO, r->fig[FIG_OOM].value, NULL,
			  "oom_kills");
		add_latency(fl, s);
	}
	add_high_order(fl, r);
	add_seqbench(fl, r);
	add_ringbench(fl, r);
	add_block(fl, r);
}

/* V without trailing zeros: "10", "0.25", "1234.000000001". */
static const char *fmt_value(char *buf, size_t len, double v)
{
	char *end;

	snprintf(buf, len, "%.9f", v);
	end = buf + strlen(buf);
	while (end > buf && end[-1] == '0')
		*--end = '\0';
	if (end > buf && end[-1] == '.')
		end[-1] = '\0';
	return buf;
}

static void lava_line(FILE *out, const struct fleet_fig *f)
{
	char num[64];

	fprintf(out, "lava-test-case %s --result ", f->name);
	if (f->kind == FLEET_COMPLETE) {
		fputs(f->value > 0 ? "pass\n" : "fail\n", out);
		return;
	}
	if (isnan(f->value)) {
		fputs("unknown\n", out);
		return;
	}
	fprintf(out, "%s --measurement %s",
		f->kind == FLEET_ZERO && f->value > 0 ? "fail" : "pass",
		fmt_value(num, sizeof(num), f->value));
	if (f->unit)
		fprintf(out, " --units %s", f->unit);
	fputc('\n', out);
}

void cmp_report_lava(FILE *out, const struct cmp_comparison *c)
{
	const struct cmp_label *l = c->labels;
	size_t i, j, k, n = c->n, results = 0;

	for (i = 0; i < n; i++)
		results += l[i].n;
	for (i = 0; i < n; i++) {
		char *label = name_part(l[i].label);

		for (j = 0; j < l[i].n; j++) {
			struct fleet fl = { 0 };
			char *prefix;

			/*
			 * One result: the bare figures, as a lab's charts
			 * follow them from job to job.  Several: each under
			 * its label, and its number when the label has more.
			 */
			if (results == 1)
				prefix = xstrdup("");
			else if (l[i].n == 1)
				prefix = xasprintf("%s.", label);
			else
				prefix = xasprintf("%s.%zu.", label, j + 1);
			fl.prefix = prefix;
			fleet_of(&fl, l[i].r[j], &c->e[i].fleet[j]);
			for (k = 0; k < fl.n; k++)
				lava_line(out, &fl.f[k]);
			fleet_release(&fl);
			free(prefix);
		}
		free(label);
	}
}

/* KCIDB's origins and architectures: lower case letters, digits, '_'. */
static bool kcidb_word(const char *s)
{
	return *s &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(s);
}

bool cmp_kcidb_origin_ok(const char *s)
{
	return kcidb_word(s);
}

/* What KCIDB is told of the kernel and the boot of one result. */
struct kcidb_kernel {
	const char *release;
	char *cmdline;		     /* NULL: unknown */
	char *host, *version, *arch; /* of sysinfo's uname -a; NULL */
	char checkout_id[24], build_id[24], run_id[24];
};

/*
 * Split "Linux HOST RELEASE VERSION... MACHINE OS" (uname -a) into K when
 * its release is the result's.
 */
static void parse_uname(struct kcidb_kernel *k, const char *line)
{
	char *w[64], *copy = xstrdup(line), *save = NULL, *t;
	size_t n = 0;

	for (t = strtok_r(copy, " ", &save); t && n < 64;
	     t = strtok_r(NULL, " ", &save))
		w[n++] = t;
	if (n >= 6 && !strcmp(w[2], k->release)) {
		k->host = xstrdup(w[1]);
		k->arch = xstrdup(w[n - 2]);
		k->version = xstrdup(line + (w[3] - copy));
		k->version[w[n - 2] - w[3] - 1] = '\0';
	}
	free(copy);
}

/*
 * What tells one result from another, in terms that do not change with
 * this program: its label, run label and kernel, and what it measured
 * (the fake-gitk runs' times, seqbench's and ringbench's figures).
 */
static uint64_t run_hash(const struct cmp_result *r, const char *release)
{
	const struct figure *e = &r->fig[FIG_ELAPSED];
	uint64_t h = cmp_fnv1a(CMP_FNV_OFFSET, r->label);
	char num[40];
	size_t i, k;
	int f;

	h = cmp_fnv1a(h, r->run_label ? r->run_label : "");
	h = cmp_fnv1a(h, release);
	for (k = 0; k < e->n; k++) {
		snprintf(num, sizeof(num), "elapsed %.17g", e->samples[k]);
		h = cmp_fnv1a(h, num);
	}
	for (i = 0; i < r->n_sb; i++)
		for (k = 0; k < r->sb[i].n; k++) {
			snprintf(num, sizeof(num), "sb %.17g",
				 r->sb[i].rate[k]);
			h = cmp_fnv1a(h, num);
		}
	for (i = 0; i < r->n_rb; i++)
		for (f = 0; f < RBF_COUNT; f++)
			for (k = 0; k < r->rb[i].n[f]; k++) {
				snprintf(num, sizeof(num), "rb %.17g",
					 r->rb[i].v[f][k]);
				h = cmp_fnv1a(h, num);
			}
	return h;
}

static void kcidb_kernel_of(struct kcidb_kernel *k, const struct cmp_result *r,
			    const struct cmp_fleet_src *s)
{
	uint64_t h;

	memset(k, 0, sizeof(*k));
	k->release = s->release;
	/* sysinfo's, else the guest's vm.cmdline. */
	k->cmdline = r->setup.cmdline ? xstrdup(r->setup.cmdline) : NULL;
	if (s->uname)
		parse_uname(k, s->uname);
	h = cmp_fnv1a(CMP_FNV_OFFSET, k->release);
	snprintf(k->checkout_id, sizeof(k->checkout_id), "%016llx",
		 (unsigned long long)h);
	h = cmp_fnv1a(cmp_fnv1a(h, k->version ? k->version : ""),
		      k->arch ? k->arch : "");
	snprintf(k->build_id, sizeof(k->build_id), "%016llx",
		 (unsigned long long)h);
	snprintf(k->run_id, sizeof(k->run_id), "%016llx",
		 (unsigned long long)run_hash(r, k->release));
}

static void kcidb_kernel_release(struct kcidb_kernel *k)
{
	free(k->cmdline);
	free(k->host);
	free(k->version);
	free(k->arch);
}

/* "ORIGIN:KIND-HEX" as member KEY. */
static void kcidb_id(struct json *j, const char *key, const char *origin,
		     const char *kind, const char *hex)
{
	char id[128];

	snprintf(id, sizeof(id), "%s:%s-%s", origin, kind, hex);
	json_str(j, key, id);
}

static void kcidb_checkout(struct json *j, const struct kcidb_kernel *k,
			   const char *origin)
{
	char *comment = xasprintf("Linux %s", k->release);

	json_object_begin(j, NULL);
	kcidb_id(j, "id", origin, "checkout", k->checkout_id);
	json_str(j, "origin", origin);
	json_str(j, "comment", comment);
	json_object_begin(j, "misc");
	json_str(j, "kernel_release", k->release);
	json_object_end(j);
	json_object_end(j);
	free(comment);
}

static void kcidb_build(struct json *j, const struct kcidb_kernel *k,
			const char *origin)
{
	json_object_begin(j, NULL);
	kcidb_id(j, "id", origin, "build", k->build_id);
	json_str(j, "origin", origin);
	kcidb_id(j, "checkout_id", origin, "checkout", k->checkout_id);
	if (k->arch && kcidb_word(k->arch))
		json_str(j, "architecture", k->arch);
	json_object_begin(j, "misc");
	json_str(j, "kernel_release", k->release);
	if (k->version)
		json_str(j, "kernel_version", k->version);
	json_object_end(j);
	json_object_end(j);
}

static const char *kcidb_status(const struct fleet_fig *f)
{
	switch (f->kind) {
	case FLEET_COMPLETE:
		return f->value > 0 ? "PASS" : "ERROR";
	case FLEET_ZERO:
		if (isnan(f->value))
			return "MISS";
		return f->value > 0 ? "FAIL" : "PASS";
	default:
		return "DONE";
	}
}

/* The tests of result R (its figures FL) of kernel K. */
static void kcidb_tests(struct json *j, const struct cmp_result *r,
			const struct kcidb_kernel *k, const struct fleet *fl,
			const char *origin)
{
	char id[64 + NAME_MAX_BYTES], *path;
	size_t i;

	for (i = 0; i < fl->n; i++) {
		const struct fleet_fig *f = &fl->f[i];

		json_object_begin(j, NULL);
		snprintf(id, sizeof(id), "%s:run-%s.%s", origin, k->run_id,
			 f->name);
		json_str(j, "id", id);
		json_str(j, "origin", origin);
		kcidb_id(j, "build_id", origin, "build", k->build_id);
		path = xasprintf(KCIDB_ROOT ".%s", f->name);
		json_str(j, "path", path);
		free(path);
		json_str(j, "status", kcidb_status(f));
		if (f->kind != FLEET_COMPLETE && !isnan(f->value)) {
			json_object_begin(j, "number");
			json_double(j, "value", f->value);
			if (f->unit)
				json_str(j, "unit", f->unit);
			json_object_end(j);
		}
		json_object_begin(j, "environment");
		if (k->host)
			json_str(j, "comment", k->host);
		json_object_begin(j, "misc");
		json_str(j, "label", r->label);
		if (r->run_label)
			json_str(j, "run_label", r->run_label);
		if (k->cmdline)
			json_str(j, "cmdline", k->cmdline);
		/* A boot of a series: what a consumer pairs its tests by. */
		if (r->boots.on) {
			json_str(j, "boots_series", r->boots.series);
			json_u64(j, "boots_pair", r->boots.pair);
			json_str(j, "boots_arm",
				 r->boots.arm == 'a' ? "a" : "b");
		}
		json_object_end(j);
		json_object_end(j);
		json_object_end(j);
	}
}

/* Each result once: KIND's objects (checkouts, builds or tests). */
static void kcidb_list(struct json *j, const char *kind,
		       const struct cmp_label *l, size_t n,
		       const struct kcidb_kernel *k, const struct fleet *fl,
		       const char *origin)
{
	struct cmp_names seen = { 0 };
	size_t i, at = 0;

	json_array_begin(j, kind);
	for (i = 0; i < n; i++)
		for (size_t r = 0; r < l[i].n; r++, at++) {
			if (!strcmp(kind, "checkouts")) {
				if (cmp_names_add(&seen, k[at].checkout_id, 0,
						  NULL))
					kcidb_checkout(j, &k[at], origin);
			} else if (!strcmp(kind, "builds")) {
				if (cmp_names_add(&seen, k[at].build_id, 0,
						  NULL))
					kcidb_build(j, &k[at], origin);
			} else if (cmp_names_add(&seen, k[at].run_id, 0,
						 NULL)) {
				kcidb_tests(j, l[i].r[r], &k[at], &fl[at],
					    origin);
			} else {
				char *p = text_escape(l[i].r[r]->path);

				warn("'%s' is a result given before: its "
				     "tests are written once",
				     p);
				free(p);
			}
		}
	json_array_end(j);
	cmp_names_release(&seen);
}

void cmp_report_kcidb(FILE *out, const struct cmp_comparison *c)
{
	const struct cmp_label *l = c->labels;
	const struct cmp_options *o = c->o;
	struct kcidb_kernel *k;
	struct fleet *fl;
	size_t i, r, at = 0, n = c->n, results = 0;
	struct json j;

	for (i = 0; i < n; i++)
		results += l[i].n;
	k = xcalloc(results, sizeof(*k));
	fl = xcalloc(results, sizeof(*fl));
	for (i = 0; i < n; i++)
		for (r = 0; r < l[i].n; r++, at++) {
			kcidb_kernel_of(&k[at], l[i].r[r], &c->e[i].fleet[r]);
			fl[at].prefix = "";
			fleet_of(&fl[at], l[i].r[r], &c->e[i].fleet[r]);
		}
	json_init(&j, out, true);
	json_object_begin(&j, NULL);
	json_object_begin(&j, "version");
	json_u64(&j, "major", 5);
	json_u64(&j, "minor", 3);
	json_object_end(&j);
	kcidb_list(&j, "checkouts", l, n, k, fl, o->kcidb_origin);
	kcidb_list(&j, "builds", l, n, k, fl, o->kcidb_origin);
	kcidb_list(&j, "tests", l, n, k, fl, o->kcidb_origin);
	json_object_end(&j);
	json_finish(&j);
	for (i = 0; i < results; i++) {
		kcidb_kernel_release(&k[i]);
		fleet_release(&fl[i]);
	}
	free(k);
	free(fl);
}
