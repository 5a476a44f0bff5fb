/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * clock.c - the monotonic clock used for timeouts and build timings.
 */
#include <time.h>

#include "core/core.h"

uint64_t iron__now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double iron__now_ms(void)
{
    return (double)iron__now_ns() * 1e-6;
}

uint64_t iron__now_coarse_ns(void)
{
    struct timespec ts;
#ifdef CLOCK_MONOTONIC_COARSE
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
#else
    clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
