// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-vmstat: sample /proc/vmstat (writeback, page and swap IO, major
 * faults, allocation and compaction stalls), pressure stall information and,
 * optionally, one workload's own major faults and swap (its /proc/PID and
 * memory cgroup) at fixed absolute deadlines, one contract-1 line per sample,
 * and summarise the run: first, last and change of every counter.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "monitors/monitor.h"

enum {
	OPT_INTERVAL = OPT_MONITOR_FIRST,
	OPT_PID,
	OPT_CGROUP,
	OPT_PROC,
};

/* clang-format off */
static const struct option long_options[] = {
	MONITOR_LONG_OPTIONS,
	{ "interval", required_argument, NULL, 'i' },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "proc", required_argument, NULL, OPT_PROC },
	OPT_LONG_END
};
/* clang-format on */
static const char short_options[] = MONITOR_SHORT_OPTIONS "i:";

/* Metric flags. */
#define M_GAUGE 1U /* a level: report max, not deltas */
#define M_CENTI 2U /* value in hundredths, printed as N.NN */

/* Every value a sample can carry, in output order. */
enum metric_id {
	V_NR_WRITEBACK,
	V_NR_DIRTY,
	V_PGPGIN,
	V_PGPGOUT,
	V_PSWPIN,
	V_PSWPOUT,
	V_PGMAJFAULT,
	V_ALLOCSTALL,
	V_COMPACT_STALL,
	P_MEM_SOME_AVG10,
	P_MEM_SOME_TOTAL,
	P_MEM_FULL_AVG10,
	P_MEM_FULL_TOTAL,
	P_IO_SOME_AVG10,
	P_IO_SOME_TOTAL,
	P_IO_FULL_AVG10,
	P_IO_FULL_TOTAL,
	T_MAJFLT,
	T_CMAJFLT,
	T_SWAP,
	C_PGMAJFAULT,
	C_SWAP,
	C_REFAULT_ANON,
	C_REFAULT_FILE,
	C_PSWPIN,
	C_PSWPOUT,
	N_METRICS,
};

struct metric_def {
	const char *name; /* output key */
	const char *key;  /* key in the source file, where one */
	unsigned flags;
};

static const struct metric_def metric_defs[N_METRICS] = {
	[V_NR_WRITEBACK] = { "nr_writeback", "nr_writeback", M_GAUGE },
	[V_NR_DIRTY] = { "nr_dirty", "nr_dirty", M_GAUGE },
	[V_PGPGIN] = { "pgpgin", "pgpgin", 0 },
	[V_PGPGOUT] = { "pgpgout", "pgpgout", 0 },
	[V_PSWPIN] = { "pswpin", "pswpin", 0 },
	[V_PSWPOUT] = { "pswpout", "pswpout", 0 },
	[V_PGMAJFAULT] = { "pgmajfault", "pgmajfault", 0 },
	[V_ALLOCSTALL] = { "allocstall", NULL, 0 },
	[V_COMPACT_STALL] = { "compact_stall", "compact_stall", 0 },
	[P_MEM_SOME_AVG10] = { "psi_memory_some_avg10", NULL,
			       M_GAUGE | M_CENTI },
	[P_MEM_SOME_TOTAL] = { "psi_memory_some_total_us", NULL, 0 },
	[P_MEM_FULL_AVG10] = { "psi_memory_full_avg10", NULL,
			       M_GAUGE | M_CENTI },
	[P_MEM_FULL_TOTAL] = { "psi_memory_full_total_us", NULL, 0 },
	[P_IO_SOME_AVG10] = { "psi_io_some_avg10", NULL, M_GAUGE | M_CENTI },
	[P_IO_SOME_TOTAL] = { "psi_io_some_total_us", NULL, 0 },
	[P_IO_FULL_AVG10] = { "psi_io_full_avg10", NULL, M_GAUGE | M_CENTI },
	[P_IO_FULL_TOTAL] = { "psi_io_full_total_us", NULL, 0 },
	[T_MAJFLT] = { "pid_majflt", NULL, 0 },
	[T_CMAJFLT] = { "pid_cmajflt", NULL, 0 },
	[T_SWAP] = { "pid_swap_bytes", NULL, M_GAUGE },
	[C_PGMAJFAULT] = { "cg_pgmajfault", NULL, 0 },
	[C_SWAP] = { "cg_swap_bytes", NULL, M_GAUGE },
	[C_REFAULT_ANON] = { "cg_workingset_refault_anon",
			     "workingset_refault_anon", 0 },
	[C_REFAULT_FILE] = { "cg_workingset_refault_file",
			     "workingset_refault_file", 0 },
	[C_PSWPIN] = { "cg_pswpin", "pswpin", 0 },
	[C_PSWPOUT] = { "cg_pswpout", "pswpout", 0 },
};

