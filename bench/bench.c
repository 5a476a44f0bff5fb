/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * bench.c - the library's performance figures, each measured in this one
 * run beside its baseline: call latency and jit overhead, passthrough vs
 * memcpy, vector add (one column, many columns, the physical floor, 1 Mi
 * vs 256 Mi elements) vs plain C, an AIE API vector-add kernel vs the C
 * one, whole-array matmul across threads and vs
 * BLAS, the debugging aids, cold compiles; and in new processes (the bench
 * re-executes itself): the first result on a disk-cache hit and with an
 * empty cache, and the memory held after 10,000 specializations.
 *
 * Every figure is a row (name, value, unit, baseline, ratio): printed, and
 * with --tsv FILE also written there, tab-separated.  --only GROUP,...
 * runs some groups (names: bench --help).
 *
 * The in-process figures run with the disk cache off (disk_cache = -1):
 * "cold" must mean compiled, and a bench run must not fill the user's
 * cache.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#include "baseline.h"
#include "bench.h"
#include "designs/designs.h"
#include "designs/bodies.h"

/* Host threads the process may run on: what the emulator's default
 * (threads = 0) uses too. */
static int online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (int)n;
}

/* ---- call latency ------------------------------------------------------- */

static void bench_warm_latency(void)
{
    iron_jit *j = jit_new(passthrough_design, &passthrough_options);
    iron_tensor *in, *out;
    CHECK(iron_tensor_randint(IRON_UINT8, IRON_SHAPE(256), 0, 256, 1, &in));
    CHECK(iron_tensor_zeros(IRON_UINT8, IRON_SHAPE(256), &out));
    CHECK(IRON_CALL(j, in, out));
    /* The same run through the compiled handle: what the jit's own call
     * path (parameters, argument checks, key, lookup) adds on top. */
    iron_spec *sp;
    CHECK(iron_jit_specialize(j, NULL, IRON_NO_PARAMS, IRON_TENSORS(in, out),
                              &sp));
    const int calls = 20000;
    double direct = 1e30, jitted = 1e30;
    /* Interleave the two so drift on a noisy machine hits both alike. */
    for (int r = 0; r < 7; r++) {
        double t0 = now_s();
        for (int i = 0; i < calls; i++)
            CHECK(
                iron_spec_launch(sp, IRON_NO_SCALARS, IRON_TENSORS(in, out)));
        double t1 = now_s();
        for (int i = 0; i < calls; i++)
            CHECK(IRON_CALL(j, in, out));
        double t2 = now_s();
        direct = t1 - t0 < direct ? t1 - t0 : direct;
        jitted = t2 - t1 < jitted ? t2 - t1 : jitted;
    }
    if (memcmp(iron_tensor_data(in), iron_tensor_data(out), 256) != 0)
        fail("passthrough result wrong");
    emit((bench_row){ "warm_call_us", "us", jitted / calls * 1e6,
                      direct / calls * 1e6, 0 },
         "warm IRON_CALL, passthrough uint8[256] (4 objects); baseline: "
         "the same through the compiled handle (iron_spec_launch)");
    emit((bench_row){ "jit_overhead_us", "us",
                      (jitted - direct) / calls * 1e6, 0, 0 },
         "what the jit's call path adds to a warm call (bar: <= 1 us)");
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

/* ---- passthrough vs memcpy ---------------------------------------------- */

static void bench_passthrough(void)
{
    const int64_t n = 64 << 20;
    const struct {
        const char *row;
        int64_t obj;
    } cases[] = { { "passthrough4k_time_vs_memcpy", 4096 },
                  { "passthrough8k_time_vs_memcpy", 8192 } };
    iron_tensor *in, *out;
    CHECK(iron_tensor_randint(IRON_UINT8, IRON_SHAPE(n), 0, 256, 2, &in));
    CHECK(iron_tensor_zeros(IRON_UINT8, IRON_SHAPE(n), &out));
    double t_memcpy;
    BEST_OF(5, t_memcpy, memcpy(iron_tensor_data(out),
                                iron_tensor_data(in), (size_t)n));
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        iron_jit *j = jit_new(passthrough_design, &passthrough_options);
        memset(iron_tensor_data(out), 0, (size_t)n);
        iron_param p = iron_param_int("obj", cases[k].obj);
        CHECK(IRON_CALL_WITH(j, IRON_PARAMS(p), in, out));
        if (memcmp(iron_tensor_data(in), iron_tensor_data(out), (size_t)n))
            fail("passthrough 64 MiB result wrong");
        double t;
        BEST_OF(5, t, CHECK(IRON_CALL_WITH(j, IRON_PARAMS(p), in, out)));
        emit((bench_row){ cases[k].row, "ms", t * 1e3, t_memcpy * 1e3, 0 },
             "passthrough 64 MiB, %lld-byte objects, %.2f GB/s; baseline: "
             "memcpy of 64 MiB, %.2f GB/s",
             (long long)cases[k].obj, (double)n / t / 1e9,
             (double)n / t_memcpy / 1e9);
        iron_jit_free(j);
    }
    iron_tensor_free(in);
    iron_tensor_free(out);
}

/* ---- vector add --------------------------------------------------------- */

static void check_same(iron_tensor *got, iron_tensor *want, const char *what)
{
    if (memcmp(iron_tensor_data(got), iron_tensor_data(want),
               iron_tensor_nbytes(want)) != 0)
        fail("%s: result wrong", what);
}

/* One column, 16- and 1024-element objects, vs the C loop on one thread;
 * and the floor: that loop doing only the copies the emulator cannot
 * avoid (two fills, one drain per object), so emulator/floor is what the
 * emulator's own machinery costs. */
