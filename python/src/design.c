/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * design.c - Design, the object a Python design function receives: what
 * the design may learn about its call, and the builder calls (fifos,
 * links, kernels, buffers, workers, the runtime sequence).
 *
 * A Design wraps the library's iron_design only while the design
 * function runs (jit.c's trampoline ends it when the function returns):
 * afterwards every method raises StateError, as does a use from another
 * thread (the library's design belongs to the thread building it).  The
 * library's builder errors are sticky; each method reads the design's
 * status after its call and raises at once, with the library's message,
 * so that the traceback points at the line that failed.
 */
#include "pyiron.h"

/* --- the Design object ---------------------------------------------------- */

PyObject *pyiron_design_new(iron_design *d, const char *jit_name)
{
    pyiron_design *dz = PyObject_New(pyiron_design, &pyiron_design_type);
    if (!dz)
        return NULL;
    dz->d = d;
    dz->thread = PyThread_get_thread_ident();
    dz->error = NULL;
    dz->jit_name = PyUnicode_FromString(jit_name ? jit_name : "?");
    if (!dz->jit_name) {
        Py_DECREF(dz);
        return NULL;
    }
    return (PyObject *)dz;
}

void pyiron_design_end(PyObject *design)
{
    if (design)
        ((pyiron_design *)design)->d = NULL;
}

iron_design *pyiron_design_live(pyiron_design *dz, const char *what)
{
    if (!dz->d) {
        pyiron_raise_msg(IRON_ESTATE,
                         "the design of jit %R is used after its design "
                         "function returned (%s): a design's objects are "
                         "valid only while it runs",
                         dz->jit_name, what);
        return NULL;
    }
    if (dz->thread != PyThread_get_thread_ident()) {
        pyiron_raise_msg(IRON_ESTATE,
                         "the design of jit %R is used from another thread "
                         "than the one running its design function (%s)",
                         dz->jit_name, what);
        return NULL;
    }
    return dz->d;
}

int pyiron_design_check(pyiron_design *dz)
{
    if (!dz->d)
        return 0;
    iron_status s = iron_design_status(dz->d);
    if (s == IRON_OK)
        return 0;
    if (dz->error) {
        /* The library's sticky error: this call did nothing. */
        pyiron_raise_msg(s, "the design failed at an earlier call: %U",
                         dz->error);
        return -1;
    }
    const char *msg = iron_last_error();
    dz->error = PyUnicode_FromString(msg && *msg ? msg
                                                 : iron_status_message(s));
    if (!dz->error)
        return -1;
    pyiron_raise_msg(s, "%U", dz->error);
    return -1;
}

static void design_dealloc(pyiron_design *dz)
{
    Py_XDECREF(dz->jit_name);
    Py_XDECREF(dz->error);
    PyObject_Free(dz);
}

static PyObject *design_repr(pyiron_design *dz)
{
    return PyUnicode_FromFormat("<Design of jit %R%s>", dz->jit_name,
                                dz->d ? "" : " (ended)");
}

/* Each method starts with the design's liveness. */
#define LIVE(fn)                                                              \
    iron_design *d = pyiron_design_live(self, fn);                            \
    if (!d)                                                                   \
    return NULL

/* Ends a method whose library call returned status s (IRON_OK for the
 * calls that return nothing). */
static PyObject *done(pyiron_design *self, iron_status s)
{
    if (pyiron_design_check(self) < 0)
        return NULL;
    if (s != IRON_OK)
        return pyiron_raise(s);
    Py_RETURN_NONE;
}

/* A new reference to the value v, or the design's failure. */
static PyObject *checked(pyiron_design *self, PyObject *v)
{
    if (pyiron_design_check(self) < 0) {
        Py_XDECREF(v);
        return NULL;
    }
    return v;
}

/* --- what the design learns ------------------------------------------------ */

static PyObject *design_nargs(pyiron_design *self, void *closure)
{
    (void)closure;
    LIVE("Design.nargs");
    return PyLong_FromLong(iron_design_nargs(d));
}

static PyObject *design_cols(pyiron_design *self, void *closure)
{
    (void)closure;
    LIVE("Design.cols");
    return PyLong_FromLong(iron_design_cols(d));
}

static PyObject *design_jit_name(pyiron_design *self, void *closure)
{
    (void)closure;
    Py_INCREF(self->jit_name);
    return self->jit_name;
}

static int arg_index(PyObject *o, const char *fn, int *i)
{
    return pyiron_arg_int(o, fn, "i", i);
}

static PyObject *design_arg_dtype(pyiron_design *self, PyObject *o)
{
    int i;
    LIVE("Design.arg_dtype");
    if (arg_index(o, "Design.arg_dtype", &i) < 0)
        return NULL;
    iron_dtype dt = iron_design_arg_dtype(d, i);
    return checked(self, pyiron_dtype_str(dt));
}

static PyObject *design_arg_shape(pyiron_design *self, PyObject *o)
{
    int i;
    LIVE("Design.arg_shape");
    if (arg_index(o, "Design.arg_shape", &i) < 0)
        return NULL;
    iron_shape s = iron_design_arg_shape(d, i);
    return checked(self, pyiron_shape_tuple(s));
}

static PyObject *design_arg_numel(pyiron_design *self, PyObject *o)
{
    int i;
    LIVE("Design.arg_numel");
    if (arg_index(o, "Design.arg_numel", &i) < 0)
        return NULL;
    int64_t n = iron_design_arg_numel(d, i);
    return checked(self, PyLong_FromLongLong((long long)n));
}

/* The same dict as the module's device_info(name), made by device.c. */
static PyObject *design_device_info(pyiron_design *self, PyObject *noargs)
{
    (void)noargs;
    LIVE("Design.device_info");
    const iron_device_info *info = iron_design_device(d);
    if (!info || !info->name)
        return pyiron_raise_msg(IRON_EDEVICE, "the design has no device");
    PyObject *mod = PyImport_ImportModule("iron._iron");
    if (!mod)
        return NULL;
    PyObject *r = PyObject_CallMethod(mod, "device_info", "s", info->name);
    Py_DECREF(mod);
    return r;
}

/* param_int & co: name -> the library's accessor. */
static const char *param_name(pyiron_design *self, PyObject *o,
                              const char *fn)
{
    const char *name;
    if (!pyiron_design_live(self, fn) ||
        pyiron_arg_str(o, fn, "name", 0, &name) < 0)
        return NULL;
    return name;
}

static PyObject *design_param_int(pyiron_design *self, PyObject *o)
{
    const char *name = param_name(self, o, "Design.param_int");
    if (!name)
        return NULL;
    int64_t v = iron_design_param_int(self->d, name);
    return checked(self, PyLong_FromLongLong((long long)v));
}

static PyObject *design_param_float(pyiron_design *self, PyObject *o)
{
    const char *name = param_name(self, o, "Design.param_float");
    if (!name)
        return NULL;
    double v = iron_design_param_float(self->d, name);
    return checked(self, PyFloat_FromDouble(v));
}

static PyObject *design_param_bool(pyiron_design *self, PyObject *o)
{
    const char *name = param_name(self, o, "Design.param_bool");
    if (!name)
        return NULL;
    int v = iron_design_param_bool(self->d, name);
    return checked(self, PyBool_FromLong(v));
}

static PyObject *design_param_str(pyiron_design *self, PyObject *o)
{
    const char *name = param_name(self, o, "Design.param_str");
    if (!name)
        return NULL;
    const char *v = iron_design_param_str(self->d, name);
    return checked(self, PyUnicode_FromString(v ? v : ""));
}

static PyObject *design_param_dtype(pyiron_design *self, PyObject *o)
{
    const char *name = param_name(self, o, "Design.param_dtype");
    if (!name)
        return NULL;
    iron_dtype v = iron_design_param_dtype(self->d, name);
    return checked(self, pyiron_dtype_str(v));
}

static PyObject *design_param_kernel(pyiron_design *self, PyObject *o)
{
    const char *name = param_name(self, o, "Design.param_kernel");
    if (!name)
        return NULL;
    const iron_kernel_ref *k = iron_design_param_kernel(self->d, name);
    return checked(self, Py_BuildValue("(sss)", k->entry, k->source,
                                       k->arg_types));
}

static PyObject *design_scalar_index(pyiron_design *self, PyObject *o)
{
    const char *name = param_name(self, o, "Design.scalar_index");
    if (!name)
        return NULL;
    int i = iron_design_scalar_index(self->d, name);
    return checked(self, PyLong_FromLong(i));
}

static PyObject *design_fail(pyiron_design *self, PyObject *o)
{
    const char *msg;
    LIVE("Design.fail");
    if (pyiron_arg_str(o, "Design.fail", "message", 0, &msg) < 0)
        return NULL;
    iron_design_fail(d, IRON_EDESIGN, "%s", msg);
    /* Recorded, not raised: the design function decides whether to go on
     * (later builder calls raise this failure) or to return. */
    if (!self->error) {
        const char *m = iron_last_error();
        self->error = PyUnicode_FromString(m && *m ? m : msg);
        if (!self->error)
            return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *design_dump(pyiron_design *self, PyObject *noargs)
{
    (void)noargs;
    LIVE("Design.dump");
    char *text = NULL;
    iron_status s = iron_design_dump(d, &text);
    if (s != IRON_OK)
        return pyiron_raise(s);
    PyObject *r = PyUnicode_FromString(text);
    iron_free(text);
    return r;
}

/* --- fifos and links ------------------------------------------------------- */

static PyObject *new_fifo(pyiron_design *self, iron_fifo *f)
{
    PyObject *name = NULL;
    if (f && !(name = PyUnicode_FromString(iron_fifo_name(f))))
        return NULL;
    PyObject *r = pyiron_dobj_new(&pyiron_fifo_type, self, f, name);
    Py_XDECREF(name);
    return r;
}

static PyObject *design_fifo(pyiron_design *self, PyObject *args,
                             PyObject *kw)
{
    static const char *const kws[] = { "name", "dtype", "shape", "depth", NULL };
    static const char fn[] = "Design.fifo";
    PyObject *on, *odt, *osh, *odepth = NULL;
    if (!PYIRON_PARSE(args, kw, "OOO|O:fifo", kws, &on, &odt,
                                     &osh, &odepth))
        return NULL;
    LIVE(fn);
    const char *name;
    iron_dtype dt;
    iron_shape shape;
    int depth = 2;
    if (pyiron_arg_str(on, fn, "name", 0, &name) < 0 ||
        pyiron_arg_dtype(odt, fn, "dtype", &dt) < 0 ||
        pyiron_arg_shape(osh, fn, "shape", &shape) < 0 ||
        (odepth && pyiron_arg_int(odepth, fn, "depth", &depth) < 0))
        return NULL;
    return new_fifo(self, iron_fifo_new(d, name, dt, shape, depth));
}

/* place: None (a memtile the placer picks), "memtile", "compute" or a
 * (col, row) tuple. */
static int link_place(PyObject *o, const char *fn, iron_link_options *opts)
{
    if (!o || o == Py_None) {
        opts->place = IRON_LINK_ANY_MEMTILE;
        return 0;
    }
    if (PyUnicode_Check(o)) {
        const char *s = PyUnicode_AsUTF8(o);
        if (!s)
            return -1;
        if (strcmp(s, "memtile") == 0) {
            opts->place = IRON_LINK_ANY_MEMTILE;
            return 0;
        }
        if (strcmp(s, "compute") == 0) {
            opts->place = IRON_LINK_ANY_COMPUTE;
            return 0;
        }
        pyiron_raise_msg(IRON_EINVAL,
                         "%s(): argument 'place' is \"%s\"; expected None, "
                         "\"memtile\", \"compute\" or a (col, row) tuple",
                         fn, s);
        return -1;
    }
    if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 2) {
        opts->place = IRON_LINK_TILE;
        return pyiron_arg_int(PyTuple_GET_ITEM(o, 0), fn, "place[0]",
                              &opts->col) < 0 ||
                       pyiron_arg_int(PyTuple_GET_ITEM(o, 1), fn, "place[1]",
                                      &opts->row) < 0
                   ? -1
                   : 0;
    }
    PyErr_Format(PyExc_TypeError, "%s(): argument 'place' must be None, "
                 "\"memtile\", \"compute\" or a (col, row) tuple, not %.100s",
                 fn, Py_TYPE(o)->tp_name);
    return -1;
}

static PyObject *design_forward(pyiron_design *self, PyObject *args,
                                PyObject *kw)
{
    static const char *const kws[] = { "cons", "name", "depth", "place",
                           "dtype", "shape", NULL };
    static const char fn[] = "Design.forward";
    PyObject *oc, *on = Py_None, *odepth = NULL, *oplace = NULL,
                  *odt = Py_None, *osh = Py_None;
    if (!PYIRON_PARSE(args, kw, "O|OOOOO:forward", kws, &oc,
                                     &on, &odepth, &oplace, &odt, &osh))
        return NULL;
    LIVE(fn);
    iron_link_options opts = { .size = sizeof opts };
    const char *name;
    int depth = 0;
    iron_handle *h = pyiron_dobj_get(oc, &pyiron_handle_type, self, fn,
                                     "cons");
    if (!h || pyiron_arg_str(on, fn, "name", 1, &name) < 0 ||
        (odepth && pyiron_arg_int(odepth, fn, "depth", &depth) < 0) ||
        link_place(oplace, fn, &opts) < 0 ||
        (odt != Py_None &&
         pyiron_arg_dtype(odt, fn, "dtype", &opts.dtype) < 0) ||
        (osh != Py_None &&
         pyiron_arg_shape(osh, fn, "shape", &opts.obj_shape) < 0))
        return NULL;
    if ((odt == Py_None) != (osh == Py_None))
        return PyErr_Format(PyExc_TypeError, "%s(): give both 'dtype' and "
                            "'shape' (the new fifo's object type) or "
                            "neither",
                            fn);
    return new_fifo(self, iron_fifo_forward_with(d, h, name, depth, &opts));
}

/* split and join: n outputs (inputs) with their offsets, shapes, names and
 * depths; at most this many. */
#define LINK_MAX 64

typedef struct link_args {
    int n;
    int64_t offsets[LINK_MAX];
    iron_shape shapes[LINK_MAX];
    const char *names[LINK_MAX];
    int depths[LINK_MAX];
    iron_fifo *fifos[LINK_MAX];
    iron_link_options opts;
} link_args;

static int read_link(const char *fn, PyObject *ooff, PyObject *osh,
                     PyObject *onames, PyObject *odepths, PyObject *oplace,
                     link_args *la)
{
    if (pyiron_arg_i64s(ooff, fn, "offsets", la->offsets, LINK_MAX,
                        &la->n) < 0)
        return -1;
    if (!PySequence_Check(osh) || PySequence_Size(osh) != la->n) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "%s(): argument 'shapes' must "
                         "be a sequence of %d shapes, one per offset",
                         fn, la->n);
        return -1;
    }
    for (int i = 0; i < la->n; i++) {
        char what[32];
        PyOS_snprintf(what, sizeof what, "shapes[%d]", i);
        PyObject *item = PySequence_GetItem(osh, i);
        int bad = !item || pyiron_arg_shape(item, fn, what, &la->shapes[i]);
        Py_XDECREF(item);
        if (bad)
            return -1;
        la->names[i] = NULL;
        la->depths[i] = 0;
    }
    if (onames != Py_None) {
        if (!PySequence_Check(onames) || PySequence_Size(onames) != la->n) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "%s(): argument 'names' "
                             "must be None or a sequence of %d names",
                             fn, la->n);
            return -1;
        }
        for (int i = 0; i < la->n; i++) {
            char what[32];
            PyOS_snprintf(what, sizeof what, "names[%d]", i);
            /* The sequence keeps its items (and their UTF-8) alive. */
            PyObject *item = PySequence_GetItem(onames, i);
            int bad = !item ||
                      pyiron_arg_str(item, fn, what, 1, &la->names[i]) < 0;
            Py_XDECREF(item);
            if (bad)
                return -1;
        }
    }
    if (odepths != Py_None) {
        int64_t depths[LINK_MAX];
        int m;
        if (pyiron_arg_i64s(odepths, fn, "depths", depths, LINK_MAX, &m) < 0)
            return -1;
        if (m != la->n) {
            PyErr_Format(PyExc_ValueError, "%s(): argument 'depths' has %d "
                         "items, expected %d (one per offset)",
                         fn, m, la->n);
            return -1;
        }
        for (int i = 0; i < m; i++) {
            if (depths[i] < INT32_MIN || depths[i] > INT32_MAX) {
                PyErr_Format(PyExc_OverflowError, "%s(): depths[%d] is "
                             "outside a C int's range", fn, i);
                return -1;
            }
            la->depths[i] = (int)depths[i];
        }
    }
    la->opts = (iron_link_options){ .size = sizeof la->opts };
    return link_place(oplace, fn, &la->opts);
}

