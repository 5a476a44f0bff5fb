/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kernel_rt.c - the kernel runtime shim (compile layer; see ../rt.h), the
 * one file of src/ that is not part of libiron's own code.  The Makefile
 * compiles it once into an object that libiron carries as bytes and links
 * into every kernel object (../shim.c); libiron also carries its text,
 * which is compiled behind the kernel's source when a compiler cannot
 * link that object.
 *
 * The linker's --wrap sends the kernel's calls of the libc functions
 * below here.  Output to stdout and stderr, exits, failed asserts and
 * signal handlers go to the host through the table bound at load time;
 * with no table bound (the object used outside iron) each one is the
 * real function.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
/* used: under -flto no call in the IR names a __wrap_ function (the
 * linker rewrites the calls later), and LTO would drop them. */
#define iron__HIDDEN __attribute__((visibility("hidden"), used))
#define iron__FMT(iron__i, iron__j) \
    __attribute__((format(printf, iron__i, iron__j)))
/* Not _Noreturn: the text also compiles as C++, behind a C++ kernel
 * (inside the wrapper's extern "C"). */
#define iron__NORETURN __attribute__((noreturn))
struct sigaction;
typedef void (*iron__sighandler)(int);
/* The layout of iron__rt_api in rt.h. */
struct iron__rt_api {
    void (*iron__write)(int, const char *, size_t);
    void (*iron__stop)(const char *);
    void (*iron__assert_fail)(const char *, const char *, unsigned,
                              const char *);
    void (*iron__signal)(int);
    unsigned *(*iron__aie_ctl)(void);
    void (*iron__aie_fault)(const char *, const char *, unsigned);
    void (*iron__count)(int, unsigned long long);
    void (*iron__count_region)(int, int);
    void (*iron__count_call)(int, int, int, const long long *);
};
static const struct iron__rt_api *iron__rt;
__attribute__((visibility("default")))
void iron__rt_bind(const struct iron__rt_api *iron__t);
void iron__rt_bind(const struct iron__rt_api *iron__t)
{
    iron__rt = iron__t;
}
/* libc's functions, as the linker names them under --wrap.  Declared
 * here, not taken from more headers: a header included after the
 * kernel's source could clash with a kernel function of the same name
 * (write, signal, index). */
int __real_vprintf(const char *, va_list);
int __real_vfprintf(FILE *, const char *, va_list);
int __real___vprintf_chk(int, const char *, va_list);
int __real___vfprintf_chk(FILE *, int, const char *, va_list);
int __real_puts(const char *);
int __real_putchar(int);
int __real_fputs(const char *, FILE *);
int __real_fputc(int, FILE *);
int __real_putc(int, FILE *);
size_t __real_fwrite(const void *, size_t, size_t, FILE *);
ptrdiff_t __real_write(int, const void *, size_t);
iron__NORETURN void __real_exit(int);
iron__NORETURN void __real__exit(int);
iron__NORETURN void __real__Exit(int);
iron__NORETURN void __real_quick_exit(int);
iron__NORETURN void __real_abort(void);
iron__NORETURN void __real___assert_fail(const char *, const char *,
                                    unsigned int, const char *);
iron__sighandler __real_signal(int, iron__sighandler);
iron__sighandler __real___sysv_signal(int, iron__sighandler);
int __real_sigaction(int, const struct sigaction *, struct sigaction *);
iron__HIDDEN iron__FMT(1, 2) int __wrap_printf(const char *, ...);
iron__HIDDEN iron__FMT(1, 0) int __wrap_vprintf(const char *, va_list);
iron__HIDDEN iron__FMT(2, 3) int __wrap_fprintf(FILE *, const char *,
                                                ...);
iron__HIDDEN iron__FMT(2, 0) int __wrap_vfprintf(FILE *, const char *,
                                                 va_list);
iron__HIDDEN iron__FMT(2, 3) int __wrap___printf_chk(int, const char *,
                                                     ...);
iron__HIDDEN iron__FMT(2, 0) int __wrap___vprintf_chk(int, const char *,
                                                      va_list);
iron__HIDDEN iron__FMT(3, 4) int __wrap___fprintf_chk(FILE *, int,
                                                      const char *,
                                                      ...);
iron__HIDDEN iron__FMT(3, 0) int __wrap___vfprintf_chk(FILE *, int,
                                                       const char *,
                                                       va_list);
