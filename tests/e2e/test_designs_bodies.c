/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_designs_bodies.c - every reference design (examples/designs/) can
 * be exported as MLIR-AIE: none writes a core body as C source
 * (iron_kernel_new_core) any more.  Each design is built through
 * iron_jit_check with its design function wrapped, and the wrapper looks
 * at what the design built (the design IR, src/design/design.h): every
 * worker is a standard-loop worker (a plain kernel) or runs a described
 * body, and the designs converted to described bodies have one per
 * worker (passthrough_dmas has no worker at all).  A scan of the sources
 * backs this up for designs this table would not know of.
 */
#include <stdio.h>

#include "design/design.h"
#include "designs/designs.h"
#include "designs/upstream_basic.h"
#include "designs/upstream_matmul.h"
#include "designs/upstream_ml.h"
#include "test.h"

#define MAX_ARGS 3

/* One design and the call it is checked with. */
typedef struct design_case {
    const char *name;         /* the design function's name */
    iron_design_fn fn;
    const iron_jit_options *opts;
    int nargs;
    iron_dtype dtypes[MAX_ARGS];
    iron_shape shapes[MAX_ARGS];
    const char *int_param;    /* a required int parameter, or NULL */
    int64_t int_value;
    int bodies;               /* workers expected to run described bodies */
} design_case;

#define CASE(fn) #fn, fn

