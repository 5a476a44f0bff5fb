/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_tutorial.c - the tutorial's and cookbook's programs
 * (examples/tutorial, built into $IRON_TUTORIAL by `make test`), run as a
 * user runs them: each must exit 0 and print the lines the documents quote.
 * Also: every program built there has a test here, and every ```c block of
 * docs/tutorial.md and docs/cookbook.md marked with a program's name (and
 * every ```python block marked with one of examples/tutorial/python, which
 * python/tests/test_tutorial_py.py runs) is a verbatim part of that
 * program, so the documents cannot drift from code that is tested.  The same programs and the README's sample, built as
 * C++17 and C++20 by each C++ compiler (into
 * $IRON_TEST_CXX_DIR/<compiler>-<std>),
 * must do the same (tutorial_cxx_*), and tests/cxx/header_use.c, which uses
 * every macro and inline helper of the public headers, must print the same
 * in every C++ build as in its C11 build.
 */
#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

static char out[1 << 16];

/* The folder of the programs run: $IRON_TUTORIAL (the C builds) unless a
 * C++ test points it at a C++ build. */
static char program_dir[512];

static const char *tutorial_dir(void)
{
    const char *dir = getenv("IRON_TUTORIAL");
    if (!dir || !dir[0])
        TEST_FAIL_("IRON_TUTORIAL is not set (run through `make test`)");
    return dir;
}

/* Runs <program_dir>/<name> [arg] with stdout and stderr into `out` and
 * the variables that would change its output removed; returns its exit
 * status (-1 when it did not exit normally). */
static int run_program(const char *name, const char *arg)
{
    const char *dir = program_dir[0] ? program_dir : tutorial_dir();
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (access(path, X_OK) != 0)
        TEST_FAIL_("%s is not built", path);
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        static const char *const vars[] = { "IRON_DEVICE", "IRON_CHECK",
                                            "IRON_TRACE",  "IRON_LOG",
                                            "IRON_THREADS" };
        for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
            unsetenv(vars[i]);
        char arg_copy[1024];
        snprintf(arg_copy, sizeof arg_copy, "%s", arg ? arg : "");
        char *argv[3] = { path, arg ? arg_copy : NULL, NULL };
        execv(path, argv);
        _exit(127);
    }
    close(fds[1]);
    size_t n = 0;
    for (;;) {
        char sink[4096];
        char *dst = n < sizeof out - 1 ? out + n : sink;
        size_t room = n < sizeof out - 1 ? sizeof out - 1 - n : sizeof sink;
        ssize_t got = read(fds[0], dst, room);
        if (got <= 0)
            break;
        if (dst == out + n)
            n += (size_t)got;
    }
    out[n] = '\0';
    close(fds[0]);
    int st = 0;
    ASSERT_EQ(waitpid(pid, &st, 0), pid);
    if (!WIFEXITED(st))
        return -1;
    if (WEXITSTATUS(st) != 0)
        fprintf(stderr, "%s said:\n%s\n", path, out);
    return WEXITSTATUS(st);
}

/* --- the tutorial -------------------------------------------------------- */

static void check_01_passthrough(void)
{
    ASSERT_EQ(run_program("01_passthrough", NULL), 0);
    ASSERT_CONTAINS(out, "passthrough: 1024 bytes copied through a memtile");
    ASSERT_CONTAINS(out, "too small: IRON_EARG: passthrough: argument 1 "
                         "('output'): expected uint8[1024], got uint8[512] "
                         "(N bound by argument 0 ('input'))");
    ASSERT_CONTAINS(out, "design: fifo 'in': depth 32; expected 1 to 16");
    ASSERT_CONTAINS(out, "no wait: IRON_EDESIGN: passthrough (input: "
                         "uint8[1024], output: uint8[1024]; obj=64, depth=2, "
                         "wait=false; npu2, 8 columns): verify: the runtime "
                         "sequence awaits no drain (2 ops)");
}

