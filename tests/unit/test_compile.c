/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_compile.c - kernel compilation: declared-type parsing, the uniform
 * wrapper, defines, compiler diagnostics, temp-file hygiene, allocation
 * failures.  These run the real system C compiler.
 */
#include <dirent.h>
#include <pthread.h>
#include <unistd.h>

#include "compile/compile.h"
#include "core/core.h"
#include "kbuild.h"
#include "test.h"

/* ---- helpers ---------------------------------------------------------- */

/* Points TMPDIR at a fresh, empty directory and returns its path, so a
 * test can check that compilation leaves nothing behind. */
static const char *fresh_tmpdir(void)
{
    const char *dir = test_temp_dir("compile");
    ASSERT_EQ(setenv("TMPDIR", dir, 1), 0);
    return dir;
}

static int count_fds(void)
{
    return test_count_files("/proc/self/fd");
}

/* ---- declared argument types ------------------------------------------ */

TEST(compile_ktypes_parse)
{
    iron__ktype t[8];
    int n = -1;
    ASSERT_OK(iron__ktypes_parse("int32*, int32*, int32", t, 8, &n));
    ASSERT_EQ(n, 3);
    ASSERT_EQ(t[0].dtype, IRON_INT32);
    ASSERT_EQ(t[0].is_ptr, 1);
    ASSERT_EQ(t[1].is_ptr, 1);
    ASSERT_EQ(t[2].dtype, IRON_INT32);
    ASSERT_EQ(t[2].is_ptr, 0);

    ASSERT_OK(iron__ktypes_parse("bfloat16*, float32", t, 8, &n));
    ASSERT_EQ(n, 2);
    ASSERT_EQ(t[0].dtype, IRON_BFLOAT16);
    ASSERT_EQ(t[0].is_ptr, 1);
    ASSERT_EQ(t[1].dtype, IRON_FLOAT32);
    ASSERT_EQ(t[1].is_ptr, 0);

    ASSERT_OK(iron__ktypes_parse("uint8 *", t, 8, &n));
    ASSERT_EQ(n, 1);
    ASSERT_EQ(t[0].dtype, IRON_UINT8);
    ASSERT_EQ(t[0].is_ptr, 1);

    ASSERT_OK(iron__ktypes_parse("  int8  ,uint16*,float64 ,  bf16 * ", t, 8,
                                 &n));
    ASSERT_EQ(n, 4);
    ASSERT_EQ(t[0].dtype, IRON_INT8);
    ASSERT_EQ(t[1].dtype, IRON_UINT16);
    ASSERT_EQ(t[1].is_ptr, 1);
    ASSERT_EQ(t[2].dtype, IRON_FLOAT64);
    ASSERT_EQ(t[3].dtype, IRON_BFLOAT16);
    ASSERT_EQ(t[3].is_ptr, 1);

    /* No arguments at all. */
    n = -1;
    ASSERT_OK(iron__ktypes_parse("", t, 8, &n));
    ASSERT_EQ(n, 0);
    n = -1;
    ASSERT_OK(iron__ktypes_parse("   ", NULL, 0, &n));
    ASSERT_EQ(n, 0);

    /* Exactly max is fine. */
    ASSERT_OK(iron__ktypes_parse("int8, int8", t, 2, &n));
    ASSERT_EQ(n, 2);
}

