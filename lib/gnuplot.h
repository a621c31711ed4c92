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

/*
 * Run "gnuplot SCRIPT" in directory DIR (NULL for the current one) with
 * its standard output on our standard error, so it never mixes with a
 * program's results, and wait for it.  Returns 0, -ENOENT when gnuplot is
 * not in PATH, -ECHILD when it failed (non-zero exit or killed), or -errno.
 */
int gnuplot_run(const char *dir, const char *script);

#endif
