/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * core.h - internals every module uses: failing with a message, allocation
 * (with fault injection for tests), a growable string, and time.
 */
#ifndef IRON_CORE_CORE_H
#define IRON_CORE_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "iron/iron.h"

#if defined(__GNUC__)
#define IRON__PRINTF(f, a) __attribute__((format(printf, f, a)))
/* A function whose constant arguments select what it does (the
 * emulator's step variants: plain, profiled, checked, timed): inlined at
 * every call, so that each variant compiles to its own loop with the
 * others' code gone, whatever the compiler's size heuristics say. */
#define IRON__SPECIALIZED inline __attribute__((always_inline))
#else
#define IRON__PRINTF(f, a)
#define IRON__SPECIALIZED inline
#endif

/* The size of this thread's last-error message, NUL included.  A longer
 * message keeps its whole lines that fit and ends with "... and N more
 * lines" (one long line is cut with "..."), never in mid-word. */
#define IRON__MSG_MAX 4096

/* Invariants: a condition that holds unless the library itself has a bug
 * -- never a check of what a caller passed, which fails with a status and
 * a message.  The builds that test the library define IRON_ASSERTS (the
 * Makefile's asan, tsan, check-clang and fuzz builds, or ASSERTS=1): there
 * a broken invariant prints "file:line: invariant broken: cond (why)" to
 * stderr and aborts, where the bug happened rather than later, as a wrong
 * result.  The default build, which `make install` installs, compiles
 * them out: cond is then not evaluated (keep it free of side effects),
 * only type-checked.  `why` says, in prose, what the invariant is. */
#ifdef IRON_ASSERTS
#define IRON__ASSERT(cond, why)                                               \
    ((cond) ? (void)0 : iron__assert_fail(#cond, why, __FILE__, __LINE__))
#else
#define IRON__ASSERT(cond, why) ((void)sizeof((cond) ? 1 : 0))
#endif
/* What a broken IRON__ASSERT calls (assert.c): prints and aborts. */
_Noreturn void iron__assert_fail(const char *cond, const char *why,
                                 const char *file, int line);

/* Sets this thread's last-error message and returns s, so that a failure is
 * one statement: return iron__fail(IRON_EINVAL, "argument %d: ...", i); */
iron_status iron__fail(iron_status s, const char *fmt, ...) IRON__PRINTF(2, 3);
iron_status iron__vfail(iron_status s, const char *fmt, va_list ap);

/* Puts "<prefix>: " in front of the current message; returns s.  Used by
 * outer layers to add context ("vadd (tile=16): ...") to an inner failure. */
iron_status iron__fail_context(iron_status s, const char *fmt, ...)
    IRON__PRINTF(2, 3);

/* Clears the message. */
void iron__clear_error(void);

/* What a public function returns: s, and on success this thread's message
 * is cleared, so that iron_last_error() is "" after every successful call
 * -- also when an internal probe failed on the way and was recovered from
 * (a disk-cache miss that was then compiled; such misses go to the log).
 * One thread-local store: nothing on the warm path.  Wrap the returns
 * that can be IRON_OK: return iron__public_result(IRON_OK); */
iron_status iron__public_result(iron_status s);

/* Allocation.  Every allocation of the library goes through these so that
 * tests can make the N-th one fail (iron__alloc_fail_at). */
void *iron__malloc(size_t n);
void *iron__calloc(size_t count, size_t size);
void *iron__realloc(void *p, size_t n);
char *iron__strdup(const char *s);
void iron__free(void *p);
/* Memory aligned to `align` (a power of two); freed with iron__free_aligned. */
void *iron__aligned_alloc(size_t align, size_t n);
void iron__free_aligned(void *p);

/* Memory for a big buffer (a tensor): a mapping of its own, zeroed, so
 * that freeing it gives it back to the system (freed heap memory between
 * live allocations stays in the process), aligned to `align` (a power of
 * two, 64 .. 2 MiB).  Freed with iron__big_free. */
void *iron__big_alloc(size_t align, size_t n);
void iron__big_free(void *p);

/* Fault injection (tests only): the n-th allocation from now fails (n >= 1);
 * 0 disables.  Returns the number of allocations since the last call, so a
 * test can loop "fail at 1, 2, ... until the call succeeds".  Per thread. */
long iron__alloc_fail_at(long n);
/* Exempts this thread's allocations from fault injection (and from the
 * count) while > 0: iron__alloc_exempt(1) ... iron__alloc_exempt(-1).  For
 * one-time process set-up that a test's countdown must not land in (the
 * built-in drivers' registration). */
void iron__alloc_exempt(int delta);

/* A growable NUL-terminated string.  Zero-initialise; on allocation failure
 * `oom` is set and later appends do nothing. */
typedef struct iron__str {
    char *p;
    size_t len, cap;
    int oom;
} iron__str;

void iron__str_printf(iron__str *s, const char *fmt, ...) IRON__PRINTF(2, 3);
void iron__str_vprintf(iron__str *s, const char *fmt, va_list ap);
void iron__str_append(iron__str *s, const char *text);
/* The text ("" when empty); never NULL. */
const char *iron__str_get(const iron__str *s);
/* The length of text's longest front made of whole lines (each ended by
 * the '\n' after it, or by the text's end) that is at most max bytes: 0
 * when even the first line is longer.  *left (may be NULL) gets the
 * number of lines after that front. */
size_t iron__lines_fit(const char *text, size_t len, size_t max, int *left);
/* Transfers the buffer to the caller (NULL if oom); s is reset. */
char *iron__str_take(iron__str *s);
void iron__str_free(iron__str *s);

/* Monotonic clock in milliseconds / nanoseconds. */
double iron__now_ms(void);
uint64_t iron__now_ns(void);
/* The same clock at tick resolution (a few ms): cheap enough to read
 * between every few scheduler steps. */
uint64_t iron__now_coarse_ns(void);

/* names.c: the edit distance between a[0 .. na) and b[0 .. nb) (SIZE_MAX
 * when either is longer than 63: names are short), and the name of
 * names[0 .. n) closest to `name` when within two edits (NULL if none),
 * for "did you mean" hints. */
size_t iron__edit_distance(const char *a, size_t na, const char *b,
                           size_t nb);
const char *iron__closest_name(const char *name, const char *const *names,
                               int n);

/* Names for messages: iron__plural(n, "object") -> "object" / "objects". */
const char *iron__plural(int64_t n, const char *word, const char *words);

#define IRON__COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define IRON__MIN(a, b) ((a) < (b) ? (a) : (b))
#define IRON__MAX(a, b) ((a) > (b) ? (a) : (b))

#endif
