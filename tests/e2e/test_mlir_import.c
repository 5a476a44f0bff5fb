/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_mlir_import.c - upstream's objectfifo-level MLIR run on the
 * emulator (iron_mlir_design, iron_mlir_jit_create): each fixture of
 * tests/fixtures/mlir/import runs against the reference its upstream
 * host test would compute; the same modules printed in the generic form
 * run alike; the module's device is checked against the call's; and
 * `iron run-mlir` runs them from the command line ($IRON_CLI).
 */
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mlir/ast.h"
#include <dirent.h>

#include "test.h"

#define FIXTURES "tests/fixtures/mlir/import/"

/* ---- helpers --------------------------------------------------------- */

static char *fixture_text(const char *file, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, FIXTURES "%s", file);
    return (char *)test_slurp(path, len);
}

/* Imports text with at most one kernel, kernels/<source>.c, running
 * the aie.device named `device` (NULL: the only one). */
static iron_mlir *import_device(const char *text, size_t len,
                                const char *file, const char *device,
                                const char *kernel, const char *source)
{
    iron_mlir *m = NULL;
    char *src = NULL;
    iron_mlir_kernel k = { .name = kernel, .source = NULL };
    if (kernel) {
        char path[512];
        snprintf(path, sizeof path, FIXTURES "kernels/%s.c", source);
        src = (char *)test_slurp(path, NULL);
        k.source = src;
    }
    iron_mlir_import_options o = { .size = sizeof o, .device_name = device };
    ASSERT_OK(iron_mlir_design_with(text, len, file, kernel ? 1 : 0, &k, &o,
                                    &m));
    free(src);
    ASSERT(m != NULL);
    return m;
}

static iron_mlir *import_text(const char *text, size_t len, const char *file,
                              const char *kernel, const char *source)
{
    return import_device(text, len, file, NULL, kernel, source);
}

/* One fixture: its file, kernel, the argument declaration its sequence
 * makes, and the reference check of a run. */
typedef struct fixture {
    const char *file;
    const char *device;       /* the aie.device's symbol, or NULL */
    const char *kernel, *source;
    const char *args;
    int calls;                /* runs (a forever loop persists) */
    void (*check)(iron_tensor *const *t);
} fixture;

static int64_t at_i(iron_tensor *const *t, int a, int64_t i)
{
    return (int64_t)test_at(t[a], i);
}

static void check_add(iron_tensor *const *t, int in, int out, int64_t n,
                      int64_t add)
{
    for (int64_t i = 0; i < n; i++)
        if (at_i(t, out, i) != at_i(t, in, i) + add)
            TEST_FAIL_("out[%lld] = %lld, expected in + %lld = %lld",
                       (long long)i, (long long)at_i(t, out, i),
                       (long long)add, (long long)(at_i(t, in, i) + add));
}

static void check_add_one_link(iron_tensor *const *t)
{
    check_add(t, 0, 2, 64, 1);
}

static void check_add_one_forever(iron_tensor *const *t)
{
    check_add(t, 0, 1, 256, 1);
}

/* repeat_tasks_2025.mlir: the input streamed twice */
static void check_repeat_tasks(iron_tensor *const *t)
{
    for (int64_t i = 0; i < 256; i++)
        ASSERT_EQ(at_i(t, 1, i), at_i(t, 0, i % 128) + 1);
}

static void check_add_two(iron_tensor *const *t)
{
    check_add(t, 0, 1, 64, 2);
}

static void check_cumsum(iron_tensor *const *t)
{
    for (int r = 0; r < 4; r++)
        for (int e = 0; e < 16; e++) {
            int64_t want = 0;
            for (int k = 0; k <= r; k++)
                want += at_i(t, 0, 16 * k + e);
            ASSERT_EQ(at_i(t, 1, 16 * r + e), want);
        }
}

static void check_scale(iron_tensor *const *t)
{
    for (int64_t i = 0; i < 1024; i++)
        ASSERT_EQ(at_i(t, 1, i), at_i(t, 0, i) * 3);
}

static void check_broadcast(iron_tensor *const *t)
{
    for (int64_t i = 0; i < 128; i++) {
        ASSERT_EQ(at_i(t, 1, i), at_i(t, 0, i) + 1);
        ASSERT_EQ(at_i(t, 2, i), at_i(t, 0, i) * 2);
    }
}