static PyObject *fifo_list(pyiron_design *self, iron_status s,
                           const link_args *la)
{
    if (pyiron_design_check(self) < 0)
        return NULL;
    if (s != IRON_OK)
        return pyiron_raise(s);
    PyObject *list = PyList_New(la->n);
    for (int i = 0; list && i < la->n; i++) {
        PyObject *f = new_fifo(self, la->fifos[i]);
        if (!f) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, f);
    }
    return list;
}

static PyObject *split_or_join(pyiron_design *self, PyObject *args,
                               PyObject *kw, int join)
{
    static const char *const split_kws[] = { "cons", "offsets", "shapes", "names",
                                 "depths", "place", NULL };
    static const char *const join_kws[] = { "prod", "offsets", "shapes", "names",
                                "depths", "place", NULL };
    const char *fn = join ? "Design.join" : "Design.split";
    PyObject *oh, *ooff, *osh, *onames = Py_None, *odepths = Py_None,
                                *oplace = NULL;
    if (!PYIRON_PARSE(args, kw, join ? "OOO|OOO:join"
                                                    : "OOO|OOO:split",
                                     join ? join_kws : split_kws, &oh, &ooff,
                                     &osh, &onames, &odepths, &oplace))
        return NULL;
    LIVE(fn);
    link_args *la = PyMem_Calloc(1, sizeof *la);
    if (!la)
        return PyErr_NoMemory();
    PyObject *r = NULL;
    iron_handle *h = pyiron_dobj_get(oh, &pyiron_handle_type, self, fn,
                                     join ? "prod" : "cons");
    if (h && read_link(fn, ooff, osh, onames, odepths, oplace, la) == 0) {
        const char *const *names = (const char *const *)la->names;
        iron_status s =
            join ? iron_fifo_join_with(d, h, la->n, names, la->offsets,
                                       la->shapes, la->depths, la->fifos,
                                       &la->opts)
                 : iron_fifo_split_with(d, h, la->n, names, la->offsets,
                                        la->shapes, la->depths, la->fifos,
                                        &la->opts);
        r = fifo_list(self, s, la);
    }
    PyMem_Free(la);
    return r;
}

