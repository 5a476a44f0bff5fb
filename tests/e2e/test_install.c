/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_install.c - the library as installed: `make install` into a fresh
 * prefix (the real rule, on this very build), then examples/install/main.c
 * built against it with pkg-config (shared and static) and with CMake's
 * find_package (iron::iron and iron::iron_static), each program run (it
 * prints the version and runs a small design whose kernel includes
 * <iron/iron_kernel.h>) and checked for the soname it needs; the Python
 * package beside it imported from the prefix.  The CMake build runs after
 * the prefix has been moved: its files must find themselves.  The licence
 * is installed.  Then `make uninstall`, which must leave nothing of the
 * library's in the prefix, and nothing else missing.
 *
 * Run from the repository root by `make test`, which sets IRON_BUILD (the
 * build folder to install from), IRON_SAN (sanitizer flags the consumers
 * need to link with an instrumented library) and IRON_PYTHON (the
 * interpreter the package is built for).
 */
#include <stdarg.h>
#include <unistd.h>

#include "test.h"

static char log_path[256];

/* Runs a shell command with its output appended to the log; on failure
 * the test ends showing the command and the end of the log. */
static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
    char cmd[4096], full[4400];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    ASSERT(n > 0 && (size_t)n < sizeof cmd);
    snprintf(full, sizeof full, "{ %s ; } >>'%s' 2>&1", cmd, log_path);
    int st = system(full);
    if (st != 0) {
        char tail[600];
        snprintf(tail, sizeof tail, "tail -n 25 '%s' >&2", log_path);
        fprintf(stderr, "--- end of the log:\n");
        fflush(stderr);
        if (system(tail) != 0)
            fprintf(stderr, "(no log)\n");
        TEST_FAIL_("command failed (status %d): %s", st, cmd);
    }
}

/* The first line of a command's output (trailing newline removed). */
static void sh_line(char *out, size_t len, const char *cmd)
{
    FILE *p = popen(cmd, "r");
    ASSERT(p != NULL);
    if (!fgets(out, (int)len, p))
        out[0] = '\0';
    pclose(p);
    out[strcspn(out, "\n")] = '\0';
}

/* The program prints the version and "ok" for its run.  Under a
 * sanitizer build the leak check at its exit is left out: the tests
 * check leaks their own way (test_leaks), and this one is about the
 * install. */
static void run_app(const char *path)
{
    char cmd[600], out[4096];
    snprintf(cmd, sizeof cmd,
             "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
             "'%s' 2>&1", path);
    FILE *p = popen(cmd, "r");
    ASSERT(p != NULL);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    if (st != 0)
        TEST_FAIL_("%s exited with status %d: %s", path, st, out);
    char want[64];
    snprintf(want, sizeof want, "iron %s\n", IRON_VERSION_STRING);
    ASSERT_CONTAINS(out, want);
    ASSERT_CONTAINS(out, "add_100 on the emulated NPU: ok");
}

/* Whether the program's dynamic section needs libiron.so.<soversion>
 * (1), some other libiron (-1) or none (0). */
static int needs_libiron(const char *path, const char *soname)
{
    char cmd[600], line[512];
    snprintf(cmd, sizeof cmd,
             "readelf -d '%s' | sed -n 's/.*NEEDED.*\\[\\(libiron[^]]*\\)\\]"
             ".*/\\1/p'", path);
    sh_line(line, sizeof line, cmd);
    if (!line[0])
        return 0;
    return strcmp(line, soname) == 0 ? 1 : -1;
}

static int have(const char *tool)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
    return system(cmd) == 0;
}

/* The soname the Makefile gives: libiron.so.0.MINOR before 1.0, then
 * libiron.so.MAJOR. */
static void expected_soname(char *out, size_t len)
{
    if (IRON_VERSION_MAJOR == 0)
        snprintf(out, len, "libiron.so.0.%d", IRON_VERSION_MINOR);
    else
        snprintf(out, len, "libiron.so.%d", IRON_VERSION_MAJOR);
}

/* The Python package, installed beside the library (`make test` has the
 * interpreter's headers and numpy, so install takes it): its extension
 * needs no libiron.so, and, unless instrumented (its sanitizer's runtime
 * would have to be preloaded), it imports from the prefix alone. */
