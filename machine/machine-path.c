// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The entries that name files: swapoff, rmfile and rmdir.  Replayed as
 * root, an entry that names any path deletes whatever is there, so each is
 * bound to what the run itself made, checked when recorded and again when
 * replayed:
 *   - every path is absolute and clean (lib/knob.h path_is_clean(): no
 *     ".", "..", "//" or control character, so a path means what it says);
 *   - a file or directory to remove lies inside a directory the run
 *     declared at begin (--root, kept in the record with its device and
 *     inode), exists when recorded, and is recorded with its own device
 *     and inode: restore walks down from the root without following links,
 *     through directories only we or root can change, and removes it only
 *     while it is still that file;
 *   - a cgroup directory is the run's own: latency-tests.OWNER directly
 *     under the cgroup root (or its memory/ hierarchy) the run began with;
 *   - swap is turned off only on the area the run recorded before its
 *     swapon: a regular file by device and inode, a block device by its
 *     number, matched against what /proc/swaps lists, never by name alone.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/knob.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/safe-open.h"
#include "lib/spawn.h"
#include "lib/xalloc.h"
#include "machine/machine.h"

/* Only we or root can change what DIR's entries are. */
static bool dir_private(const struct stat *st)
{
	return (st->st_uid == geteuid() || st->st_uid == 0) &&
	       (!(st->st_mode & (S_IWGRP | S_IWOTH)) ||
		(st->st_mode & S_ISVTX));
}

int root_declare(struct record_root *root, const char *dir)
{
	struct stat st;
	int fd, e = 0;

	if (!path_is_clean(dir) || !strcmp(dir, "/"))
		usage_error("--root: '%s' is not a clean absolute path below /",
			    dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		e = errno;
	if (fd >= 0)
		(void)close(fd); /* read-only */
	if (e)
		return error_ret_err(EXIT_RUN_FAILED, e,
				     "--root: cannot open '%s'", dir);
	if (!dir_private(&st))
		return error_ret(EXIT_RUN_FAILED,
				 "--root: refusing '%s': others can change "
				 "what is in it (owned by uid %u, mode %04o)",
				 dir, (unsigned)st.st_uid,
				 (unsigned)(st.st_mode & 07777));
	root->path = xstrdup(dir);
	root->dev = (uint64_t)st.st_dev;
	root->ino = (uint64_t)st.st_ino;
	return 0;
}

/* The root of R that PATH lies inside (strictly), or NULL. */
static const struct record_root *root_of(const struct record *r,
					 const char *path)
{
	size_t i, n;

	for (i = 0; i < r->nroots; i++) {
		n = strlen(r->root[i].path);
		if (!strncmp(path, r->root[i].path, n) && path[n] == '/' &&
		    path[n + 1])
			return &r->root[i];
	}
	return NULL;
}

bool ident_parse(const char *s, uint64_t *a, uint64_t *b)
{
	char x[32];
	const char *colon = strchr(s, ':');

	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(x))
		return false;
	memcpy(x, s, (size_t)(colon - s));
	x[colon - s] = '\0';
	return !parse_u64(x, a) && !parse_u64(colon + 1, b);
}

/*
 * Open the directory that holds PATH (inside root RT), walking down from
 * RT without following a link, through private directories only; RT must
 * still be the directory recorded.  Returns its descriptor and *LEAF (in
 * PATH), or -errno with *WHY: -ENOENT (something on the way is gone),
 * -ESTALE (another directory is there now), -EPERM (not private).
 */
static int parent_open(const struct record_root *rt, const char *path,
		       const char **leaf, const char **why)
{
	char *rest = xstrdup(path + strlen(rt->path) + 1), *p = rest, *slash;
	struct stat st;
	int fd, next;

	*why = NULL;
	fd = open(rt->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		next = -errno;
		*why = "its directory is gone";
		goto out;
	}
	for (;;) {
		if (fstat(fd, &st)) {
			next = -errno;
			goto fail;
		}
		if (p == rest && ((uint64_t)st.st_dev != rt->dev ||
				  (uint64_t)st.st_ino != rt->ino)) {
			next = -ESTALE;
			*why = "the run's directory is another one now";
			goto fail;
		}
		if (!dir_private(&st)) {
			next = -EPERM;
			*why = "others can change a directory on its way";
			goto fail;
		}
		slash = strchr(p, '/');
		if (!slash)
			break;
		*slash = '\0';
		next = safe_subdir_open(fd, p, false, 0);
		(void)close(fd); /* read-only */
		if (next < 0) {
			*why = next == -ENOENT ? "its directory is gone"
					       : "a link or a file on its way";
			fd = -1;
			goto out;
		}
		fd = next;
		p = slash + 1;
	}
	*leaf = path + strlen(path) - strlen(p);
	free(rest);
	return fd;
fail:
	(void)close(fd); /* read-only */
out:
	free(rest);
	return next;
}

