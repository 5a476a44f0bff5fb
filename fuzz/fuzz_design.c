/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * fuzz_design.c - libFuzzer target for whole designs: random small
 * dataflow designs built with the public design API, run on the emulated
 * default device, and checked against a plain C model.
 *
 * The input bytes choose a configuration (normalised, so that equivalent
 * inputs give the same one):
 *   - objects of 8 to 2048 int32 elements (powers of 2), 1 to 8 of them
 *     per call;
 *   - a topology: DMA only (fill -> a forward link -> drain), a chain of 1
 *     to 3 workers, a memtile split into 2 or 4 parts with one worker each
 *     and a join back, or a broadcast to 2 workers draining into 2 outputs;
 *   - each worker runs one of three fixed kernels (copy, add a constant,
 *     multiply by a constant; the constant is a scalar kernel argument);
 *   - optional forward links on the input and output side, on a memtile or
 *     a compute tile, which may re-chunk objects (twice or half as large)
 *     and transpose each object with a layout transform (dims_to_stream);
 *   - the first worker's input handle may transpose each object as it is
 *     written into its buffers (dims_from_stream);
 *   - FIFO depths 1 to 4;
 *   - the fill's access pattern: linear, in two pieces, transposed, each
 *     element repeated (stride-0 outer dimension), every other element, or
 *     tiled with iron_tiler2d; the drain's: linear, transposed or tiled;
 *   - fills and drains in one task group or not;
 *   - all the device's columns, or 1, 2 or 4;
 *   - checked mode on or off.
 * The configuration travels to the design function as a str compile-time
 * parameter, so one jit (disk cache in /tmp/iron-fuzz-design-cache, kept
 * between runs) specialises once per configuration.  iron_jit_specialize
 * may refuse a design (it must say why: a non-empty iron_last_error()); a
 * design it accepts must run (iron_spec_launch IRON_OK), and the outputs must
 * equal the model's element for element.  Unwritten output elements keep a
 * sentinel, in the model too.
 *
 * Only three kernel sources exist, so they are compiled once each (the
 * library reuses compiled kernel objects, and the disk cache keeps them
 * between runs); what each input costs is building, verifying, placing
 * and running a design: a few hundred executions per second.
 * FUZZ_DESIGN_VERBOSE=1 prints each configuration and its outcome.
 *
 * Run: make fuzz-design.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "iron/iron.h"

/* ---- the configuration -------------------------------------------------- */

enum {
    C_OBJ,        /* 8 << v: 8 .. 2048 */
    C_NOBJ,       /* objects per call, 1 .. 8 */
    C_TOPO,       /* 0 dma, 1 chain, 2 split/join, 3 broadcast */
    C_NW,         /* chain: workers 1 .. 3; split: parts 2 or 4 */
    C_OP0, C_OP1, C_OP2, C_OP3,     /* kernel per worker: 0 copy 1 add 2 mul */
    C_K0, C_K1, C_K2, C_K3,         /* constant index per worker */
    C_INFWD,      /* 0 none, 1 memtile, 2 compute tile */
    C_OUTFWD,     /* the same, after the workers (chain only) */
    C_RECHUNK,    /* input forward: 0 same, 1 twice, 2 half the object */
    C_DIMS,       /* input forward: 0 none, else transpose rows 2 << (v-1) */
    C_D0, C_D1, C_D2, C_D3, C_D4,   /* depths, 1 .. 4 */
    C_FILL,       /* 0 linear 1 two pieces 2 transposed 3 repeat 4 every
                     other 5 tiled */
    C_FILLR,      /* the view's rows / repeat count, as an index */
    C_DRAIN,      /* 0 linear 1 transposed 2 tiled */
    C_DRAINR,
    C_CHECK,      /* checked mode */
    C_START,      /* 1: iron_rt_start every worker; 0: none (all start) */
    C_GROUP,      /* 1: fills and drains in one task group; 0: none (then
                     only the last drain is awaited) */
    C_CDIMS,      /* worker 0's input handle (chain, broadcast): 0 none,
                     else dims_from_stream transposing rows 2 << (v-1) */
    C_COLS,       /* columns granted: 0 all, else 1 << (v-1) */
    C_N
};

