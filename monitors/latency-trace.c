// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-trace: the modern form of 2009's congestion_wait figure.  Enables
 * the vmscan, compaction and writeback tracepoints in a private trace
 * instance, reads its trace_pipe, pairs each task's begin and end events and
 * reports how often and how long tasks stalled in direct reclaim (global and
 * memory-cgroup), direct compaction, balance_dirty_pages() throttling and
 * reclaim throttling.  It leaves tracing as it found it: the instance is
 * removed and a tracefs it had to mount is unmounted, also on a stop signal.
 * With --events it also lists every stall, on the progress lines' clock, so
 * a driver can add up the stalls inside each workload run; --replay reads a
 * recorded trace_pipe instead of tracing.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <mntent.h>
#include <poll.h>
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
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "monitors/monitor.h"

enum {
	OPT_INTERVAL = OPT_MONITOR_FIRST,
	OPT_TRACEFS,
	OPT_BUFFER_SIZE,
	OPT_EVENTS,
	OPT_REPLAY,
};

/* clang-format off */
static const struct option long_options[] = {
	MONITOR_LONG_OPTIONS,
	{ "interval", required_argument, NULL, 'i' },
	{ "tracefs", required_argument, NULL, OPT_TRACEFS },
	{ "buffer-size", required_argument, NULL, OPT_BUFFER_SIZE },
	{ "events", required_argument, NULL, OPT_EVENTS },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	OPT_LONG_END
};
/* clang-format on */
static const char short_options[] = MONITOR_SHORT_OPTIONS "i:";

#define DEFAULT_MOUNT "/sys/kernel/tracing"

/* The stalls measured. */
enum stall {
	S_DIRECT_RECLAIM,
	S_MEMCG_RECLAIM,
	S_COMPACTION,
	S_BALANCE_DIRTY, /* time = the pause field */
	S_THROTTLED,	 /* time = the usec_delayed field */
	N_STALLS,
};

static const char *const stall_names[N_STALLS] = {
	[S_DIRECT_RECLAIM] = "direct_reclaim",
	[S_MEMCG_RECLAIM] = "memcg_reclaim",
	[S_COMPACTION] = "compaction",
	[S_BALANCE_DIRTY] = "balance_dirty_pages",
	[S_THROTTLED] = "reclaim_throttled",
};

enum role {
	R_BEGIN,
	R_END,
	R_POINT, /* one event carries the duration */
};

struct event_def {
	const char *sys;
	const char *name;
	enum stall stall;
	enum role role;
	bool fallback; /* enabled only when the entry before is missing */
};

static const struct event_def event_defs[] = {
	{ "vmscan", "mm_vmscan_direct_reclaim_begin", S_DIRECT_RECLAIM, R_BEGIN,
	  false },
	{ "vmscan", "mm_vmscan_direct_reclaim_end", S_DIRECT_RECLAIM, R_END,
	  false },
	{ "vmscan", "mm_vmscan_memcg_reclaim_begin", S_MEMCG_RECLAIM, R_BEGIN,
	  false },
	{ "vmscan", "mm_vmscan_memcg_reclaim_end", S_MEMCG_RECLAIM, R_END,
	  false },
	{ "compaction", "mm_compaction_begin", S_COMPACTION, R_BEGIN, false },
	/* Where compact_zone() has no begin event, time from the call. */
	{ "compaction", "mm_compaction_try_to_compact_pages", S_COMPACTION,
	  R_BEGIN, true },
	{ "compaction", "mm_compaction_end", S_COMPACTION, R_END, false },
	{ "writeback", "balance_dirty_pages", S_BALANCE_DIRTY, R_POINT, false },
	{ "vmscan", "mm_vmscan_throttled", S_THROTTLED, R_POINT, false },
};
#define N_EVENTS (sizeof(event_defs) / sizeof(event_defs[0]))

/* A task inside a stall: the begin event's time. */
struct open_stall {
	int pid;
	uint64_t ts_ns;
};

