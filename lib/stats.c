// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics behind "Elapsed:11:32.258(stddev:130.779)" and behind the
 * question every comparison asks: is this difference real?  The t
 * distribution comes from the regularized incomplete beta function,
 * evaluated with Lentz's continued fraction.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"

void stats_init(struct stats *s)
{
	memset(s, 0, sizeof(*s));
	s->min = INFINITY;
	s->max = -INFINITY;
}

void stats_add(struct stats *s, double x)
{
	double d = x - s->mean;

	s->n++;
	s->mean += d / (double)s->n;
	s->m2 += d * (x - s->mean);
	if (x < s->min)
		s->min = x;
	if (x > s->max)
		s->max = x;
}

double stats_stddev(const struct stats *s)
{
	if (s->n < 2)
		return 0.0;
	return sqrt(s->m2 / (double)(s->n - 1));
}

double stats_mean_of(const double *v, size_t n)
{
	struct stats s;
	size_t i;

	stats_init(&s);
	for (i = 0; i < n; i++)
		stats_add(&s, v[i]);
	return s.mean;
}

double stats_stddev_of(const double *v, size_t n)
{
	struct stats s;
	size_t i;

	stats_init(&s);
	for (i = 0; i < n; i++)
		stats_add(&s, v[i]);
	return stats_stddev(&s);
}

