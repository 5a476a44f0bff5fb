/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * tap.c - access patterns (iron_tap_*) and the 2-D tiler (iron_tiler2d_*)
 * as module functions; iron.taplib builds upstream's TensorAccessPattern,
 * TensorAccessSequence and TensorTiler2D on them.
 *
 * A pattern crosses the boundary as three arguments, offset, sizes and
 * strides (sequences of 1 to IRON_TAP_MAX_DIMS ints, outermost first), the
 * same triple the tiler returns, so a pattern the tiler gives can be passed
 * straight back.
 */
#include <stdint.h>
#include <string.h>

#include "pyiron.h"

/* Keyword lists are string constants; CPython before 3.13 declares its
 * parameter char **, though it never writes through it. */
#define KWLIST(names) ((char **)(uintptr_t)(names))

/* An int (or anything with __index__, such as numpy's integers) into *v;
 * -1 with a TypeError naming `what` otherwise. */
static int get_int64(PyObject *o, const char *what, int64_t *v)
{
    if (PyBool_Check(o) || !PyIndex_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: expected an int, got %.80s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    PyObject *i = PyNumber_Index(o);
    if (!i)
        return -1;
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (overflow) {
        pyiron_raise_msg(IRON_EINVAL, "%s: %R does not fit 64 bits", what, o);
        return -1;
    }
    *v = (int64_t)x;
    return 0;
}

/* A sequence of 1..IRON_TAP_MAX_DIMS ints into v; the count, or -1 with
 * the error set. */
static int get_dims(PyObject *o, const char *what, int64_t *v)
{
    if (PyUnicode_Check(o) || PyBytes_Check(o) || !PySequence_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a sequence of ints, got "
                     "%.80s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    Py_ssize_t n = PySequence_Size(o);
    if (n < 0)
        return -1;
    if (n < 1 || n > IRON_TAP_MAX_DIMS) {
        pyiron_raise_msg(IRON_EINVAL, "%s: expected 1 to %d dimensions, got "
                         "%zd", what, IRON_TAP_MAX_DIMS, n);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PySequence_GetItem(o, k);
        if (!item)
            return -1;
        char label[64];
        PyOS_snprintf(label, sizeof label, "%s[%zd]", what, k);
        int rc = get_int64(item, label, &v[k]);
        Py_DECREF(item);
        if (rc < 0)
            return -1;
    }
    return (int)n;
}

/* (offset, sizes, strides) into an iron_tap; -1 with the error set. */
static int get_tap(PyObject *offset, PyObject *sizes, PyObject *strides,
                   iron_tap *out)
{
    int64_t off, sz[IRON_TAP_MAX_DIMS], st[IRON_TAP_MAX_DIMS];
    if (get_int64(offset, "offset", &off) < 0)
        return -1;
    int n = get_dims(sizes, "sizes", sz);
    if (n < 0)
        return -1;
    int m = get_dims(strides, "strides", st);
    if (m < 0)
        return -1;
    if (n != m) {
        pyiron_raise_msg(IRON_EINVAL, "sizes and strides: expected as many "
                         "strides as sizes, got %d sizes and %d strides", n,
                         m);
        return -1;
    }
    *out = iron_tap_make(off, n, sz, st);
    return 0;
}

/* A tuple (offset, (sizes...), (strides...)): the tiler's result and
 * what the design's rt_fill / rt_drain take. */
static PyObject *tap_tuple(const iron_tap *t)
{
    PyObject *sizes = PyTuple_New(t->ndim), *strides = PyTuple_New(t->ndim);
    if (!sizes || !strides)
        goto fail;
    for (int k = 0; k < t->ndim; k++) {
        PyObject *a = PyLong_FromLongLong((long long)t->sizes[k]);
        PyObject *b = PyLong_FromLongLong((long long)t->strides[k]);
        if (!a || !b) {
            Py_XDECREF(a);
            Py_XDECREF(b);
            goto fail;
        }
        PyTuple_SET_ITEM(sizes, k, a);
        PyTuple_SET_ITEM(strides, k, b);
    }
    return Py_BuildValue("(LNN)", (long long)t->offset, sizes, strides);
fail:
    Py_XDECREF(sizes);
    Py_XDECREF(strides);
    return NULL;
}

static PyObject *py_tap_check(PyObject *self, PyObject *args, PyObject *kw)
{
    static const char *const names[] = { "offset", "sizes", "strides",
                                         "numel", NULL };
    PyObject *o, *sz, *st, *n;
    iron_tap t;
    int64_t numel;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO:tap_check",
                                     KWLIST(names), &o, &sz, &st, &n) ||
        get_tap(o, sz, st, &t) < 0 || get_int64(n, "numel", &numel) < 0)
        return NULL;
    iron_status s = iron_tap_check(&t, numel);
    if (s != IRON_OK)
        return pyiron_raise(s);
    Py_RETURN_NONE;
}

