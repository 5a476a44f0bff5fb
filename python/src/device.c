/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * device.c - the module functions over the library's devices: the list,
 * each one's resources as a dict, the process default and the scoped
 * devices of the calling thread (iron_device_push/pop).
 */
#include "pyiron.h"

/* One tile kind's resources as a dict (the C field names). */
static PyObject *tile_dict(const iron_tile_info *t)
{
    return Py_BuildValue("{s:k,s:k,s:i,s:i,s:i,s:i}",
                         "memory_bytes", (unsigned long)t->memory_bytes,
                         "stack_bytes", (unsigned long)t->stack_bytes,
                         "locks", t->locks,
                         "buffer_descriptors", t->buffer_descriptors,
                         "dma_in", t->dma_in, "dma_out", t->dma_out);
}

PyObject *pyiron_device_info_dict(const iron_device_info *info)
{
    PyObject *compute = tile_dict(&info->compute);
    PyObject *memtile = tile_dict(&info->memtile);
    PyObject *shim = tile_dict(&info->shim);
    PyObject *d = NULL;
    if (compute && memtile && shim)
        d = Py_BuildValue(
            "{s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:O,s:O,s:O}",
            "name", info->name, "arch", info->arch, "family", info->family,
            "driver", info->driver, "columns", info->columns,
            "rows", info->rows, "compute_rows", info->compute_rows,
            "compute_tiles", info->compute_tiles,
            "lock_max_value", info->lock_max_value, "compute", compute,
            "memtile", memtile, "shim", shim);
    Py_XDECREF(compute);
    Py_XDECREF(memtile);
    Py_XDECREF(shim);
    return d;
}

/* The UTF-8 text of a str argument; NULL with a TypeError naming it. */
static const char *str_arg(PyObject *o, const char *fn, const char *what)
{
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s(): %s must be a str, not %.100s",
                     fn, what, Py_TYPE(o)->tp_name);
        return NULL;
    }
    return PyUnicode_AsUTF8(o);
}

static PyObject *device_names(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    int n = iron_device_count();
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *name =
            PyUnicode_FromString(iron_device_name(iron_device_at(i)));
        if (!name) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, name);
    }
    return list;
}

static PyObject *device_info(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *name = str_arg(arg, "device_info", "name");
    if (!name)
        return NULL;
    iron_device *dev;
    iron_status s = iron_device_get(name, &dev);
    if (s != IRON_OK)
        return pyiron_raise(s);
    iron_device_info info = { .size = sizeof info };
    if ((s = iron_device_get_info(dev, &info)) != IRON_OK)
        return pyiron_raise(s);
    return pyiron_device_info_dict(&info);
}

static PyObject *set_default_device(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *name = NULL;
    if (arg != Py_None && !(name = str_arg(arg, "set_default_device",
                                           "name (a str or None)")))
        return NULL;
    iron_status s = iron_device_set_default(name);
    if (s != IRON_OK)
        return pyiron_raise(s);
    Py_RETURN_NONE;
}

/* None when $IRON_DEVICE names an unknown device (the library's NULL):
 * current_device() says why. */
static PyObject *default_device(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    iron_device *dev = iron_device_default();
    if (!dev)
        Py_RETURN_NONE;
    return PyUnicode_FromString(iron_device_name(dev));
}

/* push always pushes (the library marks a bad name's scope bad), so a
 * failed push_device still wants its pop_device. */
static PyObject *push_device(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *name = str_arg(arg, "push_device", "name");
    if (!name)
        return NULL;
    iron_status s = iron_device_push(name);
    if (s != IRON_OK)
        return pyiron_raise(s);
    Py_RETURN_NONE;
}

static PyObject *pop_device(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    iron_status s = iron_device_pop();
    if (s != IRON_OK)
        return pyiron_raise(s);
    Py_RETURN_NONE;
}

static PyObject *current_device(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    iron_device *dev;
    iron_status s = iron_device_get_current(&dev);
    if (s != IRON_OK)
        return pyiron_raise(s);
    return PyUnicode_FromString(iron_device_name(dev));
}

static PyMethodDef methods[] = {
    { "device_names", device_names, METH_NOARGS,
      "device_names() -> list[str]: every device the library knows, in "
      "its order (\"npu1\", \"npu1_1col\", ...)." },
    { "device_info", device_info, METH_O,
      "device_info(name) -> dict: the device's resources: name, arch, "
      "family, driver, columns, rows, compute_rows, compute_tiles, "
      "lock_max_value, and per tile kind (compute, memtile, shim) a dict of "
      "memory_bytes, stack_bytes, locks, buffer_descriptors, dma_in, "
      "dma_out.  DeviceError for an unknown name." },
    { "set_default_device", set_default_device, METH_O,
      "set_default_device(name or None): the process-wide default device; "
      "None clears it (then $IRON_DEVICE, else npu2).  DeviceError for an "
      "unknown name, the default then unchanged." },
    { "default_device", default_device, METH_NOARGS,
      "default_device() -> str or None: the default device, scopes aside; "
      "None when $IRON_DEVICE names an unknown device." },
    { "push_device", push_device, METH_O,
      "push_device(name): a device scope for the calling thread.  It "
      "always pushes, so pair it with pop_device() even when it raises "
      "(DeviceError: the scope is then bad and calls inside it fail)." },
    { "pop_device", pop_device, METH_NOARGS,
      "pop_device(): ends the innermost scope of push_device().  "
      "StateError without one." },
    { "current_device", current_device, METH_NOARGS,
      "current_device() -> str: the device calls on this thread use (the "
      "innermost scope, else the default).  DeviceError when the scope is "
      "bad or $IRON_DEVICE is unknown." },
    { NULL, NULL, 0, NULL },
};

int pyiron_device_init(PyObject *m)
{
    return PyModule_AddFunctions(m, methods);
}
