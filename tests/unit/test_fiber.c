/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_fiber.c - the emulator's stackful coroutines (src/emu/fiber.c):
 * switching, finishing, stacks and guard pages, thread migration, misuse.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "emu/fiber.h"
#include "test.h"

#define KIB ((size_t)1024)

/* ---- ping-pong ---------------------------------------------------------- */

struct pingpong {
    iron__fiber *f;
    long in, out;
    int rounds;
};

/* Answers every value the scheduler puts in `in` with 2*in+1; the running
 * sum lives on the fiber's stack and must survive every switch. */
static void pingpong_body(void *arg)
{
    struct pingpong *p = arg;
    long sum = 0;
    for (int i = 0; i < p->rounds; i++) {
        sum += p->in;
        p->out = 2 * p->in + 1;
        iron__fiber_yield(p->f);
    }
    p->out = sum;
}

TEST(fiber_ping_pong)
{
    struct pingpong p = { NULL, 0, 0, 10000 };
    ASSERT_OK(iron__fiber_new(&p.f, 64 * KIB, pingpong_body, &p));
    long want_sum = 0;
    for (int i = 0; i < p.rounds; i++) {
        p.in = i * 7 - 3;
        want_sum += p.in;
        ASSERT_EQ(iron__fiber_resume(p.f), 0);
        ASSERT_EQ(p.out, 2 * p.in + 1);
    }
    ASSERT_EQ(iron__fiber_resume(p.f), 1);
    ASSERT_EQ(p.out, want_sum);
    iron__fiber_free(p.f);
}

/* ---- finishing ---------------------------------------------------------- */

struct counted {
    iron__fiber *f;
    int entered, yields, returned;
};

static void two_yields_body(void *arg)
{
    struct counted *c = arg;
    c->entered++;
    for (int i = 0; i < 2; i++) {
        c->yields++;
        iron__fiber_yield(c->f);
    }
    c->returned++;
}

TEST(fiber_finish_returns_one_and_stays_finished)
{
    struct counted c = { 0 };
    ASSERT_OK(iron__fiber_new(&c.f, 32 * KIB, two_yields_body, &c));
    ASSERT_EQ(c.entered, 0); /* nothing runs before the first resume */
    ASSERT_EQ(iron__fiber_resume(c.f), 0);
    ASSERT_EQ(c.yields, 1);
    ASSERT_EQ(iron__fiber_resume(c.f), 0);
    ASSERT_EQ(c.yields, 2);
    ASSERT_EQ(iron__fiber_resume(c.f), 1);
    ASSERT_EQ(c.returned, 1);
    for (int i = 0; i < 5; i++)
        ASSERT_EQ(iron__fiber_resume(c.f), 1);
    ASSERT_EQ(c.entered, 1);
    ASSERT_EQ(c.returned, 1);
    iron__fiber_free(c.f);
}

static void empty_body(void *arg)
{
    (*(int *)arg)++;
}

TEST(fiber_that_never_yields_finishes_on_first_resume)
{
    int runs = 0;
    iron__fiber *f = NULL;
    ASSERT_OK(iron__fiber_new(&f, 16 * KIB, empty_body, &runs));
    ASSERT_EQ(iron__fiber_resume(f), 1);
    ASSERT_EQ(iron__fiber_resume(f), 1);
    ASSERT_EQ(runs, 1);
    iron__fiber_free(f);
}

/* ---- several fibers interleaved ---------------------------------------- */

#define NFIB 5

struct interleave {
    iron__fiber *f;
    int id, steps;
    int *log, *nlog;
};

/* Fiber `id` runs id+1 steps, logging each; locals on its stack must not
 * be disturbed by the other fibers' stacks. */
static void interleave_body(void *arg)
{
    struct interleave *x = arg;
    int mine = x->id * 100;
    for (int s = 0; s < x->steps; s++) {
        x->log[(*x->nlog)++] = mine + s;
        iron__fiber_yield(x->f);
    }
}

TEST(fiber_several_interleaved)
{
    struct interleave x[NFIB];
    int log[64], nlog = 0;
    for (int i = 0; i < NFIB; i++) {
        x[i] = (struct interleave){ NULL, i, i + 1, log, &nlog };
        ASSERT_OK(iron__fiber_new(&x[i].f, 32 * KIB, interleave_body, &x[i]));
    }
    /* Round robin until every fiber is done, as the scheduler would. */
    int done[NFIB] = { 0 }, ndone = 0, round = 0;
    int want[64], nwant = 0;
    while (ndone < NFIB) {
        for (int i = 0; i < NFIB; i++) {
            if (done[i])
                continue;
            if (round < x[i].steps)
                want[nwant++] = i * 100 + round;
            if (iron__fiber_resume(x[i].f)) {
                done[i] = 1;
                ndone++;
            }
        }
        round++;
    }
    ASSERT_EQ(nlog, nwant);
    for (int k = 0; k < nlog; k++)
        ASSERT_EQ(log[k], want[k]);
    for (int i = 0; i < NFIB; i++)
        iron__fiber_free(x[i].f);
}

