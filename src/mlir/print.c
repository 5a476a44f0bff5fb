/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * print.c - the MLIR tree as text: values, types and attributes as MLIR
 * writes them, ops in the generic form, regions, the module, and the
 * cores-as-functions text the mlir-opt test verifies.  Custom forms are
 * the op registry's (ops.h, format.c).
 *
 * Spellings the generic form needs that the tree keeps differently:
 *   - an enum keyword is the integer upstream's enum prints as, typed
 *     (`device = 5 : i32`, `port = 1 : i32`, `predicate = 2 : i64`;
 *     the op registry's enums, AIEDevice as upstream numbers it now; a
 *     target before 2025-06 numbers it by version.c); a keyword
 *     of no known enum is a string;
 *   - AIE's dimension lists are #aie<bd_dim_layout_array[<size = s,
 *     stride = t>, ...]> (dimensions, dimensionsToStream),
 *     #aie<bd_dim_layout_array_array[[...], ...]>
 *     (dimensionsFromStreamPerConsumer), #aie<bd_pad_layout_array[...]>
 *     (pad_dimensions); a lone DIM is #aie.bd_dim_layout<...>;
 *   - aiex.npu.rtp_write's buffer_sym_name is upstream's `buffer` symbol,
 *     or, in the 2024 form (with col and row), a string buffer_sym_name;
 *     aiex.dma_configure_task_for's `tile` is upstream's `alloc`.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mlir/ops.h"
#include "mlir/lex.h"
#include "mlir/print.h"

void iron__mlir_pr_out(iron__mlir_pr *w, const char *text)
{
    if (!w->dry)
        iron__str_append(w->s, text);
}

void iron__mlir_pr_outf(iron__mlir_pr *w, const char *fmt, ...)
{
    if (w->dry)
        return;
    va_list ap;
    va_start(ap, fmt);
    iron__str_vprintf(w->s, fmt, ap);
    va_end(ap);
}

void iron__mlir_pr_newline(iron__mlir_pr *w)
{
    if (w->dry)
        return;
    iron__str_append(w->s, "\n");
    for (int i = 0; i < w->indent; i++)
        iron__str_append(w->s, "  ");
}

/* ---------------------------------------------------------------------
 * Values and types
 * --------------------------------------------------------------------- */

void iron__mlir_pr_value(iron__mlir_pr *w, int id)
{
    const iron__mlir_value *v = iron__mlir_value_at(w->m, id);
    if (v && v->name)
        iron__mlir_pr_out(w, v->name);
    else
        iron__mlir_pr_outf(w, "%%_%d", id);
}

void iron__mlir_pr_values(iron__mlir_pr *w, const int *ids, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            iron__mlir_pr_out(w, ", ");
        iron__mlir_pr_value(w, ids[i]);
    }
}

/* The length of "%x" when name is "%x#k", else 0. */
static size_t group_base(const char *name, long k)
{
    const char *h = name ? strrchr(name, '#') : NULL;
    if (!h || strtol(h + 1, NULL, 10) != k)
        return 0;
    return (size_t)(h - name);
}

void iron__mlir_pr_results(iron__mlir_pr *w, const iron__mlir_op *op)
{
    if (op->nresults == 0)
        return;
    for (int i = 0; i < op->nresults;) {
        if (i)
            iron__mlir_pr_out(w, ", ");
        const iron__mlir_value *v = iron__mlir_value_at(w->m, op->results[i]);
        size_t base = v ? group_base(v->name, 0) : 0;
        int n = 1;
        if (base) {
            while (i + n < op->nresults) {
                const iron__mlir_value *u =
                    iron__mlir_value_at(w->m, op->results[i + n]);
                if (!u || group_base(u->name, n) != base ||
                    strncmp(u->name, v->name, base) != 0)
                    break;
                n++;
            }
            iron__mlir_pr_outf(w, "%.*s", (int)base, v->name);
            if (n > 1)
                iron__mlir_pr_outf(w, ":%d", n);
            else
                iron__mlir_pr_out(w, "#0");
        } else {
            iron__mlir_pr_value(w, op->results[i]);
        }
        i += n;
    }
    iron__mlir_pr_out(w, " = ");
}

void iron__mlir_pr_type(iron__mlir_pr *w, const iron__mlir_type *t)
{
    if (!w->dry)
        iron__mlir_type_text(t, w->s);
}

