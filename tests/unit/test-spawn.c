// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for lib/spawn: exit statuses, signals, a missing program. */
#include <config.h>

#include <errno.h>
#include <stdlib.h>

#include "lib/spawn.h"
#include "tests/tap.h"

int main(void)
{
	static const struct {
		const char *script;
		int flags, want;
		const char *what;
	} cases[] = {
		{ "exit 0", 0, 0, "success is 0" },
		{ "exit 7", 0, 7, "an exit status is returned" },
		{ "kill -TERM $$", 0, 143, "a signal is 128+N" },
		{ "echo to-stderr >&2; exit 3", SPAWN_QUIET, 3,
		  "quiet: stderr to /dev/null, status kept" },
	};
	char *missing[] = { "latency-tests-no-such-program", NULL };
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[] = { "sh", "-c", (char *)cases[i].script, NULL };

		is_int(spawn_wait(argv, cases[i].flags), cases[i].want, "%s",
		       cases[i].what);
	}
	is_int(spawn_wait(missing, 0), -ENOENT, "a missing program: -ENOENT");
	{
		/* $LATENCY_MACHINE is the program, the ARGS its arguments. */
		char *args[] = { "-c", "exit $#", "a", "b", NULL };

		setenv("LATENCY_MACHINE", "sh", 1);
		is_int(spawn_machine(args, 0), 1, /* $0 a, $1 b */
		       "spawn_machine runs $LATENCY_MACHINE with ARGS");
		setenv("LATENCY_MACHINE", "latency-tests-no-such-program", 1);
		is_int(spawn_machine(args, 0), -ENOENT,
		       "spawn_machine: a missing latency-machine is -ENOENT");
	}
	return done_testing();
}
