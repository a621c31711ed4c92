// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seqbench's targets: directories, opened once so that every file is made
 * relative to the directory itself, and block devices, which are written
 * only when named again in --yes-destroy, not mounted, not swap, not held
 * by anyone and big enough.  A device that a --read-only run reads is
 * refused while a file system writes to it or to a partition of it or a
 * device stacked on it, or when one of them is swap.  All checks run before
 * any IO.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/kparse.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/xalloc.h"
#include "seqbench/seqbench.h"

static bool same_device(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && S_ISBLK(sa.st_mode) &&
	       S_ISBLK(sb.st_mode) && sa.st_rdev == sb.st_rdev;
}

/*
 * The first word of LINE (LEN bytes), the kernel's escapes undone, into
 * PATH of PLEN bytes; false when there is none or it does not fit.
 */
static bool first_path(const char *line, size_t len, char *path, size_t plen)
{
	const char *w;
	size_t n;

	if (kparse_word(line, len, 0, &w, &n) || n >= plen)
		return false;
	memcpy(path, w, n);
	path[n] = '\0';
	parse_octal_escapes(path);
	return true;
}

/* Is block device DEV the first field of a line of FILE (mounts, swaps)? */
static bool listed_in(const char *file, dev_t dev)
{
	char *line = NULL, path[4096];
	size_t cap = 0;
	bool found = false;
	ssize_t n;
	FILE *f = fopen(file, "re");

	if (!f)
		return false;
	while (!found && (n = getline(&line, &cap, f)) > 0) {
		struct stat st;

		if (first_path(line, (size_t)n - (line[n - 1] == '\n'), path,
			       sizeof(path)) &&
		    !stat(path, &st) && S_ISBLK(st.st_mode) &&
		    st.st_rdev == dev)
			found = true;
	}
	free(line);
	(void)fclose(f); /* read-only */
	return found;
}

/*
 * A block device target: named again in --yes-destroy, not mounted, not
 * swap, not held by anyone (O_EXCL), and big enough.  The exclusive
 * descriptor stays open for the run so nobody mounts it meanwhile.
 */
static int check_device(const struct sb_opts *o, const char *dev, uint64_t need)
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
		return error_ret_errno(EXIT_RUN_FAILED, "cannot use '%s'", dev);
	if (listed_in("/proc/mounts", st.st_rdev))
		return error_ret(EXIT_RUN_FAILED,
				 "refusing to write to '%s': it is mounted",
				 dev);
	if (listed_in("/proc/swaps", st.st_rdev))
		return error_ret(
			EXIT_RUN_FAILED,
			"refusing to write to '%s': it is used as swap", dev);
	fd = open(dev, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY)
		return error_ret(EXIT_RUN_FAILED,
				 "refusing to write to '%s': it is in use",
				 dev);
	if (fd < 0)
		return error_ret_errno(EXIT_RUN_FAILED, "cannot open '%s'",
				       dev);
	if (ioctl(fd, BLKGETSIZE64, &bytes) || bytes < need) {
		int status = bytes < need && bytes
				     ? error_ret(EXIT_RUN_FAILED,
						 "'%s' holds %llu bytes; this "
						 "run needs %llu",
						 dev, (unsigned long long)bytes,
						 (unsigned long long)need)
				     : error_ret_errno(EXIT_RUN_FAILED,
						       "cannot get the size of "
						       "'%s'",
						       dev);

		(void)close(fd); /* not written */
		return status;
	}
	/* Kept open on purpose until exit (see above). */
	return EXIT_OK;
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
 * The descriptor the files of directory target DIR are made in, into *FD:
 * the directory itself, not a link to one (a link in a shared place may be
 * changed under us), so that every file is created relative to it.
 */
static int open_target_dir(const char *dir, int *fd)
{
	struct stat st;

	if (!lstat(dir, &st) && S_ISLNK(st.st_mode))
		return error_ret(EXIT_RUN_FAILED,
				 "cannot use '%s': a symbolic link (name the "
				 "directory it points to)",
				 dir);
	*fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0)
		return error_ret_errno(EXIT_RUN_FAILED, "cannot use '%s'", dir);
	return EXIT_OK;
}

/* A directory target T: writable, then open (*FD). */
static int check_dir(const char *t, const struct stat *st, int *fd)
{
	struct statvfs vfs;

	if (!S_ISDIR(st->st_mode))
		return error_ret(EXIT_RUN_FAILED,
				 "cannot use '%s': neither a directory nor a "
				 "block device",
				 t);
	if (!statvfs(t, &vfs) && (vfs.f_flag & ST_RDONLY))
		return error_ret(EXIT_RUN_FAILED,
				 "cannot write in '%s': Read-only file system",
				 t);
	if (access(t, W_OK | X_OK))
		return error_ret_errno(EXIT_RUN_FAILED, "cannot write in '%s'",
				       t);
	return open_target_dir(t, fd);
}

int sb_check_targets(struct sb_opts *o)
{
	size_t i, n_dev = 0;
	int status = EXIT_OK;

	o->target_fds = xcalloc(o->n_targets, sizeof(*o->target_fds));
	for (i = 0; i < o->n_targets; i++)
		o->target_fds[i] = -1;
	for (i = 0; !status && i < o->n_targets; i++) {
		struct stat st;

		if (stat(o->targets[i], &st))
			status = error_ret_errno(EXIT_RUN_FAILED,
						 "cannot use '%s'",
						 o->targets[i]);
		else if (S_ISBLK(st.st_mode))
			n_dev++;
		else
			status = check_dir(o->targets[i], &st,
					   &o->target_fds[i]);
	}
	if (status)
		return status;
	if (n_dev && n_dev != o->n_targets)
		usage_error("targets must be all directories or all block "
			    "devices");
	o->raw = n_dev > 0;
	if (!o->raw && o->n_destroy)
		usage_error("--yes-destroy given but no target is a block "
			    "device");
	for (i = 0; !status && o->raw && i < o->n_targets; i++)
		status = check_device(o, o->targets[i], device_need(o));
	return status;
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

const char *sb_proc_root(void)
{
	const char *s = getenv("LATENCY_PROC");

	return s && *s ? s : "/proc";
}

const char *sb_sys_root(void)
{
	const char *s = getenv("LATENCY_SYS");

	return s && *s ? s : "/sys";
}

/* The block devices whose writes change what a read of one sees. */
struct devset {
	dev_t dev[256];
	size_t n;
};

static bool devset_has(const struct devset *s, dev_t d)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->dev[i] == d)
			return true;
	return false;
}

