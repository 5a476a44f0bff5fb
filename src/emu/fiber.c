/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * fiber.c - stackful coroutines for custom core bodies (emulator layer),
 * on Boost.Context's fcontext switch and mmap'd stacks with a guard page.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/core.h"
#include "emu/fiber.h"

/*
 * Sanitizers must be told about every stack switch, or they mistake the
 * fiber's frames for a wild stack and report nonsense.  gcc says so with
 * __SANITIZE_*__, clang with __has_feature (nested: gcc 12 has no
 * __has_feature and would choke on it inside one #if).
 */
#if defined(__SANITIZE_ADDRESS__)
#define FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FIBER_ASAN 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define FIBER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FIBER_TSAN 1
#endif
#endif

#ifdef FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef FIBER_TSAN
#include <sanitizer/tsan_interface.h>
#endif

/*
 * Boost.Context's C ABI (extern "C" in boost/context/detail/fcontext.hpp,
 * exported by libboost_context).  jump_fcontext saves the current
 * registers, switches to `to` and passes it `vp`; whoever later jumps back
 * receives, in the returned transfer_t, the context to resume that side
 * with.  make_fcontext prepares a context that, when first jumped to, calls
 * fn on the stack whose top is sp; fn must never return.
 */
typedef void *fcontext_t;
typedef struct {
    fcontext_t fctx;
    void *data;
} transfer_t;

transfer_t jump_fcontext(fcontext_t const to, void *vp);
fcontext_t make_fcontext(void *sp, size_t size, void (*fn)(transfer_t));

/* Smaller requests are raised to this: make_fcontext's own frame plus a
 * few calls must fit, and sanitizer builds have fatter frames. */
#define FIBER_MIN_STACK ((size_t)16 * 1024)

struct iron__fiber {
    fcontext_t ctx;      /* the fiber's own context while suspended */
    fcontext_t ret;      /* the resume() caller's context while running */
    iron__fiber_fn fn;
    void *arg;
    void *map;           /* mmap'd region: guard page, then the stack */
    size_t map_size;
    void *stack_lo;      /* lowest usable byte (just above the guard) */
    size_t stack_size;   /* usable bytes */
    int running, finished;
#ifdef FIBER_ASAN
    void *fake_stack;           /* the fiber's ASan fake stack, suspended */
    const void *caller_bottom;  /* the resumer's stack, for yield */
    size_t caller_size;
#endif
#ifdef FIBER_TSAN
    void *tsan_fiber;    /* the fiber's own TSan context */
    void *tsan_caller;   /* the resumer's TSan context, for yield */
#endif
};

/*
 * The fiber running on this thread.  Written only by resume(), which runs
 * on an ordinary thread stack and returns on the thread it was called on,
 * so its own TLS accesses are sound.  Code *inside* a fiber must not hold
 * the address of a thread-local across a yield: the next resume may come
 * from another thread.  That is why the trampoline and yield below never
 * touch it after switching, and why iron__fiber_current is an out-of-line
 * call that recomputes the address each time.
 */
static _Thread_local iron__fiber *current_fiber;

/* ---- sanitizer hooks: no-ops in ordinary builds ------------------------ */

/* Called by the fiber side right after it gains control: completes ASan's
 * switch and learns which stack (which thread) resumed it. */
static void fiber_arrived(iron__fiber *f)
{
#ifdef FIBER_ASAN
    __sanitizer_finish_switch_fiber(f->fake_stack, &f->caller_bottom,
                                    &f->caller_size);
#else
    (void)f;
#endif
}

/* Called by the fiber side just before jumping back to its resumer.
 * `for_good` when the fiber has finished: ASan then drops its fake stack. */
static void fiber_leaving(iron__fiber *f, int for_good)
{
#ifdef FIBER_ASAN
    __sanitizer_start_switch_fiber(for_good ? NULL : &f->fake_stack,
                                   f->caller_bottom, f->caller_size);
#else
    (void)for_good;
#endif
#ifdef FIBER_TSAN
    __tsan_switch_to_fiber(f->tsan_caller, 0);
#else
    (void)f;
#endif
}

