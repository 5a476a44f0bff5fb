/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * body.h - the core-body IR inside the library: what iron_body_* builds
 * (body.c and its siblings), its translation to C for the emulator
 * (to_c.c), and the body a standard-loop worker amounts to.  Its MLIR
 * form (the exporter's and iron_body_dump's) is built by
 * src/mlir/export_body.c, which reads body/ir.h.
 */
#ifndef IRON_BODY_BODY_H
#define IRON_BODY_BODY_H

#include "core/core.h"
#include "iron/iron.h"

/* What a body names: its parameters, in the order they were first named
 * (iron_body_fifo, _rtp, _barrier, _kernel).  They become the core
 * body's arguments in that order. */
typedef enum iron__body_pkind {
    IRON__BP_FIFO,
    IRON__BP_RTP,
    IRON__BP_BARRIER,
    IRON__BP_KERNEL
} iron__body_pkind;

typedef struct iron__body_param {
    iron__body_pkind kind;
    iron_handle *h;           /* FIFO */
    iron_rtp *rtp;            /* RTP */
    iron_barrier *barrier;    /* BARRIER */
    iron_kernel *kernel;      /* KERNEL */
    int max_acquire;          /* FIFO: the largest acquire on it */
} iron__body_param;

int iron__body_nparams(const iron_body *b);
const iron__body_param *iron__body_param_at(const iron_body *b, int i);
const char *iron__body_name(const iron_body *b);

/* The memref type a kernel's parameter i is called with in body b
 * ("memref<16xi32>") or, for scalars, its MLIR type ("i32"); NULL when b
 * never calls that kernel.  For the exporter's func.func declarations. */
const char *iron__body_call_type(const iron_body *b, const iron_kernel *k,
                                 int i, iron__str *scratch);

/* The body a standard-loop worker amounts to (upstream's Worker with
 * while_true: a for to INT64_MAX acquiring one object of each handle
 * argument, calling the kernel, releasing them), built on d but not
 * given to any worker.  For the exporter. */
iron_status iron__body_for_standard_worker(iron_design *d,
                                           const iron_worker *w,
                                           iron_body **out);

/* A memref element type as upstream spells numpy's dtypes (its
 * np_dtype_to_mlir_type): i8, ui8, i32, bf16 ...  The one spelling the
 * body's MLIR and the exporter's declarations share. */
const char *iron__body_dtype_text(iron_dtype dt);

/* Frees a body (iron__design_free frees the design's bodies through
 * d->body_free, which iron__body_create sets to this). */
void iron__body_free(iron_body *b);

#endif
