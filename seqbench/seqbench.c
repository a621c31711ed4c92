// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seqbench: a tiobench replacement with tiobench.pl's command line and
 * report, and correct numbers.  main() parses and checks every option before
 * any IO (the targets in device.c), then runs the benchmark (run.c).
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "seqbench/seqbench.h"

#define MAX_LIST SB_MAX_LIST
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
	OPT_JSON_OUTPUT,
	OPT_DUMP_OFFSETS,
	OPT_NULL_IO,
	OPT_READ_ONLY,
	OPT_NO_DROP_CACHES,
	OPT_PREPARE,
	OPT_MAKE_TREE,
	OPT_READAHEAD,
	OPT_RESTORE,
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
	{ "json-output",  required_argument, NULL, OPT_JSON_OUTPUT },
	{ "dump-offsets", required_argument, NULL, OPT_DUMP_OFFSETS },
	{ "null-io",      no_argument,       NULL, OPT_NULL_IO },
	{ "read-only",    no_argument,       NULL, OPT_READ_ONLY },
	{ "no-drop-caches", no_argument,     NULL, OPT_NO_DROP_CACHES },
	{ "prepare",      no_argument,       NULL, OPT_PREPARE },
	{ "make-tree",    required_argument, NULL, OPT_MAKE_TREE },
	{ "readahead",    required_argument, NULL, OPT_READAHEAD },
	{ "restore",      no_argument,       NULL, OPT_RESTORE },
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
	/* clang-format off */
	fputs("Threaded sequential and random file IO benchmark with tiobench.pl's options\n"
	      "and report: per size, block and thread count, sequential write, random\n"
	      "write, sequential read and random read, one file per thread.\n"
	      "Options marked + may be given several times.\n"
	      "\n"
	      "  -t, --threads=N        + threads (default 1, 2, 4, 8)\n"
	      "  -b, --block=SIZE       + block size per op (default 4096)\n"
	      "  -s, --size=SIZE        + total size over all threads; a bare number is MiB\n"
	      "                           (default twice the RAM)\n"
	      "  -d, --dir=DIR          + directory for the files; threads go round-robin\n"
	      "      --target=PATH      + a directory, or a block device (destroys its data,\n"
	      "                           needs --yes-destroy)\n"
	      "      --yes-destroy=DEV  + allow writing to block device DEV\n"
	      "  -r, --random=N           random ops in total over all threads (default 4000)\n"
	      "  -n, --numruns=N          runs per combination, averaged (default 1)\n"
	      "      --identifier=TEXT    first column of the report (default uname -r)\n"
	      "      --nofrag             sequential write phase one thread at a time\n"
	      "      --flushCaches, --drop-caches\n"
	      "                           drop the page cache between phases (needs root)\n"
	      "      --directio, --direct use O_DIRECT\n"
	      "      --sync               open files for writing with O_SYNC\n"
	      "      --fsync-reads        fsync after reading too (as tiobench 0.4 did)\n"
	      "      --time=DURATION      run each phase for DURATION instead of an amount\n"
	      "      --duration=DURATION  the same as --time\n"
	      "      --seed=N             seed of the random offsets (default 137)\n"
	      "      --stall=DURATION     ops slower than this count as stalls (default 1s)\n"
	      "      --progress=SIZE      a progress line every SIZE per thread (bare: MiB),\n"
	      "                           for latency-output --by thread\n"
	      "      --format=FORMAT      tiobench (default), tiobench-0.3, terse, json, csv\n"
	      "      --json, --csv        the same as --format=json or --format=csv\n"
	      "  -o, --output=FILE        write the report to FILE (replaced atomically)\n"
	      "      --json-output=FILE   also write the report as JSON to FILE (replaced\n"
	      "                           atomically), whatever --format\n"
	      "      --dump-offsets=FILE  write every random offset (a tree: every file, as\n"
	      "                           read) to FILE (for tests)\n"
	      "      --null-io            do everything but the IO (measures the overhead)\n"
	      "  -v, --verbose            say what is being run on stderr\n"
	      "  -q, --quiet              no progress indicator on a terminal\n"
	      "  -h, --help               show this help and exit\n"
	      "  -V, --version            show the version and exit\n"
	      "\n"
	      "Cold reads of existing data (nothing is written):\n"
	      "      --read-only          read the -d target as it is: a file or an unmounted\n"
	      "                           block device from its start, as dd does (-b default\n"
	      "                           1M, -s: at most SIZE), or a directory tree as tar\n"
	      "                           reads it, file by file (-b default 10240)\n"
	      "      --no-drop-caches     keep the page cache (else dropped before each run,\n"
	      "                           which needs root)\n"
	      "      --readahead=SIZE   + set the readahead of the device under the target\n"
	      "                           (bare: KiB) for a row of runs, restored afterwards\n"
	      "      --prepare            write the -d FILE of -s SIZE as dd does, then exit\n"
	      "      --make-tree=N:SIZE   write N files of SIZE (bare: MiB) under -d DIR, then\n"
	      "                           exit\n"
	      "      --restore            put back the readahead a killed run changed\n"
	      "\n"
	      "Sizes take binary suffixes (64k = 65536 bytes, 4G); MB means MiB, as in\n"
	      "tiobench.  Durations: 250ms, 10s, 2m.  Rates are MiB/s, latencies ms.\n"
	      "Exit status: 0 success, 1 run failed, 2 usage error, 3 unsupported here,\n"
	      "128+N stopped by signal N.\n",
	      stdout);
	/* clang-format on */
	exit(EXIT_OK);
}