static void bench_vector_add(void)
{
    const int64_t n = 16 << 20;
    const int64_t tiles[] = { 16, 1024 };
    iron_tensor *a, *b, *c, *ref;
    CHECK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9999, 9999, 3, &a));
    CHECK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9999, 9999, 4, &b));
    CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c));
    CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &ref));
    const int32_t *pa = iron_tensor_data(a), *pb = iron_tensor_data(b);
    double t_c;
    BEST_OF(5, t_c, baseline_add(pa, pb, iron_tensor_data(ref), n));
    for (size_t k = 0; k < sizeof tiles / sizeof tiles[0]; k++) {
        const long long tile = (long long)tiles[k];
        iron_jit *j = jit_new(vector_op_design, &vector_op_options);
        iron_param p = iron_param_int("tile", tiles[k]);
        CHECK(IRON_CALL_WITH(j, IRON_PARAMS(p), a, b, c));
        check_same(c, ref, "vector add");
        double t, t_floor;
        BEST_OF(5, t, CHECK(IRON_CALL_WITH(j, IRON_PARAMS(p), a, b, c)));
        iron_jit_free(j);
        memset(iron_tensor_data(c), 0, (size_t)n * 4);
        BEST_OF(5, t_floor,
                baseline_add_floor(pa, pb, iron_tensor_data(c), n, tiles[k]));
        check_same(c, ref, "floor loop");
        char name[64];
        snprintf(name, sizeof name, "vadd%lld_time_vs_c1t", tile);
        emit((bench_row){ name, "ms", t * 1e3, t_c * 1e3, 0 },
             "emulator, add 16 Mi int32, %lld-element objects (%.1f "
             "ns/object); baseline: C loop -O3 -march=native, 1 thread",
             tile, t / (double)(n / tiles[k]) * 1e9);
        snprintf(name, sizeof name, "vadd%lld_floor_vs_c1t", tile);
        emit((bench_row){ name, "ms", t_floor * 1e3, t_c * 1e3, 0 },
             "floor: C copying each %lld-element object of a and b in, "
             "adding, copying out (%.1f ns/object); emulator / floor = "
             "%.2fx",
             tile, t_floor / (double)(n / tiles[k]) * 1e9, t / t_floor);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_tensor_free(ref);
}

/* The AIE API's vector add (examples/kernels/aie/add.cc, 16-lane int32
 * vectors through load_v / aie::add / store_v, compiled as C++ against
 * the host <aie_api/aie.hpp>) vs the design's scalar C kernel, in the
 * same vector_op design with 1024-element objects: what writing a kernel
 * with the AIE API costs over plain C on the host. */
static void bench_aieapi_vadd(void)
{
    const int64_t n = 16 << 20;
    iron_tensor *a, *b, *c, *ref;
    CHECK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9999, 9999, 11, &a));
    CHECK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9999, 9999, 12, &b));
    CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c));
    CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &ref));
    baseline_add(iron_tensor_data(a), iron_tensor_data(b),
                 iron_tensor_data(ref), n);
    iron_jit *j = jit_new(vector_op_design, &vector_op_options);
    iron_param c_kernel[] = { iron_param_int("tile", 1024) };
    iron_param api_kernel[] = {
        iron_param_int("tile", 1024),
        iron_param_str("kernel_file", "examples/kernels/aie/add.cc"),
        iron_param_str("kernel_entry", "eltwise_add_int32_vector"),
    };
    CHECK(iron_jit_launch(j, NULL, 1, c_kernel, IRON_NO_SCALARS,
                          IRON_TENSORS(a, b, c)));
    check_same(c, ref, "vector add, C kernel");
    memset(iron_tensor_data(c), 0, (size_t)n * 4);
    CHECK(iron_jit_launch(j, NULL, 3, api_kernel, IRON_NO_SCALARS,
                          IRON_TENSORS(a, b, c)));
    check_same(c, ref, "vector add, AIE API kernel");
    /* Interleaved, so that both see the same machine. */
    double t_c = 1e30, t_api = 1e30;
    for (int r = 0; r < 7; r++) {
        double t0 = now_s();
        CHECK(iron_jit_launch(j, NULL, 1, c_kernel, IRON_NO_SCALARS,
                              IRON_TENSORS(a, b, c)));
        double t1 = now_s();
        CHECK(iron_jit_launch(j, NULL, 3, api_kernel, IRON_NO_SCALARS,
                              IRON_TENSORS(a, b, c)));
        double t2 = now_s();
        t_c = t1 - t0 < t_c ? t1 - t0 : t_c;
        t_api = t2 - t1 < t_api ? t2 - t1 : t_api;
    }
    emit((bench_row){ "aieapi_vadd_vs_c", "ms", t_api * 1e3, t_c * 1e3, 0 },
         "emulator, add 16 Mi int32 in the vector_op design (1024-element "
         "objects) with the AIE API kernel add.cc (C++, -O3); baseline: "
         "the design's scalar C kernel, -O3 (bar: <= 1.5x)");
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_tensor_free(ref);
}

/* The multi-column add's kernel, for the library's
 * transform_parallel_binary. */
static const iron_kernel_ref add_kernel = {
    "add",
    "#include <stdint.h>\n"
    "void add(const int32_t *a, const int32_t *b, int32_t *c, int32_t n)\n"
    "{ for (int32_t i = 0; i < n; i++) c[i] = a[i] + b[i]; }\n",
    "int32*, int32*, int32*, int32",
};

/* As many columns as the process can run at once (online CPUs, capped by
 * the device's columns), vs the C loop on as many threads. */
