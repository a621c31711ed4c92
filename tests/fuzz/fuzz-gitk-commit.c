// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: fake-gitk's raw-commit header parser (parse_parents()
 * in fakegitk/walk.c), which reads every commit object of a repository,
 * and a repository is bytes from outside.  Beyond "no crash, no sanitizer
 * report" it checks the answer: the tree id is hex, parents lie inside the
 * header, each stored id is the hex of its line, and the header ends at the
 * blank line.
 * Built and run by `make fuzz`.
 */
#include <config.h>

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "fakegitk/fake-gitk.h"
#include "tests/fuzz/fuzz.h"

/* Fewer slots than parents is a case of its own (octopus merges). */
#define SLOTS 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	git_oid ids[SLOTS];
	size_t hdr = 0, k, at;
	int n;

	n = parse_parents(p, size, ids, SLOTS, &hdr);
	if (n < 0)
		return 0;
	CHECK(size >= 46 && !memcmp(p, "tree ", 5) && p[45] == '\n');
	for (k = 5; k < 45; k++)
		CHECK(isxdigit((unsigned char)p[k]));
	CHECK(46 + 48 * (size_t)n <= size);
	CHECK(hdr >= 46 + 48 * (size_t)n && hdr <= size);
	if (hdr < size)
		CHECK(hdr >= 2 && p[hdr - 2] == '\n' && p[hdr - 1] == '\n');
	for (k = 0; k < (size_t)n; k++) {
		at = 46 + 48 * k;
		CHECK(!memcmp(p + at, "parent ", 7) && p[at + 47] == '\n');
		if (k < SLOTS) {
			char hex[GIT_OID_HEXSZ + 1];
			size_t i;

			git_oid_fmt(hex, &ids[k]);
			for (i = 0; i < GIT_OID_HEXSZ; i++)
				CHECK(hex[i] ==
				      tolower((unsigned char)p[at + 7 + i]));
		}
	}
	return 0;
}
