// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for lib/progress: the exact line format and the reader. */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "lib/progress.h"
#include "tests/tap.h"

static void writer(void)
{
	struct progress p;
	char buf[8192], big[5000];
	int fds[2];
	ssize_t n;

	if (pipe(fds))
		skip_all("pipe() failed");
	progress_init(&p, fds[1], "fake-gitk");
	is_int(progress_emit(&p, 12345678901234ULL, "commits=%d iter=%d", 20000,
			     2),
	       0, "emit returns 0");
	is_int(progress_emit(&p, 5, "x=1"), 0, "second line");
	n = read(fds[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	is_str(buf,
	       "12345.678901234 fake-gitk commits=20000 iter=2\n"
	       "0.000000005 fake-gitk x=1\n",
	       "lines are '<sec>.<9 digits> <prog> <fields>\\n'");
	is_u64(p.lines, 2, "lines counted");

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	is_int(progress_emit(&p, 1, "k=%s", big), -EMSGSIZE,
	       "an over-long line is refused, not cut");
	is_u64(p.lines, 2, "refused line not counted");

	close(fds[0]);
	signal(SIGPIPE, SIG_IGN);
	is_int(progress_emit(&p, 1, "x=1"), -EPIPE,
	       "write error is returned (SIGPIPE ignored)");
	close(fds[1]);

	progress_init(&p, -1, "off");
	is_int(progress_emit(&p, 1, "x=1"), 0, "fd -1 disables output");
}

static void reader(void)
{
	static const struct {
		const char *line;
		int ok;
		uint64_t ns;
		size_t end;
	} cases[] = {
		{ "12.5 prog x=1", 1, 12500000000ULL, 4 },
		{ "12.000000001 p", 1, 12000000001ULL, 12 },
		{ "0.1", 1, 100000000ULL, 3 },
		{ "3.25\tp", 1, 3250000000ULL, 4 },
		{ "12 prog", 0, 0, 0 },
		{ ".5 prog", 0, 0, 0 },
		{ "12. prog", 0, 0, 0 },
		{ "12.0000000001 p", 0, 0, 0 },
		{ "12.5x p", 0, 0, 0 },
		{ "-1.5 p", 0, 0, 0 },
		{ "hello world", 0, 0, 0 },
		{ "", 0, 0, 0 },
		{ "123456789012.5 p", 0, 0, 0 },
		{ "99999999999.5 p", 0, 0, 0 },
		{ "9999999999.5 p", 1, 9999999999500000000ULL, 12 },
	};
	size_t i, vlen = 0;
	const char *v;
	const char *line = "1.5 seqbench thread=3 xthread=9 mib=10";

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t ns = 0;
		size_t end = 0;
		bool got = progress_parse_ts(cases[i].line,
					     strlen(cases[i].line), &ns, &end);

		is_int(got, cases[i].ok, "parse_ts('%s') %s", cases[i].line,
		       cases[i].ok ? "accepts" : "rejects");
		if (cases[i].ok && got) {
			is_u64(ns, cases[i].ns, "  value of '%s'",
			       cases[i].line);
			is_u64(end, cases[i].end, "  end of '%s'",
			       cases[i].line);
		}
	}
	v = progress_find_key(line, strlen(line), "thread", &vlen);
	ok(v && vlen == 1 && *v == '3', "find_key(thread) = 3, not xthread");
	v = progress_find_key(line, strlen(line), "mib", &vlen);
	ok(v && vlen == 2 && !strncmp(v, "10", 2), "find_key at line end");
	ok(!progress_find_key(line, strlen(line), "iter", &vlen),
	   "missing key -> NULL");
	ok(!progress_find_key(line, 20, "mib", &vlen), "len bounds the search");
}

int main(void)
{
	writer();
	reader();
	return done_testing();
}
