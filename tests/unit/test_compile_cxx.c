/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_compile_cxx.c - C++ kernels in the compile layer: C++20 with
 * templates and the standard library, entries with or without
 * extern "C", the signature check in C++, __AIE_ARCH__, the AIE API's
 * headers in the include folder, diagnostics named "C++ compiler",
 * IRON_CXX, libstdc++, the shim's text compiled as C++, and the AIE
 * API's control words and faults outside any driver.  These run the
 * real system C++ compiler.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compile/compile.h"
#include "compile/wrapper.h"
#include "core/core.h"
#include "kbuild.h"
#include "test.h"

/* A C++ kernel: kbuild.h's description with is_cxx set. */
static void cb_init(kbuild *b, const char *entry, const char *source,
                    const char *decl)
{
    kb_init(b, entry, source, decl);
    b->src.is_cxx = 1;
}

/* Plain C++: a template, constexpr, std::array, a lambda; the entry
 * inside extern "C" { ... } as upstream writes it, const inputs and
 * noexcept accepted; __AIE_ARCH__ as the command line gives it. */
static const char scale_src[] =
    "#include <array>\n"
    "#include <cstdint>\n"
    "namespace {\n"
    "template <typename T, int F> constexpr T times(T v) { return v * F; }\n"
    "constexpr std::array<int32_t, 4> offsets{ 1, 2, 3, 4 };\n"
    "}\n"
    "extern \"C\" {\n"
    "void scale(const int32_t *x, int32_t *y, int32_t n) noexcept\n"
    "{\n"
    "    auto f = [](int32_t v, int i) {\n"
    "        return times<int32_t, 3>(v) + offsets[i % 4];\n"
    "    };\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        y[i] = f(x[i], i) + 1000 * __AIE_ARCH__;\n"
    "}\n"
    "}\n";

static void run_scale(iron__kobj *o, int arch)
{
    int32_t x[8], y[8];
    for (int i = 0; i < 8; i++)
        x[i] = i - 3;
    iron__kval a[3] = { { .p = x }, { .p = y }, { .i = 8 } };
    iron__kobj_entry(o)(a);
    for (int i = 0; i < 8; i++)
        ASSERT_EQ(y[i], 3 * (i - 3) + (i % 4) + 1 + 1000 * arch);
}

TEST(compile_cxx_templates_and_arch)
{
    kbuild b;
    cb_init(&b, "scale", scale_src, "int32*, int32*, int32");
    for (int arch = 20; arch <= 21; arch++) {
        b.src.aie_arch = arch;
        iron__kobj *o = kb_compile(&b);
        run_scale(o, arch);
        iron__kobj_free(o);
    }
}

/* __AIE_ARCH__ reaches C kernels too; 0 leaves it undefined. */
TEST(compile_aie_arch_in_c)
{
    static const char src[] =
        "void arch(int32_t *y)\n"
        "{\n"
        "#ifdef __AIE_ARCH__\n"
        "    y[0] = __AIE_ARCH__;\n"
        "#else\n"
        "    y[0] = -1;\n"
        "#endif\n"
        "}\n";
    kbuild b;
    cb_init(&b, "arch", src, "int32*");
    b.src.is_cxx = 0;
    int want[] = { -1, 20, 21 };
    for (int i = 0; i < 3; i++) {
        b.src.aie_arch = i ? 19 + i : 0;
        iron__kobj *o = kb_compile(&b);
        int32_t y = 0;
        iron__kval a[1] = { { .p = &y } };
        iron__kobj_entry(o)(a);
        ASSERT_EQ(y, want[i]);
        iron__kobj_free(o);
    }
}

/* An entry with C++ linkage works as well (the wrapper calls it in the
 * same translation unit); the raw entry still has its plain name. */
TEST(compile_cxx_entry_without_extern_c)
{
    static const char src[] =
        "#include <cstdint>\n"
        "void twice(int32_t *y) { y[0] *= 2; }\n";
    kbuild b;
    cb_init(&b, "twice", src, "int32*");
    iron__kobj *o = kb_compile(&b);
    int32_t y = 21;
    iron__kval a[1] = { { .p = &y } };
    iron__kobj_entry(o)(a);
    ASSERT_EQ(y, 42);
    ASSERT(iron__kobj_raw_entry(o) != NULL);
    iron__kobj_free(o);
}

