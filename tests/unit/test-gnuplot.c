// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/gnuplot: quoting (inert whatever the string holds),
 * file names that quote unchanged, axis ranges that start at 0 or hold
 * more than one value, and running a stand-in "gnuplot"
 * (a shell script put first in PATH) that succeeds, fails, is killed, is
 * missing, and runs in the directory asked for.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/gnuplot.h"
#include "tests/tap.h"

/* A memory stream for one case's output (skips all without one). */
static FILE *mem(char **buf, size_t *len)
{
	FILE *f;

	*buf = NULL;
	*len = 0;
	f = open_memstream(buf, len);
	if (!f)
		skip_all("open_memstream() failed");
	return f;
}

static void quoting(void)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "plain", "'plain'" },
		{ "", "''" },
		{ "it's", "'it''s'" },
		{ "''", "''''''" },
		{ "a\"b\\c", "'a\"b\\\\c'" },
		/* Once, a newline ended the string's command, and the
		 * next line was gnuplot's to run, `system` included. */
		{ "x\nsystem \"touch PWNED\"\n#",
		  "'x\\nsystem \"touch PWNED\"\\n#'" },
		{ "a\rb\x1b[31m\x01\x7f", "'a\\rb\\x1b[31m\\x01\\x7f'" },
		{ "it's\n'", "'it''s\\n'''" },
		{ "caf\xc3\xa9\xff", "'caf\xc3\xa9\\xff'" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf;
		size_t len;
		FILE *f = mem(&buf, &len);

		gnuplot_quote(f, cases[i].in);
		fclose(f);
		is_str(buf, cases[i].want, "quote, case %zu", i);
		free(buf);
	}
}

static void names(void)
{
	ok(gnuplot_name_ok("out/gitk-hist"), "a plain file name is fine");
	ok(gnuplot_name_ok("caf\xc3\xa9 'q'"), "UTF-8, blanks, quotes too");
	ok(!gnuplot_name_ok("a\nb"), "a newline is not");
	ok(!gnuplot_name_ok("a\\b"), "nor a backslash (it would be doubled)");
	ok(!gnuplot_name_ok("a\xff"), "nor a byte that is not UTF-8");
}

/* Ranges that start at 0 or are never one value (an "empty range"). */
static void ranges(void)
{
	static const struct {
		const char *axis;
		double lo, hi;
		unsigned flags;
		const char *want;
	} cases[] = {
		{ "y", 0, 36, GNUPLOT_FROM_ZERO, "set yrange [0:*]\n" },
		{ "y", 8, 8, GNUPLOT_FROM_ZERO, "set yrange [0:*]\n" },
		{ "y", 0, 0, GNUPLOT_FROM_ZERO, "set yrange [0:1]\n" },
		{ "x", 1, 2, 0, "set xrange [*:*]\n" },
		{ "x", 5, 5, 0, "set xrange [4:6]\n" },
		{ "x", 10992.585221243, 10992.585221243, 0,
		  "set xrange [10991.5852212:10993.5852212]\n" },
		{ "x", 0.1, 0.1, GNUPLOT_LOG, "set xrange [0.05:0.2]\n" },
		{ "x", 0, 0, GNUPLOT_LOG, "set xrange [*:*]\n" },
		{ "x", 1, 0, 0, "set xrange [*:*]\n" },
		{ "y2", INFINITY, INFINITY, 0, "set y2range [*:*]\n" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf;
		size_t len;
		FILE *f = mem(&buf, &len);

		gnuplot_range(f, cases[i].axis, cases[i].lo, cases[i].hi,
			      cases[i].flags);
		fclose(f);
		is_str(buf, cases[i].want, "range, case %zu", i);
		free(buf);
	}
}

/* Put a fake gnuplot running BODY into DIR. */
static int fake_gnuplot(const char *dir, const char *body)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/gnuplot", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "#!/bin/sh\n%s\n", body);
	if (fclose(f) || chmod(path, 0755))
		return -1;
	return 0;
}

static void running(void)
{
	char tmpl[] = "/tmp/test-gnuplot.XXXXXX", bin[64], work[64];
	char *dir = mkdtemp(tmpl), got[4096] = "";
	const char *old = getenv("PATH");
	char *saved = old ? strdup(old) : NULL;
	FILE *f;

	if (!dir)
		skip_all("mkdtemp() failed");
	snprintf(bin, sizeof(bin), "%s/bin", dir);
	snprintf(work, sizeof(work), "%s/work", dir);
	if (mkdir(bin, 0755) || mkdir(work, 0755))
		skip_all("mkdir() failed");
	setenv("PATH", bin, 1);
	is_int(gnuplot_run(NULL, "x.gp"), -ENOENT, "no gnuplot in PATH");
	/* The stand-in needs cat from the rest of PATH. */
	snprintf(got, sizeof(got), "%s:%s", bin, saved ? saved : "/bin");
	setenv("PATH", got, 1);
	if (fake_gnuplot(bin, "cat \"$1\" >seen"))
		skip_all("cannot write a fake gnuplot");
	snprintf(got, sizeof(got), "%s/x.gp", work);
	f = fopen(got, "w");
	if (!f)
		skip_all("cannot write a script");
	fputs("plot 1\n", f);
	fclose(f);
	is_int(gnuplot_run(work, "x.gp"), 0, "runs in DIR with SCRIPT");
	snprintf(got, sizeof(got), "%s/seen", work);
	f = fopen(got, "r");
	ok(f && fgets(got, sizeof(got), f) && !strcmp(got, "plot 1\n"),
	   "gnuplot read the script relative to DIR");
	if (f)
		fclose(f);
	if (fake_gnuplot(bin, "exit 1"))
		skip_all("cannot write a fake gnuplot");
	is_int(gnuplot_run(NULL, "x.gp"), -ECHILD, "failure is -ECHILD");
	if (fake_gnuplot(bin, "kill -9 $$"))
		skip_all("cannot write a fake gnuplot");
	is_int(gnuplot_run(NULL, "x.gp"), -ECHILD, "killed is -ECHILD");
	if (saved) {
		setenv("PATH", saved, 1);
		free(saved);
	}
	snprintf(got, sizeof(got), "rm -rf '%s'", dir);
	ok(system(got) == 0, "cleaned up");
}

int main(void)
{
	quoting();
	names();
	ranges();
	running();
	return done_testing();
}
