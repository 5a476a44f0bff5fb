/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * tensor.c - iron._iron.Tensor: one library tensor per object.  The
 * factories, zero-copy wrapping of buffer-protocol memory, DLPack both
 * ways, the buffer protocol and numpy views of a tensor, copies, views,
 * printing, .npy files and comparison -- each a call of the library's.
 *
 * Lifetimes: memory the library wraps (Tensor.wrap, Tensor.from_dlpack)
 * stays the exporter's, held (its buffer view, or its DLPack deleter)
 * until the library's release callback, which runs when the last tensor
 * on that memory is freed -- from a Tensor's dealloc, or from a DLPack
 * consumer's deleter -- and takes the GIL itself.  A Tensor's dealloc
 * frees its tensor with the GIL released, because iron_tensor_free waits
 * for the runs using it, which may need the GIL to finish.
 */
#include <stddef.h>
#include <stdio.h>

#include <dlpack/dlpack.h>

#include "numpy_api.h"

#define TENSOR(o) ((pyiron_tensor *)(o))

/* How each library dtype crosses into Python: its buffer-protocol format
 * (NULL for bfloat16, which has none) and numpy's type number
 * (bfloat16's is the dtype bf16.c registers). */
static const struct dtype_map {
    const char *format;
    int npy;
} dtypes[IRON_DTYPE_COUNT_] = {
    [IRON_INT8] = { "b", NPY_INT8 },       [IRON_UINT8] = { "B", NPY_UINT8 },
    [IRON_INT16] = { "h", NPY_INT16 },     [IRON_UINT16] = { "H", NPY_UINT16 },
    [IRON_INT32] = { "i", NPY_INT32 },     [IRON_UINT32] = { "I", NPY_UINT32 },
    [IRON_INT64] = { "q", NPY_INT64 },     [IRON_UINT64] = { "Q", NPY_UINT64 },
    [IRON_FLOAT32] = { "f", NPY_FLOAT32 }, [IRON_FLOAT64] = { "d", NPY_FLOAT64 },
    [IRON_BFLOAT16] = { NULL, -1 },
};

/* ------------------------------------------------------------------------
 * Arguments
 * ------------------------------------------------------------------------ */

/* A dtype argument: a library name ("int32", "i32", "bf16"); DtypeError
 * with the library's message for unknown names. */
static int parse_dtype(PyObject *o, const char *what, iron_dtype *out)
{
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError,
                     "%s must be a dtype name (str, e.g. \"int32\"), not "
                     "%.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    const char *name = PyUnicode_AsUTF8(o);
    if (!name)
        return -1;
    iron_status s = iron_dtype_parse(name, out);
    if (s != IRON_OK) {
        pyiron_raise(s);
        return -1;
    }
    return 0;
}

/* A shape argument: an int or a sequence of ints.  The library checks
 * the dims; only a rank it cannot hold is refused here. */
static int parse_shape(PyObject *o, const char *what, iron_shape *out)
{
    memset(out, 0, sizeof *out);
    if (PyUnicode_Check(o) || PyBytes_Check(o)) {
        PyErr_Format(PyExc_TypeError,
                     "%s must be an int or a tuple of ints, not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    if (PyIndex_Check(o)) {
        out->ndim = 1;
        out->dims[0] = PyLong_AsLongLong(o);
        return out->dims[0] == -1 && PyErr_Occurred() ? -1 : 0;
    }
    PyObject *seq = PySequence_Fast(o, "");
    if (!seq) {
        PyErr_Format(PyExc_TypeError,
                     "%s must be an int or a tuple of ints, not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > IRON_MAX_DIMS) {
        Py_DECREF(seq);
        pyiron_raise_msg(IRON_ESHAPE, "%s has %zd dims; at most %d", what, n,
                         IRON_MAX_DIMS);
        return -1;
    }
    out->ndim = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *d = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyIndex_Check(d)) {
            PyErr_Format(PyExc_TypeError, "%s[%zd] must be an int, not %.100s",
                         what, i, Py_TYPE(d)->tp_name);
            Py_DECREF(seq);
            return -1;
        }
        out->dims[i] = PyLong_AsLongLong(d);
        if (out->dims[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static int shape_converter(PyObject *o, void *out)
{
    return parse_shape(o, "shape", out) == 0;
}

static int dtype_converter(PyObject *o, void *out)
{
    return parse_dtype(o, "dtype", out) == 0;
}

static PyObject *int64_tuple(int n, const int64_t *v)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* ------------------------------------------------------------------------
 * Objects
 * ------------------------------------------------------------------------ */

/* A new object of type (the class a factory was called on) owning t;
 * frees t when the object cannot be made. */
static PyObject *tensor_of(PyTypeObject *type, iron_tensor *t, int readonly)
{
    pyiron_tensor *self = (pyiron_tensor *)type->tp_alloc(type, 0);
    if (!self) {
        iron_tensor_free(t);
        return NULL;
    }
    self->t = t;
    self->base = NULL;
    self->exports = 0;
    self->readonly = readonly;
    self->weakrefs = NULL;
    return (PyObject *)self;
}

/* A library call's tensor as a new object, or its error. */
static PyObject *made(PyTypeObject *type, iron_status s, iron_tensor *t,
                      int readonly)
{
    if (s != IRON_OK)
        return pyiron_raise(s);
    return tensor_of(type, t, readonly);
}

iron_tensor *pyiron_tensor_get(PyObject *o, const char *what)
{
    if (o && PyObject_TypeCheck(o, &pyiron_tensor_type) && TENSOR(o)->t)
        return TENSOR(o)->t;
    PyErr_Format(PyExc_TypeError, "%s must be an iron Tensor, not %.100s",
                 what, o ? Py_TYPE(o)->tp_name : "NULL");
    return NULL;
}

static void tensor_dealloc(PyObject *o)
{
    pyiron_tensor *self = TENSOR(o);
    if (self->weakrefs)
        PyObject_ClearWeakRefs(o);
    iron_tensor *t = self->t;
    self->t = NULL;
    if (t) {
        Py_BEGIN_ALLOW_THREADS
        iron_tensor_free(t);
        Py_END_ALLOW_THREADS
    }
    Py_CLEAR(self->base);
    Py_TYPE(o)->tp_free(o);
}

/* Runs fn(arg) holding the GIL, from a library callback on any thread:
 * the one freeing the last tensor on wrapped memory, which may hold the
 * GIL (a dealloc under a consumer's) or not (a dealloc's free, which
 * released it).  After the interpreter has finalized, on a thread that
 * cannot take the GIL any more, nothing runs: the exporter is gone with
 * the interpreter.  The exception being raised, if any, is kept. */
static void with_gil(void (*fn)(void *), void *arg)
{
    if (!Py_IsInitialized() && !PyGILState_Check())
        return;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    fn(arg);
    PyErr_Restore(type, value, tb);
    PyGILState_Release(g);
}

/* ------------------------------------------------------------------------
 * Factories
 * ------------------------------------------------------------------------ */

static char *kw_dtype_shape[] = { (char[]){ "dtype" }, (char[]){ "shape" },
                                  NULL };
static char *kw_full[] = { (char[]){ "dtype" }, (char[]){ "shape" },
                           (char[]){ "value" }, NULL };
static char *kw_arange[] = { (char[]){ "dtype" }, (char[]){ "start" },
                             (char[]){ "stop" }, (char[]){ "step" }, NULL };
static char *kw_rand[] = { (char[]){ "dtype" }, (char[]){ "shape" },
                           (char[]){ "seed" }, NULL };
static char *kw_randint[] = { (char[]){ "dtype" }, (char[]){ "shape" },
                              (char[]){ "low" }, (char[]){ "high" },
                              (char[]){ "seed" }, NULL };

typedef iron_status (*filler_fn)(iron_dtype, iron_shape, iron_tensor **);

static PyObject *fill_factory(PyObject *cls, PyObject *args, PyObject *kw,
                              const char *fmt, filler_fn fn)
{
    iron_dtype dt;
    iron_shape shape;
    if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, kw_dtype_shape,
                                     dtype_converter, &dt, shape_converter,
                                     &shape))
        return NULL;
    iron_tensor *t = NULL;
    iron_status s = fn(dt, shape, &t);
    return made((PyTypeObject *)cls, s, t, 0);
}

static PyObject *tensor_empty(PyObject *cls, PyObject *args, PyObject *kw)
{
    return fill_factory(cls, args, kw, "O&O&:empty", iron_tensor_empty);
}

static PyObject *tensor_zeros(PyObject *cls, PyObject *args, PyObject *kw)
{
    return fill_factory(cls, args, kw, "O&O&:zeros", iron_tensor_zeros);
}

static PyObject *tensor_ones(PyObject *cls, PyObject *args, PyObject *kw)
{
    return fill_factory(cls, args, kw, "O&O&:ones", iron_tensor_ones);
}

static PyObject *tensor_full(PyObject *cls, PyObject *args, PyObject *kw)
{
    iron_dtype dt;
    iron_shape shape;
    double value;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&d:full", kw_full,
                                     dtype_converter, &dt, shape_converter,
                                     &shape, &value))
        return NULL;
    iron_tensor *t = NULL;
    iron_status s = iron_tensor_full(dt, shape, value, &t);
    return made((PyTypeObject *)cls, s, t, 0);
}

