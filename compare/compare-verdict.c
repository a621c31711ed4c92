// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The headline of a comparison, the line a kernel developer quotes:
 *
 *	6.2-rc1 vs 6.1: elapsed +38.2% (p 0.003, significant); also
 *	changed: majflt +430%, pswpin +210%
 *
 * A verdict states its own resolution: "no significant change" always
 * comes with the smallest change the comparison could have seen, and the
 * notes under it say how the spread between boots was taken into account,
 * or that it was not.
 */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/xalloc.h"
#include "compare/compare.h"

/* A string written with stdio; memstream_close() hands it over. */
static FILE *memstream_open(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f)
		xalloc_die();
	return f;
}

static char *memstream_close(FILE *f, char **buf)
{
	/* fclose() sets *BUF: read it only after. */
	if (fclose(f))
		xalloc_die();
	return *buf;
}

/* A change as the headline says it: "+38.2%", "+430%", "+2". */
static void add_delta(FILE *l, double d, enum change_kind kind)
{
	if (isnan(d))
		fprintf(l, "-");
	else if (kind == CHANGE_DIFF)
		fprintf(l, d == floor(d) ? "%+.0f" : "%+.1f", d);
	else
		fprintf(l, fabs(d) < 100 ? "%+.1f%%" : "%+.0f%%", d);
}

static void add_p(FILE *l, double p)
{
	if (p < 0.0001)
		fprintf(l, "p < 0.0001");
	else
		fprintf(l, "p %.2g", p);
}

/* Before the N-th changed figure: the list's head, or a comma. */
static void list_sep(FILE *v, size_t n, bool elapsed_changed)
{
	if (n)
		fputs(", ", v);
	else
		fputs(elapsed_changed ? "; also changed: " : "; changed: ", v);
}

struct holm_test {
	double p;
	int fig;  /* enum fig, or -1 for a high-order order */
	size_t k; /* the order's index in l->ho */
	double pp;
};

static int holm_cmp(const void *a, const void *b)
{
	double x = ((const struct holm_test *)a)->p;
	double y = ((const struct holm_test *)b)->p;

	return x < y ? -1 : x > y;
}

void cmp_changed_find(const struct cmp_label *base, const struct cmp_label *l,
		      double alpha, struct cmp_changed *out)
{
	struct holm_test t[FIG_COUNT + 64];
	bool fig_on[FIG_COUNT] = { false };
	bool ho_on[64] = { false };
	size_t m = 0, i, k;
	int f;

	memset(out, 0, sizeof(*out));
	for (f = 0; f < FIG_COUNT; f++) {
		struct change c;

		/* The lead figures are tested at alpha; the machine's are
		 * said in words. */
		if (f == FIG_ELAPSED || f == FIG_EPU || f == FIG_ERPU ||
		    fig_desc[f].machine || fig_desc[f].change == CHANGE_NONE)
			continue;
		c = cmp_change(base, l, (enum fig)f, alpha);
		if (isnan(c.p))
			continue;
		t[m++] = (struct holm_test){ c.p, f, 0, 0 };
	}
	for (k = 0; k < l->n_ho && k < 64; k++) {
		struct cmp_ho_change c = cmp_ho_change(base, &l->ho[k], alpha);

		if (!c.tested || isnan(c.p))
			continue;
		t[m++] = (struct holm_test){ c.p, -1, k, c.diff_pp };
	}
	out->tests = m;
	qsort(t, m, sizeof(*t), holm_cmp);
	for (i = 0; i < m && t[i].p < alpha / (double)(m - i); i++) {
		if (t[i].fig >= 0)
			fig_on[t[i].fig] = true;
		else
			ho_on[t[i].k] = true;
	}
	for (f = 0; f < FIG_COUNT; f++)
		if (fig_on[f])
			out->fig[out->n_fig++] = f;
	for (k = 0; k < l->n_ho && k < 64; k++)
		if (ho_on[k]) {
			out->ho_order[out->n_ho] = l->ho[k].order;
			out->ho_diff_pp[out->n_ho++] =
				cmp_ho_change(base, &l->ho[k], alpha).diff_pp;
		}
}

