// What a sparsity profile does to a whole network: per MAC layer, the
// densities of the tensors each phase reads (w and x in fw, w and dy in bw,
// x and dy in wu), and the network's weights and forward MACs before and
// after the weights' zeros are taken out — the two reductions a sparse
// training paper reports (Procrustes Table II: "sparse size", "sparse MACs").
// `trainloop workload show --sparsity` prints it.
//
// Contract: pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "density/density_schedule.hpp"
#include "density/sparsity_profile.hpp"
#include "problem/training_problems.hpp"

namespace trainloop {

struct LayerDensities {
    std::string layer;
    double w = 1;   // weights (fw and bw)
    double x = 1;   // input activations (fw and wu)
    double dy = 1;  // output gradient (bw and wu)
    std::int64_t weights = 0;
    std::int64_t fw_macs = 0;
};

struct NetworkDensities {
    std::vector<LayerDensities> layers;  // the MAC layers, in order
    std::int64_t weights = 0;
    double kept_weights = 0;  // Σ w density × weights
    std::int64_t fw_macs = 0;
    double weight_sparse_fw_macs = 0;  // Σ w density × fw MACs: zero weights' MACs skipped

    double weight_reduction() const {
        return kept_weights > 0 ? double(weights) / kept_weights : 0;
    }
    double mac_reduction() const {
        return weight_sparse_fw_macs > 0 ? double(fw_macs) / weight_sparse_fw_macs : 0;
    }
};

NetworkDensities network_densities(const SparsityProfile& profile, const std::string& network,
                                   const NetworkTraining& training,
                                   std::int64_t iteration = kFinalIteration);

}  // namespace trainloop
