// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-summarize: the arithmetic of the driver, so that the shell
 * driver only orchestrates and every figure it reports is computed in C.
 *   SECONDS...                 mean and sample standard deviation of the
 *                              fake-gitk runs as the 2009 headline
 *                              "LABEL Elapsed:MM:SS.mmm(stddev:SSS.sss)
 *                              Failures:N", as CSV or as JSON;
 *   --precision=PCT SECONDS... whether the 95% confidence interval of the
 *                              mean is within PCT% of it (--gitk-runs=auto);
 *   --pressure-plan            the memory a workload of --footprint gets
 *                              at pressure --ratio;
 *   --result-dir=DIR           result.json and summary.txt of a run
 *                              directory (summarize-*.c);
 *   --stop-rule --result-dir=DIR  whether --gitk-runs has been met;
 *   --run-config -- ARGS...    run-test.sh's configuration from its
 *                              command line and config files, checked
 *                              (summarize-config.c).
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/rand.h"
#include "lib/stats.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "compare/summarize.h"

enum {
	OPT_LABEL = OPT_PROG_FIRST,
	OPT_FAILURES,
	OPT_PRECISION,
	OPT_PRESSURE_PLAN,
	OPT_FOOTPRINT,
	OPT_CALIBRATION,
	OPT_RATIO,
	OPT_RESULT_DIR,
	OPT_STOP_RULE,
	OPT_RUN_CONFIG,
	OPT_SHELL,
	OPT_INTERLEAVE_ORDER,
	OPT_PAIRED_DIR,
};

/* clang-format off */
static const struct option long_options[] = {
	OPT_LONG_HELP,
	OPT_LONG_VERSION,
	OPT_LONG_OUTPUT,
	OPT_LONG_FORMAT,
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "failures", required_argument, NULL, OPT_FAILURES },
	{ "precision", required_argument, NULL, OPT_PRECISION },
	{ "pressure-plan", no_argument, NULL, OPT_PRESSURE_PLAN },
	{ "footprint", required_argument, NULL, OPT_FOOTPRINT },
	{ "calibration", required_argument, NULL, OPT_CALIBRATION },
	{ "ratio", required_argument, NULL, OPT_RATIO },
	{ "result-dir", required_argument, NULL, OPT_RESULT_DIR },
	{ "stop-rule", no_argument, NULL, OPT_STOP_RULE },
	{ "run-config", no_argument, NULL, OPT_RUN_CONFIG },
	{ "shell", no_argument, NULL, OPT_SHELL },
	{ "interleave-order", required_argument, NULL, OPT_INTERLEAVE_ORDER },
	{ "paired-dir", required_argument, NULL, OPT_PAIRED_DIR },
	OPT_LONG_SEED,
	OPT_LONG_END
};
/* clang-format on */
static const char short_options[] = OPT_SHORT_HELP OPT_SHORT_OUTPUT;

/* Pages are 4 KiB everywhere a memory limit is set. */
#define PLAN_ALIGN 4096

struct args {
	struct opt_common common;
	enum out_format format;
	const char *label;
	uint64_t failures;
	double precision_pct; /* NaN: not asked */
	bool plan;
	const char *footprint, *ratio;
	const char *calibration; /* fake-gitk JSON: its peak_rss_bytes */
	const char *result_dir;
	bool label_or_failures;
	bool stop_rule, run_config, shell;
	uint64_t order_pairs; /* --interleave-order, 0: not asked */
	const char *paired_dir;
};

struct summary {
	size_t n;
	double *elapsed_s;
	double mean_s;
	double stddev_s;
};

