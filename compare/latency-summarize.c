// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-summarize: the figures of a run, computed in C so that the shell
 * driver only orchestrates.
 *   SECONDS...                 mean and sample standard deviation of the
 *                              fake-gitk runs as the 2009 headline
 *                              "LABEL Elapsed:MM:SS.mmm(stddev:SSS.sss)
 *                              Failures:N", as CSV or as JSON;
 *   --result-dir=DIR           result.json and summary.txt of a run
 *                              directory (summarize-*.c).
 * The driver's decisions (its configuration, the pressure plan, the stop
 * rule, the interleaved order, --precision) are latency-plan's; the two
 * share the reader of a run directory, libsummrun.a.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "compare/summarize.h"

enum {
	OPT_LABEL = OPT_PROG_FIRST,
	OPT_FAILURES,
	OPT_RESULT_DIR,
	OPT_MOVED, /* an option that latency-plan took over */
};

/* clang-format off */
static const struct option long_options[] = {
	OPT_LONG_HELP,
	OPT_LONG_VERSION,
	OPT_LONG_OUTPUT,
	OPT_LONG_FORMAT,
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "failures", required_argument, NULL, OPT_FAILURES },
	{ "result-dir", required_argument, NULL, OPT_RESULT_DIR },
	/* Refused with a pointer to latency-plan: see moved_option(). */
	{ "run-config", no_argument, NULL, OPT_MOVED },
	{ "shell", no_argument, NULL, OPT_MOVED },
	{ "pressure-plan", no_argument, NULL, OPT_MOVED },
	{ "footprint", required_argument, NULL, OPT_MOVED },
	{ "calibration", required_argument, NULL, OPT_MOVED },
	{ "ratio", required_argument, NULL, OPT_MOVED },
	{ "stop-rule", no_argument, NULL, OPT_MOVED },
	{ "paired-dir", required_argument, NULL, OPT_MOVED },
	{ "interleave-order", required_argument, NULL, OPT_MOVED },
	{ "seed", required_argument, NULL, OPT_MOVED },
	{ "precision", required_argument, NULL, OPT_MOVED },
	OPT_LONG_END
};
/* clang-format on */
static const char short_options[] = OPT_SHORT_HELP OPT_SHORT_OUTPUT;

struct args {
	struct opt_common common;
	enum out_format format;
	const char *label;
	uint64_t failures;
	const char *result_dir;
	bool label_or_failures;
};

static void usage(int status)
{
	if (status)
		usage_error(NULL);
	/* clang-format off */
	fputs("Usage: latency-summarize [OPTION]... SECONDS...\n"
	      "  or:  latency-summarize --result-dir=DIR\n"
	      "Print the mean and sample standard deviation of the elapsed times SECONDS\n"
	      "(one per workload run, e.g. 12.5, 250ms or 2m) as the headline\n"
	      "  LABEL Elapsed:MM:SS.mmm(stddev:SSS.sss) Failures:N\n"
	      "\n"
	      "  --label=LABEL     the headline's label (default: run)\n"
	      "  --failures=N      page allocation failures to report (default: 0)\n"
	      "  --format=FORMAT   text (the headline), csv (runs,mean_s,stddev_s)\n"
	      "                    or json (default: text)\n"
	      "  --result-dir=DIR  write DIR/result.json and DIR/summary.txt from the\n"
	      "                    run directory DIR (run.facts and what the programs left)\n"
	      "  -o, --output=FILE write to FILE instead of stdout\n"
	      "  -h, --help        display this help and exit\n"
	      "  -V, --version     output version information and exit\n"
	      "\n"
	      "The standard deviation is the sample one (n - 1); it is 0 for one run.\n"
	      "Durations: a bare number is seconds; suffixes ns, us, ms, s, m, h.\n"
	      "The driver's decisions (--run-config, --pressure-plan, --stop-rule,\n"
	      "--interleave-order, --precision) are latency-plan's.\n",
	      stdout);
	/* clang-format on */
	exit(EXIT_OK);
}

static void write_csv(FILE *f, const struct summ_elapsed *s)
{
	fprintf(f, "runs,mean_s,stddev_s\n%zu,%.9f,%.9f\n", s->n, s->mean_s,
		s->stddev_s);
}

static void write_json(FILE *f, const struct summ_elapsed *s, const char *label,
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

/*
 * An option of the driver's decisions, which moved to latency-plan: one
 * line that says where it went, exit 2, rather than "unrecognized".
 */
static void moved_option(int index)
{
	die(EXIT_USAGE, "--%s is latency-plan's now (latency-plan --%s)",
	    long_options[index].name, long_options[index].name);
}

static void parse_option(struct args *a, int opt, int index)
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
	case OPT_RESULT_DIR:
		if (!*optarg)
			usage_error("--result-dir needs a directory");
		a->result_dir = optarg;
		break;
	case OPT_MOVED:
		moved_option(index);
		break;
	default:
		usage(EXIT_USAGE);
	}
}

static int parse_args(struct args *a, int argc, char **argv)
{
	int opt, index = 0;

	memset(a, 0, sizeof(*a));
	a->label = "run";
	opt_common_init(&a->common);
	while ((opt = getopt_long(argc, argv, short_options, long_options,
				  &index)) != -1)
		if (!opt_common_handle(&a->common, opt, optarg, usage))
			parse_option(a, opt, index);
	a->format = opt_format(a->common.format, FORMAT_TEXT, true);
	if (a->result_dir && (argc > optind || a->label_or_failures ||
			      a->common.format || a->common.output))
		usage_error("--result-dir takes no other option and no "
			    "elapsed times");
	if (!a->result_dir && argc == optind)
		usage_error("no elapsed times given");
	return optind;
}

int main(int argc, char **argv)
{
	const char *out;
	struct summ_elapsed s = { 0 };
	struct atomic_file af;
	struct run_info ri;
	struct args a;
	int first, r;

	prog_init(argc, argv);
	run_info_init(&ri, "latency-summarize", argc, argv);
	first = parse_args(&a, argc, argv);
	if (a.result_dir)
		return summarize_dir(a.result_dir);
	/* Everything is checked before the output is opened. */
	summ_elapsed_opt(&s, argc - first, argv + first);
	out = a.common.output ? a.common.output : "-";
	r = atomic_open(&af, out);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot open '%s'", out);
	if (a.format == FORMAT_JSON)
		write_json(af.f, &s, a.label, a.failures, &ri);
	else if (a.format == FORMAT_CSV)
		write_csv(af.f, &s);
	else
		summ_headline(af.f, a.label, s.mean_s, s.stddev_s, a.failures);
	r = atomic_commit(&af);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot write '%s'",
			a.common.output ? a.common.output : "standard output");
	free(s.elapsed_s);
	return EXIT_OK;
}
