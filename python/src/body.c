/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * body.c - Body, the core-body IR builder (iron_body_*): one method per
 * op, values as ints, types, arith ops and predicates by their MLIR
 * names.
 *
 * The names come from the library (iron_body_type_name, iron_arith_name,
 * iron_cmp_name), read back by walking each enum: no second table here.
 * Arith ops are taken with or without their "arith." prefix.  The float
 * predicates whose MLIR names are the integer ones' ("ugt" of cmpf and
 * of cmpi) are told apart as the C enum does: the later one of a name
 * gets an "f" ("ugtf", "ugef", "ultf", "ulef").
 *
 * A Body belongs to its Design, whose liveness every method checks; a
 * failing op raises at once with the library's message (its errors are
 * the design's, sticky).
 */
#include "pyiron.h"

/* --- names ------------------------------------------------------------------ */

/* The binding's name of predicate p into buf: the library's, with an "f"
 * when an earlier predicate has the same name. */
static const char *cmp_name(int p, char *buf, size_t len)
{
    const char *name = iron_cmp_name((iron_cmp)p);
    if (!name)
        return NULL;
    for (int q = 0; q < p; q++)
        if (strcmp(iron_cmp_name((iron_cmp)q), name) == 0) {
            PyOS_snprintf(buf, len, "%sf", name);
            return buf;
        }
    return name;
}

/* The binding's name of arith op `op`: the library's without "arith.". */
static const char *arith_name(int op)
{
    const char *name = iron_arith_name((iron_arith)op);
    if (name && strncmp(name, "arith.", 6) == 0)
        name += 6;
    return name;
}

static const char *type_name(int t)
{
    return iron_body_type_name((iron_body_type)t);
}

enum name_kind { NAME_TYPE, NAME_ARITH, NAME_CMP };

static const char *kind_name(enum name_kind k, int i, char *buf, size_t len)
{
    switch (k) {
    case NAME_TYPE: return type_name(i);
    case NAME_ARITH: return arith_name(i);
    case NAME_CMP: return cmp_name(i, buf, len);
    }
    return NULL;
}

static int kind_count(enum name_kind k)
{
    return k == NAME_TYPE ? IRON_BT_COUNT_
                          : k == NAME_ARITH ? IRON_ARITH_COUNT_
                                            : IRON_CMP_COUNT_;
}

/* Every name of one kind, as a list. */
static PyObject *name_list(enum name_kind k)
{
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < kind_count(k); i++) {
        char buf[32];
        PyObject *s = PyUnicode_FromString(kind_name(k, i, buf, sizeof buf));
        if (!s || PyList_Append(list, s) < 0)
            Py_CLEAR(list);
        Py_XDECREF(s);
    }
    return list;
}

/* The enum value named by o; InvalidArgumentError listing the names for
 * an unknown one. */
static int lookup(enum name_kind k, PyObject *o, const char *fn,
                  const char *arg, int *out)
{
    const char *s;
    if (pyiron_arg_str(o, fn, arg, 0, &s) < 0)
        return -1;
    if (k == NAME_ARITH && strncmp(s, "arith.", 6) == 0)
        s += 6;
    for (int i = 0; i < kind_count(k); i++) {
        char buf[32];
        const char *name = kind_name(k, i, buf, sizeof buf);
        if (name && strcmp(name, s) == 0) {
            *out = i;
            return 0;
        }
    }
    PyObject *names = name_list(k);
    if (!names)
        return -1;
    PyObject *sep = PyUnicode_FromString(", ");
    PyObject *joined = sep ? PyUnicode_Join(sep, names) : NULL;
    if (joined)
        pyiron_raise_msg(IRON_EINVAL, "%s(): argument '%s' is \"%s\", not a "
                         "%s; expected one of: %U",
                         fn, arg, s,
                         k == NAME_TYPE ? "body value type"
                         : k == NAME_ARITH ? "arith op" : "predicate",
                         joined);
    Py_XDECREF(joined);
    Py_XDECREF(sep);
    Py_DECREF(names);
    return -1;
}

