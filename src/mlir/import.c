/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * import.c - the MLIR-AIE importer's first pass over a parsed module: the
 * device it targets, its tiles, object fifos and links, cores, buffers,
 * locks and external functions, each checked where the file could be
 * wrong (undefined symbols, tiles outside the device, two cores on one
 * tile, a link whose ends disagree).  Core bodies and the runtime
 * sequence are read by their own files.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mlir/import.h"

/* ---- messages ----------------------------------------------------------- */

void iron__imp_vtext(const iron_mlir *m, const iron__mlir_op *op,
                     iron__str *s, const char *fmt, va_list ap)
{
    const char *file = m && m->file ? m->file : "<mlir>";
    if (op)
        iron__str_printf(s, "%s:%d:%d: %s: ", file, op->loc.line,
                         op->loc.col, op->name);
    else
        iron__str_printf(s, "%s: ", file);
    iron__str_vprintf(s, fmt, ap);
}

iron_status iron__imp_fail(const iron_mlir *m, iron_status s,
                           const iron__mlir_op *op, const char *fmt, ...)
{
    iron__str t = { 0 };
    va_list ap;
    va_start(ap, fmt);
    iron__imp_vtext(m, op, &t, fmt, ap);
    va_end(ap);
    if (t.oom) {
        iron__str_free(&t);
        return iron__fail(IRON_ENOMEM, "out of memory");
    }
    iron__fail(s, "%s", iron__str_get(&t));
    iron__str_free(&t);
    return s;
}

/* ---- attributes and types ----------------------------------------------- */

int64_t iron__imp_int_attr(const iron__mlir_op *op, const char *name,
                           int64_t dflt, int *ok)
{
    const iron__mlir_attr *a = iron__mlir_attr_get(op, name);
    if (!a)
        return dflt;
    if (a->kind == IRON__MA_INT || a->kind == IRON__MA_BOOL)
        return a->i;
    *ok = -1;
    return dflt;
}

const char *iron__imp_enum_attr(const iron__mlir_op *op, const char *name,
                                const char *const *names, int nnames)
{
    const iron__mlir_attr *a = iron__mlir_attr_get(op, name);
    if (!a)
        return NULL;
    if (a->kind == IRON__MA_KEYWORD || a->kind == IRON__MA_STR)
        return a->s;
    if (a->kind == IRON__MA_INT && a->i >= 0 && a->i < nnames)
        return names[a->i];
    return NULL;
}

int iron__imp_dtype(const iron__mlir_type *t, iron_dtype *out)
{
    if (!t)
        return -1;
    if (t->kind == IRON__MT_INT) {
        int u = t->sign == 2;
        switch (t->width) {
        case 8: *out = u ? IRON_UINT8 : IRON_INT8; return 0;
        case 16: *out = u ? IRON_UINT16 : IRON_INT16; return 0;
        case 32: *out = u ? IRON_UINT32 : IRON_INT32; return 0;
        case 64: *out = u ? IRON_UINT64 : IRON_INT64; return 0;
        default: return -1;
        }
    }
    if (t->kind == IRON__MT_FLOAT) {
        static const iron_dtype f[] = { IRON_BFLOAT16, IRON_FLOAT32,
                                        IRON_FLOAT64 };
        int k = iron__imp_float_index(t);
        if (k < 0)
            return -1;
        *out = f[k];
        return 0;
    }
    return -1;
}

int iron__imp_float_index(const iron__mlir_type *t)
{
    if (t->width == 16 && t->bf)
        return 0;
    if (t->width == 32)
        return 1;
    return t->width == 64 ? 2 : -1;
}

int iron__imp_memref(const iron__mlir_type *t, iron_dtype *dt,
                     iron_shape *shape)
{
    if (!t || t->kind != IRON__MT_MEMREF || t->rank < 1 ||
        t->rank > IRON_MAX_DIMS || iron__imp_dtype(t->elem, dt) != 0)
        return -1;
    shape->ndim = t->rank;
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i] < 1)
            return -1;
        shape->dims[i] = t->dims[i];
    }
    return 0;
}

int iron__imp_same_type(const iron__mlir_type *a, const iron__mlir_type *b)
{
    if (!a || !b)
        return a == b;
    return iron__mlir_type_equal(a, b);
}

const iron__mlir_type *iron__imp_type_of(const iron_mlir *m, int v)
{
    const iron__mlir_value *val = iron__mlir_value_at(m->mod, v);
    return val ? val->type : NULL;
}

/* The text of a type for messages (into a caller's buffer). */
static const char *type_text(const iron__mlir_type *t, char *buf, size_t len)
{
    iron__str s = { 0 };
    if (t)
        iron__mlir_type_text(t, &s);
    snprintf(buf, len, "%s", t ? iron__str_get(&s) : "(no type)");
    iron__str_free(&s);
    return buf;
}

/* ---- lookups ------------------------------------------------------------ */

int iron__imp_fifo_at(const iron_mlir *m, const char *name)
{
    for (int i = 0; name && i < m->nfifos; i++)
        if (strcmp(m->fifos[i].name, name) == 0)
            return i;
    return -1;
}

int iron__imp_func_at(const iron_mlir *m, const char *name)
{
    for (int i = 0; name && i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, name) == 0)
            return i;
    return -1;
}

int iron__imp_buf_at(const iron_mlir *m, const char *sym)
{
    for (int i = 0; sym && i < m->nbufs; i++)
        if (m->bufs[i].sym && strcmp(m->bufs[i].sym, sym) == 0)
            return i;
    return -1;
}

static int core_at(const iron_mlir *m, iron__tile t)
{
    for (int i = 0; i < m->ncores; i++)
        if (m->cores[i].tile.col == t.col && m->cores[i].tile.row == t.row)
            return i;
    return -1;
}

/* ---- the device --------------------------------------------------------- */

/* Upstream's device names (and the integers its generic form prints) and
 * ours.  Upstream's npu1 and npu1_4col are the whole Phoenix array, our
 * npu1; "npu" is the name before npu1. */
