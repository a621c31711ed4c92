// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-block's account of the block layer (see block.h): each
 * tracepoint line is taken apart into its device, operation, sector and
 * size, and counted as blkparse counts its actions.  Queue-to-completion
 * and dispatch-to-completion times pair a request's completion with the
 * queueing of the bio that starts it and with its dispatch, through a
 * fixed table of what is in flight (no allocation per event).  Unplug
 * events name no device: one counts for the device whose requests the
 * same task inserts or dispatches on the same CPU right after it.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/kparse.h"
#include "lib/xalloc.h"
#include "monitors/block.h"

/*
 * What is in flight this long (a bio whose completion the trace never
 * showed) is dropped once the table is half full.
 */
#define STALE_NS (60 * 1000000000ULL)
/* Request events this long after an unplug on its CPU are not its own. */
#define UNPLUG_WINDOW_NS 1000000ULL
#define SECTOR 512ULL

void blk_init(struct blk *b)
{
	memset(b, 0, sizeof(*b));
	b->flight = xcalloc(BLK_FLIGHT_SLOTS, sizeof(*b->flight));
}

void blk_release(struct blk *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->dev[i].name);
	free(b->dev);
	free(b->part);
	free(b->flight);
	memset(b, 0, sizeof(*b));
}

struct blk_dev *blk_add(struct blk *b, const char *name, uint32_t major,
			uint32_t minor)
{
	struct blk_dev *d;

	if (b->n == b->alloc) {
		b->alloc = b->alloc ? 2 * b->alloc : 8;
		b->dev = xreallocarray(b->dev, b->alloc, sizeof(*b->dev));
	}
	d = &b->dev[b->n++];
	memset(d, 0, sizeof(*d));
	d->name = name ? xstrdup(name) : xasprintf("%u:%u", major, minor);
	d->major = major;
	d->minor = minor;
	d->request_based = -1;
	hist_init(&d->q2c);
	hist_init(&d->d2c);
	hist_init(&d->rq_bytes);
	return d;
}

void blk_add_part(struct blk *b, size_t disk, uint32_t major, uint32_t minor)
{
	b->part = xreallocarray(b->part, b->nparts + 1, sizeof(*b->part));
	b->part[b->nparts].major = major;
	b->part[b->nparts].minor = minor;
	b->part[b->nparts].disk = disk;
	b->nparts++;
}

/* The index of device MAJOR:MINOR (a partition: its disk's), or -1. */
static long dev_find(struct blk *b, uint32_t major, uint32_t minor, bool add)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->dev[i].major == major && b->dev[i].minor == minor)
			return (long)i;
	for (i = 0; i < b->nparts; i++)
		if (b->part[i].major == major && b->part[i].minor == minor)
			return (long)b->part[i].disk;
	/* A hostile recording could name thousands: a bound. */
	if (!add || !b->any_device || b->n >= 4096)
		return -1;
	blk_add(b, NULL, major, minor)->named = true;
	return (long)b->n - 1;
}

/* ---- the table of what is in flight (linear probing) ---- */

static size_t flight_hash(uint32_t dev, uint64_t sector)
{
	uint64_t h = (sector ^ ((uint64_t)dev << 40)) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 48) & (BLK_FLIGHT_SLOTS - 1);
}

static struct blk_flight *flight_get(struct blk *b, uint32_t dev,
				     uint64_t sector, bool add);

/*
 * The table anew without what has been in flight longer than STALE_NS
 * before NOW: a long run must not fill it with bios whose completion the
 * trace never showed (lost events, a device that went away).
 */
static void flight_sweep(struct blk *b, uint64_t now)
{
	struct blk_flight *old = b->flight, *f;
	size_t i;

	b->flight = xcalloc(BLK_FLIGHT_SLOTS, sizeof(*b->flight));
	b->flight_n = 0;
	for (i = 0; i < BLK_FLIGHT_SLOTS; i++) {
		uint64_t t =
			old[i].q_ns > old[i].d_ns ? old[i].q_ns : old[i].d_ns;

		if (!old[i].dev)
			continue;
		if (now > t && now - t > STALE_NS) {
			b->flight_stale++;
			continue;
		}
		f = flight_get(b, old[i].dev, old[i].sector, true);
		if (f)
			*f = old[i];
	}
	free(old);
}