static PyObject *tensor_arange(PyObject *cls, PyObject *args, PyObject *kw)
{
    iron_dtype dt;
    double start, stop, step = 1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&dd|d:arange", kw_arange,
                                     dtype_converter, &dt, &start, &stop,
                                     &step))
        return NULL;
    iron_tensor *t = NULL;
    iron_status s = iron_tensor_arange(dt, start, stop, step, &t);
    return made((PyTypeObject *)cls, s, t, 0);
}

/* A seed: any int in 0 .. 2^64-1. */
static int seed_converter(PyObject *o, void *out)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "seed must be an int, not %.100s",
                     Py_TYPE(o)->tp_name);
        return 0;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        pyiron_raise_msg(IRON_EINVAL, "seed must be in 0 .. 2**64-1, got %R",
                         o);
        return 0;
    }
    *(uint64_t *)out = v;
    return 1;
}

static PyObject *tensor_rand(PyObject *cls, PyObject *args, PyObject *kw)
{
    iron_dtype dt;
    iron_shape shape;
    uint64_t seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|O&:rand", kw_rand,
                                     dtype_converter, &dt, shape_converter,
                                     &shape, seed_converter, &seed))
        return NULL;
    iron_tensor *t = NULL;
    iron_status s = iron_tensor_rand(dt, shape, seed, &t);
    return made((PyTypeObject *)cls, s, t, 0);
}

static PyObject *tensor_randint(PyObject *cls, PyObject *args, PyObject *kw)
{
    iron_dtype dt;
    iron_shape shape;
    long long low, high;
    uint64_t seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&LL|O&:randint",
                                     kw_randint, dtype_converter, &dt,
                                     shape_converter, &shape, &low, &high,
                                     seed_converter, &seed))
        return NULL;
    iron_tensor *t = NULL;
    iron_status s = iron_tensor_randint(dt, shape, low, high, seed, &t);
    return made((PyTypeObject *)cls, s, t, 0);
}

static PyObject *tensor_load_npy(PyObject *cls, PyObject *arg)
{
    PyObject *path = NULL;
    if (!PyUnicode_FSConverter(arg, &path))
        return NULL;
    iron_tensor *t = NULL;
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_tensor_load_npy(PyBytes_AS_STRING(path), &t);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    return made((PyTypeObject *)cls, s, t, 0);
}

/* ------------------------------------------------------------------------
 * Wrapping buffer-protocol memory
 * ------------------------------------------------------------------------ */

/* The library dtype a buffer's format names: b B h H i I l L q Q f d,
 * after an optional native or little-endian prefix ("@", "=", "<").  NULL
 * (no format) means bytes.  0 when there is none. */
static int dtype_of_format(const char *fmt, Py_ssize_t itemsize,
                           iron_dtype *out)
{
    if (!fmt)
        fmt = "B";
    if (*fmt == '@' || *fmt == '=' || *fmt == '<')
        fmt++;
    if (!fmt[0] || fmt[1])
        return 0;
    int kind;   /* 0 signed, 1 unsigned, 2 float */
    switch (fmt[0]) {
    case 'b': case 'h': case 'i': case 'l': case 'q': kind = 0; break;
    case 'B': case 'H': case 'I': case 'L': case 'Q': kind = 1; break;
    case 'f': case 'd': kind = 2; break;
    default: return 0;
    }
    static const iron_dtype by_kind[3][4] = {
        { IRON_INT8, IRON_INT16, IRON_INT32, IRON_INT64 },
        { IRON_UINT8, IRON_UINT16, IRON_UINT32, IRON_UINT64 },
        { IRON_DTYPE_COUNT_, IRON_DTYPE_COUNT_, IRON_FLOAT32, IRON_FLOAT64 },
    };
    int log2 = itemsize == 1 ? 0 : itemsize == 2 ? 1 : itemsize == 4 ? 2
             : itemsize == 8 ? 3 : -1;
    if (log2 < 0 || by_kind[kind][log2] == IRON_DTYPE_COUNT_)
        return 0;
    *out = by_kind[kind][log2];
    return 1;
}

