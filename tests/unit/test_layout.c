/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_layout.c - layout transform checks, shim access pattern limits and
 * the canonical form, the last against a naive nested-loop enumeration.
 */
#include "design/layout.h"
#include "test.h"

#define LBL_COMPUTE "fifo 'a' (producer) on compute tile (0,2)"
#define LBL_MEM "fifo 'out' (producer) on memtile (0,1)"
#define LBL_CONS "fifo 'b' (consumer 1) on compute tile (1,3)"

static iron_tap mk(int64_t offset, int ndim, const int64_t *sz,
                   const int64_t *st)
{
    return iron_tap_make(offset, ndim, sz, st);
}

/* The k-th element a pattern visits, computed the slow way. */
static int64_t nth(const iron_tap *t, int64_t k)
{
    int64_t off = t->offset;
    for (int d = t->ndim - 1; d >= 0; d--) {
        off += (k % t->sizes[d]) * t->strides[d];
        k /= t->sizes[d];
    }
    return off;
}

/* The same by nested loops, written out, into out[]; returns the count. */
static int64_t enumerate(const iron_tap *t, int64_t *out, int64_t cap)
{
    int64_t sz[4] = { 1, 1, 1, 1 }, st[4] = { 0, 0, 0, 0 }, n = 0;
    for (int d = 0; d < t->ndim; d++) {
        sz[4 - t->ndim + d] = t->sizes[d];
        st[4 - t->ndim + d] = t->strides[d];
    }
    for (int64_t a = 0; a < sz[0]; a++)
        for (int64_t b = 0; b < sz[1]; b++)
            for (int64_t c = 0; c < sz[2]; c++)
                for (int64_t e = 0; e < sz[3]; e++) {
                    if (n < cap)
                        out[n] = t->offset + a * st[0] + b * st[1] +
                                 c * st[2] + e * st[3];
                    n++;
                }
    return n;
}

/* A fixed-seed PRNG (splitmix64) so failures reproduce. */
static uint64_t rng_state = 0x1234abcd5678ef01ull;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int64_t rnd_below(int64_t n)
{
    return (int64_t)(rnd() % (uint64_t)n);
}

/* ---- data layout transforms ------------------------------------------ */

TEST(layout_model_example_accepted)
{
    /* The layout transform on a joined FIFO (examples/designs/
     * joined_layout.c): 24 int32, dims
     * [(8, 1), (3, 8)] (innermost stride 8 is fine for 4-byte types). */
    int64_t sz[2] = { 8, 3 }, st[2] = { 1, 8 };
    iron_tap d = mk(0, 2, sz, st);
    ASSERT_OK(iron__dims_check(&d, IRON__DIMS_MEMTILE, IRON_INT32, 24, LBL_MEM));
    ASSERT_OK(iron__dims_check(&d, IRON__DIMS_COMPUTE, IRON_INT32, 24,
                               LBL_COMPUTE));
    ASSERT_OK(iron__dims_check(&d, IRON__DIMS_COMPUTE, IRON_UINT32, 24,
                               LBL_CONS));
    ASSERT_OK(iron__dims_check(&d, IRON__DIMS_COMPUTE, IRON_FLOAT32, 24,
                               LBL_CONS));
    int64_t want[24];
    for (int i = 0; i < 24; i++)
        want[i] = (i % 3) * 8 + i / 3;   /* 0, 8, 16, 1, 9, 17, ... */
    ASSERT_EQ(want[1], 8);
    ASSERT_EQ(want[3], 1);
    for (int i = 0; i < 24; i++)
        ASSERT_EQ(nth(&d, i), want[i]);
    iron_tap c;
    iron__tap_canonical(&d, &c);
    ASSERT_EQ(c.ndim, 2);
    for (int i = 0; i < 24; i++)
        ASSERT_EQ(nth(&c, i), want[i]);
}

/* The single-core matmul's re-layouts on the memtile: a 64x64 int16 tile
 * of A into 8x2 blocks and of B into 2x8 blocks (runs of 2 and 8 int16,
 * every stride whole words). */
TEST(layout_matmul_relayout_accepted)
{
    int64_t a_sz[4] = { 8, 32, 8, 2 }, a_st[4] = { 512, 2, 64, 1 };
    iron_tap a = mk(0, 4, a_sz, a_st);
    ASSERT_OK(iron__dims_check(&a, IRON__DIMS_MEMTILE, IRON_INT16, 4096,
                               LBL_MEM));
    int64_t b_sz[4] = { 32, 8, 2, 8 }, b_st[4] = { 128, 8, 64, 1 };
    iron_tap b = mk(0, 4, b_sz, b_st);
    ASSERT_OK(iron__dims_check(&b, IRON__DIMS_MEMTILE, IRON_INT16, 4096,
                               LBL_MEM));
    /* Each is a permutation of the tile's elements. */
    static int seen[4096];
    for (int k = 0; k < 4096; k++)
        seen[nth(&a, k)]++;
    for (int k = 0; k < 4096; k++)
        seen[nth(&b, k)]++;
    for (int k = 0; k < 4096; k++)
        ASSERT_EQ(seen[k], 2);
    /* Too many for a compute tile. */
    ASSERT_FAILS(iron__dims_check(&a, IRON__DIMS_COMPUTE, IRON_INT16, 4096,
                                  LBL_COMPUTE),
                 IRON_EDESIGN, "dims_to_stream has 4 dimensions; at most 3");
}