static void bench_vector_add_cols(void)
{
    const int64_t n = 16 << 20, tile = 1024;
    iron_device_info info = { .size = sizeof info };
    CHECK(iron_device_get_info(iron_device_default(), &info));
    int cols = online_cpus() < info.columns ? online_cpus() : info.columns;
    /* The parallel transform gives every column an equal slice of whole
     * objects. */
    while (cols > 1 && n % (cols * tile) != 0)
        cols--;
    iron_tensor *a, *b, *c, *ref;
    CHECK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9999, 9999, 7, &a));
    CHECK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9999, 9999, 8, &b));
    CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c));
    CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &ref));
    const int32_t *pa = iron_tensor_data(a), *pb = iron_tensor_data(b);
    double t_c;
    BEST_OF(5, t_c, if (baseline_add_threads(pa, pb, iron_tensor_data(ref),
                                             n, cols) != 0)
                        fail("cannot start %d threads", cols));
    const iron_algo algo = IRON_ALGO_TRANSFORM_PARALLEL_BINARY;
    iron_jit_options o = { .size = sizeof o, .name = iron_algo_name(algo),
                           .args = iron_algo_args(algo),
                           .params = iron_algo_params(algo) };
    iron_jit *j = jit_new(iron_algo_design(algo), &o);
    iron_launch_config cfg = { .size = sizeof cfg, .cols = cols };
    iron_param p[] = { iron_param_kernel("f", &add_kernel),
                       iron_param_int("tile", tile) };
    CHECK(iron_jit_launch(j, &cfg, 2, p, IRON_NO_SCALARS,
                          IRON_TENSORS(a, b, c)));
    check_same(c, ref, "multi-column vector add");
    double t;
    BEST_OF(5, t, CHECK(iron_jit_launch(j, &cfg, 2, p, IRON_NO_SCALARS,
                                        IRON_TENSORS(a, b, c))));
    emit((bench_row){ "vadd_cols_time_vs_c2t", "ms", t * 1e3, t_c * 1e3, 0 },
         "emulator, add 16 Mi int32 on %d columns "
         "(transform_parallel_binary), "
         "1024-element objects; baseline: C loop on %d threads, a slice "
         "each (%d online CPUs, %d device columns)",
         cols, cols, online_cpus(), info.columns);
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_tensor_free(ref);
}

/* Evicts the tensors of the last call from the caches (writes and reads
 * a buffer larger than any last-level cache), so that a small run starts
 * from memory as a big one does: the scaling row compares the emulator's
 * cost per element, not the cache hierarchy's. */
static void flush_caches(void)
{
    static unsigned char *junk;
    static const size_t bytes = (size_t)128 << 20;
    if (!junk && !(junk = malloc(bytes)))
        fail("out of memory");
    memset(junk, 1, bytes);
    volatile unsigned char sink = 0;
    for (size_t i = 0; i < bytes; i += 4096)
        sink = (unsigned char)(sink + junk[i]);
    (void)sink;
}

/* Vector add with 1024-element objects at n elements: best ns/element of
 * `reps` calls, each from cold caches, checked once element by element;
 * *c_ns gets the plain C loop's best ns/element the same way. */
static double vadd_ns_per_elem(iron_jit *j, int64_t n, int reps,
                               double *c_ns)
{
    iron_tensor *a, *b, *c;
    CHECK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9999, 9999, 9, &a));
    CHECK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9999, 9999, 10, &b));
    CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c));
    iron_param p = iron_param_int("tile", 1024);
    CHECK(IRON_CALL_WITH(j, IRON_PARAMS(p), a, b, c));
    const int32_t *pa = iron_tensor_data(a), *pb = iron_tensor_data(b);
    const int32_t *pc = iron_tensor_data(c);
    for (int64_t i = 0; i < n; i++)
        if (pc[i] != pa[i] + pb[i])
            fail("vector add of %lld: c[%lld] = %d, want %d", (long long)n,
                 (long long)i, (int)pc[i], (int)(pa[i] + pb[i]));
    double t = 1e30, tc = 1e30;
    for (int r = 0; r < reps; r++) {
        flush_caches();
        double t0 = now_s();
        CHECK(IRON_CALL_WITH(j, IRON_PARAMS(p), a, b, c));
        double dt = now_s() - t0;
        t = dt < t ? dt : t;
        flush_caches();
        t0 = now_s();
        baseline_add(pa, pb, iron_tensor_data(c), n);
        dt = now_s() - t0;
        tc = dt < tc ? dt : tc;
    }
    *c_ns = tc / (double)n * 1e9;
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    return t / (double)n * 1e9;
}

/* Whether the cost per element holds from 4 MiB tensors to 1 GiB ones
 * (3 GiB in all): what a streaming emulator should do.  Both sizes start
 * from cold caches; the C loop's own ratio is printed beside it. */
static void bench_vector_add_scale(void)
{
    const int64_t small = 1 << 20, big = (int64_t)256 << 20;
    iron_jit *j = jit_new(vector_op_design, &vector_op_options);
    double c_small, c_big;
    double ns_small = vadd_ns_per_elem(j, small, 10, &c_small);
    double ns_big = vadd_ns_per_elem(j, big, 3, &c_big);
    emit((bench_row){ "scale_vadd_per_elem_256mi_vs_1mi", "ns", ns_big,
                      ns_small, 0 },
         "emulator vector add, 1024-element objects: ns/element at 256 Mi "
         "int32 (3 GiB of tensors); baseline: ns/element at 1 Mi; each run "
         "from cold caches (the C loop: %.3f and %.3f ns, %.2fx)",
         c_big, c_small, c_big / c_small);
    iron_jit_free(j);
}

/* ---- whole-array matmul ------------------------------------------------- */

static double matmul_launch(iron_jit *j, int threads, iron_tensor *a,
                            iron_tensor *b, iron_tensor *c)
{
    iron_launch_config cfg = { .size = sizeof cfg, .threads = threads };
    double t0 = now_s();
    CHECK(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                          IRON_TENSORS(a, b, c)));
    return now_s() - t0;
}

/* Spot-checks every 61st element of C = A x B (int16 in, int32 out): a
 * full reference would cost as much as the run. */
static void check_matmul_i16(iron_tensor *a, iron_tensor *b, iron_tensor *c,
                             int64_t dim)
{
    const int16_t *pa = iron_tensor_data(a), *pb = iron_tensor_data(b);
    const int32_t *pc = iron_tensor_data(c);
    for (int64_t e = 0; e < dim * dim; e += 61) {
        int64_t i = e / dim, jj = e % dim, want = 0;
        for (int64_t k = 0; k < dim; k++)
            want += (int64_t)pa[i * dim + k] * pb[k * dim + jj];
        if (pc[e] != (int32_t)want)
            fail("matmul_whole: c[%lld][%lld] = %d, want %lld",
                 (long long)i, (long long)jj, (int)pc[e], (long long)want);
    }
}

