/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * dlpack.c - DLPack (0.6, Debian's libdlpack-dev) import and export:
 * a DLManagedTensor of CPU memory becomes a tensor without copying (a
 * strided view when it has strides), and a tensor is lent out as a
 * DLManagedTensor that keeps its memory alive until the consumer's
 * deleter call.
 */
#include <inttypes.h>
#include <stdio.h>

#include <dlpack/dlpack.h>

#include "core/core.h"
#include "tensor/tensor.h"

/* --- names for messages -------------------------------------------------- */

static const char *device_name(int type)
{
    switch (type) {
    case kDLCPU: return "kDLCPU";
    case kDLCUDA: return "kDLCUDA";
    case kDLCUDAHost: return "kDLCUDAHost";
    case kDLOpenCL: return "kDLOpenCL";
    case kDLVulkan: return "kDLVulkan";
    case kDLMetal: return "kDLMetal";
    case kDLVPI: return "kDLVPI";
    case kDLROCM: return "kDLROCM";
    case kDLROCMHost: return "kDLROCMHost";
    case kDLExtDev: return "kDLExtDev";
    case kDLCUDAManaged: return "kDLCUDAManaged";
    case 14: return "kDLOneAPI";
    case 15: return "kDLWebGPU";
    case 16: return "kDLHexagon";
    default: return "an unknown device type";
    }
}

static const char *code_name(int code)
{
    switch (code) {
    case kDLInt: return "kDLInt";
    case kDLUInt: return "kDLUInt";
    case kDLFloat: return "kDLFloat";
    case kDLOpaqueHandle: return "kDLOpaqueHandle";
    case kDLBfloat: return "kDLBfloat";
    case kDLComplex: return "kDLComplex";
    case 6: return "kDLBool";
    default: return "an unknown type code";
    }
}

/* --- dtypes -------------------------------------------------------------- */

static int dtype_from_dl(DLDataType t, iron_dtype *out)
{
    static const struct {
        uint8_t code, bits;
        iron_dtype dt;
    } map[] = {
        { kDLInt, 8, IRON_INT8 },     { kDLUInt, 8, IRON_UINT8 },
        { kDLInt, 16, IRON_INT16 },   { kDLUInt, 16, IRON_UINT16 },
        { kDLInt, 32, IRON_INT32 },   { kDLUInt, 32, IRON_UINT32 },
        { kDLInt, 64, IRON_INT64 },   { kDLUInt, 64, IRON_UINT64 },
        { kDLFloat, 32, IRON_FLOAT32 }, { kDLFloat, 64, IRON_FLOAT64 },
        { kDLBfloat, 16, IRON_BFLOAT16 },
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].code == t.code && map[i].bits == t.bits) {
            *out = map[i].dt;
            return 1;
        }
    return 0;
}

static DLDataType dtype_to_dl(iron_dtype dt)
{
    DLDataType t = { kDLInt, (uint8_t)(iron_dtype_size(dt) * 8), 1 };
    switch (dt) {
    case IRON_UINT8: case IRON_UINT16: case IRON_UINT32: case IRON_UINT64:
        t.code = kDLUInt;
        break;
    case IRON_FLOAT32: case IRON_FLOAT64:
        t.code = kDLFloat;
        break;
    case IRON_BFLOAT16:
        t.code = kDLBfloat;
        break;
    default:
        break;
    }
    return t;
}

/* --- import -------------------------------------------------------------- */

/* The storage's release: the producer's memory goes back through its
 * deleter, once, after the last tensor on it is freed. */
static void call_deleter(void *ctx, void *data)
{
    (void)data;
    DLManagedTensor *m = ctx;
    if (m->deleter)
        m->deleter(m);
}

/* Checks shape and strides and finds the lowest and highest element
 * offsets reachable from element 0 (in elements). */
static iron_status check_layout(const char *fn, const DLTensor *x,
                                iron_dtype dt, iron_shape *shape,
                                int64_t *numel, size_t *nbytes, int64_t *lo,
                                int64_t *hi)
{
    if (x->ndim < 1 || x->ndim > IRON_MAX_DIMS)
        return iron__fail(IRON_ESHAPE,
                          "%s: ndim is %d; expected 1..%d (a 0-d tensor "
                          "must be reshaped to [1] first)", fn, x->ndim,
                          IRON_MAX_DIMS);
    if (!x->shape)
        return iron__fail(IRON_EINVAL, "%s: dl_tensor.shape is NULL", fn);
    shape->ndim = x->ndim;
    for (int d = 0; d < x->ndim; d++)
        shape->dims[d] = x->shape[d];
    iron_status s = iron__tensor_check_shape(fn, dt, shape, numel, nbytes);
    if (s != IRON_OK)
        return s;
    *lo = *hi = 0;
    if (!x->strides) {
        *hi = *numel - 1;
        return IRON_OK;
    }
    for (int d = 0; d < x->ndim; d++) {
        int64_t span;
        if (__builtin_mul_overflow(x->shape[d] - 1, x->strides[d], &span) ||
            __builtin_add_overflow(span < 0 ? *lo : *hi, span,
                                   span < 0 ? lo : hi))
            return iron__fail(IRON_ESHAPE,
                              "%s: strides[%d] = %" PRId64 " over %" PRId64
                              " elements reach past 2^63 elements", fn, d,
                              x->strides[d], x->shape[d]);
    }
    int64_t esz = (int64_t)iron_dtype_size(dt), b;
    if (__builtin_mul_overflow(*hi - *lo + 1, esz, &b))
        return iron__fail(IRON_ESHAPE, "%s: the strides span more than "
                          "2^63 bytes", fn);
    return IRON_OK;
}

