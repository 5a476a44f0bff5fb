/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_lowering.c - the emulator agrees with upstream IRON's toolchain:
 * how many buffers each endpoint gets (shared memory, max acquire + 1,
 * per-endpoint depths), where the placer puts workers, links and shim
 * channels, designs without workers, links that are placed or change the
 * object type, byte-typed transfers, runtime consumers folded into one,
 * task groups as objects, the await of a drain outside groups, stacks,
 * kernels' static data, buffers with initial values and kernels called
 * from core bodies.  Each behaviour is run and its values checked, and
 * each new way to get it wrong has its named error.
 */
#include <stdio.h>
#include <string.h>

#include "test.h"

static int g_case;

static const char copy_src[] =
    "#include <stdint.h>\n"
    "void copy(const int32_t *a, int32_t *b, int32_t n)\n"
    "{ for (int32_t i = 0; i < n; i++) b[i] = a[i]; }\n";

static const char add1_src[] =
    "#include <stdint.h>\n"
    "void add1(const int32_t *a, int32_t *b, int32_t n)\n"
    "{ for (int32_t i = 0; i < n; i++) b[i] = a[i] + 1; }\n";

/* fifos 'in' and 'out' of 16 int32 and a worker 'w' adding 1 between. */
static void add1_stage(iron_design *d, iron_fifo **in, iron_fifo **out)
{
    *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(16), 2);
    iron_kernel *k = iron_kernel_new(d, "add1", add1_src,
                                     "int32*, int32*, int32");
    iron_worker_new(d, "w", k, 0,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(*in)),
                              iron_arg_fifo(iron_fifo_prod(*out)),
                              iron_arg_int(16)));
}

static void assert_arange_plus(const iron_tensor *t, int64_t n, int add)
{
    for (int64_t i = 0; i < n; i++)
        if (test_at(t, i) != (double)(i + add))
            TEST_FAIL_("element %lld is %g, expected %lld", (long long)i,
                       test_at(t, i), (long long)(i + add));
}

/* ========================================================================
 * Buffers per endpoint and shared memory
 * ======================================================================== */

/* fill -> w0 -> mid -> w1 -> drain, depth g_case on every fifo; w1 pinned
 * per case to show each memory-affinity direction. */
static int pipe_design(iron_design *d, void *user)
{
    int64_t n = iron_design_arg_numel(d, 0);
    int depth = (int)(intptr_t)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), depth);
    iron_fifo *mid = iron_fifo_new(d, "mid", IRON_INT32, IRON_SHAPE(16),
                                   depth);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(16),
                                   depth);
    iron_kernel *k = iron_kernel_new(d, "add1", add1_src,
                                     "int32*, int32*, int32");
    iron_worker *w0 = iron_worker_new(
        d, "w0", k, 0,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(mid)), iron_arg_int(16)));
    iron_worker *w1 = iron_worker_new(
        d, "w1", k, 0,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(mid)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(16)));
    switch (g_case) {
    case 1: /* consumer west of its producer */
        iron_worker_place(w0, 1, 2);
        iron_worker_place(w1, 0, 2);
        break;
    case 2: /* consumer east */
        iron_worker_place(w0, 0, 2);
        iron_worker_place(w1, 1, 2);
        break;
    case 3: /* not adjacent */
        iron_worker_place(w0, 0, 2);
        iron_worker_place(w1, 0, 4);
        break;
    default: /* placed by the placer: (0,2) then (0,3) */
        break;
    }
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static iron_jit *pipe_jit(int depth)
{
    iron_jit *j = NULL;
    iron_jit_options o = { .size = sizeof o, .name = "pipe",
                           .args = "in a: int32[N], out b: int32[N]",
                           .user = (void *)(intptr_t)depth };
    ASSERT_OK(iron_jit_create(pipe_design, &o, &j));
    return j;
}

