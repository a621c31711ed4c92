// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The changes latency-machine makes itself for a run, each written to the
 * state record before it is made (doc/design.md, contract 5): a swap file
 * or device enabled (swapfile, swapon), a zram device set up as swap
 * (zram), the run's memory cgroup made and limited (cgroup) and a program
 * started in it (cgroup-exec), and the caches dropped before a run
 * (drop-caches), which changes nothing restore could give back.  The
 * entries and their undo are the kinds of machine-entry.c, machine-path.c
 * and machine-zram.c, so a new change passes the same checks when recorded
 * and when replayed.  Each function returns the exit status, having said
 * why it failed; an entry whose change was not made is taken back.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/knob.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/spawn.h"
#include "lib/xalloc.h"
#include "machine/machine.h"

/* The run's record, held under the lock while a change is made. */
struct apply {
	int dirfd;
	struct record r;
	off_t at;   /* where the last entry was appended */
	char *line; /* the last entry, to take back if its change failed */
};

/* The run's record, locked; 0 or the exit status (said). */
static int apply_open(struct apply *a, pid_t owner)
{
	int status = state_open_locked(&a->dirfd);

	a->line = NULL;
	if (!status && (status = record_load_owned(a->dirfd, owner, &a->r)))
		(void)close(a->dirfd); /* also drops the lock */
	return status;
}

/* Record KIND ARG...: the entry stays unless apply_withdraw() takes it. */
static int apply_record(struct apply *a, int argc, char **argv)
{
	int status;

	free(a->line);
	a->line = entry_make(&a->r, argc, argv);
	status = a->line ? record_append(&a->r, a->line, &a->at)
			 : EXIT_RUN_FAILED;
	if (status) {
		free(a->line);
		a->line = NULL;
	}
	return status;
}

/* The change of the last entry was not made: take the entry back. */
static void apply_withdraw(struct apply *a)
{
	/* A failure is said; the entry's undo finds nothing to do. */
	if (a->line)
		(void)record_withdraw(a->dirfd, a->at, a->line);
	free(a->line);
	a->line = NULL;
}

static int apply_close(struct apply *a, int status)
{
	free(a->line);
	record_release(&a->r);
	(void)close(a->dirfd); /* also drops the lock */
	return status;
}

/* Run ARGV (swapon, mkswap, swapoff), its output on stderr. */
static int run_tool(char **argv)
{
	int e = spawn_wait(argv, SPAWN_OUT_TO_ERR), last = 0;

	while (argv[last + 1])
		last++;
	if (e < 0)
		return error_ret_err(EXIT_UNSUPPORTED, -e, "cannot run %s",
				     argv[0]);
	if (e)
		return error_ret(EXIT_RUN_FAILED,
				 "'%s %s' exited with status %d", argv[0],
				 argv[last], e);
	return EXIT_OK;
}

/* Record "swapoff PATH", then enable PATH as swap. */
static int swap_enable(struct apply *a, const char *path)
{
	char *rec[] = { "swapoff", (char *)path, NULL };
	char *argv[] = { "swapon", (char *)path, NULL };
	int st = apply_record(a, 2, rec);

	if (st)
		return st;
	st = run_tool(argv);
	if (st)
		apply_withdraw(a);
	return st;
}

int apply_swapon(pid_t owner, const char *path)
{
	struct apply a;
	int st;

	if (!path_is_clean(path))
		usage_error("swapon: '%s' is not a clean absolute path", path);
	st = apply_open(&a, owner);
	if (st)
		return st;
	return apply_close(&a, swap_enable(&a, path));
}

/*
 * SIZE bytes of zeros in FD, allocated at once; written only where the
 * file system cannot allocate (EOPNOTSUPP): any other failure (no space,
 * too large) is not worked around by filling the disk.  Returns 0 or
 * -errno.
 */
static int swap_fill(int fd, uint64_t size)
{
	static const char zero[65536];
	uint64_t done = 0;

	if (size > INT64_MAX)
		return -EFBIG;
	if (!fallocate(fd, 0, 0, (off_t)size))
		return 0;
	if (errno != EOPNOTSUPP)
		return -errno;
	while (done < size) {
		size_t n = size - done < sizeof(zero) ? (size_t)(size - done)
						      : sizeof(zero);
		int e = write_all(fd, zero, n);

		if (e)
			return e;
		done += n;
	}
	return 0;
}

