/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * pyiron.h - the CPython binding's shared declarations (python/src).
 *
 * The binding, the module `iron._iron`, is a thin layer over the public C
 * API (include/iron/iron.h): every semantic decision -- verification,
 * placement, caching, emulation -- stays in the library, and each object
 * here holds one library object.  The Python package `iron` (python/iron)
 * builds IRON's classes on top of it.
 *
 * One file per kind of object, each with its init function, called in
 * the order of the table in module.c:
 *   errors.c  the exception classes, one per iron_status
 *   device.c  devices: lookup, default, scoped devices
 *   tensor.c  Tensor: the library's tensor, buffer protocol and DLPack
 *   bf16.c    the bfloat16 numpy dtype
 *   design.c  Design and the objects a design function builds
 *   body.c    Body: the core-body IR builder
 *   jit.c     Jit, Spec: jit objects, calls, artifacts, export
 *   tap.c     access patterns and the 2-D tiler
 */
#ifndef PYIRON_H
#define PYIRON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <iron/iron.h>

/* --- errors.c ------------------------------------------------------------ */
/* The exception class raised for status s (iron.Error for IRON_OK and
 * values outside the table). */
PyObject *pyiron_exception(iron_status s);
/* Raises the exception for s with the library's message for the last
 * failed call on this thread (iron_last_error(), else the status's
 * description); returns NULL so that callers can `return pyiron_raise(s)`. */
PyObject *pyiron_raise(iron_status s);
/* Raises the exception for s with a message of the binding's own. */
PyObject *pyiron_raise_msg(iron_status s, const char *fmt, ...);
int pyiron_errors_init(PyObject *m);

/* --- device.c ------------------------------------------------------------ */
/* A filled iron_device_info as the dict device_info() returns (name,
 * arch, ..., and compute/memtile/shim as dicts of the C field names), so
 * that every place giving device resources gives the same dict. */
PyObject *pyiron_device_info_dict(const iron_device_info *info);
int pyiron_device_init(PyObject *m);

/* --- tensor.c ------------------------------------------------------------ */
typedef struct pyiron_tensor {
    PyObject_HEAD
    iron_tensor *t;     /* owned; never NULL once constructed */
    PyObject *base;     /* the object whose memory t wraps, or NULL */
    Py_ssize_t exports; /* live buffer-protocol views */
    int readonly;       /* wraps read-only memory (Tensor.wrap(...,
                           writable=False)): an input only */
    PyObject *weakrefs; /* weakref support */
} pyiron_tensor;

extern PyTypeObject pyiron_tensor_type;

/* The library tensor of o, an iron._iron.Tensor (or a subclass); NULL
 * with a TypeError naming `what` (e.g. "argument 2 ('b')") otherwise. */
iron_tensor *pyiron_tensor_get(PyObject *o, const char *what);
int pyiron_tensor_init(PyObject *m);

/* --- bf16.c -------------------------------------------------------------- */
int pyiron_bf16_init(PyObject *m);

/* --- design.c, body.c, jit.c, tap.c -------------------------------------- */
int pyiron_design_init(PyObject *m);
int pyiron_body_init(PyObject *m);
int pyiron_jit_init(PyObject *m);
int pyiron_tap_init(PyObject *m);

#endif /* PYIRON_H */