/* "(4, 4)" and "(32, 8)" for messages. */
static PyObject *ssize_tuple(int n, const Py_ssize_t *v)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && v && i < n; i++) {
        PyObject *x = PyLong_FromSsize_t(v[i]);
        if (!x) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* An ndarray of the bfloat16 dtype has no buffer (numpy has no format
 * for it): its uint16 view does, with the same memory.  New reference to
 * what to take the buffer of. */
static PyObject *bufferable(PyObject *obj, int *is_bf16)
{
    *is_bf16 = 0;
    if (PyArray_Check(obj) &&
        PyArray_DESCR((PyArrayObject *)obj)->type_num ==
            pyiron_bf16_typenum()) {
        *is_bf16 = 1;
        return PyArray_View((PyArrayObject *)obj,
                            PyArray_DescrFromType(NPY_UINT16), NULL);
    }
    Py_INCREF(obj);
    return obj;
}

/* Takes obj's buffer (with strides and format) into *view and checks
 * what every zero-copy use needs: C-contiguous, and writable when asked.
 * The errors name `what`. */
static int take_buffer(PyObject *obj, const char *what, int writable,
                       Py_buffer *view, int *is_bf16)
{
    PyObject *src = bufferable(obj, is_bf16);
    if (!src)
        return -1;
    int rc = PyObject_GetBuffer(src, view, PyBUF_RECORDS_RO);
    Py_DECREF(src);
    if (rc < 0) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "%s must be a Tensor, a numpy array or another "
                         "object with the buffer protocol, not %.100s", what,
                         Py_TYPE(obj)->tp_name);
        }
        return -1;
    }
    if (!PyBuffer_IsContiguous(view, 'C')) {
        PyObject *shape = ssize_tuple(view->ndim, view->shape);
        PyObject *strides = ssize_tuple(view->ndim, view->strides);
        if (shape && strides)
            pyiron_raise_msg(IRON_EINVAL,
                             "%s: the memory is not C-contiguous (shape %R, "
                             "strides %R bytes); iron uses it in place and "
                             "never copies it: pass a contiguous array "
                             "(np.ascontiguousarray)", what, shape, strides);
        Py_XDECREF(shape);
        Py_XDECREF(strides);
        PyBuffer_Release(view);
        return -1;
    }
    if (writable && view->readonly) {
        pyiron_raise_msg(IRON_EINVAL,
                         "%s: the memory is read-only (%.100s), and the "
                         "tensor may be written; wrap it with "
                         "writable=False to use it as an input only", what,
                         Py_TYPE(obj)->tp_name);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* The dtype of a taken buffer: dtype_arg (a name) when given, which must
 * have the elements' size; else the format's (bfloat16 for a bfloat16
 * ndarray). */
static int buffer_dtype(const Py_buffer *view, int is_bf16,
                        PyObject *dtype_arg, const char *what,
                        iron_dtype *out)
{
    if (dtype_arg && dtype_arg != Py_None) {
        if (parse_dtype(dtype_arg, "dtype", out) < 0)
            return -1;
        if ((Py_ssize_t)iron_dtype_size(*out) != view->itemsize) {
            pyiron_raise_msg(IRON_EDTYPE,
                             "%s: dtype %s has %zu-byte elements but the "
                             "memory's are %zd bytes (format '%s')", what,
                             iron_dtype_name(*out), iron_dtype_size(*out),
                             view->itemsize,
                             view->format ? view->format : "B");
            return -1;
        }
        return 0;
    }
    if (is_bf16) {
        *out = IRON_BFLOAT16;
        return 0;
    }
    if (!dtype_of_format(view->format, view->itemsize, out)) {
        pyiron_raise_msg(IRON_EDTYPE,
                         "%s: the memory's format '%s' (%zd-byte elements) "
                         "has no iron dtype; iron takes the formats b B h H "
                         "i I l L q Q f d (native or little-endian), and "
                         "bfloat16 as the bfloat16 dtype or with dtype="
                         "\"bfloat16\"", what,
                         view->format ? view->format : "B", view->itemsize);
        return -1;
    }
    return 0;
}

/* What the release callback gets: the buffer view, which holds the
 * exporter. */
typedef struct wrap_ctx {
    Py_buffer view;
} wrap_ctx;

static void release_view_gil(void *arg)
{
    PyBuffer_Release(&((wrap_ctx *)arg)->view);
}

static void release_view(void *ctx, void *data)
{
    (void)data;
    with_gil(release_view_gil, ctx);
    PyMem_RawFree(ctx);
}

/* Tensor.wrap of a Tensor: the same memory as a new tensor (a reshape
 * to its own shape, which the library refuses for a strided view). */
static PyObject *wrap_tensor(PyTypeObject *cls, pyiron_tensor *src,
                             const char *what, int writable,
                             PyObject *dtype_arg)
{
    iron_tensor *t = src->t;
    if (dtype_arg && dtype_arg != Py_None) {
        iron_dtype dt;
        if (parse_dtype(dtype_arg, "dtype", &dt) < 0)
            return NULL;
        if (dt != iron_tensor_dtype(t))
            return pyiron_raise_msg(IRON_EDTYPE,
                                    "%s: the tensor is %s, not %s", what,
                                    iron_dtype_name(iron_tensor_dtype(t)),
                                    iron_dtype_name(dt));
    }
    if (writable && src->readonly)
        return pyiron_raise_msg(IRON_EINVAL,
                                "%s: the tensor wraps read-only memory; wrap "
                                "it with writable=False to use it as an "
                                "input only", what);
    if (!iron_tensor_is_contiguous(t))
        return pyiron_raise_msg(IRON_EINVAL,
                                "%s: the tensor is a strided view, not "
                                "contiguous; iron never copies it: pass "
                                "its copy()", what);
    iron_tensor *out = NULL;
    iron_status s = iron_tensor_reshape(t, iron_tensor_shape(t), &out);
    return made(cls, s, out, src->readonly);
}

static char *kw_wrap[] = { (char[]){ "obj" }, (char[]){ "what" },
                           (char[]){ "writable" }, (char[]){ "dtype" },
                           NULL };

static PyObject *tensor_wrap(PyObject *cls, PyObject *args, PyObject *kw)
{
    PyObject *obj, *dtype_arg = Py_None;
    const char *what = "argument";
    int writable = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|s$pO:wrap", kw_wrap, &obj,
                                     &what, &writable, &dtype_arg))
        return NULL;
    if (PyObject_TypeCheck(obj, &pyiron_tensor_type))
        return wrap_tensor((PyTypeObject *)cls, TENSOR(obj), what, writable,
                           dtype_arg);
    wrap_ctx *ctx = PyMem_RawMalloc(sizeof *ctx);
    if (!ctx)
        return PyErr_NoMemory();
    int is_bf16;
    if (take_buffer(obj, what, writable, &ctx->view, &is_bf16) < 0) {
        PyMem_RawFree(ctx);
        return NULL;
    }
    Py_buffer *v = &ctx->view;
    iron_dtype dt;
    iron_shape shape = { 1, { 1 } };   /* a 0-d buffer: one element */
    if (buffer_dtype(v, is_bf16, dtype_arg, what, &dt) < 0)
        goto fail;
    if (v->ndim > IRON_MAX_DIMS) {
        pyiron_raise_msg(IRON_ESHAPE, "%s has %d dims; at most %d", what,
                         v->ndim, IRON_MAX_DIMS);
        goto fail;
    }
    if (v->ndim > 0) {
        shape.ndim = v->ndim;
        for (int i = 0; i < v->ndim; i++)
            shape.dims[i] = v->shape[i];
    }
    iron_tensor *t = NULL;
    int readonly = v->readonly;
    iron_status s = iron_tensor_wrap(v->buf, (size_t)v->len, dt, shape,
                                     release_view, ctx, &t);
    if (s != IRON_OK) {
        pyiron_raise_msg(s, "%s: %s", what, iron_last_error());
        goto fail;
    }
    /* From here on ctx is the library's: release_view frees it. */
    PyObject *self = tensor_of((PyTypeObject *)cls, t, readonly);
    if (self) {
        Py_INCREF(obj);
        TENSOR(self)->base = obj;
    }
    return self;
