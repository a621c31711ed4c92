// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kinds of entry in the machine-state record: how `latency-machine
 * record` completes one (a sysctl or sysfs knob and its value, a
 * transparent huge page size's setting, a block device's readahead, a
 * memory block, the hugetlb pool size, a process and its start time; the
 * kinds that name files are in machine-path.c, zram in machine-zram.c), the
 * checks every entry meets both when recorded and when replayed (a record
 * is replayed as root: a damaged or planted one must not reach any other
 * file, value or process), and how restore undoes it.  Every undo is
 * idempotent and says whether it did something, found nothing to do, or
 * failed and why.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/knob.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "machine/machine.h"

#define ENTRY_MAX 4096
/* How long restore lets a recorded process end on SIGTERM. */
#define TERM_WAIT_NS (5 * NSEC_PER_SEC)

/*
 * Undo the entry of R whose fields (the kind first) are F, which passed
 * its checks; *NOTE (allocated, or left NULL) says why nothing was done or
 * what failed.
 */
typedef enum undo_result undo_fn(const struct record *r, char **f, char **note);
/* Complete `record KIND ARGS` (ARGV[0] is KIND) into an entry line. */
typedef char *make_fn(const struct record *r, int argc, char **argv);
/* NULL when the stored entry F may be replayed for R, else why not. */
typedef const char *check_fn(const struct record *r, char **f);

struct kind {
	const char *name;
	int min_args, max_args; /* as `record` takes them */
	int stored_args;	/* as the record holds them */
	int shown_args;		/* how many a message shows */
	make_fn *make;
	check_fn *check;
	undo_fn *undo;
};

/* ---- entries: validation as `record` takes them ---- */

char *entry_refused(int errnum, const char *fmt, ...)
{
	char buf[ENTRY_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vformat_err(buf, sizeof(buf), errnum, fmt, ap);
	va_end(ap);
	(void)error_ret(EXIT_RUN_FAILED, "%s", buf);
	return NULL;
}

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
		return entry_refused(
			(int)-n, "%s: cannot read the current value of '%s'",
			kind, path);
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
		return entry_refused(
			0,
			"%s: the value of '%s' spans lines; record "
			"it by hand",
			kind, path);
	return xstrdup(buf);
}

/* sysctl NAME or sysfs /sys/PATH: a knob a run may change (lib/knob). */
static const char *knob_refused(const char *kind, const char *name)
{
	enum knob_kind k;
	const char *why;

	if (knob_check(name, &k, &why))
		return why;
	if (k != (strcmp(kind, "sysctl") ? KNOB_SYSFS : KNOB_SYSCTL))
		return strcmp(kind, "sysctl") ? "not a sysfs path (/sys/...)"
					      : "not a sysctl name (vm.NAME)";
	return NULL;
}

static char *make_knob(const struct record *r, int argc, char **argv)
{
	const char *why = knob_refused(argv[0], argv[1]);
	char *path, *value, *line;

	(void)r;
	if (why)
		usage_error("%s: refusing '%s': %s", argv[0], argv[1], why);
	if (argc > 2) {
		check_value(argv[0], argv[2]);
		if (!knob_value_ok(argv[2]))
			usage_error("%s: refusing the value '%s': not one a "
				    "knob may be given",
				    argv[0], argv[2]);
		value = xstrdup(argv[2]);
	} else {
		path = knob_file(argv[1], menv.proc, menv.sys);
		value = current_value(argv[0], path);
		if (value && !knob_value_ok(value)) {
			free(value);
			value = entry_refused(0,
					      "%s: '%s' holds a value this "
					      "record cannot keep",
					      argv[0], path);
		}
		free(path);
		if (!value)
			return NULL;
	}
	line = xasprintf("%s\t%s\t%s", argv[0], argv[1], value);
	free(value);
	return line;
}

static const char *check_knob(const struct record *r, char **f)
{
	const char *why = knob_refused(f[0], f[1]);

	(void)r;
	if (why)
		return why;
	return knob_value_ok(f[2]) ? NULL : "not a value a knob may be given";
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

static char *make_thp(const struct record *r, int argc, char **argv)
{
	char *path = thp_path(argv[1]), *value, *line;

	(void)r;
	if (!path)
		usage_error("thp: '%s' is not a THP size (NkB, e.g. 64kB, or "
			    "global)",
			    argv[1]);
	value = argc > 2 ? xstrdup(argv[2]) : current_value("thp", path);
	if (!value) {
		free(path);
		return NULL;
	}
	if (!thp_value_ok(argv[1], value)) {
		if (argc > 2)
			usage_error("thp: '%s' is not a setting of %s "
				    "(always, %smadvise or never)",
				    value, argv[1],
				    strcmp(argv[1], "global") ? "inherit, "
							      : "");
		entry_refused(0, "thp: '%s' holds '%s', not a setting", path,
			      value);
		free(path);
		free(value);
		return NULL;
	}
	free(path);
	line = xasprintf("thp\t%s\t%s", argv[1], value);
	free(value);
	return line;
}

static const char *check_thp(const struct record *r, char **f)
{
	char *path = thp_path(f[1]);
	bool ok = path && thp_value_ok(f[1], f[2]);

	(void)r;
	free(path);
	return ok ? NULL : "not a THP size and setting";
}

/* MAJ:MIN of a block device; false when S is not one. */
static bool devno_parse(const char *s, unsigned *maj, unsigned *min)
{
	uint64_t x = 0, y = 0;
	bool ok = ident_parse(s, &x, &y) && x <= 4095 && y <= 1048575;

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
static char *make_readahead(const struct record *r, int argc, char **argv)
{
	unsigned maj, min;
	uint64_t kb;

	(void)r;
	if (!devno_parse(argv[1], &maj, &min))
		usage_error("readahead: '%s' is not a block device number "
			    "(MAJ:MIN)",
			    argv[1]);
	if (argc > 2) {
		kb = opt_u64("readahead KB", argv[2], 0, 1ULL << 30);
	} else {
		char *path = readahead_path(maj, min);
		int e = kfile_read_u64(path, false, &kb);

		if (e)
			entry_refused(-e, "readahead: cannot read '%s'", path);
		free(path);
		if (e)
			return NULL;
	}
	return xasprintf("readahead\t%u:%u\t%llu", maj, min,
			 (unsigned long long)kb);
}

static const char *check_readahead(const struct record *r, char **f)
{
	unsigned maj, min;
	uint64_t kb;

	(void)r;
	return devno_parse(f[1], &maj, &min) && !parse_u64(f[2], &kb) &&
			       kb <= (1ULL << 30)
		       ? NULL
		       : "not a device number and a size";
}

/* "memoryN" (N, when NR is not NULL); false when S is not one. */
static bool block_parse(const char *s, uint64_t *nr)
{
	uint64_t n;

	if (strncmp(s, "memory", 6) || parse_u64(s + 6, &n) || n > 1000000000)
		return false;
	if (nr)
		*nr = n;
	return true;
}

static char *make_online(const struct record *r, int argc, char **argv)
{
	const char *s = argv[1];
	uint64_t nr;

	(void)r;
	(void)argc;
	if (!strncmp(s, "memory", 6))
		s += 6;
	if (parse_u64(s, &nr) || nr > 1000000000)
		usage_error("online: '%s' is not a memory block (memoryN or N)",
			    argv[1]);
	return xasprintf("online\tmemory%llu", (unsigned long long)nr);
}

static const char *check_online(const struct record *r, char **f)
{
	(void)r;
	return block_parse(f[1], NULL) ? NULL : "not a memory block";
}

static char *make_hugepages(const struct record *r, int argc, char **argv)
{
	uint64_t count;

	(void)r;
	if (argc > 1) {
		count = opt_u64("hugepages COUNT", argv[1], 0, UINT64_MAX);
	} else {
		char *path = kpath(menv.proc, "/sys/vm/nr_hugepages");
		int e = kfile_read_u64(path, false, &count);

		if (e)
			entry_refused(-e, "hugepages: cannot read '%s'", path);
		free(path);
		if (e)
			return NULL;
	}
	return xasprintf("hugepages\t%llu", (unsigned long long)count);
}

/*
 * The pool is given back to what it was before the run, never grown: a
 * count above the pool the record began with is not the run's (a record
 * of format 1 has none: above the pool there is now).
 */
static const char *check_hugepages(const struct record *r, char **f)
{
	uint64_t count;

	if (parse_u64(f[1], &count))
		return "not a page count";
	if (r->format == 1) {
		char *path = kpath(menv.proc, "/sys/vm/nr_hugepages");
		uint64_t now;
		int e = kfile_read_u64(path, false, &now);

		free(path);
		return !e && count <= now ? NULL
					  : "above the pool there is now";
	}
	if (!r->pool_known)
		return "the run began without a hugetlb pool";
	return count <= r->pool ? NULL : "above the pool the run began with";
}

/* Is PID a descendant of OWNER (its parent's parent's ...)? */
static bool descends_from(pid_t pid, pid_t owner)
{
	pid_t ppid;
	uint64_t start;
	int depth;

	for (depth = 0; depth < 4096 && pid > 1; depth++) {
		if (proc_stat_read(pid, &ppid, &start))
			return false;
		if (ppid == owner)
			return true;
		pid = ppid;
	}
	return false;
}

static char *make_pid(const struct record *r, int argc, char **argv)
{
	pid_t pid = (pid_t)opt_u64("pid PID", argv[1], 1, INT_MAX);
	uint64_t start;
	int e;

	(void)argc;
	if (pid == 1 || pid == getpid() || pid == r->owner)
		usage_error("pid: refusing %d: init, latency-machine itself "
			    "or the run's own driver",
			    (int)pid);
	e = proc_starttime(pid, &start);
	if (e == -ESRCH)
		return entry_refused(0, "pid: no process %d to record",
				     (int)pid);
	if (e)
		return entry_refused(-e, "pid: cannot read the start of %d",
				     (int)pid);
	if (!descends_from(pid, r->owner))
		return entry_refused(0,
				     "pid: %d is not a process run pid %d "
				     "started",
				     (int)pid, (int)r->owner);
	return xasprintf("pid\t%d\t%llu", (int)pid, (unsigned long long)start);
}

/*
 * A process the run started: never init, this program or the driver, and
 * started after the run began (the start time is matched again at undo).
 */
static const char *check_pid(const struct record *r, char **f)
{
	uint64_t pid, start;

	if (parse_u64(f[1], &pid) || !pid || pid > INT_MAX ||
	    parse_u64(f[2], &start))
		return "not a pid and start time";
	if (pid == 1 || (pid_t)pid == getpid() || (pid_t)pid == r->owner)
		return "init, latency-machine itself or the run's driver";
	return start >= r->owner_start ? NULL : "a process older than the run";
}

/* ---- undo actions: idempotent, each says what it did ---- */

static enum undo_result undo_knob(const struct record *r, char **f, char **note)
{
	(void)r;
	return kfile_write_back(knob_file(f[1], menv.proc, menv.sys), f[2],
				note);
}

static enum undo_result undo_thp(const struct record *r, char **f, char **note)
{
	(void)r;
	return kfile_write_back(thp_path(f[1]), f[2], note);
}

static enum undo_result undo_readahead(const struct record *r, char **f,
				       char **note)
{
	unsigned maj, min;
	char *dev;

	(void)r;
	(void)devno_parse(f[1], &maj, &min); /* checked */
	/* A device that went away (a detached loop device) has nothing. */
	dev = kpath(menv.sys, "/dev/block/%u:%u", maj, min);
	if (access(dev, F_OK) && errno == ENOENT) {
		*note = xstrdup("no such device now");
		free(dev);
		return UNDO_NOOP;
	}
	free(dev);
	return kfile_write_back(readahead_path(maj, min), f[2], note);
}

static enum undo_result undo_online(const struct record *r, char **f,
				    char **note)
{
	char state[16], *path;
	uint64_t nr = 0;
	ssize_t n;
	int e;

	(void)r;
	(void)block_parse(f[1], &nr); /* checked */
	path = mem_block_state_path((unsigned long)nr);
	n = kfile_read(path, state, sizeof(state));
	if (n >= 0 && !strcmp(state, "online")) {
		*note = xstrdup("already online");
		free(path);
		return UNDO_NOOP;
	}
	e = kfile_write(path, "online", 0);
	if (!e && kfile_read(path, state, sizeof(state)) >= 0 &&
	    strcmp(state, "online"))
		e = -EAGAIN;
	if (e)
		*note = note_err(-e, "cannot write '%s'", path);
	free(path);
	return e ? UNDO_FAILED : UNDO_DONE;
}

static enum undo_result undo_hugepages(const struct record *r, char **f,
				       char **note)
{
	char *path = kpath(menv.proc, "/sys/vm/nr_hugepages");
	uint64_t want = 0, now;
	int e;

	(void)r;
	(void)parse_u64(f[1], &want); /* checked */
	e = kfile_read_u64(path, false, &now);
	if (!e && now <= want) {
		/* Given back already, or smaller than the run found it. */
		*note = xasprintf("the pool holds %llu pages",
				  (unsigned long long)now);
		free(path);
		return UNDO_NOOP;
	}
	if (!e)
		e = kfile_write(path, f[1], 0);
	if (!e)
		e = kfile_read_u64(path, false, &now);
	if (e)
		*note = note_err(-e, "cannot write '%s'", path);
	else if (now != want)
		*note = xasprintf("the kernel keeps %llu pages (in use?)",
				  (unsigned long long)now);
	free(path);
	return *note ? UNDO_FAILED : UNDO_DONE;
}

static enum undo_result undo_pid(const struct record *r, char **f, char **note)
{
	uint64_t pid = 0, start = 0;
	bool other;
	int e;

	(void)r;
	(void)parse_u64(f[1], &pid); /* checked */
	(void)parse_u64(f[2], &start);
	e = proc_stop((pid_t)pid, start, TERM_WAIT_NS, &other);
	if (e > 0)
		return UNDO_DONE;
	if (!e) {
		*note = xstrdup(other ? "another process has that pid now; "
					"left alone"
				      : "already gone");
		return UNDO_NOOP;
	}
	*note = note_err(-e, "cannot stop it");
	return UNDO_FAILED;
}

/* clang-format off */
static const struct kind kinds[] = {
	{ "swapoff",   1, 1, 3, 1, path_make, path_check, path_undo },
	{ "rmfile",    1, 1, 2, 1, path_make, path_check, path_undo },
	{ "rmdir",     1, 1, 2, 1, path_make, path_check, path_undo },
	{ "sysctl",    1, 2, 2, 2, make_knob, check_knob, undo_knob },
	{ "sysfs",     1, 2, 2, 2, make_knob, check_knob, undo_knob },
	{ "thp",       1, 2, 2, 2, make_thp, check_thp, undo_thp },
	{ "online",    1, 1, 1, 1, make_online, check_online, undo_online },
	{ "hugepages", 0, 1, 1, 1, make_hugepages, check_hugepages,
	  undo_hugepages },
	{ "readahead", 1, 2, 2, 2, make_readahead, check_readahead,
	  undo_readahead },
	{ "zram",      1, 2, 2, 2, make_zram, check_zram, undo_zram },
	{ "zramnew",   1, 1, 1, 1, make_zramnew, check_zramnew, undo_zramnew },
	{ "pid",       1, 1, 2, 1, make_pid, check_pid, undo_pid },
	{ "trace-instance", 1, 1, 2, 1, make_trace, check_trace, undo_trace },
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

/* Split the line LINE into its tab-separated fields (allocated). */
static char **fields_of(const char *line, size_t *n)
{
	char *copy = xstrdup(line), *p, **f;
	size_t k = 1;

	for (p = copy; *p; p++)
		k += *p == '\t';
	f = xcalloc(k + 1, sizeof(*f));
	*n = 0;
	while ((p = strsep(&copy, "\t")))
		f[(*n)++] = p;
	return f;
}

/* "KIND ARG..." of E for messages: escaped, as much as the kind shows. */
static void entry_what(const struct record_entry *e, const struct kind *k,
		       char *what, size_t len)
{
	size_t i, n = 0, shown = k ? (size_t)k->shown_args + 1 : e->nfield;

	what[0] = '\0';
	for (i = 0; i < shown && i < e->nfield && n < len; i++) {
		char *t = text_escape(e->field[i]);

		n += (size_t)snprintf(what + n, len - n, "%s%s", i ? " " : "",
				      t);
		free(t);
	}
}

const char *entry_check(const struct record *r, const char *line)
{
	size_t n;
	char **f = fields_of(line, &n);
	const struct kind *k = kind_find(f[0]);
	const char *why = !k || (int)n != k->stored_args + 1
				  ? "not an entry this version knows"
				  : k->check(r, f);

	free(f[0]);
	free(f);
	return why;
}

char *entry_make(const struct record *r, int argc, char **argv)
{
	const struct kind *k;
	const char *why;
	char *line;

	if (argc < 1)
		usage_error("record: no KIND given");
	k = kind_find(argv[0]);
	if (!k)
		usage_error("record: unknown KIND '%s'", argv[0]);
	if (argc - 1 < k->min_args || argc - 1 > k->max_args)
		usage_error("record %s: takes %d to %d arguments, not %d",
			    k->name, k->min_args, k->max_args, argc - 1);
	line = k->make(r, argc, argv);
	if (!line)
		return NULL;
	if (strlen(line) > ENTRY_MAX)
		usage_error("record %s: entry longer than %d bytes", k->name,
			    ENTRY_MAX);
	/* The checks restore makes, on what restore will read. */
	why = entry_check(r, line);
	if (why) {
		struct record_entry e;
		char what[ENTRY_MAX + 64];

		e.field = fields_of(line, &e.nfield);
		entry_what(&e, k, what, sizeof(what));
		usage_error("record: refusing '%s': %s", what, why);
	}
	return line;
}
bool entry_undo(const struct record *r, const struct record_entry *e,
		const char *prefix)
{
	const struct kind *k = kind_find(e->field[0]);
	char *note = NULL, what[ENTRY_MAX + 64];
	const char *why = NULL;
	enum undo_result res;

	if (e->damaged) {
		char *t = text_escape(e->raw);

		fprintf(stderr,
			"%s: %s: line %zu '%s' is not a whole entry: %s; kept "
			"in the record, not applied\n",
			progname(), prefix, e->lineno, t, e->damaged);
		free(t);
		return false;
	}
	if (!k || (int)e->nfield != k->stored_args + 1)
		why = r->format == 1 && k
			      ? "written by an older latency-machine without "
				"what this one checks; undo it by hand"
			      : "not an entry this version knows";
	entry_what(e, why ? NULL : k, what, sizeof(what));
	if (!why)
		why = k->check(r, e->field);
	if (why) {
		fprintf(stderr,
			"%s: %s: refusing '%s': %s; kept in the record, not "
			"applied\n",
			progname(), prefix, what, why);
		return false;
	}
	res = k->undo(r, e->field, &note);
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
