/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cache.c - `iron cache`: lists, verifies, sums up, clears and prunes the
 * disk cache of compiled specializations, in the default folder or in
 * --dir DIR.  list, verify and prune read every entry whole (checksums of
 * header, key text and payload, and the payload's structure), so that a
 * damaged entry is never shown as valid; verify says what is wrong with
 * each, through the cache layer (the public iron_cache_entry_info has no
 * room for a reason).
 */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "iron/iron.h"

static const char cache_usage[] =
    "usage: iron cache COMMAND [--dir DIR]\n"
    "  list                    the entries, most recently used first: key,\n"
    "                          name, size, last use, signature; each is\n"
    "                          read whole, and a damaged one is shown as\n"
    "                          (invalid)\n"
    "  verify                  check every entry whole and say what is\n"
    "                          wrong with each damaged one (exit status 1\n"
    "                          when there is one)\n"
    "  info                    the folder, number of entries, total size\n"
    "                          and the size cap\n"
    "  clear                   remove every entry\n"
    "  prune [--max-size SIZE] remove damaged entries, then least-recently-\n"
    "                          used ones until at most SIZE remain (512K,\n"
    "                          100M, 1G or bytes); entries of another\n"
    "                          library version are not damage\n"
    "  --json                  list: the entries as JSON (key, name,\n"
    "                          signature, bytes, last_use, valid)\n"
    "  --dir DIR               act on DIR instead of the default folder:\n"
    "                          $IRON_CACHE_DIR, else $XDG_CACHE_HOME/iron,\n"
    "                          else ~/.cache/iron\n"
    "It is safe to run these while programs use the cache.\n";

static int usage(FILE *f, int code)
{
    fputs(cache_usage, f);
    return code;
}

static int fail(void)
{
    fprintf(stderr, "iron cache: %s\n", iron_last_error());
    return 1;
}

/* "512", "512K", "100M", "1G", "2T" (also "100MB", "100MiB"; binary
 * multiples) into *out.  Returns 0, or -1 for anything else. */
static int parse_size(const char *text, uint64_t *out)
{
    if (!isdigit((unsigned char)text[0]))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno == ERANGE)
        return -1;
    int shift = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': shift = 10; break;
    case 'M': shift = 20; break;
    case 'G': shift = 30; break;
    case 'T': shift = 40; break;
    default: break;
    }
    if (shift) {
        end++;
        if (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0 ||
            strcmp(end, "b") == 0)
            end += strlen(end);
    } else if (strcmp(end, "B") == 0 || strcmp(end, "b") == 0) {
        end++;
    }
    if (*end || (shift && v > (UINT64_MAX >> shift)))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

/* "512 B", "12.3 KiB", "256 MiB". */
static const char *size_text(uint64_t bytes, char *buf, size_t len)
{
    static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
    if (bytes < 1024) {
        snprintf(buf, len, "%" PRIu64 " B", bytes);
        return buf;
    }
    double v = (double)bytes / 1024;
    int u = 0;
    while (v >= 1024 && u < 3) {
        v /= 1024;
        u++;
    }
    if (v == (double)(uint64_t)v)
        snprintf(buf, len, "%.0f %s", v, units[u]);
    else
        snprintf(buf, len, "%.1f %s", v, units[u]);
    return buf;
}

static const char *time_text(int64_t t, char *buf, size_t len)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!localtime_r(&tt, &tm) ||
        strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm) == 0)
        snprintf(buf, len, "%" PRId64, t);
    return buf;
}

/* ---- list -------------------------------------------------------------- */

typedef struct entry_list {
    iron_cache_entry_info *v;
    size_t n, cap;
    int oom;
} entry_list;

static void collect(const iron_cache_entry_info *e, void *ctx)
{
    entry_list *l = ctx;
    if (l->oom)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        iron_cache_entry_info *v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            l->oom = 1;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = *e;
}

/* Most recently used first; ties by key, so the order is stable. */
static int by_last_use(const void *a, const void *b)
{
    const iron_cache_entry_info *x = a, *y = b;
    if (x->last_use != y->last_use)
        return x->last_use > y->last_use ? -1 : 1;
    return strcmp(x->key, y->key);
}

/* The entries as one JSON object: the folder and the entries, most
 * recently used first. */
static int print_json(const entry_list *l, const char *path)
{
    json_t *a = json_array();
    for (size_t i = 0; i < l->n; i++) {
        const iron_cache_entry_info *e = &l->v[i];
        json_array_append_new(
            a, json_pack("{s:s, s:s?, s:s?, s:I, s:I, s:b}", "key", e->key,
                         "name", e->valid ? e->name : NULL, "signature",
                         e->valid ? e->signature : NULL, "bytes",
                         (json_int_t)e->bytes, "last_use",
                         (json_int_t)e->last_use, "valid", e->valid));
    }
    json_t *root = json_pack("{s:s, s:o}", "folder", path, "entries", a);
    char *text = root ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER)
                      : NULL;
    json_decref(root);
    if (!text) {
        fputs("iron cache: out of memory (or a name that is not UTF-8) "
              "writing JSON\n", stderr);
        return 1;
    }
    puts(text);
    free(text);
    return 0;
}

