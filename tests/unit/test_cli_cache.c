/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_cli_cache.c - `iron cache`, run as a program ($IRON_CLI, set by
 * `make test`) on private folders filled through the cache layer.
 */
#include <ftw.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache/cache.h"
#include "cache/entry.h"
#include "core/core.h"
#include "test.h"
#include <jansson.h>

static char out[65536];

/* Runs `$IRON_CLI <args>` with stderr folded into stdout (or dropped);
 * returns the exit status, the output in `out`. */
static int run(int keep_stderr, const char *fmt, ...) IRON__PRINTF(2, 3);

static int run(int keep_stderr, const char *fmt, ...)
{
    const char *cli = getenv("IRON_CLI");
    if (!cli || !cli[0])
        TEST_FAIL_("IRON_CLI is not set (run through `make test`)");
    char args[1024], cmd[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "'%s' %s %s", cli, args,
             keep_stderr ? "2>&1" : "2>/dev/null");
    FILE *p = popen(cmd, "r");
    if (!p)
        TEST_FAIL_("popen(%s) failed", cmd);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    if (st == -1 || !WIFEXITED(st))
        TEST_FAIL_("%s did not exit normally (status %d)", cmd, st);
    return WEXITSTATUS(st);
}

static const char *temp_dir(void)
{
    return test_temp_dir("cli-cache");
}

static void done_dir(const char *dir)
{
    test_remove_dir(dir);
}

static iron__cache_key key_n(unsigned n)
{
    iron__cache_key k = { 0x1111222233334444ull * (n + 1), n };
    return k;
}

/* The key text of key n's entries (any fixed text per key will do). */
#define KT(n) iron__cache_key_hex(key_n(n), (char[33]){ 0 })
/* What an entry costs besides its payload: header and key text. */
#define OVERHEAD (IRON__CACHE_HEADER_BYTES + 32)

static void le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Puts an entry of `bytes` bytes in all, whose payload is a well-formed
 * kernel payload (one object, no included files, an image of filler) so
 * that the tools, which decode payloads, count it as valid. */
static void put(iron__cache *c, unsigned n, const char *name,
                const char *sig, size_t bytes)
{
    static unsigned char buf[1 << 16];
    ASSERT_GE(bytes, OVERHEAD + 32);
    size_t len = bytes - OVERHEAD;
    ASSERT_LE(len, sizeof buf);
    memset(buf, (int)n, len);
    memcpy(buf, "IRONPAY1", 8);
    le32(buf + 8, 1);                  /* kernels */
    le32(buf + 12, 1);                 /* objects */
    le32(buf + 16, 0);                 /* kernel 0 -> object 0 */
    le32(buf + 20, 0);                 /* no included files */
    uint64_t image = len - 32;
    for (int i = 0; i < 8; i++)
        buf[24 + i] = (unsigned char)(image >> (8 * i));
    ASSERT_OK(iron__cache_put(c, key_n(n), KT(n), 32, name, sig, buf, len));
}

static void touch_entry(iron__cache *c, unsigned n)
{
    void *p = NULL;
    size_t len;
    ASSERT_OK(iron__cache_get(c, key_n(n), KT(n), 32, &p, &len, NULL));
    iron__free(p);
}

static int count_entries(const char *dir)
{
    uint64_t entries, bytes;
    ASSERT_OK(iron_cache_get_usage(dir, &entries, &bytes));
    return (int)entries;
}

/* The path entry n has in dir. */
static const char *entry_file(const char *dir, unsigned n)
{
    static char path[512];
    char fname[IRON__CACHE_FNAME_MAX];
    snprintf(path, sizeof path, "%s/%s", dir,
             iron__cache_entry_fname(key_n(n), fname));
    return path;
}

/* Entry n's file holds text that is no entry at all (12 bytes). */
static void write_damaged(const char *dir, unsigned n)
{
    FILE *f = fopen(entry_file(dir, n), "w");
    ASSERT(f != NULL);
    fputs("not an entry", f);
    fclose(f);
}

