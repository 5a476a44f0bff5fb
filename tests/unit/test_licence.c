/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_licence.c - the licence is said everywhere it must be: LICENSE
 * holds the Apache License 2.0 and the LLVM exceptions, the README names
 * it, and every source file of the repository (C, headers, the build and
 * CI scripts, the CMake and pkg-config templates) opens with its SPDX
 * line -- test data (MLIR fixtures, fuzz corpora) aside.
 */
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>

#include "test.h"

#define SPDX "SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception"

/* Whether the SPDX line is among the first two lines (the second after
 * a #! line). */
static int has_spdx(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        TEST_FAIL_("cannot open %s", path);
    char line[256];
    int found = 0;
    for (int i = 0; i < 2 && !found && fgets(line, sizeof line, f); i++)
        found = strstr(line, SPDX) != NULL;
    fclose(f);
    return found;
}

static int is_source(const char *name)
{
    size_t n = strlen(name);
    static const char *const suffixes[] = { ".c",  ".h",   ".in", ".sh",
                                            ".py", ".hpp", ".cpp", ".cc" };
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        size_t s = strlen(suffixes[i]);
        if (n > s && strcmp(name + n - s, suffixes[i]) == 0)
            return 1;
    }
    return strcmp(name, "Makefile") == 0 || strcmp(name, "python.mk") == 0 ||
           strcmp(name, "CMakeLists.txt") == 0;
}

/* Checks every source file under path; returns how many. */
static int check_tree(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        TEST_FAIL_("%s not found (run from the repository's top folder)",
                   path);
    if (!S_ISDIR(st.st_mode)) {
        const char *base = strrchr(path, '/');
        if (!is_source(base ? base + 1 : path))
            return 0;
        if (!has_spdx(path))
            TEST_FAIL_("%s does not open with \"%s\"", path, SPDX);
        return 1;
    }
    if (strstr(path, "/fixtures") || strstr(path, "/corpus"))
        return 0;   /* test data, kept as it came */
    DIR *d = opendir(path);
    ASSERT(d != NULL);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char sub[PATH_MAX];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        n += check_tree(sub);
    }
    closedir(d);
    return n;
}

TEST(licence_every_source_file_has_its_spdx_line)
{
    static const char *const trees[] = { "src",   "include", "cli",
                                         "tests", "examples", "fuzz",
                                         "bench", "tools",   "cmake",
                                         "python", "Makefile" };
    int n = 0;
    for (size_t i = 0; i < sizeof trees / sizeof trees[0]; i++)
        n += check_tree(trees[i]);
    /* .ci/run has no suffix to know it by. */
    if (!has_spdx(".ci/run"))
        TEST_FAIL_(".ci/run does not open with \"%s\"", SPDX);
    ASSERT_GT(n, 300);
}

TEST(licence_file_and_readme)
{
    size_t len;
    char *lic = (char *)test_slurp("LICENSE", &len);
    ASSERT_CONTAINS(lic, "Apache License");
    ASSERT_CONTAINS(lic, "Version 2.0, January 2004");
    ASSERT_CONTAINS(lic, "LLVM Exceptions to the Apache 2.0 License");
    free(lic);
    char *readme = (char *)test_slurp("README.md", &len);
    ASSERT_CONTAINS(readme, "Apache-2.0 WITH LLVM-exception");
    ASSERT_CONTAINS(readme, "(LICENSE)");
    free(readme);
}