/* ---- deep recursion ----------------------------------------------------- */

struct deep {
    size_t target, used;
    long depth;
};

/* Recurses with a 1 KiB frame until `target` bytes of stack lie between
 * `top` and this frame.  The volatile read after the call keeps it from
 * becoming a loop.  Not ASan-instrumented: with detect_stack_use_after_return
 * ASan would move `buf` to a heap "fake stack" and the depth could not be
 * measured (an overflow is still caught, by the guard page). */
__attribute__((no_sanitize_address))
static size_t recurse(uintptr_t top, size_t target, long *depth)
{
    volatile char buf[1024];
    buf[0] = (char)*depth;
    buf[sizeof buf - 1] = 1;
    size_t used = (size_t)(top - (uintptr_t)&buf[0]);
    (*depth)++;
    size_t r = used < target ? recurse(top, target, depth) : used;
    return r + (size_t)(buf[sizeof buf - 1] != 1);
}

__attribute__((no_sanitize_address))
static void deep_body(void *arg)
{
    struct deep *d = arg;
    volatile char here = 0;
    d->used = recurse((uintptr_t)&here, d->target, &d->depth);
}

TEST(fiber_deep_recursion_uses_most_of_the_stack)
{
    struct deep d = { 200 * KIB, 0, 0 };
    iron__fiber *f = NULL;
    ASSERT_OK(iron__fiber_new(&f, 256 * KIB, deep_body, &d));
    ASSERT_EQ(iron__fiber_resume(f), 1);
    ASSERT_GE(d.used, 200 * KIB);
    ASSERT_LT(d.used, 256 * KIB);
    ASSERT_GT(d.depth, 100);
    printf("  fiber stack: %zu KiB used at depth %ld of a 256 KiB fiber\n",
           d.used / KIB, d.depth);
    iron__fiber_free(f);
}

/* Overflowing the stack must hit the guard page and kill the process, not
 * scribble over whatever is mapped below.  Runs in a grandchild. */
__attribute__((no_sanitize_address))
static void overflow_body(void *arg)
{
    long depth = 0;
    recurse((uintptr_t)&depth, *(size_t *)arg, &depth);
}

TEST(fiber_overflow_hits_guard_page)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        struct rlimit no_core = { 0, 0 };
        setrlimit(RLIMIT_CORE, &no_core);
        /* Sanitizers report the overflow on stderr; keep the log quiet. */
        if (!freopen("/dev/null", "w", stderr))
            _Exit(3);
        size_t forever = SIZE_MAX;
        iron__fiber *f = NULL;
        if (iron__fiber_new(&f, 64 * KIB, overflow_body, &forever) != IRON_OK)
            _Exit(4);
        iron__fiber_resume(f);
        _Exit(0); /* reached only if the overflow went unnoticed */
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0)
        ;
    /* Killed by SIGSEGV, or a sanitizer's "stack-overflow" report and
     * exit (1 for ASan, 66 for TSan); 3 and 4 are set-up failures. */
    if (WIFEXITED(st)) {
        ASSERT_NE(WEXITSTATUS(st), 0);
        ASSERT_NE(WEXITSTATUS(st), 3);
        ASSERT_NE(WEXITSTATUS(st), 4);
    } else {
        ASSERT(WIFSIGNALED(st));
    }
}

/* ---- iron__fiber_current ----------------------------------------------- */

struct who {
    iron__fiber *f;
    iron__fiber *seen[2];
};

static void who_body(void *arg)
{
    struct who *w = arg;
    w->seen[0] = iron__fiber_current();
    iron__fiber_yield(w->f);
    w->seen[1] = iron__fiber_current();
}

TEST(fiber_current_inside_and_outside)
{
    struct who w = { NULL, { NULL, NULL } };
    ASSERT(iron__fiber_current() == NULL);
    ASSERT_OK(iron__fiber_new(&w.f, 32 * KIB, who_body, &w));
    ASSERT(iron__fiber_current() == NULL);
    ASSERT_EQ(iron__fiber_resume(w.f), 0);
    ASSERT(w.seen[0] == w.f);
    ASSERT(iron__fiber_current() == NULL);
    ASSERT_EQ(iron__fiber_resume(w.f), 1);
    ASSERT(w.seen[1] == w.f);
    ASSERT(iron__fiber_current() == NULL);
    iron__fiber_free(w.f);
}

