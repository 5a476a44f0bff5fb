/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * iron_kernel.h - helpers for kernel sources: the element types kernels
 * take, bfloat16 <-> float conversion, saturating arithmetic and the
 * shift-round-saturate step of fixed-point kernels.
 *
 * A kernel source compiled by the jit can write
 *     #include <iron/iron_kernel.h>
 * and gets the copy of this header that matches the library running it:
 * libiron carries the header's text and hands it to the C compiler with
 * every kernel, so an installed library never depends on a source tree,
 * and the kernel cache keys on that text (an edited header rebuilds).
 * Host programs may include it too (it is installed with iron.h); it does
 * not need iron.h and does not link with anything.
 *
 * Everything here is static inline, C11 and C++11, with no global state.
 *
 * Types.  A kernel's declared argument types map to C as follows:
 *     int8 .. uint64   int8_t .. uint64_t (<stdint.h>)
 *     float32          float
 *     float64          double
 *     bfloat16         iron_bf16: the upper 16 bits of an IEEE float32,
 *                      carried as its bits (uint16_t), the same type as
 *                      iron.h's iron_bf16.  Do arithmetic in float:
 *                      iron_k_bf16_to_float, compute, iron_k_bf16_from_float.
 */
#ifndef IRON_IRON_KERNEL_H
#define IRON_IRON_KERNEL_H

#include <stdint.h>
#include <string.h>

/* The same type as iron.h's; the guard keeps C99 compilers quiet when
 * both headers are included. */
#ifndef IRON_BF16_DEFINED
#define IRON_BF16_DEFINED
typedef uint16_t iron_bf16;
#endif

/* ------------------------------------------------------------------------
 * bfloat16.  Bit for bit the library's iron_bf16_from_float and
 * iron_bf16_to_float.
 * ------------------------------------------------------------------------ */

/* Exact: every bfloat16 is a float. */
static inline float iron_k_bf16_to_float(iron_bf16 b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Rounds to nearest, ties to even.  Adding 0x7FFF plus the kept low bit
 * to the dropped half does that; a carry into the exponent is the right
 * answer (up to infinity).  A NaN is handled first and keeps its sign and
 * upper payload with the quiet bit set, so a payload living only in the
 * dropped bits cannot turn it into infinity. */
static inline iron_bf16 iron_k_bf16_from_float(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0)
        return (iron_bf16)((u >> 16) | 0x0040u);
    u += 0x7FFFu + ((u >> 16) & 1u);
    return (iron_bf16)(u >> 16);
}

/* ------------------------------------------------------------------------
 * Narrowing with saturation: a value outside the target type's range
 * becomes its nearest bound.  They take int64_t, so any int8..int32 or
 * uint8..uint32 value (and sums or products of two) passes in unchanged.
 * ------------------------------------------------------------------------ */

static inline int8_t iron_k_sat_i8(int64_t v)
{
    return (int8_t)(v < INT8_MIN ? INT8_MIN : v > INT8_MAX ? INT8_MAX : v);
}

static inline uint8_t iron_k_sat_u8(int64_t v)
{
    return (uint8_t)(v < 0 ? 0 : v > UINT8_MAX ? UINT8_MAX : v);
}

static inline int16_t iron_k_sat_i16(int64_t v)
{
    return (int16_t)(v < INT16_MIN ? INT16_MIN
                     : v > INT16_MAX ? INT16_MAX : v);
}

static inline uint16_t iron_k_sat_u16(int64_t v)
{
    return (uint16_t)(v < 0 ? 0 : v > UINT16_MAX ? UINT16_MAX : v);
}

static inline int32_t iron_k_sat_i32(int64_t v)
{
    return (int32_t)(v < INT32_MIN ? INT32_MIN
                     : v > INT32_MAX ? INT32_MAX : v);
}

static inline uint32_t iron_k_sat_u32(int64_t v)
{
    return (uint32_t)(v < 0 ? 0 : v > (int64_t)UINT32_MAX ? UINT32_MAX : v);
}

/* ------------------------------------------------------------------------
 * Saturating add, subtract and multiply: the exact result, clamped to the
 * operands' type (what the AIE vector unit's saturating modes give).
 * ------------------------------------------------------------------------ */

static inline int8_t iron_k_add_sat_i8(int8_t a, int8_t b)
{
    return iron_k_sat_i8((int64_t)a + b);
}
static inline int8_t iron_k_sub_sat_i8(int8_t a, int8_t b)
{
    return iron_k_sat_i8((int64_t)a - b);
}
static inline int8_t iron_k_mul_sat_i8(int8_t a, int8_t b)
{
    return iron_k_sat_i8((int64_t)a * b);
}

static inline uint8_t iron_k_add_sat_u8(uint8_t a, uint8_t b)
{
    return iron_k_sat_u8((int64_t)a + b);
}
static inline uint8_t iron_k_sub_sat_u8(uint8_t a, uint8_t b)
{
    return iron_k_sat_u8((int64_t)a - b);
}
static inline uint8_t iron_k_mul_sat_u8(uint8_t a, uint8_t b)
{
    return iron_k_sat_u8((int64_t)a * b);
}