void iron__mlir_pr_value_types(iron__mlir_pr *w, const int *ids, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            iron__mlir_pr_out(w, ", ");
        const iron__mlir_value *v = iron__mlir_value_at(w->m, ids[i]);
        iron__mlir_pr_type(w, v ? v->type : NULL);
    }
}

void iron__mlir_pr_functional(iron__mlir_pr *w, const int *ins, int nin,
                              const int *outs, int nout)
{
    iron__mlir_pr_out(w, "(");
    iron__mlir_pr_value_types(w, ins, nin);
    iron__mlir_pr_out(w, ") -> ");
    const iron__mlir_value *v =
        nout == 1 ? iron__mlir_value_at(w->m, outs[0]) : NULL;
    if (v && v->type && v->type->kind != IRON__MT_FUNCTION) {
        iron__mlir_pr_type(w, v->type);
    } else {
        iron__mlir_pr_out(w, "(");
        iron__mlir_pr_value_types(w, outs, nout);
        iron__mlir_pr_out(w, ")");
    }
}

/* ---------------------------------------------------------------------
 * Attributes
 * --------------------------------------------------------------------- */

static int is_bare_id(const char *s)
{
    if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                *s == '_'))
        return 0;
    for (const char *c = s; *c; c++)
        if (!iron__mlir_lex_is_bare_char((unsigned char)*c))
            return 0;
    return 1;
}

int iron__mlir_pr_is_bare(const char *s)
{
    return is_bare_id(s);
}

static void string_lit(iron__mlir_pr *w, const char *s)
{
    iron__mlir_pr_out(w, "\"");
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '\\')
            iron__mlir_pr_out(w, "\\\\");
        else if (*c >= 0x20 && *c < 0x7F && *c != '"')
            iron__mlir_pr_outf(w, "%c", *c);
        else
            iron__mlir_pr_outf(w, "\\%02X", *c);
    }
    iron__mlir_pr_out(w, "\"");
}

/* "a::@b": a nested reference whose parts are all bare identifiers. */
static int nested_bare(const char *name)
{
    if (!name || !strstr(name, "::@"))
        return 0;
    for (const char *p = name;;) {
        const char *sep = strstr(p, "::@");
        size_t n = sep ? (size_t)(sep - p) : strlen(p);
        if (n == 0 || !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                        *p == '_'))
            return 0;
        for (size_t i = 0; i < n; i++)
            if (!iron__mlir_lex_is_bare_char((unsigned char)p[i]))
                return 0;
        if (!sep)
            return 1;
        p = sep + 3;
    }
}

void iron__mlir_pr_symbol(iron__mlir_pr *w, const char *name)
{
    iron__mlir_pr_out(w, "@");
    if (is_bare_id(name) || nested_bare(name))
        iron__mlir_pr_out(w, name);
    else
        string_lit(w, name ? name : "");
}

void iron__mlir_pr_symdef(iron__mlir_pr *w, const char *name)
{
    iron__mlir_pr_out(w, "@");
    if (is_bare_id(name))
        iron__mlir_pr_out(w, name);
    else
        string_lit(w, name ? name : "");
}

/* The bits of f in a float type of `width` (bf: bfloat16), for NaN and
 * infinities, which MLIR writes in hexadecimal. */
static uint64_t special_bits(double f, int width, int bf)
{
    int neg = signbit(f) != 0;
    if (width == 64) {
        uint64_t b = isnan(f) ? 0x7FF8000000000000ull : 0x7FF0000000000000ull;
        return b | (uint64_t)neg << 63;
    }
    if (width == 32) {
        uint64_t b = isnan(f) ? 0x7FC00000u : 0x7F800000u;
        return b | (uint64_t)neg << 31;
    }
    uint64_t b = bf ? (isnan(f) ? 0x7FC0u : 0x7F80u)
                    : (isnan(f) ? 0x7E00u : 0x7C00u);
    return b | (uint64_t)neg << 15;
}

void iron__mlir_pr_float(iron__mlir_pr *w, double f,
                         const iron__mlir_type *t)
{
    if (!isfinite(f)) {
        int width = t && t->kind == IRON__MT_FLOAT ? t->width : 64;
        int bf = t && t->kind == IRON__MT_FLOAT ? t->bf : 0;
        iron__mlir_pr_outf(w, "0x%0*llX", width / 4,
                           (unsigned long long)special_bits(f, width, bf));
        return;
    }
    /* as MLIR: six digits in exponent form when that is exact, else the
     * shortest digits that are */
    char buf[64];
    snprintf(buf, sizeof buf, "%.6e", f);
    if (strtod(buf, NULL) == f) {
        iron__mlir_pr_out(w, buf);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, f);
        if (strtod(buf, NULL) == f)
            break;
    }
    /* MLIR wants digits '.' digits [e...] */
    char out[80];
    char *e = strchr(buf, 'e');
    if (!strchr(buf, '.')) {
        if (e)
            snprintf(out, sizeof out, "%.*s.0%s", (int)(e - buf), buf, e);
        else
            snprintf(out, sizeof out, "%s.0", buf);
    } else {
        snprintf(out, sizeof out, "%s", buf);
    }
    iron__mlir_pr_out(w, out);
}

