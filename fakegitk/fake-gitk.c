// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fake-gitk: load a whole git history into memory the way gitk does, again
 * and again, and time it.  The memory-pressure workload of latency-tests:
 * on a small machine it pushes the system into swap, and its elapsed time,
 * its spread and its progress stalls show how well the kernel copes.  It
 * also makes the synthetic kernel-shaped repository it loads by default.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/progress.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"

#include "fakegitk/fake-gitk.h"

#define DEFAULT_ITERATIONS 3
#define MAX_ITERATIONS 100000
/*
 * A line every 2 ms: a load of 1 to 4 s prints 500 to 2000 lines, so p99,
 * max and stalls are resolved to well under 1% of a run (doc/design.md,
 * contract 1, asks for a few hundred).  Each costs a clock read per commit
 * (about 20 ns of about 8 us) and a write() per 2 ms.
 */
#define DEFAULT_INTERVAL_NS (2 * NSEC_PER_MSEC)
#define DEFAULT_COMMITS 180000

enum {
	OPT_HOLD = OPT_PROG_FIRST,
	OPT_REREAD,
	OPT_VERIFY,
	OPT_DUMP_MAP,
	OPT_CREATE,
	OPT_COMMITS,
	OPT_INTERVAL,
	OPT_LIST_REFS,
	OPT_SAMPLE_USER,
};

/* clang-format off */
static const struct option long_opts[] = {
	OPT_LONG_HELP, OPT_LONG_VERSION, OPT_LONG_QUIET,
	OPT_LONG_SEED, OPT_LONG_OUTPUT, OPT_LONG_FORMAT,
	{ "iterations",    required_argument, NULL, 'n' },
	{ "every",         required_argument, NULL, 'e' },
	{ "interval",      required_argument, NULL, OPT_INTERVAL },
	{ "hold",          required_argument, NULL, OPT_HOLD },
	{ "reread",        no_argument,       NULL, OPT_REREAD },
	{ "verify-hashes", no_argument,       NULL, OPT_VERIFY },
	{ "dump-map",      required_argument, NULL, OPT_DUMP_MAP },
	{ "create-repo",   required_argument, NULL, OPT_CREATE },
	{ "commits",       required_argument, NULL, OPT_COMMITS },
	{ "list-refs",     no_argument,       NULL, OPT_LIST_REFS },
	{ "sample-user",   required_argument, NULL, OPT_SAMPLE_USER },
	OPT_LONG_END,
};
/* clang-format on */
static const char short_opts[] =
	OPT_SHORT_HELP OPT_SHORT_QUIET OPT_SHORT_OUTPUT "n:e:";

static void usage(int status)
{
	if (status)
		usage_error(NULL);
	/* clang-format off */
	printf("Usage: %s [OPTION]... REPO [REVISION]...\n"
	       "  or:  %s --list-refs REPO\n"
	       "  or:  %s --create-repo=DIR [--commits=N] [--seed=N]\n",
	       progname(), progname(), progname());
	fputs("Load every commit of a git history into memory as gitk does (all refs and HEAD,\n"
	      "or the REVISIONs given: HEAD, A..B, ^A B, A...B), build the parent -> children\n"
	      "map, release everything and repeat; print progress lines and a summary.\n"
	      "\n"
	      "  -n, --iterations=N     load the history N times (default 3)\n"
	      "      --interval=TIME    a progress line whenever TIME has passed since the\n"
	      "                         previous one (default 2ms, 0: none)\n"
	      "  -e, --every=N          a progress line every N commits instead (0: none)\n"
	      "      --hold=WHAT        keep all of each raw commit, its headers, or none\n"
	      "                         (all|headers|none, default all)\n"
	      "      --reread           read the held data again after the map is built\n"
	      "      --verify-hashes    check each object's id as it is read (slower)\n"
	      "      --sample-user=TIME also count user CPU time by sampling user mode every\n"
	      "                         TIME of CPU time with a perf software clock (e.g. 1ms;\n"
	      "                         default 0: getrusage only)\n"
	      "      --dump-map=FILE    write the parent -> children map of the first load\n"
	      "      --list-refs        print '<id> <ref>' for HEAD and every ref, sorted, and exit\n"
	      "      --create-repo=DIR  create a synthetic kernel-shaped repository instead\n"
	      "                         (DIR must be absent or empty)\n"
	      "      --commits=N        its number of commits (default 180000)\n"
	      "      --seed=N           its seed (default 137)\n"
	      "      --format=FORMAT    summary as text (stderr) or json (stdout)\n"
	      "  -o, --output=FILE      write the summary to FILE instead\n"
	      "  -q, --quiet            no progress lines, no text summary\n"
	      "  -h, --help             show this help and exit\n"
	      "  -V, --version          show the version and exit\n"
	      "\n"
	      "Progress lines (stdout): '<monotonic s> fake-gitk iter=N phase=PHASE commits=N\n"
	      "bytes=N' (PHASE walk, exclude or reread), and at the end of each load\n"
	      "'iter=N commits=N edges=N bytes=N elapsed=S'.\n"
	      "Sizes are binary (64k = 65536 bytes); durations take ns, us, ms, s, m.\n"
	      "Exit status: 0 success, 1 failure, 2 usage error, 128+N stopped by signal N.\n",
	      stdout);
	/* clang-format on */
	exit(EXIT_OK);
}