/* ---- the fiber side ---------------------------------------------------- */

/*
 * First code to run on a new fiber's stack.  t.fctx is the resumer's
 * context and t.data the fiber.  After fn returns it jumps back for good:
 * returning from here would fall off make_fcontext's frame and end the
 * thread.  Nothing here reads thread-locals, since fn may yield and the
 * fiber may come back on another thread.
 */
static void fiber_trampoline(transfer_t t)
{
    iron__fiber *f = t.data;
    f->ret = t.fctx;
    fiber_arrived(f);
    f->fn(f->arg);
    f->finished = 1;
    fiber_leaving(f, 1);
    jump_fcontext(f->ret, NULL);
    /* Unreachable: nothing resumes a finished fiber's context. */
    for (;;)
        ;
}

void iron__fiber_yield(iron__fiber *f)
{
    if (!f) {
        iron__fail(IRON_EINVAL, "iron__fiber_yield: fiber is NULL");
        return;
    }
    /* Read the thread-local before switching only (see current_fiber). */
    if (current_fiber != f) {
        iron__fail(IRON_ESTATE, "iron__fiber_yield: %s",
                   current_fiber ? "called from a different fiber than "
                                   "the one given"
                                 : "called outside any fiber");
        return;
    }
    fiber_leaving(f, 0);
    transfer_t t = jump_fcontext(f->ret, NULL);
    /* Resumed, possibly by another thread: remember who to yield to. */
    f->ret = t.fctx;
    fiber_arrived(f);
}

/* ---- the resumer side -------------------------------------------------- */

/*
 * Switches into f until it yields or finishes.  Runs on a thread's own
 * stack; nesting (resume from inside a fiber) is refused, because yield
 * always returns to the outermost resumer's bookkeeping and the thread-local
 * would be restored wrongly.  The caller guarantees no other thread
 * resumes f at the same time.
 */
int iron__fiber_resume(iron__fiber *f)
{
    if (!f) {
        iron__fail(IRON_EINVAL, "iron__fiber_resume: fiber is NULL");
        return 1;
    }
    if (f->finished)
        return 1;
    if (current_fiber) {
        iron__fail(IRON_ESTATE, "iron__fiber_resume: called from inside a "
                   "fiber (fibers do not nest)");
        return 1;
    }
    if (f->running) {
        iron__fail(IRON_ESTATE, "iron__fiber_resume: the fiber is already "
                   "running (resumed from two threads at once?)");
        return 1;
    }

    f->running = 1;
    current_fiber = f;
#ifdef FIBER_TSAN
    f->tsan_caller = __tsan_get_current_fiber();
#endif
#ifdef FIBER_ASAN
    void *caller_fake_stack = NULL;
    __sanitizer_start_switch_fiber(&caller_fake_stack, f->stack_lo,
                                   f->stack_size);
#endif
#ifdef FIBER_TSAN
    __tsan_switch_to_fiber(f->tsan_fiber, 0);
#endif
    transfer_t t = jump_fcontext(f->ctx, f);
#ifdef FIBER_ASAN
    __sanitizer_finish_switch_fiber(caller_fake_stack, NULL, NULL);
#endif
    f->ctx = t.fctx;
    current_fiber = NULL;
    f->running = 0;
    return f->finished;
}

iron__fiber *iron__fiber_current(void)
{
    return current_fiber;
}

void iron__fiber_jumping_out(iron__fiber *f)
{
#ifdef FIBER_TSAN
    __tsan_switch_to_fiber(f->tsan_caller, 0);
#else
    (void)f;
#endif
}

void iron__fiber_abandon(iron__fiber *f)
{
    if (current_fiber == f)
        current_fiber = NULL;
    f->running = 0;
    f->finished = 1;
#ifdef FIBER_ASAN
    /* The jump left ASan believing this thread still runs on the
     * fiber's stack: a switch back to the resumer's stack, for good,
     * sets it right. */
    __sanitizer_start_switch_fiber(NULL, f->caller_bottom, f->caller_size);
    __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
#ifdef FIBER_TSAN
    /* Unless iron__fiber_jumping_out did it before the jump. */
    if (__tsan_get_current_fiber() != f->tsan_caller)
        __tsan_switch_to_fiber(f->tsan_caller, 0);
#endif
}

