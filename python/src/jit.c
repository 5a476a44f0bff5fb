/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * jit.c - Jit, Spec and Run: a jit object whose design function is a
 * Python callable, its specializations and asynchronous runs; dumps,
 * checks, exports and artifacts; counters and statistics; mlir_jit.
 *
 * The trampoline.  The library calls design functions while it builds a
 * specialization, on the thread that made the call (or on a launcher
 * thread for iron_jit_start), with the GIL released by that call.  The
 * trampoline takes the GIL, gives the callable a fresh Design, and ends
 * the Design when the callable returns.  When the callable raises, the
 * library gets a failure naming the exception, and the exception itself
 * is kept in the calling thread's `pending` slot (a frame of the call on
 * the C stack, linked from a thread-local pointer), so that the call
 * re-raises the user's own exception with its traceback instead of the
 * library's message (added to it as a note).
 *
 * Locks: every call into the jit releases the GIL (a build in progress
 * holds the jit's build lock while it waits for the GIL in the
 * trampoline; a caller holding the GIL while it waits for that lock
 * would deadlock).
 */
#include "pyiron.h"

typedef struct pyiron_jit {
    PyObject_HEAD
    iron_jit *j;
    PyObject *design;      /* the callable; NULL for mlir_jit's */
    PyObject *name;        /* str */
    const char *name_utf8; /* borrowed from name */
    iron_mlir *mlir;       /* mlir_jit: the module the jit runs */
    /* What the design function raised in a build on a launcher thread
     * (an asynchronous start), for the Run.wait that reports it; read and
     * written under the GIL. */
    PyObject *async_type, *async_value, *async_tb;
} pyiron_jit;

typedef struct pyiron_spec {
    PyObject_HEAD
    pyiron_jit *jit;
    iron_spec *s;          /* owned by the jit */
} pyiron_spec;

typedef struct pyiron_run {
    PyObject_HEAD
    pyiron_jit *jit;
    iron_run *r;
    PyObject *tensors;     /* the Tensors, held until the run is freed */
} pyiron_run;

static PyTypeObject jit_type, spec_type, run_type;

/* --- the pending exception ------------------------------------------------------ */

typedef struct pending {
    const pyiron_jit *jit;
    PyObject *type, *value, *tb;   /* what the design function raised */
    struct pending *prev;
} pending;

static _Thread_local pending *tls_pending;

static void pending_push(pending *p, const pyiron_jit *jit)
{
    p->jit = jit;
    p->type = p->value = p->tb = NULL;
    p->prev = tls_pending;
    tls_pending = p;
}

/* Pops p; raises for status s (the design's exception if it raised, else
 * the library's) and returns NULL, or returns None for IRON_OK. */
static PyObject *pending_pop(pending *p, iron_status s)
{
    tls_pending = p->prev;
    if (s == IRON_OK || !p->value) {
        Py_XDECREF(p->type);
        Py_XDECREF(p->value);
        Py_XDECREF(p->tb);
        if (s != IRON_OK)
            return pyiron_raise(s);
        Py_RETURN_NONE;
    }
    /* The user's exception, with the library's context as a note. */
    const char *msg = iron_last_error();
    if (msg && *msg) {
        PyObject *r = PyObject_CallMethod(p->value, "add_note", "s", msg);
        if (!r)
            PyErr_Clear();
        Py_XDECREF(r);
    }
    PyErr_Restore(p->type, p->value, p->tb);
    return NULL;
}

/* The design function raised: tell the library, and keep the exception
 * for the call that is waiting for this build on this thread. */
static void keep_exception(pyiron_jit *self, iron_design *d)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb && value)
        PyException_SetTraceback(value, tb);
    PyObject *str = value ? PyObject_Str(value) : NULL;
    const char *msg = str ? PyUnicode_AsUTF8(str) : NULL;
    if (!msg)
        PyErr_Clear();
    iron_design_fail(d, IRON_EDESIGN, "design function raised %s%s%s",
                     type ? ((PyTypeObject *)type)->tp_name : "an exception",
                     msg && *msg ? ": " : "", msg ? msg : "");
    Py_XDECREF(str);
    pending *p = tls_pending;
    if (p && p->jit == self && !p->value) {
        p->type = type;
        p->value = value;
        p->tb = tb;
    } else {
        /* No call waits on this thread (an asynchronous start, built on
         * a launcher thread): the jit keeps it for the run's wait. */
        Py_XSETREF(self->async_type, type);
        Py_XSETREF(self->async_value, value);
        Py_XSETREF(self->async_tb, tb);
    }
}

static int trampoline(iron_design *d, void *user)
{
    pyiron_jit *self = user;
    PyGILState_STATE g = PyGILState_Ensure();
    int rc = 0;
    if (!self->design) {
        iron_design_fail(d, IRON_ESTATE, "jit '%s': its design function "
                         "was released", self->name_utf8);
        rc = 1;
    } else {
        PyObject *dz = pyiron_design_new(d, self->name_utf8);
        PyObject *r = dz ? PyObject_CallOneArg(self->design, dz) : NULL;
        pyiron_design_end(dz);
        if (!r) {
            keep_exception(self, d);
            rc = 1;
        }
        Py_XDECREF(r);
        Py_XDECREF(dz);
    }
    PyGILState_Release(g);
    return rc;
}

/* --- call arguments --------------------------------------------------------------- */

#define NSMALL 16

/* The tensors of a call: the library's pointers, and the Tensor objects
 * held until the call returns (another thread may change the sequence
 * while the GIL is released). */
typedef struct tensor_args {
    int n;
    iron_tensor **t;
    PyObject **o;
    iron_tensor *tsmall[NSMALL];
    PyObject *osmall[NSMALL];
} tensor_args;

static void tensors_free(tensor_args *ta)
{
    for (int i = 0; i < ta->n; i++)
        Py_DECREF(ta->o[i]);
    if (ta->t != ta->tsmall)
        PyMem_Free(ta->t);
    if (ta->o != ta->osmall)
        PyMem_Free(ta->o);
    ta->n = 0;
}

static int tensors_read(PyObject *seq, const char *fn, tensor_args *ta)
{
    ta->n = 0;
    ta->t = ta->tsmall;
    ta->o = ta->osmall;
    PyObject *const *items;
    Py_ssize_t n;
    if (PyTuple_Check(seq)) {
        items = &PyTuple_GET_ITEM(seq, 0);
        n = PyTuple_GET_SIZE(seq);
    } else if (PyList_Check(seq)) {
        items = PySequence_Fast_ITEMS(seq);
        n = PyList_GET_SIZE(seq);
    } else {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'tensors' must be a "
                     "list or tuple of Tensors, not %.100s",
                     fn, Py_TYPE(seq)->tp_name);
        return -1;
    }
    if (n > NSMALL) {
        if (n > INT32_MAX) {
            PyErr_Format(PyExc_ValueError, "%s(): too many tensors", fn);
            return -1;
        }
        ta->t = PyMem_Malloc((size_t)n * sizeof *ta->t);
        ta->o = PyMem_Malloc((size_t)n * sizeof *ta->o);
        if (!ta->t || !ta->o) {
            tensors_free(ta);
            PyErr_NoMemory();
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = items[i];
        iron_tensor *t;
        if (PyObject_TypeCheck(o, &pyiron_tensor_type))
            t = ((pyiron_tensor *)o)->t;   /* the warm path: no lookup */
        else {
            char what[64];
            PyOS_snprintf(what, sizeof what, "%s(): tensor argument %zd", fn,
                          i);
            if (!(t = pyiron_tensor_get(o, what))) {
                tensors_free(ta);
                return -1;
            }
        }
        Py_INCREF(o);
        ta->o[i] = o;
        ta->t[i] = t;
        ta->n = (int)i + 1;
    }
    return 0;
}