static void usage(int status)
{
	if (status)
		usage_error(NULL);
	/* clang-format off */
	fputs("Usage: latency-summarize [OPTION]... SECONDS...\n"
	      "  or:  latency-summarize --precision=PCT [OPTION]... SECONDS...\n"
	      "  or:  latency-summarize --pressure-plan --footprint=BYTES --ratio=R\n"
	      "  or:  latency-summarize --pressure-plan --calibration=FILE --ratio=R\n"
	      "  or:  latency-summarize --result-dir=DIR\n"
	      "  or:  latency-summarize --precision=PCT --result-dir=DIR\n"
	      "  or:  latency-summarize --stop-rule --result-dir=DIR\n"
	      "  or:  latency-summarize --stop-rule --result-dir=DIR --paired-dir=DIR\n"
	      "  or:  latency-summarize --interleave-order=PAIRS [--seed=N]\n"
	      "  or:  latency-summarize --run-config [--shell] -- [RUN-TEST-OPTION]...\n"
	      "Print the mean and sample standard deviation of the elapsed times SECONDS\n"
	      "(one per workload run, e.g. 12.5, 250ms or 2m) as the headline\n"
	      "  LABEL Elapsed:MM:SS.mmm(stddev:SSS.sss) Failures:N\n"
	      "\n"
	      "  --label=LABEL     the headline's label (default: run)\n"
	      "  --failures=N      page allocation failures to report (default: 0)\n"
	      "  --format=FORMAT   text (the headline), csv (runs,mean_s,stddev_s)\n"
	      "                    or json (default: text)\n"
	      "  --precision=PCT   say whether the 95% confidence interval of the mean\n"
	      "                    is within PCT% of it (--format text or csv)\n"
	      "  --pressure-plan   print memory_bytes=N, the memory for --footprint at\n"
	      "                    pressure --ratio: footprint / R, down to 4096 bytes\n"
	      "  --footprint=BYTES the workloads' measured footprint (64k, 300M, ...)\n"
	      "  --calibration=FILE  read it from fake-gitk's JSON (peak_rss_bytes); print\n"
	      "                    footprint_bytes=, memory_bytes= and swap_bytes= (the\n"
	      "                    swap file: twice the footprint, at least 256 MiB)\n"
	      "  --ratio=R         the pressure, a positive decimal (4, 2.5)\n"
	      "  --result-dir=DIR  write DIR/result.json and DIR/summary.txt from the\n"
	      "                    run directory DIR (run.facts and what the programs left)\n"
	      "  --stop-rule       with --result-dir: print stop=REASON when the runs asked\n"
	      "                    for are done (runs, precision, max-runs, time-budget),\n"
	      "                    else stop=\n"
	      "  --paired-dir=DIR  with --stop-rule: DIR is the other arm of an interleaved\n"
	      "                    run; the rule is on the pairs (run N of each arm)\n"
	      "  --interleave-order=PAIRS  print order=ABBA...: PAIRS pairs of runs, each\n"
	      "                    AB or BA at random (seeded by --seed, default 137)\n"
	      "  --seed=N          the seed of --interleave-order\n"
	      "  --run-config      check run-test.sh's options (after --) and their\n"
	      "                    --config files; print the effective configuration\n"
	      "  --shell           print it for the driver's shell: action=, keys with _\n"
	      "  -o, --output=FILE write to FILE instead of stdout\n"
	      "  -h, --help        display this help and exit\n"
	      "  -V, --version     output version information and exit\n"
	      "\n"
	      "The standard deviation is the sample one (n - 1); it is 0 for one run.\n"
	      "Durations: a bare number is seconds; suffixes ns, us, ms, s, m, h.\n",
	      stdout);
	/* clang-format on */
	exit(EXIT_OK);
}

static void parse_elapsed(struct summary *s, int argc, char **argv)
{
	int i;

	s->n = (size_t)argc;
	s->elapsed_s = xcalloc(s->n, sizeof(*s->elapsed_s));
	for (i = 0; i < argc; i++) {
		uint64_t ns;

		if (parse_duration(argv[i], &ns))
			usage_error("invalid elapsed time '%s' (expected "
				    "seconds, e.g. 12.5 or 250ms)",
				    argv[i]);
		s->elapsed_s[i] = (double)ns / 1e9;
	}
	s->mean_s = stats_mean_of(s->elapsed_s, s->n);
	s->stddev_s = stats_stddev_of(s->elapsed_s, s->n);
}

