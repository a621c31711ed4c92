// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-vmstat: sample /proc/vmstat (writeback, page and swap IO, major
 * faults, allocation and compaction stalls), pressure stall information and,
 * optionally, one workload's own major faults and swap (its /proc/PID and
 * memory cgroup) at fixed absolute deadlines, one progress line
 * (doc/design.md, contract 1) per sample, and summarise the run: first, last
 * and change of every counter.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/kparse.h"
#include "lib/opt.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "monitors/cpu-time.h"
#include "monitors/monitor.h"

enum {
	OPT_INTERVAL = OPT_MONITOR_FIRST,
	OPT_PID,
	OPT_CGROUP,
	OPT_PROC,
	OPT_SNAPSHOT,
	OPT_SUITE_PID,
};

/* clang-format off */
static const struct option long_options[] = {
	MONITOR_LONG_OPTIONS,
	{ "interval", required_argument, NULL, 'i' },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "proc", required_argument, NULL, OPT_PROC },
	{ "snapshot", no_argument, NULL, OPT_SNAPSHOT },
	{ "suite-pid", required_argument, NULL, OPT_SUITE_PID },
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
	[V_ALLOCSTALL] = { "allocstall", "allocstall*", 0 },
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
	bool snapshot;	   /* --snapshot */
	bool has_interval; /* --interval given */
	uint64_t interval_ns;
	const char *proc;   /* "/proc" or --proc DIR */
	bool fake;	    /* --proc: prefer FILE.<sample> */
	long pid;	    /* --pid, 0 for none */
	long suite_pid;	    /* --suite-pid, 0 for none */
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
	/* clang-format off */
	printf("Usage: %s [OPTION]...\n"
	       "  or:  %s --snapshot [--cgroup=PATH] [--suite-pid=PID] [--proc=DIR] [-o FILE]\n"
	       "Sample /proc/vmstat and pressure stall information at fixed intervals,\n"
	       "or read them once and write one JSON object.\n"
	       "\n"
	       "      --snapshot       read the counters once, write them as JSON (to -o FILE,\n"
	       "                       atomically) and exit\n"
	       "      --suite-pid=PID  --snapshot: also the CPU time of PID and every process\n"
	       "                       below it (the suite), beside the machine's busy time\n"
	       "  -i, --interval=TIME  time between samples (default 1s)\n"
	       "      --pid=PID        also sample this process's major faults and swap\n"
	       "      --cgroup=PATH    also sample this memory cgroup (v1 or v2 directory)\n"
	       "      --proc=DIR       read DIR instead of /proc (tests)\n"
	       "%s\n"
	       "Sizes and durations: 64k = 65536 bytes; 250ms, 10s, 2m.\n",
	       progname(), progname(), monitor_common_help);
	/* clang-format on */
	exit(EXIT_OK);
}

/* One source file as read for a sample, and the name it was read under. */
struct src {
	char path[4096];
	char buf[65536];
	size_t len;
};

/*
 * Read DIR/NAME into F; with --proc, DIR/NAME.<sample> is preferred when it
 * exists, so a test can script a sequence of contents.  Returns 0 or
 * -errno.
 */
static int src_read(const struct vmstat *s, struct src *f, const char *dir,
		    const char *name)
{
	ssize_t n = -ENOENT;

	if (s->fake) {
		snprintf(f->path, sizeof(f->path), "%s/%s.%" PRIu64, dir, name,
			 s->sample);
		n = read_small_file(f->path, f->buf, sizeof(f->buf));
	}
	if (n == -ENOENT) {
		snprintf(f->path, sizeof(f->path), "%s/%s", dir, name);
		n = read_small_file(f->path, f->buf, sizeof(f->buf));
	}
	if (n < 0)
		return (int)n;
	f->len = (size_t)n;
	return 0;
}