/* The compile-time parameters of a call (a dict or None), their names and
 * values held while the GIL is released. */
typedef struct param_args {
    int n;
    iron_param *p;
    iron_kernel_ref *k;
    PyObject *held;        /* the dict's items, a list, or NULL */
    iron_param psmall[NSMALL];
    iron_kernel_ref ksmall[NSMALL];
} param_args;

static void params_free(param_args *pa)
{
    if (pa->p != pa->psmall)
        PyMem_Free(pa->p);
    if (pa->k != pa->ksmall)
        PyMem_Free(pa->k);
    Py_CLEAR(pa->held);
    pa->n = 0;
}

static int param_value(PyObject *v, const char *fn, const char *name,
                       iron_kernel_ref *kref, iron_param *out)
{
    if (PyBool_Check(v)) {
        *out = iron_param_bool(name, v == Py_True);
        return 0;
    }
    if (PyFloat_Check(v)) {
        *out = iron_param_float(name, PyFloat_AS_DOUBLE(v));
        return 0;
    }
    if (PyUnicode_Check(v)) {
        const char *s = PyUnicode_AsUTF8(v);
        if (!s)
            return -1;
        *out = iron_param_str(name, s);
        return 0;
    }
    if (PyIndex_Check(v)) {
        int64_t i;
        char what[96];
        PyOS_snprintf(what, sizeof what, "params['%s']", name);
        if (pyiron_arg_i64(v, fn, what, &i) < 0)
            return -1;
        *out = iron_param_int(name, i);
        return 0;
    }
    if (PyTuple_Check(v) && PyTuple_GET_SIZE(v) >= 2 &&
        PyUnicode_Check(PyTuple_GET_ITEM(v, 0))) {
        const char *kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(v, 0));
        if (!kind)
            return -1;
        char what[96];
        PyOS_snprintf(what, sizeof what, "params['%s'][1]", name);
        if (strcmp(kind, "dtype") == 0 && PyTuple_GET_SIZE(v) == 2) {
            iron_dtype dt;
            if (pyiron_arg_dtype(PyTuple_GET_ITEM(v, 1), fn, what, &dt) < 0)
                return -1;
            *out = iron_param_dtype(name, dt);
            return 0;
        }
        if (strcmp(kind, "kernel") == 0 && PyTuple_GET_SIZE(v) == 4) {
            static const char *const parts[] = { "entry", "source",
                                                 "arg_types" };
            const char **f[] = { &kref->entry, &kref->source,
                                 &kref->arg_types };
            for (int i = 0; i < 3; i++) {
                PyOS_snprintf(what, sizeof what, "params['%s'] %s", name,
                              parts[i]);
                if (pyiron_arg_str(PyTuple_GET_ITEM(v, i + 1), fn, what, 0,
                                   f[i]) < 0)
                    return -1;
            }
            *out = iron_param_kernel(name, kref);
            return 0;
        }
    }
    PyErr_Format(PyExc_TypeError, "%s(): params['%s'] must be bool, int, "
                 "float, str, (\"dtype\", name) or (\"kernel\", entry, "
                 "source, arg_types), not %.100s",
                 fn, name, Py_TYPE(v)->tp_name);
    return -1;
}

static int params_read(PyObject *o, const char *fn, param_args *pa)
{
    pa->n = 0;
    pa->p = pa->psmall;
    pa->k = pa->ksmall;
    pa->held = NULL;
    if (!o || o == Py_None)
        return 0;
    if (!PyDict_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'params' must be a dict "
                     "or None, not %.100s", fn, Py_TYPE(o)->tp_name);
        return -1;
    }
    /* The items, held: keys and values stay alive whatever another thread
     * does to the dict meanwhile. */
    if (!(pa->held = PyDict_Items(o)))
        return -1;
    Py_ssize_t n = PyList_GET_SIZE(pa->held);
    if (n > NSMALL) {
        pa->p = PyMem_Calloc((size_t)n, sizeof *pa->p);
        pa->k = PyMem_Calloc((size_t)n, sizeof *pa->k);
        if (!pa->p || !pa->k) {
            params_free(pa);
            PyErr_NoMemory();
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(pa->held, i);
        const char *name;
        if (pyiron_arg_str(PyTuple_GET_ITEM(item, 0), fn, "params key", 0,
                           &name) < 0 ||
            param_value(PyTuple_GET_ITEM(item, 1), fn, name, &pa->k[i],
                        &pa->p[i]) < 0) {
            params_free(pa);
            return -1;
        }
    }
    pa->n = (int)n;
    return 0;
}

/* Dispatch-time scalars: a dict name -> int, or None. */
typedef struct scalar_args {
    int n;
    iron_scalar *s;
    PyObject *held;
    iron_scalar ssmall[NSMALL];
} scalar_args;

static void scalars_free(scalar_args *sa)
{
    if (sa->s != sa->ssmall)
        PyMem_Free(sa->s);
    Py_CLEAR(sa->held);
    sa->n = 0;
}

static int scalars_read(PyObject *o, const char *fn, scalar_args *sa)
{
    sa->n = 0;
    sa->s = sa->ssmall;
    sa->held = NULL;
    if (!o || o == Py_None)
        return 0;
    if (!PyDict_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'scalars' must be a "
                     "dict or None, not %.100s", fn, Py_TYPE(o)->tp_name);
        return -1;
    }
    if (!(sa->held = PyDict_Items(o)))
        return -1;
    Py_ssize_t n = PyList_GET_SIZE(sa->held);
    if (n > NSMALL && !(sa->s = PyMem_Calloc((size_t)n, sizeof *sa->s))) {
        scalars_free(sa);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(sa->held, i);
        const char *name;
        int64_t v;
        char what[96];
        if (pyiron_arg_str(PyTuple_GET_ITEM(item, 0), fn, "scalars key", 0,
                           &name) < 0) {
            scalars_free(sa);
            return -1;
        }
        PyOS_snprintf(what, sizeof what, "scalars['%s']", name);
        if (pyiron_arg_i64(PyTuple_GET_ITEM(item, 1), fn, what, &v) < 0) {
            scalars_free(sa);
            return -1;
        }
        sa->s[i] = iron_scalar_value(name, v);
    }
    sa->n = (int)n;
    return 0;
}