static void check_split_join(iron_tensor *const *t)
{
    for (int64_t i = 0; i < 96; i++)
        ASSERT_EQ(at_i(t, 1, i), at_i(t, 0, i) + (i % 48) / 16 + 1);
}

static void check_transpose(iron_tensor *const *t)
{
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++)
                ASSERT_EQ(at_i(t, 1, 64 * b + 8 * i + j),
                          at_i(t, 0, 64 * b + 8 * j + i));
}

static void check_transpose4(iron_tensor *const *t)
{
    for (int b = 0; b < 4; b++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                ASSERT_EQ(at_i(t, 1, 16 * b + 4 * i + j),
                          at_i(t, 0, 16 * b + 4 * j + i));
}

static void check_barrier(iron_tensor *const *t)
{
    static const int table[2][2] = { { 1, 2 }, { 3, 4 } };
    for (int64_t i = 0; i < 64; i++) {
        int64_t e = i % 16;
        ASSERT_EQ(at_i(t, 1, i), at_i(t, 0, i) * 5 + table[e % 2][e / 2 % 2]);
    }
}

static void check_pair_sum(iron_tensor *const *t)
{
    for (int j = 0; j < 4; j++)
        for (int e = 0; e < 16; e++) {
            double want = (double)(float)(test_at(t[0], 32 * j + e) +
                                          test_at(t[0], 32 * j + 16 + e));
            ASSERT_DBL_NEAR(test_at(t[1], 16 * j + e), want, 1e-6);
        }
}

static void check_add_one_64(iron_tensor *const *t)
{
    check_add(t, 0, 1, 64, 1);
}

static void check_triple(iron_tensor *const *t)
{
    for (int64_t i = 0; i < 128; i++)
        ASSERT_EQ(at_i(t, 1, i), at_i(t, 0, i) * 3);
}

static void check_scale_256(iron_tensor *const *t)
{
    for (int64_t i = 0; i < 256; i++)
        ASSERT_EQ(at_i(t, 1, i), at_i(t, 0, i) * 3);
}

static void check_rtp_add(iron_tensor *const *t)
{
    for (int64_t i = 0; i < 1024; i++)
        ASSERT_EQ(at_i(t, 1, i), (int8_t)(at_i(t, 0, i) + 7));
}

static const fixture fixtures[] = {
    { "add_one_link_2024.mlir", NULL, NULL, NULL,
      "in in: int32[64], in unused: int32[32], out out: int32[64]", 1,
      check_add_one_link },
    { "add_one_forever_2025.mlir", NULL, NULL, NULL,
      "in arg0: int32[256], out arg1: int32[256]", 2, check_add_one_forever },
    { "repeat_tasks_2025.mlir", NULL, NULL, NULL,
      "in arg0: int32[128], out arg1: int32[256]", 2, check_repeat_tasks },
    { "rtp_cumsum_2024.mlir", NULL, NULL, NULL,
      "in in: int32[64], out out: int32[64]", 1, check_cumsum },
    { "scale_func_link_2025.mlir", NULL, "scale_int32", "scale",
      "in arg0: int32[1024], out arg1: int32[1024]", 2, check_scale },
    { "add_two_core_link_2024.mlir", NULL, "add_two", "add_two",
      "in in: int32[64], out out: int32[64]", 1, check_add_two },
    { "broadcast_two_col.mlir", NULL, NULL, NULL,
      "in in: int32[128], out plus: int32[128], out twice: int32[128]", 2,
      check_broadcast },
    { "split_join_offsets.mlir", NULL, NULL, NULL,
      "in in: int32[96], out out: int32[96]", 2, check_split_join },
    { "dims_transpose.mlir", NULL, NULL, NULL,
      "in in: int32[128], out out: int32[128]", 1, check_transpose },
    { "dims_from_stream.mlir", NULL, NULL, NULL,
      "in in: int32[64], out out: int32[64]", 2, check_transpose4 },
    { "barrier_rtp.mlir", NULL, NULL, NULL,
      "in in: int32[64], out out: int32[64]", 2, check_barrier },
    { "pair_sum_generic.mlir", NULL, NULL, NULL,
      "in in: float32[128], out out: float32[64]", 1, check_pair_sum },
    { "rtp_add_func_sequence_2024.mlir", NULL, NULL, NULL,
      "in in: int8[1024], out out: int8[1024]", 1, check_rtp_add },
    { "rtp_add_ssa_indices_2024.mlir", NULL, NULL, NULL,
      "in in: int8[1024], out out: int8[1024]", 1, check_rtp_add },
    { "rtp_add_three_strides_2024.mlir", NULL, NULL, NULL,
      "in in: int8[1024], out out: int8[1024]", 1, check_rtp_add },
    { "two_devices.mlir", "add_one", NULL, NULL,
      "in arg0: int32[64], out arg1: int32[64]", 2, check_add_one_64 },
    { "two_devices.mlir", "main", NULL, NULL,
      "in arg0: int32[128], out arg1: int32[128]", 2, check_triple },
    { "scale_decl_beside_device.mlir", NULL, "scale_int32", "scale",
      "in arg0: int32[256], out arg1: int32[256]", 1, check_scale_256 },
};
#define NFIXTURES ((int)(sizeof fixtures / sizeof fixtures[0]))

/* Tensors for a declaration "in a: int32[64], out b: ...": inputs
 * seeded, outputs zeroed. */
static int make_tensors(const char *decl, uint64_t seed, iron_tensor **t)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", decl);
    int n = 0;
    for (char *item = strtok(buf, ","); item; item = strtok(NULL, ",")) {
        char role[8], name[32], dt[16];
        long long numel;
        /* "in a: int32[64]" */
        ASSERT_EQ(sscanf(item, " %7s %31[^:]: %15[^[][%lld]", role, name, dt,
                         &numel),
                  4);
        iron_dtype d;
        ASSERT_OK(iron_dtype_parse(dt, &d));
        if (strcmp(role, "out") == 0)
            t[n] = test_zeros(d, numel);
        else if (d == IRON_FLOAT32)
            ASSERT_OK(iron_tensor_rand(d, IRON_SHAPE(numel), seed + n, &t[n]));
        else
            t[n] = test_randint(d, IRON_SHAPE(numel),
                                d == IRON_INT8 ? -128 : -1000,
                                d == IRON_INT8 ? 128 : 1000, seed + n);
        n++;
    }
    return n;
}

