/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * body.c - the core-body object: creating and freeing it, the design
 * objects it names (its parameters), its values and their MLIR types,
 * the stack of open regions, and the checks and failures every builder
 * call shares.
 */
#include <stdio.h>
#include <string.h>

#include "body/ir.h"
#include "design/vec.h"

/* --- types --------------------------------------------------------------- */

int iron__body_is_int(iron_body_type t)
{
    return t >= IRON_BT_I1 && t <= IRON_BT_I64;
}

int iron__body_is_intlike(iron_body_type t)
{
    return iron__body_is_int(t) || t == IRON_BT_INDEX;
}

int iron__body_is_float(iron_body_type t)
{
    return t == IRON_BT_BF16 || t == IRON_BT_F32 || t == IRON_BT_F64;
}

int iron__body_is_scalar(iron_body_type t)
{
    return iron__body_is_intlike(t) || iron__body_is_float(t);
}

int iron__body_width(iron_body_type t)
{
    switch (t) {
    case IRON_BT_I1: return 1;
    case IRON_BT_I8: return 8;
    case IRON_BT_I16: case IRON_BT_BF16: return 16;
    case IRON_BT_I32: case IRON_BT_F32: return 32;
    case IRON_BT_I64: case IRON_BT_INDEX: case IRON_BT_F64: return 64;
    default: return 0;
    }
}

IRON_API const char *iron_body_type_name(iron_body_type t)
{
    static const char *const names[IRON_BT_COUNT_] = {
        [IRON_BT_I1] = "i1",       [IRON_BT_I8] = "i8",
        [IRON_BT_I16] = "i16",     [IRON_BT_I32] = "i32",
        [IRON_BT_I64] = "i64",     [IRON_BT_INDEX] = "index",
        [IRON_BT_BF16] = "bf16",   [IRON_BT_F32] = "f32",
        [IRON_BT_F64] = "f64",     [IRON_BT_MEMREF] = "memref",
        [IRON_BT_HANDLE] = "handle",
    };
    return (unsigned)t < IRON_BT_COUNT_ ? names[t] : NULL;
}

const char *iron__body_scalar_text(iron_body_type t)
{
    const char *name = iron_body_type_name(t);
    return name ? name : "?";
}

iron_body_type iron__body_elem_type(iron_dtype dt)
{
    switch (dt) {
    case IRON_INT8: case IRON_UINT8: return IRON_BT_I8;
    case IRON_INT16: case IRON_UINT16: return IRON_BT_I16;
    case IRON_INT32: case IRON_UINT32: return IRON_BT_I32;
    case IRON_INT64: case IRON_UINT64: return IRON_BT_I64;
    case IRON_FLOAT32: return IRON_BT_F32;
    case IRON_FLOAT64: return IRON_BT_F64;
    case IRON_BFLOAT16: return IRON_BT_BF16;
    default: return IRON_BT_COUNT_;
    }
}

/* As upstream's np_dtype_to_mlir_type: numpy's unsigned dtypes are
 * MLIR's unsigned integers. */
const char *iron__body_dtype_text(iron_dtype dt)
{
    static const char *const names[IRON_DTYPE_COUNT_] = {
        [IRON_INT8] = "i8",      [IRON_UINT8] = "ui8",
        [IRON_INT16] = "i16",    [IRON_UINT16] = "ui16",
        [IRON_INT32] = "i32",    [IRON_UINT32] = "ui32",
        [IRON_INT64] = "i64",    [IRON_UINT64] = "ui64",
        [IRON_FLOAT32] = "f32",  [IRON_FLOAT64] = "f64",
        [IRON_BFLOAT16] = "bf16",
    };
    return (unsigned)dt < IRON_DTYPE_COUNT_ ? names[dt] : "?";
}

const char *iron__body_memref_text(iron_dtype dt, const iron_shape *sh,
                                   char *buf, size_t len)
{
    size_t at = (size_t)snprintf(buf, len, "memref<");
    for (int i = 0; i < sh->ndim && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%lldx",
                               (long long)sh->dims[i]);
    if (at < len)
        snprintf(buf + at, len - at, "%s>", iron__body_dtype_text(dt));
    return buf;
}

