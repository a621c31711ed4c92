// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-machine's view of the kernel: /proc/meminfo, /proc/zoneinfo, the
 * memory blocks of /sys/devices/system/memory and /proc/PID/stat, all under
 * the LATENCY_PROC and LATENCY_SYS prefixes; writes to kernel files, which
 * may hang (a block going offline) and so can run in a child that is killed
 * on time; and stopping a process only while it is still the one recorded.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/kparse.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "machine/machine.h"

struct machine_env menv;

char *kpath(const char *root, const char *fmt, ...)
{
	va_list ap;
	char *rel, *path;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die(EXIT_RUN_FAILED, "cannot format a path");
	rel = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(rel, (size_t)n + 1, fmt, ap);
	va_end(ap);
	path = xasprintf("%s%s", root, rel);
	free(rel);
	return path;
}

ssize_t kfile_read(const char *path, char *buf, size_t len)
{
	ssize_t n = read_small_file(path, buf, len);

	if (n < 0)
		return n;
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return n;
}

int kfile_read_u64(const char *path, bool hex, uint64_t *val)
{
	char buf[64];
	ssize_t n = kfile_read(path, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return hex ? kparse_hex_file(buf, (size_t)n, val)
		   : kparse_u64(buf, (size_t)n, val);
}

static int write_value(const char *path, const char *value)
{
	char *line = xasprintf("%s\n", value);
	int fd, r;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		free(line);
		return r;
	}
	/* The kernel takes a sysfs value in one write(). */
	r = write_all(fd, line, strlen(line));
	free(line);
	if (close(fd) && !r)
		r = -errno;
	return r;
}

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

static int pidfd_kill(int pidfd, pid_t pid, int sig)
{
#ifdef SYS_pidfd_send_signal
	if (pidfd >= 0)
		return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
#endif
	(void)pidfd;
	return kill(pid, sig);
}

static void nap_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	(void)nanosleep(&ts, NULL); /* a signal only shortens the nap */
}

/*
 * Wait until the child CHILD ends (reaping it into *STATUS) or DEADLINE_NS
 * passes or, when STOPPABLE, a stop signal arrives.  Returns 1 when it
 * ended, 0 otherwise.
 */
static int child_wait(pid_t child, int pidfd, uint64_t deadline_ns,
		      bool stoppable, int *status)
{
	for (;;) {
		pid_t w = waitpid(child, status, WNOHANG);
		uint64_t now = mono_ns();
		int ms;

		if (w == child)
			return 1;
		if (w < 0 && errno != EINTR) {
			*status = -1; /* not ours to wait for any more */
			return 1;
		}
		if ((stoppable && sig_stop) || now >= deadline_ns)
			return 0;
		ms = (int)((deadline_ns - now + NSEC_PER_MSEC - 1) /
			   NSEC_PER_MSEC);
		if (pidfd >= 0) {
			struct pollfd p = { pidfd, POLLIN, 0 };

			(void)poll(&p, 1, ms > 1000 ? 1000 : ms);
		} else {
			nap_ms(ms > 10 ? 10 : (unsigned)ms);
		}
	}
}

static noreturn void child_write(const char *path, const char *value)
{
	int r;

	(void)signal(SIGINT, SIG_DFL);
	(void)signal(SIGTERM, SIG_DFL);
	(void)signal(SIGHUP, SIG_DFL);
	if (menv.writer) {
		execlp(menv.writer, menv.writer, path, value, (char *)NULL);
		(void)error_errno("cannot run '%s'", menv.writer); /* -> 127 */
		_exit(127);
	}
	r = write_value(path, value);
	/* The parent reads the errno from the exit status. */
	_exit(r < 0 && -r < 256 ? -r : r ? EIO : 0);
}

