/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * dir.c - the cache layer's folder: resolving the default location,
 * creating and opening the folder, and scanning its files.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache/dir.h"
#include "core/env.h"
#include "core/core.h"

/* Copies "<a><b>" into buf; an empty buf when it does not fit, since a
 * cut path would name some other folder. */
static char *join(char *buf, size_t len, const char *a, const char *b)
{
    int n = snprintf(buf, len, "%s%s", a, b);
    if (n < 0 || (size_t)n >= len)
        buf[0] = '\0';
    return buf;
}

/* $IRON_CACHE_DIR, else $XDG_CACHE_HOME/iron, else $HOME/.cache/iron, else
 * the password database's home.  The XDG spec says a relative
 * XDG_CACHE_HOME is invalid and must be ignored; so do we. */
char *iron__cache_default_dir(char *buf, size_t len)
{
    if (!buf || len == 0)
        return buf;
    const char *v = iron__env_get_text(IRON__ENV_CACHE_DIR);
    if (v)
        return join(buf, len, v, "");
    v = getenv("XDG_CACHE_HOME");
    if (v && v[0] == '/')
        return join(buf, len, v, "/iron");
    v = getenv("HOME");
    if (v && *v)
        return join(buf, len, v, "/.cache/iron");
    struct passwd pw, *res = NULL;
    char pwbuf[2048];
    if (getpwuid_r(getuid(), &pw, pwbuf, sizeof pwbuf, &res) == 0 && res &&
        res->pw_dir && res->pw_dir[0])
        return join(buf, len, res->pw_dir, "/.cache/iron");
    buf[0] = '\0';
    return buf;
}

/* mkdir -p with mode 0700 (the cache holds code this user will load, so
 * nobody else should be able to put files there).  path is restored
 * before returning.  Returns 0 or an errno. */
static int make_dirs(char *path)
{
    if (mkdir(path, 0700) == 0 || errno == EEXIST)
        return 0;
    if (errno != ENOENT)
        return errno;
    /* Create the parent, then retry.  Each level is shorter, so this ends
     * (a doubled slash only costs an extra EEXIST). */
    char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return ENOENT;
    *slash = '\0';
    int e = make_dirs(path);
    *slash = '/';
    if (e)
        return e;
    if (mkdir(path, 0700) == 0 || errno == EEXIST)
        return 0;
    return errno;
}

/* Allocates the handle and opens the folder (which must exist). */
static iron_status open_handle(iron__cache **out, char *dir,
                               uint64_t max_bytes)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        iron_status s = iron__fail(IRON_EIO,
                                   "cannot open the cache folder '%s': %s",
                                   dir, strerror(errno));
        iron__free(dir);
        return s;
    }
    iron__cache *c = iron__calloc(1, sizeof *c);
    if (!c) {
        close(dfd);
        iron__free(dir);
        return iron__fail(IRON_ENOMEM, "out of memory opening the cache");
    }
    c->dir = dir;
    c->dfd = dfd;
    c->max_bytes = max_bytes ? max_bytes : IRON__CACHE_DEFAULT_MAX_BYTES;
    *out = c;
    return IRON_OK;
}

/* dir (or the default) as a new string; IRON_EIO when there is none. */
static iron_status resolve(const char *dir, char **out)
{
    char def[PATH_MAX];
    *out = NULL;
    if (!dir) {
        dir = iron__cache_default_dir(def, sizeof def);
        if (!dir[0])
            return iron__fail(IRON_EIO,
                              "no cache folder: set IRON_CACHE_DIR, "
                              "XDG_CACHE_HOME or HOME");
    }
    if (!dir[0])
        return iron__fail(IRON_EINVAL, "cache folder: empty path");
    char *p = iron__strdup(dir);
    if (!p)
        return iron__fail(IRON_ENOMEM, "out of memory naming the cache "
                                       "folder '%s'", dir);
    /* "/a/b/" -> "/a/b", so that messages name "/a/b/<file>". */
    for (size_t n = strlen(p); n > 1 && p[n - 1] == '/'; n--)
        p[n - 1] = '\0';
    *out = p;
    return IRON_OK;
}

