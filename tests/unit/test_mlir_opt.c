/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_mlir_opt.c - the generic form iron prints is MLIR that upstream's
 * own parser and verifier accept: every syntax fixture's generic text is
 * given to mlir-opt (LLVM 19, --allow-unregistered-dialect).
 *
 * A known limit of MLIR shapes the check: func.call inside an
 * unregistered op's region (aie.core) fails mlir-opt's symbol check,
 * because an unregistered single-region op may be a symbol table.  So
 * (a) the whole generic text is verified with func.call renamed to an
 * unregistered op (every other op keeps its operand and type checks),
 * and (b) each aie.core's region, made a func.func beside the module's
 * func.func declarations (iron__mlir_print_cores_as_funcs), is verified
 * with its func.call ops as they are.
 *
 * mlir-opt is IRON_MLIR_OPT, else mlir-opt-19 or mlir-opt on PATH; when
 * none is found the tests fail (install mlir-19-tools).
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "mlir/ast.h"
#include "test.h"

#define FIXTURES "tests/fixtures/mlir/syntax"

static int on_path(const char *name, char *out, size_t n)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        size_t k = strcspn(path, ":");
        snprintf(out, n, "%.*s/%s", (int)k, path, name);
        if (k && access(out, X_OK) == 0)
            return 1;
        path += k + (path[k] == ':');
    }
    return 0;
}

static const char *mlir_opt(void)
{
    static char found[1024];
    const char *env = getenv("IRON_MLIR_OPT");
    if (env && *env)
        return env;
    if (on_path("mlir-opt-19", found, sizeof found) ||
        on_path("mlir-opt", found, sizeof found))
        return found;
    TEST_FAIL_("mlir-opt not found (set IRON_MLIR_OPT, or install "
               "mlir-19-tools: apt-get install mlir-19-tools)");
    return NULL;
}

/* Runs mlir-opt on file; its exit status, its messages in log. */
static int run_opt(const char *file, const char *log)
{
    const char *opt = mlir_opt();
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0)
            _exit(126);
        dup2(fd, 1);
        dup2(fd, 2);
        execl(opt, opt, "--allow-unregistered-dialect", "--verify-each",
              file, "-o", "/dev/null", (char *)NULL);
        _exit(127);
    }
    int status;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Replaces every `from` of text by `to` (malloc'd). */
static char *replace_all(const char *text, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), n = 0;
    for (const char *p = text; (p = strstr(p, from)) != NULL; p += nf)
        n++;
    char *out = malloc(strlen(text) + n * (nt > nf ? nt - nf : 0) + 1);
    ASSERT(out != NULL);
    char *o = out;
    const char *p = text, *q;
    while ((q = strstr(p, from)) != NULL) {
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        memcpy(o, to, nt);
        o += nt;
        p = q + nf;
    }
    strcpy(o, p);
    return out;
}

static void verify(const char *dir, const char *name, const char *what,
                   const char *text)
{
    char file[512], log[512];
    snprintf(file, sizeof file, "%s/%s.%s.mlir", dir, name, what);
    snprintf(log, sizeof log, "%s/%s.%s.log", dir, name, what);
    test_spit(file, text, strlen(text));
    int rc = run_opt(file, log);
    if (rc != 0) {
        char *msg = (char *)test_slurp(log, NULL);
        TEST_FAIL_("mlir-opt rejects the %s text of %s (exit %d):\n%s\n"
                   "--- text ---\n%s",
                   what, name, rc, msg, text);
    }
}

static int check_fixture(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, FIXTURES "/%s", name);
    size_t len;
    char *text = (char *)test_slurp(path, &len);
    iron__mlir_module *m = NULL;
    ASSERT_OK(iron__mlir_parse(text, len, name, &m));
    iron__str g = { 0 }, c = { 0 };
    ASSERT_OK(iron__mlir_print(m, 1, &g));
    ASSERT_OK(iron__mlir_print_cores_as_funcs(m, &c));
    char *renamed = replace_all(iron__str_get(&g), "\"func.call\"(",
                                "\"iron_test.call\"(");
    verify(dir, name, "generic", renamed);
    verify(dir, name, "cores", iron__str_get(&c));
    int calls = strstr(iron__str_get(&c), "\"func.call\"(") != NULL;
    free(renamed);
    iron__str_free(&g);
    iron__str_free(&c);
    iron__mlir_module_free(m);
    free(text);
    return calls;
}

TEST_TIMEOUT(mlir_opt_verifies_every_fixture, 120)
{
    (void)mlir_opt();
    const char *dir = test_temp_dir("mlir-opt");
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s", dir);
    DIR *d = opendir(FIXTURES);
    ASSERT(d != NULL);
    struct dirent *e;
    int n = 0, with_calls = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".mlir") != 0)
            continue;
        with_calls += check_fixture(tmp, e->d_name);
        n++;
    }
    closedir(d);
    ASSERT_GE(n, 8);
    /* the cores' func.call ops were checked against declarations */
    ASSERT_GE(with_calls, 3);
    test_remove_dir(tmp);
}

/* The check itself bites: a call of an undeclared function, a value of
 * the wrong type. */
TEST(mlir_opt_rejects_what_it_should)
{
    (void)mlir_opt();
    const char *dir = test_temp_dir("mlir-opt-bad");
    char tmp[256], file[512], log[512];
    snprintf(tmp, sizeof tmp, "%s", dir);
    const char *text =
        "aie.device(npu1) {\n  %t = aie.tile(0, 2)\n"
        "  %c = aie.core(%t) {\n    %z = arith.constant 0 : i32\n"
        "    func.call @nowhere(%z) : (i32) -> ()\n    aie.end\n  }\n}";
    iron__mlir_module *m = NULL;
    ASSERT_OK(iron__mlir_parse(text, strlen(text), "bad.mlir", &m));
    iron__str c = { 0 };
    ASSERT_OK(iron__mlir_print_cores_as_funcs(m, &c));
    snprintf(file, sizeof file, "%s/bad.mlir", tmp);
    snprintf(log, sizeof log, "%s/bad.log", tmp);
    test_spit(file, iron__str_get(&c), c.len);
    ASSERT_NE(run_opt(file, log), 0);
    char *msg = (char *)test_slurp(log, NULL);
    ASSERT_CONTAINS(msg, "does not reference a valid function");
    free(msg);
    iron__str_free(&c);
    iron__mlir_module_free(m);

    const char *typed = "\"builtin.module\"() ({\n  %0 = \"arith.constant\"()"
                        " <{value = 0 : i32}> : () -> i32\n  %1 = "
                        "\"arith.addi\"(%0, %0) : (i32, i32) -> i64\n}) : () "
                        "-> ()\n";
    snprintf(file, sizeof file, "%s/typed.mlir", tmp);
    test_spit(file, typed, strlen(typed));
    ASSERT_NE(run_opt(file, log), 0);
    test_remove_dir(tmp);
}