/* What parse_one() collects on the way to struct sb_opts. */
struct cli {
	struct sb_opts *o;
	struct opt_common c;
	const char *format;
	const char *mode_opt;  /* the option that chose o->mode */
	const char *bench_opt; /* an option only the benchmark takes */
	bool no_drop_caches;
};

/* --read-only, --prepare, --make-tree and --restore exclude each other. */
static void set_mode(struct cli *cl, enum sb_mode m, const char *opt)
{
	if (cl->mode_opt && strcmp(cl->mode_opt, opt))
		usage_error("%s and %s cannot be combined", cl->mode_opt, opt);
	cl->o->mode = m;
	cl->mode_opt = opt;
}

/* N:SIZE of --make-tree. */
static void parse_make_tree(struct sb_opts *o, const char *arg)
{
	char *n = xstrdup(arg), *size = strchr(n, ':');

	if (!size)
		usage_error("--make-tree takes N:SIZE (500:4M), not '%s'", arg);
	*size++ = '\0';
	o->tree_files = opt_u64("--make-tree", n, 0, 10000000);
	o->tree_file_bytes = opt_size("--make-tree", size, 1048576);
	if (o->tree_file_bytes > MAX_SIZE)
		usage_error("--make-tree: files of '%s' are too large", size);
	free(n);
}

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
	struct sb_opts *o = cl->o;
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
		cl->bench_opt = "--random";
		break;
	case 'n':
		o->numruns = opt_u64("--numruns", arg, 1, 10000);
		break;
	case OPT_IDENTIFIER:
		o->identifier = arg;
		break;
	case OPT_NOFRAG:
		o->nofrag = true;
		cl->bench_opt = "--nofrag";
		break;
	case OPT_DROP_CACHES:
		o->drop_caches = true;
		cl->bench_opt = "--drop-caches";
		break;
	case OPT_DIRECT:
		o->direct = true;
		break;
	case OPT_SYNC:
		o->osync = true;
		cl->bench_opt = "--sync";
		break;
	case OPT_FSYNC_READS:
		o->fsync_reads = true;
		cl->bench_opt = "--fsync-reads";
		break;
	case OPT_TIME:
		opt_common_handle(&cl->c, OPT_DURATION, arg, usage);
		break;
	case OPT_YES_DESTROY:
		cl->bench_opt = "--yes-destroy";
		if (o->n_destroy >= MAX_LIST)
			usage_error("too many --yes-destroy values");
		o->destroy[o->n_destroy++] = arg;
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
	case OPT_JSON_OUTPUT:
		if (!*arg)
			usage_error("--json-output needs a file name");
		o->json_output = arg;
		break;
	case OPT_DUMP_OFFSETS:
		o->dump_offsets = arg;
		break;
	case OPT_NULL_IO:
		o->null_io = true;
		cl->bench_opt = "--null-io";
		break;
	case OPT_READ_ONLY:
		set_mode(cl, SB_MODE_READ_ONLY, "--read-only");
		break;
	case OPT_NO_DROP_CACHES:
		cl->no_drop_caches = true;
		break;
	case OPT_PREPARE:
		set_mode(cl, SB_MODE_PREPARE, "--prepare");
		break;
	case OPT_MAKE_TREE:
		set_mode(cl, SB_MODE_MAKE_TREE, "--make-tree");
		parse_make_tree(o, arg);
		break;
	case OPT_READAHEAD:
		v = opt_size("--readahead", arg, 1024);
		if (v % 4096 || v > (1ULL << 40))
			usage_error(
				"--readahead must be a multiple of 4k up to "
				"1T, not '%s'",
				arg);
		push_u64(&o->readaheads, &o->n_readaheads, v / 1024,
			 "--readahead");
		break;
	case OPT_RESTORE:
		set_mode(cl, SB_MODE_RESTORE, "--restore");
		break;
	default:
		if (!opt_common_handle(&cl->c, c, arg, usage))
			usage_error(NULL);
		if (c == OPT_FORMAT)
			cl->format = arg;
	}
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
			 (2 * sb_mem_total()) & ~((1ULL << 20) - 1), "");
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

