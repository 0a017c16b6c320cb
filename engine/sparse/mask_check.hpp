// Checks the `mask` density models of a sparsity profile against the layers
// of a network: every mask must have the shape of the tensor of each layer
// its rule applies to (density/density_model.hpp, MaskTensor, for the
// dimension orders). The CLI calls it once the network is known.
//
// Contract: throws SpecError at the rule's location, naming the mask file,
// the layer, and the expected and actual shapes.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "density/sparsity_profile.hpp"
#include "problem/training_problems.hpp"

namespace trainloop {

// The shapes a mask of `tensor` may have for a layer with this iteration
// space: [G·K, C, R, S], [N, G·C, H, W] or [N, G·K, P, Q]; plus the 2-D form
// of a fully connected layer (unit spatial extents).
std::vector<std::vector<std::int64_t>> accepted_mask_shapes(TensorName tensor,
                                                            const IterationSpace& space);

void check_masks_against(const SparsityProfile& profile, std::string_view network,
                         const NetworkTraining& training);

}  // namespace trainloop
