// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-block: the block layer's own account of a run, what blktrace's
 * summary counts (bios queued, requests dispatched and completed, merges,
 * requeues, unplugs, splits, remaps; queue-to-completion and
 * dispatch-to-completion times; request sizes), per device, from the
 * kernel's block tracepoints in a trace instance of its own, beside the
 * device's own counters (/sys/block/NAME/stat, what iostat reads).
 * Without tracing (not root, no tracefs) the counters alone, with a note;
 * never a failure.  The instance is entered in the machine-state record
 * (latency-machine's trace-instance kind) before it is made, so that a
 * kill -9 is undone by the next run or `latency-machine restore`.  Where
 * no tracefs is mounted it mounts one in a mount namespace of its own,
 * which ends with the process.  --replay reads a recorded trace_pipe.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/kparse.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/spawn.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "monitors/block.h"
#include "monitors/monitor.h"

enum {
	OPT_DEVICE = OPT_MONITOR_FIRST,
	OPT_REPLAY,
	OPT_BUFFER_SIZE,
	OPT_COUNTERS_ONLY,
	OPT_ALL_EVENTS,
};

/* clang-format off */
static const struct option long_options[] = {
	MONITOR_LONG_OPTIONS,
	{ "interval", required_argument, NULL, 'i' },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "buffer-size", required_argument, NULL, OPT_BUFFER_SIZE },
	{ "counters-only", no_argument, NULL, OPT_COUNTERS_ONLY },
	{ "all-events", no_argument, NULL, OPT_ALL_EVENTS },
	OPT_LONG_END
};
/* clang-format on */
static const char short_options[] = MONITOR_SHORT_OPTIONS "i:";

#define SYS_BLOCK "/sys/block"
#define TRACEFS "/sys/kernel/tracing"
#define MAX_DEVICES 256

/*
 * The tracepoints (a kernel may lack some).  The last two only with
 * --all-events: a getrq and a plug for every request cost a third more
 * lines to format and parse, for figures blktrace's summary does not use.
 */
static const char *const trace_events[] = {
	"block_bio_queue",	"block_rq_insert",    "block_rq_issue",
	"block_rq_complete",	"block_rq_requeue",   "block_bio_backmerge",
	"block_bio_frontmerge", "block_bio_complete", "block_split",
	"block_bio_remap",	"block_rq_remap",     "block_unplug",
	"block_unplug_io",	"block_unplug_timer", "block_getrq",
	"block_plug",
};
#define N_TRACE_EVENTS (sizeof(trace_events) / sizeof(trace_events[0]))
#define N_DETAIL_EVENTS 2

struct lb {
	struct monitor m;
	struct blk b;
	const char *devices[MAX_DEVICES];
	size_t ndevices;
	uint64_t interval_ns, buffer_kb;
	const char *replay, *live_opt;
	bool counters_only, all_events;
	const char *no_trace; /* why the counters are the source */
	char *tracefs;	      /* the tracefs in use */
	char *instance;	      /* our instance directory */
	char owner[32];	      /* --owner=PID of the machine-state record */
	bool own_record;      /* begun by us: restored at the end */
	int pipe_fd;
	struct mlines in;
};

static struct lb *cleanup_lb;

static void usage(int status)
{
	if (status != EXIT_OK)
		usage_error(NULL);
	/* clang-format off */
	printf("Usage: %s [OPTION]...\n"
	       "Count what the block layer did, per device, as blktrace's summary\n"
	       "does: bios queued, requests dispatched and completed, merges,\n"
	       "requeues, unplugs, splits, remaps, queue-to-completion and\n"
	       "dispatch-to-completion times and request sizes, from the block\n"
	       "tracepoints (needs root), beside the devices' own counters\n"
	       "(/sys/block/NAME/stat).\n"
	       "\n"
	       "      --device=NAME    a device as /sys/block names it (loop3, dm-0,\n"
	       "                       vda), or MAJ:MIN; repeatable (default: every\n"
	       "                       device that did IO)\n"
	       "  -i, --interval=TIME  report every TIME (default 1s)\n"
	       "      --buffer-size=SIZE  per-CPU trace buffer (default 8M)\n"
	       "      --counters-only  do not trace: the counters alone\n"
	       "      --all-events     also trace block_getrq and block_plug (getrq,\n"
	       "                       plugs)\n"
	       "      --replay=FILE    read a recorded trace_pipe from FILE instead of\n"
	       "                       tracing (no root needed)\n"
	       "%s\n"
	       "Sizes and durations: 64k = 65536 bytes; 250ms, 10s, 2m.\n",
	       progname(), monitor_common_help);
	/* clang-format on */
	exit(EXIT_OK);
}

