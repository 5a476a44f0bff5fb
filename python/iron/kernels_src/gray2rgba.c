/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * gray2rgba.c - C port of upstream's gray2rgba kernel
 * (iron.kernels.gray2rgba): one line of lineWidth gray pixels to RGBA
 * (Y, Y, Y, 255).
 */
#include <stdint.h>

void gray2rgbaLine(const uint8_t *in, uint8_t *out, int32_t lineWidth)
{
    for (int32_t j = 0; j < lineWidth; j++) {
        out[4 * j] = out[4 * j + 1] = out[4 * j + 2] = in[j];
        out[4 * j + 3] = 255;
    }
}