/* The reference designs, each at its defaults (4 columns granted). */
static const design_case cases[] = {
    { CASE(passthrough_design), &passthrough_options, 2,
      { IRON_UINT8, IRON_UINT8 }, { IRON_SHAPE(4096), IRON_SHAPE(4096) },
      NULL, 0, 0 },
    { CASE(vector_op_design), &vector_op_options, 3,
      { IRON_INT32, IRON_INT32, IRON_INT32 },
      { IRON_SHAPE(1024), IRON_SHAPE(1024), IRON_SHAPE(1024) }, NULL, 0,
      0 },
    { CASE(eltwise_parallel_design), &eltwise_parallel_options, 2,
      { IRON_INT32, IRON_INT32 }, { IRON_SHAPE(4096), IRON_SHAPE(4096) },
      NULL, 0, 0 },
    { CASE(add_constant_design), &add_constant_options, 2,
      { IRON_INT32, IRON_INT32 }, { IRON_SHAPE(1024), IRON_SHAPE(1024) },
      "n", 1024, 0 },
    { CASE(vector_scalar_design), &vector_scalar_options, 3,
      { IRON_INT16, IRON_INT32, IRON_INT16 },
      { IRON_SHAPE(1024), IRON_SHAPE(1), IRON_SHAPE(1024) }, NULL, 0, 1 },
    { CASE(saxpy_bf16_design), &saxpy_bf16_options, 3,
      { IRON_BFLOAT16, IRON_BFLOAT16, IRON_BFLOAT16 },
      { IRON_SHAPE(4096), IRON_SHAPE(4096), IRON_SHAPE(4096) }, NULL, 0,
      0 },
    { CASE(memcpy_cols_design), &memcpy_cols_options, 2,
      { IRON_INT32, IRON_INT32 }, { IRON_SHAPE(16384), IRON_SHAPE(16384) },
      NULL, 0, 0 },
    { CASE(split_join_design), &split_join_options, 2,
      { IRON_INT32, IRON_INT32 }, { IRON_SHAPE(96), IRON_SHAPE(96) }, NULL,
      0, 0 },
    { CASE(joined_layout_design), &joined_layout_options, 1,
      { IRON_INT32 }, { IRON_SHAPE(96) }, NULL, 0, 3 },
    { CASE(matmul_single_design), &matmul_single_options, 3,
      { IRON_INT16, IRON_INT16, IRON_INT16 },
      { IRON_SHAPE(128, 128), IRON_SHAPE(128, 128), IRON_SHAPE(128, 128) },
      NULL, 0, 1 },
    { CASE(matmul_whole_design), &matmul_whole_options, 3,
      { IRON_INT16, IRON_INT16, IRON_INT32 },
      { IRON_SHAPE(256, 128), IRON_SHAPE(128, 256), IRON_SHAPE(256, 256) },
      NULL, 0, 16 },
    { CASE(matmul_whole_f32_design), &matmul_whole_f32_options, 3,
      { IRON_FLOAT32, IRON_FLOAT32, IRON_FLOAT32 },
      { IRON_SHAPE(256, 128), IRON_SHAPE(128, 256), IRON_SHAPE(256, 256) },
      NULL, 0, 16 },
    { CASE(matmul_whole_i8_design), &matmul_whole_i8_options, 3,
      { IRON_INT8, IRON_INT8, IRON_INT8 },
      { IRON_SHAPE(256, 128), IRON_SHAPE(128, 512), IRON_SHAPE(256, 512) },
      NULL, 0, 16 },
    { CASE(matmul_whole_bf16_design), &matmul_whole_bf16_options, 3,
      { IRON_BFLOAT16, IRON_BFLOAT16, IRON_BFLOAT16 },
      { IRON_SHAPE(256, 128), IRON_SHAPE(128, 512), IRON_SHAPE(256, 512) },
      NULL, 0, 16 },
    { CASE(passthrough_dmas_design), &passthrough_dmas_options, 3,
      { IRON_INT32, IRON_INT32, IRON_INT32 },
      { IRON_SHAPE(4096), IRON_SHAPE(4096), IRON_SHAPE(4096) }, NULL, 0,
      0 },
    { CASE(dma_transpose_design), &dma_transpose_options, 3,
      { IRON_INT32, IRON_INT32, IRON_INT32 },
      { IRON_SHAPE(64, 64), IRON_SHAPE(64, 64), IRON_SHAPE(64, 64) }, NULL,
      0, 0 },
    { CASE(vision_passthrough_design), &vision_passthrough_options, 3,
      { IRON_INT8, IRON_INT8, IRON_INT8 },
      { IRON_SHAPE(1920 * 1080), IRON_SHAPE(1920 * 1080),
        IRON_SHAPE(1920 * 1080) }, NULL, 0, 1 },
    { CASE(color_threshold_design), &color_threshold_options, 3,
      { IRON_INT8, IRON_INT32, IRON_INT8 },
      { IRON_SHAPE(1920 * 1080), IRON_SHAPE(32), IRON_SHAPE(1920 * 1080) },
      NULL, 0, 4 },
    { CASE(vector_reduce_max_design), &vector_reduce_max_options, 2,
      { IRON_INT32, IRON_INT32 }, { IRON_SHAPE(8192), IRON_SHAPE(1) }, NULL,
      0, 4 },
    { CASE(upstream_matmul_whole_design), &upstream_matmul_whole_options, 3,
      { IRON_INT16, IRON_INT16, IRON_INT16 },
      { IRON_SHAPE(512, 512), IRON_SHAPE(512, 512), IRON_SHAPE(512, 512) },
      NULL, 0, 16 },
    { CASE(upstream_matmul_single_design), &upstream_matmul_single_options,
      3, { IRON_INT16, IRON_INT16, IRON_INT32 },
      { IRON_SHAPE(256, 256), IRON_SHAPE(256, 256), IRON_SHAPE(256, 256) },
      NULL, 0, 1 },
    { CASE(upstream_relu_design), &upstream_relu_options, 2,
      { IRON_BFLOAT16, IRON_BFLOAT16 },
      { IRON_SHAPE(16384), IRON_SHAPE(16384) }, NULL, 0, 8 },
    { CASE(upstream_eltwise_add_design), &upstream_eltwise_add_options, 3,
      { IRON_BFLOAT16, IRON_BFLOAT16, IRON_BFLOAT16 },
      { IRON_SHAPE(65536), IRON_SHAPE(65536), IRON_SHAPE(65536) }, NULL, 0,
      2 },
    { CASE(upstream_row_wise_bias_add_design),
      &upstream_row_wise_bias_add_options, 3,
      { IRON_FLOAT32, IRON_FLOAT32, IRON_FLOAT32 },
      { IRON_SHAPE(768, 2304), IRON_SHAPE(2304), IRON_SHAPE(768, 2304) },
      NULL, 0, 1 },
    { CASE(upstream_edge_detect_design), &upstream_edge_detect_options, 3,
      { IRON_INT8, IRON_INT32, IRON_INT8 },
      { IRON_SHAPE(1920 * 1080 * 4), IRON_SHAPE(16, 16),
        IRON_SHAPE(1920 * 1080 * 4) }, NULL, 0, 4 },
};

#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* What the wrapper saw of one build. */
typedef struct probe {
    const design_case *c;
    int ran;
    int workers, bodies, standard;
    char bad[256];            /* the first C-source core body, if any */
} probe;

