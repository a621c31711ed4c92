// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ringbench's reports: a table for people, and JSON and CSV for programs
 * (doc/design.md, contract 4).  Each names its rate by mode (cycles_per_s for
 * the ring, transactions_per_s for rr and tbench), gives microseconds per
 * cycle (per transaction for rr: the mean round trip of one client) and the
 * latency percentiles from lib/hist (within 0.8% of the exact value); several
 * runs add their mean, standard deviation and coefficient of variation.  The
 * JSON records what the numbers depend on: the busy-loop calibration, where
 * each task ran, and the kernel's scheduler settings.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/stats.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "ringbench/ringbench.h"

const char *const rb_mode_name[RB_MODE_COUNT + 1] = { "ring", "rr", "tbench",
						      "calibrate", NULL };
const char *const rb_via_name[VIA_COUNT + 1] = { "pipe", "futex", "eventfd",
						 NULL };

static const struct {
	const char *key;
	const char *head;
	double p;
} pct[] = {
	{ "p50_us", "p50", 50.0 },	 { "p90_us", "p90", 90.0 },
	{ "p99_us", "p99", 99.0 },	 { "p999_us", "p99.9", 99.9 },
	{ "p9999_us", "p99.99", 99.99 },
};
#define N_PCT (sizeof(pct) / sizeof(pct[0]))

double rb_rate(const struct rb_opts *o, const struct rb_run *r)
{
	double s = (double)r->elapsed_ns / 1e9;

	if (s <= 0)
		return NAN;
	if (o->mode == RB_RING)
		return (double)r->cycles / s;
	if (o->mode == RB_TBENCH)
		return r->tb_ops / s;
	return (double)r->transactions / s;
}

double rb_us_per_cycle(const struct rb_opts *o, const struct rb_run *r)
{
	double us = (double)r->elapsed_ns / 1e3;

	if (o->mode == RB_TBENCH)
		return r->tb_ops > 0 ? r->tb_avg_lat_us : NAN;
	if (o->mode == RB_RING)
		return r->cycles ? us / (double)r->cycles : NAN;
	return r->transactions ? us * o->clients / (double)r->transactions
			       : NAN;
}

static const char *rate_key(const struct rb_opts *o)
{
	return o->mode == RB_RING ? "cycles_per_s" : "transactions_per_s";
}

static const char *count_key(const struct rb_opts *o)
{
	return o->mode == RB_RING ? "cycles" : "transactions";
}

static uint64_t count_of(const struct rb_opts *o, const struct rb_run *r)
{
	if (o->mode == RB_TBENCH)
		return (uint64_t)r->tb_ops;
	return o->mode == RB_RING ? r->cycles : r->transactions;
}

static double pct_us(const struct hist *h, double p)
{
	return h && h->count ? (double)hist_percentile(h, p) / 1e3 : NAN;
}

static double max_us(const struct rb_opts *o, const struct rb_run *r)
{
	if (o->mode == RB_TBENCH)
		return r->tb_max_lat_us > 0 ? r->tb_max_lat_us : NAN;
	return r->hist->count ? (double)r->hist->max_ns / 1e3 : NAN;
}

/* Mean, stddev and CoV of a figure over the runs that count. */
struct spread {
	double mean, sd, cov_pct;
	size_t n;
};

static bool counts(const struct rb_report *r, unsigned i, bool any_complete)
{
	return r->runs[i].complete ||
	       (!any_complete && count_of(r->o, &r->runs[i]));
}

static struct spread spread_of(const struct rb_report *r, bool rate)
{
	double *v = xcalloc(r->n_runs + 1, sizeof(*v));
	bool any = false;
	struct spread s = { NAN, NAN, NAN, 0 };
	unsigned i;

