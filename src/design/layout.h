/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * layout.h - checks on data layout transforms (dims_to_stream /
 * dims_from_stream) and on the runtime's access patterns against the shim
 * DMA's limits, plus the canonical form both use.
 */
#ifndef IRON_DESIGN_LAYOUT_H
#define IRON_DESIGN_LAYOUT_H

#include "core/core.h"
#include "iron/iron.h"

/* The shim DMA's limits (upstream's verifyStridesWraps for a shim NOC
 * tile: 10-bit wraps, 20-bit steps, 6-bit iteration count, all encoded
 * minus one): the iteration count of its fourth dimension -- the only one
 * that repeats (stride 0) --, the size of its two inner dimensions (d0
 * in 32-bit words) and every stride in 32-bit words. */
#define IRON__SHIM_MAX_REPEAT 64
#define IRON__SHIM_MAX_WRAP 1023
#define IRON__SHIM_MAX_STRIDE_WORDS ((int64_t)1 << 20)

/* Limits of a DMA's address generator, per tile kind. */
#define IRON__DIMS_COMPUTE 3
#define IRON__DIMS_SHIM 3
#define IRON__DIMS_MEMTILE 4

/* A layout transform on an endpoint (an iron_tap whose offset is 0):
 * 1..max_ndim dimensions, sizes >= 1, strides >= 0, it visits exactly
 * obj_numel elements and each lies inside the object; for 1- and 2-byte
 * dtypes the innermost stride is 1 and the innermost run is a whole number
 * of 4-byte words.  label names the endpoint and its tile for messages
 * ("fifo 'a' (producer) on memtile (0,1)").  IRON_EDESIGN otherwise, naming
 * the dimension, the value and the rule. */
iron_status iron__dims_check(const iron_tap *dims, int max_ndim,
                             iron_dtype dt, int64_t obj_numel,
                             const char *label);

/* The same visiting order with size-1 dimensions dropped and dimensions
 * merged where the outer one continues the inner one (stride_outer ==
 * size_inner * stride_inner); at least one dimension remains. */
void iron__tap_canonical(const iron_tap *in, iron_tap *out);

/* Appends "offset O sizes [..] strides [..]" (dumps, pictures). */
void iron__tap_text(iron__str *s, const iron_tap *t);

/* The shim DMA's limits on a runtime fill/drain pattern, as upstream's
 * verifier (verifyStridesWraps, for NpuDmaMemcpyNdOp and runtime DMA
 * tasks) judges the four hardware dimensions d0 (innermost) .. d3 that
 * upstream's runtime fills from the pattern as written: its dimensions
 * right-aligned, missing outer ones of size 1 ([a, b] is [1, 1, a, b]).
 * Leading size-1 dimensions are dropped first, and an outermost stride-0
 * dimension (a repeat) is d3 whatever the number of dimensions.  Then d0
 * holds at most 1023 32-bit words and d1 at most 1023 elements unless
 * d0..d2 are one contiguous run, d2 is unlimited, d3 -- the iteration
 * count, the only dimension that may have stride 0 -- is at most 64;
 * strides are at most 2^20 32-bit words; the offset, every stride and the
 * innermost run are whole 4-byte words (for 1- and 2-byte dtypes the
 * innermost stride is 1).  IRON_EBOUNDS naming the dimension, the value,
 * the limit, the reading and, when one exists, a way to write the pattern
 * with size-1 dimensions that fits. */
iron_status iron__tap_check_shim(const iron_tap *tap, iron_dtype dt);

/* The reading above as four (size, stride) pairs, outermost (d3) first:
 * what the MLIR export writes, so that upstream reads the pattern as it
 * was checked.  tap has 1 to IRON_TAP_MAX_DIMS dimensions. */
void iron__tap_shim_dims(const iron_tap *tap, int64_t sizes[4],
                         int64_t strides[4]);

#endif
