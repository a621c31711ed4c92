// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * summary.txt: the 2009 headline on line 1, the high-order line on line 2
 * ("LABEL HighOrder: order-2 100.0% ... (p99 fault 3.1 ms)"), PARTIAL: on
 * line 3 when the run did not complete, then the same figures as result.json in lines a
 * person reads.  Every string that came from a file is escaped (control
 * characters, C1 controls, bytes that are not UTF-8), so a hostile label
 * or note cannot drive a terminal.
 */
#include <config.h>

#include <math.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/output.h"
#include "lib/timing.h"
#include "compare/summarize.h"

/* S escaped, or "n/a". */
static void put_text(FILE *f, const char *s)
{
	char *e;

	if (!s) {
		fputs("n/a", f);
		return;
	}
	e = text_escape(s);
	fputs(e, f);
	free(e);
}

void summ_headline(FILE *f, const char *label, double mean_s, double stddev_s,
		   uint64_t failures)
{
	char elapsed[32];

	put_text(f, label);
	fprintf(f, " Elapsed:%s(stddev:%.3f) Failures:%llu\n",
		fmt_mmss(elapsed, mean_s), stddev_s,
		(unsigned long long)failures);
}

static void put_u(FILE *f, const char *key, struct summ_u64 u)
{
	if (u.set)
		fprintf(f, " %s=%llu", key, (unsigned long long)u.v);
	else
		fprintf(f, " %s=n/a", key);
}

/* Nanoseconds as seconds with millisecond resolution. */
static void put_ns(FILE *f, const char *key, struct summ_u64 ns)
{
	if (ns.set)
		fprintf(f, " %s=%.3f", key, (double)ns.v / 1e9);
	else
		fprintf(f, " %s=n/a", key);
}

static void put_num(FILE *f, const char *key, const char *literal)
{
	fprintf(f, " %s=%s", key, literal ? literal : "n/a");
}

/* V with DECIMALS digits (-1: as short as exact, %g), then UNIT. */
static void put_double(FILE *f, double v, int decimals, const char *unit)
{
	if (!isfinite(v))
		fputs("n/a", f);
	else if (decimals < 0)
		fprintf(f, "%g%s", v, unit);
	else
		fprintf(f, "%.*f%s", decimals, v, unit);
}

/* " KEY=V" with DECIMALS digits, or " KEY=n/a". */
static void put_key_double(FILE *f, const char *key, double v, int decimals)
{
	fprintf(f, " %s=", key);
	put_double(f, v, decimals, "");
}

static void put_run(FILE *f, size_t i, const struct summ_gitk_run *g)
{
	struct summ_u64 psi;
	int k;

	fprintf(f, "  fake-gitk-%zu", i + 1);
	put_num(f, "elapsed_s",
		g->elapsed_s.type == JSON_NUMBER ? g->elapsed_s.str : NULL);
	put_u(f, "majflt", g->majflt);
	put_u(f, "pswpin", g->delta[SC_PSWPIN]);
	put_u(f, "pswpout", g->delta[SC_PSWPOUT]);
	put_ns(f, "reclaim_s", g->reclaim_ns);
	put_ns(f, "compact_s", g->compact_ns);
	for (k = SC_PSI_SOME_US; k <= SC_PSI_FULL_US; k++) {
		psi = g->delta[k];
		psi.set = psi.set && psi.v <= UINT64_MAX / 1000;
		psi.v *= 1000;
		put_ns(f, summ_counter_key[k], psi);
	}
	put_u(f, "pgscan_kswapd", g->delta[SC_PGSCAN_KSWAPD]);
	put_u(f, "pgscan_direct", g->delta[SC_PGSCAN_DIRECT]);
	put_u(f, "allocstall", g->delta[SC_ALLOCSTALL]);
	put_u(f, "pgsteal_anon", g->delta[SC_PGSTEAL_ANON]);
	put_u(f, "pgsteal_file", g->delta[SC_PGSTEAL_FILE]);
	put_num(f, "user_s",
		g->user_s.type == JSON_NUMBER ? g->user_s.str : NULL);
	put_num(f, "sys_s", g->sys_s.type == JSON_NUMBER ? g->sys_s.str : NULL);
	put_num(f, "user_sampled_s",
		g->user_sampled_s.type == JSON_NUMBER ? g->user_sampled_s.str
						      : NULL);
	put_u(f, "progress_lines", g->progress_lines);
	put_key_double(f, "wait_s", g->wait_s, 3);
	put_key_double(f, "elapsed_per_user", g->elapsed_per_user, 4);
	put_key_double(f, "sys_per_user", g->sys_per_user, 4);
	put_key_double(f, "wait_per_user", g->wait_per_user, 4);
	put_num(f, "runq_s",
		g->runq_s.type == JSON_NUMBER ? g->runq_s.str : NULL);
	put_key_double(f, "elapsed_less_runq_per_user",
		       g->elapsed_less_runq_per_user, 4);
	put_ns(f, "others_cpu_s", g->others_cpu_ns);
	put_ns(f, "kthreads_cpu_s", g->kthreads_cpu_ns);
	fputc('\n', f);
}

