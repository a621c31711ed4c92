// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seqbench's reports.  The default reproduces tiobench 0.4's layout (the
 * "Unit information" block, four sections with an underline and a 3-line
 * header, one row per size/block/threads) and tiobench-0.3 its headerless
 * 0.3.3 ancestor, so existing parsers keep working; unlike Perl's formats,
 * columns widen to fit instead of printing '#'.  Rows of several runs show
 * proper means (tiobench added latencies up); the standard deviations, the
 * percentiles, stalls and histograms follow the tables.  JSON and CSV carry
 * every figure (contract 4); terse prints tiotest -T lines.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hist.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/stats.h"
#include "lib/timing.h"
#include "seqbench/seqbench.h"

#define MIB 1048576.0

static const char *const phase_keys[SB_PHASES] = {
	"seq_write", "rand_write", "seq_read",
	"rand_read", "cold_read",  "tree_read",
};
static const char *const phase_titles[SB_PHASES] = {
	"Sequential Writes", "Random Writes", "Sequential Reads",
	"Random Reads",	     "Cold Reads",    "Tree Reads",
};

const char *sb_phase_key(enum sb_phase p)
{
	return phase_keys[p];
}

const char *sb_phase_title(enum sb_phase p)
{
	return phase_titles[p];
}

void sb_figures_of(const struct sb_phase_result *p, struct sb_figures *f)
{
	double secs = (double)p->wall_ns / 1e9;

	memset(f, 0, sizeof(*f));
	if (!p->ran)
		return;
	/* Bytes over time of a phase cut short is no rate of the phase. */
	if (!p->complete)
		f->rate = NAN;
	else
		f->rate = secs > 0 ? (double)p->bytes / MIB / secs : 0;
	f->cpu_pct = secs > 0 ? (double)p->cpu_ns / 1e9 / secs * 100 : 0;
	if (p->hist && p->hist->count) {
		f->lat_avg_ms = hist_mean(p->hist) / 1e6;
		f->lat_max_ms = (double)p->hist->max_ns / 1e6;
	}
	if (p->ops) {
		f->gt1_pct = (double)p->gt1 * 100 / (double)p->ops;
		f->gt2_pct = (double)p->gt2 * 100 / (double)p->ops;
	}
	if (isnan(f->rate))
		f->cpu_eff = NAN;
	else
		f->cpu_eff = f->cpu_pct > 0 ? f->rate / (f->cpu_pct / 100) : 0;
}

#define N_FIG 7

static void fig_to_array(const struct sb_figures *f, double *v)
{
	v[0] = f->rate;
	v[1] = f->cpu_pct;
	v[2] = f->lat_avg_ms;
	v[3] = f->lat_max_ms;
	v[4] = f->gt1_pct;
	v[5] = f->gt2_pct;
	v[6] = f->cpu_eff;
}

static void fig_from_array(struct sb_figures *f, const double *v)
{
	f->rate = v[0];
	f->cpu_pct = v[1];
	f->lat_avg_ms = v[2];
	f->lat_max_ms = v[3];
	f->gt1_pct = v[4];
	f->gt2_pct = v[5];
	f->cpu_eff = v[6];
}

void sb_aggregate(const struct sb_result *res, size_t n, enum sb_phase phase,
		  struct sb_summary *out)
{
	struct stats s[N_FIG];
	double mean[N_FIG], sd[N_FIG];
	size_t i, k;

	memset(out, 0, sizeof(*out));
	for (k = 0; k < N_FIG; k++)
		stats_init(&s[k]);
	for (i = 0; i < n; i++) {
		struct sb_figures f;
		double v[N_FIG];

		if (!res[i].phase[phase].ran)
			continue;
		sb_figures_of(&res[i].phase[phase], &f);
		fig_to_array(&f, v);
		for (k = 0; k < N_FIG; k++)
			if (!isnan(v[k]))
				stats_add(&s[k], v[k]);
		out->runs++;
		out->incomplete += !res[i].phase[phase].complete;
	}
	for (k = 0; k < N_FIG; k++) {
		mean[k] = s[k].n ? s[k].mean : out->runs ? NAN : 0;
		sd[k] = s[k].n ? stats_stddev(&s[k]) : out->runs ? NAN : 0;
	}
	fig_from_array(&out->mean, mean);
	fig_from_array(&out->sd, sd);
}