static const int cfg_range[C_N] = {
    [C_OBJ] = 9, [C_NOBJ] = 8, [C_TOPO] = 4, [C_NW] = 3,
    [C_OP0] = 3, [C_OP1] = 3, [C_OP2] = 3, [C_OP3] = 3,
    [C_K0] = 4, [C_K1] = 4, [C_K2] = 4, [C_K3] = 4,
    [C_INFWD] = 3, [C_OUTFWD] = 3, [C_RECHUNK] = 3, [C_DIMS] = 3,
    [C_D0] = 4, [C_D1] = 4, [C_D2] = 4, [C_D3] = 4, [C_D4] = 4,
    [C_FILL] = 6, [C_FILLR] = 7, [C_DRAIN] = 3, [C_DRAINR] = 7,
    [C_CHECK] = 2, [C_START] = 2, [C_GROUP] = 2, [C_CDIMS] = 4,
    [C_COLS] = 4,
};

static const int32_t constants[4] = { 1, -3, 7, 65537 };

typedef struct cfg {
    int v[C_N];
} cfg;

/* Everything derived from a configuration, shared by the design and the
 * model. */
typedef struct plan {
    int topo, nworkers, nparts;
    int64_t obj, obj2;      /* objects at the fill, after the input forward */
    int64_t m;              /* elements streamed per call (= each output) */
    int64_t n_in;           /* input elements */
    int nfill;
    iron_tap fill[2];
    iron_tap drain;
    int64_t dim_rows;       /* input forward's transpose: rows of obj2 */
    int64_t cdim_rows;      /* worker 0's input transpose: rows of obj2 */
    int op[4];
    int32_t k[4];
    int depth[5];
    int nouts;
} plan;

/* Rows of an r x (total / r) view: 2 << idx (2 .. 128), halved until it
 * divides. */
static int64_t view_rows(int64_t total, int idx)
{
    int64_t r = (int64_t)2 << idx;
    while (r > 1 && total % r)
        r >>= 1;
    return r;
}

/* A single pattern visiting all of a rows x cols tensor tile by tile
 * (tiles of rows/2 x cols/2 where they divide), or linear if the tiler
 * cannot give one. */
static iron_tap tiled(int64_t rows, int64_t cols)
{
    iron_tiler2d t;
    memset(&t, 0, sizeof t);
    t.size = sizeof t;
    t.rows = rows;
    t.cols = cols;
    t.tile_rows = rows % 2 ? rows : rows / 2;
    t.tile_cols = cols % 2 ? cols : cols / 2;
    t.group_rows = rows / t.tile_rows;
    t.group_cols = cols / t.tile_cols;
    int64_t count;
    iron_tap tap;
    if (iron_tiler2d_count(&t, &count) == IRON_OK && count == 1 &&
        iron_tiler2d_tap(&t, 0, &tap) == IRON_OK)
        return tap;
    return iron_tap_linear(rows * cols);
}

static iron_tap transposed(int64_t rows, int64_t cols)
{
    int64_t sizes[2] = { cols, rows }, strides[2] = { 1, cols };
    return iron_tap_make(0, 2, sizes, strides);
}

/* Normalises c in place (so that equivalent inputs give one string) and
 * derives the plan. */
