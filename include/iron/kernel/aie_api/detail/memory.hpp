// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// memory.hpp - vectors to and from data memory: load_v / store_v (which
// need the hardware's alignment, config.hpp: an unaligned one is a fault
// naming the kernel's line), their unaligned forms, and the vector
// iterators (begin_vector ...), which check the alignment once, where they
// are made, since each step keeps it.  The bytes move with memcpy, so the
// host compiler emits plain (SIMD) loads and stores.
#pragma once

#include <cstdint>
#include <cstring>

#include "config.hpp"
#include "count.hpp"
#include "host.hpp"
#include "vector.hpp"

namespace aie {

namespace detail {

template <typename T, unsigned Elems>
IRON_AIE_INLINE void check_align(const void *p, const char *what, const char *file, unsigned line)
{
    if (reinterpret_cast<uintptr_t>(p) % vector_ldst_align_v<T, Elems> != 0) [[unlikely]]
        iron__aie_fault(what, file, line);
}

} // namespace detail

// Reads Elems lanes from ptr, which must be aligned to vector_ldst_align_v.
template <unsigned Elems, aie_dm_resource Resource = aie_dm_resource::none, typename T>
IRON_AIE_INLINE vector<std::remove_cv_t<T>, Elems> load_v(const T *ptr, IRON_AIE_LOC)
{
    using U = std::remove_cv_t<T>;
    detail::check_align<U, Elems>(ptr, "aie::load_v: the address is not aligned to the vector's size (the hardware needs it)", IRON_AIE_AT);
    vector<U, Elems> r;
    IRON_AIE_COUNT(IRON_COUNT_VLOAD, sizeof r.lanes_ * 8);
    std::memcpy(r.lanes_, ptr, sizeof r.lanes_);
    return r;
}

// The native length (512 bits) when none is given.
template <aie_dm_resource Resource = aie_dm_resource::none, typename T>
IRON_AIE_INLINE vector<std::remove_cv_t<T>, detail::native_vector_length_v<std::remove_cv_t<T>>>
load_v(const T *ptr, IRON_AIE_LOC)
{
    return load_v<detail::native_vector_length_v<std::remove_cv_t<T>>, Resource>(ptr, IRON_AIE_AT);
}

// Any element alignment: aligned_elems is only a hint on the hardware.
template <unsigned Elems, aie_dm_resource Resource = aie_dm_resource::none, typename T>
IRON_AIE_INLINE vector<std::remove_cv_t<T>, Elems> load_unaligned_v(const T *ptr, unsigned aligned_elems = 1)
{
    (void)aligned_elems;
    vector<std::remove_cv_t<T>, Elems> r;
    IRON_AIE_COUNT(IRON_COUNT_VLOAD, sizeof r.lanes_ * 8);
    std::memcpy(r.lanes_, ptr, sizeof r.lanes_);
    return r;
}

template <aie_dm_resource Resource = aie_dm_resource::none, typename T1, typename T2, unsigned Elems>
    requires(std::is_same_v<std::remove_cv_t<T1>, T2>)
IRON_AIE_INLINE T1 *store_v(T1 *ptr, const vector<T2, Elems> &v, IRON_AIE_LOC)
{
    detail::check_align<T2, Elems>(ptr, "aie::store_v: the address is not aligned to the vector's size (the hardware needs it)", IRON_AIE_AT);
    IRON_AIE_COUNT(IRON_COUNT_VSTORE, sizeof v.lanes_ * 8);
    std::memcpy(ptr, v.lanes_, sizeof v.lanes_);
    return ptr;
}

template <aie_dm_resource Resource = aie_dm_resource::none, typename T1, typename T2, unsigned Elems>
    requires(std::is_same_v<std::remove_cv_t<T1>, T2>)
IRON_AIE_INLINE T1 *store_unaligned_v(T1 *ptr, const vector<T2, Elems> &v, unsigned aligned_elems = 1)
{
    (void)aligned_elems;
    IRON_AIE_COUNT(IRON_COUNT_VSTORE, sizeof v.lanes_ * 8);
    std::memcpy(ptr, v.lanes_, sizeof v.lanes_);
    return ptr;
}

template <typename T, unsigned Elems>
IRON_AIE_INLINE void vector<T, Elems>::load(const T *ptr, const char *iron_file_, unsigned iron_line_)
{
    *this = load_v<Elems>(ptr, IRON_AIE_AT);
}

template <typename T, unsigned Elems>
IRON_AIE_INLINE void vector<T, Elems>::store(T *ptr, const char *iron_file_, unsigned iron_line_) const
{
    store_v(ptr, *this, IRON_AIE_AT);
}

// A vector-sized place in memory: reads as a vector, assigns by storing.
template <typename T, unsigned Elems>
class vector_ref {
  public:
    T *ptr_;
    IRON_AIE_INLINE operator vector<std::remove_cv_t<T>, Elems>() const
    {
        vector<std::remove_cv_t<T>, Elems> r;
        IRON_AIE_COUNT(IRON_COUNT_VLOAD, sizeof r.lanes_ * 8);
        std::memcpy(r.lanes_, ptr_, sizeof r.lanes_);
        return r;
    }
    IRON_AIE_INLINE vector<std::remove_cv_t<T>, Elems> load() const { return *this; }
    IRON_AIE_INLINE const vector_ref &operator=(const vector<std::remove_cv_t<T>, Elems> &v) const
    {
        IRON_AIE_COUNT(IRON_COUNT_VSTORE, sizeof v.lanes_ * 8);
        std::memcpy(ptr_, v.lanes_, sizeof v.lanes_);
        return *this;
    }
    IRON_AIE_INLINE const vector_ref &operator=(const vector_ref &o) const
    {
        return *this = vector<std::remove_cv_t<T>, Elems>(o);
    }
    // Lane access through the reference.
    IRON_AIE_INLINE T &operator[](unsigned i) const { return ptr_[i]; }
};

// Steps over memory one vector at a time (random access).  T may be const.
template <typename T, unsigned Elems>
class vector_iterator {
  public:
    T *ptr_;
    using value_type = vector<std::remove_cv_t<T>, Elems>;
    using difference_type = std::ptrdiff_t;

