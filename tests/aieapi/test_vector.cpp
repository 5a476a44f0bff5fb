// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// test_vector.cpp - aie::vector's members, aie::mask, and memory: load_v /
// store_v, their alignment faults, the unaligned forms, the iterators.
#include "aieapi_test.hpp"

AIE_TEST(vector_layout_and_lane_counts)
{
    CHECK((std::is_trivially_copyable_v<aie::vector<int16, 32>>));
    CHECK_EQ(sizeof(aie::vector<int16, 32>), 64u);
    CHECK_EQ(alignof(aie::vector<int32, 16>), 64u);
    CHECK_EQ(alignof(aie::vector<int8, 128>), 128u);
    CHECK_EQ((aie::vector<int8>::size()), 64u);
    CHECK_EQ((aie::vector<int16>::size()), 32u);
    CHECK_EQ((aie::vector<bfloat16>::size()), 32u);
    CHECK_EQ((aie::vector<float>::size()), 16u);
    CHECK_EQ((aie::native_vector_length_v<int32>), 16u);
    CHECK_EQ(aie::vector_decl_align, __AIE_ARCH__ == 20 ? 32u : 64u);
    CHECK_EQ((aie::vector_ldst_align_v<int32, 4>), 16u);
    CHECK_EQ((aie::vector_ldst_align_v<int32, 8>), 32u);
    // 256-bit load/store ports on both generations: 512-bit vectors and up
    // need 32 bytes, as the compilers align a tile's buffers.
    CHECK_EQ((aie::vector_ldst_align_v<int32, 16>), 32u);
    CHECK_EQ((aie::vector_ldst_align_v<int8, 128>), 32u);
    CHECK_EQ((aie::vector_ldst_align_v<int8, 4>), 4u);
    CHECK_EQ((aie::vector_ldst_align_v<int16, 2>), 4u);
    CHECK_EQ((aie::vector_ldst_align_v<int8, 24>), 8u);
    CHECK_EQ((aie::vector_ldst_align_elems_v<int16, 32>), 16u);
    aie::vector<int32, 8> z;
    CHECK_LANES(z, 0);
    aie::vector<int32, 8> v(1, 2, 3);
    CHECK_LANES(v, i < 3 ? (int)i + 1 : 0);
}

AIE_TEST(vector_members)
{
    aie::vector<int16, 16> v;
    for (unsigned i = 0; i < 16; i++)
        v.set((int16)(i * 10), i);
    CHECK_EQ(v.get(3), 30);
    CHECK_EQ(v[15], 150);
    v[2] = -7;
    CHECK_EQ(v.get(2), -7);
    v[2] = 20;
    aie::vector<int16, 16> p = v;
    p.push(99);
    CHECK_LANES(p, i == 0 ? 99 : (int)(i - 1) * 10);
    aie::vector<int16, 8> hi = v.extract<8>(1);
    CHECK_LANES(hi, (int)(i + 8) * 10);
    aie::vector<int16, 32> g = v.grow<32>(1);
    CHECK_LANES(g, i < 16 ? 0 : (int)(i - 16) * 10);
    aie::vector<int16, 32> gr = hi.grow_replicate<32>();
    CHECK_LANES(gr, (int)(i % 8 + 8) * 10);
    aie::vector<int16, 16> ins = v;
    ins.insert(0, hi);
    CHECK_LANES(ins, (int)(i % 8 + (i < 8 ? 8 : 8)) * 10);
    aie::vector<int16, 16> u;
    u.upd_all(hi, v.extract<8>(0));
    CHECK_LANES(u, (int)((i + 8) % 16) * 10);
    auto parts = v.split<4>();
    CHECK_EQ(parts.size(), 4u);
    CHECK_LANES(parts[3], (int)(i + 12) * 10);
    aie::vector<int8, 32> bytes = v.cast_to<int8>();
    CHECK_EQ(bytes[4], 20); // lane 2, little-endian
    CHECK_EQ(bytes[5], 0);
    aie::vector<int32, 8> words = v.cast_to<int32>();
    CHECK_EQ(words[0], 10 << 16);
    aie::vector<int16, 8> ge = v.grow_extract<8>(1);
    CHECK_LANES(ge, (int)(i + 8) * 10);
}

