// FixedList: a list of at most N values held in place (no allocation), for
// the plain values the evaluator copies and compares millions of times
// (a level's loops, a fibertree format's ranks).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace trainloop {

template <typename T, std::size_t N>
class FixedList {
    static_assert(N <= 255, "the size is kept in one byte");

  public:
    constexpr std::size_t size() const { return size_; }
    constexpr bool empty() const { return size_ == 0; }
    constexpr const T* begin() const { return items_.data(); }
    constexpr const T* end() const { return items_.data() + size_; }
    constexpr const T& operator[](std::size_t i) const { return items_[i]; }
    // Precondition: size() < N.
    constexpr void push_back(T item) { items_[size_++] = item; }
    constexpr void clear() { size_ = 0; }
    friend constexpr bool operator==(const FixedList& a, const FixedList& b) {
        if (a.size_ != b.size_) return false;
        for (std::size_t i = 0; i < a.size_; ++i) {
            if (!(a.items_[i] == b.items_[i])) return false;
        }
        return true;
    }

  private:
    std::array<T, N> items_{};
    std::uint8_t size_ = 0;
};

}  // namespace trainloop
