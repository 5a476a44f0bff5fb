/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * fuzz.h - helpers shared by the libFuzzer targets in fuzz/: a reader that
 * turns the input bytes into values (biased towards small numbers and the
 * edges where overflow bugs live), and the checks every target makes.  A
 * failed check prints what was wrong and aborts, which libFuzzer reports as
 * a crash and saves the input.
 */
#ifndef IRON_FUZZ_FUZZ_H
#define IRON_FUZZ_FUZZ_H

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iron/iron.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A failed property: report and abort (libFuzzer saves the input). */
#define FUZZ_CHECK(cond, ...)                                                 \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "\nFUZZ CHECK FAILED at %s:%d: %s\n  ",           \
                    __FILE__, __LINE__, #cond);                               \
            fprintf(stderr, __VA_ARGS__);                                     \
            fprintf(stderr, "\n  last error: \"%s\"\n", iron_last_error());   \
            abort();                                                          \
        }                                                                     \
    } while (0)

/* Every failing call must say why (iron.h's conventions). */
#define FUZZ_FAILED_WITH_MESSAGE(st, what)                                    \
    FUZZ_CHECK((st) == IRON_OK || iron_last_error()[0] != '\0',               \
               "%s failed with %s and an empty iron_last_error()", (what),    \
               iron_status_name(st))

/* The input, consumed from the front; past the end every byte is 0. */
typedef struct fuzz_in {
    const uint8_t *p;
    size_t n;
} fuzz_in;

static inline uint8_t fuzz_u8(fuzz_in *f)
{
    if (f->n == 0)
        return 0;
    f->n--;
    return *f->p++;
}

static inline uint16_t fuzz_u16(fuzz_in *f)
{
    uint16_t lo = fuzz_u8(f);
    return (uint16_t)(lo | (uint16_t)fuzz_u8(f) << 8);
}

static inline uint64_t fuzz_u64(fuzz_in *f)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)fuzz_u8(f) << (8 * i);
    return v;
}

/* A value in [0, n) (n >= 1). */
static inline unsigned fuzz_below(fuzz_in *f, unsigned n)
{
    return n <= 256 ? fuzz_u8(f) % n : fuzz_u16(f) % n;
}

/* Values at the edges of the limits the library documents (2^20 words,
 * 2^40 elements, 2^62 reach) and of int32/int64. */
static const int64_t fuzz_edges[] = {
    0, 1, -1, 2, 63, 64, 65, 1023, 1024, 1025,
    ((int64_t)1 << 20) - 1, (int64_t)1 << 20, ((int64_t)1 << 20) + 1,
    INT32_MAX, (int64_t)INT32_MAX + 1, INT32_MIN, UINT32_MAX,
    (int64_t)1 << 32, 3037000499, 3037000500, /* ~sqrt(INT64_MAX) */
    ((int64_t)1 << 40) - 1, (int64_t)1 << 40, ((int64_t)1 << 40) + 1,
    (int64_t)1 << 41, ((int64_t)1 << 62) - 1, (int64_t)1 << 62,
    INT64_MAX, INT64_MAX - 1, INT64_MIN, INT64_MIN + 1,
    (int64_t)1 << 21, 2097151,
};

/* An int64: mostly small, sometimes an edge value, sometimes raw bytes. */
static inline int64_t fuzz_i64(fuzz_in *f)
{
    uint8_t sel = fuzz_u8(f);
    switch (sel & 7) {
    case 0:
    case 1:
    case 2:
        return sel >> 3;                    /* 0 .. 31 */
    case 3:
        return fuzz_u16(f);                 /* 0 .. 65535 */
    case 4:
        return fuzz_edges[(sel >> 3) %
                          (sizeof fuzz_edges / sizeof fuzz_edges[0])];
    case 5:
        return -(int64_t)(sel >> 3);        /* 0 .. -31 */
    case 6:
        /* an edge value -2 .. +2, wrapping (no signed overflow here) */
        return (int64_t)((uint64_t)fuzz_edges[(sel >> 3) %
                                              (sizeof fuzz_edges /
                                               sizeof fuzz_edges[0])] +
                         (uint64_t)(fuzz_u8(f) % 5) - 2u);
    default:
        return (int64_t)fuzz_u64(f);
    }
}

/* Where a target keeps its scratch files: /dev/shm when it can (runs are
 * many and short), else $TMPDIR, else /tmp. */
static inline const char *fuzz_scratch_base(void)
{
    const char *base = getenv("TMPDIR");
    struct stat st;
    if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) &&
        access("/dev/shm", W_OK) == 0)
        base = "/dev/shm";
    return base && *base ? base : "/tmp";
}

/* Writes data to path (created or truncated), all of it. */
static inline void fuzz_write_file(const char *path, const void *data,
                                   size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    FUZZ_CHECK(fd >= 0, "cannot write %s: %s", path, strerror(errno));
    const unsigned char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        FUZZ_CHECK(n > 0, "cannot write %s: %s", path, strerror(errno));
        p += n;
        len -= (size_t)n;
    }
    close(fd);
}

/* The indices an access pattern visits, in order, into idx (count of
 * them).  Only for patterns whose reach was checked to fit int64. */
static inline void fuzz_walk_tap(const iron_tap *t, int64_t *idx,
                                 int64_t count)
{
    int64_t i[IRON_TAP_MAX_DIMS] = { 0 };
    for (int64_t v = 0; v < count; v++) {
        int64_t e = t->offset;
        for (int k = 0; k < t->ndim; k++)
            e += i[k] * t->strides[k];
        idx[v] = e;
        for (int k = t->ndim - 1; k >= 0; k--) {
            if (++i[k] < t->sizes[k])
                break;
            i[k] = 0;
        }
    }
}

/* The rest of the input as a NUL-terminated string (malloc'd). */
static inline char *fuzz_rest_str(fuzz_in *f)
{
    char *s = malloc(f->n + 1);
    if (!s)
        abort();
    memcpy(s, f->p, f->n);
    s[f->n] = '\0';
    f->p += f->n;
    f->n = 0;
    return s;
}

#endif