static void make_plan(cfg *c, plan *p)
{
    int *v = c->v;
    memset(p, 0, sizeof *p);
    p->topo = v[C_TOPO];
    p->obj = (int64_t)8 << v[C_OBJ];
    if (p->topo != 1)
        v[C_OUTFWD] = 0;
    if (p->topo == 2) {
        v[C_INFWD] = v[C_RECHUNK] = v[C_DIMS] = 0;
        p->nparts = v[C_NW] == 0 ? 2 : 4;
        v[C_NW] = p->nparts == 2 ? 0 : 1;
        p->nworkers = p->nparts;
    } else if (p->topo == 1) {
        p->nworkers = 1 + v[C_NW];
    } else if (p->topo == 3) {
        p->nworkers = 2;
        v[C_NW] = 0;
    } else {
        p->nworkers = 0;
        v[C_NW] = 0;
        if (v[C_INFWD] == 0)
            v[C_INFWD] = 1;   /* a fifo from shim to shim needs a link */
    }
    for (int w = 0; w < 4; w++) {
        if (w >= p->nworkers)
            v[C_OP0 + w] = v[C_K0 + w] = 0;
        if (v[C_OP0 + w] == 0)
            v[C_K0 + w] = 0;
        p->op[w] = v[C_OP0 + w];
        p->k[w] = constants[v[C_K0 + w]];
    }
    if (p->nworkers == 0)
        v[C_START] = 0;
    if (v[C_INFWD] == 0)
        v[C_RECHUNK] = v[C_DIMS] = 0;
    if (v[C_RECHUNK] == 2 && p->obj < 16)
        v[C_RECHUNK] = 0;
    p->obj2 = v[C_RECHUNK] == 1 ? 2 * p->obj
              : v[C_RECHUNK] == 2 ? p->obj / 2
                                  : p->obj;
    if (v[C_DIMS]) {
        p->dim_rows = view_rows(p->obj2, v[C_DIMS] - 1);
        if (p->dim_rows < 2) {
            v[C_DIMS] = 0;
            p->dim_rows = 0;
        }
    }
    if (p->topo != 1 && p->topo != 3)
        v[C_CDIMS] = 0;
    if (v[C_CDIMS]) {
        p->cdim_rows = view_rows(p->obj2, v[C_CDIMS] - 1);
        if (p->cdim_rows < 2) {
            v[C_CDIMS] = 0;
            p->cdim_rows = 0;
        }
    }
    /* Whole objects of every size per call. */
    int64_t unit = p->obj > p->obj2 ? p->obj : p->obj2;
    int64_t nobj = 1 + v[C_NOBJ];
    if (unit > p->obj && nobj % 2)
        nobj++;
    v[C_NOBJ] = (int)(nobj - 1);
    p->m = p->obj * nobj;
    for (int k = 0; k < 5; k++)
        p->depth[k] = 1 + v[C_D0 + k];
    p->nouts = p->topo == 3 ? 2 : 1;

    /* The fill. */
    int fill = v[C_FILL];
    if (fill == 1 && nobj % 2)
        fill = 0;
    if (fill != 2 && fill != 3 && fill != 5)
        v[C_FILLR] = 0;
    v[C_FILL] = fill;
    p->nfill = 1;
    p->n_in = p->m;
    switch (fill) {
    case 1: {
        int64_t half = p->m / 2, sizes[1] = { half }, strides[1] = { 1 };
        p->fill[0] = iron_tap_make(0, 1, sizes, strides);
        p->fill[1] = iron_tap_make(half, 1, sizes, strides);
        p->nfill = 2;
        break;
    }
    case 2: {
        int64_t r = view_rows(p->m, v[C_FILLR]);
        p->fill[0] = transposed(r, p->m / r);
        break;
    }
    case 3: {
        int64_t r = view_rows(p->m, v[C_FILLR]);
        int64_t sizes[2] = { r, p->m / r }, strides[2] = { 0, 1 };
        p->n_in = p->m / r;
        p->fill[0] = iron_tap_make(0, 2, sizes, strides);
        break;
    }
    case 4: {
        int64_t sizes[1] = { p->m }, strides[1] = { 2 };
        p->n_in = 2 * p->m;
        p->fill[0] = iron_tap_make(0, 1, sizes, strides);
        break;
    }
    case 5: {
        int64_t r = view_rows(p->m, v[C_FILLR]);
        p->fill[0] = tiled(r, p->m / r);
        break;
    }
    default:
        p->fill[0] = iron_tap_linear(p->m);
        break;
    }

    /* The drain. */
    if (v[C_DRAIN] == 0)
        v[C_DRAINR] = 0;
    int64_t r = view_rows(p->m, v[C_DRAINR]);
    p->drain = v[C_DRAIN] == 1   ? transposed(r, p->m / r)
               : v[C_DRAIN] == 2 ? tiled(r, p->m / r)
                                 : iron_tap_linear(p->m);
}

static void cfg_text(const cfg *c, char *buf, size_t len)
{
    size_t n = 0;
    for (int i = 0; i < C_N && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%d", i ? "," : "",
                              c->v[i]);
}