/*
 * Whether SIZE bytes fit in the space free to us on the file system of
 * PATH's directory (statvfs), checked before anything is made.  Returns 0
 * or an exit status, having said why.
 */
static int swap_room(const char *path, uint64_t size)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	struct statvfs vfs;
	uint64_t avail;
	int st = 0;

	/* A clean absolute path: the slash is there, "/" its own parent. */
	slash[slash == dir] = '\0';
	if (statvfs(dir, &vfs)) {
		st = error_ret_errno(EXIT_RUN_FAILED,
				     "swapfile: cannot read the free space of "
				     "'%s'",
				     dir);
	} else {
		avail = vfs.f_frsize && vfs.f_bavail > UINT64_MAX / vfs.f_frsize
				? UINT64_MAX
				: (uint64_t)vfs.f_bavail * vfs.f_frsize;
		if (size > avail)
			st = error_ret(EXIT_UNSUPPORTED,
				       "swapfile: %llu bytes for '%s' are more "
				       "than the %llu bytes free in '%s'",
				       (unsigned long long)size, path,
				       (unsigned long long)avail, dir);
	}
	free(dir);
	return st;
}

/*
 * A swap file kept between runs (--cache): PATH as it is when it is a
 * regular file of ours with one link and SIZE bytes (*READY true), else
 * removed to be made again.  Returns 0 or an exit status.
 */
static int cached_ready(const char *path, uint64_t size, bool *ready)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	*ready = false;
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 || fstat(fd, &st)) {
		int st_ = error_ret_errno(EXIT_RUN_FAILED,
					  "swapfile: cannot open '%s'", path);

		if (fd >= 0)
			(void)close(fd); /* read-only */
		return st_;
	}
	if (!S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    st.st_uid != geteuid()) {
		(void)close(fd); /* read-only */
		return error_ret(EXIT_RUN_FAILED,
				 "swapfile: '%s' is not a regular file of ours "
				 "with one link",
				 path);
	}
	*ready = (uint64_t)st.st_size == size && !fchmod(fd, 0600);
	(void)close(fd); /* read-only */
	if (!*ready && unlink(path))
		return error_ret_errno(EXIT_RUN_FAILED,
				       "swapfile: cannot remove '%s'", path);
	return 0;
}

int apply_swapfile(pid_t owner, const char *path, uint64_t size, bool cache)
{
	char *check = xasprintf("rmfile\t%s\t0:0", path);
	char *rec[] = { "rmfile", (char *)path, NULL };
	char *mkswap[] = { "mkswap", "-q", (char *)path, NULL };
	struct apply a;
	bool ready = false;
	const char *why;
	int fd, st, e;

	if (!path_is_clean(path))
		usage_error("swapfile: '%s' is not a clean absolute path",
			    path);
	st = apply_open(&a, owner);
	if (st) {
		free(check);
		return st;
	}
	/* Where restore may remove it: checked before it is made. */
	why = entry_check(&a.r, check);
	free(check);
	if (why)
		return apply_close(&a, error_ret(EXIT_USAGE,
						 "swapfile: refusing '%s': %s",
						 path, why));
	st = cache ? cached_ready(path, size, &ready) : 0;
	if (st || ready)
		return apply_close(&a, st ? st : swap_enable(&a, path));
	st = swap_room(path, size);
	if (st)
		return apply_close(&a, st);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return apply_close(&a,
				   error_ret_errno(EXIT_RUN_FAILED,
						   "swapfile: cannot create "
						   "'%s'",
						   path));
	/* A file kept between runs is the cache's, not the run's. */
	if (!cache && (st = apply_record(&a, 2, rec))) {
		(void)close(fd); /* written nothing */
		/* Not recorded: not left behind. */
		(void)unlink(path);
		return apply_close(&a, st);
	}
	e = swap_fill(fd, size);
	if (!e && fsync(fd))
		e = -errno;
	if (close(fd) && !e)
		e = -errno;
	if (e) {
		st = error_ret_err(EXIT_RUN_FAILED, -e,
				   "swapfile: cannot write '%s'", path);
		/* Ours (O_EXCL), half made: not left filling the disk. */
		if (unlink(path))
			warn_errno("swapfile: cannot remove '%s'", path);
		else if (!cache)
			apply_withdraw(&a);
		return apply_close(&a, st);
	}
	st = run_tool(mkswap);
	return apply_close(&a, st ? st : swap_enable(&a, path));
}

