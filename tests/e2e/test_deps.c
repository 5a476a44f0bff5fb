/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_deps.c - the package checks of the Makefile (tools/deps.sh): the
 * library needs only the build packages, each list is said once, and on
 * a system without dpkg (a PATH that hides it) the check names the
 * missing libraries instead, or is skipped with DEPS_CHECK=none.
 *
 * Run from the repository root by `make test`.  apt-get is always a stub
 * here, so that no test installs anything.
 */
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

static char out[8192];

/* A folder whose entries link to every program of the system's bin
 * folders except dpkg* and apt-get, plus stubs: apt-get appends its
 * arguments to <dir>/apt.log; with fake_dpkg, a dpkg whose `-s` fails for
 * the packages in $FAKE_DPKG_MISSING.  Returns the folder (malloc'd). */
static char *path_without_dpkg(int fake_dpkg)
{
    char *dir = test_cache_temp_dir("iron-test", "nodpkg");
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && for d in /usr/local/bin /usr/local/sbin /usr/bin "
             "/usr/sbin /bin /sbin; do for f in \"$d\"/*; do n=${f##*/}; "
             "case $n in dpkg*|apt-get) continue ;; esac; "
             "[ -e \"$n\" ] || ln -s \"$f\" \"$n\"; done; done",
             dir);
    ASSERT_EQ(system(cmd), 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/apt-get", dir);
    char stub[1400];
    snprintf(stub, sizeof stub,
             "#!/bin/sh\necho \"apt-get $*\" >> '%s/apt.log'\nexit 0\n", dir);
    test_spit(path, stub, strlen(stub));
    ASSERT_EQ(chmod(path, 0755), 0);
    if (fake_dpkg) {
        static const char dpkg[] =
            "#!/bin/sh\n"
            "[ \"$1\" = -s ] || exit 2\n"
            "shift\n"
            "for p; do\n"
            "    case \" $FAKE_DPKG_MISSING \" in *\" $p \"*) exit 1 ;; esac\n"
            "done\n"
            "exit 0\n";
        snprintf(path, sizeof path, "%s/dpkg", dir);
        test_spit(path, dpkg, strlen(dpkg));
        ASSERT_EQ(chmod(path, 0755), 0);
    }
    return dir;
}

/* Runs `make -s ARGS` from the repository root with PATH set to `path`
 * (the rest of the environment as given in `env`, and without the outer
 * make's variables); output (both streams) in `out`; returns make's exit
 * status. */
