/*
 * wrapper.c - generates the C text around a kernel's source: defines in
 * front, the signature check and the uniform entry wrapper behind.
 */
#include <stdio.h>
#include <string.h>

#include "compile/wrapper.h"
#include "tensor/tensor.h"

/* Round-to-nearest-even double -> bfloat16 bits, emitted only when a
 * bfloat16 scalar is declared.  NaN stays a (quiet) NaN. */
static const char bf16_helper[] =
    "static uint16_t iron__to_bf16(double iron__v)\n"
    "{\n"
    "    union { float iron__f32; uint32_t iron__u32; } iron__c;\n"
    "    iron__c.iron__f32 = (float)iron__v;\n"
    "    if ((iron__c.iron__u32 & 0x7fffffffu) > 0x7f800000u)\n"
    "        return (uint16_t)((iron__c.iron__u32 >> 16) | 0x40u);\n"
    "    iron__c.iron__u32 += 0x7fffu + ((iron__c.iron__u32 >> 16) & 1u);\n"
    "    return (uint16_t)(iron__c.iron__u32 >> 16);\n"
    "}\n";

int iron__kis_ident(const char *s)
{
    if (!s || !(*s == '_' || (*s >= 'a' && *s <= 'z') ||
                (*s >= 'A' && *s <= 'Z')))
        return 0;
    for (s++; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') ||
              (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

/* The C spelling of argument i's type without the '*'; a kernel argument
 * is the function pointer type iron__kfn<i> declared before the source. */
static const char *arg_ctype(const iron__ktype *t, int i, char buf[24])
{
    switch (t->handle) {
    case IRON__KH_FIFO: return "iron_objfifo";
    case IRON__KH_BARRIER: return "iron_barrier";
    case IRON__KH_KERNEL:
        snprintf(buf, 24, "iron__kfn%d", i);
        return buf;
    case IRON__KH_NONE: break;
    }
    return iron__dtype_ctype(t->dtype);
}

/* typedef void (*iron__kfn<i>)(int32_t *, int32_t); per kernel argument. */
static void append_kernel_types(const iron__kernel_src *k, iron__str *s)
{
    for (int i = 0; i < k->nargs; i++) {
        const iron__ktype *t = &k->args[i];
        if (t->handle != IRON__KH_KERNEL)
            continue;
        iron__str_printf(s, "typedef void (*iron__kfn%d)(", i);
        if (t->knargs == 0)
            iron__str_append(s, "void");
        for (int a = 0; a < t->knargs; a++)
            iron__str_printf(s, "%s%s%s", a ? ", " : "",
                             iron__dtype_ctype(t->kdtype[a]),
                             t->kptr[a] ? " *" : "");
        iron__str_append(s, ");\n");
    }
}

/* What a core body's source sees: the handle types and the FIFO API,
 * routed through a table the emulator binds after loading each instance
 * (so the object needs no symbols from the host process). */
static const char core_prelude[] =
    "typedef struct iron_objfifo iron_objfifo;\n"
    "typedef struct iron_barrier iron_barrier;\n"
    "struct iron__core_api {\n"
    "    void **(*iron__acquire)(void *, int);\n"
    "    void (*iron__release)(void *, int);\n"
    "    void (*iron__barrier_wait)(void *, int);\n"
    "    void (*iron__barrier_release)(void *, int);\n"
    "};\n"
    "static const struct iron__core_api *iron__api;\n"
    "#if defined(__GNUC__)\n"
    "__attribute__((visibility(\"default\")))\n"
    "#endif\n"
    "void iron__core_bind(const struct iron__core_api *iron__t);\n"
    "void iron__core_bind(const struct iron__core_api *iron__t)\n"
    "{\n"
    "    iron__api = iron__t;\n"
    "}\n"
    "static inline void **iron_acquire(iron_objfifo *iron__f, int iron__n)\n"
    "{\n"
    "    return iron__api->iron__acquire(iron__f, iron__n);\n"
    "}\n"
    "static inline void iron_release(iron_objfifo *iron__f, int iron__n)\n"
    "{\n"
    "    iron__api->iron__release(iron__f, iron__n);\n"
    "}\n"
    "static inline void iron_barrier_wait(iron_barrier *iron__b, int iron__v)\n"
    "{\n"
    "    iron__api->iron__barrier_wait(iron__b, iron__v);\n"
    "}\n"
    "static inline void iron_barrier_release(iron_barrier *iron__b,\n"
    "                                        int iron__v)\n"
    "{\n"
    "    iron__api->iron__barrier_release(iron__b, iron__v);\n"
    "}\n";

/*
 * The kernel runtime shim (see compile/rt.h), compiled into every kernel
 * object after everything else.  cc.c links with --wrap for each libc
 * function it replaces, so the kernel's own calls land in the hidden
 * __wrap_<name> definitions here and __real_<name> reaches libc; the two
 * lists name the same functions.  Every name starts with iron__, __wrap_
 * or __real_, which no define of the user's may rewrite; the libc
 * functions it calls itself are compiler builtins, and it includes no
 * header beyond <stdio.h> and freestanding ones, because a header read
 * after the kernel's source would clash with a kernel function that
 * happens to share a libc name (write, signal, index).
 */
static const char runtime_shim[] =
    "/* The kernel runtime shim: the linker's --wrap sends the kernel's calls\n"
    " * of these libc functions here (see src/compile/rt.h in iron).  Output\n"
    " * to stdout and stderr, exits, failed asserts and signal handlers go to\n"
    " * the host through the table bound at load time; with no table bound\n"
    " * (the object used outside iron) each one is the real function. */\n"
    "#include <stdarg.h>\n"
    "#include <stddef.h>\n"
    "#include <stdint.h>\n"
    "#include <stdio.h>\n"
    "/* used: under -flto no call in the IR names a __wrap_ function (the\n"
    " * linker rewrites the calls later), and LTO would drop them. */\n"
    "#define iron__HIDDEN __attribute__((visibility(\"hidden\"), used))\n"
    "#define iron__FMT(iron__i, iron__j) \\\n"
    "    __attribute__((format(printf, iron__i, iron__j)))\n"
    "struct sigaction;\n"
    "typedef void (*iron__sighandler)(int);\n"
    "/* The layout of iron__rt_api in rt.h. */\n"
    "struct iron__rt_api {\n"
    "    void (*iron__write)(int, const char *, size_t);\n"
    "    void (*iron__stop)(const char *);\n"
    "    void (*iron__assert_fail)(const char *, const char *, unsigned,\n"
    "                              const char *);\n"
    "    void (*iron__signal)(int);\n"
    "};\n"
    "static const struct iron__rt_api *iron__rt;\n"
    "__attribute__((visibility(\"default\")))\n"
    "void iron__rt_bind(const struct iron__rt_api *iron__t);\n"
    "void iron__rt_bind(const struct iron__rt_api *iron__t)\n"
    "{\n"
    "    iron__rt = iron__t;\n"
    "}\n"
    "/* libc's functions, as the linker names them under --wrap.  Declared\n"
    " * here, not taken from more headers: a header included after the\n"
    " * kernel's source could clash with a kernel function of the same name\n"
    " * (write, signal, index). */\n"
    "int __real_vprintf(const char *, va_list);\n"
    "int __real_vfprintf(FILE *, const char *, va_list);\n"
    "int __real___vprintf_chk(int, const char *, va_list);\n"
    "int __real___vfprintf_chk(FILE *, int, const char *, va_list);\n"
    "int __real_puts(const char *);\n"
    "int __real_putchar(int);\n"
    "int __real_fputs(const char *, FILE *);\n"
    "int __real_fputc(int, FILE *);\n"
    "int __real_putc(int, FILE *);\n"
    "size_t __real_fwrite(const void *, size_t, size_t, FILE *);\n"
    "ptrdiff_t __real_write(int, const void *, size_t);\n"
    "_Noreturn void __real_exit(int);\n"
    "_Noreturn void __real__exit(int);\n"
    "_Noreturn void __real__Exit(int);\n"
    "_Noreturn void __real_quick_exit(int);\n"
    "_Noreturn void __real_abort(void);\n"
    "_Noreturn void __real___assert_fail(const char *, const char *,\n"
    "                                    unsigned int, const char *);\n"
    "iron__sighandler __real_signal(int, iron__sighandler);\n"
    "iron__sighandler __real___sysv_signal(int, iron__sighandler);\n"
    "int __real_sigaction(int, const struct sigaction *, struct sigaction *);\n"
    "iron__HIDDEN iron__FMT(1, 2) int __wrap_printf(const char *, ...);\n"
    "iron__HIDDEN iron__FMT(1, 0) int __wrap_vprintf(const char *, va_list);\n"
    "iron__HIDDEN iron__FMT(2, 3) int __wrap_fprintf(FILE *, const char *,\n"
    "                                                ...);\n"
    "iron__HIDDEN iron__FMT(2, 0) int __wrap_vfprintf(FILE *, const char *,\n"
    "                                                 va_list);\n"
    "iron__HIDDEN iron__FMT(2, 3) int __wrap___printf_chk(int, const char *,\n"
    "                                                     ...);\n"
    "iron__HIDDEN iron__FMT(2, 0) int __wrap___vprintf_chk(int, const char *,\n"
    "                                                      va_list);\n"
    "iron__HIDDEN iron__FMT(3, 4) int __wrap___fprintf_chk(FILE *, int,\n"
    "                                                      const char *,\n"
    "                                                      ...);\n"
    "iron__HIDDEN iron__FMT(3, 0) int __wrap___vfprintf_chk(FILE *, int,\n"
    "                                                       const char *,\n"
    "                                                       va_list);\n"
    "iron__HIDDEN int __wrap_puts(const char *);\n"
    "iron__HIDDEN int __wrap_putchar(int);\n"
    "iron__HIDDEN int __wrap_fputs(const char *, FILE *);\n"
    "iron__HIDDEN int __wrap_fputc(int, FILE *);\n"
    "iron__HIDDEN int __wrap_putc(int, FILE *);\n"
    "iron__HIDDEN size_t __wrap_fwrite(const void *, size_t, size_t, FILE *);\n"
    "iron__HIDDEN ptrdiff_t __wrap_write(int, const void *, size_t);\n"
    "iron__HIDDEN _Noreturn void __wrap_exit(int);\n"
    "iron__HIDDEN _Noreturn void __wrap__exit(int);\n"
    "iron__HIDDEN _Noreturn void __wrap__Exit(int);\n"
    "iron__HIDDEN _Noreturn void __wrap_quick_exit(int);\n"
    "iron__HIDDEN _Noreturn void __wrap_abort(void);\n"
    "iron__HIDDEN _Noreturn void __wrap___assert_fail(const char *,\n"
    "                                                 const char *,\n"
    "                                                 unsigned int,\n"
    "                                                 const char *);\n"
    "iron__HIDDEN iron__sighandler __wrap_signal(int, iron__sighandler);\n"
    "iron__HIDDEN iron__sighandler __wrap___sysv_signal(int,\n"
    "                                                   iron__sighandler);\n"
    "iron__HIDDEN int __wrap_sigaction(int, const struct sigaction *,\n"
    "                                  struct sigaction *);\n"
    "\n"
    "/* --- output: stdout and stderr go to the host -------------------- */\n"
    "\n"
    "/* The host fd (1, 2) a stream stands for; 0 for a file the kernel\n"
    " * opened itself, or with no host bound: the real function does it. */\n"
    "static int iron__fd_of(FILE *iron__f)\n"
    "{\n"
    "    if (!iron__rt)\n"
    "        return 0;\n"
    "    return iron__f == stdout ? 1 : iron__f == stderr ? 2 : 0;\n"
    "}\n"
    "\n"
    "static void iron__put(int iron__fd, const char *iron__b, size_t iron__n)\n"
    "{\n"
    "    iron__rt->iron__write(iron__fd, iron__b, iron__n);\n"
    "}\n"
    "\n"
    "/* Formats on the stack, or on the heap when the text is longer; when\n"
    " * that fails, the part that fitted still goes out. */\n"
    "static iron__FMT(2, 0) int iron__vput(int iron__fd, const char *iron__s,\n"
    "                                      va_list iron__ap)\n"
    "{\n"
    "    char iron__b[512];\n"
    "    va_list iron__ap2;\n"
    "    va_copy(iron__ap2, iron__ap);\n"
    "    int iron__n = __builtin_vsnprintf(iron__b, sizeof iron__b, iron__s,\n"
    "                                      iron__ap);\n"
    "    if (iron__n >= 0 && (size_t)iron__n < sizeof iron__b) {\n"
    "        iron__put(iron__fd, iron__b, (size_t)iron__n);\n"
    "    } else if (iron__n >= 0) {\n"
    "        size_t iron__len = (size_t)iron__n;\n"
    "        char *iron__p = (char *)__builtin_malloc(iron__len + 1);\n"
    "        if (iron__p && __builtin_vsnprintf(iron__p, iron__len + 1,\n"
    "                                           iron__s, iron__ap2) >= 0)\n"
    "            iron__put(iron__fd, iron__p, iron__len);\n"
    "        else\n"
    "            iron__put(iron__fd, iron__b, sizeof iron__b - 1);\n"
    "        __builtin_free(iron__p);\n"
    "    }\n"
    "    va_end(iron__ap2);\n"
    "    return iron__n;\n"
    "}\n"
    "\n"
    "static int iron__putch(int iron__fd, int iron__c)\n"
    "{\n"
    "    char iron__ch = (char)(unsigned char)iron__c;\n"
    "    iron__put(iron__fd, &iron__ch, 1);\n"
    "    return (unsigned char)iron__c;\n"
    "}\n"
    "\n"
    "int __wrap_vprintf(const char *iron__s, va_list iron__ap)\n"
    "{\n"
    "    return iron__rt ? iron__vput(1, iron__s, iron__ap)\n"
    "                    : __real_vprintf(iron__s, iron__ap);\n"
    "}\n"
    "\n"
    "int __wrap_printf(const char *iron__s, ...)\n"
    "{\n"
    "    va_list iron__ap;\n"
    "    va_start(iron__ap, iron__s);\n"
    "    int iron__n = __wrap_vprintf(iron__s, iron__ap);\n"
    "    va_end(iron__ap);\n"
    "    return iron__n;\n"
    "}\n"
    "\n"
    "int __wrap_vfprintf(FILE *iron__f, const char *iron__s,\n"
    "                    va_list iron__ap)\n"
    "{\n"
    "    int iron__fd = iron__fd_of(iron__f);\n"
    "    return iron__fd ? iron__vput(iron__fd, iron__s, iron__ap)\n"
    "                    : __real_vfprintf(iron__f, iron__s, iron__ap);\n"
    "}\n"
    "\n"
    "int __wrap_fprintf(FILE *iron__f, const char *iron__s, ...)\n"
    "{\n"
    "    va_list iron__ap;\n"
    "    va_start(iron__ap, iron__s);\n"
    "    int iron__n = __wrap_vfprintf(iron__f, iron__s, iron__ap);\n"
    "    va_end(iron__ap);\n"
    "    return iron__n;\n"
    "}\n"
    "\n"
    "/* The _FORTIFY_SOURCE forms: the same with a flag first. */\n"
    "int __wrap___vprintf_chk(int iron__fl, const char *iron__s,\n"
    "                         va_list iron__ap)\n"
    "{\n"
    "    return iron__rt ? iron__vput(1, iron__s, iron__ap)\n"
    "                    : __real___vprintf_chk(iron__fl, iron__s, iron__ap);\n"
    "}\n"
    "\n"
    "int __wrap___printf_chk(int iron__fl, const char *iron__s, ...)\n"
    "{\n"
    "    va_list iron__ap;\n"
    "    va_start(iron__ap, iron__s);\n"
    "    int iron__n = __wrap___vprintf_chk(iron__fl, iron__s, iron__ap);\n"
    "    va_end(iron__ap);\n"
    "    return iron__n;\n"
    "}\n"
    "\n"
    "int __wrap___vfprintf_chk(FILE *iron__f, int iron__fl,\n"
    "                          const char *iron__s, va_list iron__ap)\n"
    "{\n"
    "    int iron__fd = iron__fd_of(iron__f);\n"
    "    if (!iron__fd)\n"
    "        return __real___vfprintf_chk(iron__f, iron__fl, iron__s,\n"
    "                                     iron__ap);\n"
    "    return iron__vput(iron__fd, iron__s, iron__ap);\n"
    "}\n"
    "\n"
    "int __wrap___fprintf_chk(FILE *iron__f, int iron__fl,\n"
    "                         const char *iron__s, ...)\n"
    "{\n"
    "    va_list iron__ap;\n"
    "    va_start(iron__ap, iron__s);\n"
    "    int iron__n = __wrap___vfprintf_chk(iron__f, iron__fl, iron__s,\n"
    "                                        iron__ap);\n"
    "    va_end(iron__ap);\n"
    "    return iron__n;\n"
    "}\n"
    "\n"
    "int __wrap_puts(const char *iron__s)\n"
    "{\n"
    "    if (!iron__rt)\n"
    "        return __real_puts(iron__s);\n"
    "    iron__put(1, iron__s, __builtin_strlen(iron__s));\n"
    "    iron__put(1, \"\\n\", 1);\n"
    "    return 1;\n"
    "}\n"
    "\n"
    "int __wrap_putchar(int iron__c)\n"
    "{\n"
    "    return iron__rt ? iron__putch(1, iron__c) : __real_putchar(iron__c);\n"
    "}\n"
    "\n"
    "int __wrap_fputs(const char *iron__s, FILE *iron__f)\n"
    "{\n"
    "    int iron__fd = iron__fd_of(iron__f);\n"
    "    if (!iron__fd)\n"
    "        return __real_fputs(iron__s, iron__f);\n"
    "    iron__put(iron__fd, iron__s, __builtin_strlen(iron__s));\n"
    "    return 1;\n"
    "}\n"
    "\n"
    "int __wrap_fputc(int iron__c, FILE *iron__f)\n"
    "{\n"
    "    int iron__fd = iron__fd_of(iron__f);\n"
    "    return iron__fd ? iron__putch(iron__fd, iron__c)\n"
    "                    : __real_fputc(iron__c, iron__f);\n"
    "}\n"
    "\n"
    "int __wrap_putc(int iron__c, FILE *iron__f)\n"
    "{\n"
    "    int iron__fd = iron__fd_of(iron__f);\n"
    "    return iron__fd ? iron__putch(iron__fd, iron__c)\n"
    "                    : __real_putc(iron__c, iron__f);\n"
    "}\n"
    "\n"
    "size_t __wrap_fwrite(const void *iron__p, size_t iron__size,\n"
    "                     size_t iron__n, FILE *iron__f)\n"
    "{\n"
    "    int iron__fd = iron__fd_of(iron__f);\n"
    "    /* An overflowing size * n is the real function's error. */\n"
    "    if (!iron__fd || (iron__size && iron__n > SIZE_MAX / iron__size))\n"
    "        return __real_fwrite(iron__p, iron__size, iron__n, iron__f);\n"
    "    if (iron__size && iron__n)\n"
    "        iron__put(iron__fd, (const char *)iron__p,\n"
    "                  iron__size * iron__n);\n"
    "    return iron__size ? iron__n : 0;\n"
    "}\n"
    "\n"
    "ptrdiff_t __wrap_write(int iron__fd, const void *iron__p,\n"
    "                       size_t iron__n)\n"
    "{\n"
    "    if (!iron__rt || (iron__fd != 1 && iron__fd != 2) ||\n"
    "        iron__n > (size_t)PTRDIFF_MAX)\n"
    "        return __real_write(iron__fd, iron__p, iron__n);\n"
    "    iron__put(iron__fd, (const char *)iron__p, iron__n);\n"
    "    return (ptrdiff_t)iron__n;\n"
    "}\n"
    "\n"
    "/* --- ending the process ends the kernel's call instead ------------ */\n"
    "\n"
    "/* In the emulator the host ends the call and does not return; outside\n"
    " * it, it returns and the real function does what the kernel asked. */\n"
    "static void iron__stop(const char *iron__fn, int iron__code)\n"
    "{\n"
    "    if (!iron__rt)\n"
    "        return;\n"
    "    char iron__what[48];\n"
    "    __builtin_snprintf(iron__what, sizeof iron__what, \"%s(%d)\",\n"
    "                       iron__fn, iron__code);\n"
    "    iron__rt->iron__stop(iron__what);\n"
    "}\n"
    "\n"
    "void __wrap_exit(int iron__code)\n"
    "{\n"
    "    iron__stop(\"exit\", iron__code);\n"
    "    __real_exit(iron__code);\n"
    "}\n"
    "\n"
    "void __wrap__exit(int iron__code)\n"
    "{\n"
    "    iron__stop(\"_exit\", iron__code);\n"
    "    __real__exit(iron__code);\n"
    "}\n"
    "\n"
    "void __wrap__Exit(int iron__code)\n"
    "{\n"
    "    iron__stop(\"_Exit\", iron__code);\n"
    "    __real__Exit(iron__code);\n"
    "}\n"
    "\n"
    "void __wrap_quick_exit(int iron__code)\n"
    "{\n"
    "    iron__stop(\"quick_exit\", iron__code);\n"
    "    __real_quick_exit(iron__code);\n"
    "}\n"
    "\n"
    "void __wrap_abort(void)\n"
    "{\n"
    "    if (iron__rt)\n"
    "        iron__rt->iron__stop(\"abort()\");\n"
    "    __real_abort();\n"
    "}\n"
    "\n"
    "void __wrap___assert_fail(const char *iron__e, const char *iron__file,\n"
    "                          unsigned int iron__line, const char *iron__fn)\n"
    "{\n"
    "    if (iron__rt)\n"
    "        iron__rt->iron__assert_fail(iron__e, iron__file, iron__line,\n"
    "                                    iron__fn);\n"
    "    __real___assert_fail(iron__e, iron__file, iron__line, iron__fn);\n"
    "}\n"
    "\n"
    "/* --- signal handlers belong to the host --------------------------- */\n"
    "\n"
    "iron__sighandler __wrap_signal(int iron__sig, iron__sighandler iron__h)\n"
    "{\n"
    "    if (iron__rt)\n"
    "        iron__rt->iron__signal(iron__sig);\n"
    "    return __real_signal(iron__sig, iron__h);\n"
    "}\n"
    "\n"
    "/* What glibc names signal() under a strict -std=c11. */\n"
    "iron__sighandler __wrap___sysv_signal(int iron__sig,\n"
    "                                      iron__sighandler iron__h)\n"
    "{\n"
    "    if (iron__rt)\n"
    "        iron__rt->iron__signal(iron__sig);\n"
    "    return __real___sysv_signal(iron__sig, iron__h);\n"
    "}\n"
    "\n"
    "/* Without a new action it only reads the current one. */\n"
    "int __wrap_sigaction(int iron__sig, const struct sigaction *iron__act,\n"
    "                     struct sigaction *iron__old)\n"
    "{\n"
    "    if (iron__rt && iron__act)\n"
    "        iron__rt->iron__signal(iron__sig);\n"
    "    return __real_sigaction(iron__sig, iron__act, iron__old);\n"
    "}\n";

static int is_float(iron_dtype dt)
{
    return dt == IRON_FLOAT32 || dt == IRON_FLOAT64 || dt == IRON_BFLOAT16;
}

/* "void (*)(const int32_t *, int32_t *, int32_t)": the pointer arguments
 * whose bit is set in const_mask (counting pointers only) get const. */
static void append_fn_ptr_type(iron__str *s, const iron__kernel_src *k,
                               unsigned const_mask)
{
    iron__str_append(s, "void (*)(");
    if (k->nargs == 0)
        iron__str_append(s, "void");
    int ptr = 0;
    for (int i = 0; i < k->nargs; i++) {
        const iron__ktype *t = &k->args[i];
        int is_const = t->is_ptr && ((const_mask >> ptr) & 1u);
        char tb[24];
        iron__str_printf(s, "%s%s%s%s", i ? ", " : "",
                         is_const ? "const " : "", arg_ctype(t, i, tb),
                         t->is_ptr ? " *" : "");
        ptr += t->is_ptr != 0;
    }
    iron__str_append(s, ")");
}

/* "void vadd(int32_t *, int32_t)": the declared signature in C. */
static void append_signature(const iron__kernel_src *k, iron__str *out)
{
    iron__str_printf(out, "void %s(", k->entry);
    if (k->nargs == 0)
        iron__str_append(out, "void");
    for (int i = 0; i < k->nargs; i++) {
        char tb[24];
        iron__str_printf(out, "%s%s%s", i ? ", " : "",
                         arg_ctype(&k->args[i], i, tb),
                         k->args[i].is_ptr ? " *" : "");
    }
    iron__str_append(out, ")");
}

/* The declared types as the user wrote them: "int32*, int32*, int32". */
static void append_decl(iron__str *s, const iron__kernel_src *k)
{
    for (int i = 0; i < k->nargs; i++) {
        const iron__ktype *t = &k->args[i];
        const char *name = t->handle == IRON__KH_FIFO      ? "fifo"
                           : t->handle == IRON__KH_BARRIER ? "barrier"
                           : t->handle == IRON__KH_KERNEL  ? "kernel(...)"
                                                           : iron_dtype_name(t->dtype);
        iron__str_printf(s, "%s%s%s", i ? ", " : "", name ? name : "?",
                         t->is_ptr && !t->handle ? "*" : "");
    }
}

static iron_status append_defines(const iron__kernel_src *k, iron__str *s)
{
    if (k->ndefines > 0)
        iron__str_printf(s, "#line 1 \"%s-defines\"\n", k->entry);
    for (int i = 0; i < k->ndefines; i++) {
        const char *name = k->define_names[i];
        const char *value = k->define_values && k->define_values[i]
                                ? k->define_values[i]
                                : "";
        if (!iron__kis_ident(name))
            return iron__fail(IRON_EINVAL,
                              "define %d: name '%.100s' is not a C "
                              "identifier", i + 1, name ? name : "(null)");
        /* A line break, or a backslash continuing the line, would let the
         * value swallow the lines that follow it. */
        size_t len = strlen(value);
        if (strpbrk(value, "\r\n") || (len && value[len - 1] == '\\'))
            return iron__fail(IRON_EINVAL,
                              "define %d ('%s'): the value must be one line "
                              "without a trailing backslash", i + 1, name);
        /* #undef first: a later define of the same name wins silently,
         * as a later -D on a command line does. */
        iron__str_printf(s, "#undef %s\n#define %s %s\n", name, name, value);
    }
    return IRON_OK;
}

/*
 * The signature check.  With few pointer arguments it is a _Generic over
 * every const-qualification of the declared pointers, so that the source
 * may say `const int32_t *a` for an input; the failure message names the
 * declared C signature.  With many, a plain prototype (exact match, the
 * compiler's own "conflicting types" message).
 */
static void append_check(const iron__kernel_src *k, iron__str *s)
{
    int nptr = 0;
    for (int i = 0; i < k->nargs; i++)
        nptr += k->args[i].is_ptr != 0;

    if (nptr > IRON__KWRAP_CONST_MAX) {
        append_signature(k, s);
        iron__str_append(s, ";\n");
        return;
    }
    iron__str_printf(s, "enum { iron__signature_matches = _Generic(&%s",
                     k->entry);
    for (unsigned mask = 0; mask < (1u << nptr); mask++) {
        iron__str_append(s, ", ");
        append_fn_ptr_type(s, k, mask);
        iron__str_append(s, ": 1");
    }
    iron__str_append(s, ", default: 0) };\n");
    /* No quotes in the text: compilers print them escaped. */
    iron__str_printf(s, "_Static_assert(iron__signature_matches, "
                        "\"conflicting types for %s: the declared argument "
                        "types (", k->entry);
    append_decl(s, k);
    iron__str_append(s, ") mean ");
    append_signature(k, s);
    iron__str_append(s, ", and the source defines it otherwise (only "
                        "pointed-to types may differ, by const)\");\n");
}

static void append_wrapper(const iron__kernel_src *k, iron__str *s)
{
    int need_bf16 = 0;
    for (int i = 0; i < k->nargs; i++)
        need_bf16 |= !k->args[i].is_ptr && k->args[i].dtype == IRON_BFLOAT16;

    /* Same layout as iron__kval in compile.h.  Every name in this text
     * starts with iron__ so that no define or macro of the user's (a
     * parameter called p or f, say) can rewrite it. */
    iron__str_append(s, "typedef union iron__kval { void *iron__p; "
                        "int64_t iron__i; double iron__f; "
                        "void (*iron__fp)(void); } iron__kval;\n");
    if (need_bf16)
        iron__str_append(s, bf16_helper);
    /* Default visibility even under -fvisibility=hidden in the cflags; the
     * prototype keeps -Wmissing-prototypes quiet. */
    iron__str_append(s, "#if defined(__GNUC__)\n"
                        "__attribute__((visibility(\"default\")))\n"
                        "#endif\n"
                        "void " IRON__KWRAP_SYMBOL
                        "(const iron__kval *iron__a);\n"
                        "void " IRON__KWRAP_SYMBOL
                        "(const iron__kval *iron__a)\n{\n");
    if (k->nargs == 0)
        iron__str_append(s, "    (void)iron__a;\n");
    iron__str_printf(s, "    %s(", k->entry);
    for (int i = 0; i < k->nargs; i++) {
        const iron__ktype *t = &k->args[i];
        char tb[24];
        const char *ct = arg_ctype(t, i, tb);
        if (i)
            iron__str_append(s, ",");
        iron__str_append(s, "\n        ");
        if (t->handle == IRON__KH_KERNEL)
            iron__str_printf(s, "(%s)iron__a[%d].iron__fp", ct, i);
        else if (t->is_ptr)
            iron__str_printf(s, "(%s *)iron__a[%d].iron__p", ct, i);
        else if (t->dtype == IRON_BFLOAT16)
            iron__str_printf(s, "iron__to_bf16(iron__a[%d].iron__f)", i);
        else if (is_float(t->dtype))
            iron__str_printf(s, "(%s)iron__a[%d].iron__f", ct, i);
        else
            iron__str_printf(s, "(%s)iron__a[%d].iron__i", ct, i);
    }
    iron__str_append(s, ");\n}\n");
    if (k->is_core)
        return;
    /* The raw entry, for core bodies that call this kernel: a constant
     * function pointer (ISO C, unlike converting dlsym's object pointer),
     * converted to the declared signature. */
    iron__str_append(s, "#if defined(__GNUC__)\n"
                        "__attribute__((visibility(\"default\")))\n"
                        "#endif\n"
                        "extern void (*const iron__kentry)(void);\n"
                        "void (*const iron__kentry)(void) = "
                        "(void (*)(void))");
    iron__str_printf(s, "%s;\n", k->entry);
}

iron_status iron__kwrap_generate(const iron__kernel_src *k, iron__str *text)
{
    /* Kernels deal in fixed-width types; <stdint.h> comes first, before
     * the defines, so a source that forgets it still compiles. */
    iron__str_append(text, "#include <stdint.h>\n");
    iron_status st = append_defines(k, text);
    if (st != IRON_OK)
        return st;
    if (k->is_core) {
        iron__str_printf(text, "#line 1 \"%s-core-api\"\n", k->entry);
        iron__str_append(text, core_prelude);
    }

    append_kernel_types(k, text);
    iron__str_printf(text, "#line 1 \"%s.c\"\n", k->entry);
    iron__str_append(text, k->source);
    size_t n = strlen(k->source);
    if (n == 0 || k->source[n - 1] != '\n')
        iron__str_append(text, "\n");

    iron__str_printf(text, "#line 1 \"%s-declared-signature\"\n", k->entry);
    append_check(k, text);
    append_wrapper(k, text);

    iron__str_printf(text, "#line 1 \"%s-runtime-shim\"\n", k->entry);
    iron__str_append(text, runtime_shim);

    if (text->oom)
        return iron__fail(IRON_ENOMEM,
                          "out of memory generating the kernel's C text");
    return IRON_OK;
}