/* Runs of one size/block/threads are adjacent; the length of this group. */
static size_t group_len(const struct sb_result *res, size_t n)
{
	size_t k = 1;

	while (k < n && res[k].size == res[0].size &&
	       res[k].block == res[0].block &&
	       res[k].threads == res[0].threads &&
	       res[k].readahead == res[0].readahead)
		k++;
	return k;
}

static bool any_ran(const struct sb_result *res, size_t n, enum sb_phase p)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (res[i].phase[p].ran)
			return true;
	return false;
}

/* "64" for whole MiB as tiobench printed -s, else an exact "256k". */
static void size_label(char *buf, uint64_t bytes)
{
	if (bytes && !(bytes % 1048576))
		snprintf(buf, 24, "%llu", (unsigned long long)(bytes >> 20));
	else
		format_size(buf, bytes);
}

/* ---- tiobench tables ---- */

enum align { LEFT, CENTER, RIGHT };

struct column {
	unsigned width; /* tiobench's width */
	enum align align;
	const char *sep;   /* printed before the column */
	const char *head1; /* header text over the column, WIDTH wide */
	const char *head2;
};

#define N_COLS 11

/* clang-format off */
static const struct column cols04[N_COLS] = {
	{ 28, LEFT,   "",   "                            ", "Identifier                  " },
	{ 6,  CENTER, " ",  " File ", " Size " },
	{ 6,  CENTER, " ",  " Blk  ", " Size " },
	{ 3,  RIGHT,  " ",  "Num", "Thr" },
	{ 12, RIGHT,  "  ", "            ", "    Rate    " },
	{ 6,  RIGHT,  " ",  "      ", "(CPU%)" },
	{ 9,  RIGHT,  " ",  "   Avg   ", " Latency " },
	{ 11, RIGHT,  " ",  "  Maximum  ", "  Latency  " },
	{ 8,  RIGHT,  "  ", "  Lat%  ", "  >2s   " },
	{ 8,  RIGHT,  " ",  "  Lat%  ", "  >10s  " },
	{ 7,  RIGHT,  " ",  "  CPU", "  Eff" },
};
static const struct column cols03[N_COLS] = {
	{ 28, LEFT,   "",   "", "" },
	{ 6,  CENTER, " ",  "", "" },
	{ 5,  CENTER, " ",  "", "" },
	{ 3,  RIGHT,  " ",  "", "" },
	{ 6,  RIGHT,  "  ", "", "" },
	{ 6,  RIGHT,  " ",  "", "" },
	{ 9,  RIGHT,  " ",  "", "" },
	{ 11, RIGHT,  " ",  "", "" },
	{ 8,  RIGHT,  "  ", "", "" },
	{ 8,  RIGHT,  " ",  "", "" },
	{ 5,  RIGHT,  " ",  "", "" },
};
/* clang-format on */

#define CELL 192

struct row {
	char cell[N_COLS][CELL];
	char extra[64];	 /* after the columns: readahead, "not cold" */
	bool incomplete; /* marked at its end */
};

/* CPU% as Perl's 5-character text field showed it, rounded not cut. */
static void fmt_cpu(char *buf, double v)
{
	if (v < 9.9995)
		snprintf(buf, CELL, "%.3f%%", v);
	else if (v < 99.995)
		snprintf(buf, CELL, "%.2f%%", v);
	else if (v < 999.95)
		snprintf(buf, CELL, "%.1f%%", v);
	else
		snprintf(buf, CELL, "%.0f%%", v);
}

/* V with DECIMALS, or "-" for a figure that is not there (NaN). */
static const char *fmt_fig(char *buf, size_t size, double v, int decimals)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.*f", decimals, v);
	return buf;
}

/* What a read-only row says after its columns. */
static void row_extra(struct row *r, const struct sb_result *res, size_t g,
		      enum sb_phase ph)
{
	const struct sb_phase_result *p = &res[0].phase[ph];
	bool warm = false;
	size_t i;

