// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seqbench's machine-readable reports: JSON and CSV carry every figure
 * (doc/design.md, contract 4), one entry per run and phase, and the summary
 * over runs; terse prints tiotest -T lines.  The tables are report.c's.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hist.h"
#include "lib/output.h"
#include "seqbench/seqbench.h"

#define MIB 1048576.0

/* ---- tiotest -T ---- */

void sb_put_terse(FILE *fp, const struct sb_report *r)
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
	json_double(j, "lat_p50_us", sb_pct_us(p->hist, 50));
	json_double(j, "lat_p90_us", sb_pct_us(p->hist, 90));
	json_double(j, "lat_p99_us", sb_pct_us(p->hist, 99));
	json_double(j, "lat_p999_us", sb_pct_us(p->hist, 99.9));
	json_double(j, "lat_p9999_us", sb_pct_us(p->hist, 99.99));
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

void sb_put_json(FILE *fp, const struct sb_report *r)
{
	const struct sb_opts *o = r->o;
	struct json j;
	size_t i, g;
	int ph;

	json_init(&j, fp, true);
	json_object_begin(&j, NULL);
	json_run_header(&j, r->ri);
	json_str(&j, "identifier", sb_report_ident(r));
	/* What latency-compare names the result by. */
	json_str(&j, "label", sb_report_ident(r));
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
		g = sb_group_len(r->res + i, r->n_res - i);
		json_object_begin(&j, NULL);
		json_combo(&j, &r->res[i]);
		json_object_begin(&j, "phases");
		for (ph = 0; ph < SB_PHASES; ph++) {
			struct sb_summary s;

			if (!sb_any_ran(r->res + i, g, ph))
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

void sb_put_csv(FILE *fp, const struct sb_report *r)
{
	bool read_only = r->o->mode == SB_MODE_READ_ONLY;
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
	fputs(read_only ? ",files,readahead_kb,cold,user_s,sys_s\n" : "\n", fp);
	for (i = 0; i < r->n_res; i++) {
		const struct sb_result *x = &r->res[i];

		for (ph = 0; ph < SB_PHASES; ph++) {
			const struct sb_phase_result *p = &x->phase[ph];
			struct sb_figures f;
			char rate[32];

			if (!p->ran)
				continue;
			sb_figures_of(p, &f);
			sb_fmt_fig(rate, sizeof(rate), f.rate, 6);
			fprintf(fp, "%d,", OUTPUT_FORMAT_VERSION);
			csv_field(fp, r->ri->program, ',');
			csv_field(fp, PACKAGE_VERSION, ',');
			csv_field(fp, cmd, ',');
			fprintf(fp, "%llu,", (unsigned long long)r->o->seed);
			csv_field(fp, r->ri->kernel, ',');
			csv_field(fp, sb_report_ident(r), ',');
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
				f.lat_avg_ms, f.lat_max_ms,
				sb_pct_us(p->hist, 50), sb_pct_us(p->hist, 90),
				sb_pct_us(p->hist, 99),
				sb_pct_us(p->hist, 99.9),
				sb_pct_us(p->hist, 99.99), f.gt1_pct, f.gt2_pct,
				(unsigned long long)p->stalls, r->interrupted);
			if (read_only)
				csv_read_only(fp, p);
			fputc('\n', fp);
		}
	}
}
