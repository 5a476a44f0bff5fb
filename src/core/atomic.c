/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * atomic.c - the one routine that publishes a file atomically (base
 * layer; used by the cache's entries, the kernel store's artifacts, the
 * jit's exported files, .npy files and the emulator's traces).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/atomic.h"
#include "core/core.h"

void iron__atomic_put(iron__atomic_out *o, const void *p, size_t n)
{
    if (n && !o->err && fwrite(p, 1, n, o->f) != n)
        o->err = errno ? errno : EIO;
}

void iron__atomic_puts(iron__atomic_out *o, const char *s)
{
    iron__atomic_put(o, s, strlen(s));
}

/* Room for a stem of a full path and the suffix. */
#define TMP_MAX_LEN (4096 + 64)

/* Creates "<stem>.tmp.<pid>.<random>" exclusively into tmp; the
 * descriptor, or -1 with errno set. */
static int create_temp(const iron__atomic_file *a, char *tmp)
{
    const char *stem = a->stem ? a->stem : a->name;
    for (int attempt = 0; attempt < 16; attempt++) {
        uint64_t r;
        if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r)
            r = iron__now_ns() ^
                ((uint64_t)(uintptr_t)&r << 16) ^ (uint64_t)attempt;
        int n = snprintf(tmp, TMP_MAX_LEN, "%s.tmp.%ld.%016llx", stem,
                         (long)getpid(), (unsigned long long)r);
        if (n < 0 || n >= TMP_MAX_LEN) {
            snprintf(tmp, TMP_MAX_LEN, "%s", "(temporary file)");
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = openat(a->dirfd, tmp,
                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                        a->mode);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

iron_status iron__atomic_write(const iron__atomic_file *a,
                                     iron__atomic_body_fn body, void *ctx)
{
    char tmp[TMP_MAX_LEN];
    const char *step = "create";
    int err = 0;
    iron__atomic_out o = { NULL, 0 };
    iron_status s = IRON_OK;
    int kept = -1;
    if (a->keep_fd)
        *a->keep_fd = -1;
    int fd = create_temp(a, tmp);
    if (fd < 0) {
        err = errno;
        goto fail;
    }
    step = "write";
    if (!(o.f = fdopen(fd, "w"))) {
        err = errno;
        close(fd);
        goto drop;
    }
    if ((s = body(&o, ctx)) != IRON_OK)
        goto drop_quietly;
    if (!o.err && fflush(o.f) != 0)
        o.err = errno ? errno : EIO;
    if (o.err) {
        err = o.err;
        goto drop;
    }
    step = "fsync";
    if (fsync(fileno(o.f)) != 0) {
        err = errno;
        goto drop;
    }
    /* The file stays open for the caller through a descriptor of its own:
     * it names the file published, wherever the name goes later. */
    if (a->keep_fd && (kept = fcntl(fileno(o.f), F_DUPFD_CLOEXEC, 0)) < 0) {
        err = errno;
        goto drop;
    }
    step = "close";
    FILE *f = o.f;
    o.f = NULL;
    if (fclose(f) != 0) {
        err = errno ? errno : EIO;
        goto drop;
    }
    step = "rename";
    if (renameat(a->dirfd, tmp, a->dirfd, a->name) != 0) {
        err = errno;
        goto drop;
    }
    /* Some file systems refuse fsync on a folder; the file is published
     * either way, and a crash before the folder reaches the disk only
     * loses it, never corrupts it. */
    if (a->sync_folder)
        fsync(a->dirfd);
    if (a->keep_fd)
        *a->keep_fd = kept;
    return IRON_OK;

drop_quietly:
    fclose(o.f);
    unlinkat(a->dirfd, tmp, 0);
    return s;
drop:
    if (o.f)
        fclose(o.f);
    if (kept >= 0)
        close(kept);
    unlinkat(a->dirfd, tmp, 0);
fail:
    return iron__fail(IRON_EIO,
                      "cannot write the %s '%s': %s of '%s' failed: %s "
                      "(nothing was published)",
                      a->what, a->shown ? a->shown : a->name, step, tmp,
                      strerror(err));
}
