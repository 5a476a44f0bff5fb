/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * rng.c - the portable pseudo-random generator behind iron_tensor_rand and
 * iron_tensor_randint: xoshiro256** (Blackman & Vigna) seeded by splitmix64.
 * Only fixed-width integer arithmetic, so every platform gives the same bits.
 */
#include "core/core.h"
#include "tensor/tensor.h"

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t iron__splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* splitmix64 spreads any seed (0 included) over the 256-bit state, which
 * must not be all zero; four consecutive splitmix64 outputs never are. */
void iron__rng_seed(iron__rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = iron__splitmix64(&x);
}

uint64_t iron__rng_next(iron__rng *r)
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

/* The top bits are xoshiro's best; k * 2^-bits is exact in a double (and
 * in any float type with at least `bits` significand bits), so the result
 * never rounds up to 1. */
double iron__rng_unit(iron__rng *r, int bits)
{
    if (bits < 1)
        bits = 1;
    if (bits > 53)
        bits = 53;
    uint64_t k = iron__rng_next(r) >> (64 - bits);
    return (double)k * (1.0 / (double)((uint64_t)1 << bits));
}

/* Rejection sampling: draws below 2^64 mod n would land in the buckets
 * [0, 2^64 mod n) once more often than the rest, so they are redrawn.  The
 * threshold (2^64 - n) mod n equals 2^64 mod n; fewer than half the draws
 * are ever rejected. */
uint64_t iron__rng_below(iron__rng *r, uint64_t n)
{
    if (n == 0)
        return iron__rng_next(r);
    uint64_t threshold = (0 - n) % n;
    for (;;) {
        uint64_t x = iron__rng_next(r);
        if (x >= threshold)
            return x % n;
    }
}
