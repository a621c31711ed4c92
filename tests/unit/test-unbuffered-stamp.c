// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for unbuffered's --stamp line splitting: LF, CR LF and lone CR
 * end lines, also when split across reads; a line is stamped with the
 * arrival of its end; bytes pass unchanged; overlong lines are cut loose.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/timing.h"
#include "unbuffered/unbuffered.h"
#include "tests/tap.h"

struct chunk {
	const char *data;
	size_t len;   /* 0: strlen(data) */
	uint64_t t_s; /* arrival, whole seconds */
};

struct case_ {
	const char *name;
	struct chunk in[4]; /* ends at data == NULL */
	const char *want;   /* "@N " stands for the stamp of N seconds */
	size_t want_len;    /* 0: strlen(want) */
};

/* clang-format off */
static const struct case_ cases[] = {
	{ "two lines in one read", { { "a\nb\n", 0, 1 } },
	  "@1 a\n@1 b\n", 0 },
	{ "a line over two reads takes the later stamp",
	  { { "ab", 0, 1 }, { "c\n", 0, 2 } }, "@2 abc\n", 0 },
	{ "CR LF split across reads is one ending",
	  { { "x\r", 0, 1 }, { "\ny\n", 0, 2 } }, "@2 x\r\n@2 y\n", 0 },
	{ "a lone CR at a read's end ends a line when it came",
	  { { "x\r", 0, 1 }, { "y\r", 0, 2 } }, "@1 x\r@2 y\r", 0 },
	{ "LF, CR LF, CR and an unterminated rest",
	  { { "a\r\nb\rc", 0, 1 } }, "@1 a\r\n@1 b\r@1 c", 0 },
	{ "empty lines are lines", { { "\n\n", 0, 3 } }, "@3 \n@3 \n", 0 },
	{ "NUL and high bytes pass unchanged",
	  { { "a\0b\377\n", 5, 1 } }, "@1 a\0b\377\n", 8 },
	{ "a CR arriving alone ends the held line",
	  { { "a", 0, 1 }, { "\r", 0, 2 }, { "b\n", 0, 3 } },
	  "@2 a\r@3 b\n", 0 },
	{ "nothing in, nothing out", { { NULL, 0, 0 } }, "", 0 },
};
/* clang-format on */

/* Expand "@N " into real stamps. */
static size_t expand(const char *want, size_t len, char *out)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (want[i] == '@') {
			uint64_t s = 0;

			while (want[++i] != ' ')
				s = s * 10 + (uint64_t)(want[i] - '0');
			n += fmt_ns_fixed(out + n, s * NSEC_PER_SEC, 9);
		}
		out[n++] = want[i];
	}
	return n;
}

static size_t slurp(FILE *f, char *buf, size_t cap)
{
	size_t n;

	fflush(f);
	rewind(f);
	n = fread(buf, 1, cap, f);
	return n;
}

static void run_case(const struct case_ *c)
{
	static char got[4096], want[4096];
	struct stamper s;
	FILE *f = tmpfile();
	size_t i, glen, wlen;
	int r = 0;

	if (!f)
		skip_all("no temporary file");
	stamper_init(&s, fileno(f));
	for (i = 0; i < 4 && c->in[i].data && !r; i++) {
		const struct chunk *k = &c->in[i];

		r = stamper_feed(&s, k->data, k->len ? k->len : strlen(k->data),
				 k->t_s * NSEC_PER_SEC);
	}
	if (!r)
		r = stamper_finish(&s);
	stamper_release(&s);
	is_int(r, 0, "%s: no error", c->name);
	glen = slurp(f, got, sizeof(got));
	wlen = expand(c->want, c->want_len ? c->want_len : strlen(c->want),
		      want);
	ok(glen == wlen && !memcmp(got, want, glen), "%s: output", c->name);
	fclose(f);
}

/* A line longer than the hold is written with the stamp of that moment
 * and its rest follows unstamped. */
static void long_line(void)
{
	size_t big = STAMP_HOLD_MAX + 100, n, glen;
	char *in = malloc(big), *got = malloc(big + 200), stamp[32];
	FILE *f = tmpfile();
	struct stamper s;
	int r;

	if (!in || !got || !f)
		skip_all("out of memory");
	memset(in, 'x', big);
	stamper_init(&s, fileno(f));
	r = stamper_feed(&s, in, big, NSEC_PER_SEC);
	if (!r)
		r = stamper_feed(&s, "yz\nq\n", 5, 2 * NSEC_PER_SEC);
	if (!r)
		r = stamper_finish(&s);
	stamper_release(&s);
	is_int(r, 0, "long line: no error");
	glen = slurp(f, got, big + 200);
	n = fmt_ns_fixed(stamp, NSEC_PER_SEC, 9);
	stamp[n++] = ' ';
	is_int(glen, n + big + 3 + n + 2, "long line: length");
	ok(!memcmp(got, stamp, n) && got[n] == 'x' && got[n + big - 1] == 'x',
	   "long line: stamped once at its start");
	ok(!memcmp(got + n + big, "yz\n2.000000000 q\n", 3 + n + 2),
	   "long line: rest unstamped, next line stamped");
	fclose(f);
	free(in);
	free(got);
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
	long_line();
	return done_testing();
}
