// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for lib/parse: sizes, durations, rates, exact to the byte. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "lib/parse.h"
#include "tests/tap.h"

struct case_ {
	const char *in;
	int ret;
	uint64_t want;
};

static void run(const char *what, int (*fn)(const char *, uint64_t *),
		const struct case_ *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = 0xdeadbeef;
		int r = fn(c[i].in, &v);

		is_int(r, c[i].ret, "%s('%s') returns %d", what, c[i].in,
		       c[i].ret);
		if (!c[i].ret)
			is_u64(v, c[i].want, "%s('%s') = %llu", what, c[i].in,
			       (unsigned long long)c[i].want);
		else
			is_u64(v, 0xdeadbeef, "%s('%s') leaves output alone",
			       what, c[i].in);
	}
}

static int size_bytes(const char *s, uint64_t *v)
{
	return parse_size(s, v);
}

static int size_mib(const char *s, uint64_t *v)
{
	return parse_size_unit(s, 1048576, v);
}

static int rate_rsync(const char *s, uint64_t *v)
{
	return parse_rate(s, 1024, v);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* split_host_port: ringbench's --listen/--connect and fake-music's. */
static void host_port(void)
{
	static const struct {
		const char *in, *host, *port; /* host NULL: -EINVAL */
	} cases[] = {
		{ "127.0.0.1:0", "127.0.0.1", "0" },
		{ "server:7777", "server", "7777" },
		{ "[::1]:65535", "::1", "65535" },
		{ "127.0.0.1:65536", NULL, NULL },
		{ "127.0.0.1", NULL, NULL },
		{ ":80", NULL, NULL },
		{ "host:", NULL, NULL },
		{ "::1:80", NULL, NULL },
		{ "[::1]80", NULL, NULL },
		{ "host:8x", NULL, NULL },
		{ "a]b:80", NULL, NULL },
		{ "a[b:80", NULL, NULL },
		{ "[a[b]:80", NULL, NULL },
		{ "[]:80", NULL, NULL },
	};
	char host[16], port[8];
	size_t i;

	for (i = 0; i < N(cases); i++) {
		int r = split_host_port(cases[i].in, host, sizeof(host), port,
					sizeof(port));

		if (!cases[i].host) {
			is_int(r, -EINVAL, "split_host_port('%s') refused",
			       cases[i].in);
			continue;
		}
		is_int(r, 0, "split_host_port('%s')", cases[i].in);
		is_str(host, cases[i].host, "  host");
		is_str(port, cases[i].port, "  port");
	}
	is_int(split_host_port("a-very-long-host-name:1", host, sizeof(host),
			       port, sizeof(port)),
	       -EINVAL, "a host longer than its buffer is refused");
}

/* The kernel's escapes in /proc/mounts and /proc/swaps, undone. */
static void octal_escapes(void)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "/mnt/a\\040b", "/mnt/a b" },
		{ "/x\\134y\\011z", "/x\\y\tz" },
		{ "/no/escape", "/no/escape" },
		{ "/short\\04", "/short\\04" },
		{ "/bad\\400", "/bad\\400" },
		{ "\\040\\040", "  " },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[64];

		snprintf(buf, sizeof(buf), "%s", cases[i].in);
		parse_octal_escapes(buf);
		is_str(buf, cases[i].want, "octal escapes of '%s'",
		       cases[i].in);
	}
}