TEST(layout_dims_ndim)
{
    int64_t sz[4] = { 2, 2, 4, 4 }, st[4] = { 32, 16, 4, 1 };
    iron_tap d = mk(0, 4, sz, st);
    ASSERT_FAILS(iron__dims_check(&d, IRON__DIMS_COMPUTE, IRON_INT32, 64,
                                  LBL_COMPUTE),
                 IRON_EDESIGN,
                 "fifo 'a' (producer) on compute tile (0,2): dims_to_stream "
                 "has 4 dimensions; at most 3 on this tile");
    ASSERT_FAILS(iron__dims_check(&d, IRON__DIMS_SHIM, IRON_INT32, 64,
                                  "fifo 'b' (consumer) on shim tile (0,0)"),
                 IRON_EDESIGN,
                 "fifo 'b' (consumer) on shim tile (0,0): dims_from_stream "
                 "has 4 dimensions; at most 3 on this tile");
    ASSERT_OK(iron__dims_check(&d, IRON__DIMS_MEMTILE, IRON_INT32, 64,
                               LBL_MEM));
    d.ndim = 0;
    ASSERT_FAILS(iron__dims_check(&d, IRON__DIMS_MEMTILE, IRON_INT32, 64,
                                  LBL_CONS),
                 IRON_EDESIGN,
                 "fifo 'b' (consumer 1) on compute tile (1,3): "
                 "dims_from_stream has 0 dimensions; expected 1 to 4");
    d.ndim = 5;
    ASSERT_FAILS(iron__dims_check(&d, IRON__DIMS_MEMTILE, IRON_INT32, 64,
                                  LBL_MEM),
                 IRON_EDESIGN, "dims_to_stream has 5 dimensions; at most 4");
    /* A label of another shape still gets a message. */
    d.ndim = 4;
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_INT32, 64, "tile (0,2)"),
                 IRON_EDESIGN,
                 "tile (0,2): layout transform has 4 dimensions; at most 3");
}

TEST(layout_dims_offset_size_stride)
{
    int64_t sz[2] = { 8, 8 }, st[2] = { 8, 1 };
    iron_tap d = mk(3, 2, sz, st);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_INT32, 64, LBL_COMPUTE),
                 IRON_EDESIGN, LBL_COMPUTE ": dims_to_stream has offset 3");
    sz[1] = 0;
    d = mk(0, 2, sz, st);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_INT32, 64, LBL_COMPUTE),
                 IRON_EDESIGN,
                 LBL_COMPUTE ": dims_to_stream dimension 1 has size 0; "
                             "expected 1 to 2^40");
    sz[1] = 8;
    st[0] = -8;
    d = mk(0, 2, sz, st);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_INT32, 64, LBL_COMPUTE),
                 IRON_EDESIGN,
                 LBL_COMPUTE ": dims_to_stream dimension 0 has stride -8; "
                             "expected 0 to 2^40");
    ASSERT_FAILS(iron__dims_check(NULL, 3, IRON_INT32, 64, LBL_COMPUTE),
                 IRON_EINVAL, "dims_to_stream is NULL");
    st[0] = 8;
    d = mk(0, 2, sz, st);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_DTYPE_COUNT_, 64, LBL_COMPUTE),
                 IRON_EINVAL, "unknown dtype");
    ASSERT_OK(iron__dims_check(&d, 3, IRON_INT32, 64, NULL));
}

TEST(layout_dims_bounds)
{
    /* Reach: inner 3 * 5 = 15, then dimension 1 adds 7 * 8 = 56 -> 71. */
    int64_t sz[3] = { 2, 8, 4 }, st[3] = { 0, 8, 5 };
    iron_tap d = mk(0, 3, sz, st);
    ASSERT_EQ(iron_tap_count(&d), 64);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_INT32, 64, LBL_COMPUTE),
                 IRON_EDESIGN,
                 "fifo 'a' (producer) on compute tile (0,2): dims_to_stream "
                 "dimension 1 (size 8, stride 8) reaches element 71; the "
                 "object has 64");
    /* The innermost dimension alone out of bounds. */
    int64_t sz2[1] = { 64 }, st2[1] = { 2 };
    d = mk(0, 1, sz2, st2);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_INT32, 64, LBL_CONS),
                 IRON_EDESIGN,
                 "dims_from_stream dimension 0 (size 64, stride 2) reaches "
                 "element 126; the object has 64");
    /* Exactly the last element is fine. */
    st[2] = 1;
    st[1] = 7;
    d = mk(0, 3, sz, st); /* reach 3 + 49 = 52 */
    ASSERT_OK(iron__dims_check(&d, 3, IRON_INT32, 64, LBL_CONS));
    st[1] = 8;
    st[0] = 32;
    sz[2] = 8;
    sz[0] = 1;
    d = mk(0, 3, sz, st); /* reach 7 + 56 = 63 */
    ASSERT_OK(iron__dims_check(&d, 3, IRON_INT32, 64, LBL_CONS));
}

