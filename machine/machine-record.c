// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one machine-state record (doc/design.md, contract 5): a text file
 * $LATENCY_STATE_DIR/state, one tab-separated entry a line, each written
 * before the change it undoes.  Line 1 is "format<TAB>1", line 2
 * "owner<TAB>PID<TAB>STARTTIME"; entries follow in the order the changes
 * were made and are undone last first.  Every undo is idempotent, so a
 * restore that is itself interrupted is simply run again (the entries'
 * kinds and undo actions are in machine-entry.c).  The directory is 0700
 * and ours; the file is opened without following symbolic links and
 * created exclusively, so root never writes through a planted link.
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

	if (!path)
		path = xasprintf("%s/" RECORD_NAME, state_name());
	return path;
}

int state_dir_open(void)
{
	const char *dir = state_name();
	struct stat st;
	int fd;

	if (mkdir(dir, 0700) && errno != EEXIST)
		die_errno(EXIT_RUN_FAILED, "cannot create state directory '%s'",
			  dir);
	if (!lstat(dir, &st) && S_ISLNK(st.st_mode))
		die(EXIT_RUN_FAILED,
		    "refusing state directory '%s': it is a symbolic link",
		    dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot open state directory '%s'",
			  dir);
	if (fstat(fd, &st))
		die_errno(EXIT_RUN_FAILED, "cannot stat '%s'", dir);
	if (st.st_uid != geteuid())
		die(EXIT_RUN_FAILED,
		    "refusing state directory '%s': owned by uid %u, not %u",
		    dir, (unsigned)st.st_uid, (unsigned)geteuid());
	if (st.st_mode & 022)
		die(EXIT_RUN_FAILED,
		    "refusing state directory '%s': writable by group or "
		    "others (mode %04o)",
		    dir, (unsigned)(st.st_mode & 07777));
	return fd;
}

void state_lock(int dirfd)
{
	while (flock(dirfd, LOCK_EX))
		if (errno != EINTR)
			die_errno(EXIT_RUN_FAILED, "cannot lock '%s'",
				  state_name());
}

void state_unlock(int dirfd)
{
	(void)flock(dirfd, LOCK_UN); /* closing the descriptor also unlocks */
}

/* Open the record with FLAGS, refusing links and files others can write. */
static int record_open(int dirfd, int flags)
{
	struct stat st;
	int fd;

	fd = openat(dirfd, RECORD_NAME, flags | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP)
		die(EXIT_RUN_FAILED,
		    "refusing record '%s': it is a symbolic link",
		    record_path());
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		die_errno(EXIT_RUN_FAILED, "cannot stat '%s'", record_path());
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022))
		die(EXIT_RUN_FAILED,
		    "refusing record '%s': not a regular file of uid %u "
		    "that only it can write",
		    record_path(), (unsigned)geteuid());
	return fd;
}

/* Split LINE at tabs into E (keeping empty fields). */
static void entry_split(struct record_entry *e, char *line)
{
	char *p, *copy;
	size_t n = 1;

	for (p = line; *p; p++)
		n += *p == '\t';
	e->line = line;
	copy = xstrdup(line);
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
}

static char *header_text(pid_t owner, uint64_t start)
{
	return xasprintf("format\t1\nowner\t%d\t%llu\n", (int)owner,
			 (unsigned long long)start);
}

static void record_parse(struct record *r, char *buf)
{
	size_t lineno = 0, alloc = 0;
	char *line, *next;

	for (line = buf; line && *line; line = next) {
		struct record_entry e;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		entry_split(&e, xstrdup(line));
		if (lineno == 1 &&
		    (e.nfield != 2 || strcmp(e.field[0], "format") ||
		     strcmp(e.field[1], "1")))
			die(EXIT_RUN_FAILED,
			    "'%s' is not a latency-machine record of format 1 "
			    "(line 1)",
			    record_path());
		if (lineno == 2) {
			uint64_t pid;

			if (e.nfield != 3 || strcmp(e.field[0], "owner") ||
			    parse_u64(e.field[1], &pid) || !pid ||
			    pid > INT_MAX ||
			    parse_u64(e.field[2], &r->owner_start))
				die(EXIT_RUN_FAILED,
				    "'%s' line 2: not an owner line",
				    record_path());
			r->owner = (pid_t)pid;
		}
		if (lineno <= 2) {
			entry_free(&e);
			continue;
		}
		if (!*line) {
			entry_free(&e);
			continue;
		}
		if (r->n == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			r->e = xreallocarray(r->e, alloc, sizeof(*r->e));
		}
		r->e[r->n++] = e;
	}
	if (lineno < 2)
		die(EXIT_RUN_FAILED, "'%s' is not a latency-machine record",
		    record_path());
}

int record_load(int dirfd, struct record *r)
{
	char *buf = xmalloc(RECORD_MAX + 1);
	ssize_t n;
	int fd;

	memset(r, 0, sizeof(*r));
	r->dirfd = dirfd;
	fd = record_open(dirfd, O_RDONLY);
	if (fd == -ENOENT) {
		free(buf);
		return -ENOENT;
	}
	if (fd < 0)
		die_err(EXIT_RUN_FAILED, -fd, "cannot open '%s'",
			record_path());
	n = read_full(fd, buf, RECORD_MAX + 1);
	(void)close(fd); /* read-only */
	if (n < 0)
		die_err(EXIT_RUN_FAILED, (int)-n, "cannot read '%s'",
			record_path());
	if (n > RECORD_MAX)
		die(EXIT_RUN_FAILED, "'%s' is larger than %d bytes",
		    record_path(), RECORD_MAX);
	buf[n] = '\0';
	if (strlen(buf) != (size_t)n)
		die(EXIT_RUN_FAILED, "'%s' holds a NUL byte", record_path());
	record_parse(r, buf);
	free(buf);
	return 0;
}

