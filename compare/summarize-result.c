// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * result.json (doc/design.md, contract 4; format 2): the run's facts, the
 * per-run figures, the statistics of the elapsed times, the pressure and the
 * runs' stopping rule, and the programs' own JSON outputs copied through the
 * writer (never spliced as text).
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json-read.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "compare/summarize.h"

static void put_u64(struct json *j, const char *key, struct summ_u64 u)
{
	if (u.set)
		json_u64(j, key, u.v);
	else
		json_null(j, key);
}

/* Nanoseconds as seconds (exact), or null. */
static void put_ns(struct json *j, const char *key, struct summ_u64 ns)
{
	if (ns.set)
		json_ns_as_s(j, key, ns.v);
	else
		json_null(j, key);
}

/* A part's tree, or null. */
static void put_part(struct json *j, const char *key, const struct summ_part *p)
{
	/* Cannot fail: summ_load_object() refused trees nested too deep. */
	(void)json_copy(j, key, p->root);
}

/* KEY: V where KNOWN, else null. */
static void put_bool_if(struct json *j, const char *key, bool known, bool v)
{
	if (known)
		json_bool(j, key, v);
	else
		json_null(j, key);
}

/* A PSI total delta (microseconds) as seconds. */
static void put_psi(struct json *j, const char *key, struct summ_u64 us)
{
	struct summ_u64 ns = { us.set && us.v <= UINT64_MAX / 1000,
			       us.v * 1000 };

	put_ns(j, key, ns);
}

static void put_gitk_run(struct json *j, const struct summ_run *r, size_t i)
{
	const struct summ_gitk_run *g = &r->runs[i];

	json_object_begin(j, NULL);
	json_copy(j, "elapsed_s", &g->elapsed_s);
	put_u64(j, "majflt", g->majflt);
	put_u64(j, "pswpin", g->delta[SC_PSWPIN]);
	put_u64(j, "pswpout", g->delta[SC_PSWPOUT]);
	put_ns(j, "reclaim_s", g->reclaim_ns);
	put_ns(j, "compact_s", g->compact_ns);
	put_psi(j, "psi_some_s", g->delta[SC_PSI_SOME_US]);
	put_psi(j, "psi_full_s", g->delta[SC_PSI_FULL_US]);
	put_u64(j, "pgscan_kswapd", g->delta[SC_PGSCAN_KSWAPD]);
	put_u64(j, "pgscan_direct", g->delta[SC_PGSCAN_DIRECT]);
	put_u64(j, "allocstall", g->delta[SC_ALLOCSTALL]);
	put_u64(j, "pgsteal_anon", g->delta[SC_PGSTEAL_ANON]);
	put_u64(j, "pgsteal_file", g->delta[SC_PGSTEAL_FILE]);
	if (g->has_ho) {
		unsigned o;

		json_array_begin(j, "high_order");
		for (o = 0; o < SUMM_HO_ORDERS; o++) {
			if (!g->ho_attempts[o])
				continue;
			json_object_begin(j, NULL);
			json_u64(j, "order", o);
			json_u64(j, "attempts", g->ho_attempts[o]);
			json_u64(j, "successes", g->ho_successes[o]);
			json_object_end(j);
		}
		json_array_end(j);
	} else {
		json_null(j, "high_order");
	}
	json_copy(j, "user_s", &g->user_s);
	json_copy(j, "sys_s", &g->sys_s);
	json_copy(j, "user_sampled_s", &g->user_sampled_s);
	json_copy(j, "start_mono_s", &g->start_mono_s);
	json_copy(j, "end_mono_s", &g->end_mono_s);
	put_u64(j, "progress_lines", g->progress_lines);
	json_double(j, "wait_s", g->wait_s);
	json_double(j, "elapsed_per_user", g->elapsed_per_user);
	json_double(j, "sys_per_user", g->sys_per_user);
	json_double(j, "wait_per_user", g->wait_per_user);
	json_copy(j, "runq_s", &g->runq_s);
	json_double(j, "elapsed_less_runq_per_user",
		    g->elapsed_less_runq_per_user);
	put_ns(j, "others_cpu_s", g->others_cpu_ns);
	put_ns(j, "kthreads_cpu_s", g->kthreads_cpu_ns);
	/* Run N of an arm is in pair N with run N of the other arm. */
	if (r->facts.interleave_arm)
		json_u64(j, "pair", i + 1);
	else
		json_null(j, "pair");
	json_object_end(j);
}

