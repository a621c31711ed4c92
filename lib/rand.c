// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xoshiro256** (Blackman and Vigna) with splitmix64 seeding: fast, small
 * state, good statistical quality, and fully determined by the seed.
 */
#include <config.h>

#include "lib/rand.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void rand_seed(struct rand *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

void rand_seed_stream(struct rand *r, uint64_t seed, uint64_t index)
{
	uint64_t x = seed ^ (index * 0xd1342543de82ef95ULL);

	rand_seed(r, splitmix64(&x) ^ index);
}

uint64_t rand_next(struct rand *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rand_below(struct rand *r, uint64_t n)
{
	unsigned __int128 m;
	uint64_t low;

	if (!n)
		return 0;
	m = (unsigned __int128)rand_next(r) * n;
	low = (uint64_t)m;
	if (low < n) {
		uint64_t threshold = -n % n;

		while (low < threshold) {
			m = (unsigned __int128)rand_next(r) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

double rand_double(struct rand *r)
{
	return (double)(rand_next(r) >> 11) * 0x1.0p-53;
}
