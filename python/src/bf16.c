/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * bf16.c - bfloat16 as a numpy dtype: the scalar type iron._iron.bfloat16,
 * the dtype numpy knows it by (np.dtype("bfloat16"), kind 'V', itemsize
 * 2: what ml_dtypes.bfloat16 is to programs written for upstream IRON),
 * casts to and from numpy's numbers, and ufunc loops.
 *
 * Every conversion to bfloat16 is the library's: iron_bf16_from_float
 * from float32, iron_bf16_from_double (one rounding) from everything
 * else, so that an array made here holds the bits a library tensor of
 * the same values holds.  Arithmetic is done in float32 and rounded, as
 * the library's core bodies do.  Conversions to integers truncate toward
 * zero and saturate, NaN giving 0, as the library stores doubles into
 * integer tensors (iron_tensor_full).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PYIRON_NUMPY_IMPORT
#include "numpy_api.h"

#include <numpy/arrayscalars.h>
#include <numpy/halffloat.h>

typedef struct bf16_scalar {
    PyObject_HEAD
    iron_bf16 bits;
} bf16_scalar;

static PyTypeObject bf16_type;
static PyArray_ArrFuncs bf16_funcs;
static PyArray_Descr bf16_descr;
static int bf16_num = -1;

PyArray_Descr *pyiron_bf16_descr(void)
{
    return &bf16_descr;
}

int pyiron_bf16_typenum(void)
{
    return bf16_num;
}

static float f32(iron_bf16 b)
{
    return iron_bf16_to_float(b);
}

static iron_bf16 load(const void *p)
{
    iron_bf16 b;
    memcpy(&b, p, sizeof b);
    return b;
}

static void store(void *p, iron_bf16 b)
{
    memcpy(p, &b, sizeof b);
}

static iron_bf16 swapped(iron_bf16 b)
{
    return (iron_bf16)((b >> 8) | (b << 8));
}

/* ------------------------------------------------------------------------
 * The scalar type
 * ------------------------------------------------------------------------ */

static PyObject *scalar_new(iron_bf16 bits)
{
    bf16_scalar *s = (bf16_scalar *)bf16_type.tp_alloc(&bf16_type, 0);
    if (s)
        s->bits = bits;
    return (PyObject *)s;
}

/* A plain number: a bfloat16, or Python's bool, int or float.  1 with
 * *out set; 0 for anything else (no error set); -1 with an error (an
 * int too large for a double). */
static int plain_number(PyObject *o, iron_bf16 *out)
{
    if (PyObject_TypeCheck(o, &bf16_type)) {
        *out = ((bf16_scalar *)o)->bits;
        return 1;
    }
    if (PyFloat_Check(o)) {
        *out = iron_bf16_from_double(PyFloat_AS_DOUBLE(o));
        return 1;
    }
    if (PyLong_Check(o)) {
        double d = PyLong_AsDouble(o);
        if (d == -1.0 && PyErr_Occurred())
            return -1;
        *out = iron_bf16_from_double(d);
        return 1;
    }
    return 0;
}

/* Any real number: the plain ones, numpy's scalars (float32 exactly as
 * iron_bf16_from_float rounds it), and whatever has __float__. */
static int any_number(PyObject *o, iron_bf16 *out)
{
    int k = plain_number(o, out);
    if (k)
        return k;
    if (PyArray_IsScalar(o, Float)) {
        *out = iron_bf16_from_float(PyArrayScalar_VAL(o, Float));
        return 1;
    }
    if (PyArray_IsScalar(o, ComplexFloating) || PyComplex_Check(o) ||
        !PyNumber_Check(o) || PyArray_Check(o))
        return 0;
    PyObject *f = PyNumber_Float(o);
    if (!f) {
        PyErr_Clear();
        return 0;
    }
    *out = iron_bf16_from_double(PyFloat_AS_DOUBLE(f));
    Py_DECREF(f);
    return 1;
}

