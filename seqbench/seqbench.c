// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seqbench: a tiobench replacement with tiobench.pl's command line and
 * report, and correct numbers.  main() parses and checks every option before
 * any IO, runs each size/block/threads combination (worker.c), and prints
 * what was measured (report.c), also after an error or a stop signal.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "seqbench/seqbench.h"

#define MAX_LIST 64
#define MAX_SIZE (1ULL << 50) /* 1 PiB: anything larger is a typo */
#define MAX_BLOCK (1ULL << 30)

enum {
	OPT_TARGET = OPT_PROG_FIRST,
	OPT_IDENTIFIER,
	OPT_NOFRAG,
	OPT_DROP_CACHES,
	OPT_DIRECT,
	OPT_TIME,
	OPT_YES_DESTROY,
	OPT_FSYNC_READS,
	OPT_SYNC,
	OPT_STALL,
	OPT_PROGRESS,
	OPT_JSON,
	OPT_CSV,
	OPT_DUMP_OFFSETS,
	OPT_NULL_IO,
};

/* clang-format off */
static const char short_opts[] = "t:b:s:d:r:n:" OPT_SHORT_HELP OPT_SHORT_VERBOSE
	OPT_SHORT_QUIET OPT_SHORT_OUTPUT;
static const struct option long_opts[] = {
	{ "threads",      required_argument, NULL, 't' },
	{ "block",        required_argument, NULL, 'b' },
	{ "size",         required_argument, NULL, 's' },
	{ "dir",          required_argument, NULL, 'd' },
	{ "target",       required_argument, NULL, OPT_TARGET },
	{ "random",       required_argument, NULL, 'r' },
	{ "numruns",      required_argument, NULL, 'n' },
	{ "identifier",   required_argument, NULL, OPT_IDENTIFIER },
	{ "nofrag",       no_argument,       NULL, OPT_NOFRAG },
	{ "flushCaches",  no_argument,       NULL, OPT_DROP_CACHES },
	{ "drop-caches",  no_argument,       NULL, OPT_DROP_CACHES },
	{ "directio",     no_argument,       NULL, OPT_DIRECT },
	{ "direct",       no_argument,       NULL, OPT_DIRECT },
	{ "sync",         no_argument,       NULL, OPT_SYNC },
	{ "fsync-reads",  no_argument,       NULL, OPT_FSYNC_READS },
	{ "time",         required_argument, NULL, OPT_TIME },
	{ "yes-destroy",  required_argument, NULL, OPT_YES_DESTROY },
	{ "stall",        required_argument, NULL, OPT_STALL },
	{ "progress",     required_argument, NULL, OPT_PROGRESS },
	{ "json",         no_argument,       NULL, OPT_JSON },
	{ "csv",          no_argument,       NULL, OPT_CSV },
	{ "dump-offsets", required_argument, NULL, OPT_DUMP_OFFSETS },
	{ "null-io",      no_argument,       NULL, OPT_NULL_IO },
	OPT_LONG_DURATION,
	OPT_LONG_SEED,
	OPT_LONG_FORMAT,
	OPT_LONG_OUTPUT,
	OPT_LONG_VERBOSE,
	OPT_LONG_QUIET,
	OPT_LONG_HELP,
	OPT_LONG_VERSION,
	OPT_LONG_END,
};
/* clang-format on */