struct stall_stats {
	bool have_begin, have_end; /* their events exist here */
	uint64_t count, total_ns, max_ns;
	uint64_t unmatched;	  /* an end without a begin, or a lost end */
	uint64_t period_ns;	  /* balance_dirty_pages: sum of period */
	uint64_t iv_count, iv_ns; /* in the current interval */
	struct open_stall *open;
	size_t n_open, alloc_open;
};

struct trace {
	struct monitor m;
	uint64_t interval_ns;
	uint64_t buffer_kb;
	const char *live_opt;	 /* an option that --replay excludes */
	const char *events_path; /* --events */
	int events_fd;
	uint64_t events_size;	 /* bytes of whole lines written */
	const char *replay;	 /* --replay */
	bool started;		 /* the "started=1" line was written */
	const char *tracefs_opt; /* --tracefs */
	char *tracefs;		 /* the tracefs in use */
	bool mounted;		 /* by us: unmount at exit */
	char *instance;		 /* our instance directory */
	int pipe_fd;
	bool enabled[N_EVENTS];
	struct stall_stats st[N_STALLS];
	struct mlines lines_in; /* a partial line carried over */
	uint64_t lines, bad_lines;
};

/* For the atexit cleanup, which must also run when a die() ends the run. */
static struct trace *cleanup_trace;

static void usage(int status)
{
	if (status != EXIT_OK)
		usage_error(NULL);
	/* clang-format off */
	printf("Usage: %s [OPTION]...\n"
	       "Measure time tasks spend stalled in direct reclaim, compaction and\n"
	       "writeback throttling, from kernel tracepoints (needs root).\n"
	       "\n"
	       "  -i, --interval=TIME  report every TIME (default 1s)\n"
	       "      --tracefs=DIR    use the tracefs mounted at DIR\n"
	       "      --buffer-size=SIZE  per-CPU trace buffer (default 2M)\n"
	       "      --events=FILE    also list every stall in FILE (a new file): its end\n"
	       "                       (CLOCK_MONOTONIC), kind, duration and task\n"
	       "      --replay=FILE    read a recorded trace_pipe from FILE instead of\n"
	       "                       tracing (no root needed)\n"
	       "%s\n"
	       "Sizes and durations: 64k = 65536 bytes; 250ms, 10s, 2m.\n",
	       progname(), monitor_common_help);
	/* clang-format on */
	exit(EXIT_OK);
}

/* Write S to DIR/NAME.  Returns 0 or -errno. */
static void cleanup(void)
{
	struct trace *t = cleanup_trace;

	if (!t)
		return;
	cleanup_trace = NULL;
	if (t->pipe_fd >= 0)
		(void)close(t->pipe_fd); /* read-only */
	/* Failed before the start: no events file rather than an empty
	 * one that looks like a run without stalls. */
	if (!t->started && t->events_fd >= 0) {
		(void)close(t->events_fd); /* it is removed anyway */
		t->events_fd = -1;
		if (unlink(t->events_path))
			warn_errno("cannot remove '%s'", t->events_path);
	}
	/* Removing the instance also disables its events. */
	if (t->instance && rmdir(t->instance))
		warn_errno("cannot remove trace instance '%s'", t->instance);
	if (t->mounted && umount(t->tracefs))
		warn_errno("cannot unmount '%s'", t->tracefs);
}

/* The mount point of a filesystem of TYPE, or NULL. */
static char *find_mount(const char *type)
{
	struct mntent *me;
	char *dir = NULL;
	FILE *f = setmntent("/proc/self/mounts", "r");

	if (!f)
		return NULL;
	while (!dir && (me = getmntent(f)))
		if (!strcmp(me->mnt_type, type))
			dir = xstrdup(me->mnt_dir);
	endmntent(f);
	return dir;
}