static PyObject *scalar_tp_new(PyTypeObject *type, PyObject *args,
                               PyObject *kwds)
{
    (void)type;
    PyObject *x = NULL;
    static char kw_value[] = "value";
    static char *kwlist[] = { kw_value, NULL };
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:bfloat16", kwlist, &x))
        return NULL;
    if (!x)
        return scalar_new(0);
    if (PyArray_Check(x)) {
        Py_INCREF(&bf16_descr);
        return PyArray_CastToType((PyArrayObject *)x, &bf16_descr, 0);
    }
    if (PyUnicode_Check(x) || PyBytes_Check(x)) {
        PyObject *f = PyFloat_FromString(x);
        if (!f)
            return NULL;
        PyObject *s = scalar_new(iron_bf16_from_double(PyFloat_AS_DOUBLE(f)));
        Py_DECREF(f);
        return s;
    }
    iron_bf16 b;
    int k = any_number(x, &b);
    if (k < 0)
        return NULL;
    if (k == 0)
        return PyErr_Format(PyExc_TypeError,
                            "bfloat16(): expected a real number, a str or "
                            "an ndarray, got %.100s", Py_TYPE(x)->tp_name);
    return scalar_new(b);
}

/* The fewest significant digits that read back as the same bfloat16
 * (the library's rule for printing bfloat16 tensors: 0.1 is "0.1", not
 * 0.10009765625), laid out as %g lays out six digits -- what ml_dtypes
 * prints: 2 is "2", 1e10 is "1e+10", 0.0001 is "0.0001". */
static PyObject *scalar_repr(PyObject *o)
{
    iron_bf16 b = ((bf16_scalar *)o)->bits;
    float f = f32(b);
    if (isnan(f))
        return PyUnicode_FromString("nan");
    if (isinf(f))
        return PyUnicode_FromString(f < 0 ? "-inf" : "inf");
    char buf[64];
    int p = 1;
    for (; p < 9; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, (double)f);
        if (iron_bf16_from_double(strtod(buf, NULL)) == b)
            break;
    }
    snprintf(buf, sizeof buf, "%.*e", p - 1, (double)f);
    int exp10 = atoi(strchr(buf, 'e') + 1);
    if (exp10 >= -4 && exp10 < 6)
        snprintf(buf, sizeof buf, "%.*f", p - 1 - exp10 > 0 ? p - 1 - exp10 : 0,
                 (double)f);
    return PyUnicode_FromString(buf);
}

static Py_hash_t scalar_hash(PyObject *o)
{
    PyObject *f = PyFloat_FromDouble(f32(((bf16_scalar *)o)->bits));
    if (!f)
        return -1;
    Py_hash_t h = PyObject_Hash(f);
    Py_DECREF(f);
    return h;
}

static PyObject *scalar_richcompare(PyObject *a, PyObject *b, int op)
{
    iron_bf16 x, y;
    int ka = plain_number(a, &x), kb = ka > 0 ? plain_number(b, &y) : 0;
    if (ka < 0 || kb < 0)
        return NULL;
    if (!ka || !kb)   /* numpy's scalars and arrays: numpy's comparison */
        return PyGenericArrType_Type.tp_richcompare(a, b, op);
    float fx = f32(x), fy = f32(y);
    int r = 0;
    switch (op) {
    case Py_LT: r = isless(fx, fy); break;
    case Py_LE: r = islessequal(fx, fy); break;
    case Py_EQ: r = fx == fy; break;
    case Py_NE: r = fx != fy; break;
    case Py_GT: r = isgreater(fx, fy); break;
    case Py_GE: r = isgreaterequal(fx, fy); break;
    default: Py_RETURN_NOTIMPLEMENTED;
    }
    return PyBool_FromLong(r);
}

