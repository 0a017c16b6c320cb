#include "vocabulary/projection.hpp"

#include <algorithm>
#include <numeric>

#include "common/checked_math.hpp"

namespace trainloop {

Projection make_projection(const TensorAxis* axes, std::size_t count) {
    Projection p;
    p.axis_of.values.fill(-1);
    for (std::size_t a = 0; a < count; ++a) {
        const TensorAxis& axis = axes[a];
        for (std::uint8_t t = 0; t < axis.num_terms; ++t) {
            p.relevant.insert(axis.terms[t].dim);
            p.axis_of[axis.terms[t].dim] = std::int8_t(p.num_axes);
            p.coef_of[axis.terms[t].dim] = axis.terms[t].coef;
        }
        p.axes[p.num_axes++] = axis;
    }
    return p;
}

Projection make_projection(std::initializer_list<TensorAxis> axes) {
    return make_projection(axes.begin(), axes.size());
}

std::optional<std::int64_t> checked_axis_span(const TensorAxis& axis, const DimBounds& extent) {
    std::int64_t span = 1;
    for (std::uint8_t t = 0; t < axis.num_terms; ++t) {
        const auto term = checked_mul(extent[axis.terms[t].dim] - 1, axis.terms[t].coef);
        const auto sum = term ? checked_add(span, *term) : std::nullopt;
        if (!sum || *sum > kMaxCount) return std::nullopt;
        span = *sum;
    }
    return span;
}

std::optional<std::int64_t> checked_footprint(const Projection& projection,
                                              const DimBounds& extent) {
    std::int64_t words = 1;
    for (std::uint8_t a = 0; a < projection.num_axes; ++a) {
        const auto span = checked_axis_span(projection.axes[a], extent);
        const auto product = span ? checked_mul(words, *span) : std::nullopt;
        if (!product || *product > kMaxCount) return std::nullopt;
        words = *product;
    }
    return words;
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