/* --- values ------------------------------------------------------------------ */

static int val(PyObject *o, const char *fn, const char *arg, iron_val *out)
{
    int v;
    if (pyiron_arg_int(o, fn, arg, &v) < 0)
        return -1;
    *out = v;
    return 0;
}

/* A sequence of values; *out is small (room for nsmall) or a PyMem block
 * the caller frees (free_vals). */
static int vals(PyObject *o, const char *fn, const char *arg,
                iron_val *small, int nsmall, iron_val **out, int *n)
{
    PyObject *seq = PySequence_Fast(o, "a sequence of values is expected");
    if (!seq) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be a "
                     "sequence of values (ints), not %.100s",
                     fn, arg, Py_TYPE(o)->tp_name);
        return -1;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > 65536) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s(): argument '%s' has %zd values, "
                     "at most 65536 are accepted", fn, arg, len);
        return -1;
    }
    iron_val *v = len <= nsmall ? small
                                : PyMem_Calloc((size_t)len, sizeof *v);
    if (!v) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        char what[64];
        PyOS_snprintf(what, sizeof what, "%s[%zd]", arg, i);
        if (val(PySequence_Fast_GET_ITEM(seq, i), fn, what, &v[i]) < 0) {
            if (v != small)
                PyMem_Free(v);
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    *out = v;
    *n = (int)len;
    return 0;
}

static void free_vals(iron_val *v, const iron_val *small)
{
    if (v != small)
        PyMem_Free(v);
}