static int num_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* The zram devices there are, "0,1" or "none" (allocated), or NULL. */
static char *zram_list(void)
{
	char *dir = kpath(menv.sys, "/block"), *list = NULL, *t;
	uint64_t nr[256];
	size_t n = 0, i;
	struct dirent *e;
	DIR *d = opendir(dir);

	free(dir);
	if (!d)
		return NULL;
	while ((e = readdir(d)) && n < 256)
		if (!strncmp(e->d_name, "zram", 4) &&
		    !parse_u64(e->d_name + 4, &nr[n]))
			n++;
	closedir(d);
	qsort(nr, n, sizeof(nr[0]), num_cmp);
	for (i = 0; i < n; i++) {
		t = xasprintf("%s%s%llu", list ? list : "", list ? "," : "",
			      (unsigned long long)nr[i]);
		free(list);
		list = t;
	}
	return list ? list : xstrdup("none");
}

/*
 * The zram device for the run: a new one from zram-control's hot_add
 * (recorded before, with the devices there were), else an unused zram0.
 * Its number into *NR; returns 0 or an exit status.
 */
static int zram_take(struct apply *a, uint64_t *nr)
{
	char *hot = kpath(menv.sys, "/class/zram-control/hot_add");
	char *list, name[32], buf[32], *rec[] = { "zramnew", NULL, NULL, NULL };
	ssize_t n;
	int st;

	if (access(hot, F_OK)) {
		free(hot);
		*nr = 0;
		rec[0] = "zram";
		rec[1] = "zram0";
		return apply_record(a, 2, rec);
	}
	list = zram_list();
	if (!list) {
		free(hot);
		return error_ret_errno(EXIT_RUN_FAILED,
				       "zram: cannot read %s/block", menv.sys);
	}
	rec[1] = list;
	st = apply_record(a, 2, rec);
	free(list);
	if (st) {
		free(hot);
		return st;
	}
	n = kfile_read(hot, buf, sizeof(buf));
	if (n < 0 || parse_u64(buf, nr) || *nr > 1000000) {
		apply_withdraw(a);
		n = error_ret_err(EXIT_RUN_FAILED, n < 0 ? (int)-n : EINVAL,
				  "zram: no new device from '%s'", hot);
		free(hot);
		return (int)n;
	}
	free(hot);
	snprintf(name, sizeof(name), "zram%llu", (unsigned long long)*nr);
	rec[0] = "zram";
	rec[1] = name;
	rec[2] = "hot";
	return apply_record(a, 3, rec);
}

int apply_zram(pid_t owner, uint64_t size, const char *alg)
{
	char *dev, *mkswap[] = { "mkswap", "-q", NULL, NULL }, num[24];
	struct apply a;
	uint64_t nr;
	int st, e = 0;

	if (alg && !knob_value_ok(alg))
		usage_error("zram: '%s' is not a compression algorithm",
			    text_escape(alg));
	st = apply_open(&a, owner);
	if (st)
		return st;
	st = zram_take(&a, &nr);
	if (st)
		return apply_close(&a, st);
	if (alg) {
		char *p = kpath(menv.sys, "/block/zram%llu/comp_algorithm",
				(unsigned long long)nr);

		e = kfile_write(p, alg, 0);
		if (e)
			st = error_ret_err(EXIT_RUN_FAILED, -e,
					   "zram: the kernel refused '%s' for "
					   "'%s'",
					   alg, p);
		free(p);
	}
	if (!st) {
		char *p = kpath(menv.sys, "/block/zram%llu/disksize",
				(unsigned long long)nr);

		snprintf(num, sizeof(num), "%llu", (unsigned long long)size);
		e = kfile_write(p, num, 0);
		if (e)
			st = error_ret_err(EXIT_RUN_FAILED, -e,
					   "zram: cannot write '%s'", p);
		free(p);
	}
	dev = xasprintf("%s/zram%llu", menv.dev, (unsigned long long)nr);
	mkswap[2] = dev;
	if (!st)
		st = run_tool(mkswap);
	if (!st)
		st = swap_enable(&a, dev);
	if (!st && printf("%s\n", dev) < 0)
		st = error_ret_errno(EXIT_RUN_FAILED, "cannot write");
	free(dev);
	return apply_close(&a, st);
}

