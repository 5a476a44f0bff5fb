// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// test_mmul.cpp - aie::mmul on the host: the shapes each architecture
// offers (against a list written here from the AIE API's documentation),
// and for every shape of the built arch, every signedness of its type pair
// and every accumulator width it accepts, mul / mac / constructors /
// to_accum / to_vector against scalar references (__int128 sums wrapped to
// the lane width; bfloat16 products in double, summed in k order in
// float with subnormals flushed).  Edge cases: 32-bit lanes wrapping where
// 64-bit lanes do not, bfloat16 ties, subnormal inputs, products and sums,
// infinities and NaN.
#include <utility>

#include "aieapi_test.hpp"

namespace {

using aie::detail::mm_kind;

// ---- the shapes, as the AIE API documents them ----------------------------
// (M, K, N, accumulator widths accepted: 32, 64 or 0 = both, lane bits the
// sums live in, bits of accum_type.)

struct want_mode {
    mm_kind a, b;
    unsigned m, k, n, accepts, lane, tag;
};

#define W(A, B, M, K, N, ACC, LANE, TAG) \
    want_mode{ mm_kind::A, mm_kind::B, M, K, N, ACC, LANE, TAG }

#if __AIE_ARCH__ == 20
constexpr want_mode want[] = {
    W(i8, i8, 4, 8, 4, 32, 64, 32), W(i8, i8, 4, 16, 4, 32, 64, 32),
    W(i8, i8, 8, 8, 4, 32, 64, 32), W(i8, i8, 2, 8, 8, 32, 32, 32),
    W(i8, i8, 4, 8, 8, 32, 32, 32), W(i8, i8, 8, 8, 8, 32, 32, 32),
    W(i8, i8, 1, 16, 8, 32, 32, 32), W(i8, i8, 2, 16, 8, 32, 32, 32),
    W(i8, i8, 4, 16, 8, 32, 32, 32), W(i8, i8, 8, 16, 8, 32, 32, 32),
    W(i16, i8, 4, 4, 4, 32, 32, 32), W(i16, i8, 8, 4, 4, 32, 32, 32),
    W(i16, i8, 4, 4, 8, 32, 32, 32), W(i16, i8, 8, 4, 8, 32, 32, 32),
    W(i16, i8, 4, 8, 4, 32, 64, 64), W(i16, i8, 2, 8, 8, 32, 64, 64),
    W(i16, i8, 2, 16, 8, 32, 64, 64), W(i16, i8, 4, 16, 8, 32, 64, 64),
    W(i8, i16, 4, 4, 4, 32, 64, 64), W(i8, i16, 4, 4, 8, 32, 64, 64),
    W(i16, i16, 4, 2, 8, 32, 32, 32), W(i16, i16, 8, 2, 8, 32, 32, 32),
    W(i16, i16, 8, 1, 8, 32, 32, 32), W(i16, i16, 4, 4, 4, 0, 64, 64),
    W(i16, i16, 2, 4, 8, 0, 64, 64), W(i16, i16, 4, 4, 8, 0, 64, 64),
    W(i16, i16, 2, 8, 8, 0, 64, 64), W(i16, i16, 4, 8, 8, 0, 64, 64),
    W(i32, i16, 4, 2, 4, 64, 64, 64), W(i32, i16, 4, 4, 4, 64, 64, 64),
    W(i32, i16, 2, 4, 8, 64, 64, 64), W(i32, i16, 4, 4, 8, 64, 64, 64),
    W(i32, i16, 4, 1, 8, 64, 64, 64), W(i16, i32, 4, 4, 4, 64, 64, 64),
    W(i16, i32, 2, 4, 8, 64, 64, 64), W(i32, i32, 4, 2, 4, 64, 64, 64),
    W(i32, i32, 4, 4, 4, 64, 64, 64), W(i32, i32, 8, 2, 4, 64, 64, 64),
    W(i32, i32, 4, 1, 8, 64, 64, 64), W(bf16, bf16, 4, 8, 4, 32, 32, 32),
    W(bf16, bf16, 8, 8, 4, 32, 32, 32), W(bf16, bf16, 4, 16, 4, 32, 32, 32),
    W(bf16, bf16, 4, 8, 8, 32, 32, 32), W(bf16, bf16, 8, 8, 8, 32, 32, 32),
    W(bf16, bf16, 8, 1, 8, 32, 32, 32), W(f32, f32, 4, 8, 4, 32, 32, 32),
    W(f32, f32, 4, 1, 4, 32, 32, 32), W(f32, f32, 4, 1, 8, 32, 32, 32),
};
#else
constexpr want_mode want[] = {
    W(i8, i8, 2, 8, 8, 32, 32, 32), W(i8, i8, 4, 8, 8, 32, 32, 32),
    W(i8, i8, 8, 8, 8, 32, 32, 32), W(i8, i8, 4, 16, 8, 32, 32, 32),
    W(i8, i8, 8, 16, 8, 32, 32, 32), W(i16, i8, 4, 4, 8, 32, 32, 32),
    W(i16, i8, 8, 4, 8, 32, 32, 32), W(i16, i8, 4, 8, 8, 0, 64, 64),
    W(i16, i8, 2, 16, 8, 0, 64, 64), W(i16, i8, 4, 16, 8, 0, 64, 64),
    W(i8, i16, 8, 2, 8, 32, 32, 32), W(i8, i16, 4, 4, 8, 32, 64, 64),
    W(i16, i16, 4, 2, 8, 32, 32, 32), W(i16, i16, 8, 2, 8, 32, 32, 32),
    W(i16, i16, 8, 1, 8, 32, 32, 32), W(i16, i16, 2, 4, 8, 0, 64, 64),
    W(i16, i16, 4, 4, 8, 0, 64, 64), W(i16, i16, 2, 8, 8, 0, 64, 64),
    W(i16, i16, 4, 8, 8, 0, 64, 64), W(i32, i16, 4, 2, 8, 64, 64, 64),
    W(i32, i16, 2, 4, 8, 64, 64, 64), W(i32, i16, 4, 4, 8, 64, 64, 64),
    W(i32, i16, 4, 1, 8, 64, 64, 64), W(i16, i32, 4, 4, 8, 64, 64, 64),
    W(i32, i32, 4, 2, 8, 64, 64, 64), W(i32, i32, 4, 4, 8, 64, 64, 64),
    W(i32, i32, 4, 4, 4, 64, 64, 64), W(i32, i32, 8, 2, 8, 64, 64, 64),
    W(i32, i32, 4, 1, 8, 64, 64, 64), W(bf16, bf16, 4, 8, 4, 32, 32, 32),
    W(bf16, bf16, 8, 8, 4, 32, 32, 32), W(bf16, bf16, 4, 8, 8, 32, 32, 32),
    W(bf16, bf16, 8, 8, 8, 32, 32, 32), W(bf16, bf16, 8, 1, 8, 32, 32, 32),
};
#endif
#undef W

constexpr auto &table = aie::detail::mmul_modes<__AIE_ARCH__>();
constexpr unsigned ntable = sizeof table / sizeof table[0];

// Every documented shape is found with the widths it accepts and refused
// with the others; the table holds nothing else.
AIE_TEST(mmul_shapes_per_arch)
{
    CHECK_EQ(ntable, (unsigned)(sizeof want / sizeof want[0]));
    for (const want_mode &w : want) {
        for (unsigned req : { 32u, 64u }) {
            auto f = aie::detail::mm_find<__AIE_ARCH__>(w.a, w.b, w.m, w.k, w.n, req);
            bool ok = w.accepts == 0 || w.accepts == req;
            if (!aieapi_test::same(f.ok, ok))
                fprintf(stderr, "shape %ux%ux%u kinds %d x %d, acc %u\n", w.m, w.k, w.n,
                        (int)w.a, (int)w.b, req);
            CHECK_EQ(f.ok, ok);
            if (ok) {
                CHECK_EQ(f.lane, w.lane);
                CHECK_EQ(f.tag_bits, w.tag);
            }
        }
    }
    // A few refusals the table must not grow into.
    CHECK(!aie::detail::mm_find<__AIE_ARCH__>(mm_kind::i16, mm_kind::i16, 4, 4, 16, 32).ok);
    CHECK(!aie::detail::mm_find<__AIE_ARCH__>(mm_kind::i16, mm_kind::i16, 4, 2, 8, 64).ok);
    CHECK(!aie::detail::mm_find<__AIE_ARCH__>(mm_kind::bf16, mm_kind::bf16, 4, 8, 4, 64).ok);
    CHECK(!aie::detail::mm_find<__AIE_ARCH__>(mm_kind::i8, mm_kind::i16, 4, 4, 8, 64).ok);
#if __AIE_ARCH__ == 21
    CHECK(!aie::detail::mm_find<21>(mm_kind::i16, mm_kind::i16, 4, 4, 4, 32).ok);
    CHECK(!aie::detail::mm_find<21>(mm_kind::f32, mm_kind::f32, 4, 8, 4, 32).ok);
#else
    CHECK(!aie::detail::mm_find<20>(mm_kind::i16, mm_kind::i16, 8, 8, 8, 32).ok);
#endif
}

// The AIE API's member constants and accumulator types.
AIE_TEST(mmul_types_and_sizes)
{
    using M16 = aie::mmul<8, 2, 8, int16, int16>;
    static_assert(M16::M == 8 && M16::K == 2 && M16::N == 8);
    static_assert(M16::size_A == 16 && M16::size_B == 16 && M16::size_C == 64);
    static_assert(M16::size() == 64 && M16::accum_bits == 32);
    static_assert(std::is_same_v<M16::accum_type, aie::accum<acc32, 64>>);
    static_assert(std::is_same_v<aie::mmul<4, 4, 8, int16, int16>::accum_type,
                                 aie::accum<acc64, 32>>);
    static_assert(std::is_same_v<aie::mmul<4, 4, 8, int16, int16, acc64>::accum_type,
                                 aie::accum<acc64, 32>>);
    static_assert(aie::mmul<4, 4, 8, int16, int16, acc48>::accum_bits == 64);
    static_assert(std::is_same_v<aie::mmul<4, 8, 4, bfloat16, bfloat16>::accum_type,
                                 aie::accum<accfloat, 16>>);
    static_assert(std::is_same_v<aie::mmul<4, 4, 8, int32, int16>::accum_type,
                                 aie::accum<acc64, 32>>);
    static_assert(aie::mmul<4, 4, 8, int32, int16>::accum_bits == 64);
    // An integer mmul asked for accfloat sums in 32-bit integer lanes, as
    // the AIE API maps the tag to its width.
    static_assert(std::is_same_v<aie::mmul<4, 2, 8, int16, int16, accfloat>::accum_type,
                                 aie::accum<acc32, 32>>);
#if __AIE_ARCH__ == 20
    static_assert(std::is_same_v<aie::mmul<4, 8, 4, int8, int8>::accum_type,
                                 aie::accum<acc32, 16>>);
    static_assert(std::is_same_v<aie::mmul<4, 8, 4, int16, int8>::accum_type,
                                 aie::accum<acc64, 16>>);
#else
    static_assert(std::is_same_v<aie::mmul<4, 8, 8, int16, int8>::accum_type,
                                 aie::accum<acc64, 32>>);
    static_assert(std::is_same_v<aie::mmul<8, 2, 8, int8, int16>::accum_type,
                                 aie::accum<acc32, 64>>);
#endif
    CHECK(true);
}

// ---- the arithmetic of every shape ----------------------------------------

struct rng {
    uint64_t s;
    uint64_t next()
    {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
};

// Full-range integers, one in eight at the type's minimum or maximum.
template <typename T> T rand_int(rng &r)
{
    uint64_t x = r.next();
    switch (x & 15) {
    case 0: return std::numeric_limits<T>::min();
    case 1: return std::numeric_limits<T>::max();
    default: return static_cast<T>(x >> 8);
    }
}

// bfloat16 of modest range (so that sums round but rarely overflow), some
// zeros and negative zeros.
bfloat16 rand_bf16(rng &r)
{
    uint64_t x = r.next();
    if ((x & 31) == 0)
        return bfloat16::from_bits((x >> 8) & 1 ? 0x8000 : 0);
    uint16_t sign = (x >> 5) & 1 ? 0x8000 : 0;
    uint16_t exp = static_cast<uint16_t>(127 - 8 + ((x >> 6) % 16));
    uint16_t man = (x >> 12) & 0x7f;
    return bfloat16::from_bits(static_cast<uint16_t>(sign | exp << 7 | man));
}

float rand_f32(rng &r)
{
    uint64_t x = r.next();
    float v = static_cast<float>(static_cast<int32_t>(x >> 33)) / (1 << 24);
    return (x & 7) == 0 ? 0.0f : v;
}

// The reference's own subnormal flush and conversions (not the header's).
float ref_ftz(float f)
{
    if (std::fpclassify(f) == FP_SUBNORMAL)
        return std::signbit(f) ? -0.0f : 0.0f;
    return f;
}
float ref_f(bfloat16 x)
{
    return ref_ftz(f_of(static_cast<uint32_t>(x.bits_) << 16));
}
[[maybe_unused]] float ref_f(float x) { return ref_ftz(x); }

// The element types of one operand class: every signedness.
template <mm_kind K> struct types_of;
template <> struct types_of<mm_kind::i8> { using s = int8; using u = uint8; };
template <> struct types_of<mm_kind::i16> { using s = int16; using u = uint16; };
template <> struct types_of<mm_kind::i32> { using s = int32; using u = uint32; };
template <> struct types_of<mm_kind::bf16> { using s = bfloat16; using u = bfloat16; };
template <> struct types_of<mm_kind::f32> { using s = float; using u = float; };

template <typename TA, typename TB, unsigned M, unsigned K, unsigned N, typename Tag,
          unsigned Lane, unsigned TagBits>
void check_int_mode(uint64_t seed)
{
    using MM = aie::mmul<M, K, N, TA, TB, Tag>;
    static_assert(MM::accum_type::accum_bits() >= 32);
    rng r{ seed };
    // Two macs onto a C given as a vector, then a mul.
    aie::vector<int32, M * N> c0;
    aie::vector<TA, M * K> a1, a2;
    aie::vector<TB, K * N> b1, b2;
    for (unsigned i = 0; i < M * N; i++)
        c0[i] = rand_int<int32>(r);
    for (unsigned i = 0; i < M * K; i++) {
        a1[i] = rand_int<TA>(r);
        a2[i] = rand_int<TA>(r);
    }
    for (unsigned i = 0; i < K * N; i++) {
        b1[i] = rand_int<TB>(r);
        b2[i] = rand_int<TB>(r);
    }
    __int128 exact[M * N], prod[M * N];
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            __int128 s = c0[i * N + j], p = 0;
            for (unsigned k = 0; k < K; k++) {
                s += (__int128)a1[i * K + k] * b1[k * N + j];
                s += (__int128)a2[i * K + k] * b2[k * N + j];
                p += (__int128)a2[i * K + k] * b2[k * N + j];
            }
            exact[i * N + j] = s;
            prod[i * N + j] = p;
        }
    auto wrap = [](__int128 v, unsigned bits) -> int64_t {
        return bits == 32 ? (int64_t)(int32_t)(uint32_t)(unsigned __int128)v
                          : (int64_t)(uint64_t)(unsigned __int128)v;
    };
    // The sums as the lanes hold them; to_accum in accum_type's width.
    auto lanes_want = [&](const __int128 *e, unsigned i) {
        return wrap(wrap(e[i], Lane), TagBits);
    };
    MM mm(c0);
    mm.mac(a1, b1);
    mm.mac(a2, b2);
    typename MM::accum_type acc = mm.to_accum();
    for (unsigned i = 0; i < M * N; i++)
        CHECK_EQ((int64_t)acc.lanes_[i], lanes_want(exact, i));
    // to_vector narrows from the lanes (srs, shift 0, no saturation: the
    // low bits).
    aie::vector<int32, M * N> v = mm.template to_vector<int32>();
    for (unsigned i = 0; i < M * N; i++)
        CHECK_EQ(v[i], (int32_t)(uint32_t)(unsigned __int128)exact[i]);
    mm.mul(a2, b2);
    acc = mm;
    for (unsigned i = 0; i < M * N; i++)
        CHECK_EQ((int64_t)acc.lanes_[i], lanes_want(prod, i));
    // A default-constructed mmul's first mac is a mul; one made from an
    // accumulator starts from it.
    MM fresh;
    fresh.mac(a2, b2);
    typename MM::accum_type acc2 = fresh.to_accum();
    for (unsigned i = 0; i < M * N; i++)
        CHECK_EQ((int64_t)acc2.lanes_[i], lanes_want(prod, i));
    MM again(acc2);
    again.mac(a2, b2);
    acc2 = again.to_accum();
    for (unsigned i = 0; i < M * N; i++) {
        __int128 twice = 2 * prod[i];
        CHECK_EQ((int64_t)acc2.lanes_[i], lanes_want(&twice, 0));
    }
}

template <typename T, unsigned M, unsigned K, unsigned N>
void check_float_mode(uint64_t seed)
{
    using MM = aie::mmul<M, K, N, T, T>;
    static_assert(std::is_same_v<typename MM::accum_type, aie::accum<accfloat, M * N>>);
    rng r{ seed };
    aie::vector<float, M * N> c0;
    aie::vector<T, M * K> a1, a2;
    aie::vector<T, K * N> b1, b2;
    auto rnd = [&] {
        if constexpr (std::is_same_v<T, bfloat16>)
            return rand_bf16(r);
        else
            return rand_f32(r);
    };
    for (unsigned i = 0; i < M * N; i++)
        c0[i] = rand_f32(r);
    for (unsigned i = 0; i < M * K; i++) {
        a1[i] = rnd();
        a2[i] = rnd();
    }
    for (unsigned i = 0; i < K * N; i++) {
        b1[i] = rnd();
        b2[i] = rnd();
    }
    MM mm(c0);
    mm.mac(a1, b1);
    mm.mac(a2, b2);
    auto acc = mm.to_accum();
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            float s = ref_ftz(c0[i * N + j]);
            for (unsigned k = 0; k < K; k++)
                s = ref_ftz(s + ref_ftz((float)((double)ref_f(a1[i * K + k]) *
                                                (double)ref_f(b1[k * N + j]))));
            for (unsigned k = 0; k < K; k++)
                s = ref_ftz(s + ref_ftz((float)((double)ref_f(a2[i * K + k]) *
                                                (double)ref_f(b2[k * N + j]))));
            CHECK_EQ(acc.lanes_[i * N + j], s);
        }
}

