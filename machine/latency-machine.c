// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-machine: the one record of what a latency-tests run changes on
 * the machine, and its undo (doc/design.md, contract 5).  The driver calls
 * `begin` at start (which first undoes a dead run's record), `record`
 * before each change (swap, cgroup, sysctl, sysfs knob, memory block,
 * hugetlb pool, background process), and `restore` at exit, error and
 * signal.  `shrink` applies global memory pressure like a mem= boot and
 * records its own changes; `show` prints the kernel's view of memory.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/knob.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "machine/machine.h"

enum {
	OPT_OWNER = OPT_PROG_FIRST,
	OPT_KEEP,
	OPT_DRY_RUN,
	OPT_TIMEOUT,
	OPT_ROOT,
	OPT_CACHE,
};

/* clang-format off */
static const struct option long_options[] = {
	OPT_LONG_HELP,
	OPT_LONG_VERSION,
	OPT_LONG_VERBOSE,
	OPT_LONG_FORMAT,
	{ "owner", required_argument, NULL, OPT_OWNER },
	{ "keep", required_argument, NULL, OPT_KEEP },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "cache", no_argument, NULL, OPT_CACHE },
	OPT_LONG_END
};
/* clang-format on */
/* "+": options stop at the command, and at record's KIND. */
static const char short_options[] = "+" OPT_SHORT_HELP OPT_SHORT_VERBOSE;

/* The options a command may or must take, as bits. */
enum {
	HAS_OWNER = 1 << 0,
	HAS_KEEP = 1 << 1,
	HAS_DRY_RUN = 1 << 2,
	HAS_TIMEOUT = 1 << 3,
	HAS_FORMAT = 1 << 4,
	HAS_ROOT = 1 << 5,
	HAS_CACHE = 1 << 6,
};

struct cmdline {
	struct opt_common oc;
	unsigned seen;
	pid_t owner;
	uint64_t keep_bytes;
	uint64_t timeout_ns;
	bool dry_run, cache;
	const char *roots[RECORD_ROOTS_MAX];
	size_t nroots;
	char **args; /* after the command and its options */
	int nargs;
};

struct command {
	const char *name;
	unsigned allowed, required;
	bool takes_args;
	int (*run)(const struct cmdline *cl, struct run_info *ri);
};

