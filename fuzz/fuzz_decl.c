/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * fuzz_decl.c - libFuzzer target for a jit's declaration strings and the
 * parameter values checked against them.
 *
 * Input: lines separated by '\n'.
 *   line 0: iron_jit_options.args    (an empty input: args NULL)
 *   line 1: iron_jit_options.params
 *   line 2: iron_jit_options.scalars
 *   then any number of command lines, by their first character:
 *     b<value>  a value for iron_jit_bind (all b lines in one call)
 *     p<value>  a compile-time value for the call
 *     s<name>=<integer>   a dispatch-time scalar for the call
 *     t<dtype byte><ndim byte><dim bytes...>   a tensor for the call
 *   where <value> is <type><name>=<text>: type i (int), f (float), b (bool),
 *   s (str; no '=' gives NULL), d (dtype number), k (kernel
 *   "entry;source;types", missing parts NULL; no '=' gives a NULL kernel)
 *   or n (an int with a NULL name).
 * iron_jit_create parses the three strings; if it succeeds the b values
 * are bound and, when there are tensors, iron_jit_launch is called with the p
 * values, scalars and tensors.  Its design function reads the given
 * parameters back (any type, as a design might) and then refuses, so no
 * kernel is ever compiled: the call must fail.
 * Properties: no crash, no undefined behaviour, no leak, and every failure
 * leaves a non-empty iron_last_error().
 *
 * FUZZ_DECL_VERBOSE=1 prints each step's outcome (to see what a seed
 * reaches).
 *
 * Run: make fuzz-decl (or build-fuzz/fuzz_decl -dict=fuzz/fuzz_decl.dict).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "iron/iron.h"

#define MAX_ITEMS 16

static int verbose;   /* FUZZ_DECL_VERBOSE=1: print each outcome */

typedef struct decl_input {
    iron_param bind[MAX_ITEMS], call[MAX_ITEMS];
    iron_kernel_ref kref[2 * MAX_ITEMS];
    int nbind, ncall, nkref;
    iron_scalar scalars[MAX_ITEMS];
    int nscalars;
    iron_tensor *tensors[MAX_ITEMS];
    int ntensors;
} decl_input;

/* Splits s at the first c: returns the rest (or NULL), s ends before it. */
static char *cut(char *s, char c)
{
    char *p = strchr(s, c);
    if (!p)
        return NULL;
    *p = '\0';
    return p + 1;
}

/* "<type><name>=<text>" into p (pointing into line, which stays alive). */
static void parse_value(decl_input *in, char *line, iron_param *p)
{
    char type = line[0] ? line[0] : 'i';
    char *name = line[0] ? line + 1 : line;
    char *text = cut(name, '=');
    memset(p, 0, sizeof *p);
    p->name = name;
    switch (type) {
    case 'f':
        p->type = IRON_PARAM_FLOAT;
        p->f = text ? strtod(text, NULL) : 0.0;
        break;
    case 'b':
        p->type = IRON_PARAM_BOOL;
        p->i = text ? strtoll(text, NULL, 0) : 0;
        break;
    case 's':
        p->type = IRON_PARAM_STR;
        p->s = text;
        break;
    case 'd':
        p->type = IRON_PARAM_DTYPE;
        p->dtype = (iron_dtype)(text ? strtol(text, NULL, 0) : 0);
        break;
    case 'k':
        p->type = IRON_PARAM_KERNEL;
        if (text) {
            iron_kernel_ref *k = &in->kref[in->nkref++];
            k->entry = text;
            char *src = cut(text, ';');
            char *types = src ? cut(src, ';') : NULL;
            k->source = src;
            k->arg_types = types;
            p->kernel = k;
        }
        break;
    case 'n':
        p->type = IRON_PARAM_INT;
        p->name = NULL;
        p->i = text ? strtoll(text, NULL, 0) : 0;
        break;
    case 'x':
        /* a type value outside the enum */
        p->type = (iron_param_type)(text ? strtol(text, NULL, 0) : 99);
        break;
    default:
        p->type = IRON_PARAM_INT;
        p->i = text ? strtoll(text, NULL, 0) : 0;
        break;
    }
}

static void make_tensor(decl_input *in, const uint8_t *b, size_t n)
{
    fuzz_in f = { b, n };
    uint8_t dt = fuzz_u8(&f), nd = fuzz_u8(&f);
    iron_shape shape;
    memset(&shape, 0, sizeof shape);
    /* Mostly valid; sometimes a bad dtype, ndim or dim. */
    shape.ndim = nd >= 0xf0 ? (int)(nd & 0xf) - 2 : 1 + nd % 4;
    for (int k = 0; k < IRON_MAX_DIMS; k++) {
        uint8_t v = fuzz_u8(&f);
        shape.dims[k] = v >= 0xf8 ? (int64_t)(v & 7) - 4 : 1 + v % 8;
    }
    iron_dtype dtype = (iron_dtype)(dt >= 0xf0 ? (int)(dt & 0xf)
                                               : dt % IRON_DTYPE_COUNT_);
    iron_tensor *t = NULL;
    iron_status st = iron_tensor_zeros(dtype, shape, &t);
    FUZZ_FAILED_WITH_MESSAGE(st, "iron_tensor_zeros");
    FUZZ_CHECK((st == IRON_OK) == (t != NULL),
               "iron_tensor_zeros returned %s with tensor %p",
               iron_status_name(st), (void *)t);
    if (t)
        in->tensors[in->ntensors++] = t;
}

