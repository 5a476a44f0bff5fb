/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_mlir_roundtrip.c - the bridge both ways on every reference design
 * and every upstream port in examples/designs: each is called directly,
 * then exported as MLIR-AIE (iron_jit_export_mlir: aie.mlir and the
 * kernels as C files), imported back (iron_mlir_design with those
 * kernels) and called again on the same inputs; every output must be
 * bit-identical to the direct call's.  And as a property of the text:
 * for every upstream target and both forms, the text exported from the
 * imported module is the text it was imported from.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "designs/designs.h"
#include "designs/upstream_basic.h"
#include "designs/upstream_matmul.h"
#include "designs/upstream_ml.h"
#include "test.h"

#define RT_MAX_TENSORS 4
#define RT_MAX_PARAMS 6
#define RT_MAX_KERNELS 16

/* One tensor of a call: its dtype and shape; inputs are filled with
 * seeded random values, outputs start zeroed. */
typedef struct rt_tensor {
    iron_dtype dt;
    iron_shape shape;
    int is_out;
} rt_tensor;

typedef struct rt_case {
    const char *name;
    iron_design_fn fn;
    const iron_jit_options *opts;
    const char *device;
    int cols;
    int nparams;
    iron_param params[RT_MAX_PARAMS];
    int ntensors;
    rt_tensor t[RT_MAX_TENSORS];
} rt_case;

#define SH(...)                                                               \
    { .ndim = (int)(sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t)),   \
      .dims = { __VA_ARGS__ } }
#define IN(dt, ...) { dt, SH(__VA_ARGS__), 0 }
#define OUT(dt, ...) { dt, SH(__VA_ARGS__), 1 }
#define PI(n, v) { n, IRON_PARAM_INT, v, 0.0, NULL, IRON_INT8, NULL }
#define PS(n, v) { n, IRON_PARAM_STR, 0, 0.0, v, IRON_INT8, NULL }
#define PNONE { NULL, IRON_PARAM_INT, 0, 0.0, NULL, IRON_INT8, NULL }

/* Random but exactly representable inputs: integers over their range,
 * floats in [-4, 4) (bfloat16 rounded from float). */
static iron_tensor *rt_input(const rt_tensor *t, uint64_t seed)
{
    iron_tensor *x = NULL;
    switch (t->dt) {
    case IRON_FLOAT32:
    case IRON_FLOAT64:
    case IRON_BFLOAT16: {
        iron_tensor *u = NULL;
        ASSERT_OK(iron_tensor_rand(IRON_FLOAT32, t->shape, seed, &u));
        ASSERT_OK(iron_tensor_empty(t->dt, t->shape, &x));
        for (int64_t i = 0; i < iron_tensor_numel(u); i++) {
            double v = 0;
            ASSERT_OK(iron_tensor_get_element(u, i, &v));
            ASSERT_OK(iron_tensor_set_element(x, i, v * 8.0 - 4.0));
        }
        iron_tensor_free(u);
        return x;
    }
    case IRON_INT8:
        return test_randint(t->dt, t->shape, -128, 127, seed);
    case IRON_UINT8:
        return test_randint(t->dt, t->shape, 0, 255, seed);
    case IRON_INT16:
        return test_randint(t->dt, t->shape, -32768, 32767, seed);
    default:
        return test_randint(t->dt, t->shape, -1000000, 1000000, seed);
    }
}

static void rt_make(const rt_case *c, iron_tensor **t)
{
    for (int i = 0; i < c->ntensors; i++)
        t[i] = c->t[i].is_out ? test_zeros_shape(c->t[i].dt, c->t[i].shape)
                              : rt_input(&c->t[i], 1000 + (uint64_t)i);
}

/* The kernels iron_jit_export_mlir wrote: kernels/NAME.c holds the
 * function NAME. */