static int cfg_parse(const char *s, cfg *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < C_N; i++) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s || x < 0 || x >= cfg_range[i])
            return -1;
        c->v[i] = (int)x;
        s = end;
        if (*s == ',')
            s++;
    }
    return *s ? -1 : 0;
}

/* ---- the design --------------------------------------------------------- */

static const char *const kernel_entry[3] = { "fz_copy", "fz_add", "fz_mul" };
static const char *const kernel_src[3] = {
    "#include <stdint.h>\n"
    "void fz_copy(const int32_t *in, int32_t *out, int32_t n, int32_t c)\n"
    "{\n"
    "    (void)c;\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i];\n"
    "}\n",
    "#include <stdint.h>\n"
    "void fz_add(const int32_t *in, int32_t *out, int32_t n, int32_t c)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = (int32_t)((uint32_t)in[i] + (uint32_t)c);\n"
    "}\n",
    "#include <stdint.h>\n"
    "void fz_mul(const int32_t *in, int32_t *out, int32_t n, int32_t c)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = (int32_t)((uint32_t)in[i] * (uint32_t)c);\n"
    "}\n",
};

static int32_t apply_op(int op, int32_t k, int32_t x)
{
    switch (op) {
    case 1:
        return (int32_t)((uint32_t)x + (uint32_t)k);
    case 2:
        return (int32_t)((uint32_t)x * (uint32_t)k);
    default:
        return x;
    }
}

/* A forward of cons; rechunked to obj2 and transposed when asked. */
static iron_fifo *forward(iron_design *d, iron_handle *cons, const char *name,
                          int where, int depth, int64_t obj2,
                          int64_t dim_rows)
{
    iron_link_options o;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    o.place = where == 2 ? IRON_LINK_ANY_COMPUTE : IRON_LINK_ANY_MEMTILE;
    o.dtype = IRON_INT32;
    o.obj_shape = IRON_SHAPE(obj2);
    iron_fifo *f = iron_fifo_forward_with(d, cons, name, depth, &o);
    if (f && dim_rows) {
        int64_t cols = obj2 / dim_rows;
        int64_t sizes[2] = { cols, dim_rows }, strides[2] = { 1, cols };
        iron_handle_set_dims(iron_fifo_prod(f), 2, sizes, strides);
    }
    return f;
}

/* dims_from_stream on a consumer handle: the t-th element of each object
 * of n is written at (t % rows) * cols + t / rows, a transpose. */
static void transpose_into(iron_handle *h, int64_t n, int64_t rows)
{
    if (!rows)
        return;
    int64_t cols = n / rows;
    int64_t sizes[2] = { cols, rows }, strides[2] = { 1, cols };
    iron_handle_set_dims(h, 2, sizes, strides);
}

static iron_worker *worker(iron_design *d, const plan *p, int w,
                           iron_handle *in, iron_handle *out, int64_t n)
{
    char name[16];
    snprintf(name, sizeof name, "w%d", w);
    iron_kernel *k = iron_kernel_new(d, kernel_entry[p->op[w]],
                                     kernel_src[p->op[w]],
                                     "int32*, int32*, int32, int32");
    return iron_worker_new(d, name, k, p->m / n,
                           IRON_ARGS(iron_arg_fifo(in), iron_arg_fifo(out),
                                     iron_arg_int(n), iron_arg_int(p->k[w])));
}

