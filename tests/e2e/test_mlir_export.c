/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_mlir_export.c - the MLIR-AIE exporter (iron_jit_export_mlir, the
 * dump formats "mlir" / "mlir-generic", `iron export`): every reference
 * design exports (or, while its core body is C source only, is refused
 * naming the worker) in two forms that are one tree; the text matches,
 * op by op, what upstream IRON emits for the same design
 * (tests/fixtures/mlir/golden/, written from upstream's emitter logic:
 * SSA names are compared by where they are defined, whitespace and //
 * comments ignored); the files written, the upstream targets, the
 * generic form through mlir-opt, and the command.
 */
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "designs/bodies.h"
#include "designs/designs.h"
#include "mlir/ast.h"
#include "mlir/version.h"
#include "designs/upstream_basic.h"
#include "designs/upstream_matmul.h"
#include "designs/upstream_ml.h"
#include "test.h"

/* --- the normaliser ---------------------------------------------------------
 * Lines trimmed, inner runs of blanks made one space, blank lines and
 * // comments dropped; every SSA value renamed %vN by its definition
 * ("%x = ", "%x:" in a block's argument list), so that names a printer
 * reuses in sibling regions (upstream's %0 in every core) and names that
 * only differ (%tile_0_2, %w0_3) compare equal.  A use takes the latest
 * definition of its name. */

#define NORM_MAX_LINES 4096
#define NORM_MAX_NAMES 8192

typedef struct norm {
    int n;
    char *line[NORM_MAX_LINES];
    int src[NORM_MAX_LINES];           /* 1-based line in the text */
    int nnames, next;
    char *name[NORM_MAX_NAMES];
    int id[NORM_MAX_NAMES];
} norm;

static int ssa_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.' ||
           c == '-';
}

static int lookup(norm *nm, const char *name, int define)
{
    if (!define)
        for (int i = nm->nnames - 1; i >= 0; i--)
            if (strcmp(nm->name[i], name) == 0)
                return nm->id[i];
    ASSERT(nm->nnames < NORM_MAX_NAMES);
    nm->name[nm->nnames] = strdup(name);
    nm->id[nm->nnames] = define ? nm->next++ : -1 - nm->nnames;
    return nm->id[nm->nnames++];
}

static void normalize(const char *text, norm *nm)
{
    memset(nm, 0, sizeof *nm);
    int lineno = 0;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        lineno++;
        char raw[8192];
        ASSERT(len < sizeof raw);
        memcpy(raw, p, len);
        raw[len] = '\0';
        p += len + (end ? 1 : 0);
        /* trim and squeeze */
        char sq[8192];
        size_t k = 0;
        int blank = 1;
        for (size_t i = 0; i < len; i++) {
            char c = raw[i] == '\t' || raw[i] == '\r' ? ' ' : raw[i];
            if (c == ' ' && (blank || k == 0))
                continue;
            blank = c == ' ';
            sq[k++] = c;
        }
        while (k && sq[k - 1] == ' ')
            k--;
        sq[k] = '\0';
        if (k == 0 || strncmp(sq, "//", 2) == 0)
            continue;
        /* rename */
        char out[8192];
        size_t o = 0;
        for (size_t i = 0; i < k;) {
            if (sq[i] != '%' || !ssa_char(sq[i + 1])) {
                out[o++] = sq[i++];
                continue;
            }
            size_t j = i + 1;
            while (j < k && ssa_char(sq[j]))
                j++;
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(j - i), sq + i);
            int define = sq[j] == ':' || strncmp(sq + j, " = ", 3) == 0;
            int id = lookup(nm, name, define);
            o += (size_t)snprintf(out + o, sizeof out - o,
                                  id >= 0 ? "%%v%d" : "%%undef%d", id);
            i = j;
        }
        out[o] = '\0';
        ASSERT(nm->n < NORM_MAX_LINES);
        nm->src[nm->n] = lineno;
        nm->line[nm->n++] = strdup(out);
    }
}

static void norm_free(norm *nm)
{
    for (int i = 0; i < nm->n; i++)
        free(nm->line[i]);
    for (int i = 0; i < nm->nnames; i++)
        free(nm->name[i]);
}

/* The text matches the golden file op by op. */
static void assert_golden(const char *text, const char *golden)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/mlir/golden/%s.mlir", golden);
    char *want_text = (char *)test_slurp(path, NULL);
    static norm got, want;
    normalize(text, &got);
    normalize(want_text, &want);
    int n = got.n < want.n ? got.n : want.n;
    for (int i = 0; i < n; i++)
        if (strcmp(got.line[i], want.line[i]) != 0) {
            fprintf(stderr, "exported text:\n%s\n", text);
            TEST_FAIL_("%s: op %d differs (golden line %d, export line %d):"
                       "\n  want: %s\n  got:  %s",
                       path, i + 1, want.src[i], got.src[i], want.line[i],
                       got.line[i]);
        }
    if (got.n != want.n) {
        fprintf(stderr, "exported text:\n%s\n", text);
        TEST_FAIL_("%s: %d lines, the export has %d (first extra: %s)", path,
                   want.n, got.n,
                   got.n > want.n ? got.line[n] : want.line[n]);
    }
    norm_free(&got);
    norm_free(&want);
    free(want_text);
}

/* --- the reference designs ----------------------------------------------- */

typedef struct xarg {
    iron_dtype dt;
    iron_shape sh;
} xarg;

typedef struct xdesign {
    const char *label;
    iron_design_fn fn;
    const iron_jit_options *opts;
    const char *device;
    int cols;
    const char *pname[3];
    int64_t pvalue[3];
    int nargs;
    xarg args[4];
    int c_core;       /* a worker's core body is C source today */
} xdesign;

#define A1(dt, n) { dt, { 1, { n } } }
#define A2(dt, r, c) { dt, { 2, { r, c } } }

static const xdesign designs[] = {
    { "passthrough", passthrough_design, &passthrough_options, "npu1_1col",
      1, { "obj" }, { 1024 }, 2,
      { A1(IRON_UINT8, 4096), A1(IRON_UINT8, 4096) }, 0 },
    { "vector_op", vector_op_design, &vector_op_options, "npu1_1col", 1,
      { 0 }, { 0 }, 3,
      { A1(IRON_INT32, 256), A1(IRON_INT32, 256), A1(IRON_INT32, 256) }, 0 },
    { "eltwise_parallel", eltwise_parallel_design, &eltwise_parallel_options,
      "npu1_2col", 2, { 0 }, { 0 }, 2,
      { A1(IRON_INT32, 256), A1(IRON_INT32, 256) }, 0 },
    { "add_constant", add_constant_design, &add_constant_options,
      "npu1_1col", 1, { "n", "c" }, { 256, 5 }, 2,
      { A1(IRON_INT32, 256), A1(IRON_INT32, 256) }, 0 },
    { "vector_scalar", vector_scalar_design, &vector_scalar_options,
      "npu1_1col", 1, { 0 }, { 0 }, 3,
      { A1(IRON_INT16, 1024), A1(IRON_INT32, 1), A1(IRON_INT16, 1024) }, 1 },
    { "saxpy_bf16", saxpy_bf16_design, &saxpy_bf16_options, "npu1_1col", 1,
      { 0 }, { 0 }, 3,
      { A1(IRON_BFLOAT16, 4096), A1(IRON_BFLOAT16, 4096),
        A1(IRON_BFLOAT16, 4096) }, 0 },
    { "memcpy_cols", memcpy_cols_design, &memcpy_cols_options, "npu1_2col",
      2, { 0 }, { 0 }, 2, { A1(IRON_INT32, 8192), A1(IRON_INT32, 8192) }, 0 },
    { "split_join", split_join_design, &split_join_options, "npu1_1col", 1,
      { 0 }, { 0 }, 2, { A1(IRON_INT32, 48), A1(IRON_INT32, 48) }, 0 },
    { "joined_layout", joined_layout_design, &joined_layout_options,
      "npu1_1col", 1, { 0 }, { 0 }, 1, { A1(IRON_INT32, 48) }, 1 },
    { "matmul_single", matmul_single_design, &matmul_single_options,
      "npu1_1col", 1, { 0 }, { 0 }, 3,
      { A2(IRON_INT16, 128, 128), A2(IRON_INT16, 128, 128),
        A2(IRON_INT16, 128, 128) }, 1 },
    { "matmul_whole", matmul_whole_design, &matmul_whole_options, "npu1_1col",
      1, { 0 }, { 0 }, 3,
      { A2(IRON_INT16, 256, 64), A2(IRON_INT16, 64, 32),
        A2(IRON_INT32, 256, 32) }, 1 },
    { "matmul_whole_f32", matmul_whole_f32_design, &matmul_whole_f32_options,
      "npu1_1col", 1, { 0 }, { 0 }, 3,
      { A2(IRON_FLOAT32, 256, 32), A2(IRON_FLOAT32, 32, 32),
        A2(IRON_FLOAT32, 256, 32) }, 1 },
    { "passthrough_dmas", passthrough_dmas_design, &passthrough_dmas_options,
      "npu1_1col", 1, { 0 }, { 0 }, 3,
      { A1(IRON_INT32, 4096), A1(IRON_INT32, 4096), A1(IRON_INT32, 4096) },
      0 },
    { "dma_transpose", dma_transpose_design, &dma_transpose_options,
      "npu1_1col", 1, { 0 }, { 0 }, 3,
      { A2(IRON_INT32, 64, 64), A2(IRON_INT32, 64, 64),
        A2(IRON_INT32, 64, 64) }, 0 },
    { "vision_passthrough", vision_passthrough_design,
      &vision_passthrough_options, "npu1_1col", 1, { "width", "height" },
      { 64, 8 }, 3,
      { A1(IRON_INT8, 512), A1(IRON_INT8, 512), A1(IRON_INT8, 512) }, 1 },
    { "color_threshold", color_threshold_design, &color_threshold_options,
      "npu1_1col", 1, { "width", "height" }, { 64, 8 }, 3,
      { A1(IRON_INT8, 512), A1(IRON_INT32, 32), A1(IRON_INT8, 512) }, 1 },
    { "vector_reduce_max", vector_reduce_max_design,
      &vector_reduce_max_options, "npu1_1col", 1, { 0 }, { 0 }, 2,
      { A1(IRON_INT32, 4096), A1(IRON_INT32, 1) }, 1 },
    { "upstream_relu", upstream_relu_design, &upstream_relu_options, "npu1",
      4, { 0 }, { 0 }, 2,
      { A1(IRON_BFLOAT16, 16384), A1(IRON_BFLOAT16, 16384) }, 1 },
    { "upstream_eltwise_add", upstream_eltwise_add_design,
      &upstream_eltwise_add_options, "npu1_1col", 1, { 0 }, { 0 }, 3,
      { A1(IRON_BFLOAT16, 65536), A1(IRON_BFLOAT16, 65536),
        A1(IRON_BFLOAT16, 65536) }, 1 },
    { "upstream_row_wise_bias_add", upstream_row_wise_bias_add_design,
      &upstream_row_wise_bias_add_options, "npu1_1col", 1, { 0 }, { 0 }, 3,
      { A2(IRON_FLOAT32, 768, 2304), A1(IRON_FLOAT32, 2304),
        A2(IRON_FLOAT32, 768, 2304) }, 1 },
    { "upstream_edge_detect", upstream_edge_detect_design,
      &upstream_edge_detect_options, "npu1_1col", 1, { "width", "height" },
      { 64, 8 }, 3,
      { A1(IRON_INT8, 2048), A2(IRON_INT32, 16, 16), A1(IRON_INT8, 2048) },
      1 },
    { "upstream_matmul_single", upstream_matmul_single_design,
      &upstream_matmul_single_options, "npu1_1col", 1, { 0 }, { 0 }, 3,
      { A2(IRON_INT16, 256, 256), A2(IRON_INT16, 256, 256),
        A2(IRON_INT32, 256, 256) }, 1 },
    { "upstream_matmul_whole", upstream_matmul_whole_design,
      &upstream_matmul_whole_options, "npu1", 4, { 0 }, { 0 }, 3,
      { A2(IRON_INT16, 512, 512), A2(IRON_INT16, 512, 512),
        A2(IRON_INT32, 512, 512) }, 1 },
};
#define NDESIGNS ((int)(sizeof designs / sizeof designs[0]))