static void int_value(iron__mlir_pr *w, int64_t v, const iron__mlir_type *t)
{
    if (t && t->kind == IRON__MT_INT && t->sign == 2 && t->width >= 64)
        iron__mlir_pr_outf(w, "%llu", (unsigned long long)v);
    else
        iron__mlir_pr_outf(w, "%lld", (long long)v);
}

static void type_suffix(iron__mlir_pr *w, const iron__mlir_type *t)
{
    if (t) {
        iron__mlir_pr_out(w, " : ");
        iron__mlir_pr_type(w, t);
    }
}

static void dim(iron__mlir_pr *w, const iron__mlir_attr *a)
{
    iron__mlir_pr_outf(w, "<size = %lld, stride = %lld>", (long long)a->i,
                       (long long)a->stride);
}

static int all_dims(const iron__mlir_attr *a)
{
    if (a->kind != IRON__MA_ARRAY)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->items[i]->kind != IRON__MA_DIM)
            return 0;
    return 1;
}

/* "[<size = 1, stride = 2>, ...]" */
static void dim_list(iron__mlir_pr *w, const iron__mlir_attr *a)
{
    iron__mlir_pr_out(w, "[");
    for (int i = 0; i < a->n; i++) {
        if (i)
            iron__mlir_pr_out(w, ", ");
        dim(w, a->items[i]);
    }
    iron__mlir_pr_out(w, "]");
}

static const char pad_prefix[] = "#aie.bd_pad_layout";

static int all_pads(const iron__mlir_attr *a)
{
    if (a->kind != IRON__MA_ARRAY)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->items[i]->kind != IRON__MA_OPAQUE ||
            strncmp(a->items[i]->s, pad_prefix, sizeof pad_prefix - 1) != 0)
            return 0;
    return 1;
}

static void pad_list(iron__mlir_pr *w, const iron__mlir_attr *a)
{
    iron__mlir_pr_out(w, "[");
    for (int i = 0; i < a->n; i++) {
        if (i)
            iron__mlir_pr_out(w, ", ");
        iron__mlir_pr_out(w, a->items[i]->s + sizeof pad_prefix - 1);
    }
    iron__mlir_pr_out(w, "]");
}

/* One element of a dense attribute of element type t. */
static void dense_elem(iron__mlir_pr *w, const iron__mlir_attr *a,
                       const iron__mlir_type *t)
{
    if (a->kind == IRON__MA_FLOAT)
        iron__mlir_pr_float(w, a->f, t);
    else if (t && t->kind == IRON__MT_INT && t->width == 1)
        iron__mlir_pr_out(w, a->i ? "true" : "false");
    else
        int_value(w, a->i, t);
}

static void dense_level(iron__mlir_pr *w, const iron__mlir_attr *a,
                        const iron__mlir_type *t, int level, long *k)
{
    if (level == t->rank) {
        dense_elem(w, a->items[(*k)++], t->elem);
        return;
    }
    iron__mlir_pr_out(w, "[");
    for (int64_t i = 0; i < t->dims[level]; i++) {
        if (i)
            iron__mlir_pr_out(w, ", ");
        dense_level(w, a, t, level + 1, k);
    }
    iron__mlir_pr_out(w, "]");
}

void iron__mlir_pr_dense_body(iron__mlir_pr *w, const iron__mlir_attr *a)
{
    const iron__mlir_type *t = a->type;
    iron__mlir_pr_out(w, "dense<");
    long count = 1;
    int shaped = t && (t->kind == IRON__MT_TENSOR ||
                       t->kind == IRON__MT_VECTOR ||
                       t->kind == IRON__MT_MEMREF);
    for (int i = 0; shaped && i < t->rank; i++)
        count = t->dims[i] < 0 ? -1 : count * (long)t->dims[i];
    const iron__mlir_type *elem = shaped ? t->elem : NULL;
    if (a->n == 1 && shaped) {
        /* one value: a splat, as MLIR prints every one-element dense */
        dense_elem(w, a->items[0], elem);
    } else if (shaped && count == a->n && count >= 0) {
        long k = 0;
        if (t->rank == 0 && a->n == 1)
            dense_elem(w, a->items[0], elem);
        else
            dense_level(w, a, t, 0, &k);
    } else {
        /* a degenerate tree: the elements as one list */
        iron__mlir_pr_out(w, "[");
        for (int i = 0; i < a->n; i++) {
            if (i)
                iron__mlir_pr_out(w, ", ");
            dense_elem(w, a->items[i], elem);
        }
        iron__mlir_pr_out(w, "]");
    }
    iron__mlir_pr_out(w, ">");
}