fail:
    PyBuffer_Release(&ctx->view);
    PyMem_RawFree(ctx);
    return NULL;
}

/* ------------------------------------------------------------------------
 * DLPack
 * ------------------------------------------------------------------------ */

/* What the library gets for a producer's managed tensor: the same
 * DLTensor, with a deleter that takes the GIL before calling the
 * producer's (numpy's, for one, touches reference counts). */
typedef struct dl_proxy {
    DLManagedTensor m;
    DLManagedTensor *producer;
} dl_proxy;

static void proxy_delete_gil(void *arg)
{
    DLManagedTensor *p = arg;
    p->deleter(p);
}

static void proxy_deleter(DLManagedTensor *m)
{
    dl_proxy *proxy = m->manager_ctx;
    if (proxy->producer->deleter)
        with_gil(proxy_delete_gil, proxy->producer);
    PyMem_RawFree(proxy);
}

static PyObject *tensor_from_dlpack(PyObject *cls, PyObject *obj)
{
    PyObject *capsule;
    if (PyCapsule_CheckExact(obj)) {
        Py_INCREF(obj);
        capsule = obj;
    } else if (PyObject_HasAttrString(obj, "__dlpack__")) {
        capsule = PyObject_CallMethod(obj, "__dlpack__", NULL);
        if (!capsule)
            return NULL;
    } else {
        return PyErr_Format(PyExc_TypeError,
                            "from_dlpack: expected an object with "
                            "__dlpack__ (or a DLPack capsule), not %.100s",
                            Py_TYPE(obj)->tp_name);
    }
    DLManagedTensor *m = PyCapsule_GetPointer(capsule, "dltensor");
    if (!m) {
        Py_DECREF(capsule);
        PyErr_Clear();
        return pyiron_raise_msg(IRON_EINVAL,
                                "from_dlpack: the capsule is not an unused "
                                "DLPack tensor (named \"dltensor\")");
    }
    dl_proxy *proxy = PyMem_RawMalloc(sizeof *proxy);
    if (!proxy) {
        Py_DECREF(capsule);
        return PyErr_NoMemory();
    }
    proxy->m.dl_tensor = m->dl_tensor;
    proxy->m.manager_ctx = proxy;
    proxy->m.deleter = proxy_deleter;
    proxy->producer = m;
    iron_tensor *t = NULL;
    iron_status s = iron_tensor_from_dlpack(&proxy->m, &t);
    if (s != IRON_OK) {
        /* The producer keeps m: the capsule's destructor deletes it. */
        PyMem_RawFree(proxy);
        Py_DECREF(capsule);
        return pyiron_raise(s);
    }
    /* The library owns m now (the protocol's rename tells the capsule's
     * destructor so). */
    PyCapsule_SetName(capsule, "used_dltensor");
    Py_DECREF(capsule);
    return tensor_of((PyTypeObject *)cls, t, 0);
}

/* An export nobody consumed is deleted with its capsule. */
static void export_capsule_destructor(PyObject *capsule)
{
    if (!PyCapsule_IsValid(capsule, "dltensor"))
        return;
    DLManagedTensor *m = PyCapsule_GetPointer(capsule, "dltensor");
    if (m && m->deleter)
        m->deleter(m);
}

static char *kw_dlpack[] = { (char[]){ "stream" }, NULL };

static PyObject *tensor_dlpack(PyObject *o, PyObject *args, PyObject *kw)
{
    PyObject *stream = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$O:__dlpack__", kw_dlpack,
                                     &stream))
        return NULL;
    if (stream != Py_None)
        return pyiron_raise_msg(IRON_EINVAL,
                                "__dlpack__: stream must be None for CPU "
                                "memory, got %R", stream);
    if (TENSOR(o)->readonly)
        return pyiron_raise_msg(IRON_EINVAL,
                                "__dlpack__: the tensor wraps read-only "
                                "memory, which DLPack cannot mark as such");
    DLManagedTensor *m = NULL;
    iron_status s = iron_tensor_to_dlpack(TENSOR(o)->t, &m);
    if (s != IRON_OK)
        return pyiron_raise(s);
    PyObject *capsule =
        PyCapsule_New(m, "dltensor", export_capsule_destructor);
    if (!capsule)
        m->deleter(m);
    return capsule;
}

static PyObject *tensor_dlpack_device(PyObject *o, PyObject *noargs)
{
    (void)o;
    (void)noargs;
    return Py_BuildValue("(ii)", (int)kDLCPU, 0);
}

/* ------------------------------------------------------------------------
 * The buffer protocol and numpy
 * ------------------------------------------------------------------------ */

/* Shape and strides (bytes) of an export, freed by releasebuffer. */
static int tensor_getbuffer(PyObject *o, Py_buffer *view, int flags)
{
    pyiron_tensor *self = TENSOR(o);
    iron_tensor *t = self->t;
    iron_dtype dt = iron_tensor_dtype(t);
    iron_shape shape = iron_tensor_shape(t);
    int contiguous = iron_tensor_is_contiguous(t);
    view->obj = NULL;
    if ((flags & PyBUF_WRITABLE) && self->readonly) {
        PyErr_SetString(PyExc_BufferError,
                        "the tensor wraps read-only memory");
        return -1;
    }
    if ((flags & PyBUF_FORMAT) && !dtypes[dt].format) {
        PyErr_SetString(PyExc_BufferError,
                        "a bfloat16 tensor has no buffer format: use "
                        "np.asarray(t) or t.numpy() (the bfloat16 dtype), "
                        "or t.numpy().view(np.uint16) for the bits");
        return -1;
    }
    if (!contiguous && ((flags & PyBUF_STRIDES) != PyBUF_STRIDES ||
                        (flags & (PyBUF_C_CONTIGUOUS & ~PyBUF_STRIDES)) ||
                        (flags & (PyBUF_ANY_CONTIGUOUS & ~PyBUF_STRIDES)))) {
        PyErr_SetString(PyExc_BufferError,
                        "the tensor is a strided view: its buffer has "
                        "strides (take a copy() for contiguous memory)");
        return -1;
    }
    if ((flags & (PyBUF_F_CONTIGUOUS & ~PyBUF_STRIDES)) && shape.ndim > 1 &&
        !(contiguous && iron_tensor_numel(t) == shape.dims[0])) {
        PyErr_SetString(PyExc_BufferError,
                        "the tensor is row-major, not Fortran-contiguous");
        return -1;
    }
    Py_ssize_t *dims = PyMem_Malloc(2 * IRON_MAX_DIMS * sizeof *dims);
    if (!dims) {
        PyErr_NoMemory();
        return -1;
    }
    size_t esz = iron_dtype_size(dt);
    const int64_t *strides = iron_tensor_strides(t);
    for (int i = 0; i < shape.ndim; i++) {
        dims[i] = (Py_ssize_t)shape.dims[i];
        dims[IRON_MAX_DIMS + i] = (Py_ssize_t)(strides[i] * (int64_t)esz);
    }
    view->buf = iron_tensor_data(t);
    view->obj = o;
    Py_INCREF(o);
    view->len = (Py_ssize_t)iron_tensor_nbytes(t);
    view->readonly = self->readonly;
    view->itemsize = (Py_ssize_t)esz;
    view->format = (flags & PyBUF_FORMAT) ? (char *)(uintptr_t)dtypes[dt].format
                                          : NULL;
    view->ndim = (flags & PyBUF_ND) == PyBUF_ND ? shape.ndim : 1;
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? dims : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES
                        ? dims + IRON_MAX_DIMS : NULL;
    view->suboffsets = NULL;
    view->internal = dims;
    self->exports++;
    return 0;
}

