/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * place.h - placement (the pass between verify and kernel compilation): it
 * reads the design and fills the program's tables -- plain copies of the
 * workers, FIFOs, runtime sequence, arguments, run-time parameters and
 * barriers (tables.c), then the placement itself (place.c): workers onto
 * compute tiles, links onto memtiles, FIFO endpoints into buffer pools, DMA
 * movers onto shim channels, addresses in tile memory, and a check of every
 * tile's memory, locks, BDs and DMA channels against the device model.
 * Nothing is written back into the design.
 *
 * Each pass returns a status with a message naming the FIFO, worker or
 * tile.  pipeline.c runs the whole front of a build -- the design
 * function, verify, then these passes -- for every caller.
 */
#ifndef IRON_PLACE_PLACE_H
#define IRON_PLACE_PLACE_H

#include "design/design.h"
#include "program/program.h"

/* --- the front of a build (pipeline.c) ------------------------------------ */

/* What a design is made from: iron__design_new's arguments (borrowed for
 * the call) and the design function with its user pointer. */
typedef struct iron__place_request {
    const char *name;                   /* the jit's (or module's) name */
    int nargs;
    const iron__argsig *args;
    int nparams;
    const iron__pval *params;
    int cols;                           /* columns granted */
    const iron_device_info *dev;
    const char *cflags;                 /* the jit's, or NULL */
    int nscalars;
    const char *const *scalar_names;
    iron_design_fn fn;
    void *user;
} iron__place_request;

/* How far it got: the stage reached ("design", "verify", "place"; on
 * failure the one that failed), the three stages' times in ms, and
 * whether the design function was called (the jit counts its runs). */
typedef struct iron__place_outcome {
    const char *stage;
    double ms[3];
    int design_ran;
} iron__place_outcome;

/* design -> verify -> place: runs rq->fn on a fresh design, verifies the
 * design and places it on rq->dev.  *out is the placed program (the
 * caller frees it), or NULL on failure with everything made freed and
 * the message of the stage that failed (no stage prefix: callers add
 * their own context). */
iron_status iron__place_design(const iron__place_request *rq,
                               iron_program **out, iron__place_outcome *how);

/* --- the passes --------------------------------------------------------- */

/* Copies the design's contents into p's tables (tables.c).  IRON_ENOMEM;
 * the partial tables are freed with the program. */
iron_status iron__place_tables(iron_program *p);

/* Builds the tables and places the design; p->d is only read. */
iron_status iron__place(iron_program *p);

/* After the kernels are compiled: counts their static data in their
 * workers' tiles and checks every tile again. */
iron_status iron__place_kernel_data(iron_program *p);

/* Program p's endpoint for handle h of its design. */
static inline iron__prog_end *iron__place_end(const iron_program *p,
                                              const iron_handle *h)
{
    return iron__program_end(p, h->fifo->index,
                             h->is_prod ? -1 : h->cons_index);
}

#endif