/* The design function wrapped: build, then classify what was built. */
static int probe_design(iron_design *d, void *user)
{
    probe *p = user;
    int rc = p->c->fn(d, NULL);
    p->ran = 1;
    for (int i = 0; i < d->workers.n; i++) {
        const iron_worker *w = d->workers.v[i];
        p->workers++;
        if (w->body)
            p->bodies++;
        else if (w->kernel && !w->kernel->is_core)
            p->standard++;
        else if (!p->bad[0])
            snprintf(p->bad, sizeof p->bad,
                     "worker '%s' runs the C-source core body '%s'", w->name,
                     w->kernel ? w->kernel->entry : "?");
    }
    for (int i = 0; i < d->kernels.n; i++) {
        const iron_kernel *k = d->kernels.v[i];
        if (k->is_core && !k->body && !p->bad[0])
            snprintf(p->bad, sizeof p->bad,
                     "kernel '%s' is a C-source core body", k->entry);
    }
    return rc;
}

/* Builds case c (placement and verification, no compiler) and checks its
 * workers. */
static void check_case(const design_case *c)
{
    probe p = { .c = c };
    iron_jit_options o = *c->opts;
    o.user = &p;
    iron_jit *j = test_new_jit(probe_design, &o);
    iron_tensor *args[MAX_ARGS] = { NULL };
    for (int a = 0; a < c->nargs; a++)
        args[a] = test_zeros_shape(c->dtypes[a], c->shapes[a]);
    iron_param param = iron_param_int(c->int_param ? c->int_param : "",
                                      c->int_value);
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 4 };
    char *summary = NULL;
    iron_status s = iron_jit_check(j, &cfg, c->int_param ? 1 : 0,
                                   c->int_param ? &param : NULL, c->nargs,
                                   args, &summary);
    if (s != IRON_OK)
        TEST_FAIL_("%s: iron_jit_check: %s: %s", c->name,
                   iron_status_name(s), iron_last_error());
    if (!p.ran)
        TEST_FAIL_("%s: the design function did not run", c->name);
    if (p.bad[0])
        TEST_FAIL_("%s: %s; describe it with iron_body_* and give it to "
                   "iron_worker_new_body",
                   c->name, p.bad);
    if (p.bodies != c->bodies)
        TEST_FAIL_("%s: %d of %d workers run described bodies; expected %d",
                   c->name, p.bodies, p.workers, c->bodies);
    ASSERT_EQ(p.bodies + p.standard, p.workers);
    iron_free(summary);
    for (int a = 0; a < c->nargs; a++)
        iron_tensor_free(args[a]);
    iron_jit_free(j);
}

TEST_TIMEOUT(designs_bodies_every_worker_exportable, 120)
{
    for (int i = 0; i < NCASES; i++)
        check_case(&cases[i]);
}

/* The sources: no design calls iron_kernel_new_core, and every design
 * function defined in examples/designs/ is in the table above (so that a
 * new design is checked too). */
TEST(designs_bodies_sources_have_no_c_core_bodies)
{
    FILE *ls = popen("ls examples/designs/*.c", "r");
    ASSERT(ls != NULL);
    char path[256];
    int files = 0, designs = 0;
    while (fgets(path, sizeof path, ls)) {
        path[strcspn(path, "\n")] = '\0';
        char *text = (char *)test_slurp(path, NULL);
        ASSERT(text != NULL);
        files++;
        if (strstr(text, "iron_kernel_new_core"))
            TEST_FAIL_("%s calls iron_kernel_new_core: a C-source core "
                       "body cannot be exported as MLIR-AIE",
                       path);
        /* Definitions: "int NAME_design(iron_design *d" at a line start. */
        for (const char *q = text; (q = strstr(q, "\nint ")) != NULL;) {
            q += strlen("\nint ");
            size_t len = strcspn(q, "(");
            if (len < 7 || strncmp(q + len - 7, "_design", 7) != 0 ||
                strncmp(q + len, "(iron_design *", 14) != 0)
                continue;
            designs++;
            int known = 0;
            for (int i = 0; i < NCASES; i++)
                known |= strlen(cases[i].name) == len &&
                         strncmp(cases[i].name, q, len) == 0;
            if (!known)
                TEST_FAIL_("%s: %.*s is not in test_designs_bodies.c's "
                           "table",
                           path, (int)len, q);
        }
        free(text);
    }
    pclose(ls);
    ASSERT_GT(files, 20);
    ASSERT_EQ(designs, NCASES);
}
