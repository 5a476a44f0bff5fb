/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * dtype.c - the element type table (names, aliases, sizes, ranges), the
 * bfloat16 conversions and the double <-> element conversions tensors use.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "tensor/tensor.h"

typedef struct dtype_desc {
    const char *name;
    size_t size;
    int is_float;
    int is_signed;
    int mantissa_bits;   /* floats only */
    int64_t min;         /* integers only */
    uint64_t max;
} dtype_desc;

static const dtype_desc dtypes[IRON_DTYPE_COUNT_] = {
    [IRON_INT8] = { "int8", 1, 0, 1, 0, INT8_MIN, INT8_MAX },
    [IRON_UINT8] = { "uint8", 1, 0, 0, 0, 0, UINT8_MAX },
    [IRON_INT16] = { "int16", 2, 0, 1, 0, INT16_MIN, INT16_MAX },
    [IRON_UINT16] = { "uint16", 2, 0, 0, 0, 0, UINT16_MAX },
    [IRON_INT32] = { "int32", 4, 0, 1, 0, INT32_MIN, INT32_MAX },
    [IRON_UINT32] = { "uint32", 4, 0, 0, 0, 0, UINT32_MAX },
    [IRON_INT64] = { "int64", 8, 0, 1, 0, INT64_MIN, INT64_MAX },
    [IRON_UINT64] = { "uint64", 8, 0, 0, 0, 0, UINT64_MAX },
    [IRON_FLOAT32] = { "float32", 4, 1, 1, 24, 0, 0 },
    [IRON_FLOAT64] = { "float64", 8, 1, 1, 53, 0, 0 },
    [IRON_BFLOAT16] = { "bfloat16", 2, 1, 1, 8, 0, 0 },
};

/* Short and C spellings accepted besides the canonical names.  "int" is
 * left out on purpose: it means int32 in C but int64 in numpy. */
static const struct {
    const char *alias;
    iron_dtype dt;
} aliases[] = {
    { "i8", IRON_INT8 },       { "int8_t", IRON_INT8 },
    { "u8", IRON_UINT8 },      { "uint8_t", IRON_UINT8 },
    { "i16", IRON_INT16 },     { "int16_t", IRON_INT16 },
    { "u16", IRON_UINT16 },    { "uint16_t", IRON_UINT16 },
    { "i32", IRON_INT32 },     { "int32_t", IRON_INT32 },
    { "u32", IRON_UINT32 },    { "uint32_t", IRON_UINT32 },
    { "i64", IRON_INT64 },     { "int64_t", IRON_INT64 },
    { "u64", IRON_UINT64 },    { "uint64_t", IRON_UINT64 },
    { "f32", IRON_FLOAT32 },   { "float", IRON_FLOAT32 },
    { "f64", IRON_FLOAT64 },   { "double", IRON_FLOAT64 },
    { "bf16", IRON_BFLOAT16 },
};

int iron__dtype_valid(iron_dtype dt)
{
    return (unsigned)dt < (unsigned)IRON_DTYPE_COUNT_;
}

const char *iron__dtype_ctype(iron_dtype dt)
{
    static const char *const names[IRON_DTYPE_COUNT_] = {
        [IRON_INT8] = "int8_t",       [IRON_UINT8] = "uint8_t",
        [IRON_INT16] = "int16_t",     [IRON_UINT16] = "uint16_t",
        [IRON_INT32] = "int32_t",     [IRON_UINT32] = "uint32_t",
        [IRON_INT64] = "int64_t",     [IRON_UINT64] = "uint64_t",
        [IRON_FLOAT32] = "float",     [IRON_FLOAT64] = "double",
        [IRON_BFLOAT16] = "uint16_t",
    };
    return iron__dtype_valid(dt) ? names[dt] : "?";
}

IRON_API const char *iron_dtype_name(iron_dtype dt)
{
    return iron__dtype_valid(dt) ? dtypes[dt].name : NULL;
}

IRON_API size_t iron_dtype_size(iron_dtype dt)
{
    return iron__dtype_valid(dt) ? dtypes[dt].size : 0;
}

