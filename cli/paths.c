/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * paths.c - output folders for `iron run`, `run-mlir` and `export`: a
 * folder given with -o is created when missing (as `mkdir -p` would), and
 * a file in it is named without a doubled slash ("out/" + "c.npy" is
 * "out/c.npy").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* The length of dir without its trailing slashes ("/" stays "/"). */
static size_t trimmed_len(const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    return n;
}

int cli_path_join(char *buf, size_t len, const char *dir, const char *name)
{
    size_t n = trimmed_len(dir);
    int w = n == 1 && dir[0] == '/'
                ? snprintf(buf, len, "/%s", name)
                : snprintf(buf, len, "%.*s/%s", (int)n, dir, name);
    return w < 0 || (size_t)w >= len ? -1 : 0;
}

int cli_make_folder(const char *cmd, const char *opt, const char *dir)
{
    char buf[4096];
    size_t n = trimmed_len(dir);
    if (n >= sizeof buf) {
        fprintf(stderr, "iron %s: %s: the folder name is longer than %zu "
                        "bytes\n", cmd, opt, sizeof buf - 1);
        return 1;
    }
    memcpy(buf, dir, n);
    buf[n] = '\0';
    /* Each prefix ending before a slash, then the whole path; a prefix
     * that exists (as anything) is left to the final check. */
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        if (buf[i - 1] == '/')
            continue;
        char c = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "iron %s: %s '%s': cannot create the folder "
                            "'%s': %s\n", cmd, opt, dir, buf,
                    strerror(errno));
            return 1;
        }
        buf[i] = c;
    }
    struct stat st;
    if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "iron %s: %s '%s': %s\n", cmd, opt, dir,
                stat(buf, &st) != 0 ? strerror(errno) : "not a folder");
        return 1;
    }
    return 0;
}
