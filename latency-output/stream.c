// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stream engine: split input into lines (LF, CR or CR LF end one), time
 * each line by its own timestamp or its arrival, keep every gap of its group
 * and write the stream layout.  This is the hot path of a filter that must
 * never be the slow end of a pipe: input is read in large blocks into one
 * buffer, lines are found with memchr and processed in place, numbers are
 * formatted by hand and output leaves in one write() per block read.
 */
#include <config.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "latency-output/latout.h"

#define SINK_CAP (1U << 20)
/* Room the three columns and " -- " need at most. */
#define COLS_MAX (3 * (32 + 9) + 8)

static const char *const bad_names[LO_BAD_NR] = {
	[LO_OK] = "good line",	       [LO_EMPTY] = "empty line",
	[LO_BAD_TS] = "bad timestamp", [LO_BACKWARDS] = "backwards timestamp",
	[LO_BINARY] = "binary junk",   [LO_TOO_LONG] = "over-long line",
	[LO_NO_TIME] = "no time",
};

static const char *const bad_ids[LO_BAD_NR] = {
	[LO_OK] = "ok",
	[LO_EMPTY] = "empty",
	[LO_BAD_TS] = "bad_timestamp",
	[LO_BACKWARDS] = "backwards",
	[LO_BINARY] = "binary",
	[LO_TOO_LONG] = "too_long",
	[LO_NO_TIME] = "no_time",
};

const char *lo_bad_name(enum lo_bad b)
{
	return b < LO_BAD_NR ? bad_names[b] : "?";
}

const char *lo_bad_id(enum lo_bad b)
{
	return b < LO_BAD_NR ? bad_ids[b] : "?";
}

void lo_init(struct lo_state *s, const struct lo_config *cfg)
{
	unsigned d;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	d = cfg->decimals > 9 ? 9 : cfg->decimals;
	s->cfg.decimals = d;
	/* mmtests' "%16.4f %8.4f %10.4f", widened with the decimals. */
	s->w_epoch = 12 + d;
	s->w_into = 4 + d;
	s->w_gap = 6 + d;
	s->cap = cfg->line_max;
	s->buf = xmalloc(s->cap);
	s->has_start = cfg->has_start;
	s->start = cfg->start;
	s->out.fd = cfg->out_fd;
	if (cfg->emit) {
		/* Small line buffers (the fuzz target) get a small sink too. */
		s->out.cap =
			cfg->line_max < SINK_CAP ? cfg->line_max : SINK_CAP;
		if (s->out.cap < 4 * COLS_MAX)
			s->out.cap = 4 * COLS_MAX;
		s->out.buf = xmalloc(s->out.cap);
	}
}

void lo_release(struct lo_state *s)
{
	size_t i;

	for (i = 0; i < s->ngroups; i++) {
		free(s->groups[i]->name);
		free(s->groups[i]->gaps);
		free(s->groups[i]->at);
		free(s->groups[i]);
	}
	free(s->groups);
	free(s->hash);
	free(s->buf);
	free(s->out.buf);
	memset(s, 0, sizeof(*s));
}

/* Output. */

int lo_flush(struct lo_state *s)
{
	struct lo_sink *o = &s->out;

	if (o->len && o->fd >= 0 && !o->err)
		o->err = write_all(o->fd, o->buf, o->len);
	o->len = 0;
	return o->err;
}

/* Make room for N bytes in the sink, flushing; false if N never fits. */
static bool sink_room(struct lo_state *s, size_t n)
{
	if (s->out.len + n > s->out.cap)
		lo_flush(s);
	return n <= s->out.cap;
}

static void sink_write(struct lo_state *s, const char *p, size_t n)
{
	struct lo_sink *o = &s->out;

	if (sink_room(s, n)) {
		memcpy(o->buf + o->len, p, n);
		o->len += n;
	} else if (o->fd >= 0 && !o->err) {
		o->err = write_all(o->fd, p, n);
	}
}