TEST(compile_ktypes_errors)
{
    iron__ktype t[4];
    int n = -1;
    ASSERT_FAILS(iron__ktypes_parse("int32*, int33", t, 4, &n), IRON_EINVAL,
                 "argument 2 'int33': unknown dtype");
    ASSERT_EQ(n, 0);
    ASSERT_CONTAINS(iron_last_error(), "bfloat16");   /* lists known ones */
    ASSERT_FAILS(iron__ktypes_parse("int8, int8, int8, int8, int8", t, 4, &n),
                 IRON_EINVAL, "too many arguments: 5 declared, at most 4");
    ASSERT_FAILS(iron__ktypes_parse("int32**", t, 4, &n), IRON_EINVAL,
                 "argument 1 'int32**': pointers to pointers");
    ASSERT_FAILS(iron__ktypes_parse("int32, , int32", t, 4, &n), IRON_EINVAL,
                 "argument 2 '': empty");
    ASSERT_FAILS(iron__ktypes_parse("int32,", t, 4, &n), IRON_EINVAL,
                 "argument 2 '': empty");
    ASSERT_FAILS(iron__ktypes_parse("int32* a, int32", t, 4, &n),
                 IRON_EINVAL, "argument 1 'int32* a': unexpected 'a'");
    ASSERT_FAILS(iron__ktypes_parse("*int32", t, 4, &n), IRON_EINVAL,
                 "argument 1 '*int32': expected a dtype name");
    ASSERT_FAILS(iron__ktypes_parse("int32 float32", t, 4, &n), IRON_EINVAL,
                 "unexpected 'float32'");
    ASSERT_FAILS(iron__ktypes_parse(
                     "int32, "
                     "a_very_long_name_that_cannot_possibly_be_a_dtype_at_all_"
                     "no_not_at_all*", t, 4, &n),
                 IRON_EINVAL, "argument 2 'a_very_long_name");
    ASSERT_FAILS(iron__ktypes_parse(NULL, t, 4, &n), IRON_EINVAL, "NULL");
    ASSERT_FAILS(iron__ktypes_parse("int32", t, 4, NULL), IRON_EINVAL,
                 "n is NULL");
    ASSERT_FAILS(iron__ktypes_parse("int32", NULL, 4, &n), IRON_EINVAL,
                 "types NULL");
}

/* ---- running kernels through the wrapper ------------------------------ */

static const char vadd_src[] =
    "#include <stdint.h>\n"
    "void vadd(const int32_t *a, const int32_t *b, int32_t *c, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n";

TEST(compile_vadd_int32)
{
    kbuild b;
    kb_init(&b, "vadd", vadd_src, "int32*, int32*, int32*, int32");
    b.src.label = "kernel 'vadd'";
    iron__kobj *o = kb_compile(&b);

    int32_t x[100], y[100], z[100];
    for (int i = 0; i < 100; i++) {
        x[i] = i;
        y[i] = 1000 * i - 7;
        z[i] = -1;
    }
    /* n = 64: the kernel must stop there. */
    iron__kval args[4] = { { .p = x }, { .p = y }, { .p = z }, { .i = 64 } };
    iron__kobj_entry(o)(args);
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(z[i], 1001 * i - 7);
    ASSERT_EQ(z[64], -1);
    iron__kobj_free(o);
    iron__kobj_free(NULL);
    ASSERT(iron__kobj_entry(NULL) == NULL);
}

TEST(compile_float_scalars)
{
    static const char src[] =
        "#include <stdint.h>\n"
        "static float bf(uint16_t b)\n"
        "{\n"
        "    union { uint32_t u; float f; } c = { (uint32_t)b << 16 };\n"
        "    return c.f;\n"
        "}\n"
        "void axpy(float *y, const uint16_t *x, double alpha, float beta,\n"
        "          uint16_t gamma, int32_t n)\n"
        "{\n"
        "    for (int32_t i = 0; i < n; i++)\n"
        "        y[i] = (float)(alpha * bf(x[i])) + beta + bf(gamma);\n"
        "}\n";
    kbuild b;
    kb_init(&b, "axpy", src,
            "float32*, bfloat16*, float64, float32, bfloat16, int32");
    iron__kobj *o = kb_compile(&b);

    float y[8];
    iron_bf16 x[8];
    for (int i = 0; i < 8; i++)
        x[i] = iron_bf16_from_float((float)i);  /* exact in bf16 */
    iron__kval args[6] = { { .p = y },     { .p = x },    { .f = 2.5 },
                           { .f = 0.25 },  { .f = 0.5 },  { .i = 8 } };
    iron__kobj_entry(o)(args);
    for (int i = 0; i < 8; i++)
        ASSERT_DBL_NEAR(y[i], 2.5 * i + 0.25 + 0.5, 1e-6);
    iron__kobj_free(o);
}

/* A bfloat16 scalar arrives as its bits, rounded as iron_bf16_from_float
 * rounds (nearest even, NaN stays NaN). */