static void keyword(iron__mlir_pr *w, const iron__mlir_attr *a,
                    const char *op, const char *name)
{
    int64_t v;
    int width;
    if (iron__mlir_enum_value(op, name, a->s, &v, &width))
        iron__mlir_pr_outf(w, "%lld : i%d", (long long)v, width);
    else
        string_lit(w, a->s ? a->s : "");
}

void iron__mlir_pr_attr(iron__mlir_pr *w, const iron__mlir_attr *a,
                        const char *op, const char *name)
{
    if (!a) {
        iron__mlir_pr_out(w, "unit");
        return;
    }
    switch (a->kind) {
    case IRON__MA_INT:
        int_value(w, a->i, a->type);
        type_suffix(w, a->type);
        break;
    case IRON__MA_FLOAT:
        iron__mlir_pr_float(w, a->f, a->type);
        type_suffix(w, a->type);
        break;
    case IRON__MA_BOOL:
        iron__mlir_pr_out(w, a->i ? "true" : "false");
        break;
    case IRON__MA_STR:
        string_lit(w, a->s ? a->s : "");
        break;
    case IRON__MA_SYMREF:
        iron__mlir_pr_symbol(w, a->s);
        break;
    case IRON__MA_KEYWORD:
        keyword(w, a, op, name);
        break;
    case IRON__MA_UNIT:
        iron__mlir_pr_out(w, "unit");
        break;
    case IRON__MA_TYPE:
        iron__mlir_pr_type(w, a->type);
        break;
    case IRON__MA_ARRAY:
        if (name && all_dims(a) &&
            (strcmp(name, "dimensions") == 0 ||
             strcmp(name, "dimensionsToStream") == 0)) {
            iron__mlir_pr_out(w, "#aie<bd_dim_layout_array");
            dim_list(w, a);
            iron__mlir_pr_out(w, ">");
            break;
        }
        if (name && strcmp(name, "dimensionsFromStreamPerConsumer") == 0) {
            int ok = 1;
            for (int i = 0; ok && i < a->n; i++)
                ok = all_dims(a->items[i]);
            if (ok) {
                iron__mlir_pr_out(w, "#aie<bd_dim_layout_array_array[");
                for (int i = 0; i < a->n; i++) {
                    if (i)
                        iron__mlir_pr_out(w, ", ");
                    dim_list(w, a->items[i]);
                }
                iron__mlir_pr_out(w, "]>");
                break;
            }
        }
        if (name && strcmp(name, "pad_dimensions") == 0 && all_pads(a)) {
            iron__mlir_pr_out(w, "#aie<bd_pad_layout_array");
            pad_list(w, a);
            iron__mlir_pr_out(w, ">");
            break;
        }
        iron__mlir_pr_out(w, "[");
        for (int i = 0; i < a->n; i++) {
            if (i)
                iron__mlir_pr_out(w, ", ");
            iron__mlir_pr_attr(w, a->items[i], NULL, NULL);
        }
        iron__mlir_pr_out(w, "]");
        break;
    case IRON__MA_DENSE_ARRAY:
        iron__mlir_pr_out(w, "array<");
        iron__mlir_pr_type(w, a->type);
        for (int i = 0; i < a->n; i++) {
            iron__mlir_pr_out(w, i ? ", " : ": ");
            dense_elem(w, a->items[i], a->type);
        }
        iron__mlir_pr_out(w, ">");
        break;
    case IRON__MA_DENSE:
        iron__mlir_pr_dense_body(w, a);
        type_suffix(w, a->type);
        break;
    case IRON__MA_DICT:
        iron__mlir_pr_out(w, "{");
        for (int i = 0; i < a->n; i++) {
            if (i)
                iron__mlir_pr_out(w, ", ");
            if (is_bare_id(a->keys[i]))
                iron__mlir_pr_out(w, a->keys[i]);
            else
                string_lit(w, a->keys[i]);
            if (a->items[i]->kind != IRON__MA_UNIT) {
                iron__mlir_pr_out(w, " = ");
                iron__mlir_pr_attr(w, a->items[i], NULL, NULL);
            }
        }
        iron__mlir_pr_out(w, "}");
        break;
    case IRON__MA_DIM:
        iron__mlir_pr_out(w, "#aie.bd_dim_layout");
        dim(w, a);
        break;
    case IRON__MA_OPAQUE:
        iron__mlir_pr_out(w, a->s ? a->s : "unit");
        break;
    }
}