/* The int16 design on every core, run on one host thread and on all of
 * them (iron_launch_config.threads).  This row's ratio is a speedup:
 * value = time on all threads, baseline = time on one, ratio =
 * baseline / value. */
static void bench_matmul_threads(void)
{
    const int64_t dim = 512;
    iron_jit *j = jit_new(matmul_whole_design, &matmul_whole_options);
    iron_tensor *a, *b, *c;
    CHECK(iron_tensor_randint(IRON_INT16, IRON_SHAPE(dim, dim), -100,
                              100, 11, &a));
    CHECK(iron_tensor_randint(IRON_INT16, IRON_SHAPE(dim, dim), -100,
                              100, 12, &b));
    CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(dim, dim), &c));
    matmul_launch(j, 0, a, b, c);
    check_matmul_i16(a, b, c, dim);
    double t1 = 1e30, tall = 1e30;
    /* Interleaved, so that drift hits both alike. */
    for (int r = 0; r < 3; r++) {
        double t = matmul_launch(j, 1, a, b, c);
        t1 = t < t1 ? t : t1;
        t = matmul_launch(j, 0, a, b, c);
        tall = t < tall ? t : tall;
    }
    emit((bench_row){ "matmul_whole_speedup", "ms", tall * 1e3, t1 * 1e3,
                      1 },
         "matmul_whole int16 512x512x512: value = time on all %d threads, "
         "baseline = time on 1 thread; ratio is the SPEEDUP baseline/value",
         online_cpus());
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

/* ---- the AIE API's matmul vs the C one ------------------------------------ */

/* The single-core int16 design (one core, 64 x 64 x 64 tiles in 8 x 2 x 8
 * micro-tiles) with its scalar C kernel and with the aie::mmul kernel of
 * examples/kernels/aie/mm.cc (run from the source tree, as make bench
 * does); ratio = AIE API time / C time, bar <= 2x. */
static void bench_aieapi_mm(void)
{
    const int64_t dim = 256;
    static matmul_single_kernels mm = { "examples/kernels/aie/mm.cc", 8, 2,
                                        8 };
    iron_jit *jc = jit_new(matmul_single_design, &matmul_single_options);
    iron_jit_options o = matmul_single_options;
    o.user = &mm;
    iron_jit *ja = jit_new(matmul_single_design, &o);
    iron_tensor *a, *b, *cc, *ca;
    CHECK(iron_tensor_randint(IRON_INT16, IRON_SHAPE(dim, dim), -32768,
                              32768, 21, &a));
    CHECK(iron_tensor_randint(IRON_INT16, IRON_SHAPE(dim, dim), -32768,
                              32768, 22, &b));
    CHECK(iron_tensor_zeros(IRON_INT16, IRON_SHAPE(dim, dim), &cc));
    CHECK(iron_tensor_zeros(IRON_INT16, IRON_SHAPE(dim, dim), &ca));
    CHECK(IRON_CALL(jc, a, b, cc));
    CHECK(IRON_CALL(ja, a, b, ca));
    if (memcmp(iron_tensor_data(cc), iron_tensor_data(ca),
               (size_t)(dim * dim) * sizeof(int16_t)) != 0)
        fail("aieapi_mm_vs_c: the aie::mmul kernel's C differs from the C "
             "kernel's");
    double tc = 1e30, ta = 1e30;
    /* Interleaved, so that drift hits both alike. */
    for (int r = 0; r < 5; r++) {
        double t0 = now_s();
        CHECK(IRON_CALL(jc, a, b, cc));
        double t1 = now_s();
        CHECK(IRON_CALL(ja, a, b, ca));
        double t2 = now_s();
        tc = t1 - t0 < tc ? t1 - t0 : tc;
        ta = t2 - t1 < ta ? t2 - t1 : ta;
    }
    emit((bench_row){ "aieapi_mm_vs_c", "ms", ta * 1e3, tc * 1e3, 0 },
         "matmul_single int16 %lldx%lldx%lld, one core: value = call time "
         "with the aie::mmul kernel (examples/kernels/aie/mm.cc), baseline "
         "= with the scalar C kernel (bar: <= 2x)",
         (long long)dim, (long long)dim, (long long)dim);
    iron_jit_free(jc);
    iron_jit_free(ja);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(cc);
    iron_tensor_free(ca);
}

/* Largest |got - want| relative to |want| + 1 over C. */
static double max_rel_err(iron_tensor *got, iron_tensor *want)
{
    const float *g = iron_tensor_data(got), *w = iron_tensor_data(want);
    double worst = 0;
    for (int64_t i = 0; i < iron_tensor_numel(want); i++) {
        double e = fabs((double)g[i] - w[i]) / (fabs((double)w[i]) + 1);
        worst = e > worst ? e : worst;
    }
    return worst;
}

/* The float32 design (a plain-loop kernel, all threads) vs OpenBLAS's
 * sgemm on one thread: how far an emulated array of naive cores is from a
 * tuned single-core BLAS. */
static void bench_matmul_sgemm(void)
{
    if (!baseline_have_sgemm()) {
        printf("%-32s skipped: the bench was built without OpenBLAS "
               "(apt-get install libopenblas-dev, then make bench)\n",
               "matmul_whole_f32_time_vs_sgemm");
        return;
    }
    const int dim = 512;
    iron_jit *j = jit_new(matmul_whole_f32_design, &matmul_whole_f32_options);
    iron_tensor *a, *b, *c, *ref;
    CHECK(iron_tensor_rand(IRON_FLOAT32, IRON_SHAPE(dim, dim), 13, &a));
    CHECK(iron_tensor_rand(IRON_FLOAT32, IRON_SHAPE(dim, dim), 14, &b));
    CHECK(iron_tensor_zeros(IRON_FLOAT32, IRON_SHAPE(dim, dim), &c));
    CHECK(iron_tensor_zeros(IRON_FLOAT32, IRON_SHAPE(dim, dim), &ref));
    const float *pa = iron_tensor_data(a), *pb = iron_tensor_data(b);
    double t_blas, t = 1e30;
    BEST_OF(5, t_blas, baseline_sgemm_1t(pa, pb, iron_tensor_data(ref), dim,
                                         dim, dim));
    matmul_launch(j, 0, a, b, c);
    /* Sums of 512 products in [0, 1): float rounding in either order
     * stays far below 1e-4 relative. */
    double err = max_rel_err(c, ref);
    if (err > 1e-4)
        fail("matmul_whole_f32 differs from sgemm by %g (relative)", err);
    for (int r = 0; r < 3; r++) {
        double tr = matmul_launch(j, 0, a, b, c);
        t = tr < t ? tr : t;
    }
    emit((bench_row){ "matmul_whole_f32_time_vs_sgemm", "ms", t * 1e3,
                      t_blas * 1e3, 0 },
         "matmul_whole_f32 512x512x512 on the emulator (%d threads; max "
         "relative error %.1e); baseline: OpenBLAS cblas_sgemm, 1 thread",
         online_cpus(), err);
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_tensor_free(ref);
}

