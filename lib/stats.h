/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics for comparing runs and kernels: running mean and standard
 * deviation (Welford), exact nearest-rank percentiles of integer samples,
 * Student-t confidence intervals and Welch's unequal-variance t-test.
 */
#ifndef LATENCY_STATS_H
#define LATENCY_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Running mean and variance, numerically stable for any number of samples. */
struct stats {
	uint64_t n;
	double mean;
	double m2;
	double min;
	double max;
};

void stats_init(struct stats *s);
void stats_add(struct stats *s, double x);
/* Sample standard deviation (n - 1 in the denominator); 0 when n < 2. */
double stats_stddev(const struct stats *s);

/* Mean and sample standard deviation of V[0..N). */
double stats_mean_of(const double *v, size_t n);
double stats_stddev_of(const double *v, size_t n);

/* Sort N 64-bit values ascending (LSD radix sort, O(n), allocates n). */
int stats_sort_u64(uint64_t *v, size_t n);

/*
 * Nearest-rank percentile of SORTED[0..N): the smallest sample such that at
 * least P% of the samples are <= it.  P in (0, 100]; 0 when N is 0.
 */
uint64_t stats_percentile_u64(const uint64_t *sorted, size_t n, double p);

/* Student's t distribution with DF degrees of freedom. */
double stats_t_cdf(double t, double df);
/* The t with P(T <= t) = P; P in (0, 1). */
double stats_t_quantile(double p, double df);

struct stats_ci {
	double mean;
	double half; /* half width; NaN when n < 2 */
	double lo;
	double hi;
};

/* Two-sided CONFIDENCE (e.g. 0.95) interval for the mean of V[0..N). */
struct stats_ci stats_ci_of(const double *v, size_t n, double confidence);

struct stats_welch {
	double t;  /* (mean_b - mean_a) / standard error */
	double df; /* Welch-Satterthwaite degrees of freedom */
	double p;  /* two-sided p-value; NaN when undefined */
};

/*
 * Welch's t-test of A[0..NA) against B[0..NB).  Needs NA, NB >= 2; with zero
 * variance in both, p is 0 if the means differ and 1 if not.
 */
struct stats_welch stats_welch_test(const double *a, size_t na, const double *b,
				    size_t nb);

#endif
