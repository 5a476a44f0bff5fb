/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_body.c - described core bodies (iron_body_*) running on the
 * emulator: each gives the same results as the equivalent core body
 * written in C (or standard-loop worker), through loops, while, if,
 * element loads and stores, kernel calls with scalars, buffer reads
 * after a barrier wait, multi-object acquires, float and bfloat16
 * arithmetic; identical bodies share one compiled object; the results
 * MLIR leaves undefined are the documented ones; index and step checks
 * stop the run naming the op.
 */
#include "body/body.h"
#include "test.h"

enum { N = 16 };

/* --- helpers ------------------------------------------------------------- */

static iron_val cidx(iron_body *b, int64_t v)
{
    return iron_body_const_int(b, IRON_BT_INDEX, v);
}

static iron_val ci32(iron_body *b, int64_t v)
{
    return iron_body_const_int(b, IRON_BT_I32, v);
}

static iron_val ar(iron_body *b, iron_arith op, iron_val x, iron_val y)
{
    return iron_body_arith(b, op, x, y);
}

/* Opens upstream's while_true loop (for 0 to INT64_MAX step 1). */
static void forever(iron_body *b)
{
    iron_body_for(b, cidx(b, 0), cidx(b, INT64_MAX), cidx(b, 1), 0, NULL,
                  NULL);
}

/* Opens for i in 0 .. n; returns i. */
static iron_val each(iron_body *b, int64_t n)
{
    return iron_body_for(b, cidx(b, 0), cidx(b, n), cidx(b, 1), 0, NULL,
                         NULL);
}

static void end(iron_body *b)
{
    iron_body_end_for(b, 0, NULL, NULL);
}

static iron_val object(iron_body *b, iron_val fifo)
{
    return iron_body_object(b, iron_body_acquire(b, fifo, 1), 0);
}

/* The frame most bodies here share: fifo values in and out, the
 * endless loop, one object of each (x from in, y from out) acquired at
 * its top; close_frame releases both and closes the loop. */
typedef struct frame {
    iron_body *b;
    iron_val in, out, x, y;
} frame;

static frame open_frame(iron_design *d, const char *name, iron_handle *hin,
                        iron_handle *hout)
{
    frame f;
    f.b = iron_body_new(d, name);
    f.in = iron_body_fifo(f.b, hin);
    f.out = iron_body_fifo(f.b, hout);
    forever(f.b);
    f.x = object(f.b, f.in);
    f.y = object(f.b, f.out);
    return f;
}

/* Also the end of the bodies that acquire their objects themselves. */
static void release_both(iron_body *b, iron_val in, iron_val out)
{
    iron_body_release(b, in, 1);
    iron_body_release(b, out, 1);
    end(b);
}

static void close_frame(const frame *f)
{
    release_both(f->b, f->in, f->out);
}

/* The C twin's frame, around the code that reads x and writes y (of
 * element type T). */
#define C_OPEN(name, T)                                                       \
    "void " name "(iron_objfifo *in, iron_objfifo *out)\n"                    \
    "{\n"                                                                     \
    "    for (;;) {\n"                                                        \
    "        " T " *x = (" T " *)iron_acquire(in, 1)[0];\n"                   \
    "        " T " *y = (" T " *)iron_acquire(out, 1)[0];\n"
#define C_CLOSE                                                               \
    "        iron_release(in, 1);\n"                                          \
    "        iron_release(out, 1);\n"                                         \
    "    }\n"                                                                 \
    "}\n"

/* A design with fifos in -> worker -> out of int32[N] (or float32), the
 * worker made by `make` (a described body or its C twin). */
typedef void (*make_fn)(iron_design *d, iron_handle *in, iron_handle *out);

typedef struct pipe_spec {
    make_fn make;
    iron_dtype dt;
} pipe_spec;

