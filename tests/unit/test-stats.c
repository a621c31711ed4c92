// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for lib/stats against hand-computed and tabulated values. */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/stats.h"
#include "lib/rand.h"
#include "tests/tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void basics(void)
{
	static const double v[] = { 10, 12, 14 };
	static const double big[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };
	struct stats s;

	is_double(stats_mean_of(v, 3), 12.0, 1e-12, "mean {10,12,14} = 12");
	is_double(stats_stddev_of(v, 3), 2.0, 1e-12, "sd {10,12,14} = 2");
	is_double(stats_stddev_of(big, 4), sqrt(30.0), 1e-6,
		  "Welford is stable with a large offset");
	stats_init(&s);
	stats_add(&s, 5);
	is_double(stats_stddev(&s), 0.0, 0, "sd of one sample is 0");
	is_double(s.min, 5, 0, "min");
	is_double(s.max, 5, 0, "max");
}

static void correlation(void)
{
	static const double x[] = { 1, 2, 3, 4 };
	static const double y[] = { 2, 4, 5, 9 };
	static const double down[] = { 8, 6, 4, 2 };
	static const double flat[] = { 3, 3, 3, 3 };

	/* Sxy 11, Sxx 5, Syy 26: r = 11 / sqrt(130). */
	is_double(stats_correlation_of(x, y, 4), 11 / sqrt(130), 1e-12,
		  "correlation {1,2,3,4} {2,4,5,9} = 11/sqrt(130)");
	is_double(stats_correlation_of(x, down, 4), -1, 1e-12,
		  "a falling line: -1");
	ok(isnan(stats_correlation_of(x, flat, 4)), "no spread: NaN");
	ok(isnan(stats_correlation_of(x, y, 2)), "two points: NaN");
}

static void lag1(void)
{
	static const double rising[] = { 1, 2, 3, 4 };
	static const double flip[] = { 1, 3, 1, 3 };
	static const double flat[] = { 2, 2, 2 };

	/* Deviations -1.5 -0.5 0.5 1.5: (0.75 - 0.25 + 0.75) / 5. */
	is_double(stats_lag1_of(rising, 4), 0.25, 1e-12,
		  "lag-1 {1,2,3,4} = 0.25");
	/* Deviations -1 1 -1 1: -3 / 4. */
	is_double(stats_lag1_of(flip, 4), -0.75, 1e-12,
		  "lag-1 {1,3,1,3} = -0.75");
	ok(isnan(stats_lag1_of(flat, 3)), "lag-1 without spread: NaN");
	ok(isnan(stats_lag1_of(rising, 2)), "lag-1 of two: NaN");
}

static void percentiles(void)
{
	uint64_t v[10] = { 9, 1, 8, 2, 7, 3, 6, 4, 5, 10 };
	uint64_t *r;
	struct rand rnd;
	size_t i, n = 200000, bad = 0;

	is_int(stats_sort_u64(v, 10), 0, "sort returns 0");
	for (i = 0; i < 10; i++)
		if (v[i] != i + 1)
			bad++;
	is_int(bad, 0, "sorted 1..10");
	is_u64(stats_percentile_u64(v, 10, 50), 5, "p50 of 1..10 = 5");
	is_u64(stats_percentile_u64(v, 10, 90), 9, "p90 of 1..10 = 9");
	is_u64(stats_percentile_u64(v, 10, 99), 10, "p99 of 1..10 = 10");
	is_u64(stats_percentile_u64(v, 10, 100), 10, "p100 = max");
	is_u64(stats_percentile_u64(v, 10, 10), 1, "p10 of 1..10 = 1");
	is_u64(stats_percentile_u64(v, 10, 0.001), 1, "tiny p = min");
	is_u64(stats_percentile_u64(v, 0, 50), 0, "empty -> 0");

	/* Radix sort agrees with qsort on random 64-bit values. */
	r = malloc(n * 2 * sizeof(*r));
	if (!r)
		skip_all("out of memory");
	rand_seed(&rnd, 3);
	for (i = 0; i < n; i++)
		r[i] = r[n + i] = rand_next(&rnd) >> (i % 40);
	is_int(stats_sort_u64(r, n), 0, "radix sort of 200000 values");
	qsort(r + n, n, sizeof(*r), cmp_u64);
	bad = 0;
	for (i = 0; i < n; i++)
		if (r[i] != r[n + i])
			bad++;
	is_int(bad, 0, "radix sort matches qsort");
	free(r);
}

