/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * wrapper.c - generates the C (or C++) text around a kernel's source:
 * defines in front, the signature check and the uniform entry wrapper
 * behind.
 */
#include <stdio.h>
#include <string.h>

#include "compile/shim.h"
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

/* "(int32_t *, int32_t)": the declared parameters in C, each named
 * <prefix><i> when a prefix is given. */
static void append_params(const iron__kernel_src *k, const char *prefix,
                          iron__str *out)
{
    iron__str_append(out, "(");
    if (k->nargs == 0)
        iron__str_append(out, "void");
    for (int i = 0; i < k->nargs; i++) {
        char tb[24];
        iron__str_printf(out, "%s%s%s", i ? ", " : "",
                         arg_ctype(&k->args[i], i, tb),
                         k->args[i].is_ptr ? " *" : "");
        if (prefix)
            iron__str_printf(out, " %s%d", prefix, i);
    }
    iron__str_append(out, ")");
}

/* "void vadd(int32_t *, int32_t)": the declared signature in C. */
static void append_signature(const iron__kernel_src *k, iron__str *out)
{
    iron__str_printf(out, "void %s", k->entry);
    append_params(k, NULL, out);
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
    iron__ktypes_format(k->args, k->nargs, s);
    iron__str_append(s, ") mean ");
    append_signature(k, s);
    iron__str_append(s, ", and the source defines it otherwise (only "
                        "pointed-to types may differ, by const)\");\n");
}

/*
 * The C++ form of the check.  A C++ entry may share its name with
 * templates or overloads (upstream's rms_norm.cc has a template
 * rms_norm<T, N> beside the extern "C" rms_norm), so its address cannot
 * be taken by name; the check asks instead whether the entry can be
 * called with arguments that convert only to the declared types: first
 * with the right number of anything, then argument by argument.  A
 * pointer argument may add const to the pointed-to type, and a bfloat16
 * may also be the AIE API's `bfloat16` class (any two-byte class: a
 * kernel that defines its own is as welcome), handed over by its bits.
 * The templates are the wrapper's own (no standard header needed).
 */
static const char cxx_check_templates[] =
    "template <class iron__A, class iron__B>\n"
    "struct iron__same { static constexpr bool iron__v = false; };\n"
    "template <class iron__A>\n"
    "struct iron__same<iron__A, iron__A> "
    "{ static constexpr bool iron__v = true; };\n"
    "template <class iron__T> struct iron__unconst { typedef iron__T "
    "iron__t; };\n"
    "template <class iron__T> struct iron__unconst<const iron__T> "
    "{ typedef iron__T iron__t; };\n"
    "template <class iron__T, bool iron__C = __is_class(iron__T)>\n"
    "struct iron__bf16_like { static constexpr bool iron__v = false; };\n"
    "template <class iron__T> struct iron__bf16_like<iron__T, true> "
    "{ static constexpr bool iron__v = sizeof(iron__T) == 2; };\n"
    /* the type a scalar parameter or a pointer's target may have */
    "template <class iron__T, class iron__E, bool iron__BF>\n"
    "struct iron__fits { static constexpr bool iron__v =\n"
    "    iron__same<typename iron__unconst<iron__T>::iron__t, "
    "iron__E>::iron__v ||\n"
    "    (iron__BF && iron__bf16_like<typename iron__unconst<iron__T>::"
    "iron__t>::iron__v); };\n"
    /* arguments converting to what fits, and (unevaluated) to anything */
    "template <class iron__E, bool iron__BF> struct iron__ptr_arg {\n"
    "    void *iron__p;\n"
    "    template <class iron__T>\n"
    "    requires iron__fits<iron__T, iron__E, iron__BF>::iron__v\n"
    "    operator iron__T *() const "
    "{ return static_cast<iron__T *>(iron__p); }\n"
    "};\n"
    "template <class iron__E, bool iron__BF> struct iron__val_arg {\n"
    "    iron__E iron__x;\n"
    "    template <class iron__T>\n"
    "    requires iron__fits<iron__T, iron__E, iron__BF>::iron__v\n"
    "    operator iron__T() const { iron__T iron__t; "
    "__builtin_memcpy(&iron__t, &iron__x, sizeof iron__t); "
    "return iron__t; }\n"
    "};\n"
    "struct iron__any { template <class iron__T> operator iron__T() "
    "const; };\n";

/* "iron__ptr_arg<int32_t, false>": what stands for argument t. */
static void append_probe(const iron__ktype *t, int i, iron__str *s)
{
    char tb[24];
    iron__str_printf(s, "iron__%s_arg<%s, %s>", t->is_ptr ? "ptr" : "val",
                     arg_ctype(t, i, tb),
                     t->dtype == IRON_BFLOAT16 ? "true" : "false");
}

/* iron__calls<iron__any, PROBE, iron__any>: `probe` is the argument
 * checked (-1: none). */
static void append_calls(const iron__kernel_src *k, int probe, iron__str *s)
{
    iron__str_append(s, "iron__calls<");
    for (int i = 0; i < k->nargs; i++) {
        if (i)
            iron__str_append(s, ", ");
        if (i == probe)
            append_probe(&k->args[i], i, s);
        else
            iron__str_append(s, "iron__any");
    }
    iron__str_append(s, ">");
}