static const char *const upstream_devices[] = {
    "",          "xcvc1902",  "xcve2302",  "xcve2802",  "npu1",
    "npu1_1col", "npu1_2col", "npu1_3col", "npu1_4col", "npu2",
    "npu2_1col", "npu2_2col", "npu2_3col", "npu2_4col", "npu2_5col",
    "npu2_6col", "npu2_7col",
};
#define NUPSTREAM ((int)IRON__COUNT_OF(upstream_devices))

static iron_status read_device(iron_mlir *m, const iron__mlir_op *dev)
{
    const char *word = iron__imp_enum_attr(dev, "device", upstream_devices,
                                           NUPSTREAM);
    if (!word || !*word)
        return iron__imp_fail(m, IRON_EDESIGN, dev,
                              "no device named (expected one of npu1, "
                              "npu1_1col .. npu1_3col, npu2, npu2_1col .. "
                              "npu2_7col)");
    const char *ours = word;
    if (strcmp(word, "npu") == 0 || strcmp(word, "npu1_4col") == 0)
        ours = "npu1";
    if (strncmp(word, "xc", 2) == 0)
        return iron__imp_fail(m, IRON_ENOTSUP, dev,
                              "device %s is an AIE1 / Versal part; the "
                              "emulator models the NPUs only (npu1, "
                              "npu1_1col .. npu1_3col, npu2, npu2_1col .. "
                              "npu2_7col)",
                              word);
    iron_device *d = NULL;
    if (strlen(ours) >= sizeof m->device_name ||
        iron_device_get(ours, &d) != IRON_OK)
        return iron__imp_fail(m, IRON_EDEVICE, dev,
                              "unknown device '%s' (expected one of npu1, "
                              "npu1_1col .. npu1_3col, npu2, npu2_1col .. "
                              "npu2_7col)",
                              word);
    iron_device_info info;
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    if (iron_device_get_info(d, &info) != IRON_OK)
        return iron__imp_fail(m, IRON_EDEVICE, dev, "%s", iron_last_error());
    snprintf(m->device_name, sizeof m->device_name, "%s", info.name);
    snprintf(m->family, sizeof m->family, "%s", info.family);
    m->columns = info.columns;
    m->compute_rows = info.compute_rows;
    const iron__mlir_attr *sym = iron__mlir_attr_get(dev, "sym_name");
    m->jit_name = iron__strdup(sym && sym->s && *sym->s ? sym->s : "mlir");
    if (!m->jit_name)
        return iron__fail(IRON_ENOMEM, "out of memory");
    return IRON_OK;
}

/* ---- tiles -------------------------------------------------------------- */

static iron_status read_tile(iron_mlir *m, const iron__mlir_op *op)
{
    int ok = 0;
    int64_t col = iron__imp_int_attr(op, "col", -1, &ok);
    int64_t row = iron__imp_int_attr(op, "row", -1, &ok);
    if (ok < 0 || col < 0 || row < 0 || op->nresults != 1)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "expected integer col and row and one result");
    int rows = 2 + m->compute_rows;
    if (col >= m->columns || row >= rows)
        return iron__imp_fail(m, IRON_ERESOURCE, op,
                              "tile (%lld,%lld) is outside %s: columns "
                              "0..%d, rows 0..%d (row 0 shim, row 1 "
                              "memtile, rows 2..%d compute)",
                              (long long)col, (long long)row, m->device_name,
                              m->columns - 1, rows - 1, rows - 1);
    m->tile_col[op->results[0]] = (int)col;
    m->tile_row[op->results[0]] = (int)row;
    return IRON_OK;
}

/* The tile operand i of op. */
static iron_status tile_operand(const iron_mlir *m, const iron__mlir_op *op,
                                int i, iron__tile *t)
{
    if (i >= op->noperands || m->tile_col[op->operands[i]] < 0) {
        const iron__mlir_value *v =
            i < op->noperands ? iron__mlir_value_at(m->mod, op->operands[i])
                              : NULL;
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "operand %d%s%s%s is not a tile (an "
                              "aie.tile result)",
                              i, v ? " (" : "", v ? v->name : "",
                              v ? ")" : "");
    }
    t->col = m->tile_col[op->operands[i]];
    t->row = m->tile_row[op->operands[i]];
    return IRON_OK;
}

/* ---- object fifos ------------------------------------------------------- */

static iron_status read_dims(const iron_mlir *m, const iron__mlir_op *op,
                             const char *what, const iron__mlir_attr *a,
                             iron__imp_dims *d)
{
    d->ndim = 0;
    if (!a)
        return IRON_OK;
    if (a->kind != IRON__MA_ARRAY)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "%s: expected an array of <size = s, stride "
                              "= t>",
                              what);
    if (a->n > IRON__IMP_MAX_DIMS)
        return iron__imp_fail(m, IRON_ENOTSUP, op,
                              "%s has %d dimensions; a DMA has at most %d",
                              what, a->n, IRON__IMP_MAX_DIMS);
    for (int i = 0; i < a->n; i++) {
        const iron__mlir_attr *x = a->items[i];
        if (x->kind != IRON__MA_DIM || x->i < 1 || x->stride < 0)
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "%s: item %d is not a <size = s, stride "
                                  "= t> with s >= 1",
                                  what, i);
        d->sizes[i] = x->i;
        d->strides[i] = x->stride;
    }
    d->ndim = a->n;
    return IRON_OK;
}

/* Attributes upstream's fifos may carry whose behaviour the emulator does
 * not model. */
