/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * npy.c - tensors to and from NumPy's .npy files (format versions 1.0 and
 * 2.0, and 3.0 on reading).  The header is a Python dict literal, not
 * JSON: it is read by a small strict parser that knows exactly the three
 * keys NumPy writes (descr, fortran_order, shape), and written the way
 * np.save writes it, so that a file we save is byte for byte the file
 * NumPy saves for the same array.
 *
 * bfloat16 has no NumPy type code: ml_dtypes' bfloat16 is saved by np.save
 * with descr '<V2' (a 2-byte void), and that is what we write and read
 * (also the spelling 'bfloat16').  Big-endian files are byte-swapped on
 * load; Fortran-order files are reordered to row-major on load.  A 0-d
 * array loads as a 1-element 1-d tensor (iron tensors have at least one
 * dimension).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/atomic.h"
#include "core/file.h"
#include "core/core.h"
#include "tensor/tensor.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
/* np.save pads the header so that the data starts on this boundary. */
#define NPY_ALIGN 64
/* np.save leaves room after the shape for the growing axis's digits. */
#define NPY_GROWTH_DIGITS 21
/* Far more than any header of a supported array needs; keeps a damaged
 * length from allocating gigabytes. */
#define NPY_MAX_HEADER (1u << 20)

static const char LOAD[] = "iron_tensor_load_npy";
static const char SAVE[] = "iron_tensor_save_npy";