int kfile_write(const char *path, const char *value, uint64_t timeout_ns)
{
	uint64_t deadline;
	int status = 0, pidfd, ended;
	pid_t child;

	if (!menv.writer && !timeout_ns)
		return write_value(path, value);
	deadline = timeout_ns ? mono_ns() + timeout_ns : UINT64_MAX;
	(void)fflush(NULL);
	child = fork();
	if (child < 0)
		return -errno;
	if (!child) {
		(void)setpgid(0, 0);
		child_write(path, value);
	}
	(void)setpgid(child, child); /* also here: no race with the kill */
	pidfd = pidfd_open_(child);
	ended = child_wait(child, pidfd, deadline, true, &status);
	if (!ended) {
		/* Its own group: a writer script's children go too. */
		(void)kill(-child, SIGKILL);
		/* A write stuck in the kernel ends at its next signal check. */
		(void)child_wait(child, pidfd, mono_ns() + 10 * NSEC_PER_SEC,
				 false, &status);
		if (pidfd >= 0)
			(void)close(pidfd);
		return sig_stop ? -EINTR : -ETIMEDOUT;
	}
	if (pidfd >= 0)
		(void)close(pidfd);
	if (status == -1)
		return -ECHILD;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	/* A writer exits as our child does: with the write's errno. */
	if (WIFEXITED(status))
		return -WEXITSTATUS(status);
	return -EIO;
}

char *note_err(int errnum, const char *fmt, ...)
{
	char buf[PATH_MAX + 128];
	va_list ap;

	va_start(ap, fmt);
	vformat_err(buf, sizeof(buf), errnum, fmt, ap);
	va_end(ap);
	return xstrdup(buf);
}

enum undo_result kfile_write_back(char *path, const char *value, char **note)
{
	int e = kfile_write(path, value, 0);

	if (e)
		*note = note_err(-e, "cannot write '%s'", path);
	free(path);
	return e ? UNDO_FAILED : UNDO_DONE;
}

int meminfo_read(struct meminfo *mi)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "MemTotal", offsetof(struct meminfo, total) },
		{ "MemFree", offsetof(struct meminfo, free) },
		{ "MemAvailable", offsetof(struct meminfo, available) },
		{ "HugePages_Total",
		  offsetof(struct meminfo, hugepages_total) },
		{ "Hugepagesize", offsetof(struct meminfo, hugepage_bytes) },
	};
	char *path = kpath(menv.proc, "/meminfo"), buf[16384];
	unsigned seen = 0;
	ssize_t n = kfile_read(path, buf, sizeof(buf));
	size_t i;

	free(path);
	if (n < 0)
		return (int)n;
	memset(mi, 0, sizeof(*mi));
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		uint64_t v, *dst = (uint64_t *)((char *)mi + keys[i].off);
		bool kb;
		int r = kparse_colon_find(buf, (size_t)n, keys[i].key, &v, &kb);

		if (r == -ENOENT)
			continue;
		if (r)
			return r;
		if (kb && __builtin_mul_overflow(v, 1024, dst))
			return -ERANGE;
		if (!kb)
			*dst = v;
		seen |= 1u << i;
	}
	/* MemTotal and MemFree are what everything here rests on. */
	return (seen & 3) == 3 ? 0 : -ENODATA;
}

uint64_t meminfo_usable(const struct meminfo *mi)
{
	uint64_t hp = mi->hugepages_total * mi->hugepage_bytes;

	return mi->total > hp ? mi->total - hp : 0;
}

char *mem_block_state_path(unsigned long nr)
{
	return kpath(menv.sys, "/devices/system/memory/memory%lu/state", nr);
}

