// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Creating files where others may write (see safe-open.h).  Everything is
 * relative to directory descriptors, so a name checked is the name used: a
 * component replaced by a symlink between two calls is refused, not
 * followed.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/safe-open.h"
#include "lib/xalloc.h"

int safe_subdir_open(int dirfd, const char *name, bool create, mode_t mode)
{
	struct stat st;
	int fd;

	if (create && mkdirat(dirfd, name, mode) && errno != EEXIST)
		return -errno;
	fd = openat(dirfd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	/* Linux says ENOTDIR for a link; ELOOP names the cause. */
	if (errno == ENOTDIR &&
	    !fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
	    S_ISLNK(st.st_mode))
		return -ELOOP;
	return -errno;
}

/*
 * NAME in PFD is a symlink: follow it where the kernel's protected_symlinks
 * would (fs/namei.c may_follow_link()), else -ELOOP.
 */
static int follow_protected(int pfd, const char *name)
{
	const mode_t shared = S_ISVTX | S_IWOTH;
	struct stat pst, lst;
	int fd;

	if (fstat(pfd, &pst) || fstatat(pfd, name, &lst, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (!S_ISLNK(lst.st_mode))
		return -ELOOP; /* replaced meanwhile */
	if ((pst.st_mode & shared) == shared && lst.st_uid != geteuid() &&
	    lst.st_uid != pst.st_uid)
		return -ELOOP;
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int safe_dir_open(const char *path, bool create, mode_t mode)
{
	char *copy, *end, *base;
	const char *parent = ".";
	int pfd, fd;

	if (!*path)
		return -ENOENT;
	copy = xstrdup(path);
	end = copy + strlen(copy);
	while (end > copy + 1 && end[-1] == '/')
		*--end = '\0';
	base = strrchr(copy, '/');
	if (!base) {
		base = copy;
	} else if (base == copy) {
		parent = "/";
		base = base[1] ? base + 1 : (char *)".";
	} else {
		*base++ = '\0';
		parent = copy;
	}
	pfd = open(parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0) {
		fd = -errno;
		free(copy);
		return fd;
	}
	fd = safe_subdir_open(pfd, base, create, mode);
	if (fd == -ELOOP)
		fd = follow_protected(pfd, base);
	(void)close(pfd); /* O_PATH: nothing to flush */
	free(copy);
	return fd;
}

int safe_dir_check(int dirfd, char *why, size_t len)
{
	struct stat st;

	if (fstat(dirfd, &st))
		return -errno;
	if (st.st_uid == geteuid() || st.st_uid == 0 ||
	    !(st.st_mode & (S_IWGRP | S_IWOTH)) || (st.st_mode & S_ISVTX))
		return 0;
	snprintf(why, len,
		 "owned by uid %u and writable by %s without the sticky bit",
		 (unsigned)st.st_uid,
		 st.st_mode & S_IWOTH ? "others" : "its group");
	return -EPERM;
}

int safe_create(int dirfd, const char *name, int flags, mode_t mode)
{
	int fd;

	/* unlink() removes a link itself, never what it points to. */
	if (unlinkat(dirfd, name, 0) && errno != ENOENT)
		return -errno;
	fd = openat(dirfd, name,
		    flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	return fd < 0 ? -errno : fd;
}

int safe_open_regular(int dirfd, const char *name, struct stat *st)
{
	int fd = openat(dirfd, name,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
				O_CLOEXEC),
	    e = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st))
		e = -errno;
	else if (!S_ISREG(st->st_mode))
		e = -EINVAL;
	/* Blocking again: O_NONBLOCK was only for the open. */
	else if (fcntl(fd, F_SETFL, 0))
		e = -errno;
	if (e) {
		(void)close(fd); /* read-only */
		return e;
	}
	return fd;
}
