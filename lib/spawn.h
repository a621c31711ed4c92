/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running another program and waiting for it: the one way latency-tests'
 * programs call a helper (swapoff, latency-machine).
 */
#ifndef LATENCY_SPAWN_H
#define LATENCY_SPAWN_H

/* Flags of spawn_wait(). */
enum {
	SPAWN_QUIET = 1 << 0, /* its standard error goes to /dev/null */
};

/*
 * Run ARGV[0] (found through PATH) with ARGV, the environment inherited,
 * and wait for it, retrying EINTR.  Returns its exit status, 128+N when
 * signal N ended it, or -errno when it could not be started (-ENOENT: no
 * such program).
 */
int spawn_wait(char *const argv[], int flags);

#endif
