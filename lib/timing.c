// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Monotonic time, pacing to absolute deadlines with clock_nanosleep, and
 * hand-written number formatting (printf's "%.4f" costs more than a whole
 * line of latency-output's work).
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lib/timing.h"

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	/* Cannot fail for the clocks used here: valid id, valid pointer. */
	(void)clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

uint64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

uint64_t cpu_ns(void)
{
	return clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

uint64_t thread_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

int sleep_until_ns(uint64_t deadline_ns, const volatile sig_atomic_t *stop)
{
	struct timespec ts = {
		.tv_sec = deadline_ns / NSEC_PER_SEC,
		.tv_nsec = deadline_ns % NSEC_PER_SEC,
	};

	for (;;) {
		int r;

		if (stop && *stop)
			return -EINTR;
		r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (r == 0)
			return 0;
		if (r != EINTR)
			return -r;
	}
}

uint64_t pace_deadline_ns(uint64_t start_ns, uint64_t amount, uint64_t rate)
{
	unsigned __int128 off = (unsigned __int128)amount * NSEC_PER_SEC / rate;

	return start_ns + (uint64_t)off;
}

size_t fmt_u64(char *buf, uint64_t v)
{
	char tmp[21];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

static const uint64_t pow10_tab[] = {
	1ULL,	   10ULL,      100ULL,	    1000ULL,	  10000ULL,
	100000ULL, 1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL,
};

size_t fmt_ns_fixed(char *buf, uint64_t ns, unsigned decimals)
{
	uint64_t unit, scaled, whole, frac;
	size_t n;
	unsigned i;

	if (decimals > 9)
		decimals = 9;
	unit = pow10_tab[9 - decimals];
	/* Round half up in the last printed digit. */
	scaled = ns / unit + (ns % unit >= (unit + 1) / 2 && unit > 1);
	whole = scaled / pow10_tab[decimals];
	frac = scaled % pow10_tab[decimals];
	n = fmt_u64(buf, whole);
	if (!decimals)
		return n;
	buf[n++] = '.';
	for (i = decimals; i > 0; i--) {
		buf[n + i - 1] = (char)('0' + frac % 10);
		frac /= 10;
	}
	return n + decimals;
}

size_t fmt_ns_padded(char *buf, uint64_t ns, unsigned decimals, unsigned width)
{
	char tmp[32];
	size_t n = fmt_ns_fixed(tmp, ns, decimals), pad = 0;

	if (n < width) {
		pad = width - n;
		memset(buf, ' ', pad);
	}
	memcpy(buf + pad, tmp, n);
	return pad + n;
}

char *fmt_duration(char *buf, uint64_t ns)
{
	static const struct {
		uint64_t div;
		const char *unit;
	} units[] = {
		{ NSEC_PER_SEC, "s" },
		{ NSEC_PER_MSEC, "ms" },
		{ NSEC_PER_USEC, "us" },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (ns >= units[i].div) {
			double v = (double)ns / (double)units[i].div;

			snprintf(buf, 32, "%.*f %s",
				 v >= 100  ? 0
				 : v >= 10 ? 1
					   : 2,
				 v, units[i].unit);
			return buf;
		}
	}
	snprintf(buf, 32, "%llu ns", (unsigned long long)ns);
	return buf;
}

char *fmt_mmss(char *buf, double seconds)
{
	unsigned long long ms;

	if (!isfinite(seconds) || seconds < 0 || seconds > 1e15) {
		snprintf(buf, 32, "-");
		return buf;
	}
	ms = (unsigned long long)llround(seconds * 1000.0);
	snprintf(buf, 32, "%02llu:%02llu.%03llu", ms / 60000, ms / 1000 % 60,
		 ms % 1000);
	return buf;
}
