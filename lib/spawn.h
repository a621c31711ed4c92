/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running another program and waiting for it: the one way latency-tests'
 * programs call a helper (swapoff, latency-machine).
 */
#ifndef LATENCY_SPAWN_H
#define LATENCY_SPAWN_H

/* Flags of spawn_wait(). */
enum {
	SPAWN_QUIET = 1 << 0,	   /* its standard error goes to /dev/null */
	SPAWN_OUT_TO_ERR = 1 << 1, /* its standard output goes to our stderr */
};

/*
 * Run ARGV[0] (found through PATH) with ARGV, the environment inherited,
 * and wait for it, retrying EINTR.  Returns its exit status, 128+N when
 * signal N ended it, or -errno when it could not be started (-ENOENT: no
 * such program).
 */
int spawn_wait(char *const argv[], int flags);
/* As spawn_wait(), the child in directory DIR (NULL: ours); a failed chdir
 * or exec in the child is its exit status 127. */
int spawn_wait_in(const char *dir, char *const argv[], int flags);

/*
 * Run latency-machine ($LATENCY_MACHINE when set, else found through PATH)
 * with the NULL-terminated ARGS (at most 6), as spawn_wait() does: the way
 * a program enters what it changes in the machine-state record.
 */
int spawn_machine(char *const args[], int flags);

#endif
