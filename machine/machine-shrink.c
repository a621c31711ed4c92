// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Global memory pressure without a reboot, as a mem= boot gives it: leave
 * the page allocator only what is in use now plus --keep.  Memory blocks go
 * offline first (the kernel then sees a smaller machine and sizes its zones'
 * watermarks for it), highest-numbered first, each given up after
 * --timeout; what the blocks cannot give is reserved as hugetlb pages (the
 * allocator loses the memory, the watermarks stay those of the big
 * machine).  Each change is in the state record before it is made.  The
 * floor, explained in the man page: MemFree never below 64 MiB, twice
 * min_free_kbytes or the zones' high watermarks added up, whichever is
 * most, and MemTotal never below 128 MiB.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/parse.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "machine/machine.h"

#define MIB (1024ULL * 1024)
#define MARGIN_MIN (64 * MIB)
#define TOTAL_MIN (128 * MIB)
/* Rounds of hugetlb reservation while the kernel still gives pages. */
#define HUGETLB_ROUNDS 4

struct plan {
	struct meminfo m0;
	uint64_t min_free_kb0, in_use, margin, floor, goal, target;
	uint64_t keep;
	uint64_t reserve; /* free but not theirs: zones_sum().locked */
	struct mem_block *blocks;
	size_t nblocks;
	uint64_t block_bytes;
	size_t *cand, ncand; /* indexes into blocks, in the order tried */
	uint64_t blocks_wanted;
	uint64_t hugetlb_planned;
	bool hugetlb_ok; /* nr_hugepages exists and pages have a size */
};

struct outcome {
	uint64_t tried, refused, timed_out;
	char *offlined; /* "memoryN,memoryM" */
	size_t offlined_n;
	uint64_t hugetlb_pages;
	uint64_t hugetlb_released; /* given back: the machine was too small */
	uint64_t offline_ns, hugetlb_ns;
	int status; /* the record could not be written: stop (said) */
};

static uint64_t min_free_kbytes(void)
{
	char *path = kpath(menv.proc, "/sys/vm/min_free_kbytes");
	uint64_t v;
	int r = kfile_read_u64(path, false, &v);

	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot read '%s'", path);
	free(path);
	return v;
}

static void zones_read(struct zone_info **z, size_t *n)
{
	int r = zoneinfo_read(z, n);

	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot read %s/zoneinfo",
			menv.proc);
}

/*
 * The zones as they stand now, in bytes: HIGH, every zone's high watermark
 * added up (what kswapd keeps free); LOCKED, the free memory the workloads
 * cannot take, in every zone what is free up to its high watermark plus
 * its protection against allocations that could come from a higher zone
 * (theirs); and FREE, what is free above that, theirs.  On a big machine
 * shrunk with hugetlb pages the small zones' protection is tens of MiB:
 * free memory there is not the workloads', and where the pool happened to
 * leave the free pages made their share vary from run to run.
 */
struct zone_sums {
	uint64_t high, locked, free;
};

static struct zone_sums zones_sum(void)
{
	struct zone_sums t = { 0, 0, 0 };
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	struct zone_info *z;
	size_t n, i;

	zones_read(&z, &n);
	for (i = 0; i < n; i++) {
		uint64_t keep = z[i].high + z[i].protect;

		t.high += z[i].high;
		t.locked += z[i].free < keep ? z[i].free : keep;
		t.free += z[i].free > keep ? z[i].free - keep : 0;
	}
	free(z);
	t.high *= page;
	t.locked *= page;
	t.free *= page;
	return t;
}

/*
 * Free memory the shrink never goes under, as the kernel stands now: twice
 * the min watermark, every zone's high watermark added up, and 64 MiB.
 */
static uint64_t margin_bytes(void)
{
	uint64_t m = 2 * min_free_kbytes() * 1024, high = zones_sum().high;

	m = m > high ? m : high;
	return m > MARGIN_MIN ? m : MARGIN_MIN;
}