enum fig cmp_lead(const struct cmp_label *base, const struct cmp_label *l)
{
	return !isnan(base->fig[FIG_EPU].value) && !isnan(l->fig[FIG_EPU].value)
		       ? FIG_EPU
		       : FIG_ELAPSED;
}

/*
 * How much more the rest of the machine did on one side, and whether that
 * is enough to name: a significantly longer wait for a CPU by 1% of the
 * baseline's elapsed time or more (and 50 ms at least), or significantly
 * more CPU used by other processes by 10% of it or more (a tenth of a CPU
 * over the run; 250 ms at least, as the snapshots around a run also hold
 * its start).
 */
static bool more_busy(const struct cmp_label *base, const struct cmp_label *l,
		      double alpha, double elapsed)
{
	struct change q = cmp_change(base, l, FIG_RUNQ, alpha);
	struct change o = cmp_change(base, l, FIG_OTHERS, alpha);
	double dq = l->fig[FIG_RUNQ].value - base->fig[FIG_RUNQ].value;
	double d_o = l->fig[FIG_OTHERS].value - base->fig[FIG_OTHERS].value;

	return (q.significant && dq >= fmax(0.01 * elapsed, 0.05)) ||
	       (o.significant && d_o >= fmax(0.10 * elapsed, 0.25));
}

const struct cmp_label *cmp_machine_busier(const struct cmp_label *base,
					   const struct cmp_label *l,
					   double alpha)
{
	double e = base->fig[FIG_ELAPSED].value;

	if (!(e > 0))
		return NULL;
	if (more_busy(base, l, alpha, e))
		return l;
	if (more_busy(l, base, alpha, e))
		return base;
	return NULL;
}

/*
 * A tenth of a CPU more on average, the size of the rule for other
 * processes inside the machine.  The host's figures are written with 3
 * decimals: a difference of 0.10 as written may be a hair less in binary.
 */
#define HOST_BUSIER_CPUS (0.10 - 1e-9)
/* A result whose host's other processes used this many CPUs gets a note. */
#define HOST_BUSY_CPUS (0.25 - 1e-9)

const struct cmp_label *cmp_host_busier(const struct cmp_label *base,
					const struct cmp_label *l)
{
	double d = l->host_others_cpus - base->host_others_cpus;

	/* NaN (a result without vm.host) compares false both ways. */
	if (d >= HOST_BUSIER_CPUS)
		return l;
	if (-d >= HOST_BUSIER_CPUS)
		return base;
	return NULL;
}

const struct cmp_label *cmp_busier(const struct cmp_label *base,
				   const struct cmp_label *l, double alpha)
{
	const struct cmp_label *m = cmp_machine_busier(base, l, alpha);

	return m ? m : cmp_host_busier(base, l);
}

/* "3.12 s" or "-". */
static void add_s(FILE *v, double s)
{
	if (isnan(s))
		fputs("-", v);
	else
		fprintf(v, "%.2f s", s);
}

/* The host's load of BUSY against the other side's, in CPUs. */
static void add_host_load(FILE *v, const struct cmp_label *base,
			  const struct cmp_label *l,
			  const struct cmp_label *busy)
{
	const struct cmp_label *calm = busy == l ? base : l;

	fprintf(v,
		" (other host processes used %.2f CPUs while its guests ran, "
		"against %.2f)",
		busy->host_others_cpus, calm->host_others_cpus);
}

/*
 * The busier side named, with the figures that say so: the machine's
 * own, the host's, or both (the host's after the machine's).
 */