static void check_drop_caches(const struct sb_opts *o, const char *why)
{
	int fd;

	if (!o->drop_caches)
		return;
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die_errno(EXIT_UNSUPPORTED,
			  "%s: cannot open '/proc/sys/vm/drop_caches'", why);
	close(fd);
}

/* The devices whose readahead a read-only run records (and sets). */
static void check_readahead(struct sb_opts *o)
{
	struct sb_ra *ra = xcalloc(1, sizeof(*ra));
	int r = sb_ra_resolve(sb_sys_root(), o->ro_dev, ra);
	struct sb_error e;
	size_t i;

	if (r) {
		free(ra);
		if (o->n_readaheads && r == -ENODEV)
			die(EXIT_UNSUPPORTED,
			    "cannot set the readahead of '%s': no block device "
			    "under it",
			    o->targets[0]);
		if (o->n_readaheads)
			die_err(EXIT_UNSUPPORTED, -r,
				"cannot find the readahead of '%s' in '%s'",
				o->targets[0], sb_sys_root());
		return;
	}
	for (i = 0; o->n_readaheads && i < ra->n; i++)
		if (access(ra->dev[i].knob, W_OK))
			die_errno(EXIT_UNSUPPORTED,
				  "--readahead needs root: cannot write '%s'",
				  ra->dev[i].knob);
	o->ra = ra;
	/* Recorded before any IO, so that a busy record stops us here. */
	memset(&e, 0, sizeof(e));
	r = o->n_readaheads ? sb_ra_record(ra, &e) : 0;
	if (r)
		die(r == EXIT_UNSUPPORTED ? EXIT_UNSUPPORTED : EXIT_RUN_FAILED,
		    "%s", e.msg);
}

/* The one target of --read-only, --prepare or --make-tree. */
static const char *one_target(const struct cli *cl)
{
	if (cl->o->n_targets != 1)
		usage_error("%s takes one target (-d PATH)", cl->mode_opt);
	if (cl->bench_opt)
		usage_error("%s cannot be combined with %s", cl->bench_opt,
			    cl->mode_opt);
	if (cl->o->time_ns)
		usage_error("--time cannot be combined with %s", cl->mode_opt);
	return cl->o->targets[0];
}

static void check_read_only(struct cli *cl)
{
	struct sb_opts *o = cl->o;
	const char *t = one_target(cl);
	struct stat st;
	int status;

	if (o->n_threads > 1 || (o->n_threads && o->threads[0] != 1))
		usage_error("--read-only reads with one thread");
	if (o->n_sizes > 1)
		usage_error("--read-only takes one --size at most");
	if (stat(t, &st))
		die_errno(EXIT_RUN_FAILED, "cannot read '%s'", t);
	o->ro_phase = S_ISDIR(st.st_mode) ? SB_TREE_READ : SB_COLD_READ;
	o->ro_dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	if (S_ISDIR(st.st_mode) && o->n_sizes)
		usage_error("--size cannot cut the read of a directory");
	if (S_ISDIR(st.st_mode) && o->direct)
		usage_error("--direct reads a file or a device, not a tree");
	if (S_ISBLK(st.st_mode)) {
		o->ro_device = true;
		status = sb_check_read_device(t, st.st_rdev);
		if (status)
			exit(status);
	} else if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		die(EXIT_RUN_FAILED,
		    "cannot read '%s': neither a file, a block device nor a "
		    "directory",
		    t);
	}
	o->ro_limit = o->n_sizes ? o->sizes[0] : 0;
	if (!o->n_threads)
		push_u64(&o->threads, &o->n_threads, 1, "");
	/* dd's 1M of the 2009 read, tar's 10240-byte records. */
	if (!o->n_blocks)
		push_u64(&o->blocks, &o->n_blocks,
			 o->ro_phase == SB_TREE_READ ? 10240 : 1048576, "");
	for (size_t b = 0; o->direct && b < o->n_blocks; b++)
		if (o->blocks[b] % 512 || o->ro_limit % 512)
			usage_error("--direct needs a block size and a --size "
				    "that are multiples of 512");
	o->drop_caches = !cl->no_drop_caches;
	check_drop_caches(o, "cold reads drop the page cache, which needs "
			     "root (or --no-drop-caches)");
	check_readahead(o);
}