TEST(layout_dims_count)
{
    int64_t sz[2] = { 6, 8 }, st[2] = { 8, 1 };
    iron_tap d = mk(0, 2, sz, st);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_INT32, 64, LBL_COMPUTE),
                 IRON_EDESIGN,
                 "fifo 'a' (producer) on compute tile (0,2): dims_to_stream "
                 "visits 48 elements; an object has 64");
    /* Visiting too many (a repeat inside the object) is just as wrong. */
    int64_t sz2[3] = { 2, 8, 8 }, st2[3] = { 0, 8, 1 };
    d = mk(0, 3, sz2, st2);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_INT32, 64, LBL_COMPUTE),
                 IRON_EDESIGN, "visits 128 elements; an object has 64");
}

TEST(layout_dims_subword)
{
    /* int16: innermost stride 2 is not addressable in 32-bit words. */
    int64_t sz[2] = { 2, 32 }, st[2] = { 1, 2 };
    iron_tap d = mk(0, 2, sz, st);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_INT16, 64, LBL_COMPUTE),
                 IRON_EDESIGN,
                 "fifo 'a' (producer) on compute tile (0,2): dims_to_stream: "
                 "int16 innermost stride is 2; with 2-byte elements it must "
                 "be 1 (DMA addresses count 32-bit words)");
    /* The same pattern is fine on 4- and 8-byte types. */
    ASSERT_OK(iron__dims_check(&d, 3, IRON_INT32, 64, LBL_COMPUTE));
    ASSERT_OK(iron__dims_check(&d, 3, IRON_FLOAT64, 64, LBL_COMPUTE));
    /* bfloat16 runs of 3 elements (6 bytes) at offsets 0, 3, 6, 9. */
    int64_t sz3[3] = { 2, 2, 3 }, st3[3] = { 3, 6, 1 };
    d = mk(0, 3, sz3, st3);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_BFLOAT16, 12, LBL_CONS),
                 IRON_EDESIGN,
                 "fifo 'b' (consumer 1) on compute tile (1,3): "
                 "dims_from_stream: bfloat16 innermost run is 3 elements (6 "
                 "bytes); with 2-byte elements it must be a whole number of "
                 "4-byte words");
    /* int16 outer stride of 3 elements = 6 bytes. */
    int64_t sz4[2] = { 4, 4 }, st4[2] = { 3, 1 };
    d = mk(0, 2, sz4, st4);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_INT16, 16, LBL_COMPUTE),
                 IRON_EDESIGN,
                 "dims_to_stream: dimension 0 stride of 6 bytes is not a "
                 "multiple of 4 (stride 3 int16 elements");
    /* bfloat16 2x2 blocks (as the matmul's re-layout): fine. */
    int64_t sz5[3] = { 4, 4, 2 }, st5[3] = { 2, 8, 1 };
    d = mk(0, 3, sz5, st5);
    ASSERT_OK(iron__dims_check(&d, 3, IRON_BFLOAT16, 32, LBL_COMPUTE));
    /* Rules apply to the canonical form: a size-1 innermost dimension with
     * any stride is dropped, and (4, 2), (2, 1) merge into one run. */
    int64_t sz6[3] = { 4, 2, 1 }, st6[3] = { 2, 1, 7 };
    d = mk(0, 3, sz6, st6);
    ASSERT_OK(iron__dims_check(&d, 3, IRON_INT16, 8, LBL_COMPUTE));
    ASSERT_OK(iron__dims_check(&d, 3, IRON_UINT8, 8, LBL_COMPUTE));
}