TEST(compile_bf16_scalar_rounding)
{
    static const char src[] =
        "#include <stdint.h>\n"
        "void bits(uint16_t *out, uint16_t v) { out[0] = v; }\n";
    kbuild b;
    kb_init(&b, "bits", src, "uint16*, bfloat16");
    iron__kobj *o = kb_compile(&b);
    const double vals[] = { 1.0, 1.00390625, 1.01171875, -3.14159, 1e30,
                            0.0 / 0.0, 1e-40 };
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        uint16_t out = 0;
        iron__kval args[2] = { { .p = &out }, { .f = vals[i] } };
        iron__kobj_entry(o)(args);
        ASSERT_EQ(out, iron_bf16_from_float((float)vals[i]));
    }
    iron__kobj_free(o);
}

/* Integer scalars are converted from the int64 slot to the declared width
 * the way a C cast converts them. */
TEST(compile_int_scalars)
{
    static const char src[] =
        "#include <stdint.h>\n"
        "void ints(int64_t *o, int8_t a, uint8_t b, int16_t c, uint16_t d,\n"
        "          uint32_t e, int64_t f, uint64_t g, double h)\n"
        "{\n"
        "    o[0] = a; o[1] = b; o[2] = c; o[3] = d; o[4] = e; o[5] = f;\n"
        "    o[6] = (int64_t)(g >> 1); o[7] = (int64_t)h;\n"
        "}\n";
    kbuild b;
    kb_init(&b, "ints", src,
            "int64*, int8, uint8, int16, uint16, uint32, int64, uint64, "
            "float64");
    iron__kobj *o = kb_compile(&b);
    int64_t out[8] = { 0 };
    iron__kval args[9] = { { .p = out },    { .i = 300 },  { .i = 300 },
                           { .i = 70000 },  { .i = -1 },   { .i = -1 },
                           { .i = INT64_MIN }, { .i = -1 }, { .f = -42.75 } };
    iron__kobj_entry(o)(args);
    ASSERT_EQ(out[0], 44);
    ASSERT_EQ(out[1], 44);
    ASSERT_EQ(out[2], 4464);
    ASSERT_EQ(out[3], 65535);
    ASSERT_EQ(out[4], 4294967295LL);
    ASSERT(out[5] == INT64_MIN);
    ASSERT_EQ(out[6], INT64_MAX);
    ASSERT_EQ(out[7], -42);
    iron__kobj_free(o);
}

TEST(compile_no_arguments)
{
    static const char src[] =
        "int hits;\n"
        "void tick(void) { hits++; }\n";
    kbuild b;
    kb_init(&b, "tick", src, "");
    iron__kobj *o = kb_compile(&b);
    iron__kobj_entry(o)(NULL);
    iron__kobj_entry(o)(NULL);
    iron__kobj_free(o);
}

static const char eltwise_src[] =
    "void eltwise(const int32_t *a, const int32_t *b, int32_t *c, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++) {\n"
    "#ifdef NEGATE\n"
    "        c[i] = -(a[i] OP b[i]) * SCALE;\n"
    "#else\n"
    "        c[i] = (a[i] OP b[i]) * SCALE;\n"
    "#endif\n"
    "    }\n"
    "}\n";

static void run_eltwise(iron__kobj *o, int32_t *c)
{
    int32_t a[4] = { 10, 20, 30, 40 }, b[4] = { 1, 2, 3, 4 };
    iron__kval args[4] = { { .p = a }, { .p = b }, { .p = c }, { .i = 4 } };
    iron__kobj_entry(o)(args);
}

/* Defines change the code; two builds of the same entry live side by side
 * (the source also relies on <stdint.h> coming from the wrapper). */
