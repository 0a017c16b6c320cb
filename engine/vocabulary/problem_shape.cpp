#include "vocabulary/problem_shape.hpp"

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

std::optional<Dim> ProblemShape::dim_named(std::string_view name) const {
    for (Dim d : kAllDims) {
        if (uses(d) && dim_name(d) == name) return d;
    }
    return std::nullopt;
}

ProblemShape conv_shape(Extent2 stride, Extent2 dilation) {
    ProblemShape shape;
    for (Dim d : kAllDims) shape.dim_names[d] = std::string(trainloop::dim_name(d));
    shape.listing = {Dim::G, Dim::N, Dim::K, Dim::C, Dim::P, Dim::Q, Dim::R, Dim::S};
    shape.num_dims = kNumDims;
    shape.tensor_names = {"W", "I", "O"};
    shape.projections[DataSpace::weights] = make_projection(
        {single(Dim::G), single(Dim::K), single(Dim::C), single(Dim::R), single(Dim::S)});
    shape.projections[DataSpace::inputs] =
        make_projection({single(Dim::N), single(Dim::G), single(Dim::C),
                         window(Dim::P, stride.h, Dim::R, dilation.h),
                         window(Dim::Q, stride.w, Dim::S, dilation.w)});
    shape.projections[DataSpace::outputs] = make_projection(
        {single(Dim::N), single(Dim::G), single(Dim::K), single(Dim::P), single(Dim::Q)});
    return shape;
}

const ProblemShape& conv_family_shape() {
    static const ProblemShape shape = conv_shape();
    return shape;
}

std::optional<ConvWindow> conv_window(const ProblemShape& shape) {
    const Projection& in = shape.projections[DataSpace::inputs];
    if (in.num_axes != 5 || in.axes[3].num_terms != 2 || in.axes[4].num_terms != 2) {
        return std::nullopt;
    }
    const ConvWindow window{{in.axes[3].terms[0].coef, in.axes[4].terms[0].coef},
                            {in.axes[3].terms[1].coef, in.axes[4].terms[1].coef}};
    // Names do not matter: an einsum that indexes as a convolution is one.
    if (!(shape.projections == conv_shape(window.stride, window.dilation).projections)) {
        return std::nullopt;
    }
    return window;
}

}  // namespace trainloop
