// SPDX-License-Identifier: GPL-2.0-or-later
/* gnuplot quoting and running; see gnuplot.h. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/gnuplot.h"
#include "lib/output.h"
#include "lib/spawn.h"

/*
 * A single-quoted gnuplot string knows one escape, the doubled quote, and
 * ends its command at a newline: a newline in a title made the rest of it
 * gnuplot commands, `system` included.  So the string is first spelled out
 * by text_escape(), which leaves no control character at all.
 */
void gnuplot_quote(FILE *f, const char *s)
{
	char *e = text_escape(s), *p;

	fputc('\'', f);
	for (p = e; *p; p++) {
		if (*p == '\'')
			fputc('\'', f);
		fputc(*p, f);
	}
	fputc('\'', f);
	free(e);
}

bool gnuplot_name_ok(const char *s)
{
	char *e = text_escape(s);
	bool same = !strcmp(e, s);

	free(e);
	return same;
}

void gnuplot_range(FILE *f, const char *axis, double lo, double hi,
		   unsigned flags)
{
	fprintf(f, "set %srange ", axis);
	if (flags & GNUPLOT_FROM_ZERO)
		fputs(hi > 0 ? "[0:*]\n" : "[0:1]\n", f);
	else if (lo != hi || !isfinite(lo) ||
		 ((flags & GNUPLOT_LOG) && lo <= 0))
		fputs("[*:*]\n", f);
	else if (flags & GNUPLOT_LOG)
		fprintf(f, "[%.12g:%.12g]\n", lo / 2, hi * 2);
	else
		fprintf(f, "[%.12g:%.12g]\n", lo - 1, hi + 1);
}

int gnuplot_run(const char *dir, const char *script)
{
	char *argv[] = { (char *)"gnuplot", (char *)script, NULL };
	int r = spawn_wait_in(dir, argv, SPAWN_OUT_TO_ERR);

	if (r < 0)
		return r;
	/* A failed exec (or chdir) in the child reports 127. */
	if (r == 127)
		return -ENOENT;
	return r ? -ECHILD : 0;
}
