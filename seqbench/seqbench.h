/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seqbench's private interfaces: the options main() parses, the workers that
 * run one size/block/threads combination through tiobench's four phases, and
 * the results the reports print.  Workers never print or exit; they fill a
 * struct sb_error and raise the stop flag.
 */
#ifndef SEQBENCH_SEQBENCH_H
#define SEQBENCH_SEQBENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "lib/hist.h"
#include "lib/output.h"
#include "lib/rand.h"

/* The most values an option that may be repeated takes. */
#define SB_MAX_LIST 64

/* tiobench's Lat% columns count ops slower than these. */
#define SB_LAT1_NS (2 * 1000000000ULL)
#define SB_LAT2_NS (10 * 1000000000ULL)

/*
 * The phases: tiobench's four in its order of execution, then the two
 * read-only ones (--read-only), which run alone.
 */
enum sb_phase {
	SB_SEQ_WRITE,
	SB_RAND_WRITE,
	SB_SEQ_READ,
	SB_RAND_READ,
	SB_BENCH_PHASES,
	SB_COLD_READ = SB_BENCH_PHASES, /* a file or a block device */
	SB_TREE_READ,			/* a directory, as tar reads it */
	SB_PHASES,
};

/* What the command line asks for. */
enum sb_mode {
	SB_MODE_BENCH,	   /* tiobench's phases on files it writes */
	SB_MODE_READ_ONLY, /* cold reads of what is there */
	SB_MODE_PREPARE,   /* --prepare: write a file, as dd does */
	SB_MODE_MAKE_TREE, /* --make-tree: write a tree of files */
	SB_MODE_RESTORE,   /* --restore: undo a killed run's readahead */
};

enum sb_format {
	SB_FMT_TIOBENCH,   /* tiobench 0.4 report (default) */
	SB_FMT_TIOBENCH03, /* tiobench 0.3.3, headerless */
	SB_FMT_TERSE,	   /* tiotest -T lines */
	SB_FMT_JSON,
	SB_FMT_CSV,
};

struct sb_ra;

/* Everything the command line decides. */
struct sb_opts {
	uint64_t *threads;
	size_t n_threads;
	uint64_t *blocks;
	size_t n_blocks;
	uint64_t *sizes; /* bytes, total over all threads */
	size_t n_sizes;
	const char **targets;
	int *target_fds; /* each directory target, opened O_NOFOLLOW */
	size_t n_targets;
	const char *destroy[SB_MAX_LIST]; /* --yes-destroy */
	size_t n_destroy;
	bool raw;	     /* targets are block devices */
	uint64_t random_ops; /* total over all threads */
	uint64_t numruns;
	const char *identifier;
	bool nofrag;
	bool drop_caches;
	bool direct;
	bool osync;
	bool fsync_reads;
	bool null_io;	  /* skip the syscalls: measures our overhead */
	uint64_t time_ns; /* 0: phases move a set amount */
	uint64_t stall_ns;
	uint64_t progress_bytes; /* 0: no progress lines */
	bool tty_progress;
	int verbose;
	uint64_t seed;
	enum sb_format format;
	const char *dump_offsets;
	const char *output;	 /* --output, NULL: stdout */
	const char *json_output; /* --json-output: the JSON report too */
	bool size_defaulted;
	enum sb_mode mode;
	/* --read-only */
	enum sb_phase ro_phase; /* SB_COLD_READ or SB_TREE_READ */
	bool ro_device;		/* the target is a block device */
	dev_t ro_dev;		/* the block device under the target, or 0 */
	uint64_t ro_limit;	/* -s: read at most this much (0: all) */
	uint64_t *readaheads;	/* --readahead, KiB */
	size_t n_readaheads;
	struct sb_ra *ra; /* the devices under the target, or NULL */
	/* --make-tree N:SIZE */
	uint64_t tree_files;
	uint64_t tree_file_bytes;
};

/* One phase of one run, all threads merged. */
struct sb_phase_result {
	bool ran;
	bool complete; /* every thread did all it was asked to */
	uint64_t ops;
	uint64_t bytes;
	uint64_t wall_ns;	/* barrier to last thread done */
	uint64_t cpu_ns;	/* process CPU time over the same span */
	uint64_t user_ns;	/* its user part (for the terse format) */
	uint64_t gt1;		/* ops over SB_LAT1_NS, counted exactly */
	uint64_t gt2;		/* ops over SB_LAT2_NS */
	uint64_t stalls;	/* ops over the --stall threshold */
	double thread_rate_min; /* MiB/s of the slowest thread */
	double thread_rate_max;
	struct hist *hist; /* owned; NULL until the phase ran */
	/* Read-only phases: latencies are per read (cold) or per file (tree). */
	uint64_t files;	      /* read to their end */
	uint64_t reads;	      /* read(2) calls that returned data */
	int64_t readahead_kb; /* of the device under the target; -1: none */
	int cold; /* 1: nothing cached before, 0: some, -1: unknown */
	uint64_t cached_bytes; /* what was in the page cache before */
	uint64_t errors;       /* files that could not be read (tree) */
};