int iron__dtype_is_float(iron_dtype dt)
{
    return iron__dtype_valid(dt) && dtypes[dt].is_float;
}

int iron__dtype_is_signed(iron_dtype dt)
{
    return iron__dtype_valid(dt) && dtypes[dt].is_signed;
}

void iron__dtype_int_range(iron_dtype dt, int64_t *min, uint64_t *max)
{
    int ok = iron__dtype_valid(dt);
    *min = ok ? dtypes[dt].min : 0;
    *max = ok ? dtypes[dt].max : 0;
}

int iron__dtype_mantissa_bits(iron_dtype dt)
{
    return iron__dtype_valid(dt) ? dtypes[dt].mantissa_bits : 0;
}

IRON_API iron_status iron_dtype_parse(const char *name, iron_dtype *out)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_dtype_parse: out is NULL");
    if (!name)
        return iron__fail(IRON_EINVAL, "iron_dtype_parse: name is NULL");
    for (int i = 0; i < IRON_DTYPE_COUNT_; i++) {
        if (strcmp(name, dtypes[i].name) == 0) {
            *out = (iron_dtype)i;
            return iron__public_result(IRON_OK);
        }
    }
    for (size_t i = 0; i < IRON__COUNT_OF(aliases); i++) {
        if (strcmp(name, aliases[i].alias) == 0) {
            *out = aliases[i].dt;
            return iron__public_result(IRON_OK);
        }
    }
    char known[256] = "";
    size_t len = 0;
    for (int i = 0; i < IRON_DTYPE_COUNT_ && len < sizeof known; i++) {
        int n = snprintf(known + len, sizeof known - len, "%s%s",
                         i ? ", " : "", dtypes[i].name);
        if (n < 0)
            break;
        len += (size_t)n;
    }
    return iron__fail(IRON_EDTYPE,
                      "unknown dtype '%s'; known dtypes: %s (also i32, u8, "
                      "f32, bf16, float, double, int32_t ...)",
                      name, known);
}

/* ------------------------------------------------------------------------
 * bfloat16
 * ------------------------------------------------------------------------ */

static uint32_t float_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static float bits_float(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* Adding 0x7FFF plus the kept LSB to the dropped half rounds to nearest
 * with ties to even; a carry into the exponent is the correct result
 * (up to infinity).  NaN is handled first so that a payload living only in
 * the dropped bits cannot turn into infinity: the quiet bit is forced. */
IRON_API iron_bf16 iron_bf16_from_float(float f)
{
    uint32_t b = float_bits(f);
    if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu) != 0)
        return (iron_bf16)((b >> 16) | 0x0040u);
    b += 0x7FFFu + ((b >> 16) & 1u);
    return (iron_bf16)(b >> 16);
}

IRON_API float iron_bf16_to_float(iron_bf16 h)
{
    return bits_float((uint32_t)h << 16);
}

/* double -> bfloat16 in one rounding.  Going through float with plain
 * rounding would round twice and can be off by one ulp on ties; instead the
 * double is first narrowed to float rounding to odd (truncate, then set the
 * last bit if anything was lost), which float's 16 spare bits make exact for
 * the second, round-to-nearest-even step. */
IRON_API iron_bf16 iron_bf16_from_double(double v)
{
    if (isnan(v))
        return iron_bf16_from_float((float)v);
    /* Halfway between the largest bfloat16 (0x1.fep127) and infinity; ties
     * go to infinity because the largest finite value has an odd mantissa.
     * Everything below it fits a float. */
    if (fabs(v) >= 0x1.ffp127)
        return v < 0 ? 0xFF80u : 0x7F80u;
    float f = (float)v;
    if ((double)f != v) {
        if (fabs((double)f) > fabs(v))
            f = nextafterf(f, 0.0f);
        f = bits_float(float_bits(f) | 1u);
    }
    return iron_bf16_from_float(f);
}

/* double -> float with overflow made explicit: out-of-range conversion is
 * undefined in ISO C even where the hardware gives infinity.  Values at or
 * beyond the midpoint between FLT_MAX and 2^128 round to infinity. */
