/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * identity.c - a compiler's identity for cache keys: the command in
 * force ($IRON_CC or cc; $IRON_CXX or c++ for C++ kernels), the version and target it reports with -v, and
 * a hash of everything -v printed (its configuration too), so that a
 * rebuilt or upgraded compiler never reuses another's objects.  Probed
 * once per command per process (a spawn costs about a millisecond).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <xxhash.h>

#include "compile/cc.h"
#include "compile/compile.h"
#include "compile/tmpdir.h"
#include "core/core.h"

#define MAX_REMEMBERED 8

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
    int is_cxx;
    char cmd[256];
    char identity[512];
} remembered[MAX_REMEMBERED];
static int nremembered;

/* The text of the first line of t[0 .. n) that starts with `prefix`
 * (without it), or of the first that holds "version " followed by a
 * digit (prefix NULL), into out; "?" when there is none. */
static void find_line(const char *t, size_t n, const char *prefix,
                      char *out, size_t len)
{
    snprintf(out, len, "?");
    for (const char *line = t; line < t + n;) {
        const char *end = memchr(line, '\n', (size_t)(t + n - line));
        if (!end)
            end = t + n;
        size_t ll = (size_t)(end - line);
        while (ll > 0 && (line[ll - 1] == '\r' || line[ll - 1] == ' '))
            ll--;
        if (prefix) {
            size_t pl = strlen(prefix);
            if (ll > pl && memcmp(line, prefix, pl) == 0) {
                snprintf(out, len, "%.*s", (int)(ll - pl), line + pl);
                return;
            }
        } else {
            for (size_t i = 0; i + 9 < ll; i++)
                if (memcmp(line + i, "version ", 8) == 0 &&
                    line[i + 8] >= '0' && line[i + 8] <= '9') {
                    snprintf(out, len, "%.*s", (int)ll, line);
                    return;
                }
        }
        line = end + 1;
    }
}

/* "cc: gcc version 12.2.0 (Debian 12.2.0-14); -v 0123456789abcdef;
 * target x86_64-linux-gnu": the target comes last, where the runtime
 * shim's check (shim.h) reads it. */
static void describe(const char *cmd, const char *text, size_t n, char *out,
                     size_t len)
{
    char version[200], target[100];
    find_line(text, n, NULL, version, sizeof version);
    find_line(text, n, "Target: ", target, sizeof target);
    snprintf(out, len, "%s: %s; -v %016llx; target %s", cmd, version,
             (unsigned long long)XXH3_64bits(text, n), target);
}

static iron_status probe(int is_cxx, const char *cmd, char *out, size_t len)
{
    iron__ktmp tmp = { 0 };
    char *path = NULL, *text = NULL;
    size_t n = 0;
    iron_status s = iron__ktmp_create(&tmp);
    if (s == IRON_OK) {
        path = iron__ktmp_path(&tmp, "probe.txt");
        s = path ? IRON_OK : iron__fail(IRON_ENOMEM, "out of memory");
    }
    if (s == IRON_OK)
        s = iron__cc_probe(is_cxx, path);
    if (s == IRON_OK)
        s = iron__ktmp_read(path, &text, &n);
    if (s == IRON_OK)
        describe(cmd, text, n, out, len);
    iron__free(text);
    iron__free(path);
    iron__ktmp_remove(&tmp);
    return s;
}

iron_status iron__compiler_identity(int is_cxx, char *out, size_t len)
{
    const char *cmd = is_cxx ? iron__cxx() : iron__cc();
    pthread_mutex_lock(&mu);
    for (int i = 0; i < nremembered; i++)
        if (remembered[i].is_cxx == is_cxx &&
            strcmp(remembered[i].cmd, cmd) == 0) {
            snprintf(out, len, "%s", remembered[i].identity);
            pthread_mutex_unlock(&mu);
            return IRON_OK;
        }
    pthread_mutex_unlock(&mu);
    /* Probe outside the lock: it spawns a process. */
    char id[512];
    iron_status s = probe(is_cxx, cmd, id, sizeof id);
    if (s != IRON_OK)
        return s;
    pthread_mutex_lock(&mu);
    if (nremembered < MAX_REMEMBERED && strlen(cmd) < sizeof remembered[0].cmd) {
        remembered[nremembered].is_cxx = is_cxx;
        snprintf(remembered[nremembered].cmd, sizeof remembered[0].cmd, "%s",
                 cmd);
        snprintf(remembered[nremembered].identity,
                 sizeof remembered[0].identity, "%s", id);
        nremembered++;
    }
    pthread_mutex_unlock(&mu);
    snprintf(out, len, "%s", id);
    return IRON_OK;
}

iron_status iron__cc_identity(char *out, size_t len)
{
    return iron__compiler_identity(0, out, len);
}
