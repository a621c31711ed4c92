// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the suite's parsers of the kernel's text formats
 * (lib/kparse), each run on the input as a whole and on each of its
 * lines, from a heap copy of exactly the input's size so a read past the
 * end is an ASan report.  Beyond "no crash" it checks invariants: every
 * pointer a parser returns lies inside its input, a parsed number prints
 * back to the digits it came from, and the lines of a buffer cover it.
 * Built and run by `make fuzz-kparse` (and `make fuzz`).
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/kparse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant that must hold: abort() so libFuzzer keeps the input. */
static void must(int holds, const char *what)
{
	if (holds)
		return;
	fprintf(stderr, "fuzz-kparse: broken invariant: %s\n", what);
	abort();
}

#define CHECK(c) must(!!(c), #c)

/* [P, P + N) lies inside [BUF, BUF + LEN). */
static int inside(const char *buf, size_t len, const char *p, size_t n)
{
	return p >= buf && p <= buf + len && n <= (size_t)(buf + len - p);
}

static void numbers(const char *s, size_t n)
{
	char back[32];
	uint64_t u, f;
	int64_t i;

	if (!kparse_u64(s, n, &u)) {
		/* Leading zeros aside, the digits print back. */
		while (n > 1 && *s == '0') {
			s++;
			n--;
		}
		CHECK((size_t)snprintf(back, sizeof(back), "%" PRIu64, u) == n);
		CHECK(!memcmp(back, s, n));
	}
	if (!kparse_i64(s, n, &i))
		CHECK(n && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9')));
	if (!kparse_fixed(s, n, 9, &f) && !memchr(s, '.', n))
		CHECK(!kparse_u64(s, n, &u) && f == u * 1000000000ULL);
}

static void one_line(const char *s, size_t n)
{
	struct kparse_mountinfo mi;
	struct kparse_syslog sl;
	struct kparse_trace t;
	struct kparse_kmsg k;
	struct kparse_zone z;
	const char *key;
	size_t klen;
	uint64_t v;
	int64_t iv;

	numbers(s, n);
	if (!kparse_kv_line(s, n, &key, &klen, &v))
		CHECK(key == s && klen && klen < n && s[klen] == ' ');
	if (!kparse_kmsg(s, n, &k))
		CHECK(inside(s, n, k.text, k.text_len) &&
		      !memchr(k.text, '\n', k.text_len));
	if (!kparse_syslog_line(s, n, &sl))
		CHECK(inside(s, n, sl.text, sl.text_len));
	if (!kparse_trace_line(s, n, &t)) {
		CHECK(inside(s, n, t.comm, t.comm_len));
		CHECK(inside(s, n, t.event, t.event_len) && t.event_len);
		CHECK(inside(s, n, t.fields, t.fields_len));
		CHECK(t.pid >= 0);
		(void)kparse_trace_field(t.fields, t.fields_len, "pause", &iv);
	}
	(void)kparse_trace_field(s, n, "usect_delayed", &iv);
	if (!kparse_word(s, n, 1, &key, &klen))
		CHECK(inside(s, n, key, klen) && klen);
	if (!kparse_zone_line(s, n, &z) && z.kind != KPARSE_ZONE_OTHER &&
	    z.kind != KPARSE_ZONE_PROTECTION)
		CHECK(inside(s, n, z.name, z.name_len) && z.name_len);
	if (!kparse_mountinfo(s, n, &mi)) {
		CHECK(inside(s, n, mi.root, mi.root_len));
		CHECK(inside(s, n, mi.point, mi.point_len));
		CHECK(inside(s, n, mi.super, mi.super_len));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);
	struct kparse_psi psi;
	const char *line;
	size_t pos = 0, n, covered = 0;
	uint64_t a, b;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	(void)kparse_u64_file(buf, size, &a);
	(void)kparse_kv_find(buf, size, "pswpin", &a);
	(void)kparse_kv_find(buf, size, "allocstall_normal", &a);
	(void)kparse_psi(buf, size, &psi);
	(void)kparse_pid_stat(buf, size, &a, &b);
	(void)kparse_status_kb(buf, size, "VmSwap", &a);
	{
		uint32_t ma, mi;
		bool kb;
		char st;

		(void)kparse_colon_find(buf, size, "MemTotal", &a, &kb);
		(void)kparse_pid_start(buf, size, &st, NULL, &a);
		(void)kparse_dev(buf, size, &ma, &mi);
		(void)kparse_hex_file(buf, size, &a);
	}
	one_line(buf, size);
	while (kparse_line(buf, size, &pos, &line, &n)) {
		CHECK(inside(buf, size, line, n) && !memchr(line, '\n', n));
		covered += n + (pos <= size && line + n < buf + size);
		one_line(line, n);
	}
	CHECK(pos == size && covered == size);
	free(buf);
	return 0;
}