	for (i = 0; i < r->n_runs; i++)
		any = any || r->runs[i].complete;
	for (i = 0; i < r->n_runs; i++) {
		double x = rate ? rb_rate(r->o, &r->runs[i])
				: rb_us_per_cycle(r->o, &r->runs[i]);

		if (counts(r, i, any) && !isnan(x))
			v[s.n++] = x;
	}
	if (s.n) {
		s.mean = stats_mean_of(v, s.n);
		s.sd = s.n > 1 ? stats_stddev_of(v, s.n) : NAN;
		s.cov_pct = s.mean > 0 ? s.sd / s.mean * 100.0 : NAN;
	}
	free(v);
	return s;
}

/* The latency of every run, merged. */
static struct hist *merged(const struct rb_report *r)
{
	struct hist *h = xmalloc(sizeof(*h));
	unsigned i;

	hist_init(h);
	for (i = 0; i < r->n_runs; i++)
		hist_merge(h, r->runs[i].hist);
	return h;
}

static double max_over_runs(const struct rb_report *r)
{
	double mx = NAN, x;
	unsigned i;

	for (i = 0; i < r->n_runs; i++) {
		x = max_us(r->o, &r->runs[i]);
		if (!isnan(x) && (isnan(mx) || x > mx))
			mx = x;
	}
	return mx;
}

/* ---- JSON ---- */

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Single-line files of DIR (named PREFIX...) as "path": "value". */
static void json_settings(struct json *j, const char *dir, const char *prefix)
{
	struct dirent **ent;
	int n, i;

	n = scandir(dir, &ent, NULL, by_name);
	for (i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, ent[i]->d_name);
		char val[1024];
		ssize_t len;

		if (!strncmp(ent[i]->d_name, prefix, strlen(prefix)) &&
		    ent[i]->d_name[0] != '.' &&
		    (len = read_small_file(path, val, sizeof(val))) > 0) {
			while (len && val[len - 1] == '\n')
				val[--len] = '\0';
			if (!strchr(val, '\n'))
				json_str(j, path, val);
		}
		free(path);
		free(ent[i]);
	}
	if (n >= 0)
		free(ent);
}

static void json_latency(struct json *j, const struct rb_opts *o,
			 const struct hist *h, double max)
{
	size_t k;

	for (k = 0; k < N_PCT; k++)
		json_double(j, pct[k].key, pct_us(h, pct[k].p));
	json_double(j, "max_us", max);
	json_double(j, "mean_us",
		    h && h->count ? hist_mean(h) / 1e3 : (double)NAN);
	json_u64(j, "latency_samples", h ? h->count : 0);
	(void)o;
}

static void json_run(struct json *j, const struct rb_opts *o,
		     const struct rb_run *r, unsigned i)
{
	json_object_begin(j, NULL);
	json_u64(j, "run", i + 1);
	json_bool(j, "complete", r->complete);
	json_ns_as_s(j, "elapsed_s", r->elapsed_ns);
	json_u64(j, count_key(o), count_of(o, r));
	json_double(j, rate_key(o), rb_rate(o, r));
	json_double(j, "us_per_cycle", rb_us_per_cycle(o, r));
	if (o->mode == RB_RING) {
		json_u64(j, "tokens_passed", r->tokens);
		json_u64(j, "warmup_cycles", r->warmup_cycles);
	} else if (o->mode == RB_RR) {
		json_u64(j, "warmup_transactions", r->warmup_transactions);
		json_u64(j, "requests", r->requests);
		json_u64(j, "responses", r->responses);
	} else {
		json_double(j, "mb_per_s", r->mb_per_s);
	}
	if (r->has_server) {
		json_u64(j, "server_requests", r->server_requests);
		json_u64(j, "server_responses", r->server_responses);
		json_u64(j, "server_connections", r->server_connections);
		json_u64(j, "server_dropped", r->server_dropped);
		json_u64(j, "server_refused", r->server_refused);
	}
	json_latency(j, o, o->mode == RB_TBENCH ? NULL : r->hist, max_us(o, r));
	json_object_end(j);
}

