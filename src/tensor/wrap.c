/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * wrap.c - tensors over the caller's memory (iron_tensor_wrap): checked
 * for alignment and size, then handed to the current device's driver,
 * which must accept host memory.
 */
#include <inttypes.h>

#include "core/core.h"
#include "tensor/tensor.h"

IRON_API iron_status iron_tensor_wrap(void *data, size_t bytes, iron_dtype dt,
                                      iron_shape shape,
                                      iron_tensor_release_fn release,
                                      void *release_ctx, iron_tensor **out)
{
    const char *fn = "iron_tensor_wrap";
    int64_t numel = 0;
    size_t nbytes = 0;
    iron_status s;
    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", fn);
    *out = NULL;
    if (!data)
        return iron__fail(IRON_EINVAL, "%s: data is NULL", fn);
    if ((s = iron__tensor_check_dtype(fn, dt)) != IRON_OK)
        return iron__public_result(s);
    if ((s = iron__tensor_check_shape(fn, dt, &shape, &numel, &nbytes)) !=
        IRON_OK)
        return iron__public_result(s);
    size_t align = iron_dtype_size(dt);
    if ((uintptr_t)data % align != 0)
        return iron__fail(IRON_EINVAL,
                          "%s: data %p is not aligned to %zu bytes (the size "
                          "of %s; it is %zu bytes past a multiple); %d-byte "
                          "alignment (IRON_TENSOR_ALIGN) is recommended",
                          fn, data, align, iron_dtype_name(dt),
                          (size_t)((uintptr_t)data % align),
                          IRON_TENSOR_ALIGN);
    if (bytes < nbytes)
        return iron__fail(IRON_ESHAPE,
                          "%s: bytes is %zu, too small for %s x %" PRId64
                          " elements: expected at least %zu", fn, bytes,
                          iron_dtype_name(dt), numel, nbytes);
    iron__storage *st;
    if ((s = iron__storage_wrap(fn, data, bytes, release, release_ctx,
                                &st)) != IRON_OK)
        return iron__public_result(s);
    iron_tensor *t = iron__tensor_on(st, dt, &shape, numel, nbytes, data,
                                     NULL);
    if (!t) {
        /* The wrap failed: the memory stays the caller's, so release must
         * not run when the storage goes. */
        st->release = NULL;
        iron__storage_unref(st);
        return iron__fail(IRON_ENOMEM, "%s: out of memory for the tensor",
                          fn);
    }
    iron__storage_unref(st);
    *out = t;
    return iron__public_result(IRON_OK);
}

IRON_API int iron_tensor_is_wrapped(const iron_tensor *t)
{
    return t && t->st->wrapped;
}