static void check_python_package(const char *prefix, const char *soname,
                                 const char *san)
{
    char cmd[1400], ext[512], out[4096];
    snprintf(cmd, sizeof cmd,
             "ls -d '%s'/lib/python3.*/dist-packages/iron/_iron.*.so "
             "2>/dev/null", prefix);
    sh_line(ext, sizeof ext, cmd);
    if (!ext[0])
        TEST_FAIL_("no iron/_iron.*.so under %s/lib/python3.*/"
                   "dist-packages", prefix);
    ASSERT_EQ(needs_libiron(ext, soname), 0);
    if (san[0])
        return;
    char site[512];
    snprintf(site, sizeof site, "%s", ext);
    *strrchr(site, '/') = '\0';   /* .../dist-packages/iron */
    *strrchr(site, '/') = '\0';   /* .../dist-packages */
    const char *python = getenv("IRON_PYTHON");
    snprintf(cmd, sizeof cmd,
             "cd / && env -u PYTHONPATH PYTHONPATH='%s' "
             "PYTHONDONTWRITEBYTECODE=1 '%s' -c 'import iron "
             "; print(iron.__file__); print(iron.arange(3).numpy()"
             ".tolist())' 2>&1", site, python && *python ? python : "python3");
    FILE *p = popen(cmd, "r");
    ASSERT(p != NULL);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    if (st != 0)
        TEST_FAIL_("importing the installed package failed (status %d): %s",
                   st, out);
    ASSERT_CONTAINS(out, site);
    ASSERT_CONTAINS(out, "[0, 1, 2]\n");
}