/* ---- the machine-state record (latency-machine) ---- */

static int machine(char *const args[], bool quiet)
{
	return spawn_machine(args, quiet ? SPAWN_QUIET : 0);
}

/*
 * Enter the instance NAME in the driver's record (LATENCY_MACHINE_OWNER),
 * or in one of our own.  Returns NULL, or why it could not be.
 */
static const char *record_instance(struct lb *l, const char *name)
{
	const char *env = getenv("LATENCY_MACHINE_OWNER");
	char kind[] = "trace-instance";
	uint64_t pid;
	int r;

	if (env && *env) {
		if (parse_u64(env, &pid) || !pid || pid > INT_MAX)
			return "LATENCY_MACHINE_OWNER is not a pid";
		snprintf(l->owner, sizeof(l->owner), "--owner=%" PRIu64, pid);
	} else {
		char *begin[] = { "begin", l->owner, NULL };

		snprintf(l->owner, sizeof(l->owner), "--owner=%ld",
			 (long)getpid());
		if (machine(begin, false))
			return "latency-machine begin failed";
		l->own_record = true;
	}
	{
		char *rec[] = { "record", l->owner, kind, (char *)name, NULL };

		r = machine(rec, false);
	}
	return r ? "latency-machine record failed" : NULL;
}

static void release_record(struct lb *l)
{
	char *args[] = { "restore", l->owner, NULL };

	if (!l->own_record)
		return;
	l->own_record = false;
	if (machine(args, true))
		warn("cannot give the machine-state record back: run "
		     "'latency-machine restore'");
}

static void cleanup(void)
{
	struct lb *l = cleanup_lb;

	if (!l)
		return;
	cleanup_lb = NULL;
	if (l->pipe_fd >= 0)
		(void)close(l->pipe_fd); /* read-only */
	l->pipe_fd = -1;
	/* Removing the instance also disables its events and frees its
	 * buffer: nothing global was changed. */
	if (l->instance && rmdir(l->instance))
		warn_errno("cannot remove trace instance '%s'", l->instance);
	release_record(l);
}

/* ---- devices ---- */

/* A device name safe in a path and in a key=value line. */
static bool name_ok(const char *s)
{
	size_t n = strlen(s);

	return n && n < 64 && s[0] != '.' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789-_.:") == n;
}

static bool read_devno(const char *path, uint32_t *maj, uint32_t *min)
{
	char buf[64];
	ssize_t n = read_small_file(path, buf, sizeof(buf));

	return n > 0 && !kparse_dev(buf, (size_t)n, maj, min);
}

/* "MAJ:MIN" */
static bool parse_majmin(const char *s, uint32_t *maj, uint32_t *min)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s", s);
	return !kparse_dev(buf, strlen(buf), maj, min);
}

/* The partitions of DISK (their dev files), whose bios count for it. */
static void add_partitions(struct lb *l, size_t disk, const char *name)
{
	char path[4096];
	struct dirent *de;
	uint32_t maj, min;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", SYS_BLOCK, name);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, name, strlen(name)) &&
		    name_ok(de->d_name)) {
			snprintf(path, sizeof(path), "%s/%s/%s/dev", SYS_BLOCK,
				 name, de->d_name);
			if (read_devno(path, &maj, &min))
				blk_add_part(&l->b, disk, maj, min);
		}
	closedir(d);
}