static iron_status fifo_unsupported(const iron_mlir *m,
                                    const iron__mlir_op *op)
{
    static const char *const flags[] = { "disable_synchronization", "plio" };
    static const char *const present[] = { "repeat_count", "padDimensions",
                                           "initValues", "iter_count",
                                           "aie_stream" };
    for (size_t i = 0; i < IRON__COUNT_OF(flags); i++) {
        const iron__mlir_attr *a = iron__mlir_attr_get(op, flags[i]);
        if (a && !(a->kind == IRON__MA_BOOL && a->i == 0))
            return iron__imp_fail(m, IRON_ENOTSUP, op,
                                  "%s is not supported (the emulator models "
                                  "synchronised DMA fifos)",
                                  flags[i]);
    }
    for (size_t i = 0; i < IRON__COUNT_OF(present); i++)
        if (iron__mlir_attr_get(op, present[i]))
            return iron__imp_fail(m, IRON_ENOTSUP, op,
                                  "attribute %s is not supported",
                                  present[i]);
    return IRON_OK;
}

static iron_status read_fifo(iron_mlir *m, const iron__mlir_op *op)
{
    iron__imp_fifo *f = &m->fifos[m->nfifos];
    memset(f, 0, sizeof *f);
    f->op = op;
    f->made_by = f->link_in = f->link_out = -1;
    const iron__mlir_attr *sym = iron__mlir_attr_get(op, "sym_name");
    if (!sym || !sym->s || !*sym->s)
        return iron__imp_fail(m, IRON_EDESIGN, op, "the fifo has no name");
    f->name = sym->s;
    if (iron__imp_fifo_at(m, f->name) >= 0)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "fifo @%s is defined twice (first at %d:%d)",
                              f->name,
                              m->fifos[iron__imp_fifo_at(m, f->name)]
                                  .op->loc.line,
                              m->fifos[iron__imp_fifo_at(m, f->name)]
                                  .op->loc.col);
    iron_status s = fifo_unsupported(m, op);
    if (s != IRON_OK)
        return s;
    const iron__mlir_attr *et = iron__mlir_attr_get(op, "elemType");
    const iron__mlir_type *t = et && et->kind == IRON__MA_TYPE ? et->type
                                                                : NULL;
    if (t && t->kind == IRON__MT_DIALECT)
        t = t->elem;
    char tb[128];
    if (iron__imp_memref(t, &f->dtype, &f->shape) != 0)
        return iron__imp_fail(m, t ? IRON_ENOTSUP : IRON_EDESIGN, op,
                              "fifo @%s: element type %s; expected a static "
                              "memref of 1 to %d dimensions of i8/i16/i32/"
                              "i64 (or ui), bf16, f32 or f64",
                              f->name, type_text(t, tb, sizeof tb),
                              IRON_MAX_DIMS);
    f->elem = t;
    if (op->noperands < 2)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "fifo @%s: expected a producer tile and at "
                              "least one consumer tile",
                              f->name);
    if (op->noperands - 1 > IRON__MAX_CONS)
        return iron__imp_fail(m, IRON_ENOTSUP, op,
                              "fifo @%s has %d consumers; at most %d",
                              f->name, op->noperands - 1, IRON__MAX_CONS);
    if ((s = tile_operand(m, op, 0, &f->prod)) != IRON_OK)
        return s;
    f->ncons = op->noperands - 1;
    for (int i = 0; i < f->ncons; i++)
        if ((s = tile_operand(m, op, i + 1, &f->cons[i])) != IRON_OK)
            return s;
    const iron__mlir_attr *en = iron__mlir_attr_get(op, "elemNumber");
    if (en && en->kind == IRON__MA_INT) {
        f->depth = (int)(en->i > 0 && en->i <= 1000 ? en->i : 0);
    } else if (en && en->kind == IRON__MA_ARRAY) {
        if (en->n != 1 + f->ncons)
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "fifo @%s: %d depths for %d endpoints "
                                  "(the producer and %d consumer%s)",
                                  f->name, en->n, 1 + f->ncons, f->ncons,
                                  f->ncons == 1 ? "" : "s");
        f->per_end = 1;
        for (int i = 0; i < en->n; i++) {
            const iron__mlir_attr *x = en->items[i];
            if (x->kind != IRON__MA_INT || x->i < 1 || x->i > 1000)
                return iron__imp_fail(m, IRON_EDESIGN, op,
                                      "fifo @%s: depth %d is not a "
                                      "positive integer",
                                      f->name, i);
            f->depths[i] = (int)x->i;
        }
        f->depth = f->depths[0];
    }
    if (f->depth < 1)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "fifo @%s: expected a depth (elemNumber) of "
                              "at least 1",
                              f->name);
    if ((s = read_dims(m, op, "dimensionsToStream",
                       iron__mlir_attr_get(op, "dimensionsToStream"),
                       &f->to_stream)) != IRON_OK)
        return s;
    const iron__mlir_attr *per =
        iron__mlir_attr_get(op, "dimensionsFromStreamPerConsumer");
    if (per && (per->kind != IRON__MA_ARRAY ||
                (per->n != 0 && per->n != f->ncons)))
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "fifo @%s: dimensionsFromStreamPerConsumer "
                              "has %d entries for %d consumers",
                              f->name, per->kind == IRON__MA_ARRAY ? per->n
                                                                   : -1,
                              f->ncons);
    for (int i = 0; per && i < per->n; i++)
        if ((s = read_dims(m, op, "dimensionsFromStream", per->items[i],
                           &f->from_stream[i])) != IRON_OK)
            return s;
    m->nfifos++;
    return IRON_OK;
}

/* ---- links -------------------------------------------------------------- */

static iron_status link_fifos(iron_mlir *m, const iron__mlir_op *op,
                              const char *attr, int *idx, int *n)
{
    const iron__mlir_attr *a = iron__mlir_attr_get(op, attr);
    if (!a || a->kind != IRON__MA_ARRAY || a->n < 1)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "%s: expected a list of fifo symbols", attr);
    if (a->n > IRON__MAX_CONS)
        return iron__imp_fail(m, IRON_ENOTSUP, op,
                              "%s lists %d fifos; at most %d", attr, a->n,
                              IRON__MAX_CONS);
    for (int i = 0; i < a->n; i++) {
        const iron__mlir_attr *x = a->items[i];
        int f = x->kind == IRON__MA_SYMREF ? iron__imp_fifo_at(m, x->s) : -1;
        if (f < 0)
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "%s: @%s is not an object fifo of the "
                                  "module",
                                  attr, x->s ? x->s : "?");
        idx[i] = f;
    }
    *n = a->n;
    return IRON_OK;
}