/* The launch configuration: a dict with keys cols, timeout_ms, check,
 * trace, profile, threads, timing, clock_mhz, or None.  check, profile
 * and timing take True (1), False (-1), None (0: the environment's) or
 * the library's int. */
typedef struct config_args {
    iron_launch_config cfg;
    const iron_launch_config *p;   /* &cfg, or NULL for the defaults */
    PyObject *trace;               /* held */
} config_args;

static int tristate(PyObject *v, const char *fn, const char *what, int *out)
{
    if (v == Py_None) {
        *out = 0;
        return 0;
    }
    if (PyBool_Check(v)) {
        *out = v == Py_True ? 1 : -1;
        return 0;
    }
    return pyiron_arg_int(v, fn, what, out);
}

static int config_read(PyObject *o, const char *fn, config_args *ca)
{
    memset(ca, 0, sizeof *ca);
    ca->cfg.size = sizeof ca->cfg;
    if (!o || o == Py_None)
        return 0;
    if (!PyDict_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'config' must be a dict "
                     "or None, not %.100s", fn, Py_TYPE(o)->tp_name);
        return -1;
    }
    ca->p = &ca->cfg;
    PyObject *key, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &key, &v)) {
        const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        int bad;
        if (!k) {
            PyErr_Clear();
            bad = 1;
        } else if (strcmp(k, "cols") == 0)
            bad = pyiron_arg_int(v, fn, "config['cols']", &ca->cfg.cols);
        else if (strcmp(k, "timeout_ms") == 0)
            bad = pyiron_arg_int(v, fn, "config['timeout_ms']",
                                 &ca->cfg.timeout_ms);
        else if (strcmp(k, "threads") == 0)
            bad = pyiron_arg_int(v, fn, "config['threads']",
                                 &ca->cfg.threads);
        else if (strcmp(k, "check") == 0)
            bad = tristate(v, fn, "config['check']", &ca->cfg.check);
        else if (strcmp(k, "profile") == 0)
            bad = tristate(v, fn, "config['profile']", &ca->cfg.profile);
        else if (strcmp(k, "timing") == 0)
            bad = tristate(v, fn, "config['timing']", &ca->cfg.timing);
        else if (strcmp(k, "clock_mhz") == 0)
            bad = pyiron_arg_double(v, fn, "config['clock_mhz']",
                                    &ca->cfg.clock_mhz);
        else if (strcmp(k, "trace") == 0) {
            bad = pyiron_arg_str(v, fn, "config['trace']", 1,
                                 &ca->cfg.trace);
            if (!bad) {
                Py_INCREF(v);
                Py_XSETREF(ca->trace, v);
            }
        } else {
            PyErr_Format(PyExc_TypeError, "%s(): config has key %R; the keys "
                         "are cols, timeout_ms, check, trace, profile, "
                         "threads, timing, clock_mhz", fn, key);
            bad = -1;
        }
        if (bad) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "%s(): config's keys must be "
                             "str, not %.100s", fn, Py_TYPE(key)->tp_name);
            Py_CLEAR(ca->trace);
            return -1;
        }
    }
    return 0;
}

/* Everything a call takes. */
typedef struct call_args {
    tensor_args t;
    param_args p;
    scalar_args s;
    config_args c;
} call_args;

static void call_free(call_args *a)
{
    tensors_free(&a->t);
    params_free(&a->p);
    scalars_free(&a->s);
    Py_CLEAR(a->c.trace);
}

static int call_read(call_args *a, const char *fn, PyObject *tensors,
                     PyObject *params, PyObject *scalars, PyObject *config)
{
    a->t.n = a->p.n = a->s.n = 0;
    a->t.t = a->t.tsmall;
    a->t.o = a->t.osmall;
    a->p.p = a->p.psmall;
    a->p.k = a->p.ksmall;
    a->p.held = a->s.held = NULL;
    a->s.s = a->s.ssmall;
    a->c.trace = NULL;
    if (tensors_read(tensors, fn, &a->t) < 0 ||
        params_read(params, fn, &a->p) < 0 ||
        scalars_read(scalars, fn, &a->s) < 0 ||
        config_read(config, fn, &a->c) < 0) {
        call_free(a);
        return -1;
    }
    return 0;
}

/* --- Jit ------------------------------------------------------------------------ */

static int jit_traverse(pyiron_jit *self, visitproc visit, void *arg)
{
    Py_VISIT(self->design);
    Py_VISIT(self->async_value);
    Py_VISIT(self->async_tb);
    return 0;
}

static int jit_clear(pyiron_jit *self)
{
    Py_CLEAR(self->design);
    Py_CLEAR(self->async_type);
    Py_CLEAR(self->async_value);
    Py_CLEAR(self->async_tb);
    return 0;
}

