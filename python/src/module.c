/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * module.c - the module `iron._iron`: runs each file's init in order
 * (errors first: every other part raises them).
 */
#include "pyiron.h"

static int (*const parts[])(PyObject *m) = {
    pyiron_errors_init, pyiron_device_init, pyiron_tensor_init,
    pyiron_bf16_init,   pyiron_design_init, pyiron_body_init,
    pyiron_jit_init,    pyiron_tap_init,
};

static PyObject *version(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    return PyUnicode_FromString(iron_version());
}

static PyMethodDef methods[] = {
    { "version", version, METH_NOARGS,
      "version() -> str: the library's version, \"MAJOR.MINOR.PATCH\"." },
    { NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "iron._iron",
    "The binding of the iron C library (python/src).  Use the `iron` "
    "package; this module is its private layer.",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__iron(void);
PyMODINIT_FUNC PyInit__iron(void)
{
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (parts[i](m) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    return m;
}
