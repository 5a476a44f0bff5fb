/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_kernel_header.c - <iron/iron_kernel.h>: its bfloat16 conversions
 * against the library's bit for bit, its saturating arithmetic and srs,
 * the copy built into the library, and kernels that include it compiled
 * through a jit (from the compiler, then from the disk cache).
 */
#include <ftw.h>
#include <math.h>

#include "compile/compile.h"
#include "compile/kheader.h"
#include "iron/iron_kernel.h"
#include "test.h"

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* ---- bfloat16 ----------------------------------------------------------- */

TEST(kheader_bf16_to_float_matches_library_for_every_bf16)
{
    for (uint32_t h = 0; h <= 0xFFFFu; h++) {
        uint32_t mine = fbits(iron_k_bf16_to_float((iron_bf16)h));
        uint32_t lib = fbits(iron_bf16_to_float((iron_bf16)h));
        if (mine != lib)
            TEST_FAIL_("bf16 0x%04x: header gives 0x%08x, library 0x%08x",
                       (unsigned)h, (unsigned)mine, (unsigned)lib);
        /* and back: every bfloat16 is a float, so the round trip is exact
         * (NaNs keep their bits: they are already quiet or get quieted
         * the same way by both) */
        iron_bf16 back = iron_k_bf16_from_float(bitsf(mine));
        ASSERT_EQ(back, iron_bf16_from_float(bitsf(lib)));
    }
}

static void same_from_float(uint32_t u)
{
    iron_bf16 mine = iron_k_bf16_from_float(bitsf(u));
    iron_bf16 lib = iron_bf16_from_float(bitsf(u));
    if (mine != lib)
        TEST_FAIL_("float 0x%08x: header gives 0x%04x, library 0x%04x",
                   (unsigned)u, (unsigned)mine, (unsigned)lib);
}

TEST(kheader_bf16_from_float_matches_library_on_a_large_sample)
{
    /* Every upper half with the lower halves where rounding decides
     * (below, at and above the tie, the extremes): all ties, all carries
     * into the exponent, every NaN payload class and both infinities. */
    static const uint32_t lows[] = { 0x0000, 0x0001, 0x3FFF, 0x7FFF,
                                     0x8000, 0x8001, 0xC000, 0xFFFF };
    for (uint32_t hi = 0; hi <= 0xFFFFu; hi++)
        for (size_t i = 0; i < sizeof lows / sizeof lows[0]; i++)
            same_from_float(hi << 16 | lows[i]);
    /* and 16.7 million floats spread over the whole range (a prime
     * stride walks through every low half) */
    for (uint64_t u = 0; u <= 0xFFFFFFFFu; u += 251)
        same_from_float((uint32_t)u);
    ASSERT_EQ(iron_k_bf16_from_float(1.0f), 0x3F80);
    ASSERT_EQ(iron_k_bf16_from_float(-INFINITY), 0xFF80);
    /* a NaN whose payload is only in the dropped bits stays a NaN */
    ASSERT_EQ(iron_k_bf16_from_float(bitsf(0x7F800001u)), 0x7FC0);
}

/* ---- integer helpers ---------------------------------------------------- */