/* "latency-tests.OWNER" under R's cgroup root, or its memory/ (v1)? */
static bool cgroup_own(const struct record *r, const char *path)
{
	char *a, *b;
	bool ok;

	if (!r->cgroup_root)
		return false;
	a = xasprintf("%s/latency-tests.%d", r->cgroup_root, (int)r->owner);
	b = xasprintf("%s/memory/latency-tests.%d", r->cgroup_root,
		      (int)r->owner);
	ok = !strcmp(path, a) || !strcmp(path, b);
	free(a);
	free(b);
	return ok;
}

/* The identity of the file PATH in a root of R, as "DEV:INO", or NULL. */
static char *ident_of(const struct record *r, const char *kind,
		      const char *path, bool dir)
{
	const struct record_root *rt = root_of(r, path);
	const char *leaf, *why;
	struct stat st;
	int fd;

	if (!rt)
		usage_error("%s: '%s' is not inside a directory the run "
			    "declared (begin --root)",
			    kind, path);
	fd = parent_open(rt, path, &leaf, &why);
	if (fd < 0)
		return entry_refused(-fd, "%s: '%s': %s", kind, path,
				     why ? why : "cannot open its directory");
	if (fstatat(fd, leaf, &st, AT_SYMLINK_NOFOLLOW)) {
		int e = errno;

		(void)close(fd); /* read-only */
		return entry_refused(e,
				     "%s: cannot record '%s' (make it first, "
				     "then record it)",
				     kind, path);
	}
	(void)close(fd); /* read-only */
	if (dir ? !S_ISDIR(st.st_mode)
		: !S_ISREG(st.st_mode) || st.st_nlink != 1)
		return entry_refused(0, "%s: '%s' is not %s", kind, path,
				     dir ? "a directory"
					 : "a regular file with one link");
	if (st.st_uid != geteuid())
		return entry_refused(0,
				     "%s: '%s' is owned by uid %u, not by us",
				     kind, path, (unsigned)st.st_uid);
	return xasprintf("%llu:%llu", (unsigned long long)st.st_dev,
			 (unsigned long long)st.st_ino);
}

/*
 * The swap area of /proc/swaps that is TYPE ("file" or "block") with the
 * identity A:B (device and inode, or major and minor): its path, allocated,
 * or NULL; *ERR gets -errno when /proc/swaps cannot be read.
 */