/* Malformed input from the kernel (or a fake /proc) ends the run. */
static noreturn void bad_src(const struct src *f, const char *what, int r)
{
	die(EXIT_RUN_FAILED, "cannot parse '%s': %s: %s", f->path, what,
	    kparse_strerror(r));
}

/* The value of the "KEY VALUE" line of F; false when F has no KEY. */
static bool src_get(const struct src *f, const char *key, uint64_t *v)
{
	int r = kparse_kv_find(f->buf, f->len, key, v);

	if (r == -ENOENT)
		return false;
	if (r)
		bad_src(f, key, r);
	return true;
}

/* A one-number file (memory.current); false when it cannot be read. */
static bool read_number(const struct vmstat *s, const char *dir,
			const char *name, uint64_t *v)
{
	struct src f;
	int r;

	if (src_read(s, &f, dir, name))
		return false;
	r = kparse_u64_file(f.buf, f.len, v);
	if (r)
		bad_src(&f, "the value", r);
	return true;
}

/*
 * The values of KEYS[0..N) in F, in one pass (kparse_kv_pick).  Allocation
 * stalls are "allocstall*": modern kernels count them per zone
 * (allocstall_dma32, allocstall_normal, ...), older ones in one
 * allocstall, and the sum is what is reported.
 */
static void src_pick(const struct src *f, const char *const *keys, size_t n,
		     uint64_t *vals, bool *have)
{
	size_t bad, len;
	char what[64];
	int r = kparse_kv_pick(f->buf, f->len, keys, n, vals, have, &bad);

	if (!r)
		return;
	len = strlen(keys[bad]);
	snprintf(what, sizeof(what), "%.*s",
		 (int)(len - (keys[bad][len - 1] == '*')), keys[bad]);
	bad_src(f, what, r);
}

/* The pressure file DIR/NAME into P; false when it cannot be read. */
static bool read_psi_file(const struct vmstat *s, const char *dir,
			  const char *name, struct kparse_psi *p)
{
	struct src f;
	int r;

	if (src_read(s, &f, dir, name))
		return false;
	r = kparse_psi(f.buf, f.len, p);
	if (r)
		bad_src(&f, "pressure line", r);
	return true;
}

/* Cgroup v1's memory.stat has hierarchical total_* counters, v2's not. */
static int cg_version_of(const struct src *stat)
{
	uint64_t v;

	return src_get(stat, "total_pgmajfault", &v) ? 1 : 2;
}

static void set(struct vmstat *s, enum metric_id id, uint64_t v)
{
	s->v[id].have = true;
	s->v[id].cur = v;
}

/* The /proc/vmstat metrics, V_NR_WRITEBACK (0) to V_COMPACT_STALL. */
#define N_VM_METRICS (V_COMPACT_STALL + 1)

static int read_vmstat(struct vmstat *s)
{
	const char *keys[N_VM_METRICS];
	uint64_t v[N_VM_METRICS];
	bool have[N_VM_METRICS];
	struct src f;
	int i, r;

	r = src_read(s, &f, s->proc, "vmstat");
	if (r)
		return r;
	for (i = 0; i < N_VM_METRICS; i++)
		keys[i] = metric_defs[i].key;
	src_pick(&f, keys, N_VM_METRICS, v, have);
	for (i = 0; i < N_VM_METRICS; i++)
		if (have[i])
			set(s, i, v[i]);
	return 0;
}

/* The some and full lines of a /proc/pressure file. */
static void read_psi(struct vmstat *s, const char *res, enum metric_id first)
{
	struct kparse_psi p;
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/pressure", s->proc);
	if (!read_psi_file(s, dir, res, &p))
		return; /* PSI may vanish (a cgroup being removed) */
	if (p.some.have) {
		set(s, first, p.some.avg10);
		set(s, first + 1, p.some.total_us);
	}
	if (p.full.have) {
		set(s, first + 2, p.full.avg10);
		set(s, first + 3, p.full.total_us);
	}
}

