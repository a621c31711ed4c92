// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/kparse: every kernel format the monitors read,
 * what it must accept exactly and what it must refuse (signs, overflow,
 * junk, doubled or missing separators).  Inputs are copied into buffers of
 * their exact length, without a NUL, so that a read past the end shows up
 * under the sanitizers.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/kparse.h"
#include "tests/tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
/* A string literal and its length, without the NUL. */
#define LIT(s) s, sizeof(s) - 1

/* S without its NUL, in a heap block of exactly its length. */
static char *exact(const char *s)
{
	size_t n = strlen(s);
	char *p = malloc(n ? n : 1);

	if (!p)
		abort();
	memcpy(p, s, n);
	return p;
}

/* S with '\n' and '\t' written as escapes, for a one-line TAP description. */
static const char *vis(const char *s)
{
	static char buf[4][256];
	static int k;
	char *b = buf[k++ % 4];
	size_t n = 0;

	for (; *s && n + 3 < sizeof(buf[0]); s++) {
		if (*s == '\n' || *s == '\t') {
			b[n++] = '\\';
			b[n++] = *s == '\n' ? 'n' : 't';
		} else {
			b[n++] = *s;
		}
	}
	b[n] = '\0';
	return b;
}

struct num_case {
	const char *in;
	int ret;
	uint64_t want;
};

