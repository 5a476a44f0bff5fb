/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * run.c - `iron run`: runs a design from a shared library once (and
 * --repeat more times, warm) on inputs read from .npy files or made from
 * a seed, writes its outputs to .npy files and compares them with
 * reference files.  Each argument's type comes from, in order: --args,
 * its input file, --shape, the design's declaration (its type and size
 * variables bound by the arguments already known).  `iron run-mlir`
 * (run_mlir.c) runs its imported module through the same code
 * (cli_run_jit).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "iron/iron.h"

/* "int32[16, 4]" into buf (len > 0): the tensor's type, for messages. */
static char *type_of(const iron_tensor *t, char *buf, size_t len)
{
    char *text;
    if (iron_tensor_describe(t, &text) != IRON_OK) {
        snprintf(buf, len, "(no tensor)");
        return buf;
    }
    snprintf(buf, len, "%s", text);
    iron_free(text);
    return buf;
}

static const char run_usage[] =
    "usage: iron run LIB.so NAME [INPUT.npy ...] [options]\n"
    "  runs the design NAME_design of LIB.so once, then --repeat N more\n"
    "  times (warm), and prints the times: the first call includes the\n"
    "  build (design, placement, kernel compilation or the disk cache).\n"
    "  inputs    --in NAME=FILE.npy, or INPUT.npy files in argument order\n"
    "            (in and inout arguments); the others get seeded random\n"
    "            data: integers in a small range of their dtype, floats in\n"
    "            [0, 1)  (--seed N, default 1)\n"
    "  types     --args TYPES as for iron dump, else the input files, else\n"
    "            --shape NAME=DIMS (an argument: 64x64; a size variable of\n"
    "            the declaration: N=4096), else the design's declaration\n"
    "  outputs   --out NAME=FILE.npy, or -o DIR for DIR/NAME.npy of every\n"
    "            out and inout argument (DIR is created if missing)\n"
    "  compare   --ref NAME=FILE.npy: |out - ref| <= --atol A + --rtol R x\n"
    "            |ref| for each element (numpy's allclose, NaN equal to\n"
    "            NaN); defaults: 0 for integers (equal), 1e-8 and 1e-5 for\n"
    "            floats, 1e-2 each for bfloat16.  The reference may be a\n"
    "            float type other than the output's (bfloat16 against\n"
    "            float32) and may broadcast (one value for all); the first\n"
    "            mismatches are printed\n"
    "  timing    --timing: model the NPU's time too and print it: the\n"
    "            modelled cycles and seconds, what bounds the design, and\n"
    "            busy, stalled (on an input / an output) and idle shares\n"
    "            per worker and DMA channel (docs/timing.md); --clock MHZ\n"
    "            sets the clock (default: npu1 1000, npu2 1800)\n"
    "  also      --params P, --device D, --cols N (as for iron dump)\n"
    "  exit status: 0 ran (and matched), 1 failed or mismatched, 2 usage\n"
    "  example: iron run build/libiron-examples.so vector_op \\\n"
    "               --shape N=4096 --seed 3 -o /tmp/out\n";

enum { ROLE_IN, ROLE_OUT, ROLE_INOUT };

/* One argument of the design's declaration "in a: T[N, 4]". */
typedef struct decl {
    int role;
    char name[64];
    char dtype[64];           /* "" when the declaration gives no type */
    int ndims;                /* -1: no dims given */
    char dims[IRON_MAX_DIMS][64];
} decl;

typedef struct binding {
    char name[64];
    int64_t value;            /* a size, or an iron_dtype */
    int is_dtype;
} binding;

typedef struct run_state {
    const char *lib, *name;
    cli_list in, out, ref, shapes, files;
    const char *args, *params, *device, *cols, *seed, *repeat, *outdir;
    const char *rtol, *atol;
    int timing;
    const char *clock;
    int ndecl;
    decl d[CLI_MAX_ITEMS];
    iron_tensor *t[CLI_MAX_ITEMS];
    const char *from[CLI_MAX_ITEMS];   /* where each tensor came from */
    const char *save_to[CLI_MAX_ITEMS];
    int nb;
    binding b[CLI_MAX_ITEMS * (IRON_MAX_DIMS + 1)];
} run_state;

