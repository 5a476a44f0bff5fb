/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * jit.h - the jit object: its declared tensor arguments and compile-time
 * parameters (parsed once at creation), its bound values, and its cache of
 * specializations.
 *
 * The call path (launch.c) is:  validate tensors -> resolve parameters ->
 * digest of the signature -> lookup with an exact comparison (table.c) ->
 * on a miss, build (spec.c: design -> verify -> place -> kernels from the
 * kernel store, src/kstore -> load) -> run on the device.  A warm call
 * builds no strings and touches no disk.
 *
 * Threads.  Any number of threads may call one jit.  `lock` guards the
 * table, the LRU order, the bound values and the counters, and is held
 * only briefly; `build_lock` serialises builds (and iron_jit_bind, whose
 * strings a build reads), so a warm call never waits for a compiler.
 * Calls of one specialization take turns on its `run_lock`: a loaded
 * instance is one emulated array.  Lock order: build_lock, lock, run_lock.
 */
#ifndef IRON_JIT_JIT_H
#define IRON_JIT_JIT_H

#include <pthread.h>
#include <stdatomic.h>
#include <xxhash.h>

#include "design/design.h"
#include "device/device.h"
#include "kstore/kstore.h"
#include "program/program.h"

/* Bounds that keep the call path's records on the stack. */
#define IRON__JIT_MAX_ARGS 32
#define IRON__JIT_MAX_PARAMS 32
#define IRON__JIT_MAX_SCALARS 16

/* One dimension of an argument's declared shape. */
typedef struct jit_dim {
    int is_var;
    int64_t value;
    char *var;
} jit_dim;

typedef struct jit_argdecl {
    char *name;
    iron__role role;
    int has_type;
    char *dtype_var;          /* NULL: dtype is fixed */
    iron_dtype dtype;
    int ndims;                /* -1: any shape */
    jit_dim dims[IRON_MAX_DIMS];
} jit_argdecl;

typedef struct jit_paramdecl {
    char *name;
    iron_param_type type;
    int has_default;
    iron__pval def;           /* def.s owned */
} jit_paramdecl;

/* What a launch configuration says about running, as opposed to
 * building: fields a program built against an older header lacks are 0. */
typedef struct jit_runopts {
    int timeout_ms;           /* 0: IRON_TIMEOUT_MS or the default */
    int check, profile;       /* 1 on, -1 off, 0: the environment */
    const char *trace;        /* NULL: IRON_TRACE */
    int threads;              /* 0: IRON_THREADS or the CPU count */
    double clock_mhz;         /* timed calls: 0 IRON_CLOCK_MHZ or the
                                 device's */
} jit_runopts;

/* A specialization; the public iron_spec. */
typedef struct iron_spec {
    iron_jit *jit;
    jit_runopts run;          /* from the launch config it was made for */
    char *trace;              /* run.trace, owned */
    uint64_t digest;          /* of the signature: picks a bucket only */
    struct iron_spec *chain;  /* next in the bucket */
    struct iron_spec *lru_prev, *lru_next;
    int pinned;               /* handed out by iron_jit_specialize */
    atomic_int busy;          /* calls between lookup and the end of run */
    pthread_mutex_t run_lock; /* calls of this specialization take turns */
    iron_device *dev;
    iron_program *prog;
    void *loaded;
    iron__argsig *args;
    iron__pval *params;       /* strings owned */
    char *signature;          /* "a: int32[4096], ...; tile=16; npu2" */
    int cols;
    int timed;                /* its kernels count what they issue */
} jit_spec;

/* Where and how a call runs, as far as its specialization depends on it:
 * the device, the columns granted, and whether the call is timed (a timed
 * call's kernels are built to count the operations they issue, so it has
 * a specialization of its own). */
typedef struct jit_target {
    iron_device *dev;
    int cols;
    int timed;
} jit_target;

typedef struct jit_scalardecl {
    char *name;
    int has_default;
    int64_t def;
} jit_scalardecl;

struct iron_jit {
    char *name;
    iron_design_fn fn;
    void *user;
    char *cflags;
    int nargs;
    jit_argdecl *args;
    int nparams;
    jit_paramdecl *params;
    int nscalars;
    jit_scalardecl *scalars;
    const char **scalar_names;   /* for the design */
    int *is_bound;
    iron__pval *bound;        /* strings owned */
    pthread_mutex_t lock, build_lock;   /* see the top of this file */
    /* Specializations: chained buckets on the digest, most recently used
     * first in the LRU list; beyond max_resident the least recently used
     * are unloaded (a later call rebuilds, from the disk cache). */
    jit_spec **buckets;
    int nbuckets, nspecs, max_resident;
    jit_spec *lru_head, *lru_tail;
    iron_jit_stats stats;     /* calls aside: see `calls` */
    /* Launches attempted: every call bumps it outside the locks, so it
     * lives apart from `stats`, which iron_jit_get_stats copies whole. */
    _Atomic uint64_t calls;
    atomic_int last_state;    /* an enum iron_run_state */
    /* The specialization of the last call that reached the device;
     * written under `lock`, or without it for pinned ones (never freed
     * before the jit). */
    struct iron_spec *_Atomic last_run;
    /* Where kernel objects come from: shared ones, artifacts, the disk
     * cache, the compiler (src/kstore).  Used under build_lock. */
    iron__kstore *kstore;
};

/* Test hook: when nonzero every in-memory specialization key digest is
 * this constant, so tests can prove that a digest collision is a miss and
 * never a wrong kernel (iron__kstore_test_digest does the same for disk
 * and artifact keys). */
extern uint64_t iron__jit_test_digest;