TEST(lower_neighbours_share_memory)
{
    iron_tensor *a = test_arange(IRON_INT32, 256),
                *b = test_zeros(IRON_INT32, 256);
    const char *const where[] = {
        "buffers 4 (declared depth 4, shared memory on compute tile (0,2))",
        "buffers 4 (declared depth 4, shared memory on compute tile (0,2))",
        "buffers 4 (declared depth 4, shared memory on compute tile (0,2))",
        NULL,
    };
    for (g_case = 0; g_case < 4; g_case++) {
        iron_jit *j = pipe_jit(4);
        char *text = test_dump(j, 2, IRON_TENSORS(a, b));
        if (where[g_case]) {
            ASSERT_CONTAINS(text, where[g_case]);
            ASSERT(!strstr(text, "fifo 'mid': compute"));
        } else {
            /* Two rows apart: a DMA, each end max acquire + 1. */
            ASSERT_CONTAINS(text, "fifo 'mid': compute tile (0,2) -> compute "
                                  "tile (0,4)");
        }
        iron_free(text);
        ASSERT_OK(test_launch(j, 2, IRON_TENSORS(a, b)));
        assert_arange_plus(b, 256, 2);
        iron_jit_free(j);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
}

TEST(lower_dma_ends_get_max_acquire_plus_one)
{
    iron_tensor *a = test_arange(IRON_INT32, 256),
                *b = test_zeros(IRON_INT32, 256);
    /* Declared depth 7, as upstream's edge detect: a DMA-fed compute end
     * gets max acquire + 1 = 2 buffers, so the design fits. */
    g_case = 0;
    iron_jit *j = pipe_jit(7);
    char *text = test_dump(j, 1, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "consumer 0: worker 'w0' @(0,2) buffers 2 (max "
                          "acquire 1 + 1; declared depth 7)");
    ASSERT_CONTAINS(text, "producer: worker 'w1' @(0,3) buffers 2 (max "
                          "acquire 1 + 1; declared depth 7)");
    iron_free(text);
    ASSERT_OK(test_launch(j, 1, IRON_TENSORS(a, b)));
    assert_arange_plus(b, 256, 2);
    iron_jit_free(j);
    /* Depth 1 and max acquire 1: one buffer. */
    j = pipe_jit(1);
    text = test_dump(j, 1, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "buffers 1 (max acquire 1, declared depth 1)");
    iron_free(text);
    ASSERT_OK(test_launch(j, 1, IRON_TENSORS(a, b)));
    assert_arange_plus(b, 256, 2);
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

/* A core body holding two objects of 'in' at once. */
static const char pairs_src[] =
    "#include <stdint.h>\n"
    "void pairs(iron_objfifo *in, iron_objfifo *out, int32_t take)\n"
    "{\n"
    "    for (;;) {\n"
    "        int32_t **x = (int32_t **)iron_acquire(in, take);\n"
    "        int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
    "        for (int i = 0; i < 16; i++) y[i] = x[0][i] + x[take - 1][i];\n"
    "        iron_release(out, 1);\n"
    "        iron_release(in, take);\n"
    "    }\n"
    "}\n";

static int pairs_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(16), 2);
    iron_kernel *k =
        iron_kernel_new_core(d, "pairs", pairs_src, "fifo, fifo, int32");
    int declared = g_case == 1 ? 3 : 2; /* 1: above the depth */
    iron_arg in_arg = g_case == 2 ? iron_arg_fifo(iron_fifo_cons(in))
                                  : iron_arg_fifo_acquire(iron_fifo_cons(in),
                                                          declared);
    iron_worker_new(d, "pairs", k, 0,
                    IRON_ARGS(in_arg, iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(2)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n / 2),
                  IRON_WAIT);
    return 0;
}

TEST(lower_core_body_max_acquire)
{
    iron_tensor *a = test_arange(IRON_INT32, 128),
                *b = test_zeros(IRON_INT32, 64);
    g_case = 0;
    iron_jit *j = test_jit(pairs_design, "pairs",
                           "in a: int32[128], out b: int32[64]");
    char *text = test_dump(j, 1, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "consumer 0: worker 'pairs' @(0,2) max acquire 2 "
                          "buffers 3 (max acquire 2 + 1; declared depth 2)");
    iron_free(text);
    ASSERT_OK(test_launch(j, 1, IRON_TENSORS(a, b)));
    for (int o = 0; o < 4; o++)
        for (int i = 0; i < 16; i++)
            ASSERT_EQ(test_at(b, o * 16 + i),
                      (2 * o * 16 + i) + ((2 * o + 1) * 16 + i));
    iron_jit_free(j);
    /* Declared above the endpoint's depth: rejected before anything runs. */
    g_case = 1;
    j = test_jit(pairs_design, "pairs", "in a: int32[128], out b: int32[64]");
    ASSERT_STATUS(test_launch(j, 1, IRON_TENSORS(a, b)), IRON_EDESIGN);
    ASSERT_MSG("worker 'pairs': argument 0 (fifo 'in' (consumer)) declares "
               "max acquire 3, above the endpoint's declared depth 2");
    iron_jit_free(j);
    /* Not declared: acquiring 2 at run time is named. */
    g_case = 2;
    j = test_jit(pairs_design, "pairs", "in a: int32[128], out b: int32[64]");
    ASSERT_STATUS(test_launch(j, 1, IRON_TENSORS(a, b)), IRON_ERUNTIME);
    ASSERT_MSG(
        "worker 'pairs' on tile (0,2): acquire(2) on fifo 'in' "
        "(consumer); the worker declared it holds at most 1 at once "
        "(iron_arg_fifo_acquire(h, 2) gives the endpoint the buffers for "
        "2)");
    /* ... and the next call of another jit works. */
    iron_jit_free(j);
    g_case = 0;
    j = test_jit(pairs_design, "pairs", "in a: int32[128], out b: int32[64]");
    ASSERT_OK(test_launch(j, 1, IRON_TENSORS(a, b)));
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

static int loop_acquire_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(16), 2);
    iron_kernel *k = iron_kernel_new(d, "copy", copy_src,
                                     "int32*, int32*, int32");
    iron_worker_new(d, "w", k, 0,
                    IRON_ARGS(iron_arg_fifo_acquire(iron_fifo_cons(in), 2),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(16)));
    return 0;
}