/* The same word rules for 1-byte types. */
TEST(layout_dims_int8_words)
{
    /* Runs of 6 int8 (6 bytes each) at offsets 0, 6, 12, 18. */
    int64_t sz3d[3] = { 2, 2, 6 }, st3d[3] = { 6, 12, 1 };
    iron_tap d = mk(0, 3, sz3d, st3d);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_INT8, 24, LBL_COMPUTE),
                 IRON_EDESIGN,
                 "dims_to_stream: int8 innermost run is 6 elements (6 bytes); "
                 "with 1-byte elements it must be a whole number of 4-byte "
                 "words (DMA addresses count 32-bit words)");
    /* Runs of 6 at stride 6 are one run of 24: fine. */
    int64_t sz[2] = { 4, 6 }, st[2] = { 6, 1 };
    d = mk(0, 2, sz, st);
    ASSERT_OK(iron__dims_check(&d, 3, IRON_INT8, 24, LBL_COMPUTE));
    /* Runs of 4 uint8 at stride 2: stride of 2 bytes. */
    int64_t sz2[2] = { 4, 4 }, st2[2] = { 2, 1 };
    d = mk(0, 2, sz2, st2);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_UINT8, 16, LBL_COMPUTE),
                 IRON_EDESIGN,
                 "dimension 0 stride of 2 bytes is not a multiple of 4 "
                 "(stride 2 uint8 elements");
    /* int8 innermost stride 4 (a transpose of 4x4 bytes). */
    int64_t sz3[2] = { 4, 4 }, st3[2] = { 1, 4 };
    d = mk(0, 2, sz3, st3);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_INT8, 16, LBL_COMPUTE),
                 IRON_EDESIGN,
                 "int8 innermost stride is 4; with 1-byte elements it must "
                 "be 1");
    /* ... which 4-byte types may do. */
    ASSERT_OK(iron__dims_check(&d, 3, IRON_INT32, 16, LBL_COMPUTE));
    /* One int8 object element: a 1-byte run. */
    int64_t one = 1, s1 = 1;
    d = mk(0, 1, &one, &s1);
    ASSERT_FAILS(iron__dims_check(&d, 3, IRON_INT8, 1, LBL_COMPUTE),
                 IRON_EDESIGN, "int8 innermost run is 1 element (1 byte)");
}

/* ---- canonical form -------------------------------------------------- */

static void expect_tap(const iron_tap *t, int64_t offset, int ndim,
                       const int64_t *sz, const int64_t *st)
{
    ASSERT_EQ(t->offset, offset);
    ASSERT_EQ(t->ndim, ndim);
    for (int k = 0; k < ndim; k++) {
        ASSERT_EQ(t->sizes[k], sz[k]);
        ASSERT_EQ(t->strides[k], st[k]);
    }
}

TEST(layout_canonical_examples)
{
    iron_tap c;
    /* A size-1 dimension goes. */
    int64_t a_sz[3] = { 1, 4, 8 }, a_st[3] = { 5, 16, 1 };
    iron_tap a = mk(7, 3, a_sz, a_st);
    iron__tap_canonical(&a, &c);
    expect_tap(&c, 7, 2, (int64_t[]){ 4, 8 }, (int64_t[]){ 16, 1 });
    /* Row-major rows merge into one run. */
    int64_t b_sz[2] = { 4, 8 }, b_st[2] = { 8, 1 };
    iron_tap b = mk(0, 2, b_sz, b_st);
    iron__tap_canonical(&b, &c);
    expect_tap(&c, 0, 1, (int64_t[]){ 32 }, (int64_t[]){ 1 });
    /* Merging across a dropped dimension, and a chain of merges. */
    int64_t m_sz[4] = { 3, 2, 1, 5 }, m_st[4] = { 20, 10, 99, 2 };
    iron_tap m = mk(1, 4, m_sz, m_st);
    iron__tap_canonical(&m, &c);
    expect_tap(&c, 1, 1, (int64_t[]){ 30 }, (int64_t[]){ 2 });
    /* All ones: one element at the offset. */
    int64_t o_sz[3] = { 1, 1, 1 }, o_st[3] = { 4, 3, 2 };
    iron_tap o = mk(9, 3, o_sz, o_st);
    iron__tap_canonical(&o, &c);
    expect_tap(&c, 9, 1, (int64_t[]){ 1 }, (int64_t[]){ 1 });
    /* Repeats (stride 0) merge with each other. */
    int64_t r_sz[3] = { 3, 4, 8 }, r_st[3] = { 0, 0, 1 };
    iron_tap r = mk(0, 3, r_sz, r_st);
    iron__tap_canonical(&r, &c);
    expect_tap(&c, 0, 2, (int64_t[]){ 12, 8 }, (int64_t[]){ 0, 1 });
    /* A transpose does not merge. */
    int64_t t_sz[2] = { 8, 3 }, t_st[2] = { 1, 8 };
    iron_tap t = mk(0, 2, t_sz, t_st);
    iron__tap_canonical(&t, &c);
    expect_tap(&c, 0, 2, t_sz, t_st);
    /* In place. */
    iron__tap_canonical(&b, &b);
    expect_tap(&b, 0, 1, (int64_t[]){ 32 }, (int64_t[]){ 1 });
}

/* Random patterns, biased towards size-1 dimensions and strides that
 * continue the inner dimension so merges happen often: the canonical form
 * visits the same elements in the same order, has no size-1 dimension (but
 * a lone one), no mergeable neighbours and no more dimensions. */
