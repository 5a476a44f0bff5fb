/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * compile.h - kernel compilation: C or C++ source -> shared object ->
 * entry point.
 *
 * The JIT describes a kernel (entry name, source, declared argument types,
 * defines, flags); this module generates a wrapper with one uniform
 * signature, runs the system C compiler (cc, or $IRON_CC) and loads the
 * result with dlopen.  The wrapper re-declares the entry with the declared
 * types, so a declaration that disagrees with the source is a compile error.
 */
#ifndef IRON_COMPILE_COMPILE_H
#define IRON_COMPILE_COMPILE_H

#include "compile/kabi.h"
#include "core/core.h"
#include "iron/iron.h"

/* Handle kinds a core body's arguments may have besides dtypes. */
typedef enum iron__khandle {
    IRON__KH_NONE,             /* a dtype: scalar or pointer */
    IRON__KH_FIFO,             /* "fifo": iron_objfifo * */
    IRON__KH_BARRIER,          /* "barrier": iron_barrier * */
    IRON__KH_KERNEL            /* "kernel(int32*, int32)": a pointer to a
                                  kernel's entry with those arguments */
} iron__khandle;

#define IRON__KSUB_MAX 16      /* arguments of a kernel passed to a core */
#define IRON__KSRC_INCLUDE_MAX 64  /* include folders of one kernel */

typedef struct iron__ktype {
    iron_dtype dtype;
    int is_ptr;                /* pointer (objects of dtype, or a handle) */
    iron__khandle handle;      /* handles are pointers, dtype unused */
    /* IRON__KH_KERNEL: the called kernel's declared arguments */
    int knargs;
    iron_dtype kdtype[IRON__KSUB_MAX];
    unsigned char kptr[IRON__KSUB_MAX];
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
    int is_core;               /* a core body: declare the FIFO API */
    /* A kernel read from a file: its path, which names the source in
     * diagnostics and debug information (NULL: "<entry>.c"), the folder
     * #include "..." searches (-iquote) and the include folders (-I), each
     * passed as one word; NULL / 0 for none. */
    const char *source_name;
    const char *quote_dir;
    int ninclude_dirs;
    const char *const *include_dirs;
    /* C++ source (not for core bodies): compiled by the C++ compiler as
     * C++20, with the AIE API headers in its include folder; the wrapper
     * is C++ too. */
    int is_cxx;
    /* __AIE_ARCH__'s value on the command line (20 npu1, 21 npu2); 0
     * leaves it undefined. */
    int aie_arch;
    /* A timed build, for the timing model: -DIRON_COUNT=1 (the AIE API
     * counts the operations it issues, <iron/kernel/iron_count.h>) and
     * -fsanitize-coverage=trace-pc (every basic block counts), with
     * vectorization and unrolling off so that a block is the scalar
     * work of one pass (cc.c).  0: the command is exactly the untimed
     * one. */
    int timed;
} iron__kernel_src;


/* Parses "int32*, int32*, int32" into types (at most max); "fifo" and
 * "barrier" parse as handle kinds (only core bodies may use them).
 * IRON_EINVAL naming the item otherwise. */
iron_status iron__ktypes_parse(const char *decl, iron__ktype *types, int max,
                               int *n);

/* Appends the types as a declaration spells them ("int32*, int32*,
 * int32"; a kernel argument as "kernel(...)") to s. */
void iron__ktypes_format(const iron__ktype *types, int n, iron__str *s);

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

/* Loads an instance from a shared object's bytes (a cache entry, an
 * artifact file): no compiler needed. */
iron_status iron__kobj_load_image(const void *image, size_t len,
                                  const char *label, iron__kobj **out);

/* The files the kernel's source included when it was compiled (from the
 * compiler's -MD output; none for objects loaded from bytes).  Owned by
 * o. */
const char *const *iron__kobj_deps(const iron__kobj *o, int *n);

/* Gives a loaded core body its API table (every instance needs its own
 * call).  IRON_ELOAD if the object is not a core body. */
iron_status iron__kobj_bind_core(iron__kobj *o, const iron__core_api *api);

/* The raw entry of a plain kernel (not its uniform wrapper), for core
 * bodies that call it; NULL if the object has none. */
void (*iron__kobj_raw_entry(const iron__kobj *o))(void);

/* Whether the object keeps writable state (static or global variables)
 * besides the runtime's own; 1 when that cannot be told. */
int iron__kobj_has_state(const iron__kobj *o);

/* Bytes of the kernel's own data objects (variables and constant tables):
 * what it needs in its tile's data memory besides buffers and stack; 0
 * when the symbol table cannot be read. */
size_t iron__kobj_data_bytes(const iron__kobj *o);

/* The shared object's bytes (NULL, 0 if unknown); owned by o. */
const char *iron__kobj_image(const iron__kobj *o, size_t *len);
/* Drops one reference (the loader gives one); the last unloads.  Not
 * atomic: an object is shared only under its owner's lock. */
void iron__kobj_free(iron__kobj *o);
void iron__kobj_ref(iron__kobj *o);
int iron__kobj_refs(const iron__kobj *o);

/* "cc: gcc version 12.2.0 (Debian 12.2.0-14); -v <16 hex digits>; target
 * x86_64-linux-gnu": the compiler command in force with the version and
 * target its -v reports and a hash of all it printed, for cache keys
 * (identity.c).  IRON_ECOMPILE when it cannot be asked. */
iron_status iron__cc_identity(char *out, size_t len);
/* The same for the C compiler (is_cxx 0) or the C++ compiler ($IRON_CXX,
 * else c++): what the kernels of that language are compiled with.
 * IRON_ECOMPILE naming IRON_CC or IRON_CXX. */
iron_status iron__compiler_identity(int is_cxx, char *out, size_t len);

/* 1 if s is a non-empty C identifier ([A-Za-z_][A-Za-z0-9_]*). */
int iron__kis_ident(const char *s);

/* The compiler commands in force: $IRON_CC or "cc"; $IRON_CXX or
 * "c++". */
const char *iron__cc(void);
const char *iron__cxx(void);

#endif
