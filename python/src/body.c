/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* body.c - placeholder until this part of the binding lands. */
#include "pyiron.h"

int pyiron_body_init(PyObject *m)
{
    (void)m;
    return 0;
}
