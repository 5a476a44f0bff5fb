/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * format.c - tensors as text the way numpy prints arrays: nested brackets,
 * columns of equal width, lines wrapped at the line width, big tensors
 * summarised with "..." and floats in numpy's default ('maxprec') style.
 *
 * The layout is a port of numpy's _formatArray and FloatingFormat, so
 * that for the dtypes numpy has the text is what repr() or str() of the
 * same array prints there (numpy 1.x / 2.0; 2.2 added a shape= note to
 * summarised reprs, which is left out).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/struct.h"
#include "tensor/tensor.h"

/* How floats of the shown elements are laid out (numpy's fillFormat). */
typedef struct floatfmt {
    int exp_mode;      /* scientific notation */
    int pad_left;      /* width of the part before the point */
    int pad_right;     /* positional: width after the point */
    int frac;          /* scientific: digits after the point */
    int exp_size;      /* scientific: exponent digits */
} floatfmt;

typedef struct fmt_ctx {
    const iron_tensor *t;
    int precision, edge, linewidth, summarise;
    const char *sep;
    int64_t rowstride[IRON_MAX_DIMS];
    /* statistics of the shown elements */
    int is_float;
    int any_finite, any_nonfinite, any_neginf;
    double min_abs, max_abs;  /* of the finite non-zero values */
    int width;                /* integers: widest element */
    floatfmt ff;
    iron__str *out;
    char word[256];
} fmt_ctx;

/* --- element values ------------------------------------------------------ */

static int load_int(iron_dtype dt, const unsigned char *p, int64_t *i,
                    uint64_t *u)
{
    switch (dt) {
    case IRON_INT8: { int8_t x; memcpy(&x, p, 1); *i = x; return 0; }
    case IRON_UINT8: { uint8_t x; memcpy(&x, p, 1); *i = x; return 0; }
    case IRON_INT16: { int16_t x; memcpy(&x, p, 2); *i = x; return 0; }
    case IRON_UINT16: { uint16_t x; memcpy(&x, p, 2); *i = x; return 0; }
    case IRON_INT32: { int32_t x; memcpy(&x, p, 4); *i = x; return 0; }
    case IRON_UINT32: { uint32_t x; memcpy(&x, p, 4); *i = x; return 0; }
    case IRON_INT64: memcpy(i, p, 8); return 0;
    default: memcpy(u, p, 8); return 1;   /* uint64 */
    }
}

static void int_text(fmt_ctx *c, const unsigned char *p, char *buf,
                     size_t len)
{
    int64_t i = 0;
    uint64_t u = 0;
    if (load_int(c->t->dtype, p, &i, &u))
        snprintf(buf, len, "%" PRIu64, u);
    else
        snprintf(buf, len, "%" PRId64, i);
}

/* Whether the decimal text s reads back as x in dtype dt: the test for
 * "enough digits" (numpy's unique mode, per the element's own type). */
static int reads_back(iron_dtype dt, const char *s, double x)
{
    double v = strtod(s, NULL);
    switch (dt) {
    case IRON_FLOAT32: return (float)v == (float)x;
    case IRON_BFLOAT16:
        return iron_bf16_from_float((float)v) ==
               iron_bf16_from_float((float)x);
    default: return v == x;
    }
}

/* Drops trailing zeros after the point (keeping the point itself). */
static void trim_zeros(char *s)
{
    char *dot = strchr(s, '.');
    if (!dot)
        return;
    char *end = s + strlen(s);
    while (end > dot + 1 && end[-1] == '0')
        *--end = '\0';
}

/* The fewest digits (at most prec after the point) that read back as x,
 * with the point always there: "1.", "0.25", "0.33333333". */
static void positional(iron_dtype dt, double x, int prec, char *buf,
                       size_t len)
{
    int p = 0;
    for (; p < prec; p++) {
        snprintf(buf, len, "%.*f", p, x);
        if (reads_back(dt, buf, x))
            break;
    }
    snprintf(buf, len, "%.*f", p, x);
    trim_zeros(buf);
    if (!strchr(buf, '.'))
        strcat(buf, ".");
}

/* The same in scientific notation: mantissa "1.5" (point always there)
 * into mant, exponent value into *exp. */
static void scientific(iron_dtype dt, double x, int prec, char *mant,
                       size_t len, int *exp)
{
    char buf[64];
    int p = 0;
    for (; p < prec; p++) {
        snprintf(buf, sizeof buf, "%.*e", p, x);
        if (reads_back(dt, buf, x))
            break;
    }
    snprintf(buf, sizeof buf, "%.*e", p, x);
    char *e = strchr(buf, 'e');
    *exp = atoi(e + 1);
    *e = '\0';
    trim_zeros(buf);
    if (!strchr(buf, '.'))
        strcat(buf, ".");
    snprintf(mant, len, "%s", buf);
}