static int skipped(const char *name, const char *const *skip)
{
    for (; skip && *skip; skip++)
        if (strcmp(*skip, name) == 0)
            return 1;
    return 0;
}

/* The generic form's name of attribute n of op (the registry knows the
 * few the tree names differently). */
static const char *generic_name(const iron__mlir_op *op, const char *name,
                                int generic)
{
    return generic ? iron__mlir_generic_attr_name(op, name) : name;
}

typedef struct sorted_attr {
    const iron__mlir_named *n;
    const char *name;            /* as printed */
} sorted_attr;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const sorted_attr *)a)->name,
                  ((const sorted_attr *)b)->name);
}

static int is_inherent(const iron__mlir_op *op, const iron__mlir_named *n)
{
    int k = iron__mlir_inherent(op->name, n->name);
    return k >= 0 ? k : n->prop != 0;
}

/* Attributes of op in name order, filtered: which = 1 inherent only,
 * 2 others only, 0 all; `skip` names are left out.  generic: names as
 * the generic form spells them. */
static void dict_sorted(iron__mlir_pr *w, const iron__mlir_op *op,
                        const char *const *skip, int which, int generic)
{
    if (w->dry || op->nattrs == 0)
        return;
    sorted_attr *v = iron__malloc((size_t)op->nattrs * sizeof *v);
    if (!v) {
        w->s->oom = 1;
        return;
    }
    int n = 0;
    for (int i = 0; i < op->nattrs; i++) {
        const iron__mlir_named *a = &op->attrs[i];
        if (skipped(a->name, skip))
            continue;
        if (which && (which == 1) != is_inherent(op, a))
            continue;
        v[n].n = a;
        v[n++].name = generic_name(op, a->name, generic);
    }
    qsort(v, (size_t)n, sizeof *v, by_name);
    int old_rtp = generic && strcmp(op->name, "aiex.npu.rtp_write") == 0 &&
                  iron__mlir_attr_get(op, "col");
    for (int i = 0; i < n; i++) {
        if (i)
            iron__mlir_pr_out(w, ", ");
        if (is_bare_id(v[i].name))
            iron__mlir_pr_out(w, v[i].name);
        else
            string_lit(w, v[i].name);
        const iron__mlir_attr *a = v[i].n->attr;
        if (!a || a->kind == IRON__MA_UNIT)
            continue;
        iron__mlir_pr_out(w, " = ");
        if (a->kind == IRON__MA_SYMREF &&
            strcmp(v[i].n->name, "buffer_sym_name") == 0 &&
            strcmp(op->name, "aiex.npu.rtp_write") == 0 &&
            (old_rtp || !generic))
            /* the 2024 form's string */
            string_lit(w, a->s ? a->s : "");
        else
            iron__mlir_pr_attr(w, a, op->name, v[i].n->name);
    }
    iron__free(v);
}

static int count_attrs(const iron__mlir_op *op, const char *const *skip,
                       int which)
{
    int n = 0;
    for (int i = 0; i < op->nattrs; i++) {
        if (skipped(op->attrs[i].name, skip))
            continue;
        if (which && (which == 1) != is_inherent(op, &op->attrs[i]))
            continue;
        n++;
    }
    return n;
}

void iron__mlir_pr_attr_dict(iron__mlir_pr *w, const iron__mlir_op *op,
                             const char *const *skip)
{
    if (!count_attrs(op, skip, 0))
        return;
    iron__mlir_pr_out(w, " {");
    dict_sorted(w, op, skip, 0, 0);
    iron__mlir_pr_out(w, "}");
}

/* ---------------------------------------------------------------------
 * Generic ops, regions
 * --------------------------------------------------------------------- */

