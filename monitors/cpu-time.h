/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who used the CPUs (cpu-time.c): the machine's busy time, one process
 * tree's and the kernel threads', in clock ticks (sysconf(_SC_CLK_TCK)).
 */
#ifndef MONITORS_CPU_TIME_H
#define MONITORS_CPU_TIME_H

#include <stdbool.h>
#include <stdint.h>

struct cpu_time {
	uint64_t busy;	   /* all CPUs: user + nice + system */
	uint64_t suite;	   /* the tree of the suite's process */
	uint64_t kthreads; /* every kernel thread alive now */
	bool has_suite;	   /* the suite's process was found */
};

/*
 * Read the CPU times below PROC (/proc, or a fake tree): the busy time
 * from PROC/stat, and from every PROC/PID/stat the kernel threads' and
 * (SUITE_PID not 0) the times of SUITE_PID and its descendants, their
 * waited-for children included.  Returns 0, or -errno or a kparse error
 * when PROC/stat cannot be read; a process that vanishes meanwhile is
 * left out.
 */
int cpu_time_read(const char *proc, long suite_pid, struct cpu_time *t);

#endif