static int pipe_design(iron_design *d, void *user)
{
    const pipe_spec *ps = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *fi = iron_fifo_new(d, "in", ps->dt, IRON_SHAPE(N), 2);
    iron_fifo *fo = iron_fifo_new(d, "out", ps->dt, IRON_SHAPE(N), 2);
    ps->make(d, iron_fifo_cons(fi), iron_fifo_prod(fo));
    iron_rt_fill(d, iron_fifo_prod(fi), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(fo), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* Runs the pipeline twice (the worker keeps its place in the fifos
 * across calls) on `in`; returns the second output (iron_tensor_free). */
static iron_tensor *run_pipe(make_fn make, iron_dtype dt, iron_tensor *in)
{
    pipe_spec ps = { make, dt };
    iron_jit_options o = { .size = sizeof o, .name = "pipe",
                           .args = "in a, out b", .user = &ps };
    iron_jit *j = test_new_jit(pipe_design, &o);
    iron_tensor *out = test_zeros(dt, iron_tensor_numel(in));
    for (int call = 0; call < 2; call++)
        ASSERT_OK(test_launch(j, 0, 2, (iron_tensor *const[]){ in, out }));
    iron_jit_free(j);
    return out;
}

/* The two outputs agree element for element (bits, for floats). */
static void assert_same(iron_tensor *a, iron_tensor *b)
{
    ASSERT_EQ(iron_tensor_nbytes(a), iron_tensor_nbytes(b));
    const unsigned char *x = iron_tensor_data(a), *y = iron_tensor_data(b);
    for (size_t i = 0; i < iron_tensor_nbytes(a); i++)
        if (x[i] != y[i])
            TEST_FAIL_("byte %zu differs: %u vs %u", i, x[i], y[i]);
}

static void compare(make_fn body, make_fn c, iron_dtype dt, iron_tensor *in)
{
    iron_tensor *x = run_pipe(body, dt, in), *y = run_pipe(c, dt, in);
    assert_same(x, y);
    iron_tensor_free(x);
    iron_tensor_free(y);
}

static void core_worker(iron_design *d, iron_handle *in, iron_handle *out,
                        const char *entry, const char *src)
{
    iron_kernel *k = iron_kernel_new_core(d, entry, src, "fifo, fifo");
    iron_worker_new(d, "w", k, 0,
                    IRON_ARGS(iron_arg_fifo(in), iron_arg_fifo(out)));
}

/* --- loops, loads and stores --------------------------------------------- */

static void affine_body(iron_design *d, iron_handle *hin, iron_handle *hout)
{
    frame f = open_frame(d, "affine", hin, hout);
    iron_body *b = f.b;
    iron_val x = f.x, y = f.y;
    iron_val i = each(b, N);
    iron_val v = iron_body_load(b, x, 1, &i);
    v = ar(b, IRON_ARITH_MULI, v, ci32(b, 3));
    v = ar(b, IRON_ARITH_ADDI, v, ci32(b, 1));
    iron_body_store(b, v, y, 1, &i);
    end(b);
    close_frame(&f);
    iron_worker_new_body(d, "w", b);
}

static void affine_c(iron_design *d, iron_handle *in, iron_handle *out)
{
    core_worker(d, in, out, "affine",
                C_OPEN("affine", "int32_t")
                "        for (int i = 0; i < 16; i++)\n"
                "            y[i] = (int32_t)((uint32_t)x[i] * 3u + 1u);\n"
                C_CLOSE);
}

TEST(body_e2e_loop_loads_stores_match_c)
{
    iron_tensor *a = test_randint(IRON_INT32, IRON_SHAPE(64), INT32_MIN,
                                  INT32_MAX, 7);
    compare(affine_body, affine_c, IRON_INT32, a);
    iron_tensor *x = run_pipe(affine_body, IRON_INT32, a);
    const int32_t *p = iron_tensor_data(a), *q = iron_tensor_data(x);
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(q[i], (int32_t)((uint32_t)p[i] * 3u + 1u));
    iron_tensor_free(x);
    iron_tensor_free(a);
}

/* --- while and if -------------------------------------------------------- */

/* Collatz steps (at most 30) of each element, and where it stopped. */
static void collatz_body(iron_design *d, iron_handle *hin, iron_handle *hout)
{
    frame f = open_frame(d, "collatz", hin, hout);
    iron_body *b = f.b;
    iron_val x = f.x, y = f.y;
    iron_val i = each(b, N);
    iron_val init[2] = { iron_body_load(b, x, 1, &i), ci32(b, 0) };
    iron_val arg[2], after[2], res[2], r;
    iron_body_while(b, 2, init, arg);
    iron_val c = ar(b, IRON_ARITH_ANDI,
                    iron_body_cmp(b, IRON_CMP_NE, arg[0], ci32(b, 1)),
                    iron_body_cmp(b, IRON_CMP_SLT, arg[1], ci32(b, 30)));
    iron_body_while_do(b, c, 2, arg, after);
    iron_val even = iron_body_cmp(b, IRON_CMP_EQ,
                                  ar(b, IRON_ARITH_REMUI, after[0],
                                     ci32(b, 2)),
                                  ci32(b, 0));
    iron_body_if(b, even, 1);
    iron_val h = ar(b, IRON_ARITH_DIVUI, after[0], ci32(b, 2));
    iron_body_else(b, 1, &h);
    iron_val t = ar(b, IRON_ARITH_ADDI,
                    ar(b, IRON_ARITH_MULI, after[0], ci32(b, 3)),
                    ci32(b, 1));
    iron_body_end_if(b, 1, &t, &r);
    iron_val yl[2] = { r, ar(b, IRON_ARITH_ADDI, after[1], ci32(b, 1)) };
    iron_body_end_while(b, 2, yl, res);
    iron_val v = ar(b, IRON_ARITH_ADDI,
                    ar(b, IRON_ARITH_MULI, res[1], ci32(b, 1000)),
                    ar(b, IRON_ARITH_ANDI, res[0], ci32(b, 0x3ff)));
    iron_body_store(b, v, y, 1, &i);
    end(b);
    close_frame(&f);
    iron_worker_new_body(d, "w", b);
}

static void collatz_c(iron_design *d, iron_handle *in, iron_handle *out)
{
    core_worker(d, in, out, "collatz",
                C_OPEN("collatz", "int32_t")
                "        for (int i = 0; i < 16; i++) {\n"
                "            uint32_t v = (uint32_t)x[i];\n"
                "            int32_t s = 0;\n"
                "            while (v != 1 && s < 30) {\n"
                "                v = v % 2 == 0 ? v / 2 : 3 * v + 1;\n"
                "                s++;\n"
                "            }\n"
                "            y[i] = s * 1000 + (int32_t)(v & 0x3ff);\n"
                "        }\n"
                C_CLOSE);
}

TEST(body_e2e_while_and_if_match_c)
{
    iron_tensor *a = test_arange(IRON_INT32, 64);
    compare(collatz_body, collatz_c, IRON_INT32, a);
    iron_tensor *x = run_pipe(collatz_body, IRON_INT32, a);
    ASSERT_EQ(test_at(x, 1), 1);            /* 1: no step */
    ASSERT_EQ(test_at(x, 6), 8 * 1000 + 1); /* 6 3 10 5 16 8 4 2 1 */
    iron_tensor_free(x);
    iron_tensor_free(a);
}

/* --- kernel calls with scalars ------------------------------------------- */

static const char scale_src[] =
    "#include <stdint.h>\n"
    "void scale(const int32_t *a, int32_t *b, int32_t n, int32_t f)\n"
    "{ for (int32_t i = 0; i < n; i++) b[i] = a[i] * f + i; }\n";

static void scale_body(iron_design *d, iron_handle *hin, iron_handle *hout)
{
    iron_kernel *k = iron_kernel_new(d, "scale", scale_src,
                                     "int32*, int32*, int32, int32");
    iron_body *b = iron_body_new(d, "calls");
    iron_val in = iron_body_fifo(b, hin), out = iron_body_fifo(b, hout);
    iron_val kv = iron_body_kernel(b, k);
    forever(b);
    iron_val args[4] = { object(b, in), object(b, out), ci32(b, N),
                         ci32(b, 7) };
    iron_body_call(b, kv, 4, args);
    release_both(b, in, out);
    iron_worker_new_body(d, "w", b);
}

static void scale_standard(iron_design *d, iron_handle *in,
                           iron_handle *out)
{
    iron_kernel *k = iron_kernel_new(d, "scale", scale_src,
                                     "int32*, int32*, int32, int32");
    iron_worker_new(d, "w", k, 0,
                    IRON_ARGS(iron_arg_fifo(in), iron_arg_fifo(out),
                              iron_arg_int(N), iron_arg_int(7)));
}

TEST(body_e2e_kernel_call_with_scalars_matches_standard_loop)
{
    iron_tensor *a = test_arange(IRON_INT32, 64);
    compare(scale_body, scale_standard, IRON_INT32, a);
    iron_tensor *x = run_pipe(scale_body, IRON_INT32, a);
    ASSERT_EQ(test_at(x, 17), 17 * 7 + 1);
    iron_tensor_free(x);
    iron_tensor_free(a);
}

static const char axpy_src[] =
    "#include <stdint.h>\n"
    "void axpy(const float *x, float *y, float a, uint16_t h, int32_t n)\n"
    "{\n"
    "    union { uint32_t u; float f; } c = { (uint32_t)h << 16 };\n"
    "    for (int32_t i = 0; i < n; i++) y[i] = a * x[i] + c.f;\n"
    "}\n";

static void axpy_body(iron_design *d, iron_handle *hin, iron_handle *hout)
{
    iron_kernel *k = iron_kernel_new(d, "axpy", axpy_src,
                                     "float32*, float32*, float32, "
                                     "bfloat16, int32");
    iron_body *b = iron_body_new(d, "calls_f");
    iron_val in = iron_body_fifo(b, hin), out = iron_body_fifo(b, hout);
    iron_val kv = iron_body_kernel(b, k);
    forever(b);
    iron_val args[5] = {
        object(b, in), object(b, out),
        iron_body_const_float(b, IRON_BT_F32, 2.5),
        iron_body_const_float(b, IRON_BT_BF16, -0.375), ci32(b, N),
    };
    iron_body_call(b, kv, 5, args);
    release_both(b, in, out);
    iron_worker_new_body(d, "w", b);
}

static void axpy_standard(iron_design *d, iron_handle *in, iron_handle *out)
{
    iron_kernel *k = iron_kernel_new(d, "axpy", axpy_src,
                                     "float32*, float32*, float32, "
                                     "bfloat16, int32");
    iron_worker_new(d, "w", k, 0,
                    IRON_ARGS(iron_arg_fifo(in), iron_arg_fifo(out),
                              iron_arg_float(2.5), iron_arg_float(-0.375),
                              iron_arg_int(N)));
}

TEST(body_e2e_float_and_bf16_scalars_match_standard_loop)
{
    iron_tensor *a = test_arange(IRON_FLOAT32, 64);
    compare(axpy_body, axpy_standard, IRON_FLOAT32, a);
    iron_tensor *x = run_pipe(axpy_body, IRON_FLOAT32, a);
    ASSERT_DBL_NEAR(test_at(x, 4), 2.5 * 4 - 0.375, 1e-9);
    iron_tensor_free(x);
    iron_tensor_free(a);
}

/* --- buffers read after a barrier wait ----------------------------------- */

typedef struct rtp_spec {
    int described;
} rtp_spec;

static const char rtp_c_src[] =
    "void rtpb(iron_objfifo *in, iron_objfifo *out, int32_t *p,\n"
    "          iron_barrier *go)\n"
    "{\n"
    "    for (;;) {\n"
    "        iron_barrier_wait(go, 1);\n"
    "        int32_t *x = (int32_t *)iron_acquire(in, 1)[0];\n"
    "        int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
    "        for (int i = 0; i < 16; i++)\n"
    "            y[i] = (int32_t)((uint32_t)x[i] * (uint32_t)p[0] +\n"
    "                             (uint32_t)p[1]);\n"
    "        iron_release(in, 1);\n"
    "        iron_release(out, 1);\n"
    "    }\n"
    "}\n";

static int rtp_design(iron_design *d, void *user)
{
    const rtp_spec *rs = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *fi = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(N), 2);
    iron_fifo *fo = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(N), 2);
    iron_rtp *r = iron_rtp_new(d, "p", IRON_INT32, 2);
    iron_barrier *go = iron_barrier_new(d, "go");
    if (rs->described) {
        iron_body *b = iron_body_new(d, "rtpb");
        iron_val in = iron_body_fifo(b, iron_fifo_cons(fi));
        iron_val out = iron_body_fifo(b, iron_fifo_prod(fo));
        iron_val p = iron_body_rtp(b, r), g = iron_body_barrier(b, go);
        forever(b);
        iron_body_barrier_wait(b, g, 1);
        iron_val x = object(b, in), y = object(b, out);
        iron_val c0 = cidx(b, 0), c1 = cidx(b, 1);
        iron_val m = iron_body_load(b, p, 1, &c0);
        iron_val a = iron_body_load(b, p, 1, &c1);
        iron_val i = each(b, N);
        iron_val v = iron_body_load(b, x, 1, &i);
        v = ar(b, IRON_ARITH_ADDI, ar(b, IRON_ARITH_MULI, v, m), a);
        iron_body_store(b, v, y, 1, &i);
        end(b);
        release_both(b, in, out);
        iron_worker_new_body(d, "w", b);
    } else {
        iron_kernel *k = iron_kernel_new_core(d, "rtpb", rtp_c_src,
                                              "fifo, fifo, int32*, "
                                              "barrier");
        iron_worker_new(d, "w", k, 0,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(fi)),
                                  iron_arg_fifo(iron_fifo_prod(fo)),
                                  iron_arg_rtp(r), iron_arg_barrier(go)));
    }
    iron_rt_set_rtp(d, r, 0, -3);
    iron_rt_set_rtp(d, r, 1, 1000);
    iron_rt_set_barrier(d, go, 1);
    iron_rt_fill(d, iron_fifo_prod(fi), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(fo), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(body_e2e_rtp_read_after_barrier_wait_matches_c)
{
    iron_tensor *a = test_arange(IRON_INT32, 64);
    iron_tensor *out[2];
    for (int k = 0; k < 2; k++) {
        rtp_spec rs = { k };
        iron_jit_options o = { .size = sizeof o, .name = "rtp",
                               .args = "in a, out b", .user = &rs };
        iron_jit *j = test_new_jit(rtp_design, &o);
        out[k] = test_zeros(IRON_INT32, 64);
        ASSERT_OK(test_launch(j, 0, 2, (iron_tensor *const[]){ a, out[k] }));
        iron_jit_free(j);
    }
    assert_same(out[0], out[1]);
    ASSERT_EQ(test_at(out[1], 5), 5 * -3 + 1000);
    iron_tensor_free(out[0]);
    iron_tensor_free(out[1]);
    iron_tensor_free(a);
}

/* --- multi-object acquires ----------------------------------------------- */

enum { WOBJ = 8, WOBJS = 10 };

typedef struct win_spec {
    int described;
} win_spec;

static const char window_src[] =
    "void window(iron_objfifo *in, iron_objfifo *out)\n"
    "{\n"
    "    for (;;) {\n"
    "        iron_acquire(in, 2);\n"
    "        for (int o = 0; o < 10 - 2; o++) {\n"
    "            int32_t **w = (int32_t **)iron_acquire(in, 3);\n"
    "            int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
    "            for (int i = 0; i < 8; i++)\n"
    "                y[i] = w[0][i] + w[1][i] + w[2][i];\n"
    "            iron_release(out, 1);\n"
    "            iron_release(in, 1);\n"
    "        }\n"
    "        iron_release(in, 2);\n"
    "    }\n"
    "}\n";

static int window_design(iron_design *d, void *user)
{
    const win_spec *ws = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *fi = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(WOBJ), 3);
    iron_fifo *fo = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(WOBJ), 2);
    if (ws->described) {
        iron_body *b = iron_body_new(d, "window");
        iron_val in = iron_body_fifo(b, iron_fifo_cons(fi));
        iron_val out = iron_body_fifo(b, iron_fifo_prod(fo));
        forever(b);
        iron_body_acquire(b, in, 2);
        each(b, WOBJS - 2);
        iron_val w = iron_body_acquire(b, in, 3);
        iron_val w0 = iron_body_object(b, w, 0);
        iron_val w1 = iron_body_object(b, w, 1);
        iron_val w2 = iron_body_object(b, w, 2);
        iron_val y = object(b, out);
        iron_val i = each(b, WOBJ);
        iron_val s = ar(b, IRON_ARITH_ADDI, iron_body_load(b, w0, 1, &i),
                        iron_body_load(b, w1, 1, &i));
        s = ar(b, IRON_ARITH_ADDI, s, iron_body_load(b, w2, 1, &i));
        iron_body_store(b, s, y, 1, &i);
        end(b);
        iron_body_release(b, out, 1);
        iron_body_release(b, in, 1);
        end(b);
        iron_body_release(b, in, 2);
        end(b);
        iron_worker_new_body(d, "w", b);
    } else {
        iron_kernel *k = iron_kernel_new_core(d, "window", window_src,
                                              "fifo, fifo");
        iron_worker_new(d, "w", k, 0,
                        IRON_ARGS(iron_arg_fifo_acquire(iron_fifo_cons(fi),
                                                        3),
                                  iron_arg_fifo(iron_fifo_prod(fo))));
    }
    iron_rt_fill(d, iron_fifo_prod(fi), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(fo), 1,
                  iron_tap_linear(n - 2 * WOBJ), IRON_WAIT);
    return 0;
}

