/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_env.c - the one table of IRON_* variables: every row complete,
 * every bad value a warning naming the variable, the value and what is
 * accepted (once per value), the default applying, and the table in
 * `iron --help` and in every list of the variables the documents hold.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache/cache.h"
#include "core/core.h"
#include "core/env.h"
#include "core/log.h"
#include "designs/designs.h"
#include "emu/emu.h"
#include "jit/jit.h"
#include "test.h"

TEST(env_parse_int_strict)
{
    int64_t v = 0;
    ASSERT_EQ(iron__parse_int("1000", 1, 5000, &v), 0);
    ASSERT_EQ(v, 1000);
    ASSERT_EQ(iron__parse_int("-3", -5, 5, &v), 0);
    ASSERT_EQ(v, -3);
    const char *bad[] = { "1e3", "", " 5", "5 ", "12abc", "0x10", "5000.0",
                          "99999999999999999999", "6000", "0" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (iron__parse_int(bad[i], 1, 5000, &v) == 0)
            TEST_FAIL_("'%s' was accepted as %lld", bad[i], (long long)v);
}

TEST(env_parse_bytes_strict)
{
    uint64_t v = 0;
    ASSERT_EQ(iron__parse_bytes("4096", UINT64_MAX, &v), 0);
    ASSERT_EQ(v, 4096);
    ASSERT_EQ(iron__parse_bytes("64M", UINT64_MAX, &v), 0);
    ASSERT_EQ(v, 64ull << 20);
    ASSERT_EQ(iron__parse_bytes("2g", UINT64_MAX, &v), 0);
    ASSERT_EQ(v, 2ull << 30);
    const char *bad[] = { "1e400", "1e3", "-5", "", "M", "5MB", "1.5G",
                          "18446744073709551616", "17179869184G", "nan",
                          "inf" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (iron__parse_bytes(bad[i], UINT64_MAX, &v) == 0)
            TEST_FAIL_("'%s' was accepted as %llu", bad[i],
                       (unsigned long long)v);
}

/* Every row says what the variable means, accepts and defaults to, and
 * when it is read; names are unique IRON_* names. */
TEST(env_table_rows_complete)
{
    for (int i = 0; i < IRON__ENV_COUNT; i++) {
        const iron__env_var *v = iron__env_var_of((iron__env_id)i);
        ASSERT(v != NULL);
        ASSERT(v->name && strncmp(v->name, "IRON_", 5) == 0);
        ASSERT(v->meaning && v->meaning[0]);
        ASSERT(v->def && v->def[0]);
        ASSERT(v->accepts && v->accepts[0]);
        ASSERT(v->read && v->read[0]);
        ASSERT(v->parse != NULL);
        for (int k = 0; k < i; k++)
            ASSERT(strcmp(v->name, iron__env_var_of((iron__env_id)k)->name));
    }
    ASSERT(iron__env_var_of(IRON__ENV_COUNT) == NULL);
    ASSERT(iron__env_var_of((iron__env_id)-1) == NULL);
}

/* The table through the public API, as the `iron` command reads it: the
 * same rows in the same order, and each mistake named. */
TEST(env_public_table)
{
    ASSERT_EQ(iron_env_count(), IRON__ENV_COUNT);
    for (int i = 0; i < IRON__ENV_COUNT; i++) {
        const iron__env_var *v = iron__env_var_of((iron__env_id)i);
        iron_env_info info = { .size = sizeof info };
        ASSERT_OK(iron_env_get_info(i, &info));
        ASSERT_STR_EQ(info.name, v->name);
        ASSERT_STR_EQ(info.meaning, v->meaning);
        ASSERT_STR_EQ(info.default_value, v->def);
        ASSERT_STR_EQ(info.accepts, v->accepts);
        ASSERT_STR_EQ(info.read, v->read);
        ASSERT_EQ(info.size, sizeof info);
    }
    iron_env_info info = { .size = sizeof info };
    char want[128];
    snprintf(want, sizeof want,
             "iron_env_get_info: variable %d; expected 0 .. %d",
             IRON__ENV_COUNT, IRON__ENV_COUNT - 1);
    ASSERT_FAILS(iron_env_get_info(IRON__ENV_COUNT, &info), IRON_EINVAL,
                 want);
    ASSERT_FAILS(iron_env_get_info(-1, &info), IRON_EINVAL, "variable -1");
    ASSERT_FAILS(iron_env_get_info(0, NULL), IRON_EINVAL,
                 "iron_env_get_info: info is NULL");
    info.size = 8;
    ASSERT_FAILS(iron_env_get_info(0, &info), IRON_EINVAL,
                 "info->size is 8; expected at least sizeof(iron_env_info)");
}

/* The one "did you mean" rule, public: within two edits, the first on a
 * tie, NULL when nothing is close or the arguments are missing. */
TEST(env_closest_name)
{
    static const char *const names[] = { "npu1", "npu2", NULL, "npu2_4col",
                                         "emulator" };
    ASSERT_STR_EQ(iron_closest_name("npu3", names, 5), "npu1");
    ASSERT_STR_EQ(iron_closest_name("npu2_4cl", names, 5), "npu2_4col");
    ASSERT_STR_EQ(iron_closest_name("emulatr", names, 5), "emulator");
    ASSERT(iron_closest_name("xyz", names, 5) == NULL);
    ASSERT(iron_closest_name(NULL, names, 5) == NULL);
    ASSERT(iron_closest_name("npu1", NULL, 5) == NULL);
    ASSERT(iron_closest_name("npu1", names, 0) == NULL);
    /* It names nothing: the last error stays. */
    iron__fail(IRON_EINVAL, "kept");
    iron_closest_name("npu1", names, 5);
    ASSERT_STR_EQ(iron_last_error(), "kept");
}

/* The default written as text (in warnings, docs and --help) is the one
 * that applies, and agrees with the modules' own constants. */
TEST(env_defaults_agree)
{
    for (int i = 0; i < IRON__ENV_COUNT; i++) {
        const iron__env_var *v = iron__env_var_of((iron__env_id)i);
        char why[256];
        iron__env_value got = { 0 };
        if (v->parse == iron__env_parse_int && strcmp(v->def, "automatic")) {
            ASSERT_EQ(v->parse(v, v->def, &got, why, sizeof why), 0);
            ASSERT_EQ(got.i, v->def_value.i);
        } else if (v->parse == iron__env_parse_bytes ||
                   v->parse == iron__env_parse_flag) {
            ASSERT_EQ(v->parse(v, v->def, &got, why, sizeof why), 0);
            ASSERT_EQ(got.i, v->def_value.i);
            ASSERT_EQ(got.u, v->def_value.u);
        }
    }
    ASSERT_EQ(iron__env_var_of(IRON__ENV_CACHE_MAX)->def_value.u,
              IRON__CACHE_DEFAULT_MAX_BYTES);
    unsetenv("IRON_CC");
    ASSERT_STR_EQ(iron__env_get_text(IRON__ENV_CC), "cc");
    unsetenv("IRON_CXX");
    ASSERT_STR_EQ(iron__env_get_text(IRON__ENV_CXX), "c++");
    unsetenv("IRON_CACHE");
    ASSERT_EQ(iron__env_get_int(IRON__ENV_CACHE), 1);
    unsetenv("IRON_RESIDENT_MAX");
    ASSERT_EQ(iron__jit_default_max_resident(), 256);
}

/* Each variable that takes a number or a flag: a bad value warns with the
 * name, the value, what is accepted and the default, which applies. */
TEST(env_bad_values_warn_and_default)
{
    static const struct {
        iron__env_id id;
        const char *bad, *accepts, *using;
    } cases[] = {
        { IRON__ENV_TIMEOUT_MS, "1e3", "is not an integer from 1 to "
                                       "2147483647", "using 60000" },
        { IRON__ENV_TIMEOUT_MS, "0", "is not an integer", "using 60000" },
        { IRON__ENV_THREADS, "0", "is not an integer from 1 to 1024",
          "using automatic" },
        { IRON__ENV_THREADS, "four", "is not an integer", "using automatic" },
        { IRON__ENV_RESIDENT_MAX, "-1", "is not an integer from 1 to "
                                        "1048576", "using 256" },
        { IRON__ENV_CACHE_MAX, "1e400", "is not a byte count (digits with "
                                        "an optional K, M or G suffix",
          "using 268435456" },
        { IRON__ENV_CACHE, "y", "is not on or off: 1, yes, true or on; 0, "
                                "no, false or off (in any case)",
          "using 1" },
        { IRON__ENV_CACHE, "disable", "is not on or off", "using 1" },
        { IRON__ENV_CHECK, "2", "is not on or off: 1, yes, true or on",
          "using 0" },
        { IRON__ENV_CHECK, "yes ", "is not on or off", "using 0" },
        { IRON__ENV_CC, "   ", "is only blanks", "using cc" },
        { IRON__ENV_CXX, " \t", "is only blanks", "using c++" },
    };
    test_catch_warnings();
    for (size_t i = 0; i < IRON__COUNT_OF(cases); i++) {
        const iron__env_var *v = iron__env_var_of(cases[i].id);
        test_warning[0] = '\0';
        setenv(v->name, cases[i].bad, 1);
        iron__env_value got;
        ASSERT_EQ(iron__env_get(cases[i].id, &got), 0);
        ASSERT_EQ(got.i, v->def_value.i);
        ASSERT_EQ(got.u, v->def_value.u);
        char head[128];
        snprintf(head, sizeof head, "%s='%s' ", v->name, cases[i].bad);
        ASSERT_CONTAINS(test_warning, head);
        ASSERT_CONTAINS(test_warning, cases[i].accepts);
        ASSERT_CONTAINS(test_warning, cases[i].using);
        unsetenv(v->name);
    }
    iron_log_set_handler(NULL, NULL);
}

/* Good values: no warning, the value applies; empty means unset. */
TEST(env_good_values_quiet)
{
    test_catch_warnings();
    setenv("IRON_TIMEOUT_MS", "250", 1);
    ASSERT_EQ(iron__env_get_int(IRON__ENV_TIMEOUT_MS), 250);
    setenv("IRON_CACHE_MAX", "100M", 1);
    ASSERT_EQ(iron__env_get_bytes(IRON__ENV_CACHE_MAX), 100ull << 20);
    setenv("IRON_CACHE", "0", 1);
    ASSERT_EQ(iron__env_get_int(IRON__ENV_CACHE), 0);
    setenv("IRON_CHECK", "1", 1);
    ASSERT_EQ(iron__env_get_int(IRON__ENV_CHECK), 1);
    setenv("IRON_LOG", "jit, cache", 1);
    ASSERT_EQ(iron__env_get_int(IRON__ENV_LOG),
              IRON__LOG_JIT | IRON__LOG_CACHE);
    setenv("IRON_TIMEOUT_MS", "", 1);
    iron__env_value v;
    ASSERT_EQ(iron__env_get(IRON__ENV_TIMEOUT_MS, &v), 0);
    ASSERT_EQ(v.i, 60000);
    setenv("IRON_TRACE", "", 1);
    ASSERT(iron__env_get_text(IRON__ENV_TRACE) == NULL);
    ASSERT_STR_EQ(test_warning, "");
    iron_log_set_handler(NULL, NULL);
}

/* A value read on every jit creation or call warns once, not per read;
 * another bad value warns again. */
TEST(env_warns_once_per_value)
{
    test_catch_warnings();
    setenv("IRON_RESIDENT_MAX", "lots", 1);
    ASSERT_EQ(iron__jit_default_max_resident(), 256);
    ASSERT_CONTAINS(test_warning, "IRON_RESIDENT_MAX='lots'");
    test_warning[0] = '\0';
    for (int i = 0; i < 3; i++)
        ASSERT_EQ(iron__jit_default_max_resident(), 256);
    ASSERT_STR_EQ(test_warning, "");
    setenv("IRON_RESIDENT_MAX", "0", 1);
    ASSERT_EQ(iron__jit_default_max_resident(), 256);
    ASSERT_CONTAINS(test_warning, "IRON_RESIDENT_MAX='0'");
    iron_log_set_handler(NULL, NULL);
}

/* IRON_LOG names its unknown topics, suggests the closest known one and
 * lists them all; the known topics of the value still apply. */
TEST(env_log_unknown_topic)
{
    test_catch_warnings();
    setenv("IRON_LOG", "jit,cach", 1);
    ASSERT_EQ(iron__env_get_int(IRON__ENV_LOG), IRON__LOG_JIT);
    ASSERT_CONTAINS(test_warning, "IRON_LOG='jit,cach' names unknown topic "
                                  "'cach' (did you mean 'cache'?)");
    ASSERT_CONTAINS(test_warning, "known topics: jit, cache, emu, all");
    ASSERT_CONTAINS(test_warning, "ignoring it");
    test_warning[0] = '\0';
    setenv("IRON_LOG", "everything,emu,zzzzzz", 1);
    ASSERT_EQ(iron__env_get_int(IRON__ENV_LOG), IRON__LOG_EMU);
    ASSERT_CONTAINS(test_warning, "unknown topics 'everything', 'zzzzzz'; "
                                  "known topics");
    ASSERT(strstr(test_warning, "did you mean") == NULL);
    iron_log_set_handler(NULL, NULL);
}

/* The library's own read (once per process, at the first log line). */
TEST(env_log_unknown_topic_in_library)
{
    setenv("IRON_LOG", "emmu", 1);
    test_catch_warnings();
    ASSERT(!iron__log_selected(IRON__LOG_EMU));
    ASSERT_CONTAINS(test_warning, "IRON_LOG='emmu' names unknown topic "
                                  "'emmu' (did you mean 'emu'?)");
    iron_log_set_handler(NULL, NULL);
}

/* IRON_THREADS that is not a count: the CPU count, and the count is not
 * taken as the user's choice. */
TEST(env_threads_bad_uses_cpus)
{
    setenv("IRON_THREADS", "0", 1);
    test_catch_warnings();
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    ASSERT_EQ(iron__emu_threads_default(), cpus < 1 ? 1 : (int)cpus);
    ASSERT_CONTAINS(test_warning, "IRON_THREADS='0' is not an integer from "
                                  "1 to 1024; using automatic");
    iron_log_set_handler(NULL, NULL);
}

/* Every on/off variable of the table takes every spelling of the one
 * parser, in any case (IRON_CHECK=yes was refused while other booleans
 * took it). */
TEST(env_flags_accept_every_spelling)
{
    static const struct {
        const char *text;
        int value;
    } spell[] = {
        { "1", 1 },     { "yes", 1 },  { "true", 1 },  { "on", 1 },
        { "YES", 1 },   { "True", 1 }, { "oN", 1 },    { "0", 0 },
        { "no", 0 },    { "false", 0 }, { "off", 0 },  { "NO", 0 },
        { "FALSE", 0 }, { "Off", 0 },
    };
    test_catch_warnings();
    int flags = 0;
    for (int id = 0; id < IRON__ENV_COUNT; id++) {
        const iron__env_var *v = iron__env_var_of((iron__env_id)id);
        if (v->parse != iron__env_parse_flag)
            continue;
        flags++;
        for (size_t i = 0; i < IRON__COUNT_OF(spell); i++) {
            setenv(v->name, spell[i].text, 1);
            iron__env_value got;
            if (iron__env_get((iron__env_id)id, &got) != 1 ||
                got.i != spell[i].value)
                TEST_FAIL_("%s='%s': got %lld, expected %d", v->name,
                           spell[i].text, (long long)got.i, spell[i].value);
        }
        unsetenv(v->name);
    }
    ASSERT_EQ(flags, 3);   /* IRON_CHECK, IRON_CACHE and IRON_TIMING */
    ASSERT_STR_EQ(test_warning, "");
    iron_log_set_handler(NULL, NULL);
}

/* IRON_CACHE=nope at jit creation: a warning, and the cache stays on. */
TEST(env_cache_not_a_flag)
{
    setenv("IRON_CACHE", "nope", 1);
    test_catch_warnings();
    iron_jit *j;
    iron_jit_options o = vector_op_options;
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j));
    ASSERT_CONTAINS(test_warning, "IRON_CACHE='nope' is not on or off: 1, "
                                  "yes, true or on; 0, no, false or off (in "
                                  "any case); using 1");
    iron__cache_settings cs;
    iron__cache_settings_resolve(0, NULL, 0, &cs);
    ASSERT_EQ(cs.enabled, 1);
    test_warning[0] = '\0';
    iron_jit *j2;
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j2));
    ASSERT_STR_EQ(test_warning, "");  /* once per value */
    iron_log_set_handler(NULL, NULL);
    iron_jit_free(j);
    iron_jit_free(j2);
}