/* --prepare -s SIZE -d FILE, and --make-tree N:SIZE -d DIR. */
static void check_make(struct cli *cl)
{
	struct sb_opts *o = cl->o;
	const char *t = one_target(cl);
	struct stat st;

	if (o->n_threads || o->n_blocks > 1)
		usage_error("%s writes one stream (one -b at most)",
			    cl->mode_opt);
	if (o->mode == SB_MODE_PREPARE && o->n_sizes != 1)
		usage_error("--prepare needs one -s SIZE");
	if (o->mode == SB_MODE_MAKE_TREE && (o->n_sizes || o->n_blocks))
		usage_error("--make-tree takes its sizes as N:SIZE");
	if (!o->n_blocks)
		push_u64(&o->blocks, &o->n_blocks, 1048576, "");
	if (lstat(t, &st))
		return; /* made afresh */
	if (o->mode == SB_MODE_PREPARE && !S_ISREG(st.st_mode))
		die(EXIT_RUN_FAILED,
		    "refusing to write '%s': not a regular file", t);
	if (o->mode == SB_MODE_MAKE_TREE) {
		DIR *d = S_ISDIR(st.st_mode) ? opendir(t) : NULL;
		struct dirent *de;
		bool empty = d != NULL;

		while (d && (de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				empty = false;
		if (d)
			closedir(d);
		if (!empty)
			die(EXIT_RUN_FAILED,
			    "refusing to make a tree in '%s': not an empty "
			    "directory",
			    t);
	}
}

static void check_bench(struct sb_opts *o)
{
	int status;

	if (o->nofrag && o->time_ns)
		usage_error("--nofrag and --time cannot be combined");
	set_defaults(o);
	check_geometry(o);
	status = sb_check_targets(o);
	if (status)
		exit(status);
	check_drop_caches(o, "--drop-caches needs root");
}

static void parse_args(struct sb_opts *o, int argc, char **argv)
{
	struct cli cl;
	int c;

	memset(o, 0, sizeof(*o));
	memset(&cl, 0, sizeof(cl));
	cl.o = o;
	opt_common_init(&cl.c);
	o->random_ops = 4000;
	o->numruns = 1;
	o->stall_ns = NSEC_PER_SEC;
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1)
		parse_one(&cl, c, optarg);
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	o->format = cl.format ? parse_format(cl.format) : SB_FMT_TIOBENCH;
	o->seed = cl.c.seed;
	o->time_ns = cl.c.duration_ns;
	o->output = cl.c.output;
	if (o->mode != SB_MODE_READ_ONLY &&
	    (o->n_readaheads || cl.no_drop_caches))
		usage_error("%s needs --read-only",
			    o->n_readaheads ? "--readahead"
					    : "--no-drop-caches");
	if (o->mode == SB_MODE_READ_ONLY)
		check_read_only(&cl);
	else if (o->mode == SB_MODE_PREPARE || o->mode == SB_MODE_MAKE_TREE)
		check_make(&cl);
	else if (o->mode == SB_MODE_BENCH)
		check_bench(o);
	o->tty_progress = !cl.c.quiet && isatty(STDERR_FILENO);
	o->verbose = cl.c.verbose;
}

static void opts_release(struct sb_opts *o)
{
	if (o->ra)
		sb_ra_release(o->ra);
	free(o->ra);
	free(o->readaheads);
	free(o->threads);
	free(o->blocks);
	free(o->sizes);
	sb_close_targets(o);
	free(o->targets);
}

int main(int argc, char **argv)
{
	struct sb_opts o;
	int status;

	prog_init(argc, argv);
	parse_args(&o, argc, argv);
	if (o.mode == SB_MODE_PREPARE)
		status = sb_prepare(&o);
	else if (o.mode == SB_MODE_MAKE_TREE)
		status = sb_make_tree(&o);
	else if (o.mode == SB_MODE_RESTORE)
		status = sb_ra_restore_machine();
	else
		status = sb_benchmark(&o, argc, argv);
	opts_release(&o);
	return status;
}
