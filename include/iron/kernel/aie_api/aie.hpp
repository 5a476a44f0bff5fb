// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// aie.hpp - the host AIE API: AMD's AIE API (aie::vector, aie::accum,
// aie::mmul, load_v / store_v, mul / mac, to_vector(shift), ...) written
// anew for the host compiler, so that kernels written for the AIE
// compilers run unchanged on the emulated NPU, with the hardware's
// arithmetic.  Kernels include it as <aie_api/aie.hpp> and are compiled
// with __AIE_ARCH__ set to 20 (npu1) or 21 (npu2).
//
// The parts live in detail/; each part joins when its file exists, so that
// the parts are written and grow independently.  A name of the AIE API the
// host does not implement is a compile error naming it
// (detail/unsupported.hpp and the parts' own lists).
#pragma once

#include "detail/config.hpp"
#include "detail/host.hpp"
#include "detail/bfloat16.hpp"
#include "detail/modes.hpp"
#include "detail/vector.hpp"
#include "detail/mask.hpp"
#include "detail/accum.hpp"
#include "detail/memory.hpp"

#if __has_include("detail/arith.hpp")
#include "detail/arith.hpp"
#endif
#if __has_include("detail/compare.hpp")
#include "detail/compare.hpp"
#endif
#if __has_include("detail/reduce.hpp")
#include "detail/reduce.hpp"
#endif
#if __has_include("detail/permute.hpp")
#include "detail/permute.hpp"
#endif
#if __has_include("detail/env.hpp")
#include "detail/env.hpp"
#endif
#if __has_include("detail/intrinsics.hpp")
#include "detail/intrinsics.hpp"
#endif
#if __has_include("detail/mmul.hpp")
#include "detail/mmul.hpp"
#endif
#if __has_include("detail/elementary.hpp")
#include "detail/elementary.hpp"
#endif
#if __has_include("detail/lut.hpp")
#include "detail/lut.hpp"
#endif
#if __has_include("detail/bfp.hpp")
#include "detail/bfp.hpp"
#endif
#if __has_include("detail/unsupported.hpp")
#include "detail/unsupported.hpp"
#endif

// A timed build: the portable pipelining hint marks its loop (env.hpp
// says why here and not there).
#if defined(IRON_COUNT) && IRON_COUNT
#undef AIE_PREPARE_FOR_PIPELINING
#define AIE_PREPARE_FOR_PIPELINING IRON_COUNT_PIPELINED_
#endif