	for (i = 0; i < g; i++)
		warm |= res[i].phase[ph].ran && res[i].phase[ph].cold == 0;
	if (p->readahead_kb >= 0)
		snprintf(r->extra, sizeof(r->extra), "  readahead=%lldk%s",
			 (long long)p->readahead_kb, warm ? "  not cold" : "");
	else if (warm)
		snprintf(r->extra, sizeof(r->extra), "  not cold");
}

static void make_row(struct row *r, const char *ident,
		     const struct sb_result *res, const struct sb_summary *sum)
{
	const struct sb_figures *f = &sum->mean;

	r->incomplete = sum->incomplete > 0;
	snprintf(r->cell[0], CELL, "%s", ident);
	size_label(r->cell[1], res->size);
	snprintf(r->cell[2], CELL, "%llu", (unsigned long long)res->block);
	snprintf(r->cell[3], CELL, "%llu", (unsigned long long)res->threads);
	fmt_fig(r->cell[4], CELL, f->rate, 2);
	fmt_cpu(r->cell[5], f->cpu_pct);
	snprintf(r->cell[6], CELL, "%.3f", f->lat_avg_ms);
	snprintf(r->cell[7], CELL, "%.2f", f->lat_max_ms);
	snprintf(r->cell[8], CELL, "%.5f", f->gt1_pct);
	snprintf(r->cell[9], CELL, "%.5f", f->gt2_pct);
	fmt_fig(r->cell[10], CELL, f->cpu_eff, 0);
}

static void put_cell(FILE *fp, const char *s, unsigned w, enum align a)
{
	unsigned len = (unsigned)strlen(s), pad = len < w ? w - len : 0;
	unsigned left = a == RIGHT ? pad : a == CENTER ? pad / 2 : 0;

	fprintf(fp, "%*s%s%*s", (int)left, "", s, (int)(pad - left), "");
}

/* A header line: tiobench's text, shifted right when a column widened. */
static void put_head(FILE *fp, const struct column *c, const unsigned *w,
		     int line)
{
	char buf[512];
	size_t n = 0, k;

	for (k = 0; k < N_COLS; k++) {
		const char *h = line == 1 ? c[k].head1 : c[k].head2;
		unsigned extra = w[k] - c[k].width;

		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s", c[k].sep);
		if (line == 3) {
			memset(buf + n, '-', w[k]);
			n += w[k];
		} else if (c[k].align == LEFT) {
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%*s",
					      h, (int)extra, "");
		} else {
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%*s%s",
					      (int)extra, "", h);
		}
	}
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	fprintf(fp, "%s\n", buf);
}

static void put_table(FILE *fp, const struct column *c, const struct row *rows,
		      size_t n, bool header)
{
	unsigned w[N_COLS];
	size_t i, k;

	for (k = 0; k < N_COLS; k++) {
		w[k] = c[k].width;
		for (i = 0; i < n; i++)
			if (strlen(rows[i].cell[k]) > w[k])
				w[k] = (unsigned)strlen(rows[i].cell[k]);
	}
	if (header && n) {
		put_head(fp, c, w, 1);
		put_head(fp, c, w, 2);
		put_head(fp, c, w, 3);
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < N_COLS; k++) {
			fputs(c[k].sep, fp);
			put_cell(fp, rows[i].cell[k], w[k], c[k].align);
		}
		/* After the columns, so that they stay where parsers look. */
		fputs(rows[i].extra, fp);
		fputs(rows[i].incomplete ? "  incomplete\n" : "\n", fp);
	}
}

static const char unit_info[] =
	"\nUnit information\n"
	"================\n"
	"File size = megabytes%s\n"
	"Blk Size  = bytes\n"
	"Rate      = megabytes per second\n"
	"CPU%%      = percentage of CPU used during the test\n"
	"Latency   = milliseconds\n"
	"Lat%%      = percent of requests that took longer than X seconds\n"
	"CPU Eff   = Rate divided by CPU%% - throughput per cpu load\n";

/* Report sections in tiobench's order. */
static const enum sb_phase section_order[SB_BENCH_PHASES] = {
	SB_SEQ_READ,
	SB_RAND_READ,
	SB_SEQ_WRITE,
	SB_RAND_WRITE,
};

static bool read_only(const struct sb_report *r)
{
	return r->o->mode == SB_MODE_READ_ONLY;
}

static const char *ident_of(const struct sb_report *r)
{
	return r->o->identifier ? r->o->identifier : r->ri->kernel;
}