static enum hold_mode parse_hold(const char *arg)
{
	/* In the order of enum hold_mode. */
	static const char *const names[] = { "all", "headers", "none", NULL };

	return (enum hold_mode)opt_choice("--hold", arg, names);
}

static void parse_args(struct fg_config *c, int argc, char **argv)
{
	int opt;

	opt_common_init(&c->common);
	c->iterations = DEFAULT_ITERATIONS;
	c->walk.interval_ns = DEFAULT_INTERVAL_NS;
	c->walk.hold = HOLD_ALL;
	c->gen.commits = DEFAULT_COMMITS;
	while ((opt = getopt_long(argc, argv, short_opts, long_opts, NULL)) !=
	       -1) {
		if (opt_common_handle(&c->common, opt, optarg, usage))
			continue;
		switch (opt) {
		case 'n':
			c->iterations = (unsigned)opt_u64(
				"--iterations", optarg, 1, MAX_ITERATIONS);
			break;
		/* The later of --every and --interval decides. */
		case 'e':
			c->walk.every =
				opt_u64("--every", optarg, 0, UINT32_MAX);
			c->walk.interval_ns = 0;
			c->by_commits = true;
			break;
		case OPT_INTERVAL:
			c->walk.interval_ns =
				opt_duration("--interval", optarg);
			c->walk.every = 0;
			c->by_commits = false;
			break;
		case OPT_LIST_REFS:
			c->list_refs = true;
			break;
		case OPT_HOLD:
			c->walk.hold = parse_hold(optarg);
			break;
		case OPT_SAMPLE_USER:
			c->sample_period_ns =
				opt_duration("--sample-user", optarg);
			if (c->sample_period_ns &&
			    (c->sample_period_ns < 10 * NSEC_PER_USEC ||
			     c->sample_period_ns > NSEC_PER_SEC))
				usage_error("--sample-user: '%s' is out of "
					    "range (10us..1s, or 0)",
					    optarg);
			break;
		case OPT_REREAD:
			c->walk.reread = true;
			break;
		case OPT_VERIFY:
			c->walk.verify_hashes = true;
			break;
		case OPT_DUMP_MAP:
			c->dump_map = optarg;
			break;
		case OPT_CREATE:
			c->gen.dir = optarg;
			break;
		case OPT_COMMITS:
			c->gen.commits =
				opt_u64("--commits", optarg, 1, UINT32_MAX / 4);
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	c->format = opt_format(c->common.format, FORMAT_TEXT, false);
	c->gen.seed = c->common.seed;
	c->gen.quiet = c->common.quiet;
	if (c->gen.dir) {
		if (optind < argc)
			usage_error("--create-repo takes no repository or "
				    "revision");
		if (c->list_refs)
			usage_error(
				"--create-repo and --list-refs exclude each "
				"other");
		return;
	}
	if (optind >= argc)
		usage_error("missing repository");
	if (c->list_refs && optind + 1 < argc)
		usage_error("--list-refs takes a repository, no revision");
	c->walk.repo_path = argv[optind];
	c->walk.revs = argv + optind + 1;
	c->walk.nrevs = argc - optind - 1;
}

static int create_repo(struct fg_config *c)
{
	uint64_t t0 = mono_ns();
	char hex[GIT_OID_HEXSZ + 1], dur[32];
	git_oid head;

	/* A stop removes the half-made repository before exiting. */
	if (sig_stop_install())
		die_errno(EXIT_RUN_FAILED, "cannot install signal handlers");
	if (genrepo_create(&c->gen, &head))
		return sig_stop ? EXIT_SIGNAL(sig_stop) : EXIT_RUN_FAILED;
	git_oid_tostr(hex, sizeof(hex), &head);
	printf("%s\n", hex);
	if (!c->common.quiet)
		inform("created '%s': %llu commits, seed %llu, HEAD %s in %s",
		       c->gen.dir, (unsigned long long)c->gen.commits,
		       (unsigned long long)c->gen.seed, hex,
		       fmt_duration(dur, mono_ns() - t0));
	return EXIT_OK;
}

static void end_line(struct fg_config *c, unsigned iter,
		     const struct walk_result *r)
{
	char el[32];
	int e;

	el[fmt_ns_fixed(el, r->elapsed_ns, 9)] = '\0';
	/* Stamped when the timed load ended, not after the release. */
	e = progress_emit(&c->progress, r->end_ns,
			  "iter=%u commits=%llu edges=%llu bytes=%llu "
			  "elapsed=%s%s",
			  iter, (unsigned long long)r->commits,
			  (unsigned long long)r->edges,
			  (unsigned long long)r->bytes_held, el,
			  r->interrupted ? " interrupted=1" : "");
	(void)e; /* stdout trouble shows up in close_stdout() */
}

/*
 * The files the run will write, created before any work so that a missing
 * directory is reported at once, not after minutes of loading.
 */
static void open_outputs(struct fg_config *c)
{
	int r;

	if (c->common.output) {
		r = atomic_open(&c->out, c->common.output);
		if (r)
			die_err(EXIT_RUN_FAILED, -r, "cannot create '%s'",
				c->common.output);
	}
	if (c->dump_map) {
		r = atomic_open(&c->map_out, c->dump_map);
		if (r) {
			atomic_abort(&c->out);
			die_err(EXIT_RUN_FAILED, -r, "cannot create '%s'",
				c->dump_map);
		}
	}
}

/*
 * --sample-user: start the sampler, or keep getrusage's split and say why
 * (in the summary; on stderr too unless quiet).
 */
static void start_sampler(struct fg_config *c)
{
	const char *why = NULL;
	int r;

	c->sampler.fd = -1;
	if (!c->sample_period_ns) {
		c->sample_why = xstrdup("off");
		return;
	}
	r = usersample_open(&c->sampler, c->sample_period_ns, &why);
	if (!r) {
		c->walk.sample = &c->sampler;
		return;
	}
	c->sample_why = xasprintf("%s: %s", why, strerror(-r));
	if (!c->common.quiet)
		warn("user CPU not sampled (%s): getrusage's split only",
		     c->sample_why);
}

/* One load, its end line, and the lines it printed; 0 or -1. */
static int one_load(struct fg_config *c, unsigned i, struct children_map *map)
{
	struct walk_result *r = &c->res[i];
	uint64_t lines0 = c->progress.lines;

	if (walk_history(&c->walk, i + 1, r, map))
		return -1;
	c->done = i + 1;
	end_line(c, i + 1, r);
	r->lines = c->progress.lines - lines0;
	return 0;
}

/* The load, repeated; returns the exit status. */
static int run_load(struct fg_config *c, int argc, char **argv)
{
	struct children_map map;
	unsigned i;
	int status = EXIT_OK;

	open_outputs(c);
	if (sig_stop_install())
		die_errno(EXIT_RUN_FAILED, "cannot install signal handlers");
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION,
			 (int)c->walk.verify_hashes);
	/* Each commit is read once: a cache would only hide memory. */
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
	progress_init(&c->progress, c->common.quiet ? -1 : STDOUT_FILENO,
		      "fake-gitk");
	c->walk.progress = &c->progress;
	run_info_init(&c->run, "fake-gitk", argc, argv);
	c->run.has_seed = c->common.has_seed;
	c->run.seed = c->common.seed;
	c->commit_graph = repo_has_commit_graph(c->walk.repo_path);
	start_sampler(c);
	c->res = calloc(c->iterations, sizeof(*c->res));
	if (!c->res)
		die(EXIT_RUN_FAILED, "out of memory");
	for (i = 0; i < c->iterations; i++) {
		bool dump = i == 0 && c->dump_map;

		if (one_load(c, i, dump ? &map : NULL)) {
			status = EXIT_RUN_FAILED;
			break;
		}
		if (c->res[i].interrupted) {
			status = EXIT_SIGNAL(sig_stop);
			break;
		}
		if (dump) {
			if (report_dump_map(&c->map_out, c->dump_map, &map))
				status = EXIT_RUN_FAILED;
			children_map_release(&map);
			if (status)
				break;
		}
	}
	/* After an error its one line says it all; a stop shows the rest. */
	if (status == EXIT_OK || status > EXIT_SIGNAL(0))
		if (report_summary(c, status != EXIT_OK))
			status = EXIT_RUN_FAILED;
	/* What was not committed (a failed or stopped run) goes away. */
	atomic_abort(&c->out);
	atomic_abort(&c->map_out);
	usersample_close(&c->sampler);
	free(c->sample_why);
	free(c->res);
	return status;
}

int main(int argc, char **argv)
{
	struct fg_config c;
	int status;

	prog_init(argc, argv);
	memset(&c, 0, sizeof(c));
	parse_args(&c, argc, argv);
	git_libgit2_init();
	if (c.gen.dir)
		status = create_repo(&c);
	else if (c.list_refs)
		status = list_refs(c.walk.repo_path);
	else
		status = run_load(&c, argc, argv);
	git_libgit2_shutdown();
	return status;
}