/* Arithmetic of a bfloat16 with a bfloat16 or a Python number gives a
 * bfloat16 (computed in float32, rounded); with numpy's scalars or
 * arrays it is numpy's (the ufuncs below, numpy's promotion). */
enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV };

static PyObject *scalar_binop(PyObject *a, PyObject *b, int op,
                              binaryfunc numpy_op)
{
    iron_bf16 x, y;
    int ka = plain_number(a, &x), kb = ka > 0 ? plain_number(b, &y) : 0;
    if (ka < 0 || kb < 0)
        return NULL;
    if (!ka || !kb)
        return numpy_op(a, b);
    float fx = f32(x), fy = f32(y), r = 0;
    switch (op) {
    case OP_ADD: r = fx + fy; break;
    case OP_SUB: r = fx - fy; break;
    case OP_MUL: r = fx * fy; break;
    case OP_DIV: r = fx / fy; break;
    }
    return scalar_new(iron_bf16_from_float(r));
}

#define SCALAR_BINOP(name, op, slot)                                          \
    static PyObject *scalar_##name(PyObject *a, PyObject *b)                  \
    {                                                                         \
        return scalar_binop(a, b, op,                                         \
                            PyGenericArrType_Type.tp_as_number->slot);        \
    }
SCALAR_BINOP(add, OP_ADD, nb_add)
SCALAR_BINOP(sub, OP_SUB, nb_subtract)
SCALAR_BINOP(mul, OP_MUL, nb_multiply)
SCALAR_BINOP(div, OP_DIV, nb_true_divide)

static PyObject *scalar_neg(PyObject *a)
{
    return scalar_new((iron_bf16)(((bf16_scalar *)a)->bits ^ 0x8000u));
}

static PyObject *scalar_pos(PyObject *a)
{
    Py_INCREF(a);
    return a;
}

static PyObject *scalar_abs(PyObject *a)
{
    return scalar_new((iron_bf16)(((bf16_scalar *)a)->bits & 0x7FFFu));
}

static int scalar_bool(PyObject *a)
{
    return f32(((bf16_scalar *)a)->bits) != 0.0f;
}

static PyObject *scalar_float(PyObject *a)
{
    return PyFloat_FromDouble(f32(((bf16_scalar *)a)->bits));
}

/* As int(float): ValueError for NaN, OverflowError for infinities. */
static PyObject *scalar_int(PyObject *a)
{
    PyObject *f = scalar_float(a);
    if (!f)
        return NULL;
    PyObject *i = PyNumber_Long(f);
    Py_DECREF(f);
    return i;
}

static PyNumberMethods scalar_number = {
    .nb_add = scalar_add,
    .nb_subtract = scalar_sub,
    .nb_multiply = scalar_mul,
    .nb_true_divide = scalar_div,
    .nb_negative = scalar_neg,
    .nb_positive = scalar_pos,
    .nb_absolute = scalar_abs,
    .nb_bool = scalar_bool,
    .nb_float = scalar_float,
    .nb_int = scalar_int,
};

static PyTypeObject bf16_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "iron._iron.bfloat16",
    .tp_basicsize = sizeof(bf16_scalar),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "bfloat16(value=0): a bfloat16 number (the upper 16 bits of a "
              "float32), numpy's dtype \"bfloat16\" as ml_dtypes.bfloat16 "
              "is: np.zeros(4, dtype=bfloat16), a.astype(np.float32).  "
              "Conversions round to nearest even as the iron library does.",
    .tp_new = scalar_tp_new,
    .tp_repr = scalar_repr,
    .tp_str = scalar_repr,
    .tp_hash = scalar_hash,
    .tp_richcompare = scalar_richcompare,
    .tp_as_number = &scalar_number,
};

/* ------------------------------------------------------------------------
 * The dtype's element functions
 * ------------------------------------------------------------------------ */

static int arr_swapped(void *arr)
{
    return arr && !PyArray_ISNOTSWAPPED((PyArrayObject *)arr);
}

