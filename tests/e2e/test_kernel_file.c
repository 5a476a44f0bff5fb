/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_kernel_file.c - kernels read from files (iron_kernel_new_file):
 * headers found beside the file and in include folders, diagnostics and
 * fault reports that name the file, edits to the file or to a header it
 * includes compiled again by the next build (in the jit, and through the
 * disk cache by a new jit), every argument error, and
 * iron_kernel_add_cflags appending.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

/* The files of one test: <dir>/k/scale.c, <dir>/k/scale.h (beside it),
 * <dir>/inc/offset.h (an include folder). */
typedef struct kfiles {
    char dir[128], kdir[160], inc[160], src[200], header[200], lib[200];
    const char *path;          /* what the design passes as the path */
    int ninc;
    const char *incs[2];
    const char *cflags;        /* iron_kernel_add_cflags twice: "A", "B" */
    const char *cflags2;
} kfiles;

static const char scale_src[] =
    "#include <stdint.h>\n"
    "#include \"scale.h\"\n"
    "#include <offset.h>\n"
    "\n"
    "void scale(const int32_t *x, int32_t *y, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        y[i] = x[i] * FACTOR + OFFSET;\n"
    "}\n";

static void put(const char *path, const char *text)
{
    test_spit(path, text, strlen(text));
}

static void files_init(kfiles *f, const char *tag)
{
    memset(f, 0, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "%s", test_temp_dir(tag));
    snprintf(f->kdir, sizeof f->kdir, "%s/k", f->dir);
    snprintf(f->inc, sizeof f->inc, "%s/inc", f->dir);
    ASSERT_EQ(mkdir(f->kdir, 0700), 0);
    ASSERT_EQ(mkdir(f->inc, 0700), 0);
    snprintf(f->src, sizeof f->src, "%s/scale.c", f->kdir);
    snprintf(f->header, sizeof f->header, "%s/scale.h", f->kdir);
    snprintf(f->lib, sizeof f->lib, "%s/offset.h", f->inc);
    put(f->src, scale_src);
    put(f->header, "#define FACTOR 3\n");
    put(f->lib, "#define OFFSET 100\n");
    f->path = f->src;
    f->ninc = 1;
    f->incs[0] = f->inc;
}

