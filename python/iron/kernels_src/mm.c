/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * mm.c - C port of upstream's matrix-multiply kernels (iron.kernels.mm)
 * for the integer element types: C += A * B on one DIM_M x DIM_K by
 * DIM_K x DIM_N tile, and zero(C).
 *
 * matmul_<in>_<out> works on the blocked layouts the AIE's matrix unit
 * consumes, with the micro-tile DIM_R x DIM_S x DIM_T (the factory's
 * mac_dims): A is [M/R][K/S][R][S], B [K/S][N/T][S][T], C [M/R][N/T][R][T],
 * blocks in row-major order.  matmul_scalar_<in>_<out> works on plain
 * row-major tiles, B and C column-major with -DB_COL_MAJ / -DC_COL_MAJ.
 *
 * Sums are formed in uint64_t (wrapping is defined there) and stored
 * modulo 2^bits of the output type, which is the output type's wrap of the
 * exact sum.  The AIE's vectorized kernel saturates when it moves the
 * accumulator out instead; the two differ only where a sum overflows the
 * output type.
 */
#include <stdint.h>

#ifndef DIM_M
#define DIM_M 64
#endif
#ifndef DIM_K
#define DIM_K 64
#endif
#ifndef DIM_N
#define DIM_N 64
#endif
#ifndef DIM_R
#define DIM_R 4
#endif
#ifndef DIM_S
#define DIM_S 4
#endif
#ifndef DIM_T
#define DIM_T 4
#endif

#ifdef B_COL_MAJ
#define B_AT(i, col) ((i) + (col) * DIM_K)
#else
#define B_AT(i, col) ((i) * DIM_N + (col))
#endif
#ifdef C_COL_MAJ
#define C_AT(row, col) ((row) + (col) * DIM_M)
#else
#define C_AT(row, col) ((row) * DIM_N + (col))
#endif

#define MM_BLOCKED(name, T_in, T_out, U_out)                                  \
    void name(const T_in *a, const T_in *b, T_out *c)                         \
    {                                                                         \
        for (int z = 0; z < DIM_M / DIM_R; z++)                               \
            for (int j = 0; j < DIM_N / DIM_T; j++) {                         \
                uint64_t acc[DIM_R][DIM_T] = { { 0 } };                       \
                for (int i = 0; i < DIM_K / DIM_S; i++) {                     \
                    const T_in *pa = a + (z * (DIM_K / DIM_S) + i) *          \
                                             DIM_R * DIM_S;                   \
                    const T_in *pb = b + (i * (DIM_N / DIM_T) + j) *          \
                                             DIM_S * DIM_T;                   \
                    for (int x = 0; x < DIM_R; x++)                           \
                        for (int y = 0; y < DIM_S; y++)                       \
                            for (int w = 0; w < DIM_T; w++)                   \
                                acc[x][w] += (uint64_t)(int64_t)(             \
                                    pa[x * DIM_S + y] * pb[y * DIM_T + w]);   \
                }                                                             \
                T_out *pc = c + (z * (DIM_N / DIM_T) + j) * DIM_R * DIM_T;    \
                for (int x = 0; x < DIM_R; x++)                               \
                    for (int w = 0; w < DIM_T; w++)                           \
                        pc[x * DIM_T + w] = (T_out)(U_out)(                   \
                            (uint64_t)(U_out)pc[x * DIM_T + w] + acc[x][w]);  \
            }                                                                 \
    }

#define MM_SCALAR(name, T_in, T_out, U_out)                                   \
    void name(const T_in *a, const T_in *b, T_out *c)                         \
    {                                                                         \
        for (int row = 0; row < DIM_M; row++)                                 \
            for (int col = 0; col < DIM_N; col++) {                           \
                uint64_t sum = 0;                                             \
                for (int i = 0; i < DIM_K; i++)                               \
                    sum += (uint64_t)(int64_t)(a[row * DIM_K + i] *           \
                                               b[B_AT(i, col)]);              \
                T_out *pc = &c[C_AT(row, col)];                               \
                *pc = (T_out)(U_out)((uint64_t)(U_out)*pc + sum);             \
            }                                                                 \
    }

#define MM_ZERO(name, T_out)                                                  \
    void name(T_out *c)                                                       \
    {                                                                         \
        for (int i = 0; i < DIM_M * DIM_N; i++)                               \
            c[i] = 0;                                                         \
    }

#define MM_COMBO(in, T_in, out, T_out, U_out)                                 \
    MM_BLOCKED(matmul_##in##_##out, T_in, T_out, U_out)                       \
    MM_SCALAR(matmul_scalar_##in##_##out, T_in, T_out, U_out)

MM_COMBO(i8, int8_t, i8, int8_t, uint8_t)
MM_COMBO(i8, int8_t, i16, int16_t, uint16_t)
MM_COMBO(i8, int8_t, i32, int32_t, uint32_t)
MM_COMBO(i16, int16_t, i16, int16_t, uint16_t)
MM_COMBO(i16, int16_t, i32, int32_t, uint32_t)

MM_ZERO(zero_i8, int8_t)
MM_ZERO(zero_i16, int16_t)
MM_ZERO(zero_i32, int32_t)
MM_ZERO(zero_scalar_i8, int8_t)
MM_ZERO(zero_scalar_i16, int16_t)
MM_ZERO(zero_scalar_i32, int32_t)