TEST(body_e2e_multi_object_acquire_matches_c)
{
    iron_tensor *a = test_arange(IRON_INT32, WOBJ * WOBJS);
    iron_tensor *out[2];
    for (int k = 0; k < 2; k++) {
        win_spec ws = { k };
        iron_jit_options o = { .size = sizeof o, .name = "window",
                               .args = "in a, out b", .user = &ws };
        iron_jit *j = test_new_jit(window_design, &o);
        out[k] = test_zeros(IRON_INT32, WOBJ * (WOBJS - 2));
        for (int call = 0; call < 2; call++)
            ASSERT_OK(test_launch(j, 0, 2,
                                  (iron_tensor *const[]){ a, out[k] }));
        iron_jit_free(j);
    }
    assert_same(out[0], out[1]);
    ASSERT_EQ(test_at(out[1], 3), 3 + 11 + 19);
    iron_tensor_free(out[0]);
    iron_tensor_free(out[1]);
    iron_tensor_free(a);
}

/* --- float and bfloat16 arithmetic --------------------------------------- */

/* y = maximumf(x * 0.5, -x) + float(bf16(x) * bf16(x) - 1.5) */
static void float_body(iron_design *d, iron_handle *hin, iron_handle *hout)
{
    frame f = open_frame(d, "floats", hin, hout);
    iron_body *b = f.b;
    iron_val x = f.x, y = f.y;
    iron_val i = each(b, N);
    iron_val v = iron_body_load(b, x, 1, &i);
    iron_val h = ar(b, IRON_ARITH_MULF, v,
                    iron_body_const_float(b, IRON_BT_F32, 0.5));
    iron_val m = ar(b, IRON_ARITH_MAXIMUMF, h,
                    ar(b, IRON_ARITH_NEGF, v, IRON_VAL_NONE));
    iron_val bv = iron_body_cast(b, IRON_ARITH_TRUNCF, v, IRON_BT_BF16);
    iron_val sq = ar(b, IRON_ARITH_SUBF, ar(b, IRON_ARITH_MULF, bv, bv),
                     iron_body_const_float(b, IRON_BT_BF16, 1.5));
    iron_val r = ar(b, IRON_ARITH_ADDF, m,
                    iron_body_cast(b, IRON_ARITH_EXTF, sq, IRON_BT_F32));
    iron_body_store(b, r, y, 1, &i);
    end(b);
    close_frame(&f);
    iron_worker_new_body(d, "w", b);
}