TEST(cli_cache_list)
{
    const char *dir = temp_dir();
    iron__cache *c = NULL;
    ASSERT_OK(iron__cache_open(&c, dir, 0));
    put(c, 1, "vadd", "int32[4096], int32[4096]; tile=64; npu2", 1248);
    put(c, 2, "matmul", "bf16[64, 64]; npu1", 3720);
    touch_entry(c, 1);                 /* vadd: most recently used */
    char hex1[33], hex2[33], hex3[33];
    iron__cache_key_hex(key_n(1), hex1);
    iron__cache_key_hex(key_n(2), hex2);
    iron__cache_key_hex(key_n(3), hex3);
    /* A damaged entry is listed, marked. */
    write_damaged(dir, 3);

    ASSERT_EQ(run(1, "cache list --dir %s", dir), 0);
    ASSERT_CONTAINS(out, "key");
    ASSERT_CONTAINS(out, "name");
    ASSERT_CONTAINS(out, "size");
    ASSERT_CONTAINS(out, "last use");
    ASSERT_CONTAINS(out, "signature");
    ASSERT_CONTAINS(out, hex1);
    ASSERT_CONTAINS(out, hex2);
    ASSERT_CONTAINS(out, hex3);
    ASSERT_CONTAINS(out, "vadd");
    ASSERT_CONTAINS(out, "int32[4096], int32[4096]; tile=64; npu2");
    ASSERT_CONTAINS(out, "bf16[64, 64]; npu1");
    ASSERT_CONTAINS(out, "1.2 KiB");       /* 1248 bytes */
    ASSERT_CONTAINS(out, "3.6 KiB");       /* 3720 */
    ASSERT_CONTAINS(out, "12 B");
    ASSERT_CONTAINS(out, "(invalid)");
    ASSERT_CONTAINS(out, "3 entries");
    ASSERT_CONTAINS(out, dir);
    /* Last use as a date and time: "20YY-MM-DD HH:MM:SS". */
    ASSERT_CONTAINS(out, " 20");
    ASSERT(strchr(out, ':') != NULL);
    /* Most recently used first (a rerun lists the same: no refresh). */
    ASSERT_LT(strstr(out, hex1) - out, strstr(out, hex2) - out);
    iron__cache_close(c);

    /* Options before the command and --dir=DIR work as well. */
    ASSERT_EQ(run(1, "cache --dir=%s list", dir), 0);
    ASSERT_CONTAINS(out, "3 entries");

    /* An empty folder; a missing one is an error naming it (a mistyped
     * folder has no entries, which would be a wrong answer). */
    ASSERT_EQ(run(1, "cache clear --dir %s", dir), 0);
    ASSERT_EQ(run(1, "cache list --dir %s", dir), 0);
    ASSERT_CONTAINS(out, "no entries in ");
    ASSERT_EQ(run(1, "cache list --dir %s/missing", dir), 1);
    char missing[512];
    snprintf(missing, sizeof missing, "--dir '%s/missing': no such folder",
             dir);
    ASSERT_CONTAINS(out, missing);
    ASSERT_EQ(run(1, "cache clear --dir %s/missing", dir), 1);
    ASSERT_CONTAINS(out, missing);
    done_dir(dir);
}

/* `cache list --json`: one object, the entries most recently used first,
 * a damaged one with valid false and no name. */
TEST(cli_cache_list_json)
{
    const char *dir = temp_dir();
    iron__cache *c = NULL;
    ASSERT_OK(iron__cache_open(&c, dir, 0));
    put(c, 1, "vadd", "int32[4096]; npu2", 1248);
    put(c, 2, "matmul", "bf16[64, 64]; npu1", 3720);
    touch_entry(c, 1);
    iron__cache_close(c);
    write_damaged(dir, 3);
    ASSERT_EQ(run(0, "cache list --json --dir %s", dir), 0);
    json_error_t err;
    json_t *root = json_loads(out, 0, &err);
    if (!root)
        TEST_FAIL_("not JSON (%s): %s", err.text, out);
    ASSERT_STR_EQ(json_string_value(json_object_get(root, "folder")), dir);
    json_t *e = json_object_get(root, "entries");
    ASSERT_EQ(json_array_size(e), 3);
    int valid = 0, invalid = 0;
    for (size_t i = 0; i < 3; i++) {
        json_t *x = json_array_get(e, i);
        ASSERT_EQ(strlen(json_string_value(json_object_get(x, "key"))), 32);
        if (json_is_true(json_object_get(x, "valid")))
            valid++;
        else {
            invalid++;
            ASSERT(json_is_null(json_object_get(x, "name")));
            ASSERT_EQ(json_integer_value(json_object_get(x, "bytes")), 12);
        }
    }
    ASSERT_EQ(valid, 2);
    ASSERT_EQ(invalid, 1);
    json_t *first = NULL;
    for (size_t i = 0; i < 3 && !first; i++)
        if (json_is_true(json_object_get(json_array_get(e, i), "valid")))
            first = json_array_get(e, i);
    ASSERT_STR_EQ(json_string_value(json_object_get(first, "name")), "vadd");
    ASSERT_STR_EQ(json_string_value(json_object_get(first, "signature")),
                  "int32[4096]; npu2");
    ASSERT_EQ(json_integer_value(json_object_get(first, "bytes")), 1248);
    json_decref(root);
    done_dir(dir);
}