static int host_is_little(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

static void swap_bytes(unsigned char *p, size_t n, size_t size)
{
    if (size < 2)
        return;
    for (size_t i = 0; i < n; i++, p += size)
        for (size_t a = 0, b = size - 1; a < b; a++, b--) {
            unsigned char t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
}

/* ---- descr ------------------------------------------------------------- */

typedef struct npy_code {
    const char *code;     /* type code and size after the byte-order mark */
    iron_dtype dtype;
} npy_code;

static const npy_code codes[] = {
    { "i1", IRON_INT8 },    { "u1", IRON_UINT8 },   { "i2", IRON_INT16 },
    { "u2", IRON_UINT16 },  { "i4", IRON_INT32 },   { "u4", IRON_UINT32 },
    { "i8", IRON_INT64 },   { "u8", IRON_UINT64 },  { "f4", IRON_FLOAT32 },
    { "f8", IRON_FLOAT64 }, { "V2", IRON_BFLOAT16 },
};

/* The descr np.save writes for dt ('|i1', '<i4', '<V2' for bfloat16). */
static void descr_of(iron_dtype dt, char out[8])
{
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (codes[i].dtype == dt) {
            snprintf(out, 8, "%c%s", iron_dtype_size(dt) == 1 ? '|' : '<',
                     codes[i].code);
            return;
        }
    out[0] = '\0';
}

/* descr -> dtype, and whether the data is big-endian. */
static iron_status dtype_of(const char *path, const char *descr,
                            iron_dtype *dt, int *big)
{
    *big = 0;
    if (strcmp(descr, "bfloat16") == 0) {
        *dt = IRON_BFLOAT16;
        return IRON_OK;
    }
    char order = descr[0];
    const char *code = descr;
    if (order == '<' || order == '>' || order == '|' || order == '=')
        code++;
    else
        order = '=';
    if (code[0] == 'O')
        return iron__fail(IRON_EDTYPE,
                          "%s: '%s': descr '%s' is an object array (pickled "
                          "Python objects); only numeric arrays load",
                          LOAD, path, descr);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        if (strcmp(code, codes[i].code) != 0)
            continue;
        *dt = codes[i].dtype;
        *big = order == '>' || (order == '=' && !host_is_little());
        if (*dt == IRON_BFLOAT16)
            *big = order == '>';
        return IRON_OK;
    }
    return iron__fail(IRON_EDTYPE,
                      "%s: '%s': unsupported dtype: descr '%s' (supported: "
                      "i1 u1 i2 u2 i4 u4 i8 u8 f4 f8, and V2 or 'bfloat16' "
                      "for bfloat16)",
                      LOAD, path, descr);
}

/* ---- the header: a Python dict literal ---------------------------------- */

typedef struct hdr {
    const char *start, *p, *end;
    const char *path;
    char descr[64];
    int fortran;
    int ndim;                /* -1: no shape yet */
    int64_t dims[IRON_MAX_DIMS];
    int seen_descr, seen_fortran;
} hdr;

static iron_status bad(const hdr *h, const char *what)
{
    return iron__fail(IRON_EINVAL,
                      "%s: '%s': malformed header at byte %td: %s", LOAD,
                      h->path, h->p - h->start, what);
}

static void skip_ws(hdr *h)
{
    while (h->p < h->end &&
           (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r'))
        h->p++;
}

static int eat(hdr *h, char c)
{
    skip_ws(h);
    if (h->p < h->end && *h->p == c) {
        h->p++;
        return 1;
    }
    return 0;
}

/* A quoted string without escapes into buf. */
static iron_status string_lit(hdr *h, char *buf, size_t len)
{
    skip_ws(h);
    if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
        return bad(h, "expected a quoted string");
    char q = *h->p++;
    size_t n = 0;
    while (h->p < h->end && *h->p != q) {
        if (*h->p == '\\' || *h->p == '\n')
            return bad(h, "escapes and line breaks are not expected in a "
                          "string");
        if (n + 1 >= len)
            return bad(h, "string too long");
        buf[n++] = *h->p++;
    }
    if (h->p >= h->end)
        return bad(h, "unterminated string");
    h->p++;
    buf[n] = '\0';
    return IRON_OK;
}

static int word(hdr *h, const char *w)
{
    skip_ws(h);
    size_t n = strlen(w);
    if ((size_t)(h->end - h->p) >= n && memcmp(h->p, w, n) == 0) {
        h->p += n;
        return 1;
    }
    return 0;
}

static iron_status shape_lit(hdr *h)
{
    if (!eat(h, '('))
        return bad(h, "shape: expected a tuple such as (3,) or (2, 3)");
    h->ndim = 0;
    int64_t dims[64];
    int n = 0, comma = 0;
    while (!eat(h, ')')) {
        if (n > 0 && !comma)
            return bad(h, "shape: expected ',' or ')'");
        skip_ws(h);
        if (h->p >= h->end || *h->p < '0' || *h->p > '9')
            return bad(h, "shape: expected a non-negative integer");
        int64_t v = 0;
        while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
            if (__builtin_mul_overflow(v, 10, &v) ||
                __builtin_add_overflow(v, *h->p - '0', &v))
                return bad(h, "shape: a dimension is past 2^63-1");
            h->p++;
        }
        if (h->p < h->end && *h->p == 'L')  /* Python 2's long */
            h->p++;
        if (n == (int)(sizeof dims / sizeof dims[0]))
            return bad(h, "shape: too many dimensions");
        dims[n++] = v;
        comma = eat(h, ',');
    }
    if (n == 1 && !comma)
        return bad(h, "shape: a 1-tuple needs its comma: (N,)");
    if (n > IRON_MAX_DIMS)
        return iron__fail(IRON_ESHAPE,
                          "%s: '%s': shape has %d dimensions; iron tensors "
                          "have at most %d",
                          LOAD, h->path, n, IRON_MAX_DIMS);
    h->ndim = n;
    memcpy(h->dims, dims, (size_t)n * sizeof dims[0]);
    return IRON_OK;
}

static iron_status parse_header(hdr *h)
{
    iron_status s;
    h->ndim = -1;
    if (!eat(h, '{'))
        return bad(h, "expected '{'");
    while (!eat(h, '}')) {
        char key[32];
        if ((s = string_lit(h, key, sizeof key)) != IRON_OK)
            return s;
        if (!eat(h, ':'))
            return bad(h, "expected ':' after a key");
        if (strcmp(key, "descr") == 0 && !h->seen_descr) {
            skip_ws(h);
            if (h->p < h->end && *h->p == '[')
                return iron__fail(IRON_EDTYPE,
                                  "%s: '%s': unsupported dtype: a structured "
                                  "descr (a list of fields)",
                                  LOAD, h->path);
            if ((s = string_lit(h, h->descr, sizeof h->descr)) != IRON_OK)
                return s;
            h->seen_descr = 1;
        } else if (strcmp(key, "fortran_order") == 0 && !h->seen_fortran) {
            if (word(h, "True"))
                h->fortran = 1;
            else if (word(h, "False"))
                h->fortran = 0;
            else
                return bad(h, "fortran_order: expected True or False");
            h->seen_fortran = 1;
        } else if (strcmp(key, "shape") == 0 && h->ndim < 0) {
            if ((s = shape_lit(h)) != IRON_OK)
                return s;
        } else {
            return iron__fail(IRON_EINVAL,
                              "%s: '%s': malformed header: key '%s' is "
                              "repeated or unknown (expected descr, "
                              "fortran_order, shape)",
                              LOAD, h->path, key);
        }
        if (!eat(h, ',')) {
            if (!eat(h, '}'))
                return bad(h, "expected ',' or '}'");
            break;
        }
    }
    skip_ws(h);
    if (h->p != h->end)
        return bad(h, "text after the dict");
    if (!h->seen_descr || !h->seen_fortran || h->ndim < 0)
        return iron__fail(IRON_EINVAL,
                          "%s: '%s': malformed header: missing %s", LOAD,
                          h->path,
                          !h->seen_descr     ? "'descr'"
                          : !h->seen_fortran ? "'fortran_order'"
                                             : "'shape'");
    return IRON_OK;
}

/* ---- load --------------------------------------------------------------- */

static iron_status truncated(const char *path, const char *what, size_t got,
                             size_t need)
{
    return iron__fail(IRON_EIO,
                      "%s: '%s': truncated file: %s needs %zu bytes, the "
                      "file has %zu",
                      LOAD, path, what, need, got);
}

/* Row-major copy of Fortran-ordered data: element (i0, .., in-1) of the
 * file sits at i0 + d0 * (i1 + d1 * (...)). */
static void from_fortran(const unsigned char *src, unsigned char *dst,
                         const iron_shape *sh, size_t size, int64_t numel)
{
    int64_t idx[IRON_MAX_DIMS] = { 0 }, fstride[IRON_MAX_DIMS];
    int n = sh->ndim;
    for (int k = 0; k < n; k++)
        fstride[k] = k ? fstride[k - 1] * sh->dims[k - 1] : 1;
    int64_t off = 0;
    for (int64_t i = 0; i < numel; i++) {
        memcpy(dst + (size_t)i * size, src + (size_t)off * size, size);
        for (int k = n - 1; k >= 0; k--) {
            if (++idx[k] < sh->dims[k]) {
                off += fstride[k];
                break;
            }
            off -= fstride[k] * (sh->dims[k] - 1);
            idx[k] = 0;
        }
    }
}

static iron_status read_data(FILE *f, const char *path, const hdr *h,
                             size_t offset, size_t file_bytes, iron_dtype dt,
                             int big, iron_tensor **out)
{
    iron_shape shape = { h->ndim ? h->ndim : 1, { 1 } };
    size_t size = iron_dtype_size(dt);
    uint64_t numel = 1;
    for (int k = 0; k < h->ndim; k++) {
        if (h->dims[k] == 0)
            return iron__fail(IRON_ESHAPE,
                              "%s: '%s': shape dimension %d is 0; iron "
                              "tensors have no empty dimensions",
                              LOAD, path, k);
        shape.dims[k] = h->dims[k];
        if (__builtin_mul_overflow(numel, (uint64_t)h->dims[k], &numel))
            return iron__fail(IRON_ESHAPE,
                              "%s: '%s': the shape's element count overflows "
                              "at dimension %d",
                              LOAD, path, k);
    }
    uint64_t need;
    size_t have = file_bytes - offset;
    if (__builtin_mul_overflow(numel, (uint64_t)size, &need) ||
        need > (uint64_t)have)
        return iron__fail(IRON_EIO,
                          "%s: '%s': truncated data: the shape needs %" PRIu64
                          " elements of %zu bytes, the file holds %zu bytes "
                          "of data",
                          LOAD, path, numel, size, have);
    if (need < (uint64_t)have)
        return iron__fail(IRON_EIO,
                          "%s: '%s': %zu bytes of data follow the %" PRIu64
                          " bytes the shape needs",
                          LOAD, path, have - (size_t)need, need);
    iron_tensor *t = NULL;
    iron_status s = iron_tensor_empty(dt, shape, &t);
    if (s != IRON_OK)
        return iron__fail_context(s, "%s: '%s'", LOAD, path);
    unsigned char *dst = t->host, *tmp = NULL;
    if (h->fortran && h->ndim > 1) {
        tmp = iron__malloc((size_t)need);
        if (!tmp) {
            iron_tensor_free(t);
            return iron__fail(IRON_ENOMEM, "%s: '%s': out of memory", LOAD,
                              path);
        }
        dst = tmp;
    }
    if (fread(dst, 1, (size_t)need, f) != (size_t)need) {
        iron__free(tmp);
        iron_tensor_free(t);
        return iron__fail(IRON_EIO, "%s: '%s': reading the data failed",
                          LOAD, path);
    }
    if (big == host_is_little())
        swap_bytes(dst, (size_t)numel, size);
    if (tmp) {
        from_fortran(tmp, t->host, &t->shape, size, t->numel);
        iron__free(tmp);
    }
    *out = t;
    return IRON_OK;
}

static uint32_t le_u32(const unsigned char *p, int n)
{
    uint32_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static iron_status load_file(FILE *f, const char *path, size_t file_bytes,
                             iron_tensor **out)
{
    unsigned char pre[12];
    size_t got = fread(pre, 1, 8, f);
    if (memcmp(pre, NPY_MAGIC, got < NPY_MAGIC_LEN ? got : NPY_MAGIC_LEN))
        return iron__fail(IRON_EINVAL,
                              "%s: '%s': not a .npy file (wrong magic: it "
                              "does not start with \\x93NUMPY)",
                              LOAD, path);
    if (got < 8)
        return truncated(path, "the preamble", got, 10);
    int major = pre[6], minor = pre[7];
    if (major < 1 || major > 3 || minor != 0)
        return iron__fail(IRON_ENOTSUP,
                          "%s: '%s': format version %d.%d; expected 1.0, "
                          "2.0 or 3.0",
                          LOAD, path, major, minor);
    int lenbytes = major == 1 ? 2 : 4;
    if (fread(pre + 8, 1, (size_t)lenbytes, f) != (size_t)lenbytes)
        return truncated(path, "the preamble", file_bytes,
                         8 + (size_t)lenbytes);
    uint32_t hlen = le_u32(pre + 8, lenbytes);
    size_t offset = 8 + (size_t)lenbytes + hlen;
    if (hlen > NPY_MAX_HEADER)
        return iron__fail(IRON_EINVAL,
                          "%s: '%s': malformed header: it claims %u bytes "
                          "(at most %u are accepted)",
                          LOAD, path, (unsigned)hlen, NPY_MAX_HEADER);
    if (offset > file_bytes)
        return truncated(path, "the header", file_bytes, offset);
    char *text = iron__malloc(hlen + 1);
    if (!text)
        return iron__fail(IRON_ENOMEM, "%s: out of memory", LOAD);
    if (fread(text, 1, hlen, f) != hlen) {
        iron__free(text);
        return iron__fail(IRON_EIO, "%s: '%s': reading the header failed",
                          LOAD, path);
    }
    text[hlen] = '\0';
    hdr h;
    memset(&h, 0, sizeof h);
    h.start = h.p = text;
    h.end = text + hlen;
    h.path = path;
    iron_status s = memchr(text, '\0', hlen)
                        ? bad(&h, "a NUL byte in the header")
                        : parse_header(&h);
    iron__free(text);
    if (s != IRON_OK)
        return s;
    iron_dtype dt = IRON_INT8;
    int big = 0;
    if ((s = dtype_of(path, h.descr, &dt, &big)) != IRON_OK)
        return s;
    return read_data(f, path, &h, offset, file_bytes, dt, big, out);
}

IRON_API iron_status iron_tensor_load_npy(const char *path, iron_tensor **out)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", LOAD);
    *out = NULL;
    if (!path || !path[0])
        return iron__fail(IRON_EINVAL, "%s: path is %s", LOAD,
                          path ? "empty" : "NULL");
    /* The library's careful open: a regular file only, so a FIFO or a
     * device named by mistake is refused at once instead of blocking. */
    struct stat st;
    int err;
    char why[IRON__FILE_WHY_MAX];
    int fd = iron__file_open(AT_FDCWD, path, 0, IRON__OWNER_ANY, UINT64_MAX,
                             &st, &err, why, sizeof why);
    if (fd < 0)
        return iron__fail(IRON_EIO, "%s: cannot open '%s': %s", LOAD, path,
                          why);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return iron__fail(IRON_EIO, "%s: cannot open '%s': %s", LOAD, path,
                          strerror(errno));
    }
    iron_status s = load_file(f, path, (size_t)st.st_size, out);
    fclose(f);
    return iron__public_result(s);
}

/* ---- save --------------------------------------------------------------- */

/* The header exactly as np.save writes it: keys sorted, repr() values,
 * room for the first axis to grow to 21 digits, spaces to the 64-byte
 * boundary and a newline. */
static iron_status header_text(const iron_tensor *t, iron__str *s,
                               int *major)
{
    char descr[8], first[32];
    descr_of(t->dtype, descr);
    iron__str_printf(s, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                     descr);
    for (int k = 0; k < t->shape.ndim; k++)
        iron__str_printf(s, "%s%" PRId64, k ? ", " : "", t->shape.dims[k]);
    iron__str_append(s, t->shape.ndim == 1 ? ",), }" : "), }");
    int n = snprintf(first, sizeof first, "%" PRId64, t->shape.dims[0]);
    for (int k = n; k < NPY_GROWTH_DIGITS; k++)
        iron__str_append(s, " ");
    /* Version 1.0 unless the padded header is too long for its 16-bit
     * length, as np.save decides. */
    size_t hlen = s->len + 1;
    *major = 1;
    size_t pad = NPY_ALIGN - (10 + hlen) % NPY_ALIGN;
    if (hlen + pad > 65535) {
        *major = 2;
        pad = NPY_ALIGN - (12 + hlen) % NPY_ALIGN;
    }
    for (size_t k = 0; k < pad; k++)
        iron__str_append(s, " ");
    iron__str_append(s, "\n");
    if (s->oom)
        return iron__fail(IRON_ENOMEM, "%s: out of memory", SAVE);
    return IRON_OK;
}

typedef struct npy_out {
    const iron_tensor *t;
    const iron__str *header;
    int major;
} npy_out;

/* The file's bytes: magic, version, header length, header, data (little
 * endian whatever the host). */
static iron_status write_body(iron__atomic_out *o, void *ctx)
{
    const npy_out *w = ctx;
    const iron_tensor *t = w->t;
    unsigned char pre[12];
    memcpy(pre, NPY_MAGIC, NPY_MAGIC_LEN);
    pre[6] = (unsigned char)w->major;
    pre[7] = 0;
    size_t hlen = w->header->len, npre = w->major == 1 ? 10 : 12;
    for (size_t i = 8; i < npre; i++)
        pre[i] = (unsigned char)(hlen >> (8 * (i - 8)));
    iron__atomic_put(o, pre, npre);
    iron__atomic_put(o, w->header->p, hlen);
    if (host_is_little()) {
        iron__atomic_put(o, t->host, t->nbytes);
        return IRON_OK;
    }
    /* Big-endian host: little-endian copies, a block at a time. */
    size_t size = iron_dtype_size(t->dtype);
    unsigned char block[4096];
    const unsigned char *src = t->host;
    for (size_t done = 0; done < t->nbytes;) {
        size_t n = t->nbytes - done < sizeof block ? t->nbytes - done
                                                   : sizeof block;
        memcpy(block, src + done, n);
        swap_bytes(block, n / size, size);
        iron__atomic_put(o, block, n);
        done += n;
    }
    return IRON_OK;
}

IRON_API iron_status iron_tensor_save_npy(const iron_tensor *t,
                                          const char *path)
{
    if (!t)
        return iron__fail(IRON_EINVAL, "%s: tensor is NULL", SAVE);
    if (!path || !path[0])
        return iron__fail(IRON_EINVAL, "%s: path is %s", SAVE,
                          path ? "empty" : "NULL");
    iron__str h = { 0 };
    npy_out w = { t, &h, 0 };
    iron_status s = header_text(t, &h, &w.major);
    if (s == IRON_OK) {
        /* The library's one all-or-nothing write: a reader sees the old
         * file or the new one, never a part. */
        iron__atomic_file a = { .dirfd = AT_FDCWD, .name = path,
                                 .what = ".npy file", .mode = 0666 };
        s = iron__atomic_write(&a, write_body, &w);
        if (s != IRON_OK)
            iron__fail_context(s, "%s", SAVE);
    }
    iron__str_free(&h);
    return iron__public_result(s);
}
