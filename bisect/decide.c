// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The decisions of a bisection, a pure function of the boots made: the
 * ends first (the bad end against the good end, pairs of boots until they
 * are called different or the cap), the threshold from them, then each
 * probed kernel against the good end in three states (bad when its whole
 * interval is above the threshold, good when below, unknown at the cap),
 * then the tested kernels around the boundary compared with each other
 * and the culprit validated against its predecessor in fresh pairs.
 *
 * Every series of pairs is looked at after min_pairs complete pairs, then
 * each time it has half as many again (3, 5, 8, 12, 18, 20 up to 20), and
 * at max_pairs; a series that may be looked at L times is tested at
 * alpha / L each time (Bonferroni over the looks), so that looking again
 * until something shows does not make noise a culprit.  Fewer looks than
 * one a pair keep alpha / L from shrinking as fast as the cap grows.  Decisions are
 * replayed from the first boot on every call, so a bisection read back
 * from bisect.json goes on exactly where it stood.
 */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rand.h"
#include "lib/xalloc.h"
#include "bisect/bisect.h"

const char *const kstate_name[] = { "untested", "good", "bad", "unknown",
				    "skipped" };
const char *const boot_end_name[] = { "running", "done", "partial", "failed" };
const char *const outcome_name[] = { "running", "found", "range",
				     "not reproduced", "caught" };

bool decide_look(const struct bisect_opts *o, unsigned n)
{
	unsigned at = o->min_pairs;

	while (at < n && at < o->max_pairs) {
		unsigned next = (at * 3 + 1) / 2;

		at = next > at ? next : at + 1;
		if (at > o->max_pairs)
			at = o->max_pairs;
	}
	return at == n;
}

double decide_alpha(const struct bisect_opts *o)
{
	unsigned looks = 0, n;

	for (n = o->min_pairs; n <= o->max_pairs; n++)
		looks += decide_look(o, n);
	return o->alpha / (looks ? looks : 1);
}

size_t series_add(struct bisect *b, size_t k, size_t ref, enum purpose purpose)
{
	struct series *s;
	struct rand r;
	unsigned i;

	b->series =
		xreallocarray(b->series, b->n_series + 1, sizeof(*b->series));
	s = &b->series[b->n_series];
	memset(s, 0, sizeof(*s));
	s->k = k;
	s->ref = ref;
	s->purpose = purpose;
	snprintf(s->name, sizeof(s->name), "bisect-%llu-%zu",
		 (unsigned long long)b->o.seed, b->n_series + 1);
	/* Each pair AB or BA at random, as latency-vm orders a series. */
	rand_seed_stream(&r, b->o.seed, b->n_series);
	for (i = 0; i < b->o.max_pairs; i++) {
		bool ab = rand_below(&r, 2);

		s->order[2 * i] = ab ? 'A' : 'B';
		s->order[2 * i + 1] = ab ? 'B' : 'A';
	}
	return b->n_series++;
}

/* The series of K against REF for PURPOSE, added when there is none. */
static size_t series_get(struct bisect *b, size_t k, size_t ref,
			 enum purpose purpose)
{
	size_t i;

	for (i = 0; i < b->n_series; i++)
		if (b->series[i].k == k && b->series[i].ref == ref &&
		    b->series[i].purpose == purpose)
			return i;
	return series_add(b, k, ref, purpose);
}

/* The boot of arm ARM of pair PAIR of series S that ended END, or NULL. */
static const struct boot *boot_find(const struct bisect *b, size_t s,
				    unsigned pair, char arm, enum boot_end end)
{
	size_t i;

	for (i = 0; i < b->n_boots; i++) {
		const struct boot *bt = &b->boots[i];

		if (bt->series == s && bt->pair == pair && bt->arm == arm &&
		    bt->end == end)
			return bt;
	}
	return NULL;
}

bool pair_has(const struct bisect *b, size_t s, unsigned pair, char arm,
	      enum boot_end end)
{
	return boot_find(b, s, pair, arm, end) != NULL;
}

size_t series_pairs(const struct bisect *b, size_t s, double *a, double *v)
{
	unsigned max = b->o.max_pairs, p;
	/* One pass over the boots: each pair's arms, NaN until done. */
	double *arm = xcalloc(2 * (size_t)max + 2, sizeof(*arm));
	size_t i, n = 0;

	for (i = 0; i < 2 * (size_t)max + 2; i++)
		arm[i] = NAN;
	for (i = 0; i < b->n_boots; i++) {
		const struct boot *bt = &b->boots[i];

		if (bt->series == s && bt->end == BOOT_DONE && bt->pair >= 1 &&
		    bt->pair <= max)
			arm[2 * bt->pair + (bt->arm == 'b')] = bt->value;
	}
	for (p = 1; p <= max; p++) {
		if (isnan(arm[2 * p]) || isnan(arm[2 * p + 1]))
			break;
		a[n] = arm[2 * p];
		v[n++] = arm[2 * p + 1];
	}
	free(arm);
	return n;
}