static void check_02_vector_add(void)
{
    ASSERT_EQ(run_program("02_vector_add", NULL), 0);
    ASSERT_CONTAINS(out, "vector_add: 4 calls, 2 builds, 2 found in memory, "
                         "2 design runs");
    ASSERT_CONTAINS(out, "design: vector_add: 1000 elements are not a "
                         "multiple of 256");
}

static void check_03_params(void)
{
    ASSERT_EQ(run_program("03_params", NULL), 0);
    ASSERT_CONTAINS(out, "sub:           builds so far 2");
    ASSERT_CONTAINS(out, "add, bias 1000: builds so far 2");
    ASSERT_CONTAINS(out, "bound sub:     builds so far 2");
    ASSERT_CONTAINS(out, "unknown parameter 'tlie' (did you mean 'tile'?)");
    ASSERT_CONTAINS(out, "place: compute tile (0,2) (worker 'eltwise'): data "
                         "memory needs 99360 bytes, the tile has 65536");
}

static void check_04_multi_column(void)
{
    ASSERT_EQ(run_program("04_multi_column", NULL), 0);
    ASSERT_CONTAINS(out, "1 column(s): workers per column: 4 0 0 0 0 0 0 0");
    ASSERT_CONTAINS(out, "4 column(s): workers per column: 4 4 4 4 0 0 0 0");
    ASSERT_CONTAINS(out, "specializations: 4");
    ASSERT_CONTAINS(out, "the launch configuration asks for 16 columns; "
                         "device 'npu2' has 8");
}

static void check_05_mlir(void)
{
    char *dir = test_cache_temp_dir("iron-tutorial-mlir", "export");
    ASSERT_EQ(run_program("05_mlir", dir), 0);
    ASSERT_CONTAINS(out, "emulator: y[10] = 33");
    ASSERT_CONTAINS(out, "aie.mlir, kernels/scale.c, Makefile, README.md, "
                         "host.cpp");
    ASSERT_CONTAINS(out, "imported: device npu2, arguments \"in arg0: "
                         "int32[1024], out arg1: int32[1024]\"");
    ASSERT_CONTAINS(out, "imported module: same results");
    char path[1024];
    snprintf(path, sizeof path, "%s/kernels/scale.c", dir);
    ASSERT_EQ(access(path, R_OK), 0);
    test_drop_dir(dir);
}

static void check_06_timing(void)
{
    char *dir = test_cache_temp_dir("iron-tutorial-timing", "trace");
    char path[1024];
    snprintf(path, sizeof path, "%s/timing.json", dir);
    ASSERT_EQ(run_program("06_timing", path), 0);
    ASSERT_CONTAINS(out, "--- npu1, scalar kernel: 166.00 us, 10.13 cycles "
                         "per element");
    ASSERT_CONTAINS(out, "bottleneck: worker 'scale' compute tile (0,2) is "
                         "busy 99% of the time: its kernel bounds the design");
    ASSERT_CONTAINS(out, "--- npu1, vectorized kernel: 9.15 us");
    ASSERT_CONTAINS(out, "bottleneck: DMA fifo 'in': shim (0,0) -> compute "
                         "tile (0,2) is busy 93% of the time: data movement "
                         "bounds the design");
    ASSERT_CONTAINS(out, "--- npu2, vectorized kernel: 2.66 us");
    ASSERT_CONTAINS(out, "  worker 'scale' compute tile (0,2)");
    char *trace = (char *)test_slurp(path, NULL);
    ASSERT_CONTAINS(trace, "timed), modelled NPU time\"");
    free(trace);
    test_drop_dir(dir);
}

/* --- the cookbook -------------------------------------------------------- */

static void check_recipe_probe(void)
{
    ASSERT_EQ(run_program("recipe_probe", NULL), 0);
    ASSERT_CONTAINS(out, "mid[0..3] = 1 2 3 4; y[0..3] = 2 4 6 8");
}

static void check_recipe_printf(void)
{
    ASSERT_EQ(run_program("recipe_printf", NULL), 0);
    ASSERT_CONTAINS(out, "[summer (0,2) #0] sum = 10\n"
                         "[summer (0,2) #1] sum = 26\n"
                         "[summer (0,2) #2] sum = 42\n");
    ASSERT_CONTAINS(out, "captured 3 lines; last: summer (0,2) #5 fd 1: "
                         "sum = 42");
}