static void t_dist(void)
{
	/* Two-sided 95% and 99% critical values from published tables. */
	static const struct {
		double df, p, t;
	} tab[] = {
		{ 1, 0.975, 12.706 }, { 2, 0.975, 4.303 },
		{ 3, 0.975, 3.182 },  { 4, 0.975, 2.776 },
		{ 10, 0.975, 2.228 }, { 30, 0.975, 2.042 },
		{ 1, 0.995, 63.657 }, { 3, 0.995, 5.841 },
		{ 10, 0.995, 3.169 }, { 1000, 0.975, 1.962 },
	};
	size_t i;

	for (i = 0; i < N(tab); i++)
		is_double(stats_t_quantile(tab[i].p, tab[i].df), tab[i].t,
			  0.0005, "t(%.3f, df=%g) = %.3f", tab[i].p, tab[i].df,
			  tab[i].t);
	is_double(stats_t_cdf(0, 5), 0.5, 1e-12, "cdf(0) = 0.5");
	is_double(stats_t_cdf(2.015, 5), 0.95, 0.0005, "cdf(2.015, 5) = 0.95");
	is_double(stats_t_quantile(0.025, 4), -2.776, 0.0005,
		  "lower quantile is negative");
	ok(isnan(stats_t_quantile(1.5, 4)), "p out of range -> NaN");
}

static void intervals(void)
{
	static const double v[] = { 10, 12, 14 };
	static const double one[] = { 1 };
	/* Welch example: a {19.8,20.4,19.6,17.8,18.5,18.9,18.3,18.9,19.5,22.0}
	 * b {28.2,26.6,20.1,23.3,25.2,22.1,17.7,27.6,20.6,13.7,23.2,17.5,
	 *    20.6,18.0,23.9,21.6,24.3,20.4,23.9,13.3}: t = 2.225512 (b - a),
	 * df = 24.524635, two-sided p = 0.035485 (computed independently by
	 * numerical integration of the t density). */
	static const double a[] = { 19.8, 20.4, 19.6, 17.8, 18.5,
				    18.9, 18.3, 18.9, 19.5, 22.0 };
	static const double b[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7,
				    27.6, 20.6, 13.7, 23.2, 17.5, 20.6, 18.0,
				    23.9, 21.6, 24.3, 20.4, 23.9, 13.3 };
	static const double same1[] = { 5, 5, 5 }, same2[] = { 5, 5 };
	static const double other[] = { 6, 6 };
	struct stats_ci ci = stats_ci_of(v, 3, 0.95);
	struct stats_welch w;

	is_double(ci.mean, 12, 1e-12, "CI mean");
	is_double(ci.half, 4.302653 * 2 / sqrt(3), 1e-5,
		  "95%% CI half width of {10,12,14} = 4.9683");
	is_double(ci.lo, 12 - 4.302653 * 2 / sqrt(3), 1e-5, "CI low");
	ci = stats_ci_of(v, 3, 0.99);
	is_double(ci.half, 9.924843 * 2 / sqrt(3), 1e-4,
		  "99%% CI half width of {10,12,14}");
	ci = stats_ci_of(one, 1, 0.95);
	ok(isnan(ci.half), "CI of one sample is undefined");

	w = stats_welch_test(a, N(a), b, N(b));
	is_double(w.t, 2.225512, 0.000001, "Welch t");
	is_double(w.df, 24.524635, 0.000001, "Welch df");
	is_double(w.p, 0.035485, 0.000002, "Welch two-sided p");
	w = stats_welch_test(b, N(b), a, N(a));
	is_double(w.t, -2.225512, 0.000001,
		  "Welch t changes sign when swapped");
	w = stats_welch_test(same1, 3, same2, 2);
	is_double(w.p, 1.0, 0, "identical constant samples: p = 1");
	w = stats_welch_test(same1, 3, other, 2);
	is_double(w.p, 0.0, 0, "different constant samples: p = 0");
	w = stats_welch_test(one, 1, a, N(a));
	ok(isnan(w.p), "one sample: undefined");
}