TEST(layout_canonical_property)
{
    static int64_t want[4096], got[4096];
    int merged = 0, dropped = 0;
    for (int iter = 0; iter < 20000; iter++) {
        iron_tap p;
        memset(&p, 0, sizeof p);
        p.ndim = 1 + (int)rnd_below(4);
        p.offset = rnd_below(5);
        for (int k = p.ndim - 1; k >= 0; k--) {
            int64_t r = rnd_below(10);
            p.sizes[k] = r < 3 ? 1 : 1 + rnd_below(6);
            if (k < p.ndim - 1 && rnd_below(2))
                p.strides[k] = p.sizes[k + 1] * p.strides[k + 1];
            else
                p.strides[k] = rnd_below(4) == 0 ? 0 : rnd_below(40);
        }
        iron_tap c;
        iron__tap_canonical(&p, &c);
        ASSERT_LE(c.ndim, p.ndim);
        ASSERT_GE(c.ndim, 1);
        ASSERT_EQ(c.offset, p.offset);
        ASSERT_EQ(iron_tap_count(&c), iron_tap_count(&p));
        int64_t n = enumerate(&p, want, 4096);
        ASSERT_EQ(enumerate(&c, got, 4096), n);
        for (int64_t k = 0; k < n; k++) {
            if (got[k] != want[k])
                TEST_FAIL_("iter %d: element %lld: %lld vs %lld", iter,
                           (long long)k, (long long)got[k],
                           (long long)want[k]);
            ASSERT_EQ(nth(&c, k), want[k]);
        }
        for (int k = 0; k < c.ndim; k++) {
            if (c.ndim > 1)
                ASSERT_NE(c.sizes[k], 1);
            if (k + 1 < c.ndim)
                ASSERT_NE(c.strides[k], c.sizes[k + 1] * c.strides[k + 1]);
        }
        if (c.ndim < p.ndim) {
            int ones = 0;
            for (int k = 0; k < p.ndim; k++)
                ones += p.sizes[k] == 1;
            if (ones)
                dropped++;
            else
                merged++;
        }
        /* Canonical twice is canonical once. */
        iron_tap cc;
        iron__tap_canonical(&c, &cc);
        ASSERT_EQ(memcmp(&cc, &c, sizeof c), 0);
        /* The shim check judges the pattern as the export writes it
         * (four dimensions, iron__tap_shim_dims), so both agree. */
        iron_dtype dt = rnd_below(2) ? IRON_INT32 : IRON_INT16;
        int64_t sz4[4], st4[4];
        iron__tap_shim_dims(&p, sz4, st4);
        iron_tap p4 = iron_tap_make(p.offset, 4, sz4, st4);
        ASSERT_EQ(iron_tap_count(&p4), iron_tap_count(&p));
        int64_t n4 = enumerate(&p4, got, 4096);
        ASSERT_EQ(n4, n);
        for (int64_t k = 0; k < n; k++)
            ASSERT_EQ(got[k], want[k]);
        ASSERT_EQ(iron__tap_check_shim(&p, dt), iron__tap_check_shim(&p4, dt));
    }
    /* The generator really exercised both reductions. */
    ASSERT_GT(merged, 1000);
    ASSERT_GT(dropped, 1000);
}

/* ---- shim access patterns -------------------------------------------- */

TEST(layout_shim_accepts)
{
    iron_tap t = iron_tap_linear((int64_t)16 << 20);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    t = iron_tap_linear(100001 * 4);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_UINT8));
    /* A 64x64 int16 tile of a 512x512 matrix, repeated 64 times. */
    int64_t sz[4] = { 64, 8, 64, 64 }, st[4] = { 0, 64, 512, 1 };
    t = iron_tap_make(64, 4, sz, st);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT16));
    /* Multi-column memcpy: chunks of 1024-element lines at an offset. */
    int64_t sz2[2] = { 2048, 1024 }, st2[2] = { 1024, 1 };
    t = iron_tap_make(4 << 20, 2, sz2, st2);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
}

