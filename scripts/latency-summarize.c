// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-summarize: the arithmetic of the driver's headline.  Takes the
 * elapsed times of the fake-gitk runs (as the workload measured them) and
 * prints their mean and sample standard deviation as the 2009 headline
 * "LABEL Elapsed:MM:SS.mmm(stddev:SSS.sss) Failures:N", as CSV for the
 * driver to copy into result.json, or as JSON.  It exists so that the shell
 * driver only orchestrates: every figure it reports is computed in C.
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
#include "lib/stats.h"
#include "lib/timing.h"
#include "lib/xalloc.h"

enum {
	OPT_LABEL = OPT_PROG_FIRST,
	OPT_FAILURES,
};

/* clang-format off */
static const struct option long_options[] = {
	OPT_LONG_HELP,
	OPT_LONG_VERSION,
	OPT_LONG_OUTPUT,
	OPT_LONG_FORMAT,
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "failures", required_argument, NULL, OPT_FAILURES },
	OPT_LONG_END
};
/* clang-format on */
static const char short_options[] = OPT_SHORT_HELP OPT_SHORT_OUTPUT;

struct summary {
	const char *label;
	uint64_t failures;
	size_t n;
	double *elapsed_s;
	double mean_s;
	double stddev_s;
};

static void usage(int status)
{
	if (status)
		usage_error(NULL);
	printf("Usage: latency-summarize [OPTION]... SECONDS...\n"
	       "Print the mean and sample standard deviation of the elapsed "
	       "times SECONDS\n"
	       "(one per workload run, e.g. 12.5, 250ms or 2m) as the "
	       "headline\n"
	       "  LABEL Elapsed:MM:SS.mmm(stddev:SSS.sss) Failures:N\n"
	       "\n"
	       "  --label=LABEL     the headline's label (default: run)\n"
	       "  --failures=N      page allocation failures to report "
	       "(default: 0)\n"
	       "  --format=FORMAT   text (the headline), csv (runs,mean_s,"
	       "stddev_s)\n"
	       "                    or json (default: text)\n"
	       "  -o, --output=FILE write to FILE instead of stdout\n"
	       "  -h, --help        display this help and exit\n"
	       "  -V, --version     output version information and exit\n"
	       "\n"
	       "The standard deviation is the sample one (n - 1); it is 0 "
	       "for one run.\n"
	       "Durations: a bare number is seconds; suffixes ns, us, ms, "
	       "s, m, h.\n");
	exit(EXIT_OK);
}

static void write_text(FILE *f, const struct summary *s)
{
	char elapsed[32];

	fprintf(f, "%s Elapsed:%s(stddev:%.3f) Failures:%llu\n", s->label,
		fmt_mmss(elapsed, s->mean_s), s->stddev_s,
		(unsigned long long)s->failures);
}

static void write_csv(FILE *f, const struct summary *s)
{
	fprintf(f, "runs,mean_s,stddev_s\n%zu,%.9f,%.9f\n", s->n, s->mean_s,
		s->stddev_s);
}

static void write_json(FILE *f, const struct summary *s,
		       const struct run_info *ri)
{
	struct json j;
	size_t i;

	json_init(&j, f, true);
	json_object_begin(&j, NULL);
	json_run_header(&j, ri);
	json_str(&j, "label", s->label);
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
	json_u64(&j, "failures", s->failures);
	json_object_end(&j);
	json_finish(&j);
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

int main(int argc, char **argv)
{
	struct summary s = { .label = "run" };
	struct opt_common common;
	struct atomic_file af;
	struct run_info ri;
	enum out_format format = FORMAT_TEXT;
	int opt, r;

	prog_init(argc, argv);
	run_info_init(&ri, "latency-summarize", argc, argv);
	opt_common_init(&common);
	while ((opt = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1) {
		if (opt_common_handle(&common, opt, optarg, usage))
			continue;
		switch (opt) {
		case OPT_LABEL:
			if (!*optarg || strpbrk(optarg, " \t\n"))
				usage_error("invalid label '%s' (expected "
					    "one word)",
					    optarg);
			s.label = optarg;
			break;
		case OPT_FAILURES:
			s.failures =
				opt_u64("--failures", optarg, 0, UINT64_MAX);
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	if (common.format && out_format_parse(common.format, &format))
		usage_error("invalid value '%s' for --format (expected text, "
			    "csv or json)",
			    common.format);
	if (optind >= argc)
		usage_error("no elapsed times given");
	parse_elapsed(&s, argc - optind, argv + optind);

	r = atomic_open(&af, common.output ? common.output : "-");
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot open '%s'", common.output);
	if (format == FORMAT_JSON) {
		ri.end_real_ns = real_ns();
		write_json(af.f, &s, &ri);
	} else if (format == FORMAT_CSV) {
		write_csv(af.f, &s);
	} else {
		write_text(af.f, &s);
	}
	r = atomic_commit(&af);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot write '%s'",
			common.output ? common.output : "standard output");
	free(s.elapsed_s);
	return EXIT_OK;
}
