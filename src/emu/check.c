/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * check.c - checked mode (IRON_CHECK=1, or iron_launch_config.check): the
 * emulator as a sanitizer for the FIFO discipline and the core's stack.
 *
 * - Buffers live in pages of their own that kernels can touch only while
 *   a worker holds them (tilemem.c maps them; here they are opened at
 *   acquire and closed at release), so any access outside the acquired
 *   window, after release or past an object faults where it happens and
 *   is reported like any kernel fault.
 * - Every worker, standard loop included, runs on a fiber whose stack is
 *   filled with poison; after each kernel call (core body: each time it
 *   yields) the deepest byte written is compared with the worker's stack
 *   size (iron_worker_set_stack; 1 KiB by default, as on hardware).  An
 *   overflow is an error naming the worker, the bytes used and the size.
 * - Warnings (the design may mean it, so they do not fail the call): an
 *   object a kernel released without writing a byte of it (its buffer is
 *   poisoned when the producer acquires it), and a core body that returns
 *   while holding objects (on hardware they are never released).
 */
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "emu/emu.h"

/* Room below the worker's declared stack, so an overflow is measured
 * rather than crashing first; a frame larger than this hits the guard. */
#define CHECK_STACK_ROOM ((size_t)16 * 1024)

/* Under a sanitizer the libc functions a kernel calls (memcpy, say) are
 * the sanitizer's instrumented interceptors, with much bigger frames. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CHECK_SANITIZER_FRAMES ((size_t)4096)
#else
#define CHECK_SANITIZER_FRAMES ((size_t)0)
#endif

/* What the emulator's own frames add to a core body's stack while it is
 * inside iron_acquire/iron_release (the fiber switch and the scheduler
 * calls); not counted against the worker. */
#define CHECK_API_FRAMES ((size_t)512)

enum { WARN_UNWRITTEN = 1, WARN_HELD_AT_RETURN = 2 };

/* The worker's stack: its own size, or the device's default. */
static size_t declared_stack(const emu_worker *ew, const emu_inst *in)
{
    return ew->w->stack_bytes ? ew->w->stack_bytes
                              : in->prog->dev.compute.stack_bytes;
}

size_t iron__emu_check_stack_bytes(const emu_worker *ew, const emu_inst *in)
{
    return declared_stack(ew, in) + CHECK_STACK_ROOM;
}

/* The top of a new fiber's stack holds the context make_fcontext set up
 * for its first switch: left as it is. */
#define CHECK_CONTEXT_BYTES 256

void iron__emu_check_prepare(emu_worker *ew)
{
    size_t n = iron__fiber_stack_size(ew->fiber);
    char *top = iron__fiber_stack_top(ew->fiber);
    iron__emu_mem_poison(top - n, n - CHECK_CONTEXT_BYTES);
    ew->kstack_top = top;
}

void iron__emu_check_take(emu_worker *ew, emu_hstate *h, int from, int to)
{
    (void)ew;
    emu_pool *p = h->pool;
    for (int k = from; k < to; k++) {
        int b = iron__pool_index(p, h->writer, h->slot, k);
        if (p->kholders[b]++ == 0)
            iron__emu_mem_protect(p, b, 1);
        /* A fresh object: whatever the buffer held last is gone. */
        if (h->writer)
            iron__emu_mem_poison(p->buf[b], p->def->obj_bytes);
    }
}

void iron__emu_check_release(emu_worker *ew, emu_hstate *h, int n)
{
    emu_pool *p = h->pool;
    for (int k = 0; k < n; k++) {
        int b = iron__pool_index(p, h->writer, h->slot, k);
        /* Said after the run (iron__emu_check_report): formatting a
         * warning here would count against the kernel's stack. */
        if (h->writer && !(ew->warned & WARN_UNWRITTEN) &&
            iron__emu_mem_is_poison(p->buf[b], p->def->obj_bytes)) {
            ew->warned |= WARN_UNWRITTEN;
            ew->unwritten_handle = (int)(h - ew->h);
            ew->unwritten_object = b;
            ew->unwritten_iteration = ew->iterations;
        }
        if (p->kholders[b] > 0 && --p->kholders[b] == 0)
            iron__emu_mem_protect(p, b, 0);
    }
}