static const char *block_label(const iron__mlir_region *r, int b,
                               char *buf, size_t n)
{
    if (r->blocks[b]->label)
        return r->blocks[b]->label;
    /* ^bbK, K the first number no labelled block of r uses */
    for (int k = b;; k++) {
        snprintf(buf, n, "^bb%d", k);
        int used = 0;
        for (int i = 0; i < r->nblocks && !used; i++)
            used = r->blocks[i]->label &&
                   strcmp(r->blocks[i]->label, buf) == 0;
        if (!used)
            return buf;
    }
}

static void block_header(iron__mlir_pr *w, const iron__mlir_region *r, int b)
{
    char buf[32];
    const iron__mlir_block *blk = r->blocks[b];
    w->indent--;
    iron__mlir_pr_newline(w);
    w->indent++;
    iron__mlir_pr_out(w, block_label(r, b, buf, sizeof buf));
    if (blk->nargs) {
        iron__mlir_pr_out(w, "(");
        for (int i = 0; i < blk->nargs; i++) {
            if (i)
                iron__mlir_pr_out(w, ", ");
            iron__mlir_pr_value(w, blk->args[i]);
            iron__mlir_pr_out(w, ": ");
            const iron__mlir_value *v = iron__mlir_value_at(w->m,
                                                            blk->args[i]);
            iron__mlir_pr_type(w, v ? v->type : NULL);
        }
        iron__mlir_pr_out(w, ")");
    }
    iron__mlir_pr_out(w, ":");
}

static int plain_op(const iron__mlir_op *op, const char *name)
{
    return name && strcmp(op->name, name) == 0 && op->noperands == 0 &&
           op->nattrs == 0 && op->nresults == 0 && op->nregions == 0 &&
           op->nsucc == 0;
}

void iron__mlir_pr_region(iron__mlir_pr *w, const iron__mlir_region *r,
                          int entry_args, const char *drop_last)
{
    iron__mlir_pr_out(w, "{");
    if (w->dry)
        return;
    w->indent++;
    for (int b = 0; b < r->nblocks; b++) {
        const iron__mlir_block *blk = r->blocks[b];
        /* the generic form shows an entry block that has arguments or
         * no ops (else it would read as no block at all) */
        /* (an empty entry block before others would otherwise vanish) */
        if (b > 0 || (entry_args && blk->nargs > 0) ||
            (entry_args == 2 && blk->nops == 0) ||
            (entry_args && blk->nops == 0 && r->nblocks > 1))
            block_header(w, r, b);
        /* the implicit terminator is left out, unless the op before it
         * is another such op (which would then read as the implicit one) */
        int n = blk->nops;
        if (b == r->nblocks - 1 && n > 0 &&
            plain_op(blk->ops[n - 1], drop_last) &&
            !(n > 1 && plain_op(blk->ops[n - 2], drop_last)))
            n--;
        for (int i = 0; i < n; i++) {
            iron__mlir_pr_newline(w);
            w->at_end = i == n - 1;   /* last printed: '}' follows */
            iron__mlir_pr_op(w, blk->ops[i]);
        }
    }
    w->indent--;
    iron__mlir_pr_newline(w);
    iron__mlir_pr_out(w, "}");
}

void iron__mlir_pr_op_generic(iron__mlir_pr *w, const iron__mlir_op *op)
{
    string_lit(w, op->name);
    iron__mlir_pr_out(w, "(");
    iron__mlir_pr_values(w, op->operands, op->noperands);
    iron__mlir_pr_out(w, ")");
    if (op->nsucc) {
        iron__mlir_pr_out(w, "[");
        for (int i = 0; i < op->nsucc; i++) {
            if (i)
                iron__mlir_pr_out(w, ", ");
            iron__mlir_pr_out(w, op->succ[i]);
        }
        iron__mlir_pr_out(w, "]");
    }
    /* upstream's dma_memcpy_nd has dynamic offsets, sizes and strides
     * too: its generic form says how many (none) */
    int segments = strcmp(op->name, "aiex.npu.dma_memcpy_nd") == 0 &&
                   op->noperands == 1 &&
                   !iron__mlir_attr_get(op, "operandSegmentSizes");
    if (count_attrs(op, NULL, 1) || segments) {
        iron__mlir_pr_out(w, " <{");
        dict_sorted(w, op, NULL, 1, 1);
        if (segments)
            iron__mlir_pr_out(w, count_attrs(op, NULL, 1)
                                     ? ", operandSegmentSizes = array<i32: "
                                       "1, 0, 0, 0>"
                                     : "operandSegmentSizes = array<i32: "
                                       "1, 0, 0, 0>");
        iron__mlir_pr_out(w, "}>");
    }
    if (op->nregions) {
        iron__mlir_pr_out(w, " (");
        for (int i = 0; i < op->nregions; i++) {
            if (i)
                iron__mlir_pr_out(w, ", ");
            iron__mlir_pr_region(w, op->regions[i], 2, NULL);
        }
        iron__mlir_pr_out(w, ")");
    }
    if (count_attrs(op, NULL, 2)) {
        iron__mlir_pr_out(w, " {");
        dict_sorted(w, op, NULL, 2, 1);
        iron__mlir_pr_out(w, "}");
    }
    iron__mlir_pr_out(w, " : ");
    iron__mlir_pr_functional(w, op->operands, op->noperands, op->results,
                             op->nresults);
}

