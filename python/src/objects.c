/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * objects.c - the objects a design function builds: Fifo, Handle,
 * HandleArg, Kernel, Rtp, Barrier, Worker, TaskGroup (Body is body.c's).
 *
 * Each holds its library object, which the design owns, and a reference
 * to its Design: the library object lives only while the design function
 * runs, so every use checks the Design first (StateError after).
 * Objects given to a Design's methods must be its own: a pointer from
 * another design would be a dangling one.
 */
#include "pyiron.h"

/* "Fifo" for iron._iron.Fifo. */
static const char *short_name(const PyTypeObject *t)
{
    const char *dot = strrchr(t->tp_name, '.');
    return dot ? dot + 1 : t->tp_name;
}

/* --- the shared object --------------------------------------------------- */

static int dobj_traverse(pyiron_dobj *o, visitproc visit, void *arg)
{
    Py_VISIT((PyObject *)o->design);
    Py_VISIT(o->name);
    Py_VISIT(o->ref);
    return 0;
}

static int dobj_clear(pyiron_dobj *o)
{
    Py_CLEAR(o->design);
    Py_CLEAR(o->name);
    Py_CLEAR(o->ref);
    return 0;
}

static void dobj_dealloc(pyiron_dobj *o)
{
    PyObject_GC_UnTrack(o);
    dobj_clear(o);
    Py_TYPE(o)->tp_free((PyObject *)o);
}

static PyObject *dobj_repr(pyiron_dobj *o)
{
    const char *dead = o->design && o->design->d ? "" : " (design ended)";
    if (o->name)
        return PyUnicode_FromFormat("<%s %R%s>", short_name(Py_TYPE(o)),
                                    o->name, dead);
    return PyUnicode_FromFormat("<%s%s>", short_name(Py_TYPE(o)), dead);
}

PyObject *pyiron_dobj_new(PyTypeObject *type, pyiron_design *dz, void *ptr,
                          PyObject *name)
{
    if (!ptr || (dz->d && iron_design_status(dz->d) != IRON_OK)) {
        if (pyiron_design_check(dz) < 0)
            return NULL;
        return pyiron_raise_msg(IRON_EDESIGN, "%s: the library made no "
                                "object and recorded no failure",
                                short_name(type));
    }
    pyiron_dobj *o = PyObject_GC_New(pyiron_dobj, type);
    if (!o)
        return NULL;
    Py_INCREF(dz);
    o->design = dz;
    o->ptr = ptr;
    Py_XINCREF(name);
    o->name = name;
    o->ref = NULL;
    o->i = 0;
    o->dtype = 0;
    PyObject_GC_Track((PyObject *)o);
    return (PyObject *)o;
}

void *pyiron_dobj_get(PyObject *o, PyTypeObject *type, pyiron_design *dz,
                      const char *fn, const char *arg)
{
    if (!PyObject_TypeCheck(o, type)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be %s, not "
                     "%.100s",
                     fn, arg, short_name(type), Py_TYPE(o)->tp_name);
        return NULL;
    }
    pyiron_dobj *x = (pyiron_dobj *)o;
    if (x->design != dz) {
        if (!x->design->d)
            pyiron_raise_msg(IRON_ESTATE,
                             "%s(): argument '%s' (%R) belongs to a design "
                             "of jit %R whose design function returned",
                             fn, arg, o, x->design->jit_name);
        else
            pyiron_raise_msg(IRON_EINVAL,
                             "%s(): argument '%s' (%R) belongs to another "
                             "design (of jit %R)",
                             fn, arg, o, x->design->jit_name);
        return NULL;
    }
    return x->ptr;
}

/* The live library design of o's Design (StateError otherwise). */
static iron_design *live(pyiron_dobj *o, const char *what)
{
    return pyiron_design_live(o->design, what);
}