/* Imports text as fixture fx would be and runs it fx->calls times on
 * the module's own device, checking every call. */
static void run_fixture(const fixture *fx, const char *text, size_t len)
{
    iron_mlir *m = import_device(text, len, fx->file, fx->device,
                                 fx->kernel, fx->source);
    ASSERT_STR_EQ(iron_mlir_args(m), fx->args);
    iron_jit *j = NULL;
    ASSERT_OK(iron_mlir_jit_create(m, NULL, &j));
    iron_tensor *t[4] = { 0 };
    for (int c = 0; c < fx->calls; c++) {
        int n = make_tensors(fx->args, 100 + (uint64_t)c * 10, t);
        iron_status s = IRON_OK;
        IRON_WITH_DEVICE(iron_mlir_device(m))
        {
            s = test_launch(j, 0, n, t);
        }
        if (s != IRON_OK)
            TEST_FAIL_("%s, call %d: %s: %s", fx->file, c + 1,
                       iron_status_name(s), test_errmsg);
        fx->check(t);
        for (int i = 0; i < n; i++)
            iron_tensor_free(t[i]);
    }
    iron_jit_free(j);
    iron_mlir_free(m);
}

/* The fixture of file (and device, when several of its devices run). */
static const fixture *find_device(const char *file, const char *device)
{
    for (int i = 0; i < NFIXTURES; i++)
        if (strcmp(fixtures[i].file, file) == 0 &&
            (!device || strcmp(fixtures[i].device, device) == 0))
            return &fixtures[i];
    TEST_FAIL_("no fixture %s (device %s)", file, device ? device : "-");
}

static const fixture *find_fixture(const char *file)
{
    return find_device(file, NULL);
}

static void run_device(const char *file, const char *device)
{
    size_t len;
    char *text = fixture_text(file, &len);
    run_fixture(find_device(file, device), text, len);
    free(text);
}

static void run_file(const char *file)
{
    run_device(file, NULL);
}

/* ---- each fixture against its reference ------------------------------ */

TEST_TIMEOUT(mlir_import_add_one_link_2024, 60)
{
    run_file("add_one_link_2024.mlir");
}

