/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SIGINT/SIGTERM/SIGHUP handling shared by every program: the handler only
 * records the signal; loops poll sig_stop and wind down, flush what was
 * measured, and exit with EXIT_SIGNAL(sig_stop).
 */
#ifndef LATENCY_SIG_H
#define LATENCY_SIG_H

#include <signal.h>

/* The number of the first stop signal received, 0 before any. */
extern volatile sig_atomic_t sig_stop;

/*
 * Install the recording handler for SIGINT, SIGTERM and SIGHUP, without
 * SA_RESTART so blocking calls return EINTR, and ignore SIGPIPE (a closed
 * pipe then shows up as EPIPE from write()).  Returns 0 or -errno.
 */
int sig_stop_install(void);

#endif