static void usage(int status)
{
	if (status)
		usage_error(NULL);
	/* clang-format off */
	printf("Usage: latency-machine begin --owner=PID [--root=DIR]...\n"
	       "  or:  latency-machine record --owner=PID KIND [ARG]...\n"
	       "  or:  latency-machine set --owner=PID NAME VALUE\n"
	       "  or:  latency-machine swapon --owner=PID PATH\n"
	       "  or:  latency-machine swapfile --owner=PID [--cache] PATH SIZE\n"
	       "  or:  latency-machine zram --owner=PID SIZE [ALGORITHM]\n"
	       "  or:  latency-machine cgroup --owner=PID PATH LIMIT\n"
	       "  or:  latency-machine cgroup-exec --owner=PID PATH COMMAND [ARG]...\n"
	       "  or:  latency-machine drop-caches --owner=PID [SWAP]\n"
	       "  or:  latency-machine restore [--owner=PID]\n"
	       "  or:  latency-machine show [--format=FORMAT]\n"
	       "  or:  latency-machine shrink --owner=PID --keep=SIZE [--dry-run] [--timeout=TIME]\n"
	       "Keep the one record of what a latency-tests run changes on the machine, and\n"
	       "undo it at the end or, after a crash, at the start of the next run.\n"
	       "\n"
	       "  --owner=PID       the run (driver process) the record belongs to\n"
	       "  --root=DIR        begin: a directory the run makes files in (its scratch,\n"
	       "                    its cache); only files inside one may be removed\n"
	       "  --cache           swapfile: keep the file for later runs (reused when it\n"
	       "                    has SIZE bytes); restore only turns it off\n"
	       "  --keep=SIZE       shrink: leave SIZE free above what is in use now (64M, 1G)\n"
	       "  --dry-run         shrink: print the plan, change nothing\n"
	       "  --timeout=TIME    shrink: give up on a memory block after TIME (default 5s)\n"
	       "  --format=FORMAT   show: json (default) or text\n"
	       "  -v, --verbose     say what each step did\n"
	       "  -h, --help        display this help and exit\n"
	       "  -V, --version     output version information and exit\n"
	       "\n"
	       "KIND and what restore does: swapoff PATH (swapoff that swap area, recorded\n"
	       "by its identity before swapon), rmfile PATH (remove the file, made inside a\n"
	       "--root, if it is still the file recorded), rmdir PATH (the run's cgroup, or\n"
	       "a directory inside a --root), sysctl vm.NAME [VALUE] and sysfs /sys/PATH\n"
	       "[VALUE] (/sys/kernel/mm/, /sys/module/zswap/parameters/, a block device's\n"
	       "queue/read_ahead_kb: write VALUE back; default: the current value), online\n"
	       "BLOCK (online the memory block), thp SIZE [VALUE] (a THP size's enabled back\n"
	       "to VALUE; SIZE 64kB or global), hugepages [COUNT] (nr_hugepages back to\n"
	       "COUNT, never above the pool when the run began), readahead MAJ:MIN [KB] (the\n"
	       "device's read_ahead_kb back to KB), zram zramN [hot] (swapoff, reset, and\n"
	       "hot_remove when the run made it), zramnew LIST (hot_remove the zram devices\n"
	       "not in LIST, the ones before a hot_add, never set up), pid PID (SIGTERM,\n"
	       "then SIGKILL, if still the same process the run started).\n"
	       "set records NAME's value the first time the run sets it (a sysctl vm.NAME,\n"
	       "or a sysfs knob under /sys/kernel/mm/, /sys/module/zswap/parameters/ or a\n"
	       "block device's queue/read_ahead_kb), then writes VALUE.\n"
	       "swapon, swapfile (create, fill, mkswap), zram (a new device from\n"
	       "zram-control, else the unused zram0; disksize, mkswap), cgroup (the run's\n"
	       "memory cgroup, limited to LIMIT bytes) record their change, then make it;\n"
	       "cgroup-exec runs COMMAND in the run's cgroup; drop-caches drops the page\n"
	       "cache, empties the run's swap SWAP and compacts memory.\n"
	       "Every entry is checked when recorded and again before it is undone.\n"
	       "The record is LATENCY_STATE_DIR/state (default /var/lib/latency-tests/state);\n"
	       "one run at a time holds the machine: LATENCY_LOCK_DIR/latency-tests.lock\n"
	       "(default /run/lock).\n"
	       "Exit status: 0 done, 1 failed (restore: a change kept), 2 usage error, 3 another\n"
	       "run is in progress or the machine cannot do it.\n");
	/* clang-format on */
	exit(EXIT_OK);
}