TEST_TIMEOUT(mlir_import_add_one_forever_2025, 60)
{
    run_file("add_one_forever_2025.mlir");
}

TEST_TIMEOUT(mlir_import_repeated_tasks, 60)
{
    run_file("repeat_tasks_2025.mlir");
}

TEST_TIMEOUT(mlir_import_rtp_cumsum, 60)
{
    run_file("rtp_cumsum_2024.mlir");
}

TEST_TIMEOUT(mlir_import_kernel_link_with_on_func, 60)
{
    run_file("scale_func_link_2025.mlir");
}

TEST_TIMEOUT(mlir_import_kernel_link_with_on_core, 60)
{
    run_file("add_two_core_link_2024.mlir");
}

TEST_TIMEOUT(mlir_import_broadcast_two_columns, 60)
{
    run_file("broadcast_two_col.mlir");
}

TEST_TIMEOUT(mlir_import_memtile_split_join_offsets, 60)
{
    run_file("split_join_offsets.mlir");
}

TEST_TIMEOUT(mlir_import_dims_layout, 60)
{
    run_file("dims_transpose.mlir");
}

TEST_TIMEOUT(mlir_import_dims_from_stream, 60)
{
    run_file("dims_from_stream.mlir");
}

TEST_TIMEOUT(mlir_import_barrier_and_buffers, 60)
{
    run_file("barrier_rtp.mlir");
}

TEST_TIMEOUT(mlir_import_generic_form, 60)
{
    run_file("pair_sum_generic.mlir");
}

TEST_TIMEOUT(mlir_import_sequence_as_func_with_sync, 60)
{
    run_file("rtp_add_func_sequence_2024.mlir");
}

/* Offsets, sizes and strides written as %c values of arith.constant. */
TEST_TIMEOUT(mlir_import_ssa_constant_indices, 60)
{
    run_file("rtp_add_ssa_indices_2024.mlir");
}

/* A module holding two devices (upstream's runlist tests): each runs,
 * chosen by its symbol name -- the unnamed one is @main, upstream's
 * default name -- and computes its own result. */
TEST_TIMEOUT(mlir_import_two_devices_by_name, 60)
{
    run_device("two_devices.mlir", "add_one");
    run_device("two_devices.mlir", "main");
}

/* func.func private beside the aie.device, read as if declared in it. */
TEST_TIMEOUT(mlir_import_declaration_beside_device, 60)
{
    run_file("scale_decl_beside_device.mlir");
}

/* Every fixture printed in the generic form (as aie-opt
 * --mlir-print-op-generic would) imports to the same design and runs to
 * the same result: the importer never cares which form a file used. */
TEST_TIMEOUT(mlir_import_every_fixture_in_generic_form, 240)
{
    for (int i = 0; i < NFIXTURES; i++) {
        size_t len;
        char *text = fixture_text(fixtures[i].file, &len);
        iron__mlir_module *mod = NULL;
        ASSERT_OK(iron__mlir_parse(text, len, fixtures[i].file, &mod));
        iron__str s = { 0 };
        ASSERT_OK(iron__mlir_print(mod, 1, &s));
        ASSERT(strstr(iron__str_get(&s), "\"aie.objectfifo\"(") != NULL);
        run_fixture(&fixtures[i], iron__str_get(&s), s.len);
        iron__str_free(&s);
        iron__mlir_module_free(mod);
        free(text);
    }
}

/* The exported aie.mlir of m's jit (latest, pretty) in *text, and its
 * kernels/NAME.c files as k (sources to free); the status. */