static int rt_kernels(const char *dir, iron_mlir_kernel *k, char **names,
                      char **srcs)
{
    char path[512];
    snprintf(path, sizeof path, "%s/kernels", dir);
    DIR *dp = opendir(path);
    int n = 0;
    if (!dp)
        return 0;
    for (struct dirent *e; (e = readdir(dp)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".c") != 0)
            continue;
        ASSERT_LT(n, RT_MAX_KERNELS);
        names[n] = strndup(e->d_name, len - 2);
        char file[1024];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        size_t sz = 0;
        srcs[n] = (char *)test_slurp(file, &sz);
        ASSERT(srcs[n] != NULL);
        k[n].name = names[n];
        k[n].source = srcs[n];
        n++;
    }
    closedir(dp);
    return n;
}

static void rt_run(const rt_case *c)
{
    iron_launch_config cfg = { .size = sizeof cfg, .cols = c->cols };
    iron_tensor *direct[RT_MAX_TENSORS], *back[RT_MAX_TENSORS];
    rt_make(c, direct);
    rt_make(c, back);

    IRON_WITH_DEVICE(c->device) {
        iron_jit *j = test_new_jit(c->fn, c->opts);
        ASSERT_OK(iron_jit_launch(j, &cfg, c->nparams, c->params,
                                  IRON_NO_SCALARS, c->ntensors, direct));
        const char *dir = test_temp_dir(c->name);
        ASSERT_OK(iron_jit_export_mlir(j, &cfg, c->nparams, c->params,
                                       c->ntensors, direct, NULL, dir));
        iron_jit_free(j);

        char path[512];
        snprintf(path, sizeof path, "%s/aie.mlir", dir);
        size_t len = 0;
        char *text = (char *)test_slurp(path, &len);
        ASSERT(text != NULL);
        iron_mlir_kernel k[RT_MAX_KERNELS];
        memset(k, 0, sizeof k);
        char *names[RT_MAX_KERNELS], *srcs[RT_MAX_KERNELS];
        int nk = rt_kernels(dir, k, names, srcs);

        iron_mlir *m = NULL;
        ASSERT_OK(iron_mlir_design(text, len, path, nk, k, &m));
        iron_jit *j2 = NULL;
        ASSERT_OK(iron_mlir_jit_create(m, c->name, &j2));
        IRON_WITH_DEVICE(iron_mlir_device(m)) {
            ASSERT_OK(iron_jit_launch(j2, NULL, IRON_NO_PARAMS,
                                      IRON_NO_SCALARS, c->ntensors, back));
        }
        for (int i = 0; i < c->ntensors; i++) {
            size_t nb = iron_tensor_nbytes(direct[i]);
            ASSERT_EQ(iron_tensor_nbytes(back[i]), nb);
            if (memcmp(iron_tensor_data(direct[i]), iron_tensor_data(back[i]),
                       nb) != 0) {
                fprintf(stderr, "%s: tensor %d differs after the round "
                        "trip\n", c->name, i);
                ASSERT(0);
            }
        }
        iron_jit_free(j2);
        iron_mlir_free(m);
        for (int i = 0; i < nk; i++) {
            free(names[i]);
            free(srcs[i]);
        }
        free(text);
        test_remove_dir(dir);
    }
    for (int i = 0; i < c->ntensors; i++) {
        iron_tensor_free(direct[i]);
        iron_tensor_free(back[i]);
    }
}

/* aie.mlir of an export of j (malloc'd) into a fresh folder; its
 * kernels loaded into k (names and srcs to free) when k is given. */
static char *rt_export(iron_jit *j, const iron_launch_config *cfg, int np,
                       const iron_param *params, int nt, iron_tensor **t,
                       const iron_mlir_options *mo, const char *tag,
                       iron_mlir_kernel *k, char **names, char **srcs,
                       int *nk)
{
    char dir[256];
    snprintf(dir, sizeof dir, "%s", test_temp_dir(tag));
    iron_status s = iron_jit_export_mlir(j, cfg, np, params, nt, t, mo, dir);
    if (s != IRON_OK)
        TEST_FAIL_("%s: export for upstream %s%s: %s", tag, mo->upstream,
                   mo->generic ? " (generic)" : "", iron_last_error());
    char path[512];
    snprintf(path, sizeof path, "%s/aie.mlir", dir);
    char *text = (char *)test_slurp(path, NULL);
    ASSERT(text != NULL);
    if (k)
        *nk = rt_kernels(dir, k, names, srcs);
    test_remove_dir(dir);
    return text;
}