TEST(cli_cache_info)
{
    const char *dir = temp_dir();
    iron__cache *c = NULL;
    ASSERT_OK(iron__cache_open(&c, dir, 0));
    put(c, 1, "a", "s", 748);
    put(c, 2, "b", "s", 2648);
    iron__cache_close(c);
    ASSERT_EQ(run(1, "cache info --dir %s", dir), 0);
    char line[256];
    snprintf(line, sizeof line, "folder   %s\n", dir);
    ASSERT_CONTAINS(out, line);
    ASSERT_CONTAINS(out, "entries  2\n");
    ASSERT_CONTAINS(out, "size     3.3 KiB (3396 bytes)\n");
    ASSERT_CONTAINS(out, "cap      256 MiB (default");
    /* A folder not there yet is reported, not created. */
    ASSERT_EQ(run(1, "cache info --dir %s/later", dir), 0);
    ASSERT_CONTAINS(out, "(not created yet)");
    ASSERT_CONTAINS(out, "entries  0\n");
    snprintf(line, sizeof line, "%s/later", dir);
    struct stat st;
    ASSERT(stat(line, &st) != 0);
    done_dir(dir);
}

TEST(cli_cache_default_folder)
{
    const char *dir = temp_dir();
    setenv("IRON_CACHE_DIR", dir, 1);
    iron__cache *c = NULL;
    ASSERT_OK(iron__cache_open(&c, NULL, 0));
    put(c, 1, "a", "s", 800);
    iron__cache_close(c);
    ASSERT_EQ(run(1, "cache info"), 0);
    ASSERT_CONTAINS(out, dir);
    ASSERT_CONTAINS(out, "entries  1\n");
    ASSERT_EQ(run(1, "cache list"), 0);
    ASSERT_CONTAINS(out, "1 entry,");
    done_dir(dir);
}

TEST(cli_cache_clear)
{
    const char *dir = temp_dir();
    iron__cache *c = NULL;
    ASSERT_OK(iron__cache_open(&c, dir, 0));
    for (unsigned n = 0; n < 4; n++)
        put(c, n, "k", "s", 748);
    iron__cache_close(c);
    char keep[256];
    snprintf(keep, sizeof keep, "%s/README", dir);
    FILE *f = fopen(keep, "w");
    ASSERT(f != NULL);
    fclose(f);
    ASSERT_EQ(run(1, "cache clear --dir %s", dir), 0);
    ASSERT_CONTAINS(out, "removed 4 entries (2.9 KiB) from ");
    ASSERT_CONTAINS(out, dir);
    ASSERT_EQ(count_entries(dir), 0);
    struct stat st;
    ASSERT_EQ(stat(keep, &st), 0);          /* not the cache's: kept */
    ASSERT_EQ(run(1, "cache clear --dir %s", dir), 0);
    ASSERT_CONTAINS(out, "removed 0 entries");
    done_dir(dir);
}

