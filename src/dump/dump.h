/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * dump.h - the design as people and tools read it, with what placement
 * made of it: the text form (text.c, also iron_design_dump), JSON
 * (json.c), the FIFO graph in Graphviz dot (dot.c) and a picture of the
 * array's tiles (grid.c).
 *
 * The dumps read both the design and the program that placed it, so they
 * sit above both: the design module knows nothing of programs, and the
 * program module holds its design only as an opaque pointer.
 */
#ifndef IRON_DUMP_DUMP_H
#define IRON_DUMP_DUMP_H

#include "design/design.h"
#include "program/program.h"

/* Appends a readable dump of the design to s, with the placement of
 * program p (whose design d is), or only what the design itself pins when
 * p is NULL.  The kernel store's keys are made of this text, so it names
 * everything that changes the compiled result. */
void iron__dump_text(const iron_design *d, const iron_program *p,
                     iron__str *s);

/* The placed design (p built from d, placed) in other forms, headed by
 * the specialization's signature.  IRON_ENOMEM only. */
iron_status iron__dump_json(const iron_design *d, const iron_program *p,
                            const char *signature, iron__str *s);
iron_status iron__dump_dot(const iron_design *d, const iron_program *p,
                           const char *signature, iron__str *s);
iron_status iron__dump_grid(const iron_design *d, const iron_program *p,
                            const char *signature, iron__str *s);

#endif