static void usage(int status)
{
	if (status)
		usage_error(NULL);
	printf("Usage: %s [OPTION]...\n", progname());
	fputs("\
Threaded sequential and random file IO benchmark with tiobench.pl's options\n\
and report: per size, block and thread count, sequential write, random\n\
write, sequential read and random read, one file per thread.\n\
Options marked + may be given several times.\n\
\n\
  -t, --threads=N        + threads (default 1, 2, 4, 8)\n\
  -b, --block=SIZE       + block size per op (default 4096)\n\
  -s, --size=SIZE        + total size over all threads; a bare number is MiB\n\
                           (default twice the RAM)\n\
  -d, --dir=DIR          + directory for the files; threads go round-robin\n\
      --target=PATH      + a directory, or a block device (destroys its data,\n\
                           needs --yes-destroy)\n\
      --yes-destroy=DEV  + allow writing to block device DEV\n\
  -r, --random=N           random ops in total over all threads (default 4000)\n\
  -n, --numruns=N          runs per combination, averaged (default 1)\n\
      --identifier=TEXT    first column of the report (default uname -r)\n\
      --nofrag             sequential write phase one thread at a time\n\
      --flushCaches, --drop-caches\n\
                           drop the page cache between phases (needs root)\n\
      --directio, --direct use O_DIRECT\n\
      --sync               open files for writing with O_SYNC\n\
      --fsync-reads        fsync after reading too (as tiobench 0.4 did)\n\
      --time=DURATION      run each phase for DURATION instead of an amount\n\
      --duration=DURATION  the same as --time\n\
      --seed=N             seed of the random offsets (default 137)\n\
      --stall=DURATION     ops slower than this count as stalls (default 1s)\n\
      --progress=SIZE      a progress line every SIZE per thread (bare: MiB),\n\
                           for latency-output --by thread\n\
      --format=FORMAT      tiobench (default), tiobench-0.3, terse, json, csv\n\
      --json, --csv        the same as --format=json or --format=csv\n\
  -o, --output=FILE        write the report to FILE (replaced atomically)\n\
      --dump-offsets=FILE  write every random offset to FILE (for tests)\n\
      --null-io            do everything but the IO (measures the overhead)\n\
  -v, --verbose            say what is being run on stderr\n\
  -q, --quiet              no progress indicator on a terminal\n\
  -h, --help               show this help and exit\n\
  -V, --version            show the version and exit\n\
\n\
Sizes take binary suffixes (64k = 65536 bytes, 4G); MB means MiB, as in\n\
tiobench.  Durations: 250ms, 10s, 2m.  Rates are MiB/s, latencies ms.\n\
Exit status: 0 success, 1 run failed, 2 usage error, 3 unsupported here,\n\
128+N stopped by signal N.\n",
	      stdout);
	exit(EXIT_OK);
}

struct cli {
	struct sb_opts o;
	struct opt_common c;
	const char *destroy[MAX_LIST];
	size_t n_destroy;
	const char *format;
};

static void push_u64(uint64_t **v, size_t *n, uint64_t x, const char *what)
{
	if (*n >= MAX_LIST)
		usage_error("too many %s values (at most %d)", what, MAX_LIST);
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = x;
}

static void push_target(struct sb_opts *o, const char *t)
{
	if (o->n_targets >= MAX_LIST)
		usage_error("too many targets (at most %d)", MAX_LIST);
	o->targets = xreallocarray(o->targets, o->n_targets + 1,
				   sizeof(*o->targets));
	o->targets[o->n_targets++] = t;
}

static enum sb_format parse_format(const char *s)
{
	static const char *const names[] = {
		"tiobench", "tiobench-0.3", "terse",	    "json",
		"csv",	    "text",	    "tiobench-0.4", NULL,
	};
	static const enum sb_format f[] = {
		SB_FMT_TIOBENCH, SB_FMT_TIOBENCH03, SB_FMT_TERSE,
		SB_FMT_JSON,	 SB_FMT_CSV,	    SB_FMT_TIOBENCH,
		SB_FMT_TIOBENCH,
	};

	return f[opt_choice("--format", s, names)];
}