/*
 * The minimal detectable effect, by hand:
 *
 * {10,12,14} against {20,22,24}: variances 4 and 4, sizes 3 and 3, so
 * se = sqrt(4/3 + 4/3) = sqrt(8/3) = 1.6329932 and the Welch df is
 * (8/3)^2 / ((4/3)^2/2 + (4/3)^2/2) = 4; from a t table t(0.975, 4) =
 * 2.7764451 and t(0.8, 4) = 0.9409646, so mde = 3.7174097 * 1.6329932 =
 * 6.0705046, 50.587538% of the baseline mean 12.
 *
 * Two degrees of freedom have a closed form, t(p, 2) = (2p - 1) /
 * sqrt(2p(1 - p)): t(0.975, 2) = 0.95 / sqrt(0.04875) = 4.3026527 and
 * t(0.8, 2) = 0.6 / sqrt(0.32) = 1.0606602; with se = sqrt(4/3 + 4) =
 * 2.3094011 (one new result against the spread of three, variance 4),
 * mde = 5.3633129 * 2.3094011 = 12.386041.  And the two-sided p of t
 * on 2 df is 1 - t / sqrt(2 + t^2): for a difference of 8, t = 8 /
 * 2.3094011 = 3.4641016 and p = 1 - 3.4641016 / sqrt(14) = 0.0741799.
 *
 * Large samples: the quantiles tend to the normal ones, 1.9599640 +
 * 0.8416212 = 2.8015852; variances 1, sizes 10^6: se = sqrt(2e-6) =
 * 0.0014142136, mde = 0.0039620417, 0.39620417% of a mean of 1.
 */
static void mde(void)
{
	static const double a[] = { 10, 12, 14 }, b[] = { 20, 22, 24 };
	struct stats_welch w;
	double se = sqrt(4.0 / 3 + 4);

	is_double(stats_mde_pct(stats_mean_of(a, 3), 4, 3, 4, 3, 0.05, 0.8),
		  50.587538, 1e-5, "mde of {10,12,14} vs {20,22,24}: 50.59%%");
	is_double(stats_mde(sqrt(8.0 / 3), 4, 0.05, 0.8), 6.0705046, 1e-6,
		  "mde on 4 df, absolute");
	is_double(stats_mde(se, 2, 0.05, 0.8), 12.386041, 1e-5,
		  "mde on 2 df (closed form quantiles)");
	is_double(stats_mde_pct(1, 1, 1000000, 1, 1000000, 0.05, 0.8),
		  0.39620417, 1e-6, "large samples: 2.8016 standard errors");
	is_double(stats_mde_pct(-12, 4, 3, 4, 3, 0.05, 0.8), 50.587538, 1e-5,
		  "percent of |mean|");
	ok(stats_mde_pct(12, 4, 3, 4, 3, 0.01, 0.8) > 50.6,
	   "a stricter alpha sees less");
	is_double(stats_mde_pct(5, 0, 3, 0, 2, 0.05, 0.8), 0, 0,
		  "no spread: any change is seen");
	ok(isnan(stats_mde_pct(5, 1, 1, 1, 3, 0.05, 0.8)), "one sample: NaN");
	ok(isnan(stats_mde_pct(0, 1, 3, 1, 3, 0.05, 0.8)), "mean 0: NaN");
	ok(isnan(stats_mde(1, 4, 0, 0.8)), "alpha 0: NaN");
	ok(isnan(stats_mde(1, 0, 0.05, 0.8)), "df 0: NaN");

	w = stats_t_test(8, se, 2);
	is_double(w.t, 3.4641016, 1e-6, "t of 8 over se 2.3094");
	is_double(w.p, 0.0741799, 1e-6, "p on 2 df (closed form)");
	w = stats_t_test(-1, 0, 3);
	is_double(w.p, 0, 0, "se 0, a difference: p 0");
	ok(isnan(stats_t_test(1, -1, 3).p), "negative se: NaN");
	w = stats_welch_summary(12, 4, 3, 22, 4, 3);
	is_double(w.df, 4, 1e-12, "equal variances and sizes: df 2(n-1)");
	/* p = 1 - t(t^2+6)/(t^2+4)^1.5 on 4 df, t = 10/1.6329932 = 6.1237244 */
	is_double(w.p, 1 - 6.1237244 * (37.5 + 6) / pow(37.5 + 4, 1.5), 1e-6,
		  "p on 4 df (closed form)");
	w = stats_welch_test(a, 3, b, 3);
	is_double(w.p, stats_welch_summary(12, 4, 3, 22, 4, 3).p, 1e-15,
		  "samples and summaries agree");
}

/*
 * 45 of 100 against 30 of 100: pooled 0.375, se = sqrt(0.375 * 0.625 *
 * 0.02) = 0.0684653, z = -0.15 / se = -2.1908902, p = erfc(2.19089 /
 * sqrt 2) = 0.0284597.  mde = (1.9599640 + 0.8416212) * se = 0.1918113.
 */