/* Ends a method whose library call returned status s. */
static PyObject *done(pyiron_dobj *o, iron_status s)
{
    if (pyiron_design_check(o->design) < 0)
        return NULL;
    if (s != IRON_OK)
        return pyiron_raise(s);
    Py_RETURN_NONE;
}

static PyObject *get_name(pyiron_dobj *o, void *closure)
{
    (void)closure;
    if (!o->name)
        Py_RETURN_NONE;
    Py_INCREF(o->name);
    return o->name;
}

#define DOBJ_TYPE(cname, pyname, doc, methods_, getset_)                     \
    PyTypeObject cname = {                                                    \
        PyVarObject_HEAD_INIT(NULL, 0).tp_name = "iron._iron." pyname,        \
        .tp_basicsize = sizeof(pyiron_dobj),                                  \
        .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,                  \
        .tp_doc = doc,                                                        \
        .tp_dealloc = (destructor)dobj_dealloc,                               \
        .tp_traverse = (traverseproc)dobj_traverse,                           \
        .tp_clear = (inquiry)dobj_clear,                                      \
        .tp_repr = (reprfunc)dobj_repr,                                       \
        .tp_methods = methods_,                                               \
        .tp_getset = getset_,                                                 \
    }

/* --- Handle: one endpoint of a fifo -------------------------------------- */

static PyObject *handle_fifo(pyiron_dobj *o, void *closure)
{
    (void)closure;
    Py_INCREF(o->ref);
    return o->ref;
}

static PyObject *handle_is_producer(pyiron_dobj *o, void *closure)
{
    (void)closure;
    return PyBool_FromLong((long)o->i);
}

static PyObject *handle_set_depth(pyiron_dobj *o, PyObject *arg)
{
    int depth;
    if (!live(o, "Handle.set_depth") ||
        pyiron_arg_int(arg, "Handle.set_depth", "depth", &depth) < 0)
        return NULL;
    return done(o, iron_handle_set_depth(o->ptr, depth));
}

static PyObject *handle_set_dims(pyiron_dobj *o, PyObject *args,
                                 PyObject *kw)
{
    static const char *const kws[] = { "sizes", "strides", NULL };
    static const char fn[] = "Handle.set_dims";
    PyObject *osz, *ost;
    if (!PYIRON_PARSE(args, kw, "OO:set_dims", kws, &osz,
                                     &ost) ||
        !live(o, fn))
        return NULL;
    int64_t sizes[16], strides[16];
    int n, m;
    if (pyiron_arg_i64s(osz, fn, "sizes", sizes, 16, &n) < 0 ||
        pyiron_arg_i64s(ost, fn, "strides", strides, 16, &m) < 0)
        return NULL;
    if (n != m)
        return PyErr_Format(PyExc_ValueError,
                            "%s(): 'sizes' has %d items and 'strides' %d: "
                            "one stride per size",
                            fn, n, m);
    return done(o, iron_handle_set_dims(o->ptr, n, sizes, strides));
}

static PyObject *handle_set_shim(pyiron_dobj *o, PyObject *arg)
{
    int col;
    if (!live(o, "Handle.set_shim") ||
        pyiron_arg_int(arg, "Handle.set_shim", "col", &col) < 0)
        return NULL;
    return done(o, iron_handle_set_shim(o->ptr, col));
}

static PyObject *handle_acquiring(pyiron_dobj *o, PyObject *arg)
{
    int n;
    if (!live(o, "Handle.acquiring") ||
        pyiron_arg_int(arg, "Handle.acquiring", "n", &n) < 0)
        return NULL;
    pyiron_dobj *a = (pyiron_dobj *)pyiron_dobj_new(
        &pyiron_handle_arg_type, o->design, o->ptr, o->name);
    if (!a)
        return NULL;
    Py_INCREF(o);
    a->ref = (PyObject *)o;
    a->i = n;
    return (PyObject *)a;
}