static iron_status export_module(iron_mlir *m, const fixture *fx,
                                 char **text, iron_mlir_kernel *k,
                                 char **own, int *nk)
{
    iron_jit *j = NULL;
    ASSERT_OK(iron_mlir_jit_create(m, NULL, &j));
    iron_tensor *t[4] = { 0 };
    int n = make_tensors(fx->args, 7, t);
    char dir[256];
    snprintf(dir, sizeof dir, "%s", test_temp_dir("mlir-reexport"));
    iron_status s = IRON_OK;
    IRON_WITH_DEVICE(iron_mlir_device(m)) {
        s = test_keep(iron_jit_export_mlir(j, NULL, IRON_NO_PARAMS, n, t,
                                           NULL, dir));
    }
    *nk = 0;
    if (s == IRON_OK) {
        char path[512];
        snprintf(path, sizeof path, "%s/aie.mlir", dir);
        *text = (char *)test_slurp(path, NULL);
        snprintf(path, sizeof path, "%s/kernels", dir);
        DIR *dp = opendir(path);
        for (struct dirent *e; dp && (e = readdir(dp)) != NULL;) {
            size_t len = strlen(e->d_name);
            if (len < 3 || strcmp(e->d_name + len - 2, ".c") != 0 ||
                *nk == 4)
                continue;
            char file[1024];
            snprintf(file, sizeof file, "%s/%s", path, e->d_name);
            own[2 * *nk] = strndup(e->d_name, len - 2);
            own[2 * *nk + 1] = (char *)test_slurp(file, NULL);
            k[*nk].name = own[2 * *nk];
            k[*nk].source = own[2 * *nk + 1];
            (*nk)++;
        }
        if (dp)
            closedir(dp);
    }
    test_remove_dir(dir);
    for (int i = 0; i < n; i++)
        iron_tensor_free(t[i]);
    iron_jit_free(j);
    return s;
}

static void free_kernels(char **own, int nk)
{
    for (int i = 0; i < 2 * nk; i++)
        free(own[i]);
}

/* import -> export -> import -> export: the two exports are one text
 * (the importer and the exporter agree on names and order). */
TEST_TIMEOUT(mlir_import_export_import_export_is_stable, 240)
{
    for (int i = 0; i < NFIXTURES; i++) {
        const fixture *fx = &fixtures[i];
        size_t len;
        char *text = fixture_text(fx->file, &len);
        iron_mlir *m1 = import_device(text, len, fx->file, fx->device,
                                      fx->kernel, fx->source);
        char *t1 = NULL, *t2 = NULL;
        iron_mlir_kernel k1[4], k2[4];
        memset(k1, 0, sizeof k1);
        memset(k2, 0, sizeof k2);
        char *o1[8], *o2[8];
        int nk1 = 0, nk2 = 0;
        iron_status s = export_module(m1, fx, &t1, k1, o1, &nk1);
        if (s != IRON_OK)
            TEST_FAIL_("%s: export: %s: %s", fx->file, iron_status_name(s),
                       test_errmsg);
        iron_mlir *m2 = NULL;
        if (iron_mlir_design(t1, strlen(t1), fx->file, nk1, k1, &m2) !=
            IRON_OK)
            TEST_FAIL_("%s: the export does not import: %s\n%s", fx->file,
                       iron_last_error(), t1);
        ASSERT_OK(export_module(m2, fx, &t2, k2, o2, &nk2));
        if (strcmp(t1, t2) != 0) {
            const char *a = t1, *b = t2;
            int line = 1;
            while (*a && *a == *b) {
                line += *a == '\n';
                a++;
                b++;
            }
            while (a > t1 && a[-1] != '\n') {
                a--;
                b--;
            }
            TEST_FAIL_("%s: the second export differs at line %d:\n"
                       "  first:  %.*s\n  second: %.*s",
                       fx->file, line, (int)strcspn(a, "\n"), a,
                       (int)strcspn(b, "\n"), b);
        }
        free_kernels(o1, nk1);
        free_kernels(o2, nk2);
        free(t1);
        free(t2);
        iron_mlir_free(m1);
        iron_mlir_free(m2);
        free(text);
    }
}

/* ---- the module's device and the call's ------------------------------ */

/* An npu1_1col module runs on the whole npu1 too; on npu2 it is refused
 * naming the module's aie.device. */
TEST_TIMEOUT(mlir_import_device_family, 60)
{
    size_t len;
    char *text = fixture_text("add_two_core_link_2024.mlir", &len);
    const fixture *fx = find_fixture("add_two_core_link_2024.mlir");
    iron_mlir *m = import_text(text, len, fx->file, fx->kernel, fx->source);
    ASSERT_STR_EQ(iron_mlir_device(m), "npu1_1col");
    iron_jit *j = NULL;
    ASSERT_OK(iron_mlir_jit_create(m, "add_two", &j));
    iron_tensor *t[2];
    int n = make_tensors(fx->args, 7, t);
    iron_status s = IRON_OK;
    IRON_WITH_DEVICE("npu1") { s = test_launch(j, 0, n, t); }
    ASSERT_EQ(s, IRON_OK);
    check_add_two(t);
    IRON_WITH_DEVICE("npu2") { s = test_launch(j, 0, n, t); }
    ASSERT_EQ(s, IRON_EDEVICE);
    ASSERT_MSG("add_two_core_link_2024.mlir:8:3: aie.device: the module is "
               "for npu1_1col (npu1); the call runs on npu2");
    for (int i = 0; i < n; i++)
        iron_tensor_free(t[i]);
    iron_jit_free(j);
    iron_mlir_free(m);
    free(text);
}