/* The slot of DEV (index + 1) and SECTOR; with ADD a free one for it. */
static struct blk_flight *flight_get(struct blk *b, uint32_t dev,
				     uint64_t sector, bool add)
{
	size_t i = flight_hash(dev, sector), n;

	for (n = 0; n < BLK_FLIGHT_SLOTS / 2; n++) {
		struct blk_flight *f = &b->flight[i];

		if (!f->dev) {
			if (!add)
				return NULL;
			if (b->flight_n >= BLK_FLIGHT_SLOTS / 2)
				break; /* full: probing on would be slow */
			f->dev = dev;
			f->sector = sector;
			f->q_ns = f->d_ns = 0;
			b->flight_n++;
			return f;
		}
		if (f->dev == dev && f->sector == sector)
			return f;
		i = (i + 1) & (BLK_FLIGHT_SLOTS - 1);
	}
	if (add)
		b->flight_full++;
	return NULL;
}

/* A slot for a new event at NOW: the table swept first when half full. */
static struct blk_flight *flight_add(struct blk *b, uint32_t dev,
				     uint64_t sector, uint64_t now)
{
	struct blk_flight *f = flight_get(b, dev, sector, false);

	if (f)
		return f;
	/* At most a sweep a second of the trace's time: a table full of
	 * what is really in flight must not be copied at every event. */
	if (b->flight_n >= BLK_FLIGHT_SLOTS / 2 &&
	    (now < b->swept_ns || now - b->swept_ns >= 1000000000ULL)) {
		flight_sweep(b, now);
		b->swept_ns = now;
	}
	return flight_get(b, dev, sector, true);
}

/* Free slot F, moving later entries of its run back (no tombstones). */
static void flight_del(struct blk *b, struct blk_flight *f)
{
	size_t hole = (size_t)(f - b->flight), i = hole, home;

	b->flight[hole].dev = 0;
	b->flight_n--;
	for (;;) {
		i = (i + 1) & (BLK_FLIGHT_SLOTS - 1);
		if (!b->flight[i].dev)
			return;
		home = flight_hash(b->flight[i].dev, b->flight[i].sector);
		/* Move it when its home is not between the hole and it. */
		if ((i > hole && (home <= hole || home > i)) ||
		    (i < hole && home <= hole && home > i)) {
			b->flight[hole] = b->flight[i];
			b->flight[i].dev = 0;
			hole = i;
		}
	}
}

/* ---- one tracepoint line ---- */

enum ev {
	EV_QUEUE,
	EV_GETRQ,
	EV_INSERT,
	EV_ISSUE,
	EV_COMPLETE,
	EV_REQUEUE,
	EV_BACKMERGE,
	EV_FRONTMERGE,
	EV_BIO_COMPLETE,
	EV_SPLIT,
	EV_REMAP,
	EV_PLUG,
	EV_UNPLUG,
	EV_UNPLUG_IO,
	EV_UNPLUG_TIMER,
};

static const struct {
	const char *name;
	enum ev ev;
} events[] = {
	{ "block_bio_queue", EV_QUEUE },
	{ "block_getrq", EV_GETRQ },
	{ "block_rq_insert", EV_INSERT },
	{ "block_rq_issue", EV_ISSUE },
	{ "block_rq_complete", EV_COMPLETE },
	{ "block_rq_requeue", EV_REQUEUE },
	{ "block_bio_backmerge", EV_BACKMERGE },
	{ "block_bio_frontmerge", EV_FRONTMERGE },
	{ "block_bio_complete", EV_BIO_COMPLETE },
	{ "block_split", EV_SPLIT },
	{ "block_bio_remap", EV_REMAP },
	{ "block_rq_remap", EV_REMAP },
	{ "block_plug", EV_PLUG },
	{ "block_unplug", EV_UNPLUG },
	{ "block_unplug_io", EV_UNPLUG_IO },
	{ "block_unplug_timer", EV_UNPLUG_TIMER },
};

/* What the fields of a block event say. */
struct bev {
	uint32_t major, minor;
	int dir; /* BLK_READ, BLK_WRITE, or -1: another operation */
	bool have_range;
	uint64_t sector, sectors;
	bool have_bytes;
	uint64_t bytes;
};

/* The next space-separated word of S[*POS..LEN). */
static bool word(const char *s, size_t len, size_t *pos, const char **w,
		 size_t *wlen)
{
	size_t i = *pos;

	while (i < len && s[i] == ' ')
		i++;
	if (i == len)
		return false;
	*w = s + i;
	while (i < len && s[i] != ' ')
		i++;
	*wlen = (size_t)(s + i - *w);
	*pos = i;
	return true;
}

/* "MAJ,MIN" */
static bool parse_devno(const char *w, size_t n, uint32_t *maj, uint32_t *min)
{
	const char *c = memchr(w, ',', n);
	uint64_t a, b;

	if (!c || kparse_u64(w, (size_t)(c - w), &a) ||
	    kparse_u64(c + 1, n - (size_t)(c + 1 - w), &b) || a > 4095 ||
	    b > 0xfffff)
		return false;
	*maj = (uint32_t)a;
	*min = (uint32_t)b;
	return true;
}

