/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * latency-compare's private interfaces: the figures it compares, the results
 * it loads (run-test.sh result directories, seqbench JSON), the labels that
 * gather them (several results of one label are several boots of one
 * kernel), the tests between labels, and the report writers.  Loading dies
 * with one clear line on bad input; reporting only writes.
 */
#ifndef LATENCY_COMPARE_H
#define LATENCY_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/err.h"
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
	/* The kernel's figures of each fake-gitk run (format_version 2). */
	FIG_MAJFLT,
	FIG_PSWPIN,
	FIG_PSWPOUT,
	FIG_RUN_RECLAIM,
	FIG_COMPACT,
	FIG_PSI_SOME,
	FIG_PSI_FULL,
	FIG_PGSCAN_KSWAPD,
	FIG_PGSCAN_DIRECT,
	FIG_ALLOCSTALL,
	FIG_PGSTEAL_ANON, /* pages reclaimed from anonymous memory */
	FIG_PGSTEAL_FILE, /* and from the page cache */
	/*
	 * The time split per user-CPU second (the machine's speed divided
	 * out) and the machine's own figures per run: user CPU, the wait for
	 * a CPU and the CPU the rest of the machine used.
	 */
	FIG_EPU,
	FIG_ERPU, /* (elapsed - runq) / user: the wait for a CPU out too */
	FIG_SPU,
	FIG_WPU,
	FIG_USER,
	FIG_RUNQ,
	FIG_OTHERS,
	/*
	 * The block layer's account of the run (result.json "block", from
	 * latency-block), one value a result, of the scratch directory's
	 * disk (the first request-based device that did IO): requests per MiB, mean request size, merges per request,
	 * IO unplugs per second, Q2C p99.
	 */
	FIG_BLOCK_RQ_PER_MIB,
	FIG_BLOCK_RQ_BYTES,
	FIG_BLOCK_MERGES_PER_RQ,
	FIG_BLOCK_UNPLUGS_PER_S,
	FIG_BLOCK_Q2C_P99,
	FIG_COUNT,
	FIG_KERNEL_FIRST = FIG_MAJFLT,
	FIG_CPU_FIRST = FIG_EPU, /* the kernel's figures end here */
	FIG_BLOCK_FIRST = FIG_BLOCK_RQ_PER_MIB,
	FIG_CPU_END = FIG_BLOCK_FIRST, /* the machine's figures end here */
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
	bool count;	     /* printed as a whole number */
	const char *run_key; /* its member in gitk_runs[], or NULL */
	const char *name;    /* in the verdict: "elapsed", "majflt" */
	/*
	 * Tested on logs: a ratio per run, whose mean is the geometric one
	 * and whose change is a ratio of geometric means.
	 */
	bool log;
	/*
	 * The machine's state rather than the kernel's work: said in words
	 * in the verdict, not counted among the changed figures.
	 */
	bool machine;
};

extern const struct fig_desc fig_desc[FIG_COUNT];

/*
 * One figure of one result: VALUE (NaN when the result does not have it)
 * and the per-run SAMPLES it is the mean of, when there are any; Welch's
 * test needs at least two on each side.
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
	SB_COLD_READ, /* seqbench --read-only of a file or a device */
	SB_TREE_READ, /* seqbench --read-only of a directory */
	SB_PHASES
};

extern const char *const sb_phase_name[SB_PHASES];

/* Room for cmp_sb_phase()'s text. */
#define SB_PHASE_TEXT 48

/* One seqbench configuration and phase, over its runs. */
struct sb_group {
	double size_mib;
	double block_bytes;
	double threads;
	enum sb_phase phase;
	double readahead_kb; /* --readahead of a read-only row; -1: none */
	size_t n;
	double *rate; /* rate_mib_s of each run */
	double *cpu;  /* cpu_pct of each run, NaN when absent */
};

/* The figures compared of a ringbench configuration, per run. */
enum rb_fig {
	RBF_RATE, /* cycles_per_s or transactions_per_s */
	RBF_US,	  /* us_per_cycle */
	RBF_P50,  /* p50_us */
	RBF_P99,  /* p99_us */
	RBF_COUNT
};

/* Their names in CSV and JSON ("rate_per_s" stands for either rate). */
extern const char *const rb_fig_name[RBF_COUNT];

/*
 * One ringbench configuration (its mode and options, as CONFIG, e.g.
 * "ring -t 2 --via pipe -w 0 -s 0") over its complete runs: the samples
 * of each figure (a figure a run does not have, tbench's p99, is left out).
 */
struct rb_group {
	char *config;
	size_t runs;
	double *v[RBF_COUNT];
	size_t n[RBF_COUNT];
};

/* How the workloads were pressed (result.json format_version 2). */
struct cmp_pressure {
	bool known;	  /* the result says */
	char mode[8];	  /* "global", "memcg" or "none" */
	double ratio;	  /* footprint over memory given; NaN: null */
	double footprint; /* bytes, NaN when null */
	double memory;	  /* bytes, NaN when null */
};

/*
 * The high-order allocation probes of one order (result.json high_order),
 * and the sum of the results' fault_p99_us of it over how many had one
 * (a percentile of several results is their mean, as the other figures).
 */
