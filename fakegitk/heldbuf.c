// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The held data: one anonymous mapping that grows by doubling with mremap,
 * so growing never copies and releasing is one munmap that hands every page
 * back to the kernel at once (a malloc'd buffer of this size would also be
 * mmap'd by glibc, but its growth would copy).  Pages are written as data
 * arrives, so they are really resident, and under pressure really swapped.
 */
#include <config.h>

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "fakegitk/fake-gitk.h"

#define HELDBUF_MIN (1UL << 20)

int heldbuf_append(struct heldbuf *b, const void *data, size_t len)
{
	if (len > b->cap - b->len) {
		size_t cap = b->cap ? b->cap : HELDBUF_MIN;
		void *p;

		while (cap - b->len < len) {
			if (cap > SIZE_MAX / 2)
				return -ENOMEM;
			cap *= 2;
		}
		if (b->base)
			p = mremap(b->base, b->cap, cap, MREMAP_MAYMOVE);
		else
			p = mmap(NULL, cap, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -ENOMEM;
		b->base = p;
		b->cap = cap;
	}
	memcpy(b->base + b->len, data, len);
	b->len += len;
	return 0;
}

uint64_t heldbuf_reread(const struct heldbuf *b, size_t off, size_t len,
			uint64_t sum)
{
	const unsigned char *p = (const unsigned char *)b->base + off;
	size_t i;

	/* Every byte, as gitk's display code would walk its strings. */
	for (i = 0; i < len; i++)
		sum = sum * 31 + p[i];
	return sum;
}

void heldbuf_release(struct heldbuf *b)
{
	if (b->base)
		munmap(b->base, b->cap);
	b->base = NULL;
	b->len = b->cap = 0;
}
