// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the two checks fake-music puts between the outside and
 * a path or an address, proto_name_ok() (a file name from the wire or the
 * served folder) and split_host_port() (--from, --serve).  Beyond "no crash,
 * no sanitizer report" it checks their answers against their contracts: an
 * accepted name is relative, has no empty, "." or ".." component and no NUL,
 * and fits PROTO_NAME_MAX; an accepted address gives a non-empty host
 * without brackets and a port of 0 to 65535 that put back together give the
 * input.
 * Built and run by `make fuzz`.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"
#include "fakemusic/fake-music.h"
#include "tests/fuzz/fuzz.h"

static void check_name(const char *p, size_t n)
{
	size_t i, start = 0;

	if (!proto_name_ok(p, n))
		return;
	CHECK(n > 0 && n <= PROTO_NAME_MAX && p[0] != '/');
	CHECK(!memchr(p, '\0', n));
	for (i = 0; i <= n; i++) {
		if (i < n && p[i] != '/')
			continue;
		CHECK(i > start);
		CHECK(!(i - start == 1 && p[start] == '.'));
		CHECK(!(i - start == 2 && !memcmp(p + start, "..", 2)));
		start = i + 1;
	}
}

static void check_address(const char *s)
{
	char host[256], port[16], back[300];
	uint64_t num;

	if (split_host_port(s, host, sizeof(host), port, sizeof(port)))
		return;
	CHECK(host[0] && strlen(host) < sizeof(host));
	CHECK(!strpbrk(host, "[]"));
	CHECK(!parse_u64(port, &num) && num <= 65535);
	snprintf(back, sizeof(back), s[0] == '[' ? "[%s]:%s" : "%s:%s", host,
		 port);
	CHECK(!strcmp(back, s));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	CHECK(s);
	memcpy(s, data, size);
	s[size] = '\0';
	check_name(s, size);
	check_address(s);
	free(s);
	return 0;
}
