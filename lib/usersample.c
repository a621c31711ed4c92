// SPDX-License-Identifier: GPL-2.0-or-later
/* User CPU time sampled by a perf software clock: see usersample.h. */
#include <config.h>

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/usersample.h"

int usersample_open(struct usersample *s, uint64_t period_ns, const char **why)
{
	struct perf_event_attr a;
	long page = sysconf(_SC_PAGESIZE);
	int e;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (period_ns < 10000 || page <= 0) {
		*why = "sampling period";
		return -EINVAL;
	}
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = period_ns;
	/*
	 * No sample fields: each record is its 8-byte header alone, and no
	 * other records (mmap, comm, ...) are asked for.
	 */
	a.sample_type = 0;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	s->fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1,
			     PERF_FLAG_FD_CLOEXEC);
	if (s->fd < 0) {
		*why = "perf_event_open";
		return -errno;
	}
	/* Read-only: the kernel overwrites old records, never waits. */
	s->map_len = 2 * (size_t)page;
	s->map = mmap(NULL, s->map_len, PROT_READ, MAP_SHARED, s->fd, 0);
	if (s->map == MAP_FAILED) {
		e = errno;
		s->map = NULL;
		close(s->fd);
		s->fd = -1;
		*why = "mmap";
		return -e;
	}
	s->period_ns = period_ns;
	return 0;
}

uint64_t usersample_count(const struct usersample *s)
{
	const struct perf_event_mmap_page *pg = s->map;

	if (!pg)
		return 0;
	return __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE) /
	       sizeof(struct perf_event_header);
}

void usersample_close(struct usersample *s)
{
	if (s->map)
		munmap(s->map, s->map_len);
	if (s->fd >= 0)
		close(s->fd);
	s->map = NULL;
	s->fd = -1;
}
