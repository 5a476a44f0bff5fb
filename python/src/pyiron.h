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
 *   args.c    converting Python arguments (ints, strings, dtypes, shapes)
 *             with TypeErrors that name the method and the argument
 *   device.c  devices: lookup, default, scoped devices
 *   tensor.c  Tensor: the library's tensor, buffer protocol and DLPack
 *   bf16.c    the bfloat16 numpy dtype
 *   design.c  Design: what a design function asks and builds
 *   objects.c the objects it builds (Fifo, Handle, Kernel, Worker ...)
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

/* --- args.c ------------------------------------------------------------- */
/* PyArg_ParseTupleAndKeywords with a const keyword list (it takes
 * char ** before Python 3.13). */
#define PYIRON_PARSE(args, kw, fmt, kws, ...)                                 \
    PyArg_ParseTupleAndKeywords(args, kw, fmt, (char **)(uintptr_t)(kws),     \
                                __VA_ARGS__)

/* Each converts o, argument `arg` of method `fn` ("Design.fifo"), and
 * returns 0, or -1 with an exception naming both and what was expected
 * vs got: TypeError for a wrong type, OverflowError for an integer out
 * of the C type's range. */
int pyiron_arg_i64(PyObject *o, const char *fn, const char *arg,
                   int64_t *out);
int pyiron_arg_int(PyObject *o, const char *fn, const char *arg, int *out);
int pyiron_arg_double(PyObject *o, const char *fn, const char *arg,
                      double *out);
/* A str as UTF-8, borrowed from o (valid as long as o); with `none_ok`,
 * None gives NULL. */
int pyiron_arg_str(PyObject *o, const char *fn, const char *arg,
                   int none_ok, const char **out);
/* A dtype name parsed by iron_dtype_parse ("int32", "i32", "bf16");
 * an unknown name raises the library's DtypeError. */
int pyiron_arg_dtype(PyObject *o, const char *fn, const char *arg,
                     iron_dtype *out);
/* A shape: an int or a sequence of 1 .. IRON_MAX_DIMS ints (ShapeError
 * for another count; the library checks the values). */
int pyiron_arg_shape(PyObject *o, const char *fn, const char *arg,
                     iron_shape *out);
/* A sequence of at most max ints into out[0 .. *n); ValueError naming the
 * argument for a longer one. */
int pyiron_arg_i64s(PyObject *o, const char *fn, const char *arg,
                    int64_t *out, int max, int *n);
/* The name of a dtype as a new str; a shape as a new tuple of ints. */
PyObject *pyiron_dtype_str(iron_dtype dt);
PyObject *pyiron_shape_tuple(iron_shape s);

/* --- design.c ------------------------------------------------------------ */
/* The Design a design function receives: valid while the function runs
 * (d is NULL after), on the thread that runs it. */
typedef struct pyiron_design {
    PyObject_HEAD
    iron_design *d;          /* NULL once the design function returned */
    unsigned long thread;    /* PyThread_get_thread_ident() of its thread */
    PyObject *jit_name;      /* str, for messages */
    PyObject *error;         /* the first failure's message, once raised */
} pyiron_design;

/* Objects a design function builds (Fifo, Handle, HandleArg, Kernel,
 * Rtp, Barrier, Worker, TaskGroup, Body): the library object, the Design
 * that owns it, and a few per-type fields. */
typedef struct pyiron_dobj {
    PyObject_HEAD
    pyiron_design *design;   /* strong reference */
    void *ptr;               /* the library object (owned by the design) */
    PyObject *name;          /* str or NULL */
    PyObject *ref;           /* Handle: its Fifo; HandleArg: its Handle;
                                Fifo: its producer Handle once asked for;
                                Body: its open regions' result counts */
    int64_t i;               /* Handle: is_producer; HandleArg: max
                                acquire; Rtp: count */
    int dtype;               /* Rtp: its dtype */
} pyiron_dobj;

extern PyTypeObject pyiron_design_type, pyiron_fifo_type,
    pyiron_handle_type, pyiron_handle_arg_type, pyiron_kernel_type,
    pyiron_rtp_type, pyiron_barrier_type, pyiron_worker_type,
    pyiron_task_group_type, pyiron_body_type;

/* A new Design for d, on the calling thread (which runs the design
 * function); pyiron_design_end marks it dead when the function returns. */
PyObject *pyiron_design_new(iron_design *d, const char *jit_name);
void pyiron_design_end(PyObject *design);
/* The library design, or NULL with StateError when the design function
 * has returned or this is another thread; `what` names the use
 * ("Fifo.prod"). */
iron_design *pyiron_design_live(pyiron_design *dz, const char *what);
/* After a builder call: 0 while the design has no failure, else -1 with
 * the status's exception and the library's message (a design that failed
 * at an earlier call raises that first failure again). */
int pyiron_design_check(pyiron_design *dz);
/* A new object of `type` owned by dz over ptr (a NULL ptr: the
 * design's failure is raised instead). */
PyObject *pyiron_dobj_new(PyTypeObject *type, pyiron_design *dz, void *ptr,
                          PyObject *name);
/* The library object of o, argument `arg` of method `fn`, which must be
 * of `type` and belong to dz: TypeError naming both and the type
 * expected vs got; StateError for an object of a design whose function
 * returned; InvalidArgumentError for one of another design. */
void *pyiron_dobj_get(PyObject *o, PyTypeObject *type, pyiron_design *dz,
                      const char *fn, const char *arg);

/* objects.c: the types above but Design and Body (called by
 * pyiron_design_init), and the slots every pyiron_dobj type shares
 * (dealloc, GC, repr), for body.c's type. */
int pyiron_objects_init(PyObject *m);
void pyiron_dobj_slots(PyTypeObject *t);

/* --- body.c, jit.c, tap.c ------------------------------------------------ */
int pyiron_design_init(PyObject *m);
int pyiron_body_init(PyObject *m);
int pyiron_jit_init(PyObject *m);
int pyiron_tap_init(PyObject *m);

#endif /* PYIRON_H */