TEST(layout_shim_repeat)
{
    int64_t sz[4] = { 65, 2, 32, 64 }, st[4] = { 0, 8192, 128, 1 };
    iron_tap t = iron_tap_make(0, 4, sz, st);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 0 repeats 65 times; the shim DMA "
                 "repeats at most 64");
    sz[0] = 64;
    t = iron_tap_make(0, 4, sz, st);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    /* A stride-0 dimension can only be the fourth hardware dimension, so
     * it is limited however few dimensions the pattern has: with a size-1
     * dimension the canonical pattern has three, still 1000 repeats. */
    sz[0] = 1000;
    sz[1] = 1;
    t = iron_tap_make(0, 4, sz, st);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 0 repeats 1000 times; the shim "
                 "DMA repeats at most 64");
    /* Two repeats do not merge into one (upstream reads the pattern as
     * written): the inner one is d2, where stride 0 is refused. */
    int64_t sz2[4] = { 8, 8, 3, 5 }, st2[4] = { 0, 0, 40, 2 };
    t = iron_tap_make(0, 4, sz2, st2);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 1 has stride 0 (8 repeats) inside "
                 "dimension 0 (size 8, stride 0)");
    /* Merging the rows leaves three dimensions; the repeat is still one. */
    st[1] = 4096;
    sz[0] = 65;
    sz[1] = 2;
    t = iron_tap_make(0, 4, sz, st);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 0 repeats 65 times");
    /* A repeat of one pattern: 3-D, 2-D and a single element repeated. */
    int64_t sz3[3] = { 64, 4, 16 }, st3[3] = { 0, 32, 1 };
    t = iron_tap_make(0, 3, sz3, st3);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    int64_t one[1] = { 5 }, zero[1] = { 0 };
    t = iron_tap_make(7, 1, one, zero);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    one[0] = 65;
    t = iron_tap_make(7, 1, one, zero);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 0 repeats 65 times");
}

TEST(layout_shim_repeat_only_outermost)
{
    /* Stride 0 inside another dimension: no hardware dimension but the
     * outermost (d3) repeats. */
    int64_t sz[3] = { 3, 5, 4 }, st[3] = { 40, 0, 1 };
    iron_tap t = iron_tap_make(0, 3, sz, st);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 1 has stride 0 (5 repeats) inside "
                 "dimension 0 (size 3, stride 40); the shim DMA repeats only "
                 "in its fourth, outermost dimension, so a stride-0 "
                 "dimension must be the outermost");
    /* Each element repeated: the repeat is innermost. */
    int64_t sz2[2] = { 3, 5 }, st2[2] = { 10, 0 };
    t = iron_tap_make(0, 2, sz2, st2);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "dimension 1 has stride 0 (5 repeats) inside dimension 0");
    /* Size-1 dimensions do not count: here the repeat is outermost. */
    int64_t sz3[4] = { 1, 5, 1, 8 }, st3[4] = { 99, 0, 7, 1 };
    t = iron_tap_make(0, 4, sz3, st3);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
}

TEST(layout_shim_iteration_count)
{
    /* The outermost of four dimensions is d3, the iteration count, limited
     * to 64 whatever its stride. */
    int64_t sz[4] = { 65, 2, 2, 2 }, st[4] = { 100, 20, 5, 1 };
    iron_tap t = iron_tap_make(0, 4, sz, st);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 0 has size 65 with stride 100; the "
                 "outermost of four dimensions is the shim DMA's iteration "
                 "count (its fourth dimension), at most 64");
    sz[0] = 64;
    t = iron_tap_make(0, 4, sz, st);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    /* With three dimensions the outermost goes to d2, which has no limit. */
    int64_t sz2[3] = { 100000, 2, 2 }, st2[3] = { 100, 5, 1 };
    t = iron_tap_make(0, 3, sz2, st2);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
}

/* Upstream fills a pattern of fewer than four dimensions from the left
 * with size 1 and reads it right-aligned; a dimension is never moved to
 * another hardware dimension to make it fit (a [2, 1024] int32 fill with
 * strides [2048, 1] was accepted by putting the 2 on the iteration
 * count, where upstream refuses its innermost 1024). */