/* One size/block/threads combination, one run. */
struct sb_result {
	uint64_t size; /* total bytes as asked */
	uint64_t block;
	uint64_t threads;
	uint64_t run;	     /* 1-based */
	uint64_t file_bytes; /* per thread */
	uint64_t rand_ops;   /* per thread */
	int64_t readahead;   /* --readahead of this row in KiB, -1: none */
	struct sb_phase_result phase[SB_PHASES];
};

/*
 * Derived figures of a phase, as the tables print them.  A phase that did
 * not complete has no rate (nor CPU efficiency): NaN, printed "-" or null.
 */
struct sb_figures {
	double rate; /* MiB/s */
	double cpu_pct;
	double lat_avg_ms;
	double lat_max_ms;
	double gt1_pct;
	double gt2_pct;
	double cpu_eff;
};

/*
 * Means and sample standard deviations of sb_figures over runs; a figure
 * that no run has (the rate when every run was incomplete) is NaN.
 */
struct sb_summary {
	uint64_t runs;
	uint64_t incomplete; /* of the runs, those cut short */
	struct sb_figures mean;
	struct sb_figures sd;
};

/* The first error a worker met. */
struct sb_error {
	int err;       /* errno; 0 when none */
	int thread;    /* -1: not a worker */
	char msg[512]; /* "pwrite at offset 4096 of '/x/f'" */
};

struct sb_run_state {
	const struct sb_opts *o;
	struct rand names; /* file names: seeded unpredictably, not --seed */
	struct sb_error error;
	bool interrupted; /* a stop signal arrived */
	int signo;
	FILE *dump; /* --dump-offsets, or NULL */
};

/* Random offsets: the one generator workers and --dump-offsets use. */
void sb_offsets_init(struct rand *r, uint64_t seed, enum sb_phase phase,
		     uint64_t thread);
static inline uint64_t sb_offset_next(struct rand *r, uint64_t blocks,
				      uint64_t block)
{
	return rand_below(r, blocks) * block;
}

/* Phase names: "seq_write" for JSON/CSV, "Sequential Writes" for tables. */
const char *sb_phase_key(enum sb_phase p);
const char *sb_phase_title(enum sb_phase p);

/* device.c */
/*
 * Check every target before any IO: directories are opened
 * (O->target_fds), block devices must be named in --yes-destroy, unused
 * and big enough; sets O->raw.  Returns 0, or the exit status after saying
 * what is wrong (usage errors exit 2 at once, as option parsing does).
 */
int sb_check_targets(struct sb_opts *o);
/* Close what sb_check_targets() opened. */
void sb_close_targets(const struct sb_opts *o);

/* run.c */
/* MemTotal in bytes, or 256 MiB when unknown (tiobench.pl's fallback). */
uint64_t sb_mem_total(void);
/*
 * Run every combination of O and write the report; returns the exit
 * status (0, EXIT_RUN_FAILED, or 128+signal).
 */
int sb_benchmark(const struct sb_opts *o, int argc, char **argv);

/*
 * A check of a block device that a read-only run reads: refused (status
 * 1, said) when it, a partition of it or a device stacked on it is mounted
 * read-write, or when one of them is used as swap; else 0.
 */
int sb_check_read_device(const char *path, dev_t dev);
/* $LATENCY_PROC and $LATENCY_SYS, or /proc and /sys. */
const char *sb_proc_root(void);
const char *sb_sys_root(void);

/* worker.c */
/* sync, then drop the page cache, dentries and inodes (needs root). */
int sb_drop_caches(void);
/* User CPU time of the process, ns. */
uint64_t sb_user_ns(void);
/*
 * Run the four phases of RES (size, block, threads, run filled in) in place,
 * writing into RES->phase.  Returns 0, or -1 when stopped early (error in
 * ST->error, or ST->interrupted); phases measured until then are kept.  The
 * files are removed before it returns, whatever happened.
 */
