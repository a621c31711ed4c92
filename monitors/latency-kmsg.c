// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-kmsg: follow the kernel log for the test window only and count
 * what the 2009 threads counted: page allocation failures (the Failures
 * figure), OOM kills, hung-task warnings, oopses, BUGs and warnings.  Reads
 * /dev/kmsg from its end, so only messages logged after the start count;
 * where /dev/kmsg cannot be read it polls the syslog(2) buffer instead and
 * keeps the messages newer than a start marker.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/kparse.h"
#include "lib/opt.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "monitors/monitor.h"

enum {
	OPT_LOG = OPT_MONITOR_FIRST,
	OPT_SOURCE,
	OPT_MATCH,
};

/* clang-format off */
static const struct option long_options[] = {
	MONITOR_LONG_OPTIONS,
	{ "log", required_argument, NULL, OPT_LOG },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "match", required_argument, NULL, OPT_MATCH },
	OPT_LONG_END
};
/* clang-format on */
static const char short_options[] = MONITOR_SHORT_OPTIONS;

/* syslog(2) actions (sys/klog.h declares only the call). */
#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10

/* The highest order:N counted on its own (MAX_PAGE_ORDER is 10 today). */
#define MAX_FAILURE_ORDER 63

/* How often the syslog(2) fallback looks for new messages. */
#define SYSLOG_POLL_NS (200 * NSEC_PER_MSEC)

enum source {
	SRC_AUTO,
	SRC_KMSG,
	SRC_SYSLOG,
};

/* --source, in the order of enum source. */
static const char *const source_names[] = { "auto", "kmsg", "syslog", NULL };

enum count_id {
	C_FAILURES,
	C_OOM_KILLS,
	C_OOM_INVOKED,
	C_HUNG_TASKS,
	C_OOPSES,
	C_BUGS,
	C_WARNINGS,
	N_COUNTS,
};

/* What is counted: a message counts once per pattern it contains. */
static const struct pattern {
	const char *needle;
	enum count_id id;
	const char *class;
} patterns[] = {
	{ "page allocation failure", C_FAILURES, "failure" },
	/* One kill logs "oom-kill:..." and "...: Killed process N": count
	 * the latter, which every kernel since 2.6 prints once per kill. */
	{ "Killed process", C_OOM_KILLS, "oom-kill" },
	{ "invoked oom-killer", C_OOM_INVOKED, "oom" },
	{ "blocked for more than", C_HUNG_TASKS, "hung-task" },
	{ "Oops", C_OOPSES, "oops" },
	{ "BUG:", C_BUGS, "bug" },
	{ "WARNING:", C_WARNINGS, "warning" },
};

static const char *const count_names[N_COUNTS] = {
	[C_FAILURES] = "failures",	 [C_OOM_KILLS] = "oom_kills",
	[C_OOM_INVOKED] = "oom_invoked", [C_HUNG_TASKS] = "hung_tasks",
	[C_OOPSES] = "oopses",		 [C_BUGS] = "bugs",
	[C_WARNINGS] = "warnings",
};

struct kmsg {
	struct monitor m;
	enum source source;
	const char *log;   /* --log FILE */
	const char *match; /* --match TEXT */
	int fd;		   /* /dev/kmsg */
	uint64_t messages;
	uint64_t lost;	    /* overwritten before we read them */
	uint64_t malformed; /* /dev/kmsg records not in its format */
	uint64_t counts[N_COUNTS];
	/* Failures by the order:N of their message; the rest unknown. */
	uint64_t failure_orders[MAX_FAILURE_ORDER + 1];
	uint64_t failure_order_unknown;
	bool have_seq;
	uint64_t last_seq;
	/* syslog(2) fallback: the newest message already seen */
	char *buf;
	int buf_len;
	uint64_t mark_us;
	uint64_t mark_same; /* messages at mark_us already seen */
};

static void usage(int status)
{
	if (status != EXIT_OK)
		usage_error(NULL);
	/* clang-format off */
	printf("Usage: %s [OPTION]...\n"
	       "Follow the kernel log from now on and count page allocation failures,\n"
	       "OOM kills, hung tasks, oopses and warnings.\n"
	       "\n"
	       "      --log=FILE       write the messages to FILE (same as --output)\n"
	       "      --source=SRC     kmsg (/dev/kmsg), syslog (syslog(2) buffer) or\n"
	       "                       auto (kmsg, else syslog; the default)\n"
	       "      --match=TEXT     only log and count messages containing TEXT\n"
	       "%s\n"
	       "Durations: 250ms, 10s, 2m.\n",
	       progname(), monitor_common_help);
	/* clang-format on */
	exit(EXIT_OK);
}

/*
 * The order of an allocation failure message: "...: page allocation
 * failure: order:2, mode:..." (and 2009's "failure. order:2,"); -1 when
 * it has none.
 */
