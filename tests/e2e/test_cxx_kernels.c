/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_cxx_kernels.c - C++ kernels in designs: a .cc file (templates,
 * constexpr, std::array) runs on npu1 and npu2 and sees __AIE_ARCH__ 20
 * and 21; a string source made C++ with iron_kernel_set_lang and that
 * function's errors; a C++ syntax error named with the file's line; a
 * missing IRON_CXX; the disk cache keys by language and by C++ compiler
 * (C kernels unaffected); the AIE API's control words are each worker's
 * own, also for two workers on one lane; iron__aie_fault ends the call as
 * a kernel fault naming the kernel's file:line.
 */
#include <unistd.h>

#include "test.h"

enum { TILE = 16 };

static const char scale_cc[] =
    "#include <array>\n"
    "#include <cstdint>\n"
    "#include <aie_api/aie.hpp>\n"
    "template <typename T, int F> constexpr T times(T v) { return v * F; }\n"
    "constexpr std::array<int32_t, 4> offsets{ 1, 2, 3, 4 };\n"
    "extern \"C\" {\n"
    "void scale(const int32_t *x, int32_t *y, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        y[i] = times<int32_t, 3>(x[i]) + offsets[i % 4] +\n"
    "               1000 * __AIE_ARCH__;\n"
    "}\n"
    "}\n";

/* What a design is made of. */
typedef struct kdesc {
    const char *path;          /* the C++ kernel's file, or NULL: text */
    const char *text;          /* its text otherwise */
    iron_kernel_lang lang;     /* set when not AUTO */
    const char *ctext;         /* a C kernel in front of it, or NULL */
    iron_kernel_lang clang;    /* ... its language when not AUTO */
} kdesc;

