// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --simulate: the program's own decisions (decide.c, unchanged) run
 * thousands of times on boots drawn from recorded boots, for
 * bench/bisect-accuracy.sh.  A trial is a series of --sim-kernels
 * kernels whose culprit is drawn at random; each boot's figure is a
 * recorded boot's, drawn with replacement, times 1 + --sim-regression/100
 * for the culprit and the kernels after it.  Beside it, in the same
 * trials, the plain rule a person applies with `git bisect run` and
 * latency-compare --fail-if-slower: one pair a step, bad when the kernel's
 * boot is slower than the good end's by more than the threshold, no check
 * of the ends, no validation.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/output.h"
#include "lib/rand.h"
#include "lib/xalloc.h"
#include "bisect/bisect.h"

/* The recorded figures a boot is drawn from. */
struct records {
	size_t n;
	double *v;
};

static void record_add(struct records *r, double v)
{
	r->v = xreallocarray(r->v, r->n + 1, sizeof(*r->v));
	r->v[r->n++] = v;
}

/* A text file: one figure a line, '#' comments. */
static void records_file(struct records *r, const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0, line = 0;
	char *buf = NULL, *end;
	double v;

	if (!f)
		die_errno(EXIT_USAGE, "cannot read the records '%s'", path);
	while (getline(&buf, &cap, f) >= 0) {
		line++;
		buf[strcspn(buf, "#\r\n")] = '\0';
		if (!buf[strspn(buf, " \t")])
			continue;
		errno = 0;
		v = strtod(buf, &end);
		if (errno || end == buf || end[strspn(end, " \t")] ||
		    !isfinite(v) || v <= 0)
			die(EXIT_USAGE, "%s:%zu: not a positive figure", path,
			    line);
		record_add(r, v);
	}
	free(buf);
	if (ferror(f) || fclose(f))
		die_errno(EXIT_USAGE, "cannot read the records '%s'", path);
}

/* A directory: each result directory in it is one boot (FIG). */
static void records_dir(struct records *r, const char *path, enum fig f)
{
	struct cmp_options o = { .workload = "fake-gitk", .alpha = 0.05 };
	struct cmp_result res;
	struct dirent *de;
	DIR *d = opendir(path);
	char *p;

	if (!d)
		die_errno(EXIT_USAGE, "cannot read the records '%s'", path);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s/result.json", path, de->d_name);
		if (!access(p, R_OK)) {
			free(p);
			p = xasprintf("%s/%s", path, de->d_name);
			if (cmp_load(&res, p, NULL, &o))
				die(EXIT_USAGE, "cannot use the record '%s'",
				    p);
			if (!res.partial && res.fig[f].value > 0)
				record_add(r, res.fig[f].value);
			cmp_result_release(&res);
		}
		free(p);
	}
	closedir(d);
}

struct trial {
	bool right, wrong_validated, wrong, not_reproduced, range;
	size_t boots;
};

/* One simulated bisection with the culprit C of N kernels. */
static void trial_program(const struct bisect_opts *o, size_t n, size_t c,
			  double scale, const struct records *rec,
			  struct rand *r, struct trial *t)
{
	struct bisect b;
	struct action next;
	size_t i;

	memset(&b, 0, sizeof(b));
	b.o = *o;
	b.o.good = 0;
	b.o.bad = n - 1;
	b.revert = -1;
	b.n = n;
	b.k = xcalloc(n, sizeof(*b.k));
	for (i = 0; i < n; i++) {
		b.k[i].label = xasprintf("k%zu", i);
		b.k[i].kernel = xstrdup("-");
		b.k[i].cmdline = xstrdup("");
	}
	for (;;) {
		decide(&b, &next);
		if (!next.boot)
			break;
		const struct series *s = &b.series[next.series];
		size_t k = next.arm == 'a' ? s->ref : s->k;
		struct boot *bt;

		b.boots =
			xreallocarray(b.boots, b.n_boots + 1, sizeof(*b.boots));
		bt = &b.boots[b.n_boots];
		memset(bt, 0, sizeof(*bt));
		bt->seq = (unsigned)++b.n_boots;
		bt->series = next.series;
		bt->pair = next.pair;
		bt->arm = next.arm;
		bt->end = BOOT_DONE;
		bt->value =
			rec->v[rand_below(r, rec->n)] * (k >= c ? scale : 1);
	}
	memset(t, 0, sizeof(*t));
	t->boots = b.n_boots;
	t->not_reproduced = b.outcome == OUT_NOT_REPRODUCED;
	t->range = b.outcome == OUT_RANGE;
	if (b.outcome == OUT_FOUND) {
		t->right = (size_t)b.culprit == c;
		t->wrong = !t->right;
		t->wrong_validated = t->wrong && b.validation == VAL_VALIDATED;
	}
	bisect_release(&b);
}

