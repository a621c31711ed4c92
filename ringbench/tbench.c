// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The third measure of the 2008 hunt, tbench, run as it is: dbench's
 * tbench_srv and tbench (package dbench), not a rewrite.  tbench_srv listens
 * on its fixed port 7003; tbench runs for -d seconds against 127.0.0.1 and
 * prints a line a second ("1 26979 61.06 MB/sec execute 1 sec latency
 * 6.594 ms"), an operation table and "Throughput X MB/sec ... max_latency=Y
 * ms".  Those are parsed into the run's figures; each per-second line
 * becomes a progress line with --progress.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "ringbench/ringbench.h"

#define TBENCH_PORT 7003

extern char **environ;

/* The path of executable NAME in $PATH, or NULL. */
static char *which(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;
	struct stat st;

	for (p = path; p && *p; p = *end ? end + 1 : end) {
		char *f;

		end = strchrnul(p, ':');
		f = xasprintf("%.*s/%s", (int)(end - p), end == p ? "." : p,
			      name);
		if (!stat(f, &st) && S_ISREG(st.st_mode) && !access(f, X_OK))
			return f;
		free(f);
	}
	return NULL;
}

/* Start ARGV in its own process group with stdout to OUT_FD (or null). */
static int spawn(char *const argv[], int out_fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int e;

	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	if (out_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	else
		posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO,
						 "/dev/null", O_WRONLY, 0);
	e = posix_spawn(pid, argv[0], &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return -e;
}

/* Wait until something accepts on 127.0.0.1:7003, for up to 5 s. */
static int wait_port(pid_t srv)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(TBENCH_PORT),
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	uint64_t end = mono_ns() + 5 * NSEC_PER_SEC;
	int fd, r;

	while (mono_ns() < end && !sig_stop) {
		if (waitpid(srv, NULL, WNOHANG) == srv)
			return -ESRCH;
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -errno;
		r = connect(fd, (struct sockaddr *)&sin, sizeof(sin));
		(void)close(fd); /* a probe: tbench_srv sees it close */
		if (!r)
			return 0;
		(void)sleep_until_ns(mono_ns() + 20 * NSEC_PER_MSEC, NULL);
	}
	return sig_stop ? -EINTR : -ETIMEDOUT;
}

static void parse_line(struct rb_state *st, struct rb_run *run,
		       const char *line, bool *in_table)
{
	double a, b, c;
	char name[32];
	unsigned secs;

	if (sscanf(line, " %*u %*u %lf MB/sec execute %u sec latency %lf ms",
		   &a, &secs, &b) == 3) {
		run->mb_per_s = a; /* the latest, kept if we are stopped */
		/* A lost progress line does not stop tbench. */
		(void)progress_emit(&st->progress, mono_ns(),
				    "mode=tbench sec=%u mb_per_s=%.2f "
				    "latency_ms=%.3f",
				    secs, a, b);
	} else if (!strncmp(line, " ----", 5)) {
		*in_table = true;
	} else if (*in_table &&
		   sscanf(line, " %31s %lf %lf %lf", name, &a, &b, &c) == 4) {
		run->tb_ops += a;
		run->tb_avg_lat_us += a * b * 1000.0; /* divided at the end */
	} else if (sscanf(line, "Throughput %lf MB/sec", &a) == 1) {
		const char *m = strstr(line, "max_latency=");

		*in_table = false;
		run->mb_per_s = a;
		if (m && sscanf(m, "max_latency=%lf ms", &b) == 1)
			run->tb_max_lat_us = b * 1000.0;
		run->complete = true;
	} else {
		*in_table = *in_table && line[0];
	}
}

/* Read tbench's output until it ends; a stop signal stops tbench. */
static void read_output(struct rb_state *st, struct rb_run *run, int fd,
			pid_t pid)
{
	char buf[4096], *nl;
	size_t have = 0;
	bool in_table = false, killed = false;
	ssize_t n;

	for (;;) {
		n = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (n < 0 && errno == EINTR) {
			if (sig_stop && !killed) {
				(void)kill(-pid, SIGINT); /* it may be gone */
				killed = true;
			}
			continue;
		}
		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		while ((nl = strchr(buf, '\n'))) {
			*nl = '\0';
			parse_line(st, run, buf, &in_table);
			have -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, have + 1);
		}
		if (have == sizeof(buf) - 1)
			have = 0; /* an absurd line: drop it */
	}
}

static int run_tbench(struct rb_state *st, struct rb_run *run,
		      const char *tbench)
{
	const struct rb_opts *o = st->o;
	uint64_t secs = (o->duration_ns + NSEC_PER_SEC - 1) / NSEC_PER_SEC;
	char t[24], cl[24],
		*argv[] = { (char *)tbench, "-t", t, cl, "127.0.0.1", NULL };
	uint64_t start = mono_ns();
	int p[2], e, status;
	pid_t pid;

	snprintf(t, sizeof(t), "%llu", (unsigned long long)(secs ? secs : 1));
	snprintf(cl, sizeof(cl), "%u", o->clients);
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	e = spawn(argv, p[1], &pid);
	(void)close(p[1]); /* the child has its copy */
	if (e) {
		(void)close(p[0]);
		return e;
	}
	read_output(st, run, p[0], pid);
	(void)close(p[0]); /* read to the end */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	run->elapsed_ns = mono_ns() - start;
	if (run->tb_ops > 0) {
		run->tb_avg_lat_us /= run->tb_ops;
		run->elapsed_ns = (secs ? secs : 1) * NSEC_PER_SEC;
	}
	if (sig_stop)
		run->complete = false;
	else if (!WIFEXITED(status) || WEXITSTATUS(status) || !run->complete)
		rb_fail(st, -1,
			"tbench failed (exit status %d) or printed no "
			"\"Throughput\" line",
			WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}

int rb_tbench_run(struct rb_state *st, struct rb_run *run, char *why,
		  size_t len)
{
	char *tbench = which("tbench"), *srv = which("tbench_srv");
	char *argv[] = { srv, NULL };
	pid_t spid;
	int e;

	if (!tbench || !srv) {
		snprintf(why, len,
			 "tbench mode needs dbench's '%s' in PATH (Debian "
			 "package dbench): not found",
			 tbench ? "tbench_srv" : "tbench");
		free(tbench);
		free(srv);
		return -ENOENT;
	}
	e = spawn(argv, -1, &spid);
	if (e)
		rb_fail(st, -e, "cannot run '%s'", srv);
	else if ((e = wait_port(spid)) == -ESRCH)
		rb_fail(st, -1,
			"tbench_srv exited at once (is port %d in use?)",
			TBENCH_PORT);
	else if (e && e != -EINTR)
		rb_fail(st, -e, "tbench_srv is not listening on port %d",
			TBENCH_PORT);
	else if (!e && (e = run_tbench(st, run, tbench)))
		rb_fail(st, -e, "cannot run '%s'", tbench);
	if (!(e == -ESRCH)) {
		(void)kill(-spid, SIGTERM); /* it and the children it forked */
		while (waitpid(spid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	free(tbench);
	free(srv);
	return atomic_load(&st->err) ? -1 : 0;
}