static char warnings[8192];

static void keep_warnings(const char *topic, const char *line, void *ctx)
{
    (void)ctx;
    if (strcmp(topic, "warning") == 0 &&
        strlen(warnings) + strlen(line) + 2 < sizeof warnings) {
        strcat(warnings, line);
        strcat(warnings, "\n");
    }
}

/* atoi read "1e3" as 1 ms: a call of a few ms timed out.  IRON_CHECK=ja
 * is not on or off.  Both warn at the first call, once, and the calls
 * run unchecked with the default timeout. */
TEST(env_call_variables_warn)
{
    setenv("IRON_TIMEOUT_MS", "1e3", 1);
    setenv("IRON_CHECK", "ja", 1);
    iron_log_set_handler(keep_warnings, NULL);
    iron_jit *j;
    iron_jit_options o = vector_op_options;
    o.disk_cache = -1;
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j));
    const int64_t n = 1 << 20;
    iron_tensor *a, *b, *c;
    ASSERT_OK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9, 9, 1, &a));
    ASSERT_OK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9, 9, 2, &b));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c));
    for (int call = 0; call < 3; call++)
        ASSERT_OK(iron_jit_launch(j, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(a, b, c)));
    iron_log_set_handler(NULL, NULL);
    ASSERT_CONTAINS(warnings, "IRON_TIMEOUT_MS='1e3' is not an integer from "
                              "1 to 2147483647; using 60000\n");
    ASSERT_CONTAINS(warnings, "IRON_CHECK='ja' is not on or off: 1, yes, "
                              "true or on; 0, no, false or off (in any "
                              "case); using 0\n");
    const char *first = strstr(warnings, "IRON_CHECK");
    ASSERT(strstr(first + 1, "IRON_CHECK") == NULL);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