// One mode of the table: every signedness of its pair, every width it
// accepts.
template <unsigned Idx> void check_mode()
{
    constexpr auto e = table[Idx];
    constexpr unsigned M = e.m, K = e.k, N = e.n;
    constexpr uint64_t seed = 0x9e3779b97f4a7c15ull * (Idx + 1);
    if constexpr (e.a == mm_kind::bf16 || e.a == mm_kind::f32) {
        check_float_mode<typename types_of<e.a>::s, M, K, N>(seed);
    } else {
        using A = types_of<e.a>;
        using B = types_of<e.b>;
        constexpr unsigned tag = e.tag_follows_request ? 32 : e.lane;
        if constexpr (e.accepts != 64) {
            check_int_mode<typename A::s, typename B::s, M, K, N, accauto, e.lane, tag>(seed);
            check_int_mode<typename A::u, typename B::u, M, K, N, acc32, e.lane, tag>(seed + 1);
            check_int_mode<typename A::s, typename B::u, M, K, N, acc24, e.lane, tag>(seed + 2);
            check_int_mode<typename A::u, typename B::s, M, K, N, accauto, e.lane, tag>(seed + 3);
        }
        if constexpr (e.accepts != 32) {
            constexpr unsigned tag64 = e.tag_follows_request ? 64 : e.lane;
            check_int_mode<typename A::s, typename B::s, M, K, N, acc64, e.lane, tag64>(seed + 4);
            check_int_mode<typename A::u, typename B::s, M, K, N, acc48, e.lane, tag64>(seed + 5);
            check_int_mode<typename A::s, typename B::u, M, K, N, acc56, e.lane, tag64>(seed + 6);
        }
    }
}