TEST(compile_defines)
{
    const char *names[3] = { "OP", "SCALE", "NEGATE" };
    const char *plus[2] = { "+", "1" };
    const char *minus[3] = { "-", "(1 + 2)", "" };
    kbuild b;
    kb_init(&b, "eltwise", eltwise_src, "int32*, int32*, int32*, int32");
    b.src.ndefines = 2;
    b.src.define_names = names;
    b.src.define_values = plus;
    iron__kobj *add = kb_compile(&b);
    b.src.ndefines = 3;
    b.src.define_values = minus;
    iron__kobj *sub = kb_compile(&b);

    int32_t c[4];
    run_eltwise(add, c);
    ASSERT_EQ(c[0], 11);
    ASSERT_EQ(c[3], 44);
    run_eltwise(sub, c);
    ASSERT_EQ(c[0], -27);
    ASSERT_EQ(c[3], -108);
    run_eltwise(add, c);
    ASSERT_EQ(c[1], 22);
    iron__kobj_free(sub);
    iron__kobj_free(add);

    /* A later define of the same name wins, as a later -D does. */
    const char *names2[3] = { "OP", "SCALE", "OP" };
    const char *vals2[3] = { "+", "1", "*" };
    b.src.define_names = names2;
    b.src.define_values = vals2;
    iron__kobj *mul = kb_compile(&b);
    run_eltwise(mul, c);
    ASSERT_EQ(c[1], 40);
    iron__kobj_free(mul);
}

/* Defines with short names the wrapper might have used itself. */
TEST(compile_defines_short_names)
{
    static const char src[] =
        "void shorty(int32_t *out, float x, uint16_t y, int64_t z)\n"
        "{\n"
        "    out[0] = (int32_t)x + y + (int32_t)z + N;\n"
        "}\n";
    const char *names[7] = { "p", "i", "f", "u", "c", "v", "N" };
    const char *vals[7] = { "@", "@", "@", "@", "@", "@", "1000" };
    kbuild b;
    kb_init(&b, "shorty", src, "int32*, float32, bfloat16, int64");
    b.src.ndefines = 7;
    b.src.define_names = names;
    b.src.define_values = vals;
    iron__kobj *o = kb_compile(&b);
    int32_t out = 0;
    iron__kval args[4] = { { .p = &out }, { .f = 2.0 }, { .f = 1.0 },
                           { .i = 5 } };
    iron__kobj_entry(o)(args);
    ASSERT_EQ(out, 2 + 0x3f80 + 5 + 1000);
    iron__kobj_free(o);
}

TEST(compile_define_errors)
{
    const char *bad_name[1] = { "1OP" };
    const char *bad_value[2] = { "OP", "SCALE" };
    const char *vals[2] = { "+", "1\n#error injected" };
    const char *cont[2] = { "+", "1 \\" };
    kbuild b;
    iron__kobj *o = (iron__kobj *)&b;
    kb_init(&b, "eltwise", eltwise_src, "int32*, int32*, int32*, int32");
    b.src.ndefines = 1;
    b.src.define_names = bad_name;
    b.src.define_values = vals;
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_EINVAL,
                 "define 1: name '1OP' is not a C identifier");
    ASSERT(o == NULL);
    ASSERT_CONTAINS(iron_last_error(), "kernel 'eltwise'");
    b.src.ndefines = 2;
    b.src.define_names = bad_value;
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_EINVAL,
                 "define 2 ('SCALE'): the value must be one line");
    b.src.define_values = cont;
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_EINVAL,
                 "trailing backslash");
}

/* ---- compiler diagnostics --------------------------------------------- */

TEST(compile_syntax_error)
{
    static const char src[] =
        "#include <stdint.h>\n"
        "void broken(int32_t *a)\n"
        "{\n"
        "    a[0] = 1 +;\n"
        "}\n";
    setenv("LC_ALL", "C", 1);
    kbuild b;
    kb_init(&b, "broken", src, "int32*");
    b.src.label = "vadd (tile=16): kernel 'broken'";
    iron__kobj *o = (iron__kobj *)&b;
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "vadd (tile=16): kernel 'broken': C compiler failed");
    ASSERT(o == NULL);
    const char *msg = iron_last_error();
    ASSERT_CONTAINS(msg, "broken.c:4:");   /* the user's own line number */
    ASSERT_CONTAINS(msg, "error");
    ASSERT_CONTAINS(msg, "command: ");
    ASSERT_CONTAINS(msg, "-fPIC -shared -o k");
    printf("--- the message of a syntax error ---\n%s\n---\n", msg);
}

/* Thousands of errors: the message keeps the first ones and says how much
 * was left out, within the 4 KiB message buffer. */