static void json_config(struct json *j, const struct rb_report *r)
{
	const struct rb_opts *o = r->o;

	json_object_begin(j, "config");
	if (o->mode == RB_RING) {
		json_u64(j, "members", o->members);
		json_str(j, "via", rb_via_name[o->via]);
		json_str(j, "tasks", o->processes ? "processes" : "threads");
		json_ns_as_s(j, "sleep_s", o->sleep_ns);
	} else {
		json_u64(j, "clients", o->clients);
	}
	if (o->mode == RB_RR) {
		json_str(j, "protocol", o->udp ? "udp" : "tcp");
		json_str(j, "role",
			 o->listen    ? "server"
			 : o->connect ? "client"
				      : "both");
		json_u64(j, "request_bytes", o->req_size);
		json_u64(j, "response_bytes", o->resp_size);
		json_str(j, "server", r->server);
		json_u64(j, "max_clients", o->max_clients);
		json_ns_as_s(j, "idle_timeout_s", o->idle_ns);
	}
	json_ns_as_s(j, "work_s", o->work_ns);
	json_ns_as_s(j, "duration_s", o->duration_ns);
	json_u64(j, "count", o->count);
	json_ns_as_s(j, "warmup_s", o->warmup_ns);
	json_u64(j, "runs", o->runs);
	json_u64(j, "progress_every", o->progress_every);
	json_object_end(j);
}

static void json_calibration(struct json *j, const struct rb_calib *c,
			     const struct rb_opts *o)
{
	json_object_begin(j, "calibration");
	json_str(j, "clock", "CLOCK_THREAD_CPUTIME_ID");
	json_double(j, "ns_per_loop", c->ns_per_loop);
	json_double(j, "loops_per_us", 1e3 / c->ns_per_loop);
	json_double(j, "ns_per_loop_min", c->ns_per_loop_min);
	json_str(j, "estimator", "median of trials");
	json_u64(j, "trial_loops", c->trial_loops);
	json_u64(j, "trials", c->trials);
	json_ns_as_s(j, "calibrate_s", c->spent_ns);
	json_i64(j, "cpu", c->cpu);
	json_ns_as_s(j, "work_s", o->work_ns);
	json_u64(j, "work_loops", c->work_loops);
	json_object_end(j);
}