template <size_t... I> void check_all_modes(std::index_sequence<I...>)
{
    (check_mode<I>(), ...);
}

AIE_TEST(mmul_every_shape_against_reference)
{
    check_all_modes(std::make_index_sequence<ntable>());
}

// ---- edge cases ------------------------------------------------------------

template <typename T, unsigned N> aie::vector<T, N> splat(T x)
{
    aie::vector<T, N> v;
    for (unsigned i = 0; i < N; i++)
        v[i] = x;
    return v;
}

// 32-bit lanes wrap where 64-bit lanes hold the sum: (-32768)^2 * K.
AIE_TEST(mmul_int16_lane_width_wraps)
{
    aie::vector<int16, 32> a = splat<int16, 32>(INT16_MIN);
    aie::vector<int16, 16> b16 = splat<int16, 16>(INT16_MIN);
    aie::mmul<8, 2, 8, int16, int16> narrow; // 32-bit lanes
    aie::vector<int16, 16> a16 = splat<int16, 16>(INT16_MIN);
    narrow.mul(a16, b16);
    CHECK_LANES(narrow.to_accum(), (int32_t)INT32_MIN); // 2 * 2^30 = 2^31
    narrow.mac(a16, b16);
    CHECK_LANES(narrow.to_accum(), (int32_t)0); // 2^32 wraps to 0
    // Saturating narrowing sees the wrapped lane, as the hardware would.
    aie::set_saturation(aie::saturation_mode::saturate);
    narrow.mul(a16, b16);
    CHECK_LANES(narrow.to_vector<int16>(), (int16_t)INT16_MIN);
    aie::set_saturation(aie::saturation_mode::none);

    aie::mmul<4, 4, 8, int16, int16> wide; // 64-bit lanes
    aie::vector<int16, 32> b32 = splat<int16, 32>(INT16_MIN);
    (void)a;
    wide.mul(splat<int16, 16>(INT16_MIN), b32);
    CHECK_LANES(wide.to_accum(), (int64_t)1 << 32);
    aie::set_saturation(aie::saturation_mode::saturate);
    CHECK_LANES(wide.to_vector<int32>(), (int32_t)INT32_MAX);
    CHECK_LANES(wide.to_vector<int16>(), (int16_t)INT16_MAX);
    aie::set_saturation(aie::saturation_mode::none);
    // A shift brings it back into range: 2^32 >> 17 = 32768 wraps, >> 18 fits.
    CHECK_LANES(wide.to_vector<int16>(18), (int16_t)16384);

    // uint16 x uint16 in 32-bit lanes: 2 * 65535^2 = 0x1_fffc_0002.
    aie::mmul<4, 2, 8, uint16, uint16> u;
    u.mul(splat<uint16, 8>(65535), splat<uint16, 16>(65535));
    CHECK_LANES(u.to_accum(), (int32_t)(uint32_t)0xfffc0002u);
}