/* The command messages name: "run", or "run-mlir" (cli_run_jit). */
static const char *prog = "run";

/* "iron run: " and a message to stderr. */
static void say(const char *fmt, ...) CLI_PRINTF(1, 2);
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "iron %s: ", prog);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

static int usage_error(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "iron %s: ", prog);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return EXIT_USAGE;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* ---- the declaration ---------------------------------------------------- */

static int parse_decl(run_state *st, const char *text)
{
    char buf[4096], *items[CLI_MAX_ITEMS];
    snprintf(buf, sizeof buf, "%s", text ? text : "");
    int n = text && *text ? cli_split_items(buf, items, CLI_MAX_ITEMS) : 0;
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        decl *d = &st->d[i];
        char *s = items[i], *colon = strchr(s, ':');
        if (colon)
            *colon = '\0';
        char role[16] = "", name[64] = "";
        if (sscanf(s, "%15s %63s", role, name) != 2)
            return -1;
        d->role = strcmp(role, "out") == 0     ? ROLE_OUT
                  : strcmp(role, "inout") == 0 ? ROLE_INOUT
                                               : ROLE_IN;
        snprintf(d->name, sizeof d->name, "%s", name);
        d->ndims = -1;
        if (!colon)
            continue;
        char *type = cli_trim(colon + 1), *open = strchr(type, '[');
        if (open) {
            *open = '\0';
            char *close = strchr(open + 1, ']');
            if (close)
                *close = '\0';
            d->ndims = 0;
            for (char *tok = strtok(open + 1, ","); tok && d->ndims <
                 IRON_MAX_DIMS; tok = strtok(NULL, ","))
                snprintf(d->dims[d->ndims++], 64, "%s", cli_trim(tok));
        }
        snprintf(d->dtype, sizeof d->dtype, "%s", cli_trim(type));
    }
    st->ndecl = n;
    return 0;
}

static int find_arg(const run_state *st, const char *name)
{
    for (int i = 0; i < st->ndecl; i++)
        if (strcmp(st->d[i].name, name) == 0)
            return i;
    return -1;
}

/* "a=x.npy" -> the argument's index and the file; usage error if the
 * name is not an argument (with the closest one). */
static int split_named(const run_state *st, const char *opt, const char *item,
                       int *arg, const char **file)
{
    const char *eq = strchr(item, '=');
    if (!eq || eq == item || !eq[1])
        return usage_error("%s '%s': expected NAME=FILE.npy", opt, item);
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(eq - item), item);
    *arg = find_arg(st, name);
    if (*arg < 0) {
        const char *names[CLI_MAX_ITEMS];
        for (int i = 0; i < st->ndecl; i++)
            names[i] = st->d[i].name;
        say("%s '%s': the design has no argument "
            "'%s'", opt, item, name);
        cli_suggest(stderr, name, names, st->ndecl);
        return EXIT_USAGE;
    }
    *file = eq + 1;
    return 0;
}

static binding *lookup(run_state *st, const char *name, int is_dtype)
{
    for (int k = 0; k < st->nb; k++)
        if (st->b[k].is_dtype == is_dtype && strcmp(st->b[k].name, name) == 0)
            return &st->b[k];
    return NULL;
}

static void bind(run_state *st, const char *name, int is_dtype, int64_t v)
{
    if (lookup(st, name, is_dtype) ||
        st->nb == (int)(sizeof st->b / sizeof st->b[0]))
        return;
    binding *b = &st->b[st->nb++];
    snprintf(b->name, sizeof b->name, "%s", name);
    b->is_dtype = is_dtype;
    b->value = v;
}

static int is_number(const char *s)
{
    char *end;
    strtoll(s, &end, 10);
    return *s && !*end;
}

