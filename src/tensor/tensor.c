/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * tensor.c - tensors: validated construction on the current device's
 * driver memory, the fill factories, element access and description.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "device/device.h"
#include "tensor/tensor.h"

/* ------------------------------------------------------------------------
 * Validation
 * ------------------------------------------------------------------------ */

iron_status iron__tensor_check_dtype(const char *fn, iron_dtype dt)
{
    if (!iron__dtype_valid(dt))
        return iron__fail(IRON_EDTYPE,
                          "%s: dtype %d is not an iron_dtype (expected 0..%d)",
                          fn, (int)dt, (int)IRON_DTYPE_COUNT_ - 1);
    return IRON_OK;
}

/* Checks the shape and computes numel (the product of the dims) and
 * nbytes (numel x the dtype's size), refusing shapes whose byte count does
 * not fit both int64_t and size_t: every later index and byte offset is
 * computed from these without further checks. */
iron_status iron__tensor_check_shape(const char *fn, iron_dtype dt,
                                     const iron_shape *shape, int64_t *numel,
                                     size_t *nbytes)
{
    if (shape->ndim < 1 || shape->ndim > IRON_MAX_DIMS)
        return iron__fail(IRON_ESHAPE,
                          "%s: shape has %d dims; expected 1..%d", fn,
                          shape->ndim, IRON_MAX_DIMS);
    int64_t limit = INT64_MAX;
    if ((uint64_t)SIZE_MAX < (uint64_t)INT64_MAX)
        limit = (int64_t)SIZE_MAX;
    int64_t size = (int64_t)iron_dtype_size(dt);
    int64_t n = 1, bytes = 0;
    for (int i = 0; i < shape->ndim; i++) {
        int64_t d = shape->dims[i];
        if (d < 1)
            return iron__fail(IRON_ESHAPE,
                              "%s: shape dim %d is %" PRId64
                              "; dims must be >= 1", fn, i, d);
    }
    for (int i = 0; i < shape->ndim; i++) {
        int64_t d = shape->dims[i], before = n;
        if (__builtin_mul_overflow(before, d, &n))
            return iron__fail(IRON_ESHAPE,
                              "%s: shape is too large: the element count "
                              "overflows at dim %d: %" PRId64 " x %" PRId64
                              " is past 2^63-1",
                              fn, i, before, d);
        if (__builtin_mul_overflow(n, size, &bytes) || bytes > limit)
            return iron__fail(IRON_ESHAPE,
                              "%s: shape is too large: the byte count "
                              "overflows at dim %d (%" PRId64 "): %" PRId64
                              " elements x %" PRId64 " bytes of %s is past "
                              "%" PRId64,
                              fn, i, d, n, size, iron_dtype_name(dt), limit);
    }
    *numel = n;
    *nbytes = (size_t)bytes;
    return IRON_OK;
}

/* ------------------------------------------------------------------------
 * Construction
 * ------------------------------------------------------------------------ */

void iron__tensor_rowmajor(const iron_shape *shape, int64_t *strides)
{
    int64_t step = 1;
    for (int d = IRON_MAX_DIMS - 1; d >= 0; d--) {
        if (d >= shape->ndim) {
            strides[d] = 0;
            continue;
        }
        strides[d] = step;
        step *= shape->dims[d];
    }
}

/* Dims of extent 1 may have any stride: numpy's rule, so that a view
 * selecting one row of a matrix is contiguous. */
static int is_rowmajor(const iron_shape *shape, const int64_t *strides)
{
    int64_t step = 1;
    for (int d = shape->ndim - 1; d >= 0; d--) {
        if (shape->dims[d] != 1 && strides[d] != step)
            return 0;
        step *= shape->dims[d];
    }
    return 1;
}

