/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every libFuzzer target here shares: the entry point's prototype and
 * CHECK(), which turns a broken invariant into a crash libFuzzer keeps.
 */
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c)) {                                                    \
			fprintf(stderr, "invariant failed: %s\n", #c);         \
			abort();                                               \
		}                                                              \
	} while (0)

/*
 * Where a harness makes its temporary files: FUZZ_TMPDIR (run-fuzz.sh sets
 * it to its work directory, which it removes), else memory where there is
 * some, else /tmp.
 */
static inline const char *fuzz_tmp_base(void)
{
	const char *d = getenv("FUZZ_TMPDIR");

	if (d && *d)
		return d;
	return access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";
}

#endif