static void write_csv(FILE *f, const struct summary *s)
{
	fprintf(f, "runs,mean_s,stddev_s\n%zu,%.9f,%.9f\n", s->n, s->mean_s,
		s->stddev_s);
}

static void write_json(FILE *f, const struct summary *s, const char *label,
		       uint64_t failures, const struct run_info *ri)
{
	struct json j;
	size_t i;

	json_init(&j, f, true);
	json_object_begin(&j, NULL);
	json_run_header(&j, ri);
	json_str(&j, "label", label);
	json_u64(&j, "runs", s->n);
	json_array_begin(&j, "gitk_runs");
	for (i = 0; i < s->n; i++) {
		json_object_begin(&j, NULL);
		json_double(&j, "elapsed_s", s->elapsed_s[i]);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_double(&j, "elapsed_mean_s", s->mean_s);
	json_double(&j, "elapsed_stddev_s", s->stddev_s);
	json_u64(&j, "failures", failures);
	json_object_end(&j);
	json_finish(&j);
}

/*
 * --precision: the half width of the 95% confidence interval of the mean,
 * in percent of the mean, against PCT.  Fewer than two runs, or a mean of
 * zero, never reach it.
 */
static double ci95_pct(const double *elapsed_s, size_t n, double mean_s)
{
	struct stats_ci ci = stats_ci_of(elapsed_s, n, 0.95);

	return n >= 2 && mean_s > 0 ? 100 * ci.half / mean_s : NAN;
}

static void write_precision(FILE *f, const struct summary *s, double pct,
			    enum out_format format)
{
	double ci_pct = ci95_pct(s->elapsed_s, s->n, s->mean_s);
	bool reached = isfinite(ci_pct) && ci_pct <= pct;

	if (format == FORMAT_CSV) {
		fprintf(f, "runs,mean_s,ci95_pct,reached\n%zu,%.9f,", s->n,
			s->mean_s);
		if (isfinite(ci_pct))
			fprintf(f, "%.9f", ci_pct);
		fprintf(f, ",%s\n", reached ? "yes" : "no");
	} else if (!isfinite(ci_pct)) {
		fprintf(f,
			"%zu run%s, mean %.3f s: not reached (a confidence "
			"interval needs 2 runs and a mean above 0)\n",
			s->n, s->n == 1 ? "" : "s", s->mean_s);
	} else {
		fprintf(f,
			"%zu runs, mean %.3f s: 95%% confidence interval "
			"+/-%.3f%% of the mean, %s %g%%\n",
			s->n, s->mean_s, ci_pct,
			reached ? "reached: within" : "not reached: above",
			pct);
	}
}

/* --ratio: a positive decimal, or a usage error. */
static void parse_ratio(const char *arg, uint64_t *mant, unsigned *scale)
{
	int r = parse_decimal(arg, mant, scale);

	if (r == -ERANGE)
		usage_error("invalid value '%s' for --ratio (out of range)",
			    arg);
	if (r || !*mant)
		usage_error("invalid value '%s' for --ratio (expected a "
			    "positive decimal number, e.g. 4 or 2.5)",
			    arg);
}

/*
 * The footprint: --footprint, or the peak_rss_bytes of the calibration run's
 * fake-gitk JSON (a file like any other: checked, never trusted).
 */
static uint64_t plan_footprint(const struct args *a)
{
	struct summ_run r = { .dir = "." };
	struct json_node *root;
	char *dir, *slash;
	uint64_t v;

	if (a->footprint)
		return opt_size("--footprint", a->footprint, 1);
	dir = xstrdup(a->calibration);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		r.dir = slash == dir ? "/" : dir;
	}
	root = summ_load_object(&r, slash ? slash + 1 : dir, true);
	if (!root)
		die(EXIT_RUN_FAILED, "cannot read the calibration '%s'%s%s",
		    a->calibration, r.own_notes.n ? ": " : "",
		    r.own_notes.n ? r.own_notes.v[0] : "");
	if (json_read_u64(root, "peak_rss_bytes", &v) || !v)
		die(EXIT_RUN_FAILED,
		    "'%s' has no peak_rss_bytes above 0 (expected fake-gitk's "
		    "JSON result)",
		    a->calibration);
	json_read_free(root);
	summ_run_release(&r);
	free(dir);
	return v;
}