static void check_recipe_kernel_files(void)
{
    ASSERT_EQ(run_program("recipe_kernel_files", "examples/tutorial/kernels"),
              0);
    ASSERT_CONTAINS(out, "first run:      y[1] = 3, kernels compiled 1, "
                         "disk cache hits 0");
    ASSERT_CONTAINS(out, "same files:     y[1] = 3, kernels compiled 0, "
                         "disk cache hits 1");
    ASSERT_CONTAINS(out, "header edited:  y[1] = 5, kernels compiled 1, "
                         "disk cache hits 0");
    ASSERT_CONTAINS(out, "without scale.h: IRON_ECOMPILE: scale (x: "
                         "int32[256], y: int32[256]; npu2, 8 columns): "
                         "compile: kernel 'scale': C compiler failed (exit "
                         "status 1)");
    /* The file's own path names the line. */
    ASSERT_CONTAINS(out, "/kernels/scale.c:3:10: fatal error: scale.h: No "
                         "such file or directory");
}

/* The report's parts as docs/cookbook.md quotes and explains them. */
static void check_recipe_deadlock(void)
{
    ASSERT_EQ(run_program("recipe_deadlock", NULL), 0);
    ASSERT_CONTAINS(out, "status: IRON_EDEADLOCK");
    ASSERT_CONTAINS(out, "the sequence waits at op 1 (drain of fifo 'c', "
                         "awaited where it stands, outside any task group) "
                         "and has not issued its 1 later op: the stalled "
                         "tasks need op 2 (fill of fifo 'b', argument 1 "
                         "'b'), never issued: issue it before this wait, or "
                         "put it in one task group with it");
    ASSERT_CONTAINS(out, "no task can make progress with 1 awaited drain "
                         "and 2 runtime ops unfinished (on hardware this "
                         "hangs until the timeout)");
    ASSERT_CONTAINS(out, "worker 'adder' on tile (0,2) after 0 iterations "
                         "waits to acquire 1 filled buffer of fifo 'b' "
                         "(consumer) on compute tile (0,2) (0 of 2 buffers "
                         "filled)");
    ASSERT_CONTAINS(out, "DMA fifo 'a': shim (0,0) -> compute tile (0,2) "
                         "(fill of argument 0 'a': 32 of 256 elements moved) "
                         "waits to acquire 1 free buffer of fifo 'a' "
                         "(consumer) on compute tile (0,2) (2 of 2 buffers "
                         "filled)");
    ASSERT_CONTAINS(out, "DMA fifo 'c': compute tile (0,2) -> shim (0,0) "
                         "(drain of argument 2 'c': 0 of 256 elements moved) "
                         "waits to acquire 1 filled buffer of fifo 'c' "
                         "(producer) on compute tile (0,2) (0 of 2 buffers "
                         "filled)");
    ASSERT_CONTAINS(out, "\"adder\" -> \"fifo 'b': shim (0,0) -> compute "
                         "tile (0,2)\" [label=\"1 filled of fifo 'b' "
                         "(consumer)\"];");
}

static void check_recipe_checked(void)
{
    /* Checked mode traps protection faults; ThreadSanitizer cannot follow
     * a siglongjmp out of a handler (as in test_checked.c). */
    if (TEST_UNDER_TSAN)
        return;
    ASSERT_EQ(run_program("recipe_checked", NULL), 0);
    ASSERT_CONTAINS(out, "plain run: IRON_OK, y[5] = -5");
    ASSERT_CONTAINS(out, "checked run: IRON_EKERNEL");
    ASSERT_CONTAINS(out, "kernel 'negate' of worker 'negate' on compute tile "
                         "(0,2) at iteration 0: SIGSEGV (access to protected "
                         "memory) writing the first byte past object 0 of "
                         "fifo 'out' (producer) on compute tile (0,2); in "
                         "negate at negate.c:6");
}

/* --- the documents' programs ----------------------------------------- */

