// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test helper: renders seqbench's report from fixed, known results through
 * the same code the program uses, so that t2002 can compare the layout with
 * a fixture byte for byte.  Usage: seqbench-fixture FORMAT [NUMRUNS]
 * (tiobench, tiobench-0.3, terse, csv).  Two combinations; the second moves
 * over 999 MiB/s, which must widen tiobench 0.3.3's rate column.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hist.h"
#include "lib/output.h"
#include "seqbench/seqbench.h"

#define MS 1000000ULL

/* A phase of OPS ops of LAT_MS each (one of them SLOW_MS), moving BYTES. */
static void fake_phase(struct sb_phase_result *p, uint64_t ops, uint64_t bytes,
		       uint64_t wall_ms, uint64_t cpu_ms, uint64_t lat_ms,
		       uint64_t slow_ms)
{
	uint64_t i;

	memset(p, 0, sizeof(*p));
	p->ran = true;
	p->complete = true;
	p->ops = ops;
	p->bytes = bytes;
	p->wall_ns = wall_ms * MS;
	p->cpu_ns = cpu_ms * MS;
	p->user_ns = cpu_ms * MS / 4;
	p->hist = malloc(sizeof(*p->hist));
	if (!p->hist)
		exit(1);
	hist_init(p->hist);
	for (i = 0; i + 1 < ops; i++)
		hist_add(p->hist, lat_ms * MS);
	hist_add(p->hist, slow_ms * MS);
	p->gt1 = slow_ms > 2000;
	p->gt2 = slow_ms > 10000;
	p->stalls = slow_ms > 1000;
	p->thread_rate_min = 10.5;
	p->thread_rate_max = 12.25;
}

int main(int argc, char **argv)
{
	static char *fake_argv[] = { "seqbench", "-t", "4", "-t", "16", NULL };
	struct sb_result res[4];
	struct sb_opts o;
	struct run_info ri;
	struct sb_report rep;
	const char *notes[] = { "a fixed note" };
	uint64_t runs = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	size_t i, n = 0;
	int ph;

	if (argc < 2 || runs < 1 || runs > 2)
		return 2;
	memset(&o, 0, sizeof(o));
	o.numruns = runs;
	o.seed = 137;
	o.stall_ns = 1000 * MS;
	o.identifier = "6.1.0-fixture";
	if (!strcmp(argv[1], "tiobench"))
		o.format = SB_FMT_TIOBENCH;
	else if (!strcmp(argv[1], "tiobench-0.3"))
		o.format = SB_FMT_TIOBENCH03;
	else if (!strcmp(argv[1], "terse"))
		o.format = SB_FMT_TERSE;
	else if (!strcmp(argv[1], "csv"))
		o.format = SB_FMT_CSV;
	else
		return 2;
	memset(&ri, 0, sizeof(ri));
	ri.program = "seqbench";
	ri.argc = 5;
	ri.argv = fake_argv;
	snprintf(ri.kernel, sizeof(ri.kernel), "6.1.0-fixture");

	for (i = 0; i < 2; i++) {
		uint64_t r;

		for (r = 1; r <= runs; r++) {
			struct sb_result *x = &res[n++];
			uint64_t k = i ? 8 : 1; /* second combo: 8x faster */

			memset(x, 0, sizeof(*x));
			x->size = 256ULL << 20;
			x->block = 65536;
			x->threads = i ? 16 : 4;
			x->run = r;
			x->file_bytes = x->size / x->threads;
			x->rand_ops = 1000 / x->threads;
			x->readahead = -1;
			for (ph = 0; ph < SB_BENCH_PHASES; ph++)
				fake_phase(&x->phase[ph], 4096, 256ULL << 20,
					   2000 * r / k, 500 + 100 * ph, 2 * r,
					   ph == SB_SEQ_WRITE ? 2500 : 20);
		}
	}
	memset(&rep, 0, sizeof(rep));
	rep.o = &o;
	rep.ri = &ri;
	rep.res = res;
	rep.n_res = n;
	rep.notes = notes;
	rep.n_notes = 1;
	if (sb_report_write(stdout, &rep, o.format))
		return 1;
	for (i = 0; i < n; i++)
		for (ph = 0; ph < SB_PHASES; ph++)
			free(res[i].phase[ph].hist);
	return 0;
}