static int cmd_list(const char *dir, const char *path, int json)
{
    entry_list l = { NULL, 0, 0, 0 };
    if (iron_cache_list(dir, collect, &l) != IRON_OK) {
        free(l.v);
        return fail();
    }
    if (l.oom) {
        free(l.v);
        fprintf(stderr, "iron cache: out of memory listing '%s'\n", path);
        return 1;
    }
    if (json) {
        qsort(l.v, l.n, sizeof *l.v, by_last_use);
        int rc = print_json(&l, path);
        free(l.v);
        return rc;
    }
    if (l.n == 0) {
        printf("no entries in %s\n", path);
        free(l.v);
        return 0;
    }
    qsort(l.v, l.n, sizeof *l.v, by_last_use);
    int name_w = 4;
    for (size_t i = 0; i < l.n; i++) {
        int w = (int)strlen(l.v[i].valid ? l.v[i].name : "(invalid)");
        if (w > name_w)
            name_w = w;
    }
    uint64_t total = 0;
    printf("%-32s  %-*s  %10s  %-19s  %s\n", "key", name_w, "name", "size",
           "last use", "signature");
    for (size_t i = 0; i < l.n; i++) {
        const iron_cache_entry_info *e = &l.v[i];
        char sz[32], tm[64];
        total += e->bytes;
        if (e->valid)
            printf("%-32s  %-*s  %10s  %-19s  %s\n", e->key, name_w, e->name,
                   size_text(e->bytes, sz, sizeof sz),
                   time_text(e->last_use, tm, sizeof tm), e->signature);
        else
            printf("%-32s  %-*s  %10s  %-19s  %s\n", e->key, name_w,
                   "(invalid)", size_text(e->bytes, sz, sizeof sz),
                   time_text(e->last_use, tm, sizeof tm),
                   "damaged or from another version (`iron cache verify` "
                   "says which); rebuilt on next use");
    }
    char sz[32];
    printf("%zu %s, %s in %s\n", l.n, l.n == 1 ? "entry" : "entries",
           size_text(total, sz, sizeof sz), path);
    free(l.v);
    return 0;
}

/* ---- verify ------------------------------------------------------------ */

typedef struct verify_tally {
    uint64_t valid, damaged, foreign;
} verify_tally;

static void verify_one(const iron_cache_entry_info *e, void *ctx)
{
    verify_tally *t = ctx;
    const char *hex = e->key;
    if (e->valid) {
        t->valid++;
        return;
    }
    if (e->foreign) {
        t->foreign++;
        printf("other    %s  %s: %s (left for that version; not checked "
               "further)\n",
               hex, e->name[0] ? e->name : "?", e->why);
        return;
    }
    t->damaged++;
    printf("damaged  %s  %s: %s\n", hex, e->name[0] ? e->name : "?",
           e->why);
}

static int cmd_verify(const char *dir, const char *path)
{
    verify_tally t = { 0, 0, 0 };
    if (iron_cache_list(dir, verify_one, &t) != IRON_OK)
        return fail();
    uint64_t n = t.valid + t.damaged + t.foreign;
    printf("%" PRIu64 " %s checked in %s: %" PRIu64 " valid, %" PRIu64
           " damaged, %" PRIu64 " from another version%s\n",
           n, n == 1 ? "entry" : "entries", path, t.valid, t.damaged,
           t.foreign,
           t.damaged ? "; `iron cache prune` removes the damaged ones" : "");
    return t.damaged ? 1 : 0;
}

/* ---- info, clear, prune ------------------------------------------------ */

static int cmd_info(const char *dir, const char *path)
{
    uint64_t entries, bytes;
    char sz[32];
    struct stat st;
    if (iron_cache_get_usage(dir, &entries, &bytes) != IRON_OK)
        return fail();
    printf("%-8s %s%s\n", "folder", path,
           stat(path, &st) != 0 ? " (not created yet)" : "");
    printf("%-8s %" PRIu64 "\n", "entries", entries);
    printf("%-8s %s (%" PRIu64 " bytes)\n", "size",
           size_text(bytes, sz, sizeof sz), bytes);
    /* The cap a program would use without its own option, decided as the
     * library decides it (a bad IRON_CACHE_MAX warns). */
    uint64_t cap;
    const char *from;
    if (iron_cache_get_max_size(&cap, &from) != IRON_OK)
        return fail();
    printf("%-8s %s (%s; a program adding an entry evicts the least "
           "recently used beyond it)\n", "cap", size_text(cap, sz, sizeof sz),
           strcmp(from, "IRON_CACHE_MAX") == 0 ? "from IRON_CACHE_MAX"
                                               : "default");
    return 0;
}

static int cmd_clear(const char *dir, const char *path)
{
    uint64_t entries = 0, bytes = 0;
    char sz[32];
    if (iron_cache_get_usage(dir, &entries, &bytes) != IRON_OK ||
        iron_cache_clear(dir) != IRON_OK)
        return fail();
    printf("removed %" PRIu64 " %s (%s) from %s\n", entries,
           entries == 1 ? "entry" : "entries", size_text(bytes, sz, sizeof sz),
           path);
    return 0;
}