struct cmp_ho {
	unsigned order;
	uint64_t attempts, successes;
	double fault_p99_sum_us;
	size_t fault_p99_n;
	/*
	 * The attempts and successes of each fake-gitk run (result.json's
	 * gitk_runs[].high_order), the clusters of the test; PER_RUN only
	 * when every result pooled here has them.
	 */
	bool per_run;
	size_t n_runs;
	uint64_t *run_attempts, *run_successes;
	/*
	 * The same per result (the sums of its runs), when every result
	 * pooled here has them: the clusters when both labels have two
	 * results or more, as the runs of one result share its boot's state
	 * (an order-9 rate of 0% in one result and 73-99% in another of one
	 * configuration).
	 */
	size_t n_res;
	uint64_t *res_attempts, *res_successes;
};

/* The change of one order's success rate against the baseline. */
struct cmp_ho_change {
	bool tested;	 /* both sides probed the order */
	double base_pct; /* the baseline's success, percent */
	double diff_pp;	 /* percentage points, NaN when not tested */
	double p;	 /* two-proportion z test, two-sided */
	bool clustered;	 /* runs or results as clusters (else: binomial) */
	bool by_result;	 /* clustered by results (else by runs) */
	bool significant;
	double mde_pp; /* smallest difference seen at 80% power, points */
	double se_pp;  /* the test's standard error, points (NaN: untested) */
};

/* The arm of run-test.sh --interleave a result is (result.json). */
struct cmp_interleave {
	bool on;
	char *name, *values, *arm, *order, *other;
	double seed; /* NaN when absent */
};

/*
 * The boot of a latency-vm --pairs series a result is (result.json
 * vm.boots): kernel A and kernel B booted in turn, each pair AB or BA.
 */
struct cmp_boots {
	bool on;
	char *series, *order;
	char *labels[2]; /* of arm a and arm b */
	double seed;
	size_t pairs, pair; /* this boot's pair: 1 to pairs */
	char arm;	    /* 'a' or 'b' */
};

/*
 * The host's load while a latency-vm guest ran the suite (result.json
 * vm.host): its online CPUs, and the CPUs its other processes used on
 * average meanwhile (others_cpu_s / wall_s).
 */
struct cmp_host {
	bool on; /* measured: vm.host is an object */
	double cpus, others_cpus;
};

/*
 * Where a run-test.sh result ran (compare-setup.c): on the machine or in
 * a latency-vm guest ("vm"), its device stack and its kernel's command
 * line.  NULL and NaN where the result does not say.
 */
struct cmp_setup {
	bool known;    /* read from a run-test.sh result */
	char *machine; /* "host" or "vm" */
	char *accel, *qemu_version, *disk_cache;
	double memory_bytes, cpus;
	char *stack, *cipher, *fs; /* "device", else the guest's "vm.device" */
	char *cmdline; /* sysinfo/before/cmdline, else "vm.cmdline" */
};

/* One input: a result directory, a result.json or a seqbench file. */
struct cmp_result {
	char *path;	 /* as given on the command line */
	char *label;	 /* of its configuration (or LABEL=), shared */
	char *run_label; /* of its directory, unique; NULL before v2 */
	bool partial;
	bool has_run;	   /* a run-test.sh result.json was read */
	bool has_workload; /* it had a latency summary of --workload */
	struct figure fig[FIG_COUNT];
	struct cmp_pressure pressure;
	struct cmp_hist hist; /* of the compared workload */
	size_t hist_entries;  /* read into it, for the bound */
	size_t n_sb;
	struct sb_group *sb;
	size_t n_rb;
	struct rb_group *rb;
	size_t n_ho; /* ascending by order */
	struct cmp_ho *ho;
	double ho_p99_us; /* p99 fault of every probe, NaN when unknown */
	/*
	 * Every run's figures in run order (NaN where a run lacks one), for
	 * the pairs of an interleaved run: run N of an arm is pair N.
	 */
	size_t n_runs;
	double *per_run[FIG_COUNT];
	struct cmp_interleave il;
	struct cmp_boots boots;
	struct cmp_host host;
	/*
	 * The run-test.sh result.json as read (NULL for a seqbench or
	 * ringbench file alone), and its path: the fleet formats report
	 * figures the comparison does not use (every workload, the kernel).
	 */
	struct json_node *json;
	char *json_file;
	struct cmp_setup setup;
};

/*
 * What a label's figure is tested on: the runs of its one result, or the
 * means of its several results (one sample per boot).
 */
enum cmp_samples {
	SAMPLES_NONE,
	SAMPLES_RUNS,
	SAMPLES_RESULTS,
};

