/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * passThrough.c - C port of upstream's passThrough kernel
 * (iron.kernels.passthrough): copies a line (or a tile of lines) of
 * BIT_WIDTH-bit elements from in to out.  BIT_WIDTH is 8, 16 or 32 (the
 * default), given with -DBIT_WIDTH as upstream builds it.
 */
#include <stdint.h>
#include <string.h>

#ifndef BIT_WIDTH
#define BIT_WIDTH 32
#endif

#if BIT_WIDTH == 8
typedef uint8_t pt_elem;
#elif BIT_WIDTH == 16
typedef int16_t pt_elem;
#elif BIT_WIDTH == 32
typedef int32_t pt_elem;
#else
#error "BIT_WIDTH must be 8, 16 or 32"
#endif

void passThroughLine(const pt_elem *in, pt_elem *out, int32_t lineWidth)
{
    if (lineWidth > 0)
        memcpy(out, in, (size_t)lineWidth * sizeof(pt_elem));
}

void passThroughTile(const pt_elem *in, pt_elem *out, int32_t tileHeight,
                     int32_t tileWidth)
{
    if (tileHeight > 0 && tileWidth > 0)
        memcpy(out, in,
               (size_t)tileHeight * (size_t)tileWidth * sizeof(pt_elem));
}