static void read_meminfo(struct meminfo *m)
{
	int r = meminfo_read(m);

	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot read %s/meminfo",
			menv.proc);
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * The target as the kernel stands now: offlining blocks lowers the
 * watermarks and the lower zones' protection, and so what is locked; and
 * what is in use moves while blocks are migrated and the pool grows (per-cpu
 * lists drained, memory freed since the plan).  So: what is in use now,
 * --keep and what is locked now, never below the floor as it is now.
 */
static uint64_t target_now(const struct plan *p)
{
	struct meminfo m;
	uint64_t usable, in_use, floor;

	read_meminfo(&m);
	usable = meminfo_usable(&m);
	in_use = usable - min_u64(m.free, usable);
	floor = max_u64(in_use + margin_bytes(), TOTAL_MIN);
	return max_u64(in_use + p->keep + zones_sum().locked, floor);
}

static bool candidate(const struct mem_block *b)
{
	return !strcmp(b->state, "online") && b->removable != 0 &&
	       strcmp(b->valid_zones, "none") != 0;
}

/* The plan for KEEP into P; 0 or the exit status (said). */
static int plan_make(struct plan *p, uint64_t keep)
{
	char *hp = kpath(menv.proc, "/sys/vm/nr_hugepages");
	uint64_t usable, excess, room;
	size_t i;
	int r;

	memset(p, 0, sizeof(*p));
	read_meminfo(&p->m0);
	p->min_free_kb0 = min_free_kbytes();
	/* In use by ordinary allocations: a hugetlb pool is not in MemFree. */
	usable = meminfo_usable(&p->m0);
	p->in_use = usable - min_u64(p->m0.free, usable);
	p->margin = margin_bytes();
	p->floor = max_u64(p->in_use + p->margin, TOTAL_MIN);
	/*
	 * The workloads get KEEP above what they cannot take: memory under
	 * the high watermarks is kswapd's, and under a zone's protection is
	 * kept from them.
	 */
	p->keep = keep;
	p->reserve = zones_sum().locked;
	p->goal = p->in_use + keep + p->reserve;
	p->target = max_u64(p->goal, p->floor);
	r = mem_blocks_read(&p->blocks, &p->nblocks, &p->block_bytes);
	if (r) {
		free(hp);
		return error_ret_err(EXIT_RUN_FAILED, -r,
				     "cannot read %s/devices/system/memory",
				     menv.sys);
	}
	p->cand = xcalloc(p->nblocks + 1, sizeof(*p->cand));
	for (i = p->nblocks; i-- > 0;)
		if (candidate(&p->blocks[i]))
			p->cand[p->ncand++] = i;
	p->hugetlb_ok = p->m0.hugepage_bytes && !access(hp, F_OK);
	free(hp);

	/* Whole blocks only: never below the target, never under the margin. */
	excess = usable > p->target ? usable - p->target : 0;
	room = p->m0.free > p->margin ? p->m0.free - p->margin : 0;
	if (p->block_bytes)
		p->blocks_wanted = min_u64(
			min_u64(excess, room) / p->block_bytes, p->ncand);
	excess -= p->blocks_wanted * p->block_bytes;
	room -= p->blocks_wanted * p->block_bytes;
	if (p->hugetlb_ok)
		p->hugetlb_planned =
			min_u64(excess, room) / p->m0.hugepage_bytes;
	return 0;
}

static void plan_release(struct plan *p)
{
	free(p->blocks);
	free(p->cand);
}

static void print_blocks(const char *key, const struct plan *p, size_t from,
			 size_t to)
{
	size_t i;

	printf("%s=", key);
	for (i = from; i < to; i++)
		printf("%smemory%lu", i > from ? "," : "",
		       p->blocks[p->cand[i]].nr);
	putchar('\n');
}