static void json_placement(struct json *j, const struct rb_report *r)
{
	unsigned i;

	json_array_begin(j, "cpus");
	for (i = 0; i < r->o->n_cpus; i++)
		json_i64(j, NULL, r->o->cpus[i]);
	json_array_end(j);
	json_array_begin(j, "placement");
	for (i = 0; i < r->n_place; i++) {
		json_object_begin(j, NULL);
		json_str(j, "role", r->place[i].role);
		json_u64(j, "index", r->place[i].index);
		if (r->place[i].cpu < 0)
			json_null(j, "cpu");
		else
			json_i64(j, "cpu", r->place[i].cpu);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_work(struct json *j, const struct rb_report *r)
{
	uint64_t *v = xcalloc(r->n_work, sizeof(*v)), med;
	unsigned i;

	memcpy(v, r->work_cpu_ns, r->n_work * sizeof(*v));
	json_ns_as_s(j, "work_s", r->o->work_ns);
	json_array_begin(j, "work_cpu_s");
	for (i = 0; i < r->n_work; i++)
		json_ns_as_s(j, NULL, v[i]);
	json_array_end(j);
	if (stats_sort_u64(v, r->n_work))
		xalloc_die();
	med = stats_percentile_u64(v, r->n_work, 50.0);
	json_ns_as_s(j, "work_cpu_median_s", med);
	json_double(j, "work_error_pct",
		    r->o->work_ns ? ((double)med - (double)r->o->work_ns) /
					    (double)r->o->work_ns * 100.0
				  : (double)NAN);
	free(v);
}

static void write_json(FILE *f, const struct rb_report *r)
{
	const struct rb_opts *o = r->o;
	struct spread rate = spread_of(r, true), cyc = spread_of(r, false);
	struct hist *h = merged(r);
	struct json j;
	unsigned i;

	json_init(&j, f, true);
	json_object_begin(&j, NULL);
	json_run_header(&j, r->ri);
	json_str(&j, "mode", rb_mode_name[o->mode]);
	json_bool(&j, "partial", r->partial);
	json_bool(&j, "interrupted", r->signo != 0);
	if (r->error)
		json_str(&j, "error", r->error);
	else
		json_null(&j, "error");
	json_config(&j, r);
	json_calibration(&j, r->calib, o);
	if (o->mode == RB_CALIBRATE) {
		json_work(&j, r);
	} else {
		json_str(&j, "latency",
			 o->mode == RB_RING ? "wakeup per hop"
			 : o->mode == RB_RR ? "round trip"
					    : "tbench operation");
		json_double(&j, rate_key(o), rate.mean);
		json_double(&j, "us_per_cycle", cyc.mean);
		json_latency(&j, o, o->mode == RB_TBENCH ? NULL : h,
			     max_over_runs(r));
		json_u64(&j, "runs_counted", rate.n);
		json_double(&j, "rate_stddev", rate.sd);
		json_double(&j, "rate_cov_pct", rate.cov_pct);
		json_double(&j, "us_per_cycle_stddev", cyc.sd);
		json_double(&j, "us_per_cycle_cov_pct", cyc.cov_pct);
		json_array_begin(&j, "runs");
		for (i = 0; i < r->n_runs; i++)
			json_run(&j, o, &r->runs[i], i);
		json_array_end(&j);
	}
	json_placement(&j, r);
	json_object_begin(&j, "sched");
	json_settings(&j, "/proc/sys/kernel", "sched_");
	json_settings(&j, "/sys/kernel/debug/sched", "");
	json_object_end(&j);
	json_object_end(&j);
	json_finish(&j);
	free(h);
}

/* ---- CSV ---- */

static void csv_num(FILE *f, double v, char sep)
{
	if (isnan(v))
		fprintf(f, "%c", sep);
	else
		fprintf(f, "%.6g%c", v, sep);
}

static void write_csv(FILE *f, const struct rb_report *r)
{
	const struct rb_opts *o = r->o;
	unsigned i;
	size_t k;

	fprintf(f, "mode,run,complete,elapsed_s,%s,%s,us_per_cycle,",
		count_key(o), rate_key(o));
	for (k = 0; k < N_PCT; k++)
		fprintf(f, "%s,", pct[k].key);
	fputs("max_us,tokens_passed,requests,responses,server_requests,"
	      "server_responses\n",
	      f);
	for (i = 0; i < r->n_runs; i++) {
		const struct rb_run *x = &r->runs[i];
		const struct hist *h = o->mode == RB_TBENCH ? NULL : x->hist;

		fprintf(f, "%s,%u,%d,%.9f,%llu,", rb_mode_name[o->mode], i + 1,
			x->complete, (double)x->elapsed_ns / 1e9,
			(unsigned long long)count_of(o, x));
		csv_num(f, rb_rate(o, x), ',');
		csv_num(f, rb_us_per_cycle(o, x), ',');
		for (k = 0; k < N_PCT; k++)
			csv_num(f, pct_us(h, pct[k].p), ',');
		csv_num(f, max_us(o, x), ',');
		fprintf(f, "%llu,%llu,%llu,", (unsigned long long)x->tokens,
			(unsigned long long)x->requests,
			(unsigned long long)x->responses);
		if (x->has_server)
			fprintf(f, "%llu,%llu\n",
				(unsigned long long)x->server_requests,
				(unsigned long long)x->server_responses);
		else
			fputs(",\n", f);
	}
}

/* ---- text ---- */

static void text_head(FILE *f, const struct rb_report *r)
{
	const struct rb_opts *o = r->o;
	char a[32], b[32];

	if (o->mode == RB_RING)
		fprintf(f,
			"ringbench ring: %u %s via %s, work %s, sleep %s per "
			"hop\n",
			o->members, o->processes ? "processes" : "threads",
			rb_via_name[o->via], fmt_duration(a, o->work_ns),
			fmt_duration(b, o->sleep_ns));
	else if (o->mode == RB_RR)
		fprintf(f,
			"ringbench rr: %u client(s), %s, %llu-byte requests, "
			"%llu-byte responses, server %s\n",
			o->clients, o->udp ? "UDP" : "TCP",
			(unsigned long long)o->req_size,
			(unsigned long long)o->resp_size, r->server);
	else if (o->mode == RB_TBENCH)
		fprintf(f, "ringbench tbench: %u client(s)\n", o->clients);
	else
		fprintf(f, "ringbench calibrate: work %s\n",
			fmt_duration(a, o->work_ns));
	fprintf(f,
		"calibration: %.1f loops/us on CPU %d (%llu loops, median of "
		"%u, %s)",
		1e3 / r->calib->ns_per_loop, r->calib->cpu,
		(unsigned long long)r->calib->trial_loops, r->calib->trials,
		fmt_duration(a, r->calib->spent_ns));
	if (o->work_ns)
		fprintf(f, "; work %s = %llu loops",
			fmt_duration(b, o->work_ns),
			(unsigned long long)r->calib->work_loops);
	fputc('\n', f);
}

static void write_text(FILE *f, const struct rb_report *r)
{
	const struct rb_opts *o = r->o;
	struct spread rate = spread_of(r, true), cyc = spread_of(r, false);
	struct hist *h = merged(r);
	unsigned i;
	size_t k;

	text_head(f, r);
	if (o->mode == RB_CALIBRATE) {
		for (i = 0; i < r->n_work; i++)
			fprintf(f, "work %u: %.3f ms of thread CPU time\n",
				i + 1, (double)r->work_cpu_ns[i] / 1e6);
		free(h);
		return;
	}
	fprintf(f, "%-4s %12s %14s %12s", "run", count_key(o), rate_key(o),
		"us_per_cycle");
	for (k = 0; k < N_PCT; k++)
		fprintf(f, " %8s", pct[k].head);
	fprintf(f, " %9s\n", "max");
	for (i = 0; i < r->n_runs; i++) {
		const struct rb_run *x = &r->runs[i];
		const struct hist *xh = o->mode == RB_TBENCH ? NULL : x->hist;

		fprintf(f, "%-4u %12llu %14.1f %12.3f", i + 1,
			(unsigned long long)count_of(o, x), rb_rate(o, x),
			rb_us_per_cycle(o, x));
		for (k = 0; k < N_PCT; k++)
			fprintf(f, " %8.2f", pct_us(xh, pct[k].p));
		fprintf(f, " %9.2f%s\n", max_us(o, x),
			x->complete ? "" : "  (partial)");
		if (x->has_server)
			fprintf(f,
				"     server: %llu connection(s), %llu "
				"requests, %llu responses, %llu dropped\n",
				(unsigned long long)x->server_connections,
				(unsigned long long)x->server_requests,
				(unsigned long long)x->server_responses,
				(unsigned long long)x->server_dropped);
	}
	if (rate.n > 1)
		fprintf(f,
			"mean %27.1f %12.3f  stddev %.1f/s, %.3f us; CoV "
			"%.2f%%\n",
			rate.mean, cyc.mean, rate.sd, cyc.sd, rate.cov_pct);
	if (o->mode != RB_TBENCH)
		fprintf(f,
			"latency (%s, us, all runs): p50 %.2f, p99 %.2f, "
			"p99.99 %.2f, max %.2f over %llu samples\n",
			o->mode == RB_RING ? "wakeup per hop" : "round trip",
			pct_us(h, 50), pct_us(h, 99), pct_us(h, 99.99),
			h->count ? (double)h->max_ns / 1e3 : NAN,
			(unsigned long long)h->count);
	if (r->partial)
		fprintf(f, "partial result: %s\n",
			r->error ? r->error : "stopped by a signal");
	free(h);
}

int rb_report_write(FILE *f, const struct rb_report *r)
{
	if (r->o->format == FORMAT_JSON)
		write_json(f, r);
	else if (r->o->format == FORMAT_CSV)
		write_csv(f, r);
	else
		write_text(f, r);
	if (fflush(f) || ferror(f))
		return -(errno ? errno : EIO);
	return 0;
}
