// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one machine-state record (doc/design.md, contract 5): a text file
 * $LATENCY_STATE_DIR/state, one tab-separated line each, every line of
 * format 2 ending in a tab and the CRC-32 of what precedes it (eight hex
 * digits), so that a line cut short or changed is told from a whole one.
 * The header: "format 2", "owner PID STARTTIME", "pool N" (the hugetlb pool
 * when the run began, or "-"), "cgroup DIR" (where the run makes its
 * cgroups), then a "root DIR DEV:INO" line per directory the run declared;
 * entries follow in the order the changes were made and are undone last
 * first.  Every undo is idempotent, so a restore that is itself interrupted
 * is simply run again (the kinds and their checks are in machine-entry.c
 * and machine-path.c).  A last line without its newline was cut short
 * while being written: it is not an entry.  Format 1 (no checksums, no
 * header beyond the owner) is still read, so that a record left by an
 * older version can be restored; its entries meet the same checks.  The
 * directory is 0700 and ours; the file is opened without following links
 * or blocking, only a regular file is read, and it is replaced by rename,
 * so root never writes through a planted link.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/knob.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/xalloc.h"
#include "machine/machine.h"

#define RECORD_NAME "state"
#define RECORD_NEW "state.new"
#define RECORD_MAX (1 << 20)

static const char *state_name(void)
{
	return menv.state_dir;
}

const char *record_path(void)
{
	static char *path;
	static const char *for_dir;

	/* Begin may look at another run's directory: follow menv. */
	if (!path || for_dir != menv.state_dir) {
		free(path);
		path = xasprintf("%s/" RECORD_NAME, state_name());
		for_dir = menv.state_dir;
	}
	return path;
}

/* Why the state directory open at FD (stat ST) may not be used, or NULL. */
static int dir_refused(int fd, const struct stat *st, const char *dir)
{
	int status = 0;

	if (st->st_uid != geteuid())
		status = error_ret(EXIT_RUN_FAILED,
				   "refusing state directory '%s': owned by "
				   "uid %u, not %u",
				   dir, (unsigned)st->st_uid,
				   (unsigned)geteuid());
	else if (st->st_mode & 022)
		status = error_ret(EXIT_RUN_FAILED,
				   "refusing state directory '%s': writable by "
				   "group or others (mode %04o)",
				   dir, (unsigned)(st->st_mode & 07777));
	if (status)
		(void)close(fd); /* read-only */
	return status;
}

int state_dir_open(int *dirfd)
{
	const char *dir = state_name();
	struct stat st;
	int fd;

	if (mkdir(dir, 0700) && errno != EEXIST)
		return error_ret_errno(EXIT_RUN_FAILED,
				       "cannot create state directory '%s'",
				       dir);
	if (!lstat(dir, &st) && S_ISLNK(st.st_mode))
		return error_ret(EXIT_RUN_FAILED,
				 "refusing state directory '%s': it is a "
				 "symbolic link",
				 dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return error_ret_errno(EXIT_RUN_FAILED,
				       "cannot open state directory '%s'", dir);
	if (fstat(fd, &st)) {
		int status = error_ret_errno(EXIT_RUN_FAILED,
					     "cannot stat '%s'", dir);

		(void)close(fd); /* read-only */
		return status;
	}
	*dirfd = fd;
	return dir_refused(fd, &st, dir);
}

int state_lock(int dirfd)
{
	while (flock(dirfd, LOCK_EX))
		if (errno != EINTR)
			return error_ret_errno(EXIT_RUN_FAILED,
					       "cannot lock '%s'",
					       state_name());
	return 0;
}

int state_open_locked(int *dirfd)
{
	int status = state_dir_open(dirfd);

	if (!status && (status = state_lock(*dirfd)))
		(void)close(*dirfd); /* read-only */
	return status;
}

void state_unlock(int dirfd)
{
	(void)flock(dirfd, LOCK_UN); /* closing the descriptor also unlocks */
}

/*
 * Open the record with FLAGS, refusing links, files others can write and
 * anything but a regular file (a FIFO would block the opener for good,
 * holding the lock: O_NONBLOCK, then the type is checked).
 */
static int record_open(int dirfd, int flags, int *fdp)
{
	struct stat st;
	int fd, status = 0;

	fd = openat(dirfd, RECORD_NAME,
		    flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP)
		return error_ret(EXIT_RUN_FAILED,
				 "refusing record '%s': it is a symbolic link",
				 record_path());
	if (fd < 0 && errno == ENOENT)
		return -ENOENT;
	if (fd < 0)
		return error_ret_errno(EXIT_RUN_FAILED, "cannot open '%s'",
				       record_path());
	if (fstat(fd, &st))
		status = error_ret_errno(EXIT_RUN_FAILED, "cannot stat '%s'",
					 record_path());
	else if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
		 (st.st_mode & 022))
		status =
			error_ret(EXIT_RUN_FAILED,
				  "refusing record '%s': not a regular file of "
				  "uid %u that only it can write",
				  record_path(), (unsigned)geteuid());
	if (status)
		(void)close(fd); /* not written */
	else
		*fdp = fd;
	return status;
}