/* `iron --help` lists every variable of the table with its meaning. */
TEST(env_cli_help_lists_table)
{
    const char *cli = getenv("IRON_CLI");
    if (!cli || !cli[0])
        TEST_FAIL_("IRON_CLI is not set (run through `make test`)");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' --help 2>&1", cli);
    FILE *p = popen(cmd, "r");
    ASSERT(p != NULL);
    static char out[65536];
    size_t len = fread(out, 1, sizeof out - 1, p);
    out[len] = '\0';
    int st = pclose(p);
    ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    ASSERT_CONTAINS(out, "\nenvironment (");
    for (int i = 0; i < IRON__ENV_COUNT; i++) {
        const iron__env_var *v = iron__env_var_of((iron__env_id)i);
        ASSERT_CONTAINS(out, v->name);
        char start[24];  /* the meaning may be wrapped: its first words */
        snprintf(start, sizeof start, "%s", v->meaning);
        ASSERT_CONTAINS(out, start);
    }
}

/* The runner gives the tests a disk-cache folder of their own, on, and
 * keeps the user's IRON_* settings from them (IRON_CC and IRON_CXX aside). */
TEST(env_tests_run_private)
{
    const char *dir = getenv("IRON_CACHE_DIR");
    ASSERT(dir != NULL);
    ASSERT_CONTAINS(dir, "/iron-tests-cache-");
    struct stat st;
    ASSERT_EQ(stat(dir, &st), 0);
    ASSERT(S_ISDIR(st.st_mode));
    ASSERT_EQ(st.st_uid, getuid());
    ASSERT_STR_EQ(getenv("IRON_CACHE"), "1");
    for (int i = 0; i < IRON__ENV_COUNT; i++) {
        const char *name = iron__env_var_of((iron__env_id)i)->name;
        if (i != IRON__ENV_CC && i != IRON__ENV_CXX && i != IRON__ENV_CACHE &&
            i != IRON__ENV_CACHE_DIR && getenv(name))
            TEST_FAIL_("%s='%s' reached the test", name, getenv(name));
    }
}