TEST(compile_long_diagnostics)
{
    iron__str s = { 0 };
    iron__str_append(&s, "void many(void)\n{\n");
    for (int i = 0; i < 400; i++)
        iron__str_printf(&s, "    undeclared_%d = %d;\n", i, i);
    iron__str_append(&s, "}\n");
    setenv("LC_ALL", "C", 1);
    kbuild b;
    kb_init(&b, "many", iron__str_get(&s), "");
    iron__kobj *o = NULL;
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "many.c:3:");
    ASSERT_CONTAINS(iron_last_error(), "more bytes of diagnostics]");
    ASSERT_LT(strlen(iron_last_error()), 3500);
    iron__str_free(&s);
}

TEST(compile_conflicting_types)
{
    static const char src[] =
        "#include <stdint.h>\n"
        "void scale(int32_t *a, int32_t n)\n"
        "{\n"
        "    for (int32_t i = 0; i < n; i++) a[i] *= 2;\n"
        "}\n";
    setenv("LC_ALL", "C", 1);
    kbuild b;
    iron__kobj *o = NULL;
    kb_init(&b, "scale", src, "int16*, int32");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "conflicting types for scale");
    ASSERT_CONTAINS(iron_last_error(), "scale-declared-signature");
    ASSERT_CONTAINS(iron_last_error(),
                    "void scale(int16_t *, int32_t)");
    ASSERT(o == NULL);

    /* A scalar of another type is as wrong as a pointer. */
    kb_init(&b, "scale", src, "int32*, float32");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "conflicting types");
    /* So is a missing or an extra argument. */
    kb_init(&b, "scale", src, "int32*");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "conflicting types");
    kb_init(&b, "scale", src, "int32*, int32, int32");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "conflicting types");
    /* The entry must return void. */
    kb_init(&b, "ret", "int ret(int x) { return x; }\n", "int32");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "conflicting types");
    /* An entry the source does not define. */
    kb_init(&b, "absent", src, "int32*, int32");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE, "absent");
    ASSERT_CONTAINS(iron_last_error(), "undeclared");
    /* The exact types, with or without const, compile. */
    kb_init(&b, "scale", src, "int32*, int32");
    o = kb_compile(&b);
    iron__kobj_free(o);
}

/* Beyond IRON__KWRAP_CONST_MAX pointers the check is a plain prototype,
 * and the compiler's own "conflicting types" says what differs. */
TEST(compile_conflicting_types_many_pointers)
{
    static const char src[] =
        "#include <stdint.h>\n"
        "void nine(int32_t *a, int32_t *b, int32_t *c, int32_t *d,\n"
        "          int32_t *e, int32_t *f, int32_t *g, int32_t *h,\n"
        "          int32_t *i)\n"
        "{\n"
        "    *i = *a + *b + *c + *d + *e + *f + *g + *h;\n"
        "}\n";
    setenv("LC_ALL", "C", 1);
    kbuild b;
    iron__kobj *o = NULL;
    kb_init(&b, "nine", src,
            "int32*, int32*, int32*, int32*, int32*, int32*, int32*, int32*, "
            "int16*");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "conflicting types");
    ASSERT_CONTAINS(iron_last_error(), "nine-declared-signature:1:");

    kb_init(&b, "nine", src,
            "int32*, int32*, int32*, int32*, int32*, int32*, int32*, int32*, "
            "int32*");
    o = kb_compile(&b);
    int32_t v[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 0 };
    iron__kval args[9];
    for (int i = 0; i < 9; i++)
        args[i].p = &v[i];
    iron__kobj_entry(o)(args);
    ASSERT_EQ(v[8], 36);
    iron__kobj_free(o);
}

TEST(compile_bad_cflags)
{
    setenv("LC_ALL", "C", 1);
    kbuild b;
    iron__kobj *o = NULL;
    kb_init(&b, "vadd", vadd_src, "int32*, int32*, int32*, int32");
    b.src.cflags = "-O2 -fno-such-option-for-iron";
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "-fno-such-option-for-iron");
    /* Extra blanks and a -D in the flags. */
    b.src.cflags = "  -O1   -DUNUSED=1 ";
    o = kb_compile(&b);
    iron__kobj_free(o);
}