/* Binds the declaration's variables from tensor t of argument i. */
static void bind_from(run_state *st, int i, const iron_tensor *t)
{
    const decl *d = &st->d[i];
    iron_dtype dt;
    if (d->dtype[0] && iron_dtype_parse(d->dtype, &dt) != IRON_OK)
        bind(st, d->dtype, 1, iron_tensor_dtype(t));
    iron_shape sh = iron_tensor_shape(t);
    for (int k = 0; k < d->ndims && k < sh.ndim; k++)
        if (!is_number(d->dims[k]))
            bind(st, d->dims[k], 0, sh.dims[k]);
}

/* ---- making the tensors ------------------------------------------------ */

/* Random data for an input: integers in a small range of the dtype
 * (sums and products of a few stay in range), floats in [0, 1). */
static iron_status random_tensor(iron_dtype dt, iron_shape sh, uint64_t seed,
                                 iron_tensor **out)
{
    switch (dt) {
    case IRON_FLOAT32:
    case IRON_FLOAT64:
    case IRON_BFLOAT16:
        return iron_tensor_rand(dt, sh, seed, out);
    case IRON_INT8:
        return iron_tensor_randint(dt, sh, -16, 16, seed, out);
    case IRON_UINT8:
        return iron_tensor_randint(dt, sh, 0, 32, seed, out);
    case IRON_INT16:
        return iron_tensor_randint(dt, sh, -256, 256, seed, out);
    case IRON_UINT16:
        return iron_tensor_randint(dt, sh, 0, 512, seed, out);
    case IRON_UINT32:
    case IRON_UINT64:
        return iron_tensor_randint(dt, sh, 0, 1000, seed, out);
    default:
        return iron_tensor_randint(dt, sh, -1000, 1000, seed, out);
    }
}

/* "64x64", "64,64" or "4096". */
static int parse_dims(const char *text, iron_shape *sh)
{
    sh->ndim = 0;
    const char *p = text;
    while (*p) {
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (end == p || errno || v < 1 || sh->ndim == IRON_MAX_DIMS)
            return -1;
        sh->dims[sh->ndim++] = v;
        p = end;
        if (*p == 'x' || *p == ',')
            p++;
        else if (*p)
            return -1;
    }
    return sh->ndim ? 0 : -1;
}

/* The type argument i would have from --shape and the declaration. */
static int derive_type(run_state *st, int i, const char *shape_opt,
                       iron_dtype *dt, iron_shape *sh)
{
    const decl *d = &st->d[i];
    if (!d->dtype[0])
        return -1;
    if (iron_dtype_parse(d->dtype, dt) != IRON_OK) {
        const binding *b = lookup(st, d->dtype, 1);
        if (!b)
            return -1;
        *dt = (iron_dtype)b->value;
    }
    if (shape_opt)
        return parse_dims(shape_opt, sh);
    if (d->ndims < 1)
        return -1;
    sh->ndim = d->ndims;
    for (int k = 0; k < d->ndims; k++) {
        if (is_number(d->dims[k])) {
            sh->dims[k] = strtoll(d->dims[k], NULL, 10);
            continue;
        }
        const binding *b = lookup(st, d->dims[k], 0);
        if (!b)
            return -1;
        sh->dims[k] = b->value;
    }
    return 0;
}

static void type_text(const decl *d, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "%s", d->dtype[0] ? d->dtype : "?");
    for (int k = 0; k < d->ndims && n < len; k++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s%s", k ? ", " : "[",
                              d->dims[k], k + 1 == d->ndims ? "]" : "");
}