static PyObject *design_split(pyiron_design *self, PyObject *args,
                              PyObject *kw)
{
    return split_or_join(self, args, kw, 0);
}

static PyObject *design_join(pyiron_design *self, PyObject *args,
                             PyObject *kw)
{
    return split_or_join(self, args, kw, 1);
}

/* --- kernels, buffers, barriers ------------------------------------------- */

static PyObject *new_kernel(pyiron_design *self, iron_kernel *k, PyObject *entry)
{
    return pyiron_dobj_new(&pyiron_kernel_type, self, k, entry);
}

/* kernel and kernel_core: (entry, source, arg_types). */
static PyObject *kernel_from_source(pyiron_design *self, PyObject *args,
                                    PyObject *kw, int core)
{
    static const char *const kws[] = { "entry", "source", "arg_types", NULL };
    const char *fn = core ? "Design.kernel_core" : "Design.kernel";
    PyObject *oe, *os, *ot;
    if (!PYIRON_PARSE(args, kw, core ? "OOO:kernel_core"
                                                    : "OOO:kernel",
                                     kws, &oe, &os, &ot))
        return NULL;
    LIVE(fn);
    const char *entry, *source, *types;
    if (pyiron_arg_str(oe, fn, "entry", 0, &entry) < 0 ||
        pyiron_arg_str(os, fn, "source", 0, &source) < 0 ||
        pyiron_arg_str(ot, fn, "arg_types", 0, &types) < 0)
        return NULL;
    iron_kernel *k = core ? iron_kernel_new_core(d, entry, source, types)
                          : iron_kernel_new(d, entry, source, types);
    return new_kernel(self, k, oe);
}