/* Control characters: C0 and DEL, not bytes above 0x7f (UTF-8). */
static void control(void)
{
	static const struct {
		const char *s;
		bool want;
	} cases[] = {
		{ "", false },
		{ "plain value", false },
		{ "caf\xc3\xa9", false },
		{ "tab\there", true },
		{ "new\nline", true },
		{ "cr\r", true },
		{ "\x01", true },
		{ "del\x7f", true },
		{ "~", false },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ok(has_control(cases[i].s) == cases[i].want,
		   "has_control, case %zu", i);
}

/* Plain decimals, exactly: mantissa and scale, and the double beside. */
static void decimals(void)
{
	static const struct {
		const char *s;
		int ret;
		uint64_t mant;
		unsigned scale;
	} cases[] = {
		{ "4", 0, 4, 0 },
		{ "2.5", 0, 25, 1 },
		{ "2.50", 0, 25, 1 },
		{ "0", 0, 0, 0 },
		{ "0.001", 0, 1, 3 },
		{ "1.0000000000000000001", 0, 10000000000000000001ULL, 19 },
		{ "1.00000000000000000001", -ERANGE, 0, 0 },
		{ "99999999999999999999", -ERANGE, 0, 0 },
		{ "", -EINVAL, 0, 0 },
		{ ".5", -EINVAL, 0, 0 },
		{ "5.", -EINVAL, 0, 0 },
		{ "-1", -EINVAL, 0, 0 },
		{ "+1", -EINVAL, 0, 0 },
		{ "1e3", -EINVAL, 0, 0 },
		{ "1.2.3", -EINVAL, 0, 0 },
		{ " 1", -EINVAL, 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t mant = 7;
		unsigned scale = 7;
		int r = parse_decimal(cases[i].s, &mant, &scale);

		is_int(r, cases[i].ret, "parse_decimal '%s'", cases[i].s);
		if (!cases[i].ret) {
			ok(mant == cases[i].mant && scale == cases[i].scale,
			   "parse_decimal '%s' is %llu / 10^%u", cases[i].s,
			   (unsigned long long)cases[i].mant, cases[i].scale);
		} else {
			ok(mant == 7 && scale == 7,
			   "parse_decimal '%s' stores nothing", cases[i].s);
		}
	}
	ok(parse_decimal_positive("2.5") == 2.5, "parse_decimal_positive 2.5");
	ok(parse_decimal_positive("0.25") == 0.25,
	   "parse_decimal_positive 0.25");
	ok(isnan(parse_decimal_positive("0")), "parse_decimal_positive 0");
	ok(isnan(parse_decimal_positive("0.000")),
	   "parse_decimal_positive 0.000");
	ok(isnan(parse_decimal_positive("x")), "parse_decimal_positive x");
}

int main(void)
{
	static const struct case_ u64[] = {
		{ "0", 0, 0 },
		{ "42", 0, 42 },
		{ "18446744073709551615", 0, UINT64_MAX },
		{ "18446744073709551616", -ERANGE, 0 },
		{ "99999999999999999999999", -ERANGE, 0 },
		{ "", -EINVAL, 0 },
		{ "-1", -EINVAL, 0 },
		{ " 1", -EINVAL, 0 },
		{ "1 ", -EINVAL, 0 },
		{ "1k", -EINVAL, 0 },
		{ "1.5", -EINVAL, 0 },
		{ "0x10", -EINVAL, 0 },
	};
	static const struct case_ size[] = {
		{ "4096", 0, 4096 },
		{ "64k", 0, 65536 },
		{ "64K", 0, 65536 },
		{ "64KiB", 0, 65536 },
		{ "1M", 0, 1048576 },
		{ "4G", 0, 4294967296ULL },
		{ "1.5G", 0, 1610612736ULL },
		{ "0.5k", 0, 512 },
		{ "2T", 0, 2199023255552ULL },
		{ "15E", 0, 15ULL << 60 },
		{ "16E", -ERANGE, 0 },
		{ "1.5", -EINVAL, 0 },
		{ "12q", -EINVAL, 0 },
		{ "k", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
		{ "1kk", -EINVAL, 0 },
	};
	static const struct case_ mib[] = {
		{ "4096", 0, 4096ULL << 20 },
		{ "64k", 0, 65536 },
		{ "0.5", 0, 524288 },
	};
	static const struct case_ dur[] = {
		{ "250ms", 0, 250000000ULL },
		{ "10s", 0, 10000000000ULL },
		{ "2m", 0, 120000000000ULL },
		{ "1h", 0, 3600000000000ULL },
		{ "1.5", 0, 1500000000ULL },
		{ "0.000000001s", 0, 1 },
		{ "3us", 0, 3000 },
		{ "7ns", 0, 7 },
		{ "1d", 0, 86400000000000ULL },
		{ "10x", -EINVAL, 0 },
		{ "99999999999h", -ERANGE, 0 },
	};
	static const struct case_ rate[] = {
		{ "320kbit", 0, 40000 }, { "128kbit", 0, 16000 },
		{ "2Mbit", 0, 250000 },	 { "1Gbit/s", 0, 125000000 },
		{ "40KB/s", 0, 40960 },	 { "1MB/s", 0, 1048576 },
		{ "2000", 0, 2048000 },	 { "1.5m", 0, 1572864 },
		{ "100B/s", 0, 100 },	 { "12bit", 0, 1 },
		{ "fast", -EINVAL, 0 },	 { "10kbits", -EINVAL, 0 },
	};
	char buf[24];

	run("parse_u64", parse_u64, u64, N(u64));
	run("parse_size", size_bytes, size, N(size));
	run("parse_size_unit(MiB)", size_mib, mib, N(mib));
	run("parse_duration", parse_duration, dur, N(dur));
	run("parse_rate", rate_rsync, rate, N(rate));
	is_str(format_size(buf, 65536), "64k", "format_size(65536)");
	is_str(format_size(buf, 4294967296ULL), "4G", "format_size(4G)");
	is_str(format_size(buf, 1536), "1536", "format_size(1536)");
	is_str(format_size(buf, 0), "0", "format_size(0)");
	host_port();
	octal_escapes();
	control();
	decimals();
	return done_testing();
}
