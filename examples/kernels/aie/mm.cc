// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// mm.cc - blocked matrix-multiply kernels written with the AIE API, in the
// manner of upstream's aie_kernels mm.cc: C (m x n) += A (m x k) * B (k x
// n) on tiles whose r x s, s x t and r x t micro-tiles are each stored
// contiguously and row-major, the micro-tiles themselves in row-major
// order (the layout the single-core matmul design's memtiles produce).
// Each step loads two A and two B micro-tiles and updates a 2 x 2 group
// of C micro-tiles with aie::mmul, so that four accumulators stay live
// through the k loop.
//
// Build defines: DIM_M, DIM_K, DIM_N (the tile, as upstream's), and
// optionally MMUL_R, MMUL_S, MMUL_T (the micro-tile the design blocks for;
// checked against the kernel's own).
// i16_i16_ONLY / bf16_bf16_ONLY build one type pair (the others' shapes
// need not exist for the design's micro-tile); without either, all.
//
// Entries (extern "C"): zero_i16(C), matmul_i16_i16(A, B, C),
// zero_bf16(C), matmul_bf16_bf16(A, B, C).  int16 sums wrap in the 32-bit
// lanes of the 8x2x8 mode and are stored modulo 2^16 (the core's
// saturation mode is none at reset), which is C's int16 wrap-around;
// bfloat16 sums are kept in float and rounded to bfloat16, to nearest
// even, once per call.
#include <aie_api/aie.hpp>

#ifndef DIM_M
#define DIM_M 64
#endif
#ifndef DIM_K
#define DIM_K 64
#endif
#ifndef DIM_N
#define DIM_N 64
#endif

// Type pair, its short name, and the micro-tile: both AIE2 and AIE2P
// offer int16 8x2x8 and bfloat16 4x8x4.
#if defined(i16_i16_ONLY)
#define combos(X) X(int16, i16, 8, 2, 8)
#elif defined(bf16_bf16_ONLY)
#define combos(X) X(bfloat16, bf16, 4, 8, 4)
#else
#define combos(X) X(int16, i16, 8, 2, 8) X(bfloat16, bf16, 4, 8, 4)
#endif

template <typename Elem, unsigned m, unsigned n>
static inline void zero_vectorized(Elem *__restrict c)
{
    constexpr unsigned lanes = aie::native_vector_length_v<Elem>;
    static_assert((m * n) % lanes == 0, "the C tile is not a whole number of vectors");
    const aie::vector<Elem, lanes> z = aie::zeros<Elem, lanes>();
    Elem *__restrict end = c + m * n;
    for (; c < end; c += lanes)
        chess_prepare_for_pipelining aie::store_v(c, z);
}

// rowA, colA, colB: the tile in micro-tiles.
template <typename Elem, unsigned rowA, unsigned colA, unsigned colB, unsigned r,
          unsigned s, unsigned t>
static inline void matmul_vectorized_2x2(const Elem *__restrict pA, const Elem *__restrict pB,
                                         Elem *__restrict pC)
{
    using MMUL = aie::mmul<r, s, t, Elem, Elem>;
    static_assert(rowA % 2 == 0 && colB % 2 == 0,
                  "the 2 x 2 expansion needs an even number of micro-tile rows and "
                  "columns in C");
    event0();
    for (unsigned z = 0; z < rowA; z += 2) chess_loop_range(2, ) {
        Elem *__restrict pC1 = pC + (z * colB) * MMUL::size_C;
        Elem *__restrict pC2 = pC + ((z + 1) * colB) * MMUL::size_C;
        for (unsigned j = 0; j < colB; j += 2) chess_prepare_for_pipelining chess_loop_range(2, ) {
            const Elem *__restrict pA1 = pA + (z * colA) * MMUL::size_A;
            const Elem *__restrict pA2 = pA + ((z + 1) * colA) * MMUL::size_A;
            const Elem *__restrict pB1 = pB + j * MMUL::size_B;
            const Elem *__restrict pB2 = pB + (j + 1) * MMUL::size_B;

            // C accumulates across calls: the design calls this once per k
            // tile onto the same C tile.
            MMUL C00(aie::load_v<MMUL::size_C>(pC1));
            MMUL C01(aie::load_v<MMUL::size_C>(pC1 + MMUL::size_C));
            MMUL C10(aie::load_v<MMUL::size_C>(pC2));
            MMUL C11(aie::load_v<MMUL::size_C>(pC2 + MMUL::size_C));

            for (unsigned i = 0; i < colA; i++) chess_prepare_for_pipelining chess_loop_range(1, ) {
                const aie::vector<Elem, MMUL::size_A> A0 = aie::load_v<MMUL::size_A>(pA1);
                pA1 += MMUL::size_A;
                const aie::vector<Elem, MMUL::size_A> A1 = aie::load_v<MMUL::size_A>(pA2);
                pA2 += MMUL::size_A;
                const aie::vector<Elem, MMUL::size_B> B0 = aie::load_v<MMUL::size_B>(pB1);
                pB1 += MMUL::size_B * colB;
                const aie::vector<Elem, MMUL::size_B> B1 = aie::load_v<MMUL::size_B>(pB2);
                pB2 += MMUL::size_B * colB;
                C00.mac(A0, B0);
                C01.mac(A0, B1);
                C10.mac(A1, B0);
                C11.mac(A1, B1);
            }

            aie::store_v(pC1, C00.template to_vector<Elem>());
            pC1 += MMUL::size_C;
            aie::store_v(pC1, C01.template to_vector<Elem>());
            pC1 += MMUL::size_C;
            aie::store_v(pC2, C10.template to_vector<Elem>());
            pC2 += MMUL::size_C;
            aie::store_v(pC2, C11.template to_vector<Elem>());
            pC2 += MMUL::size_C;
        }
    }
    event1();
}

template <typename Elem, unsigned r, unsigned s, unsigned t>
static inline void matmul_tile(const Elem *__restrict a, const Elem *__restrict b, Elem *__restrict c)
{
#if defined(MMUL_R) && defined(MMUL_S) && defined(MMUL_T)
    static_assert(MMUL_R == r && MMUL_S == s && MMUL_T == t,
                  "the design blocks for another micro-tile than this kernel's");
#endif
    static_assert(DIM_M % r == 0 && DIM_K % s == 0 && DIM_N % t == 0,
                  "the tile is not a whole number of micro-tiles");
    if constexpr (std::is_same_v<Elem, bfloat16>)
        aie::set_rounding(aie::rounding_mode::conv_even);
    matmul_vectorized_2x2<Elem, DIM_M / r, DIM_K / s, DIM_N / t, r, s, t>(a, b, c);
}

#define matmul_c_func(type, name, r, s, t)                                      \
    void matmul_##name##_##name(const type *__restrict a,                      \
                                const type *__restrict b, type *__restrict c)  \
    {                                                                          \
        matmul_tile<type, r, s, t>(a, b, c);                                   \
    }
#define zero_c_func(type, name, r, s, t)                                        \
    void zero_##name(type *__restrict c) { zero_vectorized<type, DIM_M, DIM_N>(c); }

extern "C" {
combos(matmul_c_func)
combos(zero_c_func)
}