static void put_tables(FILE *fp, const struct sb_report *r, bool v04)
{
	struct row *rows = calloc(r->n_res ? r->n_res : 1, sizeof(*rows));
	size_t s, i, g, n, n_sections = read_only(r) ? 1 : SB_BENCH_PHASES;

	if (!rows)
		return;
	fprintf(fp, unit_info, v04 ? " (2^20 bytes, 1,048,576 bytes)" : "");
	for (s = 0; s < n_sections; s++) {
		enum sb_phase ph =
			read_only(r) ? r->o->ro_phase : section_order[s];
		const char *title = sb_phase_title(ph);

		fprintf(fp, "\n%s\n", title);
		if (v04)
			fprintf(fp, "%.*s\n", (int)strlen(title),
				"==================");
		n = 0;
		for (i = 0; i < r->n_res; i += g) {
			struct sb_summary sum;

			g = group_len(r->res + i, r->n_res - i);
			if (!any_ran(r->res + i, g, ph))
				continue;
			sb_aggregate(r->res + i, g, ph, &sum);
			if (read_only(r))
				row_extra(&rows[n], r->res + i, g, ph);
			make_row(&rows[n++], ident_of(r), &r->res[i], &sum);
		}
		put_table(fp, v04 ? cols04 : cols03, rows, n, v04);
	}
	free(rows);
}

static void put_hist_line(FILE *fp, const struct hist *h)
{
	uint64_t counts[HIST_DISPLAY_N];
	unsigned i;

	hist_fold_display(h, counts, NULL);
	fputs("    histogram:", fp);
	for (i = 0; i < HIST_DISPLAY_N; i++) {
		char label[24];

		if (counts[i])
			fprintf(fp, " [%s] %llu", hist_display_label(label, i),
				(unsigned long long)counts[i]);
	}
	fputc('\n', fp);
}

static double pct_us(const struct hist *h, double p)
{
	return (double)hist_percentile(h, p) / 1e3;
}

/* A read-only phase as time(1) would tell it, and what it read. */
static void put_read_only_line(FILE *fp, const struct sb_phase_result *p)
{
	double secs = (double)p->wall_ns / 1e9;
	uint64_t sys = p->cpu_ns > p->user_ns ? p->cpu_ns - p->user_ns : 0;

	fprintf(fp,
		"    real=%.3fs user=%.3fs sys=%.3fs files=%llu "
		"files_per_s=%.1f readahead_kb=",
		secs, (double)p->user_ns / 1e9, (double)sys / 1e9,
		(unsigned long long)p->files,
		secs > 0 ? (double)p->files / secs : 0);
	if (p->readahead_kb >= 0)
		fprintf(fp, "%lld", (long long)p->readahead_kb);
	else
		fputs("-", fp);
	fprintf(fp, " cold=%s cached_bytes=%llu errors=%llu\n",
		p->cold > 0 ? "yes"
		: p->cold   ? "unknown"
			    : "no",
		(unsigned long long)p->cached_bytes,
		(unsigned long long)p->errors);
}

