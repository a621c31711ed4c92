// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for lib/hist: bucket geometry, exact counts, error bound. */
#include <config.h>

#include <stdint.h>

#include "lib/hist.h"
#include "tests/tap.h"

static struct hist h, h2;

static void geometry(void)
{
	unsigned i, bad = 0, maxrel_bad = 0;

	/* Buckets tile the u64 range: consecutive, no gaps, no overlap. */
	for (i = 0; i + 1 < HIST_BUCKETS; i++)
		if (hist_bucket_high(i) + 1 != hist_bucket_low(i + 1))
			bad++;
	is_int(bad, 0, "buckets are contiguous over the whole range");
	is_u64(hist_bucket_low(0), 0, "first bucket starts at 0");
	is_u64(hist_bucket_high(HIST_BUCKETS - 1), UINT64_MAX,
	       "last bucket ends at UINT64_MAX");
	/* Every bucket's width is at most 1/64 of its low bound. */
	for (i = HIST_SUB; i < HIST_BUCKETS; i++) {
		uint64_t lo = hist_bucket_low(i), w = hist_bucket_high(i) - lo;

		if (w > lo / HIST_SUB)
			maxrel_bad++;
	}
	is_int(maxrel_bad, 0, "bucket width <= low/64 everywhere");
	/* Values map into the bucket that holds them. */
	bad = 0;
	for (uint64_t v = 1; v && v < UINT64_MAX / 3; v = v * 3 + 1) {
		unsigned k = hist_index(v);

		if (v < hist_bucket_low(k) || v > hist_bucket_high(k))
			bad++;
	}
	is_int(bad, 0, "hist_index() puts values in their bucket");
	is_int(hist_index(63), 63, "values below 64 are exact buckets");
	is_int(hist_index(UINT64_MAX), HIST_BUCKETS - 1, "max value");
}

static void counting(void)
{
	uint64_t i;

	hist_init(&h);
	is_u64(hist_percentile(&h, 50), 0, "empty histogram p50 is 0");
	/* 1..1000 us */
	for (i = 1; i <= 1000; i++)
		hist_add(&h, i * 1000);
	is_u64(h.count, 1000, "count exact");
	is_u64(h.min_ns, 1000, "min exact");
	is_u64(h.max_ns, 1000000, "max exact");
	is_u64(h.sum_ns, 500500000ULL, "sum exact");
	is_double(hist_mean(&h), 500500.0, 1e-6, "mean exact");
	is_u64(hist_percentile(&h, 100), 1000000, "p100 is the max");
	{
		uint64_t p50 = hist_percentile(&h, 50);
		uint64_t p99 = hist_percentile(&h, 99);

		ok(p50 >= 500000 - 500000 / 128 && p50 <= 500000 + 500000 / 128,
		   "p50 within 1/128 of 500us (got %llu)",
		   (unsigned long long)p50);
		ok(p99 >= 990000 - 990000 / 128 && p99 <= 990000 + 990000 / 128,
		   "p99 within 1/128 of 990us (got %llu)",
		   (unsigned long long)p99);
	}
	hist_init(&h2);
	hist_add(&h2, 5);
	hist_add(&h2, 2000000000ULL);
	hist_merge(&h2, &h);
	is_u64(h2.count, 1002, "merge adds counts");
	is_u64(h2.min_ns, 5, "merge keeps min");
	is_u64(h2.max_ns, 2000000000ULL, "merge keeps max");
	is_u64(h2.sum_ns, 500500000ULL + 2000000005ULL, "merge adds sums");
}

