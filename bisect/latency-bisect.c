// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-bisect: find the first kernel of an ordered series whose figure
 * is worse than the good end's, by pairs of boots (latency-vm's, or a
 * --boot-command's) decided in three states with latency-compare's
 * paired test, every boot kept and counted once, the culprit validated
 * against its predecessor in fresh pairs, resumable after any stop.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/rand.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "bisect/bisect.h"

enum {
	OPT_SERIES = OPT_PROG_FIRST,
	OPT_GOOD,
	OPT_BAD,
	OPT_RESULTS,
	OPT_METRIC,
	OPT_THRESHOLD,
	OPT_MIN_PAIRS,
	OPT_MAX_PAIRS,
	OPT_ALPHA,
	OPT_PROBE_ALPHA,
	OPT_BOOT_COMMAND,
	OPT_CONTINUE,
	OPT_STATUS,
	OPT_SIMULATE,
	OPT_ALL,
	OPT_GIT,
	OPT_BUILD,
	OPT_SIM_KERNELS,
	OPT_SIM_REGRESSION,
	OPT_SIM_TRIALS,
	OPT_VM_FIRST, /* latency-vm's guest options, in vm_options order */
};

/* latency-vm's options that every boot gets, passed on as given. */
static const char *const vm_options[] = {
	"memory",	"cpus",		  "device",    "accel",
	"disk-cache",	"disk-size",	  "swap-size", "timeout",
	"boot-timeout", "lockup-timeout", "setup",
};
#define N_VM_OPTIONS (sizeof(vm_options) / sizeof(vm_options[0]))

/* clang-format off */
static const struct option long_options[] = {
	OPT_LONG_HELP,
	OPT_LONG_VERSION,
	OPT_LONG_QUIET,
	OPT_LONG_SEED,
	{ "series", required_argument, NULL, OPT_SERIES },
	{ "good", required_argument, NULL, OPT_GOOD },
	{ "bad", required_argument, NULL, OPT_BAD },
	{ "results", required_argument, NULL, OPT_RESULTS },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "min-pairs", required_argument, NULL, OPT_MIN_PAIRS },
	{ "max-pairs", required_argument, NULL, OPT_MAX_PAIRS },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "probe-alpha", required_argument, NULL, OPT_PROBE_ALPHA },
	{ "boot-command", required_argument, NULL, OPT_BOOT_COMMAND },
	{ "continue", required_argument, NULL, OPT_CONTINUE },
	{ "status", required_argument, NULL, OPT_STATUS },
	{ "simulate", required_argument, NULL, OPT_SIMULATE },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "git", required_argument, NULL, OPT_GIT },
	{ "build", required_argument, NULL, OPT_BUILD },
	{ "sim-kernels", required_argument, NULL, OPT_SIM_KERNELS },
	{ "sim-regression", required_argument, NULL, OPT_SIM_REGRESSION },
	{ "sim-trials", required_argument, NULL, OPT_SIM_TRIALS },
	{ "memory", required_argument, NULL, OPT_VM_FIRST + 0 },
	{ "cpus", required_argument, NULL, OPT_VM_FIRST + 1 },
	{ "device", required_argument, NULL, OPT_VM_FIRST + 2 },
	{ "accel", required_argument, NULL, OPT_VM_FIRST + 3 },
	{ "disk-cache", required_argument, NULL, OPT_VM_FIRST + 4 },
	{ "disk-size", required_argument, NULL, OPT_VM_FIRST + 5 },
	{ "swap-size", required_argument, NULL, OPT_VM_FIRST + 6 },
	{ "timeout", required_argument, NULL, OPT_VM_FIRST + 7 },
	{ "boot-timeout", required_argument, NULL, OPT_VM_FIRST + 8 },
	{ "lockup-timeout", required_argument, NULL, OPT_VM_FIRST + 9 },
	{ "setup", required_argument, NULL, OPT_VM_FIRST + 10 },
	OPT_LONG_END,
};
static const char short_options[] = OPT_SHORT_HELP OPT_SHORT_QUIET;
/* clang-format on */

/*
 * Git mode's build: a configuration for a QEMU guest (virtio built in,
 * kernel/configs/kvm_guest.config) over x86_64's defconfig, then the
 * image, arch/x86/boot/bzImage.
 */