/* Offsets for n pieces of fifos idx: the attribute's, or (empty) each
 * piece after the one before. */
static iron_status link_offsets(iron_mlir *m, const iron__mlir_op *op,
                                const char *attr, int n, const int *idx,
                                int64_t *off)
{
    const iron__mlir_attr *a = iron__mlir_attr_get(op, attr);
    int given = a && (a->kind == IRON__MA_ARRAY ||
                      a->kind == IRON__MA_DENSE_ARRAY)
                    ? a->n
                    : 0;
    if (given && given != n)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "%s has %d offsets for %d fifos", attr, given,
                              n);
    int64_t at = 0;
    for (int i = 0; i < n; i++) {
        if (given) {
            const iron__mlir_attr *x = a->items[i];
            if (x->kind != IRON__MA_INT || x->i < 0)
                return iron__imp_fail(m, IRON_EDESIGN, op,
                                      "%s: offset %d is not a "
                                      "non-negative integer",
                                      attr, i);
            off[i] = x->i;
        } else {
            off[i] = at;
        }
        int64_t numel = 1;
        const iron__imp_fifo *f = &m->fifos[idx[i]];
        for (int k = 0; k < f->shape.ndim; k++)
            numel *= f->shape.dims[k];
        at += numel;
    }
    return IRON_OK;
}

static int has_cons_at(const iron__imp_fifo *f, iron__tile t)
{
    for (int i = 0; i < f->ncons; i++)
        if (f->cons[i].col == t.col && f->cons[i].row == t.row)
            return 1;
    return 0;
}

static iron_status read_link(iron_mlir *m, const iron__mlir_op *op)
{
    iron__imp_link *l = &m->links[m->nlinks];
    memset(l, 0, sizeof *l);
    l->op = op;
    iron_status s;
    if ((s = link_fifos(m, op, "fifoIns", l->in, &l->nin)) != IRON_OK ||
        (s = link_fifos(m, op, "fifoOuts", l->out, &l->nout)) != IRON_OK)
        return s;
    if (l->nin > 1 && l->nout > 1)
        return iron__imp_fail(m, IRON_ENOTSUP, op,
                              "a link of %d fifos into %d: only forward "
                              "(1 to 1), split (1 to n) and join (n to 1)",
                              l->nin, l->nout);
    l->kind = l->nin == 1 && l->nout == 1 ? IRON__IMP_FORWARD
              : l->nout > 1              ? IRON__IMP_SPLIT
                                         : IRON__IMP_JOIN;
    if (l->kind == IRON__IMP_SPLIT)
        s = link_offsets(m, op, "dst_offsets", l->nout, l->out, l->offsets);
    else if (l->kind == IRON__IMP_JOIN)
        s = link_offsets(m, op, "src_offsets", l->nin, l->in, l->offsets);
    if (s != IRON_OK)
        return s;
    /* Where it is: the outputs' producer tile, which every input must
     * reach as a consumer. */
    l->tile = m->fifos[l->out[0]].prod;
    for (int i = 0; i < l->nout; i++) {
        const iron__imp_fifo *f = &m->fifos[l->out[i]];
        if (f->prod.col != l->tile.col || f->prod.row != l->tile.row)
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "the link's outputs start on different "
                                  "tiles: @%s on (%d,%d), @%s on (%d,%d)",
                                  m->fifos[l->out[0]].name, l->tile.col,
                                  l->tile.row, f->name, f->prod.col,
                                  f->prod.row);
    }
    for (int i = 0; i < l->nin; i++) {
        const iron__imp_fifo *f = &m->fifos[l->in[i]];
        if (!has_cons_at(f, l->tile))
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "input @%s does not reach the link's tile "
                                  "(%d,%d), where its outputs start",
                                  f->name, l->tile.col, l->tile.row);
    }
    if (l->tile.row == 0)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "a link on shim tile (%d,0): a shim has no "
                              "memory to link through",
                              l->tile.col);
    /* Which fifos the link makes (they exist only through it) and which
     * it takes as they are. */
    int idx = m->nlinks;
    int *made = l->kind == IRON__IMP_JOIN ? l->in : l->out;
    int nmade = l->kind == IRON__IMP_JOIN ? l->nin : l->nout;
    for (int i = 0; i < nmade; i++) {
        iron__imp_fifo *f = &m->fifos[made[i]];
        if (f->made_by >= 0)
            return iron__imp_fail(m, IRON_ENOTSUP, op,
                                  "fifo @%s is already made by the link at "
                                  "%d:%d; a fifo may come out of one link",
                                  f->name,
                                  m->links[f->made_by].op->loc.line,
                                  m->links[f->made_by].op->loc.col);
        f->made_by = idx;
    }
    if (l->kind == IRON__IMP_JOIN) {
        iron__imp_fifo *f = &m->fifos[l->out[0]];
        if (f->link_out >= 0)
            return iron__imp_fail(m, IRON_ENOTSUP, op,
                                  "fifo @%s is joined by two links", f->name);
        f->link_out = idx;
        for (int i = 0; i < l->nin; i++)
            if (m->fifos[l->in[i]].ncons != 1)
                return iron__imp_fail(m, IRON_ENOTSUP, op,
                                      "join input @%s has %d consumers; a "
                                      "joined fifo goes to the link only",
                                      m->fifos[l->in[i]].name,
                                      m->fifos[l->in[i]].ncons);
    } else {
        iron__imp_fifo *f = &m->fifos[l->in[0]];
        if (f->link_in >= 0)
            return iron__imp_fail(m, IRON_ENOTSUP, op,
                                  "fifo @%s is the input of two links",
                                  f->name);
        f->link_in = idx;
    }
    m->nlinks++;
    return IRON_OK;
}

