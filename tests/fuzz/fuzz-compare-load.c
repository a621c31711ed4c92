// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: latency-compare's result loader (compare/compare-load.c)
 * on any bytes, written to a temporary file and loaded as latency-compare
 * loads a result named on its command line, then reported in every format
 * against itself.  Beyond "no crash, no sanitizer report" it checks what the
 * loader promises: a loaded result has a label, every figure is its
 * samples' mean, every seqbench group has a run.
 *
 * The loader ends the program on bad input (one line, exit 1): that is its
 * documented answer, not a finding.  The build links with
 * -Wl,--wrap=die,--wrap=die_err,--wrap=die_errno so those calls return here
 * (longjmp) instead, quietly; the tree being loaded is tracked through
 * --wrap=json_read_file/json_read_free and freed, and so are the escaped
 * copies of the file's name that the messages of a refusal were given
 * (--wrap=text_escape), so no leak is reported (and the reader's limit is
 * brought down to the input: see below).
 * Built and run by `make fuzz`.
 */
#include <config.h>

#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
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
noreturn void __wrap_die(int status, const char *fmt, ...);
noreturn void __wrap_die_errno(int status, const char *fmt, ...);
noreturn void __wrap_die_err(int status, int errnum, const char *fmt, ...);
int __real_json_read_file(const char *path, size_t max_bytes,
			  struct json_node **root, struct json_read_error *err);
int __wrap_json_read_file(const char *path, size_t max_bytes,
			  struct json_node **root, struct json_read_error *err);
void __real_json_read_free(struct json_node *root);
void __wrap_json_read_free(struct json_node *root);
char *__real_text_escape(const char *s);
char *__wrap_text_escape(const char *s);

static jmp_buf refused;
static struct json_node *live; /* the tree the loader holds, if any */
static char path[64];
static size_t input_size; /* of the file being loaded */
/* Escaped copies of PATH made during this input (messages only). */
static char *escaped[8];
static size_t n_escaped;
static FILE *devnull;
static struct run_info ri;

noreturn void __wrap_die(int status, const char *fmt, ...)
{
	(void)status;
	(void)fmt;
	longjmp(refused, 1);
}

noreturn void __wrap_die_errno(int status, const char *fmt, ...)
{
	(void)status;
	(void)fmt;
	longjmp(refused, 1);
}

noreturn void __wrap_die_err(int status, int errnum, const char *fmt, ...)
{
	(void)status;
	(void)errnum;
	(void)fmt;
	longjmp(refused, 1);
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

/*
 * The loader escapes the file's name only for the message of a refusal,
 * which never returns: those copies are the refusal's to free.
 */
char *__wrap_text_escape(const char *s)
{
	char *e = __real_text_escape(s);

	if (!strcmp(s, path) && n_escaped < sizeof(escaped) / sizeof(*escaped))
		escaped[n_escaped++] = e;
	return e;
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
	struct cmp_label *l = NULL;
	size_t i, nl;

	nl = cmp_group(r, 2, &l);
	CHECK(nl == 2 && l);
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		cmp_report(devnull, formats[i], l, nl, o, &ri);
	for (i = 0; i < FIG_COUNT; i++) {
		struct change c =
			cmp_change(&l[0], &l[1], (enum fig)i, o->alpha);

		/* A result against itself never changes significantly. */
		CHECK(!c.significant);
	}
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
	/* volatile: set before longjmp may come back */
	struct cmp_result *volatile r = NULL;

	if (!devnull)
		setup();
	put_file(data, size);
	input_size = size;
	r = calloc(2, sizeof(*r));
	CHECK(r);
	live = NULL;
	n_escaped = 0;
	if (setjmp(refused)) {
		/* Refused: what a dying latency-compare would not free. */
		if (live)
			__real_json_read_free(live);
		live = NULL;
		while (n_escaped)
			free(escaped[--n_escaped]);
		cmp_result_release(&r[0]);
		cmp_result_release(&r[1]);
		free(r);
		return 0;
	}
	cmp_load(&r[0], path, NULL, &o);
	/* The tree of a run-test.sh result is kept for the fleet formats. */
	CHECK(live == r[0].json);
	live = NULL;
	check_loaded(&r[0]);
	/* The same file again under another label: the baseline. */
	cmp_load(&r[1], path, "fuzz-base", &o);
	CHECK(live == r[1].json);
	live = NULL;
	report(r, &o);
	cmp_result_release(&r[0]);
	cmp_result_release(&r[1]);
	free(r);
	return 0;
}