/* Device NAME of /sys/block, with its counters at the start. */
static void add_device(struct lb *l, const char *name, bool asked)
{
	char path[4096];
	uint32_t maj, min;
	struct blk_dev *d;
	int r;

	snprintf(path, sizeof(path), "%s/%s/dev", SYS_BLOCK, name);
	if (!read_devno(path, &maj, &min)) {
		if (asked)
			die(EXIT_RUN_FAILED, "no block device '%s' in %s", name,
			    SYS_BLOCK);
		return;
	}
	d = blk_add(&l->b, name, maj, min);
	d->named = asked;
	/* blk-mq devices have requests; dm, md, zram pass bios on. */
	snprintf(path, sizeof(path), "%s/%s/mq", SYS_BLOCK, name);
	d->request_based = access(path, F_OK) == 0;
	r = blk_stat_read(SYS_BLOCK, name, d->stat0);
	d->nstat = r > 0 ? (size_t)r : 0;
	add_partitions(l, l->b.n - 1, name);
}

/*
 * The counters at the start, read again right after the events are on:
 * what completes between the two reads is in both sources.
 */
static void start_counters(struct lb *l)
{
	size_t i;
	int r;

	for (i = 0; i < l->b.n; i++) {
		struct blk_dev *d = &l->b.dev[i];

		r = blk_stat_read(SYS_BLOCK, d->name, d->stat0);
		d->nstat = r > 0 ? (size_t)r : 0;
	}
}

/* A --device given as MAJ:MIN: its name in /sys/block. */
static const char *name_of(const char *arg, char *buf, size_t len)
{
	uint32_t maj, min, a, b;
	char path[4096];
	struct dirent *de;
	DIR *d;

	if (!parse_majmin(arg, &maj, &min) || !(d = opendir(SYS_BLOCK)))
		return arg;
	while ((de = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s/dev", SYS_BLOCK,
			 de->d_name);
		if (name_ok(de->d_name) && read_devno(path, &a, &b) &&
		    a == maj && b == min) {
			snprintf(buf, len, "%s", de->d_name);
			closedir(d);
			return buf;
		}
	}
	closedir(d);
	return arg;
}

static void setup_devices(struct lb *l)
{
	char buf[256];
	struct dirent *de;
	uint32_t maj, min;
	size_t i;
	DIR *d;

	if (l->replay) {
		/* Numbers name the devices of a recording. */
		for (i = 0; i < l->ndevices; i++) {
			if (!parse_majmin(l->devices[i], &maj, &min))
				usage_error("--replay names devices as "
					    "MAJ:MIN, not '%s'",
					    l->devices[i]);
			blk_add(&l->b, l->devices[i], maj, min)->named = true;
		}
		l->b.any_device = !l->ndevices;
		return;
	}
	for (i = 0; i < l->ndevices; i++)
		add_device(l, name_of(l->devices[i], buf, sizeof(buf)), true);
	if (l->ndevices)
		return;
	d = opendir(SYS_BLOCK);
	if (!d)
		die_errno(EXIT_UNSUPPORTED, "cannot read '%s'", SYS_BLOCK);
	while ((de = readdir(d)))
		if (name_ok(de->d_name))
			add_device(l, de->d_name, false);
	closedir(d);
}

/* The counters now, into each device's stat1. */
static void read_counters(struct lb *l)
{
	size_t i;
	int r;

	for (i = 0; i < l->b.n; i++) {
		struct blk_dev *d = &l->b.dev[i];

		if (!d->nstat)
			continue;
		r = blk_stat_read(SYS_BLOCK, d->name, d->stat1);
		if (r < (int)d->nstat)
			d->nstat = 0; /* gone, or changed shape */
	}
}

/* ---- tracing ---- */

static bool has_instances(const char *tracefs)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/instances", tracefs);
	return access(path, F_OK) == 0;
}

/*
 * The tracefs to use: a mounted one, else one mounted in a mount
 * namespace of our own (it goes away with us, even after kill -9).
 * Returns NULL, or why there is none.
 */
static const char *find_tracefs(struct lb *l)
{
	static const char *const dirs[] = { TRACEFS,
					    "/sys/kernel/debug/tracing" };
	size_t i;

	for (i = 0; i < 2; i++)
		if (has_instances(dirs[i])) {
			l->tracefs = xstrdup(dirs[i]);
			return NULL;
		}
	if (unshare(CLONE_NEWNS) ||
	    mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("nodev", TRACEFS, "tracefs", 0, NULL))
		return "no tracefs, and none could be mounted";
	if (!has_instances(TRACEFS))
		return "the tracefs has no instances";
	l->tracefs = xstrdup(TRACEFS);
	return NULL;
}