/* A two-column module given one column names the first tile outside. */
TEST_TIMEOUT(mlir_import_too_few_columns, 60)
{
    size_t len;
    char *text = fixture_text("broadcast_two_col.mlir", &len);
    const fixture *fx = find_fixture("broadcast_two_col.mlir");
    iron_mlir *m = import_text(text, len, fx->file, NULL, NULL);
    iron_jit *j = NULL;
    ASSERT_OK(iron_mlir_jit_create(m, NULL, &j));
    iron_tensor *t[3];
    int n = make_tensors(fx->args, 7, t);
    iron_status s = IRON_OK;
    IRON_WITH_DEVICE("npu1_2col") { s = test_launch(j, 1, n, t); }
    ASSERT_EQ(s, IRON_ERESOURCE);
    ASSERT_MSG("broadcast_two_col.mlir:");
    ASSERT_MSG("aie.core: tile (1,2) is outside the columns the call grants "
               "(0..0");
    for (int i = 0; i < n; i++)
        iron_tensor_free(t[i]);
    iron_jit_free(j);
    iron_mlir_free(m);
    free(text);
}

/* The task groups the sequence's waits imply: two in the ping-pong
 * fixture, finished where upstream blocks. */
TEST_TIMEOUT(mlir_import_task_groups, 60)
{
    size_t len;
    char *text = fixture_text("add_one_forever_2025.mlir", &len);
    iron_mlir *m = import_text(text, len, "add_one_forever_2025.mlir", NULL,
                               NULL);
    iron_jit *j = NULL;
    ASSERT_OK(iron_mlir_jit_create(m, NULL, &j));
    iron_tensor *t[2];
    int n = make_tensors(iron_mlir_args(m), 1, t);
    char *dump = NULL;
    IRON_WITH_DEVICE(iron_mlir_device(m)) { dump = test_dump(j, 0, n, t); }
    ASSERT_CONTAINS(dump, "group 1");
    ASSERT_CONTAINS(dump, "group 2");
    ASSERT(strstr(dump, "group 3") == NULL);
    iron_free(dump);
    for (int i = 0; i < n; i++)
        iron_tensor_free(t[i]);
    iron_jit_free(j);
    iron_mlir_free(m);
    free(text);
}

/* Every allocation failure while importing is a clean ENOMEM (or is
 * recovered from: a placement label the placer drops), and leaks
 * nothing. */
TEST_TIMEOUT(mlir_import_alloc_failures, 120)
{
    size_t len;
    char *text = fixture_text("split_join_offsets.mlir", &len);
    iron_mlir *m = NULL;
    iron__alloc_fail_at(0);
    ASSERT_OK(iron_mlir_design(text, len, "x.mlir", 0, NULL, &m));
    long total = iron__alloc_fail_at(0);
    iron_mlir_free(m);
    ASSERT_GT(total, 100);
    for (long n = 1; n <= total; n++) {
        m = NULL;
        iron__alloc_fail_at(n);
        iron_status s = iron_mlir_design(text, len, "x.mlir", 0, NULL, &m);
        iron__alloc_fail_at(0);
        if (s == IRON_OK) {
            ASSERT(m != NULL);
            iron_mlir_free(m);
        } else {
            ASSERT_EQ(s, IRON_ENOMEM);
            ASSERT(m == NULL);
        }
    }
    free(text);
    test_assert_no_leaks();
}

/* ---- the command line ------------------------------------------------ */

/* `$IRON_CLI args` with stderr folded in. */
static int run_cli(const char *args, char *out, size_t len)
{
    return test_run_cli(args, 1, out, len);
}

static char out[65536];

/* run-mlir on .npy input with a kernel file, against a reference file:
 * exit 0 and "matches"; a wrong reference: exit 1 and the mismatches. */