/* A label: the results that share it, and its figures over them. */
struct cmp_label {
	char *label;
	size_t n; /* results */
	struct cmp_result **r;
	bool partial; /* any result is */
	bool has_run;
	size_t runs; /* fake-gitk runs over all results */
	/*
	 * VALUE: the run mean of a lone result, else the mean of the
	 * results' values.  SAMPLES: what it is tested on (KIND).
	 */
	struct figure fig[FIG_COUNT];
	enum cmp_samples kind[FIG_COUNT];
	double between_cv; /* elapsed: CV of the result means, %; or NaN */
	struct cmp_hist hist;
	size_t n_sb;
	struct sb_group *sb; /* the runs of all results pooled */
	size_t n_rb;
	struct rb_group *rb; /* the same for ringbench */
	size_t n_ho;	     /* the probes of all results pooled */
	struct cmp_ho *ho;
	double ho_p99_us; /* mean of the results' ho_p99_us, or NaN */
	/* The mean of its results' host.others_cpus; NaN unless all have one */
	double host_others_cpus;
};

/* Which test judged a change. */
enum cmp_test {
	TEST_NONE,	   /* too few samples: not tested */
	TEST_RUNS,	   /* Welch, runs of one result on each side */
	TEST_RESULTS,	   /* Welch, result means on both sides */
	TEST_SPREAD,	   /* one result against the other side's spread of
			    * result means (a prediction interval) */
	TEST_PAIRED,	   /* the two arms of one interleaved run: the pairs'
			    * differences, one-sample t */
	TEST_PAIRED_BOOTS, /* the two arms of a series of boots: the
			    * differences of the result means within
			    * pairs, one-sample t */
};

/* A change of one figure against the baseline. */
struct change {
	double delta; /* percent or difference, NaN when undefined */
	double p;     /* two-sided p, NaN when not testable */
	bool significant;
	double mde_pct; /* smallest change seen at 80% power, % of base */
	enum cmp_test test;
	/* The 1 - alpha confidence interval of the change, % (NaN: none). */
	double ci_lo, ci_hi;
	size_t pairs; /* of a paired test, else 0 */
};

#define CHANGE_UNTESTED                                                        \
	{                                                                      \
		NAN, NAN, false, NAN, TEST_NONE, NAN, NAN, 0                   \
	}

struct cmp_options {
	const char *workload; /* whose stall figures: "fake-gitk" */
	bool workload_given;  /* by --workload */
	double alpha;	      /* significance level */

	/* The CI system named in KCIDB ids (--kcidb-origin). */
	const char *kcidb_origin;
	/*
	 * cmp_build() gathers what the fleet formats read of each result
	 * besides (struct cmp_fleet_src): only for them, as a mistyped
	 * figure there is refused.
	 */
	bool fleet;
};

/* The power the minimal detectable effect is stated at. */
#define CMP_POWER 0.8

/* compare-load.c */
struct json_node;
/*
 * Load PATH (a directory, a result.json, a seqbench or a ringbench JSON
 * file) into R,
 * labelled LABEL when not NULL, computing the per-result figures.  Returns
 * 0, or prints one line naming the file and the key on bad input and
 * returns EXIT_RUN_FAILED.  Either way R is the caller's to release with
 * cmp_result_release().
 */
int cmp_load(struct cmp_result *r, const char *path, const char *label,
	     const struct cmp_options *o);
void cmp_result_release(struct cmp_result *r);
/*
 * The number at PATH below N of result FILE into *OUT, as every figure is
 * read: false when absent or null; dies (naming NAME, never the file's
 * own text) when it is another type or out of range.
 */
bool cmp_get_num(const char *file, const struct json_node *n, const char *path,
		 const char *name, double *out);
/* qsort order of seqbench groups: phase, size, block size, threads. */
/*
 * The phase of G as printed: its name, and for a read-only row of a
 * --readahead "cold_read(ra=1024k)", into BUF (SB_PHASE_TEXT).
 */
const char *cmp_sb_phase(const struct sb_group *g, char *buf);
int cmp_sb_order(const void *a, const void *b);
/* The group of the N groups SB with KEY's configuration, or NULL. */
const struct sb_group *cmp_sb_find(const struct sb_group *sb, size_t n,
				   const struct sb_group *key);
/* Add the runs of seqbench group G to the list *SB of *N groups. */
void cmp_sb_add(struct sb_group **sb, size_t *n, const struct sb_group *g);
void cmp_sb_release(struct sb_group *sb, size_t n);
/*
 * Add the buckets of histogram FROM to TO; false when TO would have more
 * buckets than a result may have (the rest is left out).
 */
bool cmp_hist_add(struct cmp_hist *to, const struct cmp_hist *from);

/* compare-group.c */
/*
 * Gather the N results R into labels, in order of first appearance, into
 * *OUT; returns how many.  The labels point into R.
 */
size_t cmp_group(struct cmp_result *r, size_t n, struct cmp_label **out);
void cmp_label_release(struct cmp_label *l);
/* Release the NL labels L and the N results R; free both arrays. */
void cmp_free_all(struct cmp_label *l, size_t nl, struct cmp_result *r,
		  size_t n);
/* Change of figure F of L against BASE. */
struct change cmp_change(const struct cmp_label *base,
			 const struct cmp_label *l, enum fig f, double alpha);
/*
 * Are BASE and L the two arms of one interleaved run (one result each,
 * naming each other, the same knob, values, order and seed)?  Their runs
 * are then tested in pairs.
 */