/* Fills st->t for every argument; 0, 1 (a failure) or EXIT_USAGE. */
static int make_tensors(run_state *st, uint64_t seed)
{
    const char *infile[CLI_MAX_ITEMS] = { 0 }, *shape[CLI_MAX_ITEMS] = { 0 };
    int rc;
    for (int k = 0; k < st->in.n; k++) {
        int a;
        const char *f;
        if ((rc = split_named(st, "--in", st->in.v[k], &a, &f)) != 0)
            return rc;
        if (st->d[a].role == ROLE_OUT)
            return usage_error("--in '%s': '%s' is an output argument",
                               st->in.v[k], st->d[a].name);
        infile[a] = f;
    }
    /* Positional files: the in and inout arguments without --in, in
     * order. */
    int next = 0;
    for (int k = 0; k < st->files.n; k++) {
        while (next < st->ndecl &&
               (st->d[next].role == ROLE_OUT || infile[next]))
            next++;
        if (next == st->ndecl)
            return usage_error("unexpected argument '%s': every input "
                               "argument already has a file%s",
                               st->files.v[k], "");
        infile[next++] = st->files.v[k];
    }
    for (int k = 0; k < st->shapes.n; k++) {
        const char *s = st->shapes.v[k], *eq = strchr(s, '=');
        iron_shape tmp;
        if (!eq || eq == s || parse_dims(eq + 1, &tmp) != 0)
            return usage_error("--shape '%s': expected NAME=DIMS (64x64) "
                               "or VAR=N%s", s, "");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(eq - s), s);
        int a = find_arg(st, name);
        if (a >= 0)
            shape[a] = eq + 1;
        else if (tmp.ndim == 1)
            bind(st, name, 0, tmp.dims[0]);
        else
            return usage_error("--shape '%s': '%s' is neither an argument "
                               "nor a size variable", s, name);
    }
    if (st->args) {
        char buf[4096];
        int n = 0;
        snprintf(buf, sizeof buf, "%s", st->args);
        if ((rc = cli_make_tensors(prog, buf, st->t, &n)) != 0)
            return rc;
        if (n != st->ndecl) {
            say("--args gives %d tensors; the design "
                "declares %d\n", n, st->ndecl);
            return EXIT_USAGE;
        }
        for (int i = 0; i < n; i++)
            st->from[i] = "--args";
    }
    /* Files first: they bind the declaration's variables. */
    for (int i = 0; i < st->ndecl; i++) {
        if (!infile[i])
            continue;
        iron_tensor *t = NULL;
        if (iron_tensor_load_npy(infile[i], &t) != IRON_OK) {
            say("%s\n", iron_last_error());
            return 1;
        }
        if (st->t[i]) {
            char a[128], b[128];
            type_of(st->t[i], a, sizeof a);
            type_of(t, b, sizeof b);
            if (strcmp(a, b) != 0) {
                say("argument '%s': --args says %s, "
                    "'%s' holds %s\n", st->d[i].name, a,
                    infile[i], b);
                iron_tensor_free(t);
                return 1;
            }
            iron_tensor_free(st->t[i]);
        }
        st->t[i] = t;
        st->from[i] = infile[i];
    }
    for (int i = 0; i < st->ndecl; i++)
        if (st->t[i])
            bind_from(st, i, st->t[i]);
    /* Then the rest, from --shape and the declaration; a pass may bind
     * what a later argument needs, so repeat while progress is made. */
    for (int progress = 1; progress;) {
        progress = 0;
        for (int i = 0; i < st->ndecl; i++) {
            iron_dtype dt;
            iron_shape sh;
            if (st->t[i] || derive_type(st, i, shape[i], &dt, &sh) != 0)
                continue;
            iron_status s =
                st->d[i].role == ROLE_OUT
                    ? iron_tensor_zeros(dt, sh, &st->t[i])
                    : random_tensor(dt, sh, seed + (uint64_t)i, &st->t[i]);
            if (s != IRON_OK) {
                say("argument '%s': %s\n",
                    st->d[i].name, iron_last_error());
                return 1;
            }
            st->from[i] = st->d[i].role == ROLE_OUT ? "zeros" : "random";
            bind_from(st, i, st->t[i]);
            progress = 1;
        }
    }
    for (int i = 0; i < st->ndecl; i++) {
        if (st->t[i])
            continue;
        char ty[256];
        type_text(&st->d[i], ty, sizeof ty);
        say("cannot tell the type of argument %d "
            "('%s': %s): give --args TYPES, --shape %s=DIMS, a "
            "size variable with --shape VAR=N, or an input "
            "file\n", i, st->d[i].name, ty, st->d[i].name);
        return EXIT_USAGE;
    }
    /* Random inputs with --args: --args made zeros; fill them. */
    for (int i = 0; i < st->ndecl; i++) {
        if (st->from[i] == NULL || strcmp(st->from[i], "--args") != 0 ||
            st->d[i].role == ROLE_OUT)
            continue;
        iron_tensor *t = NULL;
        if (random_tensor(iron_tensor_dtype(st->t[i]),
                          iron_tensor_shape(st->t[i]), seed + (uint64_t)i,
                          &t) != IRON_OK) {
            say("%s\n", iron_last_error());
            return 1;
        }
        iron_tensor_free(st->t[i]);
        st->t[i] = t;
        st->from[i] = "random";
    }
    return 0;
}