static void proportions(void)
{
	struct stats_prop r = stats_two_prop_test(45, 100, 30, 100, 0.05, 0.8);

	is_double(stats_normal_cdf(0), 0.5, 1e-15, "normal cdf at 0");
	is_double(stats_normal_quantile(0.975), 1.9599640, 1e-6,
		  "normal 97.5%% quantile");
	is_double(stats_normal_quantile(0.8), 0.8416212, 1e-6,
		  "normal 80%% quantile");
	ok(isnan(stats_normal_quantile(1)), "quantile of 1: NaN");
	is_double(r.diff, -0.15, 1e-12, "difference of proportions");
	is_double(r.se, 0.0684653, 1e-6, "pooled standard error");
	is_double(r.z, -2.1908902, 1e-6, "z");
	is_double(r.p, 0.0284597, 1e-6, "two-sided p");
	is_double(r.mde, 2.8015852 * 0.0684653, 1e-5, "mde at 80%% power");
	r = stats_two_prop_test(30, 100, 45, 100, 0.05, 0.8);
	is_double(r.z, 2.1908902, 1e-6, "symmetric");
	r = stats_two_prop_test(100, 100, 100, 100, 0.05, 0.8);
	is_double(r.p, 1, 0, "all successes on both sides: p 1");
	/* pooled kept at 1 - 1/400: se = sqrt(0.0025 * 0.9975 * 0.02) */
	is_double(r.mde, 2.8015852 * sqrt(0.0025 * 0.9975 * 0.02), 1e-6,
		  "all successes: the mde is still stated");
	r = stats_two_prop_test(0, 1000, 10, 1000, 0.05, 0.8);
	ok(r.p < 0.01 && r.diff > 0, "0 of 1000 against 10 of 1000: a change");
	ok(isnan(stats_two_prop_test(1, 0, 1, 5, 0.05, 0.8).p), "n 0: NaN");
	ok(isnan(stats_two_prop_test(6, 5, 1, 5, 0.05, 0.8).p), "x > n: NaN");
	ok(isnan(stats_two_prop_test(1, 5, 1, 5, 0, 0.8).mde), "alpha 0: NaN");
}

/*
 * Runs as clusters.  Side 1: 10/10, 10/10, 0/10: p = 2/3, deviations
 * 10/3, 10/3, -20/3, V = 3/2 * (200/3) / 900 = 1/9 (the binomial 2/9 / 30
 * is less).  Side 2: 5/10 three times: no spread between runs, so the
 * binomial 0.25 / 30.  se = sqrt(1/9 + 1/120) = 0.3456074, z = -(1/6) /
 * se = -0.4822428, p = 0.6296335; mde = 2.8015852 * se = 0.9682485.  The
 * binomial test of the same 20/30 against 15/30 gives p 0.19: the runs
 * that all failed together are one event, not ten.
 */
static void proportions_clustered(void)
{
	const uint64_t x1[] = { 10, 10, 0 }, n1[] = { 10, 10, 10 };
	const uint64_t x2[] = { 5, 5, 5 }, n2[] = { 10, 10, 10 };
	const uint64_t one[] = { 1 }, bad[] = { 11 };
	struct stats_prop r =
		stats_two_prop_clustered(x1, n1, 3, x2, n2, 3, 0.05, 0.8);

	is_double(r.diff, -1.0 / 6, 1e-12, "clustered: difference");
	is_double(r.se, 0.3456074, 1e-6, "clustered: cluster-robust se");
	is_double(r.z, -0.4822428, 1e-6, "clustered: z");
	is_double(r.p, 0.6296335, 1e-6, "clustered: two-sided p");
	is_double(r.mde, 0.9682485, 1e-6, "clustered: mde");
	r = stats_two_prop_test(20, 30, 15, 30, 0.05, 0.8);
	ok(r.p < 0.25 && r.p > 0.15, "the binomial test of the same: p 0.19");
	r = stats_two_prop_clustered(x2, n2, 3, x2, n2, 3, 0.05, 0.8);
	is_double(r.p, 1, 1e-12, "clustered: the same on both sides: p 1");
	ok(isnan(stats_two_prop_clustered(one, one, 1, x2, n2, 3, 0.05, 0.8).p),
	   "clustered: one cluster: NaN");
	ok(isnan(stats_two_prop_clustered(bad, n1, 1, x2, n2, 3, 0.05, 0.8).p),
	   "clustered: x > n: NaN");
}

int main(void)
{
	basics();
	correlation();
	lag1();
	percentiles();
	t_dist();
	intervals();
	mde();
	proportions();
	proportions_clustered();
	return done_testing();
}