bool cmp_paired(const struct cmp_label *base, const struct cmp_label *l);
/* Which pairs a change of L against BASE is tested on. */
enum cmp_pairing {
	PAIRING_NONE,
	PAIRING_RUNS,  /* cmp_paired(): the runs of an interleaved run */
	PAIRING_BOOTS, /* the boots of a latency-vm --pairs series */
};
enum cmp_pairing cmp_pairing(const struct cmp_label *base,
			     const struct cmp_label *l);
/* Why the results of two labels are paired as boots, or are not. */
enum cmp_boots_why {
	BOOTS_NONE,   /* some result is not a boot of a series */
	BOOTS_PAIRED, /* two complete pairs or more */
	BOOTS_FEW,    /* fewer complete pairs */
	BOOTS_SERIES, /* boots of more than one series */
	BOOTS_ARMS,   /* not one arm a label */
	BOOTS_TWICE,  /* a pair twice in one label */
};
struct cmp_boot_pairs {
	enum cmp_boots_why why;
	const struct cmp_boots *series; /* BASE's first result's, or NULL */
	const struct cmp_label *arm_a, *arm_b; /* BOOTS_PAIRED and _FEW */
	size_t pairs;	/* pairs with a boot in each label */
	size_t dropped; /* pairs with a boot in one label only */
	size_t twice;	/* BOOTS_TWICE: the pair */
};
/*
 * Are BASE and L the two arms of one series of boots: every result of
 * both a boot of one series (its name, order, seed and labels), all of
 * one label of arm a and all of the other of arm b, no pair twice?
 * Said in *OUT, with the pairs found.
 */
void cmp_boot_pairs(const struct cmp_label *base, const struct cmp_label *l,
		    struct cmp_boot_pairs *out);
/* The mean of N samples of figure F: geometric where F is on logs. */
double cmp_fig_mean(enum fig f, const double *v, size_t n);
/*
 * Change of the samples V[0..NV) against B[0..NB): percent of B's mean,
 * and Welch's test when both have two samples or more (with its MDE and
 * its 1 - ALPHA confidence interval, in percent of B's mean).
 */
struct change cmp_samples_change(const double *b, size_t nb, const double *v,
				 size_t nv, double alpha);
/*
 * The change of V against B in N pairs of boots of figure F (B[i] and
 * V[i] booted as pair i; NaN where a boot lacks the figure): the paired
 * test cmp_change() makes of two arms of a series of boots, on the
 * values themselves (latency-bisect's decisions), with its 1 - ALPHA
 * interval.
 */
struct change cmp_pairs_change(enum fig f, const double *b, const double *v,
			       size_t n, double alpha);
/*
 * The change between two such paired changes, of V2 against B2 (N2 pairs)
 * less that of V1 against B1 (N1 pairs), the pairs independent: Welch's
 * test of the two sets of differences within pairs (two kernels each
 * booted against one reference, compared with each other).
 */
struct change cmp_pairs_between(enum fig f, const double *b1, const double *v1,
				size_t n1, const double *b2, const double *v2,
				size_t n2, double alpha);
/* Change of seqbench group G against BASE's matching group (if any). */
struct change cmp_sb_change(const struct cmp_label *base,
			    const struct sb_group *g, double alpha);
/* Whether pressures A and B differ (both known, mode or ratio). */
bool cmp_pressure_differs(const struct cmp_pressure *a,
			  const struct cmp_pressure *b);
/* "memcg ratio 4", "none", "global ratio -" into BUF of LEN bytes. */
const char *cmp_pressure_str(char *buf, size_t len,
			     const struct cmp_pressure *p);
/* Warn on stderr about results pressed differently; returns how many. */
size_t cmp_pressure_warn(const struct cmp_label *l, size_t n);

/* compare-setup.c */
/* What is read of a sysinfo file or a result's string, at most. */
#define SYSINFO_MAX_BYTES 4096
/*
 * The first line of sysinfo/before/NAME beside the result.json
 * JSON_FILE, as a new string; NULL when absent, empty or unreadable.
 */
char *cmp_sysinfo_line(const char *json_file, const char *name);
/* A result within its label, as notes name it: its run label, else path. */
const char *cmp_result_name(const struct cmp_result *r);
/* The setup of the result.json ROOT read from FILE into S. */
void cmp_setup_load(struct cmp_setup *s, const char *file,
		    const struct json_node *root);
void cmp_setup_release(struct cmp_setup *s);
/*
 * One difference of setup: of field KEY between labels LA and LB (the
 * first results of each whose setup is known, A and B), or, when LA is
 * LB, between two results of one label (A its first); for the command
 * line WORDS holds the words that differ ("-WORD" A's, "+WORD" B's).
 */
struct cmp_setup_diff {
	int field;
	const char *key;
	const struct cmp_label *la, *lb;
	const struct cmp_result *a, *b;
	char *words;
};
typedef void cmp_setup_fn(void *ctx, const struct cmp_setup_diff *d);
/*
 * Call FN for each difference of setup of L from BASE (none when L is
 * BASE), then within L (each field once); returns how many.
 */
size_t cmp_setup_each(const struct cmp_label *base, const struct cmp_label *l,
		      cmp_setup_fn *fn, void *ctx);