static int fuzz_design_fn(iron_design *d, void *user)
{
    (void)user;
    cfg c;
    if (cfg_parse(iron_design_param_str(d, "cfg"), &c) != 0)
        return iron_design_fail(d, IRON_EPARAM, "fuzz_design: bad cfg");
    plan p;
    make_plan(&c, &p);
    const int *v = c.v;
    iron_worker *ws[4] = { NULL, NULL, NULL, NULL };

    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(p.obj),
                                  p.depth[0]);
    iron_fifo *cur = in;   /* the fifo the stream is in now */
    int64_t n = p.obj;
    iron_handle *drain_cons[2] = { NULL, NULL };

    if (v[C_INFWD]) {
        cur = forward(d, iron_fifo_cons(cur), "in_fwd", v[C_INFWD],
                      p.depth[1], p.obj2, p.dim_rows);
        n = p.obj2;
    }
    if (!cur)
        return iron_design_status(d);
    switch (p.topo) {
    case 0:
        drain_cons[0] = iron_fifo_cons(cur);
        break;
    case 1:
        for (int w = 0; w < p.nworkers && cur; w++) {
            char name[16];
            snprintf(name, sizeof name, "c%d", w);
            iron_fifo *o = iron_fifo_new(d, name, IRON_INT32, IRON_SHAPE(n),
                                         p.depth[2 + w % 3]);
            iron_handle *h = iron_fifo_cons(cur);
            if (w == 0)
                transpose_into(h, n, p.cdim_rows);
            ws[w] = worker(d, &p, w, h, iron_fifo_prod(o), n);
            cur = o;
        }
        if (cur && v[C_OUTFWD])
            cur = forward(d, iron_fifo_cons(cur), "out_fwd", v[C_OUTFWD],
                          p.depth[4], n, 0);
        if (!cur)
            return iron_design_status(d);
        drain_cons[0] = iron_fifo_cons(cur);
        break;
    case 2: {
        const char *in_names[4] = { "s0", "s1", "s2", "s3" };
        const char *out_names[4] = { "j0", "j1", "j2", "j3" };
        int64_t part = n / p.nparts, offsets[4];
        iron_shape shapes[4];
        int depths[4];
        for (int q = 0; q < p.nparts; q++) {
            offsets[q] = q * part;
            shapes[q] = IRON_SHAPE(part);
            depths[q] = p.depth[1 + q];
        }
        iron_fifo *parts_in[4], *parts_out[4];
        iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(n),
                                       p.depth[1]);
        iron_fifo_split(d, iron_fifo_cons(cur), p.nparts, in_names, offsets,
                        shapes, depths, parts_in);
        iron_fifo_join(d, iron_fifo_prod(out), p.nparts, out_names, offsets,
                       shapes, depths, parts_out);
        if (iron_design_status(d) != IRON_OK)
            return iron_design_status(d);
        for (int q = 0; q < p.nparts; q++)
            ws[q] = worker(d, &p, q, iron_fifo_cons(parts_in[q]),
                           iron_fifo_prod(parts_out[q]), part);
        drain_cons[0] = iron_fifo_cons(out);
        break;
    }
    case 3:
        /* Two consumers of one fifo: each sees every object. */
        for (int w = 0; w < 2; w++) {
            char name[16];
            snprintf(name, sizeof name, "b%d", w);
            iron_fifo *o = iron_fifo_new(d, name, IRON_INT32, IRON_SHAPE(n),
                                         p.depth[2 + w]);
            iron_handle *h = iron_fifo_cons(cur);
            if (w == 0)
                transpose_into(h, n, p.cdim_rows);
            ws[w] = worker(d, &p, w, h, iron_fifo_prod(o), n);
            drain_cons[w] = iron_fifo_cons(o);
        }
        break;
    }

    if (v[C_START])
        for (int w = 0; w < p.nworkers; w++)
            iron_rt_start(d, ws[w]);
    iron_task_group *g = v[C_GROUP] ? iron_rt_task_group_new(d) : NULL;
    for (int f = 0; f < p.nfill; f++)
        iron_rt_fill(d, iron_fifo_prod(in), 0, p.fill[f]);
    /* Outside a group an awaited drain is waited for where it stands, so
     * a broadcast's first drain must not be awaited there (the second
     * worker would stall on a full buffer). */
    for (int o = 0; o < p.nouts; o++)
        iron_rt_drain(d, drain_cons[o], 1 + o, p.drain,
                      g || o == p.nouts - 1 ? IRON_WAIT : IRON_NOWAIT);
    if (g)
        iron_rt_task_group_finish(d, g);
    return 0;
}

/* ---- the model ---------------------------------------------------------- */

/* The visited elements of t, in order, into idx; returns how many. */
static int64_t walk_tap(const iron_tap *t, int64_t *idx, int64_t max)
{
    int64_t count = iron_tap_count(t);
    FUZZ_CHECK(count >= 1 && count <= max, "pattern of %lld visits",
               (long long)count);
    fuzz_walk_tap(t, idx, count);
    return count;
}

#define SENTINEL 0x5a5a5a5a

