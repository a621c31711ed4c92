// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kinds of entry in the machine-state record: how `latency-machine
 * record` checks and completes one (a path, a sysctl or sysfs knob and its
 * value, a transparent huge page size's setting, a block device's
 * readahead, a memory block, the hugetlb pool size, a zram swap device, a
 * process and its start time), and how restore undoes it.  Every undo is idempotent and says
 * whether it did something, found nothing to do, or failed and why.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/spawn.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "machine/machine.h"

#define ENTRY_MAX 4096
/* How long restore lets a recorded process end on SIGTERM. */
#define TERM_WAIT_NS (5 * NSEC_PER_SEC)

enum undo_result { UNDO_DONE, UNDO_NOOP, UNDO_FAILED };

/*
 * Undo the entry whose fields (the kind first) are F; *NOTE (allocated, or
 * left NULL) says why nothing was done or what failed.
 */
typedef enum undo_result undo_fn(char **f, char **note);

struct kind {
	const char *name;
	int min_args, max_args; /* as `record` takes them */
	int stored_args;	/* as the record holds them */
	int shown_args;		/* how many a message shows */
	char *(*make)(int argc, char **argv);
	undo_fn *undo;
};

/* ---- entries: validation as `record` takes them ---- */

static void check_value(const char *kind, const char *v)
{
	if (has_control(v))
		usage_error("%s: refusing a value with a tab, newline or other "
			    "control character",
			    kind);
	if (strlen(v) > ENTRY_MAX / 2)
		usage_error("%s: value longer than %d bytes", kind,
			    ENTRY_MAX / 2);
}

/* An absolute path without "." or ".." components or empty ones. */
static bool path_clean(const char *p)
{
	const char *c = p;

	if (*p != '/' || has_control(p) || strlen(p) > ENTRY_MAX / 2)
		return false;
	while (*c == '/') {
		size_t n = strcspn(c + 1, "/");

		if (!n && c[1]) /* "//" */
			return false;
		if ((n == 1 && c[1] == '.') ||
		    (n == 2 && c[1] == '.' && c[2] == '.'))
			return false;
		c += 1 + n;
	}
	return true;
}

static char *make_path(int argc, char **argv)
{
	(void)argc;
	if (!path_clean(argv[1]))
		usage_error("%s: '%s' is not a clean absolute path", argv[0],
			    argv[1]);
	return xasprintf("%s\t%s", argv[0], argv[1]);
}

/* vm.page-cluster or vm/page-cluster -> $LATENCY_PROC/sys/vm/page-cluster */
static char *sysctl_path(const char *name)
{
	char *rel = xstrdup(name), *p, *path;

	if (!strchr(rel, '/'))
		for (p = rel; *p; p++)
			if (*p == '.')
				*p = '/';
	path = kpath(menv.proc, "/sys/%s", rel);
	free(rel);
	return path;
}

static bool sysctl_name_ok(const char *name)
{
	char *slashed;
	bool ok;

	if (!*name ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:/@+-") !=
		    strlen(name))
		return false;
	slashed = xasprintf("/%s", name);
	if (!strchr(name, '/'))
		for (char *p = slashed; *p; p++)
			if (*p == '.')
				*p = '/';
	ok = path_clean(slashed) && slashed[strlen(slashed) - 1] != '/';
	free(slashed);
	return ok;
}

/*
 * The current value of a kernel file, to write back: a choice shown as
 * "always [madvise] never" is the bracketed word; tabs between numbers
 * (kernel.printk) become spaces.
 */
static char *current_value(const char *kind, const char *path)
{
	char buf[ENTRY_MAX / 2], *p, *q;
	ssize_t n = kfile_read(path, buf, sizeof(buf));

	if (n < 0)
		die_err(EXIT_RUN_FAILED, (int)-n,
			"%s: cannot read the current value of '%s'", kind,
			path);
	p = strchr(buf, '[');
	q = p ? strchr(p, ']') : NULL;
	if (q) {
		*q = '\0';
		memmove(buf, p + 1, (size_t)(q - p));
	}
	for (p = buf; *p; p++)
		if (*p == '\t')
			*p = ' ';
	if (has_control(buf))
		die(EXIT_RUN_FAILED,
		    "%s: the value of '%s' spans lines; record it by hand",
		    kind, path);
	return xstrdup(buf);
}

/* The file of a sysctl NAME or a sysfs /sys/PATH; NULL when not valid. */
static char *knob_path(const char *kind, const char *name)
{
	if (!strcmp(kind, "sysctl"))
		return sysctl_name_ok(name) ? sysctl_path(name) : NULL;
	if (strncmp(name, "/sys/", 5) || !path_clean(name))
		return NULL;
	return kpath(menv.sys, "%s", name + 4);
}

static char *make_knob(int argc, char **argv)
{
	char *path = knob_path(argv[0], argv[1]), *value, *line;

	if (!path)
		usage_error("%s: '%s' is not %s", argv[0], argv[1],
			    strcmp(argv[0], "sysctl")
				    ? "a clean path under /sys"
				    : "a sysctl name");
	if (argc > 2) {
		check_value(argv[0], argv[2]);
		value = xstrdup(argv[2]);
	} else {
		value = current_value(argv[0], path);
	}
	free(path);
	line = xasprintf("%s\t%s\t%s", argv[0], argv[1], value);
	free(value);
	return line;
}

/*
 * A transparent huge page size's "enabled" setting: SIZE "64kB" is
 * hugepages-64kB/enabled (multi-size THP), "global" the top-level file;
 * NULL when SIZE is neither.
 */
static char *thp_path(const char *size)
{
	uint64_t kb;
	char *num;

	if (!strcmp(size, "global"))
		return kpath(menv.sys, "/kernel/mm/transparent_hugepage/"
				       "enabled");
	num = xstrdup(size);
	if (strlen(num) < 3 || strcmp(num + strlen(num) - 2, "kB")) {
		free(num);
		return NULL;
	}
	num[strlen(num) - 2] = '\0';
	if (num[0] == '0' || strspn(num, "0123456789") != strlen(num) ||
	    parse_u64(num, &kb) || kb > (1ULL << 30)) {
		free(num);
		return NULL;
	}
	free(num);
	return kpath(menv.sys,
		     "/kernel/mm/transparent_hugepage/hugepages-%llukB/enabled",
		     (unsigned long long)kb);
}

static bool thp_value_ok(const char *size, const char *v)
{
	return !strcmp(v, "always") || !strcmp(v, "madvise") ||
	       !strcmp(v, "never") ||
	       (!strcmp(v, "inherit") && strcmp(size, "global"));
}

static char *make_thp(int argc, char **argv)
{
	char *path = thp_path(argv[1]), *value, *line;

	if (!path)
		usage_error("thp: '%s' is not a THP size (NkB, e.g. 64kB, or "
			    "global)",
			    argv[1]);
	value = argc > 2 ? xstrdup(argv[2]) : current_value("thp", path);
	if (!thp_value_ok(argv[1], value)) {
		if (argc > 2)
			usage_error("thp: '%s' is not a setting of %s "
				    "(always, %smadvise or never)",
				    value, argv[1],
				    strcmp(argv[1], "global") ? "inherit, "
							      : "");
		die(EXIT_RUN_FAILED, "thp: '%s' holds '%s', not a setting",
		    path, value);
	}
	free(path);
	line = xasprintf("thp\t%s\t%s", argv[1], value);
	free(value);
	return line;
}

/* MAJ:MIN of a block device; false when S is not one. */
static bool devno_parse(const char *s, unsigned *maj, unsigned *min)
{
	char *a = xstrdup(s), *colon = strchr(a, ':');
	uint64_t x = 0, y = 0;
	bool ok;

	if (colon)
		*colon = '\0';
	ok = colon && !parse_u64(a, &x) && !parse_u64(colon + 1, &y) &&
	     x <= 4095 && y <= 1048575;
	free(a);
	*maj = (unsigned)x;
	*min = (unsigned)y;
	return ok;
}

/* $LATENCY_SYS/dev/block/MAJ:MIN/queue/read_ahead_kb */
static char *readahead_path(unsigned maj, unsigned min)
{
	return kpath(menv.sys, "/dev/block/%u:%u/queue/read_ahead_kb", maj,
		     min);
}

/*
 * The readahead of a block device by its number, which stays the device's
 * however it is named; without KB the current value.
 */
static char *make_readahead(int argc, char **argv)
{
	unsigned maj, min;
	uint64_t kb;

	if (!devno_parse(argv[1], &maj, &min))
		usage_error("readahead: '%s' is not a block device number "
			    "(MAJ:MIN)",
			    argv[1]);
	if (argc > 2) {
		kb = opt_u64("readahead KB", argv[2], 0, 1ULL << 30);
	} else {
		char *path = readahead_path(maj, min);
		int r = kfile_read_u64(path, false, &kb);

		if (r)
			die_err(EXIT_RUN_FAILED, -r,
				"readahead: cannot read '%s'", path);
		free(path);
	}
	return xasprintf("readahead\t%u:%u\t%llu", maj, min,
			 (unsigned long long)kb);
}

static char *make_online(int argc, char **argv)
{
	const char *s = argv[1];
	uint64_t nr;

	(void)argc;
	if (!strncmp(s, "memory", 6))
		s += 6;
	if (parse_u64(s, &nr) || nr > 1000000000)
		usage_error("online: '%s' is not a memory block (memoryN or N)",
			    argv[1]);
	return xasprintf("online\tmemory%llu", (unsigned long long)nr);
}

/*
 * zram N [hot]: the zram device /dev/zramN, set up by the run as swap;
 * "hot" when the run made it through zram-control's hot_add (restore then
 * removes it), "kept" when it was there, unused, before the run.
 */
static char *make_zram(int argc, char **argv)
{
	const char *s = argv[1];
	uint64_t nr;

	if (!strncmp(s, "zram", 4))
		s += 4;
	if (parse_u64(s, &nr) || nr > 1000000)
		usage_error("zram: '%s' is not a zram device (zramN or N)",
			    argv[1]);
	if (argc > 2 && strcmp(argv[2], "hot"))
		usage_error("zram: '%s' is not 'hot'", argv[2]);
	return xasprintf("zram\tzram%llu\t%s", (unsigned long long)nr,
			 argc > 2 ? "hot" : "kept");
}

/*
 * zramnew LIST: the zram devices there were before the run asked
 * zram-control's hot_add for one (their numbers, comma-separated, or
 * "none").  Recorded before hot_add, so that a run killed between hot_add
 * and its "zram zramN hot" entry leaves no device behind: restore removes
 * every zram device not in LIST that was never set up (disksize 0).
 */
static bool zram_list_ok(const char *s)
{
	if (!strcmp(s, "none"))
		return true;
	for (;;) {
		size_t n = strspn(s, "0123456789");

		if (!n || n > 7)
			return false;
		s += n;
		if (!*s)
			return true;
		if (*s++ != ',')
			return false;
	}
}

static char *make_zramnew(int argc, char **argv)
{
	(void)argc;
	if (!zram_list_ok(argv[1]))
		usage_error("zramnew: '%s' is not a list of zram device "
			    "numbers (e.g. 0,1) or 'none'",
			    argv[1]);
	return xasprintf("zramnew\t%s", argv[1]);
}

static char *make_hugepages(int argc, char **argv)
{
	uint64_t count;

	if (argc > 1) {
		count = opt_u64("hugepages COUNT", argv[1], 0, UINT64_MAX);
	} else {
		char *path = kpath(menv.proc, "/sys/vm/nr_hugepages");
		int r = kfile_read_u64(path, false, &count);

		if (r)
			die_err(EXIT_RUN_FAILED, -r,
				"hugepages: cannot read '%s'", path);
		free(path);
	}
	return xasprintf("hugepages\t%llu", (unsigned long long)count);
}

static char *make_pid(int argc, char **argv)
{
	pid_t pid = (pid_t)opt_u64("pid PID", argv[1], 1, INT_MAX);
	uint64_t start;
	int r;

	(void)argc;
	r = proc_starttime(pid, &start);
	if (r == -ESRCH)
		die(EXIT_RUN_FAILED, "pid: no process %d to record", (int)pid);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "pid: cannot read the start of %d",
			(int)pid);
	return xasprintf("pid\t%d\t%llu", (int)pid, (unsigned long long)start);
}

/* ---- undo actions: idempotent, each says what it did ---- */

static char *note_err(int errnum, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* A restore note "<what>: strerror(ERRNUM)", allocated. */
static char *note_err(int errnum, const char *fmt, ...)
{
	char buf[PATH_MAX + 128];
	va_list ap;

	va_start(ap, fmt);
	vformat_err(buf, sizeof(buf), errnum, fmt, ap);
	va_end(ap);
	return xstrdup(buf);
}

static bool swap_enabled(const char *path, char **note)
{
	char *swaps = kpath(menv.proc, "/swaps"), *buf = xmalloc(65536), *line;
	char *save = NULL;
	ssize_t n = kfile_read(swaps, buf, 65536);
	bool found = false;

	if (n < 0)
		*note = note_err((int)-n, "cannot read '%s'", swaps);
	for (line = n < 0 ? NULL : strtok_r(buf, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		line[strcspn(line, " \t")] = '\0';
		/* /proc/swaps shows a space in a path as \\040. */
		parse_octal_escapes(line);
		found = !strcmp(line, path);
	}
	free(buf);
	free(swaps);
	return found;
}

static enum undo_result undo_swapoff(char **f, char **note)
{
	char *argv[] = { "swapoff", f[1], NULL };
	int r;

	if (!swap_enabled(f[1], note)) {
		if (*note)
			return UNDO_FAILED;
		*note = xstrdup("not enabled");
		return UNDO_NOOP;
	}
	r = spawn_wait(argv, 0);
	if (!r)
		return UNDO_DONE;
	*note = r < 0 ? note_err(-r, "cannot run swapoff")
		      : xasprintf("swapoff exited with status %d", r);
	return UNDO_FAILED;
}

static enum undo_result undo_rmfile(char **f, char **note)
{
	if (!unlink(f[1]))
		return UNDO_DONE;
	if (errno == ENOENT) {
		*note = xstrdup("already gone");
		return UNDO_NOOP;
	}
	*note = xstrdup(strerror(errno));
	return UNDO_FAILED;
}

static enum undo_result undo_rmdir(char **f, char **note)
{
	int tries;

	/* Recorded processes were stopped just before; let them leave. */
	for (tries = 0; tries < 20; tries++) {
		struct timespec ts = { 0, 100 * 1000000L };

		if (!rmdir(f[1]))
			return UNDO_DONE;
		if (errno == ENOENT) {
			*note = xstrdup("already gone");
			return UNDO_NOOP;
		}
		if (errno != EBUSY)
			break;
		(void)nanosleep(&ts, NULL);
	}
	*note = xstrdup(strerror(errno));
	return UNDO_FAILED;
}

static enum undo_result write_back(char *path, const char *value, char **note)
{
	int r = kfile_write(path, value, 0);

	if (r)
		*note = note_err(-r, "cannot write '%s'", path);
	free(path);
	return r ? UNDO_FAILED : UNDO_DONE;
}

static enum undo_result undo_knob(char **f, char **note)
{
	char *path = knob_path(f[0], f[1]);

	if (!path) {
		*note = xstrdup("not a valid name");
		return UNDO_FAILED;
	}
	return write_back(path, f[2], note);
}

static enum undo_result undo_thp(char **f, char **note)
{
	char *path = thp_path(f[1]);

	if (!path || !thp_value_ok(f[1], f[2])) {
		free(path);
		*note = xstrdup("not a THP size and setting");
		return UNDO_FAILED;
	}
	return write_back(path, f[2], note);
}

/* Off as swap, emptied (reset), and removed again when the run made it. */
static enum undo_result undo_zram(char **f, char **note)
{
	char *dir = kpath(menv.sys, "/block/%s", f[1]);
	char *dev = xasprintf("/dev/%s", f[1]), *path;
	uint64_t nr;
	bool hot = !strcmp(f[2], "hot");
	enum undo_result res;

	if (strncmp(f[1], "zram", 4) || parse_u64(f[1] + 4, &nr) ||
	    (!hot && strcmp(f[2], "kept"))) {
		*note = xstrdup("not a zram device");
		res = UNDO_FAILED;
		goto out;
	}
	if (access(dir, F_OK) && errno == ENOENT) {
		*note = xstrdup("no such device now");
		res = UNDO_NOOP;
		goto out;
	}
	if (swap_enabled(dev, note)) {
		char *argv[] = { "swapoff", dev, NULL };
		int r = spawn_wait(argv, 0);

		if (r) {
			*note = r < 0 ? note_err(-r, "cannot run swapoff")
				      : xasprintf(
						"swapoff exited with status %d",
						r);
			res = UNDO_FAILED;
			goto out;
		}
	} else if (*note) {
		res = UNDO_FAILED;
		goto out;
	}
	path = kpath(menv.sys, "/block/%s/reset", f[1]);
	res = write_back(path, "1", note);
	if (res == UNDO_DONE && hot) {
		char num[24];

		snprintf(num, sizeof(num), "%llu", (unsigned long long)nr);
		res = write_back(
			kpath(menv.sys, "/class/zram-control/hot_remove"), num,
			note);
	}
out:
	free(dir);
	free(dev);
	return res;
}

/* Is NR in the comma-separated LIST? */
static bool zram_listed(const char *list, uint64_t nr)
{
	char *end;

	if (!strcmp(list, "none"))
		return false;
	for (;;) {
		if (strtoull(list, &end, 10) == nr)
			return true;
		if (*end != ',')
			return false;
		list = end + 1;
	}
}

static enum undo_result undo_zramnew(char **f, char **note)
{
	char *dir = kpath(menv.sys, "/block"), *removed = NULL;
	enum undo_result res = UNDO_NOOP;
	struct dirent *e;
	DIR *d;

	if (!zram_list_ok(f[1])) {
		*note = xstrdup("not a list of zram devices");
		res = UNDO_FAILED;
		goto out;
	}
	d = opendir(dir);
	if (!d) {
		*note = note_err(errno, "cannot read '%s'", dir);
		res = UNDO_FAILED;
		goto out;
	}
	while ((e = readdir(d))) {
		char buf[32], num[24], *tmp;
		uint64_t nr;

		if (strncmp(e->d_name, "zram", 4) ||
		    parse_u64(e->d_name + 4, &nr) || zram_listed(f[1], nr))
			continue;
		/* Set up (disksize): not an empty device of a dead run. */
		tmp = kpath(menv.sys, "/block/%s/disksize", e->d_name);
		if (read_small_file(tmp, buf, sizeof(buf)) < 0 ||
		    strcmp(buf, "0\n")) {
			free(tmp);
			continue;
		}
		free(tmp);
		snprintf(num, sizeof(num), "%llu", (unsigned long long)nr);
		if (write_back(
			    kpath(menv.sys, "/class/zram-control/hot_remove"),
			    num, note) != UNDO_DONE) {
			res = UNDO_FAILED;
			break;
		}
		tmp = xasprintf("%s%s%s", removed ? removed : "removed ",
				removed ? "," : "", e->d_name);
		free(removed);
		removed = tmp;
		res = UNDO_DONE;
	}
	closedir(d);
	if (res == UNDO_DONE)
		*note = removed, removed = NULL;
out:
	free(removed);
	free(dir);
	return res;
}

static enum undo_result undo_readahead(char **f, char **note)
{
	unsigned maj, min;
	uint64_t kb;
	char *dev;

	if (!devno_parse(f[1], &maj, &min) || parse_u64(f[2], &kb)) {
		*note = xstrdup("not a device number and a size");
		return UNDO_FAILED;
	}
	/* A device that went away (a detached loop device) has nothing. */
	dev = kpath(menv.sys, "/dev/block/%u:%u", maj, min);
	if (access(dev, F_OK) && errno == ENOENT) {
		*note = xstrdup("no such device now");
		free(dev);
		return UNDO_NOOP;
	}
	free(dev);
	return write_back(readahead_path(maj, min), f[2], note);
}

static enum undo_result undo_online(char **f, char **note)
{
	char state[16], *path;
	uint64_t nr;
	ssize_t n;
	int r;

	if (strncmp(f[1], "memory", 6) || parse_u64(f[1] + 6, &nr)) {
		*note = xstrdup("not a memory block");
		return UNDO_FAILED;
	}
	path = mem_block_state_path((unsigned long)nr);
	n = kfile_read(path, state, sizeof(state));
	if (n >= 0 && !strcmp(state, "online")) {
		*note = xstrdup("already online");
		free(path);
		return UNDO_NOOP;
	}
	r = kfile_write(path, "online", 0);
	if (!r && kfile_read(path, state, sizeof(state)) >= 0 &&
	    strcmp(state, "online"))
		r = -EAGAIN;
	if (r)
		*note = note_err(-r, "cannot write '%s'", path);
	free(path);
	return r ? UNDO_FAILED : UNDO_DONE;
}

static enum undo_result undo_hugepages(char **f, char **note)
{
	char *path = kpath(menv.proc, "/sys/vm/nr_hugepages");
	uint64_t want, now;
	int r;

	if (parse_u64(f[1], &want)) {
		*note = xstrdup("not a page count");
		free(path);
		return UNDO_FAILED;
	}
	r = kfile_write(path, f[1], 0);
	if (!r)
		r = kfile_read_u64(path, false, &now);
	if (r)
		*note = note_err(-r, "cannot write '%s'", path);
	else if (now != want)
		*note = xasprintf("the kernel keeps %llu pages (in use?)",
				  (unsigned long long)now);
	free(path);
	return *note ? UNDO_FAILED : UNDO_DONE;
}

static enum undo_result undo_pid(char **f, char **note)
{
	uint64_t pid, start;
	bool other;
	int r;

	if (parse_u64(f[1], &pid) || !pid || pid > INT_MAX ||
	    parse_u64(f[2], &start)) {
		*note = xstrdup("not a pid and start time");
		return UNDO_FAILED;
	}
	r = proc_stop((pid_t)pid, start, TERM_WAIT_NS, &other);
	if (r > 0)
		return UNDO_DONE;
	if (!r) {
		*note = xstrdup(other ? "another process has that pid now; "
					"left alone"
				      : "already gone");
		return UNDO_NOOP;
	}
	*note = note_err(-r, "cannot stop it");
	return UNDO_FAILED;
}

/* clang-format off */
static const struct kind kinds[] = {
	{ "swapoff",   1, 1, 1, 1, make_path,      undo_swapoff },
	{ "rmfile",    1, 1, 1, 1, make_path,      undo_rmfile },
	{ "rmdir",     1, 1, 1, 1, make_path,      undo_rmdir },
	{ "sysctl",    1, 2, 2, 2, make_knob,      undo_knob },
	{ "sysfs",     1, 2, 2, 2, make_knob,      undo_knob },
	{ "thp",       1, 2, 2, 2, make_thp,       undo_thp },
	{ "online",    1, 1, 1, 1, make_online,    undo_online },
	{ "hugepages", 0, 1, 1, 1, make_hugepages, undo_hugepages },
	{ "readahead", 1, 2, 2, 2, make_readahead, undo_readahead },
	{ "zram",      1, 2, 2, 2, make_zram,      undo_zram },
	{ "zramnew",   1, 1, 1, 1, make_zramnew,   undo_zramnew },
	{ "pid",       1, 1, 2, 1, make_pid,       undo_pid },
};
/* clang-format on */

static const struct kind *kind_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].name, name))
			return &kinds[i];
	return NULL;
}

char *entry_make(int argc, char **argv)
{
	const struct kind *k;
	char *line;

	if (argc < 1)
		usage_error("record: no KIND given");
	k = kind_find(argv[0]);
	if (!k)
		usage_error("record: unknown KIND '%s'", argv[0]);
	if (argc - 1 < k->min_args || argc - 1 > k->max_args)
		usage_error("record %s: takes %d to %d arguments, not %d",
			    k->name, k->min_args, k->max_args, argc - 1);
	line = k->make(argc, argv);
	if (strlen(line) > ENTRY_MAX)
		usage_error("record %s: entry longer than %d bytes", k->name,
			    ENTRY_MAX);
	return line;
}

bool entry_undo(const struct record_entry *e, const char *prefix)
{
	const struct kind *k = kind_find(e->field[0]);
	char *note = NULL, what[ENTRY_MAX + 64];
	enum undo_result res;
	size_t i, n = 0;

	if (!k || (int)e->nfield != k->stored_args + 1) {
		fprintf(stderr,
			"%s: %s: cannot undo '%s': not an entry this "
			"version knows; kept in the record\n",
			progname(), prefix, e->line);
		return false;
	}
	n = (size_t)snprintf(what, sizeof(what), "%s", k->name);
	for (i = 1; i <= (size_t)k->shown_args && n < sizeof(what); i++)
		n += (size_t)snprintf(what + n, sizeof(what) - n, " %s",
				      e->field[i]);
	res = k->undo(e->field, &note);
	if (res == UNDO_FAILED)
		fprintf(stderr, "%s: %s: %s failed: %s; kept in the record\n",
			progname(), prefix, what, note ? note : "error");
	else if (note)
		fprintf(stderr, "%s: %s: %s (%s)\n", progname(), prefix, what,
			note);
	else
		fprintf(stderr, "%s: %s: %s\n", progname(), prefix, what);
	free(note);
	return res != UNDO_FAILED;
}