/* D in words (unescaped), e.g. "setup differs: 6.1 ran with accel kvm,
 * 6.2 with tcg", as a new string. */
char *cmp_setup_text(const struct cmp_setup_diff *d);
/*
 * A label's "setup_differs" list in a JSON report: the differences D
 * (cmp_build() found them against the baseline and within the label).
 */
struct cmp_setup_diffs;
void cmp_setup_json(struct json *j, const struct cmp_setup_diffs *d);
/* Warn on stderr of every difference of setup; returns how many. */
size_t cmp_setup_warn(const struct cmp_label *l, size_t n);

/* compare-highorder.c */
/* Add the probes of order HO to the list *LIST of *N (ascending). */
void cmp_ho_add(struct cmp_ho **list, size_t *n, const struct cmp_ho *ho);
/* Append one run's probes (a cluster) to HO. */
void cmp_ho_add_run(struct cmp_ho *ho, uint64_t attempts, uint64_t successes);
/* Free a list of N probes and their runs. */
void cmp_ho_free(struct cmp_ho *list, size_t n);
/* Pool the high-order probes of L's results into L. */
void cmp_ho_pool(struct cmp_label *l);
/* The probes of ORDER in the N entries LIST, or in label L; NULL if none. */
const struct cmp_ho *cmp_ho_find_in(const struct cmp_ho *list, size_t n,
				    unsigned order);
const struct cmp_ho *cmp_ho_find(const struct cmp_label *l, unsigned order);
/* Success in percent; NaN without attempts. */
double cmp_ho_pct(const struct cmp_ho *h);
/*
 * The attempts and successes of the counted runs alone (the sample of the
 * clustered test), into *ATT and *SUCC; false when H has none per run.
 */
bool cmp_ho_runs(const struct cmp_ho *h, uint64_t *att, uint64_t *succ);
/* The fault p99 of the order in microseconds (a mean); NaN when unknown. */
double cmp_ho_fault_p99(const struct cmp_ho *h);
/* The change of H (of some label) against BASE's probes of its order. */
struct cmp_ho_change cmp_ho_change(const struct cmp_label *base,
				   const struct cmp_ho *h, double alpha);
/* Whether any of the N labels has high-order probes. */
bool cmp_has_ho(const struct cmp_label *l, size_t n);
/*
 * The "high_order" list of label E in a JSON report (its changes against
 * the baseline as cmp_build() found them), then its
 * "high_order_fault_p99_us".
 */
struct cmp_entry;
void cmp_ho_json(struct json *j, const struct cmp_entry *e);
/* L's line " HighOrder: ..." of summary.txt (lib/output) to F. */
void cmp_ho_line(FILE *f, const struct cmp_label *l);

/* compare-verdict.c */
/*
 * The figures besides elapsed that changed, as the headline names them:
 * every other figure and every high-order order is a test of its own, so
 * at ALPHA each some 15 tests of an A/A would name one figure by chance
 * in half the comparisons; they are named only when they survive Holm's
 * step-down correction (the smallest p against ALPHA/m, the next against
 * ALPHA/(m-1), ... until one fails).  Elapsed, the verdict itself, is
 * tested at ALPHA alone.
 */
struct cmp_changed {
	size_t n_fig, n_ho;
	int fig[FIG_COUNT];    /* enum fig, in fig_desc order */
	unsigned ho_order[64]; /* ascending */
	double ho_diff_pp[64];
	size_t tests; /* m: the tests corrected for */
};
void cmp_changed_find(const struct cmp_label *base, const struct cmp_label *l,
		      double alpha, struct cmp_changed *out);

/*
 * The figure the headline leads with: elapsed per user-CPU second where
 * both sides have it, else elapsed.
 */
enum fig cmp_lead(const struct cmp_label *base, const struct cmp_label *l);
/*
 * The side (BASE or L) on which the rest of the machine was significantly
 * busier (a longer wait for a CPU, or more CPU used by other processes),
 * or NULL: dividing by user CPU removes the host's speed, not other work
 * inside the machine.
 */
const struct cmp_label *cmp_machine_busier(const struct cmp_label *base,
					   const struct cmp_label *l,
					   double alpha);
/*
 * The side whose latency-vm host was busier, or NULL: every result of
 * both has vm.host, and the host's other processes used a tenth of a CPU
 * or more on average on that side than on the other.  A guest does not
 * see its host's load, only its own CPUs slowing.
 */
const struct cmp_label *cmp_host_busier(const struct cmp_label *base,
					const struct cmp_label *l);
/*
 * The busier side, not judged: cmp_machine_busier()'s, else
 * cmp_host_busier()'s, else NULL.
 */
const struct cmp_label *cmp_busier(const struct cmp_label *base,
				   const struct cmp_label *l, double alpha);
/*
 * Does the headline give elapsed per user-CPU second without the wait for
 * a CPU beside (fake-gitk waited for 5% of its elapsed time or more)?
 */
bool cmp_without_runq(const struct cmp_label *base, const struct cmp_label *l,
		      double alpha);
/*
 * The headline of label L against BASE, e.g. "6.2-rc1 vs 6.1: elapsed
 * +38.2% (p 0.003, significant); also changed: majflt +430%", as a new
 * string (labels unescaped: the writer escapes for its format).
 */
