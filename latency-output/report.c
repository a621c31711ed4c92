// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report: every gap is kept, so percentiles and the maximum are exact
 * (nearest rank on the sorted series) and the histogram needs no bucket
 * approximation.  The histogram is shown both by number of gaps and by the
 * time spent in them, so one long stall is never lost among thousands of
 * short gaps.  Text for people, JSON (doc/design.md, contract 4) and CSV for
 * tools.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hist.h"
#include "lib/output.h"
#include "lib/stats.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "latency-output/latout.h"

#define BAR_WIDTH 20

/*
 * The radix sort clears 65536 counters per pass: many small groups (--by)
 * sort faster this way.
 */
#define SMALL_SORT 256

static void insertion_sort(uint64_t *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		uint64_t x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

int lo_summarise(uint64_t *gaps, size_t n, uint64_t stall_threshold_ns,
		 struct lo_summary *o)
{
	unsigned __int128 sum = 0;
	double mean, acc = 0;
	unsigned d = 0;
	size_t i;

	memset(o, 0, sizeof(*o));
	o->gaps = n;
	if (!n)
		return 0;
	if (n < SMALL_SORT)
		insertion_sort(gaps, n);
	else if (stats_sort_u64(gaps, n))
		return -ENOMEM;
	/* Sorted, the display bucket only ever moves up. */
	for (i = 0; i < n; i++) {
		while (d < HIST_R10_EDGES && gaps[i] > hist_r10_edges[d])
			d++;
		sum += gaps[i];
		o->hist_count[d]++;
		o->hist_ns[d] += gaps[i];
		if (gaps[i] > stall_threshold_ns) {
			o->stall_count++;
			o->stall_time_ns += gaps[i];
		}
	}
	/* Two passes: the variance of many equal gaps comes out exactly 0. */
	mean = (double)sum / (double)n;
	for (i = 0; i < n; i++) {
		double dev = (double)gaps[i] - mean;

		acc += dev * dev;
	}
	o->mean_s = mean / 1e9;
	o->stddev_s = n > 1 ? sqrt(acc / (double)(n - 1)) / 1e9 : 0.0;
	o->p50 = stats_percentile_u64(gaps, n, 50.0);
	o->p90 = stats_percentile_u64(gaps, n, 90.0);
	o->p99 = stats_percentile_u64(gaps, n, 99.0);
	o->p999 = stats_percentile_u64(gaps, n, 99.9);
	o->max = gaps[n - 1];
	return 0;
}

/* Label of a group: its --by value, or "(none)" for lines without it. */
static const char *group_label(const struct lo_series *g)
{
	return g->name ? g->name : "(none)";
}

/*
 * The gaps of group I to sort: the group's own array when the report may
 * consume it (*OWNED false), else a copy.
 */
static uint64_t *gaps_to_sort(const struct lo_report *r, size_t i, bool *owned)
{
	const struct lo_series *g = r->st->groups[i];
	uint64_t *copy;

	*owned = !r->consume;
	if (r->consume)
		return g->gaps;
	copy = xmalloc((g->n ? g->n : 1) * sizeof(*copy));
	if (g->n)
		memcpy(copy, g->gaps, g->n * sizeof(*copy));
	return copy;
}

struct lo_summary *lo_summarise_all(const struct lo_report *r, size_t *n)
{
	const struct lo_state *st = r->st;
	size_t i, total = 0, k = 0, ng = st->cfg.by ? st->ngroups : 0;
	struct lo_summary *sum = xcalloc(ng + 1, sizeof(*sum));
	bool owned = true;
	uint64_t *all;
	int ret = 0;

	for (i = 0; i < st->ngroups; i++)
		total += st->groups[i]->n;
	if (st->ngroups == 1) {
		/* The common case: one series, sorted where it lies. */
		all = gaps_to_sort(r, 0, &owned);
	} else {
		all = xmalloc((total ? total : 1) * sizeof(*all));
		for (i = 0; i < st->ngroups; i++) {
			const struct lo_series *g = st->groups[i];

			if (g->n)
				memcpy(all + k, g->gaps, g->n * sizeof(*all));
			k += g->n;
		}
	}
	for (i = 0; i < ng && !ret; i++) {
		const struct lo_series *g = st->groups[i];
		bool own;
		uint64_t *gaps = gaps_to_sort(r, i, &own);

		ret = lo_summarise(gaps, g->n, r->stall_threshold_ns, &sum[i]);
		if (own)
			free(gaps);
		sum[i].name = group_label(g);
		sum[i].lines = g->lines;
		sum[i].malformed = g->malformed;
	}
	if (!ret)
		ret = lo_summarise(all, total, r->stall_threshold_ns, &sum[ng]);
	if (owned)
		free(all);
	if (ret) {
		free(sum);
		return NULL;
	}
	sum[ng].name = "all";
	sum[ng].lines = st->lines;
	for (i = 0; i < LO_BAD_NR; i++)
		sum[ng].malformed += st->malformed[i];
	*n = ng + 1;
	return sum;
}

/* Seconds for the text report: microseconds at least. */
static const char *secs(char *buf, uint64_t ns, unsigned decimals)
{
	size_t n = lo_fmt_col(buf, (int64_t)ns, decimals < 6 ? 6 : decimals, 0);

	buf[n] = '\0';
	return buf;
}

static void bar(FILE *f, uint64_t v, uint64_t max)
{
	unsigned w = 0, i;

	if (max)
		w = (unsigned)((v * (double)BAR_WIDTH + max / 2) / max);
	if (v && !w)
		w = 1; /* nothing seen is ever drawn as nothing */
	for (i = 0; i < BAR_WIDTH; i++)
		fputc(i < w ? '#' : ' ', f);
}

static void text_histogram(FILE *f, const struct lo_summary *s, unsigned dec)
{
	uint64_t max_c = 0, max_t = 0, all_t = 0;
	unsigned i, first = HIST_R10_N, last = 0;
	char b[64], lab[24];

	for (i = 0; i < HIST_R10_N; i++) {
		if (!s->hist_count[i])
			continue;
		if (first == HIST_R10_N)
			first = i;
		last = i;
		if (s->hist_count[i] > max_c)
			max_c = s->hist_count[i];
		if (s->hist_ns[i] > max_t)
			max_t = s->hist_ns[i];
		all_t += s->hist_ns[i];
	}
	if (first == HIST_R10_N)
		return;
	fprintf(f, "\n%9s %10s  %-*s %6s %14s  %-*s %6s\n", "gap", "count",
		BAR_WIDTH, "by count", "%", "time (s)", BAR_WIDTH, "by time",
		"%");
	for (i = first; i <= last; i++) {
		fprintf(f, "%9s %10llu  ", hist_r10_label(lab, i),
			(unsigned long long)s->hist_count[i]);
		bar(f, s->hist_count[i], max_c);
		fprintf(f, " %5.1f%% %14s  ",
			100.0 * (double)s->hist_count[i] / (double)s->gaps,
			secs(b, s->hist_ns[i], dec));
		bar(f, s->hist_ns[i], max_t);
		fprintf(f, " %5.1f%%\n",
			all_t ? 100.0 * (double)s->hist_ns[i] / (double)all_t
			      : 0.0);
	}
}

static void text_summary(FILE *f, const struct lo_report *r,
			 const struct lo_summary *s)
{
	unsigned d = r->st->cfg.decimals;
	char b[64], t[96];

	fprintf(f, "%-22s %llu\n", "gaps", (unsigned long long)s->gaps);
	if (!s->gaps)
		return;
	fprintf(f, "%-22s %.9f s\n", "mean", s->mean_s);
	fprintf(f, "%-22s %.9f s\n", "stddev", s->stddev_s);
	fprintf(f, "%-22s %s s\n", "p50", secs(b, s->p50, d));
	fprintf(f, "%-22s %s s\n", "p90", secs(b, s->p90, d));
	fprintf(f, "%-22s %s s\n", "p99", secs(b, s->p99, d));
	fprintf(f, "%-22s %s s\n", "p99.9", secs(b, s->p999, d));
	fprintf(f, "%-22s %s s\n", "max", secs(b, s->max, d));
	snprintf(t, sizeof(t), "stalls over %s s",
		 secs(b, r->stall_threshold_ns, d));
	fprintf(f, "%-22s %llu\n", t, (unsigned long long)s->stall_count);
	fprintf(f, "%-22s %s s\n", "time lost in stalls",
		secs(b, s->stall_time_ns, d));
}

static void text_by_table(FILE *f, const struct lo_report *r,
			  const struct lo_summary *sum, size_t n)
{
	unsigned d = r->st->cfg.decimals;
	char b[4][64];
	size_t i;

	fprintf(f, "\nby %s:\n%-16s %10s %10s %10s %14s %14s %14s %7s %14s\n",
		r->st->cfg.by, "value", "lines", "gaps", "malformed", "p50 (s)",
		"p99 (s)", "max (s)", "stalls", "lost (s)");
	for (i = 0; i < n; i++)
		fprintf(f,
			"%-16s %10llu %10llu %10llu %14s %14s %14s %7llu "
			"%14s\n",
			sum[i].name, (unsigned long long)sum[i].lines,
			(unsigned long long)sum[i].gaps,
			(unsigned long long)sum[i].malformed,
			secs(b[0], sum[i].p50, d), secs(b[1], sum[i].p99, d),
			secs(b[2], sum[i].max, d),
			(unsigned long long)sum[i].stall_count,
			secs(b[3], sum[i].stall_time_ns, d));
}

static void text_report(FILE *f, const struct lo_report *r,
			const struct lo_summary *sum, size_t n)
{
	const struct lo_state *st = r->st;
	const struct lo_summary *all = &sum[n - 1];
	int k;

	fprintf(f, "latency-output report (%s)\n", r->source);
	if (r->interrupted)
		fprintf(f, "interrupted by signal %d (%s): partial report\n",
			r->interrupted, strsignal(r->interrupted));
	fprintf(f, "%-22s %llu\n", "lines", (unsigned long long)st->lines);
	fprintf(f, "%-22s %llu", "malformed lines",
		(unsigned long long)all->malformed);
	if (all->malformed) {
		const char *sep = " (";

		for (k = LO_OK + 1; k < LO_BAD_NR; k++) {
			if (!st->malformed[k])
				continue;
			fprintf(f, "%s%s %llu", sep, lo_bad_name(k),
				(unsigned long long)st->malformed[k]);
			sep = ", ";
		}
		fputc(')', f);
	}
	fputc('\n', f);
	text_summary(f, r, all);
	text_histogram(f, all, st->cfg.decimals);
	if (st->cfg.by)
		text_by_table(f, r, sum, n);
}

static void json_histogram(struct json *j, const struct lo_summary *s)
{
	unsigned i;

	json_array_begin(j, "histogram");
	for (i = 0; i < HIST_R10_N; i++) {
		json_object_begin(j, NULL);
		if (i < HIST_R10_EDGES)
			json_ns_as_s(j, "le_s", hist_r10_edges[i]);
		else
			json_null(j, "le_s"); /* above the last edge */
		json_u64(j, "count", s->hist_count[i]);
		json_ns_as_s(j, "time_s", s->hist_ns[i]);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_fields(struct json *j, const struct lo_report *r,
			const struct lo_summary *s)
{
	json_u64(j, "lines", s->lines);
	json_u64(j, "gaps", s->gaps);
	json_double(j, "mean_s", s->mean_s);
	json_double(j, "stddev_s", s->stddev_s);
	json_ns_as_s(j, "p50_s", s->p50);
	json_ns_as_s(j, "p90_s", s->p90);
	json_ns_as_s(j, "p99_s", s->p99);
	json_ns_as_s(j, "p999_s", s->p999);
	json_ns_as_s(j, "max_s", s->max);
	json_ns_as_s(j, "stall_threshold_s", r->stall_threshold_ns);
	json_u64(j, "stall_count", s->stall_count);
	json_ns_as_s(j, "stall_time_s", s->stall_time_ns);
	json_u64(j, "malformed_lines", s->malformed);
	json_histogram(j, s);
}

static void json_report(FILE *f, const struct lo_report *r,
			const struct lo_summary *sum, size_t n)
{
	const struct lo_state *st = r->st;
	struct json j;
	size_t i;
	int k;

	json_init(&j, f, true);
	json_object_begin(&j, NULL);
	json_run_header(&j, r->ri);
	json_str(&j, "source", r->source);
	json_bool(&j, "interrupted", r->interrupted != 0);
	if (r->interrupted)
		json_i64(&j, "signal", r->interrupted);
	json_u64(&j, "decimals", st->cfg.decimals);
	json_object_begin(&j, "malformed");
	for (k = LO_OK + 1; k < LO_BAD_NR; k++)
		json_u64(&j, lo_bad_id(k), st->malformed[k]);
	json_object_end(&j);
	json_fields(&j, r, &sum[n - 1]);
	if (st->cfg.by) {
		json_str(&j, "by", st->cfg.by);
		json_array_begin(&j, "groups");
		for (i = 0; i + 1 < n; i++) {
			json_object_begin(&j, NULL);
			if (st->groups[i]->name)
				json_str(&j, "value", st->groups[i]->name);
			else
				json_null(&j, "value");
			json_fields(&j, r, &sum[i]);
			json_object_end(&j);
		}
		json_array_end(&j);
	}
	json_object_end(&j);
	json_finish(&j);
}

static void csv_secs(FILE *f, uint64_t ns, char sep)
{
	char b[64];
	size_t n = lo_fmt_col(b, (int64_t)ns, 9, 0);

	fwrite(b, 1, n, f);
	fputc(sep, f);
}

/* Two tables, a blank line apart: one summary row per group, histogram. */
static void csv_report(FILE *f, const struct lo_report *r,
		       const struct lo_summary *sum, size_t n)
{
	size_t i;
	unsigned b;

	fputs("group,lines,gaps,mean_s,stddev_s,p50_s,p90_s,p99_s,p999_s,"
	      "max_s,stall_threshold_s,stall_count,stall_time_s,"
	      "malformed_lines,interrupted\n",
	      f);
	for (i = 0; i < n; i++) {
		const struct lo_summary *s = &sum[i];

		csv_field(f, s->name, ',');
		fprintf(f, "%llu,%llu,%.9f,%.9f,", (unsigned long long)s->lines,
			(unsigned long long)s->gaps, s->mean_s, s->stddev_s);
		csv_secs(f, s->p50, ',');
		csv_secs(f, s->p90, ',');
		csv_secs(f, s->p99, ',');
		csv_secs(f, s->p999, ',');
		csv_secs(f, s->max, ',');
		csv_secs(f, r->stall_threshold_ns, ',');
		fprintf(f, "%llu,", (unsigned long long)s->stall_count);
		csv_secs(f, s->stall_time_ns, ',');
		fprintf(f, "%llu,%d\n", (unsigned long long)s->malformed,
			r->interrupted ? 1 : 0);
	}
	fputs("\ngroup,le_s,count,time_s\n", f);
	for (i = 0; i < n; i++) {
		for (b = 0; b < HIST_R10_N; b++) {
			csv_field(f, sum[i].name, ',');
			if (b < HIST_R10_EDGES)
				csv_secs(f, hist_r10_edges[b], ',');
			else
				fputc(',', f);
			fprintf(f, "%llu,",
				(unsigned long long)sum[i].hist_count[b]);
			csv_secs(f, sum[i].hist_ns[b], '\n');
		}
	}
}

void lo_report_write(const struct lo_report *r, const struct lo_summary *sum,
		     size_t n, FILE *f)
{
	switch (r->format) {
	case FORMAT_JSON:
		json_report(f, r, sum, n);
		break;
	case FORMAT_CSV:
		csv_report(f, r, sum, n);
		break;
	default:
		text_report(f, r, sum, n);
		break;
	}
}