// The int32 x int32 products need all 64 bits: INT32_MIN^2 * 2 = 2^63
// wraps to INT64_MIN.
AIE_TEST(mmul_int32_products_wrap_64)
{
#if __AIE_ARCH__ == 20
    aie::mmul<4, 2, 4, int32, int32> m;
    m.mul(splat<int32, 8>(INT32_MIN), splat<int32, 8>(INT32_MIN));
#else
    aie::mmul<4, 2, 8, int32, int32> m;
    m.mul(splat<int32, 8>(INT32_MIN), splat<int32, 16>(INT32_MIN));
#endif
    CHECK_LANES(m.to_accum(), (int64_t)INT64_MIN);
}

bfloat16 bf(float f) { return bfloat16(f); }

// One lane of 4x8x4: C[0][0] = c + sum_k A[0][k] * B[k][0]; the other
// lanes see zeros.
float bf16_lane(float c, const float (&a)[8], const float (&b)[8])
{
    aie::vector<float, 16> cv;
    cv[0] = c;
    aie::vector<bfloat16, 32> av;
    aie::vector<bfloat16, 32> bv;
    for (unsigned k = 0; k < 8; k++) {
        av[k] = bf(a[k]);
        bv[k * 4] = bf(b[k]);
    }
    aie::mmul<4, 8, 4, bfloat16, bfloat16> m(cv);
    m.mac(av, bv);
    return m.to_accum().lanes_[0];
}

