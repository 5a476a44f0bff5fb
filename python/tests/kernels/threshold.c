/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* thresholdLine: OpenCV-style thresholds of a uint8 line.  type 0 binary,
 * 1 binary inverted, 3 to zero, 4 to zero inverted, else truncate. */
#include <stdint.h>

void thresholdLine(const uint8_t *in, uint8_t *out, int32_t lineWidth,
                   int16_t thresholdValue, int16_t maxValue,
                   int8_t thresholdType)
{
    const uint8_t t = (uint8_t)thresholdValue;
    const uint8_t m = (uint8_t)maxValue;
    for (int32_t j = 0; j < lineWidth; j++) {
        const uint8_t x = in[j];
        switch ((uint8_t)thresholdType) {
        case 0: out[j] = t < x ? m : 0; break;
        case 1: out[j] = t < x ? 0 : m; break;
        case 3: out[j] = t < x ? x : 0; break;
        case 4: out[j] = t < x ? 0 : x; break;
        default: out[j] = x < t ? x : t; break;
        }
    }
}