static PyObject *bf16_getitem(void *data, void *arr)
{
    iron_bf16 b = load(data);
    return scalar_new(arr_swapped(arr) ? swapped(b) : b);
}

static int bf16_setitem(PyObject *item, void *data, void *arr)
{
    iron_bf16 b;
    int k = any_number(item, &b);
    if (k < 0)
        return -1;
    if (k == 0) {
        PyErr_Format(PyExc_TypeError,
                     "a bfloat16 element takes a real number, not %.100s",
                     Py_TYPE(item)->tp_name);
        return -1;
    }
    store(data, arr_swapped(arr) ? swapped(b) : b);
    return 0;
}

static void bf16_copyswapn(void *dst, npy_intp dstride, void *src,
                           npy_intp sstride, npy_intp n, int swap, void *arr)
{
    (void)arr;
    if (!src)
        return;
    char *d = dst;
    const char *s = src;
    for (npy_intp i = 0; i < n; i++, d += dstride, s += sstride) {
        iron_bf16 b = load(s);
        store(d, swap ? swapped(b) : b);
    }
}

static void bf16_copyswap(void *dst, void *src, int swap, void *arr)
{
    (void)arr;
    iron_bf16 b = load(src ? src : dst);
    store(dst, swap ? swapped(b) : b);
}

static npy_bool bf16_nonzero(void *data, void *arr)
{
    iron_bf16 b = load(data);
    return f32(arr_swapped(arr) ? swapped(b) : b) != 0.0f;
}

/* numpy's order for sorting: NaN after everything. */
static int bf16_compare(const void *a, const void *b, void *arr)
{
    (void)arr;
    float x = f32(load(a)), y = f32(load(b));
    if (isnan(x))
        return isnan(y) ? 0 : 1;
    if (isnan(y))
        return -1;
    return x < y ? -1 : x > y;
}

/* numpy's argmax and argmin: the first NaN wins, else the first extreme. */
static int bf16_argext(void *data, npy_intp n, npy_intp *out, int max)
{
    const char *p = data;
    *out = 0;
    if (n <= 0)
        return 0;
    float best = f32(load(p));
    if (isnan(best))
        return 0;
    for (npy_intp i = 1; i < n; i++) {
        float v = f32(load(p + 2 * i));
        if (isnan(v)) {
            *out = i;
            return 0;
        }
        if (max ? v > best : v < best) {
            best = v;
            *out = i;
        }
    }
    return 0;
}

static int bf16_argmax(void *data, npy_intp n, npy_intp *out, void *arr)
{
    (void)arr;
    return bf16_argext(data, n, out, 1);
}

static int bf16_argmin(void *data, npy_intp n, npy_intp *out, void *arr)
{
    (void)arr;
    return bf16_argext(data, n, out, 0);
}

/* np.arange's filler: elements 0 and 1 are set, the rest continue the
 * progression. */
static int bf16_fill(void *data, npy_intp n, void *arr)
{
    (void)arr;
    char *p = data;
    if (n < 2)
        return 0;
    float start = f32(load(p)), delta = f32(load(p + 2)) - start;
    for (npy_intp i = 2; i < n; i++)
        store(p + 2 * i, iron_bf16_from_float(start + (float)i * delta));
    return 0;
}

static int bf16_fillwithscalar(void *data, npy_intp n, void *value,
                               void *arr)
{
    (void)arr;
    iron_bf16 b = load(value);
    for (npy_intp i = 0; i < n; i++)
        store((char *)data + 2 * i, b);
    return 0;
}

/* np.dot: accumulated in float32, rounded once at the end. */
static void bf16_dot(void *a, npy_intp sa, void *b, npy_intp sb, void *out,
                     npy_intp n, void *arr)
{
    (void)arr;
    const char *x = a, *y = b;
    float acc = 0.0f;
    for (npy_intp i = 0; i < n; i++, x += sa, y += sb)
        acc += f32(load(x)) * f32(load(y));
    store(out, iron_bf16_from_float(acc));
}

