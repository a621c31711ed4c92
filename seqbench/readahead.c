// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readahead of the device under a read-only target.  Page-cache reads
 * of a file or a block device use the readahead of the device they are on
 * (of the whole disk, for a partition); a device-mapper or md device has a
 * readahead of its own, and the devices under it (slaves/) theirs, which md
 * derives its own from and which direct reads of them use.  --readahead
 * sets all of them, so that a row means one setting however the storage is
 * stacked, and reports the first (the one the reads use).
 *
 * Every change goes through the machine-state record (doc/design.md,
 * contract 5): the old value is recorded with `latency-machine record
 * readahead MAJ:MIN KB` before it is written, so that a crash is undone by
 * the next run or by `seqbench --restore`.  Run by the driver
 * (LATENCY_MACHINE_OWNER set), the entries join the driver's record;
 * standalone, seqbench begins a record of its own and removes it when it has
 * put everything back.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/kparse.h"
#include "lib/parse.h"
#include "lib/spawn.h"
#include "lib/xalloc.h"
#include "seqbench/seqbench.h"

/* Stacks deeper than this are a loop in a (fake) sysfs tree. */
#define MAX_DEPTH 16
#define MAX_DEVS 256

static int read_text(const char *path, char *buf, size_t len)
{
	ssize_t n = read_small_file(path, buf, len);

	if (n < 0)
		return (int)n;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int read_kb(const char *knob, uint64_t *kb)
{
	char buf[32];
	int r = read_text(knob, buf, sizeof(buf));

	if (r)
		return r;
	return parse_u64(buf, kb) ? -EINVAL : 0;
}

static bool file_exists(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	bool yes = !access(p, F_OK);

	free(p);
	return yes;
}

/* Add the device whose sysfs directory is DIR, then the ones under it. */
static int add_dev(struct sb_ra *ra, const char *dir, int depth)
{
	char *real = realpath(dir, NULL), *path, buf[32], *slash;
	struct sb_ra_dev d;
	struct dirent *de;
	uint32_t maj, min;
	size_t i;
	DIR *dp;
	int r = 0;

	if (!real)
		return -errno;
	if (depth > MAX_DEPTH || ra->n >= MAX_DEVS) {
		free(real);
		return -ELOOP;
	}
	/* A partition shares the queue of its disk, the directory above. */
	if (file_exists(real, "partition") && (slash = strrchr(real, '/')))
		*slash = '\0';
	path = xasprintf("%s/dev", real);
	r = read_text(path, buf, sizeof(buf));
	free(path);
	if (!r)
		r = kparse_dev(buf, strlen(buf), &maj, &min);
	for (i = 0; !r && i < ra->n; i++)
		if (ra->dev[i].major == maj && ra->dev[i].minor == min)
			goto out; /* reached twice through slaves: once is enough */
	if (r)
		goto out;
	memset(&d, 0, sizeof(d));
	d.major = maj;
	d.minor = min;
	d.name = xstrdup(strrchr(real, '/') ? strrchr(real, '/') + 1 : real);
	d.knob = xasprintf("%s/queue/read_ahead_kb", real);
	r = read_kb(d.knob, &d.old_kb);
	if (r) {
		free(d.name);
		free(d.knob);
		goto out;
	}
	ra->dev = xreallocarray(ra->dev, ra->n + 1, sizeof(*ra->dev));
	ra->dev[ra->n++] = d;
	path = xasprintf("%s/slaves", real);
	dp = opendir(path);
	while (dp && !r && (de = readdir(dp))) {
		char *sub;

		if (de->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s", path, de->d_name);
		r = add_dev(ra, sub, depth + 1);
		free(sub);
	}
	if (dp)
		closedir(dp);
	free(path);
out:
	free(real);
	return r;
}

int sb_ra_resolve(const char *sys, dev_t dev, struct sb_ra *ra)
{
	char *dir;
	int r;

	memset(ra, 0, sizeof(*ra));
	if (!major(dev))
		return -ENODEV;
	dir = xasprintf("%s/dev/block/%u:%u", sys, major(dev), minor(dev));
	r = add_dev(ra, dir, 0);
	free(dir);
	if (r == -ENOENT)
		r = -ENODEV;
	if (r)
		sb_ra_release(ra);
	return r;
}

void sb_ra_release(struct sb_ra *ra)
{
	size_t i;

	for (i = 0; i < ra->n; i++) {
		free(ra->dev[i].name);
		free(ra->dev[i].knob);
	}
	free(ra->dev);
	memset(ra, 0, sizeof(*ra));
}

static int write_kb(const char *knob, uint64_t kb)
{
	char buf[32];
	int fd, r;

	snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)kb);
	fd = open(knob, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = write_all(fd, buf, strlen(buf));
	if (close(fd) && !r)
		r = -errno;
	return r;
}

/* latency-machine ARGS; its stderr to /dev/null when QUIET. */
static int machine(char *const args[], bool quiet)
{
	return spawn_machine(args, quiet ? SPAWN_QUIET : 0);
}

static void set_error(struct sb_error *err, int e, const char *fmt, ...)
	PRINTF_LIKE(3, 4);
static void set_error(struct sb_error *err, int e, const char *fmt, ...)
{
	va_list ap;

	if (err->err)
		return;
	err->err = e;
	err->thread = -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

/* "latency-machine CMD" failed with R: into ERR; returns R. */
static int machine_error(struct sb_error *err, const char *cmd, int r)
{
	if (r < 0)
		set_error(err, -r, "cannot run latency-machine %s", cmd);
	else
		set_error(err, EPERM,
			  "latency-machine %s exited with status %d (see its "
			  "message above)",
			  cmd, r);
	return r;
}

int sb_ra_record(struct sb_ra *ra, struct sb_error *err)
{
	const char *env = getenv("LATENCY_MACHINE_OWNER");
	char owner[32], devno[32], kb[32];
	uint64_t pid;
	size_t i;
	int r;

	if (env && *env) {
		if (parse_u64(env, &pid) || !pid || pid > INT_MAX) {
			set_error(err, EINVAL,
				  "LATENCY_MACHINE_OWNER='%s' is not a pid",
				  env);
			return -EINVAL;
		}
		snprintf(owner, sizeof(owner), "--owner=%llu",
			 (unsigned long long)pid);
	} else {
		char *begin[] = { "begin", owner, NULL };

		snprintf(owner, sizeof(owner), "--owner=%d", (int)getpid());
		r = machine(begin, false);
		if (r)
			return machine_error(err, "begin", r);
		ra->own_record = true;
	}
	for (i = 0; i < ra->n; i++) {
		char *rec[] = { "record", owner, "readahead", devno, kb, NULL };

		snprintf(devno, sizeof(devno), "%u:%u", ra->dev[i].major,
			 ra->dev[i].minor);
		snprintf(kb, sizeof(kb), "%llu",
			 (unsigned long long)ra->dev[i].old_kb);
		r = machine(rec, false);
		if (r)
			return machine_error(err, "record", r);
	}
	ra->recorded = true;
	return 0;
}

int sb_ra_set(struct sb_ra *ra, uint64_t kb, struct sb_error *err)
{
	size_t i;
	int r;

	if (!ra->recorded && sb_ra_record(ra, err))
		return -1;
	for (i = 0; i < ra->n; i++) {
		/* Marked first: a write that fails half-way is undone too. */
		ra->dev[i].changed = true;
		r = write_kb(ra->dev[i].knob, kb);
		if (r) {
			set_error(err, -r,
				  "cannot set the readahead of %s "
				  "('%s')",
				  ra->dev[i].name, ra->dev[i].knob);
			return -1;
		}
	}
	return 0;
}

int sb_ra_restore(struct sb_ra *ra, int verbose, struct sb_error *err)
{
	size_t i;
	int r, ret = 0;

	for (i = 0; i < ra->n; i++) {
		if (!ra->dev[i].changed)
			continue;
		r = write_kb(ra->dev[i].knob, ra->dev[i].old_kb);
		if (r) {
			set_error(err, -r,
				  "cannot restore the readahead of %s to %llu "
				  "KiB (it stays in the machine-state record: "
				  "run 'seqbench --restore')",
				  ra->dev[i].name,
				  (unsigned long long)ra->dev[i].old_kb);
			ret = -1;
			continue;
		}
		ra->dev[i].changed = false;
		if (verbose)
			inform("readahead of %s back to %llu KiB",
			       ra->dev[i].name,
			       (unsigned long long)ra->dev[i].old_kb);
	}
	if (!ret && ra->own_record) {
		char owner[32], *args[] = { "restore", owner, NULL };

		/* Writes the same values again, and removes the record. */
		snprintf(owner, sizeof(owner), "--owner=%d", (int)getpid());
		r = machine(args, !verbose);
		if (r) {
			ret = -1;
			(void)machine_error(err, "restore", r);
		} else {
			ra->own_record = false;
		}
	}
	return ret;
}

int sb_ra_restore_machine(void)
{
	char *args[] = { "restore", NULL };
	int r = machine(args, false);

	if (r < 0)
		return error_ret_err(EXIT_UNSUPPORTED, -r,
				     "cannot run latency-machine");
	return r;
}