/* in -> [c kernel ->] scale -> out, one tile at a time. */
static int scale_design(iron_design *d, void *user)
{
    const kdesc *u = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_fifo *src = in;
    if (u->ctext) {
        iron_fifo *mid = iron_fifo_new(d, "mid", IRON_INT32,
                                       IRON_SHAPE(TILE), 2);
        iron_kernel *c = iron_kernel_new(d, "inc", u->ctext,
                                         "int32*, int32*, int32");
        if (u->clang)
            iron_kernel_set_lang(c, u->clang);
        iron_worker *w = iron_worker_new(
            d, "inc", c, n / TILE,
            IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                      iron_arg_fifo(iron_fifo_prod(mid)),
                      iron_arg_int(TILE)));
        iron_rt_start(d, w);
        src = mid;
    }
    iron_kernel *k =
        u->path ? iron_kernel_new_file(d, "scale", u->path,
                                       "int32*, int32*, int32", 0, NULL)
                : iron_kernel_new(d, "scale", u->text,
                                  "int32*, int32*, int32");
    if (u->lang)
        iron_kernel_set_lang(k, u->lang);
    iron_worker *w = iron_worker_new(
        d, "scale", k, n / TILE,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(src)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(TILE)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static iron_jit *new_jit(kdesc *u, const char *cache_dir)
{
    iron_jit_options o = {
        .size = sizeof o,
        .name = "scale",
        .args = "in x: int32[N], out y: int32[N]",
        .user = u,
        .disk_cache = cache_dir ? 1 : -1,
        .cache_dir = cache_dir,
    };
    return test_new_jit(scale_design, &o);
}

/* One call on 64 elements: y = 3 (x + inc) + offset + 1000 arch. */
static iron_status call_check(iron_jit *j, int arch, int inc)
{
    const int64_t n = 64;
    iron_tensor *x = test_arange(IRON_INT32, n), *y = test_zeros(IRON_INT32, n);
    iron_status s = test_keep(IRON_CALL(j, x, y));
    if (s == IRON_OK)
        for (int64_t i = 0; i < n; i++)
            ASSERT_EQ((int64_t)test_at(y, i),
                      3 * (i + inc) + (i % 4) + 1 + 1000 * arch);
    iron_tensor_free(x);
    iron_tensor_free(y);
    return s;
}

/* __AIE_ARCH__ of the device in force. */
static int default_arch(void)
{
    iron_device *dev = NULL;
    ASSERT_OK(iron_device_get_current(&dev));
    iron_device_info info = { .size = sizeof info };
    ASSERT_OK(iron_device_get_info(dev, &info));
    return strncmp(info.family, "npu1", 4) == 0 ? 20 : 21;
}

static uint64_t compiles(const iron_jit *j)
{
    iron_jit_stats st = { .size = sizeof st };
    ASSERT_OK(iron_jit_get_stats(j, &st));
    return st.kernel_compiles;
}

static void put(const char *path, const char *text)
{
    test_spit(path, text, strlen(text));
}

TEST(e2e_cxx_kernel_file_on_npu1_and_npu2)
{
    char path[256];
    snprintf(path, sizeof path, "%s/scale.cc", test_temp_dir("cxxfile"));
    put(path, scale_cc);
    kdesc u = { .path = path };
    IRON_WITH_DEVICE("npu1")
    {
        iron_jit *j = new_jit(&u, NULL);
        ASSERT_OK(call_check(j, 20, 0));
        iron_jit_free(j);
    }
    IRON_WITH_DEVICE("npu2")
    {
        iron_jit *j = new_jit(&u, NULL);
        ASSERT_OK(call_check(j, 21, 0));
        iron_jit_free(j);
    }
}

TEST(e2e_cxx_string_source_with_set_lang)
{
    kdesc u = { .text = scale_cc, .lang = IRON_KERNEL_LANG_CXX };
    iron_jit *j = new_jit(&u, NULL);
    ASSERT_OK(call_check(j, default_arch(), 0));
    iron_jit_free(j);
    /* Left to AUTO, a string source is C, which this is not. */
    u.lang = IRON_KERNEL_LANG_AUTO;
    j = new_jit(&u, NULL);
    ASSERT_STATUS(call_check(j, 20, 0), IRON_ECOMPILE);
    ASSERT_MSG("kernel 'scale': C compiler failed");
    iron_jit_free(j);
    /* A .cc file set to C is compiled as C. */
    char path[256];
    snprintf(path, sizeof path, "%s/scale.cc", test_temp_dir("cxxlang"));
    put(path, scale_cc);
    kdesc f = { .path = path, .lang = IRON_KERNEL_LANG_C };
    j = new_jit(&f, NULL);
    ASSERT_STATUS(call_check(j, 20, 0), IRON_ECOMPILE);
    ASSERT_MSG("C compiler failed");
    iron_jit_free(j);
}

static iron_kernel *set_lang_kernel;
static iron_status set_lang_status[3];

static int set_lang_errors(iron_design *d, void *user)
{
    (void)user;
    iron_kernel *k = iron_kernel_new(d, "k", "void k(void) {}\n", "");
    iron_kernel *core = iron_kernel_new_core(d, "b", "void b(void) {}\n", "");
    set_lang_kernel = k;
    set_lang_status[0] = iron_kernel_set_lang(core, IRON_KERNEL_LANG_C);
    set_lang_status[1] = iron_kernel_set_lang(k, (iron_kernel_lang)7);
    return 0;
}

static int set_lang_core(iron_design *d, void *user)
{
    (void)user;
    iron_kernel *core = iron_kernel_new_core(d, "b", "void b(void) {}\n", "");
    set_lang_status[2] = iron_kernel_set_lang(core, IRON_KERNEL_LANG_CXX);
    return 0;
}

TEST(e2e_cxx_set_lang_errors)
{
    ASSERT_FAILS(iron_kernel_set_lang(NULL, IRON_KERNEL_LANG_CXX),
                 IRON_EINVAL, "iron_kernel_set_lang: kernel is NULL");
    iron_jit_options o = { .size = sizeof o, .name = "lang",
                           .args = "in x: int32[N]" };
    iron_jit *j = test_new_jit(set_lang_errors, &o);
    iron_tensor *x = test_zeros(IRON_INT32, 16);
    ASSERT_STATUS(IRON_CALL(j, x), IRON_EINVAL);
    ASSERT_MSG("kernel 'k': language 7 is not one of IRON_KERNEL_LANG_AUTO");
    ASSERT_EQ(set_lang_status[0], IRON_OK);
    ASSERT_EQ(set_lang_status[1], IRON_EINVAL);
    iron_jit_free(j);
    j = test_new_jit(set_lang_core, &o);
    ASSERT_STATUS(IRON_CALL(j, x), IRON_EINVAL);
    ASSERT_MSG("core body 'b': a core body's source is C");
    ASSERT_EQ(set_lang_status[2], IRON_EINVAL);
    iron_jit_free(j);
    iron_tensor_free(x);
}

TEST(e2e_cxx_syntax_error_names_file_line)
{
    char path[256];
    snprintf(path, sizeof path, "%s/broken.cc", test_temp_dir("cxxerr"));
    put(path, "#include <cstdint>\n"
              "extern \"C\" void scale(const int32_t *x, int32_t *y, "
              "int32_t n) {\n"
              "    y[0] = x[0] +;\n"
              "}\n");
    setenv("LC_ALL", "C", 1);
    kdesc u = { .path = path };
    iron_jit *j = new_jit(&u, NULL);
    ASSERT_STATUS(call_check(j, 20, 0), IRON_ECOMPILE);
    ASSERT_MSG("kernel 'scale': C++ compiler failed");
    ASSERT_MSG("broken.cc:3:");
    iron_jit_free(j);
}

TEST(e2e_cxx_missing_compiler_is_named)
{
    setenv("IRON_CXX", "/nonexistent/g++", 1);
    kdesc u = { .text = scale_cc, .lang = IRON_KERNEL_LANG_CXX };
    iron_jit *j = new_jit(&u, NULL);
    ASSERT_STATUS(call_check(j, 20, 0), IRON_ECOMPILE);
    ASSERT_MSG("C++ compiler '/nonexistent/g++'");
    ASSERT_MSG("IRON_CXX");
    iron_jit_free(j);
    unsetenv("IRON_CXX");
}

/* Valid as C and as C++: the language alone tells the two apart. */
static const char inc_src[] =
    "#include <stdint.h>\n"
    "void inc(const int32_t *x, int32_t *y, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        y[i] = x[i] + 5;\n"
    "}\n";

/* A new jit on one disk cache each time: what it compiles is what the
 * cache could not give it. */
TEST(e2e_cxx_cache_key_language_and_compiler)
{
    const char *cache = test_temp_dir("cxxcache");
    kdesc u = { .text = scale_cc, .lang = IRON_KERNEL_LANG_CXX,
                .ctext = inc_src };
    /* Each step: the compiler command, the C kernel's language, the
     * device, and how many kernels the cache cannot give. */
    static const struct {
        const char *cxx;
        iron_kernel_lang clang;
        const char *device;
        int arch;
        uint64_t compiles;
    } steps[] = {
        { NULL, IRON_KERNEL_LANG_AUTO, "npu1", 20, 2 },
        { NULL, IRON_KERNEL_LANG_AUTO, "npu1", 20, 0 },
        /* Another C++ compiler command: the C++ kernel only. */
        { "env c++", IRON_KERNEL_LANG_AUTO, "npu1", 20, 1 },
        /* The same C text compiled as C++ is another kernel. */
        { "env c++", IRON_KERNEL_LANG_CXX, "npu1", 20, 1 },
        /* Another architecture: both again. */
        { "env c++", IRON_KERNEL_LANG_CXX, "npu2", 21, 2 },
        { "env c++", IRON_KERNEL_LANG_CXX, "npu2", 21, 0 },
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        if (steps[i].cxx)
            setenv("IRON_CXX", steps[i].cxx, 1);
        else
            unsetenv("IRON_CXX");
        u.clang = steps[i].clang;
        ASSERT_OK(iron_device_push(steps[i].device));
        iron_jit *j = new_jit(&u, cache);
        ASSERT_OK(call_check(j, steps[i].arch, 5));
        if (compiles(j) != steps[i].compiles)
            TEST_FAIL_("step %zu: %llu compiles, expected %llu", i,
                       (unsigned long long)compiles(j),
                       (unsigned long long)steps[i].compiles);
        iron_jit_free(j);
        ASSERT_OK(iron_device_pop());
    }
    unsetenv("IRON_CXX");
}

/* ---- the AIE API's control words and faults --------------------------- */

/* Two core bodies (C: the words are the shim's, for every kernel) in a
 * chain, each setting word `w` of its core to `v` and checking it after
 * each acquire, where the other runs in between on the same lane.  Each
 * output element carries how many times the words were not as left. */
static const char ctl_body[] =
    "#include <stdint.h>\n"
    "unsigned *iron__aie_ctl(void);\n"
    "void body(iron_objfifo *in, iron_objfifo *out, int32_t w, int32_t v)\n"
    "{\n"
    "    int32_t bad = 0;\n"
    "    unsigned *c = iron__aie_ctl();\n"
    "    bad += c[0] != 0 || c[1] != 0 || c[2] != 0 || c[3] != 0;\n"
    "    c[w] = (unsigned)v;\n"
    "    for (;;) {\n"
    "        int32_t *x = (int32_t *)iron_acquire(in, 1)[0];\n"
    "        bad += iron__aie_ctl()[w] != (unsigned)v;\n"
    "        int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
    "        bad += iron__aie_ctl()[w] != (unsigned)v;\n"
    "        for (int i = 0; i < 16; i++)\n"
    "            y[i] = x[i] + 1000 * bad;\n"
    "        iron_release(in, 1);\n"
    "        iron_release(out, 1);\n"
    "    }\n"
    "}\n";

static int ctl_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *f[3];
    const char *names[3] = { "in", "mid", "out" };
    for (int i = 0; i < 3; i++)
        f[i] = iron_fifo_new(d, names[i], IRON_INT32, IRON_SHAPE(TILE), 1);
    iron_kernel *k = iron_kernel_new_core(d, "body", ctl_body,
                                          "fifo, fifo, int32, int32");
    for (int i = 0; i < 2; i++)
        iron_worker_new(d, i ? "second" : "first", k, 0,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(f[i])),
                                  iron_arg_fifo(iron_fifo_prod(f[i + 1])),
                                  iron_arg_int(0), iron_arg_int(11 + 22 * i)));
    iron_rt_fill(d, iron_fifo_prod(f[0]), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(f[2]), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(e2e_aie_ctl_is_each_workers_own)
{
    iron_jit_options o = { .size = sizeof o, .name = "ctl",
                           .args = "in x: int32[N], out y: int32[N]" };
    iron_jit *j = test_new_jit(ctl_design, &o);
    const int64_t n = 256;
    iron_tensor *x = test_arange(IRON_INT32, n), *y = test_zeros(IRON_INT32, n);
    /* One lane: both fibers on one thread, switching at every acquire. */
    for (int threads = 1; threads <= 2; threads++) {
        iron_launch_config c = { .size = sizeof c, .threads = threads };
        ASSERT_OK(iron_jit_launch(j, &c, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(x, y)));
        for (int64_t i = 0; i < n; i++)
            ASSERT_EQ((int64_t)test_at(y, i), i);
    }
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}

TEST(e2e_aie_fault_names_kernel_file_line)
{
    char path[256];
    snprintf(path, sizeof path, "%s/fault.cc", test_temp_dir("cxxfault"));
    put(path, "#include <cstdint>\n"
              "extern \"C\" {\n"
              "[[noreturn]] void iron__aie_fault(const char *, const char *,\n"
              "                                  unsigned);\n"
              "void scale(const int32_t *x, int32_t *y, int32_t n)\n"
              "{\n"
              "    if (x[0] >= 32)\n"
              "        iron__aie_fault(\"aie::load_v: address not aligned\",\n"
              "                        __FILE__, __LINE__);\n"
              "    for (int32_t i = 0; i < n; i++) y[i] = x[i];\n"
              "}\n"
              "}\n");
    kdesc u = { .path = path };
    iron_jit *j = new_jit(&u, NULL);
    ASSERT_STATUS(call_check(j, 20, 0), IRON_EKERNEL);
    ASSERT_MSG("aie::load_v: address not aligned at ");
    ASSERT_MSG("fault.cc:9");
    ASSERT_MSG("'scale'");
    iron_jit_free(j);
}