static void put_details(FILE *fp, const struct sb_report *r)
{
	size_t i, g;
	int ph;

	fprintf(fp, "\nLatency details\n===============\n");
	fprintf(fp,
		"seed=%llu stall_threshold_ms=%.3f runs=%llu "
		"(percentiles in microseconds, thread rates in MiB/s)\n",
		(unsigned long long)r->o->seed, (double)r->o->stall_ns / 1e6,
		(unsigned long long)r->o->numruns);
	for (i = 0; i < r->n_res; i++) {
		const struct sb_result *x = &r->res[i];
		char sz[24];

		size_label(sz, x->size);
		for (ph = 0; ph < SB_PHASES; ph++) {
			const struct sb_phase_result *p = &x->phase[ph];

			if (!p->ran)
				continue;
			fprintf(fp,
				"%s size=%s block=%llu threads=%llu run=%llu "
				"phase=%s ops=%llu bytes=%llu seconds=%.6f "
				"p50=%.1f p90=%.1f p99=%.1f p99.9=%.1f "
				"p99.99=%.1f stalls=%llu slowest_thread=%.2f "
				"fastest_thread=%.2f%s\n",
				ident_of(r), sz, (unsigned long long)x->block,
				(unsigned long long)x->threads,
				(unsigned long long)x->run, sb_phase_key(ph),
				(unsigned long long)p->ops,
				(unsigned long long)p->bytes,
				(double)p->wall_ns / 1e9, pct_us(p->hist, 50),
				pct_us(p->hist, 90), pct_us(p->hist, 99),
				pct_us(p->hist, 99.9), pct_us(p->hist, 99.99),
				(unsigned long long)p->stalls,
				p->thread_rate_min, p->thread_rate_max,
				p->complete ? "" : " incomplete");
			put_hist_line(fp, p->hist);
			if (ph >= SB_BENCH_PHASES)
				put_read_only_line(fp, p);
		}
	}
	if (r->o->numruns < 2)
		return;
	fprintf(fp, "\nStandard deviation over runs\n"
		    "============================\n");
	for (i = 0; i < r->n_res; i += g) {
		char sz[24];

		g = group_len(r->res + i, r->n_res - i);
		size_label(sz, r->res[i].size);
		for (ph = 0; ph < SB_PHASES; ph++) {
			struct sb_summary s;
			char rm[32], rs[32], tail[64];
			int64_t ra = r->res[i].phase[ph].readahead_kb;

			if (!any_ran(r->res + i, g, ph))
				continue;
			sb_aggregate(r->res + i, g, ph, &s);
			if (ph >= SB_BENCH_PHASES && ra >= 0)
				snprintf(tail, sizeof(tail),
					 " readahead_kb=%lld%s", (long long)ra,
					 s.incomplete ? " incomplete" : "");
			else
				snprintf(tail, sizeof(tail), "%s",
					 s.incomplete ? " incomplete" : "");
			fprintf(fp,
				"%s size=%s block=%llu threads=%llu phase=%s "
				"runs=%llu rate=%s+-%s cpu=%.2f+-%.2f "
				"avg_latency=%.3f+-%.3f max_latency=%.2f+-%.2f "
				"lat_gt_2s=%.5f+-%.5f "
				"lat_gt_10s=%.5f+-%.5f%s\n",
				ident_of(r), sz,
				(unsigned long long)r->res[i].block,
				(unsigned long long)r->res[i].threads,
				sb_phase_key(ph), (unsigned long long)s.runs,
				fmt_fig(rm, sizeof(rm), s.mean.rate, 2),
				fmt_fig(rs, sizeof(rs), s.sd.rate, 2),
				s.mean.cpu_pct, s.sd.cpu_pct, s.mean.lat_avg_ms,
				s.sd.lat_avg_ms, s.mean.lat_max_ms,
				s.sd.lat_max_ms, s.mean.gt1_pct, s.sd.gt1_pct,
				s.mean.gt2_pct, s.sd.gt2_pct, tail);
		}
	}
}

static void put_notes(FILE *fp, const struct sb_report *r)
{
	size_t i;

	if (r->n_notes || r->error || r->interrupted)
		fputc('\n', fp);
	for (i = 0; i < r->n_notes; i++)
		fprintf(fp, "note: %s\n", r->notes[i]);
	if (r->interrupted)
		fprintf(fp, "note: interrupted: the results are partial\n");
	if (r->error)
		fprintf(fp, "note: incomplete: %s\n", r->error);
}

/* ---- tiotest -T ---- */

static void put_terse(FILE *fp, const struct sb_report *r)
{
	static const char *const names[SB_PHASES] = {
		"write", "rwrite", "read", "rread", "coldread", "treeread",
	};
	size_t i;
	int ph;

	for (i = 0; i < r->n_res; i++) {
		struct hist all;
		uint64_t ops = 0, gt1 = 0, gt2 = 0;

		hist_init(&all);
		for (ph = 0; ph < SB_PHASES; ph++) {
			const struct sb_phase_result *p = &r->res[i].phase[ph];
			struct sb_figures f;

			if (!p->ran)
				continue;
			sb_figures_of(p, &f);
			hist_merge(&all, p->hist);
			ops += p->ops;
			gt1 += p->gt1;
			gt2 += p->gt2;
			fprintf(fp,
				"%s:%.5f,%.5f,%.5f,%.5f,%.5f,%.5f,%.5f,%.5f\n",
				names[ph], (double)p->bytes / MIB,
				(double)p->wall_ns / 1e9,
				(double)p->user_ns / 1e9,
				(double)(p->cpu_ns > p->user_ns
						 ? p->cpu_ns - p->user_ns
						 : 0) /
					1e9,
				f.lat_avg_ms, f.lat_max_ms, f.gt1_pct,
				f.gt2_pct);
		}
		fprintf(fp, "total:%.5f,%.5f,%.5f,%.5f\n",
			all.count ? hist_mean(&all) / 1e6 : 0,
			(double)all.max_ns / 1e6,
			ops ? (double)gt1 * 100 / (double)ops : 0,
			ops ? (double)gt2 * 100 / (double)ops : 0);
	}
}