AIE_TEST(mmul_bf16_rounding_and_order)
{
    const float h = 0x1p-12f;
    // Each product is half an ulp of 1.0: added one by one, each ties to
    // even and is lost (a tree that summed the products first would give
    // 1 + 2^-23).
    CHECK_EQ(bf16_lane(1.0f, { h, h, 0, 0, 0, 0, 0, 0 }, { h, h, 0, 0, 0, 0, 0, 0 }), 1.0f);
    // Above half an ulp: rounds up.  2^-12 * 2^-12 * (1 + 2^-6).
    CHECK_EQ(bf16_lane(1.0f, { h, 0, 0, 0, 0, 0, 0, 0 },
                       { h * (1 + 0x1p-6f), 0, 0, 0, 0, 0, 0, 0 }),
             1.0f + 0x1p-23f);
    // Tie onto an odd lane: 1 + 2^-23 plus half an ulp goes to 1 + 2^-22.
    CHECK_EQ(bf16_lane(1.0f + 0x1p-23f, { h, 0, 0, 0, 0, 0, 0, 0 }, { h, 0, 0, 0, 0, 0, 0, 0 }),
             1.0f + 0x1p-22f);
    // Exact products: 3 * 5 + 7 * 11 + c.
    CHECK_EQ(bf16_lane(0.5f, { 3, 7, 0, 0, 0, 0, 0, 0 }, { 5, 11, 0, 0, 0, 0, 0, 0 }), 92.5f);
}