static void parse_options(int argc, char **argv, struct cmdline *cl)
{
	int opt;

	while ((opt = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1) {
		switch (opt) {
		case OPT_OWNER:
			cl->owner =
				(pid_t)opt_u64("--owner", optarg, 1, INT_MAX);
			cl->seen |= HAS_OWNER;
			break;
		case OPT_KEEP:
			cl->keep_bytes = opt_size("--keep", optarg, 1);
			cl->seen |= HAS_KEEP;
			break;
		case OPT_ROOT:
			if (cl->nroots == RECORD_ROOTS_MAX)
				usage_error("at most %d --root options",
					    RECORD_ROOTS_MAX);
			cl->roots[cl->nroots++] = optarg;
			cl->seen |= HAS_ROOT;
			break;
		case OPT_CACHE:
			cl->cache = true;
			cl->seen |= HAS_CACHE;
			break;
		case OPT_DRY_RUN:
			cl->dry_run = true;
			cl->seen |= HAS_DRY_RUN;
			break;
		case OPT_TIMEOUT:
			cl->timeout_ns = opt_duration("--timeout", optarg);
			if (!cl->timeout_ns)
				usage_error("--timeout must be greater than "
					    "zero");
			cl->seen |= HAS_TIMEOUT;
			break;
		default:
			if (!opt_common_handle(&cl->oc, opt, optarg, usage))
				usage_error(NULL);
			if (opt == OPT_FORMAT)
				cl->seen |= HAS_FORMAT;
		}
	}
}

/* The record's absolute path, for the lock (allocated). */
static char *record_realpath(void)
{
	char *dir = realpath(menv.state_dir, NULL), *path;

	if (!dir)
		die_errno(EXIT_RUN_FAILED, "cannot resolve '%s'",
			  menv.state_dir);
	path = xasprintf("%s/state", dir);
	free(dir);
	if (strpbrk(path, "\t\n"))
		usage_error("LATENCY_STATE_DIR '%s' holds a tab or a newline",
			    menv.state_dir);
	return path;
}

/* The run begin has claimed the machine for, released if begin fails. */
static pid_t claimed_owner;
static uint64_t claimed_start;

static void claim_undo(void)
{
	if (claimed_owner)
		(void)machine_lock_release(claimed_owner,
					   claimed_start); /* said */
}

/*
 * Undo a dead run's record in the state directory open at DIRFD: its
 * owner must be dead.  Returns 0 or the exit status (said).
 */
static int restore_dead(int dirfd)
{
	struct record r;
	char *prefix;
	size_t left = 0;
	int st = state_lock(dirfd);

	if (!st)
		st = record_load(dirfd, &r);
	if (st)
		return st == -ENOENT ? 0 : st;
	if (record_owner_alive(&r)) {
		char cmd[256];

		pid_t owner = r.owner;

		proc_command(owner, cmd, sizeof(cmd));
		record_release(&r);
		return error_ret(EXIT_UNSUPPORTED,
				 "another run (pid %d: %s) is in progress",
				 (int)owner, cmd);
	}
	prefix = xasprintf("restoring after run pid %d (dead)", (int)r.owner);
	st = record_restore(dirfd, &r, prefix, &left);
	free(prefix);
	if (!st && left)
		st = error_ret(EXIT_RUN_FAILED,
			       "%zu change(s) of run pid %d could not be "
			       "undone; see above, fix them and run "
			       "'latency-machine restore' (record: %s)",
			       left, (int)r.owner, record_path());
	record_release(&r);
	return st;
}

/*
 * The machine's last holder H died with its record elsewhere (another
 * LATENCY_STATE_DIR): undo it first when it is ours, else say whose it is.
 */
static int restore_elsewhere(const struct lock_holder *h)
{
	const char *saved = menv.state_dir;
	char *dir = xstrdup(h->record), *slash = strrchr(dir, '/');
	struct stat st;
	int dirfd, status;

	*slash = '\0';
	if (lstat(h->record, &st) && errno == ENOENT) {
		free(dir);
		return 0;
	}
	if (h->uid != geteuid()) {
		inform("run pid %d of uid %u died holding the machine; its "
		       "record '%s' is that user's to restore "
		       "(LATENCY_STATE_DIR=%s latency-machine restore)",
		       (int)h->pid, h->uid, h->record, dir);
		free(dir);
		return 0;
	}
	menv.state_dir = dir;
	status = state_dir_open(&dirfd);
	if (!status) {
		status = restore_dead(dirfd);
		(void)close(dirfd); /* also drops the lock */
	}
	menv.state_dir = saved;
	free(dir);
	return status;
}

static int cmd_begin(const struct cmdline *cl, struct run_info *ri)
{
	struct lock_holder prev;
	struct record hdr;
	char *pool = kpath(menv.proc, "/sys/vm/nr_hugepages"), *here;
	size_t i;
	int dirfd, e;
	bool fresh;

	(void)ri;
	memset(&hdr, 0, sizeof(hdr));
	hdr.format = 2;
	hdr.owner = cl->owner;
	e = proc_starttime(cl->owner, &hdr.owner_start);
	if (e)
		die_err(EXIT_RUN_FAILED, e == -ESRCH ? ESRCH : -e,
			"cannot begin a record for pid %d", (int)cl->owner);
	if (!path_is_clean(menv.cgroup_root))
		usage_error("LATENCY_CGROUP_ROOT '%s' is not a clean absolute "
			    "path",
			    menv.cgroup_root);
	hdr.cgroup_root = xstrdup(menv.cgroup_root);
	for (i = 0; i < cl->nroots; i++) {
		e = root_declare(&hdr.root[hdr.nroots], cl->roots[i]);
		if (e) {
			record_release(&hdr);
			free(pool);
			return e;
		}
		hdr.nroots++;
	}
	e = state_dir_open(&dirfd);
	if (e) {
		record_release(&hdr);
		free(pool);
		return e;
	}
	here = record_realpath();
	/* Given back if begin fails, unless the run held it before. */
	e = machine_lock_claim(cl->owner, hdr.owner_start, here, &prev, &fresh);
	if (e) {
		(void)close(dirfd); /* read-only */
		free(here);
		record_release(&hdr);
		free(pool);
		return e;
	}
	if (fresh) {
		claimed_owner = cl->owner;
		claimed_start = hdr.owner_start;
		if (atexit(claim_undo))
			die(EXIT_RUN_FAILED,
			    "cannot register the lock's release");
	}
	if (prev.pid && strcmp(prev.record, here))
		e = restore_elsewhere(&prev);
	if (!e)
		e = restore_dead(dirfd);
	/* The pool as the run finds it: after a dead run gave its back. */
	hdr.pool_known = !kfile_read_u64(pool, false, &hdr.pool);
	free(pool);
	if (!e)
		e = record_create(dirfd, &hdr);
	(void)close(dirfd); /* also drops the lock */
	if (!e)
		claimed_owner = 0; /* begun: the run holds the machine */
	free(here);
	record_release(&hdr);
	return e;
}

static int cmd_record(const struct cmdline *cl, struct run_info *ri)
{
	struct record r;
	char *line;
	off_t at;
	int dirfd, st = state_open_locked(&dirfd);

	(void)ri;
	if (st)
		return st;
	st = record_load_owned(dirfd, cl->owner, &r);
	if (!st) {
		line = entry_make(&r, cl->nargs, cl->args);
		st = line ? record_append(&r, line, &at) : EXIT_RUN_FAILED;
		free(line);
		record_release(&r);
	}
	(void)close(dirfd); /* also drops the lock */
	return st;
}

static int cmd_set(const struct cmdline *cl, struct run_info *ri)
{
	(void)ri;
	if (cl->nargs != 2)
		usage_error("set: takes NAME and VALUE");
	return set_knob(cl->owner, cl->args[0], cl->args[1]);
}

static int cmd_restore(const struct cmdline *cl, struct run_info *ri)
{
	struct lock_holder h;
	struct record r;
	char *prefix, cmd[256];
	size_t left = 0;
	bool alive, held;
	int dirfd, st = state_open_locked(&dirfd);

	(void)ri;
	if (!st)
		st = record_load(dirfd, &r);
	if (st > 0)
		return st;
	if (st) {
		inform("nothing to restore");
		return EXIT_OK;
	}
	if (cl->owner && r.owner != cl->owner) {
		inform("nothing to restore for pid %d (the record belongs to "
		       "run pid %d)",
		       (int)cl->owner, (int)r.owner);
		record_release(&r);
		return EXIT_OK;
	}
	alive = record_owner_alive(&r);
	if (alive && !cl->owner) {
		proc_command(r.owner, cmd, sizeof(cmd));
		die(EXIT_UNSUPPORTED, "another run (pid %d: %s) is in progress",
		    (int)r.owner, cmd);
	}
	/* A dead run's changes are not undone under a live run's feet. */
	held = false;
	if (!cl->owner && (st = machine_lock_holder(&h, &held))) {
		record_release(&r);
		(void)close(dirfd); /* read-only */
		return st;
	}
	if (!cl->owner && held &&
	    !(h.pid == r.owner && h.start == r.owner_start))
		die(EXIT_UNSUPPORTED,
		    "another run (pid %d: %s) is in progress; it holds '%s' "
		    "(restore run pid %d's record after it)",
		    (int)h.pid, h.command, machine_lock_path(), (int)r.owner);
	prefix = alive ? xasprintf("restoring run pid %d", (int)r.owner)
		       : xasprintf("restoring after run pid %d (dead)",
				   (int)r.owner);
	st = record_restore(dirfd, &r, prefix, &left);
	free(prefix);
	if (!st && !left)
		st = machine_lock_release(r.owner, r.owner_start);
	record_release(&r);
	(void)close(dirfd);
	if (st)
		return st;
	if (left) {
		inform("%zu change(s) could not be undone; they stay in '%s'",
		       left, record_path());
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}

/* ARGS N of a command as a size (a usage error if not one). */
static uint64_t arg_size(const struct cmdline *cl, int n, const char *what)
{
	return opt_size(what, cl->args[n], 1);
}

/* The command's argument count is between MIN and MAX, or a usage error. */
static void nargs_check(const struct cmdline *cl, const char *cmd, int min,
			int max, const char *args)
{
	if (cl->nargs < min || cl->nargs > max)
		usage_error("%s: takes %s", cmd, args);
}

static int cmd_swapon(const struct cmdline *cl, struct run_info *ri)
{
	(void)ri;
	nargs_check(cl, "swapon", 1, 1, "PATH");
	return apply_swapon(cl->owner, cl->args[0]);
}

static int cmd_swapfile(const struct cmdline *cl, struct run_info *ri)
{
	(void)ri;
	nargs_check(cl, "swapfile", 2, 2, "PATH and SIZE");
	return apply_swapfile(cl->owner, cl->args[0],
			      arg_size(cl, 1, "swapfile SIZE"), cl->cache);
}

static int cmd_zram(const struct cmdline *cl, struct run_info *ri)
{
	(void)ri;
	nargs_check(cl, "zram", 1, 2, "SIZE and an optional ALGORITHM");
	return apply_zram(cl->owner, arg_size(cl, 0, "zram SIZE"),
			  cl->nargs > 1 ? cl->args[1] : NULL);
}

static int cmd_cgroup(const struct cmdline *cl, struct run_info *ri)
{
	(void)ri;
	nargs_check(cl, "cgroup", 2, 2, "PATH and LIMIT");
	return apply_cgroup(cl->owner, cl->args[0],
			    arg_size(cl, 1, "cgroup LIMIT"));
}

static int cmd_cgroup_exec(const struct cmdline *cl, struct run_info *ri)
{
	(void)ri;
	if (cl->nargs < 2)
		usage_error("cgroup-exec: takes PATH and COMMAND");
	return apply_cgroup_exec(cl->owner, cl->args[0], cl->args + 1);
}

static int cmd_drop_caches(const struct cmdline *cl, struct run_info *ri)
{
	(void)ri;
	nargs_check(cl, "drop-caches", 0, 1, "an optional SWAP");
	return apply_drop_caches(cl->owner, cl->nargs ? cl->args[0] : NULL);
}

/* The kernel's view of memory, as show prints it. */
struct view {
	struct meminfo m;
	uint64_t min_free_kb, block_bytes;
	size_t offline, online;
	struct zone_info *zones;
	size_t nzones;
};

static void view_read(struct view *v)
{
	char *path = kpath(menv.proc, "/sys/vm/min_free_kbytes");
	struct mem_block *b;
	size_t n, i;
	int r;

	memset(v, 0, sizeof(*v));
	r = meminfo_read(&v->m);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot read %s/meminfo",
			menv.proc);
	r = kfile_read_u64(path, false, &v->min_free_kb);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot read '%s'", path);
	free(path);
	r = mem_blocks_read(&b, &n, &v->block_bytes);
	if (r)
		die_err(EXIT_RUN_FAILED, -r,
			"cannot read %s/devices/system/memory", menv.sys);
	for (i = 0; i < n; i++) {
		v->offline += !strcmp(b[i].state, "offline");
		v->online += !strcmp(b[i].state, "online");
	}
	free(b);
	r = zoneinfo_read(&v->zones, &v->nzones);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot read %s/zoneinfo",
			menv.proc);
}