/* Does R hold the entry "KIND\tPATH..." (a change of this run)? */
static bool recorded_path(const struct record *r, const char *kind,
			  const char *path)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!r->e[i].damaged && r->e[i].nfield >= 2 &&
		    !strcmp(r->e[i].field[0], kind) &&
		    !strcmp(r->e[i].field[1], path))
			return true;
	return false;
}

int apply_cgroup(pid_t owner, const char *path, uint64_t limit)
{
	char *rec[] = { "rmdir", (char *)path, NULL }, *file, num[24];
	struct apply a;
	bool v1;
	int e;

	if (!path_is_clean(path))
		usage_error("cgroup: '%s' is not a clean absolute path", path);
	e = apply_open(&a, owner);
	if (e)
		return e;
	/* Refuses all but the run's own cgroup. */
	e = apply_record(&a, 2, rec);
	if (e)
		return apply_close(&a, e);
	if (mkdir(path, 0755)) {
		e = errno;
		apply_withdraw(&a);
		return apply_close(&a, error_ret_err(EXIT_RUN_FAILED, e,
						     "cgroup: cannot create "
						     "'%s'",
						     path));
	}
	/* cgroup v1 has its memory controller's own tree. */
	v1 = !strncmp(path + strlen(a.r.cgroup_root), "/memory/", 8);
	file = xasprintf("%s/%s", path,
			 v1 ? "memory.limit_in_bytes" : "memory.max");
	snprintf(num, sizeof(num), "%llu", (unsigned long long)limit);
	e = kfile_write(file, num, 0);
	if (e)
		e = error_ret_err(EXIT_RUN_FAILED, -e,
				  "cgroup: cannot limit '%s' to %s", file, num);
	else if (printf("%s\n", file) < 0)
		e = error_ret_errno(EXIT_RUN_FAILED, "cannot write");
	free(file);
	return apply_close(&a, e);
}

int apply_cgroup_exec(pid_t owner, const char *path, char **argv)
{
	char *procs, pid[24];
	struct apply a;
	int e = apply_open(&a, owner);

	if (e)
		return e;
	if (!recorded_path(&a.r, "rmdir", path))
		return apply_close(&a, error_ret(EXIT_USAGE,
						 "cgroup-exec: '%s' is not a "
						 "cgroup of run pid %d",
						 path, (int)owner));
	apply_close(&a, 0);
	procs = xasprintf("%s/cgroup.procs", path);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	e = kfile_write(procs, pid, 0);
	if (e)
		e = error_ret_err(EXIT_RUN_FAILED, -e,
				  "cgroup-exec: cannot enter '%s'", procs);
	free(procs);
	if (e)
		return e;
	execvp(argv[0], argv);
	return error_ret_errno(errno == ENOENT ? 127 : 126,
			       "cgroup-exec: cannot run '%s'", argv[0]);
}

int apply_drop_caches(pid_t owner, const char *swap)
{
	char *drop = kpath(menv.proc, "/sys/vm/drop_caches");
	char *compact = kpath(menv.proc, "/sys/vm/compact_memory");
	char *off[] = { "swapoff", (char *)swap, NULL };
	char *on[] = { "swapon", (char *)swap, NULL };
	struct apply a;
	int st = 0, e;

	if (swap) {
		/* Only a swap area the run enabled is the run's to empty. */
		st = apply_open(&a, owner);
		if (st)
			goto out;
		if (!recorded_path(&a.r, "swapoff", swap)) {
			st = apply_close(&a, error_ret(EXIT_USAGE,
						       "drop-caches: '%s' is "
						       "not swap run pid %d "
						       "enabled",
						       swap, (int)owner));
			goto out;
		}
		apply_close(&a, 0);
	}
	sync();
	e = kfile_write(drop, "3", 0);
	if (e)
		st = error_ret_err(EXIT_RUN_FAILED, -e, "cannot write '%s'",
				   drop);
	/* What the last run left in swap would be another starting point. */
	if (!st && swap)
		st = run_tool(off);
	if (!st && swap)
		st = run_tool(on);
	/* Not every kernel can compact. */
	if (!st && !access(compact, F_OK)) {
		e = kfile_write(compact, "1", 0);
		if (e)
			st = error_ret_err(EXIT_RUN_FAILED, -e,
					   "cannot write '%s'", compact);
	}
out:
	free(drop);
	free(compact);
	return st;
}