/* docs/architecture.md's "Environment" table has a row per variable,
 * with the table's default. */
TEST(env_docs_list_table)
{
    FILE *f = fopen("docs/architecture.md", "r");
    if (!f)
        TEST_FAIL_("docs/architecture.md not found (run from the "
                   "repository's top folder, as `make test` does)");
    static char doc[1 << 16];
    size_t len = fread(doc, 1, sizeof doc - 1, f);
    doc[len] = '\0';
    fclose(f);
    const char *sec = strstr(doc, "\n## Environment\n");
    ASSERT(sec != NULL);
    const char *end = strstr(sec + 1, "\n## ");
    ASSERT(end != NULL);
    for (int i = 0; i < IRON__ENV_COUNT; i++) {
        const iron__env_var *v = iron__env_var_of((iron__env_id)i);
        char row[96];
        snprintf(row, sizeof row, "\n| `%s` |", v->name);
        const char *r = strstr(sec, row);
        if (!r || r > end)
            TEST_FAIL_("no row for %s in the Environment section", v->name);
        const char *eol = strchr(r + 1, '\n');
        char def[96];
        snprintf(def, sizeof def, "%s", v->def);
        if (strncmp(def, "$XDG", 4) == 0)
            snprintf(def, sizeof def, "$XDG_CACHE_HOME/iron");
        const char *d = strstr(r, def);
        if (!d || d > eol)
            TEST_FAIL_("the row of %s does not give its default '%s'",
                       v->name, def);
        /* On/off variables: the row gives the table's spellings. */
        const char *acc = v->parse == iron__env_parse_flag
                              ? strstr(r, v->accepts)
                              : r;
        if (!acc || acc > eol)
            TEST_FAIL_("the row of %s does not give what it accepts, '%s'",
                       v->name, v->accepts);
    }
}

