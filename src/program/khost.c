/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * khost.c - the host's half of the kernel runtime shim (compile/rt.h):
 * what a kernel's printf, exit, failed assert or signal() turns into, and
 * where the AIE API finds its core's control words and reports faults,
 * and where a timed kernel's operation counts go.
 *
 * While a driver runs a kernel on this thread, the driver's hooks
 * (iron__kernel_host, installed by the driver) take it: the emulator turns
 * output into the worker's tagged lines and the rest into a kernel fault.
 * A kernel object can also be called outside any driver (its entry called
 * directly on a host thread): there the output goes straight to the fd,
 * and stop, assert_fail and signal return, so that the shim goes on to
 * call libc's own function -- the kernel gets exactly what it asked for,
 * and the library itself never ends the process or touches a signal
 * handler.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "compile/rt.h"
#include "program/program.h"

/* The driver's hooks, or NULL. */
static _Atomic(const iron__kernel_host *) hooks;

/* The table kernel objects are bound to: `base` (below), or a copy of it
 * whose aie_ctl and count are a driver's own functions, so that the AIE
 * API's most frequent call and a timed kernel's counter (called once per
 * basic block) cost one indirect call each.  The copies are written once,
 * before they are published, and never changed: an object bound to one
 * keeps a valid table whatever is installed later (a driver's aie_ctl
 * answers for any thread, running one of its kernels or not, and its
 * count drops what a thread running none counts). */
#define MAX_TABLES 4
static const iron__rt_api base;
static iron__rt_api tables[MAX_TABLES];
static int ntables;
static pthread_mutex_t tables_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(const iron__rt_api *) table = &base;

void iron__program_kernel_host(const iron__kernel_host *h)
{
    const iron__rt_api *t = &base;
    /* The driver's own functions, where it has them: */
    void (*count)(int, unsigned long long) =
        h && h->count ? h->count : base.count;
    pthread_mutex_lock(&tables_mu);
    for (int i = 0; h && h->aie_ctl && i < ntables && t == &base;
         i++)
        if (tables[i].aie_ctl == h->aie_ctl && tables[i].count == count)
            t = &tables[i];
    if (h && h->aie_ctl && t == &base && ntables < MAX_TABLES) {
        tables[ntables] = base;
        tables[ntables].aie_ctl = h->aie_ctl;
        tables[ntables].count = count;
        t = &tables[ntables++];
    }
    pthread_mutex_unlock(&tables_mu);
    atomic_store(&hooks, h);
    atomic_store(&table, t);
}

const iron__rt_api *iron__rt_table(void)
{
    return atomic_load(&table);
}

/* The AIE API's control words of a thread that runs no driver's worker
 * (a kernel called directly, or a driver with no words of its own). */
static _Thread_local unsigned thread_ctl[4];

unsigned *iron__program_aie_ctl_thread(void)
{
    return thread_ctl;
}

/* Ends the running kernel's call with a formatted message; returns when no
 * driver runs a kernel on this thread. */
static void stop_with(const char *fmt, ...) IRON__PRINTF(1, 2);
static void stop_with(const char *fmt, ...)
{
    const iron__kernel_host *h = atomic_load(&hooks);
    if (!h || !h->stop)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    h->stop(msg);
}

/* Outside the emulator.  What the host program printed through stdio
 * first comes first. */
static void write_fd(int fd, const char *buf, size_t n)
{
    fflush(fd == 2 ? stderr : stdout);
    while (n > 0) {
        ssize_t w = write(fd, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        buf += w;
        n -= (size_t)w;
    }
}

/* A successful printf leaves errno alone; so does this. */
static void host_write(int fd, const char *buf, size_t n)
{
    int saved = errno;
    const iron__kernel_host *h = atomic_load(&hooks);
    if (!h || !h->write || !h->write(fd, buf, n))
        write_fd(fd, buf, n);
    errno = saved;
}

static void host_stop(const char *what)
{
    stop_with("the kernel called %s", what);
}

static void host_assert_fail(const char *expr, const char *file,
                             unsigned line, const char *func)
{
    stop_with("assertion '%s' failed at %s:%u in %s()", expr ? expr : "?",
              file ? file : "?", line, func ? func : "?");
}

/* "SIGINT", "SIGRTMIN+3".  strsignal is not thread-safe, and lanes run
 * on several threads. */
static const char *signal_name(int sig, char *buf, size_t len)
{
#if defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
    const char *abbrev = sigabbrev_np(sig);
    if (abbrev) {
        snprintf(buf, len, "SIG%s", abbrev);
        return buf;
    }
#else
    static const struct {
        int sig;
        const char *name;
    } names[] = {
        { SIGHUP, "SIGHUP" },   { SIGINT, "SIGINT" },
        { SIGQUIT, "SIGQUIT" }, { SIGILL, "SIGILL" },
        { SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
        { SIGBUS, "SIGBUS" },   { SIGFPE, "SIGFPE" },
        { SIGKILL, "SIGKILL" }, { SIGUSR1, "SIGUSR1" },
        { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
        { SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" },
        { SIGTERM, "SIGTERM" }, { SIGCHLD, "SIGCHLD" },
        { SIGCONT, "SIGCONT" }, { SIGSTOP, "SIGSTOP" },
        { SIGTSTP, "SIGTSTP" }, { SIGTTIN, "SIGTTIN" },
        { SIGTTOU, "SIGTTOU" }, { SIGURG, "SIGURG" },
        { SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
        { SIGVTALRM, "SIGVTALRM" }, { SIGPROF, "SIGPROF" },
        { SIGWINCH, "SIGWINCH" }, { SIGSYS, "SIGSYS" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
#endif
    if (sig >= SIGRTMIN && sig <= SIGRTMAX)
        snprintf(buf, len, "SIGRTMIN+%d", sig - SIGRTMIN);
    else
        snprintf(buf, len, "an unknown signal");
    return buf;
}

static void host_signal(int sig)
{
    char name[32];
    stop_with("the kernel tried to install a handler for signal %d (%s); "
              "kernels may not change signal handlers",
              sig, signal_name(sig, name, sizeof name));
}

/* The base table's: through the hooks (a table with a driver's own
 * function skips this). */
static unsigned *host_aie_ctl(void)
{
    const iron__kernel_host *h = atomic_load(&hooks);
    return h && h->aie_ctl ? h->aie_ctl() : thread_ctl;
}

static void host_aie_fault(const char *what, const char *file,
                           unsigned line)
{
    stop_with("%s at %s:%u", what ? what : "?", file ? file : "?", line);
}

/* A timed kernel's counts go to the driver, or nowhere. */
static void host_count(int kind, unsigned long long n)
{
    const iron__kernel_host *h = atomic_load(&hooks);
    if (h && h->count)
        h->count(kind, n);
}

static void host_count_region(int begin, int pipelined)
{
    const iron__kernel_host *h = atomic_load(&hooks);
    if (h && h->count_region)
        h->count_region(begin, pipelined);
}

static void host_count_call(int end, int arg, int n, const long long *vals)
{
    const iron__kernel_host *h = atomic_load(&hooks);
    if (h && h->count_call)
        h->count_call(end, arg, n, vals);
}

static const iron__rt_api base = {
    .write = host_write,
    .stop = host_stop,
    .assert_fail = host_assert_fail,
    .signal = host_signal,
    .aie_ctl = host_aie_ctl,
    .aie_fault = host_aie_fault,
    .count = host_count,
    .count_region = host_count_region,
    .count_call = host_count_call,
};