TEST(kheader_saturating_arithmetic)
{
    ASSERT_EQ(iron_k_sat_i8(200), 127);
    ASSERT_EQ(iron_k_sat_i8(-200), -128);
    ASSERT_EQ(iron_k_sat_i8(-5), -5);
    ASSERT_EQ(iron_k_sat_u8(-1), 0);
    ASSERT_EQ(iron_k_sat_u8(256), 255);
    ASSERT_EQ(iron_k_sat_i16(40000), 32767);
    ASSERT_EQ(iron_k_sat_i16(-40000), -32768);
    ASSERT_EQ(iron_k_sat_u16(70000), 65535);
    ASSERT_EQ(iron_k_sat_i32(INT64_MAX), INT32_MAX);
    ASSERT_EQ(iron_k_sat_i32(INT64_MIN), INT32_MIN);
    ASSERT_EQ(iron_k_sat_u32(-7), 0);
    ASSERT_EQ(iron_k_sat_u32(INT64_MAX), UINT32_MAX);

    ASSERT_EQ(iron_k_add_sat_i8(100, 100), 127);
    ASSERT_EQ(iron_k_sub_sat_i8(-100, 100), -128);
    ASSERT_EQ(iron_k_mul_sat_i8(-128, -1), 127);
    ASSERT_EQ(iron_k_mul_sat_i8(-12, 10), -120);
    ASSERT_EQ(iron_k_add_sat_u8(200, 100), 255);
    ASSERT_EQ(iron_k_sub_sat_u8(3, 5), 0);
    ASSERT_EQ(iron_k_mul_sat_u8(16, 16), 255);
    ASSERT_EQ(iron_k_add_sat_i16(30000, 30000), 32767);
    ASSERT_EQ(iron_k_sub_sat_i16(-30000, 30000), -32768);
    ASSERT_EQ(iron_k_mul_sat_i16(-300, 300), -32768);
    ASSERT_EQ(iron_k_add_sat_u16(65000, 1000), 65535);
    ASSERT_EQ(iron_k_sub_sat_u16(1, 2), 0);
    ASSERT_EQ(iron_k_mul_sat_u16(256, 256), 65535);
    ASSERT_EQ(iron_k_add_sat_i32(INT32_MAX, 1), INT32_MAX);
    ASSERT_EQ(iron_k_sub_sat_i32(INT32_MIN, 1), INT32_MIN);
    ASSERT_EQ(iron_k_mul_sat_i32(INT32_MIN, -1), INT32_MAX);
    ASSERT_EQ(iron_k_mul_sat_i32(-3, 7), -21);
    ASSERT_EQ(iron_k_add_sat_u32(UINT32_MAX, 1), UINT32_MAX);
    ASSERT_EQ(iron_k_sub_sat_u32(0, 1), 0);
    ASSERT_EQ(iron_k_mul_sat_u32(UINT32_MAX, UINT32_MAX), UINT32_MAX);
    ASSERT_EQ(iron_k_mul_sat_u32(65536, 65535), 65536u * 65535u);

    ASSERT_EQ(iron_k_abs_sat_i8(-128), 127);
    ASSERT_EQ(iron_k_abs_sat_i16(-32768), 32767);
    ASSERT_EQ(iron_k_abs_sat_i32(INT32_MIN), INT32_MAX);
    ASSERT_EQ(iron_k_abs_sat_i32(-9), 9);
    ASSERT_EQ(iron_k_min_i32(-3, 2), -3);
    ASSERT_EQ(iron_k_max_i32(-3, 2), 2);
    ASSERT_EQ(iron_k_clamp_i32(9, -2, 5), 5);
    ASSERT_EQ(iron_k_clamp_i32(-9, -2, 5), -2);
    ASSERT_EQ(iron_k_clamp_i64(INT64_MIN, -1, 1), -1);
    ASSERT_EQ(iron_k_min_i64(INT64_MIN, 0), INT64_MIN);
    ASSERT_EQ(iron_k_max_i64(INT64_MAX, 0), INT64_MAX);
    ASSERT_DBL_NEAR(iron_k_clamp_f32(7.5f, 0.0f, 6.0f), 6.0, 0);
    ASSERT_DBL_NEAR(iron_k_min_f32(1.5f, -2.0f), -2.0, 0);
    ASSERT_DBL_NEAR(iron_k_max_f32(1.5f, -2.0f), 1.5, 0);
    /* a NaN bound is ignored, a NaN value passes through */
    ASSERT_DBL_NEAR(iron_k_max_f32(1.5f, NAN), 1.5, 0);
    ASSERT(isnan(iron_k_clamp_f32(NAN, 0.0f, 1.0f)));
}