TEST(lower_standard_loop_holds_one)
{
    iron_tensor *a = test_arange(IRON_INT32, 16),
                *b = test_zeros(IRON_INT32, 16);
    iron_jit *j = test_jit(loop_acquire_design, "loop",
                           "in a: int32[16], out b: int32[16]");
    ASSERT_STATUS(test_launch(j, 1, IRON_TENSORS(a, b)), IRON_EINVAL);
    ASSERT_MSG("worker 'w': argument 0 (fifo 'in' (consumer)) declares max "
               "acquire 2; a standard-loop kernel holds one object per "
               "handle (only core bodies declare more)");
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

/* ========================================================================
 * Placement
 * ======================================================================== */

/* g_case workers, each with its own fill and drain. */
static int many_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_kernel *k = iron_kernel_new(d, "copy", copy_src,
                                     "int32*, int32*, int32");
    int64_t chunk = n / g_case;
    for (int i = 0; i < g_case; i++) {
        char a[16], b[16], w[16];
        snprintf(a, sizeof a, "in%d", i);
        snprintf(b, sizeof b, "out%d", i);
        snprintf(w, sizeof w, "w%d", i);
        iron_fifo *fi = iron_fifo_new(d, a, IRON_INT32, IRON_SHAPE(16), 2);
        iron_fifo *fo = iron_fifo_new(d, b, IRON_INT32, IRON_SHAPE(16), 2);
        iron_worker_new(d, w, k, 0,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(fi)),
                                  iron_arg_fifo(iron_fifo_prod(fo)),
                                  iron_arg_int(16)));
        iron_tap t = iron_tap_make(i * chunk, 1, (const int64_t[]){ chunk },
                                   (const int64_t[]){ 1 });
        iron_rt_task_group_begin(d);
        iron_rt_fill(d, iron_fifo_prod(fi), 0, t);
        iron_rt_drain(d, iron_fifo_cons(fo), 1, t, IRON_WAIT);
        iron_rt_task_group_end(d);
    }
    return 0;
}

TEST(lower_placement_column_by_column)
{
    iron_tensor *a = test_arange(IRON_INT32, 1024),
                *b = test_zeros(IRON_INT32, 1024);
    g_case = 8;
    iron_jit *j = test_jit(many_design, "many",
                           "in a: int32[1024], out b: int32[1024]");
    char *text = test_dump(j, 4, IRON_TENSORS(a, b));
    /* Workers fill column 0's four compute tiles, then column 1's. */
    ASSERT_CONTAINS(text, "w3: kernel 'copy' on tile (0,5)");
    ASSERT_CONTAINS(text, "w4: kernel 'copy' on tile (1,2)");
    /* Shim channels: from each fifo's column eastwards, two per shim. */
    ASSERT_CONTAINS(text, "fifo 'in1': shim (0,0) -> compute tile (0,3)");
    ASSERT_CONTAINS(text, "fifo 'in2': shim (1,0) -> compute tile (0,4)");
    ASSERT_CONTAINS(text, "fifo 'in4': shim (2,0) -> compute tile (1,2)");
    iron_free(text);
    ASSERT_OK(test_launch(j, 4, IRON_TENSORS(a, b)));
    assert_arange_plus(b, 1024, 0);
    /* With one column, the eighth fifo finds no shim channel left. */
    ASSERT_STATUS(test_launch(j, 1, IRON_TENSORS(a, b)), IRON_ERESOURCE);
    ASSERT_MSG("the design has 8 workers; the launch grants 1 column x 4 "
               "compute tiles = 4");
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

/* ========================================================================
 * Designs without workers, placed and retyped links, byte transfers
 * ======================================================================== */

/* fill -> forward (g_case: 0 memtile, 1 any compute tile, 2 tile (1,1),
 * 3 retyped to half objects, 4 retyped to double objects) -> drain. */
static int dma_only_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_UINT8, IRON_SHAPE(256), 2);
    iron_link_options o = { .size = sizeof o };
    if (g_case == 1)
        o.place = IRON_LINK_ANY_COMPUTE;
    if (g_case == 2) {
        o.place = IRON_LINK_TILE;
        o.col = 1;
        o.row = 1;
    }
    if (g_case == 3 || g_case == 4) {
        o.dtype = IRON_INT32;
        o.obj_shape = g_case == 3 ? IRON_SHAPE(2, 16) : IRON_SHAPE(128);
    }
    iron_fifo *out = iron_fifo_forward_with(d, iron_fifo_cons(in), NULL, 0,
                                            &o);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n / 4),
                  IRON_WAIT);
    return 0;
}

