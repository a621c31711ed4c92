/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reader of a run directory (libsummrun.a), which latency-summarize
 * and latency-plan share, and latency-summarize's writers.  --result-dir
 * reads a run directory left by run-test.sh (the driver's run.facts, the programs'
 * JSON outputs, the monitors' snapshots and events) into struct summ_run,
 * then writes result.json and summary.txt from it.  Every file in the
 * directory is treated as hostile: sizes are bounded, types checked, and
 * a part that is missing or unreadable becomes nulls and a note; only a
 * missing or malformed run.facts stops the program.
 */
#ifndef SCRIPTS_SUMMARIZE_H
#define SCRIPTS_SUMMARIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/json-read.h"
#include "lib/output.h"

/* The format of result.json (2: per-run kernel figures, pressure, runs). */
#define SUMM_RESULT_FORMAT_VERSION 2
/* Most counted runs a result may claim (fake-gitk-1 .. -N). */
#define SUMM_MAX_RUNS 10000
/* Bounds on what is read: text parts, JSON parts, the event log. */
#define SUMM_MAX_TEXT_BYTES (1u << 20)
#define SUMM_MAX_JSON_BYTES (16u << 20)
#define SUMM_MAX_EVENTS_BYTES (256ull << 20)
/* Orders 0 to 63, as latency-highorder and the kernel log name them. */
#define SUMM_HO_ORDERS 64
#define SUMM_MAX_REPORTS 1000
/* Parts are copied two levels down (latency.NAME): the writer's depth. */
#define SUMM_MAX_PART_DEPTH (JSON_MAX_DEPTH - 3)

/* An unsigned figure that may be unknown (null in JSON). */
/* How many shrink.txt keys latency-summarize keeps (summ_shrink_keys). */
#define SUMM_SHRINK_KEYS 10

struct summ_u64 {
	bool set;
	uint64_t v;
};

/* A growing list of strings. */
struct summ_strv {
	char **v;
	size_t n;
};

/* run.facts, typed.  Strings are NULL, enums NULL and doubles NaN when
 * unknown; strings are valid UTF-8 (invalid bytes became U+FFFD). */
struct summ_facts {
	char *label, *run_label, *kernel, *version, *command_line;
	char *partial_reason, *pressure_why, *mem_limit, *swap;
	struct summ_u64 seed, runs_done, warmup, max_runs;
	struct summ_u64 footprint_bytes, memory_bytes;
	struct summ_u64 runs_asked; /* unset and runs_auto: "auto" */
	bool runs_auto;
	bool has_partial, partial;
	const char *stopped_by, *pressure_mode, *calibration;
	double precision_pct, pressure_ratio, time_budget_s, stall_s;
	/*
	 * An arm of run-test.sh --interleave NAME=A,B: the knob, its two
	 * values ("3,0"), this arm ("a" or "b") and its value, the order of
	 * the runs over both arms ("ABBA..."), its seed and the other arm's
	 * run label; NULL when the run was not interleaved.
	 */
	char *interleave_name, *interleave_values, *interleave_value;
	char *interleave_order, *interleave_other;
	const char *interleave_arm;
	struct summ_u64 interleave_seed;
};

/* The per-run figures of counted fake-gitk run N (gitk_runs[N - 1]). */
enum summ_counter {
	SC_PSWPIN,
	SC_PSWPOUT,
	SC_PGSCAN_KSWAPD,
	SC_PGSCAN_DIRECT,
	SC_ALLOCSTALL,
	SC_PGSTEAL_ANON, /* reclaimed from anonymous memory (swapped) */
	SC_PGSTEAL_FILE, /* reclaimed from the page cache */
	SC_PSI_SOME_US,
	SC_PSI_FULL_US,
	SC_COUNT,
};

struct summ_gitk_run {
	/* Numbers as fake-gitk wrote them (JSON_NULL when unknown). */
	struct json_node elapsed_s, start_mono_s, end_mono_s, user_s, sys_s;
	struct json_node runq_s; /* waiting for a CPU (schedstat) */
	/* user CPU counted by fake-gitk --sample-user, when it ran */
	struct json_node user_sampled_s;
	struct summ_u64 majflt, progress_lines;
	/*
	 * The time split per user-CPU second (summ_runs_read): off the CPU
	 * (elapsed - user - sys), and elapsed, sys and that wait divided by
	 * user; NaN when a part is unknown or user is 0.  User is the
	 * sampled user time where there is one, and sys the rest of the
	 * on-CPU time (user + sys): the kernel splits it by 4 ms ticks.
	 */
	double wait_s, elapsed_per_user, sys_per_user, wait_per_user;
	/* (elapsed - runq) / user: the wait for a CPU taken out too. */
	double elapsed_less_runq_per_user;
	/*
	 * CPU time between the snapshots (ns): of the processes outside the
	 * suite (all CPUs' busy time less the suite's processes and the
	 * kernel's threads), and of the kernel's threads.
	 */
	struct summ_u64 others_cpu_ns, kthreads_cpu_ns;
	struct summ_u64 delta[SC_COUNT];	/* snapshot after - before */
	struct summ_u64 reclaim_ns, compact_ns; /* from trace-events.log */
	/*
	 * latency-highorder's probes inside the run's window, per order
	 * (highorder.log): the runs are the clusters latency-compare's test
	 * of success rates needs, since probes a few hundred ms apart are
	 * not independent trials.
	 */
	bool has_ho;
	uint64_t ho_attempts[SUMM_HO_ORDERS], ho_successes[SUMM_HO_ORDERS];
	/* The run's window on CLOCK_MONOTONIC, for the events. */
	bool has_window;
	uint64_t start_ns, end_ns;
};

/* A JSON part of the directory: its tree, or NULL (and a note). */
struct summ_part {
	char *name; /* the key it goes under */
	struct json_node *root;
};

/* One probed order of latency-highorder's summary. */
struct summ_ho {
	unsigned order;
	struct summ_u64 attempts, successes; /* unset when not valid */
	double fault_p99_us;		     /* NaN when unknown */
};

struct summ_run {
	const char *dir;
	struct summ_facts facts;
	size_t n_runs;
	struct summ_gitk_run *runs;
	/* elapsed_s of the runs that have one, for the statistics. */
	size_t n_elapsed;
	double *elapsed;
	double mean_s, stddev_s, cv_pct, ci95_pct;
	/* fake-gitk's CPU time over the runs: mean (s) and CoV (%). */
	double user_mean_s, user_cv_pct, sys_mean_s, sys_cv_pct;
	/*
	 * Elapsed per user-CPU second over the runs that have it: geometric
	 * mean, CoV (%) and the 95% confidence interval of the geometric
	 * mean (% above it, from the logs); the means of the other ratios,
	 * of the runqueue wait and of the others' CPU time.
	 */
	size_t n_epu;
	double *epu;
	double epu_mean, epu_cv_pct, epu_ci95_pct;
	double spu_mean, wpu_mean, runq_mean_s, others_mean_s, kthreads_mean_s;
	double erpu_mean; /* geometric mean of elapsed_less_runq_per_user */
	/*
	 * The split of reclaim (reclaim_split): the anonymous share of the
	 * pages reclaimed in each run that has both counters, percent; its
	 * mean, lowest and highest (and their runs, from 1), whether it
	 * varied (the highest 1.5 times the lowest and 2 points above it),
	 * its correlation with elapsed per user-CPU second, and its lag-1
	 * autocorrelation (NaN when unknown) and whether that says it held
	 * for stretches of runs.
	 */
	size_t n_anon;
	double anon_pct_mean, anon_pct_min, anon_pct_max, anon_epu_r;
	double anon_lag1;
	size_t anon_min_run, anon_max_run;
	bool anon_varied, anon_held;
	/*
	 * The lag-1 autocorrelation of elapsed per user-CPU second over the
	 * runs, and whether it is too large for independent runs: the
	 * interval of the mean then comes out too narrow.
	 */
	double epu_lag1;
	bool epu_serial;
	struct summ_part vmstat, kmsg, trace, seqbench, ringbench,
		machine_before, machine_confined, machine_after, calibration,
		highorder, fake_music;
	/* vm.json (latency-vm) and device.json (latency-device-setup). */
	struct summ_part vm, device;
	struct summ_part block; /* latency-block's block.json */
	/* latency-highorder's orders, ascending, and its p99 over all. */
	size_t n_ho;
	struct summ_ho *ho;
	double ho_p99_us;
	/* kmsg's failures_order_N (index N), unset where none. */
	bool has_fail_by_order;
	struct summ_u64 fail_by_order[64];
	size_t n_reports;
	struct summ_part *reports;
	bool has_shrink;
	struct summ_u64 shrink[SUMM_SHRINK_KEYS];
	int shrink_reached;	    /* -1 unknown, 0 no, 1 yes */
	struct summ_strv notes;	    /* the driver's notes file */
	struct summ_strv own_notes; /* what latency-summarize found */
};

/* summarize-facts.c */
/*
 * Read DIR/run.facts into *F.  Returns 0, or prints one line naming the
 * file, the line and the problem and returns EXIT_RUN_FAILED when it is
 * missing, too large or holds a value of the wrong type (*F then holds
 * what was read before, to be released); unknown keys are ignored, the
 * last of a repeated key wins.
 */
int summ_facts_read(struct summ_facts *f, const char *dir);
void summ_facts_release(struct summ_facts *f);
/* S with invalid UTF-8 replaced by U+FFFD, in a new string. */
char *summ_clean_utf8(const char *s, size_t len);

/* summarize-parts.c */
/* Add a note (printf-style) that latency-summarize found. */
void summ_note(struct summ_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Why a part (R, -errno from json_read_load() or json_read_open()) could not
 * be read, for a note: "missing", "too large", "not a regular file", "a
 * symbolic link", or strerror.
 */
const char *summ_why(int r);
/*
 * Load the JSON object in R->dir/FILE (to free with json_read_free()).
 * NULL, with a note, when it is not there (noted only if NOTE_MISSING),
 * not a readable regular file, not JSON or not an object.
 */
struct json_node *summ_load_object(struct summ_run *r, const char *file,
				   bool note_missing);
/* Read every optional part of R->dir (after the facts). */
void summ_parts_read(struct summ_run *r);
void summ_run_release(struct summ_run *r);
/* Names of the shrink.txt keys, in order (shrink[i]); "reached" apart. */
extern const char *const summ_shrink_keys[SUMM_SHRINK_KEYS];
/* The number at KEY of a part, for the text summary: its literal or NULL. */
const char *summ_part_num(const struct summ_part *p, const char *key);

/* summarize-runs.c */
/* Elapsed times of fake-gitk runs, with their mean and sample stddev. */
struct summ_elapsed {
	size_t n;
	double *elapsed_s; /* to free */
	double mean_s;
	double stddev_s;
};
/*
 * The elapsed times ARGV[0..ARGC) of a command line (durations: 12.5,
 * 250ms, 2m) into *E.  Option parsing, as lib/opt's helpers: a time that
 * is not a duration is a usage error (exit 2).
 */
void summ_elapsed_opt(struct summ_elapsed *e, int argc, char **argv);
/* Fill R->runs from the fake-gitk outputs, snapshots and trace events. */
void summ_runs_read(struct summ_run *r);
/* Output key and snapshot key of each counter. */
extern const char *const summ_counter_key[SC_COUNT];
/*
 * The precision of --gitk-runs=auto: the 95% confidence interval of the
 * geometric mean of elapsed per user-CPU second, in % of it, when every
 * run has its CPU times and 0.1 s of user time or more ("elapsed_per_user"
 * in *WHAT), else that of the mean elapsed time ("elapsed"); NaN with
 * fewer than 2 runs.
 */
double summ_precision(const struct summ_run *r, const char **what);
/*
 * The 95% confidence interval of the geometric mean of V[0..N) (all > 0),
 * as % above it; NaN when N < 2.
 */
double summ_geo_ci95_pct(const double *v, size_t n);

/* summarize-highorder.c */
/* Fill R's high-order figures from its highorder and kmsg parts. */
void summ_highorder_read(struct summ_run *r);
void summ_highorder_release(struct summ_run *r);
/* result.json's high_order list and failures_by_order object. */
void summ_highorder_json(struct json *j, const struct summ_run *r);
/*
 * The rest of summary.txt's second line after the label:
 * " HighOrder: order-2 100.0% order-9 41.2% (p99 fault 3.1 ms)\n", or
 * " HighOrder: none (not probed)\n".
 */
void summ_highorder_line(FILE *f, const struct summ_run *r);
/*
 * summary.txt's lines per probed order ("high-order: order-9 attempts=N
 * successes=N fault_p99_us=X") and "failures by order: order-2=N ..."
 * when the kernel log had failures with an order.
 */
void summ_highorder_text(FILE *f, const struct summ_run *r);

/* summarize-vm.c */
/* Load and check vm.json and device.json (absent: left out silently). */
void summ_vm_read(struct summ_run *r);
/* result.json's "vm" and "device" objects, where the run had them. */
void summ_vm_json(struct json *j, const struct summ_run *r);
/* summary.txt's "vm:", "vm cmdline:" and "device:" lines, likewise. */
void summ_vm_text(FILE *f, const struct summ_run *r);

/* summarize-block.c */
/* Check block.json's devices list (a note when it has none). */
void summ_block_read(struct summ_run *r);
/* result.json's "block" ({"source", "devices"}), null without block.json. */
void summ_block_json(struct json *j, const struct summ_run *r);
/* summary.txt's "block:" lines per device, in blkparse's terms. */
void summ_block_text(FILE *f, const struct summ_run *r);

/* summarize-result.c */
/* Write result.json's content to F. */
void summ_write_result(FILE *f, const struct summ_run *r);

/* summarize-text.c */
/* The 2009 headline, "LABEL Elapsed:MM:SS.mmm(stddev:SSS.sss) Failures:N". */
void summ_headline(FILE *f, const char *label, double mean_s, double stddev_s,
		   uint64_t failures);
/* Write summary.txt's content to F. */
void summ_write_summary(FILE *f, const struct summ_run *r);

#endif