static void plan_print(const struct plan *p)
{
	size_t i, first = 1;

	printf("floor_bytes=%llu\ngoal_bytes=%llu\ntarget_bytes=%llu\n"
	       "in_use_bytes=%llu\nreserve_bytes=%llu\nmargin_bytes=%llu\n"
	       "mem_total_before=%llu\n"
	       "mem_free_before=%llu\nmin_free_kbytes=%llu\nblock_bytes=%llu\n"
	       "blocks_wanted=%llu\n",
	       (unsigned long long)p->floor, (unsigned long long)p->goal,
	       (unsigned long long)p->target, (unsigned long long)p->in_use,
	       (unsigned long long)p->reserve, (unsigned long long)p->margin,
	       (unsigned long long)p->m0.total, (unsigned long long)p->m0.free,
	       (unsigned long long)p->min_free_kb0,
	       (unsigned long long)p->block_bytes,
	       (unsigned long long)p->blocks_wanted);
	print_blocks("plan_blocks", p, 0, p->blocks_wanted);
	print_blocks("spare_blocks", p, p->blocks_wanted, p->ncand);
	printf("skipped_blocks=");
	for (i = 0; i < p->nblocks; i++) {
		const struct mem_block *b = &p->blocks[i];

		if (!strcmp(b->state, "online") && !candidate(b)) {
			printf("%smemory%lu", first ? "" : ",", b->nr);
			first = 0;
		}
	}
	printf("\nhugepage_bytes=%llu\nhugetlb_pages_planned=%llu\n",
	       (unsigned long long)p->m0.hugepage_bytes,
	       (unsigned long long)p->hugetlb_planned);
}

/* With -v: "<prog>: <message>[: strerror(ERRNUM)]" on stderr. */
static PRINTF_LIKE(2, 0) void vsay(int errnum, const char *fmt, va_list ap)
{
	char buf[512];

	if (!menv.verbose)
		return;
	vformat_err(buf, sizeof(buf), errnum, fmt, ap);
	inform("%s", buf);
}

static void say(const char *fmt, ...) PRINTF_LIKE(1, 2);
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(0, fmt, ap);
	va_end(ap);
}