static void jit_dealloc(pyiron_jit *self)
{
    PyObject_GC_UnTrack(self);
    iron_jit *j = self->j;
    self->j = NULL;
    if (j) {
        /* It waits for its runs in flight, whose builds may need the
         * GIL. */
        Py_BEGIN_ALLOW_THREADS
        iron_jit_free(j);
        Py_END_ALLOW_THREADS
    }
    iron_mlir_free(self->mlir);
    Py_CLEAR(self->design);
    Py_CLEAR(self->name);
    Py_CLEAR(self->async_type);
    Py_CLEAR(self->async_value);
    Py_CLEAR(self->async_tb);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int jit_init(pyiron_jit *self, PyObject *args, PyObject *kw)
{
    static const char *const kws[] = { "design", "name", "args", "params",
                                       "scalars", "cflags", "disk_cache",
                                       "cache_dir", "max_resident", NULL };
    static const char fn[] = "Jit";
    PyObject *odesign, *oname, *oargs, *oparams = Py_None,
                                       *oscalars = Py_None,
                                       *ocflags = Py_None, *odisk = NULL,
                                       *odir = Py_None, *omax = NULL;
    if (!PYIRON_PARSE(args, kw, "OOO|OOOOOO:Jit", kws, &odesign, &oname,
                      &oargs, &oparams, &oscalars, &ocflags, &odisk, &odir,
                      &omax))
        return -1;
    if (self->j) {
        PyErr_SetString(PyExc_TypeError, "Jit(): the object is already "
                        "initialised");
        return -1;
    }
    if (!PyCallable_Check(odesign)) {
        PyErr_Format(PyExc_TypeError, "Jit(): argument 'design' must be "
                     "callable, not %.100s", Py_TYPE(odesign)->tp_name);
        return -1;
    }
    iron_jit_options o = { .size = sizeof o };
    PyObject *bdir = NULL;
    if (pyiron_arg_str(oname, fn, "name", 0, &o.name) < 0 ||
        pyiron_arg_str(oargs, fn, "args", 0, &o.args) < 0 ||
        pyiron_arg_str(oparams, fn, "params", 1, &o.params) < 0 ||
        pyiron_arg_str(oscalars, fn, "scalars", 1, &o.scalars) < 0 ||
        pyiron_arg_str(ocflags, fn, "cflags", 1, &o.cflags) < 0 ||
        (odisk && tristate(odisk, fn, "disk_cache", &o.disk_cache) < 0) ||
        (omax && pyiron_arg_int(omax, fn, "max_resident",
                                &o.max_resident) < 0))
        return -1;
    if (odir != Py_None) {
        if (!PyUnicode_FSConverter(odir, &bdir))
            return -1;
        o.cache_dir = PyBytes_AS_STRING(bdir);
    }
    o.user = self;
    Py_INCREF(odesign);
    Py_XSETREF(self->design, odesign);
    Py_INCREF(oname);
    Py_XSETREF(self->name, oname);
    self->name_utf8 = o.name;
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_jit_create(trampoline, &o, &self->j);
    Py_END_ALLOW_THREADS
    Py_XDECREF(bdir);
    if (s != IRON_OK) {
        pyiron_raise(s);
        return -1;
    }
    return 0;
}

static iron_jit *jit_get(pyiron_jit *self)
{
    if (!self->j)
        PyErr_SetString(PyExc_TypeError, "the Jit was not initialised "
                        "(Jit.__init__ failed or was not called)");
    return self->j;
}

static PyObject *jit_launch(pyiron_jit *self, PyObject *args, PyObject *kw)
{
    static const char *const kws[] = { "tensors", "params", "scalars",
                                       "config", NULL };
    static const char fn[] = "Jit.launch";
    PyObject *ot, *op = NULL, *os = NULL, *oc = NULL;
    if (!PYIRON_PARSE(args, kw, "O|OOO:launch", kws, &ot, &op, &os, &oc) ||
        !jit_get(self))
        return NULL;
    call_args a;
    if (call_read(&a, fn, ot, op, os, oc) < 0)
        return NULL;
    pending p;
    pending_push(&p, self);
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_jit_launch(self->j, a.c.p, a.p.n, a.p.p, a.s.n, a.s.s, a.t.n,
                        a.t.t);
    Py_END_ALLOW_THREADS
    call_free(&a);
    return pending_pop(&p, s);
}

static PyObject *run_new(pyiron_jit *jit, iron_run *r, PyObject *tensors)
{
    pyiron_run *o = PyObject_New(pyiron_run, &run_type);
    if (!o) {
        Py_BEGIN_ALLOW_THREADS
        iron_run_free(r);
        Py_END_ALLOW_THREADS
        Py_DECREF(tensors);
        return NULL;
    }
    Py_INCREF(jit);
    o->jit = jit;
    o->r = r;
    o->tensors = tensors;   /* the reference given */
    return (PyObject *)o;
}

/* The Tensors of a call, as a tuple the Run holds. */
static PyObject *held_tensors(const tensor_args *t)
{
    PyObject *tuple = PyTuple_New(t->n);
    for (int i = 0; tuple && i < t->n; i++) {
        Py_INCREF(t->o[i]);
        PyTuple_SET_ITEM(tuple, i, t->o[i]);
    }
    return tuple;
}

static PyObject *jit_start(pyiron_jit *self, PyObject *args, PyObject *kw)
{
    static const char *const kws[] = { "tensors", "params", "scalars",
                                       "config", NULL };
    static const char fn[] = "Jit.start";
    PyObject *ot, *op = NULL, *os = NULL, *oc = NULL;
    if (!PYIRON_PARSE(args, kw, "O|OOO:start", kws, &ot, &op, &os, &oc) ||
        !jit_get(self))
        return NULL;
    call_args a;
    if (call_read(&a, fn, ot, op, os, oc) < 0)
        return NULL;
    PyObject *held = held_tensors(&a.t);
    if (!held) {
        call_free(&a);
        return NULL;
    }
    iron_run *r = NULL;
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_jit_start(self->j, a.c.p, a.p.n, a.p.p, a.s.n, a.s.s, a.t.n,
                       a.t.t, &r);
    Py_END_ALLOW_THREADS
    call_free(&a);
    if (s != IRON_OK) {
        Py_DECREF(held);
        return pyiron_raise(s);
    }
    return run_new(self, r, held);
}

static PyObject *jit_specialize(pyiron_jit *self, PyObject *args,
                                PyObject *kw)
{
    static const char *const kws[] = { "tensors", "params", "config", NULL };
    static const char fn[] = "Jit.specialize";
    PyObject *ot, *op = NULL, *oc = NULL;
    if (!PYIRON_PARSE(args, kw, "O|OO:specialize", kws, &ot, &op, &oc) ||
        !jit_get(self))
        return NULL;
    call_args a;
    if (call_read(&a, fn, ot, op, NULL, oc) < 0)
        return NULL;
    pending p;
    pending_push(&p, self);
    iron_spec *sp = NULL;
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_jit_specialize(self->j, a.c.p, a.p.n, a.p.p, a.t.n, a.t.t, &sp);
    Py_END_ALLOW_THREADS
    call_free(&a);
    PyObject *r = pending_pop(&p, s);
    if (!r)
        return NULL;
    Py_DECREF(r);
    pyiron_spec *o = PyObject_GC_New(pyiron_spec, &spec_type);
    if (!o)
        return NULL;
    Py_INCREF(self);
    o->jit = self;
    o->s = sp;
    PyObject_GC_Track(o);
    return (PyObject *)o;
}

static PyObject *jit_bind(pyiron_jit *self, PyObject *o)
{
    if (!jit_get(self))
        return NULL;
    param_args pa;
    if (params_read(o, "Jit.bind", &pa) < 0)
        return NULL;
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_jit_bind(self->j, pa.n, pa.p);
    Py_END_ALLOW_THREADS
    params_free(&pa);
    if (s != IRON_OK)
        return pyiron_raise(s);
    Py_RETURN_NONE;
}

/* dump, check: a text from a build that stops early. */
static PyObject *text_result(pending *p, iron_status s, char *text)
{
    PyObject *r = pending_pop(p, s);
    if (!r) {
        iron_free(text);
        return NULL;
    }
    Py_DECREF(r);
    r = PyUnicode_FromString(text ? text : "");
    iron_free(text);
    return r;
}

static PyObject *jit_dump(pyiron_jit *self, PyObject *args, PyObject *kw)
{
    static const char *const kws[] = { "tensors", "params", "config",
                                       "format", NULL };
    static const char fn[] = "Jit.dump";
    PyObject *ot, *op = NULL, *oc = NULL, *of = NULL;
    const char *format = "text";
    if (!PYIRON_PARSE(args, kw, "O|OOO:dump", kws, &ot, &op, &oc, &of) ||
        !jit_get(self) ||
        (of && pyiron_arg_str(of, fn, "format", 0, &format) < 0))
        return NULL;
    call_args a;
    if (call_read(&a, fn, ot, op, NULL, oc) < 0)
        return NULL;
    pending p;
    pending_push(&p, self);
    char *text = NULL;
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_jit_dump_as(self->j, a.c.p, a.p.n, a.p.p, a.t.n, a.t.t, format,
                         &text);
    Py_END_ALLOW_THREADS
    call_free(&a);
    return text_result(&p, s, text);
}

static PyObject *jit_check(pyiron_jit *self, PyObject *args, PyObject *kw)
{
    static const char *const kws[] = { "tensors", "params", "config", NULL };
    static const char fn[] = "Jit.check";
    PyObject *ot, *op = NULL, *oc = NULL;
    if (!PYIRON_PARSE(args, kw, "O|OO:check", kws, &ot, &op, &oc) ||
        !jit_get(self))
        return NULL;
    call_args a;
    if (call_read(&a, fn, ot, op, NULL, oc) < 0)
        return NULL;
    pending p;
    pending_push(&p, self);
    char *text = NULL;
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_jit_check(self->j, a.c.p, a.p.n, a.p.p, a.t.n, a.t.t, &text);
    Py_END_ALLOW_THREADS
    call_free(&a);
    return text_result(&p, s, text);
}

static PyObject *jit_export_mlir(pyiron_jit *self, PyObject *args,
                                 PyObject *kw)
{
    static const char *const kws[] = { "dir", "tensors", "params", "config",
                                       "upstream", "generic", NULL };
    static const char fn[] = "Jit.export_mlir";
    PyObject *odir, *ot, *op = NULL, *oc = NULL, *oup = Py_None,
                         *ogen = NULL;
    if (!PYIRON_PARSE(args, kw, "OO|OOOO:export_mlir", kws, &odir, &ot, &op,
                      &oc, &oup, &ogen) ||
        !jit_get(self))
        return NULL;
    iron_mlir_options mo = { .size = sizeof mo };
    if (pyiron_arg_str(oup, fn, "upstream", 1, &mo.upstream) < 0 ||
        (ogen && (mo.generic = PyObject_IsTrue(ogen)) < 0))
        return NULL;
    PyObject *bdir;
    if (!PyUnicode_FSConverter(odir, &bdir))
        return NULL;
    call_args a;
    if (call_read(&a, fn, ot, op, NULL, oc) < 0) {
        Py_DECREF(bdir);
        return NULL;
    }
    const char *dir = PyBytes_AS_STRING(bdir);
    pending p;
    pending_push(&p, self);
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_jit_export_mlir(self->j, a.c.p, a.p.n, a.p.p, a.t.n, a.t.t, &mo,
                             dir);
    Py_END_ALLOW_THREADS
    call_free(&a);
    Py_DECREF(bdir);
    return pending_pop(&p, s);
}

static PyObject *jit_save_artifact(pyiron_jit *self, PyObject *args,
                                   PyObject *kw)
{
    static const char *const kws[] = { "path", "tensors", "params", "config",
                                       NULL };
    static const char fn[] = "Jit.save_artifact";
    PyObject *opath, *ot, *op = NULL, *oc = NULL;
    if (!PYIRON_PARSE(args, kw, "OO|OO:save_artifact", kws, &opath, &ot, &op,
                      &oc) ||
        !jit_get(self))
        return NULL;
    PyObject *bpath;
    if (!PyUnicode_FSConverter(opath, &bpath))
        return NULL;
    call_args a;
    if (call_read(&a, fn, ot, op, NULL, oc) < 0) {
        Py_DECREF(bpath);
        return NULL;
    }
    const char *path = PyBytes_AS_STRING(bpath);
    pending p;
    pending_push(&p, self);
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_jit_save_artifact(self->j, a.c.p, a.p.n, a.p.p, a.t.n, a.t.t,
                               path);
    Py_END_ALLOW_THREADS
    call_free(&a);
    Py_DECREF(bpath);
    return pending_pop(&p, s);
}

static PyObject *jit_load_artifact(pyiron_jit *self, PyObject *args,
                                   PyObject *kw)
{
    static const char *const kws[] = { "path", "sha256", NULL };
    static const char fn[] = "Jit.load_artifact";
    PyObject *opath, *osha = Py_None;
    const char *sha;
    if (!PYIRON_PARSE(args, kw, "O|O:load_artifact", kws, &opath, &osha) ||
        !jit_get(self) || pyiron_arg_str(osha, fn, "sha256", 1, &sha) < 0)
        return NULL;
    PyObject *bpath;
    if (!PyUnicode_FSConverter(opath, &bpath))
        return NULL;
    const char *path = PyBytes_AS_STRING(bpath);
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = sha ? iron_jit_load_artifact_pinned(self->j, path, sha)
            : iron_jit_load_artifact(self->j, path);
    Py_END_ALLOW_THREADS
    Py_DECREF(bpath);
    if (s != IRON_OK)
        return pyiron_raise(s);
    Py_RETURN_NONE;
}

/* --- counters and statistics -------------------------------------------------- */

static PyObject *counters_list(int n, const void *v, PyObject *(*one)(const void *, int))
{
    PyObject *list = PyList_New(n > 0 ? n : 0);
    for (int i = 0; list && i < n; i++) {
        PyObject *d = one(v, i);
        if (!d) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, d);
    }
    return list;
}