static void add_busier(FILE *v, const struct cmp_label *base,
		       const struct cmp_label *l, double alpha)
{
	const struct cmp_label *busy = cmp_machine_busier(base, l, alpha);
	const struct cmp_label *host = cmp_host_busier(base, l);
	const struct cmp_label *calm = busy == l ? base : l;

	if (!busy && !host)
		return;
	if (!busy) {
		fprintf(v, "the host was busier on %s", host->label);
		add_host_load(v, base, l, host);
		fputs(": not judged as a kernel change; ", v);
		return;
	}
	fprintf(v, "the machine was busier on %s (other processes' CPU ",
		busy->label);
	add_s(v, busy->fig[FIG_OTHERS].value);
	fputs(" a run against ", v);
	add_s(v, calm->fig[FIG_OTHERS].value);
	fputs(", fake-gitk's wait for a CPU ", v);
	add_s(v, busy->fig[FIG_RUNQ].value);
	fputs(" against ", v);
	add_s(v, calm->fig[FIG_RUNQ].value);
	fputc(')', v);
	if (host == busy) {
		fputs(", and so was its host", v);
		add_host_load(v, base, l, host);
	} else if (host) {
		fprintf(v, ", and the host on %s", host->label);
		add_host_load(v, base, l, host);
	}
	fputs(": not judged as a kernel change; ", v);
}

/* " (95% CI +1.2..+3.4%, p 0.003, significant)" and the like. */
static void add_test(FILE *v, const struct change *e, bool ci)
{
	if (e->test == TEST_NONE) {
		fprintf(v, isnan(e->delta) ? " (not on one side)"
					   : " (not tested: too few runs)");
		return;
	}
	fprintf(v, " (");
	if (ci && !isnan(e->ci_lo))
		fprintf(v, "95%% CI %+.1f..%+.1f%%, ", e->ci_lo, e->ci_hi);
	add_p(v, e->p);
	if (e->significant)
		fprintf(v, ", significant)");
	else if (isnan(e->mde_pct))
		fprintf(v, ", no significant change)");
	else
		fprintf(v,
			", no significant change; could have seen >= "
			"%.1f%%)",
			e->mde_pct);
}

/*
 * Where fake-gitk waited for a CPU for 5% of its elapsed time or more on
 * either side, elapsed per user-CPU second without that wait beside:
 * dividing by user CPU removes the host's speed, not the other work the
 * machine ran meanwhile (a run of 15 s with 9 s of it waiting for a CPU
 * hid the +20% of page-cluster 0 behind its spread).  The wait may also
 * be the kernel's own threads, so it is said beside, never instead.
 */
bool cmp_without_runq(const struct cmp_label *base, const struct cmp_label *l,
		      double alpha)
{
	return cmp_change(base, l, FIG_ERPU, alpha).test != TEST_NONE &&
	       (base->fig[FIG_RUNQ].value >=
			0.05 * base->fig[FIG_ELAPSED].value ||
		l->fig[FIG_RUNQ].value >= 0.05 * l->fig[FIG_ELAPSED].value);
}

static void add_without_runq(FILE *v, const struct cmp_label *base,
			     const struct cmp_label *l, double alpha)
{
	struct change c = cmp_change(base, l, FIG_ERPU, alpha);

	if (!cmp_without_runq(base, l, alpha))
		return;
	fputs(", without the wait for a CPU ", v);
	add_delta(v, c.delta, CHANGE_PCT);
	add_test(v, &c, true);
}

