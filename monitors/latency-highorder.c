// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-highorder: how often, and how fast, the kernel hands out
 * high-order pages while the workloads run.  At a fixed pace it faults in
 * one naturally aligned madvise(MADV_HUGEPAGE) region at each transparent
 * huge page order the kernel offers (the PMD order and the multi-size THP
 * orders that are enabled, or that --orders enables for the run), times the
 * fault on CLOCK_MONOTONIC, checks from /proc/self/pagemap and
 * /proc/kpageflags whether that very region got a huge page of its order,
 * and frees it.  Only one region exists at a time, so the probe holds at
 * most one huge page.  It reports per order attempts, successes and fault
 * latency, and the kernel's compaction counters over the run.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/hist.h"
#include "lib/kparse.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "monitors/highorder.h"
#include "monitors/monitor.h"

enum {
	OPT_COUNT = OPT_MONITOR_FIRST,
	OPT_ORDERS,
	OPT_OWNER,
};

/* clang-format off */
static const struct option long_options[] = {
	MONITOR_LONG_OPTIONS,
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "orders", required_argument, NULL, OPT_ORDERS },
	{ "owner", required_argument, NULL, OPT_OWNER },
	OPT_LONG_END
};
/* clang-format on */
static const char short_options[] = MONITOR_SHORT_OPTIONS "i:";

/* /proc/self/pagemap entries and /proc/kpageflags bits (kernel ABI,
 * Documentation/admin-guide/mm/pagemap.rst). */
#define PM_PRESENT (1ULL << 63)
#define PM_PFN_MASK ((1ULL << 55) - 1)
#define KPF_COMPOUND_HEAD (1ULL << 15)
#define KPF_COMPOUND_TAIL (1ULL << 16)
#define KPF_THP (1ULL << 22)

/* The /proc/vmstat counters reported as changes over the run. */
static const char *const vm_keys[] = {
	"compact_stall",	"compact_fail",
	"compact_success",	"compact_migrate_scanned",
	"compact_free_scanned", "compact_isolated",
	"compact_daemon_wake",	"thp_fault_alloc",
	"thp_fault_fallback",	"thp_fault_fallback_charge",
	"thp_split_page",	"pgmajfault",
};
#define N_VM (sizeof(vm_keys) / sizeof(vm_keys[0]))

struct ho {
	struct monitor m;
	struct ho_thp thp;
	struct ho_machine mc;
	bool csv; /* --format csv: the summary as a table */
	uint64_t interval_ns;
	uint64_t count;	   /* --count, 0 for no limit */
	bool orders_given; /* --orders */
	bool want[HO_MAX_ORDER + 1];
	size_t page;
	int pagemap_fd, kpageflags_fd;
	uint64_t *pm, *kf; /* one region's entries, for the largest order */
	uint64_t rounds, late;
	uint64_t max_region;
	struct hist *all; /* every fault */
	bool vm_have[N_VM];
	uint64_t vm_first[N_VM], vm_last[N_VM];
	int restore_status;
};

/* For the atexit restore, which must also run when a die() ends the run. */
static struct ho *cleanup_ho;

static void usage(int status)
{
	if (status != EXIT_OK)
		usage_error(NULL);
	/* clang-format off */
	printf("Usage: %s [OPTION]...\n"
	       "Fault in a naturally aligned madvise(MADV_HUGEPAGE) region at each\n"
	       "transparent huge page order at a fixed pace, and report how often it got a\n"
	       "huge page of that order and how long the fault took (needs root).\n"
	       "\n"
	       "  -i, --interval=TIME  time between probe rounds (default 100ms)\n"
	       "      --count=N        stop after N rounds (one attempt per order each)\n"
	       "      --orders=LIST    probe these orders (e.g. 2,4,9), enabling the ones\n"
	       "                       that are not (madvise) for the run; default: every\n"
	       "                       enabled order\n"
	       "      --owner=PID      record setting changes in run PID's machine-state\n"
	       "                       record (default: a record of our own)\n"
	       "%s"
	       "--format=csv writes the summary file as a table, one row per order.\n"
	       "\n"
	       "Environment: LATENCY_SYS (default /sys), LATENCY_MACHINE (default\n"
	       "latency-machine), LATENCY_STATE_DIR.\n"
	       "Durations: 250ms, 10s, 2m.\n",
	       progname(), monitor_common_help);
	/* clang-format on */
	exit(EXIT_OK);
}