static void parse_one(struct cli *cl, int c, const char *arg)
{
	struct sb_opts *o = &cl->o;
	uint64_t v;

	switch (c) {
	case 't':
		push_u64(&o->threads, &o->n_threads,
			 opt_u64("--threads", arg, 1, 4096), "--threads");
		break;
	case 'b':
		v = opt_size("--block", arg, 1);
		if (!v || v > MAX_BLOCK)
			usage_error(
				"--block must be from 1 byte to 1G, not '%s'",
				arg);
		push_u64(&o->blocks, &o->n_blocks, v, "--block");
		break;
	case 's':
		v = opt_size("--size", arg, 1048576);
		if (!v || v > MAX_SIZE)
			usage_error(
				"--size must be from 1 byte to 1P, not '%s'",
				arg);
		push_u64(&o->sizes, &o->n_sizes, v, "--size");
		break;
	case 'd':
	case OPT_TARGET:
		push_target(o, arg);
		break;
	case 'r':
		o->random_ops = opt_u64("--random", arg, 1, 1ULL << 40);
		break;
	case 'n':
		o->numruns = opt_u64("--numruns", arg, 1, 10000);
		break;
	case OPT_IDENTIFIER:
		o->identifier = arg;
		break;
	case OPT_NOFRAG:
		o->nofrag = true;
		break;
	case OPT_DROP_CACHES:
		o->drop_caches = true;
		break;
	case OPT_DIRECT:
		o->direct = true;
		break;
	case OPT_SYNC:
		o->osync = true;
		break;
	case OPT_FSYNC_READS:
		o->fsync_reads = true;
		break;
	case OPT_TIME:
		opt_common_handle(&cl->c, OPT_DURATION, arg, usage);
		break;
	case OPT_YES_DESTROY:
		if (cl->n_destroy >= MAX_LIST)
			usage_error("too many --yes-destroy values");
		cl->destroy[cl->n_destroy++] = arg;
		break;
	case OPT_STALL:
		o->stall_ns = opt_duration("--stall", arg);
		if (!o->stall_ns)
			usage_error("--stall must be greater than zero");
		break;
	case OPT_PROGRESS:
		o->progress_bytes = opt_size("--progress", arg, 1048576);
		if (!o->progress_bytes)
			usage_error("--progress must be greater than zero");
		break;
	case OPT_JSON:
		cl->format = "json";
		break;
	case OPT_CSV:
		cl->format = "csv";
		break;
	case OPT_DUMP_OFFSETS:
		o->dump_offsets = arg;
		break;
	case OPT_NULL_IO:
		o->null_io = true;
		break;
	default:
		if (!opt_common_handle(&cl->c, c, arg, usage))
			usage_error(NULL);
		if (c == OPT_FORMAT)
			cl->format = arg;
	}
}

/* MemTotal in bytes, or 256 MiB when unknown (tiobench.pl's fallback). */
static uint64_t mem_total(void)
{
	unsigned long long kib = 0;
	char line[256];
	FILE *f = fopen("/proc/meminfo", "r");

	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemTotal: %llu kB", &kib) == 1)
				break;
		fclose(f);
	}
	return kib ? kib * 1024 : 256ULL << 20;
}

static void set_defaults(struct sb_opts *o)
{
	static const uint64_t thr[] = { 1, 2, 4, 8 };
	size_t i;

	if (!o->n_threads)
		for (i = 0; i < 4; i++)
			push_u64(&o->threads, &o->n_threads, thr[i], "");
	if (!o->n_blocks)
		push_u64(&o->blocks, &o->n_blocks, 4096, "");
	if (!o->n_sizes) {
		/* tiobench 0.4: twice the RAM, in whole MiB. */
		push_u64(&o->sizes, &o->n_sizes,
			 (2 * mem_total()) & ~((1ULL << 20) - 1), "");
		o->size_defaulted = true;
	}
	if (!o->n_targets)
		push_target(o, ".");
}

/* Block sizes against file sizes, O_DIRECT alignment. */
static void check_geometry(const struct sb_opts *o)
{
	size_t s, b, t;

	for (b = 0; b < o->n_blocks; b++) {
		char bs[24];

		format_size(bs, o->blocks[b]);
		if (o->direct && o->blocks[b] % 512)
			usage_error("--direct needs a block size that is a "
				    "multiple of 512, not %s",
				    bs);
		for (s = 0; s < o->n_sizes; s++)
			for (t = 0; t < o->n_threads; t++) {
				uint64_t per = o->sizes[s] / o->threads[t];
				char ss[24];

				if (per >= o->blocks[b])
					continue;
				usage_error("block %s is larger than the file "
					    "of each thread (size %s over %llu "
					    "threads)",
					    bs, format_size(ss, o->sizes[s]),
					    (unsigned long long)o->threads[t]);
			}
	}
}

static bool same_device(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && S_ISBLK(sa.st_mode) &&
	       S_ISBLK(sb.st_mode) && sa.st_rdev == sb.st_rdev;
}

/* Is block device DEV the first field of a line of FILE (mounts, swaps)? */
static bool listed_in(const char *file, dev_t dev)
{
	char line[4096], path[4096];
	bool found = false;
	FILE *f = fopen(file, "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		struct stat st;

		if (sscanf(line, "%4095s", path) == 1 && !stat(path, &st) &&
		    S_ISBLK(st.st_mode) && st.st_rdev == dev)
			found = true;
	}
	fclose(f);
	return found;
}

