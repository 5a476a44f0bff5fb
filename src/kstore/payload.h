/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * payload.h - (kernel store) the bytes a disk-cache entry or an artifact
 * file holds: kernel objects (one in a disk-cache entry, every kernel of
 * a specialization in an artifact), each distinct object's shared-object
 * image and the files its source included (path, size, content hash), so
 * that a later process can load the kernels without a compiler and can
 * notice an edited header.
 */
#ifndef IRON_KSTORE_PAYLOAD_H
#define IRON_KSTORE_PAYLOAD_H

#include "program/program.h"

#define IRON__KSTORE_PAYLOAD_MAGIC "IRONPAY1"

typedef struct iron__kstore_payload_dep {
    const char *path;          /* not NUL-terminated: path_len bytes */
    uint32_t path_len;
    uint64_t size, hash;       /* XXH3-64 of the contents */
} iron__kstore_payload_dep;

typedef struct iron__kstore_payload_obj {
    int ndeps;
    iron__kstore_payload_dep *deps;
    const void *image;
    uint64_t image_len;
} iron__kstore_payload_obj;

/* A decoded payload; pointers point into the payload bytes. */
typedef struct iron__kstore_payload {
    int nkernels, nobjs;
    int *obj_of_kernel;        /* per design kernel: its object */
    iron__kstore_payload_obj *objs;
} iron__kstore_payload;

/* Encodes kobjs[0 .. nkernels) (the same pointer twice is one object),
 * hashing each included file now.  *out is iron__malloc'd. */
iron_status iron__kstore_payload_encode(iron__kobj *const *kobjs,
                                        int nkernels, void **out,
                                        size_t *len);
/* Decodes and bounds-checks; *why says what is wrong on IRON_EIO. */
iron_status iron__kstore_payload_decode(const void *buf, size_t len,
                                        iron__kstore_payload *out,
                                        const char **why);
void iron__kstore_payload_free(iron__kstore_payload *pl);
/* Whether every included file still has the recorded contents; *changed
 * names the first that does not (with the reason when it cannot be read:
 * "/dev/zero (not a regular file (a character device); ...)").  Each file
 * is opened as core/file.h says: only regular files of at most
 * IRON__FILE_HEADER_MAX bytes, never blocking. */
int iron__kstore_payload_deps_fresh(const iron__kstore_payload *pl,
                                    char *changed, size_t len);
/* The tools' check of an entry's payload (iron__cache_check_fn): 0 when
 * it decodes, else -1 with the reason in why. */
int iron__kstore_payload_check(const void *buf, size_t len, char *why,
                               size_t why_len);
/* Loads the payload's objects (no compiler) into *out, an array of
 * nkernels objects (iron__malloc'd; the same object for identical
 * kernels, one reference each distinct object), labelled `label` in
 * messages.  IRON_EIO when the payload holds another number of kernels;
 * on failure *out is NULL and nothing is left loaded. */
iron_status iron__kstore_payload_load(const iron__kstore_payload *pl,
                                      int nkernels, const char *label,
                                      iron__kobj ***out);

#endif
