/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Creating files where others may write, without ever writing through a
 * link someone planted there: directories are opened one component at a
 * time with O_DIRECTORY|O_NOFOLLOW, files are created relative to them with
 * O_CREAT|O_EXCL|O_NOFOLLOW and read with O_NOFOLLOW|O_NONBLOCK (a FIFO
 * cannot block the opener).  This holds for root and whatever
 * fs.protected_symlinks says.  The suite's one helper for it.
 */
#ifndef LATENCY_SAFE_OPEN_H
#define LATENCY_SAFE_OPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * Open the directory PATH that the user named.  Its leading components
 * resolve as usual; the last one may be a symlink only where the kernel's
 * fs.protected_symlinks rule would follow it even with the sysctl off: the
 * directory holding it is not sticky and world-writable, or the link is
 * owned by the effective user or by that directory's owner.  When CREATE, a
 * missing last component is made with MODE.  Returns an O_DIRECTORY fd
 * (close-on-exec) or -errno: -ELOOP for a link it will not follow.
 */
int safe_dir_open(const char *path, bool create, mode_t mode);

/*
 * Open NAME, one path component, as a directory below DIRFD, never through
 * a symlink (-ELOOP; -ENOTDIR for another non-directory); when CREATE,
 * make it first with MODE if missing.  Returns an fd or -errno.
 */
int safe_subdir_open(int dirfd, const char *name, bool create, mode_t mode);

/*
 * Is the directory DIRFD safe to create files in?  It is unless another
 * user than the effective one or root owns it and its group or others may
 * write to it without the sticky bit (anyone could then replace what we
 * create).  Returns 0, or -EPERM with the reason ("owned by uid N and
 * writable by others without the sticky bit") in WHY[LEN]; -errno when
 * fstat fails.
 */
int safe_dir_check(int dirfd, char *why, size_t len);

/*
 * Create the file NAME in DIRFD with open FLAGS (O_WRONLY or O_RDWR, plus
 * any others) and MODE, adding O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC.  An
 * entry already there (a stale file of ours, or a link someone planted) is
 * removed first with unlinkat(), which never follows it; a directory there
 * is an error (-EISDIR).  Returns an fd or -errno (-EEXIST when an entry
 * reappeared between the two calls).
 */
int safe_create(int dirfd, const char *name, int flags, mode_t mode);

/*
 * Open NAME (relative to DIRFD, or AT_FDCWD) read-only without following a
 * symlink in its last component (-ELOOP) and without blocking on a FIFO or
 * device; anything but a regular file is refused with -EINVAL.  *ST gets
 * its fstat().  Returns a blocking, close-on-exec fd or -errno.
 */
int safe_open_regular(int dirfd, const char *name, struct stat *st);

#endif
