/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_tensor_dlpack.c - DLPack import and export: round trips of every
 * dtype, zero-copy sharing, deleter timing, strided tensors as views, a
 * jit call on imported memory, and every refusal (device, dtype, lanes,
 * shape, alignment).
 */
#include <stdlib.h>

#include <dlpack/dlpack.h>

#include "core/core.h"
#include "designs/designs.h"
#include "test.h"

/* A producer's managed tensor over caller memory, counting deleter
 * calls. */
typedef struct producer {
    DLManagedTensor m;
    int64_t shape[IRON_MAX_DIMS];
    int64_t strides[IRON_MAX_DIMS];
    int deleted;
} producer;

static void producer_deleter(DLManagedTensor *m)
{
    ((producer *)m->manager_ctx)->deleted++;
}

static void producer_init(producer *p, void *data, DLDataType dt, int ndim,
                          const int64_t *shape, const int64_t *strides)
{
    memset(p, 0, sizeof *p);
    p->m.dl_tensor.data = data;
    p->m.dl_tensor.device.device_type = kDLCPU;
    p->m.dl_tensor.ndim = ndim;
    p->m.dl_tensor.dtype = dt;
    for (int d = 0; d < ndim; d++) {
        p->shape[d] = shape[d];
        if (strides)
            p->strides[d] = strides[d];
    }
    p->m.dl_tensor.shape = p->shape;
    p->m.dl_tensor.strides = strides ? p->strides : NULL;
    p->m.manager_ctx = p;
    p->m.deleter = producer_deleter;
}

static const DLDataType I32 = { kDLInt, 32, 1 };

TEST(tensor_dlpack_round_trip_every_dtype)
{
    static const struct {
        iron_dtype dt;
        uint8_t code, bits;
    } table[] = {
        { IRON_INT8, kDLInt, 8 },       { IRON_UINT8, kDLUInt, 8 },
        { IRON_INT16, kDLInt, 16 },     { IRON_UINT16, kDLUInt, 16 },
        { IRON_INT32, kDLInt, 32 },     { IRON_UINT32, kDLUInt, 32 },
        { IRON_INT64, kDLInt, 64 },     { IRON_UINT64, kDLUInt, 64 },
        { IRON_FLOAT32, kDLFloat, 32 }, { IRON_FLOAT64, kDLFloat, 64 },
        { IRON_BFLOAT16, kDLBfloat, 16 },
    };
    ASSERT_EQ(sizeof table / sizeof table[0], IRON_DTYPE_COUNT_);
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
        iron_tensor *t = NULL, *back = NULL;
        t = test_arange_shape(table[k].dt, IRON_SHAPE(3, 5), 1, 1);
        DLManagedTensor *m = NULL;
        ASSERT_OK(iron_tensor_to_dlpack(t, &m));
        const DLTensor *x = &m->dl_tensor;
        ASSERT(x->data == iron_tensor_data(t));
        ASSERT_EQ(x->device.device_type, kDLCPU);
        ASSERT_EQ(x->device.device_id, 0);
        ASSERT_EQ(x->dtype.code, table[k].code);
        ASSERT_EQ(x->dtype.bits, table[k].bits);
        ASSERT_EQ(x->dtype.lanes, 1);
        ASSERT_EQ(x->ndim, 2);
        ASSERT_EQ(x->shape[0], 3);
        ASSERT_EQ(x->shape[1], 5);
        ASSERT_EQ(x->strides[0], 5);
        ASSERT_EQ(x->strides[1], 1);
        ASSERT_EQ(x->byte_offset, 0);
        ASSERT_OK(iron_tensor_from_dlpack(m, &back));
        ASSERT_EQ(iron_tensor_dtype(back), table[k].dt);
        ASSERT(iron_tensor_data(back) == iron_tensor_data(t));  /* no copy */
        ASSERT_EQ(iron_tensor_is_contiguous(back), 1);
        for (int64_t i = 0; i < 15; i++)
            ASSERT_EQ(test_at(back, i), i + 1);
        /* The original first: the export keeps the memory alive, and
         * freeing the import calls the export's deleter. */
        iron_tensor_free(t);
        ASSERT_EQ(test_at(back, 14), 15);
        iron_tensor_free(back);
    }
}

