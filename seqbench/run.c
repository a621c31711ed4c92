// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One seqbench benchmark from start to report: every size/block/threads
 * combination in tiobench.pl's order (worker.c runs each), the notes the
 * report carries about what was measured, and the report itself (report.c),
 * written also after an error or a stop signal.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "lib/err.h"
#include "lib/kparse.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "seqbench/seqbench.h"

#define MAX_NOTES 8

/* MemTotal in bytes, or 256 MiB when unknown (tiobench.pl's fallback). */
uint64_t sb_mem_total(void)
{
	char buf[16384];
	ssize_t n = read_small_file("/proc/meminfo", buf, sizeof(buf));
	uint64_t kib;
	bool kb;

	if (n < 0 || kparse_colon_find(buf, (size_t)n, "MemTotal", &kib, &kb) ||
	    !kb || !kib || kib > UINT64_MAX / 1024)
		return 256ULL << 20;
	return kib * 1024;
}

/* Notes the report carries about what it measured. */
static size_t make_notes(const struct sb_opts *o, const struct sb_result *res,
			 size_t n, char **notes)
{
	size_t k = 0, i, short_phases = 0, warm;
	uint64_t ram = sb_mem_total(), max_size = 0;
	int ph;

	if (o->size_defaulted)
		notes[k++] = xasprintf("no --size given: using twice the RAM, "
				       "%llu MiB, as tiobench 0.4 did",
				       (unsigned long long)(o->sizes[0] >> 20));
	for (i = 0; i < o->n_sizes; i++)
		if (o->sizes[i] > max_size)
			max_size = o->sizes[i];
	if (o->mode == SB_MODE_BENCH && !o->raw && !o->direct &&
	    !o->drop_caches && max_size < ram) {
		char sz[24];

		notes[k++] = xasprintf(
			"the files (%s in all at most) are smaller than the "
			"RAM (%llu MiB): reads may come from the page cache",
			format_size(sz, max_size),
			(unsigned long long)(ram >> 20));
	}
	for (i = 0; i < n; i++)
		for (ph = 0; ph < SB_PHASES; ph++)
			if (res[i].phase[ph].ran &&
			    res[i].phase[ph].wall_ns < NSEC_PER_SEC)
				short_phases++;
	if (short_phases)
		notes[k++] = xasprintf("%zu phase(s) lasted less than a "
				       "second: their rates are not stable",
				       short_phases);
	if (o->null_io)
		notes[k++] = xstrdup("--null-io: no IO was done; the "
				     "latencies are seqbench's own overhead");
	for (i = 0, warm = 0; o->mode == SB_MODE_READ_ONLY && i < n; i++)
		warm += res[i].phase[o->ro_phase].cold == 0;
	if (warm)
		notes[k++] = xasprintf(
			"%zu run(s) found data in the page "
			"cache before reading: not cold%s",
			warm,
			o->drop_caches ? " (it could not all be dropped)"
				       : " (--no-drop-caches)");
	return k;
}

static char *error_text(const struct sb_error *e)
{
	if (e->thread >= 0)
		return xasprintf("thread %d: %s failed: %s", e->thread, e->msg,
				 strerror(e->err));
	return xasprintf("%s: %s", e->msg, strerror(e->err));
}

/* Run every combination in tiobench.pl's order; returns how many ran. */
static size_t run_all(struct sb_run_state *st, struct sb_result *res)
{
	const struct sb_opts *o = st->o;
	size_t s, b, t, n = 0;
	uint64_t run;

	for (s = 0; s < o->n_sizes; s++)
		for (b = 0; b < o->n_blocks; b++)
			for (t = 0; t < o->n_threads; t++)
				for (run = 1; run <= o->numruns; run++) {
					struct sb_result *x = &res[n++];
					uint64_t thr = o->threads[t];

					x->size = o->sizes[s];
					x->block = o->blocks[b];
					x->threads = thr;
					x->run = run;
					x->readahead = -1;
					x->file_bytes = o->sizes[s] / thr /
							x->block * x->block;
					x->rand_ops = o->random_ops / thr;
					if (!x->rand_ops)
						x->rand_ops = 1;
					if (o->verbose)
						inform("size %llu, block %llu, "
						       "threads %llu, run %llu",
						       (unsigned long long)
							       x->size,
						       (unsigned long long)
							       x->block,
						       (unsigned long long)thr,
						       (unsigned long long)run);
					if (sb_run(st, x))
						return n;
				}
	return n;
}

