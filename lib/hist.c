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

/* One decade of R10 edges: D times 1 us, 1.25 us, ... 8 us. */
#define R10_DECADE(d)							\
	1000ULL * (d), 1250ULL * (d), 1600ULL * (d), 2000ULL * (d),	\
	2500ULL * (d), 3150ULL * (d), 4000ULL * (d), 5000ULL * (d),	\
	6300ULL * (d), 8000ULL * (d)

const uint64_t hist_r10_edges[HIST_R10_EDGES] = {
	R10_DECADE(1ULL),		/* us */
	R10_DECADE(10ULL),
	R10_DECADE(100ULL),
	R10_DECADE(1000ULL),		/* ms */
	R10_DECADE(10000ULL),
	R10_DECADE(100000ULL),
	R10_DECADE(1000000ULL),		/* s */
	R10_DECADE(10000000ULL),
	R10_DECADE(100000000ULL),
	R10_DECADE(1000000000ULL),
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

/* The first of the N ascending EDGES >= V; N when above them all. */
static unsigned edges_index(const uint64_t *edges, unsigned n, uint64_t v)
{
	unsigned lo = 0, hi = n;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (edges[mid] >= v)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

unsigned hist_display_index(uint64_t v)
{
	return edges_index(hist_display_edges, HIST_DISPLAY_EDGES, v);
}

unsigned hist_r10_index(uint64_t v)
{
	return edges_index(hist_r10_edges, HIST_R10_EDGES, v);
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

/* NS in the largest unit it fills, with the decimals it needs: "3.15ms". */
static void edge_label(char *buf, size_t len, uint64_t ns)
{
	static const struct {
		uint64_t ns;
		int digits;
		const char *name;
	} units[] = {
		{ 1000000000ULL, 9, "s" },
		{ 1000000ULL, 6, "ms" },
		{ 1000ULL, 3, "us" },
	};
	char frac[16];
	size_t u, f;

	for (u = 0; u + 1 < sizeof(units) / sizeof(units[0]); u++)
		if (ns >= units[u].ns)
			break;
	if (!(ns % units[u].ns)) {
		snprintf(buf, len, "%llu%s",
			 (unsigned long long)(ns / units[u].ns), units[u].name);
		return;
	}
	snprintf(frac, sizeof(frac), "%0*llu", units[u].digits,
		 (unsigned long long)(ns % units[u].ns));
	for (f = strlen(frac); f > 1 && frac[f - 1] == '0'; f--)
		frac[f - 1] = '\0';
	snprintf(buf, len, "%llu.%s%s", (unsigned long long)(ns / units[u].ns),
		 frac, units[u].name);
}

/* "<= EDGE" for bucket I of the N EDGES, "> LAST" above them. */
static char *edges_label(char *buf, const uint64_t *edges, unsigned n,
			 unsigned i)
{
	if (i >= n) {
		memcpy(buf, "> ", 2);
		edge_label(buf + 2, 22, edges[n - 1]);
	} else {
		memcpy(buf, "<= ", 3);
		edge_label(buf + 3, 21, edges[i]);
	}
	return buf;
}

char *hist_display_label(char *buf, unsigned i)
{
	return edges_label(buf, hist_display_edges, HIST_DISPLAY_EDGES, i);
}

char *hist_r10_label(char *buf, unsigned i)
{
	return edges_label(buf, hist_r10_edges, HIST_R10_EDGES, i);
}