TEST(tensor_dlpack_export_outlives_tensor)
{
    iron_tensor *t = NULL, *v = NULL;
    t = test_arange_shape(IRON_INT32, IRON_SHAPE(4, 4), 0, 1);
    /* A strided view exports its strides. */
    ASSERT_OK(iron_tensor_slice(t, 1, 1, 4, 2, &v));
    DLManagedTensor *m = NULL;
    ASSERT_OK(iron_tensor_to_dlpack(v, &m));
    iron_tensor_free(v);
    iron_tensor_free(t);
    const DLTensor *x = &m->dl_tensor;
    ASSERT_EQ(x->shape[1], 2);
    ASSERT_EQ(x->strides[0], 4);
    ASSERT_EQ(x->strides[1], 2);
    const int32_t *d = x->data;
    ASSERT_EQ(d[0], 1);
    ASSERT_EQ(d[2 * 4 + 2], 11);  /* still readable: the export holds it */
    m->deleter(m);
    ASSERT_FAILS(iron_tensor_to_dlpack(NULL, &m), IRON_EINVAL,
                 "iron_tensor_to_dlpack: tensor is NULL");
    ASSERT_FAILS(iron_tensor_to_dlpack(t, NULL), IRON_EINVAL, "out is NULL");
}

TEST(tensor_dlpack_import_owns_and_deletes_once)
{
    int32_t *mem = aligned_alloc(64, 64 * 4);
    for (int i = 0; i < 64; i++)
        mem[i] = i;
    producer p;
    producer_init(&p, mem, I32, 2, (const int64_t[]){ 4, 8 }, NULL);
    p.m.dl_tensor.byte_offset = 8 * 4;  /* from row 1 of an 8 x 8 */
    iron_tensor *t = NULL, *r = NULL;
    ASSERT_OK(iron_tensor_from_dlpack(&p.m, &t));
    ASSERT(iron_tensor_data(t) == mem + 8);
    ASSERT_EQ(iron_tensor_is_wrapped(t), 1);
    ASSERT_EQ(test_at(t, 0), 8);
    ASSERT_EQ(test_at(t, 31), 39);
    ASSERT_OK(iron_tensor_reshape(t, IRON_SHAPE(32), &r));
    iron_tensor_free(t);
    ASSERT_EQ(p.deleted, 0);  /* the reshape still uses it */
    iron_tensor_free(r);
    ASSERT_EQ(p.deleted, 1);

    /* A NULL deleter is allowed: nothing to call. */
    producer_init(&p, mem, I32, 1, (const int64_t[]){ 64 }, NULL);
    p.m.deleter = NULL;
    ASSERT_OK(iron_tensor_from_dlpack(&p.m, &t));
    iron_tensor_free(t);
    free(mem);
}

TEST(tensor_dlpack_strided_import_is_a_view)
{
    int16_t mem[12];
    for (int i = 0; i < 12; i++)
        mem[i] = (int16_t)i;
    producer p;
    /* The transpose of a 3 x 4. */
    producer_init(&p, mem, (DLDataType){ kDLInt, 16, 1 }, 2,
                  (const int64_t[]){ 4, 3 }, (const int64_t[]){ 1, 4 });
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_from_dlpack(&p.m, &t));
    ASSERT_EQ(iron_tensor_is_contiguous(t), 0);
    ASSERT_EQ(test_at(t, 1), 4);
    ASSERT_EQ(test_at(t, 3), 1);
    iron_tensor_free(t);
    ASSERT_EQ(p.deleted, 1);

    /* Negative strides: data points at element 0, the last in memory. */
    producer_init(&p, mem, (DLDataType){ kDLInt, 16, 1 }, 1,
                  (const int64_t[]){ 6 }, (const int64_t[]){ -2 });
    p.m.dl_tensor.byte_offset = 11 * 2;
    ASSERT_OK(iron_tensor_from_dlpack(&p.m, &t));
    ASSERT_EQ(test_at(t, 0), 11);
    ASSERT_EQ(test_at(t, 5), 1);
    char *text = NULL;
    ASSERT_OK(iron_tensor_format(t, NULL, &text));
    ASSERT_STR_EQ(text, "array([11,  9,  7,  5,  3,  1], dtype=int16)");
    iron_free(text);
    iron_tensor_free(t);

    /* Compact strides given explicitly are contiguous. */
    producer_init(&p, mem, (DLDataType){ kDLInt, 16, 1 }, 2,
                  (const int64_t[]){ 3, 4 }, (const int64_t[]){ 4, 1 });
    ASSERT_OK(iron_tensor_from_dlpack(&p.m, &t));
    ASSERT_EQ(iron_tensor_is_contiguous(t), 1);
    iron_tensor_free(t);
}