const char *iron__body_val_text(const iron_body *b, iron_val v, char *buf,
                                size_t len)
{
    if (v < 0 || v >= b->vals.n) {
        snprintf(buf, len, "no value");
        return buf;
    }
    const iron__bval *x = &b->vals.v[v];
    char mt[160];
    switch (x->t) {
    case IRON_BT_MEMREF:
        return iron__body_memref_text(x->dtype, &x->shape, buf, len);
    case IRON_BT_HANDLE:
        switch (x->hkind) {
        case IRON__BH_FIFO:
            snprintf(buf, len, "a fifo");
            break;
        case IRON__BH_BARRIER:
            snprintf(buf, len, "a barrier");
            break;
        case IRON__BH_KERNEL:
            snprintf(buf, len, "a kernel");
            break;
        default:
            snprintf(buf, len, "!aie.objectfifosubview<%s>",
                     iron__body_memref_text(x->dtype, &x->shape, mt,
                                            sizeof mt));
            break;
        }
        return buf;
    default:
        snprintf(buf, len, "%s", iron__body_scalar_text(x->t));
        return buf;
    }
}

/* --- failing ------------------------------------------------------------- */

iron_status iron__body_fail(iron_body *b, iron_status s, const char *op,
                            const char *fmt, ...)
{
    iron__str msg = { 0 };
    va_list ap;
    va_start(ap, fmt);
    iron__str_vprintf(&msg, fmt, ap);
    va_end(ap);
    s = iron__design_fail(b->d, s, "body '%s': %s: %s", b->name, op,
                          iron__str_get(&msg));
    iron__str_free(&msg);
    return s;
}

iron_status iron__body_ready(iron_body *b, const char *fn, const char *op)
{
    if (!b)
        return iron__fail(IRON_EINVAL, "%s: body is NULL", fn);
    if (b->d->status != IRON_OK)
        return b->d->status;
    if (b->worker)
        return iron__body_fail(b, IRON_EDESIGN, op,
                               "the body already made worker '%s'; a body "
                               "is complete once it gives its worker",
                               b->worker->name);
    return IRON_OK;
}

iron_status iron__body_use(iron_body *b, const char *op, const char *what,
                           iron_val v)
{
    if (v < 0 || v >= b->vals.n)
        return iron__body_fail(b, IRON_EINVAL, op,
                               "%s is %d, which is not a value of this body",
                               what, (int)v);
    int r = b->vals.v[v].region;
    if (r >= 0 && !b->regs.v[r].open)
        return iron__body_fail(b, IRON_EINVAL, op,
                               "%s (value %d) was made inside a region "
                               "that is closed, so it is not visible here",
                               what, (int)v);
    return IRON_OK;
}

/* --- values, ops, regions ------------------------------------------------ */

static int grow(void **v, int *cap, int n, size_t elem)
{
    return iron__vec_grow(v, cap, n, elem);
}

iron__breg *iron__body_cur(iron_body *b)
{
    return &b->regs.v[b->open.v[b->open.n - 1]];
}

static iron_val add_val(iron_body *b, const iron__bval *x)
{
    if (!grow((void **)&b->vals.v, &b->vals.cap, b->vals.n, sizeof *x)) {
        iron__body_fail(b, IRON_ENOMEM, "building", "out of memory");
        return IRON_VAL_NONE;
    }
    b->vals.v[b->vals.n] = *x;
    return b->vals.n++;
}

iron_val iron__body_new_val(iron_body *b, iron_body_type t)
{
    iron__bval x = { 0 };
    x.t = t;
    x.param = -1;
    x.op = -1;
    x.region = b->open.v[b->open.n - 1];
    return add_val(b, &x);
}

int iron__body_pool_add(iron_body *b, const iron_val *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!IRON__VEC_PUSH(b->pool, v ? v[i] : IRON_VAL_NONE)) {
            iron__body_fail(b, IRON_ENOMEM, "building", "out of memory");
            return -1;
        }
    return b->pool.n - n;
}