/* ---- cores, buffers, locks, functions ----------------------------------- */

static iron_status read_core(iron_mlir *m, const iron__mlir_op *op)
{
    iron__imp_core *c = &m->cores[m->ncores];
    memset(c, 0, sizeof *c);
    c->op = op;
    iron_status s = tile_operand(m, op, 0, &c->tile);
    if (s != IRON_OK)
        return s;
    if (c->tile.row < 2)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "a core on tile (%d,%d), a %s: cores run on "
                              "compute tiles (rows 2..%d)",
                              c->tile.col, c->tile.row,
                              c->tile.row ? "memtile" : "shim tile",
                              1 + m->compute_rows);
    int other = core_at(m, c->tile);
    if (other >= 0)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "tile (%d,%d) already has the core at %d:%d; "
                              "one core per tile",
                              c->tile.col, c->tile.row,
                              m->cores[other].op->loc.line,
                              m->cores[other].op->loc.col);
    if (iron__mlir_attr_get(op, "elf_file"))
        return iron__imp_fail(m, IRON_ENOTSUP, op,
                              "elf_file: a prebuilt core image cannot run "
                              "on the emulator; give the core's code");
    int ok = 0;
    int64_t stack = iron__imp_int_attr(op, "stack_size", 0, &ok);
    if (ok < 0 || stack < 0 || stack > (1 << 20))
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "stack_size is not a size in bytes");
    c->stack = (uint32_t)stack;
    if (op->nregions < 1)
        return iron__imp_fail(m, IRON_EDESIGN, op, "the core has no region");
    snprintf(c->name, sizeof c->name, "core_%d_%d", c->tile.col,
             c->tile.row);
    m->ncores++;
    return IRON_OK;
}

/* A name for a buffer or lock without sym_name: its SSA name without
 * '%', as an identifier. */
static char *value_name(const iron_mlir *m, int v, const char *prefix,
                        int index)
{
    const iron__mlir_value *val = iron__mlir_value_at(m->mod, v);
    char buf[80];
    const char *n = val && val->name ? val->name : "";
    if (*n == '%')
        n++;
    if ((*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') || *n == '_') {
        size_t k = 0;
        for (; n[k] && k < 60; k++) {
            char ch = n[k];
            buf[k] = ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9'))
                         ? ch
                         : '_';
        }
        buf[k] = '\0';
    } else {
        snprintf(buf, sizeof buf, "%s%d", prefix, index);
    }
    return iron__strdup(buf);
}

/* Element i of a dense attribute (a splat repeats its one value) stored
 * as dtype dt at p. */
static void put_element(const iron__mlir_attr *dense, int64_t i,
                        iron_dtype dt, void *p)
{
    const iron__mlir_attr *x = dense->items[dense->n == 1 ? 0 : i];
    int is_int = x->kind == IRON__MA_INT || x->kind == IRON__MA_BOOL;
    int64_t iv = is_int ? x->i : (int64_t)x->f;
    double fv = is_int ? (double)x->i : x->f;
    switch (dt) {
    case IRON_INT8: *(int8_t *)p = (int8_t)iv; break;
    case IRON_UINT8: *(uint8_t *)p = (uint8_t)iv; break;
    case IRON_INT16: *(int16_t *)p = (int16_t)iv; break;
    case IRON_UINT16: *(uint16_t *)p = (uint16_t)iv; break;
    case IRON_INT32: *(int32_t *)p = (int32_t)iv; break;
    case IRON_UINT32: *(uint32_t *)p = (uint32_t)iv; break;
    case IRON_INT64: *(int64_t *)p = iv; break;
    case IRON_UINT64: *(uint64_t *)p = (uint64_t)iv; break;
    case IRON_FLOAT32: *(float *)p = (float)fv; break;
    case IRON_FLOAT64: *(double *)p = fv; break;
    case IRON_BFLOAT16:
        *(iron_bf16 *)p = iron_bf16_from_float((float)fv);
        break;
    default: break;
    }
}

static iron_status read_buffer(iron_mlir *m, const iron__mlir_op *op)
{
    iron__imp_buf *b = &m->bufs[m->nbufs];
    memset(b, 0, sizeof *b);
    b->op = op;
    iron_status s = tile_operand(m, op, 0, &b->tile);
    if (s != IRON_OK)
        return s;
    if (op->nresults != 1)
        return iron__imp_fail(m, IRON_EDESIGN, op, "expected one result");
    b->value = op->results[0];
    b->type = iron__imp_type_of(m, b->value);
    iron_shape sh;
    char tb[128];
    if (iron__imp_memref(b->type, &b->dtype, &sh) != 0)
        return iron__imp_fail(m, IRON_ENOTSUP, op,
                              "buffer of type %s; expected a static memref "
                              "of i8..i64, bf16, f32 or f64",
                              type_text(b->type, tb, sizeof tb));
    b->count = 1;
    for (int i = 0; i < sh.ndim; i++)
        b->count *= sh.dims[i];
    const iron__mlir_attr *sym = iron__mlir_attr_get(op, "sym_name");
    b->sym = sym && sym->s && *sym->s ? sym->s : NULL;
    b->name = b->sym ? iron__strdup(b->sym)
                     : value_name(m, b->value, "buffer", m->nbufs);
    if (!b->name)
        return iron__fail(IRON_ENOMEM, "out of memory");
    m->buf_of[b->value] = m->nbufs;
    m->nbufs++;
    const iron__mlir_attr *init = iron__mlir_attr_get(op, "initial_value");
    if (init) {
        if (init->kind != IRON__MA_DENSE ||
            (init->n != 1 && init->n != b->count))
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "initial_value: expected dense<...> with "
                                  "1 or %lld values",
                                  (long long)b->count);
        size_t es = iron_dtype_size(b->dtype);
        b->initial = iron__calloc((size_t)b->count, es);
        if (!b->initial)
            return iron__fail(IRON_ENOMEM, "out of memory");
        for (int64_t i = 0; i < b->count; i++)
            put_element(init, i, b->dtype, (char *)b->initial + i * es);
    }
    return IRON_OK;
}

