/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allocation that cannot return NULL: on failure the program stops with
 * "<prog>: out of memory" and EXIT_RUN_FAILED.  For setup paths; a workload
 * that allocates on purpose (fake-gitk's buffer) checks malloc itself.
 */
#ifndef LATENCY_XALLOC_H
#define LATENCY_XALLOC_H

#include <stddef.h>

#include "lib/err.h"

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
/* realloc of NMEMB * SIZE bytes with overflow checking. */
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* posix_memalign() of N bytes aligned to ALIGN (a power of two). */
void *xaligned_alloc(size_t align, size_t n);
/*
 * Stop as a failed allocation does, for a library call that reports
 * -ENOMEM of its own (stats_sort_u64, say).
 */
noreturn void xalloc_die(void);

#endif