static int failure_order(const char *msg)
{
	const char *p = strstr(msg, "page allocation failure");
	unsigned v = 0;
	int digits = 0;

	p = p ? strstr(p, "order:") : NULL;
	if (!p)
		return -1;
	for (p += 6; *p >= '0' && *p <= '9' && digits < 3; p++, digits++)
		v = v * 10 + (unsigned)(*p - '0');
	if (!digits || (*p >= '0' && *p <= '9') || v > MAX_FAILURE_ORDER)
		return -1;
	return (int)v;
}

/* Count MSG and write it out, stamped with the kernel's time KTS_US. */
static void message(struct kmsg *k, uint64_t seq, unsigned pri, uint64_t kts_us,
		    const char *msg)
{
	const char *class = "-";
	size_t i;

	if (k->match && !strstr(msg, k->match))
		return;
	k->messages++;
	for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		if (!strstr(msg, patterns[i].needle))
			continue;
		/* "BUG:" lines are oopses too (see the man page). */
		if (patterns[i].id == C_BUGS && !strstr(msg, "Oops"))
			k->counts[C_OOPSES]++;
		if (patterns[i].id == C_FAILURES) {
			int order = failure_order(msg);

			if (order < 0)
				k->failure_order_unknown++;
			else
				k->failure_orders[order]++;
		}
		k->counts[patterns[i].id]++;
		if (*class == '-')
			class = patterns[i].class;
	}
	monitor_emit(&k->m, mono_ns(),
		     "kts=%" PRIu64 ".%06u seq=%" PRIu64
		     " level=%u facility=%u class=%s msg=%s",
		     kts_us / 1000000, (unsigned)(kts_us % 1000000), seq,
		     pri & 7, pri >> 3, class, msg);
}

/* One /dev/kmsg record of LEN bytes (REC has room for a NUL after it). */
static void kmsg_record(struct kmsg *k, char *rec, size_t len)
{
	struct kparse_kmsg r;
	char *text;

	if (kparse_kmsg(rec, len, &r)) {
		k->malformed++;
		return;
	}
	text = rec + (r.text - rec);
	text[r.text_len] = '\0';
	if (k->have_seq && r.seq > k->last_seq + 1)
		k->lost += r.seq - k->last_seq - 1;
	k->have_seq = true;
	k->last_seq = r.seq;
	message(k, r.seq, r.pri, r.ts_us, text);
}

/* Read every record available now.  Returns 0 or -errno. */
static int kmsg_drain(struct kmsg *k)
{
	char rec[8192 + 1];

	for (;;) {
		ssize_t n = read(k->fd, rec, sizeof(rec) - 1);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* Overwritten before we read it: the sequence gap
			 * of the next record says how many. */
			if (errno == EPIPE)
				continue;
			return errno == EAGAIN ? 0 : -errno;
		}
		if (n == 0)
			return 0;
		rec[n] = '\0';
		kmsg_record(k, rec, (size_t)n);
	}
}

static int kmsg_open(struct kmsg *k)
{
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0)
		return -errno;
	/* Only messages logged from now on belong to the test. */
	if (lseek(k->fd, 0, SEEK_END) < 0) {
		int e = errno;

		close(k->fd);
		k->fd = -1;
		return -e;
	}
	return 0;
}

static void kmsg_run(struct kmsg *k)
{
	for (;;) {
		int r = monitor_wait_fd(k->fd, POLLIN, k->m.end_ns);

		if (r < 0)
			die_err(EXIT_RUN_FAILED, -r,
				"cannot wait for /dev/kmsg");
		/* Read what is there even when stopping: messages written
		 * before the stop belong to the test. */
		r = kmsg_drain(k);
		if (r)
			die_err(EXIT_RUN_FAILED, -r, "cannot read /dev/kmsg");
		if (monitor_done(&k->m, mono_ns()))
			break;
	}
	close(k->fd);
}

/*
 * Read the whole buffer and handle the messages newer than the mark; with
 * EMIT false only move the mark (the start).  Returns 0 or -errno.
 */
static int syslog_poll(struct kmsg *k, bool emit)
{
	uint64_t mark = k->mark_us, same = 0;
	char *line, *next;
	int n = klogctl(SYSLOG_ACTION_READ_ALL, k->buf, k->buf_len);

	if (n < 0)
		return -errno;
	k->buf[n] = '\0';
	for (line = k->buf; *line; line = next) {
		struct kparse_syslog l;
		uint64_t us;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		/* Lines without a time (printk.time=0) cannot be placed
		 * before or after the mark: they are left out. */
		if (kparse_syslog_line(line, strlen(line), &l))
			continue;
		us = l.ts_us;
		/* Messages logged in the same microsecond as the mark:
		 * the first mark_same of them were handled before. */
		if (us < mark || (us == mark && ++same <= k->mark_same))
			continue;
		if (us > k->mark_us) {
			k->mark_us = us;
			k->mark_same = 0;
		}
		k->mark_same++;
		if (emit)
			message(k, 0, l.pri, us, line + (l.text - line));
	}
	return 0;
}