TEST_TIMEOUT(install_prefix_consumers_pkg_config_and_cmake, 180)
{
    if (!have("cmake")) {
        printf("cmake not found (apt-get install cmake): skipped\n");
        return;
    }
    ASSERT(have("pkg-config"));
    ASSERT(have("readelf"));
    ASSERT_EQ(access("examples/install/main.c", R_OK), 0);
    const char *build = getenv("IRON_BUILD");
    if (!build || !build[0])
        TEST_FAIL_("IRON_BUILD is not set (run through `make test`)");
    const char *san = getenv("IRON_SAN");
    if (!san)
        san = "";

    char *tmp = test_cache_temp_dir("iron-test", "install");
    char prefix[300], moved[300], soname[64], line[512];
    snprintf(log_path, sizeof log_path, "%s/log.txt", tmp);
    snprintf(prefix, sizeof prefix, "%s/prefix", tmp);
    snprintf(moved, sizeof moved, "%s/moved", tmp);
    expected_soname(soname, sizeof soname);

    /* The real rule, on the build `make test` just made (nothing is
     * rebuilt; SAN only in case).  The environment of that make (its
     * jobserver, its command-line variables) is not passed on. */
    sh("env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory "
       "-s BUILD='%s' SAN='%s' PREFIX='%s' install", build, san, prefix);

    char lib[400];
    snprintf(lib, sizeof lib, "%s/lib/libiron.so.%s", prefix,
             IRON_VERSION_STRING);
    ASSERT_EQ(access(lib, R_OK), 0);
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "readelf -d '%s' | sed -n 's/.*SONAME.*\\[\\(.*\\)\\].*/\\1/p'",
             lib);
    sh_line(line, sizeof line, cmd);
    ASSERT_STR_EQ(line, soname);
    snprintf(cmd, sizeof cmd, "readlink '%s/lib/%s'", prefix, soname);
    sh_line(line, sizeof line, cmd);
    snprintf(lib, sizeof lib, "libiron.so.%s", IRON_VERSION_STRING);
    ASSERT_STR_EQ(line, lib);
    snprintf(cmd, sizeof cmd, "readlink '%s/lib/libiron.so'", prefix);
    sh_line(line, sizeof line, cmd);
    ASSERT_STR_EQ(line, soname);
    snprintf(lib, sizeof lib, "%s/include/iron/iron_kernel.h", prefix);
    ASSERT_EQ(access(lib, R_OK), 0);
    /* The C++ kernels' headers (the AIE API), under include/iron/kernel/
     * as in the source tree. */
    snprintf(lib, sizeof lib, "%s/include/iron/kernel/aie_api/aie.hpp",
             prefix);
    ASSERT_EQ(access(lib, R_OK), 0);

    /* pkg-config: the prefix and version it reports, then both links. */
    char pc[400];
    snprintf(pc, sizeof pc, "PKG_CONFIG_PATH='%s/lib/pkgconfig'", prefix);
    snprintf(cmd, sizeof cmd, "%s pkg-config --modversion iron", pc);
    sh_line(line, sizeof line, cmd);
    ASSERT_STR_EQ(line, IRON_VERSION_STRING);
    snprintf(cmd, sizeof cmd, "%s pkg-config --variable=prefix iron", pc);
    sh_line(line, sizeof line, cmd);
    ASSERT_STR_EQ(line, prefix);
    snprintf(cmd, sizeof cmd, "%s pkg-config --static --libs iron", pc);
    sh_line(line, sizeof line, cmd);
    ASSERT_CONTAINS(line, "-liron");
    ASSERT_CONTAINS(line, "-lboost_context");

    sh("export %s; cc -std=c11 -Wall -Wextra -Werror %s "
       "examples/install/main.c -o '%s/app_pc' "
       "$(pkg-config --cflags --libs iron) -Wl,-rpath,'%s/lib'",
       pc, san, tmp, prefix);
    sh("export %s; cc -std=c11 -Wall -Wextra -Werror %s "
       "examples/install/main.c -o '%s/app_pc_static' "
       "$(pkg-config --static --cflags --libs iron-static)",
       pc, san, tmp);
    char app[400];
    snprintf(app, sizeof app, "%s/app_pc", tmp);
    run_app(app);
    ASSERT_EQ(needs_libiron(app, soname), 1);
    snprintf(app, sizeof app, "%s/app_pc_static", tmp);
    run_app(app);
    ASSERT_EQ(needs_libiron(app, soname), 0);

    check_python_package(prefix, soname, san);

    /* CMake, from the prefix moved elsewhere: nothing in the package may
     * name where it was installed. */
    sh("mv '%s' '%s'", prefix, moved);
    sh("cmake -S examples/install -B '%s/cmake-build' "
       "-DCMAKE_PREFIX_PATH='%s' -DCMAKE_C_FLAGS='%s' "
       "-DCMAKE_EXE_LINKER_FLAGS='%s'", tmp, moved, san, san);
    sh("cmake --build '%s/cmake-build' -j 2", tmp);
    snprintf(app, sizeof app, "%s/cmake-build/app", tmp);
    run_app(app);
    ASSERT_EQ(needs_libiron(app, soname), 1);
    snprintf(app, sizeof app, "%s/cmake-build/app_static", tmp);
    run_app(app);
    ASSERT_EQ(needs_libiron(app, soname), 0);

    /* The version rule: before 1.0 only the same minor is compatible. */
    char script[400];
    snprintf(script, sizeof script, "%s/version.cmake", tmp);
    FILE *f = fopen(script, "w");
    ASSERT(f != NULL);
    fprintf(f,
            "cmake_minimum_required(VERSION 3.13)\n"
            "foreach(v \"\" 0 0.%d 0.%d.0 0.%d 0.%d.9 1.0)\n"
            "  set(PACKAGE_FIND_VERSION \"${v}\")\n"
            "  string(REPLACE \".\" \";\" p \"${v}.0.0\")\n"
            "  list(GET p 0 PACKAGE_FIND_VERSION_MAJOR)\n"
            "  list(GET p 1 PACKAGE_FIND_VERSION_MINOR)\n"
            "  string(REGEX MATCHALL \"[0-9]+\" c \"${v}\")\n"
            "  list(LENGTH c PACKAGE_FIND_VERSION_COUNT)\n"
            "  unset(PACKAGE_VERSION_COMPATIBLE)\n"
            "  include(\"%s/lib/cmake/iron/ironConfigVersion.cmake\")\n"
            "  string(APPEND out \"${PACKAGE_VERSION_COMPATIBLE} \")\n"
            "endforeach()\n"
            "message(\"${out}\")\n",
            IRON_VERSION_MINOR, IRON_VERSION_MINOR, IRON_VERSION_MINOR + 1,
            IRON_VERSION_MINOR + 1, moved);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cmake -P '%s' 2>&1", script);
    sh_line(line, sizeof line, cmd);
    /* any, 0, 0.MINOR, 0.MINOR.0: yes; a newer minor or 1.0: no */
    if (IRON_VERSION_MAJOR == 0)
        ASSERT_STR_EQ(line, "TRUE TRUE TRUE TRUE FALSE FALSE FALSE ");

    test_drop_dir(tmp);
}