TEST(layout_shim_reads_patterns_right_aligned)
{
    int64_t sz[2] = { 2, 1024 }, st[2] = { 2048, 1 };
    iron_tap t = iron_tap_make(0, 2, sz, st);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 1 has size 1024 with stride 1; "
                 "strided sizes are at most 1023 in the shim DMA's "
                 "innermost dimension, d0; the shim DMA reads the pattern "
                 "as sizes [1, 1, 2, 1024], strides [0, 0, 2048, 1] (d3 .. "
                 "d0: dimensions right-aligned, the missing outer ones of "
                 "size 1, as upstream fills them); written with size-1 "
                 "dimensions as [2, 1, 1, 1024] (strides [2048, 0, 0, 1]) "
                 "it fits");
    /* Written so, as upstream accepts it: the 2 is the iteration count
     * and the rest one linear run. */
    int64_t sz4[4] = { 2, 1, 1, 1024 }, st4[4] = { 2048, 0, 0, 1 };
    t = iron_tap_make(0, 4, sz4, st4);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    int64_t hs[4], hst[4];
    iron__tap_shim_dims(&t, hs, hst);
    for (int h = 0; h < 4; h++) {
        ASSERT_EQ(hs[h], sz4[h]);
        ASSERT_EQ(hst[h], st4[h]);
    }
    /* Leading size-1 dimensions change nothing: [1, 2, 1024] is [2, 1024]. */
    int64_t sz3[3] = { 1, 2, 1024 }, st3[3] = { 77, 2048, 1 };
    t = iron_tap_make(0, 3, sz3, st3);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 2 has size 1024 with stride 1; "
                 "strided sizes are at most 1023");
    /* 1023 fits, and rows that continue each other are one contiguous
     * run, which has no wrap limit. */
    sz[1] = 1023;
    t = iron_tap_make(0, 2, sz, st);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    sz[1] = 1024;
    st[0] = 1024;
    t = iron_tap_make(0, 2, sz, st);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    /* A long outer dimension of two sits in d1: [1, 1, 1024, 2]. */
    int64_t sa[2] = { 1024, 2 }, sta[2] = { 4, 1 };
    t = iron_tap_make(0, 2, sa, sta);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 0 has size 1024 with stride 4; "
                 "strided sizes are at most 1023 in the shim DMA's "
                 "dimension d1");
    /* ... and as three, in d2, which has no limit. */
    int64_t sb[3] = { 1024, 1, 2 }, stb[3] = { 4, 0, 1 };
    t = iron_tap_make(0, 3, sb, stb);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    /* Three dimensions with a long middle one: d1, too long; as
     * [40, 2000, 1, 2] it fits (40 iterations). */
    int64_t sz2[3] = { 40, 2000, 2 }, st2[3] = { 100000, 8, 1 };
    t = iron_tap_make(0, 3, sz2, st2);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "written with size-1 dimensions as [40, 2000, 1, 2]");
    /* ... and with 100 iterations no way of writing it fits. */
    sz2[0] = 100;
    st2[0] = 20000;
    t = iron_tap_make(0, 3, sz2, st2);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 1 has size 2000 with stride 8; "
                 "strided sizes are at most 1023");
    ASSERT(strstr(iron_last_error(), "it fits") == NULL);
    /* A repeat is d3 however many dimensions the pattern has (where
     * upstream's tiler puts it), so a repeated linear run has no wrap
     * limit, and the export writes it [10, 1, 1, 4000]. */
    int64_t sz3b[2] = { 10, 4000 }, st3b[2] = { 0, 1 };
    t = iron_tap_make(0, 2, sz3b, st3b);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    iron__tap_shim_dims(&t, hs, hst);
    ASSERT_EQ(hs[0], 10);
    ASSERT_EQ(hst[0], 0);
    ASSERT_EQ(hs[1], 1);
    ASSERT_EQ(hs[2], 1);
    ASSERT_EQ(hs[3], 4000);
    /* A repeat in d3 and two more dimensions: not linear. */
    int64_t sz4b[3] = { 4, 2, 1500 }, st4b[3] = { 0, 3000, 1 };
    t = iron_tap_make(0, 3, sz4b, st4b);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 2 has size 1500 with stride 1; "
                 "strided sizes are at most 1023");
}

TEST(layout_shim_strided_sizes)
{
    int64_t sz[4] = { 2, 3, 5, 1500 }, st[4] = { 100000, 40000, 3002, 2 };
    iron_tap t = iron_tap_make(0, 4, sz, st);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 3 has size 1500 with stride 2; "
                 "strided sizes are at most 1023");
    /* d1 is limited too; 100 is too many iterations to move the outer
     * dimension to d3 and the middle one to d2. */
    int64_t sz2[3] = { 100, 1500, 64 }, st2[3] = { 5000000, 3000, 1 };
    t = iron_tap_make(0, 3, sz2, st2);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 1 has size 1500 with stride 3000; "
                 "strided sizes are at most 1023");
    /* With 2 it would, as [2, 1500, 1, 64], but that stride is too long:
     * no way of writing it is offered. */
    sz2[0] = 2;
    t = iron_tap_make(0, 3, sz2, st2);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "dimension 1 has size 1500 with stride 3000");
    ASSERT(strstr(iron_last_error(), "it fits") == NULL);
    /* The outermost of three dimensions is not limited. */
    int64_t sz3[3] = { 5000, 2, 32 }, st3[3] = { 256, 64, 1 };
    t = iron_tap_make(0, 3, sz3, st3);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    /* One strided dimension: limited; one contiguous run: not. */
    int64_t n = 1024, s2 = 2, s1 = 1;
    t = iron_tap_make(0, 1, &n, &s2);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 0 has size 1024 with stride 2");
    n = 1023;
    t = iron_tap_make(0, 1, &n, &s2);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    n = 1 << 20;
    t = iron_tap_make(0, 1, &n, &s1);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    /* Rows of rows that do not continue each other: the run counts. */
    int64_t sz4[3] = { 2, 2, 1024 }, st4[3] = { 8192, 2048, 1 };
    t = iron_tap_make(0, 3, sz4, st4);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "dimension 2 has size 1024 with stride 1; strided sizes are "
                 "at most 1023");
    /* Sub-word types: the innermost run is counted in 32-bit words. */
    int64_t sz5[3] = { 2, 2, 4092 }, st5[3] = { 20000, 8192, 1 };
    t = iron_tap_make(0, 3, sz5, st5);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT8));
    sz5[2] = 4096;
    t = iron_tap_make(0, 3, sz5, st5);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT8), IRON_EBOUNDS,
                 "access pattern dimension 2 has size 4096 with stride 1 "
                 "(1024 32-bit words of int8); strided sizes are at most "
                 "1023 words");
    /* Nothing is merged: [4, 2, 1000] with strides [4, 2000, 2] visits
     * what [4, 2000] with strides [4, 2] would, but upstream reads it as
     * written, a d0 of 1000 and a d1 of 2. */
    int64_t sz6[3] = { 4, 2, 1000 }, st6[3] = { 4, 2000, 2 };
    t = iron_tap_make(0, 3, sz6, st6);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    int64_t sz7[2] = { 4, 2000 }, st7[2] = { 4, 2 };
    t = iron_tap_make(0, 2, sz7, st7);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern dimension 1 has size 2000 with stride 2; "
                 "strided sizes are at most 1023");
}