static const xdesign *find_design(const char *label)
{
    for (int i = 0; i < NDESIGNS; i++)
        if (strcmp(designs[i].label, label) == 0)
            return &designs[i];
    TEST_FAIL_("no design '%s' in the table", label);
}

/* An export (files in dir, or NULL: the text through iron_jit_dump_as
 * with format, returned in *text) of one design.  The status, with the
 * message kept in test_errmsg. */
static iron_status run_export(const xdesign *x, const char *format,
                              const iron_mlir_options *mo, const char *dir,
                              char **text)
{
    iron_jit *j = test_new_jit(x->fn, x->opts);
    iron_param params[3];
    int np = 0;
    for (int i = 0; i < 3 && x->pname[i]; i++)
        params[np++] = iron_param_int(x->pname[i], x->pvalue[i]);
    iron_status s = IRON_OK;
    IRON_WITH_DEVICE(x->device)
    {
        iron_tensor *t[4] = { NULL };
        for (int i = 0; i < x->nargs; i++)
            ASSERT_OK(iron_tensor_zeros(x->args[i].dt, x->args[i].sh, &t[i]));
        iron_launch_config cfg = { .size = sizeof cfg, .cols = x->cols };
        if (dir)
            s = test_keep(iron_jit_export_mlir(j, &cfg, np, params, x->nargs,
                                               t, mo, dir));
        else
            s = test_keep(iron_jit_dump_as(j, &cfg, np, params, x->nargs, t,
                                           format, text));
        for (int i = 0; i < x->nargs; i++)
            iron_tensor_free(t[i]);
    }
    iron_jit_free(j);
    return s;
}

/* An export that must succeed (its message is in test_errmsg). */
#define ASSERT_EXPORT_OK(call)                                                \
    do {                                                                      \
        iron_status es_ = (call);                                             \
        if (es_ != IRON_OK)                                                   \
            TEST_FAIL_("%s: %s: %s", #call, iron_status_name(es_),            \
                       test_errmsg);                                          \
    } while (0)

static char *export_text(const char *label, const char *format)
{
    char *text = NULL;
    const xdesign *x = find_design(label);
    iron_status s = run_export(x, format, NULL, NULL, &text);
    if (s != IRON_OK)
        TEST_FAIL_("%s: %s: %s", label, iron_status_name(s), test_errmsg);
    return text;
}

/* aie.mlir of an export for upstream version `upstream` (malloc'd), on
 * device `device` (NULL: the design's). */
static char *export_on(const char *label, const char *device,
                       const char *upstream)
{
    xdesign y = *find_design(label);
    const xdesign *x = &y;
    if (device)
        y.device = device;
    const char *dir = test_temp_dir("mlir-target");
    char saved[128];
    snprintf(saved, sizeof saved, "%s", dir);
    iron_mlir_options mo = { .size = sizeof mo, .upstream = upstream };
    ASSERT_EXPORT_OK(run_export(x, NULL, &mo, saved, NULL));
    char path[256];
    snprintf(path, sizeof path, "%s/aie.mlir", saved);
    char *text = (char *)test_slurp(path, NULL);
    test_remove_dir(saved);
    return text;
}

static char *export_for(const char *label, const char *upstream)
{
    return export_on(label, NULL, upstream);
}

/* --- golden structure ----------------------------------------------------
 * The golden files are upstream IRON's output as of upstream 2026-03;
 * vector_add_2025_04 and vector_add_latest are the same design for the
 * oldest and the newest target. */

static void golden(const char *label, const char *file)
{
    char *text = export_for(label, "2026-03");
    assert_golden(text, file);
    free(text);
}

TEST(mlir_export_golden_passthrough_dmas)
{
    golden("passthrough_dmas", "passthrough_dmas");
}

TEST(mlir_export_golden_passthrough)
{
    golden("passthrough", "passthrough");
}

TEST(mlir_export_golden_vector_add)
{
    golden("vector_op", "vector_add");
}

TEST(mlir_export_golden_split_join)
{
    golden("split_join", "split_join");
}

TEST(mlir_export_golden_dma_transpose)
{
    golden("dma_transpose", "dma_transpose");
}

TEST(mlir_export_golden_memcpy_cols)
{
    golden("memcpy_cols", "memcpy_cols");
}

TEST(mlir_export_golden_eltwise_parallel)
{
    golden("eltwise_parallel", "eltwise_parallel");
}

TEST(mlir_export_golden_saxpy_bf16)
{
    golden("saxpy_bf16", "saxpy_bf16");
}

TEST(mlir_export_golden_vector_add_2025_04)
{
    char *text = export_on("vector_op", "npu1", "2025-04");
    assert_golden(text, "vector_add_2025_04");
    free(text);
}

TEST(mlir_export_golden_vector_add_latest)
{
    char *text = export_for("vector_op", "latest");
    assert_golden(text, "vector_add_latest");
    char *dflt = export_text("vector_op", "mlir");
    ASSERT_STR_EQ(dflt, text);   /* the dump prints latest */
    free(text);
    iron_free(dflt);
}

/* The normaliser itself: names defined again in a sibling region, and
 * names that differ only in spelling, compare equal; a different use
 * does not. */
TEST(mlir_export_normaliser)
{
    static norm a, b;
    normalize("  %x = op\n\n// c\n  use %x\n%y = op %x\n", &a);
    normalize("%0 = op\nuse   %0\n%1 = op %0\n", &b);
    ASSERT_EQ(a.n, 3);
    ASSERT_EQ(b.n, 3);
    for (int i = 0; i < 3; i++)
        ASSERT_STR_EQ(a.line[i], b.line[i]);
    norm_free(&a);
    norm_free(&b);
    normalize("%0 = op\n%1 = op\nuse %0\n", &a);
    normalize("%0 = op\n%1 = op\nuse %1\n", &b);
    ASSERT(strcmp(a.line[2], b.line[2]) != 0);
    norm_free(&a);
    norm_free(&b);
    normalize("f(%arg0: i32) {\n%0 = op %arg0\n}\ng(%arg0: i32) {\n"
              "%0 = op %arg0\n}\n", &a);
    ASSERT_STR_EQ(a.line[1], "%v1 = op %v0");
    ASSERT_STR_EQ(a.line[4], "%v3 = op %v2");
    norm_free(&a);
}

/* --- every reference design ---------------------------------------------- */

/* The two forms of an export are one tree printed twice: each parses
 * to the tree the other does, which prints back as both texts. */