static PyMethodDef handle_methods[] = {
    { "set_depth", (PyCFunction)handle_set_depth, METH_O,
      "set_depth(n): buffers of this endpoint's pool, 1..16 "
      "(iron_handle_set_depth)." },
    { "set_dims", (PyCFunction)(void (*)(void))handle_set_dims,
      METH_VARARGS | METH_KEYWORDS,
      "set_dims(sizes, strides): a layout transform on this endpoint, "
      "outermost first, strides in elements (iron_handle_set_dims)." },
    { "set_shim", (PyCFunction)handle_set_shim, METH_O,
      "set_shim(col): the shim column the runtime fills or drains it "
      "through (iron_handle_set_shim)." },
    { "acquiring", (PyCFunction)handle_acquiring, METH_O,
      "acquiring(n) -> HandleArg: this handle given to a core body that "
      "holds up to n objects at once (iron_arg_fifo_acquire)." },
    { NULL, NULL, 0, NULL },
};

static PyGetSetDef handle_getset[] = {
    { "fifo", (getter)handle_fifo, NULL, "the Fifo", NULL },
    { "is_producer", (getter)handle_is_producer, NULL,
      "True for the producer handle", NULL },
    { "name", (getter)get_name, NULL, "the fifo's name", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

DOBJ_TYPE(pyiron_handle_type, "Handle",
          "One endpoint of a Fifo: its producer (Fifo.prod()) or a consumer "
          "(Fifo.cons()).  Valid while the design function runs.",
          handle_methods, handle_getset);

/* --- HandleArg: a handle with its declared max acquire ------------------- */

static PyObject *harg_handle(pyiron_dobj *o, void *closure)
{
    (void)closure;
    Py_INCREF(o->ref);
    return o->ref;
}

static PyObject *harg_max_acquire(pyiron_dobj *o, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong((long long)o->i);
}

static PyGetSetDef harg_getset[] = {
    { "handle", (getter)harg_handle, NULL, "the Handle", NULL },
    { "max_acquire", (getter)harg_max_acquire, NULL,
      "the most objects the core body holds at once", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

DOBJ_TYPE(pyiron_handle_arg_type, "HandleArg",
          "A worker argument: a Handle and how many of its objects the core "
          "body holds at once (Handle.acquiring(n)).",
          NULL, harg_getset);

/* --- Fifo ---------------------------------------------------------------- */

static PyObject *new_handle(pyiron_dobj *f, iron_handle *h, int producer)
{
    pyiron_dobj *o = (pyiron_dobj *)pyiron_dobj_new(&pyiron_handle_type,
                                                    f->design, h, f->name);
    if (!o)
        return NULL;
    Py_INCREF(f);
    o->ref = (PyObject *)f;
    o->i = producer;
    return (PyObject *)o;
}

static PyObject *fifo_prod(pyiron_dobj *f, PyObject *noargs)
{
    (void)noargs;
    if (!live(f, "Fifo.prod"))
        return NULL;
    if (!f->ref)   /* the same Handle every time, as the library's */
        f->ref = new_handle(f, iron_fifo_prod(f->ptr), 1);
    Py_XINCREF(f->ref);
    return f->ref;
}

static PyObject *fifo_cons(pyiron_dobj *f, PyObject *noargs)
{
    (void)noargs;
    if (!live(f, "Fifo.cons"))
        return NULL;
    return new_handle(f, iron_fifo_cons(f->ptr), 0);
}

static PyMethodDef fifo_methods[] = {
    { "prod", (PyCFunction)fifo_prod, METH_NOARGS,
      "prod() -> Handle: the producer handle (the same object each "
      "time)." },
    { "cons", (PyCFunction)fifo_cons, METH_NOARGS,
      "cons() -> Handle: a new consumer handle (several consumers each see "
      "every object)." },
    { NULL, NULL, 0, NULL },
};

static PyGetSetDef fifo_getset[] = {
    { "name", (getter)get_name, NULL, "the fifo's name", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

DOBJ_TYPE(pyiron_fifo_type, "Fifo",
          "An ObjectFifo (Design.fifo, or a link's output).  Valid while "
          "the design function runs.",
          fifo_methods, fifo_getset);

/* --- Kernel -------------------------------------------------------------- */

static PyObject *kernel_define(pyiron_dobj *k, PyObject *args, PyObject *kw)
{
    static const char *const kws[] = { "name", "value", NULL };
    static const char fn[] = "Kernel.define";
    PyObject *on, *ov;
    const char *name;
    if (!PYIRON_PARSE(args, kw, "OO:define", kws, &on, &ov) ||
        !live(k, fn) || pyiron_arg_str(on, fn, "name", 0, &name) < 0)
        return NULL;
    if (PyUnicode_Check(ov)) {
        const char *v = PyUnicode_AsUTF8(ov);
        return v ? done(k, iron_kernel_define(k->ptr, name, v)) : NULL;
    }
    if (PyIndex_Check(ov) && !PyFloat_Check(ov)) {
        int64_t v;
        if (pyiron_arg_i64(ov, fn, "value", &v) < 0)
            return NULL;
        return done(k, iron_kernel_define_int(k->ptr, name, v));
    }
    return PyErr_Format(PyExc_TypeError, "%s(): argument 'value' must be str "
                        "or int, not %.100s",
                        fn, Py_TYPE(ov)->tp_name);
}

static PyObject *kernel_add_cflags(pyiron_dobj *k, PyObject *arg)
{
    const char *flags;
    if (!live(k, "Kernel.add_cflags") ||
        pyiron_arg_str(arg, "Kernel.add_cflags", "flags", 0, &flags) < 0)
        return NULL;
    return done(k, iron_kernel_add_cflags(k->ptr, flags));
}

/* "auto", "c" or "c++": iron_kernel_set_lang. */
static PyObject *kernel_set_lang(pyiron_dobj *k, PyObject *arg)
{
    static const struct {
        const char *name;
        iron_kernel_lang lang;
    } langs[] = { { "auto", IRON_KERNEL_LANG_AUTO },
                  { "c", IRON_KERNEL_LANG_C },
                  { "c++", IRON_KERNEL_LANG_CXX } };
    const char *lang;
    if (!live(k, "Kernel.set_lang") ||
        pyiron_arg_str(arg, "Kernel.set_lang", "lang", 0, &lang) < 0)
        return NULL;
    for (size_t i = 0; i < sizeof langs / sizeof langs[0]; i++)
        if (strcmp(lang, langs[i].name) == 0)
            return done(k, iron_kernel_set_lang(k->ptr, langs[i].lang));
    return PyErr_Format(PyExc_ValueError, "Kernel.set_lang(): lang must be "
                        "'auto', 'c' or 'c++', not '%.100s'", lang);
}

/* A count (int) or a formula (str): iron_kernel_set_cycles. */
static PyObject *kernel_set_cycles(pyiron_dobj *k, PyObject *arg)
{
    static const char fn[] = "Kernel.set_cycles";
    if (!live(k, fn))
        return NULL;
    if (PyUnicode_Check(arg)) {
        const char *text = PyUnicode_AsUTF8(arg);
        return text ? done(k, iron_kernel_set_cycles(k->ptr, text)) : NULL;
    }
    if (PyIndex_Check(arg) && !PyFloat_Check(arg) && !PyBool_Check(arg)) {
        int64_t v;
        if (pyiron_arg_i64(arg, fn, "cycles", &v) < 0)
            return NULL;
        char text[32];
        snprintf(text, sizeof text, "%lld", (long long)v);
        return done(k, iron_kernel_set_cycles(k->ptr, text));
    }
    return PyErr_Format(PyExc_TypeError, "%s(): argument 'cycles' must be "
                        "str or int, not %.100s", fn, Py_TYPE(arg)->tp_name);
}

static PyMethodDef kernel_methods[] = {
    { "define", (PyCFunction)(void (*)(void))kernel_define,
      METH_VARARGS | METH_KEYWORDS,
      "define(name, value): -Dname=value for this kernel only; value a str "
      "or an int." },
    { "add_cflags", (PyCFunction)kernel_add_cflags, METH_O,
      "add_cflags(flags): compiler flags for this kernel, after the jit's "
      "(split on blanks)." },
    { "set_lang", (PyCFunction)kernel_set_lang, METH_O,
      "set_lang(lang): the source's language, 'auto' (C++ for a .cc, .cpp, "
      ".cxx, .C or .c++ file, else C), 'c' or 'c++'." },
    { "set_cycles", (PyCFunction)kernel_set_cycles, METH_O,
      "set_cycles(cycles): the cycles one call costs the timing model: an "
      "int, or a formula of the kernel's scalar arguments as a str (their "
      "declared names, or $0, $1, ... by position; + - * / %, min, max)." },
    { NULL, NULL, 0, NULL },
};

static PyGetSetDef kernel_getset[] = {
    { "entry", (getter)get_name, NULL, "the entry function's name", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

DOBJ_TYPE(pyiron_kernel_type, "Kernel",
          "A kernel (C source and its entry), or a core body's C source "
          "(Design.kernel_core).",
          kernel_methods, kernel_getset);

/* --- Rtp: a tile-local buffer -------------------------------------------- */

static PyObject *rtp_set_initial(pyiron_dobj *r, PyObject *arg)
{
    static const char fn[] = "Rtp.set_initial";
    if (!live(r, fn))
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_Clear();
        return PyErr_Format(PyExc_TypeError, "%s(): argument 'values' must "
                            "be a C-contiguous bytes-like object, not "
                            "%.100s",
                            fn, Py_TYPE(arg)->tp_name);
    }
    size_t want = (size_t)r->i * iron_dtype_size((iron_dtype)r->dtype);
    PyObject *res;
    if ((size_t)view.len != want)
        res = pyiron_raise_msg(IRON_ESHAPE,
                               "%s(): buffer %R holds %zd elements of %s "
                               "(%zu bytes); got %zd bytes",
                               fn, r->name, (Py_ssize_t)r->i,
                               iron_dtype_name((iron_dtype)r->dtype), want,
                               view.len);
    else
        res = done(r, iron_rtp_set_initial(r->ptr, view.buf));
    PyBuffer_Release(&view);
    return res;
}

static PyObject *rtp_dtype(pyiron_dobj *r, void *closure)
{
    (void)closure;
    return pyiron_dtype_str((iron_dtype)r->dtype);
}

static PyObject *rtp_count(pyiron_dobj *r, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong((long long)r->i);
}

static PyMethodDef rtp_methods[] = {
    { "set_initial", (PyCFunction)rtp_set_initial, METH_O,
      "set_initial(values): the contents at load, a bytes-like object of "
      "count x itemsize bytes (a numpy array of the dtype)." },
    { NULL, NULL, 0, NULL },
};

static PyGetSetDef rtp_getset[] = {
    { "name", (getter)get_name, NULL, "the buffer's name", NULL },
    { "dtype", (getter)rtp_dtype, NULL, "its dtype's name", NULL },
    { "count", (getter)rtp_count, NULL, "its element count", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

DOBJ_TYPE(pyiron_rtp_type, "Rtp",
          "A tile-local buffer (run-time parameters; upstream's Buffer), one "
          "copy per worker it is given to.",
          rtp_methods, rtp_getset);

/* --- Barrier ------------------------------------------------------------- */

static PyObject *barrier_set_initial(pyiron_dobj *b, PyObject *arg)
{
    int v;
    if (!live(b, "Barrier.set_initial") ||
        pyiron_arg_int(arg, "Barrier.set_initial", "value", &v) < 0)
        return NULL;
    return done(b, iron_barrier_set_initial(b->ptr, v));
}

static PyMethodDef barrier_methods[] = {
    { "set_initial", (PyCFunction)barrier_set_initial, METH_O,
      "set_initial(value): the lock's value at load, 0..63." },
    { NULL, NULL, 0, NULL },
};

static PyGetSetDef barrier_getset[] = {
    { "name", (getter)get_name, NULL, "the barrier's name", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

DOBJ_TYPE(pyiron_barrier_type, "Barrier",
          "A runtime-to-worker barrier (upstream's WorkerRuntimeBarrier).",
          barrier_methods, barrier_getset);

/* --- Worker -------------------------------------------------------------- */

static PyObject *worker_place(pyiron_dobj *w, PyObject *args, PyObject *kw)
{
    static const char *const kws[] = { "col", "row", NULL };
    static const char fn[] = "Worker.place";
    PyObject *oc, *orow = NULL;
    int col, row = -1;
    if (!PYIRON_PARSE(args, kw, "O|O:place", kws, &oc,
                                     &orow) ||
        !live(w, fn) || pyiron_arg_int(oc, fn, "col", &col) < 0 ||
        (orow && pyiron_arg_int(orow, fn, "row", &row) < 0))
        return NULL;
    return done(w, iron_worker_place(w->ptr, col, row));
}

static PyObject *worker_set_stack(pyiron_dobj *w, PyObject *arg)
{
    int64_t bytes;
    if (!live(w, "Worker.set_stack") ||
        pyiron_arg_i64(arg, "Worker.set_stack", "bytes", &bytes) < 0)
        return NULL;
    if (bytes < 0 || bytes > UINT32_MAX)
        return pyiron_raise_msg(IRON_EINVAL,
                                "Worker.set_stack(): worker %R: %lld bytes "
                                "is outside 0 .. 2^32-1",
                                w->name, (long long)bytes);
    return done(w, iron_worker_set_stack(w->ptr, (uint32_t)bytes));
}

static PyMethodDef worker_methods[] = {
    { "place", (PyCFunction)(void (*)(void))worker_place,
      METH_VARARGS | METH_KEYWORDS,
      "place(col, row=-1): pins the worker to tile (col, row), or with row "
      "-1 to column col (iron_worker_place)." },
    { "set_stack", (PyCFunction)worker_set_stack, METH_O,
      "set_stack(bytes): the core's stack size (iron_worker_set_stack)." },
    { NULL, NULL, 0, NULL },
};

static PyGetSetDef worker_getset[] = {
    { "name", (getter)get_name, NULL, "the worker's name", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

DOBJ_TYPE(pyiron_worker_type, "Worker",
          "A core program on a compute tile: a kernel in the standard loop "
          "(Design.worker) or a described body (Design.worker_body).",
          worker_methods, worker_getset);

/* --- TaskGroup ----------------------------------------------------------- */

DOBJ_TYPE(pyiron_task_group_type, "TaskGroup",
          "A task group of the runtime sequence (Design.task_group; finish "
          "it with Design.task_group_finish).",
          NULL, NULL);

void pyiron_dobj_slots(PyTypeObject *t)
{
    t->tp_dealloc = (destructor)dobj_dealloc;
    t->tp_traverse = (traverseproc)dobj_traverse;
    t->tp_clear = (inquiry)dobj_clear;
    t->tp_repr = (reprfunc)dobj_repr;
}

int pyiron_objects_init(PyObject *m)
{
    PyTypeObject *types[] = {
        &pyiron_fifo_type,   &pyiron_handle_type, &pyiron_handle_arg_type,
        &pyiron_kernel_type, &pyiron_rtp_type,    &pyiron_barrier_type,
        &pyiron_worker_type, &pyiron_task_group_type,
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (PyType_Ready(types[i]) < 0 ||
            PyModule_AddObjectRef(m, short_name(types[i]),
                                  (PyObject *)types[i]) < 0)
            return -1;
    return 0;
}