iron_tensor *iron__tensor_on(iron__storage *st, iron_dtype dt,
                             const iron_shape *shape, int64_t numel,
                             size_t nbytes, void *host,
                             const int64_t *strides)
{
    iron_tensor *t = iron__calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->dtype = dt;
    t->shape = *shape;
    for (int i = shape->ndim; i < IRON_MAX_DIMS; i++)
        t->shape.dims[i] = 0;
    t->numel = numel;
    t->nbytes = nbytes;
    t->host = host;
    t->handle = st->handle;
    t->dev = st->dev;
    if (strides) {
        for (int i = 0; i < IRON_MAX_DIMS; i++)
            t->strides[i] = i < shape->ndim ? strides[i] : 0;
    } else {
        iron__tensor_rowmajor(shape, t->strides);
    }
    t->contiguous = is_rowmajor(shape, t->strides);
    t->st = st;
    iron__storage_ref(st);
    return t;
}

unsigned char *iron__tensor_elem(const iron_tensor *t, int64_t i)
{
    size_t size = iron_dtype_size(t->dtype);
    unsigned char *p = t->host;
    if (t->contiguous)
        return p + (size_t)i * size;
    int64_t off = 0;
    for (int d = t->shape.ndim - 1; d >= 0; d--) {
        off += (i % t->shape.dims[d]) * t->strides[d];
        i /= t->shape.dims[d];
    }
    return p + off * (int64_t)size;
}

/* The shared constructor: validates, then takes zeroed memory from the
 * current device's driver.  On failure *out is NULL and nothing is held. */
static iron_status tensor_new(const char *fn, iron_tensor **out,
                              iron_dtype dt, iron_shape shape)
{
    return iron__tensor_new(fn, NULL, dt, shape, out);
}

iron_status iron__tensor_new(const char *fn, iron_device *dev, iron_dtype dt,
                             iron_shape shape, iron_tensor **out)
{
    iron_status s;
    int64_t numel = 0;
    size_t nbytes = 0;
    iron__storage *st;

    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", fn);
    *out = NULL;
    if ((s = iron__tensor_check_dtype(fn, dt)) != IRON_OK)
        return s;
    if ((s = iron__tensor_check_shape(fn, dt, &shape, &numel, &nbytes)) !=
        IRON_OK)
        return s;
    if ((s = iron__storage_alloc(fn, dev, nbytes, &st)) != IRON_OK)
        return s;
    iron_tensor *t = iron__tensor_on(st, dt, &shape, numel, nbytes, st->host,
                                     NULL);
    iron__storage_unref(st);  /* the tensor holds it now, or nobody */
    if (!t)
        return iron__fail(IRON_ENOMEM, "%s: out of memory for the tensor",
                          fn);
    *out = t;
    return IRON_OK;
}

IRON_API iron_status iron_tensor_empty(iron_dtype dt,
                                       iron_shape shape, iron_tensor **out)
{
    iron_status result = tensor_new("iron_tensor_empty", out, dt, shape);
    return iron__public_result(result);
}

/* Drivers hand out zeroed memory (the driver contract), so zeros is empty
 * with a stronger promise. */
IRON_API iron_status iron_tensor_zeros(iron_dtype dt,
                                       iron_shape shape, iron_tensor **out)
{
    iron_status result = tensor_new("iron_tensor_zeros", out, dt, shape);
    return iron__public_result(result);
}

/* Converts once and replicates the bytes: every element is the same.  t
 * is contiguous (a new tensor). */
void iron__tensor_fill(iron_tensor *t, double value)
{
    unsigned char elem[8];
    size_t size = iron_dtype_size(t->dtype);
    unsigned char *p = t->host;
    iron__dtype_store(t->dtype, elem, value);
    for (int64_t i = 0; i < t->numel; i++)
        memcpy(p + (size_t)i * size, elem, size);
}

static iron_status tensor_full(const char *fn, iron_tensor **out,
                               iron_dtype dt, iron_shape shape, double value)
{
    iron_status s = tensor_new(fn, out, dt, shape);
    if (s == IRON_OK)
        iron__tensor_fill(*out, value);
    return s;
}

IRON_API iron_status iron_tensor_ones(iron_dtype dt,
                                      iron_shape shape, iron_tensor **out)
{
    iron_status result = tensor_full("iron_tensor_ones", out, dt, shape, 1.0);
    return iron__public_result(result);
}