static void check_forms(const char *label, const char *pretty, char *generic)
{
    iron__mlir_module *p = NULL, *g = NULL;
    ASSERT_OK(iron__mlir_parse(pretty, strlen(pretty), label, &p));
    ASSERT_OK(iron__mlir_parse(generic, strlen(generic), label, &g));
    iron__str why = { 0 }, s = { 0 }, t = { 0 };
    if (!iron__mlir_module_equal(p, g, &why))
        TEST_FAIL_("%s: the forms differ: %s", label, iron__str_get(&why));
    /* the trees hold the newest spelling: lowered to latest's again */
    const iron__mlir_target *latest;
    ASSERT_OK(iron__mlir_target_find(NULL, &latest));
    ASSERT_OK(iron__mlir_lower(p, latest, 1));
    ASSERT_OK(iron__mlir_lower(g, latest, 0));
    ASSERT_OK(iron__mlir_print(p, 1, &s));
    ASSERT_OK(iron__mlir_print(g, 0, &t));
    ASSERT_STR_EQ(iron__str_get(&s), generic);
    ASSERT_STR_EQ(iron__str_get(&t), pretty);
    iron__str_free(&why);
    iron__str_free(&s);
    iron__str_free(&t);
    iron__mlir_module_free(p);
    iron__mlir_module_free(g);
    iron_free(generic);
}

TEST_TIMEOUT(mlir_export_every_reference_design, 120)
{
    int exported = 0, refused = 0;
    for (int i = 0; i < NDESIGNS; i++) {
        const xdesign *x = &designs[i];
        char *text = NULL;
        iron_status s = run_export(x, "mlir", NULL, NULL, &text);
        if (s == IRON_OK) {
            ASSERT_CONTAINS(text, "aie.device(");
            ASSERT_CONTAINS(text, "aie.runtime_sequence(");
            check_forms(x->label, text, export_text(x->label, "mlir-generic"));
            exported++;
        } else if (x->c_core && s == IRON_ENOTSUP) {
            /* A C-source core body is refused, naming the worker and
             * what to do instead. */
            ASSERT_CONTAINS(test_errmsg, "worker '");
            ASSERT_CONTAINS(test_errmsg, "C source only");
            ASSERT_CONTAINS(test_errmsg, "iron_body");
            refused++;
        } else {
            TEST_FAIL_("%s: %s: %s", x->label, iron_status_name(s),
                       test_errmsg);
        }
        iron_free(text);
    }
    ASSERT_GE(exported, 8);
    ASSERT_EQ(exported + refused, NDESIGNS);
}

/* A worker whose core body is C source only: IRON_ENOTSUP naming it. */
static int c_core_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(16), 2);
    iron_kernel *k = iron_kernel_new_core(
        d, "copier",
        "#include <string.h>\n"
        "void copier(iron_objfifo *i, iron_objfifo *o)\n"
        "{ for (;;) { void **a = iron_acquire(i, 1), **b = "
        "iron_acquire(o, 1); memcpy(b[0], a[0], 64); iron_release(i, 1); "
        "iron_release(o, 1); } }\n",
        "fifo, fifo");
    iron_worker *w = iron_worker_new(
        d, "the_copier", k, 0,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(out))));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(64));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(64), IRON_WAIT);
    return 0;
}

static const iron_jit_options c_core_options = {
    .size = sizeof(iron_jit_options),
    .name = "c_core",
    .args = "in a: int32[64], out b: int32[64]",
};

TEST(mlir_export_c_core_body_is_enotsup)
{
    const xdesign x = { "c_core", c_core_design, &c_core_options,
                        "npu1_1col", 1, { 0 }, { 0 }, 2,
                        { A1(IRON_INT32, 64), A1(IRON_INT32, 64) }, 1 };
    char *text = (char *)1;
    ASSERT_STATUS(run_export(&x, "mlir", NULL, NULL, &text), IRON_ENOTSUP);
    ASSERT(text == NULL);
    ASSERT_MSG("worker 'the_copier'");
    ASSERT_MSG("'copier' is C source only");
    ASSERT_MSG("core-body IR (iron_body_new, iron_body_*, "
               "iron_worker_new_body)");
    /* The files: none at all, the folder not even made. */
    const char *tmp = test_temp_dir("mlir-fail");
    char dir[160];
    snprintf(dir, sizeof dir, "%s/out", tmp);
    ASSERT_STATUS(run_export(&x, NULL, NULL, dir, NULL), IRON_ENOTSUP);
    ASSERT_MSG("worker 'the_copier'");
    struct stat st;
    ASSERT(stat(dir, &st) != 0);
    ASSERT_EQ(test_count_files(tmp), 0);
    test_remove_dir(tmp);
}

/* --- the files ----------------------------------------------------------- */

static char *slurp_in(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return (char *)test_slurp(path, NULL);
}

/* needle a comes before needle b in text (both present). */
static void assert_before(const char *text, const char *a, const char *b)
{
    const char *pa = strstr(text, a), *pb = strstr(text, b);
    if (!pa || !pb || pa >= pb)
        TEST_FAIL_("\"%s\" should come before \"%s\" in:\n%s", a, b, text);
}

TEST(mlir_export_files)
{
    /* vector sub: the define that makes it one must reach the kernel. */
    iron_jit *j = test_new_jit(vector_op_design, &vector_op_options);
    const char *tmp = test_temp_dir("mlir-files");
    char dir[160];
    snprintf(dir, sizeof dir, "%s/deep/er", tmp);
    char *dumped = NULL;
    IRON_WITH_DEVICE("npu1_1col")
    {
        iron_tensor *a = test_zeros(IRON_INT32, 256),
                    *b = test_zeros(IRON_INT32, 256),
                    *c = test_zeros(IRON_INT32, 256);
        iron_launch_config cfg = { .size = sizeof cfg, .cols = 1 };
        ASSERT_OK(iron_jit_export_mlir(
            j, &cfg, IRON_PARAMS(iron_param_str("op", "-")),
            IRON_TENSORS(a, b, c), NULL, dir));
        ASSERT_OK(iron_jit_dump_as(j, &cfg,
                                   IRON_PARAMS(iron_param_str("op", "-")),
                                   IRON_TENSORS(a, b, c), "mlir", &dumped));
        iron_tensor_free(a);
        iron_tensor_free(b);
        iron_tensor_free(c);
    }
    /* No compiler ran: nothing was built. */
    ASSERT_EQ(test_stats(j).builds, 0);
    iron_jit_free(j);
    /* aie.mlir is the dump's text. */
    char *mlir = slurp_in(dir, "aie.mlir");
    ASSERT_STR_EQ(mlir, dumped);
    iron_free(dumped);
    /* kernels/eltwise.c: the defines first, then the source. */
    char *k = slurp_in(dir, "kernels/eltwise.c");
    ASSERT_CONTAINS(k, "\n#define OP -\n");
    assert_before(k, "#define OP -", "void eltwise(");
    ASSERT_CONTAINS(k, "c[i] = a[i] OP b[i];");
    /* Makefile: Peano for aie2 (npu1), aiecc.py on aie.mlir. */
    char *mk = slurp_in(dir, "Makefile");
    ASSERT_CONTAINS(mk, "ARCH = aie2\n");
    ASSERT_CONTAINS(mk, "--target=$(ARCH)-none-unknown-elf");
    ASSERT_CONTAINS(mk, "build/eltwise.o: kernels/eltwise.c\n");
    ASSERT_CONTAINS(mk, "\t$(KCC) $(KCFLAGS)");
    ASSERT_CONTAINS(mk, "build/final.xclbin: aie.mlir build/eltwise.o\n");
    ASSERT_CONTAINS(mk, "$(AIECC) --aie-generate-xclbin");
    ASSERT_CONTAINS(mk, "--peano $(PEANO_INSTALL_DIR)");
    ASSERT_CONTAINS(mk, "--npu-insts-name=insts.bin aie.mlir");
    /* host.cpp: the instruction buffer, then one buffer per argument in
     * the sequence's order with its size, the run, the output synced. */
    char *host = slurp_in(dir, "host.cpp");
    ASSERT_CONTAINS(host, "xrt::device device(0u);");
    ASSERT_CONTAINS(host, "xrt::xclbin xclbin(xclbin_path);");
    ASSERT_CONTAINS(host, "xrt::hw_context context(device, "
                          "xclbin.get_uuid());");
    ASSERT_CONTAINS(host, "\"MLIR_AIE\"");
    ASSERT_CONTAINS(host, "read_insts(insts_path)");
    ASSERT_CONTAINS(host, "kernel.group_id(1)");
    ASSERT_CONTAINS(host, "xrt::bo bo_a(device, 1024, XRT_BO_FLAGS_HOST_ONLY,"
                          "\n        kernel.group_id(3));");
    ASSERT_CONTAINS(host, "xrt::bo bo_b(device, 1024, XRT_BO_FLAGS_HOST_ONLY,"
                          "\n        kernel.group_id(4));");
    ASSERT_CONTAINS(host, "xrt::bo bo_c(device, 1024, XRT_BO_FLAGS_HOST_ONLY,"
                          "\n        kernel.group_id(5));");
    assert_before(host, "bo_a(", "bo_b(");
    assert_before(host, "bo_b(", "bo_c(");
    ASSERT_CONTAINS(host, "kernel(opcode, bo_insts, insts.size(), bo_a, bo_b, "
                          "bo_c);");
    ASSERT_CONTAINS(host, "bo_c.sync(XCL_BO_SYNC_BO_FROM_DEVICE);");
    ASSERT(!strstr(host, "bo_a.sync(XCL_BO_SYNC_BO_FROM_DEVICE)"));
    ASSERT_CONTAINS(host, "bo_a.sync(XCL_BO_SYNC_BO_TO_DEVICE);");
    /* README: the steps and the arguments. */
    char *rd = slurp_in(dir, "README.md");
    ASSERT_CONTAINS(rd, "make PEANO_INSTALL_DIR=");
    ASSERT_CONTAINS(rd, "make run");
    ASSERT_CONTAINS(rd, "0. `a` (in): int32[256], 1024 bytes");
    ASSERT_CONTAINS(rd, "2. `c` (out): int32[256], 1024 bytes");
    ASSERT_CONTAINS(rd, "op='-'");
    /* Exactly these files, and no temporary left over. */
    ASSERT_EQ(test_count_files(dir), 5);
    char kdir[256];
    snprintf(kdir, sizeof kdir, "%s/kernels", dir);
    ASSERT_EQ(test_count_files(kdir), 1);
    free(mlir);
    free(k);
    free(mk);
    free(host);
    free(rd);
    /* Exporting again replaces the files. */
    const xdesign *x = find_design("vector_op");
    ASSERT_EXPORT_OK(run_export(x, NULL, NULL, dir, NULL));
    k = slurp_in(dir, "kernels/eltwise.c");
    ASSERT_CONTAINS(k, "\n#define OP +\n");
    free(k);
    ASSERT_EQ(test_count_files(dir), 5);
    test_remove_dir(tmp);
}

