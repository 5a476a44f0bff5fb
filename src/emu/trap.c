/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * trap.c - containing what a kernel does wrong.  While a lane runs, its
 * thread holds a trap: a jump point in iron__emu_run_lane.  A kernel or
 * core body that faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT,
 * a stack overflow), calls exit/abort/assert through the runtime shim, or
 * is interrupted by the watchdog for overrunning the call's timeout, jumps
 * back there; the lane ends with a message naming the kernel, worker, tile
 * and iteration, and the instance is reset before its next call.
 *
 * Limits (docs/emulator.md): a kernel that corrupts memory outside tile
 * memory before faulting is not undone; a fault inside a libc function
 * that holds a lock (malloc, stdio) may leave that lock held; signal
 * handlers installed after the first emulator run replace ours unless
 * they chain to the previous handler.
 */
/* Plain siglongjmp: the fortified one refuses to jump from a fiber's
 * stack to the thread's, which is exactly what a trap does. */
#undef _FORTIFY_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "emu/fiber.h"
#include "emu/trap.h"

/* Signals a kernel can raise synchronously, plus the watchdog's. */
static const int trapped[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP,
                               SIGABRT };
#define NTRAPPED ((int)(sizeof trapped / sizeof trapped[0]))

static struct sigaction previous[NTRAPPED + 1];
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int install_failed;

/* The trap of the lane this thread runs (NULL between runs).  Written
 * only by this thread; read by its own signal handler. */
static _Thread_local emu_trap *current_trap;

/* Each thread that runs lanes gets an alternate signal stack, so a stack
 * overflow can still be handled.  Ours only when the thread had none. */
#define ALTSTACK_BYTES ((size_t)64 * 1024)
static _Thread_local int altstack_ready;
static pthread_key_t altstack_key;
static pthread_once_t altstack_key_once = PTHREAD_ONCE_INIT;

int iron__emu_watch_signal(void)
{
    return SIGRTMIN + 4;
}

static int slot_of(int sig)
{
    for (int i = 0; i < NTRAPPED; i++)
        if (trapped[i] == sig)
            return i;
    return sig == iron__emu_watch_signal() ? NTRAPPED : -1;
}

/* Not ours to handle: pass it to whoever had the signal before us, or do
 * what the default would have done. */
static void chain(int sig, siginfo_t *si, void *uc)
{
    int i = slot_of(sig);
    struct sigaction *old = i >= 0 ? &previous[i] : NULL;
    if (old && (old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
        old->sa_sigaction(sig, si, uc);
        return;
    }
    if (old && old->sa_handler == SIG_IGN)
        return;
    if (old && old->sa_handler != SIG_DFL) {
        old->sa_handler(sig);
        return;
    }
    /* Default action: restore it; a fault re-executes the instruction and
     * dies with the right signal, anything else is raised again. */
    signal(sig, SIG_DFL);
    if (si->si_code <= 0 || sig == SIGABRT)
        raise(sig);
}

static void *context_pc(void *ucv, void **sp, int *is_write)
{
    ucontext_t *uc = ucv;
    *is_write = -1;
#if defined(__x86_64__)
    *sp = (void *)uc->uc_mcontext.gregs[REG_RSP];
    /* Page-fault error code: bit 1 set for a write. */
    *is_write = (int)((uc->uc_mcontext.gregs[REG_ERR] >> 1) & 1);
    return (void *)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    *sp = (void *)uc->uc_mcontext.sp;
    return (void *)uc->uc_mcontext.pc;
#else
    (void)uc;
    *sp = NULL;
    return NULL;
#endif
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
    emu_trap *t = current_trap;
    int ours_watch = sig == iron__emu_watch_signal() &&
                     si->si_code == SI_QUEUE &&
                     si->si_value.sival_int == IRON__EMU_WATCH_MAGIC;
    if (sig == iron__emu_watch_signal() && !ours_watch) {
        chain(sig, si, uc);
        return;
    }
    if (!t || !t->armed) {
        if (!ours_watch)  /* a late watchdog poke is simply dropped */
            chain(sig, si, uc);
        return;
    }
    if (ours_watch && t->lane->no_jump)
        return;  /* in the emulator's own allocation: poked again later */
    t->armed = 0;
    t->kind = ours_watch ? IRON__TRAP_TIMEOUT : IRON__TRAP_SIGNAL;
    t->sig = sig;
    t->code = si->si_code;
    t->addr = si->si_addr;
    t->pc = context_pc(uc, &t->sp, &t->is_write);
    siglongjmp(t->jb, 1);
}

static void install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    /* SA_NODEFER: the jump out skips sigreturn, so the signal must not
     * stay blocked; SA_ONSTACK: a stack overflow leaves no stack. */
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i <= NTRAPPED; i++) {
        int sig = i < NTRAPPED ? trapped[i] : iron__emu_watch_signal();
        if (sigaction(sig, &sa, &previous[i]) != 0)
            install_failed = 1;
    }
}

