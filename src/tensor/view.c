/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * view.c - tensors sharing another tensor's memory: reshapes, strided
 * views and slices.  Each takes a reference on the storage, so the tensor
 * it came from may be freed first; every element a view can reach is
 * checked to lie inside the storage when the view is made.
 */
#include <inttypes.h>
#include <stdio.h>

#include "core/core.h"
#include "tensor/tensor.h"

/* "[4, 8]" for messages. */
static const char *dims_text(const int64_t *dims, int n, char *buf,
                             size_t len)
{
    size_t used = 0;
    int w = snprintf(buf, len, "[");
    for (int d = 0; w >= 0 && d < n; d++) {
        used += (size_t)w;
        if (used >= len)
            return buf;
        w = snprintf(buf + used, len - used, "%s%" PRId64, d ? ", " : "",
                     dims[d]);
    }
    if (w >= 0 && (used += (size_t)w) < len)
        snprintf(buf + used, len - used, "]");
    return buf;
}

/* A new tensor on t's storage; on failure nothing is held. */
static iron_status share(const char *fn, iron_tensor *t,
                         const iron_shape *shape, int64_t numel,
                         size_t nbytes, void *host, const int64_t *strides,
                         iron_tensor **out)
{
    iron_tensor *v = iron__tensor_on(t->st, t->dtype, shape, numel, nbytes,
                                     host, strides);
    if (!v)
        return iron__fail(IRON_ENOMEM, "%s: out of memory for the view", fn);
    *out = v;
    return IRON_OK;
}

/* Checks that every element the layout reaches lies in t's storage:
 * the lowest and highest offsets come from the dims whose stride is
 * negative and positive.  Offsets are in elements from t's element 0;
 * the message gives them from the storage's start. */
static iron_status check_reach(const char *fn, const iron_tensor *t,
                               int64_t offset, const iron_shape *shape,
                               const int64_t *strides)
{
    char desc[IRON__TENSOR_DESCRIBE_MAX], sh[96], st[96];
    int64_t esz = (int64_t)iron_dtype_size(t->dtype);
    int64_t base = ((const unsigned char *)t->host -
                    (const unsigned char *)t->st->host) / esz;
    int64_t cap = (int64_t)(t->st->nbytes / (size_t)esz);
    int64_t lo = offset, hi = offset;
    int ovf = __builtin_add_overflow(base, offset, &lo);
    hi = lo;
    for (int d = 0; !ovf && d < shape->ndim; d++) {
        int64_t span;
        ovf = __builtin_mul_overflow(shape->dims[d] - 1, strides[d], &span);
        if (!ovf)
            ovf = span < 0 ? __builtin_add_overflow(lo, span, &lo)
                           : __builtin_add_overflow(hi, span, &hi);
    }
    if (ovf)
        return iron__fail(IRON_EBOUNDS,
                          "%s: a view of %s at offset %" PRId64 " with shape "
                          "%s and strides %s reaches past 2^63 elements", fn,
                          iron__tensor_describe(t, desc, sizeof desc), offset,
                          dims_text(shape->dims, shape->ndim, sh, sizeof sh),
                          dims_text(strides, shape->ndim, st, sizeof st));
    if (lo < 0 || hi >= cap)
        return iron__fail(IRON_EBOUNDS,
                          "%s: a view of %s at offset %" PRId64 " with shape "
                          "%s and strides %s reaches element %" PRId64
                          " of its storage, which holds elements 0..%" PRId64,
                          fn, iron__tensor_describe(t, desc, sizeof desc),
                          offset,
                          dims_text(shape->dims, shape->ndim, sh, sizeof sh),
                          dims_text(strides, shape->ndim, st, sizeof st),
                          lo < 0 ? lo : hi, cap - 1);
    return IRON_OK;
}

/* Only a contiguous tensor reshapes without copying, and only to a
 * shape of its element count (numel). */
