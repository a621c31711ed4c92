/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The suite's only source of randomness: xoshiro256** seeded through
 * splitmix64.  Same seed, same sequence, on every machine and build.
 */
#ifndef LATENCY_RAND_H
#define LATENCY_RAND_H

#include <stdint.h>

/* Default seed of every program (fio's 0x89); --seed overrides it. */
#define RAND_DEFAULT_SEED 0x89ULL

struct rand {
	uint64_t s[4];
};

/* Seed R; any 64-bit value (0 included) gives a good state. */
void rand_seed(struct rand *r, uint64_t seed);
/* Next 64 random bits. */
uint64_t rand_next(struct rand *r);
/* Uniform in [0, N) without modulo bias (Lemire); 0 when N is 0. */
uint64_t rand_below(struct rand *r, uint64_t n);
/* Uniform double in [0, 1) with 53 random bits. */
double rand_double(struct rand *r);
/*
 * Derive an independent stream for sub-task INDEX (thread, file) from SEED,
 * so per-thread sequences do not depend on how many threads run.
 */
void rand_seed_stream(struct rand *r, uint64_t seed, uint64_t index);

#endif