static PyObject *val_list(const iron_val *v, int n)
{
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

/* --- the Body object ----------------------------------------------------------- */

#define BODY(o) ((iron_body *)(o)->ptr)

/* The body's live design (StateError after its function returned). */
#define LIVE(fn)                                                              \
    if (!pyiron_design_live(self->design, fn))                                \
    return NULL

/* The design's failure, if any, after an op. */
static int failed(pyiron_dobj *self)
{
    return pyiron_design_check(self->design) < 0;
}

static PyObject *status_result(pyiron_dobj *self, iron_status s)
{
    if (failed(self))
        return NULL;
    if (s != IRON_OK)
        return pyiron_raise(s);
    Py_RETURN_NONE;
}

static PyObject *val_result(pyiron_dobj *self, iron_val v, const char *fn)
{
    if (failed(self))
        return NULL;
    if (v == IRON_VAL_NONE)
        return pyiron_raise_msg(IRON_EDESIGN, "%s(): body %R: the op gave no "
                                "value and the design recorded no failure",
                                fn, self->name);
    return PyLong_FromLong(v);
}

/* The open regions' result counts (for/if: what they carry or give;
 * while: what its condition forwards), so that the closing op's results
 * have room. */
static int region_push(pyiron_dobj *self, int n)
{
    PyObject *x = PyLong_FromLong(n);
    int r = x ? PyList_Append(self->ref, x) : -1;
    Py_XDECREF(x);
    return r;
}

static int region_top(pyiron_dobj *self)
{
    Py_ssize_t k = PyList_GET_SIZE(self->ref);
    return k ? (int)PyLong_AsLong(PyList_GET_ITEM(self->ref, k - 1)) : 0;
}

static void region_set_top(pyiron_dobj *self, int n)
{
    Py_ssize_t k = PyList_GET_SIZE(self->ref);
    PyObject *x = PyLong_FromLong(n);
    if (k && x)
        PyList_SetItem(self->ref, k - 1, x);   /* steals x */
    else
        Py_XDECREF(x);
}

static void region_pop(pyiron_dobj *self)
{
    Py_ssize_t k = PyList_GET_SIZE(self->ref);
    if (k)
        PyList_SetSlice(self->ref, k - 1, k, NULL);
}

/* --- the design objects a body names ---------------------------------------- */

static PyObject *body_param(pyiron_dobj *self, PyObject *o, const char *fn,
                            PyTypeObject *type, const char *arg)
{
    LIVE(fn);
    void *p = pyiron_dobj_get(o, type, self->design, fn, arg);
    if (!p)
        return NULL;
    iron_val v;
    if (type == &pyiron_handle_type)
        v = iron_body_fifo(BODY(self), p);
    else if (type == &pyiron_rtp_type)
        v = iron_body_rtp(BODY(self), p);
    else if (type == &pyiron_barrier_type)
        v = iron_body_barrier(BODY(self), p);
    else
        v = iron_body_kernel(BODY(self), p);
    return val_result(self, v, fn);
}

static PyObject *body_fifo(pyiron_dobj *self, PyObject *o)
{
    return body_param(self, o, "Body.fifo", &pyiron_handle_type, "handle");
}

static PyObject *body_rtp(pyiron_dobj *self, PyObject *o)
{
    return body_param(self, o, "Body.rtp", &pyiron_rtp_type, "rtp");
}

static PyObject *body_barrier(pyiron_dobj *self, PyObject *o)
{
    return body_param(self, o, "Body.barrier", &pyiron_barrier_type,
                      "barrier");
}

static PyObject *body_kernel(pyiron_dobj *self, PyObject *o)
{
    return body_param(self, o, "Body.kernel", &pyiron_kernel_type, "kernel");
}

/* --- arith --------------------------------------------------------------------- */

static PyObject *body_const(pyiron_dobj *self, PyObject *args, int is_float)
{
    const char *fn = is_float ? "Body.const_float" : "Body.const_int";
    PyObject *ot, *ov;
    if (!PyArg_UnpackTuple(args, fn + 5, 2, 2, &ot, &ov))
        return NULL;
    LIVE(fn);
    int t;
    if (lookup(NAME_TYPE, ot, fn, "type", &t) < 0)
        return NULL;
    iron_val v;
    if (is_float) {
        double x;
        if (pyiron_arg_double(ov, fn, "v", &x) < 0)
            return NULL;
        v = iron_body_const_float(BODY(self), (iron_body_type)t, x);
    } else {
        int64_t x;
        if (pyiron_arg_i64(ov, fn, "v", &x) < 0)
            return NULL;
        v = iron_body_const_int(BODY(self), (iron_body_type)t, x);
    }
    return val_result(self, v, fn);
}

static PyObject *body_const_int(pyiron_dobj *self, PyObject *args)
{
    return body_const(self, args, 0);
}

static PyObject *body_const_float(pyiron_dobj *self, PyObject *args)
{
    return body_const(self, args, 1);
}

static PyObject *body_arith(pyiron_dobj *self, PyObject *args, PyObject *kw)
{
    static const char *const kws[] = { "op", "x", "y", NULL };
    static const char fn[] = "Body.arith";
    PyObject *oop, *ox, *oy = Py_None;
    if (!PYIRON_PARSE(args, kw, "OO|O:arith", kws, &oop, &ox,
                                     &oy))
        return NULL;
    LIVE(fn);
    int op;
    iron_val x, y = IRON_VAL_NONE;
    if (lookup(NAME_ARITH, oop, fn, "op", &op) < 0 ||
        val(ox, fn, "x", &x) < 0 || (oy != Py_None && val(oy, fn, "y", &y) < 0))
        return NULL;
    return val_result(self, iron_body_arith(BODY(self), (iron_arith)op, x, y),
                      fn);
}

static PyObject *body_cast(pyiron_dobj *self, PyObject *args)
{
    static const char fn[] = "Body.cast";
    PyObject *oop, *ox, *ot;
    if (!PyArg_UnpackTuple(args, "cast", 3, 3, &oop, &ox, &ot))
        return NULL;
    LIVE(fn);
    int op, t;
    iron_val x;
    if (lookup(NAME_ARITH, oop, fn, "op", &op) < 0 ||
        val(ox, fn, "x", &x) < 0 || lookup(NAME_TYPE, ot, fn, "to_type", &t) < 0)
        return NULL;
    return val_result(self,
                      iron_body_cast(BODY(self), (iron_arith)op, x,
                                     (iron_body_type)t),
                      fn);
}

static PyObject *body_cmp(pyiron_dobj *self, PyObject *args)
{
    static const char fn[] = "Body.cmp";
    PyObject *op, *ox, *oy;
    if (!PyArg_UnpackTuple(args, "cmp", 3, 3, &op, &ox, &oy))
        return NULL;
    LIVE(fn);
    int pred;
    iron_val x, y;
    if (lookup(NAME_CMP, op, fn, "pred", &pred) < 0 ||
        val(ox, fn, "x", &x) < 0 || val(oy, fn, "y", &y) < 0)
        return NULL;
    return val_result(self, iron_body_cmp(BODY(self), (iron_cmp)pred, x, y),
                      fn);
}

static PyObject *body_select(pyiron_dobj *self, PyObject *args)
{
    static const char fn[] = "Body.select";
    PyObject *oc, *ox, *oy;
    if (!PyArg_UnpackTuple(args, "select", 3, 3, &oc, &ox, &oy))
        return NULL;
    LIVE(fn);
    iron_val c, x, y;
    if (val(oc, fn, "c", &c) < 0 || val(ox, fn, "x", &x) < 0 ||
        val(oy, fn, "y", &y) < 0)
        return NULL;
    return val_result(self, iron_body_select(BODY(self), c, x, y), fn);
}

static PyObject *body_type_of(pyiron_dobj *self, PyObject *o)
{
    static const char fn[] = "Body.type_of";
    LIVE(fn);
    iron_val v;
    if (val(o, fn, "v", &v) < 0)
        return NULL;
    const char *name = type_name(iron_body_value_type(BODY(self), v));
    if (!name)
        return pyiron_raise_msg(IRON_EINVAL, "%s(): %d is not a value of "
                                "body %R", fn, (int)v, self->name);
    return PyUnicode_FromString(name);
}

/* --- regions --------------------------------------------------------------------- */

#define SMALL 16

static PyObject *body_for(pyiron_dobj *self, PyObject *args, PyObject *kw)
{
    static const char *const kws[] = { "lb", "ub", "step", "inits", NULL };
    static const char fn[] = "Body.for_";
    PyObject *olb, *oub, *ostep, *oinit = NULL;
    if (!PYIRON_PARSE(args, kw, "OOO|O:for_", kws, &olb, &oub,
                                     &ostep, &oinit))
        return NULL;
    LIVE(fn);
    iron_val lb, ub, step, small[SMALL], *init = small, iters[SMALL],
        *iter = iters;
    int n = 0;
    if (val(olb, fn, "lb", &lb) < 0 || val(oub, fn, "ub", &ub) < 0 ||
        val(ostep, fn, "step", &step) < 0 ||
        (oinit && vals(oinit, fn, "inits", small, SMALL, &init, &n) < 0))
        return NULL;
    PyObject *r = NULL;
    if (n > SMALL && !(iter = PyMem_Calloc((size_t)n, sizeof *iter))) {
        PyErr_NoMemory();
        goto out;
    }
    iron_val iv = iron_body_for(BODY(self), lb, ub, step, n, init, iter);
    if (failed(self) || region_push(self, n) < 0)
        goto out;
    PyObject *list = val_list(iter, n);
    if (list)
        r = Py_BuildValue("(lN)", (long)iv, list);
out:
    if (iter != iters)
        PyMem_Free(iter);
    free_vals(init, small);
    return r;
}

/* end_for, end_while, end_if: close the region with its yield and give
 * its results. */
static PyObject *body_end(pyiron_dobj *self, PyObject *args, PyObject *kw,
                          int which)
{
    static const char *const kws[] = { "yields", NULL };
    static const char *const fns[] = { "Body.end_for", "Body.end_while",
                                       "Body.end_if" };
    const char *fn = fns[which];
    PyObject *oy = NULL;
    if (!PYIRON_PARSE(args, kw, "|O", kws, &oy))
        return NULL;
    LIVE(fn);
    iron_val small[SMALL], *y = small, rsmall[SMALL], *res = rsmall;
    int n = 0;
    if (oy && vals(oy, fn, "yields", small, SMALL, &y, &n) < 0)
        return NULL;
    int nres = which == 0 ? n : region_top(self);   /* for: as it carries */
    if (which == 2 && n > nres)
        nres = n;
    PyObject *r = NULL;
    if (nres > SMALL &&
        !(res = PyMem_Calloc((size_t)nres, sizeof *res))) {
        PyErr_NoMemory();
        goto out;
    }
    iron_status s = which == 0 ? iron_body_end_for(BODY(self), n, y, res)
                    : which == 1 ? iron_body_end_while(BODY(self), n, y, res)
                                 : iron_body_end_if(BODY(self), n, y, res);
    PyObject *st = status_result(self, s);
    if (!st)
        goto out;
    Py_DECREF(st);
    region_pop(self);
    r = val_list(res, nres);
out:
    if (res != rsmall)
        PyMem_Free(res);
    free_vals(y, small);
    return r;
}

static PyObject *body_end_for(pyiron_dobj *self, PyObject *args, PyObject *kw)
{
    return body_end(self, args, kw, 0);
}

static PyObject *body_end_while(pyiron_dobj *self, PyObject *args,
                                PyObject *kw)
{
    return body_end(self, args, kw, 1);
}

static PyObject *body_end_if(pyiron_dobj *self, PyObject *args, PyObject *kw)
{
    return body_end(self, args, kw, 2);
}

/* while_ (inits) and while_do (cond, fwd): values in, values out. */
static PyObject *body_while(pyiron_dobj *self, PyObject *args, PyObject *kw,
                            int is_do)
{
    static const char *const kws[] = { "inits", NULL };
    static const char *const do_kws[] = { "cond", "fwd", NULL };
    const char *fn = is_do ? "Body.while_do" : "Body.while_";
    PyObject *ocond = NULL, *ov = NULL;
    int ok = is_do ? PYIRON_PARSE(args, kw, "O|O:while_do",
                                                 do_kws, &ocond, &ov)
                   : PYIRON_PARSE(args, kw, "|O:while_", kws,
                                                 &ov);
    if (!ok)
        return NULL;
    LIVE(fn);
    iron_val cond = IRON_VAL_NONE, small[SMALL], *in = small, osmall[SMALL],
             *outv = osmall;
    int n = 0;
    if ((is_do && val(ocond, fn, "cond", &cond) < 0) ||
        (ov && vals(ov, fn, is_do ? "fwd" : "inits", small, SMALL, &in, &n) <
                   0))
        return NULL;
    PyObject *r = NULL;
    if (n > SMALL && !(outv = PyMem_Calloc((size_t)n, sizeof *outv))) {
        PyErr_NoMemory();
        goto out;
    }
    iron_status s = is_do ? iron_body_while_do(BODY(self), cond, n, in, outv)
                          : iron_body_while(BODY(self), n, in, outv);
    PyObject *st = status_result(self, s);
    if (!st)
        goto out;
    Py_DECREF(st);
    if (is_do)
        region_set_top(self, n);   /* what the loop gives when it ends */
    else if (region_push(self, 0) < 0)
        goto out;
    r = val_list(outv, n);
out:
    if (outv != osmall)
        PyMem_Free(outv);
    free_vals(in, small);
    return r;
}

static PyObject *body_while_(pyiron_dobj *self, PyObject *args, PyObject *kw)
{
    return body_while(self, args, kw, 0);
}

static PyObject *body_while_do(pyiron_dobj *self, PyObject *args,
                               PyObject *kw)
{
    return body_while(self, args, kw, 1);
}

static PyObject *body_if(pyiron_dobj *self, PyObject *args, PyObject *kw)
{
    static const char *const kws[] = { "cond", "nresults", NULL };
    static const char fn[] = "Body.if_";
    PyObject *oc, *on = NULL;
    if (!PYIRON_PARSE(args, kw, "O|O:if_", kws, &oc, &on))
        return NULL;
    LIVE(fn);
    iron_val c;
    int n = 0;
    if (val(oc, fn, "cond", &c) < 0 ||
        (on && pyiron_arg_int(on, fn, "nresults", &n) < 0))
        return NULL;
    PyObject *r = status_result(self, iron_body_if(BODY(self), c, n));
    if (r && region_push(self, n) < 0)
        Py_CLEAR(r);
    return r;
}

static PyObject *body_else(pyiron_dobj *self, PyObject *args, PyObject *kw)
{
    static const char *const kws[] = { "yields", NULL };
    static const char fn[] = "Body.else_";
    PyObject *oy = NULL;
    if (!PYIRON_PARSE(args, kw, "|O:else_", kws, &oy))
        return NULL;
    LIVE(fn);
    iron_val small[SMALL], *y = small;
    int n = 0;
    if (oy && vals(oy, fn, "yields", small, SMALL, &y, &n) < 0)
        return NULL;
    PyObject *r = status_result(self, iron_body_else(BODY(self), n, y));
    free_vals(y, small);
    return r;
}

/* --- fifos, memory, calls, barriers ------------------------------------------- */

static PyObject *body_acquire(pyiron_dobj *self, PyObject *args)
{
    static const char fn[] = "Body.acquire";
    PyObject *of, *on;
    if (!PyArg_UnpackTuple(args, "acquire", 2, 2, &of, &on))
        return NULL;
    LIVE(fn);
    iron_val f;
    int n;
    if (val(of, fn, "fifo", &f) < 0 || pyiron_arg_int(on, fn, "n", &n) < 0)
        return NULL;
    return val_result(self, iron_body_acquire(BODY(self), f, n), fn);
}

static PyObject *body_object(pyiron_dobj *self, PyObject *args)
{
    static const char fn[] = "Body.object";
    PyObject *oa, *oi;
    if (!PyArg_UnpackTuple(args, "object", 2, 2, &oa, &oi))
        return NULL;
    LIVE(fn);
    iron_val a;
    int i;
    if (val(oa, fn, "acq", &a) < 0 || pyiron_arg_int(oi, fn, "i", &i) < 0)
        return NULL;
    return val_result(self, iron_body_object(BODY(self), a, i), fn);
}

static PyObject *body_release(pyiron_dobj *self, PyObject *args)
{
    static const char fn[] = "Body.release";
    PyObject *of, *on;
    if (!PyArg_UnpackTuple(args, "release", 2, 2, &of, &on))
        return NULL;
    LIVE(fn);
    iron_val f;
    int n;
    if (val(of, fn, "fifo", &f) < 0 || pyiron_arg_int(on, fn, "n", &n) < 0)
        return NULL;
    return status_result(self, iron_body_release(BODY(self), f, n));
}

static PyObject *body_load(pyiron_dobj *self, PyObject *args)
{
    static const char fn[] = "Body.load";
    PyObject *om, *oi;
    if (!PyArg_UnpackTuple(args, "load", 2, 2, &om, &oi))
        return NULL;
    LIVE(fn);
    iron_val m, small[SMALL], *idx = small;
    int n;
    if (val(om, fn, "mem", &m) < 0 ||
        vals(oi, fn, "idx", small, SMALL, &idx, &n) < 0)
        return NULL;
    iron_val v = iron_body_load(BODY(self), m, n, idx);
    free_vals(idx, small);
    return val_result(self, v, fn);
}

static PyObject *body_store(pyiron_dobj *self, PyObject *args)
{
    static const char fn[] = "Body.store";
    PyObject *ov, *om, *oi;
    if (!PyArg_UnpackTuple(args, "store", 3, 3, &ov, &om, &oi))
        return NULL;
    LIVE(fn);
    iron_val v, m, small[SMALL], *idx = small;
    int n;
    if (val(ov, fn, "v", &v) < 0 || val(om, fn, "mem", &m) < 0 ||
        vals(oi, fn, "idx", small, SMALL, &idx, &n) < 0)
        return NULL;
    iron_status s = iron_body_store(BODY(self), v, m, n, idx);
    free_vals(idx, small);
    return status_result(self, s);
}

static PyObject *body_call(pyiron_dobj *self, PyObject *args)
{
    static const char fn[] = "Body.call";
    PyObject *ok, *oa;
    if (!PyArg_UnpackTuple(args, "call", 2, 2, &ok, &oa))
        return NULL;
    LIVE(fn);
    iron_val k, small[SMALL], *a = small;
    int n;
    if (val(ok, fn, "kernel", &k) < 0 ||
        vals(oa, fn, "args", small, SMALL, &a, &n) < 0)
        return NULL;
    iron_status s = iron_body_call(BODY(self), k, n, a);
    free_vals(a, small);
    return status_result(self, s);
}

static PyObject *body_barrier_op(pyiron_dobj *self, PyObject *args,
                                 int release)
{
    const char *fn = release ? "Body.barrier_release" : "Body.barrier_wait";
    PyObject *ob, *ov;
    if (!PyArg_UnpackTuple(args, fn + 5, 2, 2, &ob, &ov))
        return NULL;
    LIVE(fn);
    iron_val b;
    int v;
    if (val(ob, fn, "b", &b) < 0 || pyiron_arg_int(ov, fn, "value", &v) < 0)
        return NULL;
    return status_result(self,
                         release ? iron_body_barrier_release(BODY(self), b, v)
                                 : iron_body_barrier_wait(BODY(self), b, v));
}

static PyObject *body_barrier_wait(pyiron_dobj *self, PyObject *args)
{
    return body_barrier_op(self, args, 0);
}

static PyObject *body_barrier_release(pyiron_dobj *self, PyObject *args)
{
    return body_barrier_op(self, args, 1);
}

static PyObject *body_dump(pyiron_dobj *self, PyObject *noargs)
{
    (void)noargs;
    LIVE("Body.dump");
    char *text = NULL;
    iron_status s = iron_body_dump(BODY(self), &text);
    if (s != IRON_OK)
        return pyiron_raise(s);
    PyObject *r = PyUnicode_FromString(text);
    iron_free(text);
    return r;
}

static PyObject *body_get_name(pyiron_dobj *self, void *closure)
{
    (void)closure;
    Py_INCREF(self->name);
    return self->name;
}

/* --- the type ------------------------------------------------------------------- */

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

static PyMethodDef body_methods[] = {
    { "fifo", (PyCFunction)body_fifo, METH_O,
      "fifo(handle) -> value: an endpoint the body acquires from and "
      "releases to." },
    { "rtp", (PyCFunction)body_rtp, METH_O,
      "rtp(rtp) -> value: the worker's copy of a buffer (a 1-D memref)." },
    { "barrier", (PyCFunction)body_barrier, METH_O,
      "barrier(b) -> value: the worker's copy of a barrier." },
    { "kernel", (PyCFunction)body_kernel, METH_O,
      "kernel(k) -> value: a kernel the body calls." },
    { "const_int", (PyCFunction)body_const_int, METH_VARARGS,
      "const_int(type, v) -> value: an integer or index constant." },
    { "const_float", (PyCFunction)body_const_float, METH_VARARGS,
      "const_float(type, v) -> value: a float constant (rounded to "
      "type)." },
    { "arith", KW(body_arith),
      "arith(op, x, y=None) -> value: a binary arith op (\"addi\", "
      "\"mulf\" ...), or negf with y None." },
    { "cast", (PyCFunction)body_cast, METH_VARARGS,
      "cast(op, x, to_type) -> value: extsi .. bitcast of x to to_type." },
    { "cmp", (PyCFunction)body_cmp, METH_VARARGS,
      "cmp(pred, x, y) -> value: arith.cmpi / cmpf (an i1)." },
    { "select", (PyCFunction)body_select, METH_VARARGS,
      "select(c, x, y) -> value: c ? x : y." },
    { "type_of", (PyCFunction)body_type_of, METH_O,
      "type_of(v) -> str: a value's type (\"i32\", \"memref\" ...)." },
    { "for_", KW(body_for),
      "for_(lb, ub, step, inits=()) -> (iv, [iter_vals]): opens an "
      "scf.for." },
    { "end_for", KW(body_end_for),
      "end_for(yields=()) -> [results]: closes the innermost for." },
    { "while_", KW(body_while_),
      "while_(inits=()) -> [args]: opens an scf.while's before region." },
    { "while_do", KW(body_while_do),
      "while_do(cond, fwd=()) -> [after]: its condition, and opens the do "
      "region." },
    { "end_while", KW(body_end_while),
      "end_while(yields=()) -> [results]: closes the while." },
    { "if_", KW(body_if),
      "if_(cond, nresults=0): opens an scf.if's then region." },
    { "else_", KW(body_else),
      "else_(yields=()): closes the then region, opens the else region." },
    { "end_if", KW(body_end_if),
      "end_if(yields=()) -> [results]: closes the if." },
    { "acquire", (PyCFunction)body_acquire, METH_VARARGS,
      "acquire(fifo, n) -> acq: n objects of a fifo value." },
    { "object", (PyCFunction)body_object, METH_VARARGS,
      "object(acq, i) -> memref: object i of an acquisition." },
    { "release", (PyCFunction)body_release, METH_VARARGS,
      "release(fifo, n): releases the n oldest held objects." },
    { "load", (PyCFunction)body_load, METH_VARARGS,
      "load(mem, idx) -> value: memref.load, one index value per "
      "dimension." },
    { "store", (PyCFunction)body_store, METH_VARARGS,
      "store(v, mem, idx): memref.store." },
    { "call", (PyCFunction)body_call, METH_VARARGS,
      "call(kernel, args): func.call of a kernel value." },
    { "barrier_wait", (PyCFunction)body_barrier_wait, METH_VARARGS,
      "barrier_wait(b, value): waits until the barrier holds value." },
    { "barrier_release", (PyCFunction)body_barrier_release, METH_VARARGS,
      "barrier_release(b, value): adds value to the barrier's lock." },
    { "dump", (PyCFunction)body_dump, METH_NOARGS,
      "dump() -> str: the body as MLIR ops." },
    { NULL, NULL, 0, NULL },
};

static PyGetSetDef body_getset[] = {
    { "name", (getter)body_get_name, NULL, "the body's name", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

/* The Body type: the layout of objects.c's types, and their slots
 * (pyiron_dobj_slots). */
PyTypeObject pyiron_body_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "iron._iron.Body",
    .tp_basicsize = sizeof(pyiron_dobj),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A core body described op by op (Design.body(name)); values "
              "are ints, types and ops MLIR names.  Give it to "
              "Design.worker_body.",
    .tp_methods = body_methods,
    .tp_getset = body_getset,
};

static PyObject *body_names(PyObject *mod, PyObject *noargs)
{
    (void)mod;
    (void)noargs;
    return Py_BuildValue("{sNsNsN}", "types", name_list(NAME_TYPE), "arith",
                         name_list(NAME_ARITH), "cmp", name_list(NAME_CMP));
}

static PyMethodDef module_methods[] = {
    { "body_names", body_names, METH_NOARGS,
      "body_names() -> dict: the names Body takes: 'types' (value types), "
      "'arith' (ops), 'cmp' (predicates)." },
    { NULL, NULL, 0, NULL },
};

int pyiron_body_init(PyObject *m)
{
    pyiron_dobj_slots(&pyiron_body_type);
    if (PyType_Ready(&pyiron_body_type) < 0 ||
        PyModule_AddObjectRef(m, "Body", (PyObject *)&pyiron_body_type) < 0 ||
        PyModule_AddFunctions(m, module_methods) < 0)
        return -1;
    return 0;
}