/* npu2 is aie2p; a kernel that includes <iron/iron_kernel.h> gets it in
 * the folder, and the jit's flags go with the kernels. */
TEST(mlir_export_files_npu2_and_kernel_header)
{
    xdesign x = *find_design("saxpy_bf16");
    x.device = "npu2";
    const char *tmp = test_temp_dir("mlir-npu2");
    char dir[160];
    snprintf(dir, sizeof dir, "%s", tmp);
    ASSERT_EXPORT_OK(run_export(&x, NULL, NULL, dir, NULL));
    char *mk = slurp_in(dir, "Makefile");
    ASSERT_CONTAINS(mk, "ARCH = aie2p\n");
    ASSERT_CONTAINS(mk, " -Iinclude");
    ASSERT_CONTAINS(mk, "JIT_CFLAGS ?= -O2 -ffp-contract=off\n");
    char *h = slurp_in(dir, "include/iron/iron_kernel.h");
    ASSERT_CONTAINS(h, "iron_k_bf16_to_float");
    char *mlir = slurp_in(dir, "aie.mlir");
    ASSERT_CONTAINS(mlir, "aie.device(npu2)");
    char *host = slurp_in(dir, "host.cpp");
    ASSERT_CONTAINS(host, "xrt::bo bo_x(device, 8192,");
    ASSERT_CONTAINS(host, "uint16_t *x = bo_x.map<uint16_t *>();");
    free(mk);
    free(h);
    free(mlir);
    free(host);
    test_remove_dir(tmp);
}

/* --- the targets --------------------------------------------------------- */

TEST(mlir_export_targets)
{
    char *t[5];
    static const char *const names[5] = { "2025-04", "2025-06", "2025-11",
                                          "2026-03", "latest" };
    for (int i = 0; i < 5; i++) {
        ASSERT_STR_EQ(iron_mlir_upstream(i), names[i]);
        t[i] = export_on("memcpy_cols", "npu1", names[i]);
        /* Every target: DMA tasks in a task group (awaits then frees at
         * its finish), tiles named by kind, the default stack (1024)
         * left out as MLIR prints it. */
        ASSERT_CONTAINS(t[i], "aiex.dma_configure_task_for @in0_0 {");
        ASSERT_CONTAINS(t[i], "aiex.dma_start_task(");
        assert_before(t[i], "aiex.dma_await_task(", "aiex.dma_free_task(");
        ASSERT_CONTAINS(t[i], "%shim_noc_tile_1_0 = aie.tile(1, 0)");
        ASSERT(!strstr(t[i], "stack_size"));
        ASSERT(!strstr(t[i], "dma_memcpy_nd"));
    }
    ASSERT(iron_mlir_upstream(5) == NULL);
    ASSERT(iron_mlir_upstream(-1) == NULL);
    /* Before 2025-06 the 4-column npu1 is npu1_4col. */
    ASSERT_CONTAINS(t[0], "aie.device(npu1_4col)");
    ASSERT_CONTAINS(t[1], "aie.device(npu1)");
    /* Before 2025-11 the sequence is aiex's. */
    for (int i = 0; i < 5; i++)
        ASSERT_CONTAINS(t[i], i < 2 ? "    aiex.runtime_sequence(%arg0: "
                                      "memref<8192xi32>"
                                    : "    aie.runtime_sequence(%arg0: "
                                      "memref<8192xi32>");
    /* Before 2026-03 link_with is on the core, then on the declaration. */
    for (int i = 0; i < 5; i++) {
        if (i < 3) {
            ASSERT_CONTAINS(t[i], "func.func private @copy_line("
                                  "memref<1024xi32>, memref<1024xi32>, "
                                  "i32)\n");
            ASSERT_CONTAINS(t[i], "    } {link_with = \"copy_line.o\"}\n");
        } else {
            ASSERT_CONTAINS(t[i], "func.func private @copy_line("
                                  "memref<1024xi32>, memref<1024xi32>, "
                                  "i32) attributes {link_with = "
                                  "\"copy_line.o\"}");
            ASSERT(!strstr(t[i], "} {link_with"));
        }
    }
    /* latest: dma_bd's keyword form. */
    ASSERT_CONTAINS(t[4], "aie.dma_bd(%arg0 : memref<8192xi32> offset = 0 "
                          "len = 2048 sizes = [1, 1, 1, 2048] strides = "
                          "[0, 0, 0, 1])");
    ASSERT(!strstr(t[3], "sizes = ["));
    for (int i = 0; i < 5; i++)
        free(t[i]);
}

/* --- arguments and refusals ---------------------------------------------- */

TEST(mlir_export_bad_arguments)
{
    const xdesign *x = find_design("vector_op");
    const char *tmp = test_temp_dir("mlir-args");
    char dir[160];
    snprintf(dir, sizeof dir, "%s/out", tmp);
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 1 };
    ASSERT_STATUS(iron_jit_export_mlir(NULL, &cfg, IRON_NO_PARAMS, 0, NULL,
                                       NULL, dir),
                  IRON_EINVAL);
    ASSERT_MSG("iron_jit_export_mlir: jit is NULL");
    iron_jit *j = test_new_jit(vector_op_design, &vector_op_options);
    ASSERT_STATUS(iron_jit_export_mlir(j, &cfg, IRON_NO_PARAMS, 0, NULL, NULL,
                                       NULL),
                  IRON_EINVAL);
    ASSERT_MSG("dir is NULL");
    ASSERT_STATUS(iron_jit_export_mlir(j, &cfg, IRON_NO_PARAMS, 0, NULL, NULL,
                                       ""),
                  IRON_EINVAL);
    ASSERT_MSG("dir is empty");
    iron_jit_free(j);
    iron_mlir_options bad = { .size = sizeof bad, .upstream = "2024" };
    ASSERT_STATUS(run_export(x, NULL, &bad, dir, NULL), IRON_EINVAL);
    ASSERT_MSG("upstream version '2024' is not a target; expected one of "
               "2025-04, 2025-06, 2025-11, 2026-03, latest");
    iron_mlir_options tiny = { .size = 2 };
    ASSERT_STATUS(run_export(x, NULL, &tiny, dir, NULL), IRON_EINVAL);
    ASSERT_MSG("opts.size is 2");
    /* A size that ends before `generic`: the defaults for the rest. */
    iron_mlir_options old = { .size = offsetof(iron_mlir_options, generic),
                              .upstream = "2025-04", .generic = 1 };
    ASSERT_EXPORT_OK(run_export(x, NULL, &old, dir, NULL));
    char *m = slurp_in(dir, "aie.mlir");
    ASSERT_CONTAINS(m, "aiex.runtime_sequence(");
    free(m);
    /* A wrong tensor: the jit's own message, nothing written. */
    test_remove_dir(tmp);
    tmp = test_temp_dir("mlir-args2");
    snprintf(dir, sizeof dir, "%s/out", tmp);
    xdesign y = *x;
    y.args[2].dt = IRON_FLOAT32;
    ASSERT_STATUS(run_export(&y, NULL, NULL, dir, NULL), IRON_EARG);
    ASSERT_MSG("argument 2 ('c')");
    ASSERT_EQ(test_count_files(tmp), 0);
    /* A file where the folder should be. */
    char file[200];
    snprintf(file, sizeof file, "%s/plain", tmp);
    test_spit(file, "x", 1);
    ASSERT_STATUS(run_export(x, NULL, NULL, file, NULL), IRON_EIO);
    ASSERT_MSG("is not a folder");
    test_remove_dir(tmp);
}

/* The default group's tasks are awaited and freed at the end, as
 * upstream's Runtime does. */
static int ping_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *out = iron_fifo_forward(d, iron_fifo_cons(in), "out", 0);
    int n = (int)iron_design_param_int(d, "n");
    for (int i = 0; i < n; i++) {
        int64_t sz[1] = { 16 }, st[1] = { 1 };
        iron_tap t = iron_tap_make(16 * i, 1, sz, st);
        iron_rt_fill(d, iron_fifo_prod(in), 0, t);
        iron_rt_drain(d, iron_fifo_cons(out), 1, t, IRON_WAIT);
    }
    return 0;
}