static void float_c(iron_design *d, iron_handle *in, iron_handle *out)
{
    core_worker(d, in, out, "floats",
                "#include <iron/iron_kernel.h>\n"
                C_OPEN("floats", "float")
                "        for (int i = 0; i < 16; i++) {\n"
                "            float h = x[i] * 0.5f, n = -x[i];\n"
                "            float m = h > n ? h : n;\n"
                "            iron_bf16 b = iron_k_bf16_from_float(x[i]);\n"
                "            float bb = iron_k_bf16_to_float(b);\n"
                "            iron_bf16 p = iron_k_bf16_from_float(bb * bb);\n"
                "            iron_bf16 s = iron_k_bf16_from_float(\n"
                "                iron_k_bf16_to_float(p) - 1.5f);\n"
                "            y[i] = m + iron_k_bf16_to_float(s);\n"
                "        }\n"
                C_CLOSE);
}

TEST(body_e2e_float_and_bf16_arithmetic_match_c)
{
    iron_tensor *a;
    ASSERT_OK(iron_tensor_rand(IRON_FLOAT32, IRON_SHAPE(64), 3, &a));
    float *p = iron_tensor_data(a);
    for (int i = 0; i < 64; i++)
        p[i] = (p[i] - 0.5f) * 1000.0f;     /* no NaN, no -0 vs +0 tie */
    compare(float_body, float_c, IRON_FLOAT32, a);
    iron_tensor_free(a);
}