/*
 * Add the device of sysfs directory DIR, its partitions and, through
 * holders/, every device stacked on it (device-mapper, md) and theirs.
 */
static void devset_add(struct devset *s, const char *dir, int depth)
{
	static const char *const subs[] = { "", "holders/" };
	char *p = xasprintf("%s/dev", dir), buf[32];
	ssize_t len = read_small_file(p, buf, sizeof(buf));
	uint32_t maj, min;
	size_t k;

	if (len < 0 || kparse_dev(buf, (size_t)len, &maj, &min) || depth > 16 ||
	    s->n >= sizeof(s->dev) / sizeof(s->dev[0]) ||
	    devset_has(s, makedev(maj, min))) {
		free(p);
		return;
	}
	free(p);
	s->dev[s->n++] = makedev(maj, min);
	for (k = 0; k < sizeof(subs) / sizeof(subs[0]); k++) {
		char *d = xasprintf("%s/%s", dir, subs[k]);
		DIR *dp = opendir(d);
		struct dirent *de;

		while (dp && (de = readdir(dp))) {
			char *sub = xasprintf("%s%s", d, de->d_name), *part;

			/* Partitions are subdirectories with a "partition". */
			part = xasprintf("%s/partition", sub);
			if (de->d_name[0] != '.' && (k || !access(part, F_OK)))
				devset_add(s, sub, depth + 1);
			free(part);
			free(sub);
		}
		if (dp)
			closedir(dp);
		free(d);
	}
}

/* Whether the comma-separated OPTS (LEN bytes) hold OPT. */
static bool has_option(const char *opts, size_t len, const char *opt)
{
	size_t n = strlen(opt), i = 0;

	while (i <= len) {
		const char *comma = memchr(opts + i, ',', len - i);
		size_t end = comma ? (size_t)(comma - opts) : len;

		if (end - i == n && !memcmp(opts + i, opt, n))
			return true;
		i = end + 1;
	}
	return false;
}

/*
 * A mount of one of S's devices whose file system writes: refused.  A
 * line of mountinfo that does not parse is refused too: better a refused
 * read than a mount overlooked.
 */
static int check_mounts(const char *path, const struct devset *s)
{
	char *file = xasprintf("%s/self/mountinfo", sb_proc_root());
	char *line = NULL, point[4096];
	size_t cap = 0, len;
	int status = EXIT_OK;
	ssize_t n;
	FILE *f = fopen(file, "re");

	if (!f) {
		status = error_ret_errno(EXIT_RUN_FAILED, "cannot read '%s'",
					 file);
		free(file);
		return status;
	}
	while (!status && (n = getline(&line, &cap, f)) > 0) {
		struct kparse_mountinfo m;
		int r;

		len = (size_t)n - (line[n - 1] == '\n');
		r = kparse_mountinfo(line, len, &m);
		if (r) {
			status = error_ret(EXIT_RUN_FAILED,
					   "cannot parse '%s': %s", file,
					   kparse_strerror(r));
		} else if (devset_has(s, makedev(m.major, m.minor)) &&
			   has_option(m.super, m.super_len, "rw")) {
			snprintf(point, sizeof(point), "%.*s", (int)m.point_len,
				 m.point);
			parse_octal_escapes(point);
			status = error_ret(EXIT_RUN_FAILED,
					   "refusing to read '%s': %u:%u is "
					   "mounted read-write on '%s' (its "
					   "data changes under the read)",
					   path, m.major, m.minor, point);
		}
	}
	free(line);
	(void)fclose(f); /* read-only */
	free(file);
	return status;
}

static int check_swaps(const char *path, const struct devset *s)
{
	char *file = xasprintf("%s/swaps", sb_proc_root());
	char *line = NULL, name[4096];
	size_t cap = 0;
	int status = EXIT_OK;
	ssize_t n;
	FILE *f = fopen(file, "re");

	free(file);
	if (!f)
		return EXIT_OK; /* no swap support at all */
	while (!status && (n = getline(&line, &cap, f)) > 0) {
		struct stat st;

		if (first_path(line, (size_t)n - (line[n - 1] == '\n'), name,
			       sizeof(name)) &&
		    !stat(name, &st) && S_ISBLK(st.st_mode) &&
		    devset_has(s, st.st_rdev))
			status = error_ret(EXIT_RUN_FAILED,
					   "refusing to read '%s': '%s' is "
					   "used as swap",
					   path, name);
	}
	free(line);
	(void)fclose(f); /* read-only */
	return status;
}

int sb_check_read_device(const char *path, dev_t dev)
{
	char *dir = xasprintf("%s/dev/block/%u:%u", sb_sys_root(), major(dev),
			      minor(dev));
	struct devset s;
	int status;

	memset(&s, 0, sizeof(s));
	devset_add(&s, dir, 0);
	if (!s.n) /* no sysfs: the device itself at least */
		s.dev[s.n++] = dev;
	free(dir);
	status = check_mounts(path, &s);
	return status ? status : check_swaps(path, &s);
}