/* ---- every list of the variables in the documentation ------------------ */

static int is_name_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Whether text[0, len) names variable `name` as a whole word. */
static int names_var(const char *text, size_t len, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; (p = strstr(p, name)) && p + n <= text + len;
         p++)
        if ((p == text || !is_name_char(p[-1])) && !is_name_char(p[n]))
            return 1;
    return 0;
}

/* A paragraph (or table) of a document that names more than half of the
 * variables is a list of them, and must name every one: a variable added
 * to the table and forgotten in such a list fails here, wherever the
 * list is.  CHANGES.md is history and is left alone. */
static void check_lists_in(const char *path)
{
    size_t len;
    char *doc = (char *)test_slurp(path, &len);
    if (!doc)
        TEST_FAIL_("%s not found (run from the repository's top folder, as "
                   "`make test` does)", path);
    int line = 1;
    for (const char *p = doc; *p;) {
        const char *end = strstr(p, "\n\n");
        if (!end)
            end = p + strlen(p);
        int named = 0;
        const char *missing = NULL;
        for (int i = 0; i < IRON__ENV_COUNT; i++) {
            const char *name = iron__env_var_of((iron__env_id)i)->name;
            if (names_var(p, (size_t)(end - p), name))
                named++;
            else if (!missing)
                missing = name;
        }
        if (2 * named > IRON__ENV_COUNT && missing)
            TEST_FAIL_("%s:%d: the paragraph names %d of the %d IRON_* "
                       "variables but not %s (src/core/env.c has the table)",
                       path, line, named, IRON__ENV_COUNT, missing);
        for (const char *q = p; q < end; q++)
            line += *q == '\n';
        p = *end ? end + 1 : end;
    }
    free(doc);
}