/*
 * Only our devices' events, where the kernel filters them (the unplugs
 * name no device): less to copy and parse.  Not filtering is no error.
 */
static void set_filters(struct lb *l)
{
	char filter[4096], path[512];
	size_t i, n = 0;

	if (!l->ndevices)
		return;
	for (i = 0; i < l->b.n + l->b.nparts && n < sizeof(filter) - 64; i++) {
		uint32_t maj = i < l->b.n ? l->b.dev[i].major
					  : l->b.part[i - l->b.n].major;
		uint32_t min = i < l->b.n ? l->b.dev[i].minor
					  : l->b.part[i - l->b.n].minor;

		n += (size_t)snprintf(filter + n, sizeof(filter) - n,
				      "%sdev == %u", n ? " || " : "",
				      (maj << 20) | min);
	}
	for (i = 0; i < N_TRACE_EVENTS; i++) {
		if (strstr(trace_events[i], "plug"))
			continue;
		snprintf(path, sizeof(path), "events/block/%s/filter",
			 trace_events[i]);
		/* Not filtering is no error (see above). */
		(void)monitor_write_knob(l->instance, path, filter);
	}
}

/* Make, fill and enable our instance.  Returns NULL, or why not. */
static const char *start_tracing(struct lb *l)
{
	char name[64], buf[32], path[512];
	const char *why;
	size_t i, on = 0;

	if (geteuid())
		return "tracing needs root";
	if ((why = find_tracefs(l)))
		return why;
	snprintf(name, sizeof(name), "latency-block-%ld", (long)getpid());
	if ((why = record_instance(l, name)))
		return why;
	l->instance = xasprintf("%s/instances/%s", l->tracefs, name);
	/* A directory of a dead run with our pid: make it anew. */
	(void)rmdir(l->instance); /* mkdir says what is wrong */
	if (mkdir(l->instance, 0755)) {
		free(l->instance);
		l->instance = NULL;
		return "cannot create a trace instance";
	}
	snprintf(buf, sizeof(buf), "%" PRIu64, l->buffer_kb);
	if (monitor_write_knob(l->instance, "trace_clock", "mono") ||
	    monitor_write_knob(l->instance, "buffer_size_kb", buf))
		return "cannot set up the trace instance";
	set_filters(l);
	for (i = 0; i < N_TRACE_EVENTS; i++) {
		int r;

		if (i >= N_TRACE_EVENTS - N_DETAIL_EVENTS && !l->all_events)
			break;
		snprintf(path, sizeof(path), "events/block/%s/enable",
			 trace_events[i]);
		r = monitor_write_knob(l->instance, path, "1");
		if (r == -ENOENT)
			continue; /* not on this kernel */
		if (r)
			return "cannot enable the block tracepoints";
		on++;
		if (!strcmp(trace_events[i], "block_unplug_timer"))
			l->b.timer_unplugs = true;
	}
	if (!on)
		return "no block tracepoints in this kernel";
	snprintf(path, sizeof(path), "%s/trace_pipe", l->instance);
	l->pipe_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (l->pipe_fd < 0)
		return "cannot open the trace_pipe";
	return NULL;
}

static void line_cb(void *ctx, const char *line, size_t len)
{
	blk_trace_line(ctx, line, len);
}

static void drain(struct lb *l, const char *what)
{
	int r = monitor_read_lines(l->pipe_fd, &l->in, line_cb, &l->b);

	if (r < 0)
		die_err(EXIT_RUN_FAILED, -r, "cannot read '%s'", what);
}