iron__HIDDEN int __wrap_puts(const char *);
iron__HIDDEN int __wrap_putchar(int);
iron__HIDDEN int __wrap_fputs(const char *, FILE *);
iron__HIDDEN int __wrap_fputc(int, FILE *);
iron__HIDDEN int __wrap_putc(int, FILE *);
iron__HIDDEN size_t __wrap_fwrite(const void *, size_t, size_t, FILE *);
iron__HIDDEN ptrdiff_t __wrap_write(int, const void *, size_t);
iron__HIDDEN iron__NORETURN void __wrap_exit(int);
iron__HIDDEN iron__NORETURN void __wrap__exit(int);
iron__HIDDEN iron__NORETURN void __wrap__Exit(int);
iron__HIDDEN iron__NORETURN void __wrap_quick_exit(int);
iron__HIDDEN iron__NORETURN void __wrap_abort(void);
iron__HIDDEN iron__NORETURN void __wrap___assert_fail(const char *,
                                                 const char *,
                                                 unsigned int,
                                                 const char *);
iron__HIDDEN iron__sighandler __wrap_signal(int, iron__sighandler);
iron__HIDDEN iron__sighandler __wrap___sysv_signal(int,
                                                   iron__sighandler);
iron__HIDDEN int __wrap_sigaction(int, const struct sigaction *,
                                  struct sigaction *);
/* The AIE API's hooks into the host (include/iron/kernel/aie_api). */
iron__HIDDEN unsigned *iron__aie_ctl(void);
iron__HIDDEN iron__NORETURN void iron__aie_fault(const char *, const char *,
                                                 unsigned);
/* A timed kernel's counts (<iron/kernel/iron_count.h>): the AIE API's and
 * the compiler's -fsanitize-coverage=trace-pc, one call per basic block.
 * Never instrumented themselves: when this text is compiled behind a
 * timed kernel, with its flags, the block counter would count (and call)
 * itself. */
#if defined(__has_attribute)
#if __has_attribute(no_sanitize_coverage)
#define iron__NOCOV __attribute__((no_sanitize_coverage))
#elif defined(__clang__)
#define iron__NOCOV __attribute__((no_sanitize("coverage")))
#endif
#endif
#ifndef iron__NOCOV
#define iron__NOCOV
#endif
iron__HIDDEN iron__NOCOV void iron__count(int, unsigned long long);
iron__HIDDEN iron__NOCOV void iron__count_region(int, int);
iron__HIDDEN iron__NOCOV void iron__count_call(int, int, int,
                                                const long long *);
iron__HIDDEN iron__NOCOV void __sanitizer_cov_trace_pc(void);

/* --- output: stdout and stderr go to the host -------------------- */

/* The host fd (1, 2) a stream stands for; 0 for a file the kernel
 * opened itself, or with no host bound: the real function does it. */
static int iron__fd_of(FILE *iron__f)
{
    if (!iron__rt)
        return 0;
    return iron__f == stdout ? 1 : iron__f == stderr ? 2 : 0;
}

static void iron__put(int iron__fd, const char *iron__b, size_t iron__n)
{
    iron__rt->iron__write(iron__fd, iron__b, iron__n);
}

/* Formats on the stack, or on the heap when the text is longer; when
 * that fails, the part that fitted still goes out. */
static iron__FMT(2, 0) int iron__vput(int iron__fd, const char *iron__s,
                                      va_list iron__ap)
{
    char iron__b[512];
    va_list iron__ap2;
    va_copy(iron__ap2, iron__ap);
    int iron__n = __builtin_vsnprintf(iron__b, sizeof iron__b, iron__s,
                                      iron__ap);
    if (iron__n >= 0 && (size_t)iron__n < sizeof iron__b) {
        iron__put(iron__fd, iron__b, (size_t)iron__n);
    } else if (iron__n >= 0) {
        size_t iron__len = (size_t)iron__n;
        char *iron__p = (char *)__builtin_malloc(iron__len + 1);
        if (iron__p && __builtin_vsnprintf(iron__p, iron__len + 1,
                                           iron__s, iron__ap2) >= 0)
            iron__put(iron__fd, iron__p, iron__len);
        else
            iron__put(iron__fd, iron__b, sizeof iron__b - 1);
        __builtin_free(iron__p);
    }
    va_end(iron__ap2);
    return iron__n;
}

static int iron__putch(int iron__fd, int iron__c)
{
    char iron__ch = (char)(unsigned char)iron__c;
    iron__put(iron__fd, &iron__ch, 1);
    return (unsigned char)iron__c;
}