static void say_err(int errnum, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void say_err(int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(errnum, fmt, ap);
	va_end(ap);
}

/* Record LINE for the run (at *AT); 0 or the exit status (said). */
static int append_locked(int dirfd, pid_t owner, const char *line, off_t *at)
{
	struct record r;
	int status = state_lock(dirfd);

	if (!status)
		status = record_load_owned(dirfd, owner, &r);
	if (!status) {
		status = record_append(&r, line, at);
		record_release(&r);
	}
	state_unlock(dirfd);
	return status;
}

static int withdraw_locked(int dirfd, off_t at, const char *line)
{
	int status = state_lock(dirfd);

	if (!status)
		status = record_withdraw(dirfd, at, line);
	state_unlock(dirfd);
	return status;
}

/* Try to take block B offline; true when it went. */
static bool offline_one(int dirfd, const struct shrink_opts *o,
			const struct mem_block *b, struct outcome *out)
{
	char *path = mem_block_state_path(b->nr), state[16] = "", dur[32];
	char *line = xasprintf("online\tmemory%lu", b->nr);
	uint64_t t0 = mono_ns(), dt;
	off_t at = 0;
	int r;
	bool gone;

	/* Never a change without its entry. */
	out->status = append_locked(dirfd, o->owner, line, &at);
	if (out->status) {
		free(line);
		free(path);
		return false;
	}
	r = kfile_write(path, "offline", o->timeout_ns);

	dt = mono_ns() - t0;
	out->tried++;
	gone = kfile_read(path, state, sizeof(state)) >= 0 &&
	       !strcmp(state, "offline");
	if (gone) {
		char *l = xasprintf("%s%smemory%lu",
				    out->offlined ? out->offlined : "",
				    out->offlined ? "," : "", b->nr);

		free(out->offlined);
		out->offlined = l;
		out->offlined_n++;
		say("memory%lu offline in %s", b->nr, fmt_duration(dur, dt));
	} else {
		if (r == -ETIMEDOUT)
			out->timed_out++;
		else
			out->refused++;
		if (r && r != -ETIMEDOUT)
			say_err(-r, "memory%lu stays online after %s", b->nr,
				fmt_duration(dur, dt));
		else
			say("memory%lu stays online after %s: %s", b->nr,
			    fmt_duration(dur, dt),
			    r ? "timed out"
			      : "the kernel did not take it offline");
		/* Unchanged: its entry would only be noise at restore. */
		if (!strcmp(state, "online"))
			out->status = withdraw_locked(dirfd, at, line);
	}
	free(line);
	free(path);
	return gone;
}

static void offline_blocks(int dirfd, const struct shrink_opts *o,
			   const struct plan *p, struct outcome *out)
{
	uint64_t t0 = mono_ns();
	size_t i;

	for (i = 0; i < p->ncand && !sig_stop && !out->status; i++) {
		struct meminfo m;
		uint64_t margin = margin_bytes();

		read_meminfo(&m);
		if (meminfo_usable(&m) < target_now(p) + p->block_bytes)
			break;
		if (m.free < margin + p->block_bytes) {
			say("stopping: one more block would leave MemFree "
			    "under %llu bytes",
			    (unsigned long long)margin);
			break;
		}
		offline_one(dirfd, o, &p->blocks[p->cand[i]], out);
	}
	out->offline_ns = mono_ns() - t0;
}

/*
 * The hugetlb pool before this run first grew it: the oldest "hugepages N"
 * entry of the run's record, or none (false).
 */
static bool recorded_pool(int dirfd, uint64_t *pool)
{
	struct record r;
	bool found = false;
	size_t i;

	if (!state_lock(dirfd) && !record_load(dirfd, &r)) {
		for (i = 0; i < r.n && !found; i++)
			if (!strcmp(r.e[i].field[0], "hugepages") &&
			    r.e[i].nfield == 2 &&
			    !parse_u64(r.e[i].field[1], pool))
				found = true;
		record_release(&r);
	}
	state_unlock(dirfd);
	return found;
}

static void reserve_hugetlb(int dirfd, const struct shrink_opts *o,
			    const struct plan *p, struct outcome *out)
{
	char *path = kpath(menv.proc, "/sys/vm/nr_hugepages"), *line = NULL,
	     buf[32];
	uint64_t t0 = mono_ns(), hp = p->m0.hugepage_bytes, old = 0, pool;
	off_t at = -1;
	int round;

	for (round = 0; round < HUGETLB_ROUNDS && !sig_stop && !out->status;
	     round++) {
		struct meminfo m, m2;
		uint64_t margin = margin_bytes(), want, cap;
		uint64_t nr, target = target_now(p);
		int r;

		read_meminfo(&m);
		want = meminfo_usable(&m) > target
			       ? (meminfo_usable(&m) - target) / hp
			       : 0;
		cap = m.free > margin ? (m.free - margin) / hp : 0;
		if (!min_u64(want, cap))
			break;
		r = kfile_read_u64(path, false, &nr);
		if (r) {
			out->status = error_ret_err(EXIT_RUN_FAILED, -r,
						    "cannot read '%s'", path);
			break;
		}
		if (!line) {
			old = nr;
			line = xasprintf("hugepages\t%llu",
					 (unsigned long long)nr);
			/*
			 * One entry, the pool the run found: a shrink again
			 * must not record its own starting point, or a
			 * restore would set a pool back that was grown
			 * between two runs (and may no longer be free).
			 */
			if (recorded_pool(dirfd, &pool))
				at = -1;
			else
				out->status = append_locked(dirfd, o->owner,
							    line, &at);
			if (out->status)
				break;
		}
		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)(nr + min_u64(want, cap)));
		r = kfile_write(path, buf, 0);
		if (r) {
			out->status = error_ret_err(EXIT_RUN_FAILED, -r,
						    "cannot write '%s'", path);
			break;
		}
		read_meminfo(&m2);
		say("hugetlb round %d: asked for %llu pages, have %llu",
		    round + 1, (unsigned long long)min_u64(want, cap),
		    (unsigned long long)(m2.hugepages_total -
					 m.hugepages_total));
		/* Go on only while the kernel still gives memory up. */
		if (m2.hugepages_total <= m.hugepages_total ||
		    m2.free >= m.free)
			break;
	}
	if (line) {
		struct meminfo m;
		uint64_t nr = 0;

		read_meminfo(&m);
		out->hugetlb_pages =
			m.hugepages_total > p->m0.hugepages_total
				? m.hugepages_total - p->m0.hugepages_total
				: 0;
		if (!out->status && at >= 0 &&
		    !kfile_read_u64(path, false, &nr) && nr == old)
			out->status = withdraw_locked(dirfd, at, line);
	}
	free(line);
	free(path);
	out->hugetlb_ns = mono_ns() - t0;
}