TEST(env_doc_lists_name_every_variable)
{
    check_lists_in("README.md");
    DIR *d = opendir("docs");
    if (!d)
        TEST_FAIL_("docs/ not found (run from the repository's top folder)");
    int files = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".md") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "docs/%s", e->d_name);
        check_lists_in(path);
        files++;
    }
    closedir(d);
    ASSERT_GT(files, 5);
    /* The lists this test exists for. */
    size_t len;
    char *cli = (char *)test_slurp("docs/cli.md", &len);
    ASSERT(cli != NULL);
    const char *sec = strstr(cli, "\n## Environment\n");
    ASSERT(sec != NULL);
    for (int i = 0; i < IRON__ENV_COUNT; i++) {
        const char *name = iron__env_var_of((iron__env_id)i)->name;
        if (!names_var(sec, strlen(sec), name))
            TEST_FAIL_("docs/cli.md's Environment section does not name %s",
                       name);
    }
    free(cli);
}

/* The test harness's own variables (the Makefile's test rule and
 * tests/runner.c), which the library never reads: documents may name
 * them too. */
static const char *const harness_vars[] = {
    "IRON_TEST_JOBS", "IRON_TEST_TIMES", "IRON_CLI",   "IRON_EXLIB",
    "IRON_REFERENCE", "IRON_TUTORIAL",   "IRON_TEST_CXX_VARIANTS",
    "IRON_TEST_CXX_DIR",
    "IRON_BUILD",     "IRON_SAN",
};

