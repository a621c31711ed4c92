/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The little that programs writing gnuplot scripts share: quoting strings
 * for a script and running gnuplot, looked up in PATH at run time (it is
 * optional: without it the scripts are still written for later use).
 */
#ifndef LATENCY_GNUPLOT_H
#define LATENCY_GNUPLOT_H

#include <stdio.h>

/* Write S to F as a single-quoted gnuplot string (a quote is doubled). */
void gnuplot_quote(FILE *f, const char *s);

/*
 * Run "gnuplot SCRIPT" in directory DIR (NULL for the current one) with
 * its standard output on our standard error, so it never mixes with a
 * program's results, and wait for it.  Returns 0, -ENOENT when gnuplot is
 * not in PATH, -ECHILD when it failed (non-zero exit or killed), or -errno.
 */
int gnuplot_run(const char *dir, const char *script);

#endif