IRON_API iron_status iron_tensor_full(iron_dtype dt, iron_shape shape,
                                      double value, iron_tensor **out)
{
    iron_status result = tensor_full("iron_tensor_full", out, dt, shape,
                                     value);
    return iron__public_result(result);
}

/* numpy's np.arange(start, stop, step): ceil((stop - start) / step)
 * elements (numpy's length rule, in double as numpy computes it), element
 * i being start + i * step converted to dt.  A tensor has at least one
 * element, so an empty range is an error saying so. */
IRON_API iron_status iron_tensor_arange(iron_dtype dt, double start,
                                        double stop, double step,
                                        iron_tensor **out)
{
    const char *fn = "iron_tensor_arange";
    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", fn);
    *out = NULL;
    iron_status s = iron__tensor_check_dtype(fn, dt);
    if (s != IRON_OK)
        return s;
    if (!isfinite(start) || !isfinite(stop))
        return iron__fail(IRON_EINVAL, "%s: start %g and stop %g: both must "
                          "be finite", fn, start, stop);
    if (!isfinite(step) || step == 0)
        return iron__fail(IRON_EINVAL, "%s: step is %g; expected a finite, "
                          "nonzero number", fn, step);
    double len = ceil((stop - start) / step);
    if (!(len >= 1))
        return iron__fail(IRON_ESHAPE, "%s: start %g, stop %g, step %g give "
                          "no elements; a tensor has at least one (numpy's "
                          "empty arange has no iron counterpart)", fn, start,
                          stop, step);
    /* 2^63: beyond it the count is no int64_t (the shape check catches
     * the smaller counts whose bytes overflow). */
    if (len >= 9223372036854775808.0)
        return iron__fail(IRON_ESHAPE, "%s: start %g, stop %g, step %g give "
                          "%g elements; a shape dim holds at most 2^63-1", fn,
                          start, stop, step, len);
    s = tensor_new(fn, out, dt, IRON_SHAPE((int64_t)len));
    if (s != IRON_OK)
        return s;
    iron_tensor *t = *out;
    size_t size = iron_dtype_size(dt);
    unsigned char *p = t->host;
    /* start + i * step rather than a running sum, so that error does not
     * accumulate over long tensors. */
    for (int64_t i = 0; i < t->numel; i++)
        iron__dtype_store(dt, p + (size_t)i * size,
                          start + (double)i * step);
    return iron__public_result(IRON_OK);
}

/* Every value k * 2^-bits with bits the dtype's significand width is exact
 * in that dtype, so float32 and bfloat16 values never round up to 1.0. */
IRON_API iron_status iron_tensor_rand(iron_dtype dt, iron_shape shape,
                                      uint64_t seed, iron_tensor **out)
{
    const char *fn = "iron_tensor_rand";
    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", fn);
    *out = NULL;
    iron_status s = iron__tensor_check_dtype(fn, dt);
    if (s != IRON_OK)
        return s;
    if (!iron__dtype_is_float(dt))
        return iron__fail(IRON_EDTYPE,
                          "%s: dtype %s is not a float type; rand needs "
                          "float32, float64 or bfloat16 (use "
                          "iron_tensor_randint for integers)",
                          fn, iron_dtype_name(dt));
    if ((s = tensor_new(fn, out, dt, shape)) != IRON_OK)
        return s;
    iron_tensor *t = *out;
    iron__rng rng;
    int bits = iron__dtype_mantissa_bits(dt);
    size_t size = iron_dtype_size(dt);
    unsigned char *p = t->host;
    iron__rng_seed(&rng, seed);
    for (int64_t i = 0; i < t->numel; i++)
        iron__dtype_store(dt, p + (size_t)i * size,
                          iron__rng_unit(&rng, bits));
    return iron__public_result(IRON_OK);
}

/* Integer stores bypass double so that int64/uint64 values keep all their
 * bits; the caller has checked that v fits dt. */