/* round(v / 2^shift) with ties up, by long division in long double (exact
 * for the values below). */
static int64_t shift_round_ref(int64_t v, int shift)
{
    long double q = (long double)v / (long double)((uint64_t)1 << shift);
    return (int64_t)floorl(q + 0.5L);
}

TEST(kheader_shift_round_and_srs)
{
    ASSERT_EQ(iron_k_shift_round(5, 1), 3);
    ASSERT_EQ(iron_k_shift_round(-5, 1), -2);
    ASSERT_EQ(iron_k_shift_round(-6, 1), -3);
    ASSERT_EQ(iron_k_shift_round(7, 0), 7);
    ASSERT_EQ(iron_k_shift_round(7, -3), 7);
    ASSERT_EQ(iron_k_shift_round(INT64_MAX, 1), (int64_t)1 << 62);
    ASSERT_EQ(iron_k_shift_round(INT64_MIN, 63), -1);
    ASSERT_EQ(iron_k_shift_round(INT64_MIN, 64), 0);
    ASSERT_EQ(iron_k_shift_round(-1, 63), 0);
    for (int64_t v = -70000; v <= 70000; v += 7)
        for (int s = 1; s < 20; s++)
            if (iron_k_shift_round(v, s) != shift_round_ref(v, s))
                TEST_FAIL_("shift_round(%lld, %d) = %lld, expected %lld",
                           (long long)v, s,
                           (long long)iron_k_shift_round(v, s),
                           (long long)shift_round_ref(v, s));
    ASSERT_EQ(iron_k_srs_i8(1000, 2), 127);
    ASSERT_EQ(iron_k_srs_i8(-1000, 2), -128);
    ASSERT_EQ(iron_k_srs_i8(-18, 2), -4);  /* -4.5 rounds up to -4 */
    ASSERT_EQ(iron_k_srs_u8(-18, 2), 0);
    ASSERT_EQ(iron_k_srs_u8(1018, 2), 255);
    ASSERT_EQ(iron_k_srs_i16((int64_t)1 << 40, 20), 32767);
    ASSERT_EQ(iron_k_srs_i16(98304, 2), 24576);
    ASSERT_EQ(iron_k_srs_i32(INT64_MIN, 8), INT32_MIN);
}

/* ---- the library's copy ------------------------------------------------- */

/* The text the library hands to kernels is the header as it is in the
 * source tree (the build turned it into a string, nothing lost). */
TEST(kheader_built_in_text_is_the_header)
{
    size_t len = 0, flen = 0;
    const char *text = iron__kheader_text(&len);
    unsigned char *file = test_slurp("include/iron/iron_kernel.h", &flen);
    ASSERT_EQ(len, flen);
    ASSERT(memcmp(text, file, len) == 0);
    ASSERT_EQ(strlen(text), len);
    free(file);
}

/* ---- kernels that include it, through a jit ---------------------------- */

typedef struct one_kernel {
    iron_dtype in, out;
    const char *entry, *source, *decl, *args;
} one_kernel;

/* One worker runs the kernel on objects of `obj` elements streamed from
 * input to output. */