AIE_TEST(mask_bits)
{
    aie::mask<40> m;
    CHECK(m.empty());
    m.set(0);
    m.set(33);
    CHECK_EQ(m.count(), 2u);
    CHECK_EQ(m.to_uint32(0), 1u);
    CHECK_EQ(m.to_uint32(1), 2u);
    CHECK_EQ(m.to_uint64(), (1ull << 33) | 1ull);
    aie::mask<40> n = aie::mask<40>::from_uint64((1ull << 33) | 4);
    CHECK_EQ((m & n).count(), 1u);
    CHECK_EQ((m | n).count(), 3u);
    CHECK_EQ((m ^ n).count(), 2u);
    CHECK_EQ((~m).count(), 38u);
    CHECK(aie::mask<8>(true).full());
    CHECK(aie::mask<16>::from_uint32(0xffff).full());
    m.clear(0);
    CHECK(!m.test(0));
}

AIE_TEST(load_store_aligned_and_faults)
{
    alignas(128) int32 buf[64];
    for (int i = 0; i < 64; i++)
        buf[i] = i * 3;
    aie::vector<int32, 16> v = aie::load_v<16>(buf + 16);
    CHECK_LANES(v, (int)(i + 16) * 3);
    aie::vector<int32, 16> n = aie::load_v(buf); // native length
    CHECK_EQ(n.size(), 16u);
    alignas(128) int32 out[64] = {};
    aie::store_v(out + 32, v);
    CHECK_EQ(out[32], 48);
    CHECK_EQ(out[47], 93);
    CHECK_EQ(out[48], 0);
    aie::vector<int32, 4> small = aie::load_v<4>(buf + 4); // 16-byte aligned is enough
    CHECK_EQ(small[0], 12);
    CHECK_FAULT((void)aie::load_v<16>(buf + 1), "aie::load_v: the address is not aligned");
    CHECK_FAULT(aie::store_v(out + 4, v), "aie::store_v");
    CHECK_FAULT((void)aie::load_v<4>(buf + 1), "aie::load_v");
    // 32 bytes but not 64 is enough for 512 bits on both generations (a
    // buffer the compiler placed at 32 bytes starts there).
    CHECK_EQ(aie::load_v<16>(buf + 8)[0], 24);
    CHECK_EQ((aie::load_v<64>((const int8 *)buf + 32)[0]), 24);
    aie::store_v(out + 8, v);
    CHECK_EQ(out[8], 48);
    CHECK_EQ((aie::vector<int32, 32>(*aie::cbegin_vector<32>(buf + 8))[0]), 24);
    CHECK_FAULT((void)aie::load_v<16>(buf + 4), "aie::load_v"); // 16 bytes
    CHECK_FAULT((void)aie::begin_vector<32>(buf + 4), "aie::begin_vector");
    aie::vector<int32, 16> ua = aie::load_unaligned_v<16>(buf + 3);
    CHECK_LANES(ua, (int)(i + 3) * 3);
    aie::store_unaligned_v(out + 1, ua);
    CHECK_EQ(out[1], 9);
    aie::vector<int32, 16> m;
    m.load(buf);
    CHECK_EQ(m[5], 15);
    m.store(out);
    CHECK_EQ(out[5], 15);
    CHECK_FAULT(m.load(buf + 2), "aie::load_v");
}

AIE_TEST(vector_iterators)
{
    alignas(128) int16 a[128], b[128];
    for (int i = 0; i < 128; i++)
        a[i] = (int16)(i - 64), b[i] = 0;
    auto in = aie::cbegin_vector<32>(a);
    auto out = aie::begin_vector<32>(b);
    for (int k = 0; k < 4; k++)
        *out++ = aie::add(aie::vector<int16, 32>(*in++), (int16)1);
    for (int i = 0; i < 128; i++)
        CHECK_EQ(b[i], i - 63);
    auto r = aie::begin_restrict_vector<16>(b);
    aie::vector<int16, 16> third = r[2];
    CHECK_EQ(third[0], 32 - 63);
    auto cr = aie::cbegin_restrict_vector<16>(a);
    cr += 3;
    CHECK_EQ((aie::vector<int16, 16>(*cr)[0]), 48 - 64);
    CHECK_EQ(cr - aie::cbegin_restrict_vector<16>(a), 3);
    CHECK_FAULT((void)aie::begin_vector<32>(a + 1), "aie::begin_vector");
    CHECK_FAULT((void)aie::cbegin_vector<16>(b + 2), "aie::cbegin_vector");
}