/* README.md's first program and docs/arguments.md's sample, cut from the
 * documents and built by `make test`: each runs, and prints what its
 * comments promise. */
static void check_readme_hello(void)
{
    ASSERT_EQ(run_program("readme_hello", NULL), 0);
    ASSERT_CONTAINS(out, "array([   0,    2,    4, ..., 8186, 8188, 8190], "
                         "dtype=int32)");
}

static void check_arguments_sample(void)
{
    ASSERT_EQ(run_program("arguments_sample", NULL), 0);
    ASSERT_CONTAINS(out, "vadd: argument 2 ('c') is the same tensor as "
                         "argument 0 ('a')");
}

/* --- every program, in C and in C++ --------------------------------------- */

/* The programs built into $IRON_TUTORIAL (and each C++ build) and their
 * checks. */
static const struct {
    const char *name;
    void (*check)(void);
} programs[] = {
    { "01_passthrough", check_01_passthrough },
    { "02_vector_add", check_02_vector_add },
    { "03_params", check_03_params },
    { "04_multi_column", check_04_multi_column },
    { "05_mlir", check_05_mlir },
    { "06_timing", check_06_timing },
    { "recipe_probe", check_recipe_probe },
    { "recipe_printf", check_recipe_printf },
    { "recipe_kernel_files", check_recipe_kernel_files },
    { "recipe_deadlock", check_recipe_deadlock },
    { "recipe_checked", check_recipe_checked },
    { "readme_hello", check_readme_hello },
    { "arguments_sample", check_arguments_sample },
};
#define NPROGRAMS (int)(sizeof programs / sizeof programs[0])

TEST(tutorial_01_passthrough) { check_01_passthrough(); }
TEST(tutorial_02_vector_add) { check_02_vector_add(); }
TEST(tutorial_03_params) { check_03_params(); }
TEST(tutorial_04_multi_column) { check_04_multi_column(); }
TEST(tutorial_05_mlir) { check_05_mlir(); }
TEST(tutorial_06_timing) { check_06_timing(); }
TEST(tutorial_recipe_probe) { check_recipe_probe(); }
TEST(tutorial_recipe_printf) { check_recipe_printf(); }
TEST(tutorial_recipe_kernel_files) { check_recipe_kernel_files(); }
TEST(tutorial_recipe_deadlock) { check_recipe_deadlock(); }
TEST(tutorial_recipe_checked) { check_recipe_checked(); }
TEST(tutorial_readme_hello) { check_readme_hello(); }
TEST(tutorial_arguments_sample) { check_arguments_sample(); }

/* Every program in `dir` is in the table (and, when `extra` is not NULL,
 * that one too); returns how many there are. */