TEST(cli_cache_prune)
{
    const char *dir = temp_dir();
    iron__cache *c = NULL;
    ASSERT_OK(iron__cache_open(&c, dir, 0));
    /* Five entries of 1 KiB each; 0 is the most recent. */
    for (unsigned n = 0; n < 5; n++)
        put(c, n, "k", "s", 1024);
    touch_entry(c, 0);
    iron__cache_close(c);

    /* Sizes with suffixes, under the current total: nothing goes. */
    ASSERT_EQ(run(1, "cache prune --max-size 1G --dir %s", dir), 0);
    ASSERT_CONTAINS(out, "removed 0 entries; 5 entries (5 KiB) remain");
    ASSERT_EQ(run(1, "cache prune --max-size 100M --dir %s", dir), 0);
    ASSERT_EQ(run(1, "cache prune --max-size=512K --dir %s", dir), 0);
    ASSERT_EQ(run(1, "cache prune --max-size 5120 --dir %s", dir), 0);
    ASSERT_CONTAINS(out, "removed 0 entries");

    ASSERT_EQ(run(1, "cache prune --max-size 3K --dir %s", dir), 0);
    ASSERT_CONTAINS(out, "removed 2 entries; 3 entries (3 KiB) remain");
    ASSERT_EQ(count_entries(dir), 3);
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s", entry_file(dir, 0));
    ASSERT_EQ(stat(path, &st), 0);          /* the most recent stays */
    ASSERT_EQ(run(1, "cache prune --dir %s --max-size 1025", dir), 0);
    ASSERT_CONTAINS(out, "removed 2 entries; 1 entry (1 KiB) remain");
    ASSERT_EQ(stat(path, &st), 0);
    ASSERT_EQ(run(1, "cache prune --max-size 0 --dir %s", dir), 0);
    ASSERT_CONTAINS(out, "removed 1 entry; 0 entries (0 B) remain");

    /* Sizes that are not sizes are usage errors. */
    static const char *const bad[] = { "12X", "K", "-5", "1.5G", "''",
                                       "99999999999999999999",
                                       "20000000000G" };
    for (size_t i = 0; i < IRON__COUNT_OF(bad); i++) {
        ASSERT_EQ(run(1, "cache prune --max-size %s --dir %s", bad[i], dir),
                  2);
        ASSERT_CONTAINS(out, "--max-size");
    }
    done_dir(dir);
}

TEST(cli_cache_usage_errors_exit_2)
{
    ASSERT_EQ(run(0, "cache --help"), 0);
    ASSERT_CONTAINS(out, "usage: iron cache");
    ASSERT_CONTAINS(out, "prune [--max-size SIZE]");
    ASSERT_CONTAINS(out, "verify");
    ASSERT_EQ(run(0, "cache help"), 0);
    ASSERT_CONTAINS(out, "usage: iron cache");
    ASSERT_EQ(run(0, "cache"), 2);
    ASSERT_STR_EQ(out, "");               /* the usage goes to stderr */
    ASSERT_EQ(run(1, "cache"), 2);
    ASSERT_CONTAINS(out, "usage: iron cache");
    ASSERT_EQ(run(1, "cache frobnicate --dir /tmp"), 2);
    ASSERT_CONTAINS(out, "unknown command 'frobnicate'");
    ASSERT_EQ(run(1, "cache list extra"), 2);
    ASSERT_CONTAINS(out, "unexpected argument 'extra' to 'list'");
    ASSERT_EQ(run(1, "cache list --verbose"), 2);
    ASSERT_CONTAINS(out, "unknown option '--verbose'");
    ASSERT_EQ(run(1, "cache lsit"), 2);
    ASSERT_CONTAINS(out, "unknown command 'lsit'; did you mean 'list'?");
    ASSERT_EQ(run(1, "cache list --dri /tmp"), 2);
    ASSERT_CONTAINS(out, "unknown option '--dri'; did you mean '--dir'?");
    ASSERT_EQ(run(1, "cache info --json"), 2);
    ASSERT_CONTAINS(out, "--json only goes with list");
    ASSERT_EQ(run(1, "cache list --dir"), 2);
    ASSERT_EQ(run(1, "cache list --dir ''"), 2);
    ASSERT_EQ(run(1, "cache prune --max-size"), 2);
    ASSERT_EQ(run(1, "cache verify extra"), 2);
    ASSERT_EQ(run(1, "cache info --max-size 1K"), 2);
    ASSERT_CONTAINS(out, "--max-size only goes with prune");
    /* The top-level usage mentions the command. */
    ASSERT_EQ(run(0, "help"), 0);
    ASSERT_CONTAINS(out, "cache list|info|verify|clear|prune");
}

TEST(cli_cache_failure_exit_1)
{
    const char *dir = temp_dir();
    char file[256];
    snprintf(file, sizeof file, "%s/plain-file", dir);
    FILE *f = fopen(file, "w");
    ASSERT(f != NULL);
    fclose(f);
    static const char *const cmds[] = { "list", "info", "clear", "verify",
                                        "prune --max-size 1M", "prune" };
    for (size_t i = 0; i < IRON__COUNT_OF(cmds); i++) {
        ASSERT_EQ(run(1, "cache %s --dir %s/sub", cmds[i], file), 1);
        ASSERT_CONTAINS(out, "iron cache: cannot open the cache folder");
        ASSERT_CONTAINS(out, file);
        ASSERT_CONTAINS(out, "Not a directory");
    }
    done_dir(dir);
}

