// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pseudo-terminal and the child on it.  The slave is put in raw mode
 * because its only job is to make isatty(1) true in the child: with OPOST
 * off the line discipline leaves every byte alone (no LF -> CR LF), and with
 * ECHO, ICANON and ISIG off nothing is echoed or turned into a signal.  The
 * child gets a session of its own with the slave as controlling terminal, as
 * a login shell would, so it works when we have no terminal at all.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "lib/err.h"
#include "unbuffered/unbuffered.h"

int pty_open(int *master, int *slave, const struct winsize *ws)
{
	struct termios tio;
	char name[128];
	int m, s, r;

	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0)
		return -errno;
	if (grantpt(m) || unlockpt(m))
		goto fail_m;
	r = ptsname_r(m, name, sizeof(name));
	if (r) {
		errno = r;
		goto fail_m;
	}
	/* O_NOCTTY: the terminal is the child's, never ours. */
	s = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0)
		goto fail_m;
	if (tcgetattr(s, &tio))
		goto fail_s;
	cfmakeraw(&tio);
	if (tcsetattr(s, TCSANOW, &tio) || ioctl(m, TIOCSWINSZ, ws))
		goto fail_s;
	*master = m;
	*slave = s;
	return 0;

fail_s:
	r = -errno;
	close(s);
	close(m);
	return r;
fail_m:
	r = -errno;
	close(m);
	return r;
}

struct spawn_report {
	int stage;
	int errnum;
};

/* In the child: put it on the terminal, or return the failing stage. */
static int child_setup(const struct spawn_opts *so)
{
	size_t i;

	for (i = 0; i < so->n_reset; i++)
		if (sigaction(so->reset_sigs[i], &so->reset_acts[i], NULL))
			return SPAWN_SETUP;
	if (sigprocmask(SIG_SETMASK, so->mask, NULL))
		return SPAWN_SETUP;
	if (setsid() < 0 || ioctl(so->slave, TIOCSCTTY, 0))
		return SPAWN_SETUP;
	if (dup2(so->slave, STDOUT_FILENO) < 0)
		return SPAWN_SETUP;
	if (so->merge && dup2(so->slave, STDERR_FILENO) < 0)
		return SPAWN_SETUP;
	/* The slave itself is close-on-exec. */
	return SPAWN_OK;
}

int pty_spawn(char **argv, const struct spawn_opts *so, pid_t *pid,
	      enum spawn_stage *stage, int *errnum)
{
	struct spawn_report rep = { SPAWN_OK, 0 };
	ssize_t n;
	int pfd[2];

	/* Closed by a successful exec: EOF on it means the child runs. */
	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	*pid = fork();
	if (*pid < 0) {
		int r = -errno;

		close(pfd[0]);
		close(pfd[1]);
		return r;
	}
	if (*pid == 0) {
		close(pfd[0]);
		rep.stage = child_setup(so);
		if (rep.stage == SPAWN_OK) {
			execvp(argv[0], argv);
			rep.stage = SPAWN_EXEC;
		}
		rep.errnum = errno;
		/* Nothing to be done if the parent is gone. */
		(void)write_all(pfd[1], &rep, sizeof(rep));
		_exit(127);
	}
	close(pfd[1]);
	n = read_full(pfd[0], &rep, sizeof(rep));
	close(pfd[0]);
	if (n != (ssize_t)sizeof(rep)) {
		/* EOF (or a short report, which cannot happen): it runs. */
		rep.stage = SPAWN_OK;
		rep.errnum = 0;
	}
	*stage = rep.stage;
	*errnum = rep.errnum;
	return 0;
}