void iron__mlir_pr_op(iron__mlir_pr *w, const iron__mlir_op *op)
{
    if (!w->generic && !w->dry) {
        w->dry = 1;
        const iron__mlir_opdef *d = iron__mlir_opdef_find(op->name);
        int ok = d && iron__mlir_fmt_print(w, op, d) == 0;
        w->dry = 0;
        if (ok) {
            iron__mlir_pr_results(w, op);
            iron__mlir_fmt_print(w, op, d);
            return;
        }
    }
    iron__mlir_pr_results(w, op);
    iron__mlir_pr_op_generic(w, op);
}

iron_status iron__mlir_print(const iron__mlir_module *m, int generic,
                             iron__str *s)
{
    if (!m || !s || !m->top)
        return iron__fail(IRON_EINVAL, "iron__mlir_print: %s is NULL",
                          !s ? "the string" : "the module");
    const iron__mlir_op *opaque = iron__mlir_find_opaque(m->top);
    if (opaque)
        return iron__fail(IRON_ENOTSUP,
                          "%d:%d: op '%s' is outside the imported subset: "
                          "its text was skipped and cannot be printed",
                          opaque->loc.line, opaque->loc.col, opaque->name);
    iron__mlir_pr w = { m, s, generic != 0, 0, 0, 1 };
    iron__mlir_pr_op(&w, m->top);
    iron__str_append(s, "\n");
    if (s->oom)
        return iron__fail(IRON_ENOMEM, "out of memory printing MLIR");
    return IRON_OK;
}

/* ---------------------------------------------------------------------
 * Cores as functions (the mlir-opt test)
 * --------------------------------------------------------------------- */

typedef struct frees {
    unsigned char *inside;       /* per value: defined in the core */
    int *ids;
    int n, cap;
    int oom;
} frees;

static void mark_inside(frees *f, const iron__mlir_region *r)
{
    for (int b = 0; b < r->nblocks; b++) {
        const iron__mlir_block *blk = r->blocks[b];
        for (int i = 0; i < blk->nargs; i++)
            f->inside[blk->args[i]] = 1;
        for (int i = 0; i < blk->nops; i++) {
            const iron__mlir_op *op = blk->ops[i];
            for (int k = 0; k < op->nresults; k++)
                f->inside[op->results[k]] = 1;
            for (int k = 0; k < op->nregions; k++)
                mark_inside(f, op->regions[k]);
        }
    }
}

static void collect_frees(frees *f, const iron__mlir_region *r)
{
    for (int b = 0; b < r->nblocks; b++) {
        const iron__mlir_block *blk = r->blocks[b];
        for (int i = 0; i < blk->nops; i++) {
            const iron__mlir_op *op = blk->ops[i];
            for (int k = 0; k < op->noperands; k++) {
                int id = op->operands[k];
                if (f->inside[id])
                    continue;
                f->inside[id] = 1;   /* collected once */
                if (f->n == f->cap) {
                    int cap = f->cap ? f->cap * 2 : 8;
                    int *n = iron__realloc(f->ids, (size_t)cap * sizeof *n);
                    if (!n) {
                        f->oom = 1;
                        return;
                    }
                    f->ids = n;
                    f->cap = cap;
                }
                f->ids[f->n++] = id;
            }
            for (int k = 0; k < op->nregions; k++)
                collect_frees(f, op->regions[k]);
        }
    }
}

static void core_name(iron__mlir_pr *w, const iron__mlir_op *core, int k)
{
    const iron__mlir_value *t =
        core->noperands ? iron__mlir_value_at(w->m, core->operands[0]) : NULL;
    const iron__mlir_attr *c = t && t->def ? iron__mlir_attr_get(t->def, "col")
                                           : NULL;
    const iron__mlir_attr *r = t && t->def ? iron__mlir_attr_get(t->def, "row")
                                           : NULL;
    if (c && r && c->kind == IRON__MA_INT && r->kind == IRON__MA_INT)
        iron__mlir_pr_outf(w, "core_%lld_%lld_%d", (long long)c->i,
                           (long long)r->i, k);
    else
        iron__mlir_pr_outf(w, "core_%d", k);
}

