// The dimensions of the convolution iteration space (docs/design.md,
// "One iteration space, three phases"): G groups, N minibatch, K output channels
// per group, C input channels per group, P×Q output rows×columns, R×S filter
// rows×columns. Fully connected layers are P=Q=R=S=1 (and G=1).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace trainloop {

enum class Dim : std::uint8_t { N, K, C, P, Q, R, S, G };

inline constexpr std::size_t kNumDims = 8;
inline constexpr std::array<Dim, kNumDims> kAllDims = {Dim::N, Dim::K, Dim::C, Dim::P,
                                                       Dim::Q, Dim::R, Dim::S, Dim::G};

constexpr std::string_view dim_name(Dim d) {
    constexpr std::array<std::string_view, kNumDims> names = {"N", "K", "C", "P",
                                                              "Q", "R", "S", "G"};
    return names[static_cast<std::size_t>(d)];
}

constexpr std::optional<Dim> dim_from_name(std::string_view name) {
    for (Dim d : kAllDims) {
        if (dim_name(d) == name) return d;
    }
    return std::nullopt;
}

// A value per dimension (bounds, tile sizes, factors, ...).
template <typename T>
struct PerDim {
    std::array<T, kNumDims> values{};
    constexpr T& operator[](Dim d) { return values[static_cast<std::size_t>(d)]; }
    constexpr const T& operator[](Dim d) const { return values[static_cast<std::size_t>(d)]; }
    friend constexpr bool operator==(const PerDim&, const PerDim&) = default;
};

using DimBounds = PerDim<std::int64_t>;

// A set of dimensions, as a bit mask.
class DimSet {
  public:
    constexpr DimSet() = default;
    constexpr DimSet(std::initializer_list<Dim> dims) {
        for (Dim d : dims) insert(d);
    }
    constexpr void insert(Dim d) { bits_ |= bit(d); }
    constexpr bool contains(Dim d) const { return (bits_ & bit(d)) != 0; }
    constexpr bool empty() const { return bits_ == 0; }
    constexpr DimSet operator|(DimSet other) const {
        DimSet out;
        out.bits_ = static_cast<std::uint8_t>(bits_ | other.bits_);
        return out;
    }
    constexpr DimSet operator&(DimSet other) const {
        DimSet out;
        out.bits_ = static_cast<std::uint8_t>(bits_ & other.bits_);
        return out;
    }
    constexpr DimSet complement() const {
        DimSet out;
        out.bits_ = static_cast<std::uint8_t>(~bits_);
        return out;
    }
    friend constexpr bool operator==(const DimSet&, const DimSet&) = default;

  private:
    static constexpr std::uint8_t bit(Dim d) {
        return static_cast<std::uint8_t>(1U << static_cast<unsigned>(d));
    }
    std::uint8_t bits_ = 0;
};

}  // namespace trainloop
