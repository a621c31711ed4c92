// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/usersample: the sampled user time of a loop that
 * never leaves user mode is its CPU time, and of one that spends it in
 * read(2) a small part of it.  Not a timed test: both sides are the same
 * thread's CPU time, counted two ways.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/timing.h"
#include "lib/usersample.h"
#include "tests/tap.h"

#define PERIOD_NS (1000 * 1000ULL)
#define SPAN_NS (300 * 1000 * 1000ULL)

static volatile uint64_t sink;

/* Sampled user time over SPAN_NS of CPU time of the user loop or read(2). */
static double share(const struct usersample *s, bool in_kernel)
{
	static char buf[1 << 20];
	uint64_t c0 = thread_cpu_ns(), n0 = usersample_count(s), x = 1;
	int fd = in_kernel ? open("/dev/zero", O_RDONLY | O_CLOEXEC) : -1;

	if (in_kernel && fd < 0)
		return -1;
	while (thread_cpu_ns() - c0 < SPAN_NS) {
		if (in_kernel) {
			/*
			 * Not read(): a sanitizer's interceptor would check
			 * the buffer in user mode.
			 */
			if (syscall(SYS_read, fd, buf, sizeof(buf)) < 0)
				break;
		} else {
			for (int i = 0; i < 100000; i++)
				x = x * 6364136223846793005ULL + 1;
			sink = x;
		}
	}
	if (fd >= 0)
		close(fd);
	return (double)((usersample_count(s) - n0) * s->period_ns) /
	       (double)(thread_cpu_ns() - c0);
}

int main(void)
{
	struct usersample s;
	const char *why = NULL;
	double u, k;
	int r;

	r = usersample_open(&s, 5000, &why);
	is_int(r, -EINVAL, "a period below 10 us is refused");
	is_str(why ? why : "", "sampling period", "... and named");
	is_int(s.fd, -1, "... with nothing open");
	usersample_close(&s);

	r = usersample_open(&s, PERIOD_NS, &why);
	if (r == -EACCES || r == -EPERM || r == -ENOENT || r == -ENOSYS ||
	    r == -EOPNOTSUPP || r == -ENODEV) {
		static char msg[128];

		snprintf(msg, sizeof(msg), "%s: %s", why, strerror(-r));
		skip_all(msg);
	}
	is_int(r, 0, "usersample_open(1 ms)");
	is_u64(s.period_ns, PERIOD_NS, "the period is kept");
	u = share(&s, false);
	ok(u > 0.7 && u < 1.1,
	   "a loop in user mode: sampled user time %.3f of its CPU time", u);
	k = share(&s, true);
	ok(k >= 0 && k < 0.3,
	   "read(2) of /dev/zero: sampled user time %.3f of its CPU time", k);
	usersample_close(&s);
	is_u64(usersample_count(&s), 0, "closed: no samples");
	usersample_close(&s);
	ok(s.fd == -1 && !s.map, "closing twice is harmless");
	return done_testing();
}