static void altstack_free(void *p)
{
    stack_t off = { .ss_flags = SS_DISABLE };
    sigaltstack(&off, NULL);
    munmap(p, ALTSTACK_BYTES);
}

static void altstack_key_make(void)
{
    pthread_key_create(&altstack_key, altstack_free);
}

static void altstack_ensure(void)
{
    if (altstack_ready)
        return;
    altstack_ready = 1;
    stack_t cur;
    if (sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE))
        return;  /* the thread has one; handlers run there */
    void *m = mmap(NULL, ALTSTACK_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return;
    stack_t ss = { .ss_sp = m, .ss_size = ALTSTACK_BYTES, .ss_flags = 0 };
    if (sigaltstack(&ss, NULL) != 0) {
        munmap(m, ALTSTACK_BYTES);
        return;
    }
    pthread_once(&altstack_key_once, altstack_key_make);
    pthread_setspecific(altstack_key, m);
}

void iron__emu_trap_arm(emu_trap *t, emu_lane *l)
{
    pthread_once(&install_once, install);
    altstack_ensure();
    t->lane = l;
    t->kind = IRON__TRAP_NONE;
    t->stop[0] = '\0';
    t->prev = current_trap;
    current_trap = t;
    t->armed = 1;
}

void iron__emu_trap_disarm(emu_trap *t)
{
    t->armed = 0;
    current_trap = t->prev;
}

emu_worker *iron__emu_current_worker(void)
{
    emu_trap *t = current_trap;
    if (!t || !t->armed || !t->lane->cur || !t->lane->cur->is_worker)
        return NULL;
    return (emu_worker *)t->lane->cur;
}

void iron__emu_kernel_stop(const char *fmt, ...)
{
    emu_trap *t = current_trap;
    if (!t || !t->armed)
        return;  /* not in a kernel: the shim falls back to libc */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->stop, sizeof t->stop, fmt, ap);
    va_end(ap);
    t->armed = 0;
    t->kind = IRON__TRAP_STOP;
    iron__fiber *f = iron__fiber_current();
    if (f)
        iron__fiber_jumping_out(f);
    siglongjmp(t->jb, 1);
}

/* The kernel runtime shim's hooks (program/khost.c): what a kernel running
 * on a lane prints becomes its worker's lines; exit, abort, a failed
 * assert and an AIE API fault end its call; the AIE API's control words
 * are the running worker's. */
static int host_write(int fd, const char *buf, size_t n)
{
    emu_worker *ew = iron__emu_current_worker();
    if (!ew)
        return 0;
    iron__emu_output_write(ew, fd, buf, n);
    return 1;
}

static int host_stop(const char *msg)
{
    if (!iron__emu_current_worker())
        return 0;
    iron__emu_kernel_stop("%s", msg);
    return 1;
}

/* Found as output and faults find their worker: the lane thread's armed
 * trap knows which task (fiber) runs. */
static unsigned *host_aie_ctl(void)
{
    emu_worker *ew = iron__emu_current_worker();
    return ew ? ew->aie_ctl : iron__program_aie_ctl_thread();
}

/* A timed build's counts (src/timing/kernel.h) go to the accumulator of
 * the timed worker running on this thread (iron__emu_timed_worker);
 * otherwise nowhere. */
static void host_count(int kind, unsigned long long n)
{
    emu_worker *ew = iron__emu_timed_worker;
    if (!ew)
        return;
    /* Once per basic block of scalar code: the common case inline. */
    if (kind == IRON_COUNT_BLOCK)
        ew->kc.blocks += n;
    else
        iron__kcount_add(&ew->kc, kind, n);
}

static void host_count_region(int begin, int pipelined)
{
    emu_worker *ew = iron__emu_timed_worker;
    if (ew)
        iron__kcount_region(&ew->kc, begin, pipelined);
}

static void host_count_call(int end, int arg, int n, const long long *vals)
{
    emu_worker *ew = iron__emu_timed_worker;
    if (ew)
        iron__emu_time_core_call(ew, end, arg, n, vals);
}

const iron__kernel_host iron__emu_kernel_host = {
    .write = host_write,
    .stop = host_stop,
    .aie_ctl = host_aie_ctl,
    .count = host_count,
    .count_region = host_count_region,
    .count_call = host_count_call,
};

/* --- the message ------------------------------------------------------- */

static const char *signal_text(int sig, int code)
{
    switch (sig) {
    case SIGSEGV:
        return code == SEGV_ACCERR ? "SIGSEGV (access to protected memory)"
                                   : "SIGSEGV (access to unmapped memory)";
    case SIGBUS: return "SIGBUS (bus error: misaligned or truncated memory)";
    case SIGFPE:
        return code == FPE_INTDIV   ? "SIGFPE (integer division by zero)"
               : code == FPE_INTOVF ? "SIGFPE (integer overflow)"
                                    : "SIGFPE (arithmetic exception)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGTRAP: return "SIGTRAP (trap instruction)";
    case SIGABRT: return "SIGABRT (abort)";
    default: return "a signal";
    }
}

