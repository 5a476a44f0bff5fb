/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_aieapi.c - runs the host AIE API's unit-test programs
 * (tests/aieapi/test_*.cpp, built by `make test` once per compiler and
 * architecture into $IRON_AIEAPI_DIR/<compiler>-<arch>/): one test per
 * build, failing with the program's output when any of its checks fails,
 * or when a program of tests/aieapi has no build.  clang++'s builds exist
 * only when clang++ is installed.
 */
#include <dirent.h>
#include <unistd.h>

#include "test.h"

static void check_variant(const char *variant)
{
    const char *root = getenv("IRON_AIEAPI_DIR");
    if (!root || !root[0])
        TEST_FAIL_("IRON_AIEAPI_DIR is not set (run through `make test`)");
    if (!test_variant_built("IRON_AIEAPI", variant))
        return;
    DIR *d = opendir("tests/aieapi");
    if (!d)
        TEST_FAIL_("tests/aieapi not found (run from the repository's top "
                   "folder)");
    static char out[1 << 16];
    int programs = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (strncmp(e->d_name, "test_", 5) != 0 || n < 9 ||
            strcmp(e->d_name + n - 4, ".cpp") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s/%.*s", root, variant,
                 (int)(n - 4), e->d_name);
        char cmd[1100];
        snprintf(cmd, sizeof cmd, "'%s' 2>&1", path);
        int rc = test_run_shell(cmd, out, sizeof out);
        if (rc != 0 || !strstr(out, " passed, 0 failed"))
            TEST_FAIL_("%s exited with %d:\n%s", path, rc, out);
        const char *summary = strstr(out, "aieapi (");
        printf("%s: %s", path, summary ? summary : out);
        programs++;
    }
    closedir(d);
    ASSERT_GT(programs, 0);
}

TEST_TIMEOUT(aieapi_gcc_npu1, 120) { check_variant("g++-20"); }
TEST_TIMEOUT(aieapi_gcc_npu2, 120) { check_variant("g++-21"); }
TEST_TIMEOUT(aieapi_clang_npu1, 120) { check_variant("clang++-20"); }
TEST_TIMEOUT(aieapi_clang_npu2, 120) { check_variant("clang++-21"); }

/* A name of the AIE API nobody implements is a compile error naming it
 * (detail/unsupported.hpp), with each compiler. */
TEST_TIMEOUT(aieapi_unsupported_name_is_a_compile_error, 120)
{
    static const char *const calls[] = {
        "(void)aie::saturating_add(v, v);",
        "(void)aie::load_floor_v<16>(p);",
        "(void)aie::op_add(v);",
    };
    static const char *const names[] = { "aie::saturating_add",
                                         "aie::load_floor_v", "aie::op_add" };
    const char *built = getenv("IRON_AIEAPI");
    const char *compilers[2] = { "g++", built && strstr(built, "clang++") ? "clang++" : NULL };
    char dir[] = "/tmp/iron-aieapi-XXXXXX";
    ASSERT(mkdtemp(dir) != NULL);
    static char out[1 << 16];
    for (int c = 0; c < 2 && compilers[c]; c++)
        for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
            char src[300], cmd[900];
            snprintf(src, sizeof src, "%s/k.cc", dir);
            FILE *f = fopen(src, "w");
            ASSERT(f != NULL);
            fprintf(f, "#include <aie_api/aie.hpp>\n"
                       "void k(aie::vector<int16, 16> v, int16 *p) { %s }\n",
                    calls[i]);
            fclose(f);
            snprintf(cmd, sizeof cmd,
                     "%s -std=c++20 -D__AIE_ARCH__=20 -fsyntax-only "
                     "-Iinclude/iron/kernel %s 2>&1",
                     compilers[c], src);
            ASSERT_NE(test_run_shell(cmd, out, sizeof out), 0);
            char want[200];
            snprintf(want, sizeof want, "%s is not implemented on the host",
                     names[i]);
            if (!strstr(out, want))
                TEST_FAIL_("%s: no \"%s\" in:\n%s", compilers[c], want, out);
        }
    char src[300];
    snprintf(src, sizeof src, "%s/k.cc", dir);
    remove(src);
    rmdir(dir);
}
