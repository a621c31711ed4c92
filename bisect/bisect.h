/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * latency-bisect's private interfaces: the series of kernels, the boots
 * and their pairs, the decisions (a pure function of the boots made, so
 * that a bisection read back from bisect.json decides again exactly as it
 * did), the boot runner, the state file and the reports.
 */
#ifndef LATENCY_BISECT_H
#define LATENCY_BISECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare/compare.h"

/* bisect.json's format_version. */
#define BISECT_FORMAT_VERSION 1
/* Pairs a series of boots may have (latency-vm's --pairs bound). */
#define BISECT_MAX_PAIRS 100

/* Exit statuses beyond the suite's table (latency-bisect(1)). */
enum {
	EXIT_NOT_VALIDATED = 1, /* a culprit not validated, or a range */
	EXIT_NOT_REPRODUCED = 4,
};

/* What is known of a kernel of the series. */
enum kstate {
	KS_UNTESTED,
	KS_GOOD,
	KS_BAD,
	KS_UNKNOWN,
	KS_SKIPPED,
};
extern const char *const kstate_name[];

struct kernel {
	char *label;   /* unique in the series: letters, digits, . _ + - */
	char *kernel;  /* as latency-vm --kernel takes it */
	char *cmdline; /* its extra command line, "" for none */
	enum kstate state;
	char *reason;	  /* of a skipped kernel */
	struct change ch; /* against the good end, when tested */
	size_t pairs;	  /* complete pairs against the good end */
};

/* What a series of pairs of boots is for. */
enum purpose {
	PURPOSE_SEARCH,	  /* a kernel against the good end */
	PURPOSE_VALIDATE, /* the culprit against its predecessor, fresh */
};

/*
 * A series of pairs of boots: kernel K (arm b) against REF (arm a), the
 * pairs in the seeded ORDER (two letters a pair, A the reference), at
 * most max_pairs, one latency-vm --series-boot identity (NAME).
 */
struct series {
	size_t k, ref;
	enum purpose purpose;
	char name[80];
	char order[2 * BISECT_MAX_PAIRS + 1];
};

/* How a boot ended. */
enum boot_end {
	BOOT_RUNNING, /* recorded before it started, not yet back */
	BOOT_DONE,    /* a complete result: used */
	BOOT_PARTIAL, /* stopped midway: kept, counted, never used */
	BOOT_FAILED,  /* did not boot or run: its kernel is skipped */
};
extern const char *const boot_end_name[];

/* One boot: the seq-th of the bisection, pair PAIR (from 1) of SERIES. */
struct boot {
	unsigned seq;
	size_t series;
	unsigned pair;
	char arm;  /* 'a' (the reference) or 'b' */
	char *dir; /* below the bisection's directory, "boots/0007-LABEL" */
	enum boot_end end;
	double value; /* the figure; NaN unless done */
	double wall_s;
	char *reason; /* of a failed or partial boot */
};

/* The outcome, as bisect.json says it. */
enum outcome {
	OUT_RUNNING, /* "stopped" when written by a stopped bisection */
	OUT_FOUND,
	OUT_RANGE,
	OUT_NOT_REPRODUCED,
	OUT_CAUGHT, /* --all: every step between neighbours tested */
};
extern const char *const outcome_name[];

enum vstate {
	VAL_NONE,
	VAL_VALIDATED,
	VAL_NOT_VALIDATED,
};

/* What the decisions need to know: the options that shape them. */
struct bisect_opts {
	enum fig metric;
	double threshold_pct; /* NaN: half the ends' change */
	unsigned min_pairs, max_pairs;
	double alpha;	    /* over all looks of one series */
	double probe_alpha; /* the same for a probed kernel's interval */
	uint64_t seed;
	size_t good, bad; /* the ends' indexes */
	bool all;	  /* catch mode: every step tested, no search */
	bool git;	  /* git mode: the culprit also reverted */
};

/* A decision as bisect.log has it, once each. */
struct decision {
	char *line;
};