/* The design function: reads back every parameter the call names, as its
 * own type and as another, looks at the arguments, and refuses. */
static int refusing_design(iron_design *d, void *user)
{
    const decl_input *in = user;
    int n = iron_design_nargs(d);
    for (int a = 0; a < n; a++) {
        (void)iron_design_arg_dtype(d, a);
        (void)iron_design_arg_shape(d, a);
        (void)iron_design_arg_numel(d, a);
    }
    for (int k = 0; k < in->ncall; k++) {
        const char *name = in->call[k].name;
        if (!name)
            continue;
        switch (in->call[k].type) {
        case IRON_PARAM_FLOAT:
            (void)iron_design_param_float(d, name);
            break;
        case IRON_PARAM_BOOL:
            (void)iron_design_param_bool(d, name);
            break;
        case IRON_PARAM_STR:
            (void)iron_design_param_str(d, name);
            break;
        case IRON_PARAM_DTYPE:
            (void)iron_design_param_dtype(d, name);
            break;
        case IRON_PARAM_KERNEL:
            (void)iron_design_param_kernel(d, name);
            break;
        default:
            (void)iron_design_param_int(d, name);
            break;
        }
        (void)iron_design_param_str(d, name);
    }
    (void)iron_design_scalar_index(d, "n");
    /* out-of-range arguments last: their errors are sticky */
    (void)iron_design_arg_shape(d, n);
    (void)iron_design_arg_numel(d, -1);
    return iron_design_fail(d, IRON_EDESIGN, "fuzz_decl: design refuses");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* Nothing is compiled, so nothing touches the disk cache. */
    setenv("IRON_CACHE", "0", 1);
    const char *v = getenv("FUZZ_DECL_VERBOSE");
    verbose = v && *v && strcmp(v, "0") != 0;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    /* The lines, as pointers into text (NUL bytes end a line early: the
     * library sees C strings). */
    char *lines[3 + 3 * MAX_ITEMS];
    size_t lens[3 + 3 * MAX_ITEMS];
    int nlines = 0;
    size_t start = 0;
    for (size_t i = 0; i <= size && nlines < 3 + 3 * MAX_ITEMS; i++)
        if (i == size || text[i] == '\n') {
            text[i] = '\0';
            lines[nlines] = text + start;
            lens[nlines++] = i - start;
            start = i + 1;
        }

    decl_input *in = calloc(1, sizeof *in);
    if (!in) {
        free(text);
        return 0;
    }
    iron_jit_options o;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    o.name = "fuzz_decl";
    o.args = size ? lines[0] : NULL;
    o.params = nlines > 1 ? lines[1] : NULL;
    o.scalars = nlines > 2 ? lines[2] : NULL;
    o.user = in;
    o.disk_cache = -1;

    for (int l = 3; l < nlines; l++) {
        char *s = lines[l];
        switch (s[0]) {
        case 'b':
            if (in->nbind < MAX_ITEMS)
                parse_value(in, s + 1, &in->bind[in->nbind++]);
            break;
        case 'p':
            if (in->ncall < MAX_ITEMS)
                parse_value(in, s + 1, &in->call[in->ncall++]);
            break;
        case 's':
            if (in->nscalars < MAX_ITEMS) {
                char *v = cut(s + 1, '=');
                in->scalars[in->nscalars].name = s + 1;
                in->scalars[in->nscalars++].value =
                    v ? strtoll(v, NULL, 0) : 0;
            }
            break;
        case 't':
            if (in->ntensors < MAX_ITEMS)
                make_tensor(in, (const uint8_t *)s + 1, lens[l] - 1);
            break;
        default:
            break;
        }
    }

    iron_jit *j = (iron_jit *)(uintptr_t)1;
    iron_status st = iron_jit_create(refusing_design, &o, &j);
    FUZZ_FAILED_WITH_MESSAGE(st, "iron_jit_create");
    if (verbose)
        fprintf(stderr, "fuzz_decl: create: %s\n",
                st == IRON_OK ? "ok" : iron_last_error());
    FUZZ_CHECK((st == IRON_OK) == (j != NULL),
               "iron_jit_create returned %s with jit %p",
               iron_status_name(st), (void *)j);
    if (st == IRON_OK) {
        if (in->nbind > 0) {
            st = iron_jit_bind(j, in->nbind, in->bind);
            FUZZ_FAILED_WITH_MESSAGE(st, "iron_jit_bind");
            if (verbose)
                fprintf(stderr, "fuzz_decl: bind: %s\n",
                        st == IRON_OK ? "ok" : iron_last_error());
        }
        if (in->ntensors > 0) {
            st = iron_jit_launch(j, NULL, in->ncall, in->call, in->nscalars,
                                 in->scalars, in->ntensors, in->tensors);
            FUZZ_CHECK(st != IRON_OK, "iron_jit_launch succeeded although the "
                                      "design refuses");
            FUZZ_FAILED_WITH_MESSAGE(st, "iron_jit_launch");
            if (verbose)
                fprintf(stderr, "fuzz_decl: run: %s\n", iron_last_error());
        }
        iron_jit_free(j);
    }
    for (int t = 0; t < in->ntensors; t++)
        iron_tensor_free(in->tensors[t]);
    free(in);
    free(text);
    return 0;
}