size_t boots_done(const struct bisect *b)
{
	size_t i, n = 0;

	for (i = 0; i < b->n_boots; i++)
		n += b->boots[i].end == BOOT_DONE;
	return n;
}

/* What looking at a series found. */
enum verdict {
	V_MORE,	    /* boot the next pair */
	V_FAILED,   /* a kernel of it did not boot */
	V_WORSE,    /* called different: worse (ends, validation) */
	V_BETTER,   /* called different: better */
	V_BAD,	    /* interval above the threshold */
	V_GOOD,	    /* below */
	V_CAP,	    /* undecided at max_pairs */
	V_NOT_WORSE /* not called different at the cap */
};

/* How a series is judged. */
enum rule {
	RULE_DIFFERENT, /* significant, and which way */
	RULE_THRESHOLD, /* the interval against the threshold */
};

struct look {
	enum verdict v;
	struct change ch;
	size_t pairs;
	const struct boot *failed;
};

/* The first arm of pair PAIR of S (in its order) without a complete boot. */
static void next_boot(const struct bisect *b, size_t s, unsigned pair,
		      struct action *next)
{
	const char *o = b->series[s].order + 2 * (pair - 1);
	char first = o[0] == 'A' ? 'a' : 'b';
	char second = first == 'a' ? 'b' : 'a';

	next->boot = true;
	next->series = s;
	next->pair = pair;
	next->arm = pair_has(b, s, pair, first, BOOT_DONE) ? second : first;
}

/* Judge one look at the first N pairs of A and V into L; false: no call. */
static bool judge(const struct bisect *b, enum rule rule, double alpha,
		  const double *a, const double *v, size_t n, struct look *l)
{
	l->ch = cmp_pairs_change(b->o.metric, a, v, n, alpha);
	l->pairs = n;
	if (l->ch.test == TEST_NONE || !decide_look(&b->o, (unsigned)n))
		return false;
	if (rule == RULE_DIFFERENT) {
		if (!l->ch.significant)
			return false;
		/* Every figure decided on is better lower. */
		l->v = l->ch.delta > 0 ? V_WORSE : V_BETTER;
		return true;
	}
	if (l->ch.ci_lo > b->threshold)
		l->v = V_BAD;
	else if (l->ch.ci_hi < b->threshold)
		l->v = V_GOOD;
	else
		return false;
	return true;
}

/*
 * Look at series S under RULE at ALPHA a look: a call, a failure, the cap
 * or more.
 */
static void look_alpha(const struct bisect *b, size_t s, enum rule rule,
		       double alpha, struct look *l, struct action *next)
{
	double *a = xcalloc(b->o.max_pairs + 1, sizeof(*a));
	double *v = xcalloc(b->o.max_pairs + 1, sizeof(*v));
	size_t n = series_pairs(b, s, a, v), i, c;

	memset(l, 0, sizeof(*l));
	l->ch = (struct change)CHANGE_UNTESTED;
	for (i = 0; i < b->n_boots; i++)
		if (b->boots[i].series == s && b->boots[i].end == BOOT_FAILED) {
			l->v = V_FAILED;
			l->failed = &b->boots[i];
			goto out;
		}
	for (c = 1; c <= n; c++)
		if (judge(b, rule, alpha, a, v, c, l))
			goto out;
	if (n >= b->o.max_pairs) {
		l->v = rule == RULE_DIFFERENT ? V_NOT_WORSE : V_CAP;
	} else {
		l->v = V_MORE;
		next_boot(b, s, (unsigned)n + 1, next);
	}
out:
	free(a);
	free(v);
}

static void look_at(const struct bisect *b, size_t s, enum rule rule,
		    struct look *l, struct action *next)
{
	look_alpha(b, s, rule, decide_alpha(&b->o), l, next);
}

/* Append decision number *D (if new) to B's list. */
static void PRINTF_LIKE(3, 4)
	say(struct bisect *b, size_t *d, const char *fmt, ...)
{
	va_list ap;
	char *line;

	if (*d < b->n_dec) {
		(*d)++;
		return;
	}
	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		line = NULL;
	va_end(ap);
	if (!line)
		xalloc_die();
	b->dec = xreallocarray(b->dec, b->n_dec + 1, sizeof(*b->dec));
	b->dec[b->n_dec++].line = line;
	(*d)++;
}