static int count_known_programs(const char *dir, const char *extra)
{
    DIR *dp = opendir(dir);
    if (!dp)
        TEST_FAIL_("cannot open %s", dir);
    int found = 0;
    for (struct dirent *e; (e = readdir(dp)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        int known = extra && strcmp(e->d_name, extra) == 0;
        for (int i = 0; i < NPROGRAMS; i++)
            known |= strcmp(e->d_name, programs[i].name) == 0;
        if (!known)
            TEST_FAIL_("%s/%s has no test in test_tutorial.c", dir,
                       e->d_name);
        found++;
    }
    closedir(dp);
    return found;
}

TEST(tutorial_every_program_is_tested)
{
    ASSERT_EQ(count_known_programs(tutorial_dir(), NULL), NPROGRAMS);
}

/* Where the first line that differs between two texts starts (the same
 * offset in both), or -1 when they are equal. */
static long first_difference(const char *a, const char *b)
{
    long line = 0, i = 0;
    for (; a[i] && a[i] == b[i]; i++)
        if (a[i] == '\n')
            line = i + 1;
    return a[i] == b[i] ? -1 : line;
}

/* The length of the line at s. */
static int line_len(const char *s)
{
    return (int)strcspn(s, "\n");
}

/* One C++ build, $IRON_TEST_CXX_DIR/<variant>: header_use prints what
 * its C11 build prints, and each program passes its check.  A variant
 * missing from $IRON_TEST_CXX_VARIANTS (what `make test` built) fails the
 * test, except clang++'s, which is built only when clang++ is
 * installed. */
static void check_cxx_variant(const char *variant)
{
    const char *root = getenv("IRON_TEST_CXX_DIR");
    if (!root || !root[0])
        TEST_FAIL_("IRON_TEST_CXX_DIR is not set (run through `make test`)");
    if (!test_variant_built("IRON_TEST_CXX_VARIANTS", variant))
        return;
    snprintf(program_dir, sizeof program_dir, "%s/c11", root);
    ASSERT_EQ(run_program("header_use", NULL), 0);
    ASSERT_CONTAINS(out, "header_use: all ");
    char *c11 = strdup(out);
    snprintf(program_dir, sizeof program_dir, "%s/%s", root, variant);
    ASSERT_EQ(count_known_programs(program_dir, "header_use"), NPROGRAMS + 1);
    ASSERT_EQ(run_program("header_use", NULL), 0);
    long at = first_difference(c11, out);
    if (at >= 0)
        TEST_FAIL_("%s/header_use prints otherwise than its C11 build: "
                   "\"%.*s\" vs \"%.*s\"",
                   program_dir, line_len(out + at), out + at,
                   line_len(c11 + at), c11 + at);
    free(c11);
    for (int i = 0; i < NPROGRAMS; i++)
        programs[i].check();
}

/* What the C++ builds are checked against: header_use as C11. */
TEST(tutorial_header_use_c11)
{
    const char *root = getenv("IRON_TEST_CXX_DIR");
    if (!root || !root[0])
        TEST_FAIL_("IRON_TEST_CXX_DIR is not set (run through `make test`)");
    snprintf(program_dir, sizeof program_dir, "%s/c11", root);
    ASSERT_EQ(run_program("header_use", NULL), 0);
    ASSERT_CONTAINS(out, "IRON_SHAPE(size_t, uint64_t, short): ndim 3: "
                         "3 5 2");
    ASSERT_CONTAINS(out, "IRON_WITH_DEVICE: npu1, nested npu2_2col, back to "
                         "npu1");
    ASSERT_CONTAINS(out, "IRON_ARGS: 6: int/1/0 float/0/0.5 handle/3/0 "
                         "rtp/0/0 barrier/0/0 kernel/0/0");
    ASSERT_CONTAINS(out, "IRON_PARAMS: 6: tile=16 scale=0.5 neg=1 op='-' "
                         "T=int16 f=kernel scale");
    ASSERT_CONTAINS(out, "IRON_SCALARS: 2: offset=64 k=-3");
    ASSERT_CONTAINS(out, "IRON_TENSORS: 11 32");
    ASSERT_CONTAINS(out, "IRON_CALL: y = 0 2 4 ... 62");
    ASSERT_CONTAINS(out, "IRON_CALL_WITH tile 16, neg, offset 100: "
                         "y = -100 -98 -96 ... -38");
    ASSERT_CONTAINS(out, "iron_jit_launch on npu1_1col, scale 3, add 1000: "
                         "y = 1000 1003 1006 ... 1093");
    ASSERT_CONTAINS(out, "iron_jit_start, add 7: y = 7 9 11 ... 69");
    ASSERT_CONTAINS(out, "output lines: 3; last: w (0,2) #0: body: n = 8, "
                         "s = 3");
    ASSERT_CONTAINS(out, "is the same tensor as argument 0 ('x')");
    ASSERT_CONTAINS(out, "iron_k_abs_sat_i32(INT32_MIN) = 2147483647");
    ASSERT_CONTAINS(out, "iron_driver_register (ABI ");   /* the next one */
    ASSERT_CONTAINS(out, "): IRON_EINVAL");
    ASSERT_CONTAINS(out, "header_use: all ");
}

TEST_TIMEOUT(tutorial_cxx_gcc_17, 300) { check_cxx_variant("g++-c++17"); }
TEST_TIMEOUT(tutorial_cxx_gcc_20, 300) { check_cxx_variant("g++-c++20"); }
TEST_TIMEOUT(tutorial_cxx_clang_17, 300)
{
    check_cxx_variant("clang++-c++17");
}
TEST_TIMEOUT(tutorial_cxx_clang_20, 300)
{
    check_cxx_variant("clang++-c++20");
}

/* The file a code block of a document quotes, from its first line, into
 * `file`: a ```c or ```cpp block opening with a comment naming a program
 * ("/" "* examples/tutorial/NAME.c *" "/") or tests/cxx/header_use.c, or a
 * ```python block opening with one naming a Python program ("# examples/
 * tutorial/python/NAME.py").  0 for any other block. */
static int quoted_file(const char *lang, size_t lang_len, const char *body,
                       char file[256])
{
    if ((lang_len == 1 && lang[0] == 'c') ||
        (lang_len == 3 && strncmp(lang, "cpp", 3) == 0))
        return sscanf(body, "/* %255s */", file) == 1 &&
               (strncmp(file, "examples/tutorial/", 18) == 0 ||
                strcmp(file, "tests/cxx/header_use.c") == 0);
    if (lang_len == 6 && strncmp(lang, "python", 6) == 0) {
        if (sscanf(body, "# %255s", file) != 1 ||
            strncmp(file, "examples/tutorial/python/", 25) != 0)
            return 0;
        size_t n = strlen(file);
        return n > 3 && strcmp(file + n - 3, ".py") == 0;
    }
    return 0;
}

/* Checks every code block of `doc` that quotes a file (quoted_file): the
 * rest of the block must appear, byte for byte, in that file.  Returns
 * the blocks checked. */
static int check_doc_blocks(const char *doc)
{
    size_t len = 0;
    char *text = (char *)test_slurp(doc, &len);
    text[len] = '\0';
    int checked = 0;
    const char *p = text;
    /* Every fence opens a block; its closing fence is the next one. */
    while ((p = strstr(p, "\n```")) != NULL) {
        const char *lang = p + 4;
        size_t lang_len = strcspn(lang, "\n");
        if (lang[lang_len] == '\0')
            break;
        const char *body = lang + lang_len + 1;
        const char *end = strstr(body - 1, "\n```");
        ASSERT(end != NULL);
        p = end + 4;
        char file[256];
        if (!quoted_file(lang, lang_len, body, file))
            continue;
        const char *code = strchr(body, '\n') + 1;
        size_t n = (size_t)(end - code) + 1; /* with its last newline */
        size_t flen = 0;
        char *src = (char *)test_slurp(file, &flen);
        src[flen] = '\0';
        char *want = strndup(code, n);
        if (!strstr(src, want))
            TEST_FAIL_("%s: a block marked %s is not in that file:\n%s", doc,
                       file, want);
        free(want);
        free(src);
        checked++;
    }
    free(text);
    return checked;
}

TEST(tutorial_docs_quote_the_programs)
{
    ASSERT_GE(check_doc_blocks("README.md"), 1);
    /* 10 quotes of the C programs, 8 of the Python ones. */
    ASSERT_GE(check_doc_blocks("docs/tutorial.md"), 18);
    ASSERT_GE(check_doc_blocks("docs/cookbook.md"), 5);
    ASSERT_GE(check_doc_blocks("docs/mlir.md"), 2);
    ASSERT_GE(check_doc_blocks("docs/cpp.md"), 3);
}

/* The `iron tap` picture the cookbook shows. */
TEST(tutorial_cookbook_tap_picture)
{
    const char *cli = getenv("IRON_CLI");
    if (!cli || !cli[0])
        TEST_FAIL_("IRON_CLI is not set (run through `make test`)");
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' tap --shape 4x4 --sizes 2,2,2,2 --strides 8,2,4,1", cli);
    FILE *p = popen(cmd, "r");
    ASSERT(p != NULL);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    ASSERT_EQ(pclose(p), 0);
    size_t len = 0;
    char *doc = (char *)test_slurp("docs/cookbook.md", &len);
    doc[len] = '\0';
    ASSERT_CONTAINS(doc, out);
    free(doc);
}