/* CRC-32 (IEEE 802.3, as zlib's crc32()) of the LEN bytes at S. */
static uint32_t crc32_of(const char *s, size_t len)
{
	uint32_t c = 0xffffffffu;

	while (len--) {
		c ^= (unsigned char)*s++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	return ~c;
}

/* CONTENT as a line of format 2: its checksum and the newline added. */
static char *line_text(const char *content)
{
	return xasprintf("%s\t%08x\n", content,
			 (unsigned)crc32_of(content, strlen(content)));
}

/*
 * Check the checksum that ends the format-2 LINE and cut it off; NULL, or
 * why the line is not whole.
 */
static const char *line_verify(char *line)
{
	char *tab = strrchr(line, '\t'), want[16];

	if (!tab || strlen(tab + 1) != 8 ||
	    strspn(tab + 1, "0123456789abcdef") != 8)
		return "no checksum (a line cut short or changed)";
	snprintf(want, sizeof(want), "%08x",
		 (unsigned)crc32_of(line, (size_t)(tab - line)));
	if (strcmp(want, tab + 1))
		return "its checksum does not match (a line cut short or "
		       "changed)";
	*tab = '\0';
	return NULL;
}

/* Split E->line at tabs into E->field (keeping empty fields). */
static void entry_split(struct record_entry *e)
{
	char *p, *copy = xstrdup(e->line);
	size_t n = 1;

	for (p = copy; *p; p++)
		n += *p == '\t';
	e->field = xcalloc(n + 1, sizeof(*e->field));
	e->nfield = 0;
	while ((p = strsep(&copy, "\t")))
		e->field[e->nfield++] = p;
}

static void entry_free(struct record_entry *e)
{
	if (e->field)
		free(e->field[0]);
	free(e->field);
	free(e->line);
	free(e->raw);
}

/* Say why header line LINENO is not to be trusted; returns -1. */
static int bad_header(size_t lineno, const char *what)
{
	error_ret(EXIT_RUN_FAILED, "'%s' line %zu: %s; not a record to trust",
		  record_path(), lineno, what);
	return -1;
}

/*
 * One header line of format 2 (after "format"), its checksum checked:
 * returns 1, 0 at the first line that is not part of the header, or -1
 * for a header not to trust (said).
 */
static int header_line(struct record *r, size_t lineno, char *line)
{
	struct record_entry h;
	uint64_t v;
	int ok = 1;

	/* After the fixed lines 2 to 4, root lines until the entries. */
	if (lineno > 4 && strncmp(line, "root\t", 5))
		return 0;
	memset(&h, 0, sizeof(h));
	h.line = xstrdup(line);
	if (line_verify(h.line)) {
		entry_free(&h);
		return bad_header(lineno, "damaged (checksum)");
	}
	entry_split(&h);
	if (lineno == 2) {
		if (h.nfield != 3 || strcmp(h.field[0], "owner") ||
		    parse_u64(h.field[1], &v) || !v || v > INT_MAX ||
		    parse_u64(h.field[2], &r->owner_start))
			ok = bad_header(lineno, "not an owner line");
		else
			r->owner = (pid_t)v;
	} else if (lineno == 3) {
		if (h.nfield != 2 || strcmp(h.field[0], "pool") ||
		    (strcmp(h.field[1], "-") &&
		     parse_u64(h.field[1], &r->pool)))
			ok = bad_header(lineno, "not a pool line");
		else
			r->pool_known = strcmp(h.field[1], "-") != 0;
	} else if (lineno == 4) {
		if (h.nfield != 2 || strcmp(h.field[0], "cgroup") ||
		    !path_is_clean(h.field[1]))
			ok = bad_header(lineno, "not a cgroup line");
		else
			r->cgroup_root = xstrdup(h.field[1]);
	} else if (!strcmp(h.field[0], "root")) {
		struct record_root *rt = &r->root[r->nroots];

		if (r->nroots == RECORD_ROOTS_MAX || h.nfield != 3 ||
		    !path_is_clean(h.field[1]) ||
		    !ident_parse(h.field[2], &rt->dev, &rt->ino))
			ok = bad_header(lineno, "not a root line");
		else
			rt->path = xstrdup(h.field[1]), r->nroots++;
	} else {
		ok = 0;
	}
	entry_free(&h);
	return ok;
}

/* Line 2 of format 1: "owner PID STARTTIME", without a checksum. */
static int owner_v1(struct record *r, const char *line)
{
	struct record_entry h = { .line = xstrdup(line) };
	uint64_t pid;
	int ok = 1;

	entry_split(&h);
	if (h.nfield != 3 || strcmp(h.field[0], "owner") ||
	    parse_u64(h.field[1], &pid) || !pid || pid > INT_MAX ||
	    parse_u64(h.field[2], &r->owner_start))
		ok = bad_header(2, "not an owner line");
	else
		r->owner = (pid_t)pid;
	entry_free(&h);
	return ok;
}

/* Line 1: the format, 1 or 2. */
static int format_of(char *line)
{
	char *copy;
	int format = 0;

	if (!strcmp(line, "format\t1"))
		return 1;
	copy = xstrdup(line);
	if (!line_verify(copy) && !strcmp(copy, "format\t2"))
		format = 2;
	free(copy);
	if (!format)
		error_ret(EXIT_RUN_FAILED,
			  "'%s' is not a latency-machine record of format 1 or "
			  "2 (line 1)",
			  record_path());
	return format;
}

static void entry_add(struct record *r, size_t *alloc, size_t lineno,
		      const char *line)
{
	struct record_entry e = { .raw = xstrdup(line),
				  .line = xstrdup(line),
				  .lineno = lineno };

	if (r->format == 2)
		e.damaged = line_verify(e.line);
	entry_split(&e);
	if (r->n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 16;
		r->e = xreallocarray(r->e, *alloc, sizeof(*r->e));
	}
	r->e[r->n++] = e;
}

/*
 * Parse the whole lines of BUF (LEN bytes, every line ending in \n).
 * Returns 0, or the exit status for a record not to trust (said).
 */
static int record_parse(struct record *r, char *buf, size_t len)
{
	size_t lineno = 0, alloc = 0, head_len = 0;
	bool in_head = true;
	char *line, *next;
	int h;

	buf[len] = '\0';
	for (line = buf; line < buf + len; line = next) {
		next = strchr(line, '\n');
		*next++ = '\0';
		lineno++;
		if (lineno == 1) {
			r->format = format_of(line);
			if (!r->format)
				return EXIT_RUN_FAILED;
		} else if (r->format == 1 && lineno == 2) {
			if (owner_v1(r, line) < 0)
				return EXIT_RUN_FAILED;
		} else if (r->format == 2 && in_head &&
			   (h = header_line(r, lineno, line))) {
			/* lines 2 to 4 are the header */
			if (h < 0)
				return EXIT_RUN_FAILED;
		} else {
			in_head = false;
			if (*line) /* an empty line holds nothing */
				entry_add(r, &alloc, lineno, line);
			continue;
		}
		head_len = (size_t)(next - buf);
	}
	if (lineno < (r->format == 2 ? 4u : 2u))
		return error_ret(EXIT_RUN_FAILED,
				 "'%s' is not a latency-machine record",
				 record_path());
	/* The header again as stored: the NULs back to newlines. */
	r->head = xmalloc(head_len + 1);
	memcpy(r->head, buf, head_len);
	for (size_t i = 0; i < head_len; i++)
		if (!r->head[i])
			r->head[i] = '\n';
	r->head[head_len] = '\0';
	return 0;
}

int record_load(int dirfd, struct record *r)
{
	char *buf, *nl;
	ssize_t n;
	int fd = -1, status;

	memset(r, 0, sizeof(*r));
	r->dirfd = dirfd;
	status = record_open(dirfd, O_RDONLY, &fd);
	if (status)
		return status;
	buf = xmalloc(RECORD_MAX + 1);
	n = read_full(fd, buf, RECORD_MAX + 1);
	(void)close(fd); /* read-only */
	if (n < 0)
		status = error_ret_err(EXIT_RUN_FAILED, (int)-n,
				       "cannot read '%s'", record_path());
	else if (n > RECORD_MAX)
		status = error_ret(EXIT_RUN_FAILED,
				   "'%s' is larger than %d bytes",
				   record_path(), RECORD_MAX);
	else if (memchr(buf, '\0', (size_t)n))
		status = error_ret(EXIT_RUN_FAILED, "'%s' holds a NUL byte",
				   record_path());
	if (!status) {
		/* A last line without its newline was cut short. */
		buf[n] = '\0';
		nl = memrchr(buf, '\n', (size_t)n);
		r->whole = nl ? nl - buf + 1 : 0;
		if (r->whole < n)
			r->torn = xstrdup(buf + r->whole);
		status = record_parse(r, buf, (size_t)r->whole);
	}
	free(buf);
	if (status)
		record_release(r);
	return status;
}

int record_load_owned(int dirfd, pid_t owner, struct record *r)
{
	struct lock_holder h;
	bool alive;
	int status = record_load(dirfd, r);

	if (status > 0)
		return status;
	if (status || r->owner != owner) {
		if (!status)
			record_release(r);
		return error_ret(EXIT_RUN_FAILED,
				 "no record of run pid %d in '%s' (run "
				 "'latency-machine begin --owner=%d' first)",
				 (int)owner, state_name(), (int)owner);
	}
	/* Only the run that holds the machine changes it. */
	status = machine_lock_holder(&h, &alive);
	if (!status && alive && h.pid == owner && h.start == r->owner_start)
		return 0;
	record_release(r);
	if (status)
		return status;
	if (h.pid)
		return error_ret(
			EXIT_UNSUPPORTED,
			"run pid %d does not hold the machine: run pid "
			"%d (%s) does ('%s')",
			(int)owner, (int)h.pid, h.command, machine_lock_path());
	return error_ret(EXIT_UNSUPPORTED,
			 "run pid %d does not hold the machine ('%s' names no "
			 "live run)",
			 (int)owner, machine_lock_path());
}

void record_release(struct record *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		entry_free(&r->e[i]);
	for (i = 0; i < r->nroots; i++)
		free(r->root[i].path);
	free(r->e);
	free(r->cgroup_root);
	free(r->head);
	free(r->torn);
	memset(r, 0, sizeof(*r));
}

static int sync_dir(int dirfd)
{
	if (fsync(dirfd))
		return error_ret_errno(EXIT_RUN_FAILED, "cannot sync '%s'",
				       state_name());
	return 0;
}

/* TEXT becomes the record: written as state.new, renamed into place. */
static int record_replace(int dirfd, const char *text)
{
	int fd, e;

	if (unlinkat(dirfd, RECORD_NEW, 0) && errno != ENOENT)
		return error_ret_errno(EXIT_RUN_FAILED,
				       "cannot remove '%s/" RECORD_NEW "'",
				       state_name());
	fd = openat(dirfd, RECORD_NEW,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return error_ret_errno(EXIT_RUN_FAILED,
				       "cannot create '%s/" RECORD_NEW "'",
				       state_name());
	e = write_all(fd, text, strlen(text));
	if (!e && fsync(fd))
		e = -errno;
	if (close(fd) && !e)
		e = -errno;
	if (e)
		return error_ret_err(EXIT_RUN_FAILED, -e, "cannot write '%s'",
				     RECORD_NEW);
	if (renameat(dirfd, RECORD_NEW, dirfd, RECORD_NAME))
		return error_ret_errno(EXIT_RUN_FAILED, "cannot replace '%s'",
				       record_path());
	return sync_dir(dirfd);
}

/* Append the format-2 line of CONTENT to the allocated *TEXT. */
static void text_add(char **text, const char *content)
{
	char *line = line_text(content), *t = xasprintf("%s%s", *text, line);

	free(line);
	free(*text);
	*text = t;
}

int record_create(int dirfd, const struct record *r)
{
	char *text = xstrdup(""), *c;
	size_t i;
	int status;

	text_add(&text, "format\t2");
	c = xasprintf("owner\t%d\t%llu", (int)r->owner,
		      (unsigned long long)r->owner_start);
	text_add(&text, c);
	free(c);
	c = r->pool_known ? xasprintf("pool\t%llu", (unsigned long long)r->pool)
			  : xstrdup("pool\t-");
	text_add(&text, c);
	free(c);
	c = xasprintf("cgroup\t%s", r->cgroup_root);
	text_add(&text, c);
	free(c);
	for (i = 0; i < r->nroots; i++) {
		c = xasprintf("root\t%s\t%llu:%llu", r->root[i].path,
			      (unsigned long long)r->root[i].dev,
			      (unsigned long long)r->root[i].ino);
		text_add(&text, c);
		free(c);
	}
	status = record_replace(dirfd, text);
	free(text);
	return status;
}

bool record_owner_alive(const struct record *r)
{
	uint64_t start;

	return !proc_starttime(r->owner, &start) && start == r->owner_start;
}

int record_append(struct record *r, const char *line, off_t *at)
{
	char *text;
	struct stat st;
	const char *why = entry_check(r, line);
	int fd = -1, e, status;

	*at = r->whole;
	if (why) {
		char *t = text_escape(line);

		status = error_ret(EXIT_RUN_FAILED,
				   "refusing to record '%s': %s", t, why);
		free(t);
		return status;
	}
	if (r->format != 2)
		return error_ret(EXIT_RUN_FAILED,
				 "'%s' was written by an older latency-machine "
				 "(format 1): restore it first",
				 record_path());
	status = record_open(r->dirfd, O_RDWR, &fd);
	if (status)
		return status > 0 ? status
				  : error_ret_err(EXIT_RUN_FAILED, -status,
						  "cannot open '%s'",
						  record_path());
	if (fstat(fd, &st)) {
		status = error_ret_errno(EXIT_RUN_FAILED, "cannot stat '%s'",
					 record_path());
		goto out;
	}
	if (r->torn) {
		char *t = text_escape(r->torn);

		/* Never joined to the next entry: cut it off. */
		fprintf(stderr,
			"%s: dropping the torn last line '%s' of '%s' (no "
			"newline: a write cut short)\n",
			progname(), t, record_path());
		free(t);
		if (ftruncate(fd, *at)) {
			status = error_ret_errno(EXIT_RUN_FAILED,
						 "cannot shorten '%s'",
						 record_path());
			goto out;
		}
		free(r->torn);
		r->torn = NULL;
	} else if (st.st_size != *at) {
		status = error_ret(EXIT_RUN_FAILED, "'%s' changed while locked",
				   record_path());
		goto out;
	}
	text = line_text(line);
	e = lseek(fd, *at, SEEK_SET) == *at ? write_all(fd, text, strlen(text))
					    : -errno;
	if (!e && fsync(fd))
		e = -errno;
	if (close(fd) && !e)
		e = -errno;
	fd = -1;
	if (e)
		status = error_ret_err(EXIT_RUN_FAILED, -e, "cannot write '%s'",
				       record_path());
	else
		r->whole = *at + (off_t)strlen(text);
	free(text);
out:
	if (fd >= 0)
		(void)close(fd); /* failed already */
	return status;
}

int record_withdraw(int dirfd, off_t size, const char *line)
{
	char *text = line_text(line);
	size_t len = strlen(text);
	char *tail = xmalloc(len);
	struct stat st;
	int fd = -1, status = record_open(dirfd, O_RDWR, &fd);

	if (status) {
		free(tail);
		free(text);
		return status > 0 ? status
				  : error_ret_err(EXIT_RUN_FAILED, -status,
						  "cannot open '%s'",
						  record_path());
	}
	/* Only if nothing was appended after it. */
	if (!fstat(fd, &st) && st.st_size == size + (off_t)len &&
	    pread(fd, tail, len, size) == (ssize_t)len &&
	    !memcmp(tail, text, len) && (ftruncate(fd, size) || fsync(fd)))
		status = error_ret_errno(EXIT_RUN_FAILED, "cannot shorten '%s'",
					 record_path());
	free(tail);
	free(text);
	if (close(fd) && !status)
		status = error_ret_errno(EXIT_RUN_FAILED, "cannot close '%s'",
					 record_path());
	return status;
}

int record_restore(int dirfd, struct record *r, const char *prefix,
		   size_t *leftp)
{
	bool *done = xcalloc(r->n + 1, sizeof(*done));
	size_t i, left = 0;
	char *text;
	int status;

	if (r->torn) {
		char *t = text_escape(r->torn);

		fprintf(stderr,
			"%s: %s: ignoring the torn last line '%s' (no newline: "
			"a write cut short, not an entry)\n",
			progname(), prefix, t);
		free(t);
	}
	for (i = r->n; i-- > 0;) {
		done[i] = entry_undo(r, &r->e[i], prefix);
		left += !done[i];
	}
	*leftp = left;
	if (!left) {
		free(done);
		if (unlinkat(dirfd, RECORD_NAME, 0) && errno != ENOENT)
			return error_ret_errno(EXIT_RUN_FAILED,
					       "cannot remove '%s'",
					       record_path());
		return sync_dir(dirfd);
	}
	/*
	 * Keep what could not be undone, in its order and as it was stored
	 * (a damaged line stays damaged), for the next try.
	 */
	text = xstrdup(r->head);
	for (i = 0; i < r->n; i++) {
		char *t;

		if (done[i])
			continue;
		t = xasprintf("%s%s\n", text, r->e[i].raw);
		free(text);
		text = t;
	}
	free(done);
	status = record_replace(dirfd, text);
	free(text);
	return status;
}
