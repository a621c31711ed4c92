// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-output: time the lines of a workload's output (doc/design.md,
 * contract 2).  Each input line goes to stdout prefixed with its epoch time,
 * seconds into the test and seconds since the previous line, in the layout
 * of mmtests' monitors/latency-output; at the end a report of the gaps
 * (exact percentiles, stalls, histogram by count and by time) goes to
 * stderr or --report FILE.  --from remakes the report from a saved series.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "latency-output/latout.h"

#define LINE_MAX_BYTES (1U << 20)

enum {
	OPT_START = OPT_PROG_FIRST,
	OPT_DECIMALS,
	OPT_STALL,
	OPT_BY,
	OPT_FROM,
	OPT_REPORT,
	OPT_PLOT,
	OPT_STRICT,
	OPT_EPOCH_OFFSET,
};

/* clang-format off */
static const struct option long_options[] = {
	{ "start", required_argument, NULL, OPT_START },
	{ "decimals", required_argument, NULL, OPT_DECIMALS },
	{ "stall", required_argument, NULL, OPT_STALL },
	{ "by", required_argument, NULL, OPT_BY },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "epoch-offset", required_argument, NULL, OPT_EPOCH_OFFSET },
	OPT_LONG_FORMAT,
	OPT_LONG_HELP,
	OPT_LONG_VERSION,
	OPT_LONG_END,
};
/* clang-format on */
static const char short_options[] = OPT_SHORT_HELP;

struct options {
	struct lo_config cfg;
	uint64_t stall_threshold_ns;
	const char *from;
	const char *report;
	const char *plot;
	bool has_epoch_off;
	enum out_format format;
};

static void usage(int status)
{
	if (status != EXIT_OK)
		usage_error(NULL);
	printf("Usage: %s [OPTION]...\n", progname());
	/* clang-format off */
	fputs("Time the lines of a workload's output.  Each line read on stdin is written\n"
	      "to stdout as\n"
	      "  EPOCH-SECONDS SECONDS-INTO-TEST SECONDS-SINCE-PREVIOUS -- LINE\n"
	      "(mmtests' latency-output layout); a line that starts with a progress\n"
	      "timestamp (SECONDS.NANOSECONDS, CLOCK_MONOTONIC) is timed by it, any other\n"
	      "line by its arrival.  At the end a report of the gaps between lines goes\n"
	      "to stderr.\n"
	      "\n"
	      "Options:\n"
	      "      --start=SEC.NS     the test started at this CLOCK_MONOTONIC time\n"
	      "                         (default: the first line)\n"
	      "      --decimals=N       digits after the point in the stream, 0-9\n"
	      "                         (default 4)\n"
	      "      --stall=TIME       gaps over TIME are stalls (default 1s)\n"
	      "      --by=KEY           measure gaps separately per value of KEY=value\n"
	      "      --from=FILE        report on a saved series (or raw progress log)\n"
	      "                         instead of reading stdin; '-' is stdin\n"
	      "      --report=FILE      write the report to FILE (atomically)\n"
	      "      --format=FORMAT    report format: text, json or csv (default text)\n"
	      "      --plot=PREFIX      write gnuplot data and scripts, and PNG and SVG\n"
	      "                         images when gnuplot is installed\n"
	      "      --strict           a malformed line is an error (exit 1)\n"
	      "      --epoch-offset=SEC.NS  CLOCK_REALTIME minus CLOCK_MONOTONIC for the\n"
	      "                         epoch column (default: measured at start; give\n"
	      "                         it to replay a log from another boot)\n"
	      "  -h, --help             show this help and exit\n"
	      "  -V, --version          show the version and exit\n"
	      "\n"
	      "Durations take ns, us, ms, s, m, h (a bare number is seconds).\n"
	      "Exit status: 0 success, 1 failure or malformed line under --strict,\n"
	      "2 usage error, 128+N stopped by signal N (the report is still written).\n",
	      stdout);
	/* clang-format on */
	exit(EXIT_OK);
}

/* SEC[.NS] for --start and --epoch-offset. */
static uint64_t parse_secs(const char *name, const char *arg)
{
	size_t pos = 0, len = strlen(arg);
	int64_t ns;

	if (arg[0] == '-' || !lo_parse_seconds(arg, len, &pos, &ns) ||
	    pos != len)
		usage_error("invalid value '%s' for %s: not understood "
			    "(expected seconds such as 12345.678901234)",
			    arg, name);
	return (uint64_t)ns;
}

static void check_key(const char *key)
{
	if (!*key || strpbrk(key, " \t=\r\n"))
		usage_error("invalid value '%s' for --by: not understood "
			    "(expected a field name such as thread)",
			    key);
}