/* "kernel 'vadd' of worker 'w0' on compute tile (0,2) at iteration 3" */
static void who(const emu_worker *ew, iron__str *s)
{
    char tn[48];
    iron__tile_name(ew->w->tile, tn, sizeof tn);
    iron__str_printf(s, "%s '%s' of worker '%s' on %s",
                     ew->is_core ? "core body" : "kernel",
                     ew->w->kernel_entry, ew->w->name, tn);
    if (ew->is_core)
        iron__str_printf(s, " after %llu acquire%s",
                         (unsigned long long)ew->iterations,
                         ew->iterations == 1 ? "" : "s");
    else
        iron__str_printf(s, " at iteration %llu",
                         (unsigned long long)ew->iterations);
}

/* A stack overflow shows as a fault just below the stack pointer, or in
 * the guard below a core body's fiber stack. */
static int is_stack_overflow(const emu_trap *t, const emu_worker *ew)
{
    uintptr_t a = (uintptr_t)t->addr, sp = (uintptr_t)t->sp;
    if (t->sig != SIGSEGV && t->sig != SIGBUS)
        return 0;
    if (ew && ew->fiber && iron__fiber_in_guard(ew->fiber, t->addr))
        return 1;
    /* Within a frame's reach of the stack pointer: a push or call below
     * it, or a local just above it. */
    return sp && a <= sp + 4096 && a + (uintptr_t)64 * 1024 >= sp;
}

static void describe_fault(const emu_trap *t, const emu_worker *ew,
                           iron__str *s)
{
    const emu_inst *in = t->lane->in;
    iron__str_printf(s, ": %s", signal_text(t->sig, t->code));
    if (is_stack_overflow(t, ew)) {
        size_t size = ew && ew->fiber ? iron__fiber_stack_size(ew->fiber) : 0;
        if (size)
            iron__str_printf(s, ": stack overflow (its stack is %zu bytes)",
                             size);
        else
            iron__str_append(s, ": stack overflow (the thread's stack)");
    } else if (t->sig == SIGSEGV && t->code == SI_KERNEL) {
        /* A general-protection fault: the hardware gives no address. */
        iron__str_append(s, " at a non-canonical address (not a valid "
                         "pointer; the hardware does not say which)");
    } else if (t->sig == SIGSEGV || t->sig == SIGBUS) {
        char where[320];
        iron__emu_describe_addr(in, ew, t->addr, where, sizeof where);
        iron__str_printf(s, " %s %s",
                         t->is_write == 1   ? "writing"
                         : t->is_write == 0 ? "reading"
                                            : "at",
                         where);
    }
    char line[256];
    if (t->pc) {
        iron__program_srcline(t->pc, line, sizeof line);
        if (line[0])
            iron__str_printf(s, "; in %s", line);
    }
}

void iron__emu_trap_caught(emu_trap *t)
{
    emu_lane *l = t->lane;
    emu_inst *in = l->in;
    /* A core body left mid-function: its fiber is abandoned, as is its
     * stack (freed at the reset). */
    iron__fiber *f = iron__fiber_current();
    if (f)
        iron__fiber_abandon(f);
    emu_worker *ew = l->cur && l->cur->is_worker ? (emu_worker *)l->cur
                                                 : NULL;
    iron__str s = { 0 };
    if (ew)
        who(ew, &s);
    else if (l->cur)
        iron__str_printf(&s, "the emulator, moving data for DMA %s",
                         ((emu_mover *)l->cur)->m->label);
    else
        iron__str_append(&s, "the emulator's scheduler");
    switch (t->kind) {
    case IRON__TRAP_STOP:
        iron__str_printf(&s, ": %s", t->stop);
        l->status = IRON_EKERNEL;
        break;
    case IRON__TRAP_TIMEOUT: {
        iron__str s2 = { 0 };
        iron__str_printf(&s2, "the run did not finish within %d ms: ",
                         in->timeout_ms);
        iron__str_append(&s2, iron__str_get(&s));
        iron__str_printf(&s2, " has been running for %.0f ms without "
                         "returning",
                         (double)iron__emu_watch_stuck_ns(l->watch) / 1e6);
        iron__str_free(&s);
        s = s2;
        l->status = IRON_ETIMEOUT;
        break;
    }
    default:
        describe_fault(t, ew, &s);
        l->status = ew ? IRON_EKERNEL : IRON_ERUNTIME;
        break;
    }
    snprintf(l->error, sizeof l->error, "%s", iron__str_get(&s));
    iron__str_free(&s);
    l->state = t->kind == IRON__TRAP_TIMEOUT ? IRON_RUN_TIMEOUT
                                             : IRON_RUN_ERROR;
}