int iron__body_add_op(iron_body *b, iron__bop_kind kind, const iron_val *in,
                      int nin)
{
    int at = iron__body_pool_add(b, in, nin);
    if (at < 0)
        return -1;
    if (!grow((void **)&b->ops.v, &b->ops.cap, b->ops.n, sizeof *b->ops.v)) {
        iron__body_fail(b, IRON_ENOMEM, "building", "out of memory");
        return -1;
    }
    int i = b->ops.n++;
    iron__bop *op = &b->ops.v[i];
    memset(op, 0, sizeof *op);
    op->kind = kind;
    op->in = at;
    op->nin = nin;
    op->reg[0] = op->reg[1] = -1;
    op->param = -1;
    op->next = -1;
    iron__breg *r = iron__body_cur(b);
    if (r->last >= 0)
        b->ops.v[r->last].next = i;
    else
        r->first = i;
    r->last = i;
    return i;
}

iron_val iron__body_result(iron_body *b, int i, iron_body_type t)
{
    iron_val v = iron__body_new_val(b, t);
    if (v < 0)
        return IRON_VAL_NONE;
    int at = iron__body_pool_add(b, &v, 1);
    if (at < 0)
        return IRON_VAL_NONE;
    b->ops.v[i].out = at;
    b->ops.v[i].nout = 1;
    b->vals.v[v].op = i;
    return v;
}

int iron__body_add_region(iron_body *b, iron__breg_kind kind, int op)
{
    if (!grow((void **)&b->regs.v, &b->regs.cap, b->regs.n,
              sizeof *b->regs.v)) {
        iron__body_fail(b, IRON_ENOMEM, "building", "out of memory");
        return -1;
    }
    iron__breg *r = &b->regs.v[b->regs.n];
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->op = op;
    r->cond = IRON_VAL_NONE;
    r->first = r->last = -1;
    return b->regs.n++;
}

iron_status iron__body_push_region(iron_body *b, int reg)
{
    if (!IRON__VEC_PUSH(b->open, reg))
        return iron__body_fail(b, IRON_ENOMEM, "building", "out of memory");
    b->regs.v[reg].open = 1;
    return IRON_OK;
}

void iron__body_pop_region(iron_body *b)
{
    int r = b->open.v[--b->open.n];
    b->regs.v[r].open = 0;
}

/* --- the body ------------------------------------------------------------ */

/* Names the generated C would not compile with: C keywords, and the
 * prefix of the library's own helpers. */
static int reserved_name(const char *s)
{
    static const char *const keywords[] = {
        "auto", "break", "case", "char", "const", "continue", "default",
        "do", "double", "else", "enum", "extern", "float", "for", "goto",
        "if", "inline", "int", "long", "register", "restrict", "return",
        "short", "signed", "sizeof", "static", "struct", "switch",
        "typedef", "union", "unsigned", "void", "volatile", "while",
    };
    for (size_t i = 0; i < IRON__COUNT_OF(keywords); i++)
        if (strcmp(s, keywords[i]) == 0)
            return 1;
    return strncmp(s, "iron_", 5) == 0 || s[0] == '_';
}

IRON_API iron_body *iron_body_new(iron_design *d, const char *name)
{
    if (!d) {
        iron__fail(IRON_EINVAL, "iron_body_new: design is NULL");
        return NULL;
    }
    if (d->status != IRON_OK)
        return NULL;
    if (!iron__kis_ident(name) || reserved_name(name)) {
        iron__design_fail(d, IRON_EINVAL,
                          "iron_body_new: name %s%s%s is %s",
                          name ? "'" : "", name ? name : "NULL",
                          name ? "'" : "",
                          !iron__kis_ident(name)
                              ? "not a C identifier (it names the body's "
                                "C function)"
                              : "reserved (a C keyword, or a name "
                                "starting with '_' or 'iron_')");
        return NULL;
    }
    return iron__body_create(d, name);
}

iron_body *iron__body_create(iron_design *d, const char *name)
{
    iron_body *b = iron__calloc(1, sizeof *b);
    char *nm = iron__strdup(name);
    if (!b || !nm || !IRON__VEC_PUSH(d->bodies, b)) {
        iron__free(b);
        iron__free(nm);
        iron__design_fail(d, IRON_ENOMEM, "out of memory building body '%s'",
                          name);
        return NULL;
    }
    d->body_free = iron__body_free;
    b->d = d;
    b->name = nm;
    if (iron__body_add_region(b, IRON__BR_TOP, -1) < 0 ||
        iron__body_push_region(b, 0) != IRON_OK)
        return NULL;            /* sticky; the design frees b */
    return b;
}