/* ---- after the run ------------------------------------------------------ */

/* Compares output t with the reference file (iron_tensor_allclose, NaN
 * equal to NaN) and prints the verdict, or the library's report; 0 close,
 * 1 not. */
static int compare(const char *name, iron_tensor *t, const char *file,
                   double rtol, double atol)
{
    iron_tensor *r = NULL;
    if (iron_tensor_load_npy(file, &r) != IRON_OK) {
        say("%s\n", iron_last_error());
        return 1;
    }
    iron_allclose_options o = { .size = sizeof o, .equal_nan = 1 };
    iron_allclose_result res = { .size = sizeof res };
    iron_status s = iron_tensor_allclose(t, r, rtol, atol, &o, &res);
    iron_tensor_free(r);
    if (s != IRON_OK) {
        printf("%s: MISMATCH against '%s': %s\n", name, file,
               iron_last_error());
        return 1;
    }
    if (!res.all_close) {
        printf("%s: MISMATCH against '%s': %s", name, file, res.report);
        iron_free(res.report);
        return 1;
    }
    iron_dtype dt = iron_tensor_dtype(t);
    int is_float = dt == IRON_FLOAT32 || dt == IRON_FLOAT64 ||
                   dt == IRON_BFLOAT16;
    if (is_float || rtol != 0 || atol != 0)
        printf("%s: matches '%s' (%" PRId64 " elements, atol %g, rtol %g)\n",
               name, file, res.count, atol, rtol);
    else
        printf("%s: matches '%s' (%" PRId64 " elements, exact)\n", name,
               file, res.count);
    return 0;
}

/* Where each output goes (--out, -o DIR) and the references' names,
 * checked before the run so that a typo costs no build. */
static int plan_outputs(run_state *st)
{
    static char paths[CLI_MAX_ITEMS][4096];
    int rc;
    if (st->outdir) {
        /* Made now (mkdir -p), before the build, so that a folder that
         * cannot be made costs no build. */
        if (cli_make_folder(prog, "-o", st->outdir) != 0)
            return 1;
        for (int i = 0; i < st->ndecl; i++)
            if (st->d[i].role != ROLE_IN) {
                char file[128];
                snprintf(file, sizeof file, "%s.npy", st->d[i].name);
                if (cli_path_join(paths[i], sizeof paths[i], st->outdir,
                                  file) != 0) {
                    say("-o '%s': the path is too long\n", st->outdir);
                    return 1;
                }
                st->save_to[i] = paths[i];
            }
    }
    for (int k = 0; k < st->out.n; k++) {
        int a;
        const char *f;
        if ((rc = split_named(st, "--out", st->out.v[k], &a, &f)) != 0)
            return rc;
        st->save_to[a] = f;
    }
    for (int k = 0; k < st->ref.n; k++) {
        int a;
        const char *f;
        if ((rc = split_named(st, "--ref", st->ref.v[k], &a, &f)) != 0)
            return rc;
    }
    return 0;
}

static int save_outputs(run_state *st)
{
    const char *const *file = st->save_to;
    for (int i = 0; i < st->ndecl; i++) {
        if (!file[i])
            continue;
        if (iron_tensor_save_npy(st->t[i], file[i]) != IRON_OK) {
            say("%s\n", iron_last_error());
            return 1;
        }
        printf("%s: saved to '%s'\n", st->d[i].name, file[i]);
    }
    return 0;
}