/* Fails at the first line where a and b differ, printing both. */
static void rt_same_text(const char *what, const char *a, const char *b)
{
    int line = 1;
    const char *pa = a, *pb = b;
    while (*pa && *pa == *pb) {
        line += *pa == '\n';
        pa++;
        pb++;
    }
    if (!*pa && !*pb)
        return;
    while (pa > a && pa[-1] != '\n')
        pa--;
    while (pb > b && pb[-1] != '\n')
        pb--;
    TEST_FAIL_("%s: the text exported again differs at line %d:\n"
               "  first:  %.*s\n  again:  %.*s",
               what, line, (int)strcspn(pa, "\n"), pa,
               (int)strcspn(pb, "\n"), pb);
}

/* export -> import -> export is the same text, for every target and both
 * forms.  Skipped by design: the generic form for upstream 2025-04,
 * whose device enum numbers differently (npu1_4col is 8, npu2 9, ...)
 * and which the importer reads by the newest enum (docs/mlir.md, "Export
 * targets": a number cannot say which enum it is of). */
static void rt_text(const rt_case *c)
{
    iron_launch_config cfg = { .size = sizeof cfg, .cols = c->cols };
    iron_tensor *t[RT_MAX_TENSORS];
    for (int i = 0; i < c->ntensors; i++)
        t[i] = test_zeros_shape(c->t[i].dt, c->t[i].shape);
    int checked = 0;
    IRON_WITH_DEVICE(c->device) {
        iron_jit *j = test_new_jit(c->fn, c->opts);
        for (int ti = 0; iron_mlir_upstream(ti); ti++)
            for (int generic = 0; generic < 2; generic++) {
                const char *up = iron_mlir_upstream(ti);
                if (generic && strcmp(up, "2025-04") == 0)
                    continue;
                iron_mlir_options mo = { .size = sizeof mo, .upstream = up,
                                         .generic = generic };
                char what[160];
                snprintf(what, sizeof what, "%s (upstream %s%s)", c->name,
                         up, generic ? ", generic" : "");
                iron_mlir_kernel k[RT_MAX_KERNELS];
                memset(k, 0, sizeof k);
                char *names[RT_MAX_KERNELS], *srcs[RT_MAX_KERNELS];
                int nk = 0;
                char *text1 = rt_export(j, &cfg, c->nparams, c->params,
                                        c->ntensors, t, &mo, c->name, k,
                                        names, srcs, &nk);
                iron_mlir *m = NULL;
                iron_status s = iron_mlir_design(text1, strlen(text1), what,
                                                 nk, k, &m);
                if (s != IRON_OK)
                    TEST_FAIL_("%s: import: %s", what, iron_last_error());
                iron_jit *j2 = NULL;
                ASSERT_OK(iron_mlir_jit_create(m, c->name, &j2));
                char *text2 = NULL;
                IRON_WITH_DEVICE(iron_mlir_device(m)) {
                    text2 = rt_export(j2, NULL, 0, NULL, c->ntensors, t, &mo,
                                      c->name, NULL, NULL, NULL, NULL);
                }
                rt_same_text(what, text1, text2);
                checked++;
                free(text1);
                free(text2);
                iron_jit_free(j2);
                iron_mlir_free(m);
                for (int i = 0; i < nk; i++) {
                    free(names[i]);
                    free(srcs[i]);
                }
            }
        iron_jit_free(j);
    }
    ASSERT_EQ(checked, 9);
    for (int i = 0; i < c->ntensors; i++)
        iron_tensor_free(t[i]);
}

