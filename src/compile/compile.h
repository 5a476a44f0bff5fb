/*
 * compile.h - kernel compilation: C source -> shared object -> entry point.
 *
 * The JIT describes a kernel (entry name, source, declared argument types,
 * defines, flags); this module generates a wrapper with one uniform
 * signature, runs the system C compiler (cc, or $IRON_CC) and loads the
 * result with dlopen.  The wrapper re-declares the entry with the declared
 * types, so a declaration that disagrees with the source is a compile error.
 */
#ifndef IRON_COMPILE_COMPILE_H
#define IRON_COMPILE_COMPILE_H

#include "iron/iron.h"

/* One argument value passed to a kernel through the uniform wrapper. */
typedef union iron__kval {
    void *p;
    int64_t i;
    double f;
} iron__kval;

/* The uniform entry: args[k] is the k-th declared argument. */
typedef void (*iron__kernel_fn)(const iron__kval *args);

typedef struct iron__ktype {
    iron_dtype dtype;
    int is_ptr;                /* pointer to objects of dtype, else scalar */
} iron__ktype;

typedef struct iron__kernel_src {
    const char *label;         /* for messages: "kernel 'eltwise'" */
    const char *entry;         /* C identifier of the entry function */
    const char *source;
    int nargs;
    const iron__ktype *args;
    int ndefines;
    const char *const *define_names;
    const char *const *define_values;   /* may be "" for a bare define */
    const char *cflags;        /* space-separated; NULL = "-O2" */
} iron__kernel_src;

typedef struct iron__kobj iron__kobj;   /* a loaded kernel object */

/* Parses "int32*, int32*, int32" into types (at most max).  IRON_EINVAL
 * naming the item otherwise. */
iron_status iron__ktypes_parse(const char *decl, iron__ktype *types, int max,
                               int *n);

/* Compiles and loads.  IRON_ECOMPILE carries the compiler's diagnostics
 * (with the kernel's own line numbers); IRON_ELOAD a dlopen/dlsym failure.
 * Temporary files are removed in every case. */
iron_status iron__kernel_compile(const iron__kernel_src *k, iron__kobj **out);
iron__kernel_fn iron__kobj_entry(const iron__kobj *o);

/* Loads another, independent instance of a compiled object: its own copy
 * of every static variable, as each core on hardware has its own data
 * memory.  Needs no compiler. */
iron_status iron__kobj_clone(const iron__kobj *o, const char *label,
                             iron__kobj **out);

/* The shared object's bytes (NULL, 0 if unknown); owned by o. */
const char *iron__kobj_image(const iron__kobj *o, size_t *len);
void iron__kobj_free(iron__kobj *o);

/* The compiler command in force: $IRON_CC or "cc". */
const char *iron__cc(void);

#endif