char *cmp_verdict(const struct cmp_label *base, const struct cmp_label *l,
		  double alpha)
{
	struct cmp_changed ch;
	enum fig lead = cmp_lead(base, l);
	struct change e = cmp_change(base, l, lead, alpha);
	struct change u = cmp_change(base, l, FIG_USER, alpha);
	char *buf = NULL;
	size_t len = 0;
	FILE *v = memstream_open(&buf, &len);
	size_t changed = 0, k;
	bool lead_changed = e.significant;
	int f;

	fprintf(v, "%s%s vs %s%s", l->label, l->partial ? " [partial]" : "",
		base->label, base->partial ? " [partial]" : "");
	if (e.test == TEST_PAIRED || e.test == TEST_PAIRED_BOOTS)
		fprintf(v, " (%s, %zu pairs)",
			e.test == TEST_PAIRED ? "paired" : "paired boots",
			e.pairs);
	fputs(": ", v);
	add_busier(v, base, l, alpha);
	fputs(lead == FIG_EPU ? "elapsed per user-CPU second " : "elapsed ", v);
	add_delta(v, e.delta, CHANGE_PCT);
	add_test(v, &e, lead == FIG_EPU);
	if (lead == FIG_EPU) {
		struct change r = cmp_change(base, l, FIG_ELAPSED, alpha);

		fputs(", raw elapsed ", v);
		add_delta(v, r.delta, CHANGE_PCT);
		if (r.test != TEST_NONE) {
			fputs(" (", v);
			add_p(v, r.p);
			fputs(r.significant ? ", significant)" : ")", v);
		}
		lead_changed |= r.significant;
		add_without_runq(v, base, l, alpha);
	}
	if (u.significant) {
		fputs("; user CPU ", v);
		add_delta(v, u.delta, CHANGE_PCT);
		fputs(" (", v);
		add_p(v, u.p);
		/*
		 * The pairs of an interleaved run share the host's speed;
		 * boots minutes apart mostly, not always.
		 */
		if (e.test == TEST_PAIRED)
			fputs("): the knob changed user-space cost (the pairs "
			      "shared the machine's speed); raw elapsed is not "
			      "comparable on its own",
			      v);
		else if (e.test == TEST_PAIRED_BOOTS)
			fputs("): the kernel changed user-space cost, or the "
			      "host's speed moved within pairs; raw elapsed is "
			      "not comparable on its own",
			      v);
		else
			fputs("): the machines (or boots) ran at different "
			      "speeds, or the kernel changed user-space cost; "
			      "raw elapsed is not comparable on its own",
			      v);
		/*
		 * A virtual machine's host slows kernel work (faults, swap
		 * I/O: exits to the host) more than user work: measured
		 * here, user CPU -19.2% moved elapsed per user-CPU second
		 * -4.4% in an A/A pair.  Pairs share the host's speed.
		 */
		if (lead == FIG_EPU && e.test != TEST_PAIRED &&
		    e.test != TEST_PAIRED_BOOTS)
			fputs(", and a host's speed moves elapsed per "
			      "user-CPU second too, less (a virtual machine's "
			      "kernel work slows more than its user work): "
			      "judge on several results a side, or in pairs "
			      "(an interleaved run for a knob, latency-vm's "
			      "paired boots for two kernels)",
			      v);
	}
	cmp_changed_find(base, l, alpha, &ch);
	for (k = 0; k < ch.n_fig; k++) {
		f = ch.fig[k];
		list_sep(v, changed++, lead_changed);
		fprintf(v, "%s ", fig_desc[f].name);
		add_delta(v, cmp_change(base, l, (enum fig)f, alpha).delta,
			  fig_desc[f].change);
	}
	/* High-order success rates, in percentage points. */
	for (k = 0; k < ch.n_ho; k++) {
		list_sep(v, changed++, lead_changed);
		fprintf(v, "order-%u success %+.1f pp", ch.ho_order[k],
			ch.ho_diff_pp[k]);
	}
	return memstream_close(v, &buf);
}

/* A spread in percent into BUF, "-" when unknown. */
static const char *pct(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f%%", v);
	return buf;
}

/* "3 results" or "1 result". */
static const char *results(size_t n)
{
	return n == 1 ? "result" : "results";
}

void cmp_notes_add(struct cmp_notes *no, const char *fmt, ...)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = memstream_open(&buf, &len);
	va_list ap;

	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	no->line = xreallocarray(no->line, no->n + 1, sizeof(*no->line));
	no->line[no->n++] = memstream_close(f, &buf);
}