static inline int16_t iron_k_add_sat_i16(int16_t a, int16_t b)
{
    return iron_k_sat_i16((int64_t)a + b);
}
static inline int16_t iron_k_sub_sat_i16(int16_t a, int16_t b)
{
    return iron_k_sat_i16((int64_t)a - b);
}
static inline int16_t iron_k_mul_sat_i16(int16_t a, int16_t b)
{
    return iron_k_sat_i16((int64_t)a * b);
}

static inline uint16_t iron_k_add_sat_u16(uint16_t a, uint16_t b)
{
    return iron_k_sat_u16((int64_t)a + b);
}
static inline uint16_t iron_k_sub_sat_u16(uint16_t a, uint16_t b)
{
    return iron_k_sat_u16((int64_t)a - b);
}
static inline uint16_t iron_k_mul_sat_u16(uint16_t a, uint16_t b)
{
    return iron_k_sat_u16((int64_t)a * b);
}

static inline int32_t iron_k_add_sat_i32(int32_t a, int32_t b)
{
    return iron_k_sat_i32((int64_t)a + b);
}
static inline int32_t iron_k_sub_sat_i32(int32_t a, int32_t b)
{
    return iron_k_sat_i32((int64_t)a - b);
}
static inline int32_t iron_k_mul_sat_i32(int32_t a, int32_t b)
{
    return iron_k_sat_i32((int64_t)a * b);
}

static inline uint32_t iron_k_add_sat_u32(uint32_t a, uint32_t b)
{
    return iron_k_sat_u32((int64_t)a + b);
}
static inline uint32_t iron_k_sub_sat_u32(uint32_t a, uint32_t b)
{
    return iron_k_sat_u32((int64_t)a - b);
}
/* The one product that can pass INT64_MAX: computed in uint64_t. */
static inline uint32_t iron_k_mul_sat_u32(uint32_t a, uint32_t b)
{
    uint64_t p = (uint64_t)a * b;
    return p > UINT32_MAX ? UINT32_MAX : (uint32_t)p;
}

/* ------------------------------------------------------------------------
 * Shift right with rounding, and shift-round-saturate (srs), the way
 * fixed-point AIE kernels move an accumulator back to a narrow type.
 * Rounding is to nearest with ties toward +infinity (AIE's positive_inf
 * mode): 5 >> 1 gives 3, -5 >> 1 gives -2.  It never overflows, and it
 * does not rely on >> of a negative number (implementation-defined in C).
 * shift <= 0 leaves v as it is; shift >= 64 gives 0.
 * ------------------------------------------------------------------------ */

static inline int64_t iron_k_shift_round(int64_t v, int shift)
{
    if (shift <= 0)
        return v;
    if (shift >= 64)
        return 0;
    /* floor(v / 2^shift): ~v is >= 0 when v < 0, and ~(~v >> s) is the
     * floor of the quotient. */
    int64_t q = v >= 0 ? v >> shift : ~(~v >> shift);
    /* The first dropped bit says whether the remainder is at least half. */
    return q + (int64_t)(((uint64_t)v >> (shift - 1)) & 1u);
}

static inline int8_t iron_k_srs_i8(int64_t acc, int shift)
{
    return iron_k_sat_i8(iron_k_shift_round(acc, shift));
}

static inline uint8_t iron_k_srs_u8(int64_t acc, int shift)
{
    return iron_k_sat_u8(iron_k_shift_round(acc, shift));
}

static inline int16_t iron_k_srs_i16(int64_t acc, int shift)
{
    return iron_k_sat_i16(iron_k_shift_round(acc, shift));
}

static inline int32_t iron_k_srs_i32(int64_t acc, int shift)
{
    return iron_k_sat_i32(iron_k_shift_round(acc, shift));
}

/* ------------------------------------------------------------------------
 * min, max, clamp and a saturating absolute value.  The float versions
 * return a when a comparison is false, so a NaN in a passes through and
 * a NaN bound is ignored.
 * ------------------------------------------------------------------------ */

static inline int32_t iron_k_min_i32(int32_t a, int32_t b)
{
    return b < a ? b : a;
}
static inline int32_t iron_k_max_i32(int32_t a, int32_t b)
{
    return b > a ? b : a;
}
static inline int32_t iron_k_clamp_i32(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static inline int64_t iron_k_min_i64(int64_t a, int64_t b)
{
    return b < a ? b : a;
}
static inline int64_t iron_k_max_i64(int64_t a, int64_t b)
{
    return b > a ? b : a;
}
static inline int64_t iron_k_clamp_i64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static inline float iron_k_min_f32(float a, float b)
{
    return b < a ? b : a;
}
static inline float iron_k_max_f32(float a, float b)
{
    return b > a ? b : a;
}
static inline float iron_k_clamp_f32(float v, float lo, float hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* |v|, with the one value that has no positive counterpart (INT8_MIN ...)
 * saturating to the type's maximum. */
static inline int8_t iron_k_abs_sat_i8(int8_t v)
{
    return iron_k_sat_i8(v < 0 ? -(int64_t)v : v);
}
static inline int16_t iron_k_abs_sat_i16(int16_t v)
{
    return iron_k_sat_i16(v < 0 ? -(int64_t)v : v);
}
static inline int32_t iron_k_abs_sat_i32(int32_t v)
{
    return iron_k_sat_i32(v < 0 ? -(int64_t)v : v);
}

#endif