/* The three columns and " -- " of a line timed T whose gap is GAP. */
static void emit_head(struct lo_state *s, uint64_t t, int64_t gap)
{
	struct lo_sink *o = &s->out;
	unsigned d = s->cfg.decimals;
	char *p;

	sink_room(s, COLS_MAX);
	p = o->buf + o->len;
	p += lo_fmt_col_cached(p, (int64_t)(t + (uint64_t)s->cfg.epoch_off), d,
			       s->w_epoch, &s->cols[0]);
	*p++ = ' ';
	p += lo_fmt_col_cached(p, (int64_t)(t - s->start), d, s->w_into,
			       &s->cols[1]);
	*p++ = ' ';
	p += lo_fmt_col_cached(p, gap, d, s->w_gap, &s->cols[2]);
	memcpy(p, " -- ", 4);
	o->len = (size_t)(p + 4 - o->buf);
}

static void emit_line(struct lo_state *s, uint64_t t, int64_t gap,
		      const char *line, size_t len)
{
	struct lo_sink *o = &s->out;

	emit_head(s, t, gap);
	if (o->len + len + 1 <= o->cap) {
		memcpy(o->buf + o->len, line, len);
		o->len += len;
		o->buf[o->len++] = '\n';
	} else {
		sink_write(s, line, len);
		sink_write(s, "\n", 1);
	}
}

/* Groups. */

static uint64_t hash_name(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	while (n--)
		h = (h ^ (unsigned char)*p++) * 0x100000001b3ULL;
	return h;
}

static bool group_is(const struct lo_series *g, const char *name, size_t n)
{
	if (!name)
		return !g->name;
	return g->name && g->name_len == n && !memcmp(g->name, name, n);
}

static void hash_insert(struct lo_state *s, size_t idx)
{
	const struct lo_series *g = s->groups[idx];
	size_t h = hash_name(g->name, g->name_len) & (s->hash_cap - 1);

	while (s->hash[h])
		h = (h + 1) & (s->hash_cap - 1);
	s->hash[h] = idx + 1;
}

static struct lo_series *group_new(struct lo_state *s, const char *name,
				   size_t n)
{
	struct lo_series *g = xcalloc(1, sizeof(*g));

	if (name) {
		g->name = xmalloc(n + 1);
		memcpy(g->name, name, n);
		g->name[n] = '\0';
		g->name_len = n;
	}
	if (s->cfg.has_start) {
		/* The first line's gap counts from --start. */
		g->has_prev = true;
		g->prev = s->cfg.start;
	}
	if (s->ngroups == s->groups_cap) {
		s->groups_cap = s->groups_cap ? 2 * s->groups_cap : 8;
		s->groups = xreallocarray(s->groups, s->groups_cap,
					  sizeof(*s->groups));
	}
	s->groups[s->ngroups++] = g;
	if (!name)
		return s->none = g;
	if (2 * s->ngroups >= s->hash_cap) {
		size_t i;

		free(s->hash);
		s->hash_cap = s->hash_cap ? 2 * s->hash_cap : 64;
		s->hash = xcalloc(s->hash_cap, sizeof(*s->hash));
		for (i = 0; i < s->ngroups; i++)
			if (s->groups[i]->name)
				hash_insert(s, i);
	} else {
		hash_insert(s, s->ngroups - 1);
	}
	return g;
}

static struct lo_series *group_of(struct lo_state *s, const char *name,
				  size_t n)
{
	size_t h;

	if (s->last && group_is(s->last, name, n))
		return s->last;
	if (!name)
		return s->last = s->none ? s->none : group_new(s, NULL, 0);
	if (s->hash_cap) {
		h = hash_name(name, n) & (s->hash_cap - 1);
		while (s->hash[h]) {
			struct lo_series *g = s->groups[s->hash[h] - 1];

			if (group_is(g, name, n))
				return s->last = g;
			h = (h + 1) & (s->hash_cap - 1);
		}
	}
	return s->last = group_new(s, name, n);
}

static void push_gap(struct lo_state *s, struct lo_series *g, uint64_t gap,
		     int64_t at)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 1024;
		g->gaps = xreallocarray(g->gaps, g->cap, sizeof(*g->gaps));
		if (s->cfg.keep_at)
			g->at = xreallocarray(g->at, g->cap, sizeof(*g->at));
	}
	if (s->cfg.keep_at)
		g->at[g->n] = at;
	g->gaps[g->n++] = gap;
}

