// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Log-linear histogram.  Bucket i >= HIST_SUB holds values whose top
 * HIST_SUB_BITS+1 bits are fixed: group g = i / HIST_SUB - 1 is the shift,
 * and the bucket spans [ (HIST_SUB + i % HIST_SUB) << g, +(1 << g) ).
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "lib/hist.h"

/* clang-format off */
const uint64_t hist_display_edges[HIST_DISPLAY_EDGES] = {
	1000ULL, 2000ULL, 5000ULL,				/* us */
	10000ULL, 20000ULL, 50000ULL,
	100000ULL, 200000ULL, 500000ULL,
	1000000ULL, 2000000ULL, 5000000ULL,			/* ms */
	10000000ULL, 20000000ULL, 50000000ULL,
	100000000ULL, 200000000ULL, 500000000ULL,
	1000000000ULL, 2000000000ULL, 5000000000ULL,		/* s */
	10000000000ULL, 20000000000ULL, 50000000000ULL,
	100000000000ULL, 200000000000ULL, 500000000000ULL,
	1000000000000ULL, 2000000000000ULL, 5000000000000ULL,
	10000000000000ULL,
};
/* clang-format on */

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i;

	dst->count += src->count;
	dst->sum_ns = dst->sum_ns + src->sum_ns < dst->sum_ns
			      ? UINT64_MAX
			      : dst->sum_ns + src->sum_ns;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	for (i = 0; i < HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

uint64_t hist_bucket_low(unsigned i)
{
	unsigned shift;

	if (i < HIST_SUB)
		return i;
	shift = i / HIST_SUB - 1;
	return (uint64_t)(HIST_SUB + i % HIST_SUB) << shift;
}

uint64_t hist_bucket_high(unsigned i)
{
	unsigned shift;

	if (i < HIST_SUB)
		return i;
	shift = i / HIST_SUB - 1;
	return hist_bucket_low(i) + ((1ULL << shift) - 1);
}

static uint64_t bucket_mid(unsigned i)
{
	uint64_t lo = hist_bucket_low(i);

	return lo + (hist_bucket_high(i) - lo) / 2;
}

static uint64_t clamp(const struct hist *h, uint64_t v)
{
	if (v < h->min_ns)
		return h->min_ns;
	if (v > h->max_ns)
		return h->max_ns;
	return v;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0;
	unsigned i;

	if (!h->count)
		return 0;
	if (p >= 100.0)
		return h->max_ns;
	/* Nearest rank: ceil(p/100 * n), at least 1. */
	rank = (uint64_t)(p / 100.0 * (double)h->count);
	if ((double)rank < p / 100.0 * (double)h->count)
		rank++;
	if (!rank)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			return clamp(h, bucket_mid(i));
	}
	return h->max_ns;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum_ns / (double)h->count : 0.0;
}

unsigned hist_display_index(uint64_t v)
{
	unsigned lo = 0, hi = HIST_DISPLAY_EDGES;

	/* First edge >= v; HIST_DISPLAY_EDGES when above them all. */
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (hist_display_edges[mid] >= v)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void hist_fold_display(const struct hist *h, uint64_t counts[HIST_DISPLAY_N],
		       uint64_t time_ns[HIST_DISPLAY_N])
{
	unsigned i;

	if (counts)
		memset(counts, 0, HIST_DISPLAY_N * sizeof(counts[0]));
	if (time_ns)
		memset(time_ns, 0, HIST_DISPLAY_N * sizeof(time_ns[0]));
	for (i = 0; i < HIST_BUCKETS; i++) {
		uint64_t mid;
		unsigned d;

		if (!h->bucket[i])
			continue;
		mid = clamp(h, bucket_mid(i));
		d = hist_display_index(mid);
		if (counts)
			counts[d] += h->bucket[i];
		if (time_ns)
			time_ns[d] += mid * h->bucket[i];
	}
}

static int edge_label(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 1000000000ULL)
		return snprintf(buf, len, "%llus",
				(unsigned long long)(ns / 1000000000ULL));
	if (ns >= 1000000ULL)
		return snprintf(buf, len, "%llums",
				(unsigned long long)(ns / 1000000ULL));
	return snprintf(buf, len, "%lluus", (unsigned long long)(ns / 1000ULL));
}

char *hist_display_label(char *buf, unsigned i)
{
	if (i >= HIST_DISPLAY_EDGES) {
		memcpy(buf, "> ", 2);
		edge_label(buf + 2, 22,
			   hist_display_edges[HIST_DISPLAY_EDGES - 1]);
	} else {
		memcpy(buf, "<= ", 3);
		edge_label(buf + 3, 21, hist_display_edges[i]);
	}
	return buf;
}