/* Every variable the sources and documents set or read as `$IRON_X` or
 * `IRON_X=...` is a row of the table or one of the harness's (a renamed
 * variable leaves no stale spelling behind). */
static void check_spellings_in(const char *path)
{
    size_t len;
    char *text = (char *)test_slurp(path, &len);
    if (!text)
        return;
    for (const char *p = text; (p = strstr(p, "IRON_")) != NULL; p++) {
        if (p > text && is_name_char(p[-1]))
            continue;
        size_t n = 5;
        while (is_name_char(p[n]))
            n++;
        int dollar = p > text && (p[-1] == '$' ||
                                  (p[-1] == '{' && p - 1 > text &&
                                   p[-2] == '$'));
        if (!dollar && p[n] != '=')
            continue;
        int known = 0;
        for (int i = 0; i < IRON__ENV_COUNT && !known; i++) {
            const char *name = iron__env_var_of((iron__env_id)i)->name;
            known = strlen(name) == n && strncmp(name, p, n) == 0;
        }
        for (size_t i = 0; i < sizeof harness_vars / sizeof *harness_vars;
             i++)
            known |= strlen(harness_vars[i]) == n &&
                     strncmp(harness_vars[i], p, n) == 0;
        if (!known)
            TEST_FAIL_("%s names the environment variable %.*s, which is "
                       "not in the table of src/core/env.c", path, (int)n,
                       p);
    }
    free(text);
}

static void check_spellings_under(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    if (!d)
        TEST_FAIL_("%s/ not found (run from the repository's top folder)",
                   dir);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name), m = strlen(suffix);
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (e->d_name[0] == '.' || stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            check_spellings_under(path, suffix);
        else if (n > m && strcmp(e->d_name + n - m, suffix) == 0)
            check_spellings_in(path);
    }
    closedir(d);
}

TEST(env_docs_and_sources_name_table_variables)
{
    check_spellings_in("README.md");
    check_spellings_under("docs", ".md");
    check_spellings_under("src", ".c");
    check_spellings_under("cli", ".c");
    check_spellings_under("examples", ".c");
}