static PyObject *py_tap_count(PyObject *self, PyObject *args, PyObject *kw)
{
    static const char *const names[] = { "offset", "sizes", "strides",
                                         NULL };
    PyObject *o, *sz, *st;
    iron_tap t;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO:tap_count",
                                     KWLIST(names), &o, &sz, &st) ||
        get_tap(o, sz, st, &t) < 0)
        return NULL;
    /* The library answers 0 for a malformed pattern and -1 for a count
     * past 64 bits; say which rather than hand back a number that reads
     * as a count. */
    int64_t count = iron_tap_count(&t);
    if (count == 0)
        return pyiron_raise_msg(IRON_EINVAL, "sizes: every size must be at "
                                "least 1, got %R", sz);
    if (count < 0)
        return pyiron_raise_msg(IRON_EINVAL, "sizes: the number of visits, "
                                "the product of %R, does not fit 64 bits",
                                sz);
    return PyLong_FromLongLong((long long)count);
}

typedef iron_status (*accesses_fn)(const iron_tap *, int64_t, int64_t *);

/* access_order / access_count: numel int64 values in a bytes object the
 * caller views with numpy (np.frombuffer(b, np.int64)).  The walk takes
 * time in the pattern's visits, so the GIL is released around it. */
static PyObject *accesses(PyObject *args, PyObject *kw, const char *fmt,
                          accesses_fn fn)
{
    static const char *const names[] = { "offset", "sizes", "strides",
                                         "numel", NULL };
    PyObject *o, *sz, *st, *n;
    iron_tap t;
    int64_t numel;
    if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, KWLIST(names), &o, &sz,
                                     &st, &n) ||
        get_tap(o, sz, st, &t) < 0 || get_int64(n, "numel", &numel) < 0)
        return NULL;
    /* The library bounds numel (1..2^40); ask it before allocating, so a
     * bad numel is its error, not a MemoryError. */
    iron_status s = iron_tap_check(&t, numel);
    if (s != IRON_OK)
        return pyiron_raise(s);
    if ((uint64_t)numel > (uint64_t)PY_SSIZE_T_MAX / sizeof(int64_t))
        return pyiron_raise_msg(IRON_ENOMEM, "numel: %lld elements do not "
                                "fit this machine's memory",
                                (long long)numel);
    PyObject *out = PyBytes_FromStringAndSize(
        NULL, (Py_ssize_t)numel * (Py_ssize_t)sizeof(int64_t));
    if (!out)
        return NULL;
    int64_t *data = (int64_t *)(void *)PyBytes_AS_STRING(out);
    Py_BEGIN_ALLOW_THREADS
    s = fn(&t, numel, data);
    Py_END_ALLOW_THREADS
    if (s != IRON_OK) {
        Py_DECREF(out);
        return pyiron_raise(s);
    }
    return out;
}

static PyObject *py_tap_access_order(PyObject *self, PyObject *args,
                                     PyObject *kw)
{
    (void)self;
    return accesses(args, kw, "OOOO:tap_access_order",
                    iron_tap_access_order);
}

static PyObject *py_tap_access_count(PyObject *self, PyObject *args,
                                     PyObject *kw)
{
    (void)self;
    return accesses(args, kw, "OOOO:tap_access_count",
                    iron_tap_access_count);
}

static PyObject *py_tap_visualize(PyObject *self, PyObject *args,
                                  PyObject *kw)
{
    static const char *const names[] = { "offset", "sizes", "strides",
                                         "rows", "cols", NULL };
    PyObject *o, *sz, *st, *r, *c;
    iron_tap t;
    int64_t rows, cols;
    char *text = NULL;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOO:tap_visualize",
                                     KWLIST(names), &o, &sz, &st, &r, &c) ||
        get_tap(o, sz, st, &t) < 0 || get_int64(r, "rows", &rows) < 0 ||
        get_int64(c, "cols", &cols) < 0)
        return NULL;
    iron_status s;
    Py_BEGIN_ALLOW_THREADS
    s = iron_tap_visualize(&t, rows, cols, &text);
    Py_END_ALLOW_THREADS
    if (s != IRON_OK)
        return pyiron_raise(s);
    PyObject *out = PyUnicode_FromString(text);
    iron_free(text);
    return out;
}

/* The tiler's keyword arguments into an iron_tiler2d.  Upstream's
 * prune_step (default True) is the library's no_prune_step inverted. */