TEST(layout_shim_strides)
{
    int64_t sz[2] = { 2, 16 }, st[2] = { 2097152, 1 };
    iron_tap t = iron_tap_make(0, 2, sz, st);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern stride 2097152 words exceeds 2^20 "
                 "(dimension 0: stride 2097152 int32 elements)");
    st[0] = 1 << 20;
    t = iron_tap_make(0, 2, sz, st);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    st[0] = (1 << 20) + 1;
    t = iron_tap_make(0, 2, sz, st);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_FLOAT32), IRON_EBOUNDS,
                 "stride 1048577 words exceeds 2^20");
    /* Strides count words, not elements. */
    st[0] = 1 << 21;
    t = iron_tap_make(0, 2, sz, st);
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT16));
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT64), IRON_EBOUNDS,
                 "stride 4194304 words exceeds 2^20");
}

TEST(layout_shim_alignment)
{
    iron_tap t = iron_tap_linear(64);
    t.offset = 3;
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT16), IRON_EBOUNDS,
                 "access pattern offset of 6 bytes is not a multiple of 4 "
                 "(offset 3 int16 elements)");
    t.offset = 2;
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT16));
    t.offset = 3;
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    t.offset = 4;
    ASSERT_OK(iron__tap_check_shim(&t, IRON_UINT8));
    t.offset = 5;
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_UINT8), IRON_EBOUNDS,
                 "offset of 5 bytes is not a multiple of 4");
    /* int16 innermost stride 2. */
    int64_t n = 16, s2 = 2;
    t = iron_tap_make(0, 1, &n, &s2);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT16), IRON_EBOUNDS,
                 "access pattern: int16 innermost stride is 2; with 2-byte "
                 "elements it must be 1 (DMA addresses count 32-bit words)");
    /* int8 runs of 6 bytes, and an outer stride of 6 bytes. */
    int64_t sz[2] = { 4, 6 }, st[2] = { 8, 1 };
    t = iron_tap_make(0, 2, sz, st);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT8), IRON_EBOUNDS,
                 "access pattern: int8 innermost run is 6 elements (6 bytes)");
    /* Rows of 6 int8 that continue each other: one run of 24 bytes, but
     * upstream reads the innermost dimension as written, 6 bytes. */
    st[0] = 6;
    t = iron_tap_make(0, 2, sz, st);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT8), IRON_EBOUNDS,
                 "access pattern: int8 innermost run is 6 elements (6 bytes)");
    int64_t sz2[2] = { 4, 2 }, st2[2] = { 3, 1 };
    t = iron_tap_make(0, 2, sz2, st2);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_BFLOAT16), IRON_EBOUNDS,
                 "access pattern: dimension 0 stride of 6 bytes is not a "
                 "multiple of 4 (stride 3 bfloat16 elements");
    ASSERT_OK(iron__tap_check_shim(&t, IRON_INT32));
    /* An odd number of int16 as one run. */
    t = iron_tap_linear(15);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT16), IRON_EBOUNDS,
                 "int16 innermost run is 15 elements (30 bytes)");
}

TEST(layout_shim_invalid)
{
    ASSERT_FAILS(iron__tap_check_shim(NULL, IRON_INT32), IRON_EINVAL, "NULL");
    iron_tap t = iron_tap_linear(16);
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_DTYPE_COUNT_), IRON_EINVAL,
                 "unknown dtype");
    t.ndim = 0;
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "access pattern has 0 dimensions");
    t = iron_tap_linear(16);
    t.sizes[0] = 0;
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "size[0] is 0");
    t = iron_tap_linear(16);
    t.strides[0] = -1;
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "stride[0] is -1");
    t = iron_tap_linear(16);
    t.offset = -4;
    ASSERT_FAILS(iron__tap_check_shim(&t, IRON_INT32), IRON_EBOUNDS,
                 "offset is -4");
}
