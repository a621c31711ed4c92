// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-plan: the driver's decisions before and between the runs, so
 * that run-test.sh only orchestrates and every choice it makes is computed
 * in C.  What it decides is what latency-summarize reports on afterwards;
 * the two share the reader of a run directory (libsummrun.a), not a main.
 *   --run-config -- ARGS...    run-test.sh's configuration from its
 *                              command line and config files, checked
 *                              (plan-config.c);
 *   --pressure-plan            the memory a workload of --footprint gets
 *                              at pressure --ratio;
 *   --interleave-order=PAIRS   the order of an interleaved run's pairs;
 *   --stop-rule --result-dir=DIR  whether --gitk-runs has been met;
 *   --precision=PCT SECONDS... whether the 95% confidence interval of the
 *                              mean is within PCT% of it (--gitk-runs=auto).
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
#include "compare/plan.h"
#include "compare/summarize.h"

enum {
	OPT_PRECISION = OPT_PROG_FIRST,
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
	double precision_pct; /* NaN: not asked */
	bool plan;
	const char *footprint, *ratio;
	const char *calibration; /* fake-gitk JSON: its peak_rss_bytes */
	const char *result_dir;
	bool stop_rule, run_config, shell;
	uint64_t order_pairs; /* --interleave-order, 0: not asked */
	const char *paired_dir;
};