static void tensor_releasebuffer(PyObject *o, Py_buffer *view)
{
    PyMem_Free(view->internal);
    TENSOR(o)->exports--;
}

static PyBufferProcs tensor_as_buffer = {
    .bf_getbuffer = tensor_getbuffer,
    .bf_releasebuffer = tensor_releasebuffer,
};

/* The numpy dtype of a library dtype (new reference). */
static PyArray_Descr *numpy_descr(iron_dtype dt)
{
    if (dt == IRON_BFLOAT16) {
        PyArray_Descr *d = pyiron_bf16_descr();
        Py_INCREF(d);
        return d;
    }
    return PyArray_DescrFromType(dtypes[dt].npy);
}

/* An ndarray on the tensor's memory (its strides; read-only when the
 * tensor wraps read-only memory), keeping the tensor alive as its base. */
static PyObject *tensor_numpy(PyObject *o, PyObject *noargs)
{
    (void)noargs;
    iron_tensor *t = TENSOR(o)->t;
    iron_dtype dt = iron_tensor_dtype(t);
    iron_shape shape = iron_tensor_shape(t);
    const int64_t *strides = iron_tensor_strides(t);
    npy_intp dims[IRON_MAX_DIMS], bstrides[IRON_MAX_DIMS];
    for (int i = 0; i < shape.ndim; i++) {
        dims[i] = (npy_intp)shape.dims[i];
        bstrides[i] = (npy_intp)(strides[i] * (int64_t)iron_dtype_size(dt));
    }
    PyArray_Descr *descr = numpy_descr(dt);
    if (!descr)
        return NULL;
    PyObject *arr = PyArray_NewFromDescr(
        &PyArray_Type, descr, shape.ndim, dims, bstrides,
        iron_tensor_data(t), TENSOR(o)->readonly ? 0 : NPY_ARRAY_WRITEABLE,
        NULL);
    if (!arr)
        return NULL;
    Py_INCREF(o);
    if (PyArray_SetBaseObject((PyArrayObject *)arr, o) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}

static char *kw_array[] = { (char[]){ "dtype" }, (char[]){ "copy" }, NULL };

/* numpy's protocol: np.asarray(t) and np.array(t) get the numpy() view
 * (a bfloat16 tensor's buffer has no format, so numpy comes here). */
static PyObject *tensor_array(PyObject *o, PyObject *args, PyObject *kw)
{
    PyObject *dtype = Py_None, *copy = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO:__array__", kw_array,
                                     &dtype, &copy))
        return NULL;
    PyObject *arr = tensor_numpy(o, NULL);
    if (!arr || (dtype == Py_None && copy != Py_True))
        return arr;
    PyArray_Descr *want = NULL;
    if (dtype != Py_None && !PyArray_DescrConverter(dtype, &want)) {
        Py_DECREF(arr);
        return NULL;
    }
    PyObject *out;
    if (want && !PyArray_EquivTypes(want, PyArray_DESCR((PyArrayObject *)arr)))
        out = PyArray_CastToType((PyArrayObject *)arr, want, 0);
    else if (copy == Py_True) {
        Py_XDECREF(want);
        out = PyArray_NewCopy((PyArrayObject *)arr, NPY_CORDER);
    } else {
        Py_XDECREF(want);
        Py_INCREF(arr);
        out = arr;
    }
    Py_DECREF(arr);
    return out;
}

/* ------------------------------------------------------------------------
 * Copies, views, text, files, comparison
 * ------------------------------------------------------------------------ */

static int check_writable(pyiron_tensor *self, const char *fn)
{
    if (!self->readonly)
        return 0;
    pyiron_raise_msg(IRON_EINVAL,
                     "%s: the tensor wraps read-only memory", fn);
    return -1;
}

/* The memory's elements must be the tensor's dtype (uint16 bits for
 * bfloat16), except for bytes and bytearray objects, whose bytes are
 * copied as they are. */
static int check_copy_dtype(PyObject *obj, const Py_buffer *view,
                            int is_bf16, iron_dtype dt, const char *what)
{
    if (PyBytes_Check(obj) || PyByteArray_Check(obj))
        return 0;
    const char *f = view->format ? view->format : "B";
    iron_dtype got = IRON_DTYPE_COUNT_;
    if (is_bf16)
        got = IRON_BFLOAT16;
    else if (!dtype_of_format(f, view->itemsize, &got))
        got = IRON_DTYPE_COUNT_;
    if (got == dt || (dt == IRON_BFLOAT16 && got == IRON_UINT16))
        return 0;
    pyiron_raise_msg(IRON_EDTYPE,
                     "%s: the memory's elements are %s (format '%s'), the "
                     "tensor's are %s", what,
                     got == IRON_DTYPE_COUNT_ ? "of no iron dtype"
                                              : iron_dtype_name(got),
                     is_bf16 ? "bfloat16" : f, iron_dtype_name(dt));
    return -1;
}

/* copy_from(src) and copy_to(dst): another Tensor (same dtype and shape,
 * iron_tensor_assign) or C-contiguous memory of exactly the tensor's
 * size, in row-major order. */