/* Find tracefs, mounting it where it is not; dies with 3 when it cannot. */
static void find_tracefs(struct trace *t)
{
	char path[4096];
	char *debugfs;

	if (t->tracefs_opt) {
		t->tracefs = xstrdup(t->tracefs_opt);
	} else if ((t->tracefs = find_mount("tracefs"))) {
		;
	} else if ((debugfs = find_mount("debugfs"))) {
		t->tracefs = xasprintf("%s/tracing", debugfs);
		free(debugfs);
	} else {
		if (mount("nodev", DEFAULT_MOUNT, "tracefs", 0, NULL))
			die_errno(EXIT_UNSUPPORTED,
				  "cannot mount tracefs on '%s'%s",
				  DEFAULT_MOUNT,
				  geteuid() ? " (needs root)" : "");
		t->tracefs = xstrdup(DEFAULT_MOUNT);
		t->mounted = true;
	}
	snprintf(path, sizeof(path), "%s/instances", t->tracefs);
	if (access(path, F_OK))
		die_errno(EXIT_UNSUPPORTED, "%s '%s'%s",
			  errno == EACCES ? "cannot use the tracefs at"
					  : "no trace instances in",
			  t->tracefs, geteuid() ? " (needs root)" : "");
}

/* Make our own instance, so the global buffer is left alone. */
static void make_instance(struct trace *t)
{
	char buf[32];
	int r;

	t->instance = xasprintf("%s/instances/latency-tests-%ld", t->tracefs,
				(long)getpid());
	/* A directory of a dead run with our pid: reuse its name. */
	if (mkdir(t->instance, 0755) && errno == EEXIST)
		(void)rmdir(t->instance); /* mkdir below says why */
	if (access(t->instance, F_OK) && mkdir(t->instance, 0755)) {
		int e = errno;

		free(t->instance);
		t->instance = NULL;
		die_err(e == EACCES || e == EPERM ? EXIT_UNSUPPORTED
						  : EXIT_RUN_FAILED,
			e, "cannot create a trace instance in '%s/instances'%s",
			t->tracefs, geteuid() ? " (needs root)" : "");
	}
	/* Event times on CLOCK_MONOTONIC, the suite's one clock. */
	r = monitor_write_knob(t->instance, "trace_clock", "mono");
	if (r)
		die_err(EXIT_UNSUPPORTED, -r, "cannot set trace_clock to mono");
	snprintf(buf, sizeof(buf), "%" PRIu64, t->buffer_kb);
	r = monitor_write_knob(t->instance, "buffer_size_kb", buf);
	if (r)
		die_err(EXIT_RUN_FAILED, -r,
			"cannot set the trace buffer size");
}