/* The interleaved A/B run this result is an arm of, if any. */
static void put_interleave(FILE *f, const struct summ_facts *fa)
{
	if (!fa->interleave_arm)
		return;
	fputs("interleave: ", f);
	put_text(f, fa->interleave_name);
	fputc('=', f);
	put_text(f, fa->interleave_values);
	fprintf(f, ", arm %s (", fa->interleave_arm);
	put_text(f, fa->interleave_value);
	fputs("), order ", f);
	put_text(f, fa->interleave_order);
	fputs(", seed ", f);
	if (fa->interleave_seed.set)
		fprintf(f, "%llu", (unsigned long long)fa->interleave_seed.v);
	else
		fputs("n/a", f);
	fputs(", paired with ", f);
	put_text(f, fa->interleave_other);
	fputc('\n', f);
}

/* "; WHAT (lag-1 autocorrelation 0.69): THEN". */
static void put_serial(FILE *f, const char *what, double lag1, const char *then)
{
	fprintf(f, "; %s (lag-1 autocorrelation ", what);
	put_double(f, lag1, 2, "");
	fprintf(f, "): %s", then);
}

/*
 * Which memory reclaim took the pages from, whether that varied between
 * the runs (elapsed follows the swap volume) and whether it held for
 * stretches of runs, which makes them dependent.
 */
static void put_reclaim_split(FILE *f, const struct summ_run *r)
{
	fputs("reclaim split: ", f);
	if (!r->n_anon) {
		fputs("n/a (no pgsteal_anon, pgsteal_file)\n", f);
		return;
	}
	fputs("anonymous ", f);
	put_double(f, r->anon_pct_mean, 1, "%");
	fprintf(f, " of the pages reclaimed (mean of %zu runs; ", r->n_anon);
	put_double(f, r->anon_pct_min, 1, "%");
	fprintf(f, " in run %zu to ", r->anon_min_run);
	put_double(f, r->anon_pct_max, 1, "%");
	fprintf(f, " in run %zu)", r->anon_max_run);
	if (r->anon_varied) {
		fputs("; varied between runs", f);
		if (!isnan(r->anon_epu_r)) {
			fputs(", elapsed_per_user with it (correlation ", f);
			put_double(f, r->anon_epu_r, 2, ")");
		}
	}
	if (r->anon_held)
		put_serial(f, "held for stretches of runs", r->anon_lag1,
			   "the runs are not independent draws, compare "
			   "several results");
	fputc('\n', f);
}

