/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * tensor.h - internals of the tensor layer: the tensor struct (the JIT reads
 * its fields directly), element conversion helpers and the portable PRNG.
 */
#ifndef IRON_TENSOR_TENSOR_H
#define IRON_TENSOR_TENSOR_H

#include <stdatomic.h>
#include "iron/iron.h"

/* The memory one or more tensors share: driver memory from buf_alloc, or
 * caller memory the driver accepted through buf_wrap.  refs counts the
 * tensors on it (a tensor and its views, reshapes, DLPack exports); the
 * last iron_tensor_free gives it back to the driver and, for wrapped
 * memory, then calls release (once).  host .. host + nbytes is the whole
 * range any tensor on it may reach. */
typedef struct iron__storage {
    atomic_int refs;
    iron_device *dev;
    void *host;
    void *handle;
    size_t nbytes;
    int wrapped;
    iron_tensor_release_fn release;
    void *release_ctx;
} iron__storage;

/* host is the tensor's element (0, ..., 0) inside its storage, handle the
 * storage's driver handle (a view's host lies inside it, past its start).
 * strides are in elements (any sign); contiguous is 1 when they are the
 * row-major ones, so that host .. host + nbytes holds the elements in
 * order.  nbytes is always numel x the dtype's size.  None of these
 * change after construction. */
struct iron_tensor {
    iron_dtype dtype;
    iron_shape shape;
    int64_t numel;
    size_t nbytes;
    void *host;
    void *handle;
    iron_device *dev;
    int64_t strides[IRON_MAX_DIMS];
    int contiguous;
    iron__storage *st;
    /* Running calls using it, and IRON__TENSOR_WAITED when a free waits
     * for them (inuse.c): one word, so that the last call to let go
     * learns of the waiter without touching the tensor again. */
    atomic_int holds;
};

/* --- tensor.c: shared validation ----------------------------------------- */

iron_status iron__tensor_check_dtype(const char *fn, iron_dtype dt);
/* Checks the shape and computes numel and nbytes (see tensor.c). */
iron_status iron__tensor_check_shape(const char *fn, iron_dtype dt,
                                     const iron_shape *shape, int64_t *numel,
                                     size_t *nbytes);
/* A tensor struct on st (taking one reference) with the given layout; the
 * caller has checked that the layout lies inside st.  NULL when out of
 * memory (st untouched then). */
iron_tensor *iron__tensor_on(iron__storage *st, iron_dtype dt,
                             const iron_shape *shape, int64_t numel,
                             size_t nbytes, void *host,
                             const int64_t *strides);
/* Every element of the contiguous t set to value (as iron_tensor_full). */
void iron__tensor_fill(iron_tensor *t, double value);
/* The row-major strides of shape (in elements). */
void iron__tensor_rowmajor(const iron_shape *shape, int64_t *strides);
/* The address of element i in row-major order through t's strides. */
unsigned char *iron__tensor_elem(const iron_tensor *t, int64_t i);

/* --- view.c ------------------------------------------------------------- */

/* IRON_EARG naming argument i ('name') of `who` when t is not contiguous:
 * a call hands the device one row-major range. */
iron_status iron__tensor_check_callable(const iron_tensor *t,
                                        const char *who, int i,
                                        const char *name);

/* 1 when the contiguous tensors a and b share any byte of memory. */
int iron__tensor_overlaps(const iron_tensor *a, const iron_tensor *b);

/* --- storage.c ----------------------------------------------------------- */

void iron__storage_ref(iron__storage *st);
/* Drops one reference; the last one returns the memory (see above). */
void iron__storage_unref(iron__storage *st);
/* Zeroed driver memory of nbytes on dev (NULL: the current device), one
 * reference. */
iron_status iron__storage_alloc(const char *fn, iron_device *dev,
                                size_t nbytes, iron__storage **out);
/* A new zeroed contiguous tensor of dt x shape on dev (NULL: the current
 * device), validated like iron_tensor_zeros. */
iron_status iron__tensor_new(const char *fn, iron_device *dev, iron_dtype dt,
                             iron_shape shape, iron_tensor **out);
/* Wraps caller memory on the current device (the checks of
 * iron_tensor_wrap are the caller's).  On failure nothing is held and
 * release is not called. */
iron_status iron__storage_wrap(const char *fn, void *data, size_t bytes,
                               iron_tensor_release_fn release,
                               void *release_ctx, iron__storage **out);

/* --- dtype.c ------------------------------------------------------------ */

/* 1 when dt is a member of the enum. */
int iron__dtype_valid(iron_dtype dt);
/* The C type of one element, as generated C spells it (bfloat16 travels
 * as its bits, uint16_t); "?" for a dtype outside the enum. */
const char *iron__dtype_ctype(iron_dtype dt);
/* 1 for float32, float64, bfloat16. */
int iron__dtype_is_float(iron_dtype dt);
/* 1 for the signed integer types. */
int iron__dtype_is_signed(iron_dtype dt);
/* The value range of an integer dtype (0 / 0 for float dtypes).  The upper
 * bound is unsigned so that uint64's fits. */
void iron__dtype_int_range(iron_dtype dt, int64_t *min, uint64_t *max);
/* Significand bits of a float dtype (24, 53, 8); 0 for integers.  Integers
 * up to 2^bits in magnitude are exact in that dtype. */
int iron__dtype_mantissa_bits(iron_dtype dt);

/* Element *p of dtype dt as a double (int64/uint64 beyond 2^53 round).
 * dt must be valid. */
double iron__dtype_load(iron_dtype dt, const void *p);
/* Stores v converted to dt at p: integers truncate toward zero and saturate
 * at the dtype's range, NaN becomes 0; float32 and bfloat16 round to
 * nearest even (overflow gives infinity).  dt must be valid. */
void iron__dtype_store(iron_dtype dt, void *p, double v);

/* --- rng.c --------------------------------------------------------------
 * xoshiro256** seeded through splitmix64: the same seed gives the same
 * stream on every machine and compiler. */

typedef struct iron__rng {
    uint64_t s[4];
} iron__rng;

/* The splitmix64 step used for seeding: advances *x, returns the output. */
uint64_t iron__splitmix64(uint64_t *x);
void iron__rng_seed(iron__rng *r, uint64_t seed);
uint64_t iron__rng_next(iron__rng *r);
/* Uniform in [0, 1) with `bits` random bits (1 .. 53): k * 2^-bits from the
 * top bits of one draw.  53 gives a full double. */
double iron__rng_unit(iron__rng *r, int bits);
/* Uniform in [0, n) without modulo bias; n == 0 means the full 2^64. */
uint64_t iron__rng_below(iron__rng *r, uint64_t n);

/* "int32[16, 4]" into buf (always NUL-terminated; "(null)" for NULL);
 * returns buf.  IRON__TENSOR_DESCRIBE_MAX holds any tensor's. */
#define IRON__TENSOR_DESCRIBE_MAX 160
char *iron__tensor_describe(const iron_tensor *t, char *buf, size_t len);

/* --- inuse.c: tensors held by running calls ------------------------------ */

#define IRON__TENSOR_WAITED (1 << 30)
void iron__tensor_hold(iron_tensor *t);
void iron__tensor_release(iron_tensor *t);
/* Returns once no call holds t (at once when none does). */
void iron__tensor_wait_unheld(iron_tensor *t);

#endif
