/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * export.h - the MLIR-AIE exporter: a placed program written as the
 * objectfifo-level MLIR that upstream IRON emits for the same design
 * (what its Program.resolve_program() prints), in the syntax of one
 * upstream version (a target, mlir/version.h), and the files that go with
 * it for upstream's toolchain.
 *
 *   export.c        the module as an MLIR tree (mlir/build.h): device,
 *                   tiles, fifos and links, kernel declarations, buffers,
 *                   locks and cores, in upstream's order (export_plan.c
 *                   decides names and order first), printed by the one
 *                   printer in either form (mlir/print.c) after
 *                   iron__mlir_lower made it the target's spelling
 *   export_seq.c    the runtime sequence: task-based DMA with task
 *                   groups (every target reads it)
 *   export_body.c   a core body as the ops of its aie.core's region, and
 *                   iron_body_dump
 *   export_names.c  symbols and SSA names
 *   export_files.c  kernels/NAME.c, Makefile, README.md, host.cpp
 *
 * Everything here reads the program (and the design it owns, on which a
 * standard-loop worker's body is built: iron__body_for_standard_worker)
 * and writes text; nothing is written to disk (src/jit/export.c does).
 */
#ifndef IRON_MLIR_EXPORT_H
#define IRON_MLIR_EXPORT_H

#include "core/core.h"
#include "iron/iron.h"
#include "mlir/build.h"
#include "mlir/version.h"
#include "program/program.h"

/* Appends the placed program p as MLIR text as upstream version t
 * (iron__mlir_target_find) reads it: the pretty form upstream prints, or
 * every op in the generic form.
 * IRON_ENOTSUP naming the worker, op or object that has no MLIR-AIE
 * form (a worker whose core body is C source only, a dispatch-time
 * scalar, ...); IRON_ENOMEM. */
iron_status iron__mlir_export_text(const iron_program *p,
                                   const iron__mlir_target *t, int generic,
                                   iron__str *out);

/* One file of an export: path relative to the export folder
 * ("kernels/eltwise.c"), its contents. */
typedef struct iron__mlir_file {
    char *path;
    char *text;
} iron__mlir_file;

typedef struct iron__mlir_bundle {
    int n, cap;
    iron__mlir_file *files;
} iron__mlir_bundle;

/* Everything iron_jit_export_mlir writes, in memory: aie.mlir (pretty,
 * or generic when generic is set), kernels/ENTRY.c for each kernel a
 * core calls (its defines as #define lines in front), include/iron/
 * iron_kernel.h when a kernel includes it, Makefile, README.md and
 * host.cpp.  signature names the specialization in the files' headers.
 * Errors as iron__mlir_export_text; on failure *out is empty. */
iron_status iron__mlir_export_bundle(const iron_program *p,
                                     const char *signature,
                                     const iron__mlir_target *t,
                                     int generic, iron__mlir_bundle *out);
void iron__mlir_bundle_free(iron__mlir_bundle *b);

/* --- shared by the export*.c files -------------------------------------- */

/* name made a valid MLIR bare identifier ([A-Za-z_][A-Za-z0-9_$.]*):
 * other characters become '_', a leading digit gets '_' in front.
 * iron__malloc'd, NULL when out of memory. */
char *iron__mlx_ident(const char *name);

/* A set of names already taken (symbols of the device, or SSA names), so
 * that every new one is unique: "x", then "x_1", "x_2"... */
typedef struct iron__mlx_names {
    int n, cap;
    char **v;
    int oom;
} iron__mlx_names;
/* Takes a unique name based on base (made an identifier); the result is
 * owned by the set (NULL when out of memory). */
const char *iron__mlx_take(iron__mlx_names *set, const char *base);
/* Reserves a name exactly (a kernel's C entry); 0 when it was already
 * taken or memory ran out. */
int iron__mlx_reserve(iron__mlx_names *set, const char *name);
/* Keeps a string the caller allocated (owned by the set from now on;
 * NULL in, or out of memory: NULL, and the set remembers it ran out) --
 * the set doubles as a pool of strings freed together.  keepf formats
 * one. */
const char *iron__mlx_keep(iron__mlx_names *set, char *owned);
const char *iron__mlx_keepf(iron__mlx_names *set, const char *fmt, ...)
    IRON__PRINTF(2, 3);
void iron__mlx_names_free(iron__mlx_names *set);

/* What a worker's core is, once planned: its body (described, or the
 * one its standard loop amounts to), how the body's parameters are
 * named, and the object its kernels link with. */
typedef struct iron__mlx_worker {
    int w;                    /* index in p->workers / d->workers */
    struct iron_body *body;
    const char **pnames;      /* per body parameter (iron__body_names) */
    char prefix[32];          /* "%w0_": the body's SSA names */
    const char *tile;         /* the tile's SSA name, "%tile_0_2" */
    const char *core;         /* "%core_0_2" */
    int nkernels;             /* distinct kernels its body calls */
    int *kernels;             /* their indices (d->kernels) */
    const char *link_obj;     /* a target without link_with on
                                 func.func: the object the core links
                                 with ("eltwise.o"), or NULL */
} iron__mlx_worker;

/* A worker's copy of a buffer (aie.buffer) or a barrier (aie.lock). */
typedef struct iron__mlx_copy {
    int obj;                  /* rtp or barrier index */
    int worker;               /* index into plan->workers */
    const char *sym;          /* buffer: its symbol (no '@'); lock: NULL */
    const char *ssa;          /* "%rtp0", "%lock_0_2" */
} iron__mlx_copy;

/* A kernel as exported: its MLIR symbol (its C entry, or a renamed one
 * when two different kernels share an entry) and its call types. */
typedef struct iron__mlx_kernel {
    int used;                 /* a core calls it */
    int same_as;              /* index of the identical kernel exported
                                 in its place, or its own index */
    const char *sym;          /* function symbol, no '@' */
    int renamed;              /* sym differs from the C entry */
    int ntypes;
    char **types;             /* "memref<16xi32>", "i32" per parameter */
    const struct iron_body *caller;   /* a body calling it */
} iron__mlx_kernel;

typedef struct iron__mlx_tile {
    iron__tile t;
    const char *ssa;
} iron__mlx_tile;

/* A fifo or (fifo NULL) a link, in the order the module declares them. */
typedef struct iron__mlx_emit {
    const struct iron_fifo *fifo;
    const struct iron__link *link;
} iron__mlx_emit;

/* The whole plan: names and order, decided before anything is built. */
typedef struct iron__mlx_plan {
    const iron_program *p;
    iron_design *d;
    const iron__mlir_target *target;
    iron__mlx_names syms;     /* the device's symbols */
    iron__mlx_names ssa;      /* SSA names at the device's level */
    iron__mlx_names pool;     /* every other string of the plan */
    const char **fifo_sym;    /* per fifo */
    struct iron_fifo **fifo_order;   /* by name, the used ones first */
    int nemit;
    iron__mlx_emit *emit;     /* fifos and links as upstream resolves
                                 them: each fifo in fifo_order, then the
                                 links at its ends (their other fifos
                                 first) */
    unsigned char *done;      /* while making emit: fifos, links seen */
    iron__mlx_kernel *kernels;
    int nworkers;
    iron__mlx_worker *workers;   /* in start order */
    int ntiles, cap_tiles;
    iron__mlx_tile *tiles;       /* in upstream's order */
    int nbufs, cap_bufs;
    iron__mlx_copy *bufs;        /* rtp copies, in emission order */
    int nlocks, cap_locks;
    iron__mlx_copy *locks;       /* barrier copies */
} iron__mlx_plan;

/* export_plan.c: decides every name and the order.  IRON_ENOTSUP naming
 * what cannot be exported; IRON_ENOMEM.  Free with iron__mlx_plan_free
 * (also after a failure). */
iron_status iron__mlx_plan_make(iron__mlx_plan *plan, const iron_program *p,
                                const iron__mlir_target *t);
void iron__mlx_plan_free(iron__mlx_plan *plan);
/* The SSA name of the tile at t (planned), or NULL. */
const char *iron__mlx_tile_ssa(const iron__mlx_plan *plan, iron__tile t);
/* The tile a fifo endpoint sits on: its worker's, its link's, or the
 * shim of the runtime's column. */
iron__tile iron__mlx_end_tile(const iron__mlx_plan *plan,
                              const struct iron_handle *h);

/* export.c: the module of a plan as a tree in the newest spelling (*out:
 * the caller's to free with iron__mlir_module_free; NULL on failure), and
 * that module lowered to the plan's target and appended as text (generic:
 * every op in the generic form).  Errors as iron__mlir_export_text. */
iron_status iron__mlx_module(const iron__mlx_plan *plan,
                             iron__mlir_module **out);
iron_status iron__mlx_print_module(const iron__mlx_plan *plan, int generic,
                                   iron__str *out);

/* export_seq.c: builds the runtime sequence at the end of the device's
 * block (aie.runtime_sequence; lowering renames it for older targets).
 * Failures are b's. */
void iron__mlx_sequence(const iron__mlx_plan *plan, iron__mlir_b *b,
                               iron__mlir_op *device);

/* --- export_body.c ------------------------------------------------------- */

/* How the exporter names a body's parameters in MLIR: per parameter, the
 * fifo's symbol (without '@'), the SSA name of the worker's aie.buffer
 * or aie.lock (with '%'), or the kernel's function symbol (without '@').
 * SSA values the body makes are named with `prefix` ("%c2_" gives
 * "%c2_0", "%c2_1", ...), so bodies of one module never collide. */
typedef struct iron__body_names {
    const char *const *param;
    const char *prefix;
} iron__body_names;

/* Builds body b's ops at the end of op at's last block (NULL: the
 * module's), named by names (NULL: placeholders, as iron_body_dump
 * prints them).  A buffer or lock a name gives is the module's value of
 * that name, or a new value defined nowhere.  Failures are b's. */
void iron__mlx_body(iron__mlir_b *b, iron__mlir_op *at,
                    const struct iron_body *body,
                    const iron__body_names *names);
/* Appends the body's ops as MLIR (pretty form, as upstream prints a core
 * region's contents, without aie.end), each line indented by `indent`
 * spaces: what iron_body_dump returns (names NULL), or with the
 * exporter's names.  IRON_ENOMEM only. */
iron_status iron__mlx_body_text(const struct iron_body *b,
                                const iron__body_names *names, int indent,
                                iron__str *s);
/* memref<16x4xi32> (unsigned dtypes: ui8 ..., as upstream spells numpy's
 * dtypes). */
iron__mlir_type *iron__mlx_memref(iron__mlir_b *b, iron_dtype dt,
                                  const iron_shape *shape);
/* The type body calls kernel k's parameter i with (it must call k). */
iron__mlir_type *iron__mlx_call_type(iron__mlir_b *b,
                                     const struct iron_body *body,
                                     const iron_kernel *k, int i);
/* The module's value named `name` ("%tile_0_2"), or a new value of type
 * t defined nowhere (printed by its name). */
int iron__mlx_named(iron__mlir_b *b, const char *name, iron__mlir_type *t);

#endif