#define DEFAULT_BUILD                                                          \
	"make defconfig kvm_guest.config >&2 && make -j\"$(nproc)\" bzImage "  \
	">&2"

struct args {
	struct opt_common common;
	const char *series, *good, *bad, *results, *metric, *cont, *status;
	const char *simulate;
	double threshold;
	unsigned min_pairs, max_pairs;
	double alpha;
	double probe_alpha;
	struct sim_opts sim;
	bool all;
	bool given; /* an option besides --continue */
};

static void usage(int status)
{
	if (status)
		usage_error(NULL);
	printf("Usage: %s [OPTION]... --series=FILE [-- RUN-TEST-OPTION...]\n"
	       "  or:  %s [OPTION]... --git=TREE --good=REV --bad=REV "
	       "[--build=CMD]\n"
	       "  or:  %s --continue=DIR\n"
	       "  or:  %s --status=DIR\n",
	       progname(), progname(), progname(), progname());
	fputs("Find the first kernel of an ordered series whose figure is "
	      "worse "
	      "than the good\n"
	      "end's: pairs of boots against the good end, each kernel bad, "
	      "good or unknown\n"
	      "(more pairs), the culprit validated against its predecessor in "
	      "fresh pairs.\n"
	      "\n"
	      "  --series=FILE        one kernel a line, oldest first: LABEL "
	      "KERNEL [CMDLINE...]\n"
	      "  --good=LABEL         the good end (default: the first line)\n"
	      "  --bad=LABEL          the bad end (default: the last line)\n"
	      "  --results=DIR        the bisection's directory, new or empty "
	      "(default bisect)\n"
	      "  --metric=NAME        the figure decided on (default "
	      "elapsed_per_user)\n"
	      "  --threshold=PCT      the change a kernel must cross (default: "
	      "half the ends')\n"
	      "  --min-pairs=N        pairs before a series is judged "
	      "(default 3)\n"
	      "  --max-pairs=N        pairs at most a series (default 20)\n"
	      "  --alpha=A            over all looks at a series (default "
	      "0.02)\n"
	      "  --probe-alpha=A      the same for a probed kernel's interval "
	      "(default 0.1)\n"
	      "      --seed=N         the pairs' order (default 137)\n"
	      "  --all                catch mode: every step between "
	      "neighbours tested, no search\n"
	      "  --git=TREE           bisect the commits of TREE from "
	      "--good=REV "
	      "to --bad=REV\n"
	      "  --build=CMD          git mode: build the commit checked out "
	      "in the worktree\n"
	      "  --boot-command=CMD   boot with CMD KERNEL CMDLINE RESULT-DIR "
	      "instead of latency-vm\n"
	      "  --continue=DIR       go on with the bisection of DIR\n"
	      "  --status=DIR         print where the bisection of DIR stands\n"
	      "  --simulate=RECORDS   run the decisions on boots drawn from "
	      "RECORDS (bench/)\n"
	      "  --sim-kernels=N      kernels of a simulated series (default "
	      "8)\n"
	      "  --sim-regression=PCT the culprit's regression (default 10)\n"
	      "  --sim-trials=N       simulated bisections (default 1000)\n"
	      "  --memory=SIZE, --cpus=N, --device=D, --accel=A, "
	      "--disk-cache=C,\n"
	      "  --disk-size=SIZE, --swap-size=SIZE, --timeout=T, "
	      "--boot-timeout=T,\n"
	      "  --lockup-timeout=T, --setup=SCRIPT\n"
	      "                       latency-vm's, for every boot\n"
	      "  -q, --quiet          no progress lines\n"
	      "  -h, --help           display this help and exit\n"
	      "  -V, --version        output version information and exit\n"
	      "\n"
	      "Exit status: 0 culprit found and validated, 1 culprit not "
	      "validated or only a\n"
	      "range, 2 usage, 3 unsupported here, 4 not reproduced between "
	      "the ends, 128+N\n"
	      "stopped by signal N (resume with --continue).\n",
	      stdout);
	exit(EXIT_OK);
}

static enum fig metric_of(const char *name)
{
	int f;

