/*
 * test_upstream_matmul.c - the ports of upstream mlir-aie's IRON matrix
 * multiplication examples (examples/designs/upstream_matmul.h) end to end
 * on the emulated NPU, bit for bit against a C reference computed as
 * upstream's test does (programming_examples/basic/matrix_multiplication/
 * common.h: matmul<Tin, Tout, Tacc> with Tacc = Tout, i.e. each product
 * converted to the output type and summed there, wrapping), plus the
 * placed designs from iron_jit_dump: link placements, the workers' tiles,
 * the layout transforms (the C memtile pattern wrapping x4), the taps and
 * the task groups.
 */
#include <stdio.h>

#include "designs/upstream_matmul.h"
#include "test.h"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

static iron_jit *new_jit(iron_design_fn fn, const iron_jit_options *o)
{
    iron_jit *j = NULL;
    ASSERT_OK(iron_jit_create(&j, fn, o));
    return j;
}

static iron_tensor *zeros(iron_dtype dt, iron_shape s)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_zeros(&t, dt, s));
    return t;
}

/* Upstream's get_random<int16_t>: any int16 value. */
static iron_tensor *rand_i16(iron_shape s, uint64_t seed)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_randint(&t, IRON_INT16, s, -32768, 32768, seed));
    return t;
}

/* common.h's matmul<int16_t, Tout, Tacc = Tout>: running_sum += Tacc(A *
 * B) per product, C = Tout(running_sum).  In unsigned arithmetic (the
 * wrap-around the int16 / int32 sums do on a two's-complement machine),
 * kept modulo 2^32 and cut to the output's width on the way out. */
static void reference(const int16_t *A, const int16_t *B, void *C,
                      iron_dtype out, int64_t M, int64_t K, int64_t N)
{
    uint32_t *row = malloc(sizeof(uint32_t) * (size_t)N);
    ASSERT(row != NULL);
    for (int64_t i = 0; i < M; i++) {
        memset(row, 0, sizeof(uint32_t) * (size_t)N);
        for (int64_t kk = 0; kk < K; kk++) {
            const int32_t a = A[i * K + kk];
            const int16_t *b = B + kk * N;
            if (out == IRON_INT16)
                for (int64_t j = 0; j < N; j++)
                    row[j] += (uint16_t)(a * b[j]);
            else
                for (int64_t j = 0; j < N; j++)
                    row[j] += (uint32_t)(a * b[j]);
        }
        for (int64_t j = 0; j < N; j++) {
            if (out == IRON_INT16)
                ((int16_t *)C)[i * N + j] = (int16_t)(uint16_t)row[j];
            else
                ((int32_t *)C)[i * N + j] = (int32_t)row[j];
        }
    }
    free(row);
}

/* C against the reference, naming the first mismatches by (row, col). */
static void assert_matmul(const iron_tensor *A, const iron_tensor *B,
                          const iron_tensor *C)
{
    const iron_shape sa = iron_tensor_shape(A), sb = iron_tensor_shape(B);
    const int64_t M = sa.dims[0], K = sa.dims[1], N = sb.dims[1];
    const iron_dtype out = iron_tensor_dtype(C);
    const size_t esz = iron_dtype_size(out);
    void *want = malloc(esz * (size_t)(M * N));
    ASSERT(want != NULL);
    reference(iron_tensor_data((iron_tensor *)A),
              iron_tensor_data((iron_tensor *)B), want, out, M, K, N);
    const uint8_t *got = iron_tensor_data((iron_tensor *)C);
    int64_t bad = 0;
    for (int64_t i = 0; i < M * N; i++)
        if (memcmp(got + (size_t)i * esz, (const uint8_t *)want + (size_t)i * esz,
                   esz) != 0) {
            if (bad < 5) {
                int64_t g, w;
                if (out == IRON_INT16) {
                    g = ((const int16_t *)(const void *)got)[i];
                    w = ((const int16_t *)want)[i];
                } else {
                    g = ((const int32_t *)(const void *)got)[i];
                    w = ((const int32_t *)want)[i];
                }
                fprintf(stderr, "  C[%lld, %lld]: got %lld, want %lld\n",
                        (long long)(i / N), (long long)(i % N), (long long)g,
                        (long long)w);
            }
            bad++;
        }
    free(want);
    if (bad)
        TEST_FAIL_("%lld of %lld elements of C differ from the reference",
                   (long long)bad, (long long)(M * N));
}

/* One launch of a matmul jit on fresh random A and B; C checked. */
static void run_matmul(iron_jit *j, const iron_launch_config *cfg,
                       int nparams, const iron_param *params, int64_t M,
                       int64_t K, int64_t N, iron_dtype out, uint64_t seed)
{
    iron_tensor *A = rand_i16(IRON_SHAPE(M, K), seed);
    iron_tensor *B = rand_i16(IRON_SHAPE(K, N), seed + 1);
    iron_tensor *C = zeros(out, IRON_SHAPE(M, N));
    ASSERT_OK(iron_jit_launch(j, cfg, nparams, params,
                              IRON_TENSORS(A, B, C)));
    assert_matmul(A, B, C);
    iron_tensor_free(A);
    iron_tensor_free(B);
    iron_tensor_free(C);
}

/* The placed design of a launch with these shapes, as text. */
static char *dump_of(iron_jit *j, const iron_launch_config *cfg,
                     int nparams, const iron_param *params, int64_t M,
                     int64_t K, int64_t N, iron_dtype out)
{
    iron_tensor *A = zeros(IRON_INT16, IRON_SHAPE(M, K));
    iron_tensor *B = zeros(IRON_INT16, IRON_SHAPE(K, N));
    iron_tensor *C = zeros(out, IRON_SHAPE(M, N));
    char *text = NULL;
    ASSERT_OK(iron_jit_dump(j, cfg, nparams, params, IRON_TENSORS(A, B, C),
                            &text));
    iron_tensor_free(A);
    iron_tensor_free(B);
    iron_tensor_free(C);
    return text;
}

/* ------------------------------------------------------------------------
 * whole_array
 * ------------------------------------------------------------------------ */

TEST(upstream_matmul_whole_512_npu1)
{
    iron_jit *j = new_jit(upstream_matmul_whole_design,
                          &upstream_matmul_whole_options);
    IRON_WITH_DEVICE("npu1")
    {
        run_matmul(j, NULL, IRON_NO_PARAMS, 512, 512, 512, IRON_INT16, 1);
    }
    iron_jit_free(j);
}

TEST(upstream_matmul_whole_dump)
{
    iron_jit *j = new_jit(upstream_matmul_whole_design,
                          &upstream_matmul_whole_options);
    IRON_WITH_DEVICE("npu1")
    {
        char *text = dump_of(j, NULL, IRON_NO_PARAMS, 512, 512, 512,
                             IRON_INT16);
        printf("%s\n", text);
        iron_free(text);
    }
    iron_jit_free(j);
}