/* ---- debugging aids and cold compiles ----------------------------------- */

/* What the debugging aids cost, on the vector add with upstream's small
 * objects (the worst case: the most events per element). */
static void bench_debug_modes(void)
{
    const int64_t n = 256 << 10, tile = 16;
    iron_tensor *a, *b, *c;
    CHECK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9999, 9999, 5, &a));
    CHECK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9999, 9999, 6, &b));
    CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c));
    iron_jit *j = jit_new(vector_op_design, &vector_op_options);
    iron_param p = iron_param_int("tile", tile);
    char trace[64];
    snprintf(trace, sizeof trace, "/tmp/iron-bench-trace-%d.json",
             (int)getpid());
    const struct {
        const char *row, *what;
        iron_launch_config cfg;
    } modes[] = {
        { NULL, "plain", { .size = sizeof(iron_launch_config) } },
        { "debug_profile_time_vs_plain", "profiled (counters with times)",
          { .size = sizeof(iron_launch_config), .profile = 1 } },
        { "debug_trace_time_vs_plain", "trace on (written to /tmp)",
          { .size = sizeof(iron_launch_config), .trace = trace } },
        { "debug_check_time_vs_plain", "checked mode (IRON_CHECK=1)",
          { .size = sizeof(iron_launch_config), .check = 1 } },
    };
    double plain = 0;
    for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
        const iron_launch_config *cfg = &modes[k].cfg;
        CHECK(iron_jit_launch(j, cfg, IRON_PARAMS(p), IRON_NO_SCALARS,
                              IRON_TENSORS(a, b, c)));
        double t;
        BEST_OF(3, t,
                CHECK(iron_jit_launch(j, cfg, IRON_PARAMS(p), IRON_NO_SCALARS,
                                      IRON_TENSORS(a, b, c))));
        if (k == 0) {
            plain = t;
            continue;
        }
        emit((bench_row){ modes[k].row, "ms", t * 1e3, plain * 1e3, 0 },
             "vector add 256 Ki int32, 16-element objects, %s (%.0f "
             "ns/object); baseline: the same call plain (%.0f ns/object)",
             modes[k].what, t / (double)(n / tile) * 1e9,
             plain / (double)(n / tile) * 1e9);
    }
    remove(trace);
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

static void bench_cold(void)
{
    iron_tensor *a, *b, *c;
    CHECK(iron_tensor_ones(IRON_INT32, IRON_SHAPE(4096), &a));
    CHECK(iron_tensor_ones(IRON_INT32, IRON_SHAPE(4096), &b));
    CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(4096), &c));
    double best = 1e30, build = 0;
    /* Without the disk cache off, runs 2..5 would be disk hits. */
    iron_jit_options o = no_disk(vector_op_options);
    for (int r = 0; r < 5; r++) {
        iron_jit *j;
        CHECK(iron_jit_create(vector_op_design, &o, &j));
        double t0 = now_s();
        CHECK(IRON_CALL(j, a, b, c));
        double t = now_s() - t0;
        iron_jit_stats st = { .size = sizeof st };
        CHECK(iron_jit_get_stats(j, &st));
        if (t < best) {
            best = t;
            build = st.last_build_ms;
        }
        iron_jit_free(j);
    }
    emit((bench_row){ "cold_compile_inproc_ms", "ms", best * 1e3, 0, 0 },
         "first call of a new jit, vector add int32[4096], no cache; of "
         "which build %.2f ms (design, verify, place, %s, load)",
         build, getenv("IRON_CC") ? getenv("IRON_CC") : "cc");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

/* ---- new processes ----------------------------------------------------------
 *
 * The parent spawns this same executable with a child argument; the child
 * prints its figures on one line, which the parent reads from a pipe.
 *
 * CHILD_ARG: with IRON_CACHE_DIR set to a folder of the parent's, the
 * child makes one vector add call with the default options (the cache
 * on), checks every element, and prints its CLOCK_MONOTONIC times at
 * main() and at the checked result, with its counters.  CLOCK_MONOTONIC
 * is one clock for every process, so the parent reads both the
 * spawn-inclusive time (from just before posix_spawn) and the child's own
 * (from main()).
 *
 * RSS_CHILD_ARG: a fresh process, so that its resident set is the jit's
 * and not what the figures before it left on the heap. */

#define CHILD_ARG "--first-result-child"
#define RSS_CHILD_ARG "--rss-child"
#define RSS_SPECS 10000

static int child_first_result(double t_main, const char *size)
{
    const int64_t n = size ? atoll(size) : 4096;
    iron_jit *j;
    iron_tensor *a, *b, *c;
    CHECK(iron_jit_create(vector_op_design, &vector_op_options, &j));
    CHECK(iron_tensor_arange(IRON_INT32, 0, n, 1, &a));
    CHECK(iron_tensor_full(IRON_INT32, IRON_SHAPE(n), 1000, &b));
    CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c));
    CHECK(IRON_CALL(j, a, b, c));
    const int32_t *vc = iron_tensor_data(c);
    for (int64_t i = 0; i < n; i++)
        if (vc[i] != (int32_t)i + 1000) {
            fprintf(stderr, "bench child: c[%lld] = %d, want %d\n",
                    (long long)i, (int)vc[i], (int)i + 1000);
            return 1;
        }
    double t_result = now_s();
    iron_jit_stats st = { .size = sizeof st };
    CHECK(iron_jit_get_stats(j, &st));
    printf("%.9f %.9f %llu %llu %llu\n", t_main, t_result,
           (unsigned long long)st.disk_hits,
           (unsigned long long)st.kernel_compiles,
           (unsigned long long)st.disk_writes);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
    return 0;
}