static int parse_number(const char *opt, const char *text, double min,
                        double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno || !(v >= min)) {
        say("%s '%s': expected a number >= %g\n", opt,
            text, min);
        return EXIT_USAGE;
    }
    *out = v;
    return 0;
}

/* The modelled time of j's last call (--timing). */
static void print_timing(const iron_jit *j)
{
    const iron_run_counters *c = NULL;
    if (iron_jit_get_counters(j, &c) != IRON_OK)
        return;
    if (c->size <= offsetof(iron_run_counters, timed) || !c->timed) {
        say("the device keeps no modelled time\n");
        return;
    }
    fputs(c->summary, stdout);
}

/* Runs jit j (its arguments declared `args_decl`) once, then --repeat more
 * times, on the inputs st names; saves and compares the outputs. */
static int run_jit(run_state *st, iron_jit *j, const iron_launch_config *cfg,
                   int nparams, const iron_param *params,
                   const char *args_decl)
{
    double seed_d = 1, repeat_d = 0, rtol = -1, atol = -1, clock = 0;
    int rc;
    if (st->clock && (rc = parse_number("--clock", st->clock, 0, &clock)))
        return rc;
    iron_launch_config timed = *cfg;
    if (st->timing || st->clock) {
        timed.timing = 1;
        timed.clock_mhz = clock;
        cfg = &timed;
    }
    if ((st->seed && (rc = parse_number("--seed", st->seed, 0, &seed_d))) ||
        (st->repeat &&
         (rc = parse_number("--repeat", st->repeat, 0, &repeat_d))) ||
        (st->rtol && (rc = parse_number("--rtol", st->rtol, 0, &rtol))) ||
        (st->atol && (rc = parse_number("--atol", st->atol, 0, &atol))))
        return rc;
    if (seed_d != floor(seed_d) || repeat_d != floor(repeat_d) ||
        repeat_d > 1e6)
        return usage_error("--seed and --repeat take whole numbers (%s%s)",
                           "--repeat at most 1000000", "");
    if (parse_decl(st, args_decl) != 0) {
        say("cannot read the design's argument "
            "declaration '%s'\n", args_decl);
        return 1;
    }
    rc = plan_outputs(st);
    if (rc == 0)
        rc = make_tensors(st, (uint64_t)seed_d);
    if (rc == 0) {
        double t0 = now_ms();
        iron_status s = iron_jit_launch(j, cfg, nparams, params,
                                        IRON_NO_SCALARS, st->ndecl, st->t);
        double first = now_ms() - t0;
        if (s != IRON_OK) {
            say("%s\n", iron_last_error());
            rc = 1;
        }
        double sum = 0, min = 0;
        int reps = (int)repeat_d;
        for (int k = 0; rc == 0 && k < reps; k++) {
            t0 = now_ms();
            s = iron_jit_launch(j, cfg, nparams, params, IRON_NO_SCALARS,
                                st->ndecl, st->t);
            double ms = now_ms() - t0;
            if (s != IRON_OK) {
                say("call %d: %s\n", k + 2,
                    iron_last_error());
                rc = 1;
            }
            sum += ms;
            min = k == 0 || ms < min ? ms : min;
        }
        if (rc == 0) {
            printf("%s: ", st->name);
            for (int i = 0; i < st->ndecl; i++) {
                char ty[128];
                printf("%s%s %s (%s)", i ? ", " : "", st->d[i].name,
                       type_of(st->t[i], ty, sizeof ty),
                       st->from[i]);
            }
            printf("\nfirst call %.3f ms (with the build)", first);
            if (reps)
                printf("; %d warm call%s: mean %.3f ms, min %.3f ms", reps,
                       reps == 1 ? "" : "s", sum / reps, min);
            printf("\n");
            if (st->timing || st->clock)
                print_timing(j);
            rc = save_outputs(st);
        }
        for (int k = 0; rc == 0 && k < st->ref.n; k++) {
            int a;
            const char *f;
            if ((rc = split_named(st, "--ref", st->ref.v[k], &a, &f)) != 0)
                break;
            /* Integers are exact unless tolerances are given; floats get
             * numpy's defaults, bfloat16 wider ones (its 8 bits of
             * significand hold about 2 decimal digits). */
            iron_dtype dt = iron_tensor_dtype(st->t[a]);
            int is_float = dt == IRON_FLOAT32 || dt == IRON_FLOAT64 ||
                           dt == IRON_BFLOAT16;
            double r = rtol >= 0 ? rtol
                       : !is_float ? 0
                       : dt == IRON_BFLOAT16 ? 1e-2 : 1e-5;
            double at = atol >= 0 ? atol
                        : !is_float ? 0
                        : dt == IRON_BFLOAT16 ? 1e-2 : 1e-8;
            rc |= compare(st->d[a].name, st->t[a], f, r, at);
        }
    }
    for (int i = 0; i < st->ndecl; i++)
        iron_tensor_free(st->t[i]);
    return rc;
}