static PyObject *worker_dict(const void *v, int i)
{
    const iron_worker_counters *w = (const iron_worker_counters *)v + i;
    return Py_BuildValue("{szsisisKsKsK}", "worker", w->worker, "col", w->col,
                         "row", w->row, "iterations",
                         (unsigned long long)w->iterations, "kernel_ns",
                         (unsigned long long)w->kernel_ns, "blocked_ns",
                         (unsigned long long)w->blocked_ns);
}

static PyObject *endpoint_dict(const void *v, int i)
{
    const iron_endpoint_counters *e = (const iron_endpoint_counters *)v + i;
    return Py_BuildValue(
        "{szszszsOsisisisisKsKsK}", "fifo", e->fifo, "endpoint", e->endpoint,
        "by", e->by, "writes", e->writes ? Py_True : Py_False, "col", e->col,
        "row", e->row, "depth", e->depth, "peak", e->peak, "objects",
        (unsigned long long)e->objects, "bytes", (unsigned long long)e->bytes,
        "blocked_ns", (unsigned long long)e->blocked_ns);
}

static PyObject *dma_dict(const void *v, int i)
{
    const iron_dma_counters *c = (const iron_dma_counters *)v + i;
    return Py_BuildValue("{szszsKsKsK}", "channel", c->channel, "fifo",
                         c->fifo, "objects", (unsigned long long)c->objects,
                         "bytes", (unsigned long long)c->bytes, "busy_ns",
                         (unsigned long long)c->busy_ns);
}