/*
 * A shrink again, when the machine is now smaller than the target (what
 * was in use has grown since): give back hugetlb pages this run reserved,
 * never below the pool it found, so that every run starts with the same
 * free memory.  Blocks stay offline (they are the mem= part of the plan).
 */
static void release_hugetlb(int dirfd, const struct plan *p,
			    struct outcome *out)
{
	char *path = kpath(menv.proc, "/sys/vm/nr_hugepages"), buf[32];
	uint64_t hp = p->m0.hugepage_bytes, pool;
	int round;

	if (!hp || !recorded_pool(dirfd, &pool))
		goto out;
	/*
	 * In rounds: a page given back may land in a zone whose protection
	 * keeps it from the workloads.
	 */
	for (round = 0; round < HUGETLB_ROUNDS; round++) {
		uint64_t target = target_now(p), usable, nr, give;
		struct meminfo m;
		int r;

		read_meminfo(&m);
		usable = meminfo_usable(&m);
		if (usable + hp > target || kfile_read_u64(path, false, &nr) ||
		    nr <= pool)
			break;
		give = min_u64((target - usable) / hp, nr - pool);
		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)(nr - give));
		r = kfile_write(path, buf, 0);
		if (r) {
			out->status = error_ret_err(EXIT_RUN_FAILED, -r,
						    "cannot write '%s'", path);
			break;
		}
		out->hugetlb_released += give;
		say("gave back %llu huge pages: the machine was under the "
		    "target",
		    (unsigned long long)give);
	}
out:
	free(path);
}

/* The mem= that would give the target: the kernel's own share on top. */
static uint64_t mem_boot_mib(const struct plan *p)
{
	uint64_t present = 0, reserved = 0;
	size_t i;

	for (i = 0; i < p->nblocks; i++)
		if (!strcmp(p->blocks[i].state, "online"))
			present += p->block_bytes;
	if (present > p->m0.total)
		reserved = present - p->m0.total;
	return (p->target + reserved + MIB - 1) / MIB;
}

