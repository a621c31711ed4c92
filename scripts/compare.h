/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * latency-compare's private interfaces: the figures it compares, the results
 * it loads (run-test.sh result directories, seqbench JSON), and the report
 * writers.  Loading dies with one clear line on bad input; reporting only
 * writes.
 */
#ifndef LATENCY_COMPARE_H
#define LATENCY_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/output.h"

/* Everything compared per label, in report order. */
enum fig {
	FIG_ELAPSED,	/* mean elapsed of the fake-gitk runs; samples: runs */
	FIG_STDDEV,	/* their sample standard deviation */
	FIG_CV,		/* coefficient of variation, percent */
	FIG_CI95,	/* half width of the 95% confidence interval */
	FIG_CI99,	/* half width of the 99% confidence interval */
	FIG_FAILURES,	/* page allocation failures */
	FIG_OOM,	/* OOM kills */
	FIG_P99,	/* 99th percentile gap of the workload, seconds */
	FIG_MAX,	/* longest gap */
	FIG_STALLS,	/* gaps over the stall threshold */
	FIG_STALL_TIME, /* time lost to them */
	FIG_RECLAIM,	/* time in direct reclaim (trace monitor) */
	FIG_SWAPOUT,	/* pages swapped out during the run */
	FIG_COUNT
};

/* How a change against the baseline is expressed. */
enum change_kind {
	CHANGE_NONE, /* not compared (interval widths) */
	CHANGE_PCT,  /* percent of the baseline value */
	CHANGE_DIFF, /* plain difference (counts) */
};

struct fig_desc {
	const char *key;	/* CSV/JSON name, with its unit */
	const char *head;	/* text table heading, NULL: not in the table */
	const char *change_key; /* CSV/JSON name of the change */
	const char *change_head;
	enum change_kind change;
	bool count; /* printed as a whole number */
};

extern const struct fig_desc fig_desc[FIG_COUNT];

/*
 * One figure of one label: VALUE (NaN when the result does not have it) and
 * the per-run SAMPLES it is the mean of, when there are any; Welch's test
 * needs at least two on each side.
 */
struct figure {
	double value;
	double *samples;
	size_t n;
};

/* A latency histogram of one workload, for --plot. */
struct cmp_hist {
	size_t n;
	double *le_s;
	double *count;
};

enum sb_phase {
	SB_SEQ_WRITE,
	SB_RAND_WRITE,
	SB_SEQ_READ,
	SB_RAND_READ,
	SB_PHASES
};

extern const char *const sb_phase_name[SB_PHASES];

/* One seqbench configuration and phase, over its runs. */
struct sb_group {
	double size_mib;
	double block_bytes;
	double threads;
	enum sb_phase phase;
	size_t n;
	double *rate; /* rate_mib_s of each run */
	double *cpu;  /* cpu_pct of each run, NaN when absent */
};

/* One input: a result directory, a result.json or a seqbench file. */
struct cmp_result {
	char *path; /* as given on the command line */
	char *label;
	bool partial;
	bool has_run; /* a run-test.sh result.json was read */
	struct figure fig[FIG_COUNT];
	struct cmp_hist hist; /* of the compared workload */
	size_t n_sb;
	struct sb_group *sb;
};

/* A change of one figure against the baseline. */
struct change {
	double delta; /* percent or difference, NaN when undefined */
	double p;     /* Welch's two-sided p, NaN when not testable */
	bool significant;
};

struct cmp_options {
	const char *workload; /* whose stall figures: "fake-gitk" */
	double alpha;	      /* significance level */
};

/* compare-load.c */
/*
 * Load PATH (a directory, a result.json or a seqbench JSON file) into R,
 * computing the derived figures.  Dies with EXIT_RUN_FAILED and one line
 * naming the file and the cause on bad input.
 */
void cmp_load(struct cmp_result *r, const char *path,
	      const struct cmp_options *o);
void cmp_result_release(struct cmp_result *r);
/* Change of figure F of R against BASE. */
struct change cmp_change(const struct cmp_result *base,
			 const struct cmp_result *r, enum fig f, double alpha);
/* qsort order of seqbench groups: phase, size, block size, threads. */
int cmp_sb_order(const void *a, const void *b);
/* The group of R with KEY's phase and configuration, or NULL. */
const struct sb_group *cmp_sb_find(const struct cmp_result *r,
				   const struct sb_group *key);
/* Change of seqbench group G against BASE's matching group (if any). */
struct change cmp_sb_change(const struct cmp_result *base,
			    const struct sb_group *g, double alpha);

/* compare-report.c */
enum cmp_format {
	CMP_2009,
	CMP_TEXT,
	CMP_CSV,
	CMP_JSON,
	CMP_MARKDOWN,
};

/* "2009", "text", "csv", "json", "markdown" -> *F; 0 or -EINVAL. */
int cmp_format_parse(const char *s, enum cmp_format *f);
/* Write the report of the N results R (R[0] the baseline) to F. */
void cmp_report(FILE *f, enum cmp_format fmt, const struct cmp_result *r,
		size_t n, const struct cmp_options *o,
		const struct run_info *ri);

/* compare-plot.c */
/*
 * Write PREFIX.dat and PREFIX.gp overlaying the histograms of the N
 * results, and run gnuplot on it when it is in PATH (PREFIX.png and
 * PREFIX.svg).  Returns 0, or -1 after printing a message when a file
 * cannot be written or gnuplot fails.
 */
int cmp_plot(const char *prefix, const struct cmp_result *r, size_t n,
	     const struct cmp_options *o);

#endif
