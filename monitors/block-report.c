// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-block's summary of each device (see block.h and latency-block(1),
 * OUTPUT): the JSON objects result.json carries as "block", and the same
 * figures as key=value text lines.  A figure a device cannot have (the
 * requests of a bio-based device, the timer unplugs of a kernel that does
 * not tell them apart, what only tracing sees when the counters were the
 * source) is null, never 0.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "monitors/block.h"

/* Fields of /sys/block/NAME/stat (Documentation/block/stat.rst). */
enum {
	ST_R_IOS = 0,
	ST_R_MERGES = 1,
	ST_R_SECTORS = 2,
	ST_W_IOS = 4,
	ST_W_MERGES = 5,
	ST_W_SECTORS = 6,
	ST_IO_TICKS = 9,
	ST_TIME_IN_QUEUE = 10,
	ST_D_IOS = 11,
	ST_F_IOS = 15,
};

static bool request_based(const struct blk_dev *d)
{
	return d->request_based >= 0 ? d->request_based == 1 : d->seen_rq;
}

static uint64_t stat_delta(const struct blk_dev *d, size_t k)
{
	if (k >= d->nstat || d->stat1[k] < d->stat0[k])
		return 0;
	return d->stat1[k] - d->stat0[k];
}

/* One figure of a device, for both writers. */
struct fig {
	const char *key;
	bool null;
	uint64_t v;
};

static size_t dir_figs(const struct blk *b, const struct blk_dev *d, int dir,
		       struct fig *f)
{
	const struct blk_dir *x = &d->d[dir];
	bool rq = request_based(d), tr = b->tracing;
	bool stat = d->nstat > 0;
	size_t ios = dir == BLK_READ ? ST_R_IOS : ST_W_IOS;
	size_t sec = dir == BLK_READ ? ST_R_SECTORS : ST_W_SECTORS;
	size_t mrg = dir == BLK_READ ? ST_R_MERGES : ST_W_MERGES;
	uint64_t done = rq ? x->completed : x->bio_completed;
	uint64_t done_b = rq ? x->completed_bytes : x->bio_completed_bytes;
	size_t n = 0;

	f[n++] = (struct fig){ "queued", !tr, x->queued };
	f[n++] = (struct fig){ "queued_bytes", !tr, x->queued_bytes };
	f[n++] = (struct fig){ "dispatched", !tr || !rq, x->dispatched };
	f[n++] = (struct fig){ "dispatched_bytes", !tr || !rq,
			       x->dispatched_bytes };
	if (tr) {
		f[n++] = (struct fig){ "completed", false, done };
		f[n++] = (struct fig){ "completed_bytes", false, done_b };
		f[n++] = (struct fig){ "merges", !rq, x->merges };
	} else {
		f[n++] = (struct fig){ "completed", !stat, stat_delta(d, ios) };
		f[n++] = (struct fig){ "completed_bytes", !stat,
				       stat_delta(d, sec) * 512 };
		f[n++] = (struct fig){ "merges", !stat || !rq,
				       stat_delta(d, mrg) };
	}
	f[n++] = (struct fig){ "requeued", !tr || !rq, x->requeued };
	return n;
}

static size_t dev_figs(const struct blk *b, const struct blk_dev *d,
		       struct fig *f)
{
	bool rq = request_based(d), tr = b->tracing;
	size_t n = 0;

	f[n++] = (struct fig){ "unplugs_io", !tr || !rq, d->unplugs_io };
	f[n++] = (struct fig){ "unplugs_timer", !tr || !rq || !b->timer_unplugs,
			       d->unplugs_timer };
	f[n++] = (struct fig){ "backmerges", !tr || !rq, d->backmerges };
	f[n++] = (struct fig){ "frontmerges", !tr || !rq, d->frontmerges };
	f[n++] = (struct fig){ "getrq", !tr || !rq || b->no_detail, d->getrq };
	f[n++] = (struct fig){ "inserted", !tr || !rq, d->inserted };
	f[n++] = (struct fig){ "splits", !tr, d->splits };
	f[n++] = (struct fig){ "remaps", !tr, d->remaps };
	return n;
}