/* table.c: the specializations in memory. */
uint64_t iron__jit_sig_digest(const iron_jit *j, const jit_target *t,
                              iron_tensor *const *args,
                              const iron__pval *params);
/* The specialization with exactly this signature (and makes it the most
 * recently used), or NULL. */
jit_spec *iron__jit_table_find(iron_jit *j, uint64_t digest,
                               const jit_target *t,
                               iron_tensor *const *args,
                               const iron__pval *params);
iron_status iron__jit_table_insert(iron_jit *j, jit_spec *sp);
/* Whether tensor t has the dtype and shape of argument a. */
int iron__argsig_fits(const iron__argsig *a, const iron_tensor *t);
/* Takes the least recently used beyond max_resident out of the table;
 * returns them chained through `chain` for the caller to free. */
jit_spec *iron__jit_table_evict(iron_jit *j);
void iron__jit_table_free_all(iron_jit *j);
/* IRON_RESIDENT_MAX, else 256. */
int iron__jit_default_max_resident(void);

/* signature.c */
/* A parameter or scalar (`noun`, declared in the `decl` string `text`)
 * named like an argument's type or size variable would give the design
 * two different things called by one name: IRON_EINVAL naming both. */
iron_status iron__jit_check_var_clash(const iron_jit *j, const char *decl,
                                      const char *noun, const char *text,
                                      const char *name);
iron_status iron__jit_parse_args(iron_jit *j, const char *text);
iron_status iron__jit_parse_params(iron_jit *j, const char *text);
/* Makes v own copies of its strings (str and kernel values), or frees
 * them (v becomes a plain int). */
iron_status iron__pval_own(iron__pval *v);
void iron__pval_release(iron__pval *v);
/* Equal values (table.c): same type, and the same value (floats bit for bit,
 * strings and kernels by content). */
int iron__pval_equal(const iron__pval *a, const iron__pval *b);
/* Formats a value as in a params string: 16, 1.5, true, 'x', int32. */
void iron__pval_format(const iron__pval *v, iron__str *s);

/* scalars.c: dispatch-time scalars. */
iron_status iron__jit_parse_scalars(iron_jit *j, const char *text);
/* The value of every declared scalar for one call (out has j->nscalars
 * entries). */
iron_status iron__jit_resolve_scalars(const iron_jit *j, int n,
                                      const iron_scalar *given, int64_t *out);
/* Checks the fills and drains that a scalar moves against their
 * tensors, for these values. */
iron_status iron__jit_check_moved_taps(const iron_jit *j,
                                       const jit_spec *sp,
                                       const int64_t *values);

/* params.c: the value of every declared parameter for one call, by
 * precedence call > bound > default.  out has j->nparams entries; string
 * values point into the caller's or the jit's storage. */
iron_status iron__jit_resolve_params(const iron_jit *j, int nparams,
                                     const iron_param *params,
                                     iron__pval *out);
/* Checks one given value against the declarations (name, type). */
iron_status iron__jit_check_param(const iron_jit *j, const iron_param *p,
                                  int *index);

/* launch.c: the device, columns and timing a call with this
 * configuration runs with (the configuration's size, thread count and
 * clock checked too). */
iron_status iron__jit_target(const iron_jit *j,
                             const iron_launch_config *config,
                             jit_target *t);
/* launch.c: checks a call's tensors against the declared arguments (count,
 * device, dtypes and shapes, type and size variables). */
iron_status iron__jit_check_args(const iron_jit *j, const iron_device *dev,
                                 int nargs, iron_tensor *const *args,
                                 const iron__pval *params);

/* check.c: runs a call's pipeline up to placement -- design, verify,
 * place, no compiler -- and hands the placed program (and the
 * signature) to fn while they live; returns fn's status, or the
 * pipeline's failure with the stage named. */
typedef iron_status (*iron__jit_placed_fn)(const iron_program *p,
                                           const char *signature, void *ctx);
iron_status iron__jit_place_only(iron_jit *j,
                                 const iron_launch_config *config,
                                 int nparams, const iron_param *params,
                                 int nargs, iron_tensor *const *args,
                                 iron__jit_placed_fn fn, void *ctx);

/* spec.c */
/* The front of every build: runs the design function for the signature
 * sig / params (counted in design_runs), verifies and places it.  *out is
 * the placed program, or NULL on failure with *stage naming where it
 * failed ("design", "verify", "place"); ms[0..2] get the three stages'
 * times.  Under build_lock (params may point into bound values). */
iron_status iron__jit_place_design(iron_jit *j, const jit_target *t,
                                   const iron__argsig *sig,
                                   const iron__pval *params,
                                   iron_program **out, const char **stage,
                                   double *ms);
/* reason: why it is built, for the log ("first call", "new value for
 * parameter 'op'", ...). */
iron_status iron__jit_build(iron_jit *j, const jit_target *t,
                            iron_tensor *const *args, const iron__pval *params,
                            uint64_t digest, const char *reason,
                            jit_spec **out);
/* Why a call with this signature needs a build, given the jit's other
 * specializations: the first difference from the closest one. */
void iron__jit_build_reason(const iron_jit *j, const jit_target *t,
                            iron_tensor *const *args,
                            const iron__pval *params, char *buf, size_t len);
/* Unloads and frees a specialization; its kernel objects go back to the
 * kernel store (iron__kstore_release).  Under build_lock, or when the jit
 * is freed. */
void iron__jit_spec_free(jit_spec *s);
/* "vadd (a: int32[4096], b: int32[4096]; tile=16, op='-'; npu2, 1 column)" */
void iron__jit_describe(const iron_jit *j, const jit_target *t,
                        iron_tensor *const *args, const iron__pval *params,
                        iron__str *s);

#endif