char *cmp_verdict(const struct cmp_label *base, const struct cmp_label *l,
		  double alpha);
/* Lines of text, unescaped: the writer escapes for its format. */
struct cmp_notes {
	size_t n;
	char **line;
};
void cmp_notes_add(struct cmp_notes *no, const char *fmt, ...)
	PRINTF_LIKE(2, 3);
void cmp_notes_release(struct cmp_notes *no);
/*
 * The notes under it, added to NO: how the spread between results was
 * judged, a difference in pressure and every difference of setup from
 * BASE (cmp_setup_each()).
 */
void cmp_verdict_notes(const struct cmp_label *base, const struct cmp_label *l,
		       struct cmp_notes *no);

/*
 * A note for each result of L whose host was busy (its other processes
 * used a quarter of a CPU or more): one disturbed boot spoils its pair.
 */
void cmp_host_notes(const struct cmp_label *l, struct cmp_notes *no);

/*
 * The note said once under the verdicts when a label was compared with
 * the baseline on one result each, or NULL.
 */
const char *cmp_spread_note(const struct cmp_label *l, size_t n);

/* compare-report.c */
enum cmp_format {
	CMP_2009,
	CMP_TEXT,
	CMP_CSV,
	CMP_JSON,
	CMP_MARKDOWN,
	CMP_LAVA,  /* lava-test-case lines (compare-fleet.c) */
	CMP_KCIDB, /* a KCIDB v5.3 object (compare-fleet.c) */
	CMP_HTML,  /* one self-contained page (compare-html.c) */
};

/* The --format names, in the order of enum cmp_format, NULL-terminated. */
extern const char *const cmp_format_names[];
/*
 * Write comparison C (cmp_build()) to F: the writers only write it.
 * Fleet formats need it built with cmp_options.fleet.
 */
struct cmp_comparison;
void cmp_report(FILE *f, enum cmp_format fmt, const struct cmp_comparison *c,
		const struct run_info *ri);

/* compare-build.c: the rows of seqbench, as cmp_build() finds them. */
/* "runs", "results", "spread", or NULL for TEST_NONE. */
const char *cmp_test_name(enum cmp_test t);

/* A seqbench configuration of one label, over its runs. */
struct cmp_sb_row {
	double mean, sd, ci99, cpu;
	struct change change; /* against the baseline */
};

struct cmp_sb_row cmp_sb_row_of(const struct cmp_label *base,
				const struct sb_group *g, double alpha);
bool cmp_has_seqbench(const struct cmp_label *l, size_t n);
/* What a seqbench row writer gets: the label, its index, the row. */
typedef void cmp_sb_row_fn(void *ctx, const struct cmp_label *l, size_t i,
			   const struct sb_group *g,
			   const struct cmp_sb_row *row);
/*
 * Call FN for every seqbench configuration found in any label, in the
 * order of cmp_sb_order(), and within one for each label that has it.
 * Returns the number of configurations.
 */
size_t cmp_sb_each(const struct cmp_label *l, size_t n, double alpha,
		   cmp_sb_row_fn *fn, void *ctx);

/* compare-ringbench.c */
/* Add the runs of group G to the list *RB of *N (a new group if new). */
void cmp_rb_add(struct rb_group **rb, size_t *n, const struct rb_group *g);
/* Add one run's figures V (NaN: absent) to CONFIG's group in *RB. */
void cmp_rb_add_run(struct rb_group **rb, size_t *n, const char *config,
		    const double v[RBF_COUNT]);
void cmp_rb_release(struct rb_group *rb, size_t n);
bool cmp_has_ringbench(const struct cmp_label *l, size_t n);

/* A ringbench configuration of one label: each figure over its runs. */
struct cmp_rb_row {
	double mean[RBF_COUNT], sd[RBF_COUNT];
	struct change change[RBF_COUNT]; /* against the baseline's */
};
typedef void cmp_rb_row_fn(void *ctx, const struct cmp_label *l, size_t i,
			   const struct rb_group *g,
			   const struct cmp_rb_row *row);
/*
 * Call FN for every ringbench configuration found in any label, in
 * CONFIG order, and within one for each label that has it.  Returns the
 * number of configurations.
 */
size_t cmp_rb_each(const struct cmp_label *l, size_t n, double alpha,
		   cmp_rb_row_fn *fn, void *ctx);

/* compare-names.c */
/* FNV-1a of S (its NUL too) continued from H; start at CMP_FNV_OFFSET. */
#define CMP_FNV_OFFSET 0xcbf29ce484222325ULL
uint64_t cmp_fnv1a(uint64_t h, const char *s);
/* A set of names (open addressing), each with a number; { 0 } is empty. */
struct cmp_names {
	char **key;
	size_t *val;
	size_t cap, n;
};
/*
 * Add KEY (copied) with VAL to M: true if it was new, false (and *OLD, when
 * not NULL, its number) if it was there.
 */
bool cmp_names_add(struct cmp_names *m, const char *key, size_t val,
		   size_t *old);