static void mem_block_read(struct mem_block *b)
{
	char *p, buf[64];
	uint64_t v;

	p = mem_block_state_path(b->nr);
	if (kfile_read(p, b->state, sizeof(b->state)) < 0)
		b->state[0] = '\0';
	free(p);
	p = kpath(menv.sys, "/devices/system/memory/memory%lu/removable",
		  b->nr);
	b->removable = kfile_read_u64(p, false, &v) ? -1 : v != 0;
	free(p);
	p = kpath(menv.sys, "/devices/system/memory/memory%lu/valid_zones",
		  b->nr);
	if (kfile_read(p, buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	snprintf(b->valid_zones, sizeof(b->valid_zones), "%s", buf);
	free(p);
}

static int block_cmp(const void *a, const void *b)
{
	const struct mem_block *x = a, *y = b;

	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

int mem_blocks_read(struct mem_block **blocks, size_t *n, uint64_t *block_bytes)
{
	char *dir = kpath(menv.sys, "/devices/system/memory"), *p;
	size_t alloc = 0;
	struct dirent *de;
	DIR *d;
	int r;

	*blocks = NULL;
	*n = 0;
	*block_bytes = 0;
	d = opendir(dir);
	if (!d) {
		r = errno == ENOENT ? 0 : -errno;
		free(dir);
		return r;
	}
	p = xasprintf("%s/block_size_bytes", dir);
	r = kfile_read_u64(p, true, block_bytes);
	free(p);
	free(dir);
	while (!r && (de = readdir(d))) {
		const char *s = de->d_name;
		uint64_t nr;

		if (strncmp(s, "memory", 6) || parse_u64(s + 6, &nr) ||
		    nr > 1000000000)
			continue;
		if (*n == alloc) {
			alloc = alloc ? 2 * alloc : 256;
			*blocks =
				xreallocarray(*blocks, alloc, sizeof(**blocks));
		}
		memset(&(*blocks)[*n], 0, sizeof(**blocks));
		(*blocks)[*n].nr = (unsigned long)nr;
		mem_block_read(&(*blocks)[(*n)++]);
	}
	(void)closedir(d);
	if (r)
		return r;
	if (*n) /* qsort's array may not be NULL, even for no element */
		qsort(*blocks, *n, sizeof(**blocks), block_cmp);
	return 0;
}

/* Whether the zoneinfo field Z is KEY. */
static bool zone_key(const struct kparse_zone *z, const char *key)
{
	return z->name_len == strlen(key) && !memcmp(z->name, key, z->name_len);
}

int zoneinfo_read(struct zone_info **zones, size_t *n)
{
	char *path = kpath(menv.proc, "/zoneinfo"), *line = NULL;
	struct zone_info *z = NULL;
	size_t alloc = 0, cap = 0;
	FILE *f = fopen(path, "re");
	ssize_t len;
	int r = 0;

	free(path);
	*zones = NULL;
	*n = 0;
	if (!f)
		return -errno;
	/* Line by line: per-cpu sections make it large on big machines. */
	while (!r && (len = getline(&line, &cap, f)) > 0) {
		struct kparse_zone k;

		r = kparse_zone_line(line,
				     (size_t)len - (line[len - 1] == '\n'), &k);
		if (r)
			break;
		if (k.kind == KPARSE_ZONE_HEAD) {
			if (*n == alloc) {
				alloc = alloc ? 2 * alloc : 8;
				*zones = xreallocarray(*zones, alloc,
						       sizeof(**zones));
			}
			z = &(*zones)[(*n)++];
			memset(z, 0, sizeof(*z));
			z->node = k.node;
			snprintf(z->name, sizeof(z->name), "%.*s",
				 (int)k.name_len, k.name);
		} else if (!z) {
			continue;
		} else if (k.kind == KPARSE_ZONE_PROTECTION) {
			z->protect = k.val;
		} else if (k.kind != KPARSE_ZONE_FIELD) {
			continue;
		} else if (zone_key(&k, "pages free")) {
			z->free = k.val;
		} else if (zone_key(&k, "min")) {
			z->min = k.val;
		} else if (zone_key(&k, "low")) {
			z->low = k.val;
		} else if (zone_key(&k, "high")) {
			z->high = k.val;
		} else if (zone_key(&k, "managed")) {
			z->managed = k.val;
		}
	}
	if (!r && ferror(f))
		r = -EIO;
	free(line);
	(void)fclose(f); /* read-only */
	return r;
}

int proc_stat_read(pid_t pid, pid_t *ppid, uint64_t *start)
{
	char *path = kpath(menv.proc, "/%d/stat", (int)pid), buf[4096], state;
	ssize_t n = kfile_read(path, buf, sizeof(buf));
	int64_t parent;
	uint64_t st;
	int r;

	free(path);
	if (n == -ENOENT || n == -ESRCH)
		return -ESRCH;
	if (n < 0)
		return (int)n;
	r = kparse_pid_start(buf, (size_t)n, &state, &parent, &st);
	if (r)
		return -EINVAL;
	if (state == 'Z' || state == 'X')
		return -ESRCH;
	if (ppid) {
		if (parent < 0 || parent > INT32_MAX)
			return -EINVAL;
		*ppid = (pid_t)parent;
	}
	*start = st;
	return 0;
}

int proc_starttime(pid_t pid, uint64_t *start)
{
	return proc_stat_read(pid, NULL, start);
}

void proc_command(pid_t pid, char *buf, size_t len)
{
	char *path = kpath(menv.proc, "/%d/cmdline", (int)pid), raw[256], *e;
	ssize_t n = -1;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);

	free(path);
	if (fd >= 0) {
		n = read_full(fd, raw, sizeof(raw) - 1);
		(void)close(fd); /* read-only */
	}
	if (n <= 0) {
		snprintf(buf, len, "?");
		return;
	}
	/* Arguments end in NULs: spaces between them, none at the end. */
	while (n > 0 && !raw[n - 1])
		n--;
	for (ssize_t i = 0; i < n; i++)
		if (!raw[i])
			raw[i] = ' ';
	raw[n] = '\0';
	e = text_escape(raw);
	snprintf(buf, len, "%s", e);
	free(e);
}

/*
 * Wait until PID, which started at START, has ended (zombies count as
 * ended) or DEADLINE_NS passes: poll its pidfd, or without one look at
 * /proc every 20 ms.  Returns true when it ended.
 */
static bool proc_wait_gone(pid_t pid, int pidfd, uint64_t start,
			   uint64_t deadline_ns)
{
	for (;;) {
		uint64_t now, st;
		int ms;

		if (proc_starttime(pid, &st) || st != start)
			return true;
		now = mono_ns();
		if (now >= deadline_ns)
			return false;
		ms = (int)((deadline_ns - now) / NSEC_PER_MSEC) + 1;
		if (pidfd >= 0) {
			struct pollfd p = { pidfd, POLLIN, 0 };

			(void)poll(&p, 1, ms > 100 ? 100 : ms);
		} else {
			nap_ms(ms > 20 ? 20 : (unsigned)ms);
		}
	}
}

int proc_stop(pid_t pid, uint64_t start, uint64_t term_wait_ns, bool *other)
{
	uint64_t st;
	int pidfd, r, sig;

	*other = false;
	/* Pin the process first; then no new one can take its number. */
	pidfd = pidfd_open_(pid);
	if (pidfd < 0 && errno == ESRCH)
		return 0;
	r = proc_starttime(pid, &st);
	if (r || st != start) {
		if (pidfd >= 0)
			(void)close(pidfd);
		*other = !r;
		return r == -ESRCH || !r ? 0 : r;
	}
	r = 1;
	for (sig = SIGTERM;; sig = SIGKILL) {
		if (pidfd_kill(pidfd, pid, sig) && errno != ESRCH) {
			r = -errno;
			break;
		}
		if (proc_wait_gone(pid, pidfd, start,
				   mono_ns() + (sig == SIGTERM
							? term_wait_ns
							: 5 * NSEC_PER_SEC)))
			break;
		if (sig == SIGKILL) {
			r = -ETIMEDOUT;
			break;
		}
	}
	if (pidfd >= 0)
		(void)close(pidfd);
	return r;
}
