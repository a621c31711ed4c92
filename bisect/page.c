// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bisection's page, bisect.html beside summary.txt: latency-compare's
 * own HTML page of the boots of every kernel that has a complete one, in
 * the series' order from the good end (its baseline).  So the figure
 * along the series with each boot, each kernel's change against the good
 * end with its interval, and the provenance of every boot are one file to
 * attach to a report, drawn by the one verdict code.  Boot directories are
 * named relative to the bisection's directory, where latency-compare runs.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/spawn.h"
#include "lib/xalloc.h"
#include "bisect/bisect.h"

/* "LABEL=DIR,DIR,..." of kernel K's complete boots, or NULL if none. */
static char *label_arg(const struct bisect *b, size_t k)
{
	char *arg = NULL, *next;
	size_t i;

	for (i = 0; i < b->n_boots; i++) {
		const struct boot *bt = &b->boots[i];
		const struct series *s = &b->series[bt->series];

		if (bt->end != BOOT_DONE ||
		    (bt->arm == 'a' ? s->ref : s->k) != k)
			continue;
		if (arg)
			next = xasprintf("%s,%s", arg, bt->dir);
		else
			next = xasprintf("%s=%s", b->k[k].label, bt->dir);
		free(arg);
		arg = next;
	}
	return arg;
}

int report_page(const struct bisect *b, const struct bisect_run *run)
{
	char **argv = xcalloc(b->n + 6, sizeof(*argv));
	size_t n = 0, i, labels = 0;
	int st = 0;

	argv[n++] = bisect_program("latency-compare", "compare");
	argv[n++] = xstrdup("--format=html");
	argv[n++] = xstrdup("-o");
	argv[n++] = xstrdup("bisect.html");
	/* The good end first: the baseline every change is against. */
	if ((argv[n] = label_arg(b, b->o.good)))
		n++, labels++;
	for (i = 0; i < b->n; i++)
		if (i != b->o.good && (argv[n] = label_arg(b, i)))
			n++, labels++;
	argv[n] = NULL;
	if (labels)
		st = spawn_wait_in(run->dir, argv, SPAWN_QUIET);
	if (st)
		warn("no %s/bisect.html: latency-compare %s %d", run->dir,
		     st < 0 ? "could not be run:" : "exited",
		     st < 0 ? -st : st);
	for (i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
	return st ? -1 : 0;
}