int __wrap_vprintf(const char *iron__s, va_list iron__ap)
{
    return iron__rt ? iron__vput(1, iron__s, iron__ap)
                    : __real_vprintf(iron__s, iron__ap);
}

int __wrap_printf(const char *iron__s, ...)
{
    va_list iron__ap;
    va_start(iron__ap, iron__s);
    int iron__n = __wrap_vprintf(iron__s, iron__ap);
    va_end(iron__ap);
    return iron__n;
}

int __wrap_vfprintf(FILE *iron__f, const char *iron__s,
                    va_list iron__ap)
{
    int iron__fd = iron__fd_of(iron__f);
    return iron__fd ? iron__vput(iron__fd, iron__s, iron__ap)
                    : __real_vfprintf(iron__f, iron__s, iron__ap);
}

int __wrap_fprintf(FILE *iron__f, const char *iron__s, ...)
{
    va_list iron__ap;
    va_start(iron__ap, iron__s);
    int iron__n = __wrap_vfprintf(iron__f, iron__s, iron__ap);
    va_end(iron__ap);
    return iron__n;
}

/* The _FORTIFY_SOURCE forms: the same with a flag first. */
int __wrap___vprintf_chk(int iron__fl, const char *iron__s,
                         va_list iron__ap)
{
    return iron__rt ? iron__vput(1, iron__s, iron__ap)
                    : __real___vprintf_chk(iron__fl, iron__s, iron__ap);
}

int __wrap___printf_chk(int iron__fl, const char *iron__s, ...)
{
    va_list iron__ap;
    va_start(iron__ap, iron__s);
    int iron__n = __wrap___vprintf_chk(iron__fl, iron__s, iron__ap);
    va_end(iron__ap);
    return iron__n;
}

int __wrap___vfprintf_chk(FILE *iron__f, int iron__fl,
                          const char *iron__s, va_list iron__ap)
{
    int iron__fd = iron__fd_of(iron__f);
    if (!iron__fd)
        return __real___vfprintf_chk(iron__f, iron__fl, iron__s,
                                     iron__ap);
    return iron__vput(iron__fd, iron__s, iron__ap);
}

int __wrap___fprintf_chk(FILE *iron__f, int iron__fl,
                         const char *iron__s, ...)
{
    va_list iron__ap;
    va_start(iron__ap, iron__s);
    int iron__n = __wrap___vfprintf_chk(iron__f, iron__fl, iron__s,
                                        iron__ap);
    va_end(iron__ap);
    return iron__n;
}

int __wrap_puts(const char *iron__s)
{
    if (!iron__rt)
        return __real_puts(iron__s);
    iron__put(1, iron__s, __builtin_strlen(iron__s));
    iron__put(1, "\n", 1);
    return 1;
}

int __wrap_putchar(int iron__c)
{
    return iron__rt ? iron__putch(1, iron__c) : __real_putchar(iron__c);
}

int __wrap_fputs(const char *iron__s, FILE *iron__f)
{
    int iron__fd = iron__fd_of(iron__f);
    if (!iron__fd)
        return __real_fputs(iron__s, iron__f);
    iron__put(iron__fd, iron__s, __builtin_strlen(iron__s));
    return 1;
}

int __wrap_fputc(int iron__c, FILE *iron__f)
{
    int iron__fd = iron__fd_of(iron__f);
    return iron__fd ? iron__putch(iron__fd, iron__c)
                    : __real_fputc(iron__c, iron__f);
}

int __wrap_putc(int iron__c, FILE *iron__f)
{
    int iron__fd = iron__fd_of(iron__f);
    return iron__fd ? iron__putch(iron__fd, iron__c)
                    : __real_putc(iron__c, iron__f);
}

size_t __wrap_fwrite(const void *iron__p, size_t iron__size,
                     size_t iron__n, FILE *iron__f)
{
    int iron__fd = iron__fd_of(iron__f);
    /* An overflowing size * n is the real function's error. */
    if (!iron__fd || (iron__size && iron__n > SIZE_MAX / iron__size))
        return __real_fwrite(iron__p, iron__size, iron__n, iron__f);
    if (iron__size && iron__n)
        iron__put(iron__fd, (const char *)iron__p,
                  iron__size * iron__n);
    return iron__size ? iron__n : 0;
}

ptrdiff_t __wrap_write(int iron__fd, const void *iron__p,
                       size_t iron__n)
{
    if (!iron__rt || (iron__fd != 1 && iron__fd != 2) ||
        iron__n > (size_t)PTRDIFF_MAX)
        return __real_write(iron__fd, iron__p, iron__n);
    iron__put(iron__fd, (const char *)iron__p, iron__n);
    return (ptrdiff_t)iron__n;
}