/* Runs `make ARGS` on the build `make test` made, without the outer
 * make's environment (its jobserver, its command-line variables). */
static void make_on_build(const char *args)
{
    const char *build = getenv("IRON_BUILD");
    if (!build || !build[0])
        TEST_FAIL_("IRON_BUILD is not set (run through `make test`)");
    const char *san = getenv("IRON_SAN");
    sh("env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory "
       "-s BUILD='%s' SAN='%s' %s", build, san ? san : "", args);
}

/* What is left under `dir` apart from folders, one path a line relative
 * to it, sorted; and the paths whose name says iron, folders included. */
static void leftovers(const char *dir, char *files, char *irons, size_t len)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cd '%s' && find . ! -type d | sort", dir);
    FILE *p = popen(cmd, "r");
    ASSERT(p != NULL);
    size_t n = fread(files, 1, len - 1, p);
    files[n] = '\0';
    pclose(p);
    snprintf(cmd, sizeof cmd, "cd '%s' && find . -name '*iron*' | sort", dir);
    p = popen(cmd, "r");
    ASSERT(p != NULL);
    n = fread(irons, 1, len - 1, p);
    irons[n] = '\0';
    pclose(p);
}

/* `make uninstall` removes what `make install` put in the prefix (with
 * DESTDIR too) and nothing else: a file of another's stays, even in
 * include/iron, which is kept then; run again once it is gone, the
 * prefix holds nothing of the library's. */
TEST_TIMEOUT(install_uninstall_removes_what_install_put, 120)
{
    char *tmp = test_cache_temp_dir("iron-test", "uninstall");
    char prefix[300], stage[300], path[400], args[1000];
    char files[4096], irons[4096];
    snprintf(log_path, sizeof log_path, "%s/log.txt", tmp);
    snprintf(prefix, sizeof prefix, "%s/prefix", tmp);

    snprintf(args, sizeof args, "PREFIX='%s' install", prefix);
    make_on_build(args);
    snprintf(path, sizeof path, "%s/lib/libiron.so.%s", prefix,
             IRON_VERSION_STRING);
    ASSERT_EQ(access(path, R_OK), 0);
    /* The licence, as in the repository. */
    sh("cmp LICENSE '%s/share/doc/iron/LICENSE'", prefix);
    sh("touch '%s/lib/other.so' '%s/include/iron/mine.h'", prefix, prefix);
    snprintf(args, sizeof args, "PREFIX='%s' uninstall", prefix);
    make_on_build(args);
    leftovers(prefix, files, irons, sizeof files);
    ASSERT_STR_EQ(files, "./include/iron/mine.h\n./lib/other.so\n");
    ASSERT_STR_EQ(irons, "./include/iron\n");
    sh("rm '%s/lib/other.so' '%s/include/iron/mine.h'", prefix, prefix);
    make_on_build(args);
    leftovers(prefix, files, irons, sizeof files);
    ASSERT_STR_EQ(files, "");
    ASSERT_STR_EQ(irons, "");

    /* Staged: the files land under DESTDIR, the .pc files name PREFIX. */
    snprintf(stage, sizeof stage, "%s/stage", tmp);
    snprintf(args, sizeof args, "PREFIX=/opt/pkg DESTDIR='%s' install",
             stage);
    make_on_build(args);
    snprintf(path, sizeof path, "%s/opt/pkg/lib/pkgconfig/iron.pc",
             stage);
    char *pc = (char *)test_slurp(path, NULL);
    ASSERT_CONTAINS(pc, "prefix=/opt/pkg\n");
    free(pc);
    snprintf(args, sizeof args,
             "PREFIX=/opt/pkg DESTDIR='%s' uninstall", stage);
    make_on_build(args);
    leftovers(stage, files, irons, sizeof files);
    ASSERT_STR_EQ(files, "");
    ASSERT_STR_EQ(irons, "");
    test_drop_dir(tmp);
}