/* The counters' own figures (what iostat reads), over the window. */
static size_t counter_figs(const struct blk_dev *d, struct fig *f)
{
	static const struct {
		const char *key;
		size_t k;
		uint64_t mul;
	} c[] = {
		{ "reads_completed", ST_R_IOS, 1 },
		{ "read_bytes", ST_R_SECTORS, 512 },
		{ "read_merges", ST_R_MERGES, 1 },
		{ "writes_completed", ST_W_IOS, 1 },
		{ "write_bytes", ST_W_SECTORS, 512 },
		{ "write_merges", ST_W_MERGES, 1 },
		{ "discards_completed", ST_D_IOS, 1 },
		{ "flushes_completed", ST_F_IOS, 1 },
		{ "io_ticks_ms", ST_IO_TICKS, 1 },
		{ "time_in_queue_ms", ST_TIME_IN_QUEUE, 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		f[i] = (struct fig){ c[i].key, c[i].k >= d->nstat,
				     stat_delta(d, c[i].k) * c[i].mul };
	return i;
}

/*
 * Do the tracepoints' completed requests and bytes equal the counters'?
 * -1 when there is nothing to compare.
 */
static int counters_agree(const struct blk *b, const struct blk_dev *d)
{
	const struct blk_dir *r = &d->d[BLK_READ], *w = &d->d[BLK_WRITE];

	if (!b->tracing || !d->nstat || !request_based(d))
		return -1;
	return r->completed == stat_delta(d, ST_R_IOS) &&
	       r->completed_bytes == stat_delta(d, ST_R_SECTORS) * 512 &&
	       w->completed == stat_delta(d, ST_W_IOS) &&
	       w->completed_bytes == stat_delta(d, ST_W_SECTORS) * 512;
}

static void json_figs(struct json *j, const struct fig *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (f[i].null)
			json_null(j, f[i].key);
		else
			json_u64(j, f[i].key, f[i].v);
}

static void json_lat(struct json *j, const char *key, const struct hist *h,
		     bool null)
{
	if (null || !h->count) {
		json_null(j, key);
		return;
	}
	json_object_begin(j, key);
	json_u64(j, "count", h->count);
	json_double(j, "mean", hist_mean(h) / 1e3);
	json_double(j, "p50", (double)hist_percentile(h, 50) / 1e3);
	json_double(j, "p99", (double)hist_percentile(h, 99) / 1e3);
	json_double(j, "max", (double)h->max_ns / 1e3);
	json_object_end(j);
}

static void json_sizes(struct json *j, const struct blk_dev *d, bool null)
{
	const struct hist *h = &d->rq_bytes;
	unsigned k;

	if (null) {
		json_null(j, "request_bytes");
		return;
	}
	json_object_begin(j, "request_bytes");
	json_u64(j, "count", h->count);
	json_double(j, "mean", hist_mean(h));
	json_u64(j, "p50", hist_percentile(h, 50));
	json_u64(j, "p99", hist_percentile(h, 99));
	json_u64(j, "max", h->max_ns);
	json_array_begin(j, "buckets");
	for (k = 0; k < 65; k++) {
		if (!d->size_pow2[k])
			continue;
		json_object_begin(j, NULL);
		if (k < 64)
			json_u64(j, "le", 1ULL << k);
		else
			json_null(j, "le");
		json_u64(j, "count", d->size_pow2[k]);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

static const char *const dir_names[BLK_DIRS] = { "reads", "writes" };

void blk_write_json(struct json *j, const struct blk *b)
{
	struct fig f[16];
	size_t i, n;
	int dir, agree;

	json_array_begin(j, "devices");
	for (i = 0; i < b->n; i++) {
		const struct blk_dev *d = &b->dev[i];
		char devno[32];
		bool rq = request_based(d);

		if (!d->named)
			continue;
		snprintf(devno, sizeof(devno), "%u:%u", d->major, d->minor);
		json_object_begin(j, NULL);
		json_str(j, "name", d->name);
		json_str(j, "dev", devno);
		json_str(j, "source", b->tracing ? "tracepoints" : "counters");
		json_bool(j, "request_based", rq);
		for (dir = 0; dir < BLK_DIRS; dir++) {
			json_object_begin(j, dir_names[dir]);
			n = dir_figs(b, d, dir, f);
			json_figs(j, f, n);
			json_object_end(j);
		}
		n = dev_figs(b, d, f);
		json_figs(j, f, n);
		json_lat(j, "q2c_us", &d->q2c, !b->tracing);
		json_lat(j, "d2c_us", &d->d2c, !b->tracing || !rq);
		json_sizes(j, d, !b->tracing || !rq);
		if (d->nstat) {
			json_object_begin(j, "counters");
			n = counter_figs(d, f);
			json_figs(j, f, n);
			json_object_end(j);
		} else {
			json_null(j, "counters");
		}
		agree = counters_agree(b, d);
		if (agree < 0)
			json_null(j, "counters_agree");
		else
			json_bool(j, "counters_agree", agree);
		json_object_end(j);
	}
	json_array_end(j);
}

static void text_figs(FILE *f, const char *prefix, const struct fig *x,
		      size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i].null)
			fprintf(f, "%s%s=null\n", prefix, x[i].key);
		else
			fprintf(f, "%s%s=%" PRIu64 "\n", prefix, x[i].key,
				x[i].v);
}

static void text_lat(FILE *f, const char *name, const char *key,
		     const struct hist *h, bool null)
{
	if (null || !h->count) {
		fprintf(f, "%s.%s=null\n", name, key);
		return;
	}
	fprintf(f, "%s.%s_p50=%.1f\n%s.%s_p99=%.1f\n%s.%s_max=%.1f\n", name,
		key, (double)hist_percentile(h, 50) / 1e3, name, key,
		(double)hist_percentile(h, 99) / 1e3, name, key,
		(double)h->max_ns / 1e3);
}

void blk_write_text(FILE *f, const struct blk *b)
{
	char prefix[256];
	struct fig x[16];
	size_t i, n;
	int dir, agree;

	for (i = 0; i < b->n; i++) {
		const struct blk_dev *d = &b->dev[i];
		bool rq = request_based(d);

		if (!d->named)
			continue;
		/* The name comes from /sys/block or from numbers. */
		fprintf(f, "device=%s\n%s.source=%s\n%s.request_based=%s\n",
			d->name, d->name,
			b->tracing ? "tracepoints" : "counters", d->name,
			rq ? "true" : "false");
		for (dir = 0; dir < BLK_DIRS; dir++) {
			snprintf(prefix, sizeof(prefix), "%s.%s_", d->name,
				 dir_names[dir]);
			n = dir_figs(b, d, dir, x);
			text_figs(f, prefix, x, n);
		}
		snprintf(prefix, sizeof(prefix), "%s.", d->name);
		n = dev_figs(b, d, x);
		text_figs(f, prefix, x, n);
		text_lat(f, d->name, "q2c_us", &d->q2c, !b->tracing);
		text_lat(f, d->name, "d2c_us", &d->d2c, !b->tracing || !rq);
		snprintf(prefix, sizeof(prefix), "%s.counters_", d->name);
		if (d->nstat) {
			n = counter_figs(d, x);
			text_figs(f, prefix, x, n);
		}
		agree = counters_agree(b, d);
		if (agree >= 0)
			fprintf(f, "%s.counters_agree=%s\n", d->name,
				agree ? "true" : "false");
	}
}