static PyObject *time_dict(const void *v, int i)
{
    const iron_time_counters *t = (const iron_time_counters *)v + i;
    return Py_BuildValue("{sKsKsKsKszsKsK}", "busy",
                         (unsigned long long)t->busy, "stall_in",
                         (unsigned long long)t->stall_in, "stall_out",
                         (unsigned long long)t->stall_out, "idle",
                         (unsigned long long)t->idle, "kernel_time",
                         t->kernel_time, "kernel",
                         (unsigned long long)t->kernel, "calls",
                         (unsigned long long)t->calls);
}

/* The modelled time of a timed call (docs/timing.md), else None. */
static PyObject *timing_dict(const iron_run_counters *c)
{
    if (c->size <= offsetof(iron_run_counters, timed) || !c->timed)
        Py_RETURN_NONE;
    return Py_BuildValue(
        "{sKsdsdsOszszsNsNsN}", "cycles", (unsigned long long)c->cycles,
        "clock_mhz", c->clock_mhz, "seconds", c->seconds, "unbounded",
        c->unbounded ? Py_True : Py_False, "bottleneck", c->bottleneck,
        "summary", c->summary, "workers",
        counters_list(c->nworkers, c->worker_time, time_dict), "dma",
        counters_list(c->ndma, c->dma_time, time_dict), "endpoints",
        counters_list(c->nendpoints, c->endpoint_time, time_dict));
}

static PyObject *jit_counters(pyiron_jit *self, PyObject *noargs)
{
    (void)noargs;
    if (!jit_get(self))
        return NULL;
    const iron_run_counters *c = NULL;
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_jit_get_counters(self->j, &c);
    Py_END_ALLOW_THREADS
    if (s != IRON_OK)
        return pyiron_raise(s);
    int has_report = c->size > offsetof(iron_run_counters, report);
    return Py_BuildValue(
        "{sOsKszsNsNsNsN}", "profiled", c->profiled ? Py_True : Py_False,
        "wall_ns", (unsigned long long)c->wall_ns, "report",
        has_report ? c->report : NULL, "workers",
        counters_list(c->nworkers, c->workers, worker_dict), "endpoints",
        counters_list(c->nendpoints, c->endpoints, endpoint_dict), "dma",
        counters_list(c->ndma, c->dma, dma_dict), "timing", timing_dict(c));
}

static PyObject *jit_stats(pyiron_jit *self, PyObject *noargs)
{
    (void)noargs;
    if (!jit_get(self))
        return NULL;
    iron_jit_stats st = { .size = sizeof st };
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_jit_get_stats(self->j, &st);
    Py_END_ALLOW_THREADS
    if (s != IRON_OK)
        return pyiron_raise(s);
#define U(x) (unsigned long long)(x)
    return Py_BuildValue(
        "{sKsKsKsKsKsKsdsKsKsKsKsKsK}", "calls", U(st.calls), "memory_hits",
        U(st.memory_hits), "builds", U(st.builds), "design_runs",
        U(st.design_runs), "kernel_compiles", U(st.kernel_compiles),
        "specializations", U(st.specializations), "last_build_ms",
        st.last_build_ms, "disk_hits", U(st.disk_hits), "disk_misses",
        U(st.disk_misses), "disk_writes", U(st.disk_writes), "artifact_hits",
        U(st.artifact_hits), "kernel_shares", U(st.kernel_shares),
        "evictions", U(st.evictions));
#undef U
}

/* "COMPLETED" for IRON_RUN_COMPLETED: the library's name without its
 * prefix. */
static PyObject *state_str(enum iron_run_state st)
{
    const char *name = iron_run_state_name(st);
    if (strncmp(name, "IRON_RUN_", 9) == 0)
        name += 9;
    return PyUnicode_FromString(name);
}

static PyObject *jit_last_state(pyiron_jit *self, void *closure)
{
    (void)closure;
    if (!jit_get(self))
        return NULL;
    enum iron_run_state st;
    Py_BEGIN_ALLOW_THREADS
    st = iron_jit_last_state(self->j);
    Py_END_ALLOW_THREADS
    return state_str(st);
}

static PyObject *jit_name(pyiron_jit *self, void *closure)
{
    (void)closure;
    if (!self->name)
        Py_RETURN_NONE;
    Py_INCREF(self->name);
    return self->name;
}