struct metric {
	bool have; /* present in this sample */
	bool seen; /* present in some sample */
	uint64_t first, prev, cur, max;
};

struct vmstat {
	struct monitor m;
	uint64_t interval_ns;
	const char *proc;   /* "/proc" or --proc DIR */
	bool fake;	    /* --proc: prefer FILE.<sample> */
	long pid;	    /* --pid, 0 for none */
	const char *cgroup; /* --cgroup, NULL for none */
	int cg_version;	    /* 1 or 2 once known, 0 before */
	bool psi;	    /* /proc/pressure/memory readable */
	bool pid_gone;
	uint64_t sample; /* number of the sample being taken */
	uint64_t late;	 /* samples taken over interval/2 late */
	struct metric v[N_METRICS];
};

static void usage(int status)
{
	if (status != EXIT_OK)
		usage_error(NULL);
	printf("Usage: %s [OPTION]...\n"
	       "Sample /proc/vmstat and pressure stall information at fixed "
	       "intervals.\n\n"
	       "  -i, --interval=TIME  time between samples (default 1s)\n"
	       "      --pid=PID        also sample this process's major faults "
	       "and swap\n"
	       "      --cgroup=PATH    also sample this memory cgroup "
	       "(v1 or v2 directory)\n"
	       "      --proc=DIR       read DIR instead of /proc (tests)\n"
	       "%s\n"
	       "Sizes and durations: 64k = 65536 bytes; 250ms, 10s, 2m.\n",
	       progname(), monitor_common_help);
	exit(EXIT_OK);
}

/*
 * Read PATH into BUF; with --proc, PATH.<sample> is preferred when it
 * exists, so a test can script a sequence of contents.
 */
static ssize_t read_src(const struct vmstat *s, const char *path, char *buf,
			size_t len)
{
	if (s->fake) {
		char alt[4096];
		ssize_t n;

		snprintf(alt, sizeof(alt), "%s.%" PRIu64, path, s->sample);
		n = monitor_read_file(alt, buf, len);
		if (n != -ENOENT)
			return n;
	}
	return monitor_read_file(path, buf, len);
}

static void set(struct vmstat *s, enum metric_id id, uint64_t v)
{
	s->v[id].have = true;
	s->v[id].cur = v;
}

