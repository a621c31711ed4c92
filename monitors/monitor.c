// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The monitors' common run frame; see monitor.h.  Everything a monitor
 * writes while it runs goes through one write() per line (lib/progress), so
 * its lines interleave cleanly with the workloads' on a shared timeline.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/kparse.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "monitors/monitor.h"

/* clang-format off */
const char monitor_common_help[] =
	"      --duration=TIME  stop after TIME (e.g. 30s, 2m); default: run\n"
	"                       until SIGINT or SIGTERM\n"
	"  -o, --output=FILE    write the timestamped lines to FILE (default\n"
	"                       stdout)\n"
	"      --summary=FILE   write the final summary to FILE, atomically\n"
	"                       ('-' for stdout)\n"
	"      --format=FMT     summary file format: text (key=value lines) or\n"
	"                       json\n"
	"  -q, --quiet          no notes on stderr\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show the version and exit\n"
	"\n"
	"SIGINT, SIGTERM or SIGHUP end the run normally: the summary is\n"
	"written and the exit status is 0.\n";
/* clang-format on */

void monitor_init(struct monitor *m)
{
	memset(m, 0, sizeof(*m));
	opt_common_init(&m->oc);
	m->fmt = FORMAT_TEXT;
	m->out_fd = STDOUT_FILENO;
	m->end_ns = UINT64_MAX;
	m->out_mode = 0644;
}

bool monitor_handle_opt(struct monitor *m, int opt, const char *arg,
			void (*usage)(int status))
{
	if (opt == OPT_SUMMARY) {
		if (!*arg)
			usage_error("--summary needs a file name");
		m->summary_path = arg;
		return true;
	}
	return opt_common_handle(&m->oc, opt, arg, usage);
}

/* The -o stream PATH opened into M->out_fd: 0, or 1 after saying why. */
static int open_output(struct monitor *m, const char *path)
{
	struct stat st;

	m->out_fd = stream_open(path, m->out_mode);
	if (m->out_fd < 0)
		return error_ret_err(EXIT_RUN_FAILED, -m->out_fd,
				     "cannot open '%s'", path);
	/* A file that existed keeps its mode: take away what out_mode does
	 * not grant (never touch a device). */
	if (fstat(m->out_fd, &st))
		return error_ret_errno(EXIT_RUN_FAILED, "cannot stat '%s'",
				       path);
	if (S_ISREG(st.st_mode) && (st.st_mode & 07777 & ~m->out_mode) &&
	    fchmod(m->out_fd, st.st_mode & 07777 & m->out_mode))
		return error_ret_errno(EXIT_RUN_FAILED,
				       "cannot change the mode of '%s'", path);
	return EXIT_OK;
}

int monitor_start(struct monitor *m, int argc, char **argv, const char *output)
{
	const char *path = output ? output : m->oc.output;
	int r;

	m->fmt = opt_format(m->oc.format, m->fmt, false);
	/* Find an unwritable summary path now, not after the run. */
	if (m->summary_path && strcmp(m->summary_path, "-")) {
		struct atomic_file af;

		r = atomic_open(&af, m->summary_path);
		if (r)
			return error_ret_err(EXIT_RUN_FAILED, -r,
					     "cannot create '%s'",
					     m->summary_path);
		atomic_abort(&af);
	}
	if (path && strcmp(path, "-") && (r = open_output(m, path)))
		return r;
	progress_init(&m->out, m->out_fd, progname());
	r = sig_stop_install();
	if (r)
		return error_ret_err(EXIT_RUN_FAILED, -r,
				     "cannot install signal handlers");
	run_info_init(&m->ri, progname(), argc, argv);
	m->start_ns = mono_ns();
	if (m->oc.has_duration)
		m->end_ns = m->start_ns + m->oc.duration_ns;
	return EXIT_OK;
}

uint64_t monitor_opt_interval(const char *arg)
{
	uint64_t ns = opt_duration("--interval", arg);

	if (ns < NSEC_PER_MSEC)
		usage_error("--interval must be at least 1ms");
	return ns;
}

bool monitor_done(struct monitor *m, uint64_t now_ns)
{
	if (m->emit_err) {
		m->end_reason = "write-error";
		return true;
	}
	if (sig_stop) {
		m->stop_signal = sig_stop;
		return true;
	}
	return now_ns >= m->end_ns;
}