/* What the design computes: out[o] for o < p->nouts, each p->m elements. */
static void model(const plan *p, const int32_t *in, int32_t *out[2])
{
    int64_t m = p->m;
    int64_t *idx = malloc((size_t)m * sizeof *idx);
    int32_t *s = malloc((size_t)m * sizeof *s);
    int32_t *t = malloc((size_t)m * sizeof *t);
    FUZZ_CHECK(idx && s && t, "out of memory");
    int64_t k = 0;
    for (int f = 0; f < p->nfill; f++) {
        int64_t n = walk_tap(&p->fill[f], idx + k, m - k);
        for (int64_t v = 0; v < n; v++)
            FUZZ_CHECK(idx[k + v] >= 0 && idx[k + v] < p->n_in,
                       "fill visits %lld", (long long)idx[k + v]);
        for (int64_t v = 0; v < n; v++)
            s[k + v] = in[idx[k + v]];
        k += n;
    }
    FUZZ_CHECK(k == m, "fills move %lld of %lld", (long long)k, (long long)m);
    if (p->dim_rows) {
        /* dims_to_stream sizes [cols, rows] strides [1, cols] per object */
        int64_t rows = p->dim_rows, cols = p->obj2 / rows;
        for (int64_t o = 0; o < m; o += p->obj2) {
            int64_t pos = 0;
            for (int64_t i0 = 0; i0 < cols; i0++)
                for (int64_t i1 = 0; i1 < rows; i1++)
                    t[o + pos++] = s[o + i0 + i1 * cols];
        }
        memcpy(s, t, (size_t)m * sizeof *s);
    }
    int64_t n = p->obj2;
    int32_t *u = malloc((size_t)m * sizeof *u);
    FUZZ_CHECK(u, "out of memory");
    for (int o = 0; o < p->nouts; o++) {
        /* worker 0's buffers: the object scattered by dims_from_stream
         * (loops i0 < cols outer, i1 < rows inner; index i0 + i1 * cols) */
        memcpy(u, s, (size_t)m * sizeof *u);
        if (p->cdim_rows && o == 0) {
            int64_t rows = p->cdim_rows, cols = n / rows;
            for (int64_t ob = 0; ob < m; ob += n) {
                int64_t pos = 0;
                for (int64_t i0 = 0; i0 < cols; i0++)
                    for (int64_t i1 = 0; i1 < rows; i1++)
                        u[ob + i0 + i1 * cols] = s[ob + pos++];
            }
        }
        for (int64_t v = 0; v < m; v++) {
            int32_t x = u[v];
            if (p->topo == 1)
                for (int w = 0; w < p->nworkers; w++)
                    x = apply_op(p->op[w], p->k[w], x);
            else if (p->topo == 2) {
                int q = (int)((v % n) / (n / p->nparts));
                x = apply_op(p->op[q], p->k[q], x);
            } else if (p->topo == 3)
                x = apply_op(p->op[o], p->k[o], x);
            t[v] = x;
        }
        for (int64_t v = 0; v < m; v++)
            out[o][v] = SENTINEL;
        FUZZ_CHECK(walk_tap(&p->drain, idx, m) == m, "drain size");
        for (int64_t v = 0; v < m; v++)
            out[o][idx[v]] = t[v];
    }
    free(idx);
    free(s);
    free(t);
    free(u);
}

/* ---- the harness -------------------------------------------------------- */

static iron_jit *jit;
static int verbose;
static unsigned long runs, refused, ran;

static void make_jit(void)
{
    iron_jit_options o;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    o.name = "fuzz_design";
    o.args = "in a: int32[N], out b: int32[M], out c: int32[M]";
    o.params = "cfg: str";
    o.disk_cache = 1;
    o.cache_dir = getenv("FUZZ_DESIGN_CACHE") ? getenv("FUZZ_DESIGN_CACHE")
                                              : "/tmp/iron-fuzz-design-cache";
    if (iron_jit_create(fuzz_design_fn, &o, &jit) != IRON_OK) {
        fprintf(stderr, "fuzz_design: %s\n", iron_last_error());
        exit(1);
    }
}