static PyObject *design_kernel(pyiron_design *self, PyObject *args,
                               PyObject *kw)
{
    return kernel_from_source(self, args, kw, 0);
}

static PyObject *design_kernel_core(pyiron_design *self, PyObject *args,
                                    PyObject *kw)
{
    return kernel_from_source(self, args, kw, 1);
}

static PyObject *design_kernel_file(pyiron_design *self, PyObject *args,
                                    PyObject *kw)
{
    static const char *const kws[] = { "entry", "path", "arg_types", "include_dirs",
                           NULL };
    static const char fn[] = "Design.kernel_file";
    PyObject *oe, *op, *ot, *oinc = NULL;
    if (!PYIRON_PARSE(args, kw, "OOO|O:kernel_file", kws, &oe,
                                     &op, &ot, &oinc))
        return NULL;
    LIVE(fn);
    const char *entry, *path, *types;
    if (pyiron_arg_str(oe, fn, "entry", 0, &entry) < 0 ||
        pyiron_arg_str(ot, fn, "arg_types", 0, &types) < 0)
        return NULL;
    /* path: a str or an os.PathLike. */
    PyObject *bpath = NULL;
    if (!PyUnicode_FSConverter(op, &bpath))
        return NULL;
    path = PyBytes_AS_STRING(bpath);
    PyObject *seq = NULL, *r = NULL;
    const char **dirs = NULL;
    Py_ssize_t n = 0;
    PyObject **held = NULL;
    if (oinc && oinc != Py_None) {
        seq = PySequence_Fast(oinc, "Design.kernel_file(): argument "
                                    "'include_dirs' must be a sequence of "
                                    "paths");
        if (!seq)
            goto out;
        n = PySequence_Fast_GET_SIZE(seq);
        dirs = PyMem_Calloc((size_t)n + 1, sizeof *dirs);
        held = PyMem_Calloc((size_t)n + 1, sizeof *held);
        if (!dirs || !held) {
            PyErr_NoMemory();
            goto out;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(seq, i),
                                       &held[i]))
                goto out;
            dirs[i] = PyBytes_AS_STRING(held[i]);
        }
    }
    if (n > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "%s(): too many include_dirs", fn);
        goto out;
    }
    r = new_kernel(self, iron_kernel_new_file(d, entry, path, types, (int)n,
                                              dirs),
                   oe);
out:
    for (Py_ssize_t i = 0; held && i < n; i++)
        Py_XDECREF(held[i]);
    PyMem_Free(held);
    PyMem_Free(dirs);
    Py_XDECREF(seq);
    Py_DECREF(bpath);
    return r;
}

