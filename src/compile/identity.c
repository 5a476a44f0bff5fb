/*
 * identity.c - the compiler's identity for cache keys: the command in
 * force ($IRON_CC or cc) with the version and target it reports.  Probed
 * once per command per process (a spawn costs about a millisecond).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "compile/cc.h"
#include "compile/compile.h"
#include "compile/tmpdir.h"
#include "core/core.h"

#define MAX_REMEMBERED 8

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
    char cmd[256];
    char identity[512];
} remembered[MAX_REMEMBERED];
static int nremembered;

static iron_status probe(const char *cmd, char *out, size_t len)
{
    iron__ktmp tmp = { 0 };
    char *path = NULL, *text = NULL;
    size_t n = 0;
    iron_status s = iron__ktmp_create(&tmp);
    if (s == IRON_OK) {
        path = iron__ktmp_path(&tmp, "probe.txt");
        s = path ? IRON_OK : iron__fail(IRON_ENOMEM, "out of memory");
    }
    if (s == IRON_OK && iron__cc_probe(path) != 0)
        s = iron__fail(IRON_ECOMPILE,
                       "cannot ask the C compiler '%s' for its version "
                       "(set IRON_CC to a working compiler)",
                       cmd);
    if (s == IRON_OK)
        s = iron__ktmp_read(path, &text, &n);
    if (s == IRON_OK) {
        /* "12.2.0\nx86_64-linux-gnu\n" -> "cc 12.2.0 x86_64-linux-gnu" */
        for (size_t i = 0; i < n; i++)
            if (text[i] == '\n' || text[i] == '\r')
                text[i] = ' ';
        while (n > 0 && text[n - 1] == ' ')
            n--;
        snprintf(out, len, "%s %.*s", cmd, (int)n, text);
    }
    iron__free(text);
    iron__free(path);
    iron__ktmp_remove(&tmp);
    return s;
}

iron_status iron__cc_identity(char *out, size_t len)
{
    const char *cmd = iron__cc();
    pthread_mutex_lock(&mu);
    for (int i = 0; i < nremembered; i++)
        if (strcmp(remembered[i].cmd, cmd) == 0) {
            snprintf(out, len, "%s", remembered[i].identity);
            pthread_mutex_unlock(&mu);
            return IRON_OK;
        }
    pthread_mutex_unlock(&mu);
    /* Probe outside the lock: it spawns a process. */
    char id[512];
    iron_status s = probe(cmd, id, sizeof id);
    if (s != IRON_OK)
        return s;
    pthread_mutex_lock(&mu);
    if (nremembered < MAX_REMEMBERED && strlen(cmd) < sizeof remembered[0].cmd) {
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