/* Lines. */

static int count_bad(struct lo_state *s, struct lo_series *g, enum lo_bad b)
{
	s->malformed[b]++;
	g->malformed++;
	if (!s->cfg.strict)
		return 0;
	s->bad_lineno = s->lineno;
	s->bad_kind = b;
	return -EIO;
}

/*
 * --from: the time of a saved line, on the epoch timeline of the series.
 * A line's own timestamp is exact; the epoch column only as exact as the
 * decimals it was written with, so it times only lines without one.
 */
static void from_time(struct lo_state *s, const char **line, size_t *len,
		      struct lo_line *l, uint64_t *t)
{
	int64_t epoch = 0, v;
	size_t orig;
	bool series = lo_series_parse(*line, *len, &epoch, &orig);

	if (series) {
		*line += orig;
		*len -= orig;
	}
	lo_line_parse(*line, *len, s->cfg.by, l);
	if (l->bad)
		return;
	if (l->timed) {
		/* A hostile file may make these overflow: then it is bad. */
		if (series && !s->from_has_base) {
			if (__builtin_sub_overflow(epoch, (int64_t)l->ts,
						   &s->from_base)) {
				l->bad = LO_BAD_TS;
				return;
			}
			s->from_has_base = true;
		}
		if (__builtin_add_overflow((int64_t)l->ts, s->from_base, &v))
			v = -1;
	} else if (series) {
		v = epoch;
	} else {
		l->bad = LO_NO_TIME;
		return;
	}
	if (v < 0)
		l->bad = LO_BAD_TS;
	*t = (uint64_t)v;
}

/*
 * Whether a line timed T has an epoch column: T plus the offset must fit
 * the signed nanoseconds the columns print (until the year 2262).
 */
static bool epoch_fits(const struct lo_state *s, uint64_t t)
{
	int64_t epoch;

	return !__builtin_add_overflow((int64_t)t, s->cfg.epoch_off, &epoch);
}

static int handle_line(struct lo_state *s, const char *line, size_t len,
		       uint64_t now)
{
	struct lo_series *g;
	struct lo_line l;
	uint64_t t = now;
	int64_t gap;

	s->lineno++;
	s->lines++;
	if (s->cfg.from) {
		from_time(s, &line, &len, &l, &t);
	} else {
		lo_line_parse(line, len, s->cfg.by, &l);
		if (l.timed && !epoch_fits(s, l.ts)) {
			/* Beyond the epoch column: stamped on arrival. */
			l.timed = false;
			l.bad = LO_BAD_TS;
		}
		if (l.timed)
			t = l.ts;
	}
	g = group_of(s, l.key, l.key_len);
	g->lines++;
	if (!l.bad && g->has_prev && t < g->prev)
		l.bad = LO_BACKWARDS;
	gap = g->has_prev ? (int64_t)(t - g->prev) : 0;
	if (l.bad) {
		if (count_bad(s, g, l.bad))
			return -EIO;
	} else {
		if (!s->has_start) {
			s->has_start = true;
			s->start = t;
		}
		if (g->has_prev)
			push_gap(s, g, t - g->prev, (int64_t)(t - s->start));
		g->has_prev = true;
		g->prev = t;
	}
	if (s->cfg.emit)
		emit_line(s, t, gap, line, len);
	return 0;
}

/*
 * A line that fills the whole buffer: count it, write what there is of it
 * stamped now, and copy the rest through as it comes.
 */
static int start_long_line(struct lo_state *s, const char *p, size_t n,
			   uint64_t now)
{
	struct lo_series *g;
	struct lo_line l;

	s->lineno++;
	s->lines++;
	lo_line_parse(p, n, s->cfg.by, &l);
	g = group_of(s, l.key, l.key_len);
	g->lines++;
	if (count_bad(s, g, LO_TOO_LONG))
		return -EIO;
	s->long_line = true;
	if (s->cfg.emit) {
		emit_head(s, now, g->has_prev ? (int64_t)(now - g->prev) : 0);
		sink_write(s, p, n);
	}
	return 0;
}