struct bisect {
	struct bisect_opts o;
	size_t n;
	struct kernel *k;
	size_t n_series;
	struct series *series;
	size_t n_boots;
	struct boot *boots;
	/* What decide() found. */
	enum outcome outcome;
	struct change ends;	/* the bad end against the good end */
	double threshold;	/* percent a probe must cross */
	size_t lo, hi;		/* the last good and the first bad found */
	long culprit;		/* index or -1 */
	struct change boundary; /* hi against lo, both against the good end */
	enum vstate validation;
	struct change val; /* the culprit against its predecessor, fresh */
	long val_series;   /* index or -1 */
	/*
	 * Git mode: the bad end with the culprit reverted, a kernel after
	 * the bad end (index, or -1 before it is made), or why it could not
	 * be made (REVERT_WHY); and whether the regression went away.
	 */
	long revert;
	char *revert_why;
	enum vstate revert_state;
	struct change revert_ch;
	size_t n_dec;
	struct decision *dec;
};

/*
 * The next thing to do: boot arm ARM of pair PAIR of SERIES, make the
 * revert of the culprit (git mode), or stop.
 */
struct action {
	bool revert;
	bool boot;
	size_t series;
	unsigned pair;
	char arm;
};

/* series.c */
/*
 * Read the series file PATH into B's kernels: one kernel a line, "LABEL
 * KERNEL [CMDLINE...]", '#' comments.  Dies (exit 2) naming the file and
 * the line on bad input.
 */
void series_read(struct bisect *b, const char *path);
/* Whether S is a label latency-vm takes (letters, digits, . _ + -). */
bool label_ok(const char *s);
/* The index of the kernel labelled LABEL, or -1. */
long series_find(const struct bisect *b, const char *label);

/* decide.c */
/* Whether a series is judged when it has N complete pairs. */
bool decide_look(const struct bisect_opts *o, unsigned n);
/* The per-look significance of a series of looks at ALPHA overall. */
double decide_alpha(const struct bisect_opts *o);
/*
 * Decide again from the boots made (B's outcome, states, culprit and
 * validation) and say what to boot next into *NEXT; new decisions are
 * appended to B's list.  A series needed for it is added to B.
 */
void decide(struct bisect *b, struct action *next);
/* Add series K against REF for PURPOSE to B (order from B's seed). */
size_t series_add(struct bisect *b, size_t k, size_t ref, enum purpose purpose);
/*
 * The complete pairs of series S: the reference's values into A, the
 * kernel's into V (arrays of max_pairs); returns how many.
 */
size_t series_pairs(const struct bisect *b, size_t s, double *a, double *v);
/* Whether arm ARM of pair PAIR of series S has a boot that ended END. */
bool pair_has(const struct bisect *b, size_t s, unsigned pair, char arm,
	      enum boot_end end);
/* The complete boots of B, and those of each kernel. */
size_t boots_done(const struct bisect *b);
/* Release everything B holds. */
void bisect_release(struct bisect *b);

/* state.c */
struct run_info;
struct bisect_run;
/*
 * Write B as RUN's bisect.json atomically; STOPPED says "stopped" while
 * the outcome is not known.  Returns 0 or -errno.
 */
int state_write(const struct bisect *b, const struct bisect_run *run,
		bool stopped, double wall_s, const struct run_info *ri);
/*
 * Read the bisection of DIR/bisect.json back into B and RUN (hostile: any
 * wrong member is a one-line error and exit 2).
 */
void state_read(struct bisect *b, struct bisect_run *run, const char *dir);
/*
 * Before --continue runs the boot and build commands DIR/bisect.json
 * holds: DIR (open as DIRFD) and bisect.json, a regular file, are ours
 * and others (not our group) cannot write them; else one line, exit 2.
 */
void state_check_mine(int dirfd, const char *dir);

/* The running bisection: where, how its boots are made. */
struct bisect_run {
	char *dir; /* the bisection's directory */
	int dirfd;
	char *boot_command; /* NULL: latency-vm */
	size_t n_vm_opts;   /* latency-vm's guest options, "--memory=512M" */
	char **vm_opts;
	size_t n_rt_opts; /* after --, for every boot */
	char **rt_opts;
	bool quiet;
	char *git_tree;	      /* git mode: the user's tree, else NULL */
	char *build_command;  /* git mode: how a commit is built */
	double wall_before_s; /* by earlier runs of this bisection */
	uint64_t start_ns;
};