static PyObject *jit_repr(pyiron_jit *self)
{
    return PyUnicode_FromFormat("<Jit %R>", self->name ? self->name
                                                       : Py_None);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

static PyMethodDef jit_methods[] = {
    { "launch", KW(jit_launch),
      "launch(tensors, params=None, scalars=None, config=None): the call, "
      "synchronous.  params: dict name -> bool/int/float/str, (\"dtype\", "
      "name) or (\"kernel\", entry, source, arg_types); scalars: dict name "
      "-> int; config: dict with keys cols, timeout_ms, check, trace, "
      "profile, threads." },
    { "start", KW(jit_start),
      "start(tensors, params=None, scalars=None, config=None) -> Run: the "
      "call, asynchronous." },
    { "specialize", KW(jit_specialize),
      "specialize(tensors, params=None, config=None) -> Spec: builds (or "
      "finds) the specialization these arguments use." },
    { "bind", (PyCFunction)jit_bind, METH_O,
      "bind(params): binds parameter values on the jit (a call's win)." },
    { "dump", KW(jit_dump),
      "dump(tensors, params=None, config=None, format=\"text\") -> str: the "
      "placed design (text, json, dot, grid, mlir, mlir-generic)." },
    { "check", KW(jit_check),
      "check(tensors, params=None, config=None) -> str: design, verify and "
      "place only; a one-line summary." },
    { "export_mlir", KW(jit_export_mlir),
      "export_mlir(dir, tensors, params=None, config=None, upstream=None, "
      "generic=False): writes aie.mlir (in the syntax of upstream version "
      "'2025-04' ... 'latest', the default), the kernels, a Makefile, "
      "README.md and host.cpp into dir." },
    { "save_artifact", KW(jit_save_artifact),
      "save_artifact(path, tensors, params=None, config=None): the "
      "specialization's compiled kernels, in one file." },
    { "load_artifact", KW(jit_load_artifact),
      "load_artifact(path, sha256=None): an artifact the jit's builds use "
      "instead of the compiler (pinned to a digest with sha256)." },
    { "counters", (PyCFunction)jit_counters, METH_NOARGS,
      "counters() -> dict: the last call's counters (profiled, wall_ns, "
      "report, workers, endpoints, dma)." },
    { "stats", (PyCFunction)jit_stats, METH_NOARGS,
      "stats() -> dict: the jit's counters since its creation." },
    { NULL, NULL, 0, NULL },
};

static PyGetSetDef jit_getset[] = {
    { "name", (getter)jit_name, NULL, "the jit's name", NULL },
    { "last_state", (getter)jit_last_state, NULL,
      "how the last launch ended on the device (\"COMPLETED\", \"ERROR\", "
      "\"TIMEOUT\")", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

static PyTypeObject jit_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "iron._iron.Jit",
    .tp_basicsize = sizeof(pyiron_jit),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC |
                Py_TPFLAGS_BASETYPE,
    .tp_doc = "Jit(design, name, args, params=None, scalars=None, "
              "cflags=None, disk_cache=0, cache_dir=None, max_resident=0): "
              "a jit object whose design function is design(Design), run "
              "once per new signature.  args, params, scalars and cflags "
              "are the library's declaration strings (\"in a: T[N], out c: "
              "T[N]\", \"tile: int = 16\").  An exception the design "
              "function raises is raised again by the call that built.",
    .tp_dealloc = (destructor)jit_dealloc,
    .tp_traverse = (traverseproc)jit_traverse,
    .tp_clear = (inquiry)jit_clear,
    .tp_repr = (reprfunc)jit_repr,
    .tp_methods = jit_methods,
    .tp_getset = jit_getset,
    .tp_init = (initproc)jit_init,
    .tp_new = PyType_GenericNew,
};

/* --- Spec: the fast path ------------------------------------------------------- */

/* A Spec keeps its Jit alive, and a Python jit object keeps its Specs:
 * the collector must see that reference to free such a cycle. */
static int spec_traverse(pyiron_spec *self, visitproc visit, void *arg)
{
    Py_VISIT(self->jit);
    return 0;
}

static int spec_clear(pyiron_spec *self)
{
    Py_CLEAR(self->jit);
    return 0;
}

static void spec_dealloc(pyiron_spec *self)
{
    PyObject_GC_UnTrack(self);
    Py_CLEAR(self->jit);
    PyObject_GC_Del(self);
}

/* launch(tensors, scalars=None), kept lean: no allocation for up to
 * NSMALL tensors and no scalars; a vectorcall method. */
static PyObject *spec_launch(pyiron_spec *self, PyObject *const *args,
                             Py_ssize_t nargs, PyObject *kwnames)
{
    static const char fn[] = "Spec.launch";
    PyObject *ot = nargs > 0 ? args[0] : NULL;
    PyObject *os = nargs > 1 ? args[1] : NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs > 2 || nargs + nkw > 2)
        return PyErr_Format(PyExc_TypeError, "%s() takes tensors and "
                            "scalars=None", fn);
    for (Py_ssize_t i = 0; i < nkw; i++) {
        const char *k = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i));
        if (!k)
            return NULL;
        PyObject **slot = strcmp(k, "tensors") == 0   ? &ot
                          : strcmp(k, "scalars") == 0 ? &os
                                                      : NULL;
        if (!slot || *slot)
            return PyErr_Format(PyExc_TypeError, "%s() got %s keyword "
                                "argument '%s'", fn,
                                slot ? "a repeated" : "an unexpected", k);
        *slot = args[nargs + i];
    }
    if (!ot)
        return PyErr_Format(PyExc_TypeError, "%s() needs 'tensors'", fn);
    tensor_args t;
    if (tensors_read(ot, fn, &t) < 0)
        return NULL;
    scalar_args sa;
    if (scalars_read(os, fn, &sa) < 0) {
        tensors_free(&t);
        return NULL;
    }
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_spec_launch(self->s, sa.n, sa.s, t.n, t.t);
    Py_END_ALLOW_THREADS
    scalars_free(&sa);
    tensors_free(&t);
    if (s != IRON_OK)
        return pyiron_raise(s);
    Py_RETURN_NONE;
}

static PyObject *spec_start(pyiron_spec *self, PyObject *args, PyObject *kw)
{
    static const char *const kws[] = { "tensors", "scalars", NULL };
    static const char fn[] = "Spec.start";
    PyObject *ot, *os = NULL;
    if (!PYIRON_PARSE(args, kw, "O|O:start", kws, &ot, &os))
        return NULL;
    tensor_args t;
    if (tensors_read(ot, fn, &t) < 0)
        return NULL;
    scalar_args sa;
    if (scalars_read(os, fn, &sa) < 0) {
        tensors_free(&t);
        return NULL;
    }
    PyObject *held = held_tensors(&t);
    iron_run *r = NULL;
    iron_status s = IRON_OK;
    if (held) {
        Py_BEGIN_ALLOW_THREADS
        s = iron_spec_start(self->s, sa.n, sa.s, t.n, t.t, &r);
        Py_END_ALLOW_THREADS
    }
    scalars_free(&sa);
    tensors_free(&t);
    if (!held)
        return NULL;
    if (s != IRON_OK) {
        Py_DECREF(held);
        return pyiron_raise(s);
    }
    return run_new(self->jit, r, held);
}

static PyObject *spec_signature(pyiron_spec *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(iron_spec_signature(self->s));
}

static PyObject *spec_repr(pyiron_spec *self)
{
    return PyUnicode_FromFormat("<Spec %s>", iron_spec_signature(self->s));
}

static PyMethodDef spec_methods[] = {
    { "launch", (PyCFunction)(void (*)(void))spec_launch,
      METH_FASTCALL | METH_KEYWORDS,
      "launch(tensors, scalars=None): runs the specialization (the fastest "
      "path: only the tensors' count, dtypes and shapes are checked)." },
    { "start", KW(spec_start),
      "start(tensors, scalars=None) -> Run: launch, asynchronous." },
    { NULL, NULL, 0, NULL },
};

static PyGetSetDef spec_getset[] = {
    { "signature", (getter)spec_signature, NULL,
      "\"vadd (a: int32[4096], ...; tile=16; npu2, 8 columns)\"", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

static PyTypeObject spec_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "iron._iron.Spec",
    .tp_basicsize = sizeof(pyiron_spec),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)spec_traverse,
    .tp_clear = (inquiry)spec_clear,
    .tp_doc = "A built specialization (Jit.specialize), valid as long as its "
              "Jit (which it keeps alive).",
    .tp_dealloc = (destructor)spec_dealloc,
    .tp_repr = (reprfunc)spec_repr,
    .tp_methods = spec_methods,
    .tp_getset = spec_getset,
};

/* --- Run --------------------------------------------------------------------------- */

static void run_dealloc(pyiron_run *self)
{
    iron_run *r = self->r;
    self->r = NULL;
    if (r) {
        Py_BEGIN_ALLOW_THREADS
        iron_run_free(r);
        Py_END_ALLOW_THREADS
    }
    Py_CLEAR(self->tensors);
    Py_CLEAR(self->jit);
    PyObject_Free(self);
}