static float float_from_double(double v)
{
    if (fabs(v) > FLT_MAX && !isinf(v) && !isnan(v)) {
        if (fabs(v) >= 0x1.ffffffp127)
            return v < 0 ? -INFINITY : INFINITY;
        return v < 0 ? -FLT_MAX : FLT_MAX;
    }
    return (float)v;
}

/* ------------------------------------------------------------------------
 * Element load/store
 * ------------------------------------------------------------------------ */

double iron__dtype_load(iron_dtype dt, const void *p)
{
    switch (dt) {
    case IRON_INT8: { int8_t x; memcpy(&x, p, sizeof x); return x; }
    case IRON_UINT8: { uint8_t x; memcpy(&x, p, sizeof x); return x; }
    case IRON_INT16: { int16_t x; memcpy(&x, p, sizeof x); return x; }
    case IRON_UINT16: { uint16_t x; memcpy(&x, p, sizeof x); return x; }
    case IRON_INT32: { int32_t x; memcpy(&x, p, sizeof x); return x; }
    case IRON_UINT32: { uint32_t x; memcpy(&x, p, sizeof x); return x; }
    case IRON_INT64: { int64_t x; memcpy(&x, p, sizeof x); return (double)x; }
    case IRON_UINT64: {
        uint64_t x;
        memcpy(&x, p, sizeof x);
        return (double)x;
    }
    case IRON_FLOAT32: { float x; memcpy(&x, p, sizeof x); return x; }
    case IRON_FLOAT64: { double x; memcpy(&x, p, sizeof x); return x; }
    case IRON_BFLOAT16: {
        iron_bf16 x;
        memcpy(&x, p, sizeof x);
        return iron_bf16_to_float(x);
    }
    default:
        return 0.0;
    }
}

/* Truncates toward zero and clamps to [lo, hi]; NaN gives 0.  lo and hi are
 * exact doubles for every type up to 32 bits. */
static double clamp_trunc(double v, double lo, double hi)
{
    if (isnan(v))
        return 0.0;
    v = trunc(v);
    return v < lo ? lo : v > hi ? hi : v;
}

static int64_t to_i64(double v)
{
    if (isnan(v))
        return 0;
    /* 2^63 is exact in double; anything at or above it saturates. */
    if (v >= 0x1p63)
        return INT64_MAX;
    if (v < -0x1p63)
        return INT64_MIN;
    return (int64_t)v;
}

static uint64_t to_u64(double v)
{
    if (isnan(v) || v <= 0.0)
        return 0;
    if (v >= 0x1p64)
        return UINT64_MAX;
    return (uint64_t)v;
}

#define STORE_AS(type, value)                                                 \
    do {                                                                      \
        type x_ = (type)(value);                                              \
        memcpy(p, &x_, sizeof x_);                                            \
    } while (0)

void iron__dtype_store(iron_dtype dt, void *p, double v)
{
    switch (dt) {
    case IRON_INT8:
        STORE_AS(int8_t, clamp_trunc(v, INT8_MIN, INT8_MAX));
        break;
    case IRON_UINT8: STORE_AS(uint8_t, clamp_trunc(v, 0, UINT8_MAX)); break;
    case IRON_INT16:
        STORE_AS(int16_t, clamp_trunc(v, INT16_MIN, INT16_MAX));
        break;
    case IRON_UINT16: STORE_AS(uint16_t, clamp_trunc(v, 0, UINT16_MAX)); break;
    case IRON_INT32:
        STORE_AS(int32_t, clamp_trunc(v, INT32_MIN, INT32_MAX));
        break;
    case IRON_UINT32: STORE_AS(uint32_t, clamp_trunc(v, 0, UINT32_MAX)); break;
    case IRON_INT64: STORE_AS(int64_t, to_i64(v)); break;
    case IRON_UINT64: STORE_AS(uint64_t, to_u64(v)); break;
    case IRON_FLOAT32: STORE_AS(float, float_from_double(v)); break;
    case IRON_FLOAT64: STORE_AS(double, v); break;
    case IRON_BFLOAT16: STORE_AS(iron_bf16, iron_bf16_from_double(v)); break;
    default: break;
    }
}
