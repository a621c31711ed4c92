// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-compare: several run-test.sh result directories (or seqbench
 * results) side by side, the first being the baseline: mean elapsed time
 * over the fake-gitk runs with its deviation and confidence intervals, page
 * allocation failures, stalls and reclaim time, each with its change
 * against the baseline and whether Welch's t-test finds it significant.
 * With --fail-if-slower it is a `git bisect run` judge.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "scripts/compare.h"

/* What `git bisect run` takes as "cannot test this commit". */
#define EXIT_BISECT_SKIP 125

enum {
	OPT_ALPHA = OPT_PROG_FIRST,
	OPT_FAIL_IF_SLOWER,
	OPT_PLOT,
	OPT_WORKLOAD,
};

/* clang-format off */
static const struct option long_options[] = {
	OPT_LONG_HELP,
	OPT_LONG_VERSION,
	OPT_LONG_OUTPUT,
	OPT_LONG_FORMAT,
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "fail-if-slower", required_argument, NULL, OPT_FAIL_IF_SLOWER },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "workload", required_argument, NULL, OPT_WORKLOAD },
	OPT_LONG_END,
};
static const char short_options[] = OPT_SHORT_HELP OPT_SHORT_OUTPUT;
/* clang-format on */

struct args {
	struct opt_common common;
	struct cmp_options cmp;
	enum cmp_format format;
	double fail_pct; /* NaN unless --fail-if-slower */
	const char *plot;
};

static void usage(int status)
{
	if (status)
		usage_error(NULL);
	printf("Usage: %s [OPTION]... RESULT...\n", progname());
	fputs("Compare run-test.sh results (and seqbench results) of several "
	      "kernels.\n"
	      "Each RESULT is a result directory (result.json, and "
	      "seqbench.json if\n"
	      "present), a result.json or a seqbench JSON file; the first is "
	      "the baseline.\n"
	      "\n"
	      "  --format=FORMAT       text (default: an aligned table), "
	      "2009 (one line\n"
	      "                        per label: LABEL "
	      "Elapsed:MM:SS.mmm(stddev:SSS.sss)\n"
	      "                        Failures:N), csv, json or markdown\n"
	      "  -o, --output=FILE     write the report to FILE instead of "
	      "stdout\n"
	      "  --alpha=P             significance level of Welch's t-test "
	      "(default 0.05)\n"
	      "  --workload=NAME       whose stalls to compare (default "
	      "fake-gitk)\n"
	      "  --plot=PREFIX         overlay the labels' latency histograms:"
	      " PREFIX.dat,\n"
	      "                        PREFIX.gp, and PREFIX.png and "
	      "PREFIX.svg if gnuplot\n"
	      "                        is in PATH\n"
	      "  --fail-if-slower=PCT  for git bisect run: exit 1 if the last "
	      "RESULT is\n"
	      "                        significantly slower than the baseline"
	      " by more than\n"
	      "                        PCT percent, 0 if not, 125 if a result"
	      " is partial\n"
	      "  -h, --help            show this help and exit\n"
	      "  -V, --version         show the version and exit\n"
	      "\n"
	      "Times are in seconds. Exit status: 0 success, 1 bad input or "
	      "slower, 2 usage\nerror, 125 cannot judge (--fail-if-slower).\n",
	      stdout);
	exit(EXIT_OK);
}

/* A decimal number in [MIN, MAX] (exclusive bounds when OPEN). */
static double opt_double(const char *name, const char *arg, double min,
			 double max, bool open)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !isfinite(v) ||
	    (open ? v <= min || v >= max : v < min || v > max))
		usage_error("invalid value '%s' for %s (expected a number "
			    "%s %g and %g)",
			    arg, name, open ? "strictly between" : "from", min,
			    max);
	return v;
}