int monitor_wait_fd(int fd, short events, uint64_t deadline_ns)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	struct timespec ts, *tsp = NULL;
	sigset_t block, old;
	int r, e;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &block, &old))
		return -errno;
	if (sig_stop) {
		(void)sigprocmask(SIG_SETMASK, &old, NULL); /* cannot fail */
		return 0;
	}
	if (deadline_ns != UINT64_MAX) {
		uint64_t now = mono_ns();
		uint64_t left = deadline_ns > now ? deadline_ns - now : 0;

		ts.tv_sec = (time_t)(left / NSEC_PER_SEC);
		ts.tv_nsec = (long)(left % NSEC_PER_SEC);
		tsp = &ts;
	}
	/* The stop signals are deliverable only while ppoll waits. */
	r = ppoll(&pfd, 1, tsp, &old);
	e = errno;
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	if (r < 0)
		return e == EINTR ? 0 : -e;
	return r > 0;
}

void monitor_emit(struct monitor *m, uint64_t ts_ns, const char *fmt, ...)
{
	char buf[PROGRESS_LINE_MAX];
	va_list ap;
	int r;

	if (m->emit_err)
		return; /* said once; the run is ending */
	va_start(ap, fmt);
	r = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (r < 0) {
		m->emit_err = errno ? -errno : -EINVAL;
		(void)error_err(-m->emit_err, "cannot format an output line");
		return;
	}
	/* A line too long for one atomic write is cut, never split. */
	if ((size_t)r >= sizeof(buf) - 128)
		buf[sizeof(buf) - 128] = '\0';
	r = progress_emit(&m->out, ts_ns, "%s", buf);
	if (r) {
		m->emit_err = r;
		(void)error_err(-r, "write error");
	}
}

/* A new field KEY of TYPE at the end of S, its value still zero. */
static struct msum_field *msum_add(struct msum *s, const char *key,
				   enum msum_type type)
{
	struct msum_field *f;

	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 32;
		s->f = xreallocarray(s->f, s->alloc, sizeof(*s->f));
	}
	f = &s->f[s->n++];
	memset(f, 0, sizeof(*f));
	f->key = xstrdup(key);
	f->type = type;
	return f;
}

void msum_u64(struct msum *s, const char *key, uint64_t v)
{
	msum_add(s, key, MSUM_U64)->u = v;
}

void msum_i64(struct msum *s, const char *key, int64_t v)
{
	msum_add(s, key, MSUM_I64)->i = v;
}

void msum_ns(struct msum *s, const char *key, uint64_t ns)
{
	msum_add(s, key, MSUM_NS)->u = ns;
}

void msum_str(struct msum *s, const char *key, const char *v)
{
	msum_add(s, key, MSUM_STR)->s = xstrdup(v);
}

void msum_bool(struct msum *s, const char *key, bool v)
{
	msum_add(s, key, MSUM_BOOL)->b = v;
}

void msum_double(struct msum *s, const char *key, double v)
{
	msum_add(s, key, MSUM_DOUBLE)->d = v;
}

void msum_release(struct msum *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->f[i].key);
		free(s->f[i].s);
	}
	free(s->f);
	memset(s, 0, sizeof(*s));
}

/* "KEY=VALUE" of field F into BUF (LEN bytes); returns the length. */
static size_t msum_format(const struct msum_field *f, char *buf, size_t len)
{
	char num[32];
	int r;

	switch (f->type) {
	case MSUM_U64:
		r = snprintf(buf, len, "%s=%llu", f->key,
			     (unsigned long long)f->u);
		break;
	case MSUM_I64:
		r = snprintf(buf, len, "%s=%lld", f->key, (long long)f->i);
		break;
	case MSUM_NS:
		num[fmt_ns_fixed(num, f->u, 9)] = '\0';
		r = snprintf(buf, len, "%s=%s", f->key, num);
		break;
	case MSUM_STR:
		r = snprintf(buf, len, "%s=%s", f->key, f->s);
		break;
	case MSUM_DOUBLE:
		r = snprintf(buf, len, "%s=%.2f", f->key, f->d);
		break;
	default:
		r = snprintf(buf, len, "%s=%s", f->key,
			     f->b ? "true" : "false");
		break;
	}
	if (r < 0)
		return 0;
	return (size_t)r < len ? (size_t)r : len - 1;
}

