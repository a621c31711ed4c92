/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unbuffered's private interfaces: the pseudo-terminal and the child on it
 * (unbuffered-pty.c), and the line stamper behind --stamp
 * (unbuffered-stamp.c).
 */
#ifndef LATENCY_UNBUFFERED_H
#define LATENCY_UNBUFFERED_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/types.h>

/*
 * Open a pseudo-terminal pair, both ends close-on-exec and neither becoming
 * our controlling terminal, the slave in raw mode (no output translation, no
 * echo, no signal characters) with window size WS.  Returns 0 or -errno.
 */
int pty_open(int *master, int *slave, const struct winsize *ws);

/* How the child is set up; see pty_spawn(). */
struct spawn_opts {
	int slave;	       /* becomes the child's stdout */
	bool merge;	       /* and its stderr too */
	const sigset_t *mask;  /* the child's signal mask */
	const int *reset_sigs; /* signals whose action to restore ... */
	const struct sigaction *reset_acts; /* ... to these */
	size_t n_reset;
};

/* Where the child's set-up failed, reported by pty_spawn(). */
enum spawn_stage {
	SPAWN_OK,
	SPAWN_SETUP, /* setsid, TIOCSCTTY or dup2 */
	SPAWN_EXEC,  /* execvp */
};

/*
 * Fork and run ARGV (found on PATH) in a new session whose controlling
 * terminal is SO->slave, with stdout (and with SO->merge stderr) on it and
 * every other descriptor inherited.  On return *PID is the child (also when
 * it failed to start: reap it) and *STAGE and *ERRNUM say whether and how it
 * failed before exec.  Returns 0, or -errno when fork itself failed.
 */
int pty_spawn(char **argv, const struct spawn_opts *so, pid_t *pid,
	      enum spawn_stage *stage, int *errnum);

/* Longest partial line --stamp holds back before writing it out. */
#define STAMP_HOLD_MAX 65536

/*
 * --stamp: prefix each line with "<seconds>.<9 digits> " of CLOCK_MONOTONIC
 * when the line arrived complete.  A line ends at LF, at CR LF, or at a CR
 * not followed by LF (so progress bars count, as in latency-output).  The
 * bytes of the line follow the stamp unchanged.
 */
struct stamper {
	int fd;	    /* where output goes */
	char *hold; /* the incomplete line, STAMP_HOLD_MAX bytes */
	size_t hold_len;
	uint64_t hold_ns; /* arrival of its newest byte */
	bool cr;	  /* it ends with CR: LF may follow */
	bool cont;	  /* its stamp and start were written already */
	char *out;	  /* output gathered for one write */
	size_t out_len;
};

void stamper_init(struct stamper *s, int fd);
/*
 * Take N bytes that arrived at NOW_NS and write every line they complete.
 * Returns 0 or -errno from write().
 */
int stamper_feed(struct stamper *s, const char *buf, size_t n, uint64_t now_ns);
/* Write the last, unterminated line if any.  Returns 0 or -errno. */
int stamper_finish(struct stamper *s);
void stamper_release(struct stamper *s);

#endif
