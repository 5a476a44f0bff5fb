/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * relu.c - C port of upstream's bfloat16 ReLU (iron.kernels.relu) on 1024
 * elements: c = a where a > 0, else +0.  The result is the input's bits or
 * zero, so nothing is rounded.
 */
#include <iron/iron_kernel.h>

#define RELU_N 1024

void bf16_relu(const iron_bf16 *a_in, iron_bf16 *c_out)
{
    for (int i = 0; i < RELU_N; i++)
        c_out[i] = iron_k_bf16_to_float(a_in[i]) > 0.0f ? a_in[i]
                                                        : (iron_bf16)0;
}