void cmp_names_release(struct cmp_names *m);
/* The workload of latency summary KEY: "fake-gitk" of "fake-gitk-2". */
char *cmp_workload_of(const char *key);

/* compare-build.c */
/*
 * The whole comparison, built once by cmp_build() before any writer runs:
 * every format (2009, text, Markdown, CSV, JSON, LAVA, KCIDB, HTML) and
 * latency-bisect only read it.  Besides what the formats print, each
 * compared figure has a direction and a state:
 *
 *   direction  which way is better: every figure of enum fig is a time, a
 *              count or a ratio of them (lower is better); seqbench rates,
 *              ringbench rates and high-order success (higher is better)
 *   state      CMP_WORSE or CMP_BETTER: significant (see below), in the
 *              worse or the better direction;
 *              CMP_SAME: "no change larger than the MDE": tested, not
 *              significant, and the 1 - alpha confidence interval of the
 *              change lies within +/- the MDE (both in percent of the
 *              baseline; points for a high-order success rate), so
 *              that a change as large as the comparison
 *              could see is ruled out; also where both sides have two
 *              samples or more, all of one value (failures 0 in every
 *              run: a percent of 0 has no interval);
 *              CMP_INCONCLUSIVE: neither: untested for too few samples,
 *              or not significant with an interval wider than that, or
 *              the lead figures of a comparison whose machine or host was
 *              busier on one side; NEED says what would decide it;
 *              CMP_UNCOMPARED: not compared (an interval width, or a
 *              figure one side does not have)
 *
 * Significant means: for the lead figures (elapsed, elapsed per user-CPU
 * second and that without the wait for a CPU) and the machine's figures
 * (user CPU, the wait for a CPU, other processes' CPU) p < alpha, as the
 * headline tests them; for every other figure and high-order order, in
 * Holm's set of changed figures (cmp_changed_find()); for seqbench and
 * ringbench rows p < alpha (each configuration a comparison of its own).
 */
enum cmp_direction {
	CMP_LOWER_BETTER,
	CMP_HIGHER_BETTER,
};

enum cmp_state {
	CMP_UNCOMPARED,
	CMP_WORSE,
	CMP_BETTER,
	CMP_SAME,
	CMP_INCONCLUSIVE,
};

/* What would decide an inconclusive figure. */
enum cmp_need {
	CMP_NEED_NOTHING, /* decided (or not compared) */
	CMP_NEED_RUNS,	  /* more fake-gitk runs a result (or tool runs) */
	CMP_NEED_BOOTS,	  /* more results a label: boots of each kernel */
	CMP_NEED_PAIRS,	  /* (more) pairs: paired boots or an interleaved
			   * run, as user CPU or the host's speed moved */
	CMP_NEED_QUIET,	  /* a run where the machine or host is not busier
			   * on one side */
};

/* "worse", "better", "same", "inconclusive", or NULL (uncompared). */
const char *cmp_state_name(enum cmp_state s);
/* "runs", "boots", "pairs", "quiet", or NULL. */
const char *cmp_need_name(enum cmp_need n);
/* "lower" or "higher" (which is better). */
const char *cmp_direction_name(enum cmp_direction d);

/* A compared figure: its change and what it comes to. */
struct cmp_judged {
	struct change c;
	enum cmp_direction dir;
	bool significant; /* as the state uses it (see above) */
	enum cmp_state state;
	enum cmp_need need;
};

/*
 * A high-order order of a label: its change and what it comes to.  Its
 * interval is the z test's, diff_pp -+ z(1 - alpha/2) se_pp, in points,
 * and "same" compares it with mde_pp.
 */
struct cmp_ho_judged {
	struct cmp_ho_change c;	   /* against the baseline's probes */
	bool significant;	   /* in Holm's set */
	double ci_lo_pp, ci_hi_pp; /* NaN: untested */
	enum cmp_state state;	   /* higher success is better */
	enum cmp_need need;
};

/* A seqbench or ringbench row in report order: label and group index. */
struct cmp_row_ref {
	size_t label, k;
};

/* Setup differences as found by cmp_setup_each(), with their text. */
struct cmp_setup_diffs {
	size_t n;
	struct cmp_setup_diff *d; /* words owned */
	char **text;		  /* cmp_setup_text() of each */
};

/*
 * The figures the fleet formats read of a result beyond the comparison's
 * (gathered only with cmp_options.fleet): the mean of every workload's
 * gap figures (result.json "latency", summed over its runs, in order of
 * first appearance), elapsed_per_user_mean as written, the kernel release
 * and sysinfo's uname -a line.
 */
struct cmp_lat_sum {
	char *name;    /* of the workload: "fake-gitk" of "fake-gitk-2" */
	double sum[4]; /* p99_s, max_s, stall_count, stall_time_s */
	size_t n[4];
};
struct cmp_fleet_src {
	bool has_epu_mean;
	double epu_mean;
	size_t n_lat;
	struct cmp_lat_sum *lat;
	const char *release; /* "kernel", else the label; points into R */
	char *uname;	     /* NULL: unknown */
};

/*
 * One label, and everything about it against the baseline.  The label's
 * verdict in one word (a bisection's good or bad) is fig[lead].state:
 * worse, better, same, or inconclusive with fig[lead].need.
 */