/* What each device completed since the last line (tracing or counters). */
static void report_interval(struct lb *l, uint64_t now)
{
	size_t i;
	int dir;

	if (!l->b.tracing)
		read_counters(l);
	for (i = 0; i < l->b.n; i++) {
		struct blk_dev *d = &l->b.dev[i];
		uint64_t done[BLK_DIRS], bytes[BLK_DIRS];

		for (dir = 0; dir < BLK_DIRS; dir++) {
			const struct blk_dir *x = &d->d[dir];
			size_t k = dir == BLK_READ ? 0 : 4;

			done[dir] = l->b.tracing
					    ? x->completed + x->bio_completed
				    : d->nstat ? d->stat1[k] - d->stat0[k]
					       : 0;
			bytes[dir] = l->b.tracing
					     ? x->completed_bytes +
						       x->bio_completed_bytes
				     : d->nstat ? 512 * (d->stat1[k + 2] -
							 d->stat0[k + 2])
						: 0;
		}
		if (done[0] == d->iv_done[0] && done[1] == d->iv_done[1])
			continue;
		monitor_emit(&l->m, now,
			     "interval=1 device=%s reads=%" PRIu64
			     " read_bytes=%" PRIu64 " writes=%" PRIu64
			     " write_bytes=%" PRIu64,
			     d->name, done[0] - d->iv_done[0],
			     bytes[0] - d->iv_bytes[0], done[1] - d->iv_done[1],
			     bytes[1] - d->iv_bytes[1]);
		memcpy(d->iv_done, done, sizeof(done));
		memcpy(d->iv_bytes, bytes, sizeof(bytes));
	}
}

static void run(struct lb *l)
{
	uint64_t next = l->m.start_ns + l->interval_ns, now;
	int r;

	for (;;) {
		uint64_t until = next < l->m.end_ns ? next : l->m.end_ns;

		if (l->pipe_fd >= 0) {
			r = monitor_wait_fd(l->pipe_fd, POLLIN, until);
			if (r < 0)
				die_err(EXIT_RUN_FAILED, -r,
					"cannot wait for trace_pipe");
			drain(l, "trace_pipe");
		} else {
			/* Nothing to read: wait for the time or a signal. */
			int fds[2];

			if (pipe(fds))
				die_errno(EXIT_RUN_FAILED,
					  "cannot make a pipe");
			r = monitor_wait_fd(fds[0], POLLIN, until);
			(void)close(fds[0]); /* unused, read-only */
			(void)close(fds[1]);
			if (r < 0)
				die_err(EXIT_RUN_FAILED, -r, "cannot wait");
		}
		now = mono_ns();
		if (now >= next) {
			report_interval(l, now);
			while (next <= now)
				next += l->interval_ns;
		}
		if (monitor_done(&l->m, now))
			break;
	}
	/* The counters first, then what the trace holds up to now. */
	read_counters(l);
	if (l->pipe_fd >= 0) {
		/* Drained anyway: a refusal changes nothing. */
		(void)monitor_write_knob(l->instance, "tracing_on", "0");
		drain(l, "trace_pipe");
	}
}

