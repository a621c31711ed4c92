/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * User CPU time, sampled more densely than the kernel samples it.
 *
 * On a kernel built with tick-based CPU accounting (most distributions:
 * CONFIG_TICK_CPU_ACCOUNTING) getrusage()'s user/system split is the exact
 * on-CPU time divided in the ratio of timer ticks that found the task in
 * each mode: at HZ=250 a run of 3 CPU-seconds is 750 samples, and the
 * user share alone carries a sampling error of 2-3% of user time.  This
 * module samples the calling thread's user mode with a perf software clock
 * in task time (PERF_COUNT_SW_TASK_CLOCK, exclude_kernel): one sample per
 * PERIOD of on-CPU time, counted when it lands in user mode.  Nothing is
 * read back sample by sample: the ring buffer is mapped read-only (the
 * kernel overwrites it) and its head, which only grows, counts the bytes
 * of the header-only sample records written.
 *
 * Unprivileged processes may sample themselves this way at
 * kernel.perf_event_paranoid 2 (exclude_kernel); where perf_event_open is
 * absent or refused (seccomp, paranoid 3, no CONFIG_PERF_EVENTS)
 * usersample_open() says why and the caller keeps getrusage().
 */
#ifndef LATENCY_USERSAMPLE_H
#define LATENCY_USERSAMPLE_H

#include <stddef.h>
#include <stdint.h>

struct usersample {
	int fd;	   /* the perf event, -1 when closed */
	void *map; /* its metadata page and one data page */
	size_t map_len;
	uint64_t period_ns; /* on-CPU time between samples */
};

/*
 * Start sampling the calling thread (not threads it creates: the kernel
 * does not map an inherited per-task event) every
 * PERIOD_NS (>= 10 us) of its CPU time.  Returns 0, or -errno with *WHY
 * set to a static description of what failed ("perf_event_open",
 * "mmap").
 */
int usersample_open(struct usersample *s, uint64_t period_ns, const char **why);
/*
 * The samples taken in user mode so far; the user CPU time between two
 * reads is their difference times period_ns.
 */
uint64_t usersample_count(const struct usersample *s);
/* Stop sampling; safe on a closed or failed struct. */
void usersample_close(struct usersample *s);

#endif