IRON_API iron_status iron_tensor_from_dlpack(struct DLManagedTensor *m,
                                             iron_tensor **out)
{
    const char *fn = "iron_tensor_from_dlpack";
    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", fn);
    *out = NULL;
    if (!m)
        return iron__fail(IRON_EINVAL, "%s: managed tensor is NULL", fn);
    const DLTensor *x = &m->dl_tensor;
    if (x->device.device_type != kDLCPU)
        return iron__fail(IRON_EDEVICE,
                          "%s: the tensor is on device %s (type %d, id %d); "
                          "only kDLCPU memory can be used: copy it to the "
                          "CPU first", fn,
                          device_name((int)x->device.device_type),
                          (int)x->device.device_type, x->device.device_id);
    if (x->dtype.lanes != 1)
        return iron__fail(IRON_EDTYPE,
                          "%s: dtype has %u lanes (%s, %u bits); only "
                          "single-lane (scalar) elements are supported", fn,
                          (unsigned)x->dtype.lanes,
                          code_name(x->dtype.code), (unsigned)x->dtype.bits);
    iron_dtype dt;
    if (!dtype_from_dl(x->dtype, &dt))
        return iron__fail(IRON_EDTYPE,
                          "%s: dtype %s (code %u) with %u bits has no "
                          "iron_dtype; supported are kDLInt and kDLUInt of "
                          "8/16/32/64 bits, kDLFloat of 32/64 and kDLBfloat "
                          "of 16", fn, code_name(x->dtype.code),
                          (unsigned)x->dtype.code, (unsigned)x->dtype.bits);
    if (!x->data)
        return iron__fail(IRON_EINVAL, "%s: dl_tensor.data is NULL", fn);
    iron_shape shape = { 0, { 0 } };
    int64_t numel, lo, hi;
    size_t nbytes;
    iron_status s = check_layout(fn, x, dt, &shape, &numel, &nbytes, &lo,
                                 &hi);
    if (s != IRON_OK)
        return iron__public_result(s);
    size_t esz = iron_dtype_size(dt);
    if (x->byte_offset > (uint64_t)INT64_MAX)
        return iron__fail(IRON_EINVAL, "%s: byte_offset %" PRIu64 " is past "
                          "2^63", fn, x->byte_offset);
    unsigned char *first = (unsigned char *)x->data + x->byte_offset;
    if ((uintptr_t)first % esz != 0)
        return iron__fail(IRON_EINVAL,
                          "%s: data %p + byte_offset %" PRIu64 " = %p is "
                          "not aligned to %zu bytes (the size of %s)", fn,
                          x->data, x->byte_offset, (void *)first, esz,
                          iron_dtype_name(dt));
    /* The storage is exactly the range the strides reach. */
    unsigned char *start = first + lo * (int64_t)esz;
    size_t span = (size_t)(hi - lo + 1) * esz;
    iron__storage *st;
    if ((s = iron__storage_wrap(fn, start, span, call_deleter, m, &st)) !=
        IRON_OK)
        return iron__public_result(s);
    iron_tensor *t = iron__tensor_on(st, dt, &shape, numel, nbytes, first,
                                     x->strides);
    if (!t) {
        st->release = NULL;  /* failed: the producer still owns m */
        iron__storage_unref(st);
        return iron__fail(IRON_ENOMEM, "%s: out of memory for the tensor",
                          fn);
    }
    iron__storage_unref(st);
    *out = t;
    return iron__public_result(IRON_OK);
}

/* --- export -------------------------------------------------------------- */

/* What an export owns: the managed tensor handed out, its shape and
 * strides, and a tensor of its own on the exported memory. */
typedef struct dl_export {
    DLManagedTensor m;
    int64_t shape[IRON_MAX_DIMS];
    int64_t strides[IRON_MAX_DIMS];
    iron_tensor *ref;
} dl_export;

static void export_deleter(DLManagedTensor *m)
{
    dl_export *e = m->manager_ctx;
    iron_tensor_free(e->ref);
    iron__free(e);
}

IRON_API iron_status iron_tensor_to_dlpack(iron_tensor *t,
                                           struct DLManagedTensor **out)
{
    const char *fn = "iron_tensor_to_dlpack";
    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", fn);
    *out = NULL;
    if (!t)
        return iron__fail(IRON_EINVAL, "%s: tensor is NULL", fn);
    dl_export *e = iron__calloc(1, sizeof *e);
    if (!e)
        return iron__fail(IRON_ENOMEM, "%s: out of memory", fn);
    e->ref = iron__tensor_on(t->st, t->dtype, &t->shape, t->numel, t->nbytes,
                             t->host, t->strides);
    if (!e->ref) {
        iron__free(e);
        return iron__fail(IRON_ENOMEM, "%s: out of memory", fn);
    }
    for (int d = 0; d < t->shape.ndim; d++) {
        e->shape[d] = t->shape.dims[d];
        e->strides[d] = t->strides[d];
    }
    DLTensor *x = &e->m.dl_tensor;
    x->data = t->host;
    x->device.device_type = kDLCPU;
    x->device.device_id = 0;
    x->ndim = t->shape.ndim;
    x->dtype = dtype_to_dl(t->dtype);
    x->shape = e->shape;
    x->strides = e->strides;
    x->byte_offset = 0;
    e->m.manager_ctx = e;
    e->m.deleter = export_deleter;
    *out = &e->m;
    return iron__public_result(IRON_OK);
}