static void put_runs(FILE *f, const struct summ_run *r)
{
	const struct summ_facts *fa = &r->facts;
	const char *what;
	size_t i;

	fprintf(f, "runs: %zu of ", r->n_runs);
	if (fa->runs_auto)
		fputs("auto", f);
	else if (fa->runs_asked.set)
		fprintf(f, "%llu", (unsigned long long)fa->runs_asked.v);
	else
		fputs("n/a", f);
	fputs(" counted fake-gitk runs (warmup ", f);
	if (fa->warmup.set)
		fprintf(f, "%llu)\n", (unsigned long long)fa->warmup.v);
	else
		fputs("n/a)\n", f);
	fprintf(f, "stopped by: %s;", fa->stopped_by ? fa->stopped_by : "n/a");
	fputs(" precision target ", f);
	put_double(f, fa->precision_pct, -1, "%");
	fputs(", max runs ", f);
	if (fa->max_runs.set)
		fprintf(f, "%llu", (unsigned long long)fa->max_runs.v);
	else
		fputs("n/a", f);
	fputs(", time budget ", f);
	put_double(f, fa->time_budget_s, -1, " s");
	(void)summ_precision(r, &what);
	fprintf(f, "; precision of %s",
		fa->interleave_arm ? "the paired elapsed_per_user ratio"
				   : what);
	fputs("\nelapsed: mean ", f);
	put_double(f, r->mean_s, 3, " s");
	fputs(", stddev ", f);
	put_double(f, r->stddev_s, 3, " s");
	fputs(", CoV ", f);
	put_double(f, r->cv_pct, 2, "%");
	fputs(", 95% CI of the mean +/-", f);
	put_double(f, r->ci95_pct, 2, "%");
	/*
	 * The user work is the same every run: its spread is the machine's,
	 * the floor under the CoV of elapsed.
	 */
	fputs("\ncpu: user mean ", f);
	put_double(f, r->user_mean_s, 3, " s");
	fputs(", CoV ", f);
	put_double(f, r->user_cv_pct, 2, "%");
	fputs(" (the same work every run: the machine's own spread); sys mean ",
	      f);
	put_double(f, r->sys_mean_s, 3, " s");
	fputs(", CoV ", f);
	put_double(f, r->sys_cv_pct, 2, "%");
	/* The machine's speed divided out; raw elapsed is the line above. */
	fputs("\nper user-CPU second: elapsed_per_user geometric mean ", f);
	put_double(f, r->epu_mean, 4, "");
	fputs(", CoV ", f);
	put_double(f, r->epu_cv_pct, 2, "%");
	fputs(", 95% CI +/-", f);
	put_double(f, r->epu_ci95_pct, 2, "%");
	fputs("; sys_per_user mean ", f);
	put_double(f, r->spu_mean, 4, "");
	fputs(", wait_per_user mean ", f);
	put_double(f, r->wpu_mean, 4, "");
	if (r->epu_serial)
		put_serial(f, "runs serially correlated", r->epu_lag1,
			   "the interval assumes independent runs and is too "
			   "narrow");
	/* Dividing by user CPU removes the host's speed, not other work. */
	fputs("\nmachine: runq mean ", f);
	put_double(f, r->runq_mean_s, 3, " s");
	fputs(" (fake-gitk waiting for a CPU; without it, elapsed per user-CPU "
	      "second ",
	      f);
	put_double(f, r->erpu_mean, 4, "");
	fputs("), others_cpu mean ", f);
	put_double(f, r->others_mean_s, 3, " s");
	fputs(" (the rest of the machine's processes), kthreads_cpu mean ", f);
	put_double(f, r->kthreads_mean_s, 3, " s");
	fputs(" per run\n", f);
	put_reclaim_split(f, r);
	put_interleave(f, fa);
	for (i = 0; i < r->n_runs; i++)
		put_run(f, i, &r->runs[i]);
}

static void put_pressure(FILE *f, const struct summ_run *r)
{
	const struct summ_facts *fa = &r->facts;
	size_t i;

	if (fa->pressure_mode && !strcmp(fa->pressure_mode, "none")) {
		fputs("pressure: none: no memory pressure was applied: ", f);
		put_text(f, fa->pressure_why ? fa->pressure_why
					     : "no reason recorded");
		fputc('\n', f);
	} else {
		fprintf(f, "pressure: mode=%s ratio=",
			fa->pressure_mode ? fa->pressure_mode : "n/a");
		put_double(f, fa->pressure_ratio, -1, "");
		put_u(f, "footprint_bytes", fa->footprint_bytes);
		put_u(f, "memory_bytes", fa->memory_bytes);
		fprintf(f, " calibration=%s\n",
			fa->calibration ? fa->calibration : "n/a");
		fputs("pressure why: ", f);
		put_text(f, fa->pressure_why);
		fputc('\n', f);
	}
	if (r->has_shrink) {
		fputs("shrink:", f);
		for (i = 0; i < SUMM_SHRINK_KEYS; i++)
			put_u(f, summ_shrink_keys[i], r->shrink[i]);
		fprintf(f, " reached=%s\n",
			r->shrink_reached < 0	 ? "n/a"
			: r->shrink_reached == 1 ? "yes"
						 : "no");
	}
	fputs("confinement: mem-limit=", f);
	put_text(f, fa->mem_limit);
	fputs(" swap=", f);
	put_text(f, fa->swap);
	fputc('\n', f);
}

static void put_kernel(FILE *f, const struct summ_run *r)
{
	struct summ_u64 reclaim = { 0 }, compact = { 0 };
	size_t i;

	if (summ_part_num(&r->vmstat, "cg_swap_bytes_max"))
		fprintf(f,
			"workloads' cgroup: cg_swap_bytes_max=%s bytes "
			"swapped at most, cg_pgmajfault_delta=%s major "
			"faults\n",
			summ_part_num(&r->vmstat, "cg_swap_bytes_max"),
			summ_part_num(&r->vmstat, "cg_pgmajfault_delta")
				?: "n/a");
	fputs("swapped:", f);
	put_num(f, "pswpout_delta", summ_part_num(&r->vmstat, "pswpout_delta"));
	put_num(f, "pswpin_delta", summ_part_num(&r->vmstat, "pswpin_delta"));
	fprintf(f, " pages (page size %ld bytes)\n", sysconf(_SC_PAGESIZE));
	if (!summ_part_num(&r->kmsg, "failures"))
		fputs("failures: unknown (no kernel log: the headline's "
		      "Failures:0 is not a count), OOM kills unknown\n",
		      f);
	else
		fprintf(f,
			"failures: %s page allocation failures, %s OOM "
			"kills\n",
			summ_part_num(&r->kmsg, "failures"),
			summ_part_num(&r->kmsg, "oom_kills") ?: "n/a");
	/* Totals over the counted runs: null if any run's is unknown. */
	reclaim.set = compact.set = r->n_runs > 0;
	for (i = 0; i < r->n_runs; i++) {
		reclaim.set = reclaim.set && r->runs[i].reclaim_ns.set;
		compact.set = compact.set && r->runs[i].compact_ns.set;
		reclaim.v += r->runs[i].reclaim_ns.v;
		compact.v += r->runs[i].compact_ns.v;
	}
	fputs("reclaim:", f);
	put_num(f, "direct_reclaim_total_s",
		summ_part_num(&r->trace, "direct_reclaim_total_s"));
	put_num(f, "direct_reclaim_max_s",
		summ_part_num(&r->trace, "direct_reclaim_max_s"));
	put_num(f, "memcg_reclaim_total_s",
		summ_part_num(&r->trace, "memcg_reclaim_total_s"));
	fputs("; in the counted runs:", f);
	put_ns(f, "reclaim_s", reclaim);
	put_ns(f, "compact_s", compact);
	fputc('\n', f);
}

