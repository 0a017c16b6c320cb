#include "sparse/mask_check.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/spec_error.hpp"
#include "density/sparsity_query.hpp"
#include "sparse/tensor_tile.hpp"

namespace trainloop {

std::vector<std::vector<std::int64_t>> accepted_mask_shapes(TensorName tensor,
                                                            const IterationSpace& space) {
    const DataSpace s = data_space_of(tensor);
    const TensorTile whole = tile_of(projection_for(s, space), space.bounds);
    const auto& e = whole.extent;
    std::vector<std::vector<std::int64_t>> shapes;
    if (s == DataSpace::weights) {
        shapes.push_back({e[0] * e[1], e[2], e[3], e[4]});
        if (e[3] == 1 && e[4] == 1) shapes.push_back({e[0] * e[1], e[2]});
    } else {
        shapes.push_back({e[0], e[1] * e[2], e[3], e[4]});
        if (e[3] == 1 && e[4] == 1) shapes.push_back({e[0], e[1] * e[2]});
    }
    return shapes;
}

void check_masks_against(const SparsityProfile& profile, std::string_view network,
                         const NetworkTraining& training) {
    for (std::size_t r = 0; r < profile.rules.size(); ++r) {
        const SparsityRule& rule = profile.rules[r];
        const auto* mask = std::get_if<MaskModel>(&rule.model);
        if (!mask || !mask->mask) continue;
        for (const LayerTraining& layer : training.layers) {
            for (const PhaseProblem& problem : layer.phases) {
                for (TensorName tensor : rule.tensors) {
                    if (!rule_matches(rule, network, layer.layer->layer.name, tensor,
                                      problem.phase)) {
                        continue;
                    }
                    const auto shapes = accepted_mask_shapes(tensor, layer.space);
                    bool ok = false;
                    for (const auto& shape : shapes) ok = ok || shape == mask->mask->shape;
                    if (ok) continue;
                    throw SpecError(
                        rule.location, fmt::format("rules[{}].model.file", r),
                        fmt::format("mask {} has shape [{}], but tensor `{}` of layer `{}` ({}) "
                                    "has shape [{}]",
                                    mask->mask->file, fmt::join(mask->mask->shape, ", "),
                                    tensor_name(tensor), layer.layer->layer.name, network,
                                    fmt::join(shapes.front(), ", ")),
                        fmt::format("a mask of shape [{}]", fmt::join(shapes.front(), ", ")),
                        "weights are [K, C, R, S] and activations [N, C, H, W] as PyTorch "
                        "stores them; H and W include the padding; check the rule's `layers:`");
                }
            }
        }
    }
}

}  // namespace trainloop