void iron__body_free(iron_body *b)
{
    if (!b)
        return;
    iron__free(b->name);
    iron__free(b->params.v);
    iron__free(b->param_val.v);
    iron__free(b->vals.v);
    iron__free(b->ops.v);
    iron__free(b->regs.v);
    iron__free(b->pool.v);
    iron__free(b->open.v);
    iron__free(b);
}

int iron__body_nparams(const iron_body *b)
{
    return b ? b->params.n : 0;
}

const iron__body_param *iron__body_param_at(const iron_body *b, int i)
{
    return b && i >= 0 && i < b->params.n ? &b->params.v[i] : NULL;
}

const char *iron__body_name(const iron_body *b)
{
    return b ? b->name : NULL;
}

IRON_API iron_body_type iron_body_value_type(const iron_body *b, iron_val v)
{
    if (!b || v < 0 || v >= b->vals.n)
        return IRON_BT_COUNT_;
    return b->vals.v[v].t;
}

/* --- parameters ---------------------------------------------------------- */

/* The value of the parameter naming `obj` of `kind`, or -1. */
static iron_val find_param(const iron_body *b, iron__body_pkind kind,
                           const void *obj)
{
    for (int i = 0; i < b->params.n; i++) {
        const iron__body_param *p = &b->params.v[i];
        const void *o = kind == IRON__BP_FIFO      ? (const void *)p->h
                        : kind == IRON__BP_RTP     ? (const void *)p->rtp
                        : kind == IRON__BP_BARRIER ? (const void *)p->barrier
                                                   : (const void *)p->kernel;
        if (p->kind == kind && o == obj)
            return b->param_val.v[i];
    }
    return -1;
}

static iron_val add_param(iron_body *b, const char *op,
                          const iron__body_param *p, const iron__bval *x)
{
    if (b->params.n >= IRON__MAX_KARGS) {
        iron__body_fail(b, IRON_EDESIGN, op,
                        "the body names %d objects already; its worker "
                        "takes at most %d arguments",
                        b->params.n, IRON__MAX_KARGS);
        return IRON_VAL_NONE;
    }
    iron_val v = add_val(b, x);
    if (v < 0)
        return IRON_VAL_NONE;
    if (!IRON__VEC_PUSH(b->params, *p) || !IRON__VEC_PUSH(b->param_val, v)) {
        if (b->params.n > b->param_val.n)
            b->params.n--;
        iron__body_fail(b, IRON_ENOMEM, op, "out of memory");
        return IRON_VAL_NONE;
    }
    b->vals.v[v].param = b->params.n - 1;
    return v;
}

static iron_val fifo_param(iron_body *b, iron_handle *h, int check_user)
{
    const char *op = "iron_body_fifo";
    if (iron__body_ready(b, op, op) != IRON_OK)
        return IRON_VAL_NONE;
    if (!h) {
        iron__body_fail(b, IRON_EINVAL, op,
                        "the handle is NULL (did an earlier builder call "
                        "fail?)");
        return IRON_VAL_NONE;
    }
    if (h->fifo->d != b->d) {
        iron__body_fail(b, IRON_EINVAL, op,
                        "the handle belongs to another design");
        return IRON_VAL_NONE;
    }
    iron_val v = find_param(b, IRON__BP_FIFO, h);
    if (v >= 0)
        return v;
    char hl[96], who[96];
    iron__handle_label(h, hl, sizeof hl);
    if (check_user && h->user != IRON__USER_NONE) {
        iron__body_fail(b, IRON_EDESIGN, op,
                        "%s is already used by %s; each handle has one user "
                        "(take another consumer with iron_fifo_cons)",
                        hl, iron__handle_user(h, who, sizeof who));
        return IRON_VAL_NONE;
    }
    for (int i = 0; check_user && i < b->d->bodies.n; i++) {
        const iron_body *o = b->d->bodies.v[i];
        if (o != b && !o->standard && find_param(o, IRON__BP_FIFO, h) >= 0) {
            iron__body_fail(b, IRON_EDESIGN, op,
                            "%s is already named by body '%s'; each handle "
                            "has one user",
                            hl, o->name);
            return IRON_VAL_NONE;
        }
    }
    iron__body_param p = { 0 };
    p.kind = IRON__BP_FIFO;
    p.h = h;
    iron__bval x = { 0 };
    x.t = IRON_BT_HANDLE;
    x.hkind = IRON__BH_FIFO;
    x.dtype = h->fifo->dtype;
    x.shape = h->fifo->obj_shape;
    x.region = -1;
    x.op = -1;
    return add_param(b, op, &p, &x);
}