/*
 * The operation of blk_fill_rwbs()'s letters: an 'F' first is a flush
 * before it, then W, R, D (discard), F (flush), N (none), E.
 */
static bool parse_rwbs(const char *w, size_t n, int *dir)
{
	size_t i = n > 1 && w[0] == 'F' && strchr("WRDFNE", w[1]) ? 1 : 0;

	if (!n || n > 8 || !strchr("WRDFNE", w[i]))
		return false;
	*dir = w[i] == 'W' ? BLK_WRITE : w[i] == 'R' ? BLK_READ : -1;
	return true;
}

/*
 * "MAJ,MIN RWBS [BYTES (CMD)] SECTOR + NR ..." (the bio and request
 * events), or "MAJ,MIN RWBS SECTOR / NEW" (block_split).
 */
static bool parse_fields(const char *s, size_t len, struct bev *e)
{
	const char *w, *prev = NULL;
	size_t pos = 0, n, prev_n = 0, i;

	memset(e, 0, sizeof(*e));
	if (!word(s, len, &pos, &w, &n) ||
	    !parse_devno(w, n, &e->major, &e->minor) ||
	    !word(s, len, &pos, &w, &n) || !parse_rwbs(w, n, &e->dir))
		return false;
	/* The bytes of a request event come before its command. */
	for (i = 0; i < 16 && word(s, len, &pos, &w, &n); i++) {
		if (n == 1 && *w == '+' && prev) {
			if (kparse_u64(prev, prev_n, &e->sector) ||
			    !word(s, len, &pos, &w, &n) ||
			    kparse_u64(w, n, &e->sectors) ||
			    e->sectors > UINT32_MAX)
				return false;
			e->have_range = true;
			return true;
		}
		if (n && *w == '(' && prev && !e->have_bytes) {
			if (kparse_u64(prev, prev_n, &e->bytes) ||
			    e->bytes > UINT32_MAX)
				return false;
			e->have_bytes = true;
		}
		prev = w;
		prev_n = n;
	}
	return true;
}

/* The unplug waiting on CPU for this event of task PID, if any. */
static void unplug_attribute(struct blk *b, const struct kparse_trace *t,
			     struct blk_dev *d)
{
	struct blk_unplug *u;

	if (t->cpu >= BLK_CPUS)
		return;
	u = &b->pending[t->cpu];
	if (!u->ts_ns || u->pid != t->pid || t->ts_ns < u->ts_ns ||
	    t->ts_ns - u->ts_ns > UNPLUG_WINDOW_NS)
		return;
	if (u->timer)
		d->unplugs_timer++;
	else
		d->unplugs_io++;
	u->ts_ns = 0;
}

static void unplug_event(struct blk *b, const struct kparse_trace *t, bool tm)
{
	struct blk_unplug *u = &b->pending[t->cpu < BLK_CPUS ? t->cpu : 0];

	if (t->cpu >= BLK_CPUS) {
		b->unplugs_unattributed++;
		return;
	}
	if (u->ts_ns)
		b->unplugs_unattributed++; /* none of ours followed it */
	u->pid = t->pid;
	u->timer = tm;
	u->ts_ns = t->ts_ns ? t->ts_ns : 1;
}

static uint64_t elapsed(uint64_t from, uint64_t to)
{
	return to > from ? to - from : 0;
}

/* A request of BYTES dispatched. */
static void request_size(struct blk_dev *d, uint64_t bytes)
{
	unsigned k = 0;

	hist_add(&d->rq_bytes, bytes);
	while (k < 64 && (1ULL << k) < bytes)
		k++;
	d->size_pow2[k]++;
}

static void complete(struct blk *b, long di, const struct bev *e, uint64_t ts)
{
	struct blk_dev *d = &b->dev[di];
	struct blk_flight *f =
		flight_get(b, (uint32_t)di + 1, e->sector, false);

	d->seen_rq = true;
	if (e->dir >= 0) {
		d->d[e->dir].completed++;
		d->d[e->dir].completed_bytes += e->sectors * SECTOR;
	}
	if (!f)
		return;
	if (f->q_ns)
		hist_add(&d->q2c, elapsed(f->q_ns, ts));
	if (f->d_ns)
		hist_add(&d->d2c, elapsed(f->d_ns, ts));
	flight_del(b, f);
}