static const iron_jit_options ping_options = {
    .size = sizeof(iron_jit_options),
    .name = "ping",
    .args = "in a: int32[N], out b: int32[N]",
    .params = "n: int",
};

static int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

TEST(mlir_export_default_group_waits)
{
    const xdesign x = { "ping", ping_design, &ping_options, "npu1_1col", 1,
                        { "n" }, { 20 }, 2,
                        { A1(IRON_INT32, 320), A1(IRON_INT32, 320) }, 0 };
    char *e25 = NULL;
    ASSERT_EXPORT_OK(run_export(&x, "mlir", NULL, NULL, &e25));
    ASSERT_EQ(count_of(e25, "aiex.dma_configure_task_for"), 40);
    /* All at the end: 20 awaits, then 20 frees. */
    const char *last_start = e25;
    for (const char *p; (p = strstr(last_start + 1, "dma_start_task"));)
        last_start = p;
    ASSERT_EQ(count_of(last_start, "aiex.dma_await_task("), 20);
    ASSERT_EQ(count_of(last_start, "aiex.dma_free_task("), 20);
    assert_before(last_start, "aiex.dma_await_task(%39)",
                  "aiex.dma_free_task(%0)");
    iron_free(e25);
}

/* --- buffers, locks, broadcasts, depths, layouts, names ------------------ */

static const char scale_src[] =
    "#include <stdint.h>\n"
    "void scale_by(const int32_t *in, int32_t *out, int32_t f)\n"
    "{ for (int i = 0; i < 16; i++) out[i] = in[i] * f; }\n";

/* Two workers with described bodies sharing a run-time parameter buffer
 * (each gets its own copy) and a barrier (each its own lock). */
static int rtp_barrier_design(iron_design *d, void *user)
{
    (void)user;
    static const int32_t init[4] = { 1, 2, 3, 4 };
    iron_rtp *params = iron_rtp_new(d, "params", IRON_INT32, 4);
    iron_rtp_set_initial(params, init);
    iron_barrier *go = iron_barrier_new(d, "go");
    iron_barrier_set_initial(go, 2);
    iron_kernel *k = iron_kernel_new(d, "scale_by", scale_src,
                                     "int32*, int32*, int32");
    iron_fifo *in[2], *out[2];
    for (int w = 0; w < 2; w++) {
        char n[16];
        snprintf(n, sizeof n, "in%d", w);
        in[w] = iron_fifo_new(d, n, IRON_INT32, IRON_SHAPE(16), 2);
        snprintf(n, sizeof n, "out%d", w);
        out[w] = iron_fifo_new(d, n, IRON_INT32, IRON_SHAPE(16), 2);
        snprintf(n, sizeof n, "body%d", w);
        iron_body *b = iron_body_new(d, n);
        iron_val fi = iron_body_fifo(b, iron_fifo_cons(in[w]));
        iron_val fo = iron_body_fifo(b, iron_fifo_prod(out[w]));
        iron_val r = iron_body_rtp(b, params);
        iron_val g = iron_body_barrier(b, go);
        iron_val kv = iron_body_kernel(b, k);
        body_forever(b);
        iron_body_barrier_wait(b, g, 1);
        iron_val x = body_acquire1(b, fi);
        iron_val y = body_acquire1(b, fo);
        /* As upstream's rtp[0]: the index made where it is read. */
        iron_val at = iron_body_const_int(b, IRON_BT_INDEX, 0);
        iron_val f = iron_body_load(b, r, 1, &at);
        iron_body_call(b, kv, 3, (iron_val[]){ x, y, f });
        iron_body_release(b, fi, 1);
        iron_body_release(b, fo, 1);
        body_end_for(b);
        snprintf(n, sizeof n, "w%d", w);
        iron_worker *wk = iron_worker_new_body(d, n, b);
        if (w == 1)
            iron_worker_set_stack(wk, 2048);
    }
    iron_rt_set_rtp(d, params, 0, 7);
    iron_rt_set_barrier(d, go, 1);
    for (int w = 0; w < 2; w++) {
        int64_t sz[1] = { 32 }, st[1] = { 1 };
        iron_tap t = iron_tap_make(32 * w, 1, sz, st);
        iron_rt_fill(d, iron_fifo_prod(in[w]), 0, t);
        iron_rt_drain(d, iron_fifo_cons(out[w]), 1, t, IRON_WAIT);
    }
    return 0;
}

static const iron_jit_options rtp_barrier_options = {
    .size = sizeof(iron_jit_options),
    .name = "rtp_barrier",
    .args = "in a: int32[64], out b: int32[64]",
};

TEST(mlir_export_buffers_locks_rtp_writes)
{
    const xdesign x = { "rtp_barrier", rtp_barrier_design,
                        &rtp_barrier_options, "npu1_1col", 1, { 0 }, { 0 },
                        2, { A1(IRON_INT32, 64), A1(IRON_INT32, 64) }, 0 };
    /* upstream 2026-03 (the golden's); latest at the end */
    char dir[160];
    snprintf(dir, sizeof dir, "%s", test_temp_dir("mlir-rtp"));
    iron_mlir_options mo = { .size = sizeof mo, .upstream = "2026-03" };
    ASSERT_EXPORT_OK(run_export(&x, NULL, &mo, dir, NULL));
    char *t = slurp_in(dir, "aie.mlir");
    test_remove_dir(dir);
    /* One copy of the buffer per worker, on its tile, with the initial
     * value; one lock per worker, made just before its core. */
    ASSERT_CONTAINS(t, "%params_w0 = aie.buffer(%tile_0_2) {sym_name = "
                       "\"params_w0\"} : memref<4xi32> = dense<[1, 2, 3, "
                       "4]>\n");
    ASSERT_CONTAINS(t, "%params_w1 = aie.buffer(%tile_0_3) {sym_name = "
                       "\"params_w1\"} : memref<4xi32> = dense<[1, 2, 3, "
                       "4]>\n");
    ASSERT_CONTAINS(t, "    %lock_0_2 = aie.lock(%tile_0_2) {init = 2 : "
                       "i32}\n    %core_0_2 = aie.core(%tile_0_2) {\n");
    ASSERT_CONTAINS(t, "    %lock_0_3 = aie.lock(%tile_0_3) {init = 2 : "
                       "i32}\n    %core_0_3 = aie.core(%tile_0_3) {\n");
    ASSERT_CONTAINS(t, "aie.use_lock(%lock_0_2, Acquire, 1)");
    /* w1's stack is not the default: the core says so. */
    ASSERT_EQ(count_of(t, "stack_size"), 1);
    ASSERT_CONTAINS(t, "      aie.end\n    } {stack_size = 2048 : i32}\n"
                       "    aie.runtime_sequence(");
    ASSERT_CONTAINS(t, "memref.load %params_w0[");
    ASSERT_CONTAINS(t, "memref.load %params_w1[");
    /* The kernel declared once, before the first buffer it follows in
     * the first body's parameters. */
    ASSERT_EQ(count_of(t, "func.func private @scale_by(memref<16xi32>, "
                          "memref<16xi32>, i32) attributes {link_with = "
                          "\"scale_by.o\"}"),
              1);
    /* The sequence writes every copy and sets every lock. */
    ASSERT_CONTAINS(t, "      aiex.npu.rtp_write(@params_w0, 0, 7)\n"
                       "      aiex.npu.rtp_write(@params_w1, 0, 7)\n"
                       "      aiex.set_lock(%lock_0_2, 1)\n"
                       "      aiex.set_lock(%lock_0_3, 1)\n");
    assert_before(t, "aiex.set_lock(%lock_0_3, 1)",
                  "aiex.dma_configure_task_for @in0");
    assert_golden(t, "rtp_barrier");
    free(t);
    /* latest: use_lock's and rtp_write's values are i32 operands. */
    char *l = NULL;
    ASSERT_EXPORT_OK(run_export(&x, "mlir", NULL, NULL, &l));
    ASSERT_CONTAINS(l, " = arith.constant 1 : i32\n"
                       "        aie.use_lock(%lock_0_2, Acquire, %");
    ASSERT_CONTAINS(l, " = arith.constant 7 : i32\n"
                       "      aiex.npu.rtp_write(@params_w0, 0, %");
    iron_free(l);
}

/* A broadcast through a memtile with a layout on each side and depths
 * that differ per endpoint. */
static const char copy16_src[] =
    "#include <stdint.h>\n#include <string.h>\n"
    "void copy16(const int32_t *in, int32_t *out)\n"
    "{ memcpy(out, in, 64); }\n";

static int broadcast_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *fwd = iron_fifo_forward(d, iron_fifo_cons(in), NULL, 0);
    iron_handle_set_dims(iron_fifo_prod(fwd), 2, (int64_t[]){ 4, 4 },
                         (int64_t[]){ 1, 4 });
    iron_handle *c[2] = { iron_fifo_cons(fwd), iron_fifo_cons(fwd) };
    iron_handle_set_dims(c[0], 2, (int64_t[]){ 4, 4 }, (int64_t[]){ 4, 1 });
    iron_handle_set_depth(c[1], 1);
    iron_kernel *k = iron_kernel_new(d, "copy16", copy16_src,
                                     "int32*, int32*");
    for (int w = 0; w < 2; w++) {
        char n[16];
        snprintf(n, sizeof n, "out%d", w);
        iron_fifo *out = iron_fifo_new(d, n, IRON_INT32, IRON_SHAPE(16), 2);
        snprintf(n, sizeof n, "copy%d", w);
        iron_worker *wk = iron_worker_new(
            d, n, k, 0,
            IRON_ARGS(iron_arg_fifo(c[w]),
                      iron_arg_fifo(iron_fifo_prod(out))));
        iron_rt_start(d, wk);
        iron_rt_drain(d, iron_fifo_cons(out), 1 + w, iron_tap_linear(64),
                      IRON_WAIT);
    }
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(64));
    return 0;
}

