/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* design.c - placeholder until this part of the binding lands. */
#include "pyiron.h"

int pyiron_design_init(PyObject *m)
{
    (void)m;
    return 0;
}