/* ------------------------------------------------------------------------
 * Casts
 * ------------------------------------------------------------------------ */

/* From a number type of numpy's to bfloat16 and back.  float32 rounds
 * with iron_bf16_from_float; the others go through double, exact for
 * every integer up to 2^53 and every float64, then round once. */
#define CAST_PAIR(name, ctype, to_double, from_float)                         \
    static void name##_to_bf16(void *from, void *to, npy_intp n, void *fa,    \
                               void *ta)                                      \
    {                                                                         \
        (void)fa;                                                             \
        (void)ta;                                                             \
        const char *s = from;                                                 \
        char *d = to;                                                         \
        for (npy_intp i = 0; i < n; i++) {                                    \
            ctype v;                                                          \
            memcpy(&v, s + i * (npy_intp)sizeof v, sizeof v);                 \
            store(d + 2 * i, to_double);                                      \
        }                                                                     \
    }                                                                         \
    static void bf16_to_##name(void *from, void *to, npy_intp n, void *fa,    \
                               void *ta)                                      \
    {                                                                         \
        (void)fa;                                                             \
        (void)ta;                                                             \
        const char *s = from;                                                 \
        char *d = to;                                                         \
        for (npy_intp i = 0; i < n; i++) {                                    \
            float f = f32(load(s + 2 * i));                                   \
            ctype v = from_float;                                             \
            memcpy(d + i * (npy_intp)sizeof v, &v, sizeof v);                 \
        }                                                                     \
    }

/* Truncation toward zero, saturating, NaN to 0 (ISO C leaves the
 * out-of-range conversion undefined).  The bounds are exclusive: for
 * 64-bit types (double)MAX is already 2^63 or 2^64. */
#define SATURATE(ctype, lo, hi, f)                                            \
    (isnan(f) ? (ctype)0                                                      \
     : (double)(f) >= (double)(hi) + 1.0 ? (ctype)(hi)                        \
     : (double)(f) <= (double)(lo) - 1.0 ? (ctype)(lo)                        \
                                         : (ctype)(f))

#define INT_CASTS(name, ctype, lo, hi)                                        \
    CAST_PAIR(name, ctype, iron_bf16_from_double((double)v),                  \
              SATURATE(ctype, lo, hi, f))

CAST_PAIR(bool, npy_bool, (iron_bf16)(v ? 0x3F80u : 0u), (npy_bool)(f != 0))
INT_CASTS(byte, npy_byte, NPY_MIN_BYTE, NPY_MAX_BYTE)
INT_CASTS(ubyte, npy_ubyte, 0, NPY_MAX_UBYTE)
INT_CASTS(short, npy_short, NPY_MIN_SHORT, NPY_MAX_SHORT)
INT_CASTS(ushort, npy_ushort, 0, NPY_MAX_USHORT)
INT_CASTS(int, npy_int, NPY_MIN_INT, NPY_MAX_INT)
INT_CASTS(uint, npy_uint, 0, NPY_MAX_UINT)
INT_CASTS(long, npy_long, NPY_MIN_LONG, NPY_MAX_LONG)
INT_CASTS(ulong, npy_ulong, 0, NPY_MAX_ULONG)
INT_CASTS(longlong, npy_longlong, NPY_MIN_LONGLONG, NPY_MAX_LONGLONG)
INT_CASTS(ulonglong, npy_ulonglong, 0, NPY_MAX_ULONGLONG)
CAST_PAIR(half, npy_half, iron_bf16_from_float(npy_half_to_float(v)),
          npy_float_to_half(f))
CAST_PAIR(float, npy_float, iron_bf16_from_float(v), f)
CAST_PAIR(double, npy_double, iron_bf16_from_double(v), (npy_double)f)
CAST_PAIR(longdouble, npy_longdouble, iron_bf16_from_double((double)v),
          (npy_longdouble)f)