/* Release what RUN holds (state.c), closing its directory. */
void bisect_run_release(struct bisect_run *run);

/* boot.c */
/*
 * Make boot ARM of pair PAIR of series S: record it (running) in
 * bisect.json, run the boot command into a directory made aside, rename
 * it into boots/, load its figure.  Returns 0, or the signal that stopped
 * it (the boot is then kept as partial).
 */
int boot_make(struct bisect *b, struct bisect_run *run, size_t s, unsigned pair,
	      char arm, const struct run_info *ri);
/*
 * After a crash: a boot recorded running is found done (renamed in) or
 * partial (left aside: renamed in now) or never started (dropped).
 */
void boot_recover(struct bisect *b, struct bisect_run *run);
/* The figure of the result directory PATH of boot BT (NaN on failure). */
void boot_load(struct bisect *b, const struct bisect_run *run, struct boot *bt);

/* simulate.c */
struct sim_opts {
	size_t kernels; /* in each simulated series */
	size_t trials;
	double regression; /* percent, the culprit's */
};
/*
 * Run SO->trials bisections with options O on boots drawn from RECORDS
 * (a file of figures, a line each, or a directory of result
 * directories), and the plain rule beside; print how often each was
 * right.  Returns the exit status.
 */
int bisect_simulate(const char *records, const struct bisect_opts *o,
		    const struct sim_opts *so);

/* git.c */
/*
 * The first-parent history from GOOD to BAD in TREE into B's kernels
 * (labels: 12 hex digits of each commit); dies (exit 2) on a revision
 * that is not a commit or a bad one that does not descend from the good.
 */
void git_series(struct bisect *b, const char *tree, const char *good,
		const char *bad);
/* Add RUN's worktree (DIR/worktree) of its tree, unless there is one. */
void git_worktree(const struct bisect_run *run);
/* The image of commit K in RUN's builds/, as a new string. */
char *git_image(const struct bisect_run *run, const struct kernel *k);
/*
 * Build commit K in RUN's worktree into builds/ unless built; NULL, or
 * why it could not be built (a new string).
 */
char *git_build(const struct bisect_run *run, const struct kernel *k);
/*
 * Revert B's culprit on top of its bad end in RUN's worktree: the commit
 * becomes a kernel of B after the bad end (B's revert), or B's revert_why
 * says why not (it does not apply cleanly).
 */
void git_revert(struct bisect *b, const struct bisect_run *run);
/* Write B's decisions into git's bisect state in the worktree; 0 or -1. */
int git_state(const struct bisect *b, const struct bisect_run *run);

/* report.c */
/* Append B's decisions not yet in DIR/bisect.log to it. */
int report_log(const struct bisect *b, int dirfd, size_t *logged);
/* One progress line on stderr: where the search stands. */
void report_progress(const struct bisect *b, const char *what, double wall_s);
/* Write DIR/summary.txt for a mail. */
int report_summary(const struct bisect *b, const struct bisect_run *run,
		   double wall_s);
/* --status: print where the bisection of DIR stands. */
int report_status(const char *dir);
/* plot.c */
/*
 * Write series.dat and series.gp in RUN's directory and draw them with
 * gnuplot when it is installed; a failure is warned of.  Returns 0 or -1.
 */
int report_plot(const struct bisect *b, const struct bisect_run *run);

/* page.c */
/*
 * DIR/bisect.html: latency-compare's page of every kernel with a complete
 * boot, in the series' order from the good end.  Returns 0, or -1 after a
 * warning (a page is a view of the bisection, never its failure).
 */
int report_page(const struct bisect *b, const struct bisect_run *run);

/* boot.c */
/*
 * The suite's program NAME: in LATENCY_TESTS_BINDIR, else in the built
 * tree's folder TREE_DIR beside ours, else NAME (found through PATH).
 * A new string.
 */
char *bisect_program(const char *name, const char *tree_dir);
/* "+12.3% (95% CI +10.1..+14.5%, p 0.0012)" of C into BUF. */
char *report_change(char *buf, size_t len, const struct change *c);

#endif