static void test_u64(void)
{
	static const struct num_case c[] = {
		{ "0", 0, 0 },
		{ "42", 0, 42 },
		{ "007", 0, 7 },
		{ "18446744073709551615", 0, UINT64_MAX },
		{ "18446744073709551616", -ERANGE, 0 },
		{ "99999999999999999999999", -ERANGE, 0 },
		{ "-5", -EINVAL, 0 },
		{ "+5", -EINVAL, 0 },
		{ " 5", -EINVAL, 0 },
		{ "5 ", -EINVAL, 0 },
		{ "5\n", -EINVAL, 0 },
		{ "5x", -EINVAL, 0 },
		{ "0x10", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
		/* junk wins over overflow: a malformed field is malformed */
		{ "99999999999999999999999x", -EINVAL, 0 },
	};
	size_t i;

	for (i = 0; i < N(c); i++) {
		char *s = exact(c[i].in);
		uint64_t v = 0xdead;
		int r = kparse_u64(s, strlen(c[i].in), &v);

		is_int(r, c[i].ret, "kparse_u64('%s') returns %d", vis(c[i].in),
		       c[i].ret);
		is_u64(v, c[i].ret ? 0xdead : c[i].want,
		       "kparse_u64('%s') value", vis(c[i].in));
		free(s);
	}
}

static void test_i64(void)
{
	static const struct {
		const char *in;
		int ret;
		int64_t want;
	} c[] = {
		{ "0", 0, 0 },
		{ "-12", 0, -12 },
		{ "9223372036854775807", 0, INT64_MAX },
		{ "9223372036854775808", -ERANGE, 0 },
		{ "-9223372036854775808", 0, INT64_MIN },
		{ "-9223372036854775809", -ERANGE, 0 },
		{ "+1", -EINVAL, 0 },
		{ "-", -EINVAL, 0 },
		{ "--1", -EINVAL, 0 },
		{ "1-", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
	};
	size_t i;

	for (i = 0; i < N(c); i++) {
		char *s = exact(c[i].in);
		int64_t v = 77;
		int r = kparse_i64(s, strlen(c[i].in), &v);

		is_int(r, c[i].ret, "kparse_i64('%s') returns %d", c[i].in,
		       c[i].ret);
		is_int(v, c[i].ret ? 77 : c[i].want, "kparse_i64('%s') value",
		       c[i].in);
		free(s);
	}
}

static void test_fixed(void)
{
	static const struct {
		const char *in;
		unsigned scale;
		int ret;
		uint64_t want;
	} c[] = {
		{ "1.50", 2, 0, 150 },
		{ "0.05", 2, 0, 5 },
		{ "100.00", 2, 0, 10000 },
		{ "3", 2, 0, 300 },
		{ "1.5", 2, 0, 150 },
		{ "1.505", 2, -EINVAL, 0 },
		{ "1.", 2, -EINVAL, 0 },
		{ ".5", 2, -EINVAL, 0 },
		{ "-1.50", 2, -EINVAL, 0 },
		{ "1.-5", 2, -EINVAL, 0 },
		{ "1..5", 2, -EINVAL, 0 },
		{ "12.000345", 9, 0, 12000345000ULL },
		{ "12345.678901", 9, 0, 12345678901000ULL },
		{ "0.000000001", 9, 0, 1 },
		{ "18446744073.709551615", 9, 0, UINT64_MAX },
		{ "18446744073.709551616", 9, -ERANGE, 0 },
		{ "18446744074", 9, -ERANGE, 0 },
		{ "1.0", 10, -EINVAL, 0 },
		{ "1.234567", 6, 0, 1234567 },
	};
	size_t i;

	for (i = 0; i < N(c); i++) {
		char *s = exact(c[i].in);
		uint64_t v = 0xdead;
		int r = kparse_fixed(s, strlen(c[i].in), c[i].scale, &v);

		is_int(r, c[i].ret, "kparse_fixed('%s', %u) returns %d",
		       c[i].in, c[i].scale, c[i].ret);
		is_u64(v, c[i].ret ? 0xdead : c[i].want,
		       "kparse_fixed('%s', %u) value", c[i].in, c[i].scale);
		free(s);
	}
}

static void test_lines_and_files(void)
{
	const char *text = "a 1\n\nb 2";
	char *s = exact(text);
	const char *line;
	size_t pos = 0, n, count = 0;
	char got[64] = "";
	uint64_t v = 0;

	while (kparse_line(s, strlen(text), &pos, &line, &n)) {
		strncat(got, line, n);
		strcat(got, "|");
		count++;
	}
	is_int(count, 3, "three lines, the empty one included");
	is_str(got, "a 1||b 2|", "their text");
	free(s);

	is_int(kparse_u64_file(LIT("123\n"), &v), 0, "memory.current");
	is_u64(v, 123, "memory.current value");
	is_int(kparse_u64_file(LIT("123"), &v), 0, "no final newline");
	is_int(kparse_u64_file(LIT("123\n\n"), &v), -EINVAL, "two newlines");
	is_int(kparse_u64_file(LIT("max\n"), &v), -EINVAL, "'max'");
	is_int(kparse_u64_file(LIT("\n"), &v), -EINVAL, "empty");
}

static void test_kv(void)
{
	const char *vmstat =
		"nr_free_pages 960369\npgscan 5\n"
		"pgscan_kswapd 12\npswpin -5\npswpout 99999999999"
		"999999999999\nbad\ttab 1\nnovalue\ntwo  spaces 3\n"
		"pgmajfault 7";
	static const struct num_case c[] = {
		{ "nr_free_pages", 0, 960369 },
		{ "pgscan", 0, 5 },
		{ "pgscan_kswapd", 0, 12 },
		{ "pgmajfault", 0, 7 }, /* last line, no newline */
		{ "pswpin", -EINVAL, 0 },
		{ "pswpout", -ERANGE, 0 },
		{ "novalue", -EINVAL, 0 },
		{ "two", -EINVAL, 0 },
		{ "pgsteal", -ENOENT, 0 },
		{ "nr_free", -ENOENT, 0 },
	};
	char *s = exact(vmstat);
	const char *key;
	size_t i, klen;
	uint64_t v;

	for (i = 0; i < N(c); i++) {
		v = 0xdead;
		is_int(kparse_kv_find(s, strlen(vmstat), c[i].in, &v), c[i].ret,
		       "kv_find '%s' returns %d", c[i].in, c[i].ret);
		is_u64(v, c[i].ret ? 0xdead : c[i].want, "kv_find '%s' value",
		       c[i].in);
	}
	free(s);
	is_int(kparse_kv_line(LIT("allocstall_normal 3"), &key, &klen, &v), 0,
	       "kv_line");
	ok(klen == 17 && !memcmp(key, "allocstall_normal", 17) && v == 3,
	   "kv_line key and value");
	is_int(kparse_kv_line(LIT(" 3"), &key, &klen, &v), -EINVAL,
	       "kv_line without a key");
	is_int(kparse_kv_line(LIT("x 3 4"), &key, &klen, &v), -EINVAL,
	       "kv_line with two values");
}

static void test_psi(void)
{
	static const char good[] =
		"some avg10=1.50 avg60=0.25 avg300=0.00 total=100\n"
		"full avg10=0.00 avg60=0.00 avg300=100.00 total=40\n";
	static const char *const bad[] = {
		"some avg10=1.50 avg60=0.25 avg300=0.00 total=-100\n",
		"some avg10=1.50 avg60=0.25 avg300=0.00 total=1 x=2\n",
		"some avg10=1.50 avg60=0.25 avg300=0.00 total=1 \n",
		"some avg10=1.50  avg60=0.25 avg300=0.00 total=1\n",
		"some avg60=0.25 avg10=1.50 avg300=0.00 total=1\n",
		"some avg10=1.505 avg60=0.25 avg300=0.00 total=1\n",
		"some avg10=1.50 avg60=0.25 avg300=0.00\n",
		"half avg10=1.50 avg60=0.25 avg300=0.00 total=1\n",
		/* The same line twice: one malformed input. */
		("some avg10=0.00 avg60=0.00 avg300=0.00 total=1\n"
		 "some avg10=0.00 avg60=0.00 avg300=0.00 total=2\n"),
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=1\n\n",
	};
	struct kparse_psi p;
	char *s = exact(good);
	size_t i;

	is_int(kparse_psi(s, strlen(good), &p), 0, "psi: a good file");
	ok(p.some.have && p.some.avg10 == 150 && p.some.avg60 == 25 &&
		   p.some.avg300 == 0 && p.some.total_us == 100,
	   "psi: some line");
	ok(p.full.have && p.full.avg300 == 10000 && p.full.total_us == 40,
	   "psi: full line");
	free(s);
	is_int(kparse_psi(LIT("some avg10=0.00 avg60=0.00 avg300=0.00 total=9"),
			  &p),
	       0, "psi: some only");
	ok(p.some.have && p.some.total_us == 9 && !p.full.have,
	   "psi: full absent");
	for (i = 0; i < N(bad); i++) {
		s = exact(bad[i]);
		is_int(kparse_psi(s, strlen(bad[i]), &p), -EINVAL,
		       "psi: refuses bad case %zu", i);
		free(s);
	}
}

static void test_pid(void)
{
	static const char stat[] = "4242 (fake) gitk) R 1 4242 4242 0 -1 "
				   "4194560 100 0 30 2 5 6 0 0\n";
	static const char *const bad[] = {
		"4242 (x) R 1 4242 4242 0 -1 4194560 100 0 -30 2 5\n",
		"4242 (x) R 1 4242 4242 0 -1 4194560 100 0 30\n",
		"4242 (x) R 1 4242 4242 0 -1 4194560 100 0 30 2x 5\n",
		"4242 (x) RR 1 4242 4242 0 -1 4194560 100 0 30 2 5\n",
		"4242 x R 1 4242 4242 0 -1 4194560 100 0 30 2 5\n",
		"4242 (x)",
	};
	static const char status[] = "Name:\tfake gitk\nVmSwapX:\t1 kB\n"
				     "VmSwap:\t    1024 kB\n";
	uint64_t maj = 0, cmaj = 0;
	char *s = exact(stat);
	size_t i;

	is_int(kparse_pid_stat(s, strlen(stat), &maj, &cmaj), 0,
	       "pid stat with ')' in the name");
	ok(maj == 30 && cmaj == 2, "majflt 30, cmajflt 2");
	free(s);
	for (i = 0; i < N(bad); i++) {
		s = exact(bad[i]);
		ok(kparse_pid_stat(s, strlen(bad[i]), &maj, &cmaj) < 0,
		   "pid stat: refuses bad case %zu", i);
		free(s);
	}
	s = exact(status);
	is_int(kparse_status_kb(s, strlen(status), "VmSwap", &maj), 0,
	       "VmSwap");
	is_u64(maj, 1024, "VmSwap value");
	is_int(kparse_status_kb(s, strlen(status), "VmRSS", &maj), -ENOENT,
	       "VmRSS absent");
	free(s);
	is_int(kparse_status_kb(LIT("VmSwap:\t-1 kB"), "VmSwap", &maj), -EINVAL,
	       "negative VmSwap");
	is_int(kparse_status_kb(LIT("VmSwap:\t1 MB"), "VmSwap", &maj), -EINVAL,
	       "VmSwap in MB");
	is_int(kparse_status_kb(LIT("VmSwap:1 kB"), "VmSwap", &maj), -EINVAL,
	       "VmSwap without a blank");
}

static void test_kmsg(void)
{
	static const char rec[] = "6,1234,5678901,-,caller=T1;hello; world\n"
				  " SUBSYSTEM=x\n";
	static const char *const bad[] = {
		"6,-1234,5678901,-;x\n", "6,1234,5678901;x\n",
		"6,1234,5678901,;x\n",	 "6,1234,+5678901,-;x\n",
		"6 ,1234,5678901,-;x\n", "4294967296,1,1,-;x\n",
		"6,1234,5678901,-\n;x",	 "",
	};
	struct kparse_kmsg k;
	char *s = exact(rec);
	size_t i;

	is_int(kparse_kmsg(s, strlen(rec), &k), 0, "kmsg record");
	ok(k.pri == 6 && k.seq == 1234 && k.ts_us == 5678901,
	   "kmsg pri, seq, time");
	ok(k.text_len == 12 && !memcmp(k.text, "hello; world", 12),
	   "kmsg text up to the newline");
	free(s);
	is_int(kparse_kmsg(LIT("14,2,3,c;"), &k), 0, "kmsg: empty text");
	is_int(k.text_len, 0, "kmsg: empty text length");
	for (i = 0; i < N(bad); i++) {
		s = exact(bad[i]);
		ok(kparse_kmsg(s, strlen(bad[i]), &k) < 0,
		   "kmsg: refuses bad case %zu", i);
		free(s);
	}
}

static void test_syslog(void)
{
	static const char line[] = "<4>[   12.345678] page allocation failure";
	static const char *const bad[] = {
		"<-4>[   12.345678] x",
		"<4>[  -12.345678] x",
		"<4>[   12.3456789] x",
		"<4> [   12.345678] x",
		"<4>[   12.345678 x",
		"4>[   12.345678] x",
		"<4>x",
		"<>[1.0] x",
	};
	struct kparse_syslog l;
	char *s = exact(line);
	size_t i;

	is_int(kparse_syslog_line(s, strlen(line), &l), 0, "syslog line");
	ok(l.pri == 4 && l.ts_us == 12345678, "syslog pri and time");
	ok(l.text_len == 23 && !memcmp(l.text, "page allocation failure", 23),
	   "syslog text");
	free(s);
	is_int(kparse_syslog_line(LIT("<6>[1.000000]"), &l), 0,
	       "syslog: no text");
	is_int(l.text_len, 0, "syslog: empty text");
	for (i = 0; i < N(bad); i++) {
		s = exact(bad[i]);
		ok(kparse_syslog_line(s, strlen(bad[i]), &l) < 0,
		   "syslog: refuses '%s'", vis(bad[i]));
		free(s);
	}
}

struct trace_case {
	const char *in;
	const char *comm;
	int pid;
	unsigned cpu;
	uint64_t ts_ns;
	const char *event;
	const char *fields;
};

static void test_trace(void)
{
	static const struct trace_case good[] = {
		{ "       fake-gitk-4242    [001] d..2.  1234.567890: "
		  "mm_vmscan_direct_reclaim_begin: order=0 "
		  "gfp_flags=GFP_KERNEL",
		  "fake-gitk", 4242, 1, 1234567890000ULL,
		  "mm_vmscan_direct_reclaim_begin",
		  "order=0 gfp_flags=GFP_KERNEL" },
		/* no irq-info column */
		{ "           <...>-7       [000]     5.000001: "
		  "mm_compaction_end: status=complete",
		  "<...>", 7, 0, 5000001000ULL, "mm_compaction_end",
		  "status=complete" },
		/* a command name with " [", digits and a dash */
		{ "a -1 [2] b-99 [003] .... 10.5: ev: x=1", "a -1 [2] b", 99, 3,
		  10500000000ULL, "ev", "x=1" },
		/* the record-tgid column */
		{ "      bash-1234    (   1200) [001] d..1. 99.000000: ev: ",
		  "bash", 1234, 1, 99000000000ULL, "ev", "" },
		{ "x-1 [0] 1.0: ev:", "x", 1, 0, 1000000000ULL, "ev", "" },
	};
	static const char *const bad[] = {
		"CPU:1 [LOST 123 EVENTS]",
		"x-1 [0] d..1. -1.000000: ev: a=1",
		"x-1 [-1] d..1. 1.000000: ev: a=1",
		"x-1 [0] d..1. 1.0000000000: ev: a=1",
		"x-1 [0] d..1. 1.000000 ev: a=1",
		"x-1 [0] a b 1.000000: ev: a=1",
		"x-1 [0] 1.000000: e-v: a=1",
		"x-1 [0] 1.000000: ev:a=1",
		"x-99999999999 [0] 1.000000: ev: a=1",
		"-1 [0] 1.000000: ev: a=1",
		"x-1[0] 1.000000: ev: a=1",
		"",
	};
	struct kparse_trace t;
	size_t i;
	char *s;

	for (i = 0; i < N(good); i++) {
		const struct trace_case *c = &good[i];
		bool same;

		s = exact(c->in);
		memset(&t, 0, sizeof(t));
		is_int(kparse_trace_line(s, strlen(c->in), &t), 0,
		       "trace line %zu", i);
		same = t.comm_len == strlen(c->comm) &&
		       !memcmp(t.comm, c->comm, t.comm_len) &&
		       t.pid == c->pid && t.cpu == c->cpu &&
		       t.ts_ns == c->ts_ns && t.event_len == strlen(c->event) &&
		       !memcmp(t.event, c->event, t.event_len) &&
		       t.fields_len == strlen(c->fields) &&
		       !memcmp(t.fields, c->fields, t.fields_len);
		ok(same, "trace line %zu: comm, pid, cpu, time, event, fields",
		   i);
		free(s);
	}
	for (i = 0; i < N(bad); i++) {
		s = exact(bad[i]);
		is_int(kparse_trace_line(s, strlen(bad[i]), &t), -EINVAL,
		       "trace: refuses '%s'", vis(bad[i]));
		free(s);
	}
}

static void test_trace_field(void)
{
	static const char f[] = "bdi 8:0: limit=100 pause=-12 period=200 "
				"paused=0 big=9223372036854775808 "
				"usect_delayed=+5 x=1x";
	static const struct {
		const char *key;
		int ret;
		int64_t want;
	} c[] = {
		{ "limit", 0, 100 },   { "pause", 0, -12 },
		{ "period", 0, 200 },  { "paused", 0, 0 },
		{ "big", -ERANGE, 0 }, { "usect_delayed", -EINVAL, 0 },
		{ "x", -EINVAL, 0 },   { "bdi", -ENOENT, 0 },
		{ "pau", -ENOENT, 0 }, { "usec_delayed", -ENOENT, 0 },
	};
	char *s = exact(f);
	size_t i;

	for (i = 0; i < N(c); i++) {
		int64_t v = 77;

		is_int(kparse_trace_field(s, strlen(f), c[i].key, &v), c[i].ret,
		       "trace field '%s' returns %d", c[i].key, c[i].ret);
		is_int(v, c[i].ret ? 77 : c[i].want, "trace field '%s' value",
		       c[i].key);
	}
	free(s);
	is_str(kparse_strerror(-EINVAL), "malformed", "strerror EINVAL");
	is_str(kparse_strerror(-ERANGE), "number out of range",
	       "strerror ERANGE");
}

/* Several keys of a vmstat file in one pass, a prefix summed. */
static void test_kv_pick(void)
{
	static const char vm[] = "nr_dirty 71\nallocstall_dma 0\n"
				 "allocstall_normal 30\npswpin 17\n"
				 "pswpin 99\nallocstall_movable 400\n"
				 "allocstalls 5\nunread -1\n";
	static const char *const keys[] = { "pswpin", "allocstall*",
					    "pgscan_direct", "nr_dirty" };
	static const char *const bad_keys[] = { "nr_dirty", "unread" };
	static const char over[] = "a_x 18446744073709551615\na_y 1\n";
	static const char *const sum_a[] = { "a*" };
	uint64_t v[4];
	bool have[4];
	size_t bad = 99;
	char *s = exact(vm);

	is_int(kparse_kv_pick(s, strlen(vm), keys, 4, v, have, &bad), 0,
	       "kv_pick: four keys, one pass");
	ok(have[0] && v[0] == 17, "pswpin: the first line of the key");
	ok(have[1] && v[1] == 430, "allocstall*: allocstall_* summed, "
				   "not allocstalls");
	ok(!have[2] && v[2] == 0, "pgscan_direct absent");
	ok(have[3] && v[3] == 71, "nr_dirty");
	is_int(kparse_kv_pick(s, strlen(vm), bad_keys, 2, v, have, &bad),
	       -EINVAL, "a key's line that does not parse");
	is_int((int)bad, 1, "is named by its index");
	free(s);
	is_int(kparse_kv_pick(LIT(over), sum_a, 1, v, have, &bad), -ERANGE,
	       "a sum past 64 bits");
}

/* /proc/meminfo, and the start time of /proc/PID/stat. */
static void test_meminfo_start(void)
{
	static const char mem[] = "MemTotal:       16384 kB\n"
				  "MemFree:          100 kB\n"
				  "HugePages_Total:       4\n"
				  "Hugepagesize:       2048 kB\n";
	static const struct {
		const char *key;
		int ret;
		uint64_t want;
		bool kb;
	} c[] = {
		{ "MemTotal", 0, 16384, true },
		{ "MemFree", 0, 100, true },
		{ "HugePages_Total", 0, 4, false },
		{ "Hugepagesize", 0, 2048, true },
		{ "MemAvailable", -ENOENT, 0, false },
		{ "Mem", -ENOENT, 0, false },
	};
	static const char stat[] = "77 (a) b) S 1 2 3 0 -1 4194560 5 6 7 8 9 "
				   "10 -11 -12 20 0 3 0 123456 0 0\n";
	static const char *const bad[] = {
		"77 (a) S 1 2 3 0 -1 4194560 5 6 7 8 9 10 11 12 20 0 3 0\n",
		"77 (a) S 1 2 3 0 -1 4194560 5 6 7 8 9 10 11 12 20 0 3 0 -5\n",
		"77 (a) S 1 2 3 0 -1 -4194560 5 6 7 8 9 10 11 12 20 0 3 0 5\n",
	};
	char *s = exact(mem), state = '?';
	int64_t ppid = 0;
	uint64_t v = 0;
	bool kb = false;
	size_t i;

	for (i = 0; i < N(c); i++) {
		is_int(kparse_colon_find(s, strlen(mem), c[i].key, &v, &kb),
		       c[i].ret, "meminfo %s: %d", c[i].key, c[i].ret);
		if (!c[i].ret)
			ok(v == c[i].want && kb == c[i].kb,
			   "meminfo %s: %llu, kB %d", c[i].key,
			   (unsigned long long)c[i].want, c[i].kb);
	}
	free(s);
	is_int(kparse_colon_find(LIT("MemTotal: 5 MB\n"), "MemTotal", &v, &kb),
	       -EINVAL, "a unit other than kB is junk");
	s = exact(stat);
	is_int(kparse_pid_start(s, strlen(stat), &state, &ppid, &v), 0,
	       "pid stat: start time");
	ok(state == 'S' && ppid == 1 && v == 123456,
	   "state S, parent 1, started at tick 123456");
	free(s);
	for (i = 0; i < N(bad); i++) {
		s = exact(bad[i]);
		ok(kparse_pid_start(s, strlen(bad[i]), &state, NULL, &v) < 0,
		   "pid start: refuses bad case %zu", i);
		free(s);
	}
}

/* Words of /proc/swaps and mounts, sysfs dev and hex files. */
static void test_words_dev_hex(void)
{
	static const char line[] = "/dev/sda2 \t partition  8388604 0 -2";
	static const struct {
		const char *in;
		int ret;
		uint32_t major, minor;
	} dev[] = {
		{ "8:0\n", 0, 8, 0 },
		{ "253:17", 0, 253, 17 },
		{ "4294967295:1\n", 0, UINT32_MAX, 1 },
		{ "4294967296:1\n", -ERANGE, 0, 0 },
		{ "8:\n", -EINVAL, 0, 0 },
		{ ":1\n", -EINVAL, 0, 0 },
		{ "8 0\n", -EINVAL, 0, 0 },
		{ "8:0\n\n", -EINVAL, 0, 0 },
	};
	static const struct {
		const char *in;
		int ret;
		uint64_t want;
	} hex[] = {
		{ "8000000\n", 0, 0x8000000 },
		{ "ffffffffffffffff", 0, UINT64_MAX },
		{ "1ffffffffffffffff", -ERANGE, 0 },
		{ "0x10", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
		{ "12g", -EINVAL, 0 },
	};
	const char *w;
	size_t n, i;
	uint32_t ma = 0, mi = 0;
	uint64_t v = 0;

	is_int(kparse_word(LIT(line), 0, &w, &n), 0, "word 0");
	ok(n == 9 && !memcmp(w, "/dev/sda2", 9), "is the device");
	is_int(kparse_word(LIT(line), 1, &w, &n), 0, "word 1");
	ok(n == 9 && !memcmp(w, "partition", 9), "runs of blanks are one");
	is_int(kparse_word(LIT(line), 4, &w, &n), 0, "word 4");
	ok(n == 2 && !memcmp(w, "-2", 2), "the last, to the end");
	is_int(kparse_word(LIT(line), 5, &w, &n), -ENOENT, "no word 5");
	is_int(kparse_word(LIT("  "), 0, &w, &n), -ENOENT, "no word at all");
	for (i = 0; i < N(dev); i++) {
		char *s = exact(dev[i].in);

		is_int(kparse_dev(s, strlen(dev[i].in), &ma, &mi), dev[i].ret,
		       "dev '%s'", vis(dev[i].in));
		if (!dev[i].ret)
			ok(ma == dev[i].major && mi == dev[i].minor,
			   "dev '%s' numbers", vis(dev[i].in));
		free(s);
	}
	for (i = 0; i < N(hex); i++) {
		char *s = exact(hex[i].in);

		is_int(kparse_hex_file(s, strlen(hex[i].in), &v), hex[i].ret,
		       "hex '%s'", vis(hex[i].in));
		if (!hex[i].ret)
			is_u64(v, hex[i].want, "hex '%s' value",
			       vis(hex[i].in));
		free(s);
	}
}

static void test_zoneinfo(void)
{
	static const struct {
		const char *in;
		int ret;
		enum kparse_zone_kind kind;
		const char *name;
		uint64_t val; /* HEAD: the node */
	} c[] = {
		{ "Node 0, zone      DMA", 0, KPARSE_ZONE_HEAD, "DMA", 0 },
		{ "Node 12, zone   Normal", 0, KPARSE_ZONE_HEAD, "Normal", 12 },
		{ "  pages free     3840", 0, KPARSE_ZONE_FIELD, "pages free",
		  3840 },
		{ "        min      12", 0, KPARSE_ZONE_FIELD, "min", 12 },
		{ "        protection: (0, 2688, 23826, 23826)", 0,
		  KPARSE_ZONE_PROTECTION, NULL, 23826 },
		{ "        protection: (0)", 0, KPARSE_ZONE_PROTECTION, NULL,
		  0 },
		{ "  per-node stats", 0, KPARSE_ZONE_OTHER, NULL, 0 },
		{ "  pagesets", 0, KPARSE_ZONE_OTHER, NULL, 0 },
		{ "      nr_free_pages -5", 0, KPARSE_ZONE_OTHER, NULL, 0 },
		{ "", 0, KPARSE_ZONE_OTHER, NULL, 0 },
		{ "        min      99999999999999999999999", -ERANGE,
		  KPARSE_ZONE_OTHER, NULL, 0 },
		{ "Node x, zone DMA", -EINVAL, KPARSE_ZONE_OTHER, NULL, 0 },
		{ "Node 0 zone DMA", -EINVAL, KPARSE_ZONE_OTHER, NULL, 0 },
		{ "Node 0, zone DMA extra", -EINVAL, KPARSE_ZONE_OTHER, NULL,
		  0 },
		{ "        protection: (0, -1)", -EINVAL, KPARSE_ZONE_OTHER,
		  NULL, 0 },
		{ "        protection: (0, 2", -EINVAL, KPARSE_ZONE_OTHER, NULL,
		  0 },
		{ "        protection: (0) x", -EINVAL, KPARSE_ZONE_OTHER, NULL,
		  0 },
	};
	size_t i;

	for (i = 0; i < N(c); i++) {
		struct kparse_zone z = { .kind = 99 };
		char *s = exact(c[i].in);
		int r = kparse_zone_line(s, strlen(c[i].in), &z);

		is_int(r, c[i].ret, "zoneinfo '%s': %d", c[i].in, c[i].ret);
		if (!r) {
			ok(z.kind == c[i].kind &&
				   (z.kind == KPARSE_ZONE_HEAD
					    ? z.node
					    : z.val) == c[i].val &&
				   (!c[i].name ||
				    (z.name_len == strlen(c[i].name) &&
				     !memcmp(z.name, c[i].name, z.name_len))),
			   "zoneinfo '%s': kind %d", c[i].in, c[i].kind);
		}
		free(s);
	}
}

static void test_mountinfo(void)
{
	static const char good[] =
		"36 35 98:0 /mnt1 /mnt/a\\040b rw,noatime master:1 - ext3 "
		"/dev/root rw,errors=continue\n";
	static const char *const bad[] = {
		"36 35 98:0 /mnt1 /mnt rw,noatime master:1 ext3 /dev/root rw",
		"36 35 98 /mnt1 /mnt rw - ext3 /dev/root rw",
		"36 35 98:0 /mnt1 /mnt rw - ext3 /dev/root",
		"36 35 98:0 /mnt1 /mnt rw - ext3 /dev/root rw extra",
		"36 35 98:0 /mnt1  /mnt rw - ext3 /dev/root rw",
		"-36 35 98:0 /mnt1 /mnt rw - ext3 /dev/root rw",
	};
	struct kparse_mountinfo m;
	char *s = exact(good);
	size_t i;

	is_int(kparse_mountinfo(s, strlen(good), &m), 0, "a mountinfo line");
	ok(m.major == 98 && m.minor == 0, "its device 98:0");
	ok(m.point_len == 11 && !memcmp(m.point, "/mnt/a\\040b", 11),
	   "its mount point, still escaped");
	ok(m.fstype_len == 4 && !memcmp(m.fstype, "ext3", 4), "its type");
	ok(m.super_len == 18 && !memcmp(m.super, "rw,errors=continue", 18),
	   "its super options");
	free(s);
	is_int(kparse_mountinfo(LIT("1 2 8:1 / / rw - tmpfs none rw"), &m), 0,
	       "a line without optional tags");
	for (i = 0; i < N(bad); i++) {
		s = exact(bad[i]);
		ok(kparse_mountinfo(s, strlen(bad[i]), &m) < 0,
		   "mountinfo: refuses bad case %zu", i);
		free(s);
	}
}

/* The CPU figures of a process and of the whole machine. */
static void test_cpu(void)
{
	static const char stat[] = "77 (kworker/0:1 (x)) I 2 0 0 0 -1 "
				   "69238880 0 0 0 0 123 45 6 7 20 0 1\n";
	static const char *const bad[] = {
		"77 (x) I 2 0 0 0 -1 69238880 0 0 0 0 123 45 -6 7\n",
		"77 (x) I 2 0 0 0 -1 69238880 0 0 0 0 123 45 6\n",
		"77 (x) I 2 0 0 0 -1 69238880 0 0 0 0 1x3 45 6 7\n",
	};
	static const char pstat[] = "cpu  48483 7 43679 261176 1259 0 642 0 0 "
				    "0\ncpu0 22515 0 20391 134183 266 0 198 "
				    "0 0 0\n";
	struct kparse_pid_cpu c;
	uint64_t busy = 0;
	char *s = exact(stat);
	size_t i;

	is_int(kparse_pid_cpu(s, strlen(stat), &c), 0, "pid cpu");
	ok(c.ppid == 2 && c.flags == 69238880 && c.utime == 123 &&
		   c.stime == 45 && c.cutime == 6 && c.cstime == 7,
	   "ppid 2, flags, utime 123, stime 45, cutime 6, cstime 7");
	free(s);
	for (i = 0; i < N(bad); i++) {
		s = exact(bad[i]);
		ok(kparse_pid_cpu(s, strlen(bad[i]), &c) < 0,
		   "pid cpu: refuses bad case %zu", i);
		free(s);
	}
	s = exact(pstat);
	is_int(kparse_proc_stat_busy(s, strlen(pstat), &busy), 0, "/proc/stat");
	is_u64(busy, 48483 + 7 + 43679, "busy: user + nice + system");
	free(s);
	is_int(kparse_proc_stat_busy(LIT("cpu0 1 2 3 4\n"), &busy), -EINVAL,
	       "/proc/stat without the total line");
	is_int(kparse_proc_stat_busy(LIT("cpu 1 -2 3 4\n"), &busy), -EINVAL,
	       "/proc/stat with a sign");
}

int main(void)
{
	test_u64();
	test_i64();
	test_fixed();
	test_lines_and_files();
	test_kv();
	test_psi();
	test_pid();
	test_cpu();
	test_kmsg();
	test_syslog();
	test_trace();
	test_trace_field();
	test_kv_pick();
	test_meminfo_start();
	test_words_dev_hex();
	test_zoneinfo();
	test_mountinfo();
	return done_testing();
}