AIE_TEST(mmul_bf16_subnormals_flush)
{
    // A subnormal input is zero: 2^-130 * 2^100 would be 2^-30.
    aie::vector<bfloat16, 32> a;
    aie::vector<bfloat16, 32> b;
    a[0] = bfloat16::from_bits(0x0008); // 2^-130
    b[0] = bf(0x1p100f);
    aie::mmul<4, 8, 4, bfloat16, bfloat16> m;
    m.mul(a, b);
    CHECK_EQ(m.to_accum().lanes_[0], 0.0f);
    // A product below the normal range is zero of its sign: 2^-70 * 2^-70
    // (the other products are -0 too, so that the lane stays -0).
    a[0] = bf(-0x1p-70f);
    b[0] = bf(0x1p-70f);
    for (unsigned k = 1; k < 8; k++)
        a[k] = bf(-0.0f);
    aie::vector<float, 16> c;
    c[0] = -0.0f;
    aie::mmul<4, 8, 4, bfloat16, bfloat16> n(c);
    n.mac(a, b);
    CHECK_EQ(n.to_accum().lanes_[0], -0.0f);
    // A sum below the normal range is zero: 2^-125 - 1.5 * 2^-126.
    c[0] = 0x1p-125f;
    a[0] = bf(-0x1.8p-63f);
    b[0] = bf(0x1p-63f);
    for (unsigned k = 1; k < 8; k++)
        a[k] = bf(0.0f);
    aie::mmul<4, 8, 4, bfloat16, bfloat16> s(c);
    s.mac(a, b);
    CHECK_EQ(s.to_accum().lanes_[0], 0.0f);
    // A subnormal C given as a vector is zero too.
    c[0] = 0x1p-130f;
    a[0] = bf(0);
    aie::mmul<4, 8, 4, bfloat16, bfloat16> z(c);
    z.mac(a, b);
    CHECK_EQ(z.to_accum().lanes_[0], 0.0f);
}

