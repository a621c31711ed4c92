// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit test of seqbench's --numruns aggregation (seqbench/report.c) on known
 * values: means and sample standard deviations of rate, CPU%, latencies and
 * Lat%, where tiobench added latencies up instead of averaging them.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include "lib/hist.h"
#include "seqbench/seqbench.h"
#include "tests/tap.h"

#define MS 1000000ULL

static struct hist hists[3];

static void phase(struct sb_phase_result *p, struct hist *h, uint64_t wall_ms,
		  uint64_t cpu_ms, uint64_t lat_ms, uint64_t ops, uint64_t gt1)
{
	uint64_t i;

	memset(p, 0, sizeof(*p));
	p->ran = true;
	p->complete = true;
	p->bytes = 100ULL << 20;
	p->wall_ns = wall_ms * MS;
	p->cpu_ns = cpu_ms * MS;
	p->ops = ops;
	p->gt1 = gt1;
	hist_init(h);
	for (i = 0; i < ops; i++)
		hist_add(h, lat_ms * MS);
	p->hist = h;
}

int main(void)
{
	struct sb_result res[3];
	struct sb_summary s;
	struct sb_figures f;

	memset(res, 0, sizeof(res));
	/* 100 MiB in 1 s and in 0.5 s: 100 and 200 MiB/s. */
	phase(&res[0].phase[SB_SEQ_READ], &hists[0], 1000, 500, 2, 10, 1);
	phase(&res[1].phase[SB_SEQ_READ], &hists[1], 500, 500, 4, 10, 0);
	/* The third run never reached this phase: it must not count. */

	sb_figures_of(&res[0].phase[SB_SEQ_READ], &f);
	is_double(f.rate, 100.0, 1e-9, "rate of run 1 is 100 MiB/s");
	is_double(f.cpu_pct, 50.0, 1e-9, "CPU%% of run 1 is 50");
	is_double(f.cpu_eff, 200.0, 1e-9, "CPU efficiency of run 1 is 200");
	is_double(f.gt1_pct, 10.0, 1e-9, "1 op of 10 over 2 s is 10%%");

	sb_aggregate(res, 3, SB_SEQ_READ, &s);
	is_u64(s.runs, 2, "two runs ran the phase");
	is_double(s.mean.rate, 150.0, 1e-9, "mean rate 150 MiB/s");
	is_double(s.sd.rate, 70.710678118654755, 1e-9, "stddev of the rate");
	is_double(s.mean.cpu_pct, 75.0, 1e-9, "mean CPU%% 75");
	is_double(s.sd.cpu_pct, 35.355339059327378, 1e-9, "stddev of CPU%%");
	is_double(s.mean.lat_avg_ms, 3.0, 1e-9,
		  "mean latency is averaged (3 ms), not summed (6 ms)");
	is_double(s.sd.lat_avg_ms, 1.4142135623730951, 1e-9,
		  "stddev of the average latency");
	is_double(s.mean.lat_max_ms, 3.0, 1e-9, "mean maximum latency 3 ms");
	is_double(s.mean.gt1_pct, 5.0, 1e-9, "mean Lat%% >2s is 5");
	is_double(s.mean.gt2_pct, 0.0, 1e-9, "mean Lat%% >10s is 0");

	sb_aggregate(res, 3, SB_RAND_READ, &s);
	is_u64(s.runs, 0, "no run ran the random reads");
	is_double(s.mean.rate, 0.0, 0, "and their mean rate is 0");

	sb_aggregate(res, 1, SB_SEQ_READ, &s);
	is_double(s.sd.rate, 0.0, 0, "one run has no spread");

	/* A third run cut short (ENOSPC, a signal): no rate of its own. */
	phase(&res[2].phase[SB_SEQ_READ], &hists[2], 100, 100, 6, 10, 0);
	res[2].phase[SB_SEQ_READ].complete = false;
	sb_figures_of(&res[2].phase[SB_SEQ_READ], &f);
	ok(isnan(f.rate), "an incomplete phase has no rate");
	ok(isnan(f.cpu_eff), "nor a CPU efficiency");
	is_double(f.cpu_pct, 100.0, 1e-9, "but its CPU%% stands");
	sb_aggregate(res, 3, SB_SEQ_READ, &s);
	is_u64(s.runs, 3, "three runs ran the phase");
	is_u64(s.incomplete, 1, "one of them incomplete");
	is_double(s.mean.rate, 150.0, 1e-9,
		  "the mean rate is of the complete runs only");
	is_double(s.mean.lat_avg_ms, 4.0, 1e-9,
		  "latencies of every run count (2, 4 and 6 ms)");
	sb_aggregate(res + 2, 1, SB_SEQ_READ, &s);
	ok(isnan(s.mean.rate) && isnan(s.sd.rate),
	   "no complete run: no mean rate");
	return done_testing();
}