static double float_at(const fmt_ctx *c, const unsigned char *p)
{
    return iron__dtype_load(c->t->dtype, p);
}

/* --- walking the shown elements ------------------------------------------ */

typedef void (*leaf_fn)(fmt_ctx *c, const unsigned char *p);

/* Calls fn for every element shown, in order: along each axis longer than
 * 2 x edgeitems of a summarised tensor only the first and last edgeitems. */
static void visit(fmt_ctx *c, int axis, int64_t flat, leaf_fn fn)
{
    const iron_tensor *t = c->t;
    if (axis == t->shape.ndim) {
        fn(c, iron__tensor_elem(t, flat));
        return;
    }
    int64_t n = t->shape.dims[axis];
    int cut = c->summarise && 2 * (int64_t)c->edge < n;
    for (int64_t i = 0; i < n; i++) {
        if (cut && i == c->edge)
            i = n - c->edge;
        visit(c, axis + 1, flat + i * c->rowstride[axis], fn);
    }
}

static void stat_int(fmt_ctx *c, const unsigned char *p)
{
    char buf[32];
    int_text(c, p, buf, sizeof buf);
    int w = (int)strlen(buf);
    if (w > c->width)
        c->width = w;
}

static void stat_range(fmt_ctx *c, const unsigned char *p)
{
    double x = float_at(c, p);
    if (!isfinite(x)) {
        c->any_nonfinite = 1;
        if (isinf(x) && x < 0)
            c->any_neginf = 1;
        return;
    }
    c->any_finite = 1;
    double a = fabs(x);
    if (a == 0)
        return;
    if (c->min_abs == 0 || a < c->min_abs)
        c->min_abs = a;
    if (a > c->max_abs)
        c->max_abs = a;
}

static void stat_digits(fmt_ctx *c, const unsigned char *p)
{
    double x = float_at(c, p);
    if (!isfinite(x))
        return;
    char buf[64];
    int ipart, fpart;
    if (c->ff.exp_mode) {
        int e;
        scientific(c->t->dtype, x, c->precision, buf, sizeof buf, &e);
        char digits[16];
        int ed = snprintf(digits, sizeof digits, "%d", abs(e));
        if (ed > c->ff.exp_size)
            c->ff.exp_size = ed;
    } else {
        positional(c->t->dtype, x, c->precision, buf, sizeof buf);
    }
    const char *dot = strchr(buf, '.');
    ipart = (int)(dot - buf);
    fpart = (int)strlen(dot + 1);
    if (ipart > c->ff.pad_left)
        c->ff.pad_left = ipart;
    if (c->ff.exp_mode) {
        if (fpart > c->ff.frac)
            c->ff.frac = fpart;
    } else if (fpart > c->ff.pad_right) {
        c->ff.pad_right = fpart;
    }
}

/* numpy's FloatingFormat.fillFormat over the shown elements. */
static void fill_float_format(fmt_ctx *c)
{
    visit(c, 0, 0, stat_range);
    if (c->max_abs > 0 &&
        (c->max_abs >= 1e8 || c->min_abs < 0.0001 ||
         c->max_abs / c->min_abs > 1000.0))
        c->ff.exp_mode = 1;
    c->ff.exp_size = 2;  /* C prints at least two exponent digits */
    if (c->any_finite)
        visit(c, 0, 0, stat_digits);
    if (c->ff.exp_mode)
        c->ff.pad_right = c->ff.exp_size + 2 + c->ff.frac;
    if (c->any_nonfinite) {
        int offset = c->ff.pad_right + 1;
        int nanlen = 3, inflen = 3 + c->any_neginf;
        if (nanlen - offset > c->ff.pad_left)
            c->ff.pad_left = nanlen - offset;
        if (inflen - offset > c->ff.pad_left)
            c->ff.pad_left = inflen - offset;
    }
}