TEST(lower_dma_only_designs)
{
    const char *const place[] = {
        "0 forward on memtile (0,1): 'in' -> 'in_fwd'",
        "0 forward on compute tile (0,2): 'in' -> 'in_fwd'",
        "0 forward on memtile (1,1): 'in' -> 'in_fwd'",
        "0 forward on memtile (0,1) (1 in, 2 out per buffer): 'in' -> "
        "'in_fwd'",
        "0 forward on memtile (0,1) (2 in, 1 out per buffer): 'in' -> "
        "'in_fwd'",
    };
    /* Bytes in, int32 out: the DMA moves bytes (upstream checks no
     * dtype). */
    iron_tensor *a = NULL, *b = test_zeros(IRON_INT32, 512);
    ASSERT_OK(iron_tensor_randint(IRON_UINT8, IRON_SHAPE(2048), 0, 256,
                                  7, &a));
    for (g_case = 0; g_case < 5; g_case++) {
        iron_jit *j = test_jit(dma_only_design, "dmaonly",
                               "in a: uint8[2048], out b: int32[512]");
        char *text = test_dump(j, 2, IRON_TENSORS(a, b));
        ASSERT_CONTAINS(text, place[g_case]);
        ASSERT_CONTAINS(text, "workers (0):");
        iron_free(text);
        memset(iron_tensor_data(b), 0, 2048);
        ASSERT_OK(test_launch(j, 2, IRON_TENSORS(a, b)));
        ASSERT_EQ(memcmp(iron_tensor_data(a), iron_tensor_data(b), 2048), 0);
        iron_jit_free(j);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
}

enum {
    BAD_NO_WORKER_NO_LINK,
    BAD_LINK_ON_SHIM,
    BAD_LINK_ON_WORKER,
    BAD_LINK_OPTIONS_SIZE,
    BAD_RETYPE_SIZES,
    BAD_LINK_COLUMN,
};

static int bad_link_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    iron_link_options o = { .size = sizeof o };
    switch (g_case) {
    case BAD_NO_WORKER_NO_LINK: {
        iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(16),
                                       2);
        iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(16),
                      IRON_WAIT);
        iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(16));
        return 0;
    }
    case BAD_LINK_ON_SHIM:
        o.place = IRON_LINK_TILE;
        o.col = 0;
        o.row = 0;
        break;
    case BAD_LINK_ON_WORKER:
    case BAD_LINK_COLUMN:
        o.place = IRON_LINK_TILE;
        o.col = g_case == BAD_LINK_COLUMN ? 1 : 0;
        o.row = 2;
        break;
    case BAD_LINK_OPTIONS_SIZE:
        o.size = 4;
        break;
    case BAD_RETYPE_SIZES:
        o.dtype = IRON_INT16;
        o.obj_shape = IRON_SHAPE(12);
        break;
    }
    iron_fifo *mid = iron_fifo_forward_with(d, iron_fifo_cons(in), "mid", 0,
                                            &o);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(16), 2);
    iron_kernel *k = iron_kernel_new(d, "copy", copy_src,
                                     "int32*, int32*, int32");
    iron_worker *w = iron_worker_new(
        d, "w", k, 0,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(mid)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(16)));
    iron_worker_place(w, 0, 2);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(16));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(16), IRON_WAIT);
    return 0;
}

static void bad_link(int which, int cols, iron_status want, const char *msg)
{
    g_case = which;
    iron_tensor *a = test_arange(IRON_INT32, 16),
                *b = test_zeros(IRON_INT32, 16);
    iron_jit *j = test_jit(bad_link_design, "badlink",
                           "in a: int32[16], out b: int32[16]");
    ASSERT_STATUS(test_launch(j, cols, IRON_TENSORS(a, b)), want);
    ASSERT_MSG(msg);
    ASSERT_EQ(test_stats(j).specializations, 0);
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

TEST(lower_link_and_dma_only_errors)
{
    bad_link(BAD_NO_WORKER_NO_LINK, 1, IRON_EDESIGN,
             "verify: the design has no worker and no link: nothing between "
             "the runtime's fills and drains");
    bad_link(BAD_LINK_ON_SHIM, 1, IRON_ERESOURCE,
             "forward of fifo 'in' (consumer): tile (0,0) cannot hold a "
             "link; expected a memtile (row 1) or a compute tile (rows 2..5) "
             "in columns 0..0 (a shim has no memory to link through)");
    bad_link(BAD_LINK_ON_WORKER, 1, IRON_ERESOURCE,
             "place: link 0 is placed on compute tile (0,2), which runs "
             "worker 'w'");
    bad_link(BAD_LINK_COLUMN, 1, IRON_ERESOURCE,
             "tile (1,2) cannot hold a link");
    bad_link(BAD_LINK_OPTIONS_SIZE, 1, IRON_EINVAL,
             "forward of fifo 'in' (consumer): iron_link_options.size is 4");
    bad_link(BAD_RETYPE_SIZES, 1, IRON_ESHAPE,
             "forward of fifo 'in' (consumer): objects of 64 bytes (int32) "
             "become objects of 24 bytes (int16); one size must be a whole "
             "multiple of the other");
    test_assert_no_leaks();
}

/* ========================================================================
 * The runtime sequence
 * ======================================================================== */

/* A worker adding 1; the sequence drains its output through a new
 * iron_fifo_cons(out) per drain, object after object (upstream folds them
 * into one runtime endpoint).  g_case 1: the second has another depth. */
static int tiles_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in, *out;
    add1_stage(d, &in, &out);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(64));
    for (int t = 0; t < 4; t++) {
        iron_handle *c = iron_fifo_cons(out);
        if (g_case == 1 && t == 1)
            iron_handle_set_depth(c, 3);
        iron_rt_drain(d, c, 1,
                      iron_tap_make(16 * (3 - t), 1, (const int64_t[]){ 16 },
                                    (const int64_t[]){ 1 }),
                      t == 3 ? IRON_WAIT : IRON_NOWAIT);
    }
    return 0;
}