/* --- identical bodies share one compiled object -------------------------- */

static iron_body *adder(iron_design *d, iron_fifo *fi, iron_fifo *fo,
                        int64_t add)
{
    iron_body *b = iron_body_new(d, "adder");
    iron_val in = iron_body_fifo(b, iron_fifo_cons(fi));
    iron_val out = iron_body_fifo(b, iron_fifo_prod(fo));
    forever(b);
    iron_val x = object(b, in), y = object(b, out);
    iron_val i = each(b, N);
    iron_body_store(b, ar(b, IRON_ARITH_ADDI, iron_body_load(b, x, 1, &i),
                          ci32(b, add)),
                    y, 1, &i);
    end(b);
    release_both(b, in, out);
    return b;
}

static int two_adders(iron_design *d, void *user)
{
    const int64_t *adds = user;
    for (int k = 0; k < 2; k++) {
        char nin[16], nout[16], nw[16];
        snprintf(nin, sizeof nin, "in%d", k);
        snprintf(nout, sizeof nout, "out%d", k);
        snprintf(nw, sizeof nw, "w%d", k);
        iron_fifo *fi = iron_fifo_new(d, nin, IRON_INT32, IRON_SHAPE(N), 2);
        iron_fifo *fo = iron_fifo_new(d, nout, IRON_INT32, IRON_SHAPE(N), 2);
        iron_worker_new_body(d, nw, adder(d, fi, fo, adds[k]));
        iron_rt_fill(d, iron_fifo_prod(fi), k, iron_tap_linear(N * 4));
        iron_rt_drain(d, iron_fifo_cons(fo), 2 + k, iron_tap_linear(N * 4),
                      IRON_WAIT);
    }
    return 0;
}