/* ---- migration between threads ----------------------------------------- */

#define MIGRATIONS 10

struct migrate {
    iron__fiber *f;
    pthread_t ran_on[MIGRATIONS + 1];
    int current_ok[MIGRATIONS + 1];
    long checksum;
};

/* Keeps its state in locals across yields while the resumer changes
 * thread, and records which thread each step ran on. */
static void migrate_body(void *arg)
{
    struct migrate *m = arg;
    long acc = 1;
    volatile char pad[512];
    pad[0] = 42;
    for (int i = 0; i <= MIGRATIONS; i++) {
        m->ran_on[i] = pthread_self();
        m->current_ok[i] = iron__fiber_current() == m->f;
        acc = acc * 31 + i;
        if (i < MIGRATIONS)
            iron__fiber_yield(m->f);
    }
    m->checksum = acc + pad[0];
}

struct resumer {
    struct migrate *m;
    int result;
    iron__fiber *current_after;
};

static void *resume_thread(void *arg)
{
    struct resumer *r = arg;
    r->result = iron__fiber_resume(r->m->f);
    r->current_after = iron__fiber_current();
    return NULL;
}

TEST(fiber_resumed_alternately_from_two_threads)
{
    struct migrate m;
    memset(&m, 0, sizeof m);
    ASSERT_OK(iron__fiber_new(&m.f, 64 * KIB, migrate_body, &m));
    pthread_t th[MIGRATIONS + 1];
    for (int i = 0; i <= MIGRATIONS; i++) {
        /* Two threads in turn: even steps on one, odd on the other.  Each
         * is joined before the next starts, so they never overlap; a pool
         * thread would behave the same. */
        struct resumer r = { &m, -1, NULL };
        ASSERT_EQ(pthread_create(&th[i], NULL, resume_thread, &r), 0);
        ASSERT_EQ(pthread_join(th[i], NULL), 0);
        ASSERT_EQ(r.result, i == MIGRATIONS);
        ASSERT(r.current_after == NULL);
        ASSERT(pthread_equal(m.ran_on[i], th[i]));
        ASSERT(m.current_ok[i]);
    }
    long want = 1;
    for (int i = 0; i <= MIGRATIONS; i++)
        want = want * 31 + i;
    ASSERT_EQ(m.checksum, want + 42);
    iron__fiber_free(m.f);
}

/* ---- freeing ------------------------------------------------------------ */

struct forever {
    iron__fiber *f;
    long steps;
};

static void forever_body(void *arg)
{
    struct forever *x = arg;
    for (;;) {
        x->steps++;
        iron__fiber_yield(x->f);
    }
}

TEST(fiber_free_suspended_and_unstarted)
{
    struct forever x = { NULL, 0 };
    ASSERT_OK(iron__fiber_new(&x.f, 64 * KIB, forever_body, &x));
    for (int i = 0; i < 3; i++)
        ASSERT_EQ(iron__fiber_resume(x.f), 0);
    ASSERT_EQ(x.steps, 3);
    iron__fiber_free(x.f); /* suspended mid-loop: discarded */

    iron__fiber *f = NULL;
    ASSERT_OK(iron__fiber_new(&f, 64 * KIB, forever_body, NULL));
    iron__fiber_free(f); /* never started */
    iron__fiber_free(NULL);
}

/* Suspends with small arrays (ASan redzones) live on its stack. */
static void redzones_body(void *arg)
{
    struct forever *x = arg;
    volatile char a[40], b[24], c[100];
    a[0] = b[0] = c[0] = 1;
    iron__fiber_yield(x->f);
    x->steps = a[0] + b[0] + c[0];
}

/* Writes every byte of a large array where the previous fiber's frames
 * were: any poisoning left over from that fiber would be reported. */
static void sweep_body(void *arg)
{
    volatile char big[16 * 1024];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)i;
    *(long *)arg = big[100];
}

TEST(fiber_free_then_reuse_the_stack)
{
    /* Unmapping and mapping the same size mostly reuses the address, so
     * a sweep runs over the frames a discarded fiber left behind. */
    for (int i = 0; i < 300; i++) {
        struct forever y = { NULL, 0 };
        ASSERT_OK(iron__fiber_new(&y.f, 64 * KIB, redzones_body, &y));
        ASSERT_EQ(iron__fiber_resume(y.f), 0);
        iron__fiber_free(y.f);
        long v = 0;
        iron__fiber *g = NULL;
        ASSERT_OK(iron__fiber_new(&g, 64 * KIB, sweep_body, &v));
        ASSERT_EQ(iron__fiber_resume(g), 1);
        ASSERT_EQ(v, 100);
        iron__fiber_free(g);
    }
}

/* ---- failures and misuse ------------------------------------------------ */