/*
 * A block device target: named again in --yes-destroy, not mounted, not
 * swap, not held by anyone (O_EXCL), and big enough.  The exclusive
 * descriptor stays open for the run so nobody mounts it meanwhile.
 */
static void check_device(const struct cli *cl, const char *dev, uint64_t need)
{
	struct stat st;
	uint64_t bytes = 0;
	size_t i;
	int fd;

	for (i = 0; i < cl->n_destroy; i++)
		if (same_device(dev, cl->destroy[i]))
			break;
	if (i == cl->n_destroy)
		usage_error("'%s' is a block device: writing to it destroys "
			    "its data; name it again with --yes-destroy=%s",
			    dev, dev);
	if (stat(dev, &st))
		die_errno(EXIT_RUN_FAILED, "cannot use '%s'", dev);
	if (listed_in("/proc/mounts", st.st_rdev))
		die(EXIT_RUN_FAILED, "refusing to write to '%s': it is mounted",
		    dev);
	if (listed_in("/proc/swaps", st.st_rdev))
		die(EXIT_RUN_FAILED,
		    "refusing to write to '%s': it is used as swap", dev);
	fd = open(dev, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY)
		die(EXIT_RUN_FAILED, "refusing to write to '%s': it is in use",
		    dev);
	if (fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot open '%s'", dev);
	if (ioctl(fd, BLKGETSIZE64, &bytes))
		die_errno(EXIT_RUN_FAILED, "cannot get the size of '%s'", dev);
	if (bytes < need)
		die(EXIT_RUN_FAILED,
		    "'%s' holds %llu bytes; this run needs %llu", dev,
		    (unsigned long long)bytes, (unsigned long long)need);
	/* Kept open on purpose until exit (see above). */
}

/* The largest area any combination needs on one device. */
static uint64_t device_need(const struct sb_opts *o)
{
	uint64_t need = 0;
	size_t s, t;

	for (s = 0; s < o->n_sizes; s++)
		for (t = 0; t < o->n_threads; t++) {
			uint64_t per = o->sizes[s] / o->threads[t];
			uint64_t n = (o->threads[t] + o->n_targets - 1) /
				     o->n_targets;

			if (per * n > need)
				need = per * n;
		}
	return need;
}

/*
 * The descriptor the files of directory target DIR are made in: the
 * directory itself, not a link to one (a link in a shared place may be
 * changed under us), so that every file is created relative to it.
 */
static int open_target_dir(const char *dir)
{
	struct stat st;
	int fd;

	if (!lstat(dir, &st) && S_ISLNK(st.st_mode))
		die(EXIT_RUN_FAILED,
		    "cannot use '%s': a symbolic link (name the directory "
		    "it points to)",
		    dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot use '%s'", dir);
	return fd;
}

static void check_targets(struct cli *cl)
{
	struct sb_opts *o = &cl->o;
	size_t i, n_dev = 0;

	o->target_fds = xcalloc(o->n_targets, sizeof(*o->target_fds));
	for (i = 0; i < o->n_targets; i++) {
		struct stat st;
		struct statvfs vfs;

		o->target_fds[i] = -1;
		if (stat(o->targets[i], &st))
			die_errno(EXIT_RUN_FAILED, "cannot use '%s'",
				  o->targets[i]);
		if (S_ISBLK(st.st_mode)) {
			n_dev++;
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			die(EXIT_RUN_FAILED,
			    "cannot use '%s': neither a directory nor a block "
			    "device",
			    o->targets[i]);
		if (!statvfs(o->targets[i], &vfs) && (vfs.f_flag & ST_RDONLY))
			die(EXIT_RUN_FAILED,
			    "cannot write in '%s': Read-only file system",
			    o->targets[i]);
		if (access(o->targets[i], W_OK | X_OK))
			die_errno(EXIT_RUN_FAILED, "cannot write in '%s'",
				  o->targets[i]);
		o->target_fds[i] = open_target_dir(o->targets[i]);
	}
	if (n_dev && n_dev != o->n_targets)
		usage_error("targets must be all directories or all block "
			    "devices");
	o->raw = n_dev > 0;
	if (!o->raw && cl->n_destroy)
		usage_error("--yes-destroy given but no target is a block "
			    "device");
	for (i = 0; o->raw && i < o->n_targets; i++)
		check_device(cl, o->targets[i], device_need(o));
}

static void check_drop_caches(const struct sb_opts *o)
{
	int fd;

	if (!o->drop_caches)
		return;
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die_errno(EXIT_UNSUPPORTED,
			  "--drop-caches needs root: cannot open "
			  "'/proc/sys/vm/drop_caches'");
	close(fd);
}

static void parse_args(struct cli *cl, int argc, char **argv)
{
	struct sb_opts *o = &cl->o;
	int c;

	memset(cl, 0, sizeof(*cl));
	opt_common_init(&cl->c);
	o->random_ops = 4000;
	o->numruns = 1;
	o->stall_ns = NSEC_PER_SEC;
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1)
		parse_one(cl, c, optarg);
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	o->format = cl->format ? parse_format(cl->format) : SB_FMT_TIOBENCH;
	o->seed = cl->c.seed;
	o->time_ns = cl->c.duration_ns;
	if (o->nofrag && o->time_ns)
		usage_error("--nofrag and --time cannot be combined");
	set_defaults(o);
	check_geometry(o);
	check_targets(cl);
	check_drop_caches(o);
	o->tty_progress = !cl->c.quiet && isatty(STDERR_FILENO);
	o->verbose = cl->c.verbose;
}

/* Notes the report carries about what it measured. */
static size_t make_notes(const struct sb_opts *o, const struct sb_result *res,
			 size_t n, char **notes)
{
	size_t k = 0, i, short_phases = 0;
	uint64_t ram = mem_total(), max_size = 0;
	int ph;

	if (o->size_defaulted)
		notes[k++] = xasprintf("no --size given: using twice the RAM, "
				       "%llu MiB, as tiobench 0.4 did",
				       (unsigned long long)(o->sizes[0] >> 20));
	for (i = 0; i < o->n_sizes; i++)
		if (o->sizes[i] > max_size)
			max_size = o->sizes[i];
	if (!o->raw && !o->direct && !o->drop_caches && max_size < ram) {
		char sz[24];

		notes[k++] = xasprintf(
			"the files (%s in all at most) are smaller than the "
			"RAM (%llu MiB): reads may come from the page cache",
			format_size(sz, max_size),
			(unsigned long long)(ram >> 20));
	}
	for (i = 0; i < n; i++)
		for (ph = 0; ph < SB_PHASES; ph++)
			if (res[i].phase[ph].ran &&
			    res[i].phase[ph].wall_ns < NSEC_PER_SEC)
				short_phases++;
	if (short_phases)
		notes[k++] = xasprintf("%zu phase(s) lasted less than a "
				       "second: their rates are not stable",
				       short_phases);
	if (o->null_io)
		notes[k++] = xstrdup("--null-io: no IO was done; the "
				     "latencies are seqbench's own overhead");
	return k;
}

static char *error_text(const struct sb_error *e)
{
	if (e->thread >= 0)
		return xasprintf("thread %d: %s failed: %s", e->thread, e->msg,
				 strerror(e->err));
	return xasprintf("%s: %s", e->msg, strerror(e->err));
}

/* Run every combination in tiobench.pl's order; returns how many ran. */
static size_t run_all(struct sb_run_state *st, struct sb_result *res)
{
	const struct sb_opts *o = st->o;
	size_t s, b, t, n = 0;
	uint64_t run;

	for (s = 0; s < o->n_sizes; s++)
		for (b = 0; b < o->n_blocks; b++)
			for (t = 0; t < o->n_threads; t++)
				for (run = 1; run <= o->numruns; run++) {
					struct sb_result *x = &res[n++];
					uint64_t thr = o->threads[t];

					x->size = o->sizes[s];
					x->block = o->blocks[b];
					x->threads = thr;
					x->run = run;
					x->file_bytes = o->sizes[s] / thr /
							x->block * x->block;
					x->rand_ops = o->random_ops / thr;
					if (!x->rand_ops)
						x->rand_ops = 1;
					if (o->verbose)
						fprintf(stderr,
							"%s: size %llu, block "
							"%llu, threads %llu, "
							"run %llu\n",
							progname(),
							(unsigned long long)
								x->size,
							(unsigned long long)
								x->block,
							(unsigned long long)thr,
							(unsigned long long)
								run);
					if (sb_run(st, x))
						return n;
				}
	return n;
}

static int write_report(const struct cli *cl, struct sb_report *rep)
{
	const char *path = cl->c.output ? cl->c.output : "-";
	struct atomic_file af;
	struct stat st;
	int e;

	/* A device or pipe (/dev/stdout, a fifo) is written, not replaced. */
	if (strcmp(path, "-") && !stat(path, &st) && !S_ISREG(st.st_mode)) {
		FILE *f = fopen(path, "w");

		if (!f)
			die_errno(EXIT_RUN_FAILED, "cannot open '%s'", path);
		e = sb_report_write(f, rep);
		if (fclose(f) && !e)
			e = -errno;
		return e;
	}
	e = atomic_open(&af, path);
	if (e)
		die_err(EXIT_RUN_FAILED, -e, "cannot create '%s'", path);
	e = sb_report_write(af.f, rep);
	if (e) {
		atomic_abort(&af);
		return e;
	}
	return atomic_commit(&af);
}

/* The file-name generator, from the kernel's random pool. */
static void seed_names(struct rand *r)
{
	uint64_t seed;
	ssize_t n;

	do
		n = getrandom(&seed, sizeof(seed), 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(seed))
		die_errno(EXIT_RUN_FAILED,
			  "cannot get random bytes for the file names");
	rand_seed(r, seed);
}

/* The target directories stay open for the whole run (check_targets). */
static void close_targets(const struct sb_opts *o)
{
	size_t i;

	for (i = 0; i < o->n_targets; i++)
		if (o->target_fds[i] >= 0)
			(void)close(o->target_fds[i]); /* read-only */
	free(o->target_fds);
}

int main(int argc, char **argv)
{
	struct cli cl;
	struct sb_run_state st;
	struct sb_report rep;
	struct run_info ri;
	struct sb_result *res;
	char *notes[8], *err_msg = NULL;
	size_t n_total, n_done, n_notes, i;
	int e, status = EXIT_OK;

	prog_init(argc, argv);
	parse_args(&cl, argc, argv);
	if (sig_stop_install())
		die_errno(EXIT_RUN_FAILED, "cannot install signal handlers");
	run_info_init(&ri, "seqbench", argc, argv);
	ri.has_seed = true;
	ri.seed = cl.o.seed;
	setvbuf(stdout, NULL, _IOLBF, 0);

	memset(&st, 0, sizeof(st));
	st.o = &cl.o;
	st.error.thread = -1;
	seed_names(&st.names);
	if (cl.o.dump_offsets && !(st.dump = fopen(cl.o.dump_offsets, "w")))
		die_errno(EXIT_RUN_FAILED, "cannot create '%s'",
			  cl.o.dump_offsets);
	n_total = cl.o.n_sizes * cl.o.n_blocks * cl.o.n_threads * cl.o.numruns;
	res = xcalloc(n_total, sizeof(*res));
	n_done = run_all(&st, res);
	ri.end_real_ns = real_ns();
	if (st.dump && fclose(st.dump))
		die_errno(EXIT_RUN_FAILED, "cannot write '%s'",
			  cl.o.dump_offsets);

	if (st.error.err) {
		err_msg = error_text(&st.error);
		fprintf(stderr, "%s: %s\n", progname(), err_msg);
		status = EXIT_RUN_FAILED;
	}
	if (st.interrupted)
		status = EXIT_SIGNAL(st.signo);
	n_notes = make_notes(&cl.o, res, n_done, notes);
	memset(&rep, 0, sizeof(rep));
	rep.o = &cl.o;
	rep.ri = &ri;
	rep.res = res;
	rep.n_res = n_done;
	rep.interrupted = st.interrupted;
	rep.incomplete = st.interrupted || st.error.err;
	rep.error = err_msg;
	rep.notes = (const char **)notes;
	rep.n_notes = n_notes;
	e = write_report(&cl, &rep);
	if (e)
		die_err(EXIT_RUN_FAILED, -e, "cannot write the report");

	for (i = 0; i < n_done; i++) {
		int ph;

		for (ph = 0; ph < SB_PHASES; ph++)
			free(res[i].phase[ph].hist);
	}
	for (i = 0; i < n_notes; i++)
		free(notes[i]);
	free(res);
	free(err_msg);
	free(cl.o.threads);
	free(cl.o.blocks);
	free(cl.o.sizes);
	close_targets(&cl.o);
	free(cl.o.targets);
	return status;
}
