// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The zram entries of the machine-state record: a zram device the run set
 * up as swap (zram), and the zram devices there were before it asked
 * zram-control for a new one (zramnew), with their checks and undo.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/spawn.h"
#include "lib/xalloc.h"
#include "machine/machine.h"

/* "zramN" (N into *NR); false when S is not one. */
static bool zram_parse(const char *s, uint64_t *nr)
{
	return !strncmp(s, "zram", 4) && !parse_u64(s + 4, nr) &&
	       *nr <= 1000000;
}

/*
 * zram N [hot]: the zram device /dev/zramN, set up by the run as swap;
 * "hot" when the run made it through zram-control's hot_add (restore then
 * removes it), "kept" when it was there, unused, before the run.  Either
 * way it is recorded before the run sets it up: a device with a disksize
 * is someone's swap, not the run's to reset.
 */
char *make_zram(const struct record *r, int argc, char **argv)
{
	const char *s = argv[1];
	char *path, buf[32];
	uint64_t nr;

	(void)r;
	if (!strncmp(s, "zram", 4))
		s += 4;
	if (parse_u64(s, &nr) || nr > 1000000)
		usage_error("zram: '%s' is not a zram device (zramN or N)",
			    argv[1]);
	if (argc > 2 && strcmp(argv[2], "hot"))
		usage_error("zram: '%s' is not 'hot'", argv[2]);
	path = kpath(menv.sys, "/block/zram%llu/disksize",
		     (unsigned long long)nr);
	if (kfile_read(path, buf, sizeof(buf)) >= 0 && strcmp(buf, "0")) {
		free(path);
		return entry_refused(0,
				     "zram: zram%llu is set up already "
				     "(disksize %s): not the run's to reset",
				     (unsigned long long)nr, buf);
	}
	free(path);
	return xasprintf("zram\tzram%llu\t%s", (unsigned long long)nr,
			 argc > 2 ? "hot" : "kept");
}

const char *check_zram(const struct record *r, char **f)
{
	uint64_t nr;

	(void)r;
	return zram_parse(f[1], &nr) &&
			       (!strcmp(f[2], "hot") || !strcmp(f[2], "kept"))
		       ? NULL
		       : "not a zram device";
}

/*
 * zramnew LIST: the zram devices there were before the run asked
 * zram-control's hot_add for one (their numbers, comma-separated, or
 * "none").  Recorded before hot_add, so that a run killed between hot_add
 * and its "zram zramN hot" entry leaves no device behind: restore removes
 * every zram device not in LIST that was never set up (disksize 0).
 */
static bool zram_list_ok(const char *s)
{
	if (!strcmp(s, "none"))
		return true;
	for (;;) {
		size_t n = strspn(s, "0123456789");

		if (!n || n > 7)
			return false;
		s += n;
		if (!*s)
			return true;
		if (*s++ != ',')
			return false;
	}
}

char *make_zramnew(const struct record *r, int argc, char **argv)
{
	(void)r;
	(void)argc;
	if (!zram_list_ok(argv[1]))
		usage_error("zramnew: '%s' is not a list of zram device "
			    "numbers (e.g. 0,1) or 'none'",
			    argv[1]);
	return xasprintf("zramnew\t%s", argv[1]);
}

const char *check_zramnew(const struct record *r, char **f)
{
	(void)r;
	return zram_list_ok(f[1]) ? NULL : "not a list of zram devices";
}

/* Off as swap, emptied (reset), and removed again when the run made it. */
enum undo_result undo_zram(const struct record *r, char **f, char **note)
{
	char *dir = kpath(menv.sys, "/block/%s", f[1]);
	char *dev = xasprintf("%s/%s", menv.dev, f[1]), *path;
	uint64_t nr = 0;
	enum undo_result res;
	int on;

	(void)r;
	(void)zram_parse(f[1], &nr); /* checked */
	if (access(dir, F_OK) && errno == ENOENT) {
		*note = xstrdup("no such device now");
		res = UNDO_NOOP;
		goto out;
	}
	on = swap_enabled(dev);
	if (on < 0) {
		*note = note_err(-on, "cannot read %s/swaps", menv.proc);
		res = UNDO_FAILED;
		goto out;
	}
	if (on) {
		char *argv[] = { "swapoff", dev, NULL };
		int e = spawn_wait(argv, 0);

		if (e) {
			*note = e < 0 ? note_err(-e, "cannot run swapoff")
				      : xasprintf(
						"swapoff exited with status %d",
						e);
			res = UNDO_FAILED;
			goto out;
		}
	}
	path = kpath(menv.sys, "/block/%s/reset", f[1]);
	res = kfile_write_back(path, "1", note);
	if (res == UNDO_DONE && !strcmp(f[2], "hot")) {
		char num[24];

		snprintf(num, sizeof(num), "%llu", (unsigned long long)nr);
		res = kfile_write_back(
			kpath(menv.sys, "/class/zram-control/hot_remove"), num,
			note);
	}
out:
	free(dir);
	free(dev);
	return res;
}

/* Is NR in the comma-separated LIST? */
static bool zram_listed(const char *list, uint64_t nr)
{
	char *end;

	if (!strcmp(list, "none"))
		return false;
	for (;;) {
		if (strtoull(list, &end, 10) == nr)
			return true;
		if (*end != ',')
			return false;
		list = end + 1;
	}
}

enum undo_result undo_zramnew(const struct record *r, char **f, char **note)
{
	char *dir = kpath(menv.sys, "/block"), *removed = NULL;
	enum undo_result res = UNDO_NOOP;
	struct dirent *e;
	DIR *d;

	(void)r;
	d = opendir(dir);
	if (!d) {
		*note = note_err(errno, "cannot read '%s'", dir);
		res = UNDO_FAILED;
		goto out;
	}
	while ((e = readdir(d))) {
		char buf[32], num[24], *tmp;
		uint64_t nr;

		if (!zram_parse(e->d_name, &nr) || zram_listed(f[1], nr))
			continue;
		/* Set up (disksize): not an empty device of a dead run. */
		tmp = kpath(menv.sys, "/block/%s/disksize", e->d_name);
		if (read_small_file(tmp, buf, sizeof(buf)) < 0 ||
		    strcmp(buf, "0\n")) {
			free(tmp);
			continue;
		}
		free(tmp);
		snprintf(num, sizeof(num), "%llu", (unsigned long long)nr);
		if (kfile_write_back(
			    kpath(menv.sys, "/class/zram-control/hot_remove"),
			    num, note) != UNDO_DONE) {
			res = UNDO_FAILED;
			break;
		}
		tmp = xasprintf("%s%s%s", removed ? removed : "removed ",
				removed ? "," : "", e->d_name);
		free(removed);
		removed = tmp;
		res = UNDO_DONE;
	}
	closedir(d);
	if (res == UNDO_DONE)
		*note = removed, removed = NULL;
out:
	free(removed);
	free(dir);
	return res;
}
