/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * storage.c - the memory behind tensors: driver allocations and wrapped
 * caller memory, shared by a tensor and its views through a reference
 * count, and given back (with the caller's release callback) by the last.
 */
#include "core/core.h"
#include "device/device.h"
#include "tensor/tensor.h"

void iron__storage_ref(iron__storage *st)
{
    atomic_fetch_add_explicit(&st->refs, 1, memory_order_relaxed);
}

/* The last reference returns the memory.  Every tensor on st has waited
 * for its calls before dropping its reference (iron_tensor_free), so no
 * DMA can still touch the memory when the release callback runs. */
void iron__storage_unref(iron__storage *st)
{
    if (!st || atomic_fetch_sub_explicit(&st->refs, 1,
                                         memory_order_acq_rel) != 1)
        return;
    if (st->wrapped) {
        iron__drv_buf_unwrap(st->dev, st->host, st->handle);
        if (st->release)
            st->release(st->release_ctx, st->host);
    } else {
        iron__drv_buf_free(st->dev, st->host, st->handle);
    }
    iron__free(st);
}

/* A storage record of nbytes on dev (NULL: the current device) with one
 * reference and no memory yet: alloc and wrap differ only in where the
 * memory comes from. */
static iron_status storage_new(const char *fn, iron_device *dev,
                               size_t nbytes, iron__storage **out)
{
    iron_status s;
    *out = NULL;
    if (!dev && (s = iron_device_get_current(&dev)) != IRON_OK)
        return iron__fail_context(s, "%s", fn);
    iron__storage *st = iron__calloc(1, sizeof *st);
    if (!st)
        return iron__fail(IRON_ENOMEM, "%s: out of memory for the tensor",
                          fn);
    atomic_init(&st->refs, 1);
    st->dev = dev;
    st->nbytes = nbytes;
    *out = st;
    return IRON_OK;
}

/* Hands st out once the driver gave it memory (s), or frees it. */
static iron_status storage_finish(const char *fn, iron_status s,
                                  iron__storage *st, iron__storage **out)
{
    if (s != IRON_OK) {
        iron__free(st);
        return iron__fail_context(s, "%s", fn);
    }
    *out = st;
    return IRON_OK;
}

/* Zeroed driver memory of nbytes on dev (NULL: the current device), one
 * reference. */
iron_status iron__storage_alloc(const char *fn, iron_device *dev,
                                size_t nbytes, iron__storage **out)
{
    iron__storage *st;
    *out = NULL;
    iron_status s = storage_new(fn, dev, nbytes, &st);
    if (s != IRON_OK)
        return s;
    s = iron__drv_buf_alloc(st->dev, nbytes, &st->host, &st->handle);
    return storage_finish(fn, s, st, out);
}

iron_status iron__storage_wrap(const char *fn, void *data, size_t bytes,
                               iron_tensor_release_fn release,
                               void *release_ctx, iron__storage **out)
{
    iron__storage *st;
    *out = NULL;
    iron_status s = storage_new(fn, NULL, bytes, &st);
    if (s != IRON_OK)
        return s;
    st->host = data;
    st->wrapped = 1;
    st->release = release;
    st->release_ctx = release_ctx;
    s = iron__drv_buf_wrap(st->dev, data, bytes, &st->handle);
    return storage_finish(fn, s, st, out);
}