static void store_int(iron_dtype dt, void *p, int64_t v)
{
    switch (dt) {
    case IRON_INT8: { int8_t x = (int8_t)v; memcpy(p, &x, 1); break; }
    case IRON_UINT8: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
    case IRON_INT16: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
    case IRON_UINT16: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case IRON_INT32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
    case IRON_UINT32: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    case IRON_INT64: memcpy(p, &v, 8); break;
    case IRON_UINT64: { uint64_t x = (uint64_t)v; memcpy(p, &x, 8); break; }
    default: iron__dtype_store(dt, p, (double)v); break;
    }
}

/* Range check for randint: every value in [low, high) must be exact in dt.
 * For integers that is low >= min and high - 1 <= max (so uint8 takes
 * [0, 256)); for floats the integers up to 2^significand bits. */
static iron_status check_int_range(const char *fn, iron_dtype dt,
                                   int64_t low, int64_t high)
{
    if (low >= high)
        return iron__fail(IRON_EINVAL,
                          "%s: low (%" PRId64 ") must be < high (%" PRId64
                          ")", fn, low, high);
    int64_t min;
    uint64_t max;
    if (iron__dtype_is_float(dt)) {
        int64_t lim = (int64_t)1 << iron__dtype_mantissa_bits(dt);
        min = -lim;
        max = (uint64_t)lim;
    } else {
        iron__dtype_int_range(dt, &min, &max);
    }
    int fits = low >= min && (high - 1 < 0 || (uint64_t)(high - 1) <= max);
    if (!fits)
        return iron__fail(IRON_EINVAL,
                          "%s: range [%" PRId64 ", %" PRId64 ") does not "
                          "fit %s, whose exact integers are %" PRId64
                          " .. %" PRIu64, fn, low, high, iron_dtype_name(dt),
                          min, max);
    return IRON_OK;
}

IRON_API iron_status iron_tensor_randint(iron_dtype dt, iron_shape shape,
                                         int64_t low, int64_t high,
                                         uint64_t seed, iron_tensor **out)
{
    const char *fn = "iron_tensor_randint";
    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", fn);
    *out = NULL;
    iron_status s = iron__tensor_check_dtype(fn, dt);
    if (s != IRON_OK)
        return s;
    if ((s = check_int_range(fn, dt, low, high)) != IRON_OK)
        return s;
    if ((s = tensor_new(fn, out, dt, shape)) != IRON_OK)
        return s;
    iron_tensor *t = *out;
    iron__rng rng;
    /* high - low fits uint64 even for the whole int64 range; the wrap back
     * to int64 after adding low is two's complement arithmetic done in
     * unsigned, which is defined. */
    uint64_t span = (uint64_t)high - (uint64_t)low;
    size_t size = iron_dtype_size(dt);
    unsigned char *p = t->host;
    iron__rng_seed(&rng, seed);
    for (int64_t i = 0; i < t->numel; i++) {
        uint64_t u = (uint64_t)low + iron__rng_below(&rng, span);
        int64_t v;
        memcpy(&v, &u, sizeof v);
        store_int(dt, p + (size_t)i * size, v);
    }
    return iron__public_result(IRON_OK);
}

IRON_API void iron_tensor_free(iron_tensor *t)
{
    if (!t)
        return;
    /* A call on another thread may still be moving its data. */
    iron__tensor_wait_unheld(t);
    iron__storage_unref(t->st);
    iron__free(t);
}

/* ------------------------------------------------------------------------
 * Accessors
 * ------------------------------------------------------------------------ */

IRON_API void *iron_tensor_data(iron_tensor *t)
{
    return t ? t->host : NULL;
}

IRON_API iron_dtype iron_tensor_dtype(const iron_tensor *t)
{
    return t ? t->dtype : IRON_DTYPE_COUNT_;
}

IRON_API iron_shape iron_tensor_shape(const iron_tensor *t)
{
    iron_shape none = { 0, { 0 } };
    return t ? t->shape : none;
}