/* The change C as a decision line has it. */
static const char *ch_text(char *buf, size_t len, const struct change *c,
			   double alpha)
{
	char tmp[160];

	report_change(tmp, sizeof(tmp), c);
	snprintf(buf, len, "%s [%.4g%% interval]", tmp, 100 * (1 - alpha));
	return buf;
}

/* Mark kernel K skipped by the failed boot BT. */
static void skip(struct bisect *b, size_t k, const struct boot *bt)
{
	free(b->k[k].reason);
	b->k[k].reason = xasprintf("boot %s: %s", bt->dir,
				   bt->reason ? bt->reason : "failed");
	b->k[k].state = KS_SKIPPED;
}

/* The kernel of the failed boot of a series' look L. */
static size_t failed_kernel(const struct bisect *b, const struct look *l)
{
	const struct series *s = &b->series[l->failed->series];

	return l->failed->arm == 'a' ? s->ref : s->k;
}

/* The untested kernel between B's lo and hi nearest their middle. */
static long candidate(const struct bisect *b)
{
	double mid = ((double)b->lo + (double)b->hi) / 2;
	long best = -1;
	size_t i;

	for (i = b->lo + 1; i < b->hi; i++)
		if (b->k[i].state == KS_UNTESTED &&
		    (best < 0 ||
		     fabs((double)i - mid) < fabs((double)best - mid)))
			best = (long)i;
	return best;
}

/* The ends: true when they differ and the search can start. */
static bool decide_ends(struct bisect *b, size_t *d, struct action *next)
{
	size_t g = b->o.good, x = b->o.bad,
	       s = series_get(b, x, g, PURPOSE_SEARCH);
	double alpha = decide_alpha(&b->o);
	struct look l;
	char t[200];

	look_at(b, s, RULE_DIFFERENT, &l, next);
	b->ends = l.ch;
	b->k[x].ch = l.ch;
	b->k[x].pairs = l.pairs;
	if (l.v == V_MORE)
		return false;
	if (l.v == V_FAILED) {
		skip(b, failed_kernel(b, &l), l.failed);
		b->outcome = OUT_RANGE;
		say(b, d, "ends: %s did not boot (%s): no bisection",
		    b->k[failed_kernel(b, &l)].label,
		    b->k[failed_kernel(b, &l)].reason);
		return false;
	}
	ch_text(t, sizeof(t), &l.ch, alpha);
	if (l.v != V_WORSE) {
		b->outcome = OUT_NOT_REPRODUCED;
		say(b, d,
		    "ends: %s against %s, %zu pairs: %s: not reproduced (%s; "
		    "the smallest change these boots could have seen: %.3g%%)",
		    b->k[x].label, b->k[g].label, l.pairs, t,
		    l.v == V_BETTER ? "better, not worse" : "not different",
		    l.ch.mde_pct);
		return false;
	}
	b->k[x].state = KS_BAD;
	b->threshold =
		isnan(b->o.threshold_pct) ? l.ch.delta / 2 : b->o.threshold_pct;
	say(b, d,
	    "ends: %s against %s, %zu pairs: %s: reproduced; threshold "
	    "%+.3g%%",
	    b->k[x].label, b->k[g].label, l.pairs, t, b->threshold);
	return true;
}

/* Probe kernel K: false while it needs boots. */
static bool decide_probe(struct bisect *b, size_t k, size_t *d,
			 struct action *next)
{
	size_t s = series_get(b, k, b->o.good, PURPOSE_SEARCH);
	/*
	 * A probe's interval at its own level: a wrong state needs a change
	 * past the threshold, half-way to the ends' change, and the
	 * validation stands between a wrong state and a claimed culprit.
	 */
	double alpha = decide_alpha(&b->o) * b->o.probe_alpha / b->o.alpha;
	const char *why;
	struct look l;
	char t[200];

