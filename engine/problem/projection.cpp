#include "problem/projection.hpp"

#include <algorithm>
#include <numeric>

namespace trainloop {
namespace {

TensorAxis single(Dim d) {
    TensorAxis axis;
    axis.terms[0] = {d, 1};
    return axis;
}

TensorAxis window(Dim output, std::int64_t stride, Dim filter, std::int64_t dilation) {
    TensorAxis axis;
    axis.terms[0] = {output, stride};
    axis.terms[1] = {filter, dilation};
    axis.num_terms = 2;
    return axis;
}

}  // namespace

Projection projection_for(DataSpace space, const IterationSpace& problem) {
    Projection p;
    p.axis_of.values.fill(-1);
    auto add = [&p](TensorAxis axis) {
        for (std::uint8_t t = 0; t < axis.num_terms; ++t) {
            p.relevant.insert(axis.terms[t].dim);
            p.axis_of[axis.terms[t].dim] = std::int8_t(p.num_axes);
            p.coef_of[axis.terms[t].dim] = axis.terms[t].coef;
        }
        p.axes[p.num_axes++] = axis;
    };
    switch (space) {
        case DataSpace::weights:
            for (Dim d : {Dim::G, Dim::K, Dim::C, Dim::R, Dim::S}) add(single(d));
            break;
        case DataSpace::inputs:
            for (Dim d : {Dim::N, Dim::G, Dim::C}) add(single(d));
            add(window(Dim::P, problem.stride.h, Dim::R, problem.dilation.h));
            add(window(Dim::Q, problem.stride.w, Dim::S, problem.dilation.w));
            break;
        case DataSpace::outputs:
            for (Dim d : {Dim::N, Dim::G, Dim::K, Dim::P, Dim::Q}) add(single(d));
            break;
    }
    return p;
}

std::int64_t footprint(const Projection& projection, const DimBounds& extent) {
    std::int64_t words = 1;
    for (std::uint8_t a = 0; a < projection.num_axes; ++a) {
        const TensorAxis& axis = projection.axes[a];
        std::int64_t span = 1;
        for (std::uint8_t t = 0; t < axis.num_terms; ++t) {
            span += (extent[axis.terms[t].dim] - 1) * axis.terms[t].coef;
        }
        words *= span;
    }
    return words;
}

std::int64_t footprint(const Projection& projection, const DimBounds& extent,
                       const DimBounds& scale) {
    std::int64_t words = 1;
    for (std::uint8_t a = 0; a < projection.num_axes; ++a) {
        const TensorAxis& axis = projection.axes[a];
        std::int64_t span = 1;
        for (std::uint8_t t = 0; t < axis.num_terms; ++t) {
            const Dim d = axis.terms[t].dim;
            span += (extent[d] * scale[d] - 1) * axis.terms[t].coef;
        }
        words *= span;
    }
    return words;
}

std::int64_t touched_words(const Projection& projection, const DimBounds& extent,
                           const DimBounds& scale) {
    std::int64_t words = 1;
    for (std::uint8_t a = 0; a < projection.num_axes; ++a) {
        const TensorAxis& axis = projection.axes[a];
        const std::int64_t e1 = extent[axis.terms[0].dim] * scale[axis.terms[0].dim];
        if (axis.num_terms == 1) {
            words *= e1;
            continue;
        }
        // Points i·c1 + j·c2 (i < e1, j < e2) collide exactly along chains
        // (i + t·b, j − t·a) with a = c1/g, b = c2/g, g = gcd(c1, c2); a point
        // is a chain's first unless (i − b, j + a) is in the box, so the
        // distinct values number e1·e2 − (e1 − b)⁺·(e2 − a)⁺.
        const std::int64_t e2 = extent[axis.terms[1].dim] * scale[axis.terms[1].dim];
        const std::int64_t g = std::gcd(axis.terms[0].coef, axis.terms[1].coef);
        const std::int64_t step_a = axis.terms[0].coef / g;
        const std::int64_t step_b = axis.terms[1].coef / g;
        words *= e1 * e2 -
                 std::max<std::int64_t>(0, e1 - step_b) * std::max<std::int64_t>(0, e2 - step_a);
    }
    return words;
}

}  // namespace trainloop
