// ProblemShape: what a MAC operation is, as data (Timeloop's problem shape;
// docs/design.md, "One iteration space, three phases"). An operation
//     Z[...] += A[...] · B[...]
// names up to kNumDims dimensions and projects its iteration space onto three
// tensors, each axis an affine sum of dimensions (projection.hpp). The three
// tensors sit on the three data spaces: the first operand on `weights`, the
// second on `inputs`, the result on `outputs`; the training phases put the
// gradients on the same spaces (phase.hpp).
//
// The dimensions are slots of PerDim arrays (vocabulary/dims.hpp): a shape
// gives each slot it uses a name, and leaves the others unnamed (bound 1,
// indexing no tensor). The conv family (conv, fc, matmul, lstm_cell) is one
// shape: the slots under their own letters,
//     O[n,g,k,p,q] += W[g,k,c,r,s] · I[n,g,c, p·σh + r·δh, q·σw + s·δw].
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "vocabulary/dims.hpp"
#include "vocabulary/extent2.hpp"
#include "vocabulary/per_space.hpp"
#include "vocabulary/projection.hpp"

namespace trainloop {

struct ProblemShape {
    // Each slot's name ("" for a slot the shape does not use).
    PerDim<std::string> dim_names;
    // The slots the shape uses, in the order it lists them (to_string, errors).
    std::array<Dim, kNumDims> listing{};
    std::uint8_t num_dims = 0;
    // The tensors' names, per data space ("W", "I", "O" for the conv family).
    PerDataSpace<std::string> tensor_names;
    PerDataSpace<Projection> projections;

    std::string_view dim_name(Dim d) const { return dim_names[d]; }
    bool uses(Dim d) const { return !dim_names[d].empty(); }
    // The slot the shape names `name`, if any.
    std::optional<Dim> dim_named(std::string_view name) const;
    friend bool operator==(const ProblemShape&, const ProblemShape&) = default;
};

// The conv family's shape with this window geometry (h = p·stride + r·dilation).
ProblemShape conv_shape(Extent2 stride = {1, 1}, Extent2 dilation = {1, 1});
// The conv family's shape at unit stride, one instance for the program: what
// names dimensions where no problem is at hand (the conv letters).
const ProblemShape& conv_family_shape();

// The window geometry when `shape` indexes its tensors as the conv family
// does (whatever it names its dimensions), else nullopt: what the Timeloop
// bridge, which writes the CNN-layer problem, can export.
struct ConvWindow {
    Extent2 stride;
    Extent2 dilation;
};
std::optional<ConvWindow> conv_window(const ProblemShape& shape);

}  // namespace trainloop