static int parse_args(struct args *a, int argc, char **argv)
{
	int opt;

	opt_common_init(&a->common);
	a->cmp.workload = "fake-gitk";
	a->cmp.alpha = 0.05;
	a->format = CMP_TEXT;
	a->fail_pct = NAN;
	a->plot = NULL;
	while ((opt = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1) {
		if (opt_common_handle(&a->common, opt, optarg, usage))
			continue;
		switch (opt) {
		case OPT_ALPHA:
			a->cmp.alpha =
				opt_double("--alpha", optarg, 0, 1, true);
			break;
		case OPT_FAIL_IF_SLOWER:
			a->fail_pct = opt_double("--fail-if-slower", optarg, 0,
						 1e6, false);
			break;
		case OPT_PLOT:
			if (!*optarg)
				usage_error("--plot needs a file name prefix");
			a->plot = optarg;
			break;
		case OPT_WORKLOAD:
			if (!*optarg)
				usage_error("--workload needs a name");
			a->cmp.workload = optarg;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	if (a->common.format && cmp_format_parse(a->common.format, &a->format))
		usage_error("unknown format '%s' (expected 2009, text, csv, "
			    "json or markdown)",
			    a->common.format);
	if (optind >= argc)
		usage_error("no result given");
	if (!isnan(a->fail_pct) && argc - optind < 2)
		usage_error("--fail-if-slower needs a baseline and a result "
			    "to judge");
	return optind;
}

static void write_report(const struct args *a, const struct cmp_result *r,
			 size_t n, const struct run_info *ri)
{
	const char *path = a->common.output ? a->common.output : "-";
	struct atomic_file af;
	int ret = atomic_open(&af, path);

	if (ret)
		die_err(EXIT_RUN_FAILED, -ret, "cannot create '%s'", path);
	cmp_report(af.f, a->format, r, n, &a->cmp, ri);
	ret = atomic_commit(&af);
	if (ret)
		die_err(EXIT_RUN_FAILED, -ret, "cannot write '%s'", path);
}

/*
 * The bisect verdict on the last result against the first: 125 when any
 * result is partial or the runs are too few to test, 1 when significantly
 * slower by more than PCT percent, else 0.  Said on stderr.
 */
static int verdict(const struct cmp_result *r, size_t n, double pct,
		   double alpha)
{
	const struct cmp_result *last = &r[n - 1];
	struct change c;
	size_t i;

	for (i = 0; i < n; i++) {
		if (r[i].partial) {
			fprintf(stderr,
				"%s: '%s' is a partial result: "
				"cannot judge\n",
				progname(), r[i].path);
			return EXIT_BISECT_SKIP;
		}
	}
	c = cmp_change(&r[0], last, FIG_ELAPSED, alpha);
	if (isnan(c.p) || isnan(c.delta)) {
		fprintf(stderr,
			"%s: cannot judge: '%s' and '%s' need at "
			"least 2 runs each\n",
			progname(), r[0].path, last->path);
		return EXIT_BISECT_SKIP;
	}
	fprintf(stderr, "%s: %s is %+.2f%% against %s (p = %.4g): %s\n",
		progname(), last->label, c.delta, r[0].label, c.p,
		c.delta > pct && c.significant ? "slower" : "not slower");
	return c.delta > pct && c.significant ? EXIT_RUN_FAILED : EXIT_OK;
}

int main(int argc, char **argv)
{
	struct cmp_result *r;
	struct run_info ri;
	struct args a;
	int first, status = EXIT_OK;
	size_t n, i;

	prog_init(argc, argv);
	run_info_init(&ri, "latency-compare", argc, argv);
	first = parse_args(&a, argc, argv);
	n = (size_t)(argc - first);
	r = xcalloc(n, sizeof(*r));
	for (i = 0; i < n; i++)
		cmp_load(&r[i], argv[first + i], &a.cmp);
	write_report(&a, r, n, &ri);
	if (a.plot && cmp_plot(a.plot, r, n, &a.cmp))
		status = EXIT_RUN_FAILED;
	if (!status && !isnan(a.fail_pct))
		status = verdict(r, n, a.fail_pct, a.cmp.alpha);
	for (i = 0; i < n; i++)
		cmp_result_release(&r[i]);
	free(r);
	return status;
}
