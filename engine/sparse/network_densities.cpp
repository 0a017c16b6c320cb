#include "sparse/network_densities.hpp"

#include "density/sparsity_query.hpp"

namespace trainloop {

NetworkDensities network_densities(const SparsityProfile& profile, const std::string& network,
                                   const NetworkTraining& training, std::int64_t iteration) {
    NetworkDensities out;
    for (const LayerTraining& layer : training.layers) {
        LayerDensities d;
        d.layer = layer.layer->layer.name;
        d.w = density(profile, network, d.layer, TensorName::w, Phase::fw, iteration);
        d.x = density(profile, network, d.layer, TensorName::x, Phase::fw, iteration);
        d.dy = density(profile, network, d.layer, TensorName::dy, Phase::wu, iteration);
        d.weights = layer.space.weights();
        d.fw_macs = layer.find(Phase::fw)->macs();
        out.weights += d.weights;
        out.kept_weights += d.w * double(d.weights);
        out.fw_macs += d.fw_macs;
        out.weight_sparse_fw_macs += d.w * double(d.fw_macs);
        out.layers.push_back(std::move(d));
    }
    return out;
}

}  // namespace trainloop
