/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* passThroughLine: a vision line copied byte by byte. */
#include <stdint.h>

void passThroughLine(const uint8_t *in, uint8_t *out, int32_t lineWidth)
{
    for (int32_t i = 0; i < lineWidth; i++)
        out[i] = in[i];
}