/* --- ending the process ends the kernel's call instead ------------ */

/* In the emulator the host ends the call and does not return; outside
 * it, it returns and the real function does what the kernel asked. */
static void iron__stop(const char *iron__fn, int iron__code)
{
    if (!iron__rt)
        return;
    char iron__what[48];
    __builtin_snprintf(iron__what, sizeof iron__what, "%s(%d)",
                       iron__fn, iron__code);
    iron__rt->iron__stop(iron__what);
}

void __wrap_exit(int iron__code)
{
    iron__stop("exit", iron__code);
    __real_exit(iron__code);
}

void __wrap__exit(int iron__code)
{
    iron__stop("_exit", iron__code);
    __real__exit(iron__code);
}

void __wrap__Exit(int iron__code)
{
    iron__stop("_Exit", iron__code);
    __real__Exit(iron__code);
}

void __wrap_quick_exit(int iron__code)
{
    iron__stop("quick_exit", iron__code);
    __real_quick_exit(iron__code);
}

void __wrap_abort(void)
{
    if (iron__rt)
        iron__rt->iron__stop("abort()");
    __real_abort();
}

void __wrap___assert_fail(const char *iron__e, const char *iron__file,
                          unsigned int iron__line, const char *iron__fn)
{
    if (iron__rt)
        iron__rt->iron__assert_fail(iron__e, iron__file, iron__line,
                                    iron__fn);
    __real___assert_fail(iron__e, iron__file, iron__line, iron__fn);
}

/* --- signal handlers belong to the host --------------------------- */

iron__sighandler __wrap_signal(int iron__sig, iron__sighandler iron__h)
{
    if (iron__rt)
        iron__rt->iron__signal(iron__sig);
    return __real_signal(iron__sig, iron__h);
}

/* What glibc names signal() under a strict -std=c11. */
iron__sighandler __wrap___sysv_signal(int iron__sig,
                                      iron__sighandler iron__h)
{
    if (iron__rt)
        iron__rt->iron__signal(iron__sig);
    return __real___sysv_signal(iron__sig, iron__h);
}

/* Without a new action it only reads the current one. */
int __wrap_sigaction(int iron__sig, const struct sigaction *iron__act,
                     struct sigaction *iron__old)
{
    if (iron__rt && iron__act)
        iron__rt->iron__signal(iron__sig);
    return __real_sigaction(iron__sig, iron__act, iron__old);
}

/* --- the AIE API's core state and faults ---------------------------- */

/* Outside iron (no table bound) each thread has its own words. */
static __thread unsigned iron__ctl_own[4];

/* The running core's control words: one direct call and, in the
 * emulator, one indirect one into the driver, which finds the running
 * worker (the AIE API reads them once per vector operation). */
unsigned *iron__aie_ctl(void)
{
    return iron__rt ? iron__rt->iron__aie_ctl() : iron__ctl_own;
}

/* In the emulator the host ends the call and does not return; outside
 * it, the fault is printed as a failed assert is, and the process
 * aborts. */
void iron__aie_fault(const char *iron__what, const char *iron__file,
                     unsigned iron__line)
{
    if (iron__rt)
        iron__rt->iron__aie_fault(iron__what, iron__file, iron__line);
    __wrap_fprintf(stderr, "%s:%u: %s\n", iron__file ? iron__file : "?",
                   iron__line, iron__what ? iron__what : "?");
    __real_abort();
}

/* --- a timed kernel's counts go to the host ---------------------- */

/* Outside iron (no table bound) they are dropped. */
void iron__count(int iron__kind, unsigned long long iron__n)
{
    if (iron__rt)
        iron__rt->iron__count(iron__kind, iron__n);
}

void iron__count_region(int iron__begin, int iron__pipelined)
{
    if (iron__rt)
        iron__rt->iron__count_region(iron__begin, iron__pipelined);
}

void iron__count_call(int iron__end, int iron__arg, int iron__n,
                      const long long *iron__vals)
{
    if (iron__rt)
        iron__rt->iron__count_call(iron__end, iron__arg, iron__n, iron__vals);
}

/* IRON_COUNT_BLOCK (0) once per basic block the kernel runs. */
void __sanitizer_cov_trace_pc(void)
{
    if (iron__rt)
        iron__rt->iron__count(0, 1);
}
