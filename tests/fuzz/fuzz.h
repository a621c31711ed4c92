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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c)) {                                                    \
			fprintf(stderr, "invariant failed: %s\n", #c);         \
			abort();                                               \
		}                                                              \
	} while (0)

#endif
