// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: run-test.sh's config file reader (latency-plan
 * --run-config, compare/plan-config.c), which reads files that may
 * come with someone else's result.  The input is read from a heap copy of
 * exactly its size, so a read past the end is an ASan report.  Beyond "no
 * crash" it checks what the driver's shell relies on: a refusal is one
 * line without a control character; an accepted file prints, for the
 * shell and as a config file, only name=value lines with no control
 * character; and the printed config file reads back to the same values.
 * Built and run by `make fuzz` (tests/fuzz/Makefile.inc).
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/plan.h"
#include "tests/fuzz/fuzz.h"

/* No byte below 0x20 but the line ends, no DEL. */
static bool inert(const char *s, size_t n, bool newlines)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] < 0x20 &&
		     !(newlines && s[i] == '\n')) ||
		    s[i] == 0x7f)
			return false;
	return true;
}

/* Every line of OUT[0..N) is "#..." or name=value, name of [a-z_-]. */
static void check_lines(const char *out, size_t n)
{
	const char *s = out, *nl, *eq;

	CHECK(n && out[n - 1] == '\n' && inert(out, n, true));
	for (; s < out + n; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(out + n - s));
		if (*s == '#')
			continue;
		eq = memchr(s, '=', (size_t)(nl - s));
		CHECK(eq && eq > s);
		CHECK(strspn(s, "abcdefghijklmnopqrstuvwxyz_-") ==
		      (size_t)(eq - s));
	}
}

/* The config_line= lines of the shell form OUT[0..N), unprefixed. */
static char *config_lines(const char *out, size_t n, size_t *len)
{
	const char *s = out, *nl;
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	CHECK(f);
	for (; s < out + n; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(out + n - s));
		if (!strncmp(s, "config_line=", 12))
			fwrite(s + 12, 1, (size_t)(nl + 1 - s - 12), f);
	}
	CHECK(!fclose(f));
	return text;
}

static char *print(const struct plan_config *c, bool shell, size_t *n)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, n);

	CHECK(f);
	plan_config_print(f, c, shell);
	CHECK(!fclose(f));
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plan_config c = { 0 }, again = { 0 };
	char *buf = malloc(size ? size : 1), *err = NULL, *out, *lines;
	size_t n, n_lines, i;

	CHECK(buf);
	memcpy(buf, data, size);
	if (plan_config_read(&c, "fuzz.conf", buf, size, &err)) {
		CHECK(err && *err && inert(err, strlen(err), false));
		free(err);
	} else {
		out = print(&c, true, &n);
		check_lines(out, n);
		lines = config_lines(out, n, &n_lines);
		free(out);
		out = print(&c, false, &n);
		check_lines(out, n);
		/* The shell form carries the config file, byte for byte. */
		CHECK(n_lines == n && !memcmp(lines, out, n));
		free(lines);
		CHECK(!plan_config_read(&again, "printed", out, n, &err));
		for (i = 0; i < PLAN_CFG_MAX_KEYS; i++)
			CHECK(!c.value[i] == !again.value[i] &&
			      (!c.value[i] ||
			       !strcmp(c.value[i], again.value[i])));
		free(out);
	}
	plan_config_release(&c);
	plan_config_release(&again);
	free(buf);
	return 0;
}