static int scale_design(iron_design *d, void *user)
{
    const kfiles *f = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(32), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(32), 2);
    iron_kernel *k = iron_kernel_new_file(d, "scale", f->path,
                                          "int32*, int32*, int32", f->ninc,
                                          f->incs);
    if (f->cflags)
        iron_kernel_add_cflags(k, f->cflags);
    if (f->cflags2)
        iron_kernel_add_cflags(k, f->cflags2);
    iron_worker *w = iron_worker_new(
        d, "scale", k, n / 32,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(32)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static iron_jit *scale_jit(kfiles *f, const char *cache_dir)
{
    iron_jit_options o = {
        .size = sizeof o,
        .name = "scale",
        .args = "in x: int32[N], out y: int32[N]",
        .user = f,
        .disk_cache = cache_dir ? 1 : -1,
        .cache_dir = cache_dir,
    };
    return test_new_jit(scale_design, &o);
}

/* One call on n elements: its status, and y[1] in *y1.  The kernel is
 * y = x * FACTOR + OFFSET on x = 0, 1, 2, ...: every element is checked
 * against the line through y[0] and y[1]. */
static iron_status call_y(iron_jit *j, int64_t n, int64_t *y1)
{
    iron_tensor *x = test_arange(IRON_INT32, n), *y = test_zeros(IRON_INT32, n);
    iron_status s = IRON_CALL(j, x, y);
    *y1 = 0;
    if (s == IRON_OK) {
        int64_t y0 = (int64_t)test_at(y, 0);
        *y1 = (int64_t)test_at(y, 1);
        for (int64_t i = 0; i < n; i++)
            ASSERT_EQ((int64_t)test_at(y, i), y0 + i * (*y1 - y0));
    }
    iron_tensor_free(x);
    iron_tensor_free(y);
    return s;
}

/* y[1] of a call that must succeed. */
static int64_t call_y1(iron_jit *j, int64_t n)
{
    int64_t y1;
    ASSERT_OK(call_y(j, n, &y1));
    return y1;
}

TEST(kfile_headers_beside_the_file_and_in_include_folders)
{
    kfiles f;
    files_init(&f, "kfile");
    iron_jit *j = scale_jit(&f, NULL);
    ASSERT_EQ(call_y1(j, 64), 103);
    ASSERT_EQ(test_stats(j).kernel_compiles, 1);
    iron_jit_free(j);

    /* A relative path works from the working folder, and a kernel-only
     * include folder is not needed for "scale.h". */
    char cwd[512];
    ASSERT(getcwd(cwd, sizeof cwd) != NULL);
    ASSERT_EQ(chdir(f.dir), 0);
    f.path = "k/scale.c";
    f.incs[0] = "inc";
    j = scale_jit(&f, NULL);
    ASSERT_EQ(call_y1(j, 64), 103);
    iron_jit_free(j);
    ASSERT_EQ(chdir(cwd), 0);

    /* Without the include folder <offset.h> is not found, and the
     * compiler's message names the file and the line. */
    f.path = f.src;
    f.ninc = 0;
    j = scale_jit(&f, NULL);
    int64_t y1;
    ASSERT_EQ(call_y(j, 64, &y1), IRON_ECOMPILE);
    char want[300];
    snprintf(want, sizeof want, "%s:3:", f.src);
    ASSERT_CONTAINS(iron_last_error(), want);
    ASSERT_CONTAINS(iron_last_error(), "offset.h");
    iron_jit_free(j);
    test_remove_dir(f.dir);
}

TEST(kfile_compile_error_names_the_file_and_line)
{
    kfiles f;
    files_init(&f, "kfile-err");
    put(f.src, "#include <stdint.h>\n"
               "void scale(const int32_t *x, int32_t *y, int32_t n)\n"
               "{\n"
               "    y[0] = x[0] + not_declared + n;\n"
               "}\n");
    iron_jit *j = scale_jit(&f, NULL);
    int64_t y1;
    ASSERT_EQ(call_y(j, 64, &y1), IRON_ECOMPILE);
    char want[300];
    snprintf(want, sizeof want, "%s:4:", f.src);
    ASSERT_CONTAINS(iron_last_error(), want);
    ASSERT_CONTAINS(iron_last_error(), "not_declared");
    iron_jit_free(j);
    test_remove_dir(f.dir);
}

TEST(kfile_fault_names_the_file_and_line)
{
    if (TEST_UNDER_TSAN)
        return;  /* kernel faults leave through siglongjmp (test_faults.c) */
    kfiles f;
    files_init(&f, "kfile-fault");
    put(f.src, "#include <stdint.h>\n"
               "void scale(const int32_t *x, int32_t *y, int32_t n)\n"
               "{\n"
               "    (void)n;\n"
               "    *(volatile int32_t *)0 = x[0];\n"
               "    y[0] = 0;\n"
               "}\n");
    iron_jit *j = scale_jit(&f, NULL);
    int64_t y1;
    ASSERT_EQ(call_y(j, 64, &y1), IRON_EKERNEL);
    /* Fault reports name files by their base names. */
    ASSERT_CONTAINS(iron_last_error(), "in scale at scale.c:5");
    iron_jit_free(j);
    test_remove_dir(f.dir);
}

/* In one jit: a new specialization reads the file again and sees an
 * edited header; a specialization built already keeps its kernel. */
TEST(kfile_edits_reach_the_next_specialization)
{
    kfiles f;
    files_init(&f, "kfile-edit");
    iron_jit *j = scale_jit(&f, NULL);
    ASSERT_EQ(call_y1(j, 64), 103);
    /* A new shape, nothing edited: the kernel kept in memory. */
    ASSERT_EQ(call_y1(j, 96), 103);
    ASSERT_EQ(test_stats(j).kernel_compiles, 1);

    put(f.header, "#define FACTOR 5\n");
    ASSERT_EQ(call_y1(j, 128), 105);
    ASSERT_EQ(test_stats(j).kernel_compiles, 2);
    ASSERT_EQ(call_y1(j, 64), 103);      /* built before the edit */

    put(f.lib, "#define OFFSET 7\n");    /* the include folder's header */
    ASSERT_EQ(call_y1(j, 160), 12);
    ASSERT_EQ(test_stats(j).kernel_compiles, 3);

    /* The file itself: its text is the kernel's. */
    char *edited = strdup(scale_src);
    ASSERT(edited != NULL);
    *strstr(edited, "+ OFFSET") = '-';
    put(f.src, edited);
    free(edited);
    ASSERT_EQ(call_y1(j, 192), -2);
    ASSERT_EQ(test_stats(j).kernel_compiles, 4);
    iron_jit_free(j);
    test_remove_dir(f.dir);
}

/* New jits (as new processes) with one disk cache: a hit while nothing
 * changed, a miss naming the header once it changed. */
TEST(kfile_disk_cache_checks_the_headers)
{
    kfiles f;
    files_init(&f, "kfile-disk");
    char *cache = test_cache_temp_dir("kfile", "cache");
    iron_jit *j = scale_jit(&f, cache);
    ASSERT_EQ(call_y1(j, 64), 103);
    ASSERT_EQ(test_stats(j).disk_writes, 1);
    iron_jit_free(j);

    j = scale_jit(&f, cache);
    ASSERT_EQ(call_y1(j, 128), 103);     /* another shape: the same kernel */
    ASSERT_EQ(test_stats(j).disk_hits, 1);
    ASSERT_EQ(test_stats(j).kernel_compiles, 0);
    iron_jit_free(j);

    put(f.lib, "#define OFFSET 1\n");
    test_catch_warnings();
    j = scale_jit(&f, cache);
    ASSERT_EQ(call_y1(j, 64), 4);
    ASSERT_EQ(test_stats(j).disk_hits, 0);
    ASSERT_EQ(test_stats(j).disk_misses, 1);
    ASSERT_EQ(test_stats(j).kernel_compiles, 1);
    iron_jit_free(j);
    test_drop_dir(cache);
    test_remove_dir(f.dir);
}

TEST(kernel_add_cflags_appends)
{
    kfiles f;
    files_init(&f, "kfile-flags");
    put(f.header, "#define FACTOR (A + B)\n");
    f.cflags = "-DA=2";
    f.cflags2 = "-DB=4";
    iron_jit *j = scale_jit(&f, NULL);
    ASSERT_EQ(call_y1(j, 64), 106);
    iron_jit_free(j);
    test_remove_dir(f.dir);
}

/* ---- errors -------------------------------------------------------------- */

/* The first call's status and message for files f. */
static iron_status first_call(kfiles *f)
{
    iron_jit *j = scale_jit(f, NULL);
    iron_tensor *x = test_arange(IRON_INT32, 64), *y = test_zeros(IRON_INT32, 64);
    iron_status s = IRON_CALL(j, x, y);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
    return s;
}

TEST(kfile_errors_name_the_kernel_and_the_file)
{
    kfiles f;
    files_init(&f, "kfile-bad");
    char path[300];

    f.path = NULL;
    ASSERT_EQ(first_call(&f), IRON_EINVAL);
    ASSERT_CONTAINS(iron_last_error(), "kernel 'scale': path is NULL");

    snprintf(path, sizeof path, "%s/missing.c", f.dir);
    f.path = path;
    ASSERT_EQ(first_call(&f), IRON_EIO);
    ASSERT_CONTAINS(iron_last_error(), "kernel 'scale': cannot read");
    ASSERT_CONTAINS(iron_last_error(), path);
    ASSERT_CONTAINS(iron_last_error(), "No such file or directory");

    f.path = f.kdir;
    ASSERT_EQ(first_call(&f), IRON_EIO);
    ASSERT_CONTAINS(iron_last_error(), "is not a regular file");

    snprintf(path, sizeof path, "%s/empty.c", f.dir);
    put(path, "");
    f.path = path;
    ASSERT_EQ(first_call(&f), IRON_EINVAL);
    ASSERT_CONTAINS(iron_last_error(), "is empty");

    snprintf(path, sizeof path, "%s/nul.c", f.dir);
    test_spit(path, "int x;\n\0int y;\n", 15);
    ASSERT_EQ(first_call(&f), IRON_EINVAL);
    ASSERT_CONTAINS(iron_last_error(), "holds a NUL byte (at offset 7)");

    f.path = f.src;
    snprintf(path, sizeof path, "%s/no-such-folder", f.dir);
    f.incs[0] = path;
    ASSERT_EQ(first_call(&f), IRON_EINVAL);
    ASSERT_CONTAINS(iron_last_error(), "include folder");
    ASSERT_CONTAINS(iron_last_error(), path);

    f.incs[0] = f.lib;               /* a file, not a folder */
    ASSERT_EQ(first_call(&f), IRON_EINVAL);
    ASSERT_CONTAINS(iron_last_error(), "not a folder");

    f.incs[0] = NULL;
    ASSERT_EQ(first_call(&f), IRON_EINVAL);
    ASSERT_CONTAINS(iron_last_error(), "include folder 0 is NULL");

    f.ninc = -1;
    ASSERT_EQ(first_call(&f), IRON_EINVAL);
    ASSERT_CONTAINS(iron_last_error(), "-1 include folders");
    f.ninc = 65;
    ASSERT_EQ(first_call(&f), IRON_EINVAL);
    ASSERT_CONTAINS(iron_last_error(), "65 include folders");
    test_remove_dir(f.dir);
}