static iron_status check_reshape(const char *fn, const iron_tensor *t,
                                 const iron_shape *shape, int64_t numel)
{
    char desc[IRON__TENSOR_DESCRIBE_MAX], want[96];
    if (numel != t->numel)
        return iron__fail(IRON_ESHAPE,
                          "%s: cannot reshape %s (%" PRId64 " elements) to "
                          "%s (%" PRId64 " elements): the element counts "
                          "must match", fn,
                          iron__tensor_describe(t, desc, sizeof desc),
                          t->numel,
                          dims_text(shape->dims, shape->ndim, want,
                                    sizeof want), numel);
    if (!t->contiguous)
        return iron__fail(IRON_ESHAPE,
                          "%s: %s is a non-contiguous view (strides %s); "
                          "only contiguous tensors reshape without copying: "
                          "reshape iron_tensor_copy of it (or "
                          "iron_tensor_contiguous)", fn,
                          iron__tensor_describe(t, desc, sizeof desc),
                          dims_text(t->strides, t->shape.ndim, want,
                                    sizeof want));
    return IRON_OK;
}

/* A view of t from element `offset` with `shape` (checked here) and
 * strides (NULL: row-major).  A reshape (offset 0, strides NULL) keeps
 * t's element count on contiguous t; any other view must stay inside
 * t's storage. */
static iron_status make_view(const char *fn, iron_tensor *t, int64_t offset,
                             iron_shape shape, const int64_t *strides,
                             int reshape, iron_tensor **out)
{
    int64_t numel;
    size_t nbytes;
    iron_status s = iron__tensor_check_shape(fn, t->dtype, &shape, &numel,
                                             &nbytes);
    if (s != IRON_OK)
        return s;
    if (reshape) {
        if ((s = check_reshape(fn, t, &shape, numel)) != IRON_OK)
            return s;
        return share(fn, t, &shape, numel, nbytes, t->host, NULL, out);
    }
    int64_t rowmajor[IRON_MAX_DIMS];
    if (!strides) {
        iron__tensor_rowmajor(&shape, rowmajor);
        strides = rowmajor;
    }
    if ((s = check_reach(fn, t, offset, &shape, strides)) != IRON_OK)
        return s;
    unsigned char *host = (unsigned char *)t->host +
                          offset * (int64_t)iron_dtype_size(t->dtype);
    return share(fn, t, &shape, numel, nbytes, host, strides, out);
}

IRON_API iron_status iron_tensor_reshape(iron_tensor *t, iron_shape shape,
                                         iron_tensor **out)
{
    const char *fn = "iron_tensor_reshape";
    char desc[IRON__TENSOR_DESCRIBE_MAX], want[96];
    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", fn);
    *out = NULL;
    if (!t)
        return iron__fail(IRON_EINVAL, "%s: tensor is NULL", fn);
    if (shape.ndim < 1 || shape.ndim > IRON_MAX_DIMS)
        return iron__fail(IRON_ESHAPE, "%s: shape has %d dims; expected "
                          "1..%d", fn, shape.ndim, IRON_MAX_DIMS);
    /* numpy's -1: one dim inferred from the others. */
    int infer = -1;
    int64_t known = 1;
    for (int d = 0; d < shape.ndim; d++) {
        int64_t n = shape.dims[d];
        if (n == -1 && infer < 0) {
            infer = d;
            continue;
        }
        if (n < 1)
            return iron__fail(IRON_ESHAPE,
                              "%s: shape dim %d is %" PRId64 "; dims must be "
                              ">= 1, or -1 for one dim inferred from the "
                              "others", fn, d, n);
        if (__builtin_mul_overflow(known, n, &known))
            known = INT64_MAX;
    }
    if (infer >= 0) {
        if (known > t->numel || t->numel % known != 0)
            return iron__fail(IRON_ESHAPE,
                              "%s: cannot reshape %s (%" PRId64 " elements) "
                              "to %s: the other dims make %" PRId64
                              " elements, which does not divide %" PRId64,
                              fn, iron__tensor_describe(t, desc, sizeof desc),
                              t->numel,
                              dims_text(shape.dims, shape.ndim, want,
                                        sizeof want),
                              known, t->numel);
        shape.dims[infer] = t->numel / known;
    }
    return iron__public_result(make_view(fn, t, 0, shape, NULL, 1, out));
}

