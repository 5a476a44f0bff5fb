/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * numpy_api.h - numpy's C API for the files of the binding that use it
 * (bf16.c, tensor.c).  numpy hands its API out as a table of pointers
 * that one file imports (bf16.c, the one defining PYIRON_NUMPY_IMPORT,
 * at module init) and the others share under a common name.
 */
#ifndef PYIRON_NUMPY_API_H
#define PYIRON_NUMPY_API_H

#include "pyiron.h"

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL pyiron_ARRAY_API
#define PY_UFUNC_UNIQUE_SYMBOL pyiron_UFUNC_API
#ifndef PYIRON_NUMPY_IMPORT
#define NO_IMPORT_ARRAY
#define NO_IMPORT_UFUNC
#endif
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

/* --- bf16.c -------------------------------------------------------------- */
/* The bfloat16 dtype (borrowed; registered by pyiron_bf16_init) and its
 * type number. */
PyArray_Descr *pyiron_bf16_descr(void);
int pyiron_bf16_typenum(void);

#endif /* PYIRON_NUMPY_API_H */