AIE_TEST(mmul_bf16_inf_nan)
{
    const float inf = std::numeric_limits<float>::infinity();
    CHECK_EQ(bf16_lane(0, { 0x1p127f, 0, 0, 0, 0, 0, 0, 0 }, { 4, 0, 0, 0, 0, 0, 0, 0 }), inf);
    CHECK_EQ(bf16_lane(1, { -inf, 0, 0, 0, 0, 0, 0, 0 }, { 2, 0, 0, 0, 0, 0, 0, 0 }), -inf);
    CHECK(std::isnan(bf16_lane(0, { inf, 0, 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0, 0, 0 })));
    CHECK(std::isnan(bf16_lane(0, { inf, -inf, 0, 0, 0, 0, 0, 0 }, { 1, 1, 0, 0, 0, 0, 0, 0 })));
    CHECK(std::isnan(bf16_lane(std::numeric_limits<float>::quiet_NaN(),
                               { 1, 0, 0, 0, 0, 0, 0, 0 }, { 1, 0, 0, 0, 0, 0, 0, 0 })));
    (void)f_of;
}

// C from a bfloat16 vector, and back with the core's rounding mode.
AIE_TEST(mmul_bf16_to_vector_rounding)
{
    aie::vector<bfloat16, 16> c;
    c[0] = bf(1.0f);
    aie::vector<bfloat16, 32> a, b;
    a[0] = bf(0x1p-8f);
    b[0] = bf(1.5f); // C = 1 + 1.5 * 2^-8 = 1 + 3 * 2^-9: between bf16 steps of 2^-7
    aie::mmul<4, 8, 4, bfloat16, bfloat16> m(c);
    m.mac(a, b);
    CHECK_EQ(m.to_accum().lanes_[0], 1.0f + 0x3p-9f);
    CHECK_EQ(m.to_vector<bfloat16>()[0].bits_, bf(1.0f).bits_); // floor (reset)
    aie::set_rounding(aie::rounding_mode::conv_even);
    CHECK_EQ(m.to_vector<bfloat16>()[0].bits_, bf(1.0f + 0x1p-7f).bits_);
    CHECK_EQ(m.to_vector<float>()[0], 1.0f + 0x3p-9f);
}

// The shift of to_vector and of the constructor from a vector.
AIE_TEST(mmul_int_shifts)
{
    aie::vector<int16, 64> c;
    for (unsigned i = 0; i < 64; i++)
        c[i] = (int16)(i - 32);
    aie::mmul<8, 2, 8, int16, int16> m(c, 4); // C << 4
    aie::vector<int16, 16> a, b;
    a[0] = 3;
    b[0] = 5; // C[0][0] += 15
    m.mac(a, b);
    CHECK_EQ(m.to_accum().lanes_[0], (int32_t)(-32 * 16 + 15));
    CHECK_EQ(m.to_accum().lanes_[1], (int32_t)(-31 * 16));
    aie::set_rounding(aie::rounding_mode::conv_even);
    auto v = m.to_vector<int16>(4);
    CHECK_EQ(v[0], (int16_t)-31); // (-512 + 15) / 16 = -31.06
    CHECK_EQ(v[1], (int16_t)-31);
    CHECK_FAULT((void)m.to_vector<int16>(64), "shift");
}

} // namespace
