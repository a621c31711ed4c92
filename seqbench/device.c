// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seqbench's targets: directories, opened once so that every file is made
 * relative to the directory itself, and block devices, which are written
 * only when named again in --yes-destroy, not mounted, not swap, not held
 * by anyone and big enough.  All checks run before any IO.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/xalloc.h"
#include "seqbench/seqbench.h"

static bool same_device(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && S_ISBLK(sa.st_mode) &&
	       S_ISBLK(sb.st_mode) && sa.st_rdev == sb.st_rdev;
}

/* Is block device DEV the first field of a line of FILE (mounts, swaps)? */
static bool listed_in(const char *file, dev_t dev)
{
	char line[4096], path[4096];
	bool found = false;
	FILE *f = fopen(file, "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		struct stat st;

		if (sscanf(line, "%4095s", path) == 1 && !stat(path, &st) &&
		    S_ISBLK(st.st_mode) && st.st_rdev == dev)
			found = true;
	}
	fclose(f);
	return found;
}

/*
 * A block device target: named again in --yes-destroy, not mounted, not
 * swap, not held by anyone (O_EXCL), and big enough.  The exclusive
 * descriptor stays open for the run so nobody mounts it meanwhile.
 */
static void check_device(const struct sb_opts *o, const char *dev,
			 uint64_t need)
{
	struct stat st;
	uint64_t bytes = 0;
	size_t i;
	int fd;

	for (i = 0; i < o->n_destroy; i++)
		if (same_device(dev, o->destroy[i]))
			break;
	if (i == o->n_destroy)
		usage_error("'%s' is a block device: writing to it destroys "
			    "its data; name it again with --yes-destroy=%s",
			    dev, dev);
	if (stat(dev, &st))
		die_errno(EXIT_RUN_FAILED, "cannot use '%s'", dev);
	if (listed_in("/proc/mounts", st.st_rdev))
		die(EXIT_RUN_FAILED, "refusing to write to '%s': it is mounted",
		    dev);
	if (listed_in("/proc/swaps", st.st_rdev))
		die(EXIT_RUN_FAILED,
		    "refusing to write to '%s': it is used as swap", dev);
	fd = open(dev, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY)
		die(EXIT_RUN_FAILED, "refusing to write to '%s': it is in use",
		    dev);
	if (fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot open '%s'", dev);
	if (ioctl(fd, BLKGETSIZE64, &bytes))
		die_errno(EXIT_RUN_FAILED, "cannot get the size of '%s'", dev);
	if (bytes < need)
		die(EXIT_RUN_FAILED,
		    "'%s' holds %llu bytes; this run needs %llu", dev,
		    (unsigned long long)bytes, (unsigned long long)need);
	/* Kept open on purpose until exit (see above). */
}

/* The largest area any combination needs on one device. */
static uint64_t device_need(const struct sb_opts *o)
{
	uint64_t need = 0;
	size_t s, t;

	for (s = 0; s < o->n_sizes; s++)
		for (t = 0; t < o->n_threads; t++) {
			uint64_t per = o->sizes[s] / o->threads[t];
			uint64_t n = (o->threads[t] + o->n_targets - 1) /
				     o->n_targets;

			if (per * n > need)
				need = per * n;
		}
	return need;
}

/*
 * The descriptor the files of directory target DIR are made in: the
 * directory itself, not a link to one (a link in a shared place may be
 * changed under us), so that every file is created relative to it.
 */
static int open_target_dir(const char *dir)
{
	struct stat st;
	int fd;

	if (!lstat(dir, &st) && S_ISLNK(st.st_mode))
		die(EXIT_RUN_FAILED,
		    "cannot use '%s': a symbolic link (name the directory "
		    "it points to)",
		    dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot use '%s'", dir);
	return fd;
}

void sb_check_targets(struct sb_opts *o)
{
	size_t i, n_dev = 0;

	o->target_fds = xcalloc(o->n_targets, sizeof(*o->target_fds));
	for (i = 0; i < o->n_targets; i++) {
		struct stat st;
		struct statvfs vfs;

		o->target_fds[i] = -1;
		if (stat(o->targets[i], &st))
			die_errno(EXIT_RUN_FAILED, "cannot use '%s'",
				  o->targets[i]);
		if (S_ISBLK(st.st_mode)) {
			n_dev++;
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			die(EXIT_RUN_FAILED,
			    "cannot use '%s': neither a directory nor a block "
			    "device",
			    o->targets[i]);
		if (!statvfs(o->targets[i], &vfs) && (vfs.f_flag & ST_RDONLY))
			die(EXIT_RUN_FAILED,
			    "cannot write in '%s': Read-only file system",
			    o->targets[i]);
		if (access(o->targets[i], W_OK | X_OK))
			die_errno(EXIT_RUN_FAILED, "cannot write in '%s'",
				  o->targets[i]);
		o->target_fds[i] = open_target_dir(o->targets[i]);
	}
	if (n_dev && n_dev != o->n_targets)
		usage_error("targets must be all directories or all block "
			    "devices");
	o->raw = n_dev > 0;
	if (!o->raw && o->n_destroy)
		usage_error("--yes-destroy given but no target is a block "
			    "device");
	for (i = 0; o->raw && i < o->n_targets; i++)
		check_device(o, o->targets[i], device_need(o));
}

/* The target directories stay open for the whole run (sb_check_targets). */
void sb_close_targets(const struct sb_opts *o)
{
	size_t i;

	for (i = 0; o->target_fds && i < o->n_targets; i++)
		if (o->target_fds[i] >= 0)
			(void)close(o->target_fds[i]); /* read-only */
	free(o->target_fds);
}