double stats_correlation_of(const double *x, const double *y, size_t n)
{
	double mx = stats_mean_of(x, n), my = stats_mean_of(y, n);
	double sxy = 0, sxx = 0, syy = 0;
	size_t i;

	if (n < 3)
		return NAN;
	for (i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (!(sxx > 0) || !(syy > 0))
		return NAN;
	return fmax(-1, fmin(1, sxy / sqrt(sxx * syy)));
}

double stats_lag1_of(const double *v, size_t n)
{
	double m = stats_mean_of(v, n), num = 0, den = 0;
	size_t i;

	if (n < 3)
		return NAN;
	for (i = 0; i < n; i++) {
		den += (v[i] - m) * (v[i] - m);
		if (i + 1 < n)
			num += (v[i] - m) * (v[i + 1] - m);
	}
	return den > 0 ? num / den : NAN;
}

int stats_sort_u64(uint64_t *v, size_t n)
{
	uint64_t *tmp, *src = v, *dst;
	size_t *count;
	unsigned pass;

	if (n < 2)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	count = malloc(65536 * sizeof(*count));
	if (!tmp || !count) {
		free(tmp);
		free(count);
		return -ENOMEM;
	}
	dst = tmp;
	/* 16-bit digits: four passes; skip a pass whose digit is constant. */
	for (pass = 0; pass < 4; pass++) {
		unsigned shift = pass * 16;
		size_t i, sum = 0;
		uint64_t *t;

		memset(count, 0, 65536 * sizeof(*count));
		for (i = 0; i < n; i++)
			count[(src[i] >> shift) & 0xffff]++;
		if (count[(src[0] >> shift) & 0xffff] == n)
			continue;
		for (i = 0; i < 65536; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[(src[i] >> shift) & 0xffff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	free(count);
	return 0;
}

uint64_t stats_percentile_u64(const uint64_t *sorted, size_t n, double p)
{
	double exact;
	size_t rank;

	if (!n)
		return 0;
	if (p >= 100.0)
		return sorted[n - 1];
	exact = p / 100.0 * (double)n;
	rank = (size_t)exact;
	/* ceil(), tolerant of p/100*n landing a hair above an integer. */
	if ((double)rank < exact && exact - (double)rank > 1e-9)
		rank++;
	if (!rank)
		rank = 1;
	return sorted[rank - 1];
}

/* Continued fraction for the incomplete beta function (Lentz). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	h = d;
	for (m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a - 1.0 + m2) * (a + m2));
		d = 1.0 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1.0 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1.0 + m2));
		d = 1.0 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1.0 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1.0) < eps)
			break;
	}
	return h;
}

/* Regularized incomplete beta I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(a, b, x) / a;
	return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

double stats_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	tail = 0.5 * beta_inc(df / 2.0, 0.5, df / (df + t * t));
	return t > 0 ? 1.0 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double lo = -1.0, hi = 1.0;
	int i;

	if (!(p > 0.0 && p < 1.0) || !(df > 0))
		return NAN;
	while (stats_t_cdf(lo, df) > p)
		lo *= 2.0;
	while (stats_t_cdf(hi, df) < p)
		hi *= 2.0;
	/* Bisection to full double precision: 200 halvings is plenty. */
	for (i = 0; i < 200; i++) {
		double mid = 0.5 * (lo + hi);

		if (mid == lo || mid == hi)
			break;
		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

struct stats_ci stats_ci_of(const double *v, size_t n, double confidence)
{
	struct stats_ci ci;
	double sd, t;

	ci.mean = stats_mean_of(v, n);
	if (n < 2) {
		ci.half = NAN;
		ci.lo = ci.hi = NAN;
		return ci;
	}
	sd = stats_stddev_of(v, n);
	t = stats_t_quantile(1.0 - (1.0 - confidence) / 2.0, (double)(n - 1));
	ci.half = t * sd / sqrt((double)n);
	ci.lo = ci.mean - ci.half;
	ci.hi = ci.mean + ci.half;
	return ci;
}

struct stats_welch stats_t_test(double diff, double se, double df)
{
	struct stats_welch w = { NAN, NAN, NAN };

	if (!(se >= 0) || !(df > 0) || isnan(diff) || isinf(se))
		return w;
	w.df = df;
	if (se == 0.0) {
		w.t = diff == 0 ? 0.0 : (diff > 0 ? INFINITY : -INFINITY);
		w.p = diff == 0 ? 1.0 : 0.0;
		return w;
	}
	w.t = diff / se;
	w.p = 2.0 * stats_t_cdf(-fabs(w.t), df);
	return w;
}

/* Welch-Satterthwaite degrees of freedom of SA = VA/NA and SB = VB/NB. */
static double welch_df(double sa, size_t na, double sb, size_t nb)
{
	double se2 = sa + sb;

	return se2 * se2 /
	       (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
}

struct stats_welch stats_welch_summary(double ma, double va, size_t na,
				       double mb, double vb, size_t nb)
{
	struct stats_welch w = { NAN, NAN, NAN };
	double sa, sb;

	if (na < 2 || nb < 2 || !(va >= 0) || !(vb >= 0))
		return w;
	sa = va / (double)na;
	sb = vb / (double)nb;
	if (sa + sb == 0.0) {
		/* No spread: the classic df, and a certain answer. */
		w = stats_t_test(mb - ma, 0.0, (double)(na + nb - 2));
		return w;
	}
	return stats_t_test(mb - ma, sqrt(sa + sb), welch_df(sa, na, sb, nb));
}

struct stats_welch stats_welch_test(const double *a, size_t na, const double *b,
				    size_t nb)
{
	struct stats_welch w = { NAN, NAN, NAN };
	double sda, sdb;

	if (na < 2 || nb < 2)
		return w;
	sda = stats_stddev_of(a, na);
	sdb = stats_stddev_of(b, nb);
	return stats_welch_summary(stats_mean_of(a, na), sda * sda, na,
				   stats_mean_of(b, nb), sdb * sdb, nb);
}

double stats_mde(double se, double df, double alpha, double power)
{
	if (!(se >= 0) || isinf(se) || !(df > 0) || !(alpha > 0 && alpha < 1) ||
	    !(power > 0 && power < 1))
		return NAN;
	if (se == 0.0)
		return 0.0;
	return (stats_t_quantile(1.0 - alpha / 2.0, df) +
		stats_t_quantile(power, df)) *
	       se;
}

double stats_mde_pct(double ma, double va, size_t na, double vb, size_t nb,
		     double alpha, double power)
{
	double sa, sb;

	if (na < 2 || nb < 2 || !(va >= 0) || !(vb >= 0) || ma == 0 ||
	    !isfinite(ma))
		return NAN;
	sa = va / (double)na;
	sb = vb / (double)nb;
	if (sa + sb == 0.0)
		return 0.0;
	return stats_mde(sqrt(sa + sb), welch_df(sa, na, sb, nb), alpha,
			 power) /
	       fabs(ma) * 100.0;
}

double stats_normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

double stats_normal_quantile(double p)
{
	double lo = -40.0, hi = 40.0;
	int i;

	if (!(p > 0.0 && p < 1.0))
		return NAN;
	for (i = 0; i < 200; i++) {
		double mid = 0.5 * (lo + hi);

		if (mid == lo || mid == hi)
			break;
		if (stats_normal_cdf(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* One side of the clustered test: its proportion, variance, trials. */
static bool cluster_side(const uint64_t *x, const uint64_t *n, size_t k,
			 double *p, double *var, double *trials)
{
	double sx = 0, sn = 0, ss = 0, bin;
	size_t i;

	for (i = 0; i < k; i++) {
		if (x[i] > n[i])
			return false;
		sx += (double)x[i];
		sn += (double)n[i];
	}
	if (k < 2 || !(sn > 0))
		return false;
	*p = sx / sn;
	for (i = 0; i < k; i++) {
		double d = (double)x[i] - *p * (double)n[i];

		ss += d * d;
	}
	*var = (double)k / (double)(k - 1) * ss / (sn * sn);
	bin = *p * (1.0 - *p) / sn;
	*var = *var > bin ? *var : bin;
	*trials = sn;
	return true;
}

/* z and its two-sided p from R's diff and se (se 0: z 0, p 1). */
static void prop_z(struct stats_prop *r)
{
	if (r->se > 0) {
		r->z = r->diff / r->se;
		r->p = 2.0 * stats_normal_cdf(-fabs(r->z));
	} else {
		r->z = 0;
		r->p = 1;
	}
}

/*
 * The binomial se of a difference of proportions with the pooled
 * proportion POOL of N1 and N2 trials kept within [1/(2N), 1 - 1/(2N)],
 * so that all successes (or none) still give a resolution.
 */
static double pooled_se_kept(double pool, double n1, double n2)
{
	double lo = 0.5 / (n1 + n2);

	pool = pool < lo ? lo : pool > 1.0 - lo ? 1.0 - lo : pool;
	return sqrt(pool * (1.0 - pool) * (1.0 / n1 + 1.0 / n2));
}

/* (z(1 - ALPHA/2) + z(POWER)): the mde in standard errors. */
static double mde_factor(double alpha, double power)
{
	return stats_normal_quantile(1.0 - alpha / 2.0) +
	       stats_normal_quantile(power);
}

struct stats_prop stats_two_prop_clustered(const uint64_t *x1,
					   const uint64_t *n1, size_t k1,
					   const uint64_t *x2,
					   const uint64_t *n2, size_t k2,
					   double alpha, double power)
{
	struct stats_prop r = { NAN, NAN, NAN, NAN, NAN };
	double p1, p2, v1, v2, t1, t2, floor_se;

	if (!(alpha > 0 && alpha < 1) || !(power > 0 && power < 1) ||
	    !cluster_side(x1, n1, k1, &p1, &v1, &t1) ||
	    !cluster_side(x2, n2, k2, &p2, &v2, &t2))
		return r;
	r.diff = p2 - p1;
	r.se = sqrt(v1 + v2);
	prop_z(&r);
	floor_se = pooled_se_kept((p1 * t1 + p2 * t2) / (t1 + t2), t1, t2);
	r.mde = mde_factor(alpha, power) * (r.se > floor_se ? r.se : floor_se);
	return r;
}

struct stats_prop stats_two_prop_test(uint64_t x1, uint64_t n1, uint64_t x2,
				      uint64_t n2, double alpha, double power)
{
	struct stats_prop r = { NAN, NAN, NAN, NAN, NAN };
	double pool;

	if (!n1 || !n2 || x1 > n1 || x2 > n2 || !(alpha > 0 && alpha < 1) ||
	    !(power > 0 && power < 1))
		return r;
	pool = ((double)x1 + (double)x2) / ((double)n1 + (double)n2);
	r.diff = (double)x2 / (double)n2 - (double)x1 / (double)n1;
	r.se = sqrt(pool * (1.0 - pool) *
		    (1.0 / (double)n1 + 1.0 / (double)n2));
	prop_z(&r);
	r.mde = mde_factor(alpha, power) *
		pooled_se_kept(pool, (double)n1, (double)n2);
	return r;
}