void record_release(struct record *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		entry_free(&r->e[i]);
	free(r->e);
	r->e = NULL;
	r->n = 0;
}

static void sync_dir(int dirfd)
{
	if (fsync(dirfd))
		die_errno(EXIT_RUN_FAILED, "cannot sync '%s'", state_name());
}

/* Write TEXT into the new file FD (named NAME) and close it. */
static void write_close(int fd, const char *text, const char *name)
{
	int r = write_all(fd, text, strlen(text));

	if (!r && fsync(fd))
		r = -errno;
	if (close(fd) && !r)
		r = -errno;
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot write '%s'", name);
}

void record_create(int dirfd, pid_t owner, uint64_t owner_start)
{
	char *text = header_text(owner, owner_start);
	int fd;

	fd = openat(dirfd, RECORD_NAME,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot create '%s'", record_path());
	write_close(fd, text, record_path());
	free(text);
	sync_dir(dirfd);
}

bool record_owner_alive(const struct record *r)
{
	uint64_t start;

	return !proc_starttime(r->owner, &start) && start == r->owner_start;
}

off_t record_append(int dirfd, pid_t owner, const char *line)
{
	char *text, last = '\n';
	struct record r;
	struct stat st;
	int fd, e;

	if (record_load(dirfd, &r) || r.owner != owner)
		die(EXIT_RUN_FAILED,
		    "no record of run pid %d in '%s' (run 'latency-machine "
		    "begin --owner=%d' first)",
		    (int)owner, state_name(), (int)owner);
	record_release(&r);
	fd = record_open(dirfd, O_RDWR | O_APPEND);
	if (fd < 0 || fstat(fd, &st))
		die_errno(EXIT_RUN_FAILED, "cannot open '%s'", record_path());
	/* After a torn write, start a line of our own. */
	if (st.st_size > 0 && pread(fd, &last, 1, st.st_size - 1) != 1)
		die_errno(EXIT_RUN_FAILED, "cannot read '%s'", record_path());
	text = xasprintf("%s%s\n", last == '\n' ? "" : "\n", line);
	e = write_all(fd, text, strlen(text));
	if (!e && fsync(fd))
		e = -errno;
	if (close(fd) && !e)
		e = -errno;
	if (e)
		die_err(EXIT_RUN_FAILED, -e, "cannot write '%s'",
			record_path());
	free(text);
	return last == '\n' ? st.st_size : st.st_size + 1;
}

void record_withdraw(int dirfd, off_t size, const char *line)
{
	size_t len = strlen(line) + 1;
	char *tail = xmalloc(len);
	struct stat st;
	int fd = record_open(dirfd, O_RDWR);

	if (fd < 0)
		die_err(EXIT_RUN_FAILED, -fd, "cannot open '%s'",
			record_path());
	/* Only if nothing was appended after it. */
	if (!fstat(fd, &st) && st.st_size == size + (off_t)len &&
	    pread(fd, tail, len, size) == (ssize_t)len &&
	    !memcmp(tail, line, len - 1) && tail[len - 1] == '\n') {
		if (ftruncate(fd, size) || fsync(fd))
			die_errno(EXIT_RUN_FAILED, "cannot shorten '%s'",
				  record_path());
	}
	free(tail);
	if (close(fd))
		die_errno(EXIT_RUN_FAILED, "cannot close '%s'", record_path());
}

size_t record_restore(int dirfd, struct record *r, const char *prefix)
{
	bool *done = xcalloc(r->n + 1, sizeof(*done));
	size_t i, left = 0;
	char *text;
	int fd;

	for (i = r->n; i-- > 0;) {
		done[i] = entry_undo(&r->e[i], prefix);
		left += !done[i];
	}
	if (!left) {
		free(done);
		if (unlinkat(dirfd, RECORD_NAME, 0) && errno != ENOENT)
			die_errno(EXIT_RUN_FAILED, "cannot remove '%s'",
				  record_path());
		sync_dir(dirfd);
		return 0;
	}
	/* Keep what could not be undone, in its order, for the next try. */
	text = header_text(r->owner, r->owner_start);
	for (i = 0; i < r->n; i++) {
		char *t;

		if (done[i])
			continue;
		t = xasprintf("%s%s\n", text, r->e[i].line);
		free(text);
		text = t;
	}
	free(done);
	if (unlinkat(dirfd, RECORD_NEW, 0) && errno != ENOENT)
		die_errno(EXIT_RUN_FAILED, "cannot remove '%s/" RECORD_NEW "'",
			  state_name());
	fd = openat(dirfd, RECORD_NEW,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot create '%s/" RECORD_NEW "'",
			  state_name());
	write_close(fd, text, RECORD_NEW);
	free(text);
	if (renameat(dirfd, RECORD_NEW, dirfd, RECORD_NAME))
		die_errno(EXIT_RUN_FAILED, "cannot replace '%s'",
			  record_path());
	sync_dir(dirfd);
	return left;
}