static uint64_t adders_compiles(int64_t a0, int64_t a1)
{
    int64_t adds[2] = { a0, a1 };
    iron_jit_options o = { .size = sizeof o, .name = "adders",
                           .args = "in a, in b, out c, out d",
                           .user = adds,
                           .disk_cache = -1 /* counts compiles */ };
    iron_jit *j = test_new_jit(two_adders, &o);
    iron_tensor *a = test_arange(IRON_INT32, N * 4);
    iron_tensor *b = test_arange(IRON_INT32, N * 4);
    iron_tensor *c = test_zeros(IRON_INT32, N * 4);
    iron_tensor *e = test_zeros(IRON_INT32, N * 4);
    ASSERT_OK(test_launch(j, 0, 4, (iron_tensor *const[]){ a, b, c, e }));
    ASSERT_EQ(test_at(c, 9), 9 + a0);
    ASSERT_EQ(test_at(e, 9), 9 + a1);
    uint64_t n = test_stats(j).kernel_compiles;
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_tensor_free(e);
    iron_jit_free(j);
    return n;
}

TEST(body_e2e_identical_bodies_share_one_compiled_object)
{
    /* The C names no fifo or worker: in0/out0 and in1/out1 give one
     * text, so one object (each worker still gets its own instance). */
    ASSERT_EQ(adders_compiles(5, 5), 1);
    ASSERT_EQ(adders_compiles(5, 6), 2);
}