static void append_check_cxx(const iron__kernel_src *k, iron__str *s)
{
    iron__str_append(s, cxx_check_templates);
    iron__str_printf(s, "template <class... iron__P>\n"
                        "constexpr bool iron__calls = requires(iron__P... "
                        "iron__a) { %s(iron__a...); };\n", k->entry);
    iron__str_append(s, "static_assert(");
    append_calls(k, -1, s);
    iron__str_printf(s, ",\n    \"conflicting types for %s: the declared "
                        "argument types (", k->entry);
    iron__ktypes_format(k->args, k->nargs, s);
    iron__str_printf(s, "), %d in all, and the source's entry takes "
                        "another number of arguments\");\n", k->nargs);
    for (int i = 0; i < k->nargs; i++) {
        const iron__ktype *t = &k->args[i];
        char tb[24];
        iron__str_append(s, "static_assert(!");
        append_calls(k, -1, s);
        iron__str_append(s, " || ");
        append_calls(k, i, s);
        iron__str_printf(s, ",\n    \"conflicting types for %s: argument "
                            "%d is declared ", k->entry, i + 1);
        iron__ktypes_format(t, 1, s);
        iron__str_printf(s, " (%s%s%s), and the source's parameter has "
                            "another type\");\n",
                         t->dtype == IRON_BFLOAT16 ? "bfloat16 or " : "",
                         arg_ctype(t, i, tb),
                         t->is_ptr ? " *, const allowed" : "");
    }
}

/* C++: the entry called from a function with the declared C types, which
 * the uniform wrapper and core bodies (through iron__kentry) call. */
static void append_typed_cxx(const iron__kernel_src *k, iron__str *s)
{
    iron__str_append(s, "static void iron__typed");
    append_params(k, "iron__p", s);
    iron__str_printf(s, "\n{\n    %s(", k->entry);
    for (int i = 0; i < k->nargs; i++) {
        iron__str_append(s, i ? ", " : "");
        append_probe(&k->args[i], i, s);
        iron__str_printf(s, "{iron__p%d}", i);
    }
    iron__str_append(s, ");\n}\n");
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
    iron__str_printf(s, "    %s(", k->is_cxx ? "iron__typed" : k->entry);
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
    iron__str_printf(s, "%s;\n", k->is_cxx ? "iron__typed" : k->entry);
}

iron_status iron__kwrap_generate(const iron__kernel_src *k, int with_shim,
                                 iron__str *text)
{
    /* Kernels deal in fixed-width types; <stdint.h> comes first, before
     * the defines, so a source that forgets it still compiles. */
    iron__str_append(text, "#include <stdint.h>\n");
    /* What the AIE compilers give every C++ kernel without an include
     * (event0(), the chess_* hints, restrict): upstream's scalar kernels
     * use them without including <aie_api/aie.hpp>.  Only this part of
     * the AIE API, so that they do not meet its global names. */
    if (k->is_cxx)
        iron__str_append(text, "#include <aie_api/detail/env.hpp>\n");
    iron_status st = append_defines(k, text);
    if (st != IRON_OK)
        return st;
    if (k->is_core) {
        iron__str_printf(text, "#line 1 \"%s-core-api\"\n", k->entry);
        iron__str_append(text, core_prelude);
    }

    append_kernel_types(k, text);
    if (k->source_name) {
        /* A string literal: backslashes and quotes escaped, and no line
         * break (a path may hold any byte but NUL). */
        iron__str_append(text, "#line 1 \"");
        for (const char *c = k->source_name; *c; c++)
            if (*c == '\\' || *c == '"')
                iron__str_printf(text, "\\%c", *c);
            else if (*c == '\n' || *c == '\r')
                iron__str_append(text, "?");
            else
                iron__str_printf(text, "%c", *c);
        iron__str_append(text, "\"\n");
    } else {
        iron__str_printf(text, "#line 1 \"%s.%s\"\n", k->entry,
                         k->is_cxx ? "cc" : "c");
    }
    iron__str_append(text, k->source);
    size_t n = strlen(k->source);
    if (n == 0 || k->source[n - 1] != '\n')
        iron__str_append(text, "\n");

    iron__str_printf(text, "#line 1 \"%s-declared-signature\"\n", k->entry);
    /* C++: the same text with C names (extern "C"), so that the loader
     * finds the wrapper and the shim's functions by their plain names;
     * the entry itself may have either linkage. */
    if (k->is_cxx) {
        append_check_cxx(k, text);
        append_typed_cxx(k, text);
        iron__str_append(text, "extern \"C\" {\n");
    } else {
        append_check(k, text);
    }
    append_wrapper(k, text);

    if (with_shim) {
        size_t shim_len;
        const char *shim = iron__shim_text(&shim_len);
        iron__str_printf(text, "#line 1 \"%s-runtime-shim\"\n", k->entry);
        iron__str_append(text, shim);
    }
    if (k->is_cxx)
        iron__str_append(text, "}\n");

    if (text->oom)
        return iron__fail(IRON_ENOMEM,
                          "out of memory generating the kernel's %s text",
                          k->is_cxx ? "C++" : "C");
    return IRON_OK;
}
