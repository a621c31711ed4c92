// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stdio-lines COUNT INTERVAL_MS: print COUNT lines "line <i> <written>" with
 * printf and never flush, sleeping INTERVAL_MS between them.  <written> is
 * CLOCK_MONOTONIC just before the line is handed to stdio, so a test can
 * tell whether a line reached the reader before the next one was written.
 * On a pipe stdio holds every line until exit; on a terminal each line
 * leaves at its newline.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/timing.h"

int main(int argc, char **argv)
{
	uint64_t count, ms, i, now;
	char ts[32];

	prog_init(argc, argv);
	if (argc != 3)
		die(EXIT_USAGE, "usage: stdio-lines COUNT INTERVAL_MS");
	count = opt_u64("COUNT", argv[1], 0, 1000000);
	ms = opt_u64("INTERVAL_MS", argv[2], 0, 60000);
	for (i = 1; i <= count; i++) {
		now = mono_ns();
		ts[fmt_ns_fixed(ts, now, 9)] = '\0';
		printf("line %llu %s\n", (unsigned long long)i, ts);
		if (i < count)
			sleep_until_ns(now + ms * NSEC_PER_MSEC, NULL);
	}
	/* close_stdout() (atexit) flushes and checks. */
	return 0;
}