TEST(tensor_dlpack_refusals)
{
    int32_t *mem = aligned_alloc(64, 256);
    producer p;
    iron_tensor *t = NULL;

    producer_init(&p, mem, I32, 1, (const int64_t[]){ 8 }, NULL);
    p.m.dl_tensor.device.device_type = kDLCUDA;
    p.m.dl_tensor.device.device_id = 1;
    ASSERT_FAILS(iron_tensor_from_dlpack(&p.m, &t), IRON_EDEVICE,
                 "iron_tensor_from_dlpack: the tensor is on device kDLCUDA "
                 "(type 2, id 1); only kDLCPU memory can be used");
    p.m.dl_tensor.device.device_type = kDLROCMHost;
    ASSERT_FAILS(iron_tensor_from_dlpack(&p.m, &t), IRON_EDEVICE,
                 "device kDLROCMHost (type 11");
    p.m.dl_tensor.device.device_type = (DLDeviceType)99;
    ASSERT_FAILS(iron_tensor_from_dlpack(&p.m, &t), IRON_EDEVICE,
                 "device an unknown device type (type 99");

    producer_init(&p, mem, (DLDataType){ kDLFloat, 32, 4 }, 1,
                  (const int64_t[]){ 8 }, NULL);
    ASSERT_FAILS(iron_tensor_from_dlpack(&p.m, &t), IRON_EDTYPE,
                 "dtype has 4 lanes (kDLFloat, 32 bits); only single-lane");
    producer_init(&p, mem, (DLDataType){ kDLFloat, 16, 1 }, 1,
                  (const int64_t[]){ 8 }, NULL);
    ASSERT_FAILS(iron_tensor_from_dlpack(&p.m, &t), IRON_EDTYPE,
                 "dtype kDLFloat (code 2) with 16 bits has no iron_dtype");
    producer_init(&p, mem, (DLDataType){ kDLComplex, 64, 1 }, 1,
                  (const int64_t[]){ 8 }, NULL);
    ASSERT_FAILS(iron_tensor_from_dlpack(&p.m, &t), IRON_EDTYPE,
                 "dtype kDLComplex (code 5) with 64 bits");
    producer_init(&p, mem, (DLDataType){ kDLInt, 1, 1 }, 1,
                  (const int64_t[]){ 8 }, NULL);
    ASSERT_FAILS(iron_tensor_from_dlpack(&p.m, &t), IRON_EDTYPE,
                 "dtype kDLInt (code 0) with 1 bits");

    producer_init(&p, mem, I32, 0, NULL, NULL);
    ASSERT_FAILS(iron_tensor_from_dlpack(&p.m, &t), IRON_ESHAPE,
                 "ndim is 0; expected 1..6");
    producer_init(&p, mem, I32, 2, (const int64_t[]){ 4, 0 }, NULL);
    ASSERT_FAILS(iron_tensor_from_dlpack(&p.m, &t), IRON_ESHAPE,
                 "shape dim 1 is 0");
    producer_init(&p, mem, I32, 2, (const int64_t[]){ 4, 4 },
                  (const int64_t[]){ INT64_MAX / 2, 1 });
    ASSERT_FAILS(iron_tensor_from_dlpack(&p.m, &t), IRON_ESHAPE,
                 "reach past 2^63 elements");

    producer_init(&p, mem, I32, 1, (const int64_t[]){ 8 }, NULL);
    p.m.dl_tensor.byte_offset = 2;
    char want[160];
    snprintf(want, sizeof want, "data %p + byte_offset 2 = %p is not "
             "aligned to 4 bytes (the size of int32)", (void *)mem,
             (void *)((char *)mem + 2));
    ASSERT_FAILS(iron_tensor_from_dlpack(&p.m, &t), IRON_EINVAL, want);
    p.m.dl_tensor.byte_offset = 0;
    p.m.dl_tensor.data = NULL;
    ASSERT_FAILS(iron_tensor_from_dlpack(&p.m, &t), IRON_EINVAL,
                 "dl_tensor.data is NULL");
    ASSERT_FAILS(iron_tensor_from_dlpack(NULL, &t), IRON_EINVAL,
                 "managed tensor is NULL");
    ASSERT_FAILS(iron_tensor_from_dlpack(&p.m, NULL), IRON_EINVAL,
                 "out is NULL");
    ASSERT(t == NULL);
    ASSERT_EQ(p.deleted, 0);  /* failures leave the tensor the caller's */
    free(mem);
}

