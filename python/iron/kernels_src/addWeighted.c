/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * addWeighted.c - C port of upstream's addWeighted kernel
 * (iron.kernels.add_weighted) on uint8 lines: out = (gamma + alpha in1 +
 * beta in2) >> 14, shifted toward minus infinity and saturated to uint8.
 * alpha and beta are in units of 2^-14; upstream's entry reads gamma as
 * uint8.
 */
#include <stdint.h>

#define WEIGHT_SHIFT 14

static int32_t floor_shift(int32_t x, int s)
{
    return x >= 0 ? x >> s : -((-x + (1 << s) - 1) >> s);
}

void addWeightedLine(const uint8_t *in1, const uint8_t *in2, uint8_t *out,
                     int32_t lineWidth, int16_t alpha, int16_t beta,
                     int8_t gamma_in)
{
    const uint8_t gamma = (uint8_t)gamma_in;
    for (int32_t j = 0; j < lineWidth; j++) {
        int32_t acc = gamma + alpha * in1[j] + beta * in2[j];
        int32_t v = floor_shift(acc, WEIGHT_SHIFT);
        out[j] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}