static PyObject *design_rtp(pyiron_design *self, PyObject *args,
                            PyObject *kw)
{
    static const char *const kws[] = { "name", "dtype", "count", NULL };
    static const char fn[] = "Design.rtp";
    PyObject *on, *odt, *oc;
    if (!PYIRON_PARSE(args, kw, "OOO:rtp", kws, &on, &odt,
                                     &oc))
        return NULL;
    LIVE(fn);
    const char *name;
    iron_dtype dt;
    int64_t count;
    if (pyiron_arg_str(on, fn, "name", 0, &name) < 0 ||
        pyiron_arg_dtype(odt, fn, "dtype", &dt) < 0 ||
        pyiron_arg_i64(oc, fn, "count", &count) < 0)
        return NULL;
    pyiron_dobj *r = (pyiron_dobj *)pyiron_dobj_new(
        &pyiron_rtp_type, self, iron_rtp_new(d, name, dt, count), on);
    if (r) {
        r->i = count;
        r->dtype = (int)dt;
    }
    return (PyObject *)r;
}

static PyObject *design_barrier(pyiron_design *self, PyObject *o)
{
    static const char fn[] = "Design.barrier";
    LIVE(fn);
    const char *name;
    if (pyiron_arg_str(o, fn, "name", 0, &name) < 0)
        return NULL;
    return pyiron_dobj_new(&pyiron_barrier_type, self,
                           iron_barrier_new(d, name), o);
}

/* --- workers ---------------------------------------------------------------- */

/* One worker argument (args[i]) as the library's iron_arg. */
static int worker_arg(pyiron_design *self, PyObject *o, Py_ssize_t i,
                      iron_arg *out)
{
    static const char fn[] = "Design.worker";
    char what[32];
    PyOS_snprintf(what, sizeof what, "args[%zd]", i);
    PyTypeObject *t = Py_TYPE(o);
    void *p;
    if (PyObject_TypeCheck(o, &pyiron_handle_type)) {
        if (!(p = pyiron_dobj_get(o, &pyiron_handle_type, self, fn, what)))
            return -1;
        *out = iron_arg_fifo(p);
    } else if (PyObject_TypeCheck(o, &pyiron_handle_arg_type)) {
        if (!(p = pyiron_dobj_get(o, &pyiron_handle_arg_type, self, fn,
                                  what)))
            return -1;
        *out = iron_arg_fifo_acquire(p, (int)((pyiron_dobj *)o)->i);
    } else if (PyObject_TypeCheck(o, &pyiron_rtp_type)) {
        if (!(p = pyiron_dobj_get(o, &pyiron_rtp_type, self, fn, what)))
            return -1;
        *out = iron_arg_rtp(p);
    } else if (PyObject_TypeCheck(o, &pyiron_barrier_type)) {
        if (!(p = pyiron_dobj_get(o, &pyiron_barrier_type, self, fn, what)))
            return -1;
        *out = iron_arg_barrier(p);
    } else if (PyObject_TypeCheck(o, &pyiron_kernel_type)) {
        if (!(p = pyiron_dobj_get(o, &pyiron_kernel_type, self, fn, what)))
            return -1;
        *out = iron_arg_kernel(p);
    } else if (PyFloat_Check(o)) {
        *out = iron_arg_float(PyFloat_AS_DOUBLE(o));
    } else if (PyIndex_Check(o)) {
        int64_t v;
        if (pyiron_arg_i64(o, fn, what, &v) < 0)
            return -1;
        *out = iron_arg_int(v);
    } else {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be a Handle, "
                     "HandleArg, int, float, Rtp, Barrier or Kernel, not "
                     "%.100s",
                     fn, what, t->tp_name);
        return -1;
    }
    return 0;
}

static PyObject *new_worker(pyiron_design *self, iron_worker *w, PyObject *name)
{
    return pyiron_dobj_new(&pyiron_worker_type, self, w, name);
}