static const iron_jit_options broadcast_options = {
    .size = sizeof(iron_jit_options),
    .name = "broadcast",
    .args = "in a: int32[64], out b: int32[64], out c: int32[64]",
};

TEST(mlir_export_broadcast_depths_layouts)
{
    const xdesign x = { "broadcast", broadcast_design, &broadcast_options,
                        "npu1_1col", 1, { 0 }, { 0 }, 3,
                        { A1(IRON_INT32, 64), A1(IRON_INT32, 64),
                          A1(IRON_INT32, 64) }, 0 };
    char *t = NULL;
    ASSERT_EXPORT_OK(run_export(&x, "mlir", NULL, NULL, &t));
    ASSERT_CONTAINS(t, "aie.objectfifo @in_fwd(%mem_tile_0_1 "
                       "dimensionsToStream [<size = 4, stride = 1>, <size = "
                       "4, stride = 4>], {%tile_0_2 dimensionsFromStream "
                       "[<size = 4, stride = 4>, <size = 4, stride = 1>], "
                       "%tile_0_3}, [2 : i32, 2 : i32, 1 : i32]) : "
                       "!aie.objectfifo<memref<16xi32>>\n");
    ASSERT_CONTAINS(t, "aie.objectfifo @in(%shim_noc_tile_0_0, "
                       "{%mem_tile_0_1}, 2 : i32)");
    ASSERT_CONTAINS(t, "aie.objectfifo.link [@in] -> [@in_fwd]([] [0])");
    /* Drains before the fill, as the design ordered them. */
    assert_before(t, "aiex.dma_configure_task_for @out0",
                  "aiex.dma_configure_task_for @in ");
    iron_free(t);
}

/* Names that are not MLIR identifiers, a fifo named like a kernel, two
 * different kernels with one entry name, and two identical kernels. */
static const char op_src[] =
    "#include <stdint.h>\n"
    "void op(const int32_t *in, int32_t *out)\n"
    "{ for (int i = 0; i < 16; i++) out[i] = in[i] OP 1; }\n";

static int names_design(iron_design *d, void *user)
{
    (void)user;
    const char *ops[3] = { "+", "-", "+" };
    for (int w = 0; w < 3; w++) {
        char n[32];
        snprintf(n, sizeof n, w == 0 ? "op" : "in-put.%d", w);
        iron_fifo *in = iron_fifo_new(d, n, IRON_INT32, IRON_SHAPE(16), 2);
        snprintf(n, sizeof n, "9out-%d", w);
        iron_fifo *out = iron_fifo_new(d, n, IRON_INT32, IRON_SHAPE(16), 2);
        iron_kernel *k = iron_kernel_new(d, "op", op_src, "int32*, int32*");
        iron_kernel_define(k, "OP", ops[w]);
        snprintf(n, sizeof n, "w%d", w);
        iron_worker *wk = iron_worker_new(
            d, n, k, 0,
            IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                      iron_arg_fifo(iron_fifo_prod(out))));
        iron_worker_place(wk, w == 1, w == 2 ? 3 : 2);
        iron_rt_start(d, wk);
        int64_t sz[1] = { 16 }, st[1] = { 1 };
        iron_tap t = iron_tap_make(16 * w, 1, sz, st);
        iron_rt_fill(d, iron_fifo_prod(in), 0, t);
        iron_rt_drain(d, iron_fifo_cons(out), 1, t, IRON_WAIT);
    }
    return 0;
}

static const iron_jit_options names_options = {
    .size = sizeof(iron_jit_options),
    .name = "names",
    .args = "in a: int32[48], out b: int32[48]",
};

TEST(mlir_export_names)
{
    const xdesign x = { "names", names_design, &names_options, "npu1_2col",
                        2, { 0 }, { 0 }, 2,
                        { A1(IRON_INT32, 48), A1(IRON_INT32, 48) }, 0 };
    const char *tmp = test_temp_dir("mlir-names");
    char dir[160];
    snprintf(dir, sizeof dir, "%s", tmp);
    ASSERT_EXPORT_OK(run_export(&x, NULL, NULL, dir, NULL));
    char *t = slurp_in(dir, "aie.mlir");
    /* The kernels keep their C name; the fifo named like one moves. */
    ASSERT_CONTAINS(t, "func.func private @op(memref<16xi32>, "
                       "memref<16xi32>) attributes {link_with = \"op.o\"}");
    ASSERT_CONTAINS(t, "func.func private @op_1(memref<16xi32>, "
                       "memref<16xi32>) attributes {link_with = "
                       "\"op_1.o\"}");
    ASSERT_EQ(count_of(t, "func.func private"), 2);
    ASSERT_CONTAINS(t, "aie.objectfifo @op_2(");
    ASSERT_CONTAINS(t, "aie.objectfifo @in_put.1(");
    ASSERT_CONTAINS(t, "aie.objectfifo @_9out_0(");
    ASSERT_CONTAINS(t, "aie.objectfifo.acquire @in_put.2(Consume, 1)");
    ASSERT_CONTAINS(t, "aiex.dma_configure_task_for @_9out_2 {");
    /* w2's kernel is w0's: the same function. */
    const char *core2 = strstr(t, "%core_0_3 = aie.core");
    ASSERT(core2 != NULL);
    ASSERT_CONTAINS(core2, "func.call @op(");
    ASSERT_CONTAINS(t, "func.call @op_1(");
    /* op_1's file renames the C function to its symbol. */
    char *k1 = slurp_in(dir, "kernels/op_1.c");
    ASSERT_CONTAINS(k1, "#define OP -\n");
    ASSERT_CONTAINS(k1, "#define op op_1\n");
    char *k0 = slurp_in(dir, "kernels/op.c");
    ASSERT_CONTAINS(k0, "#define OP +\n");
    ASSERT(!strstr(k0, "#define op "));
    char kdir[200];
    snprintf(kdir, sizeof kdir, "%s/kernels", dir);
    ASSERT_EQ(test_count_files(kdir), 2);
    free(t);
    free(k0);
    free(k1);
    test_remove_dir(tmp);
}

/* Dispatch-time scalars have no MLIR form here: refused, naming them. */
static int scalar_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *out = iron_fifo_forward(d, iron_fifo_cons(in), "out", 0);
    int s = iron_design_scalar_index(d, "start");
    iron_rt_fill_offset_scalar(d, iron_fifo_prod(in), 0,
                               iron_tap_linear(16), s);
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(16), IRON_WAIT);
    return 0;
}

static const iron_jit_options scalar_options = {
    .size = sizeof(iron_jit_options),
    .name = "scalar",
    .args = "in a: int32[64], out b: int32[16]",
    .scalars = "start = 0",
};

TEST(mlir_export_dispatch_scalar_is_enotsup)
{
    const xdesign x = { "scalar", scalar_design, &scalar_options,
                        "npu1_1col", 1, { 0 }, { 0 }, 2,
                        { A1(IRON_INT32, 64), A1(IRON_INT32, 16) }, 0 };
    char *t = NULL;
    ASSERT_STATUS(run_export(&x, "mlir", NULL, NULL, &t), IRON_ENOTSUP);
    ASSERT_MSG("runtime sequence op 0 (fill of fifo 'in' (producer)) takes "
               "its value from dispatch-time scalar 'start'");
}

/* --- iron export --------------------------------------------------------- */

/* `$IRON_CLI args` with stderr folded in; the exit status, output in out. */
static int run_cli(const char *args, char *out, size_t len)
{
    return test_run_cli(args, 1, out, len);
}