/* footprint / ratio, rounded down to PLAN_ALIGN, exactly. */
static uint64_t plan_memory(const struct args *a, uint64_t footprint)
{
	uint64_t mant;
	unsigned scale, i;
	unsigned __int128 v;

	parse_ratio(a->ratio, &mant, &scale);
	v = footprint;
	for (i = 0; i < scale; i++)
		v *= 10;
	v = v / mant / PLAN_ALIGN * PLAN_ALIGN;
	if (v > UINT64_MAX)
		usage_error("a footprint of %llu bytes at --ratio=%s is more "
			    "than 2^64 bytes",
			    (unsigned long long)footprint, a->ratio);
	if (!v)
		usage_error("a footprint of %llu bytes at --ratio=%s leaves "
			    "less than %d bytes",
			    (unsigned long long)footprint, a->ratio,
			    PLAN_ALIGN);
	return (uint64_t)v;
}

/*
 * The automatic swap file of a run: twice the footprint (what is pushed
 * out, with room), at least 256 MiB, rounded up to whole MiB.
 */
static uint64_t plan_swap(uint64_t footprint)
{
	uint64_t mib;

	/* Beyond any machine: no overflow, whatever the JSON said. */
	if (footprint > UINT64_MAX / 4)
		return UINT64_MAX >> 20 << 20;
	mib = (footprint * 2 + (1 << 20) - 1) >> 20;
	return (mib < 256 ? 256 : mib) << 20;
}

/* Write DIR/NAME atomically with WRITE; exit 1 when it cannot. */
static void write_file(const struct summ_run *r, const char *name,
		       void (*write)(FILE *f, const struct summ_run *r))
{
	char *path = xasprintf("%s/%s", r->dir, name);
	struct atomic_file af;
	int ret = atomic_open(&af, path);

	if (ret)
		die_err(EXIT_RUN_FAILED, -ret, "cannot create '%s'", path);
	write(af.f, r);
	ret = atomic_commit(&af);
	if (ret)
		die_err(EXIT_RUN_FAILED, -ret, "cannot write '%s'", path);
	free(path);
}

/* --precision --result-dir: the elapsed times of the runs done so far. */
static int runs_elapsed(struct summary *s, struct summ_run *r, const char *dir)
{
	int st;

	r->dir = dir;
	st = summ_facts_read(&r->facts, dir);
	if (st)
		return st;
	summ_runs_read(r);
	s->n = r->n_elapsed;
	s->elapsed_s = r->elapsed;
	s->mean_s = r->n_elapsed ? r->mean_s : 0;
	s->stddev_s = r->n_elapsed ? r->stddev_s : 0;
	return 0;
}

/*
 * --stop-rule: after a counted run, whether the runs asked for are done:
 * a number of runs; or, for auto, 3 runs or more within --precision, or
 * --max-runs, or the time budget spent since the first counted run began
 * (its start on CLOCK_MONOTONIC, as fake-gitk recorded it).  NULL: go on.
 */
static const char *stop_rule(const struct summ_run *r)
{
	const struct summ_facts *f = &r->facts;
	uint64_t done = f->runs_done.set ? f->runs_done.v : 0;
	uint64_t now = mono_ns();
	const char *what;
	double ci;

	if (!f->runs_auto && !f->runs_asked.set)
		die(EXIT_RUN_FAILED, "no gitk-runs in '%s/config'", r->dir);
	if (!f->runs_auto)
		return done >= f->runs_asked.v ? "runs" : NULL;
	ci = summ_precision(r, &what);
	if (done >= 3 && isfinite(ci) && ci <= f->precision_pct)
		return "precision";
	if (f->max_runs.set && done >= f->max_runs.v)
		return "max-runs";
	/* A start after now (another clock, another boot) spends nothing. */
	if (isfinite(f->time_budget_s) && r->n_runs && r->runs[0].has_window &&
	    now > r->runs[0].start_ns &&
	    (double)(now - r->runs[0].start_ns) / 1e9 >= f->time_budget_s)
		return "time-budget";
	return NULL;
}