static void report(const struct plan *p, const struct outcome *out)
{
	struct meminfo m;
	uint64_t tol, usable, target = target_now(p);
	struct zone_sums zs = zones_sum();
	char s1[32], s2[32];
	bool reached;

	read_meminfo(&m);
	usable = meminfo_usable(&m);
	tol = p->hugetlb_ok ? p->m0.hugepage_bytes : p->block_bytes;
	reached = usable < target + max_u64(tol, 1);
	s1[fmt_ns_fixed(s1, out->offline_ns, 3)] = '\0';
	s2[fmt_ns_fixed(s2, out->hugetlb_ns, 3)] = '\0';
	printf("floor_bytes=%llu\ngoal_bytes=%llu\noffline_blocks=%zu\n"
	       "offline_bytes=%llu\nhugetlb_pages=%llu\nhugetlb_bytes=%llu\n"
	       "mem_total_before=%llu\nmem_total_after=%llu\n"
	       "mem_free_after=%llu\nreached=%s\n",
	       (unsigned long long)p->floor, (unsigned long long)p->goal,
	       out->offlined_n,
	       (unsigned long long)(out->offlined_n * p->block_bytes),
	       (unsigned long long)out->hugetlb_pages,
	       (unsigned long long)(out->hugetlb_pages * p->m0.hugepage_bytes),
	       (unsigned long long)p->m0.total, (unsigned long long)m.total,
	       (unsigned long long)m.free, reached ? "yes" : "no");
	printf("target_bytes=%llu\nin_use_bytes=%llu\nreserve_bytes=%llu\n"
	       "margin_bytes=%llu\nusable_after=%llu\n"
	       "min_free_kbytes_before=%llu\n"
	       "min_free_kbytes_after=%llu\nblocks_tried=%llu\n"
	       "blocks_refused=%llu\nblocks_timed_out=%llu\nofflined=%s\n"
	       "offline_s=%s\nhugetlb_s=%s\n",
	       (unsigned long long)target, (unsigned long long)p->in_use,
	       (unsigned long long)p->reserve, (unsigned long long)p->margin,
	       (unsigned long long)usable, (unsigned long long)p->min_free_kb0,
	       (unsigned long long)min_free_kbytes(),
	       (unsigned long long)out->tried, (unsigned long long)out->refused,
	       (unsigned long long)out->timed_out,
	       out->offlined ? out->offlined : "", s1, s2);
	printf("hugetlb_released=%llu\nreserve_after_bytes=%llu\n"
	       "workload_free_bytes=%llu\n",
	       (unsigned long long)out->hugetlb_released,
	       (unsigned long long)zs.locked, (unsigned long long)zs.free);
	if (!reached && !sig_stop)
		inform("could not shrink to %llu MiB (%llu MiB left usable: "
		       "%zu blocks offline, %llu hugetlb pages); for this "
		       "pressure boot with mem=%lluM",
		       (unsigned long long)(target / MIB),
		       (unsigned long long)(usable / MIB), out->offlined_n,
		       (unsigned long long)out->hugetlb_pages,
		       (unsigned long long)mem_boot_mib(p));
}

/* Exit 3 unless the kernel files the shrink writes can be written. */
static int check_writable(const struct plan *p)
{
	char *path;
	int status = 0;

	if (!p->ncand && !p->hugetlb_ok)
		return error_ret(EXIT_UNSUPPORTED,
				 "no memory block can go offline and there are "
				 "no hugetlb pages here; boot with mem=%lluM",
				 (unsigned long long)mem_boot_mib(p));
	path = p->ncand ? mem_block_state_path(p->blocks[p->cand[0]].nr)
			: kpath(menv.proc, "/sys/vm/nr_hugepages");
	if (access(path, W_OK))
		status = error_ret_errno(
			EXIT_UNSUPPORTED,
			"cannot write '%s' (shrink needs root)", path);
	free(path);
	return status;
}

int shrink_run(const struct shrink_opts *o)
{
	struct outcome out;
	struct plan p;
	struct record r;
	int dirfd, status;

	status = plan_make(&p, o->keep_bytes);
	if (!status && o->dry_run)
		plan_print(&p);
	if (!status && !o->dry_run)
		status = check_writable(&p);
	if (status || o->dry_run) {
		plan_release(&p);
		return status;
	}
	status = state_open_locked(&dirfd);
	if (status) {
		plan_release(&p);
		return status;
	}
	status = record_load_owned(dirfd, o->owner, &r);
	if (status) {
		plan_release(&p);
		(void)close(dirfd); /* also drops the lock */
		return status;
	}
	record_release(&r);
	state_unlock(dirfd);
	if (sig_stop_install()) {
		plan_release(&p);
		(void)close(dirfd); /* read-only */
		return error_ret_errno(EXIT_RUN_FAILED,
				       "cannot install signal handlers");
	}

	memset(&out, 0, sizeof(out));
	if (p.hugetlb_ok)
		release_hugetlb(dirfd, &p, &out);
	if (p.block_bytes)
		offline_blocks(dirfd, o, &p, &out);
	if (p.hugetlb_ok && !sig_stop && !out.status)
		reserve_hugetlb(dirfd, o, &p, &out);
	report(&p, &out);
	free(out.offlined);
	plan_release(&p);
	(void)close(dirfd);
	if (out.status)
		return out.status;
	return sig_stop ? EXIT_SIGNAL(sig_stop) : EXIT_OK;
}
