/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * verify.h - the structural rules a design must follow before it is placed
 * (src/place): every endpoint has one user, the sequence awaits a drain,
 * started workers are consistent.  Returns a status with a message naming
 * the FIFO, worker or op.
 */
#ifndef IRON_VERIFY_VERIFY_H
#define IRON_VERIFY_VERIFY_H

#include "design/design.h"

iron_status iron__verify(const iron_design *d);

#endif