TEST_TIMEOUT(mlir_export_cli, 60)
{
    const char *lib = getenv("IRON_EXLIB");
    if (!lib || !lib[0])
        TEST_FAIL_("IRON_EXLIB is not set (run through make test)");
    static char out[16384];
    char tmp[160], cmd[1024];
    snprintf(tmp, sizeof tmp, "%s", test_temp_dir("mlir-cli"));
    snprintf(cmd, sizeof cmd,
             "export %s vector_op --args 'int32[256], int32[256], "
             "int32[256]' --params \"op='-'\" --device npu1_1col --upstream 2025-04 "
             "-o %s/v/",
             lib, tmp);
    ASSERT_EQ(run_cli(cmd, out, sizeof out), 0);
    char dir[200];
    snprintf(dir, sizeof dir, "%s/v", tmp);
    /* "-o DIR/" names DIR/aie.mlir, never DIR//aie.mlir. */
    char wrote[300];
    snprintf(wrote, sizeof wrote, "wrote %s/aie.mlir, ", dir);
    ASSERT_CONTAINS(out, wrote);
    ASSERT(strstr(out, "//") == NULL);
    char *m = slurp_in(dir, "aie.mlir");
    ASSERT_CONTAINS(m, "aie.device(npu1_1col)");
    ASSERT_CONTAINS(m, "aiex.runtime_sequence(%arg0: memref<256xi32>");
    ASSERT_CONTAINS(m, "    } {link_with = \"eltwise.o\"}\n");
    free(m);
    char *k = slurp_in(dir, "kernels/eltwise.c");
    ASSERT_CONTAINS(k, "#define OP -\n");
    free(k);
    ASSERT_EQ(test_count_files(dir), 5);
    /* A design with a C-source core: exit 1, the worker named, nothing
     * written. */
    snprintf(cmd, sizeof cmd,
             "export %s vector_scalar --args 'int16[1024], int32[1], "
             "int16[1024]' --device npu1_1col -o %s/vs",
             lib, tmp);
    int rc = run_cli(cmd, out, sizeof out);
    if (rc == 1) {
        ASSERT_CONTAINS(out, "iron export: ");
        ASSERT_CONTAINS(out, "worker '");
        ASSERT_CONTAINS(out, "iron_body");
        snprintf(dir, sizeof dir, "%s/vs", tmp);
        struct stat st;
        ASSERT(stat(dir, &st) != 0);
    } else {
        ASSERT_EQ(rc, 0);   /* once its core body is described */
    }
    /* Usage errors: exit 2. */
    snprintf(cmd, sizeof cmd, "export %s vector_op --args 'int32[256], "
                              "int32[256], int32[256]'", lib);
    ASSERT_EQ(run_cli(cmd, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "missing -o DIR");
    snprintf(cmd, sizeof cmd, "export %s vector_op -o %s/x", lib, tmp);
    ASSERT_EQ(run_cli(cmd, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "missing --args");
    snprintf(cmd, sizeof cmd, "export %s vector_op --args 'int32[256], "
                              "int32[256], int32[256]' --upstream 2025-4 -o %s/x",
             lib, tmp);
    ASSERT_EQ(run_cli(cmd, out, sizeof out), 2);
    ASSERT_CONTAINS(out, "unknown upstream version '2025-4'; expected one "
                         "of 2025-04, 2025-06, 2025-11, 2026-03, latest; "
                         "did you mean '2025-04'?");
    ASSERT_EQ(run_cli("export --help", out, sizeof out), 0);
    ASSERT_CONTAINS(out, "usage: iron export LIB.so NAME");
    ASSERT_EQ(run_cli("exprot", out, sizeof out), 2);
    ASSERT_CONTAINS(out, "did you mean 'export'");
    /* --generic writes the generic form. */
    snprintf(cmd, sizeof cmd,
             "export %s passthrough_dmas --args 'int32[4096], int32[4096], "
             "int32[4096]' --device npu1_1col --generic -o %s/g",
             lib, tmp);
    rc = run_cli(cmd, out, sizeof out);
    ASSERT_EQ(rc, 0);
    snprintf(dir, sizeof dir, "%s/g", tmp);
    m = slurp_in(dir, "aie.mlir");
    ASSERT_CONTAINS(m, "\"aie.device\"");
    ASSERT_CONTAINS(m, "\"aie.objectfifo\"");
    free(m);
    char *rd = slurp_in(dir, "README.md");
    ASSERT_CONTAINS(rd, "generic form");
    free(rd);
    test_remove_dir(tmp);
}

/* --- the generic form through mlir-opt -----------------------------------
 * MLIR's own parser and verifier (mlir-19-tools) read the generic form
 * with the AIE dialects unregistered.  A func.call inside an aie.core
 * cannot find its callee there (aie.device is no symbol table to
 * mlir-opt), so every design is also checked as the syntax module's
 * cores-as-functions text (iron__mlir_print_cores_as_funcs: each core a
 * func.func beside the kernels' declarations), where arith, scf, memref
 * and func.call are verified in full; a design without calls is checked
 * whole as well. */

/* IRON_MLIR_OPT, else mlir-opt-19 or mlir-opt on PATH. */
static const char *mlir_opt_tool(void)
{
    static char found[1024];
    const char *env = getenv("IRON_MLIR_OPT");
    if (env && env[0])
        return env;
    const char *names[] = { "mlir-opt-19", "mlir-opt" };
    const char *path = getenv("PATH");
    for (int n = 0; n < 2; n++)
        for (const char *p = path ? path : "/usr/bin"; *p;) {
            size_t len = strcspn(p, ":");
            snprintf(found, sizeof found, "%.*s/%s", (int)len, p, names[n]);
            if (len && access(found, X_OK) == 0)
                return found;
            p += len + (p[len] == ':');
        }
    TEST_FAIL_("mlir-opt not found (IRON_MLIR_OPT, mlir-opt-19, mlir-opt): "
               "apt-get install mlir-19-tools");
}

static void assert_mlir_opt_accepts(const char *text, const char *what)
{
    char dir[160], file[200], cmd[1600];
    snprintf(dir, sizeof dir, "%s", test_temp_dir("mlir-opt"));
    snprintf(file, sizeof file, "%s/in.mlir", dir);
    test_spit(file, text, strlen(text));
    snprintf(cmd, sizeof cmd,
             "'%s' --allow-unregistered-dialect --verify-diagnostics=false "
             "'%s' -o /dev/null 2>&1",
             mlir_opt_tool(), file);
    FILE *p = popen(cmd, "r");
    ASSERT(p != NULL);
    static char out[16384];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "%s\n", text);
        TEST_FAIL_("%s: mlir-opt refuses it (status %d):\n%s", what, st, out);
    }
    test_remove_dir(dir);
}

/* The text of an export (malloc'd) for upstream version t (NULL: the
 * dump's, latest), pretty or generic; NULL with *s set when the export
 * fails. */
static char *text_of(const xdesign *x, const char *tname, int generic,
                     iron_status *s)
{
    if (!tname) {
        char *t = NULL;
        *s = run_export(x, generic ? "mlir-generic" : "mlir", NULL, NULL,
                        &t);
        char *copy = t ? strdup(t) : NULL;
        iron_free(t);
        return copy;
    }
    char dir[160];
    snprintf(dir, sizeof dir, "%s", test_temp_dir("mlir-text"));
    iron_mlir_options mo = { .size = sizeof mo, .upstream = tname,
                             .generic = generic };
    *s = run_export(x, NULL, &mo, dir, NULL);
    char *text = *s == IRON_OK ? slurp_in(dir, "aie.mlir") : NULL;
    test_remove_dir(dir);
    return text;
}

static void check_generic(const xdesign *x, const char *t)
{
    iron_status s;
    char *text = text_of(x, t, 1, &s);
    if (s == IRON_ENOTSUP && x->c_core)
        return;
    ASSERT_EXPORT_OK(s);
    ASSERT(strncmp(text, "\"builtin.module\"() ({", 21) == 0);
    iron__mlir_module *m = NULL;
    ASSERT_OK(iron__mlir_parse(text, strlen(text), x->label, &m));
    iron__str funcs = { 0 };
    ASSERT_OK(iron__mlir_print_cores_as_funcs(m, &funcs));
    char what[128];
    snprintf(what, sizeof what, "%s (upstream %s), cores as functions",
             x->label, t ? t : "latest");
    assert_mlir_opt_accepts(iron__str_get(&funcs), what);
    iron__str_free(&funcs);
    iron__mlir_module_free(m);
    if (!strstr(text, "func.call"))
        assert_mlir_opt_accepts(text, x->label);
    free(text);
}

/* A one-element dense<[v]> and dense<v> are one attribute (MLIR reads
 * both and prints the second); printers may write either. */
static int same_but_splat(const char *x, const char *y)
{
    char bx[8192], by[8192];
    const char *src[2] = { x, y };
    char *dst[2] = { bx, by };
    for (int k = 0; k < 2; k++) {
        const char *p = src[k];
        char *o = dst[k];
        while (*p) {
            const char *close;
            if (strncmp(p, "dense<[", 7) == 0 &&
                (close = strstr(p, "]>")) != NULL &&
                !memchr(p, ',', (size_t)(close - p))) {
                memcpy(o, "dense<", 6);
                o += 6;
                size_t n = (size_t)(close - (p + 7));
                memcpy(o, p + 7, n);
                o += n;
                *o++ = '>';
                p = close + 2;
            } else {
                *o++ = *p++;
            }
        }
        *o = '\0';
    }
    return strcmp(bx, by) == 0;
}

/* The pretty text read back by the syntax module's parser and printed by
 * its custom printers (written, like the exporter, after upstream's
 * printers) is the same text, op by op. */
static void check_roundtrip(const xdesign *x, const char *tname)
{
    iron_status s;
    char *text = text_of(x, tname, 0, &s);
    if (s == IRON_ENOTSUP && x->c_core)
        return;
    ASSERT_EXPORT_OK(s);
    iron__mlir_module *m = NULL;
    ASSERT_OK(iron__mlir_parse(text, strlen(text), x->label, &m));
    /* the tree holds the newest spelling: lowered to the target again */
    const iron__mlir_target *t;
    ASSERT_OK(iron__mlir_target_find(tname, &t));
    ASSERT_OK(iron__mlir_lower(m, t, 0));
    iron__str again = { 0 };
    ASSERT_OK(iron__mlir_print(m, 0, &again));
    iron__mlir_module_free(m);
    static norm a, b;
    normalize(text, &a);
    normalize(iron__str_get(&again), &b);
    for (int i = 0; i < a.n && i < b.n; i++)
        if (strcmp(a.line[i], b.line[i]) != 0 &&
            !same_but_splat(a.line[i], b.line[i]))
            TEST_FAIL_("%s (upstream %s): op %d printed back differs:\n"
                       "  export:  %s\n  printer: %s",
                       x->label, tname ? tname : "latest", i + 1, a.line[i],
                       b.line[i]);
    ASSERT_EQ(a.n, b.n);
    norm_free(&a);
    norm_free(&b);
    iron__str_free(&again);
    free(text);
}