static void usage(int status)
{
	if (status)
		usage_error(NULL);
	/* clang-format off */
	fputs("Usage: latency-plan --run-config [--shell] -- [RUN-TEST-OPTION]...\n"
	      "  or:  latency-plan --pressure-plan --footprint=BYTES --ratio=R\n"
	      "  or:  latency-plan --pressure-plan --calibration=FILE --ratio=R\n"
	      "  or:  latency-plan --interleave-order=PAIRS [--seed=N]\n"
	      "  or:  latency-plan --stop-rule --result-dir=DIR [--paired-dir=DIR]\n"
	      "  or:  latency-plan --precision=PCT [--format=FORMAT] SECONDS...\n"
	      "  or:  latency-plan --precision=PCT [--format=FORMAT] --result-dir=DIR\n"
	      "Decide for run-test.sh: its configuration, the memory of a pressure, the\n"
	      "order of an interleaved run's pairs, and whether the runs asked for are done.\n"
	      "\n"
	      "  --run-config      check run-test.sh's options (after --) and their\n"
	      "                    --config files; print the effective configuration\n"
	      "  --shell           print it for the driver's shell: action=, keys with _,\n"
	      "                    then the configuration itself as config_line= lines\n"
	      "  --pressure-plan   print memory_bytes=N, the memory for --footprint at\n"
	      "                    pressure --ratio: footprint / R, down to 4096 bytes\n"
	      "  --footprint=BYTES the workloads' measured footprint (64k, 300M, ...)\n"
	      "  --calibration=FILE  read it from fake-gitk's JSON (peak_rss_bytes); print\n"
	      "                    footprint_bytes=, memory_bytes= and swap_bytes= (the\n"
	      "                    swap file: twice the footprint, at least 256 MiB)\n"
	      "  --ratio=R         the pressure, a positive decimal (4, 2.5)\n"
	      "  --interleave-order=PAIRS  print order=ABBA...: PAIRS pairs of runs, each\n"
	      "                    AB or BA at random (seeded by --seed, default 137)\n"
	      "  --seed=N          the seed of --interleave-order\n"
	      "  --stop-rule       print stop=REASON when the runs asked for in the run\n"
	      "                    directory --result-dir are done (runs, precision,\n"
	      "                    max-runs, time-budget), else stop=\n"
	      "  --result-dir=DIR  the run directory (its run.facts, config and runs)\n"
	      "  --paired-dir=DIR  with --stop-rule: DIR is the other arm of an interleaved\n"
	      "                    run; the rule is on the pairs (run N of each arm)\n"
	      "  --precision=PCT   say whether the 95% confidence interval of the mean of\n"
	      "                    the elapsed times SECONDS (12.5, 250ms, 2m), or of the\n"
	      "                    runs in --result-dir, is within PCT% of it\n"
	      "  --format=FORMAT   --precision's output: text or csv (default: text)\n"
	      "  -o, --output=FILE write --pressure-plan or --precision to FILE\n"
	      "  -h, --help        display this help and exit\n"
	      "  -V, --version     output version information and exit\n",
	      stdout);
	/* clang-format on */
	exit(EXIT_OK);
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

static void write_precision(FILE *f, const struct summ_elapsed *s, double pct,
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

/* --precision --result-dir: the elapsed times of the runs done so far. */
static int runs_elapsed(struct summ_elapsed *s, struct summ_run *r,
			const char *dir)
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
 * The fewest runs (or pairs) auto stops on.  An interval from 3 runs rests
 * on a spread of 2 degrees of freedom: three runs that happen to agree
 * (measured: a full run stopped at 3 with CoV 0.5% and a mean 3.4% below
 * the next four results') end it early, and the early stop is what the
 * next comparison sees.  From 5, the spread has 4 degrees of freedom.
 */
#define MIN_AUTO_RUNS 5

/*
 * --stop-rule: after a counted run, whether the runs asked for are done:
 * a number of runs; or, for auto, MIN_AUTO_RUNS or more within --precision, or
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
	if (done >= MIN_AUTO_RUNS && isfinite(ci) && ci <= f->precision_pct)
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
 * done: a number of runs per arm; or, for auto, MIN_AUTO_RUNS pairs or more whose
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
	if (pairs >= MIN_AUTO_RUNS && isfinite(ci) && ci <= f->precision_pct)
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
	struct plan_config c = { 0 };
	char *err = NULL;

	if (plan_config_args(&c, argc, argv, &err) ||
	    (!c.action && plan_config_resolve(&c, &err)))
		die(EXIT_USAGE, "%s", err);
	plan_config_print(stdout, &c, a->shell);
	plan_config_release(&c);
	return EXIT_OK;
}

static void parse_option(struct args *a, int opt)
{
	switch (opt) {
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

/* Exactly one mode; each takes only its own options. */
static void check_mode(const struct args *a, int nargs)
{
	bool precision = !isnan(a->precision_pct);
	int modes = a->run_config + a->plan + a->stop_rule + precision +
		    !!a->order_pairs;

	if (a->shell && !a->run_config)
		usage_error("--shell goes with --run-config");
	if (a->common.has_seed && !a->order_pairs)
		usage_error("--seed goes with --interleave-order");
	if (a->paired_dir && !a->stop_rule)
		usage_error("--paired-dir goes with --stop-rule");
	if ((a->footprint || a->ratio || a->calibration) && !a->plan)
		usage_error("--footprint, --calibration and --ratio go with "
			    "--pressure-plan");
	if (a->common.format && !precision)
		usage_error("--format goes with --precision");
	if (!modes)
		usage_error("no mode given (--run-config, --pressure-plan, "
			    "--interleave-order, --stop-rule or --precision)");
	if (modes > 1)
		usage_error("one mode at a time (--run-config, "
			    "--pressure-plan, --interleave-order, --stop-rule "
			    "or --precision)");
	if (a->run_config && (a->result_dir || a->common.output))
		usage_error("--run-config takes only --shell and, after --, "
			    "run-test.sh's options");
	if (a->order_pairs && (a->result_dir || nargs || a->common.output))
		usage_error("--interleave-order takes only --seed");
	if (a->stop_rule && (!a->result_dir || nargs || a->common.output))
		usage_error("--stop-rule takes only --result-dir (and "
			    "--paired-dir)");
	if (a->plan && (nargs || a->result_dir))
		usage_error("--pressure-plan takes only --footprint, --ratio "
			    "and --output");
	if (a->plan && (!a->footprint == !a->calibration || !a->ratio))
		usage_error("--pressure-plan needs --ratio and one of "
			    "--footprint and --calibration");
	if (precision && a->format == FORMAT_JSON)
		usage_error("--precision prints text or csv, not json");
	if (precision && a->result_dir && nargs)
		usage_error("--precision with --result-dir takes no elapsed "
			    "times");
	if (precision && !a->result_dir && !nargs)
		usage_error("no elapsed times given");
}

static int parse_args(struct args *a, int argc, char **argv)
{
	int opt;

	memset(a, 0, sizeof(*a));
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

/* --pressure-plan and --precision: one small file, written atomically. */
static int write_output(const struct args *a, int argc, char **argv)
{
	const char *out = a->common.output ? a->common.output : "-";
	struct summ_elapsed s = { 0 };
	struct summ_run dir_run = { 0 };
	uint64_t plan_bytes = 0, footprint = 0;
	struct atomic_file af;
	int r;

	/* Everything is checked before the output is opened. */
	if (a->plan) {
		footprint = plan_footprint(a);
		plan_bytes = plan_memory(a, footprint);
	} else if (a->result_dir) {
		r = runs_elapsed(&s, &dir_run, a->result_dir);
		if (r) {
			summ_run_release(&dir_run);
			return r;
		}
	} else
		summ_elapsed_opt(&s, argc, argv);
	r = atomic_open(&af, out);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot open '%s'", out);
	if (a->plan && a->calibration)
		fprintf(af.f,
			"footprint_bytes=%llu\nmemory_bytes=%llu\n"
			"swap_bytes=%llu\n",
			(unsigned long long)footprint,
			(unsigned long long)plan_bytes,
			(unsigned long long)plan_swap(footprint));
	else if (a->plan)
		fprintf(af.f, "memory_bytes=%llu\n",
			(unsigned long long)plan_bytes);
	else
		write_precision(af.f, &s, a->precision_pct, a->format);
	r = atomic_commit(&af);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot write '%s'",
			a->common.output ? a->common.output
					 : "standard output");
	if (a->result_dir)
		summ_run_release(&dir_run);
	else
		free(s.elapsed_s);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct args a;
	int first;

	prog_init(argc, argv);
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
	return write_output(&a, argc - first, argv + first);
}