    IRON_AIE_INLINE vector_iterator() : ptr_(nullptr) {}
    IRON_AIE_INLINE explicit vector_iterator(T *p) : ptr_(p) {}

    IRON_AIE_INLINE vector_ref<T, Elems> operator*() const { return {ptr_}; }
    IRON_AIE_INLINE vector_ref<T, Elems> operator[](difference_type n) const { return {ptr_ + n * Elems}; }
    IRON_AIE_INLINE vector_iterator &operator++() { ptr_ += Elems; return *this; }
    IRON_AIE_INLINE vector_iterator operator++(int) { vector_iterator o = *this; ptr_ += Elems; return o; }
    IRON_AIE_INLINE vector_iterator &operator--() { ptr_ -= Elems; return *this; }
    IRON_AIE_INLINE vector_iterator operator--(int) { vector_iterator o = *this; ptr_ -= Elems; return o; }
    IRON_AIE_INLINE vector_iterator &operator+=(difference_type n) { ptr_ += n * Elems; return *this; }
    IRON_AIE_INLINE vector_iterator &operator-=(difference_type n) { ptr_ -= n * Elems; return *this; }
    IRON_AIE_INLINE vector_iterator operator+(difference_type n) const { return vector_iterator(ptr_ + n * Elems); }
    IRON_AIE_INLINE vector_iterator operator-(difference_type n) const { return vector_iterator(ptr_ - n * Elems); }
    IRON_AIE_INLINE difference_type operator-(const vector_iterator &o) const { return (ptr_ - o.ptr_) / Elems; }
    IRON_AIE_INLINE bool operator==(const vector_iterator &o) const { return ptr_ == o.ptr_; }
    IRON_AIE_INLINE bool operator!=(const vector_iterator &o) const { return ptr_ != o.ptr_; }
};

template <typename T, unsigned Elems>
using const_vector_iterator = vector_iterator<const T, Elems>;
template <typename T, unsigned Elems>
using restrict_vector_iterator = vector_iterator<T, Elems>;
template <typename T, unsigned Elems>
using const_restrict_vector_iterator = vector_iterator<const T, Elems>;

#define IRON_AIE_BEGIN_VECTOR(name, CONST)                                    \
    template <unsigned Elems, aie_dm_resource Resource = aie_dm_resource::none, typename T> \
    IRON_AIE_INLINE vector_iterator<CONST T, Elems> name(CONST T *ptr, IRON_AIE_LOC) \
    {                                                                         \
        detail::check_align<std::remove_cv_t<T>, Elems>(                     \
            ptr, "aie::" #name ": the address is not aligned to the vector's size (the hardware needs it)", \
            IRON_AIE_AT);                                                     \
        return vector_iterator<CONST T, Elems>(ptr);                          \
    }
IRON_AIE_BEGIN_VECTOR(begin_vector, )
IRON_AIE_BEGIN_VECTOR(begin_restrict_vector, )
IRON_AIE_BEGIN_VECTOR(cbegin_vector, const)
IRON_AIE_BEGIN_VECTOR(cbegin_restrict_vector, const)
#undef IRON_AIE_BEGIN_VECTOR

} // namespace aie