	for (f = 0; f < FIG_COUNT; f++)
		if (fig_desc[f].change == CHANGE_PCT && f != FIG_STDDEV &&
		    f != FIG_CV && !fig_desc[f].machine &&
		    !strcmp(fig_desc[f].name, name))
			return (enum fig)f;
	usage_error("invalid value '%s' for --metric (a figure of "
		    "latency-compare: elapsed, elapsed_per_user, p99, "
		    "stall_time, majflt, ...)",
		    name);
}

static void parse_vm_option(struct bisect_run *run, int opt, const char *arg)
{
	const char *name = vm_options[opt - OPT_VM_FIRST];

	if (!*arg || strpbrk(arg, "\n\""))
		usage_error("invalid value '%s' for --%s", arg, name);
	run->vm_opts = xreallocarray(run->vm_opts, run->n_vm_opts + 1,
				     sizeof(*run->vm_opts));
	run->vm_opts[run->n_vm_opts++] = xasprintf("--%s=%s", name, arg);
}

static void parse_one(struct args *a, struct bisect_run *run, int opt,
		      const char *arg)
{
	a->given |= opt != OPT_CONTINUE && opt != OPT_STATUS && opt != 'q';
	if (opt >= OPT_VM_FIRST && opt < OPT_VM_FIRST + (int)N_VM_OPTIONS) {
		parse_vm_option(run, opt, arg);
		return;
	}
	switch (opt) {
	case OPT_SERIES:
		a->series = arg;
		break;
	case OPT_GOOD:
		a->good = arg;
		break;
	case OPT_BAD:
		a->bad = arg;
		break;
	case OPT_RESULTS:
		a->results = arg;
		break;
	case OPT_METRIC:
		a->metric = arg;
		break;
	case OPT_THRESHOLD:
		a->threshold = opt_double("--threshold", arg, 0, 1000, true);
		break;
	case OPT_MIN_PAIRS:
		a->min_pairs = (unsigned)opt_u64("--min-pairs", arg, 2,
						 BISECT_MAX_PAIRS);
		break;
	case OPT_MAX_PAIRS:
		a->max_pairs = (unsigned)opt_u64("--max-pairs", arg, 2,
						 BISECT_MAX_PAIRS);
		break;
	case OPT_ALPHA:
		a->alpha = opt_double("--alpha", arg, 0, 0.5, true);
		break;
	case OPT_PROBE_ALPHA:
		a->probe_alpha = opt_double("--probe-alpha", arg, 0, 0.5, true);
		break;
	case OPT_BOOT_COMMAND:
		if (!*arg)
			usage_error("invalid value '' for --boot-command");
		run->boot_command = xstrdup(arg);
		break;
	case OPT_CONTINUE:
		a->cont = arg;
		break;
	case OPT_STATUS:
		a->status = arg;
		break;
	case OPT_SIMULATE:
		a->simulate = arg;
		break;
	case OPT_ALL:
		a->all = true;
		break;
	case OPT_GIT:
		run->git_tree = xstrdup(arg);
		break;
	case OPT_BUILD:
		if (!*arg)
			usage_error("invalid value '' for --build");
		run->build_command = xstrdup(arg);
		break;
	case OPT_SIM_KERNELS:
		a->sim.kernels = opt_u64("--sim-kernels", arg, 2, 1000);
		break;
	case OPT_SIM_REGRESSION:
		a->sim.regression =
			opt_double("--sim-regression", arg, 0, 1000, false);
		break;
	case OPT_SIM_TRIALS:
		a->sim.trials = opt_u64("--sim-trials", arg, 1, 10000000);
		break;
	default:
		usage(EXIT_USAGE);
	}
}

static void parse_args(int argc, char **argv, struct args *a,
		       struct bisect_run *run)
{
	int opt, i;