IRON_API iron_status iron_tensor_view(iron_tensor *t, int64_t offset,
                                      iron_shape shape,
                                      const int64_t *strides,
                                      iron_tensor **out)
{
    const char *fn = "iron_tensor_view";
    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", fn);
    *out = NULL;
    if (!t)
        return iron__fail(IRON_EINVAL, "%s: tensor is NULL", fn);
    return iron__public_result(
        make_view(fn, t, offset, shape, strides, 0, out));
}

IRON_API iron_status iron_tensor_slice(iron_tensor *t, int dim,
                                       int64_t start, int64_t stop,
                                       int64_t step, iron_tensor **out)
{
    const char *fn = "iron_tensor_slice";
    char desc[IRON__TENSOR_DESCRIBE_MAX];
    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", fn);
    *out = NULL;
    if (!t)
        return iron__fail(IRON_EINVAL, "%s: tensor is NULL", fn);
    if (dim < 0 || dim >= t->shape.ndim)
        return iron__fail(IRON_EINVAL, "%s: dim %d is outside %s (valid "
                          "0..%d)", fn, dim,
                          iron__tensor_describe(t, desc, sizeof desc),
                          t->shape.ndim - 1);
    int64_t n = t->shape.dims[dim];
    if (step < 1 || start < 0 || start >= stop || stop > n)
        return iron__fail(IRON_EBOUNDS,
                          "%s: slice %" PRId64 ":%" PRId64 ":%" PRId64
                          " of dim %d of %s; expected 0 <= start < stop <= "
                          "%" PRId64 " and step >= 1", fn, start, stop, step,
                          dim, iron__tensor_describe(t, desc, sizeof desc), n);
    iron_shape shape = t->shape;
    int64_t strides[IRON_MAX_DIMS];
    for (int d = 0; d < IRON_MAX_DIMS; d++)
        strides[d] = t->strides[d];
    shape.dims[dim] = (stop - start + step - 1) / step;
    strides[dim] = t->strides[dim] * step;
    return iron__public_result(
        iron_tensor_view(t, start * t->strides[dim], shape, strides, out));
}

IRON_API int iron_tensor_is_contiguous(const iron_tensor *t)
{
    return t && t->contiguous;
}

IRON_API const int64_t *iron_tensor_strides(const iron_tensor *t)
{
    return t ? t->strides : NULL;
}

iron_status iron__tensor_check_callable(const iron_tensor *t,
                                        const char *who, int i,
                                        const char *name)
{
    if (t->contiguous)
        return IRON_OK;
    char desc[IRON__TENSOR_DESCRIBE_MAX], st[96];
    return iron__fail(IRON_EARG,
                      "%s: argument %d ('%s') is a non-contiguous view (%s "
                      "with strides %s); a call takes row-major contiguous "
                      "memory: pass iron_tensor_copy of it (or "
                      "iron_tensor_contiguous)", who, i, name,
                      iron__tensor_describe(t, desc, sizeof desc),
                      dims_text(t->strides, t->shape.ndim, st, sizeof st));
}

/* The byte range a contiguous tensor covers; the jit passes only
 * contiguous tensors, so that is all it needs to compare. */
int iron__tensor_overlaps(const iron_tensor *a, const iron_tensor *b)
{
    /* Views of one storage, or host memory wrapped twice (two numpy views
     * of one array, passed as separate tensors): their bytes tell. */
    if (a->st != b->st && (!a->host || !b->host))
        return 0;
    const unsigned char *pa = a->host, *pb = b->host;
    return pa < pb + b->nbytes && pb < pa + a->nbytes;
}