TEST(compile_bad_compiler)
{
    kbuild b;
    iron__kobj *o = (iron__kobj *)&b;
    kb_init(&b, "vadd", vadd_src, "int32*, int32*, int32*, int32");
    setenv("IRON_CC", "/nonexistent", 1);
    ASSERT_STR_EQ(iron__cc(), "/nonexistent");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "cannot run C compiler '/nonexistent'");
    ASSERT_CONTAINS(iron_last_error(), "IRON_CC");
    ASSERT(o == NULL);
    /* A compiler that runs but fails without a word. */
    setenv("IRON_CC", "false", 1);
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "exit status 1");
    ASSERT_CONTAINS(iron_last_error(), "printed nothing");
    /* Blank means unset. */
    setenv("IRON_CC", "  ", 1);
    ASSERT_STR_EQ(iron__cc(), "cc");
    unsetenv("IRON_CC");
    ASSERT_STR_EQ(iron__cc(), "cc");
}

/* IRON_CC is split on blanks, so a launcher or a wrapper command works. */
TEST(compile_iron_cc_words)
{
    kbuild b;
    kb_init(&b, "vadd", vadd_src, "int32*, int32*, int32*, int32");
    setenv("IRON_CC", "env LC_ALL=C cc", 1);
    iron__kobj *o = kb_compile(&b);
    int32_t x[2] = { 1, 2 }, y[2] = { 3, 4 }, z[2] = { 0, 0 };
    iron__kval args[4] = { { .p = x }, { .p = y }, { .p = z }, { .i = 2 } };
    iron__kobj_entry(o)(args);
    ASSERT_EQ(z[1], 6);
    iron__kobj_free(o);
}

/* With clang, when installed: diagnostics keep the user's line numbers and
 * the signature check still reads "conflicting types". */
TEST(compile_clang)
{
    if (access("/usr/bin/clang", X_OK) != 0) {
        printf("clang not installed; skipped\n");
        return;
    }
    setenv("IRON_CC", "clang", 1);
    setenv("LC_ALL", "C", 1);
    kbuild b;
    kb_init(&b, "vadd", vadd_src, "int32*, int32*, int32*, int32");
    iron__kobj *o = kb_compile(&b);
    iron__kobj_free(o);
    o = NULL;
    kb_init(&b, "vadd", vadd_src, "int16*, int32*, int32*, int32");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "conflicting types for vadd");
    kb_init(&b, "broken", "void broken(void)\n{\n    x = 1;\n}\n", "");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "broken.c:3:");
}

TEST(compile_undefined_symbol)
{
    static const char src[] =
        "void iron_test_missing_function(int *p);\n"
        "void caller(int *p) { iron_test_missing_function(p); }\n";
    kbuild b;
    iron__kobj *o = (iron__kobj *)&b;
    kb_init(&b, "caller", src, "int32*");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ELOAD,
                 "iron_test_missing_function");
    ASSERT_CONTAINS(iron_last_error(), "kernel 'caller'");
    ASSERT(o == NULL);
}

