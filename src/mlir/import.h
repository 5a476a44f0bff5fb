/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * import.h - the MLIR-AIE importer's inside: what import.c learns from a
 * parsed module (the device, tiles, object fifos, links, cores, buffers,
 * locks, external functions), what import_seq.c makes of its runtime
 * sequence (the arguments and their roles, the fills, drains and task
 * groups), and the design function's state while it rebuilds the module
 * with the builder API (import_build.c, import_body.c for core bodies).
 *
 * The analysis runs once, in iron_mlir_design, and reports what it can
 * without a device; the design function runs per specialization and
 * reports the rest (placement on the call's device, body types) as the
 * design's sticky error.  Every message begins "FILE:LINE:COL: OP: ".
 */
#ifndef IRON_MLIR_IMPORT_H
#define IRON_MLIR_IMPORT_H

#include "core/npu.h"
#include "design/design.h"
#include "mlir/ast.h"

#define IRON__IMP_MAX_DIMS IRON_TAP_MAX_DIMS

/* A DMA layout: (size, stride) pairs, outermost first. */
typedef struct iron__imp_dims {
    int ndim;                 /* 0: none */
    int64_t sizes[IRON__IMP_MAX_DIMS];
    int64_t strides[IRON__IMP_MAX_DIMS];
} iron__imp_dims;

/* aie.objectfifo */
typedef struct iron__imp_fifo {
    const iron__mlir_op *op;
    const char *name;         /* the symbol, borrowed from the module */
    const iron__mlir_type *elem;  /* its memref type */
    iron_dtype dtype;
    iron_shape shape;
    int depth;                /* the number, or the producer's */
    int per_end;              /* depths given per endpoint (an array) */
    int depths[1 + IRON__MAX_CONS];   /* producer's, then consumers' */
    iron__tile prod;
    int ncons;
    iron__tile cons[IRON__MAX_CONS];
    iron__imp_dims to_stream;
    iron__imp_dims from_stream[IRON__MAX_CONS];
    int made_by;              /* the link that creates it (a forward's or
                                 split's output, a join's input), or -1 */
    int link_in;              /* the link that consumes it (forward or
                                 split input), or -1 */
    int link_out;             /* the join that produces it, or -1 */
} iron__imp_fifo;

typedef enum iron__imp_link_kind {
    IRON__IMP_FORWARD,
    IRON__IMP_SPLIT,
    IRON__IMP_JOIN
} iron__imp_link_kind;

/* aie.objectfifo.link */
typedef struct iron__imp_link {
    const iron__mlir_op *op;
    iron__imp_link_kind kind;
    int nin, nout;
    int in[IRON__MAX_CONS], out[IRON__MAX_CONS];    /* fifo indexes */
    int64_t offsets[IRON__MAX_CONS];  /* per piece (split / join) */
    iron__tile tile;
} iron__imp_link;

/* aie.core */
typedef struct iron__imp_core {
    const iron__mlir_op *op;
    iron__tile tile;
    uint32_t stack;           /* stack_size, 0: the default */
    char name[32];            /* "core_0_2": the worker and its body */
} iron__imp_core;

/* aie.buffer: a run-time parameter buffer when a core uses it */
typedef struct iron__imp_buf {
    const iron__mlir_op *op;
    int value;                /* its result */
    char *name;               /* sym_name, else from the SSA name */
    const char *sym;          /* sym_name or NULL */
    iron__tile tile;
    const iron__mlir_type *type;
    iron_dtype dtype;
    int64_t count;
    void *initial;            /* count elements, or NULL */
} iron__imp_buf;

/* aie.lock: a barrier when a core uses it */
typedef struct iron__imp_lock {
    const iron__mlir_op *op;
    int value;
    char *name;
    iron__tile tile;
    int init;
} iron__imp_lock;

/* func.func private: an external kernel */
typedef struct iron__imp_func {
    const iron__mlir_op *op;
    const char *name;
    const iron__mlir_type *type;  /* FUNCTION */
    char *arg_types;          /* "int32*, int32*, int32" */
    const char *source;       /* from the kernel table, or NULL */
    iron_kernel_lang lang;    /* ... and its language */
} iron__imp_func;

/* A sequence argument. */
typedef struct iron__imp_arg {
    char *name;
    iron_dtype dtype;
    iron_shape shape;
    int reads, writes;        /* filled from / drained into */
} iron__imp_arg;

typedef enum iron__imp_item_kind {
    IRON__IMP_FILL,
    IRON__IMP_DRAIN,
    IRON__IMP_FINISH,         /* a task group's finish point */
    IRON__IMP_SET_RTP,
    IRON__IMP_SET_LOCK
} iron__imp_item_kind;

/* One step of the rebuilt runtime sequence. */
typedef struct iron__imp_item {
    iron__imp_item_kind kind;
    const iron__mlir_op *op;  /* for messages */
    int fifo;                 /* FILL, DRAIN */
    int end;                  /* FILL: -1 (producer); DRAIN: consumer */
    int arg;
    iron_tap tap;
    int group;                /* FILL, DRAIN, FINISH: 1.., 0 none */
    int wait;                 /* DRAIN */
    int buf;                  /* SET_RTP */
    int lock;                 /* SET_LOCK */
    int64_t index;            /* SET_RTP */
    double value;             /* SET_RTP, SET_LOCK */
} iron__imp_item;

typedef struct iron__imp_kernel {
    char *name, *source;
    iron_kernel_lang lang;
} iron__imp_kernel;

struct iron_mlir {
    iron__mlir_module *mod;
    char *file;
    char *want_device;        /* the device asked for by symbol name, or
                                 NULL (iron_mlir_import_options) */
    const iron__mlir_op *device;  /* the one selected */
    char device_name[16];     /* ours: "npu1_1col" */
    char family[8];           /* "npu1", "npu2" */
    int columns;              /* the module's device's */
    int compute_rows;
    char *jit_name;
    int nkernels;
    iron__imp_kernel *kernels;
    /* per value id: the tile an aie.tile made (-1 otherwise), the buffer
     * or lock it is (-1 otherwise) */
    int *tile_col, *tile_row, *buf_of, *lock_of;
    int nfifos, nlinks, ncores, nbufs, nlocks, nfuncs;
    iron__imp_fifo *fifos;
    iron__imp_link *links;
    iron__imp_core *cores;
    iron__imp_buf *bufs;
    iron__imp_lock *locks;
    iron__imp_func *funcs;
    const iron__mlir_op *seq; /* the runtime sequence */
    int nargs;
    iron__imp_arg *args;
    char *args_decl;          /* "in arg0: int32[64], out arg1: ..." */
    int nitems, ngroups;
    iron__imp_item *items;
};

/* ---- import.c ----------------------------------------------------------- */

/* "FILE:LINE:COL: OP: message" (op NULL: "FILE: message") as this
 * thread's error; returns s. */
iron_status iron__imp_fail(const iron_mlir *m, iron_status s,
                           const iron__mlir_op *op, const char *fmt, ...)
    IRON__PRINTF(4, 5);
/* The same text, formatted into s (for the design's sticky error). */
void iron__imp_vtext(const iron_mlir *m, const iron__mlir_op *op,
                     iron__str *s, const char *fmt, va_list ap);

/* Reads the module: selects its device (the only one, or the one named
 * m->want_device), checks every op of it against the imported subset,
 * reads the func.func declarations beside it and everything in it but
 * the runtime sequence (import_seq.c) and the core bodies (read when the
 * design function builds them).  Other devices are not looked at. */
iron_status iron__imp_analyze(iron_mlir *m);

/* Index of the fifo / func / buffer symbol `name`, or -1. */
int iron__imp_fifo_at(const iron_mlir *m, const char *name);
int iron__imp_func_at(const iron_mlir *m, const char *name);
int iron__imp_buf_at(const iron_mlir *m, const char *sym);

/* MLIR types as ours: an element type as a dtype, a memref as dtype and
 * shape (static, rank 1..IRON_MAX_DIMS).  0 on success, -1 when it has
 * no counterpart. */
int iron__imp_dtype(const iron__mlir_type *t, iron_dtype *out);
int iron__imp_memref(const iron__mlir_type *t, iron_dtype *dt,
                     iron_shape *shape);
/* Which of bf16, f32 and f64 the float type t is: 0, 1 or 2; -1 for
 * the others (f16 ...), which neither tensors nor bodies hold. */
int iron__imp_float_index(const iron__mlir_type *t);
/* 1 when the two types print the same. */
int iron__imp_same_type(const iron__mlir_type *a, const iron__mlir_type *b);
/* The type of value id v (NULL if none). */
const iron__mlir_type *iron__imp_type_of(const iron_mlir *m, int v);
/* An integer attribute (INT or BOOL) of op, or dflt when absent; -1 in
 * *ok when present but not an integer. */
int64_t iron__imp_int_attr(const iron__mlir_op *op, const char *name,
                           int64_t dflt, int *ok);
/* A keyword attribute's word, or the name `names[i]` of an integer one
 * (enums print as integers in the generic form); NULL if neither. */
const char *iron__imp_enum_attr(const iron__mlir_op *op, const char *name,
                                const char *const *names, int nnames);

/* ---- import_subset.c ---------------------------------------------------- */

/* The ops the importer reads, and where (for the docs' test). */
typedef struct iron__imp_read_op {
    const char *name;
    const char *where;        /* "device", "core, sequence", ... */
} iron__imp_read_op;
extern const iron__imp_read_op iron__imp_read_ops[];
extern const int iron__imp_nread_ops;

/* Ops upstream writes that the importer does not read, with the reason
 * (a name ending in '.' stands for its dialect). */
typedef struct iron__imp_outside_op {
    const char *name;
    const char *reason;
} iron__imp_outside_op;
extern const iron__imp_outside_op iron__imp_outside_ops[];
extern const int iron__imp_noutside_ops;

/* 1 when the importer reads op `name` (somewhere). */
int iron__imp_reads_op(const char *name);
/* The reason op `name` is outside the subset, or NULL when the table has
 * none. */
const char *iron__imp_outside_reason(const char *name);
/* IRON_ENOTSUP "FILE:LINE:COL: OP: outside the imported subset (REASON;
 * ...)" for op, whichever form it was written in. */
iron_status iron__imp_outside(const iron_mlir *m, const iron__mlir_op *op);
/* iron__imp_outside for the first op at or under op (depth first) that is
 * opaque or that the importer does not read; IRON_OK when none is. */
iron_status iron__imp_check_subset(const iron_mlir *m,
                                   const iron__mlir_op *op);

/* ---- import_seq.c ------------------------------------------------------- */

/* Reads the runtime sequence: its arguments (m->args, m->args_decl) and
 * steps (m->items). */
iron_status iron__imp_sequence(iron_mlir *m);

/* ---- the design function's state (import_build.c, import_body.c) -------- */

typedef struct iron__imp_ctx {
    const iron_mlir *m;
    iron_design *d;
    iron_fifo **fifo;                     /* per fifo */
    iron_handle **prod;                   /* per fifo */
    iron_handle *(*cons)[IRON__MAX_CONS]; /* per fifo, per consumer */
    unsigned char *prod_used;             /* by a body or the runtime */
    unsigned char (*cons_used)[IRON__MAX_CONS];
    iron_kernel **kernel;                 /* per func, made on first call */
    iron_rtp **rtp;                       /* per buffer, on first use */
    int *rtp_core;                        /* the core using it */
    iron_barrier **barrier;               /* per lock, on first use */
    int *barrier_core;
    iron_task_group **group;              /* per group (1..) */
    int located;                          /* the error names its op */
    /* the body being built */
    iron_body *b;
    int core;
    iron_val *vmap;                       /* per value id */
    int *vtag;                            /* the core vmap[i] is for, + 1 */
    int *vaux;                            /* acquisitions: their size */
} iron__imp_ctx;

/* Records "FILE:LINE:COL: OP: message" as the design's error; returns
 * the design's status. */
iron_status iron__imp_dfail(iron__imp_ctx *c, iron_status s,
                            const iron__mlir_op *op, const char *fmt, ...)
    IRON__PRINTF(4, 5);
/* After a builder call for op: if the design has just failed, puts
 * "FILE:LINE:COL: OP: " before its message (once).  1 when failed. */
int iron__imp_check(iron__imp_ctx *c, const iron__mlir_op *op);

/* 1 when arith op `what` ("addi", without "arith.") is one a core body
 * reads (import_body.c). */
int iron__imp_arith_reads(const char *what);

/* Builds core `core`'s body and its worker (import_body.c). */
iron_status iron__imp_build_core(iron__imp_ctx *c, int core);

/* Records the runtime sequence's steps (import_seq.c). */
iron_status iron__imp_build_sequence(iron__imp_ctx *c);

/* The design function's work (import_build.c). */
iron_status iron__imp_build(const iron_mlir *m, iron_design *d);

#endif
