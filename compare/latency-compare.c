// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-compare: several run-test.sh result directories (or seqbench
 * results) side by side, gathered by label (several results of one label
 * are several boots of one kernel), the first label being the baseline:
 * mean elapsed time over the fake-gitk runs with its deviation and
 * confidence intervals, page allocation failures, stalls, reclaim time and
 * the kernel's figures of each run, each with its change against the
 * baseline, whether Welch's t-test finds it significant and the smallest
 * change it could have found.  With --fail-if-slower it is a `git bisect
 * run` judge.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/err.h"
#include "lib/gnuplot.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "compare/compare.h"

/* What `git bisect run` takes as "cannot test this commit". */
#define EXIT_BISECT_SKIP 125

enum {
	OPT_ALPHA = OPT_PROG_FIRST,
	OPT_FAIL_IF_SLOWER,
	OPT_KCIDB_ORIGIN,
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
	{ "kcidb-origin", required_argument, NULL, OPT_KCIDB_ORIGIN },
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

/* One result to load, with the label given on the command line, if any. */
struct input {
	const char *label;
	char *path;
};

/* Labels given on the command line are bounded as those in files are. */
#define MAX_ARG_LABEL 200

static void usage(int status)
{
	if (status)
		usage_error(NULL);
	/* clang-format off */
	printf("Usage: %s [OPTION]... RESULT|LABEL=RESULT[,RESULT]...\n",
	       progname());
	fputs("Compare run-test.sh results (and seqbench results) of several kernels.\n"
	      "Each RESULT is a result directory (result.json, and seqbench.json if\n"
	      "present), a result.json or a seqbench JSON file.  Results are gathered by\n"
	      "their label (or the LABEL given): several results of a label are several\n"
	      "boots of one kernel.  The first label is the baseline.\n"
	      "\n"
	      "  --format=FORMAT       text (default: an aligned table), 2009 (one line\n"
	      "                        per label: LABEL Elapsed:MM:SS.mmm(stddev:SSS.sss)\n"
	      "                        Failures:N, then LABEL HighOrder: ... as in\n"
	      "                        summary.txt when a result probed high-order\n"
	      "                        allocations), csv, json, markdown, lava (a line\n"
	      "                        per figure of each result: lava-test-case NAME\n"
	      "                        --result R [--measurement X [--units U]]) or kcidb\n"
	      "                        (a KCIDB v5.3 object: the kernels, their builds,\n"
	      "                        a test per figure)\n"
	      "  --kcidb-origin=NAME   the CI system named in KCIDB ids (default\n"
	      "                        " CMP_KCIDB_ORIGIN "; lower case letters, digits, _)\n"
	      "  -o, --output=FILE     write the report to FILE instead of stdout\n"
	      "  --alpha=P             significance level of Welch's t-test (default 0.05)\n"
	      "  --workload=NAME       whose stalls to compare (default fake-gitk); a name\n"
	      "                        no result has is an error\n"
	      "  --plot=PREFIX         overlay the labels' latency histograms: PREFIX.dat,\n"
	      "                        PREFIX.gp, and PREFIX.png and PREFIX.svg if gnuplot\n"
	      "                        is in PATH\n"
	      "  --fail-if-slower=PCT  for git bisect run: exit 1 if the last RESULT is\n"
	      "                        significantly slower than the baseline by more than\n"
	      "                        PCT percent, 0 if not, 125 if a result is partial\n"
	      "  -h, --help            show this help and exit\n"
	      "  -V, --version         show the version and exit\n"
	      "\n"
	      "Times are in seconds. Exit status: 0 success, 1 bad input or slower, 2 usage\n"
	      "error, 125 cannot judge (--fail-if-slower).\n",
	      stdout);
	/* clang-format on */
	exit(EXIT_OK);
}

static int parse_args(struct args *a, int argc, char **argv)
{
	int opt;

	opt_common_init(&a->common);
	a->cmp.workload = "fake-gitk";
	a->cmp.workload_given = false;
	a->cmp.alpha = 0.05;
	a->cmp.kcidb_origin = CMP_KCIDB_ORIGIN;
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
		case OPT_KCIDB_ORIGIN:
			if (!cmp_kcidb_origin_ok(optarg))
				usage_error("--kcidb-origin takes lower case "
					    "letters, digits and _");
			a->cmp.kcidb_origin = optarg;
			break;
		case OPT_PLOT:
			if (!*optarg)
				usage_error("--plot needs a file name prefix");
			/* The script names its files in gnuplot strings. */
			if (!gnuplot_name_ok(optarg))
				usage_error("--plot prefix has a control "
					    "character, a backslash or "
					    "invalid UTF-8");
			a->plot = optarg;
			break;
		case OPT_WORKLOAD:
			if (!*optarg)
				usage_error("--workload needs a name");
			a->cmp.workload = optarg;
			a->cmp.workload_given = true;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	if (a->common.format)
		a->format = (enum cmp_format)opt_choice(
			"--format", a->common.format, cmp_format_names);
	if (optind >= argc)
		usage_error("no result given");
	if (!isnan(a->fail_pct) && argc - optind < 2)
		usage_error("--fail-if-slower needs a baseline and a result "
			    "to judge");
	return optind;
}

/*
 * Is ARG "LABEL=RESULT[,RESULT]..."?  Not when it names an existing file
 * or directory, nor when a '/' comes before the first '=' (a path with an
 * '=' in a directory name).
 */
static bool is_labelled(const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct stat st;

	return eq && !memchr(arg, '/', (size_t)(eq - arg)) && stat(arg, &st);
}

/* Add the results ARG names to *IN (of *N). */
static void add_inputs(struct input **in, size_t *n, const char *arg)
{
	const char *eq = strchr(arg, '='), *p, *comma;
	char *label;

	if (!is_labelled(arg)) {
		*in = xreallocarray(*in, *n + 1, sizeof(**in));
		(*in)[*n].label = NULL;
		(*in)[(*n)++].path = xstrdup(arg);
		return;
	}
	if (eq == arg)
		usage_error("no label before '=' in '%s'", arg);
	if ((size_t)(eq - arg) > MAX_ARG_LABEL)
		usage_error("a label is longer than %d bytes", MAX_ARG_LABEL);
	label = xasprintf("%.*s", (int)(eq - arg), arg);
	for (p = eq + 1;; p = comma + 1) {
		comma = strchr(p, ',');
		if (comma == p || !*p)
			usage_error("an empty result in '%s'", arg);
		*in = xreallocarray(*in, *n + 1, sizeof(**in));
		(*in)[*n].label = label;
		(*in)[(*n)++].path =
			comma ? xasprintf("%.*s", (int)(comma - p), p)
			      : xstrdup(p);
		if (!comma)
			break;
	}
}

static void write_report(const struct args *a, const struct cmp_comparison *c,
			 const struct run_info *ri)
{
	const char *path = a->common.output ? a->common.output : "-";
	struct atomic_file af;
	int ret = atomic_open(&af, path);

	if (ret)
		die_err(EXIT_RUN_FAILED, -ret, "cannot create '%s'", path);
	cmp_report(af.f, a->format, c, ri);
	ret = atomic_commit(&af);
	if (ret)
		die_err(EXIT_RUN_FAILED, -ret, "cannot write '%s'", path);
}

/*
 * The bisect verdict on the last label against the first: 125 when any
 * result is partial or the runs are too few to test, 1 when significantly
 * slower by more than PCT percent, else 0.  Said on stderr.
 */
static int verdict(const struct cmp_comparison *c, double pct)
{
	const struct cmp_label *l = c->labels;
	const struct cmp_entry *e = &c->e[c->n - 1];
	char *lb = text_escape(l[0].label), *ll = text_escape(e->l->label);
	const struct change *d = &e->fig[e->lead].c;
	size_t i, j;
	int status;

	for (i = 0; i < c->n; i++) {
		for (j = 0; j < l[i].n; j++) {
			if (!l[i].r[j]->partial)
				continue;
			inform("'%s' is a partial result: cannot judge",
			       l[i].r[j]->path);
			status = EXIT_BISECT_SKIP;
			goto out;
		}
	}
	/* A busy machine, or a busy host, is named, not judged. */
	if (e->busier) {
		char *b = text_escape(e->busier->label);

		if (e->machine_busier)
			inform("cannot judge: the machine was busier on %s "
			       "(other processes' CPU, or the wait for a CPU)",
			       b);
		else
			inform("cannot judge: the host was busier on %s "
			       "(other host processes' CPU while its guests "
			       "ran)",
			       b);
		free(b);
		status = EXIT_BISECT_SKIP;
		goto out;
	}
	if (isnan(d->p) || isnan(d->delta)) {
		inform("cannot judge: %s and %s need at least 2 runs each (or "
		       "2 results of one of them)",
		       lb, ll);
		status = EXIT_BISECT_SKIP;
		goto out;
	}
	inform("%s is %+.2f%% against %s%s (p = %.4g): %s", ll, d->delta, lb,
	       e->lead == FIG_EPU ? " in elapsed per user-CPU second" : "",
	       d->p,
	       d->delta > pct && d->significant ? "slower" : "not slower");
	status = d->delta > pct && d->significant ? EXIT_RUN_FAILED : EXIT_OK;
out:
	free(lb);
	free(ll);
	return status;
}

/* Every result named on the command line, loaded; returns how many. */
static size_t load_all(struct cmp_result **out, char **argv, int first,
		       int argc, const struct cmp_options *o)
{
	struct input *in = NULL;
	struct cmp_result *r;
	size_t n = 0, i;
	bool found = false;
	int k;

	for (k = first; k < argc; k++)
		add_inputs(&in, &n, argv[k]);
	r = xcalloc(n, sizeof(*r));
	for (i = 0; i < n; i++) {
		/* A refused result (its one line printed) ends the program. */
		if (cmp_load(&r[i], in[i].path, in[i].label, o))
			exit(EXIT_RUN_FAILED);
		found |= r[i].has_workload;
		free(in[i].path);
		/* A label is shared by the paths after its '='. */
		if (in[i].label &&
		    (i + 1 == n || in[i + 1].label != in[i].label))
			free((char *)in[i].label);
	}
	free(in);
	if (o->workload_given && !found) {
		char *w = text_escape(o->workload);

		die(EXIT_USAGE, "no result has a latency summary of '%s'", w);
	}
	*out = r;
	return n;
}

int main(int argc, char **argv)
{
	struct cmp_comparison *c;
	struct cmp_result *r;
	struct cmp_label *l;
	struct run_info ri;
	struct args a;
	int first, status = EXIT_OK;
	size_t n, nl;

	prog_init(argc, argv);
	run_info_init(&ri, "latency-compare", argc, argv);
	first = parse_args(&a, argc, argv);
	n = load_all(&r, argv, first, argc, &a.cmp);
	nl = cmp_group(r, n, &l);
	if (nl == 1 && n > 1) {
		char *e = text_escape(l[0].label);

		warn("all %zu results have the label %s: nothing to compare "
		     "(LABEL=RESULT tells them apart)",
		     n, e);
		free(e);
	}
	if (!isnan(a.fail_pct) && nl < 2)
		usage_error("--fail-if-slower needs a baseline and a result "
			    "to judge (all results have one label)");
	cmp_pressure_warn(l, nl);
	cmp_setup_warn(l, nl);
	a.cmp.fleet = a.format == CMP_LAVA || a.format == CMP_KCIDB;
	c = cmp_build(l, nl, &a.cmp);
	write_report(&a, c, &ri);
	if (a.plot && cmp_plot(a.plot, c))
		status = EXIT_RUN_FAILED;
	if (!status && !isnan(a.fail_pct))
		status = verdict(c, a.fail_pct);
	cmp_comparison_free(c);
	cmp_free_all(l, nl, r, n);
	return status;
}