/* ---- JSON ---- */

/* The fields only read-only phases have. */
static void json_read_only(struct json *j, const struct sb_phase_result *p)
{
	double secs = (double)p->wall_ns / 1e9;

	json_u64(j, "files", p->files);
	json_u64(j, "reads", p->reads);
	json_double(j, "files_per_s", secs > 0 ? (double)p->files / secs : 0);
	if (p->readahead_kb >= 0)
		json_u64(j, "readahead_kb", (uint64_t)p->readahead_kb);
	else
		json_null(j, "readahead_kb");
	if (p->cold >= 0)
		json_bool(j, "cold", p->cold);
	else
		json_null(j, "cold");
	json_u64(j, "cached_bytes", p->cached_bytes);
	json_ns_as_s(j, "user_s", p->user_ns);
	json_ns_as_s(j, "sys_s",
		     p->cpu_ns > p->user_ns ? p->cpu_ns - p->user_ns : 0);
	json_u64(j, "errors", p->errors);
}

static void json_phase(struct json *j, const struct sb_report *r,
		       const struct sb_phase_result *p, enum sb_phase ph)
{
	uint64_t counts[HIST_DISPLAY_N], times[HIST_DISPLAY_N];
	struct sb_figures f;
	unsigned i;

	sb_figures_of(p, &f);
	json_object_begin(j, sb_phase_key(ph));
	json_bool(j, "complete", p->complete);
	json_u64(j, "ops", p->ops);
	json_u64(j, "bytes", p->bytes);
	json_ns_as_s(j, "seconds", p->wall_ns);
	json_double(j, "rate_mib_s", f.rate);
	json_ns_as_s(j, "cpu_s", p->cpu_ns);
	json_double(j, "cpu_pct", f.cpu_pct);
	json_double(j, "cpu_eff", f.cpu_eff);
	json_double(j, "lat_avg_ms", f.lat_avg_ms);
	json_double(j, "lat_min_ms",
		    p->hist->count ? (double)p->hist->min_ns / 1e6 : 0);
	json_double(j, "lat_max_ms", f.lat_max_ms);
	json_double(j, "lat_p50_us", pct_us(p->hist, 50));
	json_double(j, "lat_p90_us", pct_us(p->hist, 90));
	json_double(j, "lat_p99_us", pct_us(p->hist, 99));
	json_double(j, "lat_p999_us", pct_us(p->hist, 99.9));
	json_double(j, "lat_p9999_us", pct_us(p->hist, 99.99));
	json_double(j, "lat_gt_2s_pct", f.gt1_pct);
	json_double(j, "lat_gt_10s_pct", f.gt2_pct);
	json_u64(j, "lat_gt_2s_count", p->gt1);
	json_u64(j, "lat_gt_10s_count", p->gt2);
	json_ns_as_s(j, "stall_threshold_s", r->o->stall_ns);
	json_u64(j, "stall_count", p->stalls);
	json_double(j, "thread_rate_min_mib_s", p->thread_rate_min);
	json_double(j, "thread_rate_max_mib_s", p->thread_rate_max);
	if (ph >= SB_BENCH_PHASES)
		json_read_only(j, p);
	hist_fold_display(p->hist, counts, times);
	json_array_begin(j, "histogram");
	for (i = 0; i < HIST_DISPLAY_N; i++) {
		if (!counts[i])
			continue;
		json_object_begin(j, NULL);
		if (i < HIST_DISPLAY_EDGES)
			json_ns_as_s(j, "le_s", hist_display_edges[i]);
		else
			json_null(j, "le_s");
		json_u64(j, "count", counts[i]);
		json_ns_as_s(j, "time_s", times[i]);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

static void json_figures(struct json *j, const char *key,
			 const struct sb_figures *f)
{
	json_object_begin(j, key);
	json_double(j, "rate_mib_s", f->rate);
	json_double(j, "cpu_pct", f->cpu_pct);
	json_double(j, "lat_avg_ms", f->lat_avg_ms);
	json_double(j, "lat_max_ms", f->lat_max_ms);
	json_double(j, "lat_gt_2s_pct", f->gt1_pct);
	json_double(j, "lat_gt_10s_pct", f->gt2_pct);
	json_double(j, "cpu_eff", f->cpu_eff);
	json_object_end(j);
}

static void json_combo(struct json *j, const struct sb_result *x)
{
	json_double(j, "size_mib", (double)x->size / MIB);
	json_u64(j, "size_bytes", x->size);
	json_u64(j, "block_bytes", x->block);
	json_u64(j, "threads", x->threads);
}

static void put_json(FILE *fp, const struct sb_report *r)
{
	const struct sb_opts *o = r->o;
	struct json j;
	size_t i, g;
	int ph;

	json_init(&j, fp, true);
	json_object_begin(&j, NULL);
	json_run_header(&j, r->ri);
	json_str(&j, "identifier", ident_of(r));
	/* What latency-compare names the result by. */
	json_str(&j, "label", ident_of(r));
	json_array_begin(&j, "targets");
	for (i = 0; i < o->n_targets; i++)
		json_str(&j, NULL, o->targets[i]);
	json_array_end(&j);
	json_bool(&j, "raw_device", o->raw || o->ro_device);
	json_bool(&j, "read_only", o->mode == SB_MODE_READ_ONLY);
	json_u64(&j, "random_ops", o->random_ops);
	json_u64(&j, "numruns", o->numruns);
	json_bool(&j, "direct", o->direct);
	json_bool(&j, "sync", o->osync);
	json_bool(&j, "fsync_reads", o->fsync_reads);
	json_bool(&j, "nofrag", o->nofrag);
	json_bool(&j, "drop_caches", o->drop_caches);
	json_bool(&j, "null_io", o->null_io);
	json_ns_as_s(&j, "time_s", o->time_ns);
	json_bool(&j, "interrupted", r->interrupted);
	json_bool(&j, "incomplete", r->incomplete);
	if (r->error)
		json_str(&j, "error", r->error);
	else
		json_null(&j, "error");
	json_array_begin(&j, "notes");
	for (i = 0; i < r->n_notes; i++)
		json_str(&j, NULL, r->notes[i]);
	json_array_end(&j);
	json_array_begin(&j, "results");
	for (i = 0; i < r->n_res; i++) {
		const struct sb_result *x = &r->res[i];

		json_object_begin(&j, NULL);
		json_combo(&j, x);
		json_u64(&j, "run", x->run);
		json_u64(&j, "file_bytes", x->file_bytes);
		json_u64(&j, "random_ops_per_thread", x->rand_ops);
		if (o->mode == SB_MODE_READ_ONLY && x->readahead >= 0)
			json_u64(&j, "readahead_kb", (uint64_t)x->readahead);
		json_object_begin(&j, "phases");
		for (ph = 0; ph < SB_PHASES; ph++)
			if (x->phase[ph].ran)
				json_phase(&j, r, &x->phase[ph], ph);
		json_object_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_array_begin(&j, "summary");
	for (i = 0; i < r->n_res; i += g) {
		g = group_len(r->res + i, r->n_res - i);
		json_object_begin(&j, NULL);
		json_combo(&j, &r->res[i]);
		json_object_begin(&j, "phases");
		for (ph = 0; ph < SB_PHASES; ph++) {
			struct sb_summary s;

			if (!any_ran(r->res + i, g, ph))
				continue;
			sb_aggregate(r->res + i, g, ph, &s);
			json_object_begin(&j, sb_phase_key(ph));
			json_u64(&j, "runs", s.runs);
			json_u64(&j, "incomplete_runs", s.incomplete);
			json_figures(&j, "mean", &s.mean);
			json_figures(&j, "stddev", &s.sd);
			json_object_end(&j);
		}
		json_object_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

/* ---- CSV: one row per run and phase, self-describing ---- */

static void csv_read_only(FILE *fp, const struct sb_phase_result *p)
{
	fprintf(fp, ",%llu,", (unsigned long long)p->files);
	if (p->readahead_kb >= 0)
		fprintf(fp, "%lld", (long long)p->readahead_kb);
	fprintf(fp, ",%s,%.6f,%.6f",
		p->cold > 0 ? "1"
		: p->cold   ? ""
			    : "0",
		(double)p->user_ns / 1e9,
		(double)(p->cpu_ns > p->user_ns ? p->cpu_ns - p->user_ns : 0) /
			1e9);
}

static void put_csv(FILE *fp, const struct sb_report *r)
{
	char cmd[4096];
	size_t i;
	int ph;

	format_command_line(cmd, sizeof(cmd), r->ri->argc, r->ri->argv);
	fputs("format_version,program,version,command_line,seed,kernel,"
	      "identifier,size_bytes,block_bytes,threads,run,phase,complete,"
	      "ops,bytes,seconds,rate_mib_s,cpu_pct,lat_avg_ms,lat_max_ms,"
	      "lat_p50_us,lat_p90_us,lat_p99_us,lat_p999_us,lat_p9999_us,"
	      "lat_gt_2s_pct,lat_gt_10s_pct,stall_count,interrupted",
	      fp);
	/* Read-only runs have columns of their own, at the end. */
	fputs(read_only(r) ? ",files,readahead_kb,cold,user_s,sys_s\n" : "\n",
	      fp);
	for (i = 0; i < r->n_res; i++) {
		const struct sb_result *x = &r->res[i];

		for (ph = 0; ph < SB_PHASES; ph++) {
			const struct sb_phase_result *p = &x->phase[ph];
			struct sb_figures f;
			char rate[32];

			if (!p->ran)
				continue;
			sb_figures_of(p, &f);
			fmt_fig(rate, sizeof(rate), f.rate, 6);
			fprintf(fp, "%d,", OUTPUT_FORMAT_VERSION);
			csv_field(fp, r->ri->program, ',');
			csv_field(fp, PACKAGE_VERSION, ',');
			csv_field(fp, cmd, ',');
			fprintf(fp, "%llu,", (unsigned long long)r->o->seed);
			csv_field(fp, r->ri->kernel, ',');
			csv_field(fp, ident_of(r), ',');
			fprintf(fp,
				"%llu,%llu,%llu,%llu,%s,%d,%llu,%llu,%.9f,"
				"%s,%.4f,%.6f,%.6f,%.3f,%.3f,%.3f,%.3f,"
				"%.3f,%.5f,%.5f,%llu,%d",
				(unsigned long long)x->size,
				(unsigned long long)x->block,
				(unsigned long long)x->threads,
				(unsigned long long)x->run, sb_phase_key(ph),
				p->complete, (unsigned long long)p->ops,
				(unsigned long long)p->bytes,
				(double)p->wall_ns / 1e9,
				isnan(f.rate) ? "" : rate, f.cpu_pct,
				f.lat_avg_ms, f.lat_max_ms, pct_us(p->hist, 50),
				pct_us(p->hist, 90), pct_us(p->hist, 99),
				pct_us(p->hist, 99.9), pct_us(p->hist, 99.99),
				f.gt1_pct, f.gt2_pct,
				(unsigned long long)p->stalls, r->interrupted);
			if (read_only(r))
				csv_read_only(fp, p);
			fputc('\n', fp);
		}
	}
}

int sb_report_write(FILE *f, const struct sb_report *r)
{
	switch (r->o->format) {
	case SB_FMT_TIOBENCH:
		put_tables(f, r, true);
		put_details(f, r);
		put_notes(f, r);
		break;
	case SB_FMT_TIOBENCH03:
		put_tables(f, r, false);
		put_notes(f, r);
		break;
	case SB_FMT_TERSE:
		put_terse(f, r);
		break;
	case SB_FMT_JSON:
		put_json(f, r);
		break;
	case SB_FMT_CSV:
		put_csv(f, r);
		break;
	}
	if (fflush(f) || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
