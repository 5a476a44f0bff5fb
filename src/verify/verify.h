/*
 * verify.h - the passes between building a design and compiling it:
 *
 *   verify   structural rules: every endpoint has one user, the sequence
 *            awaits a drain, started workers are consistent
 *   place    workers onto compute tiles, FIFO endpoints into buffer pools,
 *            DMA movers onto shim channels, addresses in tile memory; then
 *            checks every tile's memory, locks, BDs and DMA channels
 *
 * Each pass returns a status with a message naming the FIFO, worker or tile.
 */
#ifndef IRON_VERIFY_VERIFY_H
#define IRON_VERIFY_VERIFY_H

#include "program/program.h"

iron_status iron__verify(const iron_design *d);
iron_status iron__place(iron_program *p);

/* After the kernels are compiled: counts their static data in their
 * workers' tiles and checks every tile again. */
iron_status iron__place_kernel_data(iron_program *p);

#endif