static PyObject *design_worker(pyiron_design *self, PyObject *args,
                               PyObject *kw)
{
    static const char *const kws[] = { "name", "kernel", "iterations", "args", NULL };
    static const char fn[] = "Design.worker";
    PyObject *on, *ok, *oit, *oargs;
    if (!PYIRON_PARSE(args, kw, "OOOO:worker", kws, &on, &ok,
                                     &oit, &oargs))
        return NULL;
    LIVE(fn);
    const char *name;
    int64_t iterations;
    iron_kernel *k;
    if (pyiron_arg_str(on, fn, "name", 0, &name) < 0 ||
        !(k = pyiron_dobj_get(ok, &pyiron_kernel_type, self, fn, "kernel")) ||
        pyiron_arg_i64(oit, fn, "iterations", &iterations) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(oargs, "Design.worker(): argument 'args' "
                                           "must be a sequence");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    iron_arg small[16];
    iron_arg *wa = n <= 16 ? small : PyMem_Calloc((size_t)n, sizeof *wa);
    PyObject *r = NULL;
    if (!wa) {
        PyErr_NoMemory();
        goto out;
    }
    if (n > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "%s(): too many args", fn);
        goto out;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (worker_arg(self, PySequence_Fast_GET_ITEM(seq, i), i, &wa[i]) < 0)
            goto out;
    r = new_worker(self, iron_worker_new(d, name, k, iterations, (int)n, wa),
                   on);
out:
    if (wa != small)
        PyMem_Free(wa);
    Py_DECREF(seq);
    return r;
}

static PyObject *design_worker_body(pyiron_design *self, PyObject *args,
                                    PyObject *kw)
{
    static const char *const kws[] = { "name", "body", NULL };
    static const char fn[] = "Design.worker_body";
    PyObject *on, *ob;
    if (!PYIRON_PARSE(args, kw, "OO:worker_body", kws, &on,
                                     &ob))
        return NULL;
    LIVE(fn);
    const char *name;
    iron_body *b;
    if (pyiron_arg_str(on, fn, "name", 0, &name) < 0 ||
        !(b = pyiron_dobj_get(ob, &pyiron_body_type, self, fn, "body")))
        return NULL;
    return new_worker(self, iron_worker_new_body(d, name, b), on);
}

static PyObject *design_body(pyiron_design *self, PyObject *o)
{
    static const char fn[] = "Design.body";
    LIVE(fn);
    const char *name;
    if (pyiron_arg_str(o, fn, "name", 0, &name) < 0)
        return NULL;
    pyiron_dobj *b = (pyiron_dobj *)pyiron_dobj_new(
        &pyiron_body_type, self, iron_body_new(d, name), o);
    if (b && !(b->ref = PyList_New(0)))   /* its open regions */
        Py_CLEAR(b);
    return (PyObject *)b;
}

/* --- the runtime sequence ---------------------------------------------------- */

/* A tap: None (every element of argument `arg`, in order) or (offset,
 * sizes, strides). */
static int read_tap(pyiron_design *self, PyObject *o, int arg,
                    const char *fn, iron_tap *out)
{
    if (!o || o == Py_None) {
        int64_t n = iron_design_arg_numel(self->d, arg);
        if (pyiron_design_check(self) < 0)
            return -1;
        *out = iron_tap_linear(n);
        return 0;
    }
    if (!PySequence_Check(o) || PyUnicode_Check(o) ||
        PySequence_Size(o) != 3) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "%s(): argument 'tap' must be None "
                         "or (offset, sizes, strides), not %.100s",
                         fn, Py_TYPE(o)->tp_name);
        return -1;
    }
    PyObject *oo = PySequence_GetItem(o, 0), *osz = PySequence_GetItem(o, 1),
             *ost = PySequence_GetItem(o, 2);
    int64_t offset, sizes[IRON_TAP_MAX_DIMS], strides[IRON_TAP_MAX_DIMS];
    int n = 0, m = 0;
    int bad = !oo || !osz || !ost ||
              pyiron_arg_i64(oo, fn, "tap offset", &offset) < 0 ||
              pyiron_arg_i64s(osz, fn, "tap sizes", sizes, IRON_TAP_MAX_DIMS,
                              &n) < 0 ||
              pyiron_arg_i64s(ost, fn, "tap strides", strides,
                              IRON_TAP_MAX_DIMS, &m) < 0;
    Py_XDECREF(oo);
    Py_XDECREF(osz);
    Py_XDECREF(ost);
    if (bad)
        return -1;
    if (n != m || n < 1) {
        PyErr_Format(PyExc_ValueError, "%s(): the tap has %d sizes and %d "
                     "strides: one stride per size, 1 to %d of them",
                     fn, n, m, IRON_TAP_MAX_DIMS);
        return -1;
    }
    *out = iron_tap_make(offset, n, sizes, strides);
    return 0;
}

/* A dispatch-time scalar: its index, or its name. */
static int read_scalar(pyiron_design *self, PyObject *o, const char *fn,
                       int *out)
{
    if (PyUnicode_Check(o)) {
        const char *name = PyUnicode_AsUTF8(o);
        if (!name)
            return -1;
        *out = iron_design_scalar_index(self->d, name);
        return pyiron_design_check(self);
    }
    return pyiron_arg_int(o, fn, "scalar", out);
}

static PyObject *design_rt_start(pyiron_design *self, PyObject *o)
{
    static const char fn[] = "Design.rt_start";
    LIVE(fn);
    iron_worker *w = pyiron_dobj_get(o, &pyiron_worker_type, self, fn,
                                     "worker");
    return w ? done(self, iron_rt_start(d, w)) : NULL;
}

/* rt_fill, rt_drain and their forms moved by a scalar. */
static PyObject *fill_or_drain(pyiron_design *self, PyObject *args,
                               PyObject *kw, int drain, int moved)
{
    static const char *const fill_kws[] = { "prod", "arg", "tap", "scalar", NULL };
    static const char *const drain_kws[] = { "cons", "arg", "tap", "scalar", "wait",
                                 NULL };
    static const char *const drain_plain_kws[] = { "cons", "arg", "tap", "wait", NULL };
    static const char *const fill_plain_kws[] = { "prod", "arg", "tap", NULL };
    const char *fn = drain ? (moved ? "Design.rt_drain_offset_scalar"
                                    : "Design.rt_drain")
                           : (moved ? "Design.rt_fill_offset_scalar"
                                    : "Design.rt_fill");
    PyObject *oh, *oa, *otap = NULL, *osc = NULL, *owait = NULL;
    int ok;
    if (moved)
        ok = PYIRON_PARSE(args, kw, drain ? "OOOO|O" : "OOOO",
                                         drain ? drain_kws : fill_kws, &oh,
                                         &oa, &otap, &osc, &owait);
    else if (drain)
        ok = PYIRON_PARSE(args, kw, "OO|OO", drain_plain_kws,
                                         &oh, &oa, &otap, &owait);
    else
        ok = PYIRON_PARSE(args, kw, "OO|O", fill_plain_kws,
                                         &oh, &oa, &otap);
    if (!ok)
        return NULL;
    LIVE(fn);
    iron_handle *h = pyiron_dobj_get(oh, &pyiron_handle_type, self, fn,
                                     drain ? "cons" : "prod");
    int arg, scalar = 0, wait = 0;
    iron_tap tap;
    if (!h || pyiron_arg_int(oa, fn, "arg", &arg) < 0 ||
        read_tap(self, otap, arg, fn, &tap) < 0 ||
        (moved && read_scalar(self, osc, fn, &scalar) < 0) ||
        (owait && (wait = PyObject_IsTrue(owait)) < 0))
        return NULL;
    iron_status s;
    if (drain)
        s = moved ? iron_rt_drain_offset_scalar(d, h, arg, tap, scalar, wait)
                  : iron_rt_drain(d, h, arg, tap, wait);
    else
        s = moved ? iron_rt_fill_offset_scalar(d, h, arg, tap, scalar)
                  : iron_rt_fill(d, h, arg, tap);
    return done(self, s);
}

static PyObject *design_rt_fill(pyiron_design *self, PyObject *args,
                                PyObject *kw)
{
    return fill_or_drain(self, args, kw, 0, 0);
}