/* The event EV of device DI with fields E at TS. */
static void count(struct blk *b, const struct kparse_trace *t, enum ev ev,
		  long di, const struct bev *e)
{
	struct blk_dev *d = &b->dev[di];
	uint32_t key = (uint32_t)di + 1;
	uint64_t bytes = e->sectors * SECTOR;
	struct blk_flight *f;

	switch (ev) {
	case EV_QUEUE:
		if (e->dir >= 0) {
			d->d[e->dir].queued++;
			d->d[e->dir].queued_bytes += bytes;
		}
		if (e->have_range &&
		    (f = flight_add(b, key, e->sector, t->ts_ns)))
			f->q_ns = t->ts_ns;
		break;
	case EV_GETRQ:
		d->getrq++;
		d->seen_rq = true;
		break;
	case EV_INSERT:
		d->inserted++;
		d->seen_rq = true;
		unplug_attribute(b, t, d);
		break;
	case EV_ISSUE:
		d->seen_rq = true;
		unplug_attribute(b, t, d);
		if (e->have_bytes)
			bytes = e->bytes;
		if (e->dir >= 0) {
			d->d[e->dir].dispatched++;
			d->d[e->dir].dispatched_bytes += bytes;
			request_size(d, bytes);
		}
		if (e->have_range &&
		    (f = flight_add(b, key, e->sector, t->ts_ns)))
			f->d_ns = t->ts_ns;
		break;
	case EV_COMPLETE:
		if (e->have_range)
			complete(b, di, e, t->ts_ns);
		break;
	case EV_REQUEUE:
		d->seen_rq = true;
		if (e->dir >= 0)
			d->d[e->dir].requeued++;
		if (e->have_range && (f = flight_get(b, key, e->sector, false)))
			f->d_ns = 0;
		break;
	case EV_BACKMERGE:
	case EV_FRONTMERGE:
		if (ev == EV_BACKMERGE)
			d->backmerges++;
		else
			d->frontmerges++;
		if (e->dir >= 0)
			d->d[e->dir].merges++;
		if (!e->have_range)
			break;
		f = flight_get(b, key, e->sector, false);
		/* A front merge starts the request earlier: the request's
		 * queue time (its first bio's) moves to the new start. */
		if (ev == EV_FRONTMERGE) {
			struct blk_flight *old = flight_get(
				b, key, e->sector + e->sectors, false);

			if (old && f && old->q_ns && old->q_ns < f->q_ns)
				f->q_ns = old->q_ns;
			if (old)
				flight_del(b, old);
		} else if (f) {
			flight_del(b, f); /* inside a request now */
		}
		break;
	case EV_BIO_COMPLETE:
		if (e->dir >= 0) {
			d->d[e->dir].bio_completed++;
			d->d[e->dir].bio_completed_bytes += bytes;
		}
		/* A request-based device's requests are timed instead. */
		if (d->request_based != 1 && !d->seen_rq && e->have_range &&
		    (f = flight_get(b, key, e->sector, false))) {
			if (f->q_ns)
				hist_add(&d->q2c, elapsed(f->q_ns, t->ts_ns));
			flight_del(b, f);
		}
		break;
	case EV_SPLIT:
		d->splits++;
		break;
	default: /* EV_REMAP: blkparse's A, on the device it goes to */
		d->remaps++;
		break;
	}
}

void blk_trace_line(struct blk *b, const char *line, size_t len)
{
	struct kparse_trace t;
	struct bev e;
	size_t i;
	long di;

	b->lines++;
	if (kparse_trace_line(line, len, &t)) {
		b->bad_lines++;
		return;
	}
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (strlen(events[i].name) == t.event_len &&
		    !memcmp(events[i].name, t.event, t.event_len))
			break;
	if (i == sizeof(events) / sizeof(events[0])) {
		b->other_lines++;
		return;
	}
	switch (events[i].ev) {
	case EV_PLUG:
		b->plugs++;
		return;
	case EV_UNPLUG_IO:
	case EV_UNPLUG_TIMER:
		b->timer_unplugs = true;
		/* fall through */
	case EV_UNPLUG:
		unplug_event(b, &t, events[i].ev == EV_UNPLUG_TIMER);
		return;
	default:
		break;
	}
	if (!parse_fields(t.fields, t.fields_len, &e)) {
		b->bad_lines++;
		return;
	}
	di = dev_find(b, e.major, e.minor, true);
	if (di >= 0)
		count(b, &t, events[i].ev, di, &e);
}

int blk_stat_read(const char *sysblock, const char *name, uint64_t *vals)
{
	char path[4096], buf[1024];
	const char *w;
	size_t pos = 0, n, k = 0;
	ssize_t len;

	snprintf(path, sizeof(path), "%s/%s/stat", sysblock, name);
	len = read_small_file(path, buf, sizeof(buf));
	if (len < 0)
		return (int)len;
	while ((size_t)len && (buf[len - 1] == '\n'))
		len--;
	while (k < BLK_STAT_FIELDS && word(buf, (size_t)len, &pos, &w, &n))
		if (kparse_u64(w, n, &vals[k++]))
			return -EINVAL;
	return k >= 11 ? (int)k : -EINVAL;
}