static void float_word(fmt_ctx *c, double x, char *out, size_t len)
{
    const floatfmt *f = &c->ff;
    if (!isfinite(x)) {
        const char *s = isnan(x) ? "nan" : x < 0 ? "-inf" : "inf";
        snprintf(out, len, "%*s", f->pad_left + f->pad_right + 1, s);
        return;
    }
    char buf[64];
    if (f->exp_mode) {
        int e;
        scientific(c->t->dtype, x, c->precision, buf, sizeof buf, &e);
        const char *dot = strchr(buf, '.');
        int ip = (int)(dot - buf), fp = (int)strlen(dot + 1);
        snprintf(out, len, "%*s%s%.*s%c%c%0*d", f->pad_left - ip, "", buf,
                 f->frac - fp, "0000000000000000000000000000000000000000",
                 'e', e < 0 ? '-' : '+', f->exp_size, abs(e));
    } else {
        positional(c->t->dtype, x, c->precision, buf, sizeof buf);
        const char *dot = strchr(buf, '.');
        int ip = (int)(dot - buf), fp = (int)strlen(dot + 1);
        snprintf(out, len, "%*s%s%*s", f->pad_left - ip, "", buf,
                 f->pad_right - fp, "");
    }
}

static const char *word_at(fmt_ctx *c, int64_t flat)
{
    const unsigned char *p = iron__tensor_elem(c->t, flat);
    if (c->is_float) {
        float_word(c, float_at(c, p), c->word, sizeof c->word);
    } else {
        char buf[32];
        int_text(c, p, buf, sizeof buf);
        snprintf(c->word, sizeof c->word, "%*s", c->width, buf);
    }
    return c->word;
}

/* --- layout (numpy's _formatArray) --------------------------------------- */

static void spaces(iron__str *s, int n)
{
    for (int i = 0; i < n; i++)
        iron__str_append(s, " ");
}

/* numpy's _extendLine: wraps before word when the line would pass width,
 * unless the line holds only its indent (wrapping would not help). */
static void extend_line(iron__str *s, iron__str *line, const char *word,
                        int width, int hang)
{
    size_t n = line->len;
    if ((int)(n + strlen(word)) > width && (int)n > hang) {
        while (n > 0 && line->p[n - 1] == ' ')
            n--;
        if (line->p)
            line->p[n] = '\0';
        line->len = n;
        iron__str_append(s, iron__str_get(line));
        iron__str_append(s, "\n");
        line->len = 0;
        if (line->p)
            line->p[0] = '\0';
        spaces(line, hang);
    }
    iron__str_append(line, word);
}

/* The text of the sub-array at axis (its first element at flat), "[...]",
 * with continuation lines indented by hang spaces, into out. */
static void layout(fmt_ctx *c, int axis, int64_t flat, int hang, int width,
                   iron__str *out)
{
    const iron_tensor *t = c->t;
    int left = t->shape.ndim - axis;
    int64_t n = t->shape.dims[axis], stride = c->rowstride[axis];
    int cut = c->summarise && 2 * (int64_t)c->edge < n;
    int64_t lead = cut ? c->edge : 0, trail = cut ? c->edge : n;
    iron__str s = { 0 };
    size_t seplen = strlen(c->sep);
    while (seplen > 0 && c->sep[seplen - 1] == ' ')
        seplen--;  /* the separator without its trailing blanks */
    if (left == 1) {
        int elem_width = width - (seplen > 1 ? (int)seplen : 1);
        iron__str line = { 0 };
        spaces(&line, hang);
        for (int64_t i = 0; i < lead; i++) {
            extend_line(&s, &line, word_at(c, flat + i * stride), elem_width,
                        hang);
            iron__str_append(&line, c->sep);
        }
        if (cut) {
            extend_line(&s, &line, "...", elem_width, hang);
            iron__str_append(&line, c->sep);
        }
        for (int64_t i = trail; i > 1; i--) {
            extend_line(&s, &line, word_at(c, flat + (n - i) * stride),
                        elem_width, hang);
            iron__str_append(&line, c->sep);
        }
        extend_line(&s, &line, word_at(c, flat + (n - 1) * stride),
                    elem_width, hang);
        iron__str_append(&s, iron__str_get(&line));
        if (line.oom)
            s.oom = 1;
        iron__str_free(&line);
    } else {
        char line_sep[16];
        int k = snprintf(line_sep, sizeof line_sep, "%.*s", (int)seplen,
                         c->sep);
        for (int i = 0; i < left - 1 && k < (int)sizeof line_sep - 1; i++)
            line_sep[k++] = '\n';
        line_sep[k] = '\0';
        for (int64_t i = 0; i < lead; i++) {
            spaces(&s, hang);
            layout(c, axis + 1, flat + i * stride, hang + 1, width - 1, &s);
            iron__str_append(&s, line_sep);
        }
        if (cut) {
            spaces(&s, hang);
            iron__str_append(&s, "...");
            iron__str_append(&s, line_sep);
        }
        for (int64_t i = trail; i > 1; i--) {
            spaces(&s, hang);
            layout(c, axis + 1, flat + (n - i) * stride, hang + 1, width - 1,
                   &s);
            iron__str_append(&s, line_sep);
        }
        spaces(&s, hang);
        layout(c, axis + 1, flat + (n - 1) * stride, hang + 1, width - 1, &s);
    }
    iron__str_append(out, "[");
    const char *body = iron__str_get(&s);
    iron__str_append(out, strlen(body) >= (size_t)hang ? body + hang : "");
    iron__str_append(out, "]");
    if (s.oom)
        out->oom = 1;  /* a part lost is the whole text lost */
    iron__str_free(&s);
}

