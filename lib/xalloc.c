// SPDX-License-Identifier: GPL-2.0-or-later
/* Checked allocation helpers; see xalloc.h. */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

void xalloc_die(void)
{
	die(EXIT_RUN_FAILED, "out of memory");
}

static noreturn void oom(void)
{
	xalloc_die();
}

void *xaligned_alloc(size_t align, size_t n)
{
	void *p;

	if (posix_memalign(&p, align, n ? n : 1))
		oom();
	return p;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > (size_t)-1 / size)
		oom();
	return xrealloc(p, nmemb * size);
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (r < 0)
		oom();
	return p;
}