static iron_status read_lock(iron_mlir *m, const iron__mlir_op *op)
{
    iron__imp_lock *l = &m->locks[m->nlocks];
    memset(l, 0, sizeof *l);
    l->op = op;
    iron_status s = tile_operand(m, op, 0, &l->tile);
    if (s != IRON_OK)
        return s;
    if (op->nresults != 1)
        return iron__imp_fail(m, IRON_EDESIGN, op, "expected one result");
    int ok = 0;
    int64_t init = iron__imp_int_attr(op, "init", 0, &ok);
    if (ok < 0 || init < 0 || init > 63)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "init %lld; a lock holds 0..63",
                              (long long)init);
    l->init = (int)init;
    l->value = op->results[0];
    const iron__mlir_attr *sym = iron__mlir_attr_get(op, "sym_name");
    l->name = sym && sym->s && *sym->s
                  ? iron__strdup(sym->s)
                  : value_name(m, l->value, "lock", m->nlocks);
    if (!l->name)
        return iron__fail(IRON_ENOMEM, "out of memory");
    m->lock_of[l->value] = m->nlocks;
    m->nlocks++;
    return IRON_OK;
}

/* "int32*" for memref<..xi32>, "int32" for i32; NULL when the type has
 * no C counterpart the kernel ABI passes. */
static const char *param_type(const iron__mlir_type *t, char *buf,
                              size_t len)
{
    iron_dtype dt;
    if (t && t->kind == IRON__MT_MEMREF) {
        if (iron__imp_dtype(t->elem, &dt) != 0)
            return NULL;
        snprintf(buf, len, "%s*", iron_dtype_name(dt));
        return buf;
    }
    if (iron__imp_dtype(t, &dt) != 0)
        return NULL;
    snprintf(buf, len, "%s", iron_dtype_name(dt));
    return buf;
}

static int has_body(const iron__mlir_op *op)
{
    return op->nregions > 0 && op->regions[0]->nblocks > 0 &&
           op->regions[0]->blocks[0]->nops > 0;
}

static iron_status read_func(iron_mlir *m, const iron__mlir_op *op)
{
    iron__imp_func *f = &m->funcs[m->nfuncs];
    memset(f, 0, sizeof *f);
    f->op = op;
    const iron__mlir_attr *sym = iron__mlir_attr_get(op, "sym_name");
    const iron__mlir_attr *ft = iron__mlir_attr_get(op, "function_type");
    if (!sym || !sym->s || !ft || ft->kind != IRON__MA_TYPE ||
        !ft->type || ft->type->kind != IRON__MT_FUNCTION)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "expected a name and a function type");
    f->name = sym->s;
    f->type = ft->type;
    if (has_body(op))
        return iron__imp_fail(m, IRON_ENOTSUP, op,
                              "@%s has a body: only declarations of "
                              "external kernels (func.func private @f(...)) "
                              "are read; the runtime sequence is "
                              "aie.runtime_sequence",
                              f->name);
    if (iron__imp_func_at(m, f->name) >= 0)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "function @%s is declared twice", f->name);
    /* The C declaration; an unrepresentable one is reported where the
     * function is called (a declared, uncalled function is harmless). */
    iron__str s = { 0 };
    int ok = f->type->nout == 0;
    for (int i = 0; ok && i < f->type->nin; i++) {
        char pb[64];
        const char *p = param_type(f->type->in[i], pb, sizeof pb);
        if (!p)
            ok = 0;
        else
            iron__str_printf(&s, "%s%s", i ? ", " : "", p);
    }
    if (s.oom)
        return iron__fail(IRON_ENOMEM, "out of memory");
    if (ok && f->type->nin > IRON__MAX_KARGS)
        ok = 0;
    f->arg_types = ok ? iron__str_take(&s) : NULL;
    iron__str_free(&s);
    if (ok && !f->arg_types) {
        f->arg_types = iron__strdup("");
        if (!f->arg_types)
            return iron__fail(IRON_ENOMEM, "out of memory");
    }
    m->nfuncs++;
    return IRON_OK;
}

/* ---- the device's ops --------------------------------------------------- */

/* The runtime sequence: aie.runtime_sequence, aiex.runtime_sequence, or
 * (early 2024) a func.func whose body holds aiex ops. */
static int is_sequence(const iron__mlir_op *op)
{
    if (strcmp(op->name, "aie.runtime_sequence") == 0 ||
        strcmp(op->name, "aiex.runtime_sequence") == 0)
        return 1;
    if (strcmp(op->name, "func.func") != 0 || op->nregions < 1 ||
        op->regions[0]->nblocks != 1)
        return 0;
    const iron__mlir_block *b = op->regions[0]->blocks[0];
    for (int i = 0; i < b->nops; i++)
        if (strncmp(b->ops[i]->name, "aiex.", 5) == 0)
            return 1;
    return 0;
}

/* Counts each kind of op so that the tables are allocated once (and
 * nfuncs more functions: those declared beside the device). */
