/*
 * bench.c - the foundation's figures, each measured in this one run beside
 * its baseline: warm call latency, passthrough bandwidth vs memcpy, vector
 * add through the emulator vs a plain C loop, cold compile of vector add.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "designs/designs.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define CHECK(call)                                                           \
    do {                                                                      \
        iron_status s_ = (call);                                              \
        if (s_ != IRON_OK) {                                                  \
            fprintf(stderr, "bench: %s: %s\n", #call, iron_last_error());    \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

/* Best of `reps` timings of fn: the minimum is the least noisy figure on a
 * shared machine. */
#define BEST_OF(reps, out, body)                                              \
    do {                                                                      \
        (out) = 1e30;                                                         \
        for (int r_ = 0; r_ < (reps); r_++) {                                 \
            double t0_ = now_s();                                             \
            body;                                                             \
            double t_ = now_s() - t0_;                                        \
            if (t_ < (out))                                                   \
                (out) = t_;                                                   \
        }                                                                     \
    } while (0)

static void bench_warm_latency(void)
{
    iron_jit *j;
    iron_tensor *in, *out;
    CHECK(iron_jit_create(&j, passthrough_design, &passthrough_options));
    CHECK(iron_tensor_randint(&in, IRON_UINT8, IRON_SHAPE(256), 0, 256, 1));
    CHECK(iron_tensor_zeros(&out, IRON_UINT8, IRON_SHAPE(256)));
    CHECK(iron_call(j, in, out));
    const int calls = 20000;
    double best;
    BEST_OF(5, best, for (int i = 0; i < calls; i++)
                         CHECK(iron_call(j, in, out)));
    printf("warm call, passthrough uint8[256] (4 objects)  %8.2f us/call\n",
           best / calls * 1e6);
    /* The same run through the compiled handle: what the jit's own call
     * path (parameters, argument checks, key, lookup) adds on top. */
    iron_spec *sp;
    CHECK(iron_jit_specialize(j, NULL, IRON_NO_PARAMS, IRON_TENSORS(in, out),
                              &sp));
    double direct, jitted;
    /* Interleave the two so drift on a noisy machine hits both alike. */
    direct = jitted = 1e30;
    for (int r = 0; r < 7; r++) {
        double t0 = now_s();
        for (int i = 0; i < calls; i++)
            CHECK(iron_spec_run(sp, IRON_NO_SCALARS, IRON_TENSORS(in, out)));
        double t1 = now_s();
        for (int i = 0; i < calls; i++)
            CHECK(iron_call(j, in, out));
        double t2 = now_s();
        direct = t1 - t0 < direct ? t1 - t0 : direct;
        jitted = t2 - t1 < jitted ? t2 - t1 : jitted;
    }
    printf("  via the compiled handle (iron_spec_run)      %8.2f us/call\n",
           direct / calls * 1e6);
    printf("  jit overhead of a warm call                  %8.3f us/call "
           "(bar: <= 1 us)\n",
           (jitted - direct) / calls * 1e6);
    if (memcmp(iron_tensor_data(in), iron_tensor_data(out), 256) != 0) {
        fprintf(stderr, "bench: passthrough result wrong\n");
        exit(1);
    }
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

static void bench_passthrough_bw(void)
{
    const int64_t n = 64 << 20;
    const int64_t objs[] = { 4096, 8192 };
    iron_tensor *in, *out;
    CHECK(iron_tensor_randint(&in, IRON_UINT8, IRON_SHAPE(n), 0, 256, 2));
    CHECK(iron_tensor_zeros(&out, IRON_UINT8, IRON_SHAPE(n)));
    double t_memcpy;
    BEST_OF(5, t_memcpy, memcpy(iron_tensor_data(out),
                                iron_tensor_data(in), (size_t)n));
    printf("memcpy 64 MiB                                  %8.2f GB/s\n",
           (double)n / t_memcpy / 1e9);
    for (size_t k = 0; k < sizeof objs / sizeof objs[0]; k++) {
        iron_jit *j;
        CHECK(iron_jit_create(&j, passthrough_design, &passthrough_options));
        memset(iron_tensor_data(out), 0, (size_t)n);
        iron_param p = iron_param_int("obj", objs[k]);
        CHECK(iron_call_with(j, IRON_PARAMS(p), in, out));
        if (memcmp(iron_tensor_data(in), iron_tensor_data(out), (size_t)n)) {
            fprintf(stderr, "bench: passthrough 64 MiB result wrong\n");
            exit(1);
        }
        double t;
        BEST_OF(5, t, CHECK(iron_call_with(j, IRON_PARAMS(p), in, out)));
        printf("passthrough 64 MiB, %5lld-byte objects        %8.2f GB/s  "
               "(%.2fx memcpy time)\n",
               (long long)objs[k], (double)n / t / 1e9, t / t_memcpy);
        iron_jit_free(j);
    }
    iron_tensor_free(in);
    iron_tensor_free(out);
}

/* The baseline: what the kernel computes, as a plain loop built with -O3. */
static void __attribute__((noinline)) c_add(const int32_t *a,
                                            const int32_t *b, int32_t *c,
                                            int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

static void bench_vector_add(void)
{
    const int64_t n = 16 << 20;
    const int64_t tiles[] = { 16, 1024 };
    iron_tensor *a, *b, *c, *ref;
    CHECK(iron_tensor_randint(&a, IRON_INT32, IRON_SHAPE(n), -9999, 9999, 3));
    CHECK(iron_tensor_randint(&b, IRON_INT32, IRON_SHAPE(n), -9999, 9999, 4));
    CHECK(iron_tensor_zeros(&c, IRON_INT32, IRON_SHAPE(n)));
    CHECK(iron_tensor_zeros(&ref, IRON_INT32, IRON_SHAPE(n)));
    double t_c;
    BEST_OF(5, t_c, c_add(iron_tensor_data(a), iron_tensor_data(b),
                          iron_tensor_data(ref), n));
    printf("C loop -O3, add 16 Mi int32                    %8.2f ms\n",
           t_c * 1e3);
    for (size_t k = 0; k < sizeof tiles / sizeof tiles[0]; k++) {
        iron_jit *j;
        iron_jit_options o = vector_op_options;
        o.cflags = "-O3";
        CHECK(iron_jit_create(&j, vector_op_design, &o));
        iron_param p = iron_param_int("tile", tiles[k]);
        CHECK(iron_call_with(j, IRON_PARAMS(p), a, b, c));
        if (memcmp(iron_tensor_data(c), iron_tensor_data(ref),
                   (size_t)n * 4)) {
            fprintf(stderr, "bench: vector add result wrong\n");
            exit(1);
        }
        double t;
        BEST_OF(5, t, CHECK(iron_call_with(j, IRON_PARAMS(p), a, b, c)));
        printf("emulator, add 16 Mi int32, tile=%-5lld          %8.2f ms  "
               "(%.2fx the C loop, %.1f ns/object)\n",
               (long long)tiles[k], t * 1e3, t / t_c,
               t / (double)(n / tiles[k]) * 1e9);
        iron_jit_free(j);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_tensor_free(ref);
}

static void bench_cold(void)
{
    iron_tensor *a, *b, *c;
    CHECK(iron_tensor_ones(&a, IRON_INT32, IRON_SHAPE(4096)));
    CHECK(iron_tensor_ones(&b, IRON_INT32, IRON_SHAPE(4096)));
    CHECK(iron_tensor_zeros(&c, IRON_INT32, IRON_SHAPE(4096)));
    double best = 1e30, build = 0;
    for (int r = 0; r < 5; r++) {
        iron_jit *j;
        CHECK(iron_jit_create(&j, vector_op_design, &vector_op_options));
        double t0 = now_s();
        CHECK(iron_call(j, a, b, c));
        double t = now_s() - t0;
        iron_jit_stats st = { .size = sizeof st };
        CHECK(iron_jit_get_stats(j, &st));
        if (t < best) {
            best = t;
            build = st.last_build_ms;
        }
        iron_jit_free(j);
    }
    printf("cold first call, vector add (no cache)         %8.2f ms  "
           "(of which build %.2f ms: design, verify, place, %s, load)\n",
           best * 1e3, build, getenv("IRON_CC") ? getenv("IRON_CC") : "cc");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

int main(void)
{
    printf("iron %s bench (emulated npu2; best of 5 runs each)\n",
           iron_version());
    bench_warm_latency();
    bench_passthrough_bw();
    bench_vector_add();
    bench_cold();
    return 0;
}