TEST(compile_bad_input)
{
    kbuild b;
    iron__kobj *o = (iron__kobj *)&b;
    iron__ktype bad_type = { .dtype = (iron_dtype)99,
                             .handle = IRON__KH_NONE };
    kb_init(&b, "vadd", vadd_src, "int32*, int32*, int32*, int32");

    ASSERT_FAILS(iron__kernel_compile(&b.src, NULL), IRON_EINVAL,
                 "out is NULL");
    ASSERT_FAILS(iron__kernel_compile(NULL, &o), IRON_EINVAL,
                 "kernel description is NULL");
    ASSERT(o == NULL);

    kbuild c = b;
    c.src.entry = NULL;
    ASSERT_FAILS(iron__kernel_compile(&c.src, &o), IRON_EINVAL,
                 "entry is NULL");
    c.src.entry = "2vadd";
    ASSERT_FAILS(iron__kernel_compile(&c.src, &o), IRON_EINVAL,
                 "entry '2vadd' is not a C identifier");
    c.src.entry = "v add";
    ASSERT_FAILS(iron__kernel_compile(&c.src, &o), IRON_EINVAL,
                 "not a C identifier");
    c.src.entry = "";
    ASSERT_FAILS(iron__kernel_compile(&c.src, &o), IRON_EINVAL,
                 "not a C identifier");
    c.src.entry = "iron__entry_wrapper";
    ASSERT_FAILS(iron__kernel_compile(&c.src, &o), IRON_EINVAL, "reserved");

    c = b;
    c.src.source = NULL;
    ASSERT_FAILS(iron__kernel_compile(&c.src, &o), IRON_EINVAL,
                 "kernel 'vadd': source is NULL");
    c = b;
    c.src.nargs = -1;
    ASSERT_FAILS(iron__kernel_compile(&c.src, &o), IRON_EINVAL,
                 "nargs is -1");
    c = b;
    c.src.args = NULL;
    ASSERT_FAILS(iron__kernel_compile(&c.src, &o), IRON_EINVAL,
                 "args is NULL but nargs is 4");
    c = b;
    c.src.nargs = 1;
    c.src.args = &bad_type;
    ASSERT_FAILS(iron__kernel_compile(&c.src, &o), IRON_EINVAL,
                 "argument 1 has dtype 99");
    c = b;
    c.src.ndefines = -2;
    ASSERT_FAILS(iron__kernel_compile(&c.src, &o), IRON_EINVAL,
                 "ndefines is -2");
    c = b;
    c.src.ndefines = 1;
    ASSERT_FAILS(iron__kernel_compile(&c.src, &o), IRON_EINVAL,
                 "define_names is NULL but ndefines is 1");
    c = b;
    c.src.label = "my label";
    c.src.source = NULL;
    ASSERT_FAILS(iron__kernel_compile(&c.src, &o), IRON_EINVAL,
                 "my label: source is NULL");
    ASSERT(o == NULL);
}

/* ---- resources -------------------------------------------------------- */

/* Every temporary file and directory is gone after success and after each
 * kind of failure. */
TEST(compile_temp_files_removed)
{
    const char *dir = fresh_tmpdir();
    kbuild b;
    iron__kobj *o = NULL;

    kb_init(&b, "vadd", vadd_src, "int32*, int32*, int32*, int32");
    o = kb_compile(&b);
    ASSERT_EQ(test_count_files(dir), 0);   /* even while loaded */
    iron__kobj_free(o);

    kb_init(&b, "broken", "void broken(void) { x }\n", "");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE, "broken");
    ASSERT_EQ(test_count_files(dir), 0);

    kb_init(&b, "caller",
            "void nowhere(void);\nvoid caller(void) { nowhere(); }\n", "");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ELOAD, "nowhere");
    ASSERT_EQ(test_count_files(dir), 0);

    setenv("IRON_CC", "/nonexistent", 1);
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE, "IRON_CC");
    ASSERT_EQ(test_count_files(dir), 0);
    unsetenv("IRON_CC");

    /* An unusable TMPDIR is a clean IRON_EIO naming it. */
    setenv("TMPDIR", "/nonexistent-iron-tmp", 1);
    kb_init(&b, "vadd", vadd_src, "int32*, int32*, int32*, int32");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_EIO,
                 "/nonexistent-iron-tmp");
    ASSERT_EQ(rmdir(dir), 0);
}

TEST(compile_no_fd_leak)
{
    kbuild b;
    iron__kobj *o = NULL;
    int before = count_fds();
    kb_init(&b, "vadd", vadd_src, "int32*, int32*, int32*, int32");
    o = kb_compile(&b);
    iron__kobj_free(o);
    kb_init(&b, "broken", "void broken(void) { x }\n", "");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE, "broken");
    ASSERT_EQ(count_fds(), before);
}

/* Fail the 1st, 2nd, ... allocation until the call succeeds: each failure
 * is a clean IRON_ENOMEM with nothing loaded or left on disk.  (Leaks are
 * caught by running this test under valgrind or ASan.) */