IRON_API int64_t iron_tensor_numel(const iron_tensor *t)
{
    return t ? t->numel : 0;
}

IRON_API size_t iron_tensor_nbytes(const iron_tensor *t)
{
    return t ? t->nbytes : 0;
}

IRON_API iron_device *iron_tensor_device(const iron_tensor *t)
{
    return t ? t->dev : NULL;
}

static iron_status check_index(const char *fn, const iron_tensor *t,
                               int64_t i)
{
    if (!t)
        return iron__fail(IRON_EINVAL, "%s: tensor is NULL", fn);
    if (i < 0 || i >= t->numel) {
        char desc[IRON__TENSOR_DESCRIBE_MAX];
        return iron__fail(IRON_EBOUNDS,
                          "%s: index %" PRId64 " is outside %s (valid 0..%"
                          PRId64 ")", fn, i,
                          iron__tensor_describe(t, desc, sizeof desc),
                          t->numel - 1);
    }
    return IRON_OK;
}

IRON_API iron_status iron_tensor_get_element(const iron_tensor *t, int64_t i,
                                             double *out)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_tensor_get_element: out is NULL");
    iron_status s = check_index("iron_tensor_get_element", t, i);
    if (s != IRON_OK)
        return s;
    *out = iron__dtype_load(t->dtype, iron__tensor_elem(t, i));
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_tensor_set_element(iron_tensor *t, int64_t i,
                                             double v)
{
    iron_status s = check_index("iron_tensor_set_element", t, i);
    if (s != IRON_OK)
        return s;
    iron__dtype_store(t->dtype, iron__tensor_elem(t, i), v);
    return iron__public_result(IRON_OK);
}

char *iron__tensor_describe(const iron_tensor *t, char *buf, size_t len)
{
    if (!buf || len == 0)
        return buf;
    if (!t) {
        snprintf(buf, len, "(null)");
        return buf;
    }
    size_t n = 0;
    int w = snprintf(buf, len, "%s[", iron_dtype_name(t->dtype));
    for (int d = 0; w >= 0 && d < t->shape.ndim; d++) {
        n += (size_t)w;
        if (n >= len)
            return buf;
        w = snprintf(buf + n, len - n, "%s%" PRId64, d ? ", " : "",
                     t->shape.dims[d]);
    }
    if (w < 0)
        return buf;
    n += (size_t)w;
    if (n < len)
        snprintf(buf + n, len - n, "]");
    return buf;
}

IRON_API iron_status iron_tensor_describe(const iron_tensor *t, char **out)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_tensor_describe: out is NULL");
    *out = NULL;
    if (!t)
        return iron__fail(IRON_EINVAL, "iron_tensor_describe: tensor is NULL");
    char buf[IRON__TENSOR_DESCRIBE_MAX];
    iron__tensor_describe(t, buf, sizeof buf);
    if (!(*out = iron__strdup(buf)))
        return iron__fail(IRON_ENOMEM, "iron_tensor_describe: out of memory");
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_tensor_sync(iron_tensor *t, iron_sync_dir dir)
{
    if (!t)
        return iron__fail(IRON_EINVAL, "iron_tensor_sync: tensor is NULL");
    if (dir != IRON_SYNC_TO_DEVICE && dir != IRON_SYNC_TO_HOST)
        return iron__fail(IRON_EINVAL,
                          "iron_tensor_sync: direction %d is neither "
                          "IRON_SYNC_TO_DEVICE nor IRON_SYNC_TO_HOST",
                          (int)dir);
    /* A strided view's elements are spread over its storage: sync all of
     * it rather than work out the span. */
    iron_status s = t->contiguous
                        ? iron__drv_buf_sync(t->dev, t->host, t->handle,
                                             t->nbytes, dir)
                        : iron__drv_buf_sync(t->dev, t->st->host, t->handle,
                                             t->st->nbytes, dir);
    if (s != IRON_OK)
        return iron__fail_context(s, "iron_tensor_sync");
    return iron__public_result(IRON_OK);
}
