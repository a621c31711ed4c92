// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: latency-output's line parser and stream engine (with
 * small buffers, so over-long lines, CR LF split across reads and sink
 * flushes all happen), its report writers, and the lib/ parsers (sizes,
 * durations, rates, numbers, progress timestamps and keys).  Beyond "no
 * crash, no sanitizer report" it checks invariants: every line is counted
 * once, every gap lands in one histogram bucket, percentiles are ordered,
 * a formatted column parses back to the value it came from, and no gap is
 * too large for the signed columns.
 * Built and run by `make fuzz`.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hist.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/progress.h"
#include "latency-output/latout.h"
#include "tests/fuzz/fuzz.h"

static FILE *devnull;
static struct run_info ri;

static void fuzz_lib(const char *p, size_t n)
{
	char *z = malloc(n + 1);
	uint64_t v;
	size_t end, vlen;

	memcpy(z, p, n);
	z[n] = '\0';
	(void)parse_u64(z, &v);
	(void)parse_size(z, &v);
	(void)parse_size_unit(z, 1048576, &v);
	(void)parse_duration(z, &v);
	(void)parse_rate(z, 1024, &v);
	if (progress_parse_ts(p, n, &v, &end))
		CHECK(end <= n);
	if (progress_find_key(p, n, "thread", &vlen))
		CHECK(vlen <= n);
	free(z);
}

static void fuzz_line(const char *p, size_t n)
{
	struct lo_line l;
	int64_t ns, back;
	size_t orig, pos = 0;
	char col[64];
	unsigned d;

	lo_line_parse(p, n, "thread", &l);
	if (l.key)
		CHECK(l.key >= p && l.key + l.key_len <= p + n);
	if (lo_series_parse(p, n, &ns, &orig))
		CHECK(orig <= n);
	if (lo_parse_seconds(p, n, &pos, &ns)) {
		CHECK(pos <= n);
		/* Nine decimals print every nanosecond: it parses back. */
		for (d = 0; d <= 9; d += 9) {
			size_t k = lo_fmt_col(col, ns, d, 20), at = 0;

			while (at < k && col[at] == ' ')
				at++;
			CHECK(lo_parse_seconds(col, k, &at, &back));
			CHECK(at == k);
			if (d == 9)
				CHECK(back == ns);
		}
	}
}

static void fuzz_stream(const uint8_t *data, size_t size)
{
	struct lo_config cfg;
	struct lo_state st;
	struct lo_report r;
	struct lo_summary *sum;
	uint64_t now = 1000000000ULL, seen = 0;
	size_t i, n = 0, chunk;
	enum out_format format;
	uint8_t flags;
	int ret = 0;

	if (size < 2)
		return;
	flags = data[0];
	chunk = 1 + data[1] % 64;
	format = (enum out_format)((data[1] >> 6) % 3);
	data += 2;
	size -= 2;
	memset(&cfg, 0, sizeof(cfg));
	cfg.by = flags & 1 ? "thread" : NULL;
	cfg.strict = flags & 2;
	cfg.from = flags & 4;
	cfg.emit = !cfg.from;
	cfg.out_fd = -1;
	cfg.keep_at = true;
	cfg.decimals = (flags >> 3) % 10;
	cfg.has_start = flags & 0x80;
	cfg.start = 999999999ULL;
	cfg.epoch_off = 1700000000000000000LL;
	cfg.line_max = 16 + (flags >> 4) * 8;
	lo_init(&st, &cfg);
	for (i = 0; i < size && !ret; i += chunk) {
		size_t k = size - i < chunk ? size - i : chunk;

		ret = lo_feed(&st, (const char *)data + i, k, now);
		now += 1000 * (data[i] & 15);
	}
	if (!ret)
		ret = lo_finish(&st, now);
	CHECK(!ret || (cfg.strict && st.bad_lineno));
	for (i = 0; i < st.ngroups; i++) {
		const struct lo_series *g = st.groups[i];
		size_t k;

		seen += g->lines;
		/* Every gap prints as a non-negative column, whatever came. */
		for (k = 0; k < g->n; k++)
			CHECK(g->gaps[k] <= INT64_MAX);
	}
	CHECK(seen == st.lines);
	r = (struct lo_report){ .st = &st,
				.ri = &ri,
				.stall_threshold_ns = 1000000,
				.source = "fuzz" };
	r.consume = size & 1;
	sum = lo_summarise_all(&r, &n);
	CHECK(sum && n >= 1);
	for (i = 0; i < n; i++) {
		const struct lo_summary *o = &sum[i];
		uint64_t c = 0;
		unsigned b;

		for (b = 0; b < HIST_R10_N; b++)
			c += o->hist_count[b];
		CHECK(c == o->gaps && o->stall_count <= o->gaps);
		CHECK(o->p50 <= o->p90 && o->p90 <= o->p99 &&
		      o->p99 <= o->p999 && o->p999 <= o->max);
	}
	r.format = format;
	lo_report_write(&r, sum, n, devnull);
	free(sum);
	lo_release(&st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		CHECK(devnull);
		run_info_init(&ri, "latency-output", 0, NULL);
	}
	fuzz_lib((const char *)data, size);
	fuzz_line((const char *)data, size);
	fuzz_stream(data, size);
	return 0;
}