static int run_make(const char *path, const char *env, const char *args)
{
    char cmd[3000];
    snprintf(cmd, sizeof cmd,
             "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH='%s' %s "
             "make -s --no-print-directory %s 2>&1",
             path, env, args);
    FILE *p = popen(cmd, "r");
    ASSERT(p != NULL);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* No dpkg: the check goes through pkg-config and names what is missing
 * by library; with everything there it says nothing. */
TEST_TIMEOUT(deps_without_dpkg_checks_libraries_by_name, 60)
{
    char *dir = path_without_dpkg(0);
    ASSERT_EQ(run_make(dir, "", "deps"), 0);
    ASSERT_STR_EQ(out, "");
    /* An empty pkg-config search path, and a compiler whose links fail:
     * every library is missing. */
    char empty[600];
    snprintf(empty, sizeof empty, "PKG_CONFIG_LIBDIR='%s/none'", dir);
    ASSERT_EQ(run_make(dir, empty,
                       "deps CC='cc -Wl,--iron-no-such-option'"),
              2);
    ASSERT_CONTAINS(out, "deps: missing for the build (checked without "
                         "dpkg):");
    ASSERT_CONTAINS(out, "  libxxhash (pkg-config libxxhash)\n");
    ASSERT_CONTAINS(out, "  nettle (pkg-config nettle)\n");
    ASSERT_CONTAINS(out, "  jansson (pkg-config jansson)\n");
    ASSERT_CONTAINS(out, "  libdw (pkg-config libdw)\n");
    ASSERT_CONTAINS(out, "  libboost_context (-lboost_context, "
                         "jump_fcontext)\n");
    ASSERT_CONTAINS(out, "  <dlpack/dlpack.h>\n");
    ASSERT_CONTAINS(out, "Debian names them gcc libxxhash-dev nettle-dev "
                         "libboost-context-dev libdw-dev libjansson-dev "
                         "libdlpack-dev");
    ASSERT_CONTAINS(out, "make DEPS_CHECK=none");
    /* The same through the switch, with dpkg or without. */
    ASSERT_EQ(run_make(dir, empty, "DEPS_CHECK=pkg-config deps"), 2);
    ASSERT_CONTAINS(out, "  libxxhash (pkg-config libxxhash)\n");
    snprintf(empty, sizeof empty, "%s/apt.log", dir);
    ASSERT(access(empty, F_OK) != 0);
    test_drop_dir(dir);
}

/* No dpkg: the Python packages are checked through the interpreter the
 * build uses ($PYTHON): its headers, numpy with its C headers, pytest --
 * each named with the interpreter when missing. */
TEST_TIMEOUT(deps_without_dpkg_checks_python_modules, 60)
{
    char *dir = path_without_dpkg(0);
    ASSERT_EQ(run_make(dir, "", "deps-python deps-test"), 0);
    ASSERT_STR_EQ(out, "");
    ASSERT_EQ(run_make(dir, "", "deps-test PYTHON=/bin/false"), 2);
    ASSERT_CONTAINS(out, "deps: missing for the test (checked without "
                         "dpkg):");
    ASSERT_CONTAINS(out, "  Python.h for /bin/false (its headers)\n");
    ASSERT_CONTAINS(out, "  numpy for /bin/false (import numpy, and its C "
                         "headers)\n");
    ASSERT_CONTAINS(out, "  pytest for /bin/false (import pytest)\n");
    ASSERT_CONTAINS(out, "Debian names them python3-dev python3-numpy "
                         "python3-pytest;");
    test_drop_dir(dir);
}

TEST_TIMEOUT(deps_check_none_checks_nothing, 60)
{
    char *dir = path_without_dpkg(0);
    char env[600];
    snprintf(env, sizeof env, "PKG_CONFIG_LIBDIR='%s/none'", dir);
    ASSERT_EQ(run_make(dir, env,
                       "DEPS_CHECK=none deps deps-test deps-clang "
                       "CC='cc -Wl,--iron-no-such-option'"),
              0);
    ASSERT_STR_EQ(out, "");
    ASSERT_EQ(run_make(dir, "", "DEPS_CHECK=dpkgg deps"), 2);
    ASSERT_CONTAINS(out, "DEPS_CHECK=dpkgg: expected auto, dpkg, pkg-config "
                         "or none");
    test_drop_dir(dir);
}

/* With dpkg: the library's check does not want the test packages, and
 * the tests' check asks for what is missing, no more. */
TEST_TIMEOUT(deps_dpkg_asks_only_for_what_is_missing, 60)
{
    char *dir = path_without_dpkg(1);
    const char *missing = "FAKE_DPKG_MISSING='cmake mlir-19-tools'";
    ASSERT_EQ(run_make(dir, missing, "deps"), 0);
    ASSERT_STR_EQ(out, "");
    char log[600];
    snprintf(log, sizeof log, "%s/apt.log", dir);
    ASSERT(access(log, F_OK) != 0);
    int st = run_make(dir, missing, "deps-test");
    if (getuid() == 0) {
        /* As root the missing ones are installed (by the stub here). */
        ASSERT_EQ(st, 0);
        ASSERT_CONTAINS(out, "deps: installing the test packages cmake "
                             "mlir-19-tools");
        char *text = (char *)test_slurp(log, NULL);
        ASSERT_CONTAINS(text, "apt-get update -q\n");
        ASSERT_CONTAINS(text, "apt-get install -y -q --no-install-recommends "
                              "cmake mlir-19-tools\n");
        free(text);
    } else {
        ASSERT_EQ(st, 2);
        ASSERT_CONTAINS(out, "deps: missing test packages; run: sudo apt-get "
                             "install cmake mlir-19-tools");
    }
    test_drop_dir(dir);
}

/* One list per kind of target, in the Makefile only: .ci/run has make
 * install them. */
TEST(deps_lists_are_said_once)
{
    ASSERT_EQ(run_make(getenv("PATH"), "", "deps-list"), 0);
    char build[1024], test[1024], clang[1024];
    ASSERT_EQ(sscanf(out, "%1023[^\n]\n%1023[^\n]\n%1023[^\n]", build, test,
                     clang),
              3);
    ASSERT_CONTAINS(build, "libxxhash-dev");
    ASSERT_CONTAINS(build, "libdlpack-dev");
    ASSERT(strstr(build, "cmake") == NULL);
    ASSERT(strstr(build, "mlir") == NULL);
    ASSERT(strstr(build, "g++") == NULL);
    ASSERT_CONTAINS(test, "cmake");
    ASSERT_CONTAINS(test, "mlir-19-tools");
    ASSERT_CONTAINS(test, "g++");
    ASSERT_CONTAINS(clang, "clang");
    char *ci = (char *)test_slurp(".ci/run", NULL);
    ASSERT_CONTAINS(ci, "deps-all");
    ASSERT(strstr(ci, "libxxhash-dev") == NULL);
    ASSERT(strstr(ci, "mlir-19-tools") == NULL);
    free(ci);
}