static char *find_end(char *from, char *end, char c)
{
	char *e = memchr(from, c, (size_t)(end - from));

	return e ? e : end;
}

int lo_commit(struct lo_state *s, size_t n, uint64_t now)
{
	char *p = s->buf, *end, *from, *nl = NULL, *cr = NULL;
	size_t rest;
	int r;

	s->used += n;
	end = s->buf + s->used;
	/* The unfinished line carried over was searched already. */
	from = s->buf + s->scanned;
	while (p < end) {
		char *e, *lo = p > from ? p : from;

		if (s->skip_lf) {
			s->skip_lf = false;
			if (*p == '\n') {
				p++;
				continue;
			}
		}
		if (!nl || nl < p)
			nl = find_end(lo, end, '\n');
		if (!cr || cr < p)
			cr = find_end(lo, end, '\r');
		e = nl < cr ? nl : cr;
		if (s->long_line) {
			if (s->cfg.emit)
				sink_write(s, p, (size_t)(e - p));
			if (e == end) {
				p = end;
				break;
			}
			if (s->cfg.emit)
				sink_write(s, "\n", 1);
			s->long_line = false;
		} else {
			if (e == end)
				break;
			r = handle_line(s, p, (size_t)(e - p), now);
			if (r)
				return r;
		}
		s->skip_lf = *e == '\r';
		p = e + 1;
	}
	rest = (size_t)(end - p);
	if (rest == s->cap) {
		r = start_long_line(s, p, rest, now);
		if (r)
			return r;
		rest = 0;
	}
	memmove(s->buf, p, rest);
	s->used = rest;
	s->scanned = rest;
	return s->out.err;
}

int lo_feed(struct lo_state *s, const char *data, size_t len, uint64_t now)
{
	while (len) {
		size_t room, n;
		char *dst = lo_space(s, &room);
		int r;

		n = len < room ? len : room;
		memcpy(dst, data, n);
		r = lo_commit(s, n, now);
		if (r)
			return r;
		data += n;
		len -= n;
	}
	return 0;
}

int lo_finish(struct lo_state *s, uint64_t now)
{
	int r = 0;

	if (s->long_line) {
		if (s->cfg.emit)
			sink_write(s, "\n", 1);
		s->long_line = false;
	} else if (s->used) {
		/* An unfinished last line still counts; it gets a newline. */
		r = handle_line(s, s->buf, s->used, now);
	}
	s->used = 0;
	s->scanned = 0;
	if (r)
		return r;
	return lo_flush(s);
}

/*
 * Wait for FD to be readable with the stop signals let through only while
 * waiting (ppoll), so a signal that comes just before the wait cannot be
 * missed.  Returns 1 when readable, 0 when stopped, or -errno.
 */
static int wait_readable(int fd, const sigset_t *waitmask)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	while (!sig_stop) {
		if (ppoll(&pfd, 1, NULL, waitmask) >= 0)
			return 1;
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

int lo_read_fd(struct lo_state *s, int fd)
{
	sigset_t stops, old;
	int r = 0;

	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &stops, &old))
		return -errno;
	for (;;) {
		size_t room;
		char *dst;
		ssize_t n;

		r = wait_readable(fd, &old);
		if (r <= 0)
			break;
		dst = lo_space(s, &room);
		n = read(fd, dst, room);
		if (n < 0) {
			r = errno == EINTR || errno == EAGAIN ? 0 : -errno;
			if (r)
				break;
			continue;
		}
		if (n == 0)
			break;
		r = lo_commit(s, (size_t)n, mono_ns());
		/* One write per read: a slow producer's lines go out now. */
		if (!r)
			r = lo_flush(s);
		if (r)
			break;
	}
	/* Pending stop signals run their (recording) handler here. */
	if (sigprocmask(SIG_SETMASK, &old, NULL) && !r)
		r = -errno;
	return r < 0 ? r : 0;
}
