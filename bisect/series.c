// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The series file: one kernel a line, oldest first, "LABEL KERNEL
 * [KERNEL-COMMAND-LINE...]", blank lines and '#' comments ignored.  The
 * label names the kernel's boots (a directory name and latency-vm's
 * --label), so it is held to latency-vm's rule; the command line to
 * latency-vm's --cmdline rule (printable, no double quote).
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "bisect/bisect.h"

/* A series file is small: a line a kernel. */
#define SERIES_MAX_LINES 10000
#define LABEL_MAX 48

bool label_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > LABEL_MAX || s[0] == '.' || s[0] == '-')
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789._+-") == n;
}

long series_find(const struct bisect *b, const char *label)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (!strcmp(b->k[i].label, label))
			return (long)i;
	return -1;
}

/* Printable ASCII without a double quote (latency-vm's --cmdline). */
static bool cmdline_ok(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e || *s == '"')
			return false;
	return true;
}

noreturn static void bad_line(const char *path, size_t line, const char *why,
			      const char *what)
{
	char *e = text_escape(path), *w = text_escape(what);

	die(EXIT_USAGE, "%s:%zu: %s '%s'", e, line, why, w);
}

/* Add the kernel of line LINE (its text in S, cut at the newline). */
static void add_line(struct bisect *b, const char *path, size_t line, char *s)
{
	char *label, *kernel, *rest;
	struct kernel *k;

	s += strspn(s, " \t");
	if (!*s || *s == '#')
		return;
	label = s;
	s += strcspn(s, " \t");
	if (!*s)
		bad_line(path, line, "a label without a kernel:", label);
	*s++ = '\0';
	s += strspn(s, " \t");
	kernel = s;
	s += strcspn(s, " \t");
	if (*s)
		*s++ = '\0';
	rest = s + strspn(s, " \t");
	while (*rest && strchr(" \t", rest[strlen(rest) - 1]))
		rest[strlen(rest) - 1] = '\0';
	if (!label_ok(label))
		bad_line(path, line,
			 "invalid label (letters, digits, . _ + -, at most 48, "
			 "not starting with . or -):",
			 label);
	if (!*kernel || !cmdline_ok(kernel))
		bad_line(path, line, "invalid kernel:", kernel);
	if (!cmdline_ok(rest))
		bad_line(path, line,
			 "invalid kernel command line (printable, no double "
			 "quote):",
			 rest);
	if (series_find(b, label) >= 0)
		bad_line(path, line, "label given twice:", label);
	b->k = xreallocarray(b->k, b->n + 1, sizeof(*b->k));
	k = &b->k[b->n++];
	memset(k, 0, sizeof(*k));
	k->label = xstrdup(label);
	k->kernel = xstrdup(kernel);
	k->cmdline = xstrdup(rest);
}

void series_read(struct bisect *b, const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0, line = 0;
	char *buf = NULL, *e;
	ssize_t len;

	if (!f) {
		e = text_escape(path);
		die_errno(EXIT_USAGE, "cannot read the series '%s'", e);
	}
	while ((len = getline(&buf, &cap, f)) >= 0) {
		if (++line > SERIES_MAX_LINES)
			bad_line(path, line, "too many lines in", "the file");
		if (memchr(buf, '\0', (size_t)len))
			bad_line(path, line, "a NUL byte in", "the line");
		buf[strcspn(buf, "\r\n")] = '\0';
		add_line(b, path, line, buf);
	}
	free(buf);
	if (ferror(f) || fclose(f)) {
		e = text_escape(path);
		die_errno(EXIT_USAGE, "cannot read the series '%s'", e);
	}
	if (b->n < 2) {
		e = text_escape(path);
		die(EXIT_USAGE,
		    "the series '%s' has %zu kernel%s: a bisection needs a "
		    "good "
		    "and a bad end",
		    e, b->n, b->n == 1 ? "" : "s");
	}
}
