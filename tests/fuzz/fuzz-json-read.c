// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: lib/json-read, the reader of every result file a
 * person hands latency-compare.  Its seeds are the result fixtures of the
 * tests and a report of each program (tests/fuzz/corpus/json-read).
 * Built and run by `make fuzz` (tests/fuzz/Makefile.inc).
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>

#include "lib/json-read.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return json_read_fuzz(data, size);
}