static void core_func(iron__mlir_pr *w, const iron__mlir_op *core, int k,
                      frees *f)
{
    const iron__mlir_region *r = core->regions[0];
    memset(f->inside, 0, (size_t)w->m->nvalues);
    f->n = 0;
    mark_inside(f, r);
    collect_frees(f, r);
    iron__mlir_pr_newline(w);
    iron__mlir_pr_out(w, "\"func.func\"() <{function_type = (");
    iron__mlir_pr_value_types(w, f->ids, f->n);
    iron__mlir_pr_out(w, ") -> (), sym_name = \"");
    core_name(w, core, k);
    iron__mlir_pr_out(w, "\"}> ({");
    w->indent++;
    for (int b = 0; b < r->nblocks; b++) {
        const iron__mlir_block *blk = r->blocks[b];
        if (b == 0) {
            w->indent--;
            iron__mlir_pr_newline(w);
            w->indent++;
            char buf[32];
            iron__mlir_pr_out(w, block_label(r, 0, buf, sizeof buf));
            iron__mlir_pr_out(w, f->n ? "(" : "");
            for (int i = 0; i < f->n; i++) {
                if (i)
                    iron__mlir_pr_out(w, ", ");
                iron__mlir_pr_value(w, f->ids[i]);
                iron__mlir_pr_out(w, ": ");
                iron__mlir_pr_type(w, w->m->values[f->ids[i]].type);
            }
            iron__mlir_pr_out(w, f->n ? "):" : ":");
        } else {
            block_header(w, r, b);
        }
        for (int i = 0; i < blk->nops; i++) {
            iron__mlir_pr_newline(w);
            w->at_end = i == blk->nops - 1;
            if (plain_op(blk->ops[i], "aie.end"))
                iron__mlir_pr_out(w, "\"func.return\"() : () -> ()");
            else
                iron__mlir_pr_op(w, blk->ops[i]);
        }
    }
    w->indent--;
    iron__mlir_pr_newline(w);
    iron__mlir_pr_out(w, "}) : () -> ()");
}

/* func.func and aie.core ops of the module and its devices. */
static void walk_cores(iron__mlir_pr *w, const iron__mlir_op *op, int funcs,
                       int *k, frees *f)
{
    for (int g = 0; g < op->nregions; g++) {
        const iron__mlir_region *r = op->regions[g];
        for (int b = 0; b < r->nblocks; b++) {
            const iron__mlir_block *blk = r->blocks[b];
            for (int i = 0; i < blk->nops; i++) {
                const iron__mlir_op *c = blk->ops[i];
                if (funcs && strcmp(c->name, "func.func") == 0) {
                    iron__mlir_pr_newline(w);
                    iron__mlir_pr_op(w, c);
                } else if (!funcs && strcmp(c->name, "aie.core") == 0 &&
                           c->nregions == 1) {
                    core_func(w, c, (*k)++, f);
                } else if (strcmp(c->name, "aie.device") == 0 ||
                           strcmp(c->name, "builtin.module") == 0) {
                    walk_cores(w, c, funcs, k, f);
                }
            }
        }
    }
}

iron_status iron__mlir_print_cores_as_funcs(const iron__mlir_module *m,
                                            iron__str *s)
{
    if (!m || !s || !m->top)
        return iron__fail(IRON_EINVAL,
                          "iron__mlir_print_cores_as_funcs: NULL argument");
    frees f = { 0 };
    f.inside = iron__calloc((size_t)m->nvalues + 1, 1);
    if (!f.inside)
        return iron__fail(IRON_ENOMEM, "out of memory printing MLIR");
    iron__mlir_pr w = { m, s, 1, 0, 0, 1 };
    int k = 0;
    /* the block is named: the module may hold nothing */
    iron__str_append(s, "\"builtin.module\"() ({\n^bb0:");
    w.indent = 1;
    walk_cores(&w, m->top, 1, &k, &f);
    walk_cores(&w, m->top, 0, &k, &f);
    iron__str_append(s, "\n}) : () -> ()\n");
    iron__free(f.inside);
    iron__free(f.ids);
    if (f.oom || s->oom)
        return iron__fail(IRON_ENOMEM, "out of memory printing MLIR");
    return IRON_OK;
}
