/*
 * payload.h - the bytes a disk-cache entry or an artifact file holds for
 * one specialization: every distinct kernel object's shared-object image
 * and the files its source included (path, size, content hash), so that a
 * later process can load the kernels without a compiler and can notice an
 * edited header.
 */
#ifndef IRON_JIT_PAYLOAD_H
#define IRON_JIT_PAYLOAD_H

#include "program/program.h"

#define IRON__PAYLOAD_MAGIC "IRONPAY1"

typedef struct iron__payload_dep {
    const char *path;          /* not NUL-terminated: path_len bytes */
    uint32_t path_len;
    uint64_t size, hash;       /* XXH3-64 of the contents */
} iron__payload_dep;

typedef struct iron__payload_obj {
    int ndeps;
    iron__payload_dep *deps;
    const void *image;
    uint64_t image_len;
} iron__payload_obj;

/* A decoded payload; pointers point into the payload bytes. */
typedef struct iron__payload {
    int nkernels, nobjs;
    int *obj_of_kernel;        /* per design kernel: its object */
    iron__payload_obj *objs;
} iron__payload;

/* Encodes the program's kernel objects (p->kobjs), hashing each included
 * file now.  *out is iron__malloc'd. */
iron_status iron__payload_encode(const iron_program *p, void **out,
                                 size_t *len);
/* Decodes and bounds-checks; *why says what is wrong on IRON_EIO. */
iron_status iron__payload_decode(const void *buf, size_t len,
                                 iron__payload *out, const char **why);
void iron__payload_free(iron__payload *pl);
/* Whether every included file still has the recorded contents; *changed
 * names the first that does not. */
int iron__payload_deps_fresh(const iron__payload *pl, char *changed,
                             size_t len);
/* Loads the kernel objects into p->kobjs (no compiler); on failure
 * p->kobjs is left NULL. */
iron_status iron__payload_load(const iron__payload *pl, iron_program *p);

#endif