static void parse_options(int argc, char **argv, struct options *o)
{
	struct opt_common common;
	int c;

	opt_common_init(&common);
	memset(o, 0, sizeof(*o));
	o->cfg.decimals = 4;
	o->cfg.line_max = LINE_MAX_BYTES;
	o->stall_threshold_ns = NSEC_PER_SEC;
	while ((c = getopt_long(argc, argv, short_options, long_options,
				NULL)) != -1) {
		if (opt_common_handle(&common, c, optarg, usage))
			continue;
		switch (c) {
		case OPT_START:
			o->cfg.start = parse_secs("--start", optarg);
			o->cfg.has_start = true;
			break;
		case OPT_DECIMALS:
			o->cfg.decimals =
				(unsigned)opt_u64("--decimals", optarg, 0, 9);
			break;
		case OPT_STALL:
			o->stall_threshold_ns = opt_duration("--stall", optarg);
			break;
		case OPT_BY:
			check_key(optarg);
			o->cfg.by = optarg;
			break;
		case OPT_FROM:
			o->from = optarg;
			break;
		case OPT_REPORT:
			o->report = optarg;
			break;
		case OPT_PLOT:
			o->plot = optarg;
			break;
		case OPT_STRICT:
			o->cfg.strict = true;
			break;
		case OPT_EPOCH_OFFSET:
			o->cfg.epoch_off =
				(int64_t)parse_secs("--epoch-offset", optarg);
			o->has_epoch_off = true;
			break;
		default:
			usage_error(NULL);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	o->format = opt_format(common.format, FORMAT_TEXT, true);
	/* A series is timed on its own epoch column: no monotonic start. */
	if (o->from && o->cfg.has_start)
		usage_error("--start cannot be combined with --from");
	if (o->plot && !*o->plot)
		usage_error("--plot needs a file name prefix");
}

/* Read the input to the end (or a stop signal); dies on errors. */
static void run(struct lo_state *st, const char *name, int fd)
{
	int r = lo_read_fd(st, fd);

	if (!r)
		r = lo_finish(st, mono_ns());
	if (r == -EIO && st->bad_lineno) {
		(void)lo_flush(st); /* the good lines before it stand */
		die(EXIT_RUN_FAILED, "%s%s%sline %llu: %s (--strict)",
		    name ? "'" : "", name ? name : "", name ? "': " : "",
		    (unsigned long long)st->bad_lineno,
		    lo_bad_name(st->bad_kind));
	}
	if (r && st->out.err)
		die_err(EXIT_RUN_FAILED, -st->out.err, "write error");
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot read '%s'",
			name ? name : "stdin");
}

static void write_report(const struct options *o, struct lo_report *r)
{
	struct lo_summary *sum;
	struct atomic_file af;
	size_t n = 0;
	bool ran;
	int ret;

	sum = lo_summarise_all(r, &n);
	if (!sum)
		die_err(EXIT_RUN_FAILED, ENOMEM, "cannot sort the gaps");
	if (o->plot) {
		ret = lo_plot(r, &sum[n - 1], o->plot, &ran);
		if (ret == -ECHILD)
			die(EXIT_RUN_FAILED, "gnuplot failed on '%s-*.gp'",
			    o->plot);
		if (ret)
			die_err(EXIT_RUN_FAILED, -ret, "cannot write '%s.*'",
				o->plot);
	}
	r->ri->end_real_ns = real_ns();
	if (!o->report) {
		lo_report_write(r, sum, n, stderr);
	} else {
		ret = atomic_open(&af, o->report);
		if (ret)
			die_err(EXIT_RUN_FAILED, -ret, "cannot create '%s'",
				o->report);
		lo_report_write(r, sum, n, af.f);
		ret = atomic_commit(&af);
		if (ret)
			die_err(EXIT_RUN_FAILED, -ret, "cannot write '%s'",
				o->report);
	}
	free(sum);
}

int main(int argc, char **argv)
{
	struct options o;
	struct run_info ri;
	struct lo_state st;
	struct lo_report r;
	int fd = STDIN_FILENO, ret;

	prog_init(argc, argv);
	run_info_init(&ri, "latency-output", argc, argv);
	ri.format_version = LO_FORMAT_VERSION;
	parse_options(argc, argv, &o);
	ret = sig_stop_install();
	if (ret)
		die_err(EXIT_RUN_FAILED, -ret,
			"cannot install signal handlers");
	if (o.from && strcmp(o.from, "-")) {
		fd = open(o.from, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die_errno(EXIT_RUN_FAILED, "cannot open '%s'", o.from);
	}
	o.cfg.from = o.from != NULL;
	o.cfg.emit = !o.cfg.from;
	o.cfg.out_fd = STDOUT_FILENO;
	o.cfg.keep_at = o.plot != NULL;
	if (!o.has_epoch_off)
		o.cfg.epoch_off = (int64_t)(real_ns() - mono_ns());
	lo_init(&st, &o.cfg);
	run(&st, o.from, fd);
	if (fd != STDIN_FILENO)
		(void)close(fd); /* read-only: nothing to lose */
	r = (struct lo_report){
		.st = &st,
		.ri = &ri,
		.format = o.format,
		.stall_threshold_ns = o.stall_threshold_ns,
		.interrupted = sig_stop,
		.source = o.from ? o.from : "stdin",
		/* --plot writes the gaps in arrival order after the sums. */
		.consume = o.plot == NULL,
	};
	write_report(&o, &r);
	lo_release(&st);
	return sig_stop ? EXIT_SIGNAL(sig_stop) : EXIT_OK;
}