TEST(tensor_dlpack_import_passed_to_jit)
{
    enum { N = 1024 };
    int32_t *a = aligned_alloc(64, N * 4), *c = aligned_alloc(64, N * 4);
    for (int i = 0; i < N; i++)
        a[i] = 3 * i;
    producer pa, pc;
    producer_init(&pa, a, I32, 2, (const int64_t[]){ 32, 32 }, NULL);
    producer_init(&pc, c, I32, 1, (const int64_t[]){ N }, NULL);
    iron_tensor *ta = NULL, *tc = NULL, *flat = NULL, *b = NULL;
    ASSERT_OK(iron_tensor_from_dlpack(&pa.m, &ta));
    ASSERT_OK(iron_tensor_from_dlpack(&pc.m, &tc));
    ASSERT_OK(iron_tensor_reshape(ta, IRON_SHAPE(N), &flat));
    ASSERT_OK(iron_tensor_full(IRON_INT32, IRON_SHAPE(N), 5, &b));
    iron_jit *j = test_new_jit(vector_op_design, &vector_op_options);
    ASSERT_OK(IRON_CALL(j, flat, b, tc));
    for (int i = 0; i < N; i++)
        if (c[i] != 3 * i + 5)
            TEST_FAIL_("c[%d] is %d; expected %d", i, c[i], 3 * i + 5);
    iron_tensor_free(flat);
    iron_tensor_free(ta);
    iron_tensor_free(tc);
    iron_tensor_free(b);
    ASSERT_EQ(pa.deleted, 1);
    ASSERT_EQ(pc.deleted, 1);
    iron_jit_free(j);
    free(a);
    free(c);
}

/* Every allocation of an import or export failing in turn: a clean
 * IRON_ENOMEM, *out NULL, and the producer's deleter not called. */
TEST(tensor_dlpack_alloc_failure_loop)
{
    int32_t mem[16] __attribute__((aligned(64))) = { 0 };
    producer p;
    long n;
    for (n = 1; n < 50; n++) {
        producer_init(&p, mem, I32, 1, (const int64_t[]){ 16 }, NULL);
        iron_tensor *t = (iron_tensor *)mem;
        iron__alloc_fail_at(n);
        iron_status s = iron_tensor_from_dlpack(&p.m, &t);
        iron__alloc_fail_at(0);
        if (s == IRON_OK) {
            iron_tensor_free(t);
            ASSERT_EQ(p.deleted, 1);
            break;
        }
        ASSERT_EQ(s, IRON_ENOMEM);
        ASSERT(t == NULL);
        ASSERT_EQ(p.deleted, 0);
    }
    ASSERT_GT(n, 1);
    ASSERT_LT(n, 50);

    iron_tensor *src = test_zeros(IRON_INT8, 8);
    for (n = 1; n < 50; n++) {
        DLManagedTensor *m = (DLManagedTensor *)mem;
        iron__alloc_fail_at(n);
        iron_status s = iron_tensor_to_dlpack(src, &m);
        iron__alloc_fail_at(0);
        if (s == IRON_OK) {
            m->deleter(m);
            break;
        }
        ASSERT_EQ(s, IRON_ENOMEM);
        ASSERT(m == NULL);
    }
    ASSERT_GT(n, 1);
    ASSERT_LT(n, 50);
    iron_tensor_free(src);
}