TEST(fiber_new_allocation_failure)
{
    iron__fiber *f = (iron__fiber *)(uintptr_t)1;
    ASSERT_FAILS(iron__fiber_new(&f, SIZE_MAX / 2, empty_body, NULL),
                 IRON_ENOMEM, "mmap");
    ASSERT(f == NULL);
    char size[64];
    snprintf(size, sizeof size, "%zu bytes", SIZE_MAX / 2);
    ASSERT_CONTAINS(iron_last_error(), size);

    f = (iron__fiber *)(uintptr_t)1;
    ASSERT_FAILS(iron__fiber_new(&f, SIZE_MAX, empty_body, NULL),
                 IRON_ENOMEM, "overflows");
    ASSERT(f == NULL);

    /* Fail the n-th allocation, n = 1, 2, ... until the call succeeds. */
    for (long n = 1;; n++) {
        int runs = 0;
        f = (iron__fiber *)(uintptr_t)1;
        iron__alloc_fail_at(n);
        iron_status s = iron__fiber_new(&f, 16 * KIB, empty_body, &runs);
        iron__alloc_fail_at(0);
        if (s == IRON_OK) {
            ASSERT_EQ(iron__fiber_resume(f), 1);
            ASSERT_EQ(runs, 1);
            iron__fiber_free(f);
            break;
        }
        ASSERT_EQ(s, IRON_ENOMEM);
        ASSERT(f == NULL);
        ASSERT_LT(n, 10);
    }
}

struct misuse {
    iron__fiber *f, *other;
    int nested_result;
};

static void misuse_body(void *arg)
{
    struct misuse *m = arg;
    /* Resuming from inside a fiber is refused without running `other`. */
    m->nested_result = iron__fiber_resume(m->other);
    /* Yielding someone else's fiber is refused; we keep running. */
    iron__fiber_yield(m->other);
    /* Freeing the running fiber is refused. */
    iron__fiber_free(m->f);
    iron__fiber_yield(m->f);
}

TEST(fiber_rejects_bad_arguments_and_misuse)
{
    iron__fiber *f = (iron__fiber *)(uintptr_t)1;
    ASSERT_FAILS(iron__fiber_new(NULL, 16 * KIB, empty_body, NULL),
                 IRON_EINVAL, "out");
    ASSERT_FAILS(iron__fiber_new(&f, 16 * KIB, NULL, NULL), IRON_EINVAL,
                 "fn");
    ASSERT(f == NULL);
    ASSERT_FAILS(iron__fiber_new(&f, 0, empty_body, NULL), IRON_EINVAL,
                 "stack size");
    ASSERT(f == NULL);

    ASSERT_EQ(iron__fiber_resume(NULL), 1);
    ASSERT_CONTAINS(iron_last_error(), "NULL");
    iron__fiber_yield(NULL);
    ASSERT_CONTAINS(iron_last_error(), "NULL");

    int runs = 0;
    struct misuse m = { NULL, NULL, -1 };
    ASSERT_OK(iron__fiber_new(&m.other, 16 * KIB, empty_body, &runs));
    iron__fiber_yield(m.other); /* outside any fiber */
    ASSERT_CONTAINS(iron_last_error(), "outside any fiber");

    ASSERT_OK(iron__fiber_new(&m.f, 32 * KIB, misuse_body, &m));
    ASSERT_EQ(iron__fiber_resume(m.f), 0);
    ASSERT_EQ(m.nested_result, 1);
    ASSERT_EQ(runs, 0);
    ASSERT_CONTAINS(iron_last_error(), "running");
    ASSERT_EQ(iron__fiber_resume(m.f), 1);

    /* `other` is untouched and still works. */
    ASSERT_EQ(iron__fiber_resume(m.other), 1);
    ASSERT_EQ(runs, 1);
    iron__fiber_free(m.f);
    iron__fiber_free(m.other);
}

/* ---- cost of a switch --------------------------------------------------- */

TEST_ALONE(fiber_bench_round_trip, 30, "measures and prints a switch's time")
{
    struct forever x = { NULL, 0 };
    ASSERT_OK(iron__fiber_new(&x.f, 64 * KIB, forever_body, &x));
    ASSERT_EQ(iron__fiber_resume(x.f), 0); /* warm up: stack touched */
    const long n = 200000;
    uint64_t t0 = iron__now_ns();
    for (long i = 0; i < n; i++)
        iron__fiber_resume(x.f);
    uint64_t t1 = iron__now_ns();
    ASSERT_EQ(x.steps, n + 1);
    printf("  fiber resume+yield round trip: %.1f ns (%ld trips)\n",
           (double)(t1 - t0) / (double)n, n);
    iron__fiber_free(x.f);
}