static int cmd_prune(const char *dir, const char *path, uint64_t max_bytes)
{
    uint64_t removed = 0, damaged = 0, entries = 0, bytes = 0;
    char sz[32], dmg[48] = "";
    if (iron_cache_prune_v2(dir, max_bytes, &removed, &damaged) != IRON_OK ||
        iron_cache_get_usage(dir, &entries, &bytes) != IRON_OK)
        return fail();
    if (damaged)
        snprintf(dmg, sizeof dmg, " (%" PRIu64 " damaged)", damaged);
    printf("removed %" PRIu64 " %s%s; %" PRIu64 " %s (%s) remain in %s\n",
           removed, removed == 1 ? "entry" : "entries", dmg, entries,
           entries == 1 ? "entry" : "entries", size_text(bytes, sz, sizeof sz),
           path);
    return 0;
}

/* The length of the option's name when a is "--name" or "--name=...",
 * else 0. */
static size_t option(const char *a, const char *name)
{
    size_t n = strlen(name);
    return strncmp(a, name, n) == 0 && (a[n] == '\0' || a[n] == '=') ? n : 0;
}

/* Options go anywhere after "cache": "--dir DIR", "--dir=DIR",
 * "--max-size SIZE", "--max-size=SIZE". */
int cli_cache(int argc, char **argv)
{
    static const char *const commands[] = { "list",  "info",  "verify",
                                            "clear", "prune", "help" };
    static const char *const options[] = { "--dir", "--max-size", "--json",
                                           "--help" };
    const char *cmd = NULL, *dir = NULL, *size = NULL;
    int json = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char **opt = NULL;
        size_t n;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return usage(stdout, 0);
        if (strcmp(a, "--json") == 0) {
            json = 1;
            continue;
        }
        if ((n = option(a, "--dir")) != 0)
            opt = &dir;
        else if ((n = option(a, "--max-size")) != 0)
            opt = &size;
        if (opt) {
            if (a[n] == '=')
                *opt = a + n + 1;
            else if (i + 1 < argc)
                *opt = argv[++i];
            else
                return usage(stderr, EXIT_USAGE);
            continue;
        }
        if (a[0] == '-') {
            fprintf(stderr, "iron cache: unknown option '%s'", a);
            cli_suggest(stderr, a, options, 4);
            return EXIT_USAGE;
        }
        if (cmd) {
            fprintf(stderr, "iron cache: unexpected argument '%s' to '%s'\n",
                    a, cmd);
            return EXIT_USAGE;
        }
        cmd = a;
    }
    if (!cmd)
        return usage(stderr, EXIT_USAGE);
    if (strcmp(cmd, "help") == 0)
        return usage(stdout, 0);
    if (dir && !dir[0]) {
        fprintf(stderr, "iron cache: --dir: empty folder name\n");
        return EXIT_USAGE;
    }
    if (json && strcmp(cmd, "list") != 0) {
        fprintf(stderr, "iron cache: --json only goes with list\n");
        return EXIT_USAGE;
    }
    /* A folder named on the command line must exist (info says "not
     * created yet" instead): "no entries" in a mistyped folder would be a
     * wrong answer. */
    struct stat dst;
    if (dir && strcmp(cmd, "info") != 0 && stat(dir, &dst) != 0 &&
        errno == ENOENT) {
        fprintf(stderr, "iron cache: --dir '%s': no such folder\n", dir);
        return 1;
    }
    int is_prune = strcmp(cmd, "prune") == 0;
    if (size && !is_prune) {
        fprintf(stderr, "iron cache: --max-size only goes with prune\n\n");
        return usage(stderr, EXIT_USAGE);
    }
    char path[4096], *found;
    if (iron_cache_get_path(dir, &found) != IRON_OK ||
        strlen(found) >= sizeof path) {
        iron_free(found);
        fprintf(stderr, "iron cache: no cache folder: set IRON_CACHE_DIR, "
                        "XDG_CACHE_HOME or HOME, or pass --dir\n");
        return 1;
    }
    memcpy(path, found, strlen(found) + 1);
    iron_free(found);
    if (strcmp(cmd, "list") == 0)
        return cmd_list(dir, path, json);
    if (strcmp(cmd, "verify") == 0)
        return cmd_verify(dir, path);
    if (strcmp(cmd, "info") == 0)
        return cmd_info(dir, path);
    if (strcmp(cmd, "clear") == 0)
        return cmd_clear(dir, path);
    if (is_prune) {
        /* Without a size: remove damaged entries only. */
        uint64_t max_bytes = UINT64_MAX;
        if (size && parse_size(size, &max_bytes) != 0) {
            fprintf(stderr, "iron cache: --max-size '%s': expected bytes or "
                            "a size such as 512K, 100M, 1G\n", size);
            return EXIT_USAGE;
        }
        return cmd_prune(dir, path, max_bytes);
    }
    fprintf(stderr, "iron cache: unknown command '%s'", cmd);
    cli_suggest(stderr, cmd, commands, 6);
    return EXIT_USAGE;
}