static char *swap_find(const char *type, uint64_t a, uint64_t b, int *err)
{
	char *swaps = kpath(menv.proc, "/swaps"), *buf = xmalloc(65536);
	char *line, *save = NULL, *found = NULL;
	ssize_t n = kfile_read(swaps, buf, 65536);
	bool block = !strcmp(type, "block");

	*err = n < 0 ? (int)n : 0;
	for (line = n < 0 ? NULL : strtok_r(buf, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		struct stat st;

		line[strcspn(line, " \t")] = '\0';
		/* /proc/swaps shows a space in a path as \040. */
		parse_octal_escapes(line);
		if (*line != '/' || stat(line, &st))
			continue;
		if (block ? S_ISBLK(st.st_mode) && major(st.st_rdev) == a &&
				    minor(st.st_rdev) == b
			  : S_ISREG(st.st_mode) && (uint64_t)st.st_dev == a &&
				    (uint64_t)st.st_ino == b)
			found = xstrdup(line);
	}
	free(buf);
	free(swaps);
	return found;
}

int swap_enabled(const char *path)
{
	char *swaps = kpath(menv.proc, "/swaps"), *buf = xmalloc(65536), *line;
	char *save = NULL;
	ssize_t n = kfile_read(swaps, buf, 65536);
	int found = 0;

	for (line = n < 0 ? NULL : strtok_r(buf, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		line[strcspn(line, " \t")] = '\0';
		parse_octal_escapes(line);
		found = !strcmp(line, path);
	}
	free(buf);
	free(swaps);
	return n < 0 ? (int)n : found;
}

/* swapoff PATH -> swapoff PATH file DEV:INO, or PATH block MAJ:MIN. */
static char *make_swapoff(const struct record *r, const char *path)
{
	uint64_t a, b;
	struct stat st;
	char *id, *line;
	const char *type;
	int err;

	if (stat(path, &st))
		return entry_refused(errno, "swapoff: cannot record '%s'",
				     path);
	if (S_ISBLK(st.st_mode)) {
		type = "block";
		a = major(st.st_rdev);
		b = minor(st.st_rdev);
		id = xasprintf("%llu:%llu", (unsigned long long)a,
			       (unsigned long long)b);
	} else {
		if (!S_ISREG(st.st_mode))
			return entry_refused(0,
					     "swapoff: '%s' is neither a "
					     "regular file nor a block device",
					     path);
		type = "file";
		a = (uint64_t)st.st_dev;
		b = (uint64_t)st.st_ino;
		id = xasprintf("%llu:%llu", (unsigned long long)a,
			       (unsigned long long)b);
	}
	/* Only what the run itself enables is the run's to turn off. */
	line = swap_find(type, a, b, &err);
	if (line) {
		free(line);
		free(id);
		return entry_refused(0,
				     "swapoff: '%s' is swap already: not the "
				     "run's to turn off",
				     path);
	}
	line = xasprintf("swapoff\t%s\t%s\t%s", path, type, id);
	free(id);
	(void)r;
	return line;
}

char *path_make(const struct record *r, int argc, char **argv)
{
	const char *kind = argv[0], *path = argv[1];
	char *id, *line;

	(void)argc;
	if (!path_is_clean(path))
		usage_error("%s: '%s' is not a clean absolute path", kind,
			    path);
	if (!strcmp(kind, "swapoff"))
		return make_swapoff(r, path);
	/* The run's cgroup, recorded before the mkdir. */
	if (!strcmp(kind, "rmdir") && cgroup_own(r, path))
		return xasprintf("rmdir\t%s\tcgroup", path);
	if (!strcmp(kind, "rmdir") && !root_of(r, path))
		usage_error("rmdir: '%s' is neither the run's cgroup "
			    "(%s/[memory/]latency-tests.%d) nor inside a "
			    "directory the run declared (begin --root)",
			    path, r->cgroup_root, (int)r->owner);
	id = ident_of(r, kind, path, !strcmp(kind, "rmdir"));
	if (!id)
		return NULL;
	line = xasprintf("%s\t%s\t%s", kind, path, id);
	free(id);
	return line;
}

const char *path_check(const struct record *r, char **f)
{
	uint64_t a, b;

	if (!path_is_clean(f[1]))
		return "not a clean absolute path";
	if (!strcmp(f[0], "swapoff")) {
		if (strcmp(f[2], "file") && strcmp(f[2], "block"))
			return "not a swap file or device";
		return ident_parse(f[3], &a, &b) ? NULL
						 : "no identity of the swap";
	}
	if (!strcmp(f[0], "rmdir") && !strcmp(f[2], "cgroup"))
		return cgroup_own(r, f[1]) ? NULL : "not the run's own cgroup";
	if (!ident_parse(f[2], &a, &b))
		return "no identity of the file";
	return root_of(r, f[1]) ? NULL
				: "not inside a directory the run declared";
}

static enum undo_result undo_swapoff(char **f, char **note)
{
	uint64_t a = 0, b = 0;
	char *argv[3] = { "swapoff", NULL, NULL };
	int r, err;

	(void)ident_parse(f[3], &a, &b); /* checked */
	argv[1] = swap_find(f[2], a, b, &err);
	if (!argv[1]) {
		if (err) {
			*note = note_err(-err, "cannot read %s/swaps",
					 menv.proc);
			return UNDO_FAILED;
		}
		*note = xstrdup("not enabled");
		return UNDO_NOOP;
	}
	r = spawn_wait(argv, 0);
	free(argv[1]);
	if (!r)
		return UNDO_DONE;
	*note = r < 0 ? note_err(-r, "cannot run swapoff")
		      : xasprintf("swapoff exited with status %d", r);
	return UNDO_FAILED;
}

/* A cgroup: recorded processes were stopped just before; let them leave. */
static enum undo_result undo_cgroup(const char *path, char **note)
{
	int tries;

	for (tries = 0; tries < 20; tries++) {
		struct timespec ts = { 0, 100 * 1000000L };

		if (!rmdir(path))
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

/* rmfile, rmdir in a root: only while it is still the file recorded. */
static enum undo_result undo_owned(const struct record *r, char **f,
				   char **note)
{
	const struct record_root *rt = root_of(r, f[1]);
	const char *leaf, *why;
	bool dir = !strcmp(f[0], "rmdir");
	uint64_t dev = 0, ino = 0;
	struct stat st;
	int fd;

	(void)ident_parse(f[2], &dev, &ino); /* checked */
	fd = parent_open(rt, f[1], &leaf, &why);
	if (fd == -ENOENT) {
		*note = xstrdup("already gone");
		return UNDO_NOOP;
	}
	if (fd == -ESTALE) {
		*note = xasprintf("%s; left alone", why);
		return UNDO_NOOP;
	}
	if (fd < 0) {
		*note = why ? xstrdup(why) : note_err(-fd, "cannot open");
		return UNDO_FAILED;
	}
	if (fstatat(fd, leaf, &st, AT_SYMLINK_NOFOLLOW)) {
		int e = errno;

		(void)close(fd); /* read-only */
		*note = e == ENOENT ? xstrdup("already gone")
				    : note_err(e, "cannot stat");
		return e == ENOENT ? UNDO_NOOP : UNDO_FAILED;
	}
	if ((uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino ||
	    (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) {
		(void)close(fd); /* read-only */
		*note = xstrdup("another file is there now; left alone");
		return UNDO_NOOP;
	}
	if (unlinkat(fd, leaf, dir ? AT_REMOVEDIR : 0)) {
		*note = xstrdup(strerror(errno));
		(void)close(fd); /* read-only */
		return UNDO_FAILED;
	}
	(void)close(fd); /* read-only */
	return UNDO_DONE;
}

enum undo_result path_undo(const struct record *r, char **f, char **note)
{
	if (!strcmp(f[0], "swapoff"))
		return undo_swapoff(f, note);
	if (!strcmp(f[0], "rmdir") && !strcmp(f[2], "cgroup"))
		return undo_cgroup(f[1], note);
	return undo_owned(r, f, note);
}