/* --- defined results where MLIR has none --------------------------------- */

/* y[k] = op_k(x[0], x[1]) for a list of ops on i32 and conversions. */
static void edge_body(iron_design *d, iron_handle *hin, iron_handle *hout)
{
    frame f = open_frame(d, "edges", hin, hout);
    iron_body *b = f.b;
    iron_val x = f.x, y = f.y;
    iron_val c[4];
    for (int k = 0; k < 4; k++)
        c[k] = cidx(b, k);
    iron_val a = iron_body_load(b, x, 1, &c[0]);    /* 7 */
    iron_val z = iron_body_load(b, x, 1, &c[1]);    /* 0 */
    iron_val mn = iron_body_load(b, x, 1, &c[2]);   /* INT32_MIN */
    iron_val m1 = iron_body_load(b, x, 1, &c[3]);   /* -1 */
    iron_val r[N];
    int n = 0;
    r[n++] = ar(b, IRON_ARITH_DIVSI, a, z);
    r[n++] = ar(b, IRON_ARITH_DIVUI, a, z);
    r[n++] = ar(b, IRON_ARITH_REMSI, a, z);
    r[n++] = ar(b, IRON_ARITH_REMUI, a, z);
    r[n++] = ar(b, IRON_ARITH_DIVSI, mn, m1);
    r[n++] = ar(b, IRON_ARITH_REMSI, mn, m1);
    r[n++] = ar(b, IRON_ARITH_CEILDIVSI, mn, ci32(b, 32767));
    r[n++] = ar(b, IRON_ARITH_FLOORDIVSI, mn, ci32(b, 3));
    r[n++] = ar(b, IRON_ARITH_SHLI, a, ci32(b, 32));
    r[n++] = ar(b, IRON_ARITH_SHRUI, m1, ci32(b, 40));
    r[n++] = ar(b, IRON_ARITH_SHRSI, mn, ci32(b, 99));
    r[n++] = ar(b, IRON_ARITH_SHRSI, a, m1);   /* shift by 2^32 - 1 */
    iron_val big = iron_body_const_float(b, IRON_BT_F32, 1e20);
    iron_val nan = ar(b, IRON_ARITH_DIVF,
                      iron_body_cast(b, IRON_ARITH_SITOFP, z, IRON_BT_F32),
                      iron_body_cast(b, IRON_ARITH_SITOFP, z, IRON_BT_F32));
    r[n++] = iron_body_cast(b, IRON_ARITH_FPTOSI, big, IRON_BT_I32);
    r[n++] = iron_body_cast(b, IRON_ARITH_FPTOSI,
                            ar(b, IRON_ARITH_NEGF, big, IRON_VAL_NONE),
                            IRON_BT_I32);
    r[n++] = iron_body_cast(b, IRON_ARITH_FPTOSI, nan, IRON_BT_I32);
    r[n++] = iron_body_cast(
        b, IRON_ARITH_EXTUI,
        iron_body_cast(b, IRON_ARITH_FPTOUI,
                       ar(b, IRON_ARITH_NEGF, big, IRON_VAL_NONE),
                       IRON_BT_I16),
        IRON_BT_I32);
    for (int k = 0; k < n; k++) {
        iron_val ix = cidx(b, k);
        iron_body_store(b, r[k], y, 1, &ix);
    }
    close_frame(&f);
    iron_worker_new_body(d, "w", b);
}