TEST_TIMEOUT(mlir_import_cli_run_with_reference, 120)
{
    const char *dir = test_temp_dir("runmlir");
    char in[512], ref[512], bad[512], args[4096];
    snprintf(in, sizeof in, "%s/x.npy", dir);
    snprintf(ref, sizeof ref, "%s/ref.npy", dir);
    snprintf(bad, sizeof bad, "%s/bad.npy", dir);
    iron_tensor *x = test_randint(IRON_INT32, IRON_SHAPE(1024), -50, 50, 3);
    iron_tensor *r = test_zeros(IRON_INT32, 1024);
    for (int64_t i = 0; i < 1024; i++)
        ASSERT_OK(iron_tensor_set_element(r, i, test_at(x, i) * 3));
    ASSERT_OK(iron_tensor_save_npy(x, in));
    ASSERT_OK(iron_tensor_save_npy(r, ref));
    ASSERT_OK(iron_tensor_set_element(r, 5, 12345));
    ASSERT_OK(iron_tensor_save_npy(r, bad));
    snprintf(args, sizeof args,
             "run-mlir " FIXTURES "scale_func_link_2025.mlir --kernel "
             "scale_int32=" FIXTURES "kernels/scale.c --in arg0=%s --ref "
             "arg1=%s --out %s",
             in, ref, dir);
    ASSERT_EQ(run_cli(args, out, sizeof out), 0);
    ASSERT_CONTAINS(out, "scale_func_link_2025.mlir: arg0 int32[1024] (");
    ASSERT_CONTAINS(out, "arg1: matches");
    char saved[512];
    snprintf(saved, sizeof saved, "%s/arg1.npy", dir);
    ASSERT_EQ(access(saved, R_OK), 0);
    snprintf(args, sizeof args,
             "run-mlir " FIXTURES "scale_func_link_2025.mlir --kernel "
             "scale_int32=" FIXTURES "kernels/scale.c %s --ref arg1=%s",
             in, bad);
    ASSERT_EQ(run_cli(args, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "arg1: MISMATCH");
    ASSERT_CONTAINS(out, "  [5]: actual ");
    iron_tensor_free(x);
    iron_tensor_free(r);
    test_remove_dir(dir);
}

/* Seeded inputs, the module's device by default, and a device that
 * cannot run it. */
TEST_TIMEOUT(mlir_import_cli_seed_and_device, 120)
{
    ASSERT_EQ(run_cli("run-mlir " FIXTURES "broadcast_two_col.mlir --seed 4",
                      out, sizeof out),
              0);
    ASSERT_CONTAINS(out, "in int32[128] (random), plus int32[128] (zeros)");
    ASSERT_EQ(run_cli("run-mlir " FIXTURES "broadcast_two_col.mlir "
                      "--device npu2",
                      out, sizeof out),
              1);
    ASSERT_CONTAINS(out, "iron run-mlir: ");
    ASSERT_CONTAINS(out, "broadcast_two_col.mlir:9:3: aie.device: the module "
                         "is for npu1_2col (npu1); the call runs on npu2");
    ASSERT_EQ(run_cli("run-mlir " FIXTURES "broadcast_two_col.mlir "
                      "--device npu9",
                      out, sizeof out),
              2);
    ASSERT_CONTAINS(out, "unknown device 'npu9'");
}

/* --device-name runs one device of a module holding several, against
 * its reference; without it, or with a name no device has, the message
 * lists the devices.  An op outside the subset in a custom form the
 * parser does not know names itself, its line and column. */
TEST_TIMEOUT(mlir_import_cli_device_name, 120)
{
    const char *dir = test_temp_dir("devname");
    char in[512], ref[512], args[4096];
    static const struct {
        const char *name;
        int64_t n, mul, add;
    } devs[] = { { "add_one", 64, 1, 1 }, { "main", 128, 3, 0 } };
    for (int d = 0; d < 2; d++) {
        snprintf(in, sizeof in, "%s/x%d.npy", dir, d);
        snprintf(ref, sizeof ref, "%s/ref%d.npy", dir, d);
        iron_tensor *x = test_randint(IRON_INT32, IRON_SHAPE(devs[d].n), -50,
                                      50, 3 + (uint64_t)d);
        iron_tensor *r = test_zeros(IRON_INT32, devs[d].n);
        for (int64_t i = 0; i < devs[d].n; i++)
            ASSERT_OK(iron_tensor_set_element(r, i,
                                              test_at(x, i) *
                                                      (double)devs[d].mul +
                                                  (double)devs[d].add));
        ASSERT_OK(iron_tensor_save_npy(x, in));
        ASSERT_OK(iron_tensor_save_npy(r, ref));
        snprintf(args, sizeof args,
                 "run-mlir " FIXTURES "two_devices.mlir --device-name %s "
                 "--in arg0=%s --ref arg1=%s",
                 devs[d].name, in, ref);
        ASSERT_EQ(run_cli(args, out, sizeof out), 0);
        ASSERT_CONTAINS(out, "arg1: matches");
        iron_tensor_free(x);
        iron_tensor_free(r);
    }
    ASSERT_EQ(run_cli("run-mlir " FIXTURES "two_devices.mlir", out,
                      sizeof out),
              1);
    ASSERT_CONTAINS(out, "iron run-mlir: " FIXTURES "two_devices.mlir: the "
                         "module holds 2 devices: @add_one (11:3), @main "
                         "(unnamed, 52:3); choose one by its symbol name");
    ASSERT_EQ(run_cli("run-mlir " FIXTURES "two_devices.mlir --device-name "
                      "add_two",
                      out, sizeof out),
              1);
    ASSERT_CONTAINS(out, "no aie.device is named @add_two; the module's "
                         "devices: @add_one (11:3), @main (unnamed, 52:3)");
    ASSERT_EQ(run_cli("run-mlir " FIXTURES "two_devices.mlir --device-name",
                      out, sizeof out),
              2);
    char path[512];
    snprintf(path, sizeof path, "%s/flow.mlir", dir);
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL);
    fputs("module {\n  aie.device(npu1_1col) {\n    %t00 = aie.tile(0, 0)\n"
          "    %t02 = aie.tile(0, 2)\n"
          "    aie.flow(%t00, DMA : 0, %t02, DMA : 0)\n  }\n}\n", f);
    ASSERT_EQ(fclose(f), 0);
    snprintf(args, sizeof args, "run-mlir %s", path);
    ASSERT_EQ(run_cli(args, out, sizeof out), 1);
    ASSERT_CONTAINS(out, "flow.mlir:5:5: aie.flow: outside the imported "
                         "subset (routing: ");
    test_remove_dir(dir);
}

