/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Progress lines (doc/design.md, contract 1):
 *     <seconds>.<nanoseconds> <program> <key>=<value> ...
 * written with one write() each, so lines from threads and processes sharing
 * a file never interleave; and the parsing side used by latency-output.
 */
#ifndef LATENCY_PROGRESS_H
#define LATENCY_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"

/* Longest line written (one write of at most PIPE_BUF bytes is atomic). */
#define PROGRESS_LINE_MAX 4096

struct progress {
	int fd;		  /* where lines go; -1 disables them */
	const char *prog; /* second field of every line */
	uint64_t lines;	  /* lines written so far */
};

/* Set up P to write lines named PROG to FD (the caller owns FD). */
void progress_init(struct progress *p, int fd, const char *prog);

/*
 * Write one line stamped TS_NS (CLOCK_MONOTONIC) whose key=value part is
 * FMT.  Returns 0 (also when P->fd is -1), -EMSGSIZE when the line would
 * exceed PROGRESS_LINE_MAX, or -errno from write().
 */
int progress_emit(struct progress *p, uint64_t ts_ns, const char *fmt, ...)
	PRINTF_LIKE(3, 4);

/*
 * Parse a progress line's timestamp at the start of LINE (LEN bytes): digits,
 * a point, 1 to 9 digits, then a space, tab or end.  Stores it in *NS and the
 * offset just past it in *END.  Returns true when LINE starts with one.
 */
bool progress_parse_ts(const char *line, size_t len, uint64_t *ns, size_t *end);

/*
 * Find the value of field KEY ("KEY=value", KEY preceded by a space or the
 * line start, value ended by white space or end) in LINE of LEN bytes.
 * Returns a pointer to the value and its length in *VLEN, or NULL.
 */
const char *progress_find_key(const char *line, size_t len, const char *key,
			      size_t *vlen);

#endif