static void read_pid(struct vmstat *s)
{
	char dir[4096];
	uint64_t majflt, cmajflt, kb;
	struct src f;
	int r;

	snprintf(dir, sizeof(dir), "%s/%ld", s->proc, s->pid);
	if (src_read(s, &f, dir, "stat")) {
		if (!s->pid_gone) {
			s->pid_gone = true;
			monitor_emit(&s->m, mono_ns(), "pid=%ld state=gone",
				     s->pid);
		}
		return;
	}
	r = kparse_pid_stat(f.buf, f.len, &majflt, &cmajflt);
	if (r)
		bad_src(&f, "majflt and cmajflt", r);
	set(s, T_MAJFLT, majflt);
	set(s, T_CMAJFLT, cmajflt);
	if (src_read(s, &f, dir, "status"))
		return;
	r = kparse_status_kb(f.buf, f.len, "VmSwap", &kb);
	if (r && r != -ENOENT) /* kernel threads have no VmSwap */
		bad_src(&f, "VmSwap", r);
	if (!r)
		set(s, T_SWAP, kb * 1024);
}

static void read_cgroup(struct vmstat *s)
{
	struct src f;
	uint64_t v;
	int i;

	if (src_read(s, &f, s->cgroup, "memory.stat"))
		return;
	if (!s->cg_version)
		s->cg_version = cg_version_of(&f);
	if (s->cg_version == 1) {
		/* v1: hierarchical totals; swap is a level in bytes. */
		if (src_get(&f, "total_pgmajfault", &v))
			set(s, C_PGMAJFAULT, v);
		if (src_get(&f, "total_swap", &v))
			set(s, C_SWAP, v);
		return;
	}
	if (src_get(&f, "pgmajfault", &v))
		set(s, C_PGMAJFAULT, v);
	for (i = C_REFAULT_ANON; i <= C_PSWPOUT; i++)
		if (src_get(&f, metric_defs[i].key, &v))
			set(s, i, v);
	if (read_number(s, s->cgroup, "memory.swap.current", &v))
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
		read_psi(s, "memory", P_MEM_SOME_AVG10);
		read_psi(s, "io", P_IO_SOME_AVG10);
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

/*
 * Read DIR/NAME into F or die: 3 (unsupported) when it does not exist, or
 * always when UNSUPPORTED; else 1.
 */
static void src_need(const struct vmstat *s, struct src *f, const char *dir,
		     const char *name, bool unsupported)
{
	int r = src_read(s, f, dir, name);

	if (r == -ENOENT && !unsupported)
		die(EXIT_UNSUPPORTED, "no '%s' here", f->path);
	if (r)
		die_err(unsupported ? EXIT_UNSUPPORTED : EXIT_RUN_FAILED, -r,
			"cannot read '%s'", f->path);
}

/* Check the sources once before the run, and say what is missing. */
static void probe(struct vmstat *s)
{
	char dir[4096];
	struct src f;
	int r;

	src_need(s, &f, s->proc, "vmstat", false);
	snprintf(dir, sizeof(dir), "%s/pressure", s->proc);
	s->psi = !src_read(s, &f, dir, "memory");
	if (!s->psi) {
		monitor_emit(&s->m, mono_ns(),
			     "psi=unavailable reason=cannot-read-%s/pressure",
			     s->proc);
		if (!s->m.oc.quiet)
			warn("no pressure stall information in '%s/pressure'",
			     s->proc);
	}
	if (s->cgroup)
		src_need(s, &f, s->cgroup, "memory.stat", true);
	if (s->pid) {
		snprintf(dir, sizeof(dir), "%s/%ld", s->proc, s->pid);
		r = src_read(s, &f, dir, "stat");
		if (r) /* a --pid that is not there is a usage mistake */
			die_err(EXIT_RUN_FAILED, -r, "cannot read '%s'",
				f.path);
	}
}

/* The /proc/vmstat counters of a snapshot, in output order. */
static const char *const snap_vm_keys[] = {
	"pswpin",
	"pswpout",
	"pgmajfault",
	"pgfault",
	"pgscan_kswapd",
	"pgscan_direct",
	"pgsteal_kswapd",
	"pgsteal_direct",
	"pgscan_anon", /* by the list the pages came from (newer kernels) */
	"pgscan_file",
	"pgsteal_anon",
	"pgsteal_file",
	"allocstall*", /* the sum, reported as allocstall */
	"compact_stall",
	"compact_fail",
	"compact_success",
	"kswapd_low_wmark_hit_quickly",
	"kswapd_high_wmark_hit_quickly",
	"pageoutrun",
	"nr_free_pages",
	"nr_dirty",
	"nr_writeback",
	"workingset_refault_anon",
	"workingset_refault_file",
	"workingset_refault", /* before Linux 5.9 */
};
#define N_SNAP_VM (sizeof(snap_vm_keys) / sizeof(snap_vm_keys[0]))

/* A snapshot's values, all read before anything is written. */
struct snap {
	struct snap_val {
		const char *key;
		bool have; /* else null */
		uint64_t v;
	} f[N_SNAP_VM + 24];
	size_t n;
};

static void snap_add(struct snap *sn, const char *key, bool have, uint64_t v)
{
	sn->f[sn->n].key = key;
	sn->f[sn->n].have = have;
	sn->f[sn->n].v = have ? v : 0;
	sn->n++;
}

static void snap_psi(struct snap *sn, const char *some, const char *full,
		     bool have, const struct kparse_psi *p)
{
	snap_add(sn, some, have && p->some.have, p->some.total_us);
	snap_add(sn, full, have && p->full.have, p->full.total_us);
}

/*
 * The --cgroup figures of a snapshot, null where its version has none: v1
 * keeps hierarchical totals and its swap level in memory.stat, v2 has
 * pgscan and pgsteal there and the swap level in memory.swap.current.
 * Returns the cgroup version.
 */
static int snap_cgroup(const struct vmstat *s, struct snap *sn)
{
	struct kparse_psi p;
	struct src f;
	uint64_t v = 0;
	bool have, v1;

	memset(&p, 0, sizeof(p));
	src_need(s, &f, s->cgroup, "memory.stat", true);
	v1 = cg_version_of(&f) == 1;
	have = src_get(&f, v1 ? "total_pgmajfault" : "pgmajfault", &v);
	snap_add(sn, "cg_pgmajfault", have, v);
	have = !v1 && src_get(&f, "pgscan", &v);
	snap_add(sn, "cg_pgscan", have, v);
	have = !v1 && src_get(&f, "pgsteal", &v);
	snap_add(sn, "cg_pgsteal", have, v);
	have = read_number(s, s->cgroup,
			   v1 ? "memory.usage_in_bytes" : "memory.current", &v);
	snap_add(sn, "cg_memory_bytes", have, v);
	have = v1 ? src_get(&f, "total_swap", &v)
		  : read_number(s, s->cgroup, "memory.swap.current", &v);
	snap_add(sn, "cg_swap_bytes", have, v);
	have = read_psi_file(s, s->cgroup, "memory.pressure", &p);
	snap_psi(sn, "cg_psi_memory_some_total_us",
		 "cg_psi_memory_full_total_us", have, &p);
	return v1 ? 1 : 2;
}

/*
 * Who used the CPUs, in clock ticks: all of them, the suite's process tree
 * (--suite-pid) and the kernel's threads; null where /proc/stat cannot be
 * read or the suite's process is not there.
 */
static void snap_cpu(const struct vmstat *s, struct snap *sn)
{
	struct cpu_time t;
	bool have = !cpu_time_read(s->proc, s->suite_pid, &t);

	snap_add(sn, "cpu_busy_ticks", have, t.busy);
	snap_add(sn, "suite_cpu_ticks", have && t.has_suite, t.suite);
	snap_add(sn, "kthreads_cpu_ticks", have, t.kthreads);
	snap_add(sn, "clock_ticks_per_s", have, (uint64_t)sysconf(_SC_CLK_TCK));
}

/*
 * --snapshot: read every counter once and write one JSON object, atomically
 * to -o FILE or to stdout.  Returns the exit status.
 */
static int snapshot(struct vmstat *s, int argc, char **argv)
{
	const char *out = s->m.oc.output ? s->m.oc.output : "-";
	struct run_info ri;
	struct kparse_psi p;
	struct atomic_file af;
	struct snap sn;
	struct json j;
	struct src f;
	char dir[4096];
	uint64_t ts, vals[N_SNAP_VM];
	bool have, haves[N_SNAP_VM];
	int version = 0, r;
	size_t i;

	run_info_init(&ri, progname(), argc, argv);
	memset(&sn, 0, sizeof(sn));
	memset(&p, 0, sizeof(p));
	src_need(s, &f, s->proc, "vmstat", false);
	ts = mono_ns();
	src_pick(&f, snap_vm_keys, N_SNAP_VM, vals, haves);
	for (i = 0; i < N_SNAP_VM; i++)
		snap_add(&sn,
			 strcmp(snap_vm_keys[i], "allocstall*")
				 ? snap_vm_keys[i]
				 : "allocstall",
			 haves[i], vals[i]);
	snprintf(dir, sizeof(dir), "%s/pressure", s->proc);
	have = read_psi_file(s, dir, "memory", &p);
	snap_psi(&sn, "psi_memory_some_total_us", "psi_memory_full_total_us",
		 have, &p);
	if (s->cgroup)
		version = snap_cgroup(s, &sn);
	snap_cpu(s, &sn);
	ri.end_real_ns = real_ns();

	r = atomic_open(&af, out);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot create '%s'", out);
	json_init(&j, af.f, true);
	json_object_begin(&j, NULL);
	json_run_header(&j, &ri);
	json_ns_as_s(&j, "mono_s", ts);
	if (s->cgroup) {
		json_str(&j, "cgroup", s->cgroup);
		json_u64(&j, "cgroup_version", (uint64_t)version);
	} else {
		json_null(&j, "cgroup");
		json_null(&j, "cgroup_version");
	}
	for (i = 0; i < sn.n; i++)
		if (sn.f[i].have)
			json_u64(&j, sn.f[i].key, sn.f[i].v);
		else
			json_null(&j, sn.f[i].key);
	json_object_end(&j);
	json_finish(&j);
	r = atomic_commit(&af);
	if (r) {
		atomic_abort(&af);
		die_err(EXIT_RUN_FAILED, -r, "cannot write '%s'", out);
	}
	return EXIT_OK;
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
			s->has_interval = true;
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
		case OPT_SNAPSHOT:
			s->snapshot = true;
			break;
		case OPT_SUITE_PID:
			s->suite_pid = (long)opt_u64("--suite-pid", optarg, 1,
						     INT32_MAX);
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (s->snapshot) {
		const char *no = s->has_interval	? "--interval"
				 : s->m.oc.has_duration ? "--duration"
				 : s->m.summary_path	? "--summary"
				 : s->m.oc.format	? "--format"
				 : s->pid		? "--pid"
							: NULL;

		if (no)
			usage_error("%s does not apply to --snapshot", no);
	} else if (s->suite_pid) {
		usage_error("--suite-pid goes with --snapshot");
	}
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
	int status;

	prog_init(argc, argv);
	memset(&s, 0, sizeof(s));
	monitor_init(&s.m);
	s.interval_ns = NSEC_PER_SEC;
	s.proc = "/proc";
	parse_options(&s, argc, argv);
	if (s.snapshot)
		return snapshot(&s, argc, argv);
	status = monitor_start(&s.m, argc, argv, NULL);
	if (status)
		return status;
	probe(&s);
	run(&s);
	summarise(&s);
	return monitor_finish(&s.m);
}