static int get_tiler(PyObject *args, PyObject *kw, const char *fmt,
                     iron_tiler2d *t)
{
    static const char *const names[] = {
        "rows", "cols", "tile_rows", "tile_cols", "group_rows", "group_cols",
        "step_rows", "step_cols", "tile_col_major", "group_col_major",
        "iter_col_major", "repeat", "allow_partial", "prune_step", NULL,
    };
    PyObject *v[8] = { NULL };
    int tile_cm = 0, group_cm = 0, iter_cm = 0, partial = 0, prune = 1;
    PyObject *repeat = NULL;
    if (!PyArg_ParseTupleAndKeywords(
            args, kw, fmt, KWLIST(names), &v[0], &v[1], &v[2], &v[3], &v[4],
            &v[5], &v[6], &v[7], &tile_cm, &group_cm, &iter_cm, &repeat,
            &partial, &prune))
        return -1;
    int64_t x[8] = { 0, 0, 0, 0, 1, 1, 1, 1 }, rep = 1;
    for (int k = 0; k < 8; k++)
        if (v[k] && get_int64(v[k], names[k], &x[k]) < 0)
            return -1;
    if (repeat && get_int64(repeat, "repeat", &rep) < 0)
        return -1;
    memset(t, 0, sizeof *t);
    t->size = sizeof *t;
    t->rows = x[0];
    t->cols = x[1];
    t->tile_rows = x[2];
    t->tile_cols = x[3];
    t->group_rows = x[4];
    t->group_cols = x[5];
    t->step_rows = x[6];
    t->step_cols = x[7];
    t->tile_col_major = tile_cm;
    t->group_col_major = group_cm;
    t->iter_col_major = iter_cm;
    t->repeat = rep;
    t->allow_partial = partial;
    t->no_prune_step = !prune;
    return 0;
}

#define TILER_FMT "OOOO|OOOOpppOpp"

static PyObject *py_tiler2d_count(PyObject *self, PyObject *args,
                                  PyObject *kw)
{
    iron_tiler2d t;
    int64_t count;
    (void)self;
    if (get_tiler(args, kw, TILER_FMT ":tiler2d_count", &t) < 0)
        return NULL;
    iron_status s = iron_tiler2d_count(&t, &count);
    if (s != IRON_OK)
        return pyiron_raise(s);
    return PyLong_FromLongLong((long long)count);
}

static PyObject *py_tiler2d(PyObject *self, PyObject *args, PyObject *kw)
{
    iron_tiler2d t;
    int64_t count;
    (void)self;
    if (get_tiler(args, kw, TILER_FMT ":tiler2d", &t) < 0)
        return NULL;
    iron_status s = iron_tiler2d_count(&t, &count);
    if (s != IRON_OK)
        return pyiron_raise(s);
    if (count > PY_SSIZE_T_MAX)
        return pyiron_raise_msg(IRON_ENOMEM, "the tiler gives %lld "
                                "patterns, more than a list holds",
                                (long long)count);
    PyObject *list = PyList_New((Py_ssize_t)count);
    if (!list)
        return NULL;
    for (int64_t k = 0; k < count; k++) {
        iron_tap tap;
        s = iron_tiler2d_tap(&t, k, &tap);
        if (s != IRON_OK) {
            Py_DECREF(list);
            return pyiron_raise(s);
        }
        PyObject *item = tap_tuple(&tap);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)k, item);
    }
    return list;
}

#define KW (METH_VARARGS | METH_KEYWORDS)
#define FN(f) ((PyCFunction)(void (*)(void))(f))

static PyMethodDef methods[] = {
    { "tap_check", FN(py_tap_check), KW,
      "tap_check(offset, sizes, strides, numel): raises unless the pattern "
      "stays inside a tensor of numel elements (iron_tap_check)." },
    { "tap_count", FN(py_tap_count), KW,
      "tap_count(offset, sizes, strides) -> int: the number of visits "
      "(the product of sizes)." },
    { "tap_access_order", FN(py_tap_access_order), KW,
      "tap_access_order(offset, sizes, strides, numel) -> bytes: numel "
      "native int64 values, the step of each element's last visit, -1 if "
      "never visited (iron_tap_access_order)." },
    { "tap_access_count", FN(py_tap_access_count), KW,
      "tap_access_count(offset, sizes, strides, numel) -> bytes: numel "
      "native int64 values, how often each element is visited." },
    { "tap_visualize", FN(py_tap_visualize), KW,
      "tap_visualize(offset, sizes, strides, rows, cols) -> str: the text "
      "picture of the pattern over a row-major rows x cols tensor." },
    { "tiler2d_count", FN(py_tiler2d_count), KW,
      "tiler2d_count(rows, cols, tile_rows, tile_cols, ...) -> int: how "
      "many patterns tiler2d gives for the same arguments." },
    { "tiler2d", FN(py_tiler2d), KW,
      "tiler2d(rows, cols, tile_rows, tile_cols, group_rows=1, "
      "group_cols=1, step_rows=1, step_cols=1, tile_col_major=False, "
      "group_col_major=False, iter_col_major=False, repeat=1, "
      "allow_partial=False, prune_step=True) -> list of (offset, sizes, "
      "strides): one pattern per group of tiles, in iteration order "
      "(iron_tiler2d)." },
    { NULL, NULL, 0, NULL },
};

int pyiron_tap_init(PyObject *m)
{
    return PyModule_AddFunctions(m, methods);
}