/* --- public -------------------------------------------------------------- */

/* numpy leaves the dtype out of a repr for its default types. */
static int dtype_implied(iron_dtype dt)
{
    return dt == IRON_INT64 || dt == IRON_FLOAT64;
}

IRON_API iron_status iron_tensor_format(const iron_tensor *t,
                                        const iron_print_options *opts,
                                        char **out)
{
    const char *fn = "iron_tensor_format";
    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", fn);
    *out = NULL;
    if (!t)
        return iron__fail(IRON_EINVAL, "%s: tensor is NULL", fn);
    iron_print_options o = { 0 };
    if (opts) {
        char what[64];
        snprintf(what, sizeof what, "%s: opts", fn);
        iron_status s = iron__struct_check(
            what, "iron_print_options", opts->size,
            IRON__FIRST_SIZE(iron_print_options, plain), sizeof o);
        if (s != IRON_OK)
            return iron__public_result(s);
        iron__struct_read(&o, sizeof o, opts, opts->size);
    }
    if (o.precision < 0 || o.precision > 30 || o.edgeitems < 0 ||
        o.linewidth < 0)
        return iron__fail(IRON_EINVAL,
                          "%s: options out of range: precision %d (expected "
                          "0..30), edgeitems %d, linewidth %d (expected >= "
                          "0; 0 means the default)", fn, o.precision,
                          o.edgeitems, o.linewidth);
    fmt_ctx c;
    memset(&c, 0, sizeof c);
    c.t = t;
    c.precision = o.precision ? o.precision : 8;
    c.edge = o.edgeitems ? o.edgeitems : 3;
    c.linewidth = o.linewidth ? o.linewidth : 75;
    int64_t threshold = o.threshold ? o.threshold : 1000;
    c.summarise = threshold > 0 && t->numel > threshold;
    c.sep = o.plain ? " " : ", ";
    iron__tensor_rowmajor(&t->shape, c.rowstride);
    c.is_float = iron__dtype_is_float(t->dtype);
    if (c.is_float)
        fill_float_format(&c);
    else
        visit(&c, 0, 0, stat_int);

    iron__str s = { 0 };
    const char *prefix = o.plain ? "" : "array(";
    int plen = (int)strlen(prefix);
    iron__str_append(&s, prefix);
    layout(&c, 0, 0, plen + 1, c.linewidth - (o.plain ? 0 : 1), &s);
    if (!o.plain) {
        if (dtype_implied(t->dtype)) {
            iron__str_append(&s, ")");
        } else {
            char extra[32];
            snprintf(extra, sizeof extra, "dtype=%s)",
                     iron_dtype_name(t->dtype));
            iron__str_append(&s, ",");
            const char *text = iron__str_get(&s);
            const char *nl = strrchr(text, '\n');
            int last = (int)strlen(nl ? nl + 1 : text);
            if (last + (int)strlen(extra) + 1 > c.linewidth) {
                iron__str_append(&s, "\n");
                spaces(&s, plen);
            } else {
                iron__str_append(&s, " ");
            }
            iron__str_append(&s, extra);
        }
    }
    if (s.oom) {
        iron__str_free(&s);
        return iron__fail(IRON_ENOMEM, "%s: out of memory", fn);
    }
    *out = iron__str_take(&s);
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_tensor_print(const iron_tensor *t, FILE *f)
{
    if (!f)
        return iron__fail(IRON_EINVAL, "iron_tensor_print: file is NULL");
    char *text;
    iron_status s = iron_tensor_format(t, NULL, &text);
    if (s != IRON_OK)
        return iron__fail_context(s, "iron_tensor_print");
    int bad = fprintf(f, "%s\n", text) < 0;
    iron_free(text);
    if (bad)
        return iron__fail(IRON_EIO, "iron_tensor_print: writing failed");
    return iron__public_result(IRON_OK);
}