TEST(lower_runtime_consumers_fold_into_one)
{
    iron_tensor *a = test_arange(IRON_INT32, 64),
                *b = test_zeros(IRON_INT32, 64);
    g_case = 0;
    iron_jit *j = test_jit(tiles_design, "tiles",
                           "in a: int32[64], out b: int32[64]");
    char *text = test_dump(j, 1, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "    consumer 0: runtime (host memory)\n");
    ASSERT(!strstr(text, "consumer 1:"));
    iron_free(text);
    for (int call = 0; call < 2; call++) {
        ASSERT_OK(test_launch(j, 1, IRON_TENSORS(a, b)));
        /* Object t went to the t-th drain: tile 3 - t of b. */
        for (int t = 0; t < 4; t++)
            for (int i = 0; i < 16; i++)
                ASSERT_EQ(test_at(b, 16 * (3 - t) + i), 16 * t + i + 1);
    }
    iron_jit_free(j);
    g_case = 1;
    j = test_jit(tiles_design, "tiles", "in a: int32[64], out b: int32[64]");
    ASSERT_STATUS(test_launch(j, 1, IRON_TENSORS(a, b)), IRON_EDESIGN);
    ASSERT_MSG("drain of fifo 'out' (consumer 1): the runtime already drains "
               "fifo 'out' (consumer 0) with depth 2; two runtime consumers "
               "of one fifo must be the same (depth 3 here)");
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

/* Ping-pong as upstream's single-core matmul: group n is opened and filled
 * while group n-1, still in flight, is finished. */
static int pingpong_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in, *out;
    add1_stage(d, &in, &out);
    iron_handle *drain = iron_fifo_cons(out);
    iron_task_group *prev = NULL;
    for (int t = 0; t < 8; t++) {
        iron_task_group *g = iron_rt_task_group_new(d);
        iron_tap tap = iron_tap_make(32 * t, 1, (const int64_t[]){ 32 },
                                     (const int64_t[]){ 1 });
        iron_rt_fill(d, iron_fifo_prod(in), 0, tap);
        iron_rt_drain(d, drain, 1, tap, IRON_WAIT);
        if (prev)
            iron_rt_task_group_finish(d, prev);
        prev = g;
    }
    iron_rt_task_group_finish(d, prev);
    if (g_case == 1) /* twice */
        iron_rt_task_group_finish(d, prev);
    if (g_case == 2)
        iron_rt_task_group_finish(d, NULL);
    return 0;
}

/* Ops naming their group (upstream's fill(..., task_group=tg)): two
 * groups open, each op sent to the one it names, the first finished
 * first; case 1 uses a finished group. */
static int named_groups_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in, *out;
    add1_stage(d, &in, &out);
    iron_handle *drain = iron_fifo_cons(out);
    iron_task_group *g[2] = { iron_rt_task_group_new(d),
                              iron_rt_task_group_new(d) };
    for (int t = 0; t < 2; t++) {
        iron_tap tap = iron_tap_make(128 * t, 1, (const int64_t[]){ 128 },
                                     (const int64_t[]){ 1 });
        iron_rt_task_group_use(d, g[t]);
        iron_rt_fill(d, iron_fifo_prod(in), 0, tap);
        iron_rt_drain(d, drain, 1, tap, IRON_WAIT);
    }
    iron_rt_task_group_finish(d, g[0]);
    if (g_case == 1)
        iron_rt_task_group_use(d, g[0]);
    iron_rt_task_group_finish(d, g[1]);
    return 0;
}

TEST(lower_task_groups_named_by_op)
{
    iron_tensor *a = test_arange(IRON_INT32, 256),
                *b = test_zeros(IRON_INT32, 256);
    g_case = 0;
    iron_jit *j = test_jit(named_groups_design, "named",
                           "in a: int32[256], out b: int32[256]");
    char *text = test_dump(j, 1, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "wait (group 1)\n");
    ASSERT_CONTAINS(text, "wait (group 2)\n");
    iron_free(text);
    ASSERT_OK(test_launch(j, 1, IRON_TENSORS(a, b)));
    assert_arange_plus(b, 256, 1);
    iron_jit_free(j);
    g_case = 1;
    j = test_jit(named_groups_design, "named",
                 "in a: int32[256], out b: int32[256]");
    ASSERT_STATUS(test_launch(j, 1, IRON_TENSORS(a, b)), IRON_EDESIGN);
    ASSERT_MSG("use task group: group 1 (opened at sequence op 0) is already "
               "finished");
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

TEST(lower_task_groups_ping_pong)
{
    iron_tensor *a = test_arange(IRON_INT32, 256),
                *b = test_zeros(IRON_INT32, 256);
    g_case = 0;
    iron_jit *j = test_jit(pingpong_design, "pingpong",
                           "in a: int32[256], out b: int32[256]");
    char *text = test_dump(j, 1, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "task_group 2\n");
    ASSERT_CONTAINS(text, "finish_task_group 1\n");
    ASSERT_CONTAINS(text, "wait (group 2)\n");
    iron_free(text);
    ASSERT_OK(test_launch(j, 1, IRON_TENSORS(a, b)));
    assert_arange_plus(b, 256, 1);
    iron_jit_free(j);
    g_case = 1;
    j = test_jit(pingpong_design, "pingpong",
                 "in a: int32[256], out b: int32[256]");
    ASSERT_STATUS(test_launch(j, 1, IRON_TENSORS(a, b)), IRON_EDESIGN);
    ASSERT_MSG("finish task group: group 8 (opened at sequence op 27) is "
               "already finished");
    iron_jit_free(j);
    g_case = 2;
    j = test_jit(pingpong_design, "pingpong",
                 "in a: int32[256], out b: int32[256]");
    ASSERT_STATUS(test_launch(j, 1, IRON_TENSORS(a, b)), IRON_EINVAL);
    ASSERT_MSG("finish task group: the group is NULL");
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

/* Two outputs, both drains awaited outside any task group: the first is
 * waited for where it stands, before the second is issued, and the second
 * output's producer stalls the broadcast both share -- as on hardware. */
static int two_waits_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *x = iron_fifo_new(d, "x", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *y = iron_fifo_new(d, "y", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *z = iron_fifo_new(d, "z", IRON_INT32, IRON_SHAPE(16), 2);
    iron_kernel *k = iron_kernel_new(d, "add1", add1_src,
                                     "int32*, int32*, int32");
    iron_worker_new(d, "wy", k, 0,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(x)),
                              iron_arg_fifo(iron_fifo_prod(y)),
                              iron_arg_int(16)));
    iron_worker_new(d, "wz", k, 0,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(x)),
                              iron_arg_fifo(iron_fifo_prod(z)),
                              iron_arg_int(16)));
    iron_rt_fill(d, iron_fifo_prod(x), 0, iron_tap_linear(256));
    iron_rt_drain(d, iron_fifo_cons(y), 1, iron_tap_linear(256),
                  g_case ? IRON_NOWAIT : IRON_WAIT);
    iron_rt_drain(d, iron_fifo_cons(z), 2, iron_tap_linear(256), IRON_WAIT);
    return 0;
}