static void display(void)
{
	uint64_t counts[HIST_DISPLAY_N], time_ns[HIST_DISPLAY_N];
	char buf[24];
	unsigned i, sorted = 1;

	for (i = 0; i + 1 < HIST_DISPLAY_EDGES; i++)
		if (hist_display_edges[i] >= hist_display_edges[i + 1])
			sorted = 0;
	ok(sorted, "display edges ascend");
	is_int(hist_display_index(0), 0, "0 -> first display bucket");
	is_int(hist_display_index(1000), 0, "1us -> <= 1us (edges inclusive)");
	is_int(hist_display_index(1001), 1, "1.001us -> <= 2us");
	is_int(hist_display_index(1000000), 9, "1ms -> <= 1ms");
	is_int(hist_display_index(2000000000ULL), 19, "2s -> <= 2s");
	is_int(hist_display_index(UINT64_MAX), HIST_DISPLAY_EDGES,
	       "huge -> overflow bucket");
	is_str(hist_display_label(buf, 0), "<= 1us", "label of bucket 0");
	is_str(hist_display_label(buf, 9), "<= 1ms", "label of 1ms");
	is_str(hist_display_label(buf, 19), "<= 2s", "label of 2s");
	is_str(hist_display_label(buf, HIST_DISPLAY_EDGES), "> 10000s",
	       "label of overflow");

	hist_init(&h);
	for (i = 0; i < 100; i++)
		hist_add(&h, 3000000); /* 3 ms */
	hist_add(&h, 7000000000ULL);   /* 7 s */
	hist_fold_display(&h, counts, time_ns);
	is_u64(counts[hist_display_index(3000000)], 100, "100 x 3ms folded");
	is_u64(counts[hist_display_index(7000000000ULL)], 1, "1 x 7s folded");
	{
		uint64_t total = 0;

		for (i = 0; i < HIST_DISPLAY_N; i++)
			total += counts[i];
		is_u64(total, 101, "fold keeps every sample");
	}
	ok(time_ns[hist_display_index(7000000000ULL)] == 7000000000ULL,
	   "time of a lone max sample is exact (clamped to max)");
}

/* A 1-2-5 series put fake-music's 100 ms and 199 ms gaps in one bucket. */
static void r10(void)
{
	static const struct {
		uint64_t ns;
		unsigned index;
		const char *label;
	} cases[] = {
		{ 0, 0, "<= 1us" },
		{ 1000, 0, "<= 1us" },
		{ 1001, 1, "<= 1.25us" },
		{ 3150, 5, "<= 3.15us" },
		{ 3151, 6, "<= 4us" },
		{ 6300000, 38, "<= 6.3ms" },
		{ 100000000ULL, 50, "<= 100ms" },
		{ 100000001ULL, 51, "<= 125ms" },
		{ 125000000ULL, 51, "<= 125ms" },
		{ 199000000ULL, 53, "<= 200ms" },
		{ 1250000000ULL, 61, "<= 1.25s" },
		{ 12500000000ULL, 71, "<= 12.5s" },
		{ 8000000000000ULL, 99, "<= 8000s" },
		{ 10000000000000ULL, 100, "<= 10000s" },
		{ UINT64_MAX, HIST_R10_EDGES, "> 10000s" },
	};
	unsigned i, sorted = 1, shared = 0;
	char buf[24];

	for (i = 0; i + 1 < HIST_R10_EDGES; i++)
		if (hist_r10_edges[i] >= hist_r10_edges[i + 1])
			sorted = 0;
	ok(sorted, "R10 edges ascend");
	for (i = 0; i < HIST_DISPLAY_EDGES; i++) {
		uint64_t e = hist_display_edges[i];

		shared += hist_r10_edges[hist_r10_index(e)] == e;
	}
	is_int(shared, HIST_DISPLAY_EDGES, "every 1-2-5 edge is an R10 edge");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		is_int(hist_r10_index(cases[i].ns), cases[i].index,
		       "R10 bucket of %llu ns",
		       (unsigned long long)cases[i].ns);
		is_str(hist_r10_label(buf, cases[i].index), cases[i].label,
		       "R10 label of bucket %u", cases[i].index);
	}
	is_str(hist_display_label(buf, 0), "<= 1us", "1-2-5 labels unchanged");
}

int main(void)
{
	geometry();
	counting();
	display();
	r10();
	return done_testing();
}
