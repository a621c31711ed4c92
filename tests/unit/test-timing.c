// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for lib/timing: formatting, pacing, clocks. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <string.h>

#include "lib/timing.h"
#include "tests/tap.h"

static const char *fixed(uint64_t ns, unsigned d)
{
	static char buf[40];
	size_t n = fmt_ns_fixed(buf, ns, d);

	buf[n] = '\0';
	return buf;
}

static const char *padded(uint64_t ns, unsigned d, unsigned w)
{
	static char buf[64];
	size_t n = fmt_ns_padded(buf, ns, d, w);

	buf[n] = '\0';
	return buf;
}

int main(void)
{
	static const struct {
		uint64_t ns;
		unsigned d;
		const char *want;
	} cases[] = {
		{ 0, 4, "0.0000" },
		{ 1500000, 4, "0.0015" },
		{ 1000000000ULL, 4, "1.0000" },
		{ 1234567890123ULL, 9, "1234.567890123" },
		{ 1234567890123ULL, 0, "1235" },
		{ 49999, 4, "0.0000" },
		{ 50000, 4, "0.0001" },
		{ 999950000ULL, 4, "1.0000" },
		{ 999949999ULL, 4, "0.9999" },
		{ 18446744073709551615ULL, 9, "18446744073.709551615" },
		{ 7, 12, "0.000000007" },
	};
	char buf[40];
	size_t i, n;
	uint64_t a, b, dl;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		is_str(fixed(cases[i].ns, cases[i].d), cases[i].want,
		       "fmt_ns_fixed(%llu, %u)",
		       (unsigned long long)cases[i].ns, cases[i].d);
	is_str(padded(1500000, 4, 10), "    0.0015", "right-aligned in 10");
	is_str(padded(123456789000000ULL, 4, 8), "123456.7890",
	       "wider than the field is not cut");
	n = fmt_u64(buf, 0);
	buf[n] = '\0';
	is_str(buf, "0", "fmt_u64(0)");
	n = fmt_u64(buf, 18446744073709551615ULL);
	buf[n] = '\0';
	is_str(buf, "18446744073709551615", "fmt_u64(max)");

	is_u64(pace_deadline_ns(1000, 40000, 40000), 1000 + 1000000000ULL,
	       "one second of data at its rate takes one second");
	is_u64(pace_deadline_ns(0, 4000, 40000), 100000000ULL,
	       "4000 bytes at 40000 B/s is 100 ms");
	is_u64(pace_deadline_ns(0, UINT64_MAX / 2, UINT64_MAX / 2),
	       1000000000ULL, "no overflow in the product");

	is_str(fmt_duration(buf, 1234000000ULL), "1.23 s",
	       "fmt_duration 1.23 s");
	is_str(fmt_duration(buf, 87500000ULL), "87.5 ms",
	       "fmt_duration 87.5 ms");
	is_str(fmt_duration(buf, 312000), "312 us", "fmt_duration 312 us");
	is_str(fmt_duration(buf, 45), "45 ns", "fmt_duration 45 ns");

	is_str(fmt_mmss(buf, 692.258), "11:32.258",
	       "fmt_mmss: the 2009 headline's 11:32.258");
	is_str(fmt_mmss(buf, 2.2764), "00:02.276", "two digits of minutes");
	is_str(fmt_mmss(buf, 59.9996), "01:00.000", "rounds into the minute");
	is_str(fmt_mmss(buf, 7200.5), "120:00.500",
	       "minutes never become hours");
	is_str(fmt_mmss(buf, 0), "00:00.000", "zero");
	is_str(fmt_mmss(buf, NAN), "-", "NaN -> '-'");
	is_str(fmt_mmss(buf, -1), "-", "negative -> '-'");

	a = mono_ns();
	dl = a + 20000000ULL;
	is_int(sleep_until_ns(dl, NULL), 0, "sleep_until_ns returns 0");
	b = mono_ns();
	ok(b >= dl, "woke no earlier than the deadline");
	{
		volatile sig_atomic_t stop = 1;

		is_int(sleep_until_ns(mono_ns() + 1000000000ULL, &stop), -EINTR,
		       "a raised stop flag returns -EINTR at once");
	}
	ok(real_ns() > 1600000000ULL * 1000000000ULL, "realtime is after 2020");
	ok(cpu_ns() > 0, "process CPU time is counted");
	return done_testing();
}
