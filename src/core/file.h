/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * file.h - opening files whose name or contents someone else may have
 * chosen (base layer): cache entries, artifacts, the headers a cache entry
 * lists, kernel sources, .npy files and a compiler's output.  Entries and
 * artifacts are native code that gets loaded into the process, and a
 * header path comes out of a cache entry, so none of them is opened
 * blindly:
 *
 *   - only regular files: a FIFO blocks open() (and a read) forever, a
 *     device such as /dev/zero never ends, a folder is not data;
 *   - the file is checked with stat before it is opened (so no device is
 *     even opened) and again with fstat on the open descriptor (so what is
 *     read is what was checked, whatever is renamed over the path in
 *     between);
 *   - opened with O_NONBLOCK (a FIFO swapped in between the two checks
 *     cannot block), O_NOCTTY (a terminal never becomes the controlling
 *     one) and O_CLOEXEC (a compiler started meanwhile does not inherit
 *     it);
 *   - a size limit checked before anything is read;
 *   - for entries and artifacts: the owner and the mode (see
 *     iron__file_owner).
 */
#ifndef IRON_CORE_FILE_H
#define IRON_CORE_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The largest file read as an included header: real headers are at most
 * a few MiB; this only stops a runaway read. */
#define IRON__FILE_HEADER_MAX (64ull << 20)
/* The largest cache entry or artifact file (header, key text and the
 * kernel images; real ones are tens of KiB). */
#define IRON__FILE_ENTRY_MAX (256ull << 20)
/* The largest compiler output read back (a kernel's shared object). */
#define IRON__FILE_OBJECT_MAX (256ull << 20)

/* Whose files are accepted.  For SELF and SELF_OR_ROOT the file must also
 * not be writable by group or others: whoever can write it can put code
 * into this process. */
typedef enum iron__file_owner {
    IRON__OWNER_ANY,          /* included headers (system ones are root's) */
    IRON__OWNER_SELF,         /* cache entries: this user's (euid) only */
    IRON__OWNER_SELF_OR_ROOT  /* artifacts: this user's, or installed by
                                 root */
} iron__file_owner;

/* Room for a reason a file was refused. */
#define IRON__FILE_WHY_MAX 200

/* Opens path (relative to dfd; AT_FDCWD for a plain path) read-only when
 * it is a regular file of at most max_bytes owned as `owner` says.  With
 * nofollow a final symbolic link is refused (entries are never links);
 * otherwise links are followed (header paths often are links).  Returns
 * the descriptor with *st filled, or -1 with the reason in why (at most
 * why_len bytes) and *err: for a refused file, *err is 0 and why says
 * what was found and what is accepted -- "not a regular file (a FIFO);
 * ...", "owned by uid 1000; accepted: ...", "mode 0666 lets others write
 * it; accepted: ...", "... bytes, more than the ... accepted"; for a
 * failed system call, *err is its errno (ENOENT: there is no such file)
 * and why "cannot stat: ..." or "cannot open: ...". */
int iron__file_open(int dfd, const char *path, int nofollow,
                    iron__file_owner owner, uint64_t max_bytes,
                    struct stat *st, int *err, char *why, size_t why_len);

/* Whether an already open file passes the same checks (used on the
 * descriptor after open, and on the pre-open stat); 0, or -1 with the
 * reason in why. */
int iron__file_check(const struct stat *st, iron__file_owner owner,
                     uint64_t max_bytes, char *why, size_t why_len);

/* "a FIFO", "a character device", "a folder", ... for a file's type. */
const char *iron__file_kind(mode_t mode);

/* Reads up to len bytes; returns the count (short only at end of file) or
 * -1 with errno set. */
ptrdiff_t iron__file_read(int fd, void *buf, size_t len);

#endif