TEST_TIMEOUT(lower_drain_awaited_where_it_stands, 20)
{
    iron_tensor *a = test_arange(IRON_INT32, 256),
                *y = test_zeros(IRON_INT32, 256),
                *z = test_zeros(IRON_INT32, 256);
    g_case = 0;
    iron_jit *j = test_jit(two_waits_design, "waits",
                           "in a: int32[256], out y: int32[256], "
                           "out z: int32[256]");
    ASSERT_STATUS(test_launch(j, 1, IRON_TENSORS(a, y, z)), IRON_EDEADLOCK);
    ASSERT_MSG("the sequence waits at op 1 (drain of fifo 'y', awaited where "
               "it stands, outside any task group) and has not issued its 1 "
               "later op: the stalled tasks need op 2 (drain of fifo 'z', "
               "argument 2 'z'), never issued");
    iron_jit_free(j);
    /* Awaiting only the last drain, the same design runs. */
    g_case = 1;
    j = test_jit(two_waits_design, "waits",
                 "in a: int32[256], out y: int32[256], out z: int32[256]");
    ASSERT_OK(test_launch(j, 1, IRON_TENSORS(a, y, z)));
    assert_arange_plus(y, 256, 1);
    assert_arange_plus(z, 256, 1);
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(y);
    iron_tensor_free(z);
}

/* ========================================================================
 * Workers and tile memory
 * ======================================================================== */

/* A kernel with a 32 KiB table of its own. */
static const char table_src[] =
    "#include <stdint.h>\n"
    "static int32_t table[8192];\n"
    "void tab(const int32_t *a, int32_t *b, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++) {\n"
    "        table[i] += 1;\n"
    "        b[i] = a[i] + table[i];\n"
    "    }\n"
    "}\n";