/* The plain rule: one pair a step, no ends, no validation. */
static void trial_plain(size_t n, size_t c, double scale, double thr,
			const struct records *rec, struct rand *r,
			struct trial *t)
{
	size_t lo = 0, hi = n - 1, mid;
	double a, v;

	memset(t, 0, sizeof(*t));
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		a = rec->v[rand_below(r, rec->n)];
		v = rec->v[rand_below(r, rec->n)] * (mid >= c ? scale : 1);
		t->boots += 2;
		if ((v / a - 1) * 100 > thr)
			hi = mid;
		else
			lo = mid;
	}
	t->right = hi == c;
	t->wrong = t->wrong_validated = !t->right;
}

struct tally {
	size_t trials, right, wrong_validated, wrong, not_reproduced, range;
	size_t *boots;
};

static void tally_add(struct tally *y, const struct trial *t)
{
	y->right += t->right;
	y->wrong += t->wrong;
	y->wrong_validated += t->wrong_validated;
	y->not_reproduced += t->not_reproduced;
	y->range += t->range;
	y->boots[y->trials++] = t->boots;
}

static int size_order(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

static void tally_print(const char *who, double reg, struct tally *y)
{
	double n = (double)y->trials, sum = 0;
	size_t i;

	qsort(y->boots, y->trials, sizeof(*y->boots), size_order);
	for (i = 0; i < y->trials; i++)
		sum += (double)y->boots[i];
	printf("%-14s regression %5.1f%%: right %6.2f%%  wrong %6.2f%%  "
	       "wrong-validated %6.2f%%  range %6.2f%%  not-reproduced "
	       "%6.2f%%  boots mean %.1f p95 %zu\n",
	       who, reg, 100 * (double)y->right / n, 100 * (double)y->wrong / n,
	       100 * (double)y->wrong_validated / n, 100 * (double)y->range / n,
	       100 * (double)y->not_reproduced / n, sum / n,
	       y->boots[(size_t)ceil(0.95 * n) - 1]);
}

int bisect_simulate(const char *records, const struct bisect_opts *o,
		    const struct sim_opts *so)
{
	struct tally prog = { 0 }, plain = { 0 };
	double thr, scale = 1 + so->regression / 100;
	struct records rec = { 0, NULL };
	struct trial t;
	struct stat st;
	struct rand r;
	size_t i, c;

	if (stat(records, &st))
		die_errno(EXIT_USAGE, "cannot read the records '%s'", records);
	if (S_ISDIR(st.st_mode))
		records_dir(&rec, records, o->metric);
	else
		records_file(&rec, records);
	if (rec.n < 2)
		die(EXIT_USAGE, "the records '%s' hold %zu boots: two at least",
		    records, rec.n);
	thr = isnan(o->threshold_pct) ? so->regression / 2 : o->threshold_pct;
	prog.boots = xcalloc(so->trials, sizeof(size_t));
	plain.boots = xcalloc(so->trials, sizeof(size_t));
	rand_seed(&r, o->seed);
	for (i = 0; i < so->trials; i++) {
		struct bisect_opts one = *o;

		c = 1 + rand_below(&r, so->kernels - 1);
		one.seed = rand_next(&r) % 100000000000000000ULL;
		trial_program(&one, so->kernels, c, scale, &rec, &r, &t);
		tally_add(&prog, &t);
		trial_plain(so->kernels, c, scale, thr, &rec, &r, &t);
		tally_add(&plain, &t);
	}
	printf("# %zu trials, %zu kernels, %zu recorded boots (%s), metric "
	       "%s, pairs %u..%u, alpha %g, probe alpha %g, plain threshold "
	       "%+.3g%%\n",
	       so->trials, so->kernels, rec.n, records,
	       fig_desc[o->metric].name, o->min_pairs, o->max_pairs, o->alpha,
	       o->probe_alpha, thr);
	tally_print("latency-bisect", so->regression, &prog);
	tally_print("plain-rule", so->regression, &plain);
	free(prog.boots);
	free(plain.boots);
	free(rec.v);
	return EXIT_OK;
}
