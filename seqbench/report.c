// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seqbench's reports.  The default reproduces tiobench 0.4's layout (the
 * "Unit information" block, four sections with an underline and a 3-line
 * header, one row per size/block/threads) and tiobench-0.3 its headerless
 * 0.3.3 ancestor, so existing parsers keep working; unlike Perl's formats,
 * columns widen to fit instead of printing '#'.  Rows of several runs show
 * proper means (tiobench added latencies up); the standard deviations, the
 * percentiles, stalls and histograms follow the tables.  JSON, CSV and
 * terse are report-data.c's.
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
size_t sb_group_len(const struct sb_result *res, size_t n)
{
	size_t k = 1;

	while (k < n && res[k].size == res[0].size &&
	       res[k].block == res[0].block &&
	       res[k].threads == res[0].threads &&
	       res[k].readahead == res[0].readahead)
		k++;
	return k;
}

bool sb_any_ran(const struct sb_result *res, size_t n, enum sb_phase p)
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
const char *sb_fmt_fig(char *buf, size_t size, double v, int decimals)
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
	sb_fmt_fig(r->cell[4], CELL, f->rate, 2);
	fmt_cpu(r->cell[5], f->cpu_pct);
	snprintf(r->cell[6], CELL, "%.3f", f->lat_avg_ms);
	snprintf(r->cell[7], CELL, "%.2f", f->lat_max_ms);
	snprintf(r->cell[8], CELL, "%.5f", f->gt1_pct);
	snprintf(r->cell[9], CELL, "%.5f", f->gt2_pct);
	sb_fmt_fig(r->cell[10], CELL, f->cpu_eff, 0);
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

const char *sb_report_ident(const struct sb_report *r)
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

			g = sb_group_len(r->res + i, r->n_res - i);
			if (!sb_any_ran(r->res + i, g, ph))
				continue;
			sb_aggregate(r->res + i, g, ph, &sum);
			if (read_only(r))
				row_extra(&rows[n], r->res + i, g, ph);
			make_row(&rows[n++], sb_report_ident(r), &r->res[i],
				 &sum);
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

double sb_pct_us(const struct hist *h, double p)
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
				sb_report_ident(r), sz,
				(unsigned long long)x->block,
				(unsigned long long)x->threads,
				(unsigned long long)x->run, sb_phase_key(ph),
				(unsigned long long)p->ops,
				(unsigned long long)p->bytes,
				(double)p->wall_ns / 1e9,
				sb_pct_us(p->hist, 50), sb_pct_us(p->hist, 90),
				sb_pct_us(p->hist, 99),
				sb_pct_us(p->hist, 99.9),
				sb_pct_us(p->hist, 99.99),
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

		g = sb_group_len(r->res + i, r->n_res - i);
		size_label(sz, r->res[i].size);
		for (ph = 0; ph < SB_PHASES; ph++) {
			struct sb_summary s;
			char rm[32], rs[32], tail[64];
			int64_t ra = r->res[i].phase[ph].readahead_kb;

			if (!sb_any_ran(r->res + i, g, ph))
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
				sb_report_ident(r), sz,
				(unsigned long long)r->res[i].block,
				(unsigned long long)r->res[i].threads,
				sb_phase_key(ph), (unsigned long long)s.runs,
				sb_fmt_fig(rm, sizeof(rm), s.mean.rate, 2),
				sb_fmt_fig(rs, sizeof(rs), s.sd.rate, 2),
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

int sb_report_write(FILE *f, const struct sb_report *r, enum sb_format format)
{
	switch (format) {
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
		sb_put_terse(f, r);
		break;
	case SB_FMT_JSON:
		sb_put_json(f, r);
		break;
	case SB_FMT_CSV:
		sb_put_csv(f, r);
		break;
	}
	if (fflush(f) || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
