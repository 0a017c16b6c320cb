#include "workload_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>
#include <string>
#include <vector>

#include "common/count_format.hpp"
#include "vocabulary/einsum.hpp"

namespace trainloop::cli {
nlohmann::json training_to_json(const Network& network, const NetworkTraining& training,
                                std::int64_t batch) {
    nlohmann::json layers = nlohmann::json::array();
    for (const LayerTraining& layer : training.layers) {
        // Each dimension the layer names (the conv family: N K C P Q R S G).
        const ProblemShape& shape = layer.space.shape;
        nlohmann::json dims = nlohmann::json::object();
        for (Dim d : kAllDims) {
            if (shape.uses(d)) dims[std::string(shape.dim_name(d))] = layer.space.bounds[d];
        }
        nlohmann::json phases = nlohmann::json::object();
        for (const PhaseProblem& problem : layer.phases) {
            phases[std::string(phase_name(problem.phase))] = {
                {"macs", problem.macs()},
                {"output", std::string(tensor_name(problem.output_tensor()))}};
        }
        const AnalyzedLayer& analyzed = *layer.layer;
        nlohmann::json entry = {{"name", analyzed.layer.name},
                                {"type", std::string(layer_type_name(analyzed.layer.type))},
                                {"dims", dims}};
        if (const std::optional<ConvWindow> window = conv_window(shape)) {
            entry["stride"] = {{"h", window->stride.h}, {"w", window->stride.w}};
            entry["dilation"] = {{"h", window->dilation.h}, {"w", window->dilation.w}};
        } else {
            entry["einsum"] = einsum_text(shape);
        }
        entry["weights"] = layer.space.weights();
        entry["phases"] = phases;
        layers.push_back(entry);
    }
    nlohmann::json totals = nlohmann::json::object();
    std::int64_t step = 0;
    for (Phase phase : kAllPhases) {
        totals[std::string(phase_name(phase))] = training.phase_macs(phase);
        step += training.phase_macs(phase);
    }
    totals["step"] = step;
    return {{"network", network.name()},
            {"batch", batch},
            {"total_macs", training.forward_macs()},
            {"total_weights", training.total_weights()},
            {"phase_macs", totals},
            {"layers", layers}};
}

std::string training_to_text(const Network& network, const NetworkTraining& training,
                             std::int64_t batch) {
    std::string out = fmt::format("{} — {}\nbatch {}, {} MAC layers of {} layers\n\n",
                                  network.name(), network.spec().description, batch,
                                  training.layers.size(), network.layers().size());
    const std::string header = fmt::format(
        "{:<28} {:<9} {:>3} {:>4} {:>5} {:>5} {:>4} {:>4} {:>2} {:>2} {:>3} {:>12} {:>14} {:>14} "
        "{:>14}\n",
        "layer", "type", "G", "N", "K", "C", "P", "Q", "R", "S", "σ", "weights", "fw MACs",
        "bw MACs", "wu MACs");
    out += header;
    out += std::string(header.size() - 1, '-') + "\n";
    auto phase_cell = [](const LayerTraining& layer, Phase phase) {
        const PhaseProblem* problem = layer.find(phase);
        return problem ? group_thousands(problem->macs()) : std::string("—");
    };
    // An einsum layer's dimensions sit in the columns of the slots their roles
    // give them (vocabulary/einsum.hpp); the lines under the table say which.
    std::string einsums;
    for (const LayerTraining& layer : training.layers) {
        const DimBounds& b = layer.space.bounds;
        const ProblemShape& shape = layer.space.shape;
        const std::optional<ConvWindow> window = conv_window(shape);
        out += fmt::format(
            "{:<28} {:<9} {:>3} {:>4} {:>5} {:>5} {:>4} {:>4} {:>2} {:>2} {:>3} {:>12} {:>14} "
            "{:>14} {:>14}\n",
            layer.layer->layer.name, layer_type_name(layer.layer->layer.type), b[Dim::G], b[Dim::N],
            b[Dim::K], b[Dim::C], b[Dim::P], b[Dim::Q], b[Dim::R], b[Dim::S],
            window ? std::to_string(window->stride.h) : std::string("-"),
            group_thousands(layer.space.weights()), phase_cell(layer, Phase::fw),
            phase_cell(layer, Phase::bw), phase_cell(layer, Phase::wu));
        if (!window) {
            std::vector<std::string> slots;
            for (std::uint8_t i = 0; i < shape.num_dims; ++i) {
                const Dim d = shape.listing[i];
                slots.push_back(fmt::format("{} in {}", shape.dim_name(d), dim_name(d)));
            }
            einsums += fmt::format("  {}: {} ({})\n", layer.layer->layer.name, einsum_text(shape),
                                   fmt::join(slots, ", "));
        }
    }
    if (!einsums.empty()) out += "\neinsum layers, each dimension in its column:\n" + einsums;
    const std::int64_t fw = training.phase_macs(Phase::fw);
    const std::int64_t bw = training.phase_macs(Phase::bw);
    const std::int64_t wu = training.phase_macs(Phase::wu);
    out += fmt::format(
        "\nweights {} ({})\nMACs per training step (batch {}): fw {} ({}), bw {} ({}), wu {} "
        "({}), total {} ({})\nforward MACs per sample: {}\n",
        group_thousands(training.total_weights()), si_count(double(training.total_weights())),
        batch, group_thousands(fw), si_count(double(fw)), group_thousands(bw), si_count(double(bw)),
        group_thousands(wu), si_count(double(wu)), group_thousands(fw + bw + wu),
        si_count(double(fw + bw + wu)), si_count(double(fw) / double(batch)));
    out +=
        "Phases: fw y += w·x, bw dx += w·dy, wu dw += x·dy; bw is absent where no layer "
        "upstream trains (no input gradient needed).\n";
    return out;
}

nlohmann::json densities_to_json(const std::string& profile, const NetworkDensities& d) {
    nlohmann::json layers = nlohmann::json::array();
    for (const LayerDensities& l : d.layers) {
        layers.push_back({{"name", l.layer}, {"w", l.w}, {"x", l.x}, {"dy", l.dy}});
    }
    return {{"profile", profile},
            {"weights", d.weights},
            {"kept_weights", d.kept_weights},
            {"weight_reduction", d.weight_reduction()},
            {"fw_macs", d.fw_macs},
            {"weight_sparse_fw_macs", d.weight_sparse_fw_macs},
            {"fw_mac_reduction", d.mac_reduction()},
            {"layers", layers}};
}

std::string densities_to_text(const std::string& profile, const NetworkDensities& d) {
    std::string out =
        fmt::format("sparsity profile {}: densities (fraction of nonzeros)\n", profile);
    out += fmt::format("{:<28} {:>8} {:>8} {:>8}\n", "layer", "w", "x", "dy");
    for (const LayerDensities& l : d.layers) {
        out += fmt::format("{:<28} {:>8.4f} {:>8.4f} {:>8.4f}\n", l.layer, l.w, l.x, l.dy);
    }
    out += fmt::format(
        "weights kept {} of {} ({:.2f}x fewer); fw MACs with the zero weights skipped {} of {} "
        "({:.2f}x fewer)\n",
        si_count(d.kept_weights), si_count(double(d.weights)), d.weight_reduction(),
        si_count(d.weight_sparse_fw_macs), si_count(double(d.fw_macs)), d.mac_reduction());
    return out;
}

}  // namespace trainloop::cli
