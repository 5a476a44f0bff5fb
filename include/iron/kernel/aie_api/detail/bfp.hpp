// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// bfp.hpp - block floating point (bfp16ebs8 / bfp16ebs16: 8 or 16 mantissas
// sharing one 8-bit exponent), which the AIE API offers on AIE2P only.  Not
// implemented on the host yet: the element types can be named, and using
// a block vector or its streams is a compile error that says so.
#pragma once

#include "config.hpp"

// The AIE compilers predefine the block types globally, as bfloat16.
struct bfp16ebs8;
struct bfp16ebs16;

namespace aie {

#define IRON_AIE_BFP_REFUSE(name)                                              \
    static_assert(detail::not_on_host<T>,                                      \
                  "aie::" #name " (block floating point, bfp16ebs8 / bfp16ebs16; AIE2P, "   \
                  "__AIE_ARCH__ 21, only) is not implemented on the host by iron")

template <typename T, unsigned Elems>
struct block_vector {
    IRON_AIE_BFP_REFUSE(block_vector);
};

template <typename T, unsigned Elems, aie_dm_resource Resource = aie_dm_resource::none>
struct block_vector_input_buffer_stream {
    IRON_AIE_BFP_REFUSE(block_vector_input_buffer_stream);
    template <typename... A> block_vector_input_buffer_stream(A &&...) {}
};

template <typename T, unsigned Elems, aie_dm_resource Resource = aie_dm_resource::none>
struct block_vector_output_buffer_stream {
    IRON_AIE_BFP_REFUSE(block_vector_output_buffer_stream);
    template <typename... A> block_vector_output_buffer_stream(A &&...) {}
};

#undef IRON_AIE_BFP_REFUSE

} // namespace aie