static int run_design(run_state *st)
{
    char params[4096];
    snprintf(params, sizeof params, "%s", st->params ? st->params : "");
    cli_design cd;
    int rc = cli_design_open(&cd, "run", st->lib, st->name,
                             st->params ? params : NULL, st->device,
                             st->cols);
    if (rc == 0)
        rc = run_jit(st, cd.jit, &cd.cfg, cd.nparams, cd.params,
                     cd.opts->args);
    cli_design_close(&cd);
    return rc;
}

int cli_run_jit(const char *cmd, const char *name, const cli_run_io *io,
                iron_jit *j, const iron_launch_config *cfg,
                const char *args_decl)
{
    static run_state st;
    memset(&st, 0, sizeof st);
    prog = cmd;
    st.name = name;
    st.in = io->in;
    st.out = io->out;
    st.ref = io->ref;
    st.files = io->files;
    st.seed = io->seed;
    st.repeat = io->repeat;
    st.outdir = io->outdir;
    st.rtol = io->rtol;
    st.atol = io->atol;
    st.timing = io->timing;
    st.clock = io->clock;
    return run_jit(&st, j, cfg, 0, NULL, args_decl);
}

int cli_run(int argc, char **argv)
{
    static run_state st;
    memset(&st, 0, sizeof st);
    const cli_opt opts[] = {
        { "--in", CLI_LIST, &st.in },
        { "--out", CLI_LIST, &st.out },
        { "--ref", CLI_LIST, &st.ref },
        { "--shape", CLI_LIST, &st.shapes },
        { "--args", CLI_VALUE, &st.args },
        { "--params", CLI_VALUE, &st.params },
        { "--device", CLI_VALUE, &st.device },
        { "--cols", CLI_VALUE, &st.cols },
        { "--seed", CLI_VALUE, &st.seed },
        { "--repeat", CLI_VALUE, &st.repeat },
        { "-o", CLI_VALUE, &st.outdir },
        { "--rtol", CLI_VALUE, &st.rtol },
        { "--atol", CLI_VALUE, &st.atol },
        { "--timing", CLI_FLAG, &st.timing },
        { "--clock", CLI_VALUE, &st.clock },
    };
    cli_list pos;
    int rc = cli_parse("run", argc, argv, 2, opts,
                       (int)(sizeof opts / sizeof opts[0]), &pos);
    if (rc == 1)
        return fputs(run_usage, stdout), 0;
    if (rc)
        return rc;
    if (pos.n < 2) {
        say("missing %s\n\n",
            pos.n ? "the design's NAME" : "LIB.so and NAME");
        return fputs(run_usage, stderr), EXIT_USAGE;
    }
    st.lib = pos.v[0];
    st.name = pos.v[1];
    for (int i = 2; i < pos.n; i++)
        st.files.v[st.files.n++] = pos.v[i];
    return run_design(&st);
}