static void put_header(struct json *j, const struct summ_run *r)
{
	const struct summ_facts *f = &r->facts;

	json_u64(j, "format_version", SUMM_RESULT_FORMAT_VERSION);
	json_str(j, "program", "run-test.sh");
	json_str(j, "version", f->version);
	json_str(j, "command_line", f->command_line);
	json_str(j, "label", f->label ? f->label : f->run_label);
	json_str(j, "run_label", f->run_label);
	json_str(j, "kernel", f->kernel);
	put_u64(j, "seed", f->seed);
	/* Not said is not complete. */
	json_bool(j, "partial", !f->has_partial || f->partial);
	json_str(j, "partial_reason",
		 f->partial_reason ? f->partial_reason
		 : f->has_partial  ? NULL
				   : "run.facts does not say whether the run "
				     "completed");
}

/* A number of a part (as written), or null when absent or no number. */
static void put_from(struct json *j, const char *key, const struct summ_part *p,
		     const char *member)
{
	const struct json_node *n = json_read_member(p->root, member);

	json_copy(j, key, n && n->type == JSON_NUMBER ? n : NULL);
}

static void put_pressure(struct json *j, const struct summ_run *r)
{
	const struct summ_facts *f = &r->facts;
	size_t i;

	json_object_begin(j, "pressure");
	json_str(j, "mode", f->pressure_mode);
	json_str(j, "why", f->pressure_why);
	json_double(j, "ratio", f->pressure_ratio);
	put_u64(j, "footprint_bytes", f->footprint_bytes);
	put_u64(j, "memory_bytes", f->memory_bytes);
	json_str(j, "calibration", f->calibration);
	put_from(j, "calibration_peak_rss_bytes", &r->calibration,
		 "peak_rss_bytes");
	if (r->has_shrink) {
		json_object_begin(j, "shrink");
		for (i = 0; i < SUMM_SHRINK_KEYS; i++)
			put_u64(j, summ_shrink_keys[i], r->shrink[i]);
		if (r->shrink_reached < 0)
			json_null(j, "reached");
		else
			json_bool(j, "reached", r->shrink_reached);
		json_object_end(j);
	} else {
		json_null(j, "shrink");
	}
	put_part(j, "machine_before", &r->machine_before);
	put_part(j, "machine_confined", &r->machine_confined);
	put_part(j, "machine_after", &r->machine_after);
	json_object_end(j);
}

/* The values "A,B" of an interleaved run as a list of its two strings. */
static void put_values(struct json *j, const char *v)
{
	const char *comma = v ? strchr(v, ',') : NULL;
	char *first;

	if (!comma) {
		json_null(j, "values");
		return;
	}
	first = xasprintf("%.*s", (int)(comma - v), v);
	json_array_begin(j, "values");
	json_str(j, NULL, first);
	json_str(j, NULL, comma + 1);
	json_array_end(j);
	free(first);
}

/* The interleave object of an arm of run-test.sh --interleave, or null. */
static void put_interleave(struct json *j, const struct summ_facts *f)
{
	if (!f->interleave_arm) {
		json_null(j, "interleave");
		return;
	}
	json_object_begin(j, "interleave");
	json_str(j, "name", f->interleave_name);
	put_values(j, f->interleave_values);
	json_str(j, "arm", f->interleave_arm);
	json_str(j, "value", f->interleave_value);
	json_str(j, "order", f->interleave_order);
	put_u64(j, "seed", f->interleave_seed);
	json_str(j, "other", f->interleave_other);
	json_object_end(j);
}

static void put_runs(struct json *j, const struct summ_run *r)
{
	const struct summ_facts *f = &r->facts;
	const char *what;

	(void)summ_precision(r, &what);
	json_object_begin(j, "runs");
	if (f->runs_auto)
		json_str(j, "asked", "auto");
	else
		put_u64(j, "asked", f->runs_asked);
	put_u64(j, "done", f->runs_done);
	put_u64(j, "warmup", f->warmup);
	json_str(j, "stopped_by", f->stopped_by);
	json_double(j, "precision_pct", f->precision_pct);
	put_u64(j, "max_runs", f->max_runs);
	json_double(j, "time_budget_s", f->time_budget_s);
	/* What --gitk-runs=auto's precision is of. */
	json_str(j, "precision_of",
		 f->interleave_arm ? "paired_elapsed_per_user" : what);
	json_object_end(j);
	put_interleave(j, f);
	json_object_begin(j, "confinement");
	json_str(j, "mem_limit", f->mem_limit);
	json_str(j, "swap", f->swap);
	json_object_end(j);
}