	look_alpha(b, s, RULE_THRESHOLD, alpha, &l, next);
	b->k[k].ch = l.ch;
	b->k[k].pairs = l.pairs;
	if (l.v == V_MORE)
		return false;
	if (l.v == V_FAILED) {
		skip(b, failed_kernel(b, &l), l.failed);
		say(b, d, "%s: skipped (%s)", b->k[k].label,
		    b->k[failed_kernel(b, &l)].reason);
		if (failed_kernel(b, &l) == b->o.good)
			b->outcome = OUT_RANGE;
		return true;
	}
	if (l.v == V_BAD) {
		b->k[k].state = KS_BAD;
		b->hi = k;
		why = "the interval is above the threshold";
	} else if (l.v == V_GOOD) {
		b->k[k].state = KS_GOOD;
		b->lo = k;
		why = "the interval is below the threshold";
	} else {
		b->k[k].state = KS_UNKNOWN;
		why = "the interval holds the threshold at --max-pairs";
	}
	ch_text(t, sizeof(t), &l.ch, alpha);
	say(b, d, "%s: %zu pairs against %s: %s: %s (%s %+.3g%%)",
	    b->k[k].label, l.pairs, b->k[b->o.good].label, t,
	    kstate_name[b->k[k].state], why, b->threshold);
	return true;
}

/* The pairs of kernel K against the good end into new arrays. */
static size_t probe_pairs(struct bisect *b, size_t k, double **a, double **v)
{
	size_t s = series_get(b, k, b->o.good, PURPOSE_SEARCH);

	*a = xcalloc(b->o.max_pairs + 1, sizeof(**a));
	*v = xcalloc(b->o.max_pairs + 1, sizeof(**v));
	return series_pairs(b, s, *a, *v);
}

/* The tested kernels around the boundary, hi against lo. */
static void decide_boundary(struct bisect *b)
{
	double *a1, *v1, *a2, *v2;
	size_t n1, n2;

	if (b->lo == b->o.good) {
		b->boundary = b->k[b->hi].ch;
		return;
	}
	n1 = probe_pairs(b, b->lo, &a1, &v1);
	n2 = probe_pairs(b, b->hi, &a2, &v2);
	b->boundary = cmp_pairs_between(b->o.metric, a1, v1, n1, a2, v2, n2,
					decide_alpha(&b->o));
	free(a1);
	free(v1);
	free(a2);
	free(v2);
}

/* The kernels between lo and hi and why, for a range. */
static void say_range(struct bisect *b, size_t *d)
{
	char *why = xstrdup(""), *t;
	size_t i;

	for (i = b->lo + 1; i < b->hi; i++) {
		t = xasprintf("%s%s%s %s", why, *why ? ", " : "", b->k[i].label,
			      kstate_name[b->k[i].state]);
		free(why);
		why = t;
	}
	say(b, d, "range: the culprit is one of %s .. %s (%s)",
	    b->k[b->lo + 1].label, b->k[b->hi].label, why);
	free(why);
}

/* Validate the culprit against its predecessor in fresh pairs. */
static void decide_validation(struct bisect *b, size_t *d, struct action *next)
{
	size_t c = (size_t)b->culprit;
	size_t s = series_get(b, c, b->lo, PURPOSE_VALIDATE);
	double alpha = decide_alpha(&b->o);
	struct look l;
	char t[200];

	b->val_series = (long)s;
	look_at(b, s, RULE_DIFFERENT, &l, next);
	b->val = l.ch;
	if (l.v == V_MORE)
		return;
	b->outcome = OUT_FOUND;
	if (l.v == V_FAILED) {
		b->validation = VAL_NOT_VALIDATED;
		say(b, d, "validation: %s did not boot (%s): not validated",
		    b->k[failed_kernel(b, &l)].label,
		    l.failed->reason ? l.failed->reason : "failed");
		return;
	}
	b->validation = l.v == V_WORSE ? VAL_VALIDATED : VAL_NOT_VALIDATED;
	ch_text(t, sizeof(t), &l.ch, alpha);
	say(b, d, "validation: %s against %s, %zu fresh pairs: %s: %s",
	    b->k[c].label, b->k[b->lo].label, l.pairs, t,
	    b->validation == VAL_VALIDATED ? "validated" : "not validated");
}

/*
 * Git mode: the bad end with the culprit reverted against the bad end, in
 * fresh pairs: better and significant, the regression went away.
 */
static void decide_revert(struct bisect *b, size_t *d, struct action *next)
{
	size_t s, c = (size_t)b->culprit;
	double alpha = decide_alpha(&b->o);
	struct look l;
	char t[200];

	if (!b->o.git || b->validation != VAL_VALIDATED)
		return;
	if (b->revert_why) {
		say(b, d, "revert: %s", b->revert_why);
		return;
	}
	if (b->revert < 0) {
		next->revert = true;
		return;
	}
	s = series_get(b, (size_t)b->revert, b->o.bad, PURPOSE_VALIDATE);
	look_at(b, s, RULE_DIFFERENT, &l, next);
	b->revert_ch = l.ch;
	b->k[b->revert].ch = l.ch;
	b->k[b->revert].pairs = l.pairs;
	if (l.v == V_MORE)
		return;
	b->revert_state = l.v == V_BETTER ? VAL_VALIDATED : VAL_NOT_VALIDATED;
	if (l.v == V_FAILED) {
		say(b, d, "revert: %s did not boot: not validated",
		    b->k[b->revert].label);
		return;
	}
	ch_text(t, sizeof(t), &l.ch, alpha);
	say(b, d,
	    "revert: %s (%s reverted on %s) against %s, %zu fresh "
	    "pairs: %s: %s",
	    b->k[b->revert].label, b->k[c].label, b->k[b->o.bad].label,
	    b->k[b->o.bad].label, l.pairs, t,
	    b->revert_state == VAL_VALIDATED ? "revert validated"
					     : "not validated");
}