static void flip_byte(const char *path, long at)
{
    FILE *f = fopen(path, "r+b");
    ASSERT(f != NULL);
    ASSERT_EQ(fseek(f, at, SEEK_SET), 0);
    int c = fgetc(f);
    ASSERT(c != EOF);
    ASSERT_EQ(fseek(f, at, SEEK_SET), 0);
    ASSERT(fputc(c ^ 0x20, f) != EOF);
    ASSERT_EQ(fclose(f), 0);
}

/* A bit flipped in a payload (the header still checks out): list shows
 * the entry as invalid, verify names it and why, prune removes it and
 * only it. */
TEST(cli_cache_verify_finds_a_damaged_payload)
{
    const char *dir = temp_dir();
    iron__cache *c = NULL;
    ASSERT_OK(iron__cache_open(&c, dir, 0));
    put(c, 1, "good", "int32[64]", 1024);
    put(c, 2, "flipped", "int32[128]", 1024);
    put(c, 3, "alsogood", "int32[256]", 1024);
    iron__cache_close(c);
    char hex2[33];
    iron__cache_key_hex(key_n(2), hex2);

    ASSERT_EQ(run(1, "cache verify --dir %s", dir), 0);
    ASSERT_CONTAINS(out, "3 entries checked");
    ASSERT_CONTAINS(out, "3 valid, 0 damaged");

    flip_byte(entry_file(dir, 2), OVERHEAD + 100);
    ASSERT_EQ(run(1, "cache list --dir %s", dir), 0);
    ASSERT_CONTAINS(out, "(invalid)");
    ASSERT(strstr(out, "int32[128]") == NULL);   /* not shown as valid */
    ASSERT_CONTAINS(out, "int32[64]");
    ASSERT_CONTAINS(out, "int32[256]");

    ASSERT_EQ(run(1, "cache verify --dir %s", dir), 1);
    ASSERT_CONTAINS(out, "damaged");
    ASSERT_CONTAINS(out, hex2);
    ASSERT_CONTAINS(out, "flipped: checksum mismatch");
    ASSERT_CONTAINS(out, "2 valid, 1 damaged");

    /* A payload whose checksum is right but which does not decode is
     * damage as well (written by a broken writer). */
    ASSERT_OK(iron__cache_open(&c, dir, 0));
    ASSERT_OK(iron__cache_put(c, key_n(4), KT(4), 32, "nonsense", "x",
                              "not a kernel payload", 20));
    iron__cache_close(c);
    ASSERT_EQ(run(1, "cache verify --dir %s", dir), 1);
    ASSERT_CONTAINS(out, "nonsense: not a kernel payload");
    ASSERT_CONTAINS(out, "2 valid, 2 damaged");

    /* prune without a size removes the damaged ones and nothing else. */
    ASSERT_EQ(run(1, "cache prune --dir %s", dir), 0);
    ASSERT_CONTAINS(out, "removed 2 entries (2 damaged); 2 entries");
    struct stat st;
    ASSERT_EQ(stat(entry_file(dir, 1), &st), 0);
    ASSERT(stat(entry_file(dir, 2), &st) != 0);
    ASSERT_EQ(stat(entry_file(dir, 3), &st), 0);
    ASSERT(stat(entry_file(dir, 4), &st) != 0);
    ASSERT_EQ(run(1, "cache verify --dir %s", dir), 0);
    ASSERT_CONTAINS(out, "2 valid, 0 damaged");
    ASSERT_EQ(run(1, "cache list --dir %s", dir), 0);
    ASSERT(strstr(out, "(invalid)") == NULL);
    done_dir(dir);
}

/* IRON_CACHE_MAX=1e400 is not a size: a warning naming it, and the
 * default cap; a good value is shown as such. */
TEST(cli_cache_info_env_cap)
{
    const char *dir = temp_dir();
    setenv("IRON_CACHE_MAX", "1e400", 1);
    ASSERT_EQ(run(1, "cache info --dir %s", dir), 0);
    ASSERT_CONTAINS(out, "IRON_CACHE_MAX='1e400' is not a byte count");
    ASSERT_CONTAINS(out, "cap      256 MiB (default");
    setenv("IRON_CACHE_MAX", "100M", 1);
    ASSERT_EQ(run(1, "cache info --dir %s", dir), 0);
    ASSERT_CONTAINS(out, "cap      100 MiB (from IRON_CACHE_MAX");
    ASSERT(strstr(out, "warning") == NULL);
    unsetenv("IRON_CACHE_MAX");
    done_dir(dir);
}