void cmp_notes_release(struct cmp_notes *no)
{
	while (no->n)
		free(no->line[--no->n]);
	free(no->line);
	no->line = NULL;
}

static void setup_note(void *ctx, const struct cmp_setup_diff *d)
{
	char *s;

	/* Those within the label are said once, not under each verdict. */
	if (d->la == d->lb)
		return;
	s = cmp_setup_text(d);
	cmp_notes_add(ctx, "%s", s);
	free(s);
}

/* The first pair of results of BASE and L pressed differently, if any. */
static void pressure_note(const struct cmp_label *base,
			  const struct cmp_label *l, struct cmp_notes *no)
{
	char a[64], b[64];
	size_t i, j;

	for (i = 0; i < base->n; i++) {
		for (j = 0; j < l->n; j++) {
			const struct cmp_pressure *pb = &base->r[i]->pressure;
			const struct cmp_pressure *pl = &l->r[j]->pressure;

			if (!cmp_pressure_differs(pb, pl))
				continue;
			cmp_notes_add(
				no,
				"pressure differs: %s ran with %s, %s "
				"with %s",
				base->label, cmp_pressure_str(a, sizeof(a), pb),
				l->label, cmp_pressure_str(b, sizeof(b), pl));
			return;
		}
	}
}

/* The anonymous share of the pages L reclaimed, percent (NaN: unknown). */
static double anon_share(const struct cmp_label *l)
{
	double a = l->fig[FIG_PGSTEAL_ANON].value;
	double f = l->fig[FIG_PGSTEAL_FILE].value;

	return a + f > 0 ? 100 * a / (a + f) : NAN;
}

/*
 * Where one side reclaimed significantly more from one list and less from
 * the other, the kernel balanced swapping against dropping the page cache
 * differently: said in words, since under global pressure one kernel
 * varies that split between runs and holds it for stretches of them (the
 * summaries' "reclaim split" shows it).
 */
static void split_note(const struct cmp_label *base, const struct cmp_label *l,
		       struct cmp_notes *no)
{
	struct change a = cmp_change(base, l, FIG_PGSTEAL_ANON, 0.05);
	struct change f = cmp_change(base, l, FIG_PGSTEAL_FILE, 0.05);

	if (!a.significant || !f.significant || (a.delta > 0) == (f.delta > 0))
		return;
	cmp_notes_add(no,
		      "reclaim split differs: %s took %.1f%% of its "
		      "reclaimed pages from anonymous memory, %s %.1f%% "
		      "(pgsteal_anon %+.1f%%, pgsteal_file %+.1f%%): the "
		      "kernel traded swapping for dropping the page cache "
		      "differently, and one kernel can settle on either "
		      "split from run to run (see each result's reclaim "
		      "split)",
		      l->label, anon_share(l), base->label, anon_share(base),
		      a.delta, f.delta);
}

/*
 * How two labels' boots were paired, or why they were not, where both
 * are boots of a series.
 */
static void boots_note(const struct cmp_label *base, const struct cmp_label *l,
		       struct cmp_notes *no)
{
	struct cmp_boot_pairs bp;
	const struct cmp_boots *s;