static int one_kernel_design(iron_design *d, void *user)
{
    const one_kernel *ok = user;  /* one of the constants below */
    int64_t n = iron_design_arg_numel(d, 0), obj = 256;
    iron_fifo *in = iron_fifo_new(d, "in", ok->in, IRON_SHAPE(obj), 2);
    iron_fifo *out = iron_fifo_new(d, "out", ok->out, IRON_SHAPE(obj), 2);
    iron_kernel *k = iron_kernel_new(d, ok->entry, ok->source, ok->decl);
    iron_worker *w = iron_worker_new(
        d, "w", k, n / obj,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(obj)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static const one_kernel srs_kernel = {
    IRON_INT32, IRON_INT8, "scale_down",
    "#include <iron/iron_kernel.h>\n"
    "void scale_down(const int32_t *in, int8_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = iron_k_srs_i8(in[i], 4);\n"
    "}\n",
    "int32*, int8*, int32",
    "in x: int32[N], out y: int8[N]",
};

static const one_kernel bf16_kernel = {
    IRON_BFLOAT16, IRON_BFLOAT16, "triple",
    "#include <iron/iron_kernel.h>\n"
    "void triple(const iron_bf16 *in, iron_bf16 *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = iron_k_bf16_from_float(\n"
    "            3.0f * iron_k_bf16_to_float(in[i]));\n"
    "}\n",
    "bfloat16*, bfloat16*, int32",
    "in x: bfloat16[N], out y: bfloat16[N]",
};

static iron_jit *one_kernel_jit(const one_kernel *ok, const char *cache_dir)
{
    iron_jit_options o = { .size = sizeof o, .name = ok->entry,
                           .args = ok->args,
                           .user = (void *)(uintptr_t)ok };
    if (cache_dir) {
        o.disk_cache = 1;
        o.cache_dir = cache_dir;
    }
    return test_new_jit(one_kernel_design, &o);
}

TEST(kheader_kernel_srs_through_jit)
{
    const int64_t n = 4096;
    iron_jit *j = one_kernel_jit(&srs_kernel, NULL);
    iron_tensor *in = test_randint(IRON_INT32, IRON_SHAPE(n), -4000, 4000, 3);
    iron_tensor *out = test_zeros(IRON_INT8, n);
    ASSERT_OK(test_launch(j, 0, IRON_TENSORS(in, out)));
    const int32_t *x = iron_tensor_data(in);
    const int8_t *y = iron_tensor_data(out);
    int clamped = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t want = shift_round_ref(x[i], 4);
        want = want > 127 ? 127 : want < -128 ? -128 : want;
        clamped += want == 127 || want == -128;
        if (y[i] != want)
            TEST_FAIL_("element %lld: srs(%d, 4) gave %d, expected %lld",
                       (long long)i, x[i], y[i], (long long)want);
    }
    ASSERT_GT(clamped, 0);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

static iron_tensor *bf16_input(int64_t n)
{
    iron_tensor *t = test_zeros(IRON_BFLOAT16, n);
    iron_bf16 *v = iron_tensor_data(t);
    for (int64_t i = 0; i < n; i++)
        v[i] = iron_bf16_from_float((float)(i - n / 2) * 0.37f);
    return t;
}

static void check_tripled(iron_tensor *in, iron_tensor *out, int64_t n)
{
    const iron_bf16 *x = iron_tensor_data(in);
    const iron_bf16 *y = iron_tensor_data(out);
    for (int64_t i = 0; i < n; i++) {
        iron_bf16 want = iron_bf16_from_float(3.0f * iron_bf16_to_float(x[i]));
        if (y[i] != want)
            TEST_FAIL_("element %lld: 0x%04x, expected 0x%04x",
                       (long long)i, y[i], want);
    }
}

static char found_key[64];
static int key_files;

static int look_for_key(const char *path, const struct stat *st, int type,
                        struct FTW *f)
{
    (void)st;
    (void)f;
    if (type != FTW_F)
        return 0;
    size_t len = 0;
    unsigned char *buf = test_slurp(path, &len);
    buf[len] = '\0';
    for (size_t i = 0; i + strlen(found_key) <= len; i++)
        if (memcmp(buf + i, found_key, strlen(found_key)) == 0) {
            key_files++;
            break;
        }
    free(buf);
    return 0;
}

/* A jit's first launch compiles the kernel and publishes it; a second jit
 * finds it on disk.  Were the built-in header recorded as an included
 * file, its path (in the build's temporary folder, gone by then) would
 * make every entry stale.  The entry's key names the header's hash
 * instead, so another header text cannot reuse it. */
TEST(kheader_kernel_bf16_through_jit_and_disk_cache)
{
    const int64_t n = 2048;
    char *dir = test_cache_temp_dir("iron-test", "kheader");
    iron_tensor *in = bf16_input(n);
    iron_tensor *out = test_zeros(IRON_BFLOAT16, n);

    iron_jit *j = one_kernel_jit(&bf16_kernel, dir);
    ASSERT_OK(test_launch(j, 0, IRON_TENSORS(in, out)));
    check_tripled(in, out, n);
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.kernel_compiles, 1);
    ASSERT_EQ(st.disk_writes, 1);
    iron_jit_free(j);

    iron_tensor_free(out);
    out = test_zeros(IRON_BFLOAT16, n);
    j = one_kernel_jit(&bf16_kernel, dir);
    ASSERT_OK(test_launch(j, 0, IRON_TENSORS(in, out)));
    check_tripled(in, out, n);
    st = test_stats(j);
    ASSERT_EQ(st.disk_hits, 1);
    ASSERT_EQ(st.kernel_compiles, 0);
    iron_jit_free(j);

    snprintf(found_key, sizeof found_key, "kernel-header %016llx",
             (unsigned long long)iron__kheader_hash());
    key_files = 0;
    ASSERT_EQ(nftw(dir, look_for_key, 8, FTW_PHYS), 0);
    ASSERT_GE(key_files, 1);

    iron_tensor_free(in);
    iron_tensor_free(out);
    test_drop_dir(dir);
}

/* The header's copy lives in the build's temporary folder: it is not
 * among the kernel's recorded headers, and nothing is left behind. */
TEST(kheader_compile_records_no_temporary_header)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, "/tmp/iron-test-kheader-XXXXXX");
    ASSERT(mkdtemp(tmp) != NULL);
    ASSERT_EQ(setenv("TMPDIR", tmp, 1), 0);
    iron__ktype types[4];
    iron__kernel_src k = { 0 };
    ASSERT_OK(iron__ktypes_parse("int32*, int32", types, 4, &k.nargs));
    k.entry = "k";
    k.args = types;
    k.source = "#include <iron/iron_kernel.h>\n"
               "#include <stdio.h>\n"
               "void k(int32_t *p, int32_t n)\n"
               "{ for (int32_t i = 0; i < n; i++)\n"
               "      p[i] = iron_k_sat_i8(p[i]); }\n";
    iron__kobj *o = NULL;
    ASSERT_OK(iron__kernel_compile(&k, &o));
    int ndeps = 0;
    const char *const *deps = iron__kobj_deps(o, &ndeps);
    int saw_stdio = 0;
    for (int i = 0; i < ndeps; i++) {
        if (strstr(deps[i], "iron_kernel.h") || strstr(deps[i], tmp))
            TEST_FAIL_("recorded header '%s'", deps[i]);
        saw_stdio += strstr(deps[i], "stdio.h") != NULL;
    }
    ASSERT_GT(saw_stdio, 0);
    iron__kobj_free(o);
    ASSERT_EQ(test_count_files(tmp), 0);
    test_remove_dir(tmp);
}

/* A compiler error inside the kernel names the folder by a placeholder,
 * not the temporary path that is gone by the time anyone reads it. */
TEST(kheader_compile_error_shows_include_placeholder)
{
    iron__ktype types[2];
    iron__kernel_src k = { 0 };
    ASSERT_OK(iron__ktypes_parse("int32", types, 2, &k.nargs));
    k.entry = "k";
    k.args = types;
    k.source = "#include <iron/iron_kernel.h>\n"
               "void k(int32_t n) { undeclared_thing(n); }\n";
    k.cflags = "-Werror=implicit-function-declaration";
    iron__kobj *o = NULL;
    ASSERT_STATUS(iron__kernel_compile(&k, &o), IRON_ECOMPILE);
    ASSERT(o == NULL);
    ASSERT_MSG("-I<tmp>/include");
    ASSERT_MSG("undeclared_thing");
}
