// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/safe-open: planted symlinks are replaced, never
 * written through; directories are opened without following links except
 * where protected_symlinks would; unsafe shared directories are named; a
 * FIFO is refused without blocking.  The ownership cases need root (to
 * give files to another user) and are skipped otherwise.
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
#include "tests/tap.h"

#define OTHER_UID 65534

static char top[64];

static char *at(const char *name)
{
	static char buf[4][256];
	static unsigned i;

	snprintf(buf[i % 4], sizeof(buf[0]), "%s/%s", top, name);
	return buf[i++ % 4];
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

static void test_create(int dfd)
{
	struct stat st;
	int fd;

	is_int(symlink(at("victim"), at("d/.x.fm-part")), 0, "plant a link");
	fd = safe_create(dfd, ".x.fm-part", O_WRONLY, 0644);
	ok(fd >= 0, "create over a planted link");
	is_int((int)write(fd, "data", 4), 4, "write");
	close(fd);
	ok(!exists(at("victim")), "the link's target was never created");
	ok(!lstat(at("d/.x.fm-part"), &st) && S_ISREG(st.st_mode) &&
		   st.st_size == 4,
	   "a regular file took the link's place");
	fd = safe_create(dfd, ".x.fm-part", O_WRONLY, 0644);
	ok(fd >= 0, "a stale file of ours is replaced");
	ok(!fstat(fd, &st) && st.st_size == 0, "the new one starts empty");
	close(fd);
	is_int(mkdir(at("d/sub"), 0755), 0, "a directory");
	is_int(safe_create(dfd, "sub", O_WRONLY, 0644), -EISDIR,
	       "a directory in the way is an error");
}

static void test_subdir(int dfd)
{
	int fd;

	fd = safe_subdir_open(dfd, "new", true, 0755);
	ok(fd >= 0, "missing subdirectory created and opened");
	close(fd);
	fd = safe_subdir_open(dfd, "new", true, 0755);
	ok(fd >= 0, "existing subdirectory opened");
	close(fd);
	is_int(safe_subdir_open(dfd, "absent", false, 0755), -ENOENT,
	       "missing without create");
	is_int(symlink(top, at("d/link")), 0, "a link to a directory");
	is_int(safe_subdir_open(dfd, "link", true, 0755), -ELOOP,
	       "a link is never followed below the destination");
	is_int(safe_subdir_open(dfd, ".x.fm-part", false, 0755), -ENOTDIR,
	       "a file is not a directory");
}

static void test_dir_open(void)
{
	int fd;

	fd = safe_dir_open(at("made/"), true, 0755);
	ok(fd >= 0, "the user's directory created (trailing slash)");
	close(fd);
	is_int(safe_dir_open(at("no/such"), true, 0755), -ENOENT,
	       "only the last component is created");
	is_int(symlink("made", at("mine")), 0, "our own link");
	fd = safe_dir_open(at("mine"), false, 0755);
	ok(fd >= 0, "our own link to a directory is followed");
	close(fd);
	fd = safe_dir_open("/", false, 0755);
	ok(fd >= 0, "the root directory");
	close(fd);
	is_int(safe_dir_open("", true, 0755), -ENOENT, "an empty path");
}

static void test_regular(int dfd)
{
	struct stat st;
	int fd;

	is_int(mkfifo(at("d/fifo"), 0644), 0, "a FIFO");
	is_int(safe_open_regular(dfd, "fifo", &st), -EINVAL,
	       "a FIFO is refused, without blocking");
	is_int(symlink(".x.fm-part", at("d/alias")), 0, "a link to a file");
	is_int(safe_open_regular(dfd, "alias", &st), -ELOOP,
	       "a link is not followed");
	fd = safe_open_regular(dfd, ".x.fm-part", &st);
	ok(fd >= 0 && S_ISREG(st.st_mode), "a regular file opens");
	ok(fd >= 0 && !(fcntl(fd, F_GETFL) & O_NONBLOCK), "blocking again");
	close(fd);
}

/* Ownership cases: only root can hand a directory or link to another. */
static void test_owners(void)
{
	char why[128] = "";
	int fd;

	is_int(mkdir(at("shared"), 0777), 0, "a shared directory");
	is_int(chmod(at("shared"), 0777), 0, "world-writable");
	fd = open(at("shared"), O_RDONLY | O_DIRECTORY);
	is_int(safe_dir_check(fd, why, sizeof(why)), 0,
	       "ours: writable by others is our own business");
	is_int(chown(at("shared"), OTHER_UID, OTHER_UID), 0,
	       "now another user's");
	is_int(safe_dir_check(fd, why, sizeof(why)), -EPERM,
	       "another user's, writable by others, not sticky: refused");
	is_str(why,
	       "owned by uid 65534 and writable by others without the sticky "
	       "bit",
	       "the reason names owner and cause");
	is_int(chmod(at("shared"), 0775), 0, "group-writable only");
	is_int(safe_dir_check(fd, why, sizeof(why)), -EPERM,
	       "group-writable: refused too");
	is_str(why,
	       "owned by uid 65534 and writable by its group without the "
	       "sticky bit",
	       "the reason says group");
	is_int(chmod(at("shared"), 01777), 0, "sticky");
	is_int(safe_dir_check(fd, why, sizeof(why)), 0, "sticky: accepted");
	is_int(chmod(at("shared"), 0755), 0, "writable by its owner only");
	is_int(safe_dir_check(fd, why, sizeof(why)), 0, "accepted");
	close(fd);

	/* A link planted in a sticky world-writable directory (/tmp). */
	is_int(chown(at("shared"), 0, 0), 0, "root's again");
	is_int(chmod(at("shared"), 01777), 0, "sticky and world-writable");
	is_int(symlink(top, at("shared/planted")), 0, "a link");
	is_int(lchown(at("shared/planted"), OTHER_UID, OTHER_UID), 0,
	       "owned by another user");
	is_int(safe_dir_open(at("shared/planted"), true, 0755), -ELOOP,
	       "another user's link in a sticky directory is not followed");
	is_int(symlink(top, at("shared/own")), 0, "our own link there");
	fd = safe_dir_open(at("shared/own"), true, 0755);
	ok(fd >= 0, "our own link there is followed");
	close(fd);
}

int main(void)
{
	int tfd, dfd;

	snprintf(top, sizeof(top), "/tmp/safe-open.%d", (int)getpid());
	if (mkdir(top, 0755) || mkdir(at("d"), 0755))
		skip_all("cannot make a scratch directory in /tmp");
	tfd = safe_subdir_open(AT_FDCWD, top, false, 0);
	ok(tfd >= 0, "open the scratch directory");
	dfd = safe_subdir_open(tfd, "d", false, 0);
	ok(dfd >= 0, "and a directory in it");
	close(tfd);
	test_create(dfd);
	test_subdir(dfd);
	test_dir_open();
	test_regular(dfd);
	if (geteuid() == 0)
		test_owners();
	else
		ok(true, "# SKIP ownership cases need root");
	close(dfd);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		ok(!system(cmd), "scratch removed");
	}
	return done_testing();
}
