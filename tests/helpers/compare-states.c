// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test helper: the states cmp_build() gives, which no report format prints
 * yet (the HTML page and latency-bisect read them), so that t5813 can
 * assert them on hand-computed inputs.  Usage: compare-states RESULT...
 * (the first label the baseline, as latency-compare).  One line for every
 * compared figure of every label but the baseline:
 *
 *	LABEL FIGURE lower|higher STATE NEED delta=D ci=LO..HI mde=M
 *
 * NEED "-" when nothing is needed; numbers %.4g, "nan" when undefined.
 * seqbench rows are "seqbench:PHASE:SIZE:BLOCK:THREADS", ringbench rows
 * "ringbench:CONFIG:FIGURE", high-order orders "order-N" (in points).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/xalloc.h"
#include "compare/compare.h"

static void put(const char *label, const char *name, const struct cmp_judged *j)
{
	const char *need = cmp_need_name(j->need);

	if (j->state == CMP_UNCOMPARED)
		return;
	printf("%s %s %s %s %s delta=%.4g ci=%.4g..%.4g mde=%.4g\n", label,
	       name, cmp_direction_name(j->dir), cmp_state_name(j->state),
	       need ? need : "-", j->c.delta, j->c.ci_lo, j->c.ci_hi,
	       j->c.mde_pct);
}

static void put_rows(const struct cmp_comparison *c)
{
	char name[256], ph[SB_PHASE_TEXT];
	size_t i;
	int f;

	for (i = 0; i < c->n_sb_rows; i++) {
		const struct cmp_row_ref *r = &c->sb_rows[i];
		const struct sb_group *g = &c->labels[r->label].sb[r->k];

		snprintf(name, sizeof(name), "seqbench:%s:%g:%g:%g",
			 cmp_sb_phase(g, ph), g->size_mib, g->block_bytes,
			 g->threads);
		put(c->labels[r->label].label, name,
		    &c->e[r->label].sb_judged[r->k]);
	}
	for (i = 0; i < c->n_rb_rows; i++) {
		const struct cmp_row_ref *r = &c->rb_rows[i];

		for (f = 0; f < RBF_COUNT; f++) {
			snprintf(name, sizeof(name), "ringbench:%s:%s",
				 c->labels[r->label].rb[r->k].config,
				 rb_fig_name[f]);
			put(c->labels[r->label].label, name,
			    &c->e[r->label].rb_judged[r->k][f]);
		}
	}
}

int main(int argc, char **argv)
{
	struct cmp_options o = { "fake-gitk", false, 0.05, CMP_KCIDB_ORIGIN,
				 false };
	struct cmp_result *r;
	struct cmp_comparison *c;
	struct cmp_label *l;
	size_t n = (size_t)(argc - 1), nl, i, k;
	int f;

	prog_init(argc, argv);
	if (argc < 3)
		die(EXIT_USAGE, "usage: compare-states RESULT RESULT...");
	r = xcalloc(n, sizeof(*r));
	for (i = 0; i < n; i++)
		if (cmp_load(&r[i], argv[i + 1], NULL, &o))
			return EXIT_RUN_FAILED;
	nl = cmp_group(r, n, &l);
	c = cmp_build(l, nl, &o);
	for (i = 1; i < nl; i++) {
		const struct cmp_entry *e = &c->e[i];

		for (f = 0; f < FIG_COUNT; f++)
			put(l[i].label, fig_desc[f].name, &e->fig[f]);
		for (k = 0; k < l[i].n_ho; k++) {
			const struct cmp_ho_judged *h = &e->ho[k];
			const char *need = cmp_need_name(h->need);

			if (h->state != CMP_UNCOMPARED)
				printf("%s order-%u higher %s %s delta=%.4g "
				       "ci=%.4g..%.4g mde=%.4g\n",
				       l[i].label, l[i].ho[k].order,
				       cmp_state_name(h->state),
				       need ? need : "-", h->c.diff_pp,
				       h->ci_lo_pp, h->ci_hi_pp, h->c.mde_pp);
		}
	}
	put_rows(c);
	cmp_comparison_free(c);
	cmp_free_all(l, nl, r, n);
	return fflush(stdout) ? EXIT_RUN_FAILED : EXIT_OK;
}
