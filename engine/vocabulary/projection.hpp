// How a data space is indexed: its tensor's axes, each an affine sum of the
// iteration space's dimensions (Timeloop's problem-shape projections). For the
// conv family (problem_shape.hpp):
//   weights [g, k, c, r, s]
//   inputs  [n, g, c, p·σh + r·δh, q·σw + s·δw]   (the sliding window)
//   outputs [n, g, k, p, q]
// A tensor axis is a sum of at most two (dimension × coefficient) terms, so
// the extent of an axis over a box of the iteration space with extents E is
// Σ (E_d − 1)·coef + 1, e.g. the input halo (P'−1)·σ + (R'−1)·δ + 1.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>

#include "vocabulary/dims.hpp"
#include "vocabulary/phase.hpp"

namespace trainloop {

// The most axes a tensor has (the conv family's inputs: n, g, c, h, w) and
// the most terms an axis sums (a sliding window: p·σ + r·δ).
inline constexpr std::size_t kMaxTensorAxes = 5;
inline constexpr std::size_t kMaxAxisTerms = 2;

struct AxisTerm {
    Dim dim = Dim::N;
    std::int64_t coef = 1;
    friend bool operator==(const AxisTerm&, const AxisTerm&) = default;
};

struct TensorAxis {
    std::array<AxisTerm, kMaxAxisTerms> terms{};
    std::uint8_t num_terms = 1;
    friend bool operator==(const TensorAxis&, const TensorAxis&) = default;
};

struct Projection {
    std::array<TensorAxis, kMaxTensorAxes> axes{};
    std::uint8_t num_axes = 0;
    DimSet relevant;  // dimensions that appear in some axis
    // Each dimension indexes at most one axis: which one (-1: none), and with
    // which coefficient. The hot loops read these instead of the terms.
    PerDim<std::int8_t> axis_of{};
    PerDim<std::int64_t> coef_of{};
    friend bool operator==(const Projection&, const Projection&) = default;
};

// The projection with these axes, in order. Preconditions (the einsum
// parser's checks): at most kMaxTensorAxes axes, each of 1..kMaxAxisTerms
// terms with positive coefficients, and no dimension in two axes.
Projection make_projection(const TensorAxis* axes, std::size_t count);
Projection make_projection(std::initializer_list<TensorAxis> axes);

// Words in the box of the iteration space with per-dimension extents `extent`.
std::int64_t footprint(const Projection& projection, const DimBounds& extent);
// The same where the extents may be too large to model: each axis's span
// (1 + Σ (extent − 1)·coef) and the words, or nullopt when either passes
// kMaxCount (common/checked_math.hpp). For the checks at the edge, not the
// evaluator.
std::optional<std::int64_t> checked_axis_span(const TensorAxis& axis, const DimBounds& extent);
std::optional<std::int64_t> checked_footprint(const Projection& projection,
                                              const DimBounds& extent);
// The same for the box with extents extent[d] · scale[d].
std::int64_t footprint(const Projection& projection, const DimBounds& extent,
                       const DimBounds& scale);

// Distinct words the iteration points of the box with extents
// extent[d] · scale[d] touch. Equal to the footprint unless a window has
// holes (stride > dilation·(R'−1) + 1, or dilation > 1 with one output
// position): the box then counts words no point touches.
std::int64_t touched_words(const Projection& projection, const DimBounds& extent,
                           const DimBounds& scale);

}  // namespace trainloop
