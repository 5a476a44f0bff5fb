/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * threshold.c - C port of upstream's threshold kernel
 * (iron.kernels.threshold) on uint8 lines: with x above the threshold,
 * binary gives maxValue (else 0), binary_inv 0 (else maxValue), tozero x
 * (else 0), tozero_inv 0 (else x), trunc the threshold (else x).
 * Upstream's entry reads its three scalars as uint8.
 */
#include <stdint.h>

enum { BINARY = 0, BINARY_INV = 1, TRUNC = 2, TOZERO = 3, TOZERO_INV = 4 };

void thresholdLine(const uint8_t *in, uint8_t *out, int32_t lineWidth,
                   int16_t thresholdValue, int16_t maxValue,
                   int8_t thresholdType)
{
    const uint8_t thr = (uint8_t)thresholdValue;
    const uint8_t max = (uint8_t)maxValue;
    const uint8_t type = (uint8_t)thresholdType;
    for (int32_t j = 0; j < lineWidth; j++) {
        const uint8_t x = in[j];
        const int above = thr < x;
        switch (type) {
        case BINARY: out[j] = above ? max : 0; break;
        case BINARY_INV: out[j] = above ? 0 : max; break;
        case TOZERO: out[j] = above ? x : 0; break;
        case TOZERO_INV: out[j] = above ? 0 : x; break;
        default: out[j] = above ? thr : x; break;   /* TRUNC */
        }
    }
}