static void enable_events(struct trace *t)
{
	char name[512];
	size_t i;
	int r;

	for (i = 0; i < N_EVENTS; i++) {
		const struct event_def *e = &event_defs[i];
		struct stall_stats *st = &t->st[e->stall];

		if (e->fallback && t->enabled[i - 1])
			continue;
		snprintf(name, sizeof(name), "events/%s/%s/enable", e->sys,
			 e->name);
		r = monitor_write_knob(t->instance, name, "1");
		if (r == -ENOENT) {
			if (!(i + 1 < N_EVENTS && event_defs[i + 1].fallback))
				monitor_emit(&t->m, mono_ns(),
					     "event=%s/%s state=unavailable",
					     e->sys, e->name);
			continue;
		}
		if (r)
			die_err(EXIT_RUN_FAILED, -r, "cannot enable %s/%s",
				e->sys, e->name);
		t->enabled[i] = true;
		if (e->role != R_END)
			st->have_begin = true;
		if (e->role != R_BEGIN)
			st->have_end = true;
	}
	snprintf(name, sizeof(name), "%s/trace_pipe", t->instance);
	t->pipe_fd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (t->pipe_fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot open '%s'", name);
}

static bool stall_available(const struct stall_stats *st)
{
	return st->have_begin && st->have_end;
}

/*
 * A completed stall of kind S by task PID, ending at END_NS
 * (CLOCK_MONOTONIC) after NS: counted, and listed in the --events file.
 */
static void add_stall(struct trace *t, enum stall s, int pid, uint64_t end_ns,
		      uint64_t ns)
{
	struct stall_stats *st = &t->st[s];
	char line[160], end[32], dur[32];
	int n, r;

	st->count++;
	st->total_ns += ns;
	st->iv_count++;
	st->iv_ns += ns;
	if (ns > st->max_ns)
		st->max_ns = ns;
	if (t->events_fd < 0)
		return;
	end[fmt_ns_fixed(end, end_ns, 9)] = '\0';
	dur[fmt_ns_fixed(dur, ns, 9)] = '\0';
	n = snprintf(line, sizeof(line), "%s %s %s pid=%d\n", end,
		     stall_names[s], dur, pid);
	/* One write() a line; a line cut short (the disk full) is taken
	 * back, so the file never ends in half a line. */
	r = write_all(t->events_fd, line, (size_t)n);
	if (r) {
		if (ftruncate(t->events_fd, (off_t)t->events_size) < 0) {
			/* The write's error is the one said; a half line
			 * left is one the reader counts as malformed. */
		}
		die_err(EXIT_RUN_FAILED, -r, "cannot write '%s'",
			t->events_path);
	}
	t->events_size += (uint64_t)n;
}

static void stall_begin(struct stall_stats *st, int pid, uint64_t ts)
{
	size_t i;

	for (i = 0; i < st->n_open; i++)
		if (st->open[i].pid == pid) {
			/* The end of the previous one was lost. */
			st->unmatched++;
			st->open[i].ts_ns = ts;
			return;
		}
	if (st->n_open == st->alloc_open) {
		st->alloc_open = st->alloc_open ? 2 * st->alloc_open : 64;
		st->open = xreallocarray(st->open, st->alloc_open,
					 sizeof(*st->open));
	}
	st->open[st->n_open].pid = pid;
	st->open[st->n_open].ts_ns = ts;
	st->n_open++;
}

static void stall_end(struct trace *t, enum stall s, int pid, uint64_t ts)
{
	struct stall_stats *st = &t->st[s];
	size_t i;

	for (i = 0; i < st->n_open; i++)
		if (st->open[i].pid == pid) {
			uint64_t begin = st->open[i].ts_ns;

			st->open[i] = st->open[--st->n_open];
			add_stall(t, s, pid, ts, ts > begin ? ts - begin : 0);
			return;
		}
	st->unmatched++;
}

/*
 * The field KEY of a tracepoint's FIELDS as a non-negative count of UNIT
 * nanoseconds (a negative value is 0); false when it is absent or
 * malformed.
 */
static bool field_ns(const struct kparse_trace *e, const char *key,
		     uint64_t unit, uint64_t *ns)
{
	int64_t v;

	if (kparse_trace_field(e->fields, e->fields_len, key, &v))
		return false;
	if (v > 0 && (uint64_t)v > UINT64_MAX / unit)
		return false;
	*ns = v > 0 ? (uint64_t)v * unit : 0;
	return true;
}

/* An event that carries its stall's duration; false when malformed. */
static bool point_event(struct trace *t, enum stall s,
			const struct kparse_trace *e)
{
	uint64_t ns, period;

	if (s == S_BALANCE_DIRTY) {
		/* pause and period are in ms.  The tracepoint fires before
		 * the task sleeps for pause; a pause <= 0 did not sleep. */
		if (!field_ns(e, "pause", NSEC_PER_MSEC, &ns) ||
		    ns > UINT64_MAX - e->ts_ns)
			return false;
		if (field_ns(e, "period", NSEC_PER_MSEC, &period))
			t->st[s].period_ns += period;
		if (ns)
			add_stall(t, s, e->pid, e->ts_ns + ns, ns);
		return true;
	}
	/* It fires after the sleep.  Linux prints the field as
	 * "usect_delayed" (sic). */
	if (!field_ns(e, "usect_delayed", NSEC_PER_USEC, &ns) &&
	    !field_ns(e, "usec_delayed", NSEC_PER_USEC, &ns))
		return false;
	add_stall(t, s, e->pid, e->ts_ns, ns);
	return true;
}

/* One trace_pipe line of LEN bytes (see kparse_trace_line()). */
static void trace_line(struct trace *t, const char *line, size_t len)
{
	struct kparse_trace e;
	size_t i;

	t->lines++;
	if (kparse_trace_line(line, len, &e)) {
		t->bad_lines++;
		return;
	}
	for (i = 0; i < N_EVENTS; i++) {
		const struct event_def *d = &event_defs[i];
		struct stall_stats *st = &t->st[d->stall];

		if (!t->enabled[i] || strlen(d->name) != e.event_len ||
		    memcmp(e.event, d->name, e.event_len))
			continue;
		/* A recording may hold both: the fallback only counts
		 * until its primary event shows up. */
		if (i + 1 < N_EVENTS && event_defs[i + 1].fallback)
			t->enabled[i + 1] = false;
		/* kcompactd compacts in the background: no task waits. */
		if (d->stall == S_COMPACTION &&
		    memmem(e.comm, e.comm_len, "kcompactd", 9))
			return;
		if (d->role == R_BEGIN)
			stall_begin(st, e.pid, e.ts_ns);
		else if (d->role == R_END)
			stall_end(t, d->stall, e.pid, e.ts_ns);
		else if (!point_event(t, d->stall, &e))
			t->bad_lines++;
		return;
	}
}

static void line_cb(void *ctx, const char *line, size_t len)
{
	trace_line(ctx, line, len);
}

/*
 * Read what trace_pipe (or the --replay file) holds now.  Returns 0, 1 at
 * the end of the file, or -errno.
 */
static int trace_drain(struct trace *t)
{
	return monitor_read_lines(t->pipe_fd, &t->lines_in, line_cb, t);
}

static void report_interval(struct trace *t, uint64_t now)
{
	char line[PROGRESS_LINE_MAX - 256], num[32];
	size_t n = 0;
	int s, r;

	line[0] = '\0';
	for (s = 0; s < N_STALLS; s++) {
		struct stall_stats *st = &t->st[s];

		if (!stall_available(st))
			continue;
		num[fmt_ns_fixed(num, st->iv_ns, 6)] = '\0';
		r = snprintf(line + n, sizeof(line) - n,
			     "%s%s_count=%" PRIu64 " %s_time_s=%s",
			     n ? " " : "", stall_names[s], st->iv_count,
			     stall_names[s], num);
		if (r > 0 && (size_t)r < sizeof(line) - n)
			n += (size_t)r;
		st->iv_count = st->iv_ns = 0;
	}
	monitor_emit(&t->m, now, "interval=1 %s", line);
}

static void run(struct trace *t)
{
	uint64_t next = t->m.start_ns + t->interval_ns, now;
	int r;

	for (;;) {
		r = monitor_wait_fd(t->pipe_fd, POLLIN,
				    next < t->m.end_ns ? next : t->m.end_ns);
		if (r < 0)
			die_err(EXIT_RUN_FAILED, -r,
				"cannot wait for trace_pipe");
		r = trace_drain(t);
		if (r < 0)
			die_err(EXIT_RUN_FAILED, -r, "cannot read trace_pipe");
		now = mono_ns();
		if (now >= next) {
			report_interval(t, now);
			while (next <= now)
				next += t->interval_ns;
		}
		if (monitor_done(&t->m, now))
			break;
	}
}

/* --replay: the recording to its end (or a stop), with no interval lines. */
static void replay(struct trace *t)
{
	size_t i;
	int r;

	/* A recording may hold any of the events. */
	for (i = 0; i < N_EVENTS; i++) {
		struct stall_stats *st = &t->st[event_defs[i].stall];

		t->enabled[i] = true;
		st->have_begin = st->have_end = true;
	}
	t->pipe_fd = open(t->replay, O_RDONLY | O_CLOEXEC);
	if (t->pipe_fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot open '%s'", t->replay);
	t->started = true;
	monitor_emit(&t->m, mono_ns(), "started=1 source=replay");
	do {
		r = trace_drain(t);
		if (r < 0)
			die_err(EXIT_RUN_FAILED, -r, "cannot read '%s'",
				t->replay);
	} while (!r && !monitor_done(&t->m, mono_ns()));
	if (r == 1)
		t->m.end_reason = "end_of_file";
	(void)monitor_done(&t->m, mono_ns()); /* records a stop signal */
}

/*
 * --events: a new file (never one that exists, never through a symlink: a
 * driver running as root writes it into a results directory).
 */
static void open_events(struct trace *t)
{
	t->events_fd = open(
		t->events_path,
		O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (t->events_fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot create '%s'",
			  t->events_path);
}

static void summarise(struct trace *t)
{
	struct msum *sum = &t->m.sum;
	char key[128];
	int s;

	msum_bool(sum, "replay", t->replay != NULL);
	if (!t->replay) {
		msum_str(sum, "tracefs", t->tracefs);
		msum_bool(sum, "tracefs_mounted", t->mounted);
		msum_str(sum, "instance", strrchr(t->instance, '/') + 1);
	}
	for (s = 0; s < N_STALLS; s++) {
		struct stall_stats *st = &t->st[s];
		const char *name = stall_names[s];

		snprintf(key, sizeof(key), "%s_available", name);
		msum_bool(sum, key, stall_available(st));
		if (!stall_available(st))
			continue;
		snprintf(key, sizeof(key), "%s_count", name);
		msum_u64(sum, key, st->count);
		snprintf(key, sizeof(key), "%s_total_s", name);
		msum_ns(sum, key, st->total_ns);
		snprintf(key, sizeof(key), "%s_max_s", name);
		msum_ns(sum, key, st->max_ns);
		if (s == S_BALANCE_DIRTY) {
			snprintf(key, sizeof(key), "%s_period_total_s", name);
			msum_ns(sum, key, st->period_ns);
		} else if (s != S_THROTTLED) {
			snprintf(key, sizeof(key), "%s_unmatched", name);
			msum_u64(sum, key, st->unmatched);
			snprintf(key, sizeof(key), "%s_open_at_end", name);
			msum_u64(sum, key, st->n_open);
		}
	}
	msum_u64(sum, "trace_lines", t->lines);
	msum_u64(sum, "unparsed_lines", t->bad_lines);
	if (!t->replay)
		msum_u64(sum, "events_lost", monitor_events_lost(t->instance));
}

static void parse_options(struct trace *t, int argc, char **argv)
{
	int opt;

	while ((opt = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1) {
		if (monitor_handle_opt(&t->m, opt, optarg, usage))
			continue;
		switch (opt) {
		case 'i':
			t->interval_ns = monitor_opt_interval(optarg);
			t->live_opt = "--interval";
			break;
		case OPT_TRACEFS:
			t->tracefs_opt = optarg;
			t->live_opt = "--tracefs";
			break;
		case OPT_BUFFER_SIZE:
			t->buffer_kb =
				opt_size("--buffer-size", optarg, 1) / 1024;
			if (t->buffer_kb < 4)
				usage_error("--buffer-size must be at least "
					    "4k");
			t->live_opt = "--buffer-size";
			break;
		case OPT_EVENTS:
			if (!*optarg)
				usage_error("--events needs a file name");
			t->events_path = optarg;
			break;
		case OPT_REPLAY:
			if (!*optarg)
				usage_error("--replay needs a file name");
			t->replay = optarg;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (t->replay && t->live_opt)
		usage_error("%s does not apply to --replay", t->live_opt);
}

int main(int argc, char **argv)
{
	struct trace t;
	int s, status;

	prog_init(argc, argv);
	memset(&t, 0, sizeof(t));
	monitor_init(&t.m);
	t.pipe_fd = -1;
	t.events_fd = -1;
	t.interval_ns = NSEC_PER_SEC;
	t.buffer_kb = 2048;
	parse_options(&t, argc, argv);
	status = monitor_start(&t.m, argc, argv, NULL);
	if (status)
		return status;
	cleanup_trace = &t;
	atexit(cleanup);
	if (t.events_path)
		open_events(&t);
	if (t.replay) {
		replay(&t);
	} else {
		find_tracefs(&t);
		make_instance(&t);
		enable_events(&t);
		/* Tests and drivers wait for this line before they start
		 * the load. */
		t.started = true;
		monitor_emit(&t.m, mono_ns(), "started=1 tracefs=%s",
			     t.tracefs);
		run(&t);
	}
	summarise(&t);
	cleanup();
	for (s = 0; s < N_STALLS; s++)
		free(t.st[s].open);
	free(t.tracefs);
	free(t.instance);
	status = monitor_finish(&t.m);
	if (t.events_fd >= 0 && close(t.events_fd)) {
		error_errno("cannot close '%s'", t.events_path);
		status = EXIT_RUN_FAILED;
	}
	return status;
}