IRON_API iron_val iron_body_fifo(iron_body *b, iron_handle *h)
{
    return fifo_param(b, h, 1);
}

iron_val iron__body_fifo_param(iron_body *b, iron_handle *h)
{
    return fifo_param(b, h, 0);
}

IRON_API iron_val iron_body_rtp(iron_body *b, iron_rtp *r)
{
    const char *op = "iron_body_rtp";
    if (iron__body_ready(b, op, op) != IRON_OK)
        return IRON_VAL_NONE;
    if (!r || r->d != b->d) {
        iron__body_fail(b, IRON_EINVAL, op, "the buffer is %s",
                        r ? "of another design" : "NULL");
        return IRON_VAL_NONE;
    }
    iron_val v = find_param(b, IRON__BP_RTP, r);
    if (v >= 0)
        return v;
    iron__body_param p = { 0 };
    p.kind = IRON__BP_RTP;
    p.rtp = r;
    iron__bval x = { 0 };
    x.t = IRON_BT_MEMREF;
    x.dtype = r->dtype;
    x.shape.ndim = 1;
    x.shape.dims[0] = r->count;
    x.region = -1;
    x.op = -1;
    return add_param(b, op, &p, &x);
}

IRON_API iron_val iron_body_barrier(iron_body *b, iron_barrier *x)
{
    const char *op = "iron_body_barrier";
    if (iron__body_ready(b, op, op) != IRON_OK)
        return IRON_VAL_NONE;
    if (!x || x->d != b->d) {
        iron__body_fail(b, IRON_EINVAL, op, "the barrier is %s",
                        x ? "of another design" : "NULL");
        return IRON_VAL_NONE;
    }
    iron_val v = find_param(b, IRON__BP_BARRIER, x);
    if (v >= 0)
        return v;
    iron__body_param p = { 0 };
    p.kind = IRON__BP_BARRIER;
    p.barrier = x;
    iron__bval val = { 0 };
    val.t = IRON_BT_HANDLE;
    val.hkind = IRON__BH_BARRIER;
    val.region = -1;
    val.op = -1;
    return add_param(b, op, &p, &val);
}

IRON_API iron_val iron_body_kernel(iron_body *b, iron_kernel *k)
{
    const char *op = "iron_body_kernel";
    if (iron__body_ready(b, op, op) != IRON_OK)
        return IRON_VAL_NONE;
    if (!k || k->d != b->d) {
        iron__body_fail(b, IRON_EINVAL, op, "the kernel is %s",
                        k ? "of another design" : "NULL");
        return IRON_VAL_NONE;
    }
    if (k->is_core) {
        iron__body_fail(b, IRON_EDESIGN, op,
                        "'%s' is a core body; a body calls kernels made "
                        "with iron_kernel_new",
                        k->entry);
        return IRON_VAL_NONE;
    }
    iron_val v = find_param(b, IRON__BP_KERNEL, k);
    if (v >= 0)
        return v;
    iron__body_param p = { 0 };
    p.kind = IRON__BP_KERNEL;
    p.kernel = k;
    iron__bval x = { 0 };
    x.t = IRON_BT_HANDLE;
    x.hkind = IRON__BH_KERNEL;
    x.region = -1;
    x.op = -1;
    return add_param(b, op, &p, &x);
}

const char *iron__body_call_type(const iron_body *b, const iron_kernel *k,
                                 int i, iron__str *scratch)
{
    if (!b || !k || !scratch || i < 0 || i >= k->nargs)
        return NULL;
    for (int o = 0; o < b->ops.n; o++) {
        const iron__bop *op = &b->ops.v[o];
        if (op->kind != IRON__BOP_CALL ||
            b->params.v[op->param].kernel != k)
            continue;
        char t[192];
        iron__body_val_text(b, b->pool.v[op->in + i], t, sizeof t);
        scratch->len = 0;
        if (scratch->p)
            scratch->p[0] = '\0';
        iron__str_append(scratch, t);
        return scratch->oom ? NULL : iron__str_get(scratch);
    }
    return NULL;
}