static const rt_case rt_cases[] = {
    { "passthrough", passthrough_design, &passthrough_options, "npu1", 1, 0,
      { PNONE }, 2,
      { IN(IRON_UINT8, 4096), OUT(IRON_UINT8, 4096) } },
    { "vector_add", vector_op_design, &vector_op_options, "npu2", 1, 2,
      { PI("tile", 16), PS("op", "+") }, 3,
      { IN(IRON_INT32, 256), IN(IRON_INT32, 256), OUT(IRON_INT32, 256) } },
    { "vector_sub", vector_op_design, &vector_op_options, "npu2", 1, 2,
      { PI("tile", 32), PS("op", "-") }, 3,
      { IN(IRON_INT32, 256), IN(IRON_INT32, 256), OUT(IRON_INT32, 256) } },
    { "eltwise_parallel", eltwise_parallel_design, &eltwise_parallel_options,
      "npu2", 2, 0, { PNONE }, 2,
      { IN(IRON_INT32, 1024), OUT(IRON_INT32, 1024) } },
    { "add_constant", add_constant_design, &add_constant_options, "npu1", 1,
      2, { PI("n", 256), PI("c", 5) }, 2,
      { IN(IRON_INT32, 256), OUT(IRON_INT32, 256) } },
    { "vector_scalar", vector_scalar_design, &vector_scalar_options, "npu1",
      1, 0, { PNONE }, 3,
      { IN(IRON_INT16, 512), IN(IRON_INT32, 1), OUT(IRON_INT16, 512) } },
    { "saxpy_bf16", saxpy_bf16_design, &saxpy_bf16_options, "npu2", 1, 0,
      { PNONE }, 3,
      { IN(IRON_BFLOAT16, 4096), IN(IRON_BFLOAT16, 4096),
        OUT(IRON_BFLOAT16, 4096) } },
    { "memcpy_cols", memcpy_cols_design, &memcpy_cols_options, "npu2", 2, 0,
      { PNONE }, 2,
      { IN(IRON_INT32, 4096), OUT(IRON_INT32, 4096) } },
    { "split_join", split_join_design, &split_join_options, "npu1", 1, 0,
      { PNONE }, 2,
      { IN(IRON_INT32, 96), OUT(IRON_INT32, 96) } },
    { "joined_layout", joined_layout_design, &joined_layout_options, "npu1",
      1, 0, { PNONE }, 1,
      { OUT(IRON_INT32, 96) } },
    { "matmul_single", matmul_single_design, &matmul_single_options, "npu2",
      1, 3,
      { PI("m", 32), PI("k", 32),
        PI("n", 32) }, 3,
      { IN(IRON_INT16, 64, 64), IN(IRON_INT16, 64, 64),
        OUT(IRON_INT16, 64, 64) } },
    { "matmul_whole", matmul_whole_design, &matmul_whole_options, "npu2", 2,
      3,
      { PI("m", 16), PI("k", 32),
        PI("n", 16) }, 3,
      { IN(IRON_INT16, 64, 64), IN(IRON_INT16, 64, 64),
        OUT(IRON_INT32, 64, 64) } },
    { "matmul_whole_f32", matmul_whole_f32_design, &matmul_whole_f32_options,
      "npu2", 1, 3,
      { PI("m", 16), PI("k", 16),
        PI("n", 16) }, 3,
      { IN(IRON_FLOAT32, 64, 32), IN(IRON_FLOAT32, 32, 32),
        OUT(IRON_FLOAT32, 64, 32) } },
    { "passthrough_dmas", passthrough_dmas_design, &passthrough_dmas_options,
      "npu1", 1, 0, { PNONE }, 3,
      { IN(IRON_INT32, 4096), IN(IRON_INT32, 4096), OUT(IRON_INT32, 4096) } },
    { "dma_transpose", dma_transpose_design, &dma_transpose_options, "npu1",
      1, 0, { PNONE }, 3,
      { IN(IRON_INT32, 64, 64), IN(IRON_INT32, 64, 64),
        OUT(IRON_INT32, 64, 64) } },
    { "vision_passthrough", vision_passthrough_design,
      &vision_passthrough_options, "npu1", 1, 2,
      { PI("width", 64), PI("height", 8) }, 3,
      { IN(IRON_INT8, 512), IN(IRON_INT8, 512), OUT(IRON_INT8, 512) } },
    { "color_threshold", color_threshold_design, &color_threshold_options,
      "npu1", 1, 2,
      { PI("width", 64), PI("height", 8) }, 3,
      { IN(IRON_INT8, 512), IN(IRON_INT32, 32), OUT(IRON_INT8, 512) } },
    { "vector_reduce_max", vector_reduce_max_design,
      &vector_reduce_max_options, "npu1", 1, 0, { PNONE }, 2,
      { IN(IRON_INT32, 4096), OUT(IRON_INT32, 1) } },
    { "upstream_matmul_whole", upstream_matmul_whole_design,
      &upstream_matmul_whole_options, "npu1", 2, 4,
      { PI("m", 16), PI("k", 32),
        PI("n", 48), PI("n_aie_cols", 2) }, 3,
      { IN(IRON_INT16, 128, 64), IN(IRON_INT16, 64, 192),
        OUT(IRON_INT32, 128, 192) } },
    { "upstream_matmul_single", upstream_matmul_single_design,
      &upstream_matmul_single_options, "npu2", 1, 3,
      { PI("m", 32), PI("k", 32),
        PI("n", 32) }, 3,
      { IN(IRON_INT16, 64, 64), IN(IRON_INT16, 64, 64),
        OUT(IRON_INT32, 64, 64) } },
    { "upstream_relu", upstream_relu_design, &upstream_relu_options, "npu1",
      4, 0, { PNONE }, 2,
      { IN(IRON_BFLOAT16, 8192), OUT(IRON_BFLOAT16, 8192) } },
    { "upstream_eltwise_add", upstream_eltwise_add_design,
      &upstream_eltwise_add_options, "npu1", 1, 0, { PNONE }, 3,
      { IN(IRON_BFLOAT16, 4096), IN(IRON_BFLOAT16, 4096),
        OUT(IRON_BFLOAT16, 4096) } },
    { "upstream_row_wise_bias_add", upstream_row_wise_bias_add_design,
      &upstream_row_wise_bias_add_options, "npu1", 1, 0, { PNONE }, 3,
      { IN(IRON_FLOAT32, 192, 64), IN(IRON_FLOAT32, 64),
        OUT(IRON_FLOAT32, 192, 64) } },
    { "upstream_edge_detect", upstream_edge_detect_design,
      &upstream_edge_detect_options, "npu1", 1, 2,
      { PI("width", 64), PI("height", 8) }, 3,
      { IN(IRON_INT8, 2048), IN(IRON_INT32, 16, 16), OUT(IRON_INT8, 2048) } },
};

