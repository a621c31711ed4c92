/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The little that programs writing gnuplot scripts share: quoting strings
 * for a script and running gnuplot, looked up in PATH at run time (it is
 * optional: without it the scripts are still written for later use).
 */
#ifndef LATENCY_GNUPLOT_H
#define LATENCY_GNUPLOT_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Write S to F as a single-quoted gnuplot string, inert whatever S holds:
 * escaped by text_escape() (lib/output.h: no newline or other control
 * character survives), then each quote doubled.  For titles and labels;
 * a file name that needs escaping no longer names the same file, so
 * callers refuse such names first (gnuplot_name_ok()).
 */
void gnuplot_quote(FILE *f, const char *s);

/* Whether gnuplot_quote() writes S unchanged (no character escaped). */
bool gnuplot_name_ok(const char *s);

/* Flags of gnuplot_range(). */
#define GNUPLOT_FROM_ZERO 1U /* a bar chart or a share: the axis starts at 0 */
#define GNUPLOT_LOG 2U	     /* a log axis: pad by a factor, not a unit */

/*
 * Write "set AXISrange [...]\n" to F for data from LO to HI.  With
 * GNUPLOT_FROM_ZERO the range is [0:*] (a bar of 8 beside one of 36 must
 * not look like 1 to 10), or [0:1] when HI is not above 0.  Otherwise it is
 * autoscaled, [*:*], unless it would hold one value only: then LO - 1 to
 * HI + 1, or LO / 2 to HI * 2 with GNUPLOT_LOG (when LO > 0).  gnuplot
 * widens such a range itself but warns on stderr ("empty y range [4:4]"),
 * which ends up in a result's error files.  LO > HI (no data) autoscales.
 */
void gnuplot_range(FILE *f, const char *axis, double lo, double hi,
		   unsigned flags);

/*
 * Run "gnuplot SCRIPT" in directory DIR (NULL for the current one) with
 * its standard output on our standard error, so it never mixes with a
 * program's results, and wait for it.  Returns 0, -ENOENT when gnuplot is
 * not in PATH, -ECHILD when it failed (non-zero exit or killed), or -errno.
 */
int gnuplot_run(const char *dir, const char *script);

#endif