/* <aie_api/aie.hpp> resolves for C++ kernels (the library's built-in
 * copy), and not for C kernels. */
TEST(compile_cxx_finds_aie_api)
{
    static const char src[] =
        "#include <aie_api/aie.hpp>\n"
        "extern \"C\" void k(int32_t *y) { y[0] = 7; }\n";
    kbuild b;
    cb_init(&b, "k", src, "int32*");
    b.src.aie_arch = 20;
    iron__kobj *o = kb_compile(&b);
    int32_t y = 0;
    iron__kval a[1] = { { .p = &y } };
    iron__kobj_entry(o)(a);
    ASSERT_EQ(y, 7);
    iron__kobj_free(o);
    /* The files the kernel included leave the temporary folder out. */
    int n;
    const char *const *deps = iron__kobj_deps(o = kb_compile(&b), &n);
    for (int i = 0; i < n; i++)
        if (strstr(deps[i], "aie_api"))
            TEST_FAIL_("dependency %s is the build's temporary copy",
                       deps[i]);
    iron__kobj_free(o);
    o = NULL;
    static const char csrc[] =
        "#include <aie_api/aie.hpp>\n"
        "void k(int32_t *y) { y[0] = 7; }\n";
    cb_init(&b, "k", csrc, "int32*");
    b.src.is_cxx = 0;
    setenv("LC_ALL", "C", 1);
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "C compiler failed");
    ASSERT_CONTAINS(iron_last_error(), "aie_api/aie.hpp");
}

/* The declared types are checked in C++ as in C; pointed-to types may
 * differ by const. */
TEST(compile_cxx_conflicting_types)
{
    static const char src[] =
        "#include <cstdint>\n"
        "extern \"C\" void f(const int32_t *x, int32_t *y) { y[0] = x[0]; }\n";
    kbuild b;
    cb_init(&b, "f", src, "int32*, int32*");
    iron__kobj *o = kb_compile(&b);
    iron__kobj_free(o);
    o = NULL;
    setenv("LC_ALL", "C", 1);
    cb_init(&b, "f", src, "int16*, int32*");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "C++ compiler failed");
    ASSERT_CONTAINS(iron_last_error(), "conflicting types for f");
    ASSERT_CONTAINS(iron_last_error(), "argument 1 is declared int16*");
    /* The arity is checked first. */
    cb_init(&b, "f", src, "int32*");
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "another number of arguments");
    /* The checks stay per argument with many of them: the last one is
     * named, not only "the types". */
    iron__str s = { 0 }, decl = { 0 };
    iron__str_append(&s, "#include <cstdint>\nextern \"C\" void many(");
    for (int i = 0; i <= IRON__KWRAP_CONST_MAX; i++) {
        iron__str_printf(&s, "%sint32_t *p%d", i ? ", " : "", i);
        iron__str_printf(&decl, "%sint32*", i ? ", " : "");
    }
    iron__str_append(&s, ") { p0[0] = 1; }\n");
    cb_init(&b, "many", iron__str_get(&s), iron__str_get(&decl));
    o = kb_compile(&b);
    iron__kobj_free(o);
    o = NULL;
    iron__str_free(&decl);
    for (int i = 0; i <= IRON__KWRAP_CONST_MAX; i++)
        iron__str_printf(&decl, "%sint16*", i ? ", " : "");
    cb_init(&b, "many", iron__str_get(&s), iron__str_get(&decl));
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "conflicting types for many");
    ASSERT_CONTAINS(iron_last_error(), "argument 1 is declared int16*");
    iron__str_free(&s);
    iron__str_free(&decl);
}

/* A syntax error: "C++ compiler failed", the kernel's label and its own
 * line (the source named <entry>.cc). */
TEST(compile_cxx_syntax_error)
{
    static const char src[] =
        "#include <cstdint>\n"
        "extern \"C\" void broken(int32_t *a)\n"
        "{\n"
        "    a[0] = 1 +;\n"
        "}\n";
    setenv("LC_ALL", "C", 1);
    kbuild b;
    cb_init(&b, "broken", src, "int32*");
    b.src.label = "kernel 'broken'";
    iron__kobj *o = NULL;
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "kernel 'broken': C++ compiler failed");
    ASSERT_CONTAINS(iron_last_error(), "broken.cc:4:");
    ASSERT_CONTAINS(iron_last_error(), "-std=c++20 -fno-exceptions "
                                       "-fno-rtti");
    /* A core body stays C. */
    cb_init(&b, "broken", src, "int32*");
    b.src.is_core = 1;
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_EINVAL,
                 "a core body's source is C");
}