static const struct cast {
    int typenum;
    PyArray_VectorUnaryFunc *to_bf16, *from_bf16;
    int safe_to_bf16, safe_from_bf16;   /* no value changes */
} casts[] = {
#define CAST(num, name, to_safe, from_safe)                                   \
    { num, name##_to_bf16, bf16_to_##name, to_safe, from_safe }
    CAST(NPY_BOOL, bool, 1, 0),
    CAST(NPY_BYTE, byte, 1, 0),
    CAST(NPY_UBYTE, ubyte, 1, 0),
    CAST(NPY_SHORT, short, 0, 0),
    CAST(NPY_USHORT, ushort, 0, 0),
    CAST(NPY_INT, int, 0, 0),
    CAST(NPY_UINT, uint, 0, 0),
    CAST(NPY_LONG, long, 0, 0),
    CAST(NPY_ULONG, ulong, 0, 0),
    CAST(NPY_LONGLONG, longlong, 0, 0),
    CAST(NPY_ULONGLONG, ulonglong, 0, 0),
    CAST(NPY_HALF, half, 0, 0),
    CAST(NPY_FLOAT, float, 0, 1),
    CAST(NPY_DOUBLE, double, 0, 1),
    CAST(NPY_LONGDOUBLE, longdouble, 0, 1),
#undef CAST
};

static int register_casts(void)
{
    for (size_t i = 0; i < sizeof casts / sizeof casts[0]; i++) {
        const struct cast *c = &casts[i];
        PyArray_Descr *other = PyArray_DescrFromType(c->typenum);
        if (!other)
            return -1;
        int rc = PyArray_RegisterCastFunc(other, bf16_num, c->to_bf16);
        if (rc == 0)
            rc = PyArray_RegisterCastFunc(&bf16_descr, c->typenum,
                                          c->from_bf16);
        if (rc == 0 && c->safe_to_bf16)
            rc = PyArray_RegisterCanCast(other, bf16_num, NPY_NOSCALAR);
        if (rc == 0 && c->safe_from_bf16)
            rc = PyArray_RegisterCanCast(&bf16_descr, c->typenum,
                                         NPY_NOSCALAR);
        Py_DECREF(other);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * ufunc loops: each in float32, the result rounded to bfloat16
 * ------------------------------------------------------------------------ */

static float op_add(float x, float y) { return x + y; }
static float op_sub(float x, float y) { return x - y; }
static float op_mul(float x, float y) { return x * y; }
static float op_div(float x, float y) { return x / y; }
static float op_pow(float x, float y) { return powf(x, y); }
/* maximum and minimum propagate NaN, fmax and fmin ignore it (numpy). */
static float op_max(float x, float y)
{
    return isnan(x) || isnan(y) ? NAN : x > y ? x : y;
}
static float op_min(float x, float y)
{
    return isnan(x) || isnan(y) ? NAN : x < y ? x : y;
}
static float op_floordiv(float x, float y)
{
    return y == 0.0f ? x / y : floorf(x / y);
}

static float op_neg(float x) { return -x; }
static float op_pos(float x) { return x; }
static float op_square(float x) { return x * x; }
static float op_reciprocal(float x) { return 1.0f / x; }
static float op_sign(float x)
{
    return isnan(x) ? x : x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f;
}

static int op_isnan(float x) { return isnan(x) != 0; }
static int op_isinf(float x) { return isinf(x) != 0; }
static int op_isfinite(float x) { return isfinite(x) != 0; }
static int op_signbit(float x) { return signbit(x) != 0; }

/* The quiet comparisons: an ordered one with NaN would raise the
 * invalid flag, which numpy reports as a warning after the loop. */
static int op_eq(float x, float y) { return x == y; }
static int op_ne(float x, float y) { return x != y; }
static int op_lt(float x, float y) { return isless(x, y); }
static int op_le(float x, float y) { return islessequal(x, y); }
static int op_gt(float x, float y) { return isgreater(x, y); }
static int op_ge(float x, float y) { return isgreaterequal(x, y); }

static const struct binary {
    const char *ufunc;
    float (*fn)(float, float);
} binaries[] = {
    { "add", op_add },           { "subtract", op_sub },
    { "multiply", op_mul },      { "true_divide", op_div },
    { "floor_divide", op_floordiv }, { "power", op_pow },
    { "maximum", op_max },       { "minimum", op_min },
    { "fmax", fmaxf },           { "fmin", fminf },
    { "copysign", copysignf },   { "arctan2", atan2f },
    { "hypot", hypotf },
};

static const struct unary {
    const char *ufunc;
    float (*fn)(float);
} unaries[] = {
    { "negative", op_neg },     { "positive", op_pos },
    { "absolute", fabsf },      { "fabs", fabsf },
    { "square", op_square },    { "reciprocal", op_reciprocal },
    { "sign", op_sign },        { "sqrt", sqrtf },
    { "cbrt", cbrtf },          { "exp", expf },
    { "exp2", exp2f },          { "expm1", expm1f },
    { "log", logf },            { "log2", log2f },
    { "log10", log10f },        { "log1p", log1pf },
    { "sin", sinf },            { "cos", cosf },
    { "tan", tanf },            { "tanh", tanhf },
    { "arctan", atanf },        { "floor", floorf },
    { "ceil", ceilf },          { "trunc", truncf },
    { "rint", rintf },
};

static const struct predicate {
    const char *ufunc;
    int (*fn)(float);
} predicates[] = {
    { "isnan", op_isnan },       { "isinf", op_isinf },
    { "isfinite", op_isfinite }, { "signbit", op_signbit },
};

static const struct comparison {
    const char *ufunc;
    int (*fn)(float, float);
} comparisons[] = {
    { "equal", op_eq },   { "not_equal", op_ne }, { "less", op_lt },
    { "less_equal", op_le }, { "greater", op_gt }, { "greater_equal", op_ge },
};

/* The loops get their table entry as the ufunc's loop data. */
static void loop_binary(char **args, npy_intp const *dims,
                        npy_intp const *steps, void *data)
{
    const struct binary *op = data;
    char *x = args[0], *y = args[1], *out = args[2];
    for (npy_intp i = 0; i < dims[0];
         i++, x += steps[0], y += steps[1], out += steps[2])
        store(out, iron_bf16_from_float(op->fn(f32(load(x)), f32(load(y)))));
}

static void loop_unary(char **args, npy_intp const *dims,
                       npy_intp const *steps, void *data)
{
    const struct unary *op = data;
    char *x = args[0], *out = args[1];
    for (npy_intp i = 0; i < dims[0]; i++, x += steps[0], out += steps[1])
        store(out, iron_bf16_from_float(op->fn(f32(load(x)))));
}

static void loop_predicate(char **args, npy_intp const *dims,
                           npy_intp const *steps, void *data)
{
    const struct predicate *op = data;
    char *x = args[0], *out = args[1];
    for (npy_intp i = 0; i < dims[0]; i++, x += steps[0], out += steps[1])
        *(npy_bool *)out = (npy_bool)op->fn(f32(load(x)));
}

static void loop_comparison(char **args, npy_intp const *dims,
                            npy_intp const *steps, void *data)
{
    const struct comparison *op = data;
    char *x = args[0], *y = args[1], *out = args[2];
    for (npy_intp i = 0; i < dims[0];
         i++, x += steps[0], y += steps[1], out += steps[2])
        *(npy_bool *)out = (npy_bool)op->fn(f32(load(x)), f32(load(y)));
}

/* Registers loop for numpy.<name> over the types given. */
static int add_loop(PyObject *numpy, const char *name,
                    PyUFuncGenericFunction loop, const int *types,
                    const void *data)
{
    PyObject *ufunc = PyObject_GetAttrString(numpy, name);
    if (!ufunc)
        return -1;
    int rc = PyUFunc_RegisterLoopForType((PyUFuncObject *)ufunc, bf16_num,
                                         loop, types, (void *)(uintptr_t)data);
    Py_DECREF(ufunc);
    return rc;
}

static int register_ufuncs(PyObject *numpy)
{
    const int b = bf16_num;
    const int bbb[] = { b, b, b }, bb[] = { b, b };
    const int bB[] = { b, NPY_BOOL }, bbB[] = { b, b, NPY_BOOL };
#define EACH(table, loop, types)                                              \
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)               \
        if (add_loop(numpy, table[i].ufunc, loop, types, &table[i]) < 0)      \
            return -1;
    EACH(binaries, loop_binary, bbb)
    EACH(unaries, loop_unary, bb)
    EACH(predicates, loop_predicate, bB)
    EACH(comparisons, loop_comparison, bbB)
#undef EACH
    return 0;
}

/* ------------------------------------------------------------------------
 * Registration
 * ------------------------------------------------------------------------ */

/* The dtype.  kind 'V' and char 'E' as ml_dtypes' bfloat16 has them (so
 * that np.save writes '<V2', which the library's .npy reader takes as
 * bfloat16); numpy gets and sets elements through the scalar type. */
static int register_dtype(void)
{
    PyArray_InitArrFuncs(&bf16_funcs);
    bf16_funcs.getitem = bf16_getitem;
    bf16_funcs.setitem = bf16_setitem;
    bf16_funcs.copyswapn = bf16_copyswapn;
    bf16_funcs.copyswap = bf16_copyswap;
    bf16_funcs.nonzero = bf16_nonzero;
    bf16_funcs.compare = bf16_compare;
    bf16_funcs.argmax = bf16_argmax;
    bf16_funcs.argmin = bf16_argmin;
    bf16_funcs.fill = bf16_fill;
    bf16_funcs.fillwithscalar = bf16_fillwithscalar;
    bf16_funcs.dotfunc = bf16_dot;

    Py_SET_TYPE(&bf16_descr, &PyArrayDescr_Type);
    Py_SET_REFCNT(&bf16_descr, 1);
    bf16_descr.typeobj = &bf16_type;
    bf16_descr.kind = 'V';
    bf16_descr.type = 'E';
    bf16_descr.byteorder = '=';
    bf16_descr.flags = NPY_USE_GETITEM | NPY_USE_SETITEM;
    bf16_descr.elsize = 2;
    bf16_descr.alignment = 2;
    bf16_descr.f = &bf16_funcs;
    bf16_descr.hash = -1;
    bf16_num = PyArray_RegisterDataType(&bf16_descr);
    return bf16_num < 0 ? -1 : 0;
}

int pyiron_bf16_init(PyObject *m)
{
    if (_import_array() < 0 || _import_umath() < 0)
        return -1;
    bf16_type.tp_base = &PyGenericArrType_Type;
    if (PyType_Ready(&bf16_type) < 0)
        return -1;
    PyObject *numpy = PyImport_ImportModule("numpy");
    if (!numpy)
        return -1;
    int rc = -1;
    if (register_dtype() < 0 || register_casts() < 0 ||
        register_ufuncs(numpy) < 0)
        goto out;
    /* np.dtype("bfloat16") looks the name up in numpy's type dict. */
    PyObject *names = PyObject_GetAttrString(numpy, "sctypeDict");
    if (!names)
        goto out;
    rc = PyDict_SetItemString(names, "bfloat16", (PyObject *)&bf16_type);
    Py_DECREF(names);
    if (rc == 0)
        rc = PyModule_AddObjectRef(m, "bfloat16", (PyObject *)&bf16_type);
out:
    Py_DECREF(numpy);
    return rc;
}