/* Forget what the last call decided (the boots and series stay). */
static void decide_reset(struct bisect *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		b->k[i].state = KS_UNTESTED;
		b->k[i].ch = (struct change)CHANGE_UNTESTED;
		b->k[i].pairs = 0;
		free(b->k[i].reason);
		b->k[i].reason = NULL;
	}
	b->k[b->o.good].state = KS_GOOD;
	b->outcome = OUT_RUNNING;
	b->ends = b->boundary = b->val = (struct change)CHANGE_UNTESTED;
	b->threshold = NAN;
	b->lo = b->o.good;
	b->hi = b->o.bad;
	b->culprit = -1;
	b->validation = VAL_NONE;
	b->val_series = -1;
	b->revert_state = VAL_NONE;
	b->revert_ch = (struct change)CHANGE_UNTESTED;
}

/*
 * Catch mode: each step between neighbours, from the good end to the bad,
 * tested in pairs of its two kernels until different or the cap, at
 * alpha / L / steps a look (corrected for the number of steps); a kernel
 * is bad when the step to it is worse, good otherwise.
 */
static void decide_all(struct bisect *b, size_t *d, struct action *next)
{
	size_t i, steps = b->o.bad - b->o.good, worse = 0;
	double alpha = decide_alpha(&b->o) / (double)steps;
	struct look l;
	char t[200];

	for (i = b->o.good + 1; i <= b->o.bad; i++) {
		size_t s = series_get(b, i, i - 1, PURPOSE_SEARCH);

		look_alpha(b, s, RULE_DIFFERENT, alpha, &l, next);
		b->k[i].ch = l.ch;
		b->k[i].pairs = l.pairs;
		if (l.v == V_MORE)
			return;
		if (l.v == V_FAILED) {
			skip(b, failed_kernel(b, &l), l.failed);
			say(b, d, "%s: skipped (%s)", b->k[i].label,
			    b->k[failed_kernel(b, &l)].reason);
			continue;
		}
		b->k[i].state = l.v == V_WORSE ? KS_BAD : KS_GOOD;
		worse += l.v == V_WORSE;
		ch_text(t, sizeof(t), &l.ch, alpha);
		say(b, d, "step %s -> %s, %zu pairs: %s: %s", b->k[i - 1].label,
		    b->k[i].label, l.pairs, t,
		    l.v == V_WORSE    ? "worse"
		    : l.v == V_BETTER ? "better"
				      : "not different");
	}
	b->outcome = OUT_CAUGHT;
	say(b, d, "catch: %zu of %zu steps worse", worse, steps);
}

void decide(struct bisect *b, struct action *next)
{
	size_t d = 0;
	long k;

	memset(next, 0, sizeof(*next));
	decide_reset(b);
	if (b->o.all) {
		decide_all(b, &d, next);
		return;
	}
	if (!decide_ends(b, &d, next))
		return;
	while ((k = candidate(b)) >= 0) {
		if (!decide_probe(b, (size_t)k, &d, next))
			return;
		if (b->outcome == OUT_RANGE)
			return;
	}
	decide_boundary(b);
	if (b->hi != b->lo + 1) {
		b->outcome = OUT_RANGE;
		say_range(b, &d);
		return;
	}
	b->culprit = (long)b->hi;
	decide_validation(b, &d, next);
	if (!next->boot)
		decide_revert(b, &d, next);
}

void bisect_release(struct bisect *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		free(b->k[i].label);
		free(b->k[i].kernel);
		free(b->k[i].cmdline);
		free(b->k[i].reason);
	}
	for (i = 0; i < b->n_boots; i++) {
		free(b->boots[i].dir);
		free(b->boots[i].reason);
	}
	for (i = 0; i < b->n_dec; i++)
		free(b->dec[i].line);
	free(b->revert_why);
	free(b->k);
	free(b->series);
	free(b->boots);
	free(b->dec);
}
