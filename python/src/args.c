/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * args.c - converting Python arguments to the C API's types, with
 * errors that name the method and the argument and say what was
 * expected and what came (Python's own conversions name neither).
 */
#include "pyiron.h"

static int wrong_type(PyObject *o, const char *fn, const char *arg,
                      const char *want)
{
    PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be %s, not %.100s",
                 fn, arg, want, Py_TYPE(o)->tp_name);
    return -1;
}

int pyiron_arg_i64(PyObject *o, const char *fn, const char *arg,
                   int64_t *out)
{
    /* __index__ takes numpy's integers too, but never floats. */
    if (!PyIndex_Check(o))
        return wrong_type(o, fn, arg, "int");
    PyObject *n = PyNumber_Index(o);
    if (!n)
        return -1;
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(n, &overflow);
    Py_DECREF(n);
    if (overflow) {
        PyErr_Format(PyExc_OverflowError,
                     "%s(): argument '%s' does not fit 64 bits", fn, arg);
        return -1;
    }
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = (int64_t)v;
    return 0;
}

int pyiron_arg_int(PyObject *o, const char *fn, const char *arg, int *out)
{
    int64_t v;
    if (pyiron_arg_i64(o, fn, arg, &v) < 0)
        return -1;
    if (v < INT32_MIN || v > INT32_MAX) {
        PyErr_Format(PyExc_OverflowError,
                     "%s(): argument '%s' is %lld, outside a C int's range",
                     fn, arg, (long long)v);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int pyiron_arg_double(PyObject *o, const char *fn, const char *arg,
                      double *out)
{
    if (!PyFloat_Check(o) && !PyIndex_Check(o) &&
        !PyObject_HasAttrString(o, "__float__"))
        return wrong_type(o, fn, arg, "float");
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

int pyiron_arg_str(PyObject *o, const char *fn, const char *arg,
                   int none_ok, const char **out)
{
    if (none_ok && o == Py_None) {
        *out = NULL;
        return 0;
    }
    if (!PyUnicode_Check(o))
        return wrong_type(o, fn, arg, none_ok ? "str or None" : "str");
    *out = PyUnicode_AsUTF8(o);
    return *out ? 0 : -1;
}

int pyiron_arg_dtype(PyObject *o, const char *fn, const char *arg,
                     iron_dtype *out)
{
    const char *name;
    if (!PyUnicode_Check(o))
        return wrong_type(o, fn, arg, "a dtype name (str, e.g. \"int32\")");
    if (pyiron_arg_str(o, fn, arg, 0, &name) < 0)
        return -1;
    iron_status s = iron_dtype_parse(name, out);
    if (s != IRON_OK) {
        pyiron_raise_msg(s, "%s(): argument '%s': %s", fn, arg,
                         iron_last_error());
        return -1;
    }
    return 0;
}

int pyiron_arg_i64s(PyObject *o, const char *fn, const char *arg,
                    int64_t *out, int max, int *n)
{
    if (!PySequence_Check(o) || PyUnicode_Check(o) || PyBytes_Check(o))
        return wrong_type(o, fn, arg, "a sequence of ints");
    Py_ssize_t len = PySequence_Size(o);
    if (len < 0)
        return -1;
    if (len > max) {
        PyErr_Format(PyExc_ValueError,
                     "%s(): argument '%s' has %zd items, at most %d are "
                     "accepted",
                     fn, arg, len, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = PySequence_GetItem(o, i);
        if (!item)
            return -1;
        char what[96];
        PyOS_snprintf(what, sizeof what, "%s[%zd]", arg, i);
        int bad = pyiron_arg_i64(item, fn, what, &out[i]);
        Py_DECREF(item);
        if (bad)
            return -1;
    }
    *n = (int)len;
    return 0;
}

int pyiron_arg_shape(PyObject *o, const char *fn, const char *arg,
                     iron_shape *out)
{
    memset(out, 0, sizeof *out);
    if (PyIndex_Check(o)) {
        out->ndim = 1;
        return pyiron_arg_i64(o, fn, arg, &out->dims[0]);
    }
    if (!PySequence_Check(o) || PyUnicode_Check(o) || PyBytes_Check(o))
        return wrong_type(o, fn, arg, "a shape (a tuple of ints)");
    Py_ssize_t len = PySequence_Size(o);
    if (len < 0)
        return -1;
    if (len < 1 || len > IRON_MAX_DIMS) {
        pyiron_raise_msg(IRON_ESHAPE,
                         "%s(): argument '%s' has %zd dimensions, expected "
                         "1 to %d",
                         fn, arg, len, IRON_MAX_DIMS);
        return -1;
    }
    return pyiron_arg_i64s(o, fn, arg, out->dims, IRON_MAX_DIMS,
                           &out->ndim);
}

PyObject *pyiron_dtype_str(iron_dtype dt)
{
    const char *name = iron_dtype_name(dt);
    return PyUnicode_FromString(name ? name : "?");
}

PyObject *pyiron_shape_tuple(iron_shape s)
{
    PyObject *t = PyTuple_New(s.ndim > 0 ? s.ndim : 0);
    for (int i = 0; t && i < s.ndim; i++) {
        PyObject *v = PyLong_FromLongLong((long long)s.dims[i]);
        if (!v) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}
