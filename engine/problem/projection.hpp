// How each data space is indexed (docs/design.md, "One iteration space, three phases"):
//   weights [g, k, c, r, s]
//   inputs  [n, g, c, p·σh + r·δh, q·σw + s·δw]   (the sliding window)
//   outputs [n, g, k, p, q]
// A tensor axis is a sum of at most two (dimension × coefficient) terms, so
// the extent of an axis over a box of the iteration space with extents E is
// Σ (E_d − 1)·coef + 1, e.g. the input halo (P'−1)·σ + (R'−1)·δ + 1
// (Timeloop's projection of the CNN-layer problem shape).
#pragma once

#include <array>
#include <cstdint>

#include "problem/iteration_space.hpp"
#include "vocabulary/phase.hpp"

namespace trainloop {

struct AxisTerm {
    Dim dim = Dim::N;
    std::int64_t coef = 1;
};

struct TensorAxis {
    std::array<AxisTerm, 2> terms{};
    std::uint8_t num_terms = 1;
};

struct Projection {
    std::array<TensorAxis, 5> axes{};
    std::uint8_t num_axes = 0;
    DimSet relevant;  // dimensions that appear in some axis
    // Each dimension indexes at most one axis: which one (-1: none), and with
    // which coefficient. The hot loops read these instead of the terms.
    PerDim<std::int8_t> axis_of{};
    PerDim<std::int64_t> coef_of{};
};

Projection projection_for(DataSpace space, const IterationSpace& problem);

// Words in the box of the iteration space with per-dimension extents `extent`.
std::int64_t footprint(const Projection& projection, const DimBounds& extent);
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