/* The deepest byte of the fiber's stack that is no longer poison. */
static size_t stack_used(const emu_worker *ew)
{
    size_t n = iron__fiber_stack_size(ew->fiber);
    const char *top = iron__fiber_stack_top(ew->fiber);
    const char *lo = top - n;
    const char *at = lo + iron__emu_mem_poison_run(lo, n);
    return at < ew->kstack_top ? (size_t)(ew->kstack_top - at) : 0;
}

/* Below the caller's frame pointer: its locals, and this function's own
 * frame, which must not be overwritten. */
#define CHECK_REPOISON_GAP 512

void iron__emu_check_repoison(emu_worker *ew, char *frame)
{
    size_t n = iron__fiber_stack_size(ew->fiber);
    char *lo = (char *)iron__fiber_stack_top(ew->fiber) - n;
    if (frame - CHECK_REPOISON_GAP <= lo)
        return;
    size_t clean = iron__emu_mem_poison_run(lo, n);
    size_t upto = (size_t)(frame - CHECK_REPOISON_GAP - lo);
    /* Only what was written since; 8-byte steps keep the pattern's
     * phase (it repeats every 8 bytes from lo). */
    clean &= ~(size_t)7;
    if (clean < upto)
        iron__emu_mem_poison_at(lo, clean, upto - clean);
}

void iron__emu_check_measure(emu_worker *ew)
{
    ew->kstack_used = stack_used(ew);
}

int iron__emu_check_stack(emu_worker *ew)
{
    size_t used = ew->kstack_used;
    size_t stack = declared_stack(ew, ew->task.lane->in);
    size_t allowed = stack + CHECK_SANITIZER_FRAMES +
                     (ew->is_core ? CHECK_API_FRAMES : 0);
    if (used <= allowed)
        return 1;
    char tn[48];
    iron__tile_name(ew->w->tile, tn, sizeof tn);
    iron__emu_task_fail(&ew->task, IRON_EKERNEL,
                        "%s '%s' of worker '%s' on %s overflowed its stack: "
                        "it used %zu bytes, and the worker's stack is %zu "
                        "bytes (iron_worker_set_stack; checked mode counts "
                        "what the kernel calls too, printf included)",
                        ew->is_core ? "core body" : "kernel",
                        ew->w->kernel_entry, ew->w->name, tn, used, stack);
    return 0;
}

void iron__emu_check_report(emu_inst *in)
{
    for (int i = 0; i < in->nworkers; i++) {
        emu_worker *ew = &in->workers[i];
        if (!(ew->warned & WARN_UNWRITTEN) || ew->unwritten_handle < 0)
            continue;
        iron__warn("checked mode: worker '%s' on tile (%d,%d) released "
                   "object %d of %s without writing it (iteration %llu; "
                   "said once per worker)",
                   ew->w->name, ew->w->tile.col, ew->w->tile.row,
                   ew->unwritten_object, ew->h[ew->unwritten_handle].label,
                   (unsigned long long)ew->unwritten_iteration);
        ew->unwritten_handle = -1;
    }
}

void iron__emu_check_returned(emu_worker *ew)
{
    for (int a = 0; a < ew->nargs; a++) {
        emu_hstate *h = &ew->h[a];
        int held = h->pool ? iron__pool_held(h->pool, h->writer, h->slot) : 0;
        if (held == 0 || (ew->warned & WARN_HELD_AT_RETURN))
            continue;
        ew->warned |= WARN_HELD_AT_RETURN;
        iron__warn("checked mode: the core body of worker '%s' on tile "
                   "(%d,%d) returned holding %d object%s of %s; on hardware "
                   "they are never released",
                   ew->w->name, ew->w->tile.col, ew->w->tile.row, held,
                   held == 1 ? "" : "s", h->label);
    }
}
