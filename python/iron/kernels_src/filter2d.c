/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * filter2d.c - C port of upstream's filter2d kernel
 * (iron.kernels.filter2d): a 3 x 3 filter over three uint8 lines, giving
 * the middle one.  The int16 coefficients are used as int8 (k >> 8); the
 * window's sum (the line's ends replicated) is shifted right by 4 toward
 * minus infinity and saturated to uint8, as the AIE's shift-round-saturate
 * in its default rounding mode does.
 */
#include <stdint.h>

#define FILTER_SHIFT 4   /* upstream's SRS_SHIFT 12, less the coefficients' 8 */

static int32_t floor_shift(int32_t x, int s)
{
    return x >= 0 ? x >> s : -((-x + (1 << s) - 1) >> s);
}

void filter2dLine(const uint8_t *lineIn0, const uint8_t *lineIn1,
                  const uint8_t *lineIn2, uint8_t *out, int32_t lineWidth,
                  const int16_t *filterKernel)
{
    const uint8_t *line[3] = { lineIn0, lineIn1, lineIn2 };
    int8_t coeff[3][3];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            coeff[r][c] = (int8_t)(filterKernel[r * 3 + c] >> 8);
    for (int32_t x = 0; x < lineWidth; x++) {
        int32_t acc = 0;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                int32_t at = x - 1 + c;
                if (at < 0)
                    at = 0;
                if (at > lineWidth - 1)
                    at = lineWidth - 1;
                acc += coeff[r][c] * line[r][at];
            }
        int32_t v = floor_shift(acc, FILTER_SHIFT);
        out[x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}