	cmp_boot_pairs(base, l, &bp);
	s = bp.series;
	switch (bp.why) {
	case BOOTS_NONE:
		break;
	case BOOTS_PAIRED:
		cmp_notes_add(no,
			      "paired boots: %zu pairs of %s and %s booted in "
			      "turn (series %s, order %s, seed %.0f): each "
			      "pair's boots share the host's speed of their "
			      "time",
			      bp.pairs, bp.arm_a->label, bp.arm_b->label,
			      s->series, s->order, s->seed);
		if (bp.dropped)
			cmp_notes_add(no,
				      "%zu %s left out: only one of %s boots "
				      "is among the results",
				      bp.dropped,
				      bp.dropped == 1 ? "pair" : "pairs",
				      bp.dropped == 1 ? "its" : "their");
		break;
	case BOOTS_FEW:
		cmp_notes_add(no,
			      "boots not paired: %zu complete %s of series "
			      "%s, 2 needed",
			      bp.pairs, bp.pairs == 1 ? "pair" : "pairs",
			      s->series);
		break;
	case BOOTS_SERIES:
		cmp_notes_add(no,
			      "boots not paired: the results of %s and %s "
			      "are not of one series",
			      base->label, l->label);
		break;
	case BOOTS_ARMS:
		cmp_notes_add(no,
			      "boots not paired: the results of %s and %s "
			      "are not one arm each of series %s",
			      base->label, l->label, s->series);
		break;
	case BOOTS_TWICE:
		cmp_notes_add(no,
			      "boots not paired: pair %zu of series %s is "
			      "twice among the results of one label",
			      bp.twice, s->series);
		break;
	}
}

void cmp_verdict_notes(const struct cmp_label *base, const struct cmp_label *l,
		       struct cmp_notes *no)
{
	struct change e = cmp_change(base, l, FIG_ELAPSED, 0.05);
	const struct cmp_label *many = base->n > 1 ? base : l;
	char a[64], b[64], c[32], d[32];

	switch (e.test) {
	case TEST_RUNS:
	case TEST_NONE:
		/* Said once for all: cmp_spread_note(). */
		break;
	case TEST_RESULTS:
		cmp_notes_add(no,
			      "judged on result means (%zu %s of %s, %zu of "
			      "%s): cv between results %s and %s, within %s "
			      "and %s",
			      base->fig[FIG_ELAPSED].n,
			      results(base->fig[FIG_ELAPSED].n), base->label,
			      l->fig[FIG_ELAPSED].n, l->label,
			      pct(a, sizeof(a), base->between_cv),
			      pct(b, sizeof(b), l->between_cv),
			      pct(c, sizeof(c), base->fig[FIG_CV].value),
			      pct(d, sizeof(d), l->fig[FIG_CV].value));
		break;
	case TEST_SPREAD:
		cmp_notes_add(no,
			      "judged against the spread between the %zu "
			      "results of %s (%s has one: give it >= 2 to test "
			      "both)",
			      many->fig[FIG_ELAPSED].n, many->label,
			      many == base ? l->label : base->label);
		break;
	case TEST_PAIRED:
		cmp_notes_add(no,
			      "paired: the two arms of one interleaved run "
			      "(%s=%s, order %s): each pair's runs share the "
			      "machine's speed of that moment",
			      base->r[0]->il.name, base->r[0]->il.values,
			      base->r[0]->il.order);
		break;
	case TEST_PAIRED_BOOTS:
		/* Said below, with the pairs left out. */
		break;
	}
	boots_note(base, l, no);
	pressure_note(base, l, no);
	split_note(base, l, no);
	cmp_setup_each(base, l, setup_note, no);
}

void cmp_host_notes(const struct cmp_label *l, struct cmp_notes *no)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct cmp_host *h = &l->r[i]->host;

		if (h->on && h->others_cpus >= HOST_BUSY_CPUS)
			cmp_notes_add(no,
				      "the host was busy while %s ran: other "
				      "processes used %.2f of its %.0f %s "
				      "(see vm.host)",
				      cmp_result_name(l->r[i]), h->others_cpus,
				      h->cpus, h->cpus == 1 ? "CPU" : "CPUs");
	}
}

const char *cmp_spread_note(const struct cmp_label *l, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (l[0].n == 1 && l[i].n == 1 && l[0].has_run &&
		    l[i].has_run && cmp_pairing(&l[0], &l[i]) == PAIRING_NONE)
			return "between-boot spread unknown (one result per "
			       "label): give >= 2 results per label (3 "
			       "recommended)";
	return NULL;
}
