// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One run per machine.  Two runs at once undo each other: each records the
 * other's setting as the one to restore, and one run's restore turns off
 * the swap the other is using.  The state record cannot prevent it, since
 * its directory follows LATENCY_STATE_DIR (a per-user one without root), so
 * the machine has its own lock in a fixed place that every user of the
 * suite can write: $LATENCY_LOCK_DIR/latency-tests.lock (/run/lock).  It
 * says which run holds the machine: "PID START UID RECORD COMMAND", one
 * tab-separated line, empty when free.  The holder is the run's driver
 * (the record's owner), alive while its start time in /proc/PID/stat is
 * the one written, so a run killed with SIGKILL holds nothing: the next
 * run takes over and undoes the dead run's record.  flock serializes the
 * check and the write, and is held only for them.  The file is never
 * removed (removing would let two claimants each make their own); it is
 * opened without following links or blocking and must be a regular file
 * with one link.  Any user can write it, so it is a convention between
 * users of the suite, not a barrier: nothing read from it is trusted
 * beyond naming a pid, and another user's record is never restored.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/parse.h"
#include "lib/xalloc.h"
#include "machine/machine.h"

#define LOCK_NAME "latency-tests.lock"
#define LOCK_MAX 4096

const char *machine_lock_path(void)
{
	static char *path;

	if (!path)
		path = xasprintf("%s/" LOCK_NAME, menv.lock_dir);
	return path;
}

/*
 * Open the lock file, making it (mode 0666: every user of the suite takes
 * it) when missing and CREATE.  Never with O_CREAT on an existing file:
 * fs.protected_regular refuses that, even to root, on another user's file
 * in a sticky directory.  Locked, into *FDP.  Returns 0, -ENOENT (not
 * said), or the exit status (said).
 */
static int lock_open(bool create, int *fdp)
{
	const int flags = O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
	struct stat st;
	int dfd, fd = -1, tries, status = 0;

	dfd = open(menv.lock_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return error_ret_errno(EXIT_UNSUPPORTED,
				       "cannot open the lock directory '%s' "
				       "(set LATENCY_LOCK_DIR to a directory "
				       "every user of the suite can write)",
				       menv.lock_dir);
	for (tries = 0; tries < 8 && fd < 0; tries++) {
		fd = openat(dfd, LOCK_NAME, flags);
		if (fd >= 0 || errno != ENOENT || !create)
			break;
		fd = openat(dfd, LOCK_NAME, flags | O_CREAT | O_EXCL, 0666);
		/* The umask took bits away; every user needs them. */
		if (fd >= 0 && fchmod(fd, 0666)) {
			status = error_ret_errno(EXIT_RUN_FAILED,
						 "cannot chmod '%s'",
						 machine_lock_path());
			break;
		}
		if (fd < 0 && errno != EEXIST)
			break;
	}
	(void)close(dfd); /* read-only */
	if (status)
		goto fail;
	if (fd < 0 && errno == ENOENT && !create)
		return -ENOENT;
	if (fd < 0 && errno == ELOOP)
		return error_ret(EXIT_RUN_FAILED,
				 "refusing lock '%s': it is a symbolic link",
				 machine_lock_path());
	if (fd < 0)
		return error_ret_errno(EXIT_UNSUPPORTED,
				       "cannot open the machine lock '%s'",
				       machine_lock_path());
	if (fstat(fd, &st))
		status = error_ret_errno(EXIT_RUN_FAILED, "cannot stat '%s'",
					 machine_lock_path());
	else if (!S_ISREG(st.st_mode) || st.st_nlink != 1)
		status =
			error_ret(EXIT_RUN_FAILED,
				  "refusing lock '%s': not a regular file with "
				  "one link",
				  machine_lock_path());
	while (!status && flock(fd, LOCK_EX))
		if (errno != EINTR)
			status = error_ret_errno(EXIT_RUN_FAILED,
						 "cannot lock '%s'",
						 machine_lock_path());
	if (!status) {
		*fdp = fd;
		return 0;
	}
fail:
	(void)close(fd); /* nothing written */
	return status;
}

/* The holder FD names into *H (pid 0: free, or not a holder line). */
static void holder_read(int fd, struct lock_holder *h)
{
	char buf[LOCK_MAX + 1], *f[5], *p = buf;
	uint64_t pid, uid;
	ssize_t n = pread(fd, buf, LOCK_MAX, 0);
	int i;

	memset(h, 0, sizeof(*h));
	if (n <= 0 || buf[n - 1] != '\n' || memchr(buf, '\0', (size_t)n))
		return;
	buf[n - 1] = '\0';
	for (i = 0; i < 5; i++)
		f[i] = strsep(&p, "\t");
	if (!f[4] || p || parse_u64(f[0], &pid) || !pid || pid > INT_MAX ||
	    parse_u64(f[1], &h->start) || parse_u64(f[2], &uid) ||
	    uid > UINT_MAX || *f[3] != '/' || strlen(f[3]) >= sizeof(h->record))
		return;
	h->pid = (pid_t)pid;
	h->uid = (unsigned)uid;
	snprintf(h->record, sizeof(h->record), "%s", f[3]);
	/* Written escaped; cut to fit if someone else wrote it. */
	snprintf(h->command, sizeof(h->command), "%s", f[4]);
}

/*
 * Is the holder H alive?  The same process: its start time is the one
 * written.  A process of another user that this one cannot see (procfs
 * mounted with hidepid) cannot be checked: it counts as alive if a
 * process with its pid exists.
 */
static bool holder_alive(const struct lock_holder *h)
{
	uint64_t start;
	int r;

	if (!h->pid)
		return false;
	r = proc_starttime(h->pid, &start);
	if (!r)
		return start == h->start;
	return r == -ESRCH && h->uid != geteuid() && kill(h->pid, 0) &&
	       errno == EPERM;
}

/*
 * The live holder's command line, read now: the one written at claim time
 * may have been read between its fork and its exec.  Kept when /proc
 * does not show it.
 */
static void holder_command(struct lock_holder *h)
{
	char now[sizeof(h->command)];

	proc_command(h->pid, now, sizeof(now));
	if (strcmp(now, "?"))
		memcpy(h->command, now, sizeof(now));
}

static int holder_write(int fd, const char *text)
{
	int e = ftruncate(fd, 0) ? -errno : 0;

	if (!e && *text &&
	    pwrite(fd, text, strlen(text), 0) != (ssize_t)strlen(text))
		e = errno ? -errno : -EIO;
	if (!e && fsync(fd))
		e = -errno;
	if (e)
		return error_ret_err(EXIT_RUN_FAILED, -e, "cannot write '%s'",
				     machine_lock_path());
	return 0;
}

int machine_lock_claim(pid_t owner, uint64_t start, const char *record,
		       struct lock_holder *prev, bool *fresh)
{
	struct lock_holder h;
	char command[256], *text;
	int fd = -1, status = lock_open(true, &fd);
	bool ours;

	memset(prev, 0, sizeof(*prev));
	if (status)
		return status;
	holder_read(fd, &h);
	ours = h.pid == owner && h.start == start;
	if (holder_alive(&h) && !ours) {
		holder_command(&h);
		(void)close(fd); /* nothing written */
		return error_ret(EXIT_UNSUPPORTED,
				 "another run (pid %d: %s) is in progress; it "
				 "holds '%s'",
				 (int)h.pid, h.command, machine_lock_path());
	}
	if (h.pid && !ours)
		*prev = h;
	proc_command(owner, command, sizeof(command));
	text = xasprintf("%d\t%llu\t%u\t%s\t%s\n", (int)owner,
			 (unsigned long long)start, (unsigned)geteuid(), record,
			 command);
	status = holder_write(fd, text);
	free(text);
	if (close(fd) && !status) /* also unlocks */
		status = error_ret_errno(EXIT_RUN_FAILED, "cannot write '%s'",
					 machine_lock_path());
	*fresh = !ours;
	return status;
}

int machine_lock_release(pid_t owner, uint64_t start)
{
	struct lock_holder h;
	int fd = -1, status = lock_open(false, &fd);

	if (status)
		return status == -ENOENT ? 0 : status;
	holder_read(fd, &h);
	if (h.pid == owner && h.start == start)
		status = holder_write(fd, "");
	if (close(fd) && !status)
		status = error_ret_errno(EXIT_RUN_FAILED, "cannot write '%s'",
					 machine_lock_path());
	return status;
}

int machine_lock_holder(struct lock_holder *h, bool *alive)
{
	int fd = -1, status = lock_open(false, &fd);

	memset(h, 0, sizeof(*h));
	*alive = false;
	if (status)
		return status == -ENOENT ? 0 : status;
	holder_read(fd, h);
	*alive = holder_alive(h);
	(void)close(fd); /* nothing written */
	if (*alive)
		holder_command(h);
	return 0;
}