static void replay(struct lb *l)
{
	int r;

	l->pipe_fd = open(l->replay, O_RDONLY | O_CLOEXEC);
	if (l->pipe_fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot open '%s'", l->replay);
	l->b.tracing = true;
	monitor_emit(&l->m, mono_ns(), "started=1 source=replay");
	do {
		r = monitor_read_lines(l->pipe_fd, &l->in, line_cb, &l->b);
		if (r < 0)
			die_err(EXIT_RUN_FAILED, -r, "cannot read '%s'",
				l->replay);
	} while (!r && !monitor_done(&l->m, mono_ns()));
	if (r == 1)
		l->m.end_reason = "end_of_file";
	(void)monitor_done(&l->m, mono_ns()); /* records a stop signal */
}

/* Without --device: the devices that did IO in the window. */
static void name_active(struct lb *l)
{
	size_t i, k;

	for (i = 0; i < l->b.n; i++) {
		struct blk_dev *d = &l->b.dev[i];

		for (k = 0; k < d->nstat && !d->named; k++)
			d->named = d->stat1[k] != d->stat0[k] && k != 8;
		d->named |= d->q2c.count || d->d[0].queued || d->d[1].queued;
	}
}

static void json_cb(struct json *j, void *ctx)
{
	blk_write_json(j, ctx);
}

static void text_cb(FILE *f, void *ctx)
{
	blk_write_text(f, ctx);
}

static void summarise(struct lb *l)
{
	struct msum *sum = &l->m.sum;

	msum_bool(sum, "replay", l->replay != NULL);
	msum_str(sum, "source", l->b.tracing ? "tracepoints" : "counters");
	if (l->no_trace) {
		char *why = xstrdup(l->no_trace), *p;

		for (p = why; *p; p++)
			if (*p == ' ')
				*p = '-';
		msum_str(sum, "no_tracing", why);
		free(why);
	}
	if (l->instance)
		msum_str(sum, "instance", strrchr(l->instance, '/') + 1);
	msum_bool(sum, "timer_unplugs_told", l->b.timer_unplugs);
	msum_u64(sum, "trace_lines", l->b.lines);
	msum_u64(sum, "unparsed_lines", l->b.bad_lines);
	msum_u64(sum, "other_lines", l->b.other_lines);
	if (!l->b.no_detail)
		msum_u64(sum, "plugs", l->b.plugs);
	msum_u64(sum, "unplugs_unattributed", l->b.unplugs_unattributed);
	msum_u64(sum, "untimed", l->b.flight_full);
	msum_u64(sum, "stale", l->b.flight_stale);
	if (l->instance)
		msum_u64(sum, "events_lost", monitor_events_lost(l->instance));
	l->m.json_extra = json_cb;
	l->m.text_extra = text_cb;
	l->m.extra_ctx = &l->b;
}

static void parse_options(struct lb *l, int argc, char **argv)
{
	int opt;

	while ((opt = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1) {
		if (monitor_handle_opt(&l->m, opt, optarg, usage))
			continue;
		switch (opt) {
		case 'i':
			l->interval_ns = monitor_opt_interval(optarg);
			l->live_opt = "--interval";
			break;
		case OPT_DEVICE:
			if (!name_ok(optarg))
				usage_error("--device='%s' is not a device "
					    "name as /sys/block has them",
					    optarg);
			if (l->ndevices == MAX_DEVICES)
				usage_error("more than %d --device options",
					    MAX_DEVICES);
			l->devices[l->ndevices++] = optarg;
			break;
		case OPT_REPLAY:
			if (!*optarg)
				usage_error("--replay needs a file name");
			l->replay = optarg;
			break;
		case OPT_BUFFER_SIZE:
			l->buffer_kb =
				opt_size("--buffer-size", optarg, 1) / 1024;
			if (l->buffer_kb < 4)
				usage_error("--buffer-size must be at least "
					    "4k");
			l->live_opt = "--buffer-size";
			break;
		case OPT_COUNTERS_ONLY:
			l->counters_only = true;
			l->live_opt = "--counters-only";
			break;
		case OPT_ALL_EVENTS:
			l->all_events = true;
			l->live_opt = "--all-events";
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (l->replay && l->live_opt)
		usage_error("%s does not apply to --replay", l->live_opt);
}

int main(int argc, char **argv)
{
	struct lb l;
	int status;

	prog_init(argc, argv);
	memset(&l, 0, sizeof(l));
	monitor_init(&l.m);
	blk_init(&l.b);
	l.pipe_fd = -1;
	l.interval_ns = NSEC_PER_SEC;
	l.buffer_kb = 8192;
	parse_options(&l, argc, argv);
	setup_devices(&l);
	status = monitor_start(&l.m, argc, argv, NULL);
	if (status)
		return status;
	cleanup_lb = &l;
	atexit(cleanup);
	if (l.replay) {
		replay(&l);
	} else {
		l.no_trace = l.counters_only ? "asked for the counters only"
					     : start_tracing(&l);
		l.b.tracing = !l.no_trace;
		if (l.no_trace && !l.counters_only && !l.m.oc.quiet)
			warn("no tracing (%s): the devices' counters alone",
			     l.no_trace);
		if (l.no_trace) {
			cleanup(); /* what was made of the instance */
			free(l.instance);
			l.instance = NULL;
		}
		start_counters(&l);
		/* Drivers and tests wait for this line. */
		monitor_emit(&l.m, mono_ns(), "started=1 source=%s pid=%ld%s%s",
			     l.b.tracing ? "tracepoints" : "counters",
			     (long)getpid(), l.instance ? " instance=" : "",
			     l.instance ? strrchr(l.instance, '/') + 1 : "");
		run(&l);
		if (!l.ndevices)
			name_active(&l);
		l.b.no_detail = l.b.tracing && !l.all_events;
	}
	summarise(&l);
	cleanup();
	status = monitor_finish(&l.m);
	blk_release(&l.b);
	free(l.tracefs);
	free(l.instance);
	return status;
}