TEST(body_e2e_defined_results_where_mlir_has_none)
{
    iron_tensor *a = test_zeros(IRON_INT32, N);
    int32_t *p = iron_tensor_data(a);
    p[0] = 7;
    p[1] = 0;
    p[2] = INT32_MIN;
    p[3] = -1;
    iron_tensor *y = run_pipe(edge_body, IRON_INT32, a);
    const int32_t *q = iron_tensor_data(y);
    const int32_t want[N] = {
        -1, -1, 7, 7,                /* x / 0 = -1 (all ones), x % 0 = x */
        INT32_MIN, 0,                /* MIN / -1 wraps, MIN % -1 = 0 */
        -65538, -715827883,          /* ceil(MIN / 32767), floor(MIN / 3) */
        0, 0, -1, 0,                 /* shifts >= 32: 0, 0, sign, 0 */
        INT32_MAX, INT32_MIN, 0,     /* fptosi saturates; NaN gives 0 */
        0,                           /* fptoui of a negative: 0 */
    };
    for (int k = 0; k < N; k++)
        if (q[k] != want[k])
            TEST_FAIL_("result %d: %d, expected %d", k, q[k], want[k]);
    iron_tensor_free(y);
    iron_tensor_free(a);
}

/* --- checks that stop the run -------------------------------------------- */

/* x[x[0]]: index out of bounds when x[0] >= N; a loop whose step is
 * x[1] (<= 0 stops the run). */
static void checked_body(iron_design *d, iron_handle *hin, iron_handle *hout)
{
    frame f = open_frame(d, "checked", hin, hout);
    iron_body *b = f.b;
    iron_val x = f.x, y = f.y;
    iron_val c0 = cidx(b, 0), c1 = cidx(b, 1);
    iron_val i = iron_body_cast(b, IRON_ARITH_INDEX_CAST,
                                iron_body_load(b, x, 1, &c0), IRON_BT_INDEX);
    iron_val step = iron_body_cast(b, IRON_ARITH_INDEX_CAST,
                                   iron_body_load(b, x, 1, &c1),
                                   IRON_BT_INDEX);
    iron_val v = iron_body_load(b, x, 1, &i);
    iron_val k = iron_body_for(b, c0, cidx(b, N), step, 0, NULL, NULL);
    iron_body_store(b, v, y, 1, &k);
    end(b);
    close_frame(&f);
    iron_worker_new_body(d, "w", b);
}

static iron_status run_checked(int32_t x0, int32_t x1)
{
    pipe_spec ps = { checked_body, IRON_INT32 };
    iron_jit_options o = { .size = sizeof o, .name = "checked",
                           .args = "in a, out b", .user = &ps };
    iron_jit *j = test_new_jit(pipe_design, &o);
    iron_tensor *a = test_zeros(IRON_INT32, N), *y = test_zeros(IRON_INT32, N);
    int32_t *p = iron_tensor_data(a);
    p[0] = x0;
    p[1] = x1;
    iron_status s = test_launch(j, 0, 2, (iron_tensor *const[]){ a, y });
    if (s == IRON_OK)
        ASSERT_EQ(test_at(y, 0), x0 == 0 ? x0 : p[x0]);
    iron_tensor_free(a);
    iron_tensor_free(y);
    iron_jit_free(j);
    return s;
}

TEST(body_e2e_index_and_step_checks_stop_the_run)
{
    ASSERT_OK(run_checked(1, 1));
    ASSERT_STATUS(run_checked(16, 1), IRON_EKERNEL);
    ASSERT_MSG("memref.load: index out of bounds of memref<16xi32>");
    ASSERT_STATUS(run_checked(-1, 1), IRON_EKERNEL);
    ASSERT_MSG("out of bounds");
    ASSERT_STATUS(run_checked(1, 0), IRON_EKERNEL);
    ASSERT_MSG("scf.for: step <= 0");
    ASSERT_STATUS(run_checked(1, -2), IRON_EKERNEL);
    ASSERT_MSG("step <= 0");
}
