/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* zero_i16 and matmul_i16_i16 on blocked tiles: A is M_ x K_ in R x S
 * blocks, B K_ x N_ in S x T blocks, C M_ x N_ in R x T blocks (all given
 * with -D).  Sums kept in uint32, stored modulo 2^16. */
#include <stdint.h>
#include <string.h>

void zero_i16(int16_t *c)
{
    memset(c, 0, sizeof(int16_t) * M_ * N_);
}

void matmul_i16_i16(const int16_t *a, const int16_t *b, int16_t *c)
{
    for (int bi = 0; bi < M_ / R; bi++)
        for (int bj = 0; bj < N_ / T; bj++) {
            uint32_t acc[R][T] = { { 0 } };
            for (int bk = 0; bk < K_ / S; bk++) {
                const int16_t *ab = a + (bi * (K_ / S) + bk) * R * S;
                const int16_t *bb = b + (bk * (N_ / T) + bj) * S * T;
                for (int i = 0; i < R; i++)
                    for (int s = 0; s < S; s++)
                        for (int j = 0; j < T; j++)
                            acc[i][j] += (uint32_t)(ab[i * S + s] * bb[s * T + j]);
            }
            int16_t *cb = c + (bi * (N_ / T) + bj) * R * T;
            for (int i = 0; i < R; i++)
                for (int j = 0; j < T; j++)
                    cb[i * T + j] = (int16_t)(uint16_t)(
                        (uint32_t)(uint16_t)cb[i * T + j] + acc[i][j]);
        }
}
