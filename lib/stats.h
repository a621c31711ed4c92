/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics for comparing runs and kernels: running mean and standard
 * deviation (Welford), exact nearest-rank percentiles of integer samples,
 * Student-t confidence intervals, Welch's unequal-variance t-test and the
 * smallest effect such a test can see (minimal detectable effect).
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
/*
 * Pearson's correlation of X[0..N) and Y[0..N), in [-1, 1]; NaN when N < 3
 * or either does not vary.
 */
double stats_correlation_of(const double *x, const double *y, size_t n);
/*
 * The lag-1 autocorrelation of the series V[0..N): how much each value
 * follows the one before (about 0 for independent draws, whose sampling
 * spread is 1/sqrt(N)); NaN when N < 3 or V does not vary.
 */
double stats_lag1_of(const double *v, size_t n);

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

/*
 * Welch's test from summary statistics: means MA, MB, sample variances
 * (n - 1 in the denominator) VA, VB and sizes NA, NB >= 2, as above.
 */
struct stats_welch stats_welch_summary(double ma, double va, size_t na,
				       double mb, double vb, size_t nb);

/*
 * The two-sided t-test of a difference DIFF whose standard error is SE,
 * on DF degrees of freedom.  SE 0: p is 0 if DIFF is not 0, else 1; NaN
 * when SE or DF is invalid.
 */
struct stats_welch stats_t_test(double diff, double se, double df);

/*
 * The minimal detectable effect of a two-sided t-test at level ALPHA with
 * POWER (0.8 in latency-compare): the true difference the test calls
 * significant with probability POWER, for a test statistic with standard
 * error SE on DF degrees of freedom,
 *
 *	mde = (t(1 - ALPHA/2, DF) + t(POWER, DF)) * SE
 *
 * (the usual normal-approximation formula with t quantiles in place of
 * z; it ignores the far tail, a few percent of the time it could err the
 * other way).  0 when SE is 0; NaN when SE, DF, ALPHA or POWER is invalid.
 */
double stats_mde(double se, double df, double alpha, double power);

/*
 * stats_mde() of Welch's test between a sample A (mean MA, variance VA,
 * size NA) and a sample B (VB, NB), as a percentage of |MA|: with
 * se = sqrt(VA/NA + VB/NB) and the Welch-Satterthwaite
 * df = se^4 / ((VA/NA)^2/(NA-1) + (VB/NB)^2/(NB-1)).  NaN when NA or NB is
 * below 2 or MA is 0; 0 when both variances are 0.
 */
double stats_mde_pct(double ma, double va, size_t na, double vb, size_t nb,
		     double alpha, double power);

/* The standard normal distribution: P(Z <= Z), and the z with P(Z <= z) = P
 * (P in (0, 1), else NaN). */
double stats_normal_cdf(double z);
double stats_normal_quantile(double p);

struct stats_prop {
	double diff; /* X2/N2 - X1/N1 */
	double se;   /* of the difference, from the pooled proportion */
	double z;    /* diff / se */
	double p;    /* two-sided; NaN when undefined */
	double mde;  /* smallest difference seen (a fraction, not percent) */
};

/*
 * The two-proportion z test of X1 successes in N1 trials against X2 in N2
 * (e.g. huge page allocations that succeeded), with the pooled proportion
 * P = (X1 + X2) / (N1 + N2) and se = sqrt(P (1 - P) (1/N1 + 1/N2)); p is
 * two-sided from the normal distribution.  Both proportions 0 or both 1:
 * z 0 and p 1.  MDE is the difference of proportions the test calls
 * significant at level ALPHA with probability POWER,
 * (z(1 - ALPHA/2) + z(POWER)) * se, with P kept within [1/(2N), 1 - 1/(2N)]
 * (N = N1 + N2) so that a result of all successes still states what it
 * could have seen.  The normal approximation wants about 5 successes and 5
 * failures on each side.  All fields NaN when N1 or N2 is 0, X1 > N1 or
 * X2 > N2, or ALPHA or POWER is not in (0, 1).
 */
struct stats_prop stats_two_prop_test(uint64_t x1, uint64_t n1, uint64_t x2,
				      uint64_t n2, double alpha, double power);

/*
 * The same comparison when the trials come in clusters (K1 and K2 of
 * them: X[i] successes in N[i] trials each), such as probes made during
 * one run, which succeed or fail together: each side's proportion is
 * sum X / sum N, and its variance the cluster-robust one of that ratio,
 * K/(K-1) * sum (X[i] - p N[i])^2 / (sum N)^2 (the Rao-Scott idea: the
 * binomial variance times the design effect the clusters show), never
 * less than the binomial p(1-p)/sum N.  z = diff / sqrt(V1 + V2), normal;
 * the MDE likewise, with the pooled binomial variance as its floor.  All
 * NaN when a side has fewer than 2 clusters or no trials, or ALPHA or
 * POWER is not in (0, 1).
 */
struct stats_prop stats_two_prop_clustered(const uint64_t *x1,
					   const uint64_t *n1, size_t k1,
					   const uint64_t *x2,
					   const uint64_t *n2, size_t k2,
					   double alpha, double power);

#endif