static void report(void)
{
    fprintf(stderr, "fuzz_design: %lu inputs, %lu designs refused, %lu ran "
                    "and matched the model\n",
            runs, refused, ran);
    iron_jit_free(jit);
    jit = NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *e = getenv("FUZZ_DESIGN_VERBOSE");
    verbose = e && *e && strcmp(e, "0") != 0;
    make_jit();
    atexit(report);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = { data, size };
    cfg c;
    for (int i = 0; i < C_N; i++)
        c.v[i] = fuzz_u8(&in) % cfg_range[i];
    uint32_t seed = (uint32_t)fuzz_u64(&in);
    plan p;
    make_plan(&c, &p);
    char text[256];
    cfg_text(&c, text, sizeof text);
    runs++;

    /* Specializations pile up in memory: start afresh now and then (the
     * disk cache keeps the compiled kernels). */
    iron_jit_stats stats;
    memset(&stats, 0, sizeof stats);
    stats.size = sizeof stats;
    if (iron_jit_get_stats(jit, &stats) == IRON_OK &&
        stats.specializations >= 128) {
        iron_jit_free(jit);
        make_jit();
    }

    iron_tensor *a = NULL, *b = NULL, *cc = NULL;
    FUZZ_CHECK(iron_tensor_empty(IRON_INT32, IRON_SHAPE(p.n_in), &a) ==
                       IRON_OK &&
                   iron_tensor_empty(IRON_INT32, IRON_SHAPE(p.m), &b) ==
                       IRON_OK &&
                   iron_tensor_empty(IRON_INT32, IRON_SHAPE(p.m), &cc) ==
                       IRON_OK,
               "cannot make tensors");
    int32_t *ad = iron_tensor_data(a), *bd = iron_tensor_data(b),
            *cd = iron_tensor_data(cc);
    for (int64_t i = 0; i < p.n_in; i++)
        ad[i] = (int32_t)((uint32_t)i * 2654435761u + seed);
    for (int64_t i = 0; i < p.m; i++)
        bd[i] = cd[i] = SENTINEL;

    iron_launch_config lc;
    memset(&lc, 0, sizeof lc);
    lc.size = sizeof lc;
    lc.timeout_ms = 30000;
    lc.check = c.v[C_CHECK] ? 1 : -1;
    lc.cols = c.v[C_COLS] ? 1 << (c.v[C_COLS] - 1) : 0;
    iron_param prm = iron_param_str("cfg", text);
    iron_spec *sp = NULL;
    iron_status st = iron_jit_specialize(jit, &lc, 1, &prm,
                                         IRON_TENSORS(a, b, cc), &sp);
    FUZZ_FAILED_WITH_MESSAGE(st, "iron_jit_specialize");
    if (st != IRON_OK) {
        refused++;
        if (verbose)
            fprintf(stderr, "fuzz_design: cfg %s refused: %s: %s\n", text,
                    iron_status_name(st), iron_last_error());
    } else {
        st = iron_spec_launch(sp, 0, NULL, IRON_TENSORS(a, b, cc));
        FUZZ_CHECK(st == IRON_OK,
                   "design cfg %s was accepted but failed to run: %s: %s",
                   text, iron_status_name(st), iron_last_error());
        int32_t *want[2];
        want[0] = malloc((size_t)p.m * sizeof(int32_t));
        want[1] = malloc((size_t)p.m * sizeof(int32_t));
        FUZZ_CHECK(want[0] && want[1], "out of memory");
        model(&p, ad, want);
        int32_t *got[2] = { bd, cd };
        for (int o = 0; o < p.nouts; o++)
            for (int64_t i = 0; i < p.m; i++)
                FUZZ_CHECK(got[o][i] == want[o][i],
                           "design cfg %s (%s): output %d element %lld is "
                           "%d, the model says %d",
                           text, iron_spec_signature(sp), o, (long long)i,
                           got[o][i], want[o][i]);
        if (p.nouts == 1)
            for (int64_t i = 0; i < p.m; i++)
                FUZZ_CHECK(cd[i] == SENTINEL,
                           "design cfg %s wrote the unused output", text);
        free(want[0]);
        free(want[1]);
        ran++;
        if (verbose)
            fprintf(stderr, "fuzz_design: cfg %s ran and matched\n", text);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(cc);
    return 0;
}