static PyObject *design_rt_drain(pyiron_design *self, PyObject *args,
                                 PyObject *kw)
{
    return fill_or_drain(self, args, kw, 1, 0);
}

static PyObject *design_rt_fill_offset_scalar(pyiron_design *self,
                                              PyObject *args, PyObject *kw)
{
    return fill_or_drain(self, args, kw, 0, 1);
}

static PyObject *design_rt_drain_offset_scalar(pyiron_design *self,
                                               PyObject *args, PyObject *kw)
{
    return fill_or_drain(self, args, kw, 1, 1);
}

static PyObject *set_rtp(pyiron_design *self, PyObject *args, PyObject *kw,
                         int by_scalar)
{
    static const char *const kws[] = { "rtp", "index", "value", NULL };
    static const char *const scalar_kws[] = { "rtp", "index", "scalar", NULL };
    const char *fn = by_scalar ? "Design.rt_set_rtp_scalar"
                               : "Design.rt_set_rtp";
    PyObject *ortp, *oi, *ov;
    if (!PYIRON_PARSE(args, kw, "OOO",
                                     by_scalar ? scalar_kws : kws, &ortp, &oi,
                                     &ov))
        return NULL;
    LIVE(fn);
    iron_rtp *r = pyiron_dobj_get(ortp, &pyiron_rtp_type, self, fn, "rtp");
    int64_t index;
    if (!r || pyiron_arg_i64(oi, fn, "index", &index) < 0)
        return NULL;
    if (by_scalar) {
        int scalar;
        if (read_scalar(self, ov, fn, &scalar) < 0)
            return NULL;
        return done(self, iron_rt_set_rtp_scalar(d, r, index, scalar));
    }
    double v;
    if (pyiron_arg_double(ov, fn, "value", &v) < 0)
        return NULL;
    return done(self, iron_rt_set_rtp(d, r, index, v));
}

static PyObject *design_rt_set_rtp(pyiron_design *self, PyObject *args,
                                   PyObject *kw)
{
    return set_rtp(self, args, kw, 0);
}

static PyObject *design_rt_set_rtp_scalar(pyiron_design *self,
                                          PyObject *args, PyObject *kw)
{
    return set_rtp(self, args, kw, 1);
}

static PyObject *design_rt_set_barrier(pyiron_design *self, PyObject *args,
                                       PyObject *kw)
{
    static const char *const kws[] = { "barrier", "value", NULL };
    static const char fn[] = "Design.rt_set_barrier";
    PyObject *ob, *ov;
    if (!PYIRON_PARSE(args, kw, "OO:rt_set_barrier", kws, &ob,
                                     &ov))
        return NULL;
    LIVE(fn);
    iron_barrier *b = pyiron_dobj_get(ob, &pyiron_barrier_type, self, fn,
                                      "barrier");
    int v;
    if (!b || pyiron_arg_int(ov, fn, "value", &v) < 0)
        return NULL;
    return done(self, iron_rt_set_barrier(d, b, v));
}

static PyObject *design_task_group(pyiron_design *self, PyObject *noargs)
{
    (void)noargs;
    LIVE("Design.task_group");
    return pyiron_dobj_new(&pyiron_task_group_type, self,
                           iron_rt_task_group_new(d), NULL);
}

static PyObject *design_task_group_finish(pyiron_design *self, PyObject *o)
{
    static const char fn[] = "Design.task_group_finish";
    LIVE(fn);
    iron_task_group *g = pyiron_dobj_get(o, &pyiron_task_group_type, self,
                                         fn, "group");
    return g ? done(self, iron_rt_task_group_finish(d, g)) : NULL;
}

static PyObject *design_task_group_begin(pyiron_design *self,
                                         PyObject *noargs)
{
    (void)noargs;
    LIVE("Design.task_group_begin");
    return done(self, iron_rt_task_group_begin(d));
}

static PyObject *design_task_group_end(pyiron_design *self, PyObject *noargs)
{
    (void)noargs;
    LIVE("Design.task_group_end");
    return done(self, iron_rt_task_group_end(d));
}

static PyObject *design_task_group_use(pyiron_design *self, PyObject *o)
{
    static const char fn[] = "Design.task_group_use";
    LIVE(fn);
    iron_task_group *g = NULL;
    if (o != Py_None &&
        !(g = pyiron_dobj_get(o, &pyiron_task_group_type, self, fn, "group")))
        return NULL;
    return done(self, iron_rt_task_group_use(d, g));
}

/* --- the type ---------------------------------------------------------------- */

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