static iron_status size_tables(iron_mlir *m, const iron__mlir_block *blk,
                               int nfuncs)
{
    int n[6] = { 0, 0, 0, 0, 0, nfuncs };
    for (int i = 0; i < blk->nops; i++) {
        const char *name = blk->ops[i]->name;
        n[0] += strcmp(name, "aie.objectfifo") == 0;
        n[1] += strcmp(name, "aie.objectfifo.link") == 0;
        n[2] += strcmp(name, "aie.core") == 0;
        n[3] += strcmp(name, "aie.buffer") == 0;
        n[4] += strcmp(name, "aie.lock") == 0;
        n[5] += strcmp(name, "func.func") == 0;
    }
    m->fifos = iron__calloc((size_t)n[0] + 1, sizeof *m->fifos);
    m->links = iron__calloc((size_t)n[1] + 1, sizeof *m->links);
    m->cores = iron__calloc((size_t)n[2] + 1, sizeof *m->cores);
    m->bufs = iron__calloc((size_t)n[3] + 1, sizeof *m->bufs);
    m->locks = iron__calloc((size_t)n[4] + 1, sizeof *m->locks);
    m->funcs = iron__calloc((size_t)n[5] + 1, sizeof *m->funcs);
    size_t nv = (size_t)m->mod->nvalues + 1;
    m->tile_col = iron__malloc(nv * sizeof(int));
    m->tile_row = iron__malloc(nv * sizeof(int));
    m->buf_of = iron__malloc(nv * sizeof(int));
    m->lock_of = iron__malloc(nv * sizeof(int));
    if (!m->fifos || !m->links || !m->cores || !m->bufs || !m->locks ||
        !m->funcs || !m->tile_col || !m->tile_row || !m->buf_of ||
        !m->lock_of)
        return iron__fail(IRON_ENOMEM, "out of memory reading the module");
    for (size_t i = 0; i < nv; i++)
        m->tile_col[i] = m->tile_row[i] = m->buf_of[i] = m->lock_of[i] = -1;
    return IRON_OK;
}

/* Every endpoint of every fifo has something at its tile to use it: the
 * runtime on a shim, a link on a memtile, a core (or a link) on a compute
 * tile. */
static iron_status check_ends(const iron_mlir *m)
{
    for (int i = 0; i < m->nfifos; i++) {
        const iron__imp_fifo *f = &m->fifos[i];
        for (int e = -1; e < f->ncons; e++) {
            iron__tile t = e < 0 ? f->prod : f->cons[e];
            int linked = 0;
            for (int k = 0; k < m->nlinks; k++) {
                const iron__imp_link *l = &m->links[k];
                if (l->tile.col != t.col || l->tile.row != t.row)
                    continue;
                const int *side = e < 0 ? l->out : l->in;
                int n = e < 0 ? l->nout : l->nin;
                for (int j = 0; j < n; j++)
                    linked |= side[j] == i;
            }
            if (t.row == 0 || linked || (t.row >= 2 && core_at(m, t) >= 0))
                continue;
            return iron__imp_fail(
                m, IRON_EDESIGN, f->op,
                "fifo @%s: its %s on tile (%d,%d) has no user: %s", f->name,
                e < 0 ? "producer" : "consumer", t.col, t.row,
                t.row == 1 ? "no aie.objectfifo.link on that memtile takes "
                             "it"
                           : "no aie.core and no link on that tile");
        }
    }
    for (int k = 0; k < m->nlinks; k++) {
        const iron__imp_link *l = &m->links[k];
        if (l->tile.row >= 2 && core_at(m, l->tile) >= 0)
            return iron__imp_fail(m, IRON_EDESIGN, l->op,
                                  "the link is on compute tile (%d,%d), "
                                  "where the core at %d:%d runs: link "
                                  "through a memtile or a tile without a "
                                  "core",
                                  l->tile.col, l->tile.row,
                                  m->cores[core_at(m, l->tile)].op->loc.line,
                                  m->cores[core_at(m, l->tile)].op->loc.col);
    }
    return IRON_OK;
}

static iron_status read_op(iron_mlir *m, const iron__mlir_op *op)
{
    const char *n = op->name;
    if (strcmp(n, "aie.tile") == 0)
        return read_tile(m, op);
    if (strcmp(n, "aie.objectfifo") == 0)
        return read_fifo(m, op);
    if (strcmp(n, "aie.core") == 0)
        return read_core(m, op);
    if (strcmp(n, "aie.buffer") == 0)
        return read_buffer(m, op);
    if (strcmp(n, "aie.lock") == 0)
        return read_lock(m, op);
    if (strcmp(n, "func.func") == 0 && !is_sequence(op))
        return read_func(m, op);
    if (is_sequence(op)) {
        if (m->seq)
            return iron__imp_fail(m, IRON_ENOTSUP, op,
                                  "a second runtime sequence (the first is "
                                  "at %d:%d); a module runs one",
                                  m->seq->loc.line, m->seq->loc.col);
        m->seq = op;
        return IRON_OK;
    }
    /* Links refer to fifos by name, maybe defined later: second pass. */
    if (strcmp(n, "aie.objectfifo.link") == 0 || strcmp(n, "aie.end") == 0 ||
        strcmp(n, "arith.constant") == 0)
        return IRON_OK;
    return iron__imp_fail(m, IRON_ENOTSUP, op,
                          "not read at device level (it reads object "
                          "fifos, links, cores, buffers, locks, external "
                          "functions and the runtime sequence; "
                          "docs/mlir.md)");
}

/* ---- the module: its device, the declarations beside it ---------------- */

/* A device's symbol name: its sym_name, or "main" for an unnamed one --
 * upstream's default, which aiecc's --device-name matches. */
static const char *device_sym(const iron__mlir_op *dev)
{
    const iron__mlir_attr *a = iron__mlir_attr_get(dev, "sym_name");
    return a && (a->kind == IRON__MA_STR || a->kind == IRON__MA_SYMREF) &&
                   a->s && *a->s
               ? a->s
               : "main";
}

/* "@a (3:3), @main (unnamed, 9:3)": the devices of mb (only those named
 * `only`, when given). */
static void device_list(const iron__mlir_block *mb, const char *only,
                        iron__str *s)
{
    int k = 0;
    for (int i = 0; i < mb->nops; i++) {
        const iron__mlir_op *op = mb->ops[i];
        if (strcmp(op->name, "aie.device") != 0 ||
            (only && strcmp(device_sym(op), only) != 0))
            continue;
        int unnamed = !iron__mlir_attr_get(op, "sym_name");
        iron__str_printf(s, "%s@%s (%s%d:%d)", k++ ? ", " : "",
                         device_sym(op), unnamed ? "unnamed, " : "",
                         op->loc.line, op->loc.col);
    }
}

