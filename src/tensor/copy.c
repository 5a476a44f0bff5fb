/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * copy.c - tensors made like others (*_like), copies between tensors and
 * caller memory, contiguous clones of views and element-wise assignment.
 * Every copy follows the tensors' strides; contiguous ones take memcpy.
 */
#include <inttypes.h>
#include <string.h>

#include "core/core.h"
#include "tensor/tensor.h"

/* --- like factories ------------------------------------------------------ */

/* Same dtype and shape, on t's device (where its memory is). */
static iron_status like(const char *fn, const iron_tensor *t,
                        iron_tensor **out)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", fn);
    *out = NULL;
    if (!t)
        return iron__fail(IRON_EINVAL, "%s: tensor is NULL", fn);
    return iron__tensor_new(fn, t->dev, t->dtype, t->shape, out);
}

IRON_API iron_status iron_tensor_empty_like(const iron_tensor *t,
                                            iron_tensor **out)
{
    return iron__public_result(like("iron_tensor_empty_like", t, out));
}

IRON_API iron_status iron_tensor_zeros_like(const iron_tensor *t,
                                            iron_tensor **out)
{
    return iron__public_result(like("iron_tensor_zeros_like", t, out));
}

IRON_API iron_status iron_tensor_full_like(const iron_tensor *t,
                                           double value, iron_tensor **out)
{
    iron_status s = like("iron_tensor_full_like", t, out);
    if (s == IRON_OK)
        iron__tensor_fill(*out, value);
    return iron__public_result(s);
}

IRON_API iron_status iron_tensor_ones_like(const iron_tensor *t,
                                           iron_tensor **out)
{
    iron_status s = like("iron_tensor_ones_like", t, out);
    if (s == IRON_OK)
        iron__tensor_fill(*out, 1.0);
    return iron__public_result(s);
}

/* --- copies -------------------------------------------------------------- */

/* Element by element in row-major order between two layouts of the same
 * shape and dtype (either may be strided). */
static void copy_elems(const iron_tensor *dst, const iron_tensor *src)
{
    size_t size = iron_dtype_size(src->dtype);
    if (dst->contiguous && src->contiguous) {
        memmove(dst->host, src->host, src->nbytes);
        return;
    }
    for (int64_t i = 0; i < src->numel; i++)
        memcpy(iron__tensor_elem(dst, i), iron__tensor_elem(src, i), size);
}

static iron_status check_bytes(const char *fn, const iron_tensor *t,
                               const void *p, const char *pname,
                               size_t bytes)
{
    char desc[IRON__TENSOR_DESCRIBE_MAX];
    if (!t)
        return iron__fail(IRON_EINVAL, "%s: tensor is NULL", fn);
    if (!p)
        return iron__fail(IRON_EINVAL, "%s: %s is NULL", fn, pname);
    if (bytes != t->nbytes)
        return iron__fail(IRON_ESHAPE,
                          "%s: bytes is %zu; %s takes exactly %zu (%" PRId64
                          " elements x %zu bytes)", fn, bytes,
                          iron__tensor_describe(t, desc, sizeof desc),
                          t->nbytes, t->numel, iron_dtype_size(t->dtype));
    return IRON_OK;
}

IRON_API iron_status iron_tensor_copy_from(iron_tensor *t, const void *src,
                                           size_t bytes)
{
    iron_status s = check_bytes("iron_tensor_copy_from", t, src, "src",
                                bytes);
    if (s != IRON_OK)
        return iron__public_result(s);
    if (t->contiguous) {
        memmove(t->host, src, bytes);
        return iron__public_result(IRON_OK);
    }
    size_t size = iron_dtype_size(t->dtype);
    const unsigned char *p = src;
    for (int64_t i = 0; i < t->numel; i++)
        memcpy(iron__tensor_elem(t, i), p + (size_t)i * size, size);
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_tensor_copy_to(const iron_tensor *t, void *dst,
                                         size_t bytes)
{
    iron_status s = check_bytes("iron_tensor_copy_to", t, dst, "dst", bytes);
    if (s != IRON_OK)
        return iron__public_result(s);
    if (t->contiguous) {
        memmove(dst, t->host, bytes);
        return iron__public_result(IRON_OK);
    }
    size_t size = iron_dtype_size(t->dtype);
    unsigned char *p = dst;
    for (int64_t i = 0; i < t->numel; i++)
        memcpy(p + (size_t)i * size, iron__tensor_elem(t, i), size);
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_tensor_copy(const iron_tensor *src,
                                      iron_tensor **out)
{
    iron_status s = like("iron_tensor_copy", src, out);
    if (s == IRON_OK)
        copy_elems(*out, src);
    return iron__public_result(s);
}

IRON_API iron_status iron_tensor_contiguous(iron_tensor *t,
                                            iron_tensor **out)
{
    if (t && out && t->contiguous)
        return iron__public_result(iron_tensor_reshape(t, t->shape, out));
    return iron__public_result(iron_tensor_copy(t, out));
}

/* Overlapping strided layouts on one storage could read elements already
 * written: such a source is copied aside first. */
IRON_API iron_status iron_tensor_assign(iron_tensor *dst,
                                        const iron_tensor *src)
{
    const char *fn = "iron_tensor_assign";
    char a[IRON__TENSOR_DESCRIBE_MAX], b[IRON__TENSOR_DESCRIBE_MAX];
    if (!dst || !src)
        return iron__fail(IRON_EINVAL, "%s: %s is NULL", fn,
                          !dst ? "dst" : "src");
    if (dst->dtype != src->dtype)
        return iron__fail(IRON_EDTYPE, "%s: dst is %s, src is %s; the "
                          "dtypes must match", fn,
                          iron__tensor_describe(dst, a, sizeof a),
                          iron__tensor_describe(src, b, sizeof b));
    if (dst->shape.ndim != src->shape.ndim ||
        memcmp(dst->shape.dims, src->shape.dims,
               sizeof dst->shape.dims) != 0)
        return iron__fail(IRON_ESHAPE, "%s: dst is %s, src is %s; the "
                          "shapes must match", fn,
                          iron__tensor_describe(dst, a, sizeof a),
                          iron__tensor_describe(src, b, sizeof b));
    if (dst == src)
        return iron__public_result(IRON_OK);
    if (dst->st == src->st && !(dst->contiguous && src->contiguous)) {
        iron_tensor *tmp;
        iron_status s = iron_tensor_copy(src, &tmp);
        if (s != IRON_OK)
            return iron__fail_context(s, "%s", fn);
        copy_elems(dst, tmp);
        iron_tensor_free(tmp);
        return iron__public_result(IRON_OK);
    }
    copy_elems(dst, src);
    return iron__public_result(IRON_OK);
}