static PyObject *copy_between(PyObject *o, PyObject *other, int into_self)
{
    pyiron_tensor *self = TENSOR(o);
    const char *fn = into_self ? "copy_from" : "copy_to";
    const char *what = into_self ? "copy_from: the source" : "copy_to: the "
                                                             "destination";
    iron_status s;
    if (PyObject_TypeCheck(other, &pyiron_tensor_type)) {
        pyiron_tensor *ot = TENSOR(other);
        if (check_writable(into_self ? self : ot, fn) < 0)
            return NULL;
        Py_BEGIN_ALLOW_THREADS
        s = into_self ? iron_tensor_assign(self->t, ot->t)
                      : iron_tensor_assign(ot->t, self->t);
        Py_END_ALLOW_THREADS
        if (s != IRON_OK)
            return pyiron_raise(s);
        Py_RETURN_NONE;
    }
    if (into_self && check_writable(self, fn) < 0)
        return NULL;
    Py_buffer view;
    int is_bf16;
    if (take_buffer(other, what, !into_self, &view, &is_bf16) < 0)
        return NULL;
    if (check_copy_dtype(other, &view, is_bf16, iron_tensor_dtype(self->t),
                         what) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    s = into_self ? iron_tensor_copy_from(self->t, view.buf, (size_t)view.len)
                  : iron_tensor_copy_to(self->t, view.buf, (size_t)view.len);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (s != IRON_OK)
        return pyiron_raise(s);
    Py_RETURN_NONE;
}

static PyObject *tensor_copy_from(PyObject *o, PyObject *src)
{
    return copy_between(o, src, 1);
}

static PyObject *tensor_copy_to(PyObject *o, PyObject *dst)
{
    return copy_between(o, dst, 0);
}

static PyObject *tensor_copy(PyObject *o, PyObject *noargs)
{
    (void)noargs;
    iron_tensor *t = NULL;
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_tensor_copy(TENSOR(o)->t, &t);
    Py_END_ALLOW_THREADS
    return made(Py_TYPE(o), s, t, 0);
}

static PyObject *tensor_reshape(PyObject *o, PyObject *arg)
{
    iron_shape shape;
    if (parse_shape(arg, "reshape: shape", &shape) < 0)
        return NULL;
    iron_tensor *t = NULL;
    iron_status s = iron_tensor_reshape(TENSOR(o)->t, shape, &t);
    return made(Py_TYPE(o), s, t, TENSOR(o)->readonly);
}

static char *kw_view[] = { (char[]){ "offset" }, (char[]){ "shape" },
                           (char[]){ "strides" }, NULL };

static PyObject *tensor_view(PyObject *o, PyObject *args, PyObject *kw)
{
    long long offset;
    iron_shape shape;
    PyObject *strides_arg = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LO&|O:view", kw_view,
                                     &offset, shape_converter, &shape,
                                     &strides_arg))
        return NULL;
    int64_t strides[IRON_MAX_DIMS];
    if (strides_arg != Py_None) {
        iron_shape st;   /* parsed as a shape: the same int tuple */
        if (parse_shape(strides_arg, "view: strides", &st) < 0)
            return NULL;
        if (st.ndim != shape.ndim)
            return pyiron_raise_msg(IRON_ESHAPE,
                                    "view: %d strides for %d dims", st.ndim,
                                    shape.ndim);
        memcpy(strides, st.dims, sizeof strides);
    }
    iron_tensor *t = NULL;
    iron_status s = iron_tensor_view(TENSOR(o)->t, offset, shape,
                                     strides_arg != Py_None ? strides : NULL,
                                     &t);
    return made(Py_TYPE(o), s, t, TENSOR(o)->readonly);
}

static char *kw_format[] = { (char[]){ "precision" }, (char[]){ "threshold" },
                             (char[]){ "edgeitems" }, (char[]){ "linewidth" },
                             (char[]){ "plain" }, NULL };

static PyObject *format_text(iron_tensor *t, const iron_print_options *o)
{
    char *text = NULL;
    iron_status s = iron_tensor_format(t, o, &text);
    if (s != IRON_OK)
        return pyiron_raise(s);
    PyObject *r = PyUnicode_FromString(text);
    iron_free(text);
    return r;
}

static PyObject *tensor_format(PyObject *o, PyObject *args, PyObject *kw)
{
    iron_print_options opts = { .size = sizeof opts };
    long long threshold = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$iLiip:format", kw_format,
                                     &opts.precision, &threshold,
                                     &opts.edgeitems, &opts.linewidth,
                                     &opts.plain))
        return NULL;
    opts.threshold = threshold;
    return format_text(TENSOR(o)->t, &opts);
}

/* "Tensor([1 2 3], dtype=int32, device='npu2')": numpy's str() of the
 * elements, lines indented under the first. */
static PyObject *tensor_repr(PyObject *o)
{
    iron_tensor *t = TENSOR(o)->t;
    const char *name = strrchr(Py_TYPE(o)->tp_name, '.');
    name = name ? name + 1 : Py_TYPE(o)->tp_name;
    int indent = (int)strlen(name) + 1;
    iron_print_options opts = { .size = sizeof opts, .plain = 1,
                                .linewidth = 75 - indent > 20 ? 75 - indent
                                                              : 20 };
    PyObject *body = format_text(t, &opts);
    if (!body)
        return NULL;
    char spaces[64];
    snprintf(spaces, sizeof spaces, "\n%*s", indent < 60 ? indent : 60, "");
    PyObject *pad = PyUnicode_FromString(spaces);
    PyObject *nl = PyUnicode_FromString("\n");
    PyObject *text = pad && nl ? PyUnicode_Replace(body, nl, pad, -1) : NULL;
    PyObject *r = NULL;
    if (text)
        r = PyUnicode_FromFormat(
            "%s(%U, dtype=%s, device='%s')", name, text,
            iron_dtype_name(iron_tensor_dtype(t)),
            iron_device_name(iron_tensor_device(t)));
    Py_DECREF(body);
    Py_XDECREF(pad);
    Py_XDECREF(nl);
    Py_XDECREF(text);
    return r;
}

static PyObject *tensor_save_npy(PyObject *o, PyObject *arg)
{
    PyObject *path = NULL;
    if (!PyUnicode_FSConverter(arg, &path))
        return NULL;
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_tensor_save_npy(TENSOR(o)->t, PyBytes_AS_STRING(path));
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (s != IRON_OK)
        return pyiron_raise(s);
    Py_RETURN_NONE;
}

static PyObject *tensor_sync(PyObject *o, PyObject *arg)
{
    const char *dir = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
    if (!dir && PyErr_Occurred())
        return NULL;
    iron_sync_dir d;
    if (dir && strcmp(dir, "to_device") == 0)
        d = IRON_SYNC_TO_DEVICE;
    else if (dir && strcmp(dir, "to_host") == 0)
        d = IRON_SYNC_TO_HOST;
    else
        return pyiron_raise_msg(IRON_EINVAL,
                                "sync: direction must be \"to_device\" or "
                                "\"to_host\", got %R", arg);
    iron_status s = iron_tensor_sync(TENSOR(o)->t, d);
    if (s != IRON_OK)
        return pyiron_raise(s);
    Py_RETURN_NONE;
}

static char *kw_allclose[] = { (char[]){ "expected" }, (char[]){ "rtol" },
                               (char[]){ "atol" }, (char[]){ "equal_nan" },
                               (char[]){ "max_listed" }, NULL };

/* expected as a tensor (new reference): a Tensor, a Python number (one
 * element, compared with every one: the library broadcasts it), or
 * memory wrapped read-only. */
