/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the three kernel monitors (latency-vmstat, latency-kmsg,
 * latency-trace) share: their common options (--duration, -o, --summary,
 * --format), the output stream of progress lines (doc/design.md, contract 1),
 * the run window, a race-free wait on a file descriptor that a stop signal
 * interrupts, and the summary: an ordered list of key=value fields written
 * both as the stream's last line and as an atomic text or JSON file.
 *
 * A monitor's normal end is being told to stop: SIGINT, SIGTERM and SIGHUP
 * end the run like --duration does, and the program exits 0 (the suite's
 * 128+N rule does not apply; the summary's end_reason says which it was).
 */
#ifndef MONITORS_MONITOR_H
#define MONITORS_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "lib/opt.h"
#include "lib/output.h"
#include "lib/progress.h"

/* Long options every monitor has, and their handler's option numbers. */
enum {
	OPT_SUMMARY = OPT_PROG_FIRST,
	/* A monitor's own long-only options start here. */
	OPT_MONITOR_FIRST,
};

/* clang-format off */
#define MONITOR_LONG_OPTIONS \
	OPT_LONG_HELP, OPT_LONG_VERSION, OPT_LONG_QUIET, OPT_LONG_DURATION, \
	OPT_LONG_OUTPUT, OPT_LONG_FORMAT, \
	{ "summary", required_argument, NULL, OPT_SUMMARY }
#define MONITOR_SHORT_OPTIONS OPT_SHORT_HELP OPT_SHORT_QUIET OPT_SHORT_OUTPUT
/* clang-format on */

/* Help text for the options above, for usage(). */
extern const char monitor_common_help[];

enum msum_type {
	MSUM_U64,
	MSUM_I64,
	MSUM_NS,  /* nanoseconds, written as seconds */
	MSUM_STR, /* no white space: it is also a key=value field */
	MSUM_BOOL,
	MSUM_DOUBLE, /* written with two decimals */
};

struct msum_field {
	char *key;
	enum msum_type type;
	uint64_t u; /* MSUM_U64, MSUM_NS */
	int64_t i;  /* MSUM_I64 */
	char *s;    /* MSUM_STR */
	bool b;	    /* MSUM_BOOL */
	double d;   /* MSUM_DOUBLE */
};

/* The summary: fields in the order they were added. */
struct msum {
	struct msum_field *f;
	size_t n, alloc;
};

struct monitor {
	struct opt_common oc;
	const char *summary_path; /* NULL: no summary file */
	enum out_format fmt;
	struct run_info ri;
	int out_fd;		/* stdout, or the -o file */
	mode_t out_mode;	/* of the -o file (default 0644) */
	struct progress out;	/* progress lines to out_fd */
	uint64_t start_ns;	/* CLOCK_MONOTONIC at monitor_start() */
	uint64_t end_ns;	/* start + --duration, or UINT64_MAX */
	int stop_signal;	/* the signal that ended the run, or 0 */
	const char *end_reason; /* else than "signal" or "duration" */
	int emit_err;		/* the stream's first error, -errno */
	struct msum sum;
	/*
	 * What does not fit key=value fields (latency-block's devices):
	 * written after them, into the JSON summary's top object and as
	 * text lines; NULL for none.  Not on the stream's last line.
	 */
	void (*json_extra)(struct json *j, void *ctx);
	void (*text_extra)(FILE *f, void *ctx);
	void *extra_ctx;
};

/* Defaults for M, before option parsing. */
void monitor_init(struct monitor *m);

/*
 * Handle OPT if it is a common monitor option (including the lib/opt.h
 * ones); returns true when handled.  Bad values exit through usage_error().
 */
bool monitor_handle_opt(struct monitor *m, int opt, const char *arg,
			void (*usage)(int status));

/* The value of --interval: a duration of at least 1ms, else a usage error. */
uint64_t monitor_opt_interval(const char *arg);

/*
 * After option parsing: check --format, open the -o file (OUTPUT overrides
 * oc.output when not NULL; created with out_mode, and an existing file loses
 * the permissions out_mode does not grant), install the stop-signal handler, record the run
 * description and the start time.  Returns 0, or 1 after saying what
 * failed (a bad --format exits 2 as a usage error).
 */
int monitor_start(struct monitor *m, int argc, char **argv, const char *output);

/*
 * True once the run should end (a stop signal arrived, NOW_NS is past the
 * --duration end, or the stream cannot be written); records which in the
 * summary's end_reason.
 */
bool monitor_done(struct monitor *m, uint64_t now_ns);

/*
 * Wait until FD is readable, DEADLINE_NS (CLOCK_MONOTONIC) passes or a
 * stop signal arrives, without the race between testing sig_stop and
 * sleeping (ppoll with the stop signals blocked until it waits).  Returns 1
 * when readable, 0 on deadline or signal, -errno on error.
 */
int monitor_wait_fd(int fd, short events, uint64_t deadline_ns);

/*
 * Emit one progress line stamped TS_NS on M's stream.  A write error is
 * said once and ends the run (a monitor that cannot record has nothing
 * left to do): monitor_done() is true from then on, later lines are
 * dropped, and monitor_finish() returns 1.
 */
void monitor_emit(struct monitor *m, uint64_t ts_ns, const char *fmt, ...)
	PRINTF_LIKE(3, 4);

/*
 * End the run: add end_reason ("signal", else the end_reason set, else
 * "duration") and duration_s to the summary, emit it as the
 * stream's last line ("summary=1 key=value ..."), write the summary file
 * (atomic) and close the stream.  Returns the exit status (0, or 1 when
 * something could not be written).
 */
int monitor_finish(struct monitor *m);

/* Lines read from a trace_pipe or a recording, a partial one kept. */
struct mlines {
	char line[8192];
	size_t len;
};

/*
 * Read what FD holds now (non-blocking: until EAGAIN), handing each whole
 * line to FN without its newline; an over-long line is cut, never split.
 * Returns 0, 1 at the end of the file (a last line without its newline is
 * handed over then), or -errno.
 */
int monitor_read_lines(int fd, struct mlines *l,
		       void (*fn)(void *ctx, const char *line, size_t len),
		       void *ctx);

/*
 * Events a trace instance's ring buffer dropped (per_cpu/cpuN/stats
 * "overrun:"), INSTANCE its directory.
 */
uint64_t monitor_events_lost(const char *instance);

/*
 * Write S to the knob NAME below the directory DIR (a trace instance's
 * "buffer_size_kb", "events/block/block_rq_issue/enable"), as
 * write_small_file() does: 0 or -errno.
 */
int monitor_write_knob(const char *dir, const char *name, const char *s);

/* Append a field to S (KEY is copied). */
void msum_u64(struct msum *s, const char *key, uint64_t v);
void msum_i64(struct msum *s, const char *key, int64_t v);
void msum_ns(struct msum *s, const char *key, uint64_t ns);
void msum_str(struct msum *s, const char *key, const char *v);
void msum_bool(struct msum *s, const char *key, bool v);
void msum_double(struct msum *s, const char *key, double v);
void msum_release(struct msum *s);

#endif