static PyMethodDef design_methods[] = {
    { "arg_dtype", (PyCFunction)design_arg_dtype, METH_O,
      "arg_dtype(i) -> str: argument i's dtype name." },
    { "arg_shape", (PyCFunction)design_arg_shape, METH_O,
      "arg_shape(i) -> tuple: argument i's shape." },
    { "arg_numel", (PyCFunction)design_arg_numel, METH_O,
      "arg_numel(i) -> int: argument i's element count." },
    { "device_info", (PyCFunction)design_device_info, METH_NOARGS,
      "device_info() -> dict: the target device, as iron._iron."
      "device_info(name)." },
    { "param_int", (PyCFunction)design_param_int, METH_O,
      "param_int(name) -> int: a compile-time parameter's value." },
    { "param_float", (PyCFunction)design_param_float, METH_O,
      "param_float(name) -> float" },
    { "param_bool", (PyCFunction)design_param_bool, METH_O,
      "param_bool(name) -> bool" },
    { "param_str", (PyCFunction)design_param_str, METH_O,
      "param_str(name) -> str" },
    { "param_dtype", (PyCFunction)design_param_dtype, METH_O,
      "param_dtype(name) -> str: a dtype parameter's dtype name." },
    { "param_kernel", (PyCFunction)design_param_kernel, METH_O,
      "param_kernel(name) -> (entry, source, arg_types): a kernel "
      "parameter's value." },
    { "scalar_index", (PyCFunction)design_scalar_index, METH_O,
      "scalar_index(name) -> int: a dispatch-time scalar's index." },
    { "fail", (PyCFunction)design_fail, METH_O,
      "fail(message): records a failure of the design's own (DesignError "
      "at the call); later builder calls raise it." },
    { "dump", (PyCFunction)design_dump, METH_NOARGS,
      "dump() -> str: the design built so far, as text." },
    { "fifo", KW(design_fifo),
      "fifo(name, dtype, shape, depth=2) -> Fifo: an ObjectFifo of objects "
      "of shape x dtype with depth buffers." },
    { "forward", KW(design_forward),
      "forward(cons, name=None, depth=0, place=None, dtype=None, "
      "shape=None) -> Fifo: the objects arriving on consumer handle cons, "
      "passed on through a memtile.  place: None or \"memtile\" (a memtile "
      "the placer picks), \"compute\", or (col, row)." },
    { "split", KW(design_split),
      "split(cons, offsets, shapes, names=None, depths=None, place=None) "
      "-> list[Fifo]: each object arriving on cons cut into len(offsets) "
      "objects." },
    { "join", KW(design_join),
      "join(prod, offsets, shapes, names=None, depths=None, place=None) "
      "-> list[Fifo]: one object from each new fifo assembled into one "
      "object of prod's fifo." },
    { "kernel", KW(design_kernel),
      "kernel(entry, source, arg_types) -> Kernel: C source with entry "
      "function entry; arg_types as \"int32*, int32*, int32\"." },
    { "kernel_file", KW(design_kernel_file),
      "kernel_file(entry, path, arg_types, include_dirs=()) -> Kernel: a "
      "kernel whose source is the file at path." },
    { "kernel_core", KW(design_kernel_core),
      "kernel_core(entry, source, arg_types) -> Kernel: a core body in C "
      "(arg_types may say fifo, barrier)." },
    { "rtp", KW(design_rtp),
      "rtp(name, dtype, count) -> Rtp: a tile-local buffer." },
    { "barrier", (PyCFunction)design_barrier, METH_O,
      "barrier(name) -> Barrier: a runtime-to-worker barrier." },
    { "worker", KW(design_worker),
      "worker(name, kernel, iterations, args) -> Worker: kernel in the "
      "standard loop; args items are Handle, HandleArg, int, float, Rtp, "
      "Barrier or Kernel." },
    { "worker_body", KW(design_worker_body),
      "worker_body(name, body) -> Worker: a worker running a described "
      "Body." },
    { "body", (PyCFunction)design_body, METH_O,
      "body(name) -> Body: a new, empty core body." },
    { "rt_start", (PyCFunction)design_rt_start, METH_O,
      "rt_start(worker): marks a worker to start (all start when none "
      "is)." },
    { "rt_fill", KW(design_rt_fill),
      "rt_fill(prod, arg, tap=None): streams argument arg into the fifo "
      "through producer handle prod; tap None (every element in order) or "
      "(offset, sizes, strides)." },
    { "rt_drain", KW(design_rt_drain),
      "rt_drain(cons, arg, tap=None, wait=False): streams objects from "
      "consumer handle cons into argument arg." },
    { "rt_set_rtp", KW(design_rt_set_rtp),
      "rt_set_rtp(rtp, index, value): writes element index of a buffer." },
    { "rt_set_rtp_scalar", KW(design_rt_set_rtp_scalar),
      "rt_set_rtp_scalar(rtp, index, scalar): writes a dispatch-time "
      "scalar's value (scalar: its index or name)." },
    { "rt_fill_offset_scalar", KW(design_rt_fill_offset_scalar),
      "rt_fill_offset_scalar(prod, arg, tap, scalar): rt_fill with the "
      "tap's offset moved by a dispatch-time scalar." },
    { "rt_drain_offset_scalar", KW(design_rt_drain_offset_scalar),
      "rt_drain_offset_scalar(cons, arg, tap, scalar, wait=False)" },
    { "rt_set_barrier", KW(design_rt_set_barrier),
      "rt_set_barrier(barrier, value): sets a barrier's lock, 0..63." },
    { "task_group", (PyCFunction)design_task_group, METH_NOARGS,
      "task_group() -> TaskGroup: opens a task group." },
    { "task_group_finish", (PyCFunction)design_task_group_finish, METH_O,
      "task_group_finish(group): waits for the group's drains and frees its "
      "tasks." },
    { "task_group_use", (PyCFunction)design_task_group_use, METH_O,
      "task_group_use(group): makes an open group current (None: no group; "
      "the ops that follow belong to the sequence)." },
    { "task_group_begin", (PyCFunction)design_task_group_begin, METH_NOARGS,
      "task_group_begin(): opens a group without a handle." },
    { "task_group_end", (PyCFunction)design_task_group_end, METH_NOARGS,
      "task_group_end(): finishes the current group." },
    { NULL, NULL, 0, NULL },
};

static PyGetSetDef design_getset[] = {
    { "nargs", (getter)design_nargs, NULL, "the number of tensor arguments",
      NULL },
    { "cols", (getter)design_cols, NULL,
      "the columns the launch configuration grants", NULL },
    { "jit_name", (getter)design_jit_name, NULL, "the jit's name", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

PyTypeObject pyiron_design_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "iron._iron.Design",
    .tp_basicsize = sizeof(pyiron_design),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "What a design function receives: the call's argument types, "
              "its compile-time values, and the builder calls.  Valid only "
              "while the design function runs.",
    .tp_dealloc = (destructor)design_dealloc,
    .tp_repr = (reprfunc)design_repr,
    .tp_methods = design_methods,
    .tp_getset = design_getset,
};

int pyiron_design_init(PyObject *m)
{
    if (PyType_Ready(&pyiron_design_type) < 0 ||
        PyModule_AddObjectRef(m, "Design", (PyObject *)&pyiron_design_type) <
            0)
        return -1;
    return pyiron_objects_init(m);
}