static int syslog_open(struct kmsg *k)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);

	if (size < 0)
		return -errno;
	k->buf_len = size > 0 ? size : 1 << 20;
	k->buf = xmalloc((size_t)k->buf_len + 1);
	return syslog_poll(k, false);
}

static void syslog_run(struct kmsg *k)
{
	for (;;) {
		uint64_t next = mono_ns() + SYSLOG_POLL_NS;
		int r;

		(void)monitor_wait_fd(-1, 0,
				      next < k->m.end_ns ? next : k->m.end_ns);
		r = syslog_poll(k, true);
		if (r)
			die_err(EXIT_RUN_FAILED, -r,
				"cannot read the kernel log buffer");
		if (monitor_done(&k->m, mono_ns()))
			break;
	}
	free(k->buf);
}

static void parse_options(struct kmsg *k, int argc, char **argv)
{
	int opt;

	while ((opt = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1) {
		if (monitor_handle_opt(&k->m, opt, optarg, usage))
			continue;
		switch (opt) {
		case OPT_LOG:
			k->log = optarg;
			break;
		case OPT_MATCH:
			k->match = optarg;
			break;
		case OPT_SOURCE:
			k->source = (enum source)opt_choice("--source", optarg,
							    source_names);
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (k->log && k->m.oc.output)
		usage_error(
			"--log and --output name the same stream: give one");
}

/*
 * The mode of the log file: messages from the kernel log are for those the
 * kernel lets read it, so with kernel.dmesg_restrict=1 (or when it cannot
 * tell) only the owner may read the file.
 */
static mode_t log_mode(void)
{
	char buf[64];
	uint64_t v;
	ssize_t n = read_small_file("/proc/sys/kernel/dmesg_restrict", buf,
				    sizeof(buf));

	if (n < 0 || kparse_u64_file(buf, (size_t)n, &v))
		return 0600;
	return v ? 0600 : 0644;
}

/* Open the source asked for; returns the one opened or dies with 3. */
static enum source open_source(struct kmsg *k)
{
	int r = -ENOENT, r2;

	if (k->source != SRC_SYSLOG) {
		r = kmsg_open(k);
		if (!r)
			return SRC_KMSG;
		if (k->source == SRC_KMSG)
			die_err(EXIT_UNSUPPORTED, -r, "cannot read /dev/kmsg");
	}
	r2 = syslog_open(k);
	if (r2) {
		char why[128]; /* why /dev/kmsg failed, then why syslog(2) did */

		die_err(EXIT_UNSUPPORTED, -r2,
			"cannot read the kernel log (needs root or "
			"kernel.dmesg_restrict=0): %s; syslog(2)",
			format_err(why, sizeof(why), -r, "/dev/kmsg"));
	}
	return SRC_SYSLOG;
}

int main(int argc, char **argv)
{
	struct kmsg k;
	enum source src;
	size_t i;
	int status;

	prog_init(argc, argv);
	memset(&k, 0, sizeof(k));
	k.fd = -1;
	monitor_init(&k.m);
	parse_options(&k, argc, argv);
	k.m.out_mode = log_mode();
	status = monitor_start(&k.m, argc, argv, k.log);
	if (status)
		return status;
	src = open_source(&k);
	/* Tests and drivers wait for this line before they log anything. */
	monitor_emit(&k.m, mono_ns(), "started=1 source=%s",
		     src == SRC_KMSG ? "kmsg" : "syslog");
	if (src == SRC_KMSG)
		kmsg_run(&k);
	else
		syslog_run(&k);

	msum_str(&k.m.sum, "source", src == SRC_KMSG ? "kmsg" : "syslog");
	msum_u64(&k.m.sum, "messages", k.messages);
	for (i = 0; i < N_COUNTS; i++)
		msum_u64(&k.m.sum, count_names[i], k.counts[i]);
	for (i = 0; i <= MAX_FAILURE_ORDER; i++) {
		char key[48];

		if (!k.failure_orders[i])
			continue;
		snprintf(key, sizeof(key), "failures_order_%zu", i);
		msum_u64(&k.m.sum, key, k.failure_orders[i]);
	}
	if (k.failure_order_unknown)
		msum_u64(&k.m.sum, "failures_order_unknown",
			 k.failure_order_unknown);
	msum_u64(&k.m.sum, "lost_messages", k.lost);
	msum_u64(&k.m.sum, "malformed_records", k.malformed);
	return monitor_finish(&k.m);
}
