/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * allclose.c - iron_tensor_allclose: numpy's allclose rule over two
 * tensors (expected broadcast to actual's shape), with a count of the
 * elements that differ and a report of the first of them.  Integers
 * compare as exact 64-bit values, floats as doubles.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/core.h"
#include "core/struct.h"
#include "tensor/tensor.h"

#define FN "iron_tensor_allclose"
#define DEFAULT_LISTED 10

/* An integer element of any integer dtype, exactly: sign and magnitude
 * (uint64's values and int64's both fit; zero is never negative). */
typedef struct ival {
    int neg;
    uint64_t mag;
} ival;

static ival from_signed(int64_t v)
{
    ival r = { v < 0, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v };
    return r;
}

static ival load_int(iron_dtype dt, const unsigned char *p)
{
    ival r = { 0, 0 };
    switch (dt) {
    case IRON_INT8: { int8_t x; memcpy(&x, p, sizeof x); return from_signed(x); }
    case IRON_INT16: { int16_t x; memcpy(&x, p, sizeof x); return from_signed(x); }
    case IRON_INT32: { int32_t x; memcpy(&x, p, sizeof x); return from_signed(x); }
    case IRON_INT64: { int64_t x; memcpy(&x, p, sizeof x); return from_signed(x); }
    case IRON_UINT8: { uint8_t x; memcpy(&x, p, sizeof x); r.mag = x; return r; }
    case IRON_UINT16: { uint16_t x; memcpy(&x, p, sizeof x); r.mag = x; return r; }
    case IRON_UINT32: { uint32_t x; memcpy(&x, p, sizeof x); r.mag = x; return r; }
    case IRON_UINT64: { uint64_t x; memcpy(&x, p, sizeof x); r.mag = x; return r; }
    default: return r;
    }
}

/* |a - e| exactly, saturating at UINT64_MAX (opposite signs whose sum
 * passes 2^64 - 1: far beyond any tolerance a double can state), and
 * whether a - e is negative. */
static uint64_t ival_absdiff(ival a, ival e, int *negative)
{
    if (a.neg == e.neg) {
        int below = a.mag < e.mag;   /* |a| < |e| */
        *negative = a.neg ? !below && a.mag != e.mag : below;
        return below ? e.mag - a.mag : a.mag - e.mag;
    }
    *negative = a.neg;
    return a.mag > UINT64_MAX - e.mag ? UINT64_MAX : a.mag + e.mag;
}

/* One element pair, compared; the difference for the report and the
 * largest differences. */
typedef struct pair {
    int close;
    double abs_diff;     /* NaN for a NaN pair */
    double rel_diff;
    /* Integers: the exact difference, for the report. */
    int diff_neg;
    uint64_t diff_mag;
} pair;

static pair compare_ints(ival a, ival e, double rtol, double atol)
{
    pair r = { 0, 0, 0, 0, 0 };
    r.diff_mag = ival_absdiff(a, e, &r.diff_neg);
    r.abs_diff = (double)r.diff_mag;
    double mag_e = (double)e.mag;
    r.rel_diff = r.diff_mag == 0 ? 0 : mag_e == 0 ? INFINITY
                                                   : r.abs_diff / mag_e;
    /* Exact when equal; the tolerance in double otherwise (its own
     * rounding is the tolerance's, never the values'). */
    r.close = r.diff_mag == 0 || r.abs_diff <= atol + rtol * mag_e;
    return r;
}

static pair compare_floats(double a, double e, double rtol, double atol,
                           int equal_nan)
{
    pair r = { 0, 0, 0, 0, 0 };
    if (isnan(a) || isnan(e)) {
        r.close = equal_nan && isnan(a) && isnan(e);
        r.abs_diff = r.rel_diff = NAN;
        return r;
    }
    if (isinf(a) || isinf(e)) {
        /* numpy: an infinity is close to the same infinity only. */
        r.close = a == e;
        r.abs_diff = r.close ? 0 : INFINITY;
        r.rel_diff = r.close ? 0 : INFINITY;
        return r;
    }
    r.abs_diff = fabs(a - e);
    r.rel_diff = r.abs_diff == 0 ? 0 : e == 0 ? INFINITY
                                               : r.abs_diff / fabs(e);
    r.close = r.abs_diff <= atol + rtol * fabs(e);
    return r;
}

/* "[0, 7]" for flat index i of shape. */
static void index_text(iron__str *s, const iron_shape *shape, int64_t i)
{
    int64_t idx[IRON_MAX_DIMS];
    for (int k = shape->ndim - 1; k >= 0; k--) {
        idx[k] = i % shape->dims[k];
        i /= shape->dims[k];
    }
    iron__str_append(s, "[");
    for (int k = 0; k < shape->ndim; k++)
        iron__str_printf(s, "%s%" PRId64, k ? ", " : "", idx[k]);
    iron__str_append(s, "]");
}

/* Enough digits to tell values of the dtype apart. */
static int digits_of(iron_dtype dt)
{
    return dt == IRON_FLOAT64 ? 17 : 9;
}

static void value_text(iron__str *s, iron_dtype dt, const unsigned char *p)
{
    if (iron__dtype_is_float(dt)) {
        iron__str_printf(s, "%.*g", digits_of(dt), iron__dtype_load(dt, p));
        return;
    }
    ival v = load_int(dt, p);
    iron__str_printf(s, "%s%" PRIu64, v.neg ? "-" : "", v.mag);
}

static void mismatch_line(iron__str *s, const iron_tensor *a,
                          const unsigned char *pa, const iron_tensor *e,
                          const unsigned char *pe, int64_t i, const pair *c)
{
    iron__str_append(s, "  ");
    index_text(s, &a->shape, i);
    iron__str_append(s, ": actual ");
    value_text(s, a->dtype, pa);
    iron__str_append(s, ", expected ");
    value_text(s, e->dtype, pe);
    iron__str_append(s, ", difference ");
    if (iron__dtype_is_float(a->dtype)) {
        int dg = digits_of(a->dtype) > digits_of(e->dtype)
                     ? digits_of(a->dtype)
                     : digits_of(e->dtype);
        iron__str_printf(s, "%.*g", dg,
                         iron__dtype_load(a->dtype, pa) -
                             iron__dtype_load(e->dtype, pe));
    } else {
        iron__str_printf(s, "%s%" PRIu64,
                         c->diff_neg && c->diff_mag ? "-" : "", c->diff_mag);
    }
    iron__str_append(s, "\n");
}

/* The strides (in elements) that walk expected along actual's indices:
 * 0 along a dim expected broadcasts (its size 1, or missing).  IRON_ESHAPE
 * when it does not broadcast. */
static iron_status broadcast(const iron_tensor *a, const iron_tensor *e,
                             int64_t *es)
{
    int nd = a->shape.ndim, ne = e->shape.ndim, ok = ne <= nd;
    for (int k = 0; k < nd; k++) {
        int j = k - (nd - ne);
        if (j < 0) {
            es[k] = 0;
            continue;
        }
        int64_t de = e->shape.dims[j];
        if (de == a->shape.dims[k])
            es[k] = de == 1 ? 0 : e->strides[j];
        else if (de == 1)
            es[k] = 0;
        else
            ok = 0;
    }
    if (ok)
        return IRON_OK;
    char ta[128], te[128];
    return iron__fail(IRON_ESHAPE,
                      "%s: actual is %s and expected %s: expected must have "
                      "actual's shape or broadcast to it (dims aligned from "
                      "the right, each equal to actual's or 1)", FN,
                      iron__tensor_describe(a, ta, sizeof ta),
                      iron__tensor_describe(e, te, sizeof te));
}

static iron_status check_tolerance(const char *name, double v)
{
    if (isfinite(v) && v >= 0)
        return IRON_OK;
    return iron__fail(IRON_EINVAL, "%s: %s is %g; expected a finite number "
                      ">= 0", FN, name, v);
}

static iron_status check_args(const iron_tensor *a, const iron_tensor *e,
                              double rtol, double atol,
                              const iron_allclose_options *opts,
                              iron_allclose_options *o, int64_t *es)
{
    iron_status s;
    if (!a || !e)
        return iron__fail(IRON_EINVAL, "%s: %s is NULL", FN,
                          a ? "expected" : "actual");
    if ((s = check_tolerance("rtol", rtol)) != IRON_OK ||
        (s = check_tolerance("atol", atol)) != IRON_OK)
        return s;
    memset(o, 0, sizeof *o);
    if (opts) {
        s = iron__struct_check(FN ": opts", "iron_allclose_options",
                               opts->size,
                               IRON__FIRST_SIZE(iron_allclose_options,
                                                max_listed),
                               sizeof *o);
        if (s != IRON_OK)
            return s;
        iron__struct_read(o, sizeof *o, opts, opts->size);
    }
    if (o->max_listed < 0)
        return iron__fail(IRON_EINVAL, "%s: opts.max_listed is %d; expected "
                          ">= 0 (0: %d)", FN, o->max_listed, DEFAULT_LISTED);
    if (o->max_listed == 0)
        o->max_listed = DEFAULT_LISTED;
    if (iron__dtype_is_float(a->dtype) != iron__dtype_is_float(e->dtype)) {
        char ta[128], te[128];
        return iron__fail(IRON_EDTYPE,
                          "%s: actual is %s and expected %s: integers compare "
                          "with integers and floats with floats (convert one "
                          "first, e.g. with iron_tensor_assign into a tensor "
                          "of the other dtype)", FN,
                          iron__tensor_describe(a, ta, sizeof ta),
                          iron__tensor_describe(e, te, sizeof te));
    }
    return broadcast(a, e, es);
}

/* The report's first line: "2 of 4096 elements differ (exact):". */
static void report_head(iron__str *s, int64_t bad, int64_t n, double rtol,
                        double atol, const iron_allclose_options *o,
                        int is_float)
{
    iron__str_printf(s, "%" PRId64 " of %" PRId64 " element%s differ%s (",
                     bad, n, n == 1 ? "" : "s", bad == 1 ? "s" : "");
    if (rtol == 0 && atol == 0 && !is_float)
        iron__str_append(s, "exact");
    else
        iron__str_printf(s, "rtol %g, atol %g", rtol, atol);
    if (is_float && o->equal_nan)
        iron__str_append(s, ", NaN equal to NaN");
    iron__str_append(s, ")");
    if (bad > o->max_listed)
        iron__str_printf(s, "; the first %d:\n", o->max_listed);
    else
        iron__str_append(s, ":\n");
}

IRON_API iron_status iron_tensor_allclose(const iron_tensor *actual,
                                          const iron_tensor *expected,
                                          double rtol, double atol,
                                          const iron_allclose_options *opts,
                                          iron_allclose_result *result)
{
    if (!result)
        return iron__fail(IRON_EINVAL, "%s: result is NULL", FN);
    iron_status s = iron__struct_check(
        FN ": result", "iron_allclose_result", result->size,
        IRON__FIRST_SIZE(iron_allclose_result, report), sizeof *result);
    if (s != IRON_OK)
        return s;
    /* Nothing half-written: until the end, the caller sees "not close,
     * no report" (safe to iron_free). */
    size_t given = result->size < sizeof *result ? result->size
                                                 : sizeof *result;
    memset((char *)result + sizeof result->size, 0,
           given - sizeof result->size);

    iron_allclose_options o;
    int64_t es[IRON_MAX_DIMS];
    s = check_args(actual, expected, rtol, atol, opts, &o, es);
    if (s != IRON_OK)
        return s;

    const iron_tensor *a = actual, *e = expected;
    int nd = a->shape.ndim, is_float = iron__dtype_is_float(a->dtype);
    size_t sa = iron_dtype_size(a->dtype), se = iron_dtype_size(e->dtype);
    const unsigned char *ha = a->host, *he = e->host;
    int64_t idx[IRON_MAX_DIMS] = { 0 }, off_a = 0, off_e = 0, bad = 0;
    double max_abs = 0, max_rel = 0;
    iron__str lines = { 0 };
    for (int64_t i = 0; i < a->numel; i++) {
        const unsigned char *pa = ha + off_a * (int64_t)sa,
                            *pe = he + off_e * (int64_t)se;
        pair c = is_float
                     ? compare_floats(iron__dtype_load(a->dtype, pa),
                                      iron__dtype_load(e->dtype, pe), rtol,
                                      atol, o.equal_nan)
                     : compare_ints(load_int(a->dtype, pa),
                                    load_int(e->dtype, pe), rtol, atol);
        if (c.abs_diff > max_abs)
            max_abs = c.abs_diff;
        if (c.rel_diff > max_rel)
            max_rel = c.rel_diff;
        if (!c.close && bad++ < o.max_listed)
            mismatch_line(&lines, a, pa, e, pe, i, &c);
        /* The next index of actual, row-major, and both offsets. */
        for (int k = nd - 1; k >= 0; k--) {
            off_a += a->strides[k];
            off_e += es[k];
            if (++idx[k] < a->shape.dims[k])
                break;
            off_a -= a->strides[k] * a->shape.dims[k];
            off_e -= es[k] * a->shape.dims[k];
            idx[k] = 0;
        }
    }
    char *report = NULL;
    if (bad) {
        iron__str text = { 0 };
        report_head(&text, bad, a->numel, rtol, atol, &o, is_float);
        iron__str_append(&text, iron__str_get(&lines));
        if (bad > o.max_listed)
            iron__str_printf(&text, "  ... and %" PRId64 " more\n",
                             bad - o.max_listed);
        int dg = !is_float ? 17
                 : digits_of(a->dtype) > digits_of(e->dtype)
                     ? digits_of(a->dtype)
                     : digits_of(e->dtype);
        iron__str_printf(&text, "largest differences: absolute %.*g, "
                         "relative %.9g\n", dg, max_abs, max_rel);
        report = iron__str_take(&text);
        if (!report || lines.oom) {
            iron__free(report);
            iron__str_free(&lines);
            return iron__fail(IRON_ENOMEM, "%s: out of memory for the "
                              "report of %" PRId64 " mismatches", FN, bad);
        }
    }
    iron__str_free(&lines);
    iron_allclose_result r;
    memset(&r, 0, sizeof r);
    r.size = given;
    r.all_close = bad == 0;
    r.count = a->numel;
    r.mismatches = bad;
    r.max_abs_diff = max_abs;
    r.max_rel_diff = max_rel;
    r.report = report;
    memcpy(result, &r, given);
    return iron__public_result(IRON_OK);
}