	memset(a, 0, sizeof(*a));
	opt_common_init(&a->common);
	a->threshold = NAN;
	a->min_pairs = 3;
	a->max_pairs = 20;
	a->alpha = 0.02;
	a->probe_alpha = 0.1;
	a->results = "bisect";
	a->sim.kernels = 8;
	a->sim.trials = 1000;
	a->sim.regression = 10;
	while ((opt = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1)
		if (!opt_common_handle(&a->common, opt, optarg, usage))
			parse_one(a, run, opt, optarg);
	a->given |= a->common.has_seed;
	for (i = optind; i < argc; i++) {
		run->rt_opts = xreallocarray(run->rt_opts, run->n_rt_opts + 1,
					     sizeof(*run->rt_opts));
		run->rt_opts[run->n_rt_opts++] = xstrdup(argv[i]);
	}
	run->quiet = a->common.quiet;
	if ((a->cont || a->status) && (a->given || run->n_rt_opts))
		usage_error("--%s takes no other option",
			    a->cont ? "continue" : "status");
	if (a->cont && a->status)
		usage_error("--continue and --status: one or the other");
	if (a->cont || a->status)
		return;
	if (a->metric)
		(void)metric_of(
			a->metric); /* checked before any file is read */
	if (a->max_pairs < a->min_pairs)
		usage_error("--max-pairs %u is below --min-pairs %u",
			    a->max_pairs, a->min_pairs);
	if (a->simulate)
		return;
	if (run->git_tree && a->series)
		usage_error("--series and --git: one or the other");
	if (run->build_command && !run->git_tree)
		usage_error("--build goes with --git");
	if (run->git_tree && (!a->good || !a->bad))
		usage_error("--git needs --good=REV and --bad=REV");
	if (run->git_tree && !run->build_command)
		run->build_command = xstrdup(DEFAULT_BUILD);
	if (!a->series && !run->git_tree)
		usage_error("no --series given");
	if (run->boot_command && run->n_vm_opts)
		usage_error("latency-vm's options do not go with "
			    "--boot-command");
}

/* Open the bisection's directory DIR: new, or empty when NEW. */
static int dir_open(const char *dir, bool fresh)
{
	struct dirent *de;
	int fd;
	DIR *d;

	if (fresh && mkdir(dir, 0755) && errno != EEXIST)
		die_errno(EXIT_USAGE, "cannot make '%s'", dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		die_errno(EXIT_USAGE, "cannot open '%s'", dir);
	if (!fresh)
		return fd;
	d = fdopendir(dup(fd));
	if (!d)
		die_errno(EXIT_USAGE, "cannot read '%s'", dir);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			die(EXIT_USAGE,
			    "'%s' is not empty: --results wants a new or empty "
			    "directory (--continue=%s goes on with a "
			    "bisection)",
			    dir, dir);
	closedir(d);
	return fd;
}

static size_t end_of(const struct bisect *b, const char *label, size_t dflt,
		     const char *opt)
{
	long i;

	if (!label)
		return dflt;
	i = series_find(b, label);
	if (i < 0)
		usage_error("invalid value '%s' for %s: no such label in the "
			    "series",
			    label, opt);
	return (size_t)i;
}

/* The options of the decisions from A. */
static void opts_of(struct bisect_opts *o, const struct args *a)
{
	o->metric = metric_of(a->metric ? a->metric : "elapsed_per_user");
	o->threshold_pct = a->threshold;
	o->min_pairs = a->min_pairs;
	o->max_pairs = a->max_pairs;
	o->alpha = a->alpha;
	o->probe_alpha = a->probe_alpha;
	o->seed = a->common.has_seed ? a->common.seed : 137;
	o->all = a->all;
	if (o->seed > 99999999999999999ULL)
		usage_error("invalid value for --seed (at most 17 digits, as "
			    "latency-vm records it)");
}

static void start_new(struct bisect *b, struct bisect_run *run,
		      const struct args *a)
{
	b->revert = -1;
	if (run->git_tree) {
		b->o.git = true;
		git_series(b, run->git_tree, a->good, a->bad);
	} else {
		series_read(b, a->series);
		b->o.good = end_of(b, a->good, 0, "--good");
		b->o.bad = end_of(b, a->bad, b->n - 1, "--bad");
	}
	if (b->o.good >= b->o.bad)
		usage_error("the good end %s is not before the bad end %s",
			    b->k[b->o.good].label, b->k[b->o.bad].label);
	opts_of(&b->o, a);
	run->dir = xstrdup(a->results);
	run->dirfd = dir_open(run->dir, true);
	if (run->git_tree)
		git_worktree(run);
}

static double wall_now(const struct bisect_run *run)
{
	return run->wall_before_s + (double)(mono_ns() - run->start_ns) / 1e9;
}

/* Write the state and the log, say the new decisions; die on failure. */
static void save(struct bisect *b, struct bisect_run *run, bool stopped,
		 const struct run_info *ri, size_t *logged)
{
	size_t before = *logged == (size_t)-1 ? b->n_dec : *logged, i;
	int ret = state_write(b, run, stopped, wall_now(run), ri);

	if (ret < 0)
		die_err(EXIT_RUN_FAILED, -ret, "cannot write '%s/bisect.json'",
			run->dir);
	if (run->git_tree && git_state(b, run))
		warn("cannot write git's bisect state in '%s/worktree'",
		     run->dir);
	ret = report_log(b, run->dirfd, logged);
	if (ret < 0)
		die_err(EXIT_RUN_FAILED, -ret, "cannot write '%s/bisect.log'",
			run->dir);
	for (i = before; i < b->n_dec && !run->quiet; i++) {
		char *e = text_escape(b->dec[i].line);

		inform("%s", e);
		free(e);
	}
}

/* Boot and decide until the outcome or a stop; returns the exit status. */
static int bisect_run(struct bisect *b, struct bisect_run *run,
		      const struct run_info *ri)
{
	size_t logged = (size_t)-1;
	struct action next;
	char what[160];
	int stop = 0;

	for (;;) {
		decide(b, &next);
		save(b, run, false, ri, &logged);
		if ((!next.boot && !next.revert) || sig_stop)
			break;
		if (next.revert) {
			git_revert(b, run);
			continue;
		}
		const struct series *s = &b->series[next.series];

		snprintf(what, sizeof(what),
			 "boot %zu: %s, pair %u of %s against %s",
			 b->n_boots + 1,
			 b->k[next.arm == 'a' ? s->ref : s->k].label, next.pair,
			 b->k[s->k].label, b->k[s->ref].label);
		if (!run->quiet)
			report_progress(b, what, wall_now(run));
		stop = boot_make(b, run, next.series, next.pair, next.arm, ri);
		if (stop)
			break;
	}
	if (sig_stop && !stop)
		stop = sig_stop;
	if (stop)
		decide(b, &next);
	save(b, run, stop != 0, ri, &logged);
	/* Empty once every boot was brought in. */
	if (!stop && unlinkat(run->dirfd, "tmp", AT_REMOVEDIR) &&
	    errno != ENOENT)
		warn_errno("cannot remove '%s/tmp'", run->dir);
	(void)report_plot(b, run); /* warned of; the figures are written */
	(void)report_page(b, run); /* the same */
	if (report_summary(b, run, wall_now(run)) < 0)
		die_errno(EXIT_RUN_FAILED, "cannot write '%s/summary.txt'",
			  run->dir);
	if (stop < 0)
		return -stop;
	if (stop)
		return EXIT_SIGNAL(stop);
	if (b->outcome == OUT_NOT_REPRODUCED)
		return EXIT_NOT_REPRODUCED;
	if (b->outcome == OUT_CAUGHT)
		return EXIT_OK;
	if (b->outcome == OUT_FOUND && b->validation == VAL_VALIDATED &&
	    b->revert_state != VAL_NOT_VALIDATED)
		return EXIT_OK;
	return EXIT_NOT_VALIDATED;
}

int main(int argc, char **argv)
{
	struct bisect_run run;
	struct run_info ri;
	struct bisect b;
	struct args a;
	int ret;

	prog_init(argc, argv);
	memset(&run, 0, sizeof(run));
	memset(&b, 0, sizeof(b));
	parse_args(argc, argv, &a, &run);
	if (a.status) {
		bisect_run_release(&run);
		return report_status(a.status);
	}
	if (a.simulate) {
		opts_of(&b.o, &a);
		bisect_run_release(&run);
		return bisect_simulate(a.simulate, &b.o, &a.sim);
	}
	if (a.cont) {
		run.dir = xstrdup(a.cont);
		run.dirfd = dir_open(run.dir, false);
		state_check_mine(run.dirfd, run.dir);
		state_read(&b, &run, run.dir);
		boot_recover(&b, &run);
	} else {
		start_new(&b, &run, &a);
	}
	if ((ret = sig_stop_install()) < 0)
		die_err(EXIT_RUN_FAILED, -ret,
			"cannot install signal handlers");
	run_info_init(&ri, "latency-bisect", argc, argv);
	ri.format_version = BISECT_FORMAT_VERSION;
	run.start_ns = mono_ns();
	ret = bisect_run(&b, &run, &ri);
	bisect_release(&b);
	bisect_run_release(&run);
	return ret;
}