/* 'in' and 'out' of 4096 int32 (16 KiB objects), 2 buffers each. */
static int mem_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(g_case ? 16
                                                                     : 2048),
                                  2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32,
                                   IRON_SHAPE(g_case ? 16 : 2048), 2);
    iron_kernel *k = iron_kernel_new(d, "tab", table_src,
                                     "int32*, int32*, int32");
    iron_worker *w =
        iron_worker_new(d, "w", k, 0,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                                  iron_arg_fifo(iron_fifo_prod(out)),
                                  iron_arg_int(g_case ? 16 : 2048)));
    if (g_case == 2)
        iron_worker_set_stack(w, 7);
    if (g_case == 3)
        iron_worker_set_stack(w, 48 * 1024);
    int64_t n = iron_design_arg_numel(d, 0);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(lower_tile_memory_counts_kernel_data_and_stack)
{
    iron_tensor *a = test_arange(IRON_INT32, 2048),
                *b = test_zeros(IRON_INT32, 2048);
    /* 4 x 8 KiB buffers + 32 KiB table + 1 KiB stack = 66560 > 65536. */
    g_case = 0;
    iron_jit *j = test_jit(mem_design, "mem",
                           "in a: int32[2048], out b: int32[2048]");
    ASSERT_STATUS(test_launch(j, 1, IRON_TENSORS(a, b)), IRON_ERESOURCE);
    ASSERT_MSG("place: compute tile (0,2) (worker 'w'): data memory needs "
               "66560 bytes, the tile has 65536 (1024 over): fifo 'in' "
               "(consumer) 2 x 8192 B (max acquire 1 + 1; declared depth 2), "
               "fifo 'out' (producer) 2 x 8192 B (max acquire 1 + 1; "
               "declared depth 2), kernel static data 32768 B, stack 1024 B");
    iron_jit_free(j);
    /* Small objects fit, and the table is the worker's own across calls. */
    g_case = 1;
    j = test_jit(mem_design, "mem", "in a: int32[2048], out b: int32[2048]");
    ASSERT_OK(test_launch(j, 1, IRON_TENSORS(a, b)));
    ASSERT_EQ(test_at(b, 0), 0 + 1);
    ASSERT_EQ(test_at(b, 2032), 2032 + 128);
    iron_jit_free(j);
    /* A stack that is not a multiple of 16, or too big with the rest. */
    g_case = 2;
    j = test_jit(mem_design, "mem", "in a: int32[2048], out b: int32[2048]");
    ASSERT_STATUS(test_launch(j, 1, IRON_TENSORS(a, b)), IRON_EINVAL);
    ASSERT_MSG("worker 'w': stack of 7 bytes; expected a multiple of 16 from "
               "16 to 65536");
    iron_jit_free(j);
    g_case = 3;
    j = test_jit(mem_design, "mem", "in a: int32[2048], out b: int32[2048]");
    ASSERT_STATUS(test_launch(j, 1, IRON_TENSORS(a, b)), IRON_ERESOURCE);
    ASSERT_MSG("kernel static data 32768 B, stack 49152 B");
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

/* A core body calling a kernel made with iron_kernel_new, with a
 * tile-local buffer holding initial values it adds. */
static const char caller_src[] =
    "#include <stdint.h>\n"
    "void caller(iron_objfifo *in, iron_objfifo *out, int32_t *bias,\n"
    "            void (*k)(int32_t *, int32_t *, int32_t))\n"
    "{\n"
    "    for (;;) {\n"
    "        int32_t *x = iron_acquire(in, 1)[0];\n"
    "        int32_t *y = iron_acquire(out, 1)[0];\n"
    "        k(x, y, 16);\n"
    "        for (int i = 0; i < 16; i++) y[i] += bias[i];\n"
    "        iron_release(out, 1);\n"
    "        iron_release(in, 1);\n"
    "    }\n"
    "}\n";

static int caller_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(16), 2);
    iron_kernel *k = iron_kernel_new(d, "add1", add1_src,
                                     g_case == 1 ? "int32*, int32*, int16"
                                                 : "int32*, int32*, int32");
    iron_kernel *body = iron_kernel_new_core(
        d, "caller", caller_src,
        "fifo, fifo, int32*, kernel(int32*, int32*, int32)");
    iron_rtp *bias = iron_rtp_new(d, "bias", IRON_INT32, 16);
    int32_t init[16];
    for (int i = 0; i < 16; i++)
        init[i] = 100 * i;
    iron_rtp_set_initial(bias, g_case == 2 ? NULL : init);
    iron_worker_new(d, "w", body, 0,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_rtp(bias),
                              iron_arg_kernel(g_case == 3 ? body : k)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(64));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(64), IRON_WAIT);
    return 0;
}

TEST(lower_core_body_calls_a_kernel_with_a_buffer)
{
    iron_tensor *a = test_arange(IRON_INT32, 64),
                *b = test_zeros(IRON_INT32, 64);
    g_case = 0;
    iron_jit *j = test_jit(caller_design, "caller",
                           "in a: int32[64], out b: int32[64]");
    for (int call = 0; call < 2; call++) {
        ASSERT_OK(test_launch(j, 1, IRON_TENSORS(a, b)));
        for (int i = 0; i < 64; i++)
            ASSERT_EQ(test_at(b, i), i + 1 + 100 * (i % 16));
    }
    char *text = test_dump(j, 1, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "kernel 'add1' (kernel 0)");
    ASSERT_CONTAINS(text, "rtp 'bias' (initial xxh64 ");
    iron_free(text);
    iron_jit_free(j);
    const struct {
        iron_status s;
        const char *msg;
    } bad[] = {
        { IRON_EDTYPE, "worker 'w': argument 3 is kernel 'add1' with 3 "
                       "arguments, but core body 'caller' declares a "
                       "kernel(...) of other types there" },
        { IRON_EINVAL, "buffer 'bias': initial values are NULL" },
        { IRON_EDESIGN, "worker 'w': argument 3 is core body 'caller'; a "
                        "core body calls kernels made with iron_kernel_new" },
    };
    for (g_case = 1; g_case <= 3; g_case++) {
        j = test_jit(caller_design, "caller",
                     "in a: int32[64], out b: int32[64]");
        ASSERT_STATUS(test_launch(j, 1, IRON_TENSORS(a, b)),
                      bad[g_case - 1].s);
        ASSERT_MSG(bad[g_case - 1].msg);
        iron_jit_free(j);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
}

/* ========================================================================
 * A memtile pattern describing one tile of a joined object
 * ======================================================================== */

/* Two workers each produce an 8 x 4 tile (row-major, value = 100 * w +
 * element); the memtile joins them as a 16 x 4 object and its
 * dims_to_stream [(4, 1), (8, 4)] transposes one 8 x 4 tile: the memtile
 * DMA keeps counting the outermost dimension and walks over the second. */
static const char fill_tile_src[] =
    "#include <stdint.h>\n"
    "void fill_tile(const int32_t *in, int32_t *out, int32_t base)\n"
    "{ for (int i = 0; i < 32; i++) out[i] = in[i] + base; }\n";

static int wrap_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *c = iron_fifo_new(d, "c", IRON_INT32, IRON_SHAPE(64), 2);
    iron_fifo *parts[2];
    iron_fifo_join(d, iron_fifo_prod(c), 2, NULL, (const int64_t[]){ 0, 32 },
                   (const iron_shape[]){ IRON_SHAPE(32), IRON_SHAPE(32) },
                   NULL, parts);
    iron_handle_set_dims(iron_fifo_prod(c), 2, (const int64_t[]){ 4, 8 },
                         (const int64_t[]){ 1, 4 });
    iron_kernel *k = iron_kernel_new(d, "fill_tile", fill_tile_src,
                                     "int32*, int32*, int32");
    for (int w = 0; w < 2; w++) {
        char nm[16], fn[16];
        snprintf(nm, sizeof nm, "w%d", w);
        snprintf(fn, sizeof fn, "in%d", w);
        iron_fifo *in = iron_fifo_new(d, fn, IRON_INT32, IRON_SHAPE(32), 2);
        iron_worker_new(d, nm, k, 0,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                                  iron_arg_fifo(iron_fifo_prod(parts[w])),
                                  iron_arg_int(100 * w)));
        iron_rt_fill(d, iron_fifo_prod(in), 0,
                     iron_tap_make(32 * w, 1, (const int64_t[]){ 32 },
                                   (const int64_t[]){ 1 }));
    }
    iron_rt_drain(d, iron_fifo_cons(c), 1, iron_tap_linear(64), IRON_WAIT);
    return 0;
}