/* VmRSS from /proc/self/status, in MiB; -1 when it cannot be read. */
static double vm_rss_mib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib < 0 ? -1 : (double)kib / 1024;
}

/* One jit, RSS_SPECS vector adds of distinct sizes (16, 32, ... elements),
 * each its own specialization, built by its one call, disk cache off.
 * The jit keeps at most max_resident (default 256) of them loaded, so this
 * shows what the rest leave behind. */
static int child_rss(void)
{
    iron_jit *j;
    iron_jit_options o = no_disk(vector_op_options);
    CHECK(iron_jit_create(vector_op_design, &o, &j));
    double t0 = now_s();
    for (int i = 0; i < RSS_SPECS; i++) {
        const int64_t n = 16 * (int64_t)(i + 1);
        iron_tensor *a, *b, *c;
        CHECK(iron_tensor_full(IRON_INT32, IRON_SHAPE(n), 1, &a));
        CHECK(iron_tensor_full(IRON_INT32, IRON_SHAPE(n), 2, &b));
        CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c));
        CHECK(IRON_CALL(j, a, b, c));
        if (((const int32_t *)iron_tensor_data(c))[n - 1] != 3) {
            fprintf(stderr, "bench child: vector add of %lld wrong\n",
                    (long long)n);
            return 1;
        }
        iron_tensor_free(a);
        iron_tensor_free(b);
        iron_tensor_free(c);
    }
    double t = now_s() - t0;
    iron_jit_stats st = { .size = sizeof st };
    CHECK(iron_jit_get_stats(j, &st));
    printf("%.3f %.9f %llu %llu %llu\n", vm_rss_mib(), t / RSS_SPECS,
           (unsigned long long)st.builds,
           (unsigned long long)st.kernel_compiles,
           (unsigned long long)st.evictions);
    iron_jit_free(j);
    return 0;
}

static char self_exe[PATH_MAX];

/* Runs this executable with argument `mode` in the current environment
 * and reads its standard output into out[len] (NUL-terminated); a child
 * that fails ends the bench.  Returns the time just before the spawn. */