int iron__fiber_in_guard(const iron__fiber *f, const void *addr)
{
    const char *a = addr, *lo = f->map;
    return a >= lo && a < (const char *)f->stack_lo;
}

size_t iron__fiber_stack_size(const iron__fiber *f)
{
    return f->stack_size;
}

void *iron__fiber_stack_top(const iron__fiber *f)
{
    return (char *)f->stack_lo + f->stack_size;
}

/* ---- creation and destruction ------------------------------------------ */

/*
 * Maps [guard page | stack] with the guard at the low end, where a
 * downward-growing stack overflows into it.  MAP_NORESERVE: untouched stack
 * pages cost nothing, so generous sizes are cheap.
 */
iron_status iron__fiber_new(iron__fiber **out, size_t stack_bytes,
                            iron__fiber_fn fn, void *arg)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "iron__fiber_new: out is NULL");
    *out = NULL;
    if (!fn)
        return iron__fail(IRON_EINVAL, "iron__fiber_new: fn is NULL");
    if (stack_bytes == 0)
        return iron__fail(IRON_EINVAL,
                          "iron__fiber_new: stack size is 0 bytes");

    long ps = sysconf(_SC_PAGESIZE);
    size_t page = ps > 0 ? (size_t)ps : 4096;
    size_t want = IRON__MAX(stack_bytes, FIBER_MIN_STACK);
    if (want > SIZE_MAX - 2 * page)
        return iron__fail(IRON_ENOMEM,
                          "fiber stack of %zu bytes: size overflows",
                          stack_bytes);
    size_t stack_size = (want + page - 1) / page * page;
    size_t map_size = stack_size + page;

    iron__fiber *f = iron__calloc(1, sizeof *f);
    if (!f)
        return iron__fail(IRON_ENOMEM, "fiber: cannot allocate %zu bytes",
                          sizeof *f);

    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
#ifdef MAP_STACK
    flags |= MAP_STACK;
#endif
    void *map = mmap(NULL, map_size, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (map == MAP_FAILED) {
        int e = errno;
        iron__free(f);
        return iron__fail(IRON_ENOMEM,
                          "fiber stack of %zu bytes (%zu mapped): mmap: %s",
                          stack_bytes, map_size, strerror(e));
    }
    if (mprotect(map, page, PROT_NONE) != 0) {
        int e = errno;
        munmap(map, map_size);
        iron__free(f);
        return iron__fail(IRON_ENOMEM,
                          "fiber stack of %zu bytes: guard page: mprotect: "
                          "%s",
                          stack_bytes, strerror(e));
    }

    f->fn = fn;
    f->arg = arg;
    f->map = map;
    f->map_size = map_size;
    f->stack_lo = (char *)map + page;
    f->stack_size = stack_size;
    f->ctx = make_fcontext((char *)f->stack_lo + stack_size, stack_size,
                           fiber_trampoline);
#ifdef FIBER_TSAN
    f->tsan_fiber = __tsan_create_fiber(0);
#endif
    *out = f;
    return IRON_OK;
}

/*
 * Unmaps the stack.  A suspended fiber's frames are dropped unrun.  Freeing
 * the running fiber (from inside itself) is refused and leaks instead of
 * pulling the stack from under the caller.
 */
void iron__fiber_free(iron__fiber *f)
{
    if (!f)
        return;
    if (f->running || current_fiber == f) {
        iron__fail(IRON_ESTATE,
                   "iron__fiber_free: the fiber is running; not freed");
        return;
    }
#ifdef FIBER_TSAN
    __tsan_destroy_fiber(f->tsan_fiber);
#endif
#ifdef FIBER_ASAN
    /* A suspended fiber leaves its frames' redzones poisoned; the next
     * mapping at this address must not inherit them. */
    __asan_unpoison_memory_region(f->stack_lo, f->stack_size);
#endif
    munmap(f->map, f->map_size);
    iron__free(f);
}