/* The file-name generator, from the kernel's random pool. */
static int seed_names(struct rand *r)
{
	uint64_t seed;
	ssize_t n;

	do
		n = getrandom(&seed, sizeof(seed), 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(seed))
		return error_ret_errno(EXIT_RUN_FAILED,
				       "cannot get random bytes for the file "
				       "names");
	rand_seed(r, seed);
	return EXIT_OK;
}

/*
 * The report in FORMAT to PATH ("-": stdout): 0, or the exit status,
 * said.
 */
static int write_report(const char *path, enum sb_format format,
			struct sb_report *rep)
{
	struct atomic_file af;
	int e;

	e = atomic_open(&af, path);
	if (e)
		return error_ret_err(EXIT_RUN_FAILED, -e, "cannot create '%s'",
				     path);
	e = sb_report_write(af.f, rep, format);
	if (e)
		atomic_abort(&af);
	else
		e = atomic_commit(&af);
	if (e)
		return error_ret_err(EXIT_RUN_FAILED, -e,
				     "cannot write the report");
	return EXIT_OK;
}

/* Everything a benchmark allocated: results, their histograms, notes. */
static void results_free(struct sb_result *res, size_t n, char **notes,
			 size_t n_notes)
{
	size_t i;
	int ph;

	for (i = 0; i < n; i++)
		for (ph = 0; ph < SB_PHASES; ph++)
			free(res[i].phase[ph].hist);
	for (i = 0; i < n_notes; i++)
		free(notes[i]);
	free(res);
}

int sb_benchmark(const struct sb_opts *o, int argc, char **argv)
{
	struct atomic_file dump;
	struct sb_run_state st;
	struct sb_report rep;
	struct run_info ri;
	struct sb_result *res;
	char *notes[MAX_NOTES], *err_msg = NULL;
	size_t n_total, n_done, n_notes;
	int e, status = EXIT_OK;

	if (sig_stop_install())
		return error_ret_errno(EXIT_RUN_FAILED,
				       "cannot install signal handlers");
	run_info_init(&ri, "seqbench", argc, argv);
	ri.has_seed = true;
	ri.seed = o->seed;
	setvbuf(stdout, NULL, _IOLBF, 0);

	memset(&st, 0, sizeof(st));
	st.o = o;
	st.error.thread = -1;
	e = seed_names(&st.names);
	if (e)
		return e;
	/* The way -o writes: never through a link planted at the name. */
	if (o->dump_offsets) {
		e = atomic_open(&dump, o->dump_offsets);
		if (e)
			return error_ret_err(EXIT_RUN_FAILED, -e,
					     "cannot create '%s'",
					     o->dump_offsets);
		st.dump = dump.f;
	}
	if (o->mode == SB_MODE_READ_ONLY) {
		n_total = sb_read_only_rows(o);
		res = xcalloc(n_total, sizeof(*res));
		n_done = sb_read_only(&st, res);
	} else {
		n_total = o->n_sizes * o->n_blocks * o->n_threads * o->numruns;
		res = xcalloc(n_total, sizeof(*res));
		n_done = run_all(&st, res);
	}
	ri.end_real_ns = real_ns();
	/* What was measured is still reported; the status says 1. */
	if (st.dump && (e = atomic_commit(&dump)))
		status = error_ret_err(EXIT_RUN_FAILED, -e, "cannot write '%s'",
				       o->dump_offsets);

	if (st.error.err) {
		err_msg = error_text(&st.error);
		inform("%s", err_msg);
		status = EXIT_RUN_FAILED;
	}
	if (st.interrupted)
		status = EXIT_SIGNAL(st.signo);
	n_notes = make_notes(o, res, n_done, notes);
	memset(&rep, 0, sizeof(rep));
	rep.o = o;
	rep.ri = &ri;
	rep.res = res;
	rep.n_res = n_done;
	rep.interrupted = st.interrupted;
	rep.incomplete = st.interrupted || st.error.err;
	rep.error = err_msg;
	rep.notes = (const char **)notes;
	rep.n_notes = n_notes;
	e = write_report(o->output ? o->output : "-", o->format, &rep);
	if (e)
		status = e;
	/* The same report for programs, beside the one for people. */
	if (o->json_output) {
		e = write_report(o->json_output, SB_FMT_JSON, &rep);
		if (e)
			status = e;
	}
	results_free(res, n_done, notes, n_notes);
	free(err_msg);
	return status;
}