/* The device to run: the module's only one, or the one named
 * m->want_device. */
static iron_status select_device(iron_mlir *m, const iron__mlir_block *mb)
{
    const char *want = m->want_device;
    const iron__mlir_op *dev = NULL;
    int ndev = 0, nmatch = 0;
    for (int i = 0; mb && i < mb->nops; i++) {
        const iron__mlir_op *op = mb->ops[i];
        if (strcmp(op->name, "aie.device") != 0)
            continue;
        ndev++;
        if (!want || strcmp(device_sym(op), want) == 0) {
            nmatch++;
            if (!dev)
                dev = op;
        }
    }
    if (!ndev)
        return iron__imp_fail(m, IRON_EDESIGN, NULL,
                              "the module has no aie.device");
    if (nmatch == 1) {
        m->device = dev;
        return IRON_OK;
    }
    iron__str list = { 0 };
    device_list(mb, nmatch > 1 ? want : NULL, &list);
    iron_status s;
    if (list.oom)
        s = iron__fail(IRON_ENOMEM, "out of memory");
    else if (!want)
        s = iron__imp_fail(m, IRON_EINVAL, NULL,
                           "the module holds %d devices: %s; choose one "
                           "by its symbol name (an unnamed device is "
                           "@main) with iron_mlir_import_options."
                           "device_name or iron run-mlir --device-name",
                           ndev, iron__str_get(&list));
    else if (nmatch == 0)
        s = iron__imp_fail(m, IRON_EINVAL, NULL,
                           "no aie.device is named @%s; the module's "
                           "device%s: %s",
                           want, ndev == 1 ? "" : "s", iron__str_get(&list));
    else
        s = iron__imp_fail(m, IRON_EDESIGN, NULL,
                           "%d devices are named @%s: %s; a symbol names "
                           "one device",
                           nmatch, want, iron__str_get(&list));
    iron__str_free(&list);
    return s;
}

/* The module's other ops: func.func declarations (counted in *nfuncs),
 * read as if declared in the device, and nothing else. */
static iron_status check_module_ops(iron_mlir *m, const iron__mlir_block *mb,
                                    int *nfuncs)
{
    *nfuncs = 0;
    for (int i = 0; i < mb->nops; i++) {
        const iron__mlir_op *op = mb->ops[i];
        if (strcmp(op->name, "aie.device") == 0)
            continue;
        if (strcmp(op->name, "func.func") == 0) {
            if (has_body(op))
                return iron__imp_fail(
                    m, IRON_ENOTSUP, op,
                    "a function with a body outside aie.device: only "
                    "declarations of external kernels (func.func private "
                    "@f(...)) are read there; a runtime sequence, early "
                    "2024's func.func @sequence too, belongs inside the "
                    "device, as upstream writes it");
            (*nfuncs)++;
            continue;
        }
        if (op->opaque || !iron__imp_reads_op(op->name) ||
            iron__imp_outside_reason(op->name))
            return iron__imp_outside(m, op);
        return iron__imp_fail(m, IRON_ENOTSUP, op,
                              "outside aie.device: a module holds aie.device "
                              "ops and func.func declarations");
    }
    return IRON_OK;
}

iron_status iron__imp_analyze(iron_mlir *m)
{
    const iron__mlir_op *top = m->mod->top;
    static const iron__mlir_block none;
    const iron__mlir_block *mb = top && top->nregions > 0 &&
                                         top->regions[0]->nblocks > 0
                                     ? top->regions[0]->blocks[0]
                                     : &none;
    iron_status s = select_device(m, mb);
    int nmodfuncs;
    if (s == IRON_OK)
        s = check_module_ops(m, mb, &nmodfuncs);
    if (s != IRON_OK)
        return s;
    const iron__mlir_op *dev = m->device;
    if ((s = read_device(m, dev)) != IRON_OK ||
        (s = iron__imp_check_subset(m, dev)) != IRON_OK)
        return s;
    static const iron__mlir_block empty;
    const iron__mlir_block *db = dev->nregions > 0 &&
                                         dev->regions[0]->nblocks > 0
                                     ? dev->regions[0]->blocks[0]
                                     : &empty;
    if ((s = size_tables(m, db, nmodfuncs)) != IRON_OK)
        return s;
    for (int i = 0; i < mb->nops; i++)
        if (strcmp(mb->ops[i]->name, "func.func") == 0 &&
            (s = read_func(m, mb->ops[i])) != IRON_OK)
            return s;
    for (int i = 0; i < db->nops; i++)
        if ((s = read_op(m, db->ops[i])) != IRON_OK)
            return s;
    for (int i = 0; i < db->nops; i++)
        if (strcmp(db->ops[i]->name, "aie.objectfifo.link") == 0 &&
            (s = read_link(m, db->ops[i])) != IRON_OK)
            return s;
    if ((s = check_ends(m)) != IRON_OK)
        return s;
    /* Every C source given must name a declared function. */
    for (int k = 0; k < m->nkernels; k++) {
        int f = iron__imp_func_at(m, m->kernels[k].name);
        if (f >= 0) {
            m->funcs[f].source = m->kernels[k].source;
            m->funcs[f].lang = m->kernels[k].lang;
            continue;
        }
        iron__str names = { 0 };
        for (int i = 0; i < m->nfuncs; i++)
            iron__str_printf(&names, "%s@%s", i ? ", " : "",
                             m->funcs[i].name);
        s = iron__imp_fail(m, IRON_EINVAL, NULL,
                           "a C source is given for '%s', which the module "
                           "does not declare (its external functions: %s)",
                           m->kernels[k].name,
                           m->nfuncs ? iron__str_get(&names) : "none");
        iron__str_free(&names);
        return s;
    }
    if (!m->seq)
        return iron__imp_fail(m, IRON_EDESIGN, dev,
                              "the device has no runtime sequence "
                              "(aie.runtime_sequence): nothing moves data "
                              "in or out");
    return IRON_OK;
}