/* 78 compiles: about 7 s alone, 30 s on a loaded 2-core machine. */
TEST_TIMEOUT(compile_alloc_failures, 120)
{
    const char *dir = fresh_tmpdir();
    const char *names[2] = { "OP", "SCALE" };
    const char *vals[2] = { "+", "2" };
    kbuild b;
    kb_init(&b, "eltwise", eltwise_src, "int32*, int32*, int32*, int32");
    b.src.ndefines = 2;
    b.src.define_names = names;
    b.src.define_values = vals;

    long n;
    for (n = 1; n < 200; n++) {
        iron__kobj *o = (iron__kobj *)&b;
        iron__alloc_fail_at(n);
        iron_status st = iron__kernel_compile(&b.src, &o);
        long used = iron__alloc_fail_at(0);
        ASSERT_EQ(test_count_files(dir), 0);
        if (st == IRON_OK) {
            int32_t c[4];
            run_eltwise(o, c);
            ASSERT_EQ(c[0], 22);
            iron__kobj_free(o);
            ASSERT_LT(used, n);
            break;
        }
        if (st != IRON_ENOMEM)
            TEST_FAIL_("allocation %ld: %s: %s", n, iron_status_name(st),
                       iron_last_error());
        ASSERT(o == NULL);
    }
    ASSERT_LT(n, 200);
    printf("compile survives failing each of its %ld allocations\n", n - 1);
    ASSERT_EQ(rmdir(dir), 0);
}

/* Compiling from several threads at once: each build has its own
 * directory and object, even for one entry name. */
typedef struct thread_job {
    int k;
    int32_t result;
    iron_status st;
    char msg[256];
} thread_job;

static void *compile_thread(void *arg)
{
    thread_job *j = arg;
    char value[16];
    snprintf(value, sizeof value, "%d", j->k);
    const char *names[1] = { "K" };
    const char *vals[1] = { value };
    iron__ktype t = { .dtype = IRON_INT32,
                      .is_ptr = 1,
                      .handle = IRON__KH_NONE };
    iron__kernel_src src = { 0 };
    src.entry = "konst";
    src.source = "#include <stdint.h>\nvoid konst(int32_t *o) { *o = K; }\n";
    src.nargs = 1;
    src.args = &t;
    src.ndefines = 1;
    src.define_names = names;
    src.define_values = vals;
    iron__kobj *o = NULL;
    j->st = iron__kernel_compile(&src, &o);
    if (j->st == IRON_OK) {
        iron__kval a = { .p = &j->result };
        iron__kobj_entry(o)(&a);
        iron__kobj_free(o);
    } else {
        snprintf(j->msg, sizeof j->msg, "%s", iron_last_error());
    }
    return NULL;
}

TEST(compile_threads)
{
    enum { N = 6 };
    pthread_t th[N];
    thread_job jobs[N];
    for (int i = 0; i < N; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].k = 100 + i;
        ASSERT_EQ(pthread_create(&th[i], NULL, compile_thread, &jobs[i]), 0);
    }
    for (int i = 0; i < N; i++)
        ASSERT_EQ(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < N; i++) {
        if (jobs[i].st != IRON_OK)
            TEST_FAIL_("thread %d: %s", i, jobs[i].msg);
        ASSERT_EQ(jobs[i].result, 100 + i);
    }
}

/* Build, free, build again with the same entry and new code: the new code
 * runs (dlopen must not hand back a stale object). */
TEST(compile_rebuild_same_entry)
{
    for (int i = 0; i < 5; i++) {
        thread_job j = { .k = i * 7 };
        compile_thread(&j);
        if (j.st != IRON_OK)
            TEST_FAIL_("build %d: %s", i, j.msg);
        ASSERT_EQ(j.result, i * 7);
    }
}

TEST_ALONE(compile_time, 30, "measures and prints a compile's wall time")
{
    kbuild b;
    kb_init(&b, "vadd", vadd_src, "int32*, int32*, int32*, int32");
    iron__kobj_free(kb_compile(&b));   /* warm the file cache */
    const int reps = 5;
    double t0 = iron__now_ms();
    for (int i = 0; i < reps; i++)
        iron__kobj_free(kb_compile(&b));
    double ms = (iron__now_ms() - t0) / reps;
    printf("a tiny kernel compiles and loads in %.1f ms (cc = '%s', -O2)\n",
           ms, iron__cc());
    ASSERT_GT(ms, 0.0);
}
