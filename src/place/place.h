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
 * tile.
 */
#ifndef IRON_PLACE_PLACE_H
#define IRON_PLACE_PLACE_H

#include "design/design.h"
#include "program/program.h"

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
