// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/xalloc: what the helpers return, the alignment of
 * xaligned_alloc(), and the one way they stop (in a child): "out of
 * memory", exit status 1.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "tests/tap.h"

static void overflow(const void *arg)
{
	(void)arg;
	set_progname("/usr/bin/seqbench");
	(void)xreallocarray(NULL, SIZE_MAX / 2, 4);
	_exit(0);
}

static void die_now(const void *arg)
{
	(void)arg;
	set_progname("ringbench");
	xalloc_die();
}

int main(void)
{
	static const size_t aligns[] = { 8, 64, 4096, 65536 };
	char out[256], *s;
	size_t i;

	for (i = 0; i < sizeof(aligns) / sizeof(aligns[0]); i++) {
		void *p = xaligned_alloc(aligns[i], 100);

		ok(p && (uintptr_t)p % aligns[i] == 0,
		   "xaligned_alloc: aligned to %zu", aligns[i]);
		memset(p, 0, 100);
		free(p);
	}
	free(xaligned_alloc(4096, 0));
	ok(1, "xaligned_alloc of 0 bytes gives a block to free");
	s = xasprintf("%s-%d", "run", 7);
	is_str(s, "run-7", "xasprintf");
	free(s);
	s = xstrdup("copy");
	is_str(s, "copy", "xstrdup");
	free(s);
	is_int(tap_child(overflow, NULL, out, sizeof(out)), 1,
	       "an array size past SIZE_MAX stops with status 1");
	is_str(out, "seqbench: out of memory\n", "saying so");
	is_int(tap_child(die_now, NULL, out, sizeof(out)), 1,
	       "xalloc_die() stops the same way");
	is_str(out, "ringbench: out of memory\n", "with the same words");
	return done_testing();
}
