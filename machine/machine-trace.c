// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace-instance entry of the machine-state record: a tracefs instance
 * a monitor made (latency-block), its events and buffer with it.  Recorded
 * before it is made; restore removes it, which disables its events and
 * frees its buffer.  Where tracefs is not mounted (the monitor mounted it
 * in a mount namespace of its own, gone with it) restore mounts it in one
 * of its own too, in a child, so nothing outlives the undo.  The record
 * holds the name, "latency-PROGRAM-PID" under the tracefs instances
 * directory (never a path), and the start time of process PID: a monitor
 * that still reads the instance (its driver was killed) is stopped first,
 * as the pid kind stops one, and removes the instance itself.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/parse.h"
#include "lib/timing.h"
#include "lib/opt.h"
#include "lib/xalloc.h"
#include "machine/machine.h"

/* How long restore lets a monitor end on SIGTERM. */
#define TERM_WAIT_NS (5 * NSEC_PER_SEC)

/* "latency-WORD-PID", WORD in lower-case letters (PID into *PID). */
static bool instance_name_ok(const char *s, pid_t *pid)
{
	uint64_t v;
	size_t w, d;

	if (strncmp(s, "latency-", 8))
		return false;
	s += 8;
	w = strspn(s, "abcdefghijklmnopqrstuvwxyz");
	if (!w || w > 32 || s[w] != '-')
		return false;
	d = strspn(s + w + 1, "0123456789");
	if (!d || d > 10 || s[w + 1 + d] || parse_u64(s + w + 1, &v) || v < 2 ||
	    v > INT32_MAX)
		return false;
	*pid = (pid_t)v;
	return true;
}

char *make_trace(const struct record *r, int argc, char **argv)
{
	uint64_t start;
	pid_t pid;
	int e;

	(void)argc;
	if (!instance_name_ok(argv[1], &pid))
		usage_error("trace-instance: '%s' is not an instance name "
			    "(latency-PROGRAM-PID)",
			    argv[1]);
	e = proc_starttime(pid, &start);
	if (e)
		return entry_refused(-e == ESRCH ? 0 : -e,
				     "trace-instance: no process %d to record",
				     (int)pid);
	if (start < r->owner_start)
		return entry_refused(0,
				     "trace-instance: process %d is older "
				     "than the run",
				     (int)pid);
	return xasprintf("trace-instance\t%s\t%llu", argv[1],
			 (unsigned long long)start);
}

const char *check_trace(const struct record *r, char **f)
{
	uint64_t start;
	pid_t pid;

	if (!instance_name_ok(f[1], &pid) || parse_u64(f[2], &start))
		return "not a trace instance name and start time";
	return start >= r->owner_start ? NULL : "a process older than the run";
}

/* rmdir PATH: 0 done, 1 nothing to do, or -errno. */
static int remove_instance(const char *path)
{
	if (!rmdir(path))
		return 0;
	return errno == ENOENT ? 1 : -errno;
}

/* The same in a child that mounts tracefs at DIR in a namespace of its own. */
static int remove_unmounted(const char *dir, const char *path)
{
	int status, r;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		if (unshare(CLONE_NEWNS) ||
		    mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("nodev", dir, "tracefs", 0, NULL))
			_exit(1); /* no tracefs: no instance either */
		r = remove_instance(path);
		_exit(r <= 0 ? (r ? 100 + (-r & 0x7f) : 0) : 1);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(status))
		return -EIO;
	r = WEXITSTATUS(status);
	return r >= 100 ? -(r - 100) : r;
}

enum undo_result undo_trace(const struct record *r, char **f, char **note)
{
	char *dir = kpath(menv.sys, "/kernel/tracing"), *path;
	char *inst = kpath(menv.sys, "/kernel/tracing/instances");
	uint64_t start = 0;
	bool other, stopped = false;
	pid_t pid = 0;
	int res;

	(void)instance_name_ok(f[1], &pid); /* checked */
	(void)parse_u64(f[2], &start);
	/* A monitor that outlived its driver still reads the instance
	 * (rmdir: EBUSY): stop it, and it removes the instance.  Never the
	 * record's owner: that is a monitor restoring its own record. */
	if (pid != r->owner && pid != getpid())
		stopped = proc_stop(pid, start, TERM_WAIT_NS, &other) > 0;
	path = xasprintf("%s/%s", inst, f[1]);
	if (!access(inst, F_OK))
		res = remove_instance(path);
	else if (!strcmp(menv.sys, "/sys") && !geteuid())
		res = remove_unmounted(dir, path);
	else
		res = 1;
	free(dir);
	free(inst);
	if (res < 0) {
		*note = note_err(-res, "cannot remove '%s'", path);
		free(path);
		return UNDO_FAILED;
	}
	free(path);
	return res && !stopped ? UNDO_NOOP : UNDO_DONE;
}
