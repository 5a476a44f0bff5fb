/*
 * payload.h - the bytes a disk-cache entry or an artifact file holds for
 * one specialization: every distinct kernel object's shared-object image
 * and the files its source included (path, size, content hash), so that a
 * later process can load the kernels without a compiler and can notice an
 * edited header.
 */
#ifndef IRON_JIT_PAYLOAD_H
#define IRON_JIT_PAYLOAD_H

#include <xxhash.h>

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
 * names the first that does not (with the reason when it cannot be read:
 * "/dev/zero (not a regular file (a character device); ...)").  Each file
 * is opened as cache/file.h says: only regular files of at most
 * IRON__FILE_HEADER_MAX bytes, never blocking. */
int iron__payload_deps_fresh(const iron__payload *pl, char *changed,
                             size_t len);
/* The tools' check of an entry's payload (iron__cache_check_fn): 0 when
 * it decodes, else -1 with the reason in why. */
int iron__payload_check(const void *buf, size_t len, char *why,
                        size_t why_len);
/* Loads the kernel objects into p->kobjs (no compiler); on failure
 * p->kobjs is left NULL. */
iron_status iron__payload_load(const iron__payload *pl, iron_program *p);

/* ---- keys (kcache.c) ------------------------------------------------------
 * A key is a canonical text and its XXH3-128 digest.  The digest names a
 * disk entry and indexes the loaded artifacts; the text decides: an entry
 * or artifact is used only when the text it holds equals the key's byte
 * for byte, so a digest collision is a miss, never a wrong kernel.
 * With the test hook iron__jit_test_digest set, every digest is that
 * constant (in both halves). */
typedef struct iron__jit_key {
    const char *text;          /* not NUL-terminated inside a longer key */
    size_t len;
    XXH128_hash_t digest;
} iron__jit_key;

/* The digest of text[0 .. len) (or the test constant). */
XXH128_hash_t iron__jit_key_digest(const char *text, size_t len);

/* The compiler-independent spec key of a placed program -- its canonical
 * text, every kernel's source, defines, types and flags, the device
 * model, the library version and the entry format -- built into *buf
 * (free with iron__str_free), with out->text pointing into it.
 * IRON_ENOMEM when the text cannot be built. */
iron_status iron__jit_spec_key_make(const iron_jit *j, const iron_program *p,
                                    iron__str *buf, iron__jit_key *out);

/* artifact.c: the payload of the loaded artifact whose key text is
 * key->text exactly.  *collided (if not NULL) is set to the path of an
 * artifact with the same digest but another text (NULL if none), for the
 * log.  Returns 1 when found. */
int iron__jit_artifact_match(const iron_jit *j, const iron__jit_key *key,
                             const void **payload, size_t *len,
                             const char **collided);

#endif