/*
 * The precision of an interleaved run: the 95% confidence interval of the
 * mean of the pairs' log ratios of elapsed per user-CPU second (run N of
 * B over run N of A), as % of the ratio; NaN with fewer than 2 pairs.
 * Stopping on the width of the interval, never on the p value, keeps the
 * test honest.
 */
static double paired_precision(const struct summ_run *a,
			       const struct summ_run *b, size_t *pairs)
{
	size_t n = a->n_runs < b->n_runs ? a->n_runs : b->n_runs, i;
	double *d = xcalloc(n + 1, sizeof(*d)), half;

	*pairs = 0;
	for (i = 0; i < n; i++) {
		double x = a->runs[i].elapsed_per_user;
		double y = b->runs[i].elapsed_per_user;

		if (x > 0 && y > 0)
			d[(*pairs)++] = log(y) - log(x);
	}
	half = stats_ci_of(d, *pairs, 0.95).half;
	free(d);
	return *pairs >= 2 ? 100 * (exp(half) - 1) : NAN;
}

/*
 * --stop-rule --paired-dir: after a pair, whether the pairs asked for are
 * done: a number of runs per arm; or, for auto, 3 pairs or more whose
 * ratio is known within --precision, or --max-runs pairs, or the time
 * budget spent since arm A's first run began.
 */
static const char *stop_rule_paired(const struct summ_run *a,
				    const struct summ_run *b)
{
	uint64_t done = a->n_runs < b->n_runs ? a->n_runs : b->n_runs;
	const struct summ_facts *f = &a->facts;
	size_t pairs;
	double ci;

	if (!f->runs_auto)
		return stop_rule(a) && stop_rule(b) ? "runs" : NULL;
	ci = paired_precision(a, b, &pairs);
	if (pairs >= 3 && isfinite(ci) && ci <= f->precision_pct)
		return "precision";
	if (f->max_runs.set && done >= f->max_runs.v)
		return "max-runs";
	return stop_rule(a) && !strcmp(stop_rule(a), "time-budget")
		       ? "time-budget"
		       : NULL;
}

static int print_stop_rule(const char *dir, const char *paired_dir)
{
	struct summ_run r = { .dir = dir }, o = { .dir = paired_dir };
	const char *stop;
	int st;

	st = summ_facts_read(&r.facts, dir);
	if (!st && paired_dir)
		st = summ_facts_read(&o.facts, paired_dir);
	if (st) {
		summ_run_release(&r);
		summ_run_release(&o);
		return st;
	}
	summ_runs_read(&r);
	if (paired_dir) {
		summ_runs_read(&o);
		stop = stop_rule_paired(&r, &o);
		summ_run_release(&o);
	} else {
		stop = stop_rule(&r);
	}
	printf("stop=%s\n", stop ? stop : "");
	summ_run_release(&r);
	return EXIT_OK;
}

/*
 * --interleave-order: PAIRS pairs of runs of the two arms, each pair AB or
 * BA at random from SEED, so that neither arm always runs first (a
 * machine that speeds up or slows down over the run, or a first run that
 * warms the second, falls on both alike).
 */
static void print_order(uint64_t pairs, uint64_t seed)
{
	struct rand r;
	uint64_t i;

	rand_seed(&r, seed);
	fputs("order=", stdout);
	for (i = 0; i < pairs; i++)
		fputs(rand_below(&r, 2) ? "BA" : "AB", stdout);
	fputc('\n', stdout);
}

/*
 * --run-config: the driver's options after --; a problem is one line and
 * exit 2, before anything is printed.
 */