static double spawn_self(const char *mode, const char *arg, char *out,
                         size_t len)
{
    if (!self_exe[0]) {
        ssize_t n = readlink("/proc/self/exe", self_exe, sizeof self_exe - 1);
        if (n <= 0)
            fail("readlink /proc/self/exe: %s", strerror(errno));
        self_exe[n] = '\0';
    }
    int fds[2];
    if (pipe(fds) != 0)
        fail("pipe: %s", strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    char arg0[] = "bench", arg1[64], arg2[64];
    snprintf(arg1, sizeof arg1, "%s", mode);
    snprintf(arg2, sizeof arg2, "%s", arg ? arg : "");
    char *argv[] = { arg0, arg1, arg ? arg2 : NULL, NULL };
    fflush(stdout);
    pid_t pid;
    double t0 = now_s();
    int rc = posix_spawn(&pid, self_exe, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0)
        fail("cannot spawn %s: %s", self_exe, strerror(rc));
    size_t got = 0;
    ssize_t r;
    while (got < len - 1 &&
           ((r = read(fds[0], out + got, len - 1 - got)) > 0 ||
            (r < 0 && errno == EINTR)))
        if (r > 0)
            got += (size_t)r;
    out[got] = '\0';
    close(fds[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail("the %s child failed (status 0x%x): %s", mode, st, out);
    return t0;
}

typedef struct child_figures {
    double spawn_ms;          /* posix_spawn to the checked result */
    double main_ms;           /* the child's main() to the checked result */
    unsigned long long hits, compiles, writes;
} child_figures;

/* n: the vector add's elements (0: 4096). */
static void spawn_first_result(const char *cache_dir, int64_t n,
                               child_figures *f)
{
    setenv("IRON_CACHE_DIR", cache_dir, 1);
    setenv("IRON_CACHE", "1", 1);
    char out[512], size[32];
    snprintf(size, sizeof size, "%lld", (long long)(n ? n : 4096));
    double t0 = spawn_self(CHILD_ARG, size, out, sizeof out);
    double t_main, t_result;
    if (sscanf(out, "%lf %lf %llu %llu %llu", &t_main, &t_result, &f->hits,
               &f->compiles, &f->writes) != 5)
        fail("the first-result child said: %s", out);
    f->spawn_ms = (t_result - t0) * 1e3;
    f->main_ms = (t_result - t_main) * 1e3;
}

static int rm_one(const char *path, const struct stat *sb, int flag,
                  struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void fresh_dir(char *buf, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(buf, len, "%s/iron-bench-cache-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(buf))
        fail("mkdtemp %s: %s", buf, strerror(errno));
}

/* The C compiler alone on the vector add's kernel (OP '+'), as a user
 * would build it: `cc -O2 -shared -fPIC -o k.so k.c`, spawn to exit.
 * $IRON_CC when set, as the library uses. */
static double bare_cc_ms(void)
{
    char dir[PATH_MAX], src[PATH_MAX + 8], so[PATH_MAX + 8];
    fresh_dir(dir, sizeof dir);
    snprintf(src, sizeof src, "%s/k.c", dir);
    snprintf(so, sizeof so, "%s/k.so", dir);
    FILE *fp = fopen(src, "w");
    if (!fp || fprintf(fp, "#define OP +\n%s", vector_op_kernel_src) < 0 ||
        fclose(fp) != 0)
        fail("cannot write %s", src);
    char cc[256], o2[] = "-O2", shared[] = "-shared", pic[] = "-fPIC",
                  o[] = "-o";
    snprintf(cc, sizeof cc, "%s",
             getenv("IRON_CC") && *getenv("IRON_CC") ? getenv("IRON_CC")
                                                     : "cc");
    char *argv[] = { cc, o2, shared, pic, o, so, src, NULL };
    pid_t pid;
    double t0 = now_s();
    int rc = posix_spawnp(&pid, cc, NULL, NULL, argv, environ);
    if (rc != 0)
        fail("cannot run %s: %s", cc, strerror(rc));
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    double ms = (now_s() - t0) * 1e3;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail("%s failed on the vector add's kernel (status 0x%x)", cc, st);
    nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
    return ms;
}

static void keep_best(child_figures *best, const child_figures *f)
{
    if (f->spawn_ms < best->spawn_ms)
        best->spawn_ms = f->spawn_ms;
    if (f->main_ms < best->main_ms)
        best->main_ms = f->main_ms;
}

static void bench_new_process(void)
{
    char *old_dir = getenv("IRON_CACHE_DIR") ? strdup(getenv("IRON_CACHE_DIR"))
                                             : NULL;
    char *old_on = getenv("IRON_CACHE") ? strdup(getenv("IRON_CACHE")) : NULL;
    char dir[PATH_MAX];
    child_figures f, best_hit = { 1e30, 1e30, 0, 0, 0 },
                     best_shape = { 1e30, 1e30, 0, 0, 0 },
                     best_cold = { 1e30, 1e30, 0, 0, 0 };
    double best_bare = 1e30;

    /* (a) A hit: one child primes a fresh folder, five more find it. */
    fresh_dir(dir, sizeof dir);
    spawn_first_result(dir, 0, &f);
    if (f.compiles != 1 || f.writes != 1)
        fail("the priming child compiled %llu, wrote %llu", f.compiles,
             f.writes);
    for (int r = 0; r < 5; r++) {
        spawn_first_result(dir, 0, &f);
        if (f.hits != 1 || f.compiles != 0)
            fail("a hit child had %llu hits, %llu compiles", f.hits,
                 f.compiles);
        keep_best(&best_hit, &f);
    }
    /* (b) A new shape: a specialization no process has built, whose
     * kernel the disk cache has (kernel objects have keys of their own).
     * Shapes a little smaller than 4096, so that the call itself does
     * the same work. */
    for (int r = 0; r < 5; r++) {
        spawn_first_result(dir, 4096 - 16 * (int64_t)(r + 1), &f);
        if (f.hits != 1 || f.compiles != 0)
            fail("a new-shape child had %llu hits, %llu compiles", f.hits,
                 f.compiles);
        keep_best(&best_shape, &f);
    }
    nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);

    /* (c) Cold: each child gets an empty folder of its own; beside each,
     * the C compiler alone on the same kernel. */
    for (int r = 0; r < 5; r++) {
        fresh_dir(dir, sizeof dir);
        spawn_first_result(dir, 0, &f);
        nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
        if (f.hits != 0 || f.compiles != 1 || f.writes != 1)
            fail("a cold child had %llu hits, %llu compiles, %llu writes",
                 f.hits, f.compiles, f.writes);
        keep_best(&best_cold, &f);
        double bare = bare_cc_ms();
        if (bare < best_bare)
            best_bare = bare;
    }
    if (old_dir)
        setenv("IRON_CACHE_DIR", old_dir, 1);
    else
        unsetenv("IRON_CACHE_DIR");
    if (old_on)
        setenv("IRON_CACHE", old_on, 1);
    else
        unsetenv("IRON_CACHE");
    free(old_dir);
    free(old_on);

    emit((bench_row){ "disk_hit_spawn_ms", "ms", best_hit.spawn_ms, 0, 0 },
         "new process, vector add int32[4096]: spawn to the first result "
         "on a disk-cache hit (bar: <= 10 ms)");
    emit((bench_row){ "disk_hit_main_ms", "ms", best_hit.main_ms, 0, 0 },
         "the same from the child's main() (bar: <= 10 ms)");
    emit((bench_row){ "new_shape_spawn_ms", "ms", best_shape.spawn_ms,
                      best_hit.spawn_ms, 0 },
         "new process, a vector add of a shape never built before whose "
         "kernel the disk cache holds: spawn to the first result, vs a disk "
         "hit of a shape built before (bar: <= 3x)");
    emit((bench_row){ "cold_compile_vs_bare_cc", "ms", best_cold.spawn_ms,
                      best_bare, 0 },
         "new process, empty cache: spawn to the first result, vs `%s -O2 "
         "-shared -fPIC` of the same kernel source alone (bar: <= 1.5x)",
         getenv("IRON_CC") ? getenv("IRON_CC") : "cc");
    emit((bench_row){ "cold_compile_spawn_ms", "ms", best_cold.spawn_ms, 0,
                      0 },
         "new process, empty cache: spawn to the first result (bar: <= "
         "250 ms)");
    emit((bench_row){ "cold_compile_main_ms", "ms", best_cold.main_ms, 0, 0 },
         "the same from the child's main() (bar: <= 250 ms)");
}

static void bench_rss(void)
{
    char out[256];
    double rss, per_spec;
    unsigned long long builds, compiles, evictions;
    spawn_self(RSS_CHILD_ARG, NULL, out, sizeof out);
    if (sscanf(out, "%lf %lf %llu %llu %llu", &rss, &per_spec, &builds,
               &compiles, &evictions) != 5)
        fail("the rss child said: %s", out);
    emit((bench_row){ "rss_mib_after_10k_specs", "MiB", rss, 0, 0 },
         "fresh process, one jit, %d vector adds of distinct sizes (disk "
         "cache off): VmRSS after (bar: <= 256 MiB); %.3f ms per "
         "specialization (build + its first call); %llu builds, %llu "
         "kernel compiles, %llu evictions",
         RSS_SPECS, per_spec * 1e3, builds, compiles, evictions);
}

/* ---- the Python package's baseline ---------------------------------------
 *
 * What bench/python.py compares the Python jit with, in the same run:
 * building and specializing the vector add from C, its kernel already in
 * the disk cache, a new jit each time (the Python side does the same with
 * a new @iron.jit object). */

/* Vector add with its core as a described body, as a Python core
 * function is traced: acquire, call the kernel, release, per tile. */
static int vadd_body_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0), tile = 16;
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(tile), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(tile), 2);
    iron_fifo *c = iron_fifo_new(d, "c", IRON_INT32, IRON_SHAPE(tile), 2);
    iron_kernel *k = iron_kernel_new(d, "eltwise", vector_op_kernel_src,
                                     "int32*, int32*, int32*, int32");
    iron_kernel_add_cflags(k, "-DOP=+");
    iron_body *body = iron_body_new(d, "core_fn");
    iron_val fa = iron_body_fifo(body, iron_fifo_cons(a));
    iron_val fb = iron_body_fifo(body, iron_fifo_cons(b));
    iron_val fc = iron_body_fifo(body, iron_fifo_prod(c));
    iron_val kv = iron_body_kernel(body, k);
    body_forever(body);
    body_for(body, 0, n / tile);
    iron_val oc = body_acquire1(body, fc);
    iron_val oa = body_acquire1(body, fa);
    iron_val ob = body_acquire1(body, fb);
    iron_body_call(body, kv, 4,
                   (const iron_val[]){ oa, ob, oc, body_i32(body, tile) });
    iron_body_release(body, fa, 1);
    iron_body_release(body, fb, 1);
    iron_body_release(body, fc, 1);
    body_end_for(body);
    body_end_for(body);
    iron_worker_new_body(d, "core_fn", body);
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_fill(d, iron_fifo_prod(b), 1, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(c), 2, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static void bench_py_baseline(void)
{
    iron_tensor *a, *b, *c;
    CHECK(iron_tensor_ones(IRON_INT32, IRON_SHAPE(4096), &a));
    CHECK(iron_tensor_ones(IRON_INT32, IRON_SHAPE(4096), &b));
    CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(4096), &c));
    double best = 1e30;
    for (int r = 0; r < 31; r++) {   /* the first warms the disk cache */
        iron_jit *j;
        iron_spec *sp;
        iron_jit_options o = { .size = sizeof o, .name = "vadd_body",
                               .args = "in a, in b, out c" };
        CHECK(iron_jit_create(vadd_body_design, &o, &j));
        double t0 = now_s();
        CHECK(iron_jit_specialize(j, NULL, IRON_NO_PARAMS,
                                  IRON_TENSORS(a, b, c), &sp));
        double t = now_s() - t0;
        if (r > 0 && t < best)
            best = t;
        iron_jit_free(j);
    }
    emit((bench_row){ "c_build_vadd_ms", "ms", best * 1e3, 0, 0 },
         "building and specializing vector add int32[4096] from C (its "
         "core a described body, as Python traces it), its kernels in the "
         "disk cache, a new jit each time (the baseline of "
         "py_build_ms_vs_c)");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

/* ---- main --------------------------------------------------------------- */

static const struct {
    const char *name;
    void (*run)(void);
} groups[] = {
    { "warm", bench_warm_latency },
    { "passthrough", bench_passthrough },
    { "vadd", bench_vector_add },
    { "cols", bench_vector_add_cols },
    { "aieapi", bench_aieapi_vadd },
    { "matmul", bench_matmul_threads },
    { "sgemm", bench_matmul_sgemm },
    { "aieapi_mm", bench_aieapi_mm },
    { "debug", bench_debug_modes },
    /* After the threaded rows: freeing 3 GiB leaves the kernel busy
     * for a while, which took a core from the matmul's second thread. */
    { "scale", bench_vector_add_scale },
    { "cold", bench_cold },
    { "process", bench_new_process },
    { "rss", bench_rss },
    { "pybase", bench_py_baseline },
    /* The timing model's anchors (bench/timing): full-scale GEMMs, the
     * longest group. */
    { "timing", bench_timing },
};

/* Whether `name` is in the comma-separated `list` (NULL: every group). */
static int selected(const char *list, const char *name)
{
    if (!list)
        return 1;
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, n) == 0)
            return 1;
        p += n + (end != NULL);
    }
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: bench [--tsv FILE] [--only GROUP,...]\n"
                    "groups:");
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        fprintf(stderr, " %s", groups[g].name);
    fputc('\n', stderr);
    return 2;
}

