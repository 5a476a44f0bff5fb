/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* passThrough.c - the C port of the passThrough kernel upstream's
 * passthrough examples link as passThrough.cc.o: copies a line. */
#include <stdint.h>

void passThroughLine(const uint8_t *in, uint8_t *out, int32_t line_width)
{
    for (int32_t i = 0; i < line_width; i++)
        out[i] = in[i];
}