TEST_TIMEOUT(mlir_export_generic_passes_mlir_opt, 240)
{
    const xdesign more[] = {
        { "rtp_barrier", rtp_barrier_design, &rtp_barrier_options,
          "npu1_1col", 1, { 0 }, { 0 }, 2,
          { A1(IRON_INT32, 64), A1(IRON_INT32, 64) }, 0 },
        { "broadcast", broadcast_design, &broadcast_options, "npu1_1col", 1,
          { 0 }, { 0 }, 3,
          { A1(IRON_INT32, 64), A1(IRON_INT32, 64), A1(IRON_INT32, 64) }, 0 },
        { "names", names_design, &names_options, "npu1_2col", 2, { 0 },
          { 0 }, 2, { A1(IRON_INT32, 48), A1(IRON_INT32, 48) }, 0 },
    };
    for (int i = 0; i < NDESIGNS + 3; i++) {
        const xdesign *x = i < NDESIGNS ? &designs[i] : &more[i - NDESIGNS];
        check_generic(x, NULL);
        check_roundtrip(x, NULL);
        for (int t = 0; iron_mlir_upstream(t); t++) {
            check_generic(x, iron_mlir_upstream(t));
            check_roundtrip(x, iron_mlir_upstream(t));
        }
    }
}

/* --- out of memory ------------------------------------------------------- */

/* No temporary file anywhere under dir. */
static int no_temporaries(const char *dir)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "find '%s' -name '*.tmp.*' 2>/dev/null | "
                              "grep -q .", dir);
    return system(cmd) != 0;
}

/* Every allocation of an export failing in turn: IRON_ENOMEM (or a
 * success where the library does without), no temporary file left,
 * nothing leaked; the files are whole when the export succeeds. */
TEST_TIMEOUT(mlir_export_out_of_memory, 120)
{
    const char *tmp = test_temp_dir("mlir-oom");
    char base[160], dir[200];
    snprintf(base, sizeof base, "%s", tmp);
    snprintf(dir, sizeof dir, "%s/out", base);
    iron_jit *j = test_new_jit(saxpy_bf16_design, &saxpy_bf16_options);
    int failures = 0;
    IRON_WITH_DEVICE("npu1_1col")
    {
        iron_tensor *x = test_zeros(IRON_BFLOAT16, 4096),
                    *y = test_zeros(IRON_BFLOAT16, 4096),
                    *z = test_zeros(IRON_BFLOAT16, 4096);
        iron_launch_config cfg = { .size = sizeof cfg, .cols = 1 };
        iron_mlir_options mo = { .size = sizeof mo, .generic = 1 };
        iron__alloc_fail_at(0);
        ASSERT_OK(iron_jit_export_mlir(j, &cfg, IRON_NO_PARAMS,
                                       IRON_TENSORS(x, y, z), &mo, dir));
        long total = iron__alloc_fail_at(0);
        ASSERT_GT(total, 100);
        for (long n = 1; n <= total; n++) {
            test_remove_dir(dir);
            iron__alloc_fail_at(n);
            iron_status s = iron_jit_export_mlir(
                j, &cfg, IRON_NO_PARAMS, IRON_TENSORS(x, y, z), &mo, dir);
            iron__alloc_fail_at(0);
            if (s != IRON_OK && s != IRON_ENOMEM)
                TEST_FAIL_("allocation %ld of %ld: %s: %s", n, total,
                           iron_status_name(s), iron_last_error());
            ASSERT(no_temporaries(base));
            if (s == IRON_OK) {
                char *m = slurp_in(dir, "aie.mlir");
                ASSERT_CONTAINS(m, "\"aie.runtime_sequence\"");
                free(m);
            } else {
                failures++;
            }
        }
        iron_tensor_free(x);
        iron_tensor_free(y);
        iron_tensor_free(z);
    }
    ASSERT_GE(failures, 50);
    iron_jit_free(j);
    test_remove_dir(base);
    test_assert_no_leaks();
}

/* Before upstream 2026-03 a core that calls two kernels links with one
 * object, which the Makefile makes of both. */
static const char zero_src[] =
    "#include <stdint.h>\n"
    "void zero16(int32_t *out) { for (int i = 0; i < 16; i++) out[i] = 0; }\n";

/* One worker whose body (named `name`) names zero16 and copy16 and
 * calls copy16, and zero16 first when call_zero is set. */
static int zero_copy_design(iron_design *d, const char *name, int call_zero)
{
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(16), 2);
    iron_kernel *z = iron_kernel_new(d, "zero16", zero_src, "int32*");
    iron_kernel *c = iron_kernel_new(d, "copy16", copy16_src,
                                     "int32*, int32*");
    iron_body *b = iron_body_new(d, name);
    iron_val fi = iron_body_fifo(b, iron_fifo_cons(in));
    iron_val fo = iron_body_fifo(b, iron_fifo_prod(out));
    iron_val kz = iron_body_kernel(b, z), kc = iron_body_kernel(b, c);
    body_forever(b);
    iron_val x = body_acquire1(b, fi);
    iron_val y = body_acquire1(b, fo);
    if (call_zero)
        iron_body_call(b, kz, 1, &y);
    iron_body_call(b, kc, 2, (iron_val[]){ x, y });
    iron_body_release(b, fi, 1);
    iron_body_release(b, fo, 1);
    body_end_for(b);
    iron_worker_new_body(d, "w", b);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(64));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(64), IRON_WAIT);
    return 0;
}

static int two_kernels_design(iron_design *d, void *user)
{
    (void)user;
    return zero_copy_design(d, "two", 1);
}

static const iron_jit_options two_kernels_options = {
    .size = sizeof(iron_jit_options),
    .name = "two_kernels",
    .args = "in a: int32[64], out b: int32[64]",
};

TEST(mlir_export_core_link_two_kernels_one_object)
{
    const xdesign x = { "two_kernels", two_kernels_design,
                        &two_kernels_options, "npu2", 1, { 0 }, { 0 }, 2,
                        { A1(IRON_INT32, 64), A1(IRON_INT32, 64) }, 0 };
    const char *tmp = test_temp_dir("mlir-two");
    char dir[160];
    snprintf(dir, sizeof dir, "%s", tmp);
    iron_mlir_options mo = { .size = sizeof mo, .upstream = "2025-11" };
    ASSERT_EXPORT_OK(run_export(&x, NULL, &mo, dir, NULL));
    char *m = slurp_in(dir, "aie.mlir");
    ASSERT_CONTAINS(m, "func.func private @zero16(memref<16xi32>)\n");
    ASSERT_CONTAINS(m, "func.func private @copy16(memref<16xi32>, "
                       "memref<16xi32>)\n");
    ASSERT_CONTAINS(m, "    } {link_with = \"core_0_2.o\"}\n");
    char *mk = slurp_in(dir, "Makefile");
    ASSERT_CONTAINS(mk, "ARCH = aie2p\n");
    ASSERT_CONTAINS(mk, "build/core_0_2.o: build/zero16.o build/copy16.o\n"
                        "\t$(PEANO_INSTALL_DIR)/bin/ld.lld -r $^ -o $@\n");
    ASSERT_CONTAINS(mk, "build/final.xclbin: aie.mlir build/zero16.o "
                        "build/copy16.o build/core_0_2.o\n");
    free(m);
    free(mk);
    /* 2026-03 and later name each kernel's object on its declaration. */
    char *t = NULL;
    ASSERT_EXPORT_OK(run_export(&x, "mlir", NULL, NULL, &t));
    ASSERT_CONTAINS(t, "func.func private @zero16(memref<16xi32>) "
                       "attributes {link_with = \"zero16.o\"}");
    ASSERT(!strstr(t, "core_0_2.o"));
    iron_free(t);
    test_remove_dir(tmp);
}

/* A body that names a kernel it never calls: no declaration, no file. */
static int uncalled_design(iron_design *d, void *user)
{
    (void)user;
    return zero_copy_design(d, "only_copy", 0);
}

static const iron_jit_options uncalled_options = {
    .size = sizeof(iron_jit_options),
    .name = "uncalled",
    .args = "in a: int32[64], out b: int32[64]",
};

TEST(mlir_export_kernel_never_called)
{
    const xdesign x = { "uncalled", uncalled_design, &uncalled_options,
                        "npu1_1col", 1, { 0 }, { 0 }, 2,
                        { A1(IRON_INT32, 64), A1(IRON_INT32, 64) }, 0 };
    const char *tmp = test_temp_dir("mlir-uncalled");
    char dir[160];
    snprintf(dir, sizeof dir, "%s", tmp);
    ASSERT_EXPORT_OK(run_export(&x, NULL, NULL, dir, NULL));
    char *m = slurp_in(dir, "aie.mlir");
    ASSERT(!strstr(m, "zero16"));
    ASSERT_EQ(count_of(m, "func.func private"), 1);
    ASSERT_CONTAINS(m, "func.call @copy16(");
    free(m);
    char kdir[200];
    snprintf(kdir, sizeof kdir, "%s/kernels", dir);
    ASSERT_EQ(test_count_files(kdir), 1);
    test_remove_dir(tmp);
}