static PyObject *expected_tensor(PyObject *o, PyObject *expected)
{
    if (PyObject_TypeCheck(expected, &pyiron_tensor_type)) {
        Py_INCREF(expected);
        return expected;
    }
    PyTypeObject *type = &pyiron_tensor_type;
    if (PyFloat_Check(expected) || PyLong_Check(expected)) {
        int is_float = PyFloat_Check(expected);
        double v = PyFloat_AsDouble(expected);
        if (v == -1.0 && PyErr_Occurred())
            return NULL;
        iron_dtype own = iron_tensor_dtype(TENSOR(o)->t);
        int own_float = own == IRON_FLOAT32 || own == IRON_FLOAT64 ||
                        own == IRON_BFLOAT16;
        iron_tensor *t = NULL;
        iron_status s;
        if (own_float || is_float)
            s = iron_tensor_full(IRON_FLOAT64, IRON_SHAPE(1), v, &t);
        else {
            long long iv = PyLong_AsLongLong(expected);
            if (iv == -1 && PyErr_Occurred())
                return NULL;
            s = iron_tensor_zeros(IRON_INT64, IRON_SHAPE(1), &t);
            if (s == IRON_OK)
                *(int64_t *)iron_tensor_data(t) = iv;
        }
        return made(type, s, t, 0);
    }
    PyObject *args = Py_BuildValue("(Os)", expected, "allclose: expected");
    PyObject *kw = Py_BuildValue("{s:O}", "writable", Py_False);
    PyObject *t = args && kw ? tensor_wrap((PyObject *)type, args, kw) : NULL;
    Py_XDECREF(args);
    Py_XDECREF(kw);
    return t;
}

static PyObject *tensor_allclose(PyObject *o, PyObject *args, PyObject *kw)
{
    PyObject *expected;
    double rtol = 1e-5, atol = 1e-8;
    iron_allclose_options opts = { .size = sizeof opts };
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|dd$pi:allclose",
                                     kw_allclose, &expected, &rtol, &atol,
                                     &opts.equal_nan, &opts.max_listed))
        return NULL;
    PyObject *e = expected_tensor(o, expected);
    if (!e)
        return NULL;
    iron_allclose_result r = { .size = sizeof r };
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_tensor_allclose(TENSOR(o)->t, TENSOR(e)->t, rtol, atol, &opts,
                             &r);
    Py_END_ALLOW_THREADS
    Py_DECREF(e);
    if (s != IRON_OK)
        return pyiron_raise(s);
    PyObject *out = Py_BuildValue("(Ns)", PyBool_FromLong(r.all_close),
                                  r.report ? r.report : "");
    iron_free(r.report);
    return out;
}

/* ------------------------------------------------------------------------
 * Properties
 * ------------------------------------------------------------------------ */

static PyObject *get_dtype(PyObject *o, void *c)
{
    (void)c;
    return PyUnicode_FromString(iron_dtype_name(iron_tensor_dtype(TENSOR(o)->t)));
}

static PyObject *get_shape(PyObject *o, void *c)
{
    (void)c;
    iron_shape s = iron_tensor_shape(TENSOR(o)->t);
    return int64_tuple(s.ndim, s.dims);
}

static PyObject *get_strides(PyObject *o, void *c)
{
    (void)c;
    iron_tensor *t = TENSOR(o)->t;
    return int64_tuple(iron_tensor_shape(t).ndim, iron_tensor_strides(t));
}

static PyObject *get_nbytes(PyObject *o, void *c)
{
    (void)c;
    return PyLong_FromSize_t(iron_tensor_nbytes(TENSOR(o)->t));
}

static PyObject *get_ndim(PyObject *o, void *c)
{
    (void)c;
    return PyLong_FromLong(iron_tensor_shape(TENSOR(o)->t).ndim);
}

static PyObject *get_size(PyObject *o, void *c)
{
    (void)c;
    return PyLong_FromLongLong(iron_tensor_numel(TENSOR(o)->t));
}

static PyObject *tensor_numel(PyObject *o, PyObject *noargs)
{
    return get_size(o, noargs);
}

static PyObject *get_device(PyObject *o, void *c)
{
    (void)c;
    return PyUnicode_FromString(
        iron_device_name(iron_tensor_device(TENSOR(o)->t)));
}

static PyObject *get_is_contiguous(PyObject *o, void *c)
{
    (void)c;
    return PyBool_FromLong(iron_tensor_is_contiguous(TENSOR(o)->t));
}

static PyObject *get_is_wrapped(PyObject *o, void *c)
{
    (void)c;
    return PyBool_FromLong(iron_tensor_is_wrapped(TENSOR(o)->t));
}

static PyObject *get_readonly(PyObject *o, void *c)
{
    (void)c;
    return PyBool_FromLong(TENSOR(o)->readonly);
}

static PyObject *get_base(PyObject *o, void *c)
{
    (void)c;
    PyObject *b = TENSOR(o)->base ? TENSOR(o)->base : Py_None;
    Py_INCREF(b);
    return b;
}

