// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// env.hpp - what an AIE kernel finds in its compiler's environment without
// including anything: trace events, loop and scheduling hints, memory-bank
// qualifiers and C's `restrict`.  On the host they have no effect on the
// result, so they expand to nothing (or to their host meaning); kernels
// compile unchanged.  Self-contained on purpose: the emulator may force-
// include it into every C++ kernel, including scalar ones that never
// include <aie_api/aie.hpp>.
#pragma once

#ifndef __cplusplus
#error "aie_api/detail/env.hpp is for C++ kernels"
#endif

// C's `restrict` is not a C++ keyword; the AIE compilers accept it in C++
// kernels with the meaning of the GNU `__restrict`, which g++ and clang++
// also understand.
#ifndef restrict
#define restrict __restrict
#endif

// assert without <cassert>: the AIE compilers' headers bring it in.  Here a
// failed assertion is a kernel fault naming the condition and the kernel's
// line (the emulator's fault hook; the declaration repeats host.hpp's).
// A kernel that includes <cassert> itself gets the standard one instead.
#ifndef assert
extern "C" [[noreturn]] void iron__aie_fault(const char *what, const char *file,
                                             unsigned line);
#define assert(e)                                                             \
    ((e) ? static_cast<void>(0)                                               \
         : iron__aie_fault("assert(" #e ") failed", __FILE__, __LINE__))
#endif

// Trace events: on the hardware they mark the kernel's start and end in the
// core's trace unit.  The emulator has its own timeline, so they do nothing.
inline void event0() {}
inline void event1() {}

// Loop and scheduling hints of the Chess compiler: they change the schedule
// of the loop that follows, never its result.
#define chess_prepare_for_pipelining
#define chess_no_prepare_for_pipelining
#define chess_loop_range(...)
#define chess_loop_count(...)
#define chess_unroll_loop(...)
#define chess_flatten_loop
#define chess_no_hw_loop
#define chess_pipeline_non_leaf_loop_so
#define chess_modulo_scheduling_budget_ratio(...)
#define chess_peel_pipelined_loop(...)
#define chess_keep_free_for_pipelining(...)
#define chess_separator_scheduler(...)
#define chess_dont_warn_range(...)
#define chess_protect_access
// chess_copy(x) makes the scheduler keep a separate copy of x: same value.
#define chess_copy(x) (x)
// chess_storage(bank) places a variable in a register file or memory bank.
#define chess_storage(...)

// The same hints as portable macros (the names the kernels' own helper
// header defines for compilers that are neither Chess nor Peano).  The
// definitions are empty with the same parameter names as that header's,
// so that a kernel seeing both gets identical redefinitions, which C++
// allows without a diagnostic.
#define AIE_LOOP_UNROLL(x)
#define AIE_LOOP_UNROLL_FULL
#define AIE_LOOP_NO_UNROLL
#define AIE_LOOP_MIN_ITERATION_COUNT(x)
#define AIE_LOOP_MAX_ITERATION_COUNT(x)
#define AIE_LOOP_RANGE(a, ...)
#define AIE_PREPARE_FOR_PIPELINING
#define AIE_NO_PREPARE_FOR_PIPELINING
#define AIE_MODULO_SCHEDULING_BUDGET_RATIO(x)
#define AIE_KEEP_SW_LOOP
#define AIE_PEEL_PIPELINED_LOOP(x)
#define AIE_KEEP_FREE_FOR_PIPELINING(x)
#define AIE_ALLOCATE(x)
#define AIE_NO_HW_LOOP
#define AIE_TRY_INITIATION_INTERVAL(x)
#define AIE_PREPARE_FOR_POSTPIPELINING
#define AIE_LOOP_FLATTEN

// A timed build (IRON_COUNT, <iron_count.h>) marks the loops the hints ask
// to pipeline, so that the timing model costs them as the AIE compiler
// schedules them.  chess_prepare_for_pipelining is written between a
// loop's `for (...)` and its body, AIE_PREPARE_FOR_PIPELINING before the
// `for`: each becomes `if (region; false) {} else`, which takes the one
// statement that follows -- a compound body, a single statement, or the
// whole `for` -- into a region object that opens on entry and closes
// however the statement is left (break, continue, return).  The object
// is named per use (__COUNTER__), so nested loops shadow nothing; an
// `else` of the kernel's own cannot bind to the `if`, which already has
// one.  Per iteration for the first, per loop for the second: the model
// joins a loop's iterations into one run.
//
// AIE_PREPARE_FOR_PIPELINING stays empty here even then: this header
// comes first in every C++ kernel, and kernels include a helper header
// that defines the AIE_* hints itself, empty on a host compiler, before
// <aie_api/aie.hpp> -- an empty definition here is identical to theirs.
// aie.hpp, included after it, gives the hint its meaning (a kernel that
// includes its helper after aie.hpp keeps the helper's empty one, with
// the compiler's warning, and that loop counts as not pipelined).
#if defined(IRON_COUNT) && IRON_COUNT
#include "../../iron_count.h"
namespace iron_count_detail {
struct pipelined_region {
    pipelined_region() { iron__count_region(1, 1); }
    ~pipelined_region() { iron__count_region(0, 1); }
    pipelined_region(const pipelined_region &) = delete;
    pipelined_region &operator=(const pipelined_region &) = delete;
};
} // namespace iron_count_detail
#define IRON_COUNT_CAT2_(a, b) a##b
#define IRON_COUNT_CAT_(a, b) IRON_COUNT_CAT2_(a, b)
#define IRON_COUNT_PIPELINED_                                                 \
    if (::iron_count_detail::pipelined_region IRON_COUNT_CAT_(                \
            iron_count_region_, __COUNTER__){};                               \
        false) {                                                              \
    } else
#undef chess_prepare_for_pipelining
#define chess_prepare_for_pipelining IRON_COUNT_PIPELINED_
#endif

// Data-memory bank qualifiers (`bfloat16 __aie_dm_resource_a *p`): they tell
// the scheduler which bank a pointer reads, so two loads can issue in one
// cycle.  A host pointer has one address space.
#define __aie_dm_resource_a
#define __aie_dm_resource_b
#define __aie_dm_resource_c
#define __aie_dm_resource_d
#define __aie_dm_resource_stack