/* --orders: a comma-separated list of orders 1..HO_MAX_ORDER. */
static void parse_orders(struct ho *h, const char *arg)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	uint64_t v;

	if (!*arg)
		usage_error("--orders needs a list of orders (e.g. 2,4,9)");
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (parse_u64(tok, &v) || v < 1 || v > HO_MAX_ORDER)
			usage_error("invalid order '%s' in --orders '%s' "
				    "(expected 1 to %d)",
				    tok, arg, HO_MAX_ORDER);
		h->want[v] = true;
	}
	if (arg[strlen(arg) - 1] == ',' || arg[0] == ',' || strstr(arg, ",,"))
		usage_error("invalid --orders '%s' (an empty order)", arg);
	free(copy);
	h->orders_given = true;
}

static void parse_options(struct ho *h, int argc, char **argv)
{
	enum out_format f;
	int opt;

	while ((opt = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1) {
		/* The monitor frame knows text and json; csv is ours.  A
		 * bad value is refused now, before anything is changed. */
		if (opt == OPT_FORMAT) {
			f = opt_format(optarg, FORMAT_TEXT, true);
			h->csv = f == FORMAT_CSV;
			if (h->csv) {
				h->m.oc.format = NULL;
				continue;
			}
		}
		if (monitor_handle_opt(&h->m, opt, optarg, usage))
			continue;
		switch (opt) {
		case 'i':
			h->interval_ns = monitor_opt_interval(optarg);
			break;
		case OPT_COUNT:
			h->count = opt_u64("--count", optarg, 1, UINT32_MAX);
			break;
		case OPT_ORDERS:
			parse_orders(h, optarg);
			break;
		case OPT_OWNER:
			h->mc.owner =
				(pid_t)opt_u64("--owner", optarg, 1, INT32_MAX);
			h->mc.own_record = false;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
}

/* Choose the orders to probe; dies with 3 when there is none. */
static void select_orders(struct ho *h)
{
	struct ho_thp *t = &h->thp;
	char offered[128] = "";
	size_t i, n = 0, len = 0;
	unsigned k;

	for (i = 0; i < t->n; i++)
		len += (size_t)snprintf(offered + len, sizeof(offered) - len,
					"%s%u", len ? "," : "", t->o[i].order);
	for (k = 1; k <= HO_MAX_ORDER; k++)
		if (h->want[k] && !ho_thp_find(t, k))
			die(EXIT_UNSUPPORTED,
			    "order %u is not a transparent huge page size of "
			    "this kernel (it offers %s)",
			    k, offered);
	for (i = 0; i < t->n; i++) {
		struct ho_order *o = &t->o[i];

		o->probe = h->orders_given ? h->want[o->order] : o->effective;
		if (!o->probe)
			continue;
		n++;
		o->fault = xmalloc(sizeof(*o->fault));
		hist_init(o->fault);
		if (o->bytes > h->max_region)
			h->max_region = o->bytes;
	}
	if (!n)
		die(EXIT_UNSUPPORTED,
		    "no transparent huge page size is enabled in '%s' "
		    "(enabled=%s; orders offered: %s); --orders enables some "
		    "for the run",
		    t->dir, t->global, offered);
}

/* Our own pages' frames and flags: readable by root only. */
static void open_page_info(struct ho *h)
{
	size_t n = h->max_region / h->page;

	h->pagemap_fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (h->pagemap_fd < 0)
		die_errno(EXIT_UNSUPPORTED, "cannot open '/proc/self/pagemap'");
	h->kpageflags_fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (h->kpageflags_fd < 0)
		die_errno(EXIT_UNSUPPORTED, "cannot open '/proc/kpageflags'%s",
			  geteuid() ? " (needs root)" : "");
	if (prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) > 0)
		die(EXIT_UNSUPPORTED,
		    "transparent huge pages are disabled for "
		    "this process (prctl PR_SET_THP_DISABLE)");
	h->pm = xreallocarray(NULL, n, sizeof(*h->pm));
	h->kf = xreallocarray(NULL, n, sizeof(*h->kf));
}

/* pread all of LEN bytes at OFF.  Returns 0 or -errno (-EIO when short). */
static int pread_all(int fd, void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done,
				  off + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}

/*
 * The order of the page the fault at P mapped (P starts a region of
 * 2^ORDER pages): the number of pages of one transparent huge page mapped
 * at consecutive frames from P, as a power of two; 0 for a small page.
 */
static unsigned folio_order(struct ho *h, const char *p, unsigned order)
{
	size_t n = (size_t)1 << order, m, i;
	uint64_t pfn0;
	unsigned k = 0;
	int r;

	r = pread_all(h->pagemap_fd, h->pm, n * sizeof(*h->pm),
		      (off_t)((uintptr_t)p / h->page * sizeof(*h->pm)));
	if (r)
		die_err(EXIT_RUN_FAILED, -r,
			"cannot read '/proc/self/pagemap'");
	/* Reclaimed already (a swapped-out page is not present). */
	if (!(h->pm[0] & PM_PRESENT))
		return 0;
	pfn0 = h->pm[0] & PM_PFN_MASK;
	if (!pfn0)
		die(EXIT_UNSUPPORTED, "'/proc/self/pagemap' hides page frame "
				      "numbers (needs CAP_SYS_ADMIN)");
	for (m = 1; m < n && (h->pm[m] & PM_PRESENT) &&
		    (h->pm[m] & PM_PFN_MASK) == pfn0 + m;
	     m++)
		;
	r = pread_all(h->kpageflags_fd, h->kf, m * sizeof(*h->kf),
		      (off_t)(pfn0 * sizeof(*h->kf)));
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot read '/proc/kpageflags'");
	if ((h->kf[0] & (KPF_COMPOUND_HEAD | KPF_THP)) !=
	    (KPF_COMPOUND_HEAD | KPF_THP))
		return 0;
	for (i = 1; i < m && (h->kf[i] & KPF_COMPOUND_TAIL); i++)
		;
	while (i >>= 1)
		k++;
	return k;
}

/* One attempt at O: map, fault, check, free. */
static void probe(struct ho *h, struct ho_order *o)
{
	size_t size = (size_t)o->bytes, span = 2 * size;
	char *raw, *p;
	uint64_t t0, t1;
	unsigned got;
	char num[32];

	raw = mmap(NULL, span, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (raw == MAP_FAILED)
		die_errno(EXIT_RUN_FAILED, "cannot map %zu bytes", span);
	/* Keep exactly the aligned region, so the fault may use the whole
	 * of it and nothing larger. */
	p = (char *)(((uintptr_t)raw + size - 1) & ~(uintptr_t)(size - 1));
	if ((p > raw && munmap(raw, (size_t)(p - raw))) ||
	    (p + size < raw + span &&
	     munmap(p + size, (size_t)(raw + span - (p + size)))))
		die_errno(EXIT_RUN_FAILED, "cannot unmap");
	if (madvise(p, size, MADV_HUGEPAGE))
		die_errno(EXIT_UNSUPPORTED, "madvise(MADV_HUGEPAGE) failed");
	t0 = mono_ns();
	*(volatile char *)p = 1;
	t1 = mono_ns();
	got = folio_order(h, p, o->order);
	if (munmap(p, size))
		die_errno(EXIT_RUN_FAILED, "cannot unmap");
	o->attempts++;
	if (got == o->order)
		o->successes++;
	else
		o->got[got]++;
	hist_add(o->fault, t1 - t0);
	hist_add(h->all, t1 - t0);
	num[fmt_ns_fixed(num, t1 - t0, 9)] = '\0';
	monitor_emit(&h->m, t1,
		     "order=%u attempt=%" PRIu64 " success=%d got_order=%u "
		     "fault_s=%s",
		     o->order, o->attempts, got == o->order, got, num);
}

static void read_vmstat(struct ho *h, bool first)
{
	char buf[65536];
	ssize_t n = read_small_file("/proc/vmstat", buf, sizeof(buf));
	uint64_t v[N_VM];
	bool have[N_VM];
	size_t i, bad;
	int r;

	if (n < 0)
		die_err(EXIT_RUN_FAILED, (int)-n, "cannot read '/proc/vmstat'");
	r = kparse_kv_pick(buf, (size_t)n, vm_keys, N_VM, v, have, &bad);
	if (r)
		die(EXIT_RUN_FAILED, "cannot parse '/proc/vmstat': %s: %s",
		    vm_keys[bad], kparse_strerror(r));
	for (i = 0; i < N_VM; i++) {
		if (!have[i]) {
			if (first)
				h->vm_have[i] = false;
			continue;
		}
		if (first) {
			h->vm_have[i] = true;
			h->vm_first[i] = v[i];
		}
		h->vm_last[i] = v[i];
	}
}

/*
 * Rounds at start + k * interval, k = 0, 1, ..., each probing every order
 * once, ascending; until --count rounds, the --duration end or a stop
 * signal.  A late round does not move the deadlines after it.
 */
static void run(struct ho *h)
{
	uint64_t k, deadline, start = mono_ns();
	size_t i;

	/* From now: recording and enabling sizes took time. */
	for (k = 0; !h->count || k < h->count; k++) {
		deadline = start + k * h->interval_ns;
		if (deadline >= h->m.end_ns) {
			(void)sleep_until_ns(h->m.end_ns, &sig_stop);
			break;
		}
		if (sleep_until_ns(deadline, &sig_stop))
			break;
		if (mono_ns() > deadline + h->interval_ns / 2)
			h->late++;
		for (i = 0; i < h->thp.n && !sig_stop; i++)
			if (h->thp.o[i].probe)
				probe(h, &h->thp.o[i]);
		if (sig_stop || h->m.emit_err) /* told to stop, or mute */
			break;
		h->rounds++;
	}
	if (h->count && h->rounds == h->count)
		h->m.end_reason = "count";
	(void)monitor_done(&h->m, mono_ns()); /* records a stop signal */
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static double hist_us(const struct hist *h, double p)
{
	return (double)(p >= 100 ? h->max_ns : hist_percentile(h, p)) / 1e3;
}

static void summarise_order(struct msum *sum, const struct ho_order *o)
{
	char key[64];
	unsigned g;

#define KEY(name) (snprintf(key, sizeof(key), "order_%u_" name, o->order), key)
	msum_str(sum, KEY("setting"), o->setting);
	msum_bool(sum, KEY("changed"), o->changed);
	msum_u64(sum, KEY("attempts"), o->attempts);
	msum_u64(sum, KEY("successes"), o->successes);
	msum_double(sum, KEY("success_pct"), pct(o->successes, o->attempts));
	msum_double(sum, KEY("fault_p50_us"), hist_us(o->fault, 50));
	msum_double(sum, KEY("fault_p99_us"), hist_us(o->fault, 99));
	msum_double(sum, KEY("fault_max_us"), hist_us(o->fault, 100));
#undef KEY
	for (g = 0; g < o->order; g++)
		if (o->got[g]) {
			snprintf(key, sizeof(key), "order_%u_got_order_%u",
				 o->order, g);
			msum_u64(sum, key, o->got[g]);
		}
}

static void summarise(struct ho *h)
{
	struct msum *sum = &h->m.sum;
	char list[128] = "", key[64];
	uint64_t cpu = cpu_ns(), dur = mono_ns() - h->m.start_ns;
	size_t i, len = 0;

	for (i = 0; i < h->thp.n; i++)
		if (h->thp.o[i].probe)
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%u", len ? "," : "",
						h->thp.o[i].order);
	msum_str(sum, "orders", list);
	msum_str(sum, "detection", "kpageflags");
	msum_str(sum, "thp_enabled", h->thp.global);
	msum_str(sum, "thp_defrag", h->thp.defrag);
	msum_u64(sum, "page_size_bytes", h->page);
	msum_ns(sum, "interval_s", h->interval_ns);
	msum_u64(sum, "rounds", h->rounds);
	msum_u64(sum, "late_rounds", h->late);
	for (i = 0; i < h->thp.n; i++)
		if (h->thp.o[i].probe)
			summarise_order(sum, &h->thp.o[i]);
	msum_double(sum, "fault_p50_us", hist_us(h->all, 50));
	msum_double(sum, "fault_p99_us", hist_us(h->all, 99));
	msum_double(sum, "fault_max_us", hist_us(h->all, 100));
	for (i = 0; i < N_VM; i++) {
		if (!h->vm_have[i])
			continue;
		snprintf(key, sizeof(key), "%s_delta", vm_keys[i]);
		msum_u64(sum, key,
			 h->vm_last[i] >= h->vm_first[i]
				 ? h->vm_last[i] - h->vm_first[i]
				 : 0);
	}
	msum_u64(sum, "max_region_bytes", h->max_region);
	msum_ns(sum, "cpu_s", cpu);
	msum_double(sum, "cpu_pct", pct(cpu, dur));
	msum_bool(sum, "settings_restored", h->restore_status == 0);
}

/* --format csv: one row per probed order, atomically to --summary. */
static int write_csv(struct ho *h)
{
	struct atomic_file af;
	size_t i;
	int r;

	r = atomic_open(&af, h->m.summary_path);
	if (r)
		return r;
	fputs("order,bytes,setting,changed,attempts,successes,success_pct,"
	      "fault_p50_us,fault_p99_us,fault_max_us\n",
	      af.f);
	for (i = 0; i < h->thp.n; i++) {
		const struct ho_order *o = &h->thp.o[i];

		if (!o->probe)
			continue;
		fprintf(af.f, "%u,%" PRIu64 ",", o->order, o->bytes);
		csv_field(af.f, o->setting, ',');
		fprintf(af.f,
			"%s,%" PRIu64 ",%" PRIu64 ",%.1f,%.2f,%.2f,%.2f\n",
			o->changed ? "yes" : "no", o->attempts, o->successes,
			pct(o->successes, o->attempts), hist_us(o->fault, 50),
			hist_us(o->fault, 99), hist_us(o->fault, 100));
	}
	r = atomic_commit(&af);
	if (r)
		atomic_abort(&af);
	return r;
}

static void cleanup(void)
{
	struct ho *h = cleanup_ho;

	if (!h)
		return;
	cleanup_ho = NULL;
	if (ho_thp_restore(&h->thp, &h->mc))
		h->restore_status = -1;
}

int main(int argc, char **argv)
{
	const char *machine = getenv("LATENCY_MACHINE");
	static struct ho h;
	int status, r;

	prog_init(argc, argv);
	monitor_init(&h.m);
	h.interval_ns = 100 * NSEC_PER_MSEC;
	h.mc.prog = machine && *machine ? machine : "latency-machine";
	h.mc.owner = getpid();
	h.mc.own_record = true;
	h.pagemap_fd = h.kpageflags_fd = -1;
	parse_options(&h, argc, argv);
	h.page = (size_t)sysconf(_SC_PAGESIZE);
	status = ho_thp_discover(&h.thp, h.page);
	if (status)
		return status;
	select_orders(&h);
	open_page_info(&h);
	h.all = xmalloc(sizeof(*h.all));
	hist_init(h.all);
	status = monitor_start(&h.m, argc, argv, NULL);
	if (status)
		return status;
	cleanup_ho = &h;
	atexit(cleanup);
	if (h.orders_given && (status = ho_thp_enable(&h.thp, &h.mc)))
		return status; /* the atexit cleanup sets back what changed */
	read_vmstat(&h, true);
	/* Drivers and tests wait for this line. */
	monitor_emit(&h.m, mono_ns(), "started=1 page_size=%zu", h.page);
	run(&h);
	read_vmstat(&h, false);
	cleanup();
	summarise(&h);
	status = EXIT_OK;
	if (h.csv && h.m.summary_path) {
		r = write_csv(&h);
		if (r) {
			errno = -r;
			error_errno("cannot write '%s'", h.m.summary_path);
			status = EXIT_RUN_FAILED;
		}
		h.m.summary_path = NULL;
	}
	r = monitor_finish(&h.m);
	if (r || h.restore_status)
		status = EXIT_RUN_FAILED;
	ho_thp_release(&h.thp);
	free(h.all);
	free(h.pm);
	free(h.kf);
	return status;
}