/* Import errors name the file, line and column; usage errors exit 2. */
TEST_TIMEOUT(mlir_import_cli_errors, 60)
{
    ASSERT_EQ(run_cli("run-mlir " FIXTURES "scale_func_link_2025.mlir", out,
                      sizeof out),
              1);
    ASSERT_CONTAINS(out, "iron run-mlir: ");
    ASSERT_CONTAINS(out, "scale_func_link_2025.mlir:25:9: func.call: no C "
                         "source was given for @scale_int32");
    ASSERT_EQ(run_cli("run-mlir " FIXTURES "scale_func_link_2025.mlir "
                      "--kernel scale_int32=/nonexistent/scale.c",
                      out, sizeof out),
              1);
    ASSERT_CONTAINS(out, "--kernel '/nonexistent/scale.c'");
    ASSERT_EQ(run_cli("run-mlir " FIXTURES "add_two_core_link_2024.mlir "
                      "--kernel add_too=" FIXTURES "kernels/add_two.c",
                      out, sizeof out),
              1);
    ASSERT_CONTAINS(out, "a C source is given for 'add_too', which the "
                         "module does not declare (its external functions: "
                         "@add_two)");
    ASSERT_EQ(run_cli("run-mlir --kernel x", out, sizeof out), 2);
    ASSERT_EQ(run_cli("run-mlir", out, sizeof out), 2);
    ASSERT_CONTAINS(out, "missing the module");
    ASSERT_EQ(run_cli("run-mlir " FIXTURES "dims_transpose.mlir --kernel "
                      "noequals",
                      out, sizeof out),
              2);
    ASSERT_CONTAINS(out, "expected NAME=FILE.c");
    ASSERT_EQ(run_cli("run-mlir --help", out, sizeof out), 0);
    ASSERT_CONTAINS(out, "usage: iron run-mlir FILE.mlir");
    ASSERT_EQ(run_cli("help", out, sizeof out), 0);
    ASSERT_CONTAINS(out, "run-mlir FILE.mlir");
}