static PyObject *run_wait(pyiron_run *self, PyObject *args, PyObject *kw)
{
    static const char *const kws[] = { "timeout_ms", NULL };
    PyObject *ot = NULL;
    int64_t timeout = -1;
    if (!PYIRON_PARSE(args, kw, "|O:wait", kws, &ot) ||
        (ot && ot != Py_None &&
         pyiron_arg_i64(ot, "Run.wait", "timeout_ms", &timeout) < 0))
        return NULL;
    /* A wait without a limit may execute the run, and its build, here. */
    pending p;
    pending_push(&p, self->jit);
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_run_wait(self->r, timeout);
    Py_END_ALLOW_THREADS
    if (s == IRON_EPENDING) {
        PyObject *none = pending_pop(&p, IRON_OK);
        Py_XDECREF(none);
        Py_RETURN_FALSE;
    }
    if (s == IRON_EDESIGN && !p.value && self->jit->async_value) {
        /* Built on a launcher thread: its design function's exception. */
        p.type = self->jit->async_type;
        p.value = self->jit->async_value;
        p.tb = self->jit->async_tb;
        self->jit->async_type = self->jit->async_value = NULL;
        self->jit->async_tb = NULL;
    }
    PyObject *r = pending_pop(&p, s);
    if (!r)
        return NULL;
    Py_DECREF(r);
    Py_RETURN_TRUE;
}

static PyObject *run_state(pyiron_run *self, void *closure)
{
    (void)closure;
    return state_str(iron_run_state(self->r));
}

static PyObject *run_error(pyiron_run *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(iron_run_error(self->r));
}

static PyMethodDef run_methods[] = {
    { "wait", KW(run_wait),
      "wait(timeout_ms=-1) -> bool: True once the run has ended well, "
      "False when the time is up first (it goes on); raises its failure." },
    { NULL, NULL, 0, NULL },
};

static PyGetSetDef run_getset[] = {
    { "state", (getter)run_state, NULL,
      "\"QUEUED\", \"RUNNING\", \"COMPLETED\", \"ERROR\", \"ABORT\" or "
      "\"TIMEOUT\"", NULL },
    { "error", (getter)run_error, NULL,
      "the failure's message, \"\" unless the run failed", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

static PyTypeObject run_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "iron._iron.Run",
    .tp_basicsize = sizeof(pyiron_run),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An asynchronous call (Jit.start, Spec.start); it holds its "
              "Tensors until it is freed.  Freeing a run still queued "
              "cancels it.",
    .tp_dealloc = (destructor)run_dealloc,
    .tp_methods = run_methods,
    .tp_getset = run_getset,
};

/* --- mlir_jit -------------------------------------------------------------------- */

static PyObject *mlir_jit(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static const char *const kws[] = { "text", "file", "kernels", "name",
                                       "device_name", NULL };
    static const char fn[] = "mlir_jit";
    PyObject *otext, *ofile = Py_None, *okern = Py_None, *oname = Py_None;
    PyObject *odev = Py_None;
    if (!PYIRON_PARSE(args, kw, "O|OOO$O:mlir_jit", kws, &otext, &ofile,
                      &okern, &oname, &odev))
        return NULL;
    const char *text, *file, *name;
    iron_mlir_import_options o = { .size = sizeof o };
    Py_ssize_t len;
    if (!PyUnicode_Check(otext))
        return PyErr_Format(PyExc_TypeError, "%s(): argument 'text' must be "
                            "str, not %.100s", fn, Py_TYPE(otext)->tp_name);
    if (!(text = PyUnicode_AsUTF8AndSize(otext, &len)) ||
        pyiron_arg_str(ofile, fn, "file", 1, &file) < 0 ||
        pyiron_arg_str(oname, fn, "name", 1, &name) < 0 ||
        pyiron_arg_str(odev, fn, "device_name", 1, &o.device_name) < 0)
        return NULL;
    PyObject *items = NULL;
    iron_mlir_kernel *ks = NULL;
    Py_ssize_t nk = 0;
    if (okern != Py_None) {
        if (!PyDict_Check(okern))
            return PyErr_Format(PyExc_TypeError, "%s(): argument 'kernels' "
                                "must be a dict name -> C source, not "
                                "%.100s", fn, Py_TYPE(okern)->tp_name);
        if (!(items = PyDict_Items(okern)))
            return NULL;
        nk = PyList_GET_SIZE(items);
        if (nk > INT32_MAX || !(ks = PyMem_Calloc((size_t)nk + 1,
                                                  sizeof *ks))) {
            Py_DECREF(items);
            return PyErr_NoMemory();
        }
        for (Py_ssize_t i = 0; i < nk; i++) {
            PyObject *it = PyList_GET_ITEM(items, i);
            if (pyiron_arg_str(PyTuple_GET_ITEM(it, 0), fn, "kernels key", 0,
                               &ks[i].name) < 0 ||
                pyiron_arg_str(PyTuple_GET_ITEM(it, 1), fn, "kernels value",
                               0, &ks[i].source) < 0) {
                PyMem_Free(ks);
                Py_DECREF(items);
                return NULL;
            }
        }
    }
    iron_mlir *m = NULL;
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_mlir_design_with(text, (size_t)len, file, (int)nk, ks, &o, &m);
    Py_END_ALLOW_THREADS
    PyMem_Free(ks);
    Py_XDECREF(items);
    if (s != IRON_OK)
        return pyiron_raise(s);
    pyiron_jit *j = PyObject_GC_New(pyiron_jit, &jit_type);
    if (!j) {
        iron_mlir_free(m);
        return NULL;
    }
    j->j = NULL;
    j->design = NULL;
    j->name = NULL;
    j->name_utf8 = NULL;
    j->async_type = j->async_value = j->async_tb = NULL;
    j->mlir = m;   /* freed by the Jit, after its iron_jit */
    PyObject_GC_Track(j);
    Py_BEGIN_ALLOW_THREADS
    s = iron_mlir_jit_create(m, name, &j->j);
    Py_END_ALLOW_THREADS
    if (s != IRON_OK) {
        pyiron_raise(s);
        Py_DECREF(j);
        return NULL;
    }
    if (name && !(j->name = PyUnicode_FromString(name))) {
        Py_DECREF(j);
        return NULL;
    }
    return Py_BuildValue("(Nss)", (PyObject *)j, iron_mlir_args(m),
                         iron_mlir_device(m));
}

static PyMethodDef module_methods[] = {
    { "mlir_jit", (PyCFunction)(void (*)(void))mlir_jit,
      METH_VARARGS | METH_KEYWORDS,
      "mlir_jit(text, file=None, kernels=None, name=None, *, "
      "device_name=None) -> (Jit, args, device): a jit running upstream "
      "objectfifo-level MLIR text; kernels maps each external function to "
      "its C source; device_name chooses the aie.device of a module "
      "holding several by its symbol name (an unnamed one is 'main'); args "
      "is the argument declaration its runtime sequence makes, device the "
      "device it names." },
    { NULL, NULL, 0, NULL },
};

int pyiron_jit_init(PyObject *m)
{
    PyTypeObject *types[] = { &jit_type, &spec_type, &run_type };
    static const char *const names[] = { "Jit", "Spec", "Run" };
    for (int i = 0; i < 3; i++)
        if (PyType_Ready(types[i]) < 0 ||
            PyModule_AddObjectRef(m, names[i], (PyObject *)types[i]) < 0)
            return -1;
    return PyModule_AddFunctions(m, module_methods);
}
