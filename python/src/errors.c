/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * errors.c - one exception class per library status, all subclassing
 * iron.Error, each carrying the library's message.
 *
 * Each class also subclasses the builtin exception a Python user would
 * catch for that kind of failure (a bad shape is a ValueError, an
 * unsupported feature a NotImplementedError), so that code written
 * against plain Python keeps working.  The table below is the one place
 * the names are written; docs/python.md lists them and
 * python/tests/test_errors.py holds the two to each other.
 */
#include <stdarg.h>

#include "pyiron.h"

struct error_class {
    iron_status status;
    const char *name;       /* the class name in iron._iron and iron */
    PyObject **builtin;     /* the builtin it also subclasses, or NULL */
};

static const struct error_class classes[] = {
    { IRON_EINVAL, "InvalidArgumentError", &PyExc_ValueError },
    { IRON_ENOMEM, "OutOfMemoryError", &PyExc_MemoryError },
    { IRON_EDTYPE, "DtypeError", &PyExc_TypeError },
    { IRON_ESHAPE, "ShapeError", &PyExc_ValueError },
    { IRON_EDEVICE, "DeviceError", NULL },
    { IRON_EPARAM, "ParamError", &PyExc_ValueError },
    { IRON_EARG, "ArgumentError", &PyExc_TypeError },
    { IRON_EDESIGN, "DesignError", NULL },
    { IRON_EBOUNDS, "BoundsError", &PyExc_IndexError },
    { IRON_ERESOURCE, "ResourceError", NULL },
    { IRON_ECOMPILE, "CompileError", NULL },
    { IRON_ELOAD, "LoadError", &PyExc_ImportError },
    { IRON_EDEADLOCK, "DeadlockError", NULL },
    { IRON_ETIMEOUT, "RunTimeoutError", &PyExc_TimeoutError },
    { IRON_ERUNTIME, "DeviceRuntimeError", &PyExc_RuntimeError },
    { IRON_EIO, "IOFailure", &PyExc_OSError },
    { IRON_ESTATE, "StateError", &PyExc_RuntimeError },
    { IRON_ENOTSUP, "NotSupportedError", &PyExc_NotImplementedError },
    { IRON_EKERNEL, "KernelFaultError", NULL },
    { IRON_EPENDING, "PendingError", NULL },
    { IRON_ESYNTAX, "MLIRSyntaxError", &PyExc_SyntaxError },
};

static PyObject *base_error;
static PyObject *by_status[IRON_STATUS_COUNT_];

PyObject *pyiron_exception(iron_status s)
{
    if ((unsigned)s < IRON_STATUS_COUNT_ && by_status[s])
        return by_status[s];
    return base_error;
}

/* Sets the exception with .status (the number) and .status_name
 * ("IRON_EINVAL") beside the message. */
static PyObject *raise_text(iron_status s, const char *text)
{
    PyObject *cls = pyiron_exception(s);
    PyObject *exc = PyObject_CallFunction(cls, "s", text);
    if (!exc)
        return NULL;
    PyObject *code = PyLong_FromLong((long)s);
    PyObject *name = PyUnicode_FromString(iron_status_name(s));
    if (code && name && PyObject_SetAttrString(exc, "status", code) == 0 &&
        PyObject_SetAttrString(exc, "status_name", name) == 0)
        PyErr_SetObject(cls, exc);
    Py_XDECREF(code);
    Py_XDECREF(name);
    Py_DECREF(exc);
    return NULL;
}

PyObject *pyiron_raise(iron_status s)
{
    const char *msg = iron_last_error();
    return raise_text(s, msg && *msg ? msg : iron_status_message(s));
}

PyObject *pyiron_raise_msg(iron_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    PyObject *text = PyUnicode_FromFormatV(fmt, ap);
    va_end(ap);
    if (!text)
        return NULL;
    const char *utf8 = PyUnicode_AsUTF8(text);
    if (utf8)
        raise_text(s, utf8);
    Py_DECREF(text);
    return NULL;
}

int pyiron_errors_init(PyObject *m)
{
    base_error = PyErr_NewExceptionWithDoc(
        "iron._iron.Error",
        "Every failure the iron library reports.  .status is the library's "
        "status number, .status_name its name (\"IRON_EINVAL\"); the "
        "message is the library's.",
        NULL, NULL);
    if (!base_error || PyModule_AddObjectRef(m, "Error", base_error) < 0)
        return -1;
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        const struct error_class *c = &classes[i];
        char qualified[96];
        PyOS_snprintf(qualified, sizeof qualified, "iron._iron.%s", c->name);
        PyObject *bases = c->builtin
                              ? PyTuple_Pack(2, base_error, *c->builtin)
                              : PyTuple_Pack(1, base_error);
        if (!bases)
            return -1;
        /* .status and .status_name as class attributes too, so that an
         * exception the Python layer raises itself carries them. */
        PyObject *dict = Py_BuildValue("{s:i,s:s}", "status", (int)c->status,
                                       "status_name",
                                       iron_status_name(c->status));
        if (!dict) {
            Py_DECREF(bases);
            return -1;
        }
        PyObject *cls = PyErr_NewExceptionWithDoc(
            qualified, iron_status_message(c->status), bases, dict);
        Py_DECREF(bases);
        Py_DECREF(dict);
        if (!cls || PyModule_AddObjectRef(m, c->name, cls) < 0) {
            Py_XDECREF(cls);
            return -1;
        }
        by_status[c->status] = cls;   /* the module keeps the reference */
        Py_DECREF(cls);
    }
    return 0;
}
