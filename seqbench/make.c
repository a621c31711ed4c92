// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The data the read-only runs read, made on a bare machine: --prepare
 * writes one file the way `dd if=/dev/zero of=FILE bs=1M count=N` does (one
 * stream of -b writes, fsync at the end), --make-tree writes a tree of
 * exactly N regular files of one size.  Contents (and the tree's names)
 * come from --seed, so the same options make the same bytes, and the data
 * does not compress away under a file system that would.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/rand.h"
#include "lib/xalloc.h"
#include "seqbench/seqbench.h"

/* Files per directory of a made tree: a tree, not one flat directory. */
#define TREE_FANOUT 32

static void fill(struct rand *r, char *buf, size_t len)
{
	size_t k;

	for (k = 0; k + 8 <= len; k += 8) {
		uint64_t v = rand_next(r);

		memcpy(buf + k, &v, 8);
	}
	for (; k < len; k++)
		buf[k] = (char)rand_next(r);
}

/* Write SIZE bytes of R's stream to FD in BLOCK-sized writes. */
static int write_stream(int fd, struct rand *r, uint64_t size, char *buf,
			uint64_t block)
{
	while (size) {
		size_t n = block < size ? block : size;
		int e;

		fill(r, buf, n);
		e = write_all(fd, buf, n);
		if (e)
			return e;
		size -= n;
	}
	return 0;
}

/*
 * --prepare truncates what is there, as dd does: but never a file that is
 * not a plain file of ours with one name (a hard link planted in a shared
 * directory would make root overwrite its target; O_NOFOLLOW covers the
 * symbolic ones).  Checked on the open descriptor, before any write.
 */
static int refuse_foreign(int fd, const char *path)
{
	struct stat st;

	if (fstat(fd, &st))
		return error_ret_errno(EXIT_RUN_FAILED, "cannot stat '%s'",
				       path);
	if (!S_ISREG(st.st_mode) || st.st_nlink != 1 || st.st_uid != geteuid())
		return error_ret(EXIT_RUN_FAILED,
				 "'%s' is not a regular file of ours with one "
				 "link: refusing to overwrite it",
				 path);
	return EXIT_OK;
}

int sb_prepare(const struct sb_opts *o)
{
	const char *path = o->targets[0];
	uint64_t block = o->blocks[0];
	struct rand r;
	char *buf;
	int fd, e, status;

	rand_seed(&r, o->seed);
	fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return error_ret_errno(EXIT_RUN_FAILED, "cannot create '%s'",
				       path);
	status = refuse_foreign(fd, path);
	if (!status && ftruncate(fd, 0))
		status = error_ret_errno(EXIT_RUN_FAILED,
					 "cannot truncate '%s'", path);
	if (status) {
		(void)close(fd); /* nothing written */
		return status;
	}
	buf = xmalloc(block);
	e = write_stream(fd, &r, o->sizes[0], buf, block);
	if (!e && fsync(fd))
		e = -errno;
	if (close(fd) && !e)
		e = -errno;
	free(buf);
	if (e)
		return error_ret_err(EXIT_RUN_FAILED, -e, "cannot write '%s'",
				     path);
	if (o->verbose)
		inform("wrote %llu bytes to '%s'",
		       (unsigned long long)o->sizes[0], path);
	return EXIT_OK;
}

/* A name from R that no other entry has: 12 hex digits. */
static char *tree_name(struct rand *r, char prefix)
{
	return xasprintf("%c%012llx", prefix,
			 (unsigned long long)(rand_next(r) >> 16));
}

static int make_file(int dirfd, const char *dir, const char *name,
		     const struct sb_opts *o, struct rand *r, char *buf)
{
	int fd = openat(dirfd, name,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0644);
	int e;

	if (fd < 0)
		return error_ret_errno(EXIT_RUN_FAILED, "cannot create '%s/%s'",
				       dir, name);
	e = write_stream(fd, r, o->tree_file_bytes, buf, 1 << 20);
	if (close(fd) && !e)
		e = -errno;
	if (e)
		return error_ret_err(EXIT_RUN_FAILED, -e,
				     "cannot write '%s/%s'", dir, name);
	return EXIT_OK;
}

/* The next subdirectory of the tree TOPFD (TOP) as *DIRFD, named in *DIR. */
static int next_dir(int topfd, const char *top, struct rand *names, int *dirfd,
		    char **dir)
{
	char *sub = tree_name(names, 'd');
	int status = EXIT_OK;

	if (*dirfd >= 0)
		(void)close(*dirfd); /* a directory */
	*dirfd = -1;
	free(*dir);
	*dir = xasprintf("%s/%s", top, sub);
	if (mkdirat(topfd, sub, 0755))
		status = error_ret_errno(EXIT_RUN_FAILED, "cannot create '%s'",
					 *dir);
	else if ((*dirfd = openat(topfd, sub,
				  O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					  O_CLOEXEC)) < 0)
		status = error_ret_errno(EXIT_RUN_FAILED, "cannot open '%s'",
					 *dir);
	free(sub);
	return status;
}

int sb_make_tree(const struct sb_opts *o)
{
	const char *top = o->targets[0];
	struct rand names, data;
	int topfd, dirfd = -1, status = EXIT_OK;
	char *dir = NULL, *buf;
	uint64_t i;

	rand_seed(&names, o->seed);
	rand_seed_stream(&data, o->seed, 1);
	if (mkdir(top, 0755) && errno != EEXIST)
		return error_ret_errno(EXIT_RUN_FAILED, "cannot create '%s'",
				       top);
	topfd = open(top, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (topfd < 0)
		return error_ret_errno(EXIT_RUN_FAILED, "cannot open '%s'",
				       top);
	buf = xmalloc(1 << 20);
	for (i = 0; !status && i < o->tree_files; i++) {
		char *name;

		if (i % TREE_FANOUT == 0) {
			status = next_dir(topfd, top, &names, &dirfd, &dir);
			if (status)
				break;
		}
		name = tree_name(&names, 'f');
		status = make_file(dirfd, dir, name, o, &data, buf);
		free(name);
	}
	/* Every file, directory and the tree's metadata on the disk. */
	if (!status && syncfs(topfd))
		status = error_ret_errno(EXIT_RUN_FAILED, "cannot sync '%s'",
					 top);
	if (dirfd >= 0)
		(void)close(dirfd); /* a directory */
	(void)close(topfd);	    /* a directory */
	free(dir);
	free(buf);
	if (!status && o->verbose)
		inform("wrote %llu files of %llu bytes in '%s'",
		       (unsigned long long)o->tree_files,
		       (unsigned long long)o->tree_file_bytes, top);
	return status;
}