struct cmp_entry {
	const struct cmp_label *l;
	bool is_base;
	/* Against the baseline (all empty for the baseline itself). */
	struct cmp_judged fig[FIG_COUNT];
	struct cmp_changed changed; /* Holm's set */
	enum fig lead;
	bool lead_changed; /* the lead figure, or raw elapsed, changed */
	const struct cmp_label *busier, *machine_busier, *host_busier;
	bool without_runq; /* cmp_without_runq() */
	bool user_cpu_differs;
	bool pressure_differs; /* some result of each pressed differently */
	enum cmp_pairing pairing;
	struct cmp_boot_pairs boots;
	bool judged;		/* both sides have run-test.sh results */
	char *verdict;		/* the headline when judged, else NULL */
	struct cmp_notes notes; /* under the headline, when judged */
	/* The changed figures as the JSON report lists them. */
	size_t n_changed_names;
	const char *changed_names[FIG_COUNT];
	/* Own and against the baseline. */
	struct cmp_ho_judged *ho;     /* parallel to l->ho */
	struct cmp_sb_row *sb;	      /* parallel to l->sb */
	struct cmp_rb_row *rb;	      /* parallel to l->rb */
	struct cmp_judged *sb_judged; /* parallel to l->sb: the rate */
	struct cmp_judged (*rb_judged)[RBF_COUNT];
	struct cmp_setup_diffs setup; /* against the baseline, then within */
	struct cmp_fleet_src *fleet;  /* parallel to l->r, or NULL */
};

struct cmp_comparison {
	const struct cmp_options *o;
	/* The run's header (program, version, command line), set by the
	 * caller after cmp_build() where a format writes it; else NULL. */
	const struct run_info *ri;
	size_t n;
	const struct cmp_label *labels; /* the caller's, [0] the baseline */
	struct cmp_entry *e;		/* one a label */
	bool has_run, has_ho, has_kernel, has_cpu, has_seqbench, has_ringbench;
	bool has_block; /* a label has a block figure (FIG_BLOCK_FIRST on) */
	/* Said once under the verdicts: within-label setup, busy hosts. */
	struct cmp_notes notes;
	const char *spread_note; /* cmp_spread_note(), or NULL */
	/* The seqbench and ringbench rows in report order. */
	size_t n_sb_rows, n_sb_configs;
	struct cmp_row_ref *sb_rows;
	size_t n_rb_rows, n_rb_configs;
	struct cmp_row_ref *rb_rows;
};

/*
 * Build the comparison of the N labels L (L[0] the baseline) with options
 * O: every test, correction, headline and note, once.  L and O must
 * outlive it.  Free with cmp_comparison_free().
 */
struct cmp_comparison *cmp_build(const struct cmp_label *l, size_t n,
				 const struct cmp_options *o);
void cmp_comparison_free(struct cmp_comparison *c);

/* compare-data.c */
void cmp_report_csv(FILE *out, const struct cmp_comparison *c);
void cmp_report_json(FILE *out, const struct cmp_comparison *c,
		     const struct run_info *ri);

/* compare-fleet.c */
/* The default --kcidb-origin. */
#define CMP_KCIDB_ORIGIN "latency_tests"
/* Whether S is a KCIDB origin: one or more of [a-z0-9_]. */
bool cmp_kcidb_origin_ok(const char *s);
/*
 * Every figure of each of the N labels' results as lava-test-case lines,
 * or as a KCIDB object of the kernels, their builds and one test per
 * figure.
 */
void cmp_report_lava(FILE *out, const struct cmp_comparison *c);
void cmp_report_kcidb(FILE *out, const struct cmp_comparison *c);

/* compare-html.c */
/*
 * Write S to F as HTML text, inert in an element or a quoted attribute:
 * escaped as by text_escape() (no control or reordering character
 * survives), then & < > " ' as character references.
 */
void cmp_html_write(FILE *f, const char *s);
/* Comparison C as one self-contained HTML page. */
void cmp_report_html(FILE *f, const struct cmp_comparison *c,
		     const struct run_info *ri);

/* compare-svg.c */
/*
 * The page's pictures section: inline SVG drawn by gnuplot (a note
 * instead when gnuplot is missing).  Warns on stderr about a picture left
 * out; never fails the report.
 */
void cmp_html_plots(FILE *f, const struct cmp_comparison *c);

/* compare-plot.c */
/*
 * The labels' histograms as gnuplot data (a block per label that has
 * one: le_s, count, percent of its gaps), and the axes' ranges for them.
 */
void cmp_plot_hist_data(FILE *f, const struct cmp_label *l, size_t n);
void cmp_plot_hist_ranges(FILE *f, const struct cmp_label *l, size_t n);
/*
 * Write PREFIX.dat and PREFIX.gp overlaying the histograms of the N
 * labels, and run gnuplot on it when it is in PATH (PREFIX.png and
 * PREFIX.svg).  Returns 0, or -1 after printing a message when a file
 * cannot be written or gnuplot fails.
 */
int cmp_plot(const char *prefix, const struct cmp_comparison *c);

#endif
