/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * fiber.h - user-space execution contexts for custom core bodies, so that
 * a core body that blocks in iron_acquire suspends its tile's task rather
 * than an OS thread.  Built on Boost.Context's fcontext (a switch is a few
 * nanoseconds); stacks are mmap'd with a guard page.
 */
#ifndef IRON_EMU_FIBER_H
#define IRON_EMU_FIBER_H

#include <stddef.h>

#include "iron/iron.h"

typedef struct iron__fiber iron__fiber;
typedef void (*iron__fiber_fn)(void *arg);

/* A fiber that will run fn(arg) on its own stack of at least stack_bytes
 * (rounded up to pages, plus a guard page) when first resumed.  Nothing
 * runs yet.  IRON_ENOMEM naming the size. */
iron_status iron__fiber_new(iron__fiber **out, size_t stack_bytes,
                            iron__fiber_fn fn, void *arg);

/* Runs the fiber until it yields or fn returns; returns 1 once fn has
 * returned (resuming a finished fiber does nothing and returns 1).  May be
 * called from different threads over the fiber's life, never from two at
 * once, and never from inside a fiber. */
int iron__fiber_resume(iron__fiber *f);

/* From inside the running fiber: switches back to the resume() that
 * entered it.  resume() returns 0; the next resume() continues here. */
void iron__fiber_yield(iron__fiber *f);

/* The fiber running on this thread, or NULL outside fibers. */
iron__fiber *iron__fiber_current(void);

/* Just before a siglongjmp out of the running fiber f to a point its
 * resumer set (a kernel's exit, abort or failed assert; trap.c), outside
 * a signal handler: ThreadSanitizer keeps the jump points a thread sets
 * with that thread's context, so it must see the thread back in the
 * resumer's context, or it aborts the process ("can't find longjmp
 * buf").  A no-op in other builds; iron__fiber_abandon follows the jump. */
void iron__fiber_jumping_out(iron__fiber *f);

/* After a jump out of the running fiber (a trapped fault, trap.c): this
 * thread is no longer in it, and it never runs again (resume returns 1).
 * Its stack stays mapped until iron__fiber_free. */
void iron__fiber_abandon(iron__fiber *f);

/* Whether addr is in the guard page below f's stack (an overflow). */
int iron__fiber_in_guard(const iron__fiber *f, const void *addr);

/* Usable bytes of f's stack. */
size_t iron__fiber_stack_size(const iron__fiber *f);

/* The top (highest address, exclusive) of f's stack. */
void *iron__fiber_stack_top(const iron__fiber *f);

/* Frees the stack.  A fiber suspended mid-function is simply discarded
 * (C has no destructors to run).  Accepts NULL. */
void iron__fiber_free(iron__fiber *f);

#endif
