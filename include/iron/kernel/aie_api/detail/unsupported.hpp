// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// unsupported.hpp - the AIE API names the host AIE API does not implement
// (and no other part of it claims: the mmul, elementary-math / lookup /
// block-float and intrinsics parts list their own).  Each is declared so
// that a kernel using it fails to compile with an error naming it, never
// with a link error about a mangled name or, worse, a silent wrong result.
#pragma once

#include "config.hpp"

#define IRON_AIE_UNSUPPORTED(name)                                            \
    template <typename... IronAieArgs>                                        \
    auto name(IronAieArgs &&...)                                              \
    {                                                                         \
        static_assert(::aie::detail::not_on_host<IronAieArgs...>,            \
                      "aie::" #name " is not implemented on the host by iron"); \
    }
// Names called with explicit template arguments (aie::name<N>(...)).
#define IRON_AIE_UNSUPPORTED_T(name)                                          \
    template <auto... IronAieT, typename... IronAieArgs>                      \
    auto name(IronAieArgs &&...)                                              \
    {                                                                         \
        static_assert(::aie::detail::not_on_host<IronAieArgs...>,            \
                      "aie::" #name " is not implemented on the host by iron"); \
    }

namespace aie {

// Complex numbers (the host implements real lanes only).
IRON_AIE_UNSUPPORTED(abs_square)
IRON_AIE_UNSUPPORTED(conj)
IRON_AIE_UNSUPPORTED(real)
IRON_AIE_UNSUPPORTED(imag)
// Arithmetic variants.
IRON_AIE_UNSUPPORTED(saturating_add)
IRON_AIE_UNSUPPORTED(saturating_sub)
IRON_AIE_UNSUPPORTED(div)
IRON_AIE_UNSUPPORTED(clamp)
IRON_AIE_UNSUPPORTED(max_cmp)
IRON_AIE_UNSUPPORTED(min_cmp)
IRON_AIE_UNSUPPORTED(max_reduce)
IRON_AIE_UNSUPPORTED(min_reduce)
IRON_AIE_UNSUPPORTED(add_reduce)
IRON_AIE_UNSUPPORTED(add_reduce_v)
IRON_AIE_UNSUPPORTED(reduce_add_v)
IRON_AIE_UNSUPPORTED(mul_reduce)
IRON_AIE_UNSUPPORTED(to_fixed_floor)
IRON_AIE_UNSUPPORTED(to_fixed_sign)
IRON_AIE_UNSUPPORTED(to_accum)
IRON_AIE_UNSUPPORTED(vector_cast)
// Operation modifiers (aie::op_add(acc), ...).
IRON_AIE_UNSUPPORTED(op_abs)
IRON_AIE_UNSUPPORTED(op_add)
IRON_AIE_UNSUPPORTED(op_conj)
IRON_AIE_UNSUPPORTED(op_neg)
IRON_AIE_UNSUPPORTED(op_none)
IRON_AIE_UNSUPPORTED(op_sign)
IRON_AIE_UNSUPPORTED(op_sub)
IRON_AIE_UNSUPPORTED(op_zero)
IRON_AIE_UNSUPPORTED(op_transpose)
// Permutations with modes.
IRON_AIE_UNSUPPORTED(filter)
IRON_AIE_UNSUPPORTED(interleave_butterfly)
IRON_AIE_UNSUPPORTED(interleave_butterfly_half)
IRON_AIE_UNSUPPORTED(interleave_crossover)
IRON_AIE_UNSUPPORTED(interleave_custom)
IRON_AIE_UNSUPPORTED(interleave_custom_static)
// FFT stages.
IRON_AIE_UNSUPPORTED_T(fft_dit_r2_stage)
IRON_AIE_UNSUPPORTED_T(fft_dit_r3_stage)
IRON_AIE_UNSUPPORTED_T(fft_dit_r4_stage)
IRON_AIE_UNSUPPORTED_T(fft_dit_r5_stage)
// Memory: floor loads, circular / pattern / random iterators, streams,
// tensor descriptors.
IRON_AIE_UNSUPPORTED_T(load_floor_v)
IRON_AIE_UNSUPPORTED_T(load_floor_bytes_v)
IRON_AIE_UNSUPPORTED_T(begin_circular)
IRON_AIE_UNSUPPORTED_T(cbegin_circular)
IRON_AIE_UNSUPPORTED_T(begin_random_circular)
IRON_AIE_UNSUPPORTED_T(cbegin_random_circular)
IRON_AIE_UNSUPPORTED_T(begin_pattern)
IRON_AIE_UNSUPPORTED_T(begin_vector_circular)
IRON_AIE_UNSUPPORTED_T(cbegin_vector_circular)
IRON_AIE_UNSUPPORTED_T(begin_vector_random_circular)
IRON_AIE_UNSUPPORTED_T(cbegin_vector_random_circular)
IRON_AIE_UNSUPPORTED_T(begin_vectors)
IRON_AIE_UNSUPPORTED_T(cbegin_vectors)
IRON_AIE_UNSUPPORTED_T(begin_vector_input_buffer_stream)
IRON_AIE_UNSUPPORTED_T(cbegin_vector_input_buffer_stream)
IRON_AIE_UNSUPPORTED_T(begin_vector_output_buffer_stream)
IRON_AIE_UNSUPPORTED_T(begin_sparse_vector_input_buffer_stream)
IRON_AIE_UNSUPPORTED_T(cbegin_sparse_vector_input_buffer_stream)
IRON_AIE_UNSUPPORTED_T(make_vector_input_buffer_stream)
IRON_AIE_UNSUPPORTED_T(make_vector_output_buffer_stream)
IRON_AIE_UNSUPPORTED_T(make_unaligned_vector_input_buffer_stream)
IRON_AIE_UNSUPPORTED_T(make_unaligned_vector_output_buffer_stream)
IRON_AIE_UNSUPPORTED_T(make_tensor_descriptor)
IRON_AIE_UNSUPPORTED_T(make_tensor_descriptor_bytes)
IRON_AIE_UNSUPPORTED_T(make_tensor_buffer_stream)
IRON_AIE_UNSUPPORTED_T(make_restrict_tensor_buffer_stream)
IRON_AIE_UNSUPPORTED_T(make_unaligned_tensor_buffer_stream)

} // namespace aie

#undef IRON_AIE_UNSUPPORTED
#undef IRON_AIE_UNSUPPORTED_T