static void msum_write_json(const struct monitor *m, FILE *f)
{
	const struct msum *s = &m->sum;
	const struct run_info *ri = &m->ri;
	struct json j;
	size_t i;

	json_init(&j, f, true);
	json_object_begin(&j, NULL);
	json_run_header(&j, ri);
	for (i = 0; i < s->n; i++) {
		const struct msum_field *x = &s->f[i];

		switch (x->type) {
		case MSUM_U64:
			json_u64(&j, x->key, x->u);
			break;
		case MSUM_I64:
			json_i64(&j, x->key, x->i);
			break;
		case MSUM_NS:
			json_ns_as_s(&j, x->key, x->u);
			break;
		case MSUM_STR:
			json_str(&j, x->key, x->s);
			break;
		case MSUM_DOUBLE:
			json_double(&j, x->key, x->d);
			break;
		default:
			json_bool(&j, x->key, x->b);
			break;
		}
	}
	if (m->json_extra)
		m->json_extra(&j, m->extra_ctx);
	json_object_end(&j);
	json_finish(&j);
}

static int msum_write(const struct monitor *m)
{
	struct atomic_file af;
	char line[512];
	size_t i;
	int r;

	r = atomic_open(&af, m->summary_path);
	if (r)
		return r;
	if (m->fmt == FORMAT_JSON) {
		msum_write_json(m, af.f);
	} else {
		fprintf(af.f, "program=%s\nversion=%s\n", m->ri.program,
			PACKAGE_VERSION);
		for (i = 0; i < m->sum.n; i++) {
			msum_format(&m->sum.f[i], line, sizeof(line));
			fprintf(af.f, "%s\n", line);
		}
		if (m->text_extra)
			m->text_extra(af.f, m->extra_ctx);
	}
	r = atomic_commit(&af);
	if (r)
		atomic_abort(&af);
	return r;
}

int monitor_finish(struct monitor *m)
{
	char line[PROGRESS_LINE_MAX - 256];
	uint64_t now = mono_ns();
	size_t i, n;
	int status = EXIT_OK, r;

	msum_str(&m->sum, "end_reason",
		 m->stop_signal	 ? "signal"
		 : m->end_reason ? m->end_reason
				 : "duration");
	if (m->stop_signal)
		msum_u64(&m->sum, "stop_signal", (uint64_t)m->stop_signal);
	msum_ns(&m->sum, "duration_s", now - m->start_ns);
	m->ri.end_real_ns = real_ns();

	n = (size_t)snprintf(line, sizeof(line), "summary=1");
	for (i = 0; i < m->sum.n && n + 1 < sizeof(line); i++) {
		line[n++] = ' ';
		n += msum_format(&m->sum.f[i], line + n, sizeof(line) - n);
	}
	monitor_emit(m, now, "%s", line);

	if (m->summary_path) {
		r = msum_write(m);
		if (r) {
			errno = -r;
			error_errno("cannot write '%s'", m->summary_path);
			status = EXIT_RUN_FAILED;
		}
	}
	if (m->out_fd != STDOUT_FILENO && close(m->out_fd)) {
		error_errno("cannot close the output file");
		status = EXIT_RUN_FAILED;
	}
	if (m->emit_err)
		status = EXIT_RUN_FAILED;
	msum_release(&m->sum);
	return status;
}

int monitor_read_lines(int fd, struct mlines *l,
		       void (*fn)(void *ctx, const char *line, size_t len),
		       void *ctx)
{
	char buf[65536];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		ssize_t i;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? 0 : -errno;
		}
		if (n == 0) {
			if (l->len)
				fn(ctx, l->line, l->len);
			l->len = 0;
			return 1;
		}
		for (i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (l->len < sizeof(l->line))
					l->line[l->len++] = buf[i];
				continue;
			}
			fn(ctx, l->line, l->len);
			l->len = 0;
		}
	}
}

int monitor_write_knob(const char *dir, const char *name, const char *s)
{
	char path[4096];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	return write_small_file(path, s);
}

uint64_t monitor_events_lost(const char *instance)
{
	char path[4096], buf[2048];
	uint64_t lost = 0, v;
	ssize_t n;
	long cpu;

	for (cpu = 0; cpu < 4096; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%ld/stats",
			 instance, cpu);
		n = read_small_file(path, buf, sizeof(buf));
		if (n < 0)
			break;
		/* Unparseable stats are not a reason to lose the summary. */
		if (!kparse_kv_find(buf, (size_t)n, "overrun:", &v))
			lost += v;
	}
	return lost;
}
