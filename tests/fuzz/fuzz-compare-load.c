// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: latency-compare's result loader (compare/compare-load.c)
 * on any bytes, written to a temporary file and loaded as latency-compare
 * loads a result named on its command line, then reported in every format
 * against itself.  Beyond "no crash, no sanitizer report" it checks what the
 * loader promises: a loaded result has a label, every figure is its
 * samples' mean, every seqbench group has a run.
 *
 * The loader refuses bad input with one line (through error_err(), quiet
 * here: --wrap=error_err) and EXIT_RUN_FAILED: that is its documented
 * answer, not a finding, and it must leave nothing behind but the result
 * for its caller to release (a leak is a finding).  The tree being loaded
 * is tracked through --wrap=json_read_file/json_read_free,
 * to check that the loader frees it on a refusal and keeps it otherwise
 * (and the reader's limit is brought down to the input: see below).
 * Built and run by `make fuzz`.
 */
#include <config.h>

#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/json-read.h"
#include "lib/output.h"
#include "lib/stats.h"
#include "compare/compare.h"
#include "tests/fuzz/fuzz.h"

/* The linker's --wrap names. */
int __real_json_read_file(const char *path, size_t max_bytes,
			  struct json_node **root, struct json_read_error *err);
int __wrap_json_read_file(const char *path, size_t max_bytes,
			  struct json_node **root, struct json_read_error *err);
void __real_json_read_free(struct json_node *root);
void __wrap_json_read_free(struct json_node *root);
int __wrap_error_err(int errnum, const char *fmt, ...);

static struct json_node *live; /* the tree the loader holds, if any */
static char path[64];
static size_t input_size; /* of the file being loaded */
static FILE *devnull;
static struct run_info ri;

/* A refusal's one line, quietly: most inputs are refused. */
int __wrap_error_err(int errnum, const char *fmt, ...)
{
	(void)errnum;
	(void)fmt;
	return -1;
}

int __wrap_json_read_file(const char *file, size_t max_bytes,
			  struct json_node **root, struct json_read_error *err)
{
	int r;

	/*
	 * The reader allocates its limit (64 MiB) up front: cheap untouched,
	 * but ASan poisons all of it at every call.  An input is far below
	 * the limit, so a limit just above it changes no answer.
	 */
	if (max_bytes > input_size + 1)
		max_bytes = input_size + 1;
	r = __real_json_read_file(file, max_bytes, root, err);

	if (!r)
		live = *root;
	return r;
}

void __wrap_json_read_free(struct json_node *root)
{
	if (root == live)
		live = NULL;
	__real_json_read_free(root);
}

static void setup(void)
{
	const char *dir = fuzz_tmp_base();
	int fd;

	snprintf(path, sizeof(path), "%s/fuzz-compare-load.XXXXXX", dir);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	devnull = fopen("/dev/null", "w");
	CHECK(devnull);
	run_info_init(&ri, "latency-compare", 0, NULL);
}

static void put_file(const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	CHECK(fd >= 0);
	CHECK(write_all(fd, data, size) == 0);
	CHECK(close(fd) == 0);
}

/* What a loaded result promises the reports. */
static void check_loaded(const struct cmp_result *r)
{
	size_t i;
	int f;

	CHECK(r->label && r->path);
	for (f = 0; f < FIG_COUNT; f++) {
		const struct figure *x = &r->fig[f];
		double m;

		if (!x->n)
			continue;
		CHECK(x->samples);
		m = stats_mean_of(x->samples, x->n);
		CHECK(m == x->value || (isnan(m) && isnan(x->value)));
	}
	for (i = 0; i < r->n_sb; i++) {
		CHECK(r->sb[i].n >= 1 && r->sb[i].phase < SB_PHASES);
		CHECK(r->sb[i].rate && r->sb[i].cpu);
	}
	/* Groups are sorted, and each configuration appears once. */
	for (i = 0; i + 1 < r->n_sb; i++)
		CHECK(cmp_sb_order(&r->sb[i], &r->sb[i + 1]) < 0);
	CHECK(r->hist.n == 0 || (r->hist.le_s && r->hist.count));
}

static void count_diff(void *ctx, const struct cmp_setup_diff *d)
{
	char *s = cmp_setup_text(d);

	free(s);
	++*(size_t *)ctx;
}

/* The two results as two labels, reported in every format. */
static void report(struct cmp_result *r, const struct cmp_options *o)
{
	static const enum cmp_format formats[] = {
		CMP_2009,     CMP_TEXT, CMP_CSV,   CMP_JSON,
		CMP_MARKDOWN, CMP_LAVA, CMP_KCIDB,
	};
	struct cmp_options fo = *o;
	struct cmp_comparison *c;
	struct cmp_label *l = NULL;
	size_t i, nl;

	nl = cmp_group(r, 2, &l);
	CHECK(nl == 2 && l);
	fo.fleet = true;
	c = cmp_build(l, nl, &fo);
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		cmp_report(devnull, formats[i], c, &ri);
	for (i = 0; i < FIG_COUNT; i++) {
		struct change ch =
			cmp_change(&l[0], &l[1], (enum fig)i, o->alpha);

		/* A result against itself never changes significantly. */
		CHECK(!ch.significant);
		CHECK(c->e[1].fig[i].state != CMP_WORSE &&
		      c->e[1].fig[i].state != CMP_BETTER);
	}
	cmp_comparison_free(c);
	/* Nor is it set up differently. */
	i = 0;
	cmp_setup_each(&l[0], &l[1], count_diff, &i);
	CHECK(i == 0);
	for (i = 0; i < nl; i++)
		cmp_label_release(&l[i]);
	free(l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cmp_options o = { .workload = "fake-gitk",
				 .alpha = 0.05,
				 .kcidb_origin = CMP_KCIDB_ORIGIN };
	struct cmp_result *r;

	if (!devnull)
		setup();
	put_file(data, size);
	input_size = size;
	r = calloc(2, sizeof(*r));
	CHECK(r);
	live = NULL;
	if (cmp_load(&r[0], path, NULL, &o)) {
		/* Refused: the tree is freed or in the result, ours to release. */
		CHECK(!live || live == r[0].json);
		cmp_result_release(&r[0]);
		free(r);
		return 0;
	}
	/* The tree of a run-test.sh result is kept for the fleet formats. */
	CHECK(live == r[0].json);
	live = NULL;
	check_loaded(&r[0]);
	/* The same file again under another label: the baseline (what
	 * loaded once loads again). */
	CHECK(!cmp_load(&r[1], path, "fuzz-base", &o));
	CHECK(live == r[1].json);
	live = NULL;
	report(r, &o);
	cmp_result_release(&r[0]);
	cmp_result_release(&r[1]);
	free(r);
	return 0;
}