/* IRON_CXX picks the C++ compiler (split on blanks, like IRON_CC); a
 * missing one is named, and C kernels do not care. */
TEST(compile_cxx_iron_cxx)
{
    kbuild b;
    cb_init(&b, "scale", scale_src, "int32*, int32*, int32");
    b.src.aie_arch = 20;
    setenv("IRON_CXX", "/nonexistent/c++", 1);
    ASSERT_STR_EQ(iron__cxx(), "/nonexistent/c++");
    iron__kobj *o = NULL;
    ASSERT_FAILS(iron__kernel_compile(&b.src, &o), IRON_ECOMPILE,
                 "cannot run C++ compiler '/nonexistent/c++'");
    ASSERT_CONTAINS(iron_last_error(), "IRON_CXX");
    char id[512];
    ASSERT_FAILS(iron__compiler_identity(1, id, sizeof id), IRON_ECOMPILE,
                 "IRON_CXX");
    ASSERT_OK(iron__compiler_identity(0, id, sizeof id));
    kbuild c;
    cb_init(&c, "arch", "void arch(int32_t *y) { y[0] = 1; }\n", "int32*");
    c.src.is_cxx = 0;
    iron__kobj_free(kb_compile(&c));

    setenv("IRON_CXX", "env LC_ALL=C c++", 1);
    o = kb_compile(&b);
    run_scale(o, 20);
    iron__kobj_free(o);
    /* The identity names the command in force. */
    ASSERT_OK(iron__compiler_identity(1, id, sizeof id));
    ASSERT_CONTAINS(id, "env LC_ALL=C c++: ");
    unsetenv("IRON_CXX");
    ASSERT_STR_EQ(iron__cxx(), "c++");
    ASSERT_OK(iron__compiler_identity(1, id, sizeof id));
    ASSERT(strncmp(id, "c++: ", 5) == 0);
}

TEST(compile_cxx_clang)
{
    if (access("/usr/bin/clang++", X_OK) != 0) {
        printf("clang++ not installed; skipped\n");
        return;
    }
    setenv("IRON_CXX", "clang++", 1);
    kbuild b;
    cb_init(&b, "scale", scale_src, "int32*, int32*, int32");
    b.src.aie_arch = 21;
    iron__kobj *o = kb_compile(&b);
    run_scale(o, 21);
    iron__kobj_free(o);
    unsetenv("IRON_CXX");
}

/* A kernel that uses libstdc++ itself (std::string, operator new) loads
 * into this C program, which has no libstdc++ of its own to lend. */
TEST(compile_cxx_uses_libstdcxx)
{
    static const char src[] =
        "#include <string>\n"
        "#include <vector>\n"
        "extern \"C\" void k(int32_t *y)\n"
        "{\n"
        "    std::vector<std::string> v;\n"
        "    for (int i = 0; i < 40; i++)\n"
        "        v.push_back(std::to_string(i * 1000));\n"
        "    std::size_t n = 0;\n"
        "    for (const auto &s : v)\n"
        "        n += s.size();\n"
        "    y[0] = (int32_t)n;\n"
        "}\n";
    kbuild b;
    cb_init(&b, "k", src, "int32*");
    iron__kobj *o = kb_compile(&b);
    int32_t y = 0;
    iron__kval a[1] = { { .p = &y } };
    iron__kobj_entry(o)(a);
    ASSERT_EQ(y, 1 + 9 * 4 + 30 * 5);
    iron__kobj_free(o);
}

/* For a compiler that cannot link the shim's object, its text goes behind
 * the kernel: it must compile as C++ too. */
