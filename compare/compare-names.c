// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sets of names for the fleet formats and the comparison that gathers
 * their figures: a hash set (open addressing) of strings each with a
 * number, FNV-1a (also the fleet formats' stable ids), and the workload a
 * latency summary's key names.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "compare/compare.h"

uint64_t cmp_fnv1a(uint64_t h, const char *s)
{
	/* The NUL too, so that "ab"+"c" and "a"+"bc" differ. */
	do {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	} while (*s++);
	return h;
}

static size_t names_slot(const struct cmp_names *m, const char *key)
{
	size_t i = (size_t)cmp_fnv1a(CMP_FNV_OFFSET, key) & (m->cap - 1);

	while (m->key[i] && strcmp(m->key[i], key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

bool cmp_names_add(struct cmp_names *m, const char *key, size_t val,
		   size_t *old)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct cmp_names big = { 0 };

		big.cap = m->cap ? 2 * m->cap : 64;
		big.key = xcalloc(big.cap, sizeof(*big.key));
		big.val = xcalloc(big.cap, sizeof(*big.val));
		for (i = 0; i < m->cap; i++) {
			if (!m->key[i])
				continue;
			size_t j = names_slot(&big, m->key[i]);

			big.key[j] = m->key[i];
			big.val[j] = m->val[i];
		}
		big.n = m->n;
		free(m->key);
		free(m->val);
		*m = big;
	}
	i = names_slot(m, key);
	if (m->key[i]) {
		if (old)
			*old = m->val[i];
		return false;
	}
	m->key[i] = xstrdup(key);
	m->val[i] = val;
	m->n++;
	return true;
}

void cmp_names_release(struct cmp_names *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->key[i]);
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

char *cmp_workload_of(const char *key)
{
	const char *dash = strrchr(key, '-');

	if (dash && dash > key && dash[1] &&
	    strspn(dash + 1, "0123456789") == strlen(dash + 1))
		return xasprintf("%.*s", (int)(dash - key), key);
	return xstrdup(key);
}