#define RT_CASE(id, idx)                                                      \
    TEST_TIMEOUT(mlir_roundtrip_##id, 120) { rt_run(&rt_cases[idx]); }     \
    TEST_TIMEOUT(mlir_roundtrip_text_##id, 120) { rt_text(&rt_cases[idx]); }

RT_CASE(passthrough, 0)
RT_CASE(vector_add, 1)
RT_CASE(vector_sub, 2)
RT_CASE(eltwise_parallel, 3)
RT_CASE(add_constant, 4)
RT_CASE(vector_scalar, 5)
RT_CASE(saxpy_bf16, 6)
RT_CASE(memcpy_cols, 7)
RT_CASE(split_join, 8)
RT_CASE(joined_layout, 9)
RT_CASE(matmul_single, 10)
RT_CASE(matmul_whole, 11)
RT_CASE(matmul_whole_f32, 12)
RT_CASE(passthrough_dmas, 13)
RT_CASE(dma_transpose, 14)
RT_CASE(vision_passthrough, 15)
RT_CASE(color_threshold, 16)
RT_CASE(vector_reduce_max, 17)
RT_CASE(upstream_matmul_whole, 18)
RT_CASE(upstream_matmul_single, 19)
RT_CASE(upstream_relu, 20)
RT_CASE(upstream_eltwise_add, 21)
RT_CASE(upstream_row_wise_bias_add, 22)
RT_CASE(upstream_edge_detect, 23)

/* Every design of the table is covered (a new one must be added). */
TEST(mlir_roundtrip_covers_every_case)
{
    ASSERT_EQ(sizeof rt_cases / sizeof rt_cases[0], 24);
}