static int run_config(const struct args *a, int argc, char **argv)
{
	struct summ_config c = { 0 };
	char *err = NULL;

	if (summ_config_args(&c, argc, argv, &err) ||
	    (!c.action && summ_config_resolve(&c, &err)))
		die(EXIT_USAGE, "%s", err);
	summ_config_print(stdout, &c, a->shell);
	summ_config_release(&c);
	return EXIT_OK;
}

static int summarize_dir(const char *dir)
{
	struct summ_run r = { .dir = dir };
	int st = summ_facts_read(&r.facts, dir);

	if (st) {
		summ_run_release(&r);
		return st;
	}
	summ_runs_read(&r);
	summ_parts_read(&r);
	write_file(&r, "result.json", summ_write_result);
	write_file(&r, "summary.txt", summ_write_summary);
	summ_run_release(&r);
	return EXIT_OK;
}

static void parse_option(struct args *a, int opt)
{
	switch (opt) {
	case OPT_LABEL:
		if (!*optarg || strpbrk(optarg, " \t\n"))
			usage_error("invalid label '%s' (expected one word)",
				    optarg);
		a->label = optarg;
		a->label_or_failures = true;
		break;
	case OPT_FAILURES:
		a->failures = opt_u64("--failures", optarg, 0, UINT64_MAX);
		a->label_or_failures = true;
		break;
	case OPT_PRECISION:
		a->precision_pct = parse_decimal_positive(optarg);
		if (isnan(a->precision_pct))
			usage_error("invalid value '%s' for --precision "
				    "(expected a positive decimal number of "
				    "percent, e.g. 2 or 0.5)",
				    optarg);
		break;
	case OPT_PRESSURE_PLAN:
		a->plan = true;
		break;
	case OPT_FOOTPRINT:
		a->footprint = optarg;
		break;
	case OPT_CALIBRATION:
		if (!*optarg)
			usage_error("--calibration needs a file");
		a->calibration = optarg;
		break;
	case OPT_RATIO:
		a->ratio = optarg;
		break;
	case OPT_STOP_RULE:
		a->stop_rule = true;
		break;
	case OPT_RUN_CONFIG:
		a->run_config = true;
		break;
	case OPT_SHELL:
		a->shell = true;
		break;
	case OPT_INTERLEAVE_ORDER:
		a->order_pairs =
			opt_u64("--interleave-order", optarg, 1, 1000000);
		break;
	case OPT_PAIRED_DIR:
		if (!*optarg)
			usage_error("--paired-dir needs a directory");
		a->paired_dir = optarg;
		break;
	case OPT_RESULT_DIR:
		if (!*optarg)
			usage_error("--result-dir needs a directory");
		a->result_dir = optarg;
		break;
	default:
		usage(EXIT_USAGE);
	}
}

/* The modes exclude each other's options. */
static void check_mode(const struct args *a, int nargs)
{
	bool precision = !isnan(a->precision_pct);

	if (a->run_config || a->shell) {
		if (!a->run_config || a->result_dir || a->stop_rule ||
		    a->plan || precision || a->label_or_failures ||
		    a->common.format || a->common.output || a->footprint ||
		    a->ratio || a->calibration)
			usage_error("--run-config takes only --shell and, "
				    "after --, run-test.sh's options");
		return;
	}
	if (a->order_pairs || a->common.has_seed) {
		if (!a->order_pairs || a->result_dir || a->stop_rule ||
		    a->plan || precision || nargs || a->label_or_failures ||
		    a->common.format || a->common.output)
			usage_error("--interleave-order takes only --seed");
		return;
	}
	if (a->paired_dir && !a->stop_rule)
		usage_error("--paired-dir goes with --stop-rule");
	if (a->stop_rule &&
	    (!a->result_dir || nargs || a->plan || precision ||
	     a->label_or_failures || a->common.format || a->common.output))
		usage_error("--stop-rule takes only --result-dir (and "
			    "--paired-dir)");

	if (a->result_dir && !precision &&
	    (nargs || a->plan || a->label_or_failures || a->common.format ||
	     a->common.output))
		usage_error("--result-dir takes no other option and no "
			    "elapsed times");
	if (a->result_dir && precision &&
	    (nargs || a->plan || a->label_or_failures))
		usage_error("--result-dir with --precision takes no elapsed "
			    "times");
	if (a->plan &&
	    (nargs || precision || a->label_or_failures || a->common.format))
		usage_error("--pressure-plan takes only --footprint, --ratio "
			    "and --output");
	if (a->plan && (!a->footprint == !a->calibration || !a->ratio))
		usage_error("--pressure-plan needs --ratio and one of "
			    "--footprint and --calibration");
	if (!a->plan && (a->footprint || a->ratio || a->calibration))
		usage_error("--footprint, --calibration and --ratio go with "
			    "--pressure-plan");
	if (precision && a->format == FORMAT_JSON)
		usage_error("--precision prints text or csv, not json");
	if (!a->result_dir && !a->plan && !nargs)
		usage_error("no elapsed times given");
}

