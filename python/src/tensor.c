/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* tensor.c - placeholder until this part of the binding lands. */
#include "pyiron.h"

PyTypeObject pyiron_tensor_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "iron._iron.Tensor",
    .tp_basicsize = sizeof(pyiron_tensor),
};

iron_tensor *pyiron_tensor_get(PyObject *o, const char *what)
{
    (void)o;
    PyErr_Format(PyExc_TypeError, "%s: tensors are not bound yet", what);
    return NULL;
}

int pyiron_tensor_init(PyObject *m)
{
    (void)m;
    return 0;
}
