// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The --stamp line stamper.  A line is stamped when it is complete, because
 * a progress line (doc/design.md, contract 1) is stamped the moment a unit
 * of work completed; until then it is held (up to STAMP_HOLD_MAX bytes, after
 * which it is written with the stamp of that moment and its rest passes
 * through unstamped).  A CR at the end of a read is held too, since only the
 * next byte tells whether it ends a progress-bar line or starts a CR LF.
 * Everything one read completes goes out in one write, so a stamped line is
 * never split by our own writes.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "unbuffered/unbuffered.h"

#define OUT_CAP 65536

void stamper_init(struct stamper *s, int fd)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->hold = xmalloc(STAMP_HOLD_MAX);
	s->out = xmalloc(OUT_CAP);
}

void stamper_release(struct stamper *s)
{
	free(s->hold);
	free(s->out);
	s->hold = NULL;
	s->out = NULL;
}

static int out_flush(struct stamper *s)
{
	int r = 0;

	if (s->out_len)
		r = write_all(s->fd, s->out, s->out_len);
	s->out_len = 0;
	return r;
}

static int out_put(struct stamper *s, const char *p, size_t n)
{
	int r;

	if (!n)
		return 0;
	if (n > OUT_CAP - s->out_len) {
		r = out_flush(s);
		if (r)
			return r;
		if (n >= OUT_CAP)
			return write_all(s->fd, p, n);
	}
	memcpy(s->out + s->out_len, p, n);
	s->out_len += n;
	return 0;
}

static int put_stamp(struct stamper *s, uint64_t ns)
{
	char buf[40];
	size_t n = fmt_ns_fixed(buf, ns, 9);

	buf[n++] = ' ';
	return out_put(s, buf, n);
}

/*
 * Write the stamp (unless the line's start is out already), the held bytes
 * and P[0..N); the line continues unstamped afterwards.
 */
static int flush_line(struct stamper *s, const char *p, size_t n, uint64_t ns)
{
	int r = 0;

	if (!s->cont)
		r = put_stamp(s, ns);
	if (!r)
		r = out_put(s, s->hold, s->hold_len);
	if (!r)
		r = out_put(s, p, n);
	s->hold_len = 0;
	s->cont = true;
	return r;
}

/* The held line is completed by P[0..N) at NS: write it out. */
static int end_line(struct stamper *s, const char *p, size_t n, uint64_t ns)
{
	int r = flush_line(s, p, n, ns);

	s->cr = false;
	s->cont = false;
	return r;
}

/* P[0..N), arrived at NS, continues the current line without ending it. */
static int hold(struct stamper *s, const char *p, size_t n, uint64_t ns)
{
	s->hold_ns = ns;
	if (s->cont)
		return out_put(s, p, n);
	if (n <= STAMP_HOLD_MAX - s->hold_len) {
		memcpy(s->hold + s->hold_len, p, n);
		s->hold_len += n;
		return 0;
	}
	/* Too long to hold: stamp it now, the rest follows unstamped. */
	return flush_line(s, p, n, ns);
}

int stamper_feed(struct stamper *s, const char *buf, size_t n, uint64_t now_ns)
{
	size_t i = 0, j;
	int r = 0;

	if (!n)
		return 0;
	if (s->cr) {
		/* The CR ended a line when it arrived, unless LF follows. */
		if (buf[0] == '\n')
			r = end_line(s, buf, 1, now_ns);
		else
			r = end_line(s, NULL, 0, s->hold_ns);
		if (r)
			return r;
		i = buf[0] == '\n';
	}
	for (j = i; j < n && !r; j++) {
		if (buf[j] == '\r') {
			if (j + 1 == n)
				break;
			if (buf[j + 1] == '\n')
				j++;
		} else if (buf[j] != '\n') {
			continue;
		}
		r = end_line(s, buf + i, j + 1 - i, now_ns);
		i = j + 1;
	}
	if (!r && i < n) {
		r = hold(s, buf + i, n - i, now_ns);
		/* Any other CR in the tail would have ended a line. */
		s->cr = buf[n - 1] == '\r';
	}
	if (!r)
		r = out_flush(s);
	return r;
}

int stamper_finish(struct stamper *s)
{
	int r = 0;

	if (s->hold_len || s->cr)
		r = end_line(s, NULL, 0, s->hold_ns);
	if (!r)
		r = out_flush(s);
	return r;
}