TEST(compile_cxx_shim_text_compiles)
{
    kbuild b;
    cb_init(&b, "scale", scale_src, "int32*, int32*, int32");
    iron__str text = { 0 };
    ASSERT_OK(iron__kwrap_generate(&b.src, 1, &text));
    ASSERT_CONTAINS(iron__str_get(&text), "scale-runtime-shim");
    const char *dir = test_temp_dir("cxxshim");
    char path[300], cmd[800];
    snprintf(path, sizeof path, "%s/k.cc", dir);
    test_spit(path, text.p, text.len);
    snprintf(cmd, sizeof cmd, "c++ -std=c++20 -fno-exceptions -fno-rtti "
             "-D__AIE_ARCH__=20 -Iinclude/iron/kernel -Wall -Wextra -Werror "
             "-fPIC -c '%s' -o "
             "'%s/k.o' 2>&1", path,
             dir);
    char out[2048];
    if (test_run_shell(cmd, out, sizeof out) != 0)
        TEST_FAIL_("the generated C++ text does not compile:\n%s", out);
    iron__str_free(&text);
}

/* ---- the AIE API's host functions outside any driver ------------------ */

static const char ctl_src[] =
    "#include <cstdint>\n"
    "extern \"C\" {\n"
    "unsigned *iron__aie_ctl(void);\n"
    "void ctl(int32_t *y, int32_t v)\n"
    "{\n"
    "    unsigned *w = iron__aie_ctl();\n"
    "    y[0] = (int32_t)(w[0] + w[1] + w[2] + w[3]);\n"
    "    w[0] = (unsigned)v;\n"
    "    y[1] = (int32_t)iron__aie_ctl()[0];\n"
    "}\n"
    "}\n";

typedef struct ctl_thread {
    iron__kernel_fn fn;
    int32_t v, y[2][2];
} ctl_thread;

static void *ctl_run(void *arg)
{
    ctl_thread *t = arg;
    for (int i = 0; i < 2; i++) {
        iron__kval a[2] = { { .p = t->y[i] }, { .i = t->v } };
        t->fn(a);
    }
    return NULL;
}

/* Each thread has its own words, zero at first. */
TEST(compile_aie_ctl_per_thread)
{
    kbuild b;
    cb_init(&b, "ctl", ctl_src, "int32*, int32");
    iron__kobj *o = kb_compile(&b);
    ctl_thread t[2] = { { iron__kobj_entry(o), 5, { { 0 } } },
                        { iron__kobj_entry(o), 9, { { 0 } } } };
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        ASSERT_EQ(pthread_create(&th[i], NULL, ctl_run, &t[i]), 0);
    for (int i = 0; i < 2; i++)
        ASSERT_EQ(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < 2; i++) {
        ASSERT_EQ(t[i].y[0][0], 0);          /* fresh thread: zero */
        ASSERT_EQ(t[i].y[0][1], t[i].v);
        ASSERT_EQ(t[i].y[1][0], t[i].v);     /* its own from before */
    }
    iron__kobj_free(o);
}

/* Outside a driver a fault prints "file:line: what" and aborts, as a
 * failed assert does (in a child process). */
TEST(compile_aie_fault_outside_driver_aborts)
{
    static const char src[] =
        "#include <cstdint>\n"
        "extern \"C\" {\n"
        "[[noreturn]] void iron__aie_fault(const char *, const char *,\n"
        "                                  unsigned);\n"
        "void bad(int32_t *y)\n"
        "{\n"
        "    if (y[0] > 3)\n"
        "        iron__aie_fault(\"aie::set_rounding: mode 9 is not a "
        "rounding mode\", __FILE__, __LINE__);\n"
        "}\n"
        "}\n";
    kbuild b;
    cb_init(&b, "bad", src, "int32*");
    iron__kobj *o = kb_compile(&b);
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        int32_t y = 7;
        iron__kval a[1] = { { .p = &y } };
        iron__kobj_entry(o)(a);
        _exit(0);
    }
    close(fds[1]);
    char out[512] = "";
    size_t n = 0;
    ssize_t r;
    while (n < sizeof out - 1 &&
           (r = read(fds[0], out + n, sizeof out - 1 - n)) > 0)
        n += (size_t)r;
    out[n] = '\0';
    close(fds[0]);
    int ws;
    ASSERT_EQ(waitpid(pid, &ws, 0), pid);
    ASSERT(WIFSIGNALED(ws));
    ASSERT_EQ(WTERMSIG(ws), SIGABRT);
    ASSERT_CONTAINS(out, "bad.cc:8: aie::set_rounding: mode 9 is not a "
                         "rounding mode\n");
    iron__kobj_free(o);
}