static int read_vmstat(struct vmstat *s)
{
	char path[4096], buf[16384];
	const char *p;
	uint64_t stall = 0, v;
	bool have_stall = false;
	ssize_t n;
	int i;

	snprintf(path, sizeof(path), "%s/vmstat", s->proc);
	n = read_src(s, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	for (i = V_NR_WRITEBACK; i <= V_COMPACT_STALL; i++)
		if (metric_defs[i].key &&
		    monitor_kv_get(buf, metric_defs[i].key, &v))
			set(s, i, v);
	/* Modern kernels count allocation stalls per zone: sum them. */
	for (p = buf; p && *p;
	     p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		char key[64];
		unsigned long long x;

		if (sscanf(p, "%63s %llu", key, &x) == 2 &&
		    (!strcmp(key, "allocstall") ||
		     !strncmp(key, "allocstall_", 11))) {
			stall += x;
			have_stall = true;
		}
	}
	if (have_stall)
		set(s, V_ALLOCSTALL, stall);
	return 0;
}

/* "some avg10=0.12 avg60=... total=N" lines of a /proc/pressure file. */
static int read_psi(struct vmstat *s, const char *res, enum metric_id first)
{
	char path[4096], buf[1024];
	const char *kind[2] = { "some", "full" };
	ssize_t n;
	int k;

	snprintf(path, sizeof(path), "%s/pressure/%s", s->proc, res);
	n = read_src(s, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	for (k = 0; k < 2; k++) {
		unsigned long long total;
		unsigned whole, frac;
		char *line = strstr(buf, kind[k]);

		if (line && sscanf(line + 4, " avg10=%u.%2u %*s %*s total=%llu",
				   &whole, &frac, &total) == 3) {
			set(s, first + 2 * k, (uint64_t)whole * 100 + frac);
			set(s, first + 2 * k + 1, total);
		}
	}
	return 0;
}

static void read_pid(struct vmstat *s)
{
	char path[4096], buf[4096];
	unsigned long long majflt, cmajflt;
	const char *p;
	uint64_t kb;

	snprintf(path, sizeof(path), "%s/%ld/stat", s->proc, s->pid);
	if (read_src(s, path, buf, sizeof(buf)) < 0) {
		if (!s->pid_gone) {
			s->pid_gone = true;
			monitor_emit(&s->m, mono_ns(), "pid=%ld state=gone",
				     s->pid);
		}
		return;
	}
	/* The command name may hold spaces and parentheses: skip past its
	 * last ')'; majflt and cmajflt are fields 12 and 13. */
	p = strrchr(buf, ')');
	if (p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %llu %llu",
			&majflt, &cmajflt) == 2) {
		set(s, T_MAJFLT, majflt);
		set(s, T_CMAJFLT, cmajflt);
	}
	snprintf(path, sizeof(path), "%s/%ld/status", s->proc, s->pid);
	if (read_src(s, path, buf, sizeof(buf)) >= 0) {
		p = strstr(buf, "\nVmSwap:");
		if (p && sscanf(p + 8, "%" SCNu64, &kb) == 1)
			set(s, T_SWAP, kb * 1024);
	}
}

static void read_cgroup(struct vmstat *s)
{
	char path[4096], buf[16384];
	uint64_t v;
	int i;

	snprintf(path, sizeof(path), "%s/memory.stat", s->cgroup);
	if (read_src(s, path, buf, sizeof(buf)) < 0)
		return;
	if (!s->cg_version)
		s->cg_version =
			monitor_kv_get(buf, "total_pgmajfault", &v) ? 1 : 2;
	if (s->cg_version == 1) {
		/* v1: hierarchical totals; swap is a level in bytes. */
		if (monitor_kv_get(buf, "total_pgmajfault", &v))
			set(s, C_PGMAJFAULT, v);
		if (monitor_kv_get(buf, "total_swap", &v))
			set(s, C_SWAP, v);
		return;
	}
	if (monitor_kv_get(buf, "pgmajfault", &v))
		set(s, C_PGMAJFAULT, v);
	for (i = C_REFAULT_ANON; i <= C_PSWPOUT; i++)
		if (monitor_kv_get(buf, metric_defs[i].key, &v))
			set(s, i, v);
	snprintf(path, sizeof(path), "%s/memory.swap.current", s->cgroup);
	if (read_src(s, path, buf, sizeof(buf)) >= 0 &&
	    sscanf(buf, "%" SCNu64, &v) == 1)
		set(s, C_SWAP, v);
}

/* Append " name=value" for metric I to LINE at *N. */
static void put(char *line, size_t len, size_t *n, const char *name,
		unsigned flags, uint64_t v, bool delta)
{
	int r;

	if (*n >= len)
		return;
	if (flags & M_CENTI)
		r = snprintf(line + *n, len - *n, " %s=%" PRIu64 ".%02u", name,
			     v / 100, (unsigned)(v % 100));
	else
		r = snprintf(line + *n, len - *n, " %s%s=%" PRIu64, name,
			     delta ? "_delta" : "", v);
	if (r > 0)
		*n += (size_t)r;
}

static void take_sample(struct vmstat *s)
{
	char line[PROGRESS_LINE_MAX - 256];
	uint64_t ts;
	size_t n;
	int i, r;

	for (i = 0; i < N_METRICS; i++)
		s->v[i].have = false;
	r = read_vmstat(s);
	ts = mono_ns();
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot read '%s/vmstat'",
			s->proc);
	if (s->psi) {
		(void)read_psi(s, "memory", P_MEM_SOME_AVG10); /* may vanish */
		(void)read_psi(s, "io", P_IO_SOME_AVG10);
	}
	if (s->pid && !s->pid_gone)
		read_pid(s);
	if (s->cgroup)
		read_cgroup(s);

	n = (size_t)snprintf(line, sizeof(line), "sample=%" PRIu64, s->sample);
	for (i = 0; i < N_METRICS; i++) {
		struct metric *x = &s->v[i];
		unsigned flags = metric_defs[i].flags;

		if (!x->have)
			continue;
		if (!x->seen) {
			x->seen = true;
			x->first = x->prev = x->max = x->cur;
		}
		if (x->cur > x->max)
			x->max = x->cur;
		put(line, sizeof(line), &n, metric_defs[i].name, flags, x->cur,
		    false);
		/* A counter that went backwards was reset: no delta. */
		if (!(flags & M_GAUGE))
			put(line, sizeof(line), &n, metric_defs[i].name, flags,
			    x->cur >= x->prev ? x->cur - x->prev : 0, true);
		x->prev = x->cur;
	}
	monitor_emit(&s->m, ts, "%s", line);
	s->sample++;
}