int main(int argc, char **argv)
{
    double t_main = now_s();
    if (argc > 1 && strcmp(argv[1], CHILD_ARG) == 0)
        return child_first_result(t_main, argc > 2 ? argv[2] : NULL);
    if (argc > 1 && strcmp(argv[1], RSS_CHILD_ARG) == 0)
        return child_rss();
    const char *tsv_path = NULL, *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--tsv") == 0 && i + 1 < argc)
            tsv_path = argv[++i];
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else
            return usage();
    }
    /* Written beside its final name and renamed at the end, so that a run
     * that fails halfway leaves the last complete TSV in place. */
    char tmp_path[PATH_MAX];
    if (tsv_path) {
        snprintf(tmp_path, sizeof tmp_path, "%s.tmp", tsv_path);
        if (!(bench_tsv = fopen(tmp_path, "w")))
            fail("cannot write %s: %s", tmp_path, strerror(errno));
        fputs("name\tvalue\tunit\tbaseline\tratio\n", bench_tsv);
    }
    printf("iron %s bench on %s, %d CPUs; each figure the best of several "
           "runs, beside its baseline from this run\n",
           iron_version(), iron_device_name(iron_device_default()),
           online_cpus());
    printf("%-32s %16s %16s %9s\n", "row", "value", "baseline", "ratio");
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        if (selected(only, groups[g].name))
            groups[g].run();
    if (bench_tsv) {
        if (fclose(bench_tsv) != 0 || rename(tmp_path, tsv_path) != 0)
            fail("cannot write %s: %s", tsv_path, strerror(errno));
        printf("rows written to %s\n", tsv_path);
    }
    return 0;
}
