// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Who used the CPUs, for latency-vmstat --snapshot: the busy time of all
 * CPUs (/proc/stat), the CPU time of one process tree (the driver and
 * every process it started, living ones by their own times and the ones it
 * has waited for by its children's times) and that of the kernel's
 * threads.  Two snapshots around a workload run tell how much CPU the rest
 * of the machine used meanwhile: dividing elapsed time by user CPU time
 * removes the host's speed, not other work inside the machine.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/kparse.h"
#include "lib/xalloc.h"
#include "monitors/cpu-time.h"
#include "monitors/monitor.h"

/* The flag of a kernel thread in /proc/PID/stat (PF_KTHREAD). */
#define PF_KTHREAD 0x00200000ULL
/* Deeper than any real process tree: a loop in a fake /proc ends here. */
#define MAX_DEPTH 256

struct proc_entry {
	long pid;
	struct kparse_pid_cpu c;
};

static int by_pid(const void *a, const void *b)
{
	long x = ((const struct proc_entry *)a)->pid;
	long y = ((const struct proc_entry *)b)->pid;

	return x < y ? -1 : x > y;
}

/* Every process of PROC whose stat can be read, sorted by pid. */
static size_t read_procs(const char *proc, struct proc_entry **out)
{
	struct proc_entry *p = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *e;
	char path[4096], buf[4096];
	DIR *d = opendir(proc);

	*out = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		uint64_t pid;
		ssize_t len;

		if (kparse_u64(e->d_name, strlen(e->d_name), &pid) ||
		    pid > 1U << 30)
			continue;
		snprintf(path, sizeof(path), "%s/%s/stat", proc, e->d_name);
		/* Gone meanwhile, or not a process's stat: left out. */
		len = read_small_file(path, buf, sizeof(buf));
		if (len <= 0)
			continue;
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 256;
			p = xreallocarray(p, alloc, sizeof(*p));
		}
		if (kparse_pid_cpu(buf, (size_t)len, &p[n].c))
			continue;
		p[n++].pid = (long)pid;
	}
	(void)closedir(d); /* read only */
	qsort(p, n, sizeof(*p), by_pid);
	*out = p;
	return n;
}

static const struct proc_entry *find(const struct proc_entry *p, size_t n,
				     long pid)
{
	struct proc_entry key = { .pid = pid };

	return bsearch(&key, p, n, sizeof(*p), by_pid);
}

/* Is E the process ROOT or below it? */
static bool in_tree(const struct proc_entry *p, size_t n,
		    const struct proc_entry *e, long root)
{
	int depth;

	for (depth = 0; e && depth < MAX_DEPTH; depth++) {
		if (e->pid == root)
			return true;
		if (e->c.ppid <= 1)
			return false;
		e = find(p, n, (long)e->c.ppid);
	}
	return false;
}

int cpu_time_read(const char *proc, long suite_pid, struct cpu_time *t)
{
	struct proc_entry *p;
	char path[4096], buf[65536];
	ssize_t len;
	size_t n, i;
	int r;

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "%s/stat", proc);
	len = read_small_file(path, buf, sizeof(buf));
	if (len < 0)
		return (int)len;
	r = kparse_proc_stat_busy(buf, (size_t)len, &t->busy);
	if (r)
		return r;
	n = read_procs(proc, &p);
	for (i = 0; i < n; i++) {
		const struct kparse_pid_cpu *c = &p[i].c;

		if (c->flags & PF_KTHREAD)
			t->kthreads += c->utime + c->stime;
		else if (suite_pid && in_tree(p, n, &p[i], suite_pid))
			t->suite += c->utime + c->stime + c->cutime + c->cstime;
	}
	t->has_suite = suite_pid && find(p, n, suite_pid);
	free(p);
	return 0;
}