static int parse_args(struct args *a, int argc, char **argv)
{
	int opt;

	memset(a, 0, sizeof(*a));
	a->label = "run";
	a->precision_pct = NAN;
	opt_common_init(&a->common);
	while ((opt = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1)
		if (!opt_common_handle(&a->common, opt, optarg, usage))
			parse_option(a, opt);
	a->format = opt_format(a->common.format, FORMAT_TEXT, true);
	check_mode(a, argc - optind);
	return optind;
}

int main(int argc, char **argv)
{
	const char *out;
	struct summary s = { 0 };
	uint64_t plan_bytes = 0, footprint = 0;
	struct summ_run dir_run = { 0 };
	struct atomic_file af;
	struct run_info ri;
	struct args a;
	int first, r;

	prog_init(argc, argv);
	run_info_init(&ri, "latency-summarize", argc, argv);
	first = parse_args(&a, argc, argv);
	if (a.run_config)
		return run_config(&a, argc - first, argv + first);
	if (a.stop_rule)
		return print_stop_rule(a.result_dir, a.paired_dir);
	if (a.order_pairs) {
		print_order(a.order_pairs,
			    a.common.has_seed ? a.common.seed : 137);
		return EXIT_OK;
	}
	if (a.result_dir && isnan(a.precision_pct))
		return summarize_dir(a.result_dir);
	/* Everything is checked before the output is opened. */
	if (a.plan) {
		footprint = plan_footprint(&a);
		plan_bytes = plan_memory(&a, footprint);
	} else if (a.result_dir) {
		r = runs_elapsed(&s, &dir_run, a.result_dir);
		if (r) {
			summ_run_release(&dir_run);
			return r;
		}
	} else
		parse_elapsed(&s, argc - first, argv + first);
	out = a.common.output ? a.common.output : "-";
	r = atomic_open(&af, out);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot open '%s'", out);
	if (a.plan && a.calibration)
		fprintf(af.f,
			"footprint_bytes=%llu\nmemory_bytes=%llu\n"
			"swap_bytes=%llu\n",
			(unsigned long long)footprint,
			(unsigned long long)plan_bytes,
			(unsigned long long)plan_swap(footprint));
	else if (a.plan)
		fprintf(af.f, "memory_bytes=%llu\n",
			(unsigned long long)plan_bytes);
	else if (!isnan(a.precision_pct))
		write_precision(af.f, &s, a.precision_pct, a.format);
	else if (a.format == FORMAT_JSON)
		write_json(af.f, &s, a.label, a.failures, &ri);
	else if (a.format == FORMAT_CSV)
		write_csv(af.f, &s);
	else
		summ_headline(af.f, a.label, s.mean_s, s.stddev_s, a.failures);
	r = atomic_commit(&af);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot write '%s'",
			a.common.output ? a.common.output : "standard output");
	if (a.result_dir)
		summ_run_release(&dir_run);
	else
		free(s.elapsed_s);
	return EXIT_OK;
}