static void show_json(const struct view *v, struct run_info *ri)
{
	struct json j;
	size_t i;

	json_init(&j, stdout, true);
	json_object_begin(&j, NULL);
	json_run_header(&j, ri);
	json_u64(&j, "mem_total_bytes", v->m.total);
	json_u64(&j, "mem_free_bytes", v->m.free);
	json_u64(&j, "mem_available_bytes", v->m.available);
	json_u64(&j, "min_free_kbytes", v->min_free_kb);
	json_u64(&j, "hugepages_total", v->m.hugepages_total);
	json_u64(&j, "hugepage_bytes", v->m.hugepage_bytes);
	json_u64(&j, "offline_blocks", v->offline);
	json_u64(&j, "online_blocks", v->online);
	json_u64(&j, "block_bytes", v->block_bytes);
	json_u64(&j, "page_bytes", (uint64_t)sysconf(_SC_PAGESIZE));
	json_array_begin(&j, "zones");
	for (i = 0; i < v->nzones; i++) {
		const struct zone_info *z = &v->zones[i];

		json_object_begin(&j, NULL);
		json_u64(&j, "node", z->node);
		json_str(&j, "zone", z->name);
		json_u64(&j, "managed_pages", z->managed);
		json_u64(&j, "free_pages", z->free);
		json_u64(&j, "min", z->min);
		json_u64(&j, "low", z->low);
		json_u64(&j, "high", z->high);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

static void show_text(const struct view *v)
{
	size_t i;

	printf("mem_total_bytes=%llu\nmem_free_bytes=%llu\n"
	       "mem_available_bytes=%llu\nmin_free_kbytes=%llu\n"
	       "hugepages_total=%llu\nhugepage_bytes=%llu\n"
	       "offline_blocks=%zu\nonline_blocks=%zu\nblock_bytes=%llu\n"
	       "page_bytes=%ld\n",
	       (unsigned long long)v->m.total, (unsigned long long)v->m.free,
	       (unsigned long long)v->m.available,
	       (unsigned long long)v->min_free_kb,
	       (unsigned long long)v->m.hugepages_total,
	       (unsigned long long)v->m.hugepage_bytes, v->offline, v->online,
	       (unsigned long long)v->block_bytes, sysconf(_SC_PAGESIZE));
	for (i = 0; i < v->nzones; i++) {
		const struct zone_info *z = &v->zones[i];

		printf("zone=%u/%s managed_pages=%llu free_pages=%llu min=%llu "
		       "low=%llu high=%llu\n",
		       z->node, z->name, (unsigned long long)z->managed,
		       (unsigned long long)z->free, (unsigned long long)z->min,
		       (unsigned long long)z->low, (unsigned long long)z->high);
	}
}

static int cmd_show(const struct cmdline *cl, struct run_info *ri)
{
	enum out_format fmt = opt_format(cl->oc.format, FORMAT_JSON, false);
	struct view v;

	view_read(&v);
	if (fmt == FORMAT_JSON)
		show_json(&v, ri);
	else
		show_text(&v);
	free(v.zones);
	return EXIT_OK;
}

static int cmd_shrink(const struct cmdline *cl, struct run_info *ri)
{
	struct shrink_opts o = {
		.owner = cl->owner,
		.keep_bytes = cl->keep_bytes,
		.timeout_ns =
			cl->timeout_ns ? cl->timeout_ns : 5 * NSEC_PER_SEC,
		.dry_run = cl->dry_run,
	};

	(void)ri;
	if (!cl->dry_run && !cl->owner)
		usage_error("shrink: --owner=PID is required (unless "
			    "--dry-run)");
	return shrink_run(&o);
}

/* clang-format off */
static const struct command commands[] = {
	{ "begin", HAS_OWNER | HAS_ROOT, HAS_OWNER, false, cmd_begin },
	{ "record", HAS_OWNER, HAS_OWNER, true, cmd_record },
	{ "set", HAS_OWNER, HAS_OWNER, true, cmd_set },
	{ "swapon", HAS_OWNER, HAS_OWNER, true, cmd_swapon },
	{ "swapfile", HAS_OWNER | HAS_CACHE, HAS_OWNER, true, cmd_swapfile },
	{ "zram", HAS_OWNER, HAS_OWNER, true, cmd_zram },
	{ "cgroup", HAS_OWNER, HAS_OWNER, true, cmd_cgroup },
	{ "cgroup-exec", HAS_OWNER, HAS_OWNER, true, cmd_cgroup_exec },
	{ "drop-caches", HAS_OWNER, HAS_OWNER, true, cmd_drop_caches },
	{ "restore", HAS_OWNER, 0, false, cmd_restore },
	{ "show", HAS_FORMAT, 0, false, cmd_show },
	{ "shrink", HAS_OWNER | HAS_KEEP | HAS_DRY_RUN | HAS_TIMEOUT, HAS_KEEP,
	  false, cmd_shrink },
};
/* clang-format on */

/* Names of the HAS_ bits, lowest first. */
static const char *const option_names[] = { "--owner",	 "--keep",
					    "--dry-run", "--timeout",
					    "--format",	 "--root",
					    "--cache" };

/* Usage errors for options COMMAND does not take or lacks. */
static void check_options(const struct command *c, const struct cmdline *cl)
{
	unsigned i;

	for (i = 0; i < sizeof(option_names) / sizeof(option_names[0]); i++) {
		if ((cl->seen & (1u << i)) && !(c->allowed & (1u << i)))
			usage_error("%s does not take %s", c->name,
				    option_names[i]);
		if (!(cl->seen & (1u << i)) && (c->required & (1u << i)))
			usage_error("%s needs %s", c->name, option_names[i]);
	}
	if (!c->takes_args && cl->nargs)
		usage_error("%s: unexpected argument '%s'", c->name,
			    cl->args[0]);
}

static void env_init(void)
{
	const char *s = getenv("LATENCY_STATE_DIR");

	menv.proc = getenv("LATENCY_PROC");
	if (!menv.proc || !*menv.proc)
		menv.proc = "/proc";
	menv.sys = getenv("LATENCY_SYS");
	if (!menv.sys || !*menv.sys)
		menv.sys = "/sys";
	menv.state_dir = s && *s ? s : "/var/lib/latency-tests";
	s = getenv("LATENCY_LOCK_DIR");
	menv.lock_dir = s && *s ? s : "/run/lock";
	s = getenv("LATENCY_CGROUP_ROOT");
	menv.cgroup_root = s && *s ? s : "/sys/fs/cgroup";
	s = getenv("LATENCY_DEV");
	menv.dev = s && *s ? s : "/dev";
	menv.writer = getenv("LATENCY_MACHINE_WRITER");
	if (menv.writer && !*menv.writer)
		menv.writer = NULL;
}

int main(int argc, char **argv)
{
	const struct command *c = NULL;
	struct cmdline cl;
	struct run_info ri;
	char *name;
	size_t i;
	int k;

	prog_init(argc, argv);
	run_info_init(&ri, "latency-machine", argc, argv);
	env_init();
	memset(&cl, 0, sizeof(cl));
	opt_common_init(&cl.oc);
	parse_options(argc, argv, &cl);
	if (optind >= argc)
		usage_error("no command given");
	k = optind;
	name = argv[k];
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			c = &commands[i];
	if (!c)
		usage_error("unknown command '%s'", name);
	/* The command's own options, with getopt naming us in messages. */
	argv[k] = (char *)progname();
	optind = 0;
	parse_options(argc - k, argv + k, &cl);
	cl.args = argv + k + optind;
	cl.nargs = argc - k - optind;
	argv[k] = name;
	menv.verbose = cl.oc.verbose;
	check_options(c, &cl);
	return c->run(&cl, &ri);
}
