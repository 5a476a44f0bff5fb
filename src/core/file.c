/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * file.c - opening files someone else may have named or placed, with the
 * checks file.h lists.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/file.h"

const char *iron__file_kind(mode_t mode)
{
    if (S_ISREG(mode))
        return "a regular file";
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISLNK(mode))
        return "a symbolic link";
    if (S_ISSOCK(mode))
        return "a socket";
    return "of an unknown type";
}

int iron__file_check(const struct stat *st, iron__file_owner owner,
                     uint64_t max_bytes, char *why, size_t why_len)
{
    if (!S_ISREG(st->st_mode)) {
        snprintf(why, why_len,
                 "not a regular file (%s); only regular files are read",
                 iron__file_kind(st->st_mode));
        return -1;
    }
    uid_t me = geteuid();
    if (owner != IRON__OWNER_ANY && st->st_uid != me &&
        !(owner == IRON__OWNER_SELF_OR_ROOT && st->st_uid == 0)) {
        snprintf(why, why_len,
                 "owned by uid %lu; accepted: files of this user (uid %lu)%s",
                 (unsigned long)st->st_uid, (unsigned long)me,
                 owner == IRON__OWNER_SELF_OR_ROOT ? " or of root" : "");
        return -1;
    }
    if (owner != IRON__OWNER_ANY && (st->st_mode & (S_IWGRP | S_IWOTH))) {
        snprintf(why, why_len,
                 "mode %04o lets %s write it; accepted: files only their "
                 "owner can write (such as 0600 or 0644)",
                 (unsigned)(st->st_mode & 07777),
                 (st->st_mode & S_IWOTH) ? "others" : "the group");
        return -1;
    }
    /* st_size of a regular file is never negative; the cast is safe. */
    if (st->st_size < 0 || (uint64_t)st->st_size > max_bytes) {
        snprintf(why, why_len,
                 "%" PRIu64 " bytes, more than the %" PRIu64 " accepted",
                 (uint64_t)st->st_size, max_bytes);
        return -1;
    }
    return 0;
}

int iron__file_open(int dfd, const char *path, int nofollow,
                    iron__file_owner owner, uint64_t max_bytes,
                    struct stat *st, int *err, char *why, size_t why_len)
{
    *err = 0;
    /* Before opening: a device is never opened at all (opening one can
     * have effects of its own), a FIFO never waited on. */
    if (fstatat(dfd, path, st, nofollow ? AT_SYMLINK_NOFOLLOW : 0) != 0) {
        *err = errno;
        snprintf(why, why_len, "cannot stat: %s", strerror(errno));
        return -1;
    }
    if (iron__file_check(st, owner, max_bytes, why, why_len) != 0)
        return -1;
    int fd = openat(dfd, path,
                    O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
                        (nofollow ? O_NOFOLLOW : 0));
    if (fd < 0) {
        *err = errno;
        snprintf(why, why_len, "cannot open: %s", strerror(errno));
        return -1;
    }
    /* After opening: the descriptor is what gets read, whatever the path
     * names by now. */
    if (fstat(fd, st) != 0) {
        *err = errno;
        snprintf(why, why_len, "cannot stat: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (iron__file_check(st, owner, max_bytes, why, why_len) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

ptrdiff_t iron__file_read(int fd, void *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, (char *)buf + got, len - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (ptrdiff_t)got;
}