TEST(lower_memtile_pattern_wraps_over_the_object)
{
    iron_tensor *a = test_zeros(IRON_INT32, 64),
                *b = test_zeros(IRON_INT32, 64);
    iron_jit *j = test_jit(wrap_design, "wrap",
                           "in a: int32[64], out b: int32[64]");
    char *text = test_dump(j, 1, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "dims_to_stream [(8, 1), (8, 4)] (outermost size "
                          "x2: the memtile DMA wraps it over the whole "
                          "object)");
    iron_free(text);
    ASSERT_OK(test_launch(j, 1, IRON_TENSORS(a, b)));
    /* Stream element s: i0 = s / 8 (0..7, past 3 into the second tile),
     * i1 = s % 8; index i0 + 4 * i1 of the 64-element object. */
    for (int s = 0; s < 64; s++) {
        int idx = s / 8 + 4 * (s % 8);
        ASSERT_EQ(test_at(b, s), idx < 32 ? 0 : 100);
    }
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

/* Shim placement of runtime endpoints (upstream's fill/drain placement). */
static int shim_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in, *out;
    add1_stage(d, &in, &out);
    iron_handle *fill = iron_fifo_prod(in), *drain = iron_fifo_cons(out);
    if (g_case == 0 || g_case == 3) {
        iron_handle_set_shim(fill, 1);
        iron_handle_set_shim(drain, 1);
    }
    if (g_case == 1)
        iron_handle_set_shim(fill, 5);
    if (g_case == 2)
        iron_handle_set_shim(iron_fifo_prod(out), 0);
    iron_rt_fill(d, fill, 0, iron_tap_linear(64));
    iron_rt_drain(d, drain, 1, iron_tap_make(0, 1, (const int64_t[]){ 32 },
                                             (const int64_t[]){ 1 }),
                  IRON_NOWAIT);
    iron_handle *again = iron_fifo_cons(out);
    if (g_case == 3)
        iron_handle_set_shim(again, 0);
    iron_rt_drain(d, again, 1, iron_tap_make(32, 1, (const int64_t[]){ 32 },
                                             (const int64_t[]){ 1 }),
                  IRON_WAIT);
    return 0;
}

TEST(lower_shim_placement)
{
    iron_tensor *a = test_arange(IRON_INT32, 64),
                *b = test_zeros(IRON_INT32, 64);
    g_case = 0;
    iron_jit *j = test_jit(shim_design, "shim",
                           "in a: int32[64], out b: int32[64]");
    char *text = test_dump(j, 2, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "fifo 'in': shim (1,0) -> compute tile (0,2)");
    ASSERT_CONTAINS(text, "fifo 'out': compute tile (0,2) -> shim (1,0)");
    iron_free(text);
    ASSERT_OK(test_launch(j, 2, IRON_TENSORS(a, b)));
    assert_arange_plus(b, 64, 1);
    iron_jit_free(j);
    const struct {
        iron_status s;
        const char *msg;
    } bad[] = {
        { IRON_ERESOURCE, "fifo 'in' (producer): shim column 5; the launch "
                          "grants columns 0..1" },
        { IRON_EDESIGN, "fifo 'out' (producer) is placed on shim (0,0), but "
                        "worker 'w' uses it; only the runtime's fills and "
                        "drains go through a shim" },
        { IRON_EDESIGN, "drain of fifo 'out' (consumer 1): the runtime "
                        "already drains fifo 'out' (consumer 0) through shim "
                        "(1,0); two runtime consumers of one fifo must be "
                        "the same (shim (0,0) here)" },
    };
    for (g_case = 1; g_case <= 3; g_case++) {
        j = test_jit(shim_design, "shim", "in a: int32[64], out b: int32[64]");
        ASSERT_STATUS(test_launch(j, 2, IRON_TENSORS(a, b)),
                      bad[g_case - 1].s);
        ASSERT_MSG(bad[g_case - 1].msg);
        iron_jit_free(j);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
}
