/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * rgba2gray.c - C port of upstream's rgba2gray kernel
 * (iron.kernels.rgba2gray): one line of lineWidth RGBA pixels to gray,
 * Y = (9798 R + 19235 G + 3736 B + 2^14) >> 15 (the weights are 0.299,
 * 0.587 and 0.114 in units of 2^-15), saturated to uint8.
 */
#include <stdint.h>

void rgba2grayLine(const uint8_t *in, uint8_t *out, int32_t lineWidth)
{
    const int32_t wr = 9798, wg = 19235, wb = 3736, rnd = 1 << 14;
    for (int32_t j = 0; j < lineWidth; j++) {
        int32_t acc = rnd + wr * in[4 * j] + wg * in[4 * j + 1] +
                      wb * in[4 * j + 2];
        int32_t y = acc >> 15;
        out[j] = (uint8_t)(y > 255 ? 255 : y);
    }
}