static void put_copies(struct json *j, const struct summ_run *r)
{
	size_t i;

	json_object_begin(j, "latency");
	for (i = 0; i < r->n_reports; i++)
		put_part(j, r->reports[i].name, &r->reports[i]);
	json_object_end(j);
	json_object_begin(j, "monitors");
	put_part(j, "vmstat", &r->vmstat);
	put_part(j, "kmsg", &r->kmsg);
	put_part(j, "trace", &r->trace);
	put_part(j, "highorder", &r->highorder);
	json_object_end(j);
	if (r->fake_music.root)
		put_part(j, "fake_music", &r->fake_music);
	if (r->seqbench.root)
		put_part(j, "seqbench", &r->seqbench);
	if (r->ringbench.root)
		put_part(j, "ringbench", &r->ringbench);
	json_array_begin(j, "notes");
	for (i = 0; i < r->notes.n; i++)
		json_str(j, NULL, r->notes.v[i]);
	for (i = 0; i < r->own_notes.n; i++)
		json_str(j, NULL, r->own_notes.v[i]);
	json_array_end(j);
}

void summ_write_result(FILE *out, const struct summ_run *r)
{
	struct json j;
	size_t i;

	json_init(&j, out, true);
	json_object_begin(&j, NULL);
	put_header(&j, r);
	summ_vm_json(&j, r);
	json_array_begin(&j, "gitk_runs");
	for (i = 0; i < r->n_runs; i++)
		put_gitk_run(&j, r, i);
	json_array_end(&j);
	json_double(&j, "elapsed_mean_s", r->mean_s);
	json_double(&j, "elapsed_stddev_s", r->stddev_s);
	json_double(&j, "elapsed_cv_pct", r->cv_pct);
	json_double(&j, "elapsed_ci95_pct", r->ci95_pct);
	json_double(&j, "user_mean_s", r->user_mean_s);
	json_double(&j, "user_cv_pct", r->user_cv_pct);
	json_double(&j, "sys_mean_s", r->sys_mean_s);
	json_double(&j, "sys_cv_pct", r->sys_cv_pct);
	json_double(&j, "elapsed_per_user_mean", r->epu_mean);
	json_double(&j, "elapsed_per_user_cv_pct", r->epu_cv_pct);
	json_double(&j, "elapsed_per_user_ci95_pct", r->epu_ci95_pct);
	json_double(&j, "sys_per_user_mean", r->spu_mean);
	json_double(&j, "wait_per_user_mean", r->wpu_mean);
	json_double(&j, "runq_mean_s", r->runq_mean_s);
	json_double(&j, "elapsed_less_runq_per_user_mean", r->erpu_mean);
	json_double(&j, "others_cpu_mean_s", r->others_mean_s);
	json_double(&j, "kthreads_cpu_mean_s", r->kthreads_mean_s);
	json_double(&j, "elapsed_per_user_lag1", r->epu_lag1);
	put_bool_if(&j, "elapsed_per_user_serial", !isnan(r->epu_lag1),
		    r->epu_serial);
	json_double(&j, "reclaim_anon_pct_mean", r->anon_pct_mean);
	json_double(&j, "reclaim_anon_pct_min", r->anon_pct_min);
	json_double(&j, "reclaim_anon_pct_max", r->anon_pct_max);
	put_bool_if(&j, "reclaim_split_varied", r->n_anon > 0, r->anon_varied);
	json_double(&j, "reclaim_anon_epu_correlation", r->anon_epu_r);
	json_double(&j, "reclaim_anon_lag1", r->anon_lag1);
	put_bool_if(&j, "reclaim_split_held", !isnan(r->anon_lag1),
		    r->anon_held);
	put_from(&j, "failures", &r->kmsg, "failures");
	put_from(&j, "oom_kills", &r->kmsg, "oom_kills");
	summ_highorder_json(&j, r);
	put_from(&j, "pswpout_delta", &r->vmstat, "pswpout_delta");
	put_from(&j, "pswpin_delta", &r->vmstat, "pswpin_delta");
	summ_block_json(&j, r);
	put_pressure(&j, r);
	put_runs(&j, r);
	put_copies(&j, r);
	json_object_end(&j);
	json_finish(&j);
}