static void summarise(struct vmstat *s)
{
	struct msum *sum = &s->m.sum;
	char key[128];
	int i;

	msum_u64(sum, "samples", s->sample);
	msum_ns(sum, "interval_s", s->interval_ns);
	msum_u64(sum, "late_samples", s->late);
	msum_bool(sum, "psi_available", s->psi);
	if (s->pid) {
		msum_i64(sum, "pid", s->pid);
		msum_bool(sum, "pid_exited", s->pid_gone);
	}
	if (s->cgroup)
		msum_u64(sum, "cgroup_version", (uint64_t)s->cg_version);
	for (i = 0; i < N_METRICS; i++) {
		const struct metric *x = &s->v[i];
		const char *name = metric_defs[i].name;
		unsigned flags = metric_defs[i].flags;

		if (!x->seen)
			continue;
		if (flags & M_CENTI) {
			snprintf(key, sizeof(key), "%s_max", name);
			msum_double(sum, key, (double)x->max / 100);
			continue;
		}
		snprintf(key, sizeof(key), "%s_first", name);
		msum_u64(sum, key, x->first);
		snprintf(key, sizeof(key), "%s_last", name);
		msum_u64(sum, key, x->prev);
		snprintf(key, sizeof(key), "%s_%s", name,
			 flags & M_GAUGE ? "max" : "delta");
		msum_u64(sum, key,
			 flags & M_GAUGE       ? x->max
			 : x->prev >= x->first ? x->prev - x->first
					       : 0);
	}
}

/* Check the sources once before the run, and say what is missing. */
static void probe(struct vmstat *s)
{
	char path[4096], buf[16384];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/vmstat", s->proc);
	n = read_src(s, path, buf, sizeof(buf));
	if (n == -ENOENT)
		die(EXIT_UNSUPPORTED, "no '%s' here", path);
	if (n < 0)
		die_err(EXIT_RUN_FAILED, (int)-n, "cannot read '%s'", path);
	snprintf(path, sizeof(path), "%s/pressure/memory", s->proc);
	s->psi = read_src(s, path, buf, sizeof(buf)) >= 0;
	if (!s->psi) {
		monitor_emit(&s->m, mono_ns(),
			     "psi=unavailable reason=cannot-read-%s/pressure",
			     s->proc);
		if (!s->m.oc.quiet)
			warn("no pressure stall information in '%s/pressure'",
			     s->proc);
	}
	if (s->cgroup) {
		snprintf(path, sizeof(path), "%s/memory.stat", s->cgroup);
		n = read_src(s, path, buf, sizeof(buf));
		if (n < 0)
			die_err(EXIT_UNSUPPORTED, (int)-n, "cannot read '%s'",
				path);
	}
	if (s->pid) {
		snprintf(path, sizeof(path), "%s/%ld/stat", s->proc, s->pid);
		n = read_src(s, path, buf, sizeof(buf));
		if (n < 0)
			die_err(EXIT_RUN_FAILED, (int)-n, "cannot read '%s'",
				path);
	}
}

static void parse_options(struct vmstat *s, int argc, char **argv)
{
	int opt;

	while ((opt = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1) {
		if (monitor_handle_opt(&s->m, opt, optarg, usage))
			continue;
		switch (opt) {
		case 'i':
			s->interval_ns = monitor_opt_interval(optarg);
			break;
		case OPT_PID:
			s->pid = (long)opt_u64("--pid", optarg, 1, INT32_MAX);
			break;
		case OPT_CGROUP:
			s->cgroup = optarg;
			break;
		case OPT_PROC:
			s->proc = optarg;
			s->fake = true;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
}

/*
 * Samples at start + k * interval, k = 0, 1, ..., and a last one at the
 * end of the run (the --duration end, or when a stop signal arrives), so a
 * run of D at interval I takes ceil(D / I) + 1 samples.  A late sample does
 * not move the deadlines after it.
 */
static void run(struct vmstat *s)
{
	uint64_t k, deadline;

	take_sample(s);
	for (k = 1;; k++) {
		deadline = s->m.start_ns + k * s->interval_ns;
		if (deadline > s->m.end_ns)
			deadline = s->m.end_ns;
		(void)sleep_until_ns(deadline, &sig_stop); /* stop: see below */
		if (!sig_stop && mono_ns() > deadline + s->interval_ns / 2)
			s->late++;
		take_sample(s);
		if (monitor_done(&s->m, deadline))
			break;
	}
}

int main(int argc, char **argv)
{
	struct vmstat s;

	prog_init(argc, argv);
	memset(&s, 0, sizeof(s));
	monitor_init(&s.m);
	s.interval_ns = NSEC_PER_SEC;
	s.proc = "/proc";
	parse_options(&s, argc, argv);
	monitor_start(&s.m, argc, argv, NULL);
	probe(&s);
	run(&s);
	summarise(&s);
	return monitor_finish(&s.m);
}
