/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A log-linear latency histogram (the idea of fio's stat.h and HdrHistogram):
 * values below 2^HIST_SUB_BITS ns are counted exactly; above, each power of
 * two is split into 2^HIST_SUB_BITS equal buckets, so a bucket's width is at
 * most 1/64 of its lower bound and any percentile read from it is within
 * 1/128 (0.8%) of the true value.  Memory is fixed (about 30 KiB) however
 * many samples are added; count, sum, min and max are exact.  Histograms
 * merge by adding buckets, so each thread keeps its own without locks.
 *
 * The module also holds the suite's display buckets for the tables people
 * read: a 1-2-5 series from 1 us to 10000 s, and a finer one (R10) for
 * latency-output.
 */
#ifndef LATENCY_HIST_H
#define LATENCY_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB (1U << HIST_SUB_BITS)
#define HIST_BUCKETS ((64 - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t sum_ns; /* saturates at UINT64_MAX (584 years) */
	uint64_t min_ns; /* UINT64_MAX while empty */
	uint64_t max_ns;
	uint64_t bucket[HIST_BUCKETS];
};

/* Empty H. */
void hist_init(struct hist *h);

/* Index of the bucket holding V. */
static inline unsigned hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < HIST_SUB)
		return (unsigned)v;
	msb = 63U - (unsigned)__builtin_clzll(v);
	shift = msb - HIST_SUB_BITS;
	return (shift + 1) * HIST_SUB +
	       (unsigned)((v >> shift) & (HIST_SUB - 1));
}

/* Add one sample of V ns.  No allocation, no locks: safe on a hot path. */
static inline void hist_add(struct hist *h, uint64_t v)
{
	h->count++;
	h->sum_ns = h->sum_ns + v < h->sum_ns ? UINT64_MAX : h->sum_ns + v;
	if (v < h->min_ns)
		h->min_ns = v;
	if (v > h->max_ns)
		h->max_ns = v;
	h->bucket[hist_index(v)]++;
}

/* Add every sample of SRC to DST. */
void hist_merge(struct hist *dst, const struct hist *src);

/* Smallest and largest value that bucket I holds. */
uint64_t hist_bucket_low(unsigned i);
uint64_t hist_bucket_high(unsigned i);

/*
 * The P-th percentile (0 < P <= 100) by nearest rank: the value below or at
 * which at least P% of the samples lie, reported as the middle of its bucket
 * clamped to [min, max] (so p100 is the exact maximum).  0 when empty.
 */
uint64_t hist_percentile(const struct hist *h, double p);

/* Mean in ns (0 when empty). */
double hist_mean(const struct hist *h);

/*
 * Display buckets: hist_display_edges[i] is the inclusive upper bound of
 * display bucket i; bucket HIST_DISPLAY_N - 1 is "above the last edge".
 */
#define HIST_DISPLAY_EDGES 31
#define HIST_DISPLAY_N (HIST_DISPLAY_EDGES + 1)
extern const uint64_t hist_display_edges[HIST_DISPLAY_EDGES];

/* The display bucket of a value V (exact). */
unsigned hist_display_index(uint64_t v);

/*
 * Fold H into display buckets: COUNTS[i] and TIME_NS[i] (either may be
 * NULL) receive the samples and the time they account for.  A fine bucket is
 * attributed by its middle value, so counts near an edge may move one
 * display bucket (within the 1/64 bound); time is bucket middle x count.
 */
void hist_fold_display(const struct hist *h, uint64_t counts[HIST_DISPLAY_N],
		       uint64_t time_ns[HIST_DISPLAY_N]);

/*
 * Label for display bucket I, e.g. "<= 2ms", "> 10000s".  BUF needs 24
 * bytes; returns BUF.
 */
char *hist_display_label(char *buf, unsigned i);

/*
 * Finer display buckets: the R10 preferred numbers (ISO 3), 1, 1.25, 1.6,
 * 2, 2.5, 3.15, 4, 5, 6.3 and 8 per decade, from 1 us to 10000 s.  Each
 * edge is about 26% above the one before, where 1-2-5 steps by 2 and 2.5
 * and put fake-music's 100 ms and 199 ms gaps in one bucket.  The labels
 * stay round numbers ("<= 125ms"), which log-linear edges are not, and
 * every 1-2-5 edge is an R10 edge, so R10 counts add up to 1-2-5 ones.
 * hist_r10_edges[i] is the inclusive upper bound of bucket i; bucket
 * HIST_R10_N - 1 is "above the last edge".
 */
#define HIST_R10_EDGES 101
#define HIST_R10_N (HIST_R10_EDGES + 1)
extern const uint64_t hist_r10_edges[HIST_R10_EDGES];

/* The R10 bucket of a value V (exact). */
unsigned hist_r10_index(uint64_t v);

/*
 * Label for R10 bucket I, e.g. "<= 3.15ms", "> 10000s".  BUF needs 24
 * bytes; returns BUF.
 */
char *hist_r10_label(char *buf, unsigned i);

#endif
