// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for lib/json-read.  Build and run (clang):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -Ibuild \
 *     tests/fuzz/fuzz-json-read.c lib/json-read.c lib/err.c -o fuzz-json-read
 *   ./fuzz-json-read -max_len=4096 corpus-dir
 * (build/ being a configured build directory, for config.h).
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>

#include "lib/json-read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return json_read_fuzz(data, size);
}