int sb_run(struct sb_run_state *st, struct sb_result *res);

/* readonly.c */
/*
 * Run every --readahead/--block/run row of a --read-only run into RES,
 * setting and restoring the readahead; returns how many rows ran (errors
 * in ST->error, a stop signal in ST->interrupted).
 */
size_t sb_read_only(struct sb_run_state *st, struct sb_result *res);
/* The rows a --read-only run has. */
size_t sb_read_only_rows(const struct sb_opts *o);

/* make.c: --prepare and --make-tree; each returns the exit status. */
int sb_prepare(const struct sb_opts *o);
int sb_make_tree(const struct sb_opts *o);

/* readahead.c */
/* One block device whose readahead a run sets. */
struct sb_ra_dev {
	unsigned major, minor;
	char *name;	 /* "sda", "dm-0" */
	char *knob;	 /* .../queue/read_ahead_kb */
	uint64_t old_kb; /* as found */
	bool changed;	 /* written by us */
};

/*
 * The devices that serve reads of block device DEV: the device itself
 * (its whole disk when DEV is a partition), then, through slaves/, every
 * device under a device-mapper or md device, down to the disks.
 */
struct sb_ra {
	struct sb_ra_dev *dev; /* dev[0]: the one page-cache reads use */
	size_t n;
	bool recorded;	 /* in the machine-state record */
	bool own_record; /* begun by us (standalone), restored by us */
};

/*
 * Find the devices of DEV under sysfs root SYS (see struct sb_ra) and
 * read their readahead.  Returns 0, -ENODEV when DEV is no block device
 * sysfs knows (major 0: tmpfs, overlay), or -errno.
 */
int sb_ra_resolve(const char *sys, dev_t dev, struct sb_ra *ra);
void sb_ra_release(struct sb_ra *ra);
/*
 * Record the readahead of every device of RA in the machine-state record
 * (latency-machine): in the driver's record when LATENCY_MACHINE_OWNER
 * names it, else in one of our own.  Returns 0, latency-machine's exit
 * status, or -errno, with the failure in ERR.
 */
int sb_ra_record(struct sb_ra *ra, struct sb_error *err);
/*
 * Set every device of RA to KB, recorded first if it is not yet.  Returns
 * 0, or -1 with the failure in ERR.
 */
int sb_ra_set(struct sb_ra *ra, uint64_t kb, struct sb_error *err);
/*
 * Write back what sb_ra_set() changed, and clear our own record.
 * Returns 0, or -1 with the failure in ERR (when it had none).
 */
int sb_ra_restore(struct sb_ra *ra, int verbose, struct sb_error *err);
/* --restore: latency-machine restore; returns its exit status. */
int sb_ra_restore_machine(void);

/* report.c */
void sb_figures_of(const struct sb_phase_result *p, struct sb_figures *f);
/*
 * Means and stddevs of the figures of phase PHASE over RES[0..N) (the runs
 * of one combination); runs where the phase did not run are skipped, and
 * the rate of an incomplete run does not count.
 */
void sb_aggregate(const struct sb_result *res, size_t n, enum sb_phase phase,
		  struct sb_summary *out);

/* What the report needs besides the results. */
struct sb_report {
	const struct sb_opts *o;
	const struct run_info *ri;
	const struct sb_result *res; /* in order size, block, threads, run */
	size_t n_res;
	bool interrupted;
	bool incomplete;
	const char *error; /* the failure, or NULL */
	const char **notes;
	size_t n_notes;
};

/* Write the report in FORMAT; returns 0 or -errno of the stream. */
int sb_report_write(FILE *f, const struct sb_report *r, enum sb_format format);
/* Helpers of both halves of the report. */
/* The runs of one row, adjacent in RES[0..N): how many. */
size_t sb_group_len(const struct sb_result *res, size_t n);
bool sb_any_ran(const struct sb_result *res, size_t n, enum sb_phase p);
/* V with DECIMALS into BUF, or "-" for a figure that is not there (NaN). */
const char *sb_fmt_fig(char *buf, size_t size, double v, int decimals);
/* The first column: --identifier, or the kernel. */
const char *sb_report_ident(const struct sb_report *r);
/* Percentile P of H in microseconds. */
double sb_pct_us(const struct hist *h, double p);

/* report-data.c: the machine-readable formats. */
void sb_put_terse(FILE *fp, const struct sb_report *r);
void sb_put_json(FILE *fp, const struct sb_report *r);
void sb_put_csv(FILE *fp, const struct sb_report *r);

#endif