static PyGetSetDef tensor_getset[] = {
    { "dtype", get_dtype, NULL, "The element type's name (\"int32\").", NULL },
    { "shape", get_shape, NULL, "The dims, a tuple of ints.", NULL },
    { "strides", get_strides, NULL,
      "The strides in elements (numpy's are in bytes).", NULL },
    { "nbytes", get_nbytes, NULL, "numel x the element size.", NULL },
    { "ndim", get_ndim, NULL, "The number of dims.", NULL },
    { "size", get_size, NULL, "The number of elements.", NULL },
    { "device", get_device, NULL,
      "The name of the device whose driver holds the memory.", NULL },
    { "is_contiguous", get_is_contiguous, NULL,
      "True when the elements lie in row-major order without gaps (what "
      "a jit call takes).", NULL },
    { "is_wrapped", get_is_wrapped, NULL,
      "True when the tensor is on memory it wraps (Tensor.wrap, "
      "from_dlpack, or a view of such a tensor).", NULL },
    { "readonly", get_readonly, NULL,
      "True when it wraps read-only memory (wrap(..., writable=False)): "
      "an input only.", NULL },
    { "base", get_base, NULL,
      "The object whose memory Tensor.wrap wrapped, else None.", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

#define CLASS_KW (METH_VARARGS | METH_KEYWORDS | METH_CLASS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

static PyMethodDef tensor_methods[] = {
    { "empty", FN(tensor_empty), CLASS_KW,
      "Tensor.empty(dtype, shape): a new tensor on the current device "
      "(contents undefined; zeros on the emulator)." },
    { "zeros", FN(tensor_zeros), CLASS_KW,
      "Tensor.zeros(dtype, shape): a new tensor of zeros." },
    { "ones", FN(tensor_ones), CLASS_KW,
      "Tensor.ones(dtype, shape): a new tensor of ones." },
    { "full", FN(tensor_full), CLASS_KW,
      "Tensor.full(dtype, shape, value): every element value converted to "
      "dtype (integers truncate and saturate, floats round to nearest "
      "even)." },
    { "arange", FN(tensor_arange), CLASS_KW,
      "Tensor.arange(dtype, start, stop, step=1): numpy's arange as a 1-D "
      "tensor." },
    { "rand", FN(tensor_rand), CLASS_KW,
      "Tensor.rand(dtype, shape, seed=0): uniform in [0, 1), float dtypes; "
      "the same seed gives the same data everywhere." },
    { "randint", FN(tensor_randint), CLASS_KW,
      "Tensor.randint(dtype, shape, low, high, seed=0): uniform integers in "
      "[low, high)." },
    { "load_npy", FN(tensor_load_npy), METH_O | METH_CLASS,
      "Tensor.load_npy(path): a new tensor with a .npy file's array." },
    { "wrap", FN(tensor_wrap), CLASS_KW,
      "Tensor.wrap(obj, what=\"argument\", *, writable=True, dtype=None): "
      "a tensor on obj's memory, without copying (a numpy array, or any "
      "C-contiguous buffer-protocol object; a Tensor gives a new tensor on "
      "its memory).  obj is kept until the last tensor on the memory is "
      "freed.  The dtype comes from the buffer's format, or dtype= (same "
      "element size; \"bfloat16\" for uint16 bits).  writable=False "
      "accepts read-only memory, for inputs.  Non-contiguous or misaligned "
      "memory raises InvalidArgumentError naming `what`; nothing is ever "
      "copied." },
    { "from_dlpack", FN(tensor_from_dlpack), METH_O | METH_CLASS,
      "Tensor.from_dlpack(obj): a tensor on the memory of obj (an object "
      "with __dlpack__, or a DLPack capsule), without copying; strided "
      "memory arrives as a view." },
    { "numel", FN(tensor_numel), METH_NOARGS,
      "numel() -> int: the number of elements." },
    { "numpy", FN(tensor_numpy), METH_NOARGS,
      "numpy() -> ndarray: the tensor's memory as an array, without "
      "copying (bfloat16 as the bfloat16 dtype)." },
    { "__array__", FN(tensor_array), METH_VARARGS | METH_KEYWORDS,
      "numpy's protocol: the numpy() view (cast when dtype differs)." },
    { "__dlpack__", FN(tensor_dlpack), METH_VARARGS | METH_KEYWORDS,
      "__dlpack__(stream=None): the tensor lent out as a DLPack capsule "
      "(CPU memory, shared: writes show on both sides)." },
    { "__dlpack_device__", FN(tensor_dlpack_device), METH_NOARGS,
      "__dlpack_device__() -> (1, 0): CPU memory." },
    { "copy_from", FN(tensor_copy_from), METH_O,
      "copy_from(src): the elements from a Tensor of the same dtype and "
      "shape, or from C-contiguous memory of exactly nbytes (its format "
      "the tensor's dtype, or bytes)." },
    { "copy_to", FN(tensor_copy_to), METH_O,
      "copy_to(dst): the elements into a Tensor of the same dtype and "
      "shape, or into writable C-contiguous memory of exactly nbytes." },
    { "copy", FN(tensor_copy), METH_NOARGS,
      "copy() -> Tensor: a new contiguous tensor with the elements." },
    { "reshape", FN(tensor_reshape), METH_O,
      "reshape(shape) -> Tensor: the same memory in another shape (one dim "
      "may be -1); the tensor must be contiguous." },
    { "view", FN(tensor_view), METH_VARARGS | METH_KEYWORDS,
      "view(offset, shape, strides=None) -> Tensor: the elements offset + "
      "i0 * strides[0] + ... (in elements, from element 0; None: "
      "row-major), sharing the memory." },
    { "format", FN(tensor_format), METH_VARARGS | METH_KEYWORDS,
      "format(*, precision=8, threshold=1000, edgeitems=3, linewidth=75, "
      "plain=False) -> str: the elements as numpy prints them (repr, or "
      "str with plain=True); 0 takes the default." },
    { "save_npy", FN(tensor_save_npy), METH_O,
      "save_npy(path): writes a .npy file (what np.save writes)." },
    { "sync", FN(tensor_sync), METH_O,
      "sync(\"to_device\" | \"to_host\"): makes writes visible to the "
      "other side (a jit call syncs its arguments itself)." },
    { "allclose", FN(tensor_allclose), METH_VARARGS | METH_KEYWORDS,
      "allclose(expected, rtol=1e-05, atol=1e-08, *, equal_nan=False, "
      "max_listed=0) -> (bool, str): numpy's allclose of this tensor (the "
      "actual values) against expected (a Tensor, an array or a number, "
      "broadcast), and the library's report of what differs (\"\" when "
      "close)." },
    { NULL, NULL, 0, NULL },
};

PyTypeObject pyiron_tensor_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "iron._iron.Tensor",
    .tp_basicsize = sizeof(pyiron_tensor),
    .tp_weaklistoffset = offsetof(pyiron_tensor, weakrefs),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A tensor of the iron library: host memory of the current "
              "device (the factories), or memory it wraps without copying "
              "(wrap, from_dlpack).  Made by the class methods; the "
              "Python class iron.Tensor adds numpy's conventions.",
    .tp_dealloc = tensor_dealloc,
    .tp_repr = tensor_repr,
    .tp_as_buffer = &tensor_as_buffer,
    .tp_methods = tensor_methods,
    .tp_getset = tensor_getset,
};

/* ------------------------------------------------------------------------
 * dtype names, for the Python layer's mapping to numpy
 * ------------------------------------------------------------------------ */

static PyObject *dtype_name(PyObject *self, PyObject *arg)
{
    (void)self;
    iron_dtype dt;
    if (parse_dtype(arg, "dtype_name: name", &dt) < 0)
        return NULL;
    return PyUnicode_FromString(iron_dtype_name(dt));
}

static PyObject *dtype_names(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    PyObject *list = PyList_New(0);
    for (int i = 0; list && iron_dtype_name((iron_dtype)i); i++) {
        PyObject *name = PyUnicode_FromString(iron_dtype_name((iron_dtype)i));
        if (!name || PyList_Append(list, name) < 0)
            Py_CLEAR(list);
        Py_XDECREF(name);
    }
    return list;
}

static PyMethodDef module_methods[] = {
    { "dtype_name", dtype_name, METH_O,
      "dtype_name(name) -> str: the library's name for a dtype name or "
      "alias (\"i32\" -> \"int32\", \"bf16\" -> \"bfloat16\"); DtypeError "
      "for unknown names." },
    { "dtype_names", dtype_names, METH_NOARGS,
      "dtype_names() -> list[str]: every dtype's name, in the library's "
      "order." },
    { NULL, NULL, 0, NULL },
};

int pyiron_tensor_init(PyObject *m)
{
    if (PyType_Ready(&pyiron_tensor_type) < 0 ||
        PyModule_AddFunctions(m, module_methods) < 0)
        return -1;
    return PyModule_AddObjectRef(m, "Tensor",
                                 (PyObject *)&pyiron_tensor_type);
}