iron_status iron__cache_open(iron__cache **out, const char *dir,
                             uint64_t max_bytes)
{
    char *path;
    *out = NULL;
    iron_status s = resolve(dir, &path);
    if (s != IRON_OK)
        return s;
    int e = make_dirs(path);
    if (e) {
        s = iron__fail(IRON_EIO, "cannot create the cache folder '%s': %s",
                       path, strerror(e));
        iron__free(path);
        return s;
    }
    s = open_handle(out, path, max_bytes);
    if (s != IRON_OK)
        return s;
    /* AT_EACCESS: the effective ids, the ones open() will use.  (For root
     * this only catches a read-only file system.) */
    if (faccessat((*out)->dfd, ".", W_OK | X_OK, AT_EACCESS) != 0) {
        s = iron__fail(IRON_EIO, "the cache folder '%s' is not writable: %s",
                       (*out)->dir, strerror(errno));
        iron__cache_close(*out);
        *out = NULL;
        return s;
    }
    /* Entries are code that gets loaded and run: a folder another user
     * could write into would let them run code as this one. */
    struct stat st;
    if (fstat((*out)->dfd, &st) == 0 &&
        (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))) {
        char found[96];
        if (st.st_uid != geteuid())
            snprintf(found, sizeof found, "owned by uid %lu, not this user "
                     "(uid %lu)", (unsigned long)st.st_uid,
                     (unsigned long)geteuid());
        else
            snprintf(found, sizeof found, "writable by group or others "
                     "(mode %04o)", (unsigned)(st.st_mode & 07777));
        s = iron__fail(IRON_EIO,
                       "the cache folder '%s' is %s; it must belong to this "
                       "user and not be writable by others, such as mode "
                       "0700 (entries are loaded as code)",
                       (*out)->dir, found);
        iron__cache_close(*out);
        *out = NULL;
    }
    return s;
}

iron_status iron__cache_open_existing(iron__cache **out, const char *dir)
{
    char *path;
    struct stat st;
    *out = NULL;
    iron_status s = resolve(dir, &path);
    if (s != IRON_OK)
        return s;
    if (stat(path, &st) != 0 && errno == ENOENT) {
        iron__free(path);
        return IRON_OK;
    }
    return open_handle(out, path, 0);
}

void iron__cache_close(iron__cache *c)
{
    if (!c)
        return;
    close(c->dfd);
    iron__free(c->dir);
    iron__free(c);
}

const char *iron__cache_dir(const iron__cache *c)
{
    return c->dir;
}

int64_t iron__cache_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Reads the folder through its own descriptor (a DIR's position lives in
 * the descriptor, and c->dfd is shared by every thread using c). */
iron_status iron__cache_scan(iron__cache *c, iron__cache_scan_fn fn,
                             void *ctx)
{
    int fd = openat(c->dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return iron__fail(IRON_EIO, "cannot read the cache folder '%s': %s",
                          c->dir, strerror(e));
    }
    iron_status s = IRON_OK;
    struct dirent *de;
    while (s == IRON_OK && (errno = 0, de = readdir(d)) != NULL) {
        iron__cache_file f;
        struct stat st;
        f.kind = iron__cache_fname_kind(de->d_name, &f.key);
        if (f.kind == IRON__CACHE_OTHER)
            continue;
        /* Gone (evicted by another process) or unreadable: skip it; a
         * scan reports what is there, not races. */
        if (fstatat(c->dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        f.fname = de->d_name;
        f.bytes = (uint64_t)st.st_size;
        f.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 +
                     st.st_mtim.tv_nsec;
        f.ino = (uint64_t)st.st_ino;
        s = fn(c, &f, ctx);
    }
    if (s == IRON_OK && errno != 0)
        s = iron__fail(IRON_EIO, "cannot read the cache folder '%s': %s",
                       c->dir, strerror(errno));
    closedir(d);
    return s;
}