static void put_stalls(FILE *f, const struct summ_run *r)
{
	static const char *const keys[] = { "stall_count", "stall_time_s",
					    "p99_s", "max_s" };
	size_t i, k;

	fputs("stalls (gaps over ", f);
	put_double(f, r->facts.stall_s, -1, "s");
	fputs("):\n", f);
	for (i = 0; i < r->n_reports; i++) {
		fputs("  ", f);
		put_text(f, r->reports[i].name);
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			put_num(f, keys[k],
				summ_part_num(&r->reports[i], keys[k]));
		fputc('\n', f);
	}
}

/*
 * ringbench's figures on one line, as its JSON wrote them: the mode, the
 * rate (cycles for the ring, transactions for rr and tbench), the
 * microseconds per cycle, the latency percentiles and maximum, and the
 * spread of the rate over the runs counted.
 */
static void put_ringbench(FILE *f, const struct summ_run *r)
{
	static const char *const keys[] = {
		"us_per_cycle", "p50_us",	"p90_us", "p99_us",
		"p999_us",	"p9999_us",	"max_us", "runs_counted",
		"rate_stddev",	"rate_cov_pct",
	};
	const struct json_node *root = r->ringbench.root,
			       *partial = json_read_member(root, "partial");
	const char *rate = json_read_member(root, "cycles_per_s")
				   ? "cycles_per_s"
				   : "transactions_per_s";
	size_t k;

	if (!root)
		return;
	fputs("ringbench: mode=", f);
	put_text(f, json_read_string(root, "mode"));
	put_num(f, rate, summ_part_num(&r->ringbench, rate));
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		put_num(f, keys[k], summ_part_num(&r->ringbench, keys[k]));
	fprintf(f, " partial=%s\n",
		!partial		      ? "n/a"
		: partial->type == JSON_TRUE  ? "yes"
		: partial->type == JSON_FALSE ? "no"
					      : "n/a");
}

static void put_notes(FILE *f, const struct summ_strv *notes)
{
	size_t i;

	for (i = 0; i < notes->n; i++) {
		fputs("note: ", f);
		put_text(f, notes->v[i]);
		fputc('\n', f);
	}
}

void summ_write_summary(FILE *f, const struct summ_run *r)
{
	const struct summ_facts *fa = &r->facts;
	const char *label = fa->run_label ? fa->run_label : fa->label;
	uint64_t failures = 0;

	if (!label)
		label = "run";
	/* Failures:N counts what the kernel log showed; 0 if unknown. */
	(void)json_read_u64(r->kmsg.root, "failures", &failures);
	if (r->n_elapsed) {
		summ_headline(f, label, r->mean_s, r->stddev_s, failures);
	} else {
		put_text(f, label);
		fputs(" partial: no fake-gitk run completed\n", f);
	}
	put_text(f, label);
	summ_highorder_line(f, r);
	if (!fa->has_partial || fa->partial) {
		fputs("PARTIAL: ", f);
		put_text(f, fa->partial_reason ? fa->partial_reason
			    : fa->has_partial
				    ? "no reason recorded"
				    : "run.facts does not say whether the run "
				      "completed");
		fputc('\n', f);
	}
	fputc('\n', f);
	summ_vm_text(f, r);
	put_runs(f, r);
	put_pressure(f, r);
	put_kernel(f, r);
	summ_highorder_text(f, r);
	put_stalls(f, r);
	put_ringbench(f, r);
	summ_block_text(f, r);
	put_notes(f, &r->notes);
	put_notes(f, &r->own_notes);
}
