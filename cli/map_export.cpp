#include "map_export.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <filesystem>
#include <iostream>
#include <set>

#include "common/spec_error.hpp"
#include "timeloop/timeloop_export.hpp"

namespace trainloop::cli {
namespace {

// The files export_timeloop writes into each layer-phase's directory.
const std::vector<std::string> kTimeloopFiles = {"map.yaml", "problem.yaml", "arch.yaml",
                                                 "ERT.yaml", "ART.yaml"};

// Layer names become directory names: keep them readable, drop separators.
std::string file_stem(const std::string& name) {
    std::string out = name;
    for (char& c : out) {
        const bool plain =
            std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
        if (!plain) c = '_';
    }
    return out;
}

std::filesystem::path export_dir(const MapOptions& o, const std::string& layer, Phase phase) {
    return std::filesystem::path(o.export_to[1]) /
           fmt::format("{}_{}", file_stem(layer), phase_name(phase));
}

}  // namespace

void check_export_target(const MapOptions& o, const NetworkTraining& training,
                         const NetworkMapPlan& plan) {
    if (o.export_to.empty()) return;
    if (o.export_to[0] != "timeloop") {
        throw SpecError({}, "--export", fmt::format("cannot export to `{}`", o.export_to[0]),
                        "`--export timeloop DIR`");
    }
    if (o.force) return;
    for (const PlannedLayerPhase& lp : plan.layer_phases) {
        const auto dir = export_dir(o, training.layers[lp.layer].layer->layer.name, lp.phase);
        for (const std::string& file : kTimeloopFiles) {
            std::error_code error;
            if (std::filesystem::exists(dir / file, error)) {
                throw SpecError(
                    {}, "--export", fmt::format("{} already exists", (dir / file).string()),
                    "an export directory without earlier exports", "--force overwrites them");
            }
        }
    }
}

void export_all(const MapRun& run, std::ostream& out) {
    const MapOptions& o = run.options;
    std::set<std::string> notes;
    std::size_t written = 0;
    std::size_t total = 0;
    for (const LayerResult& layer : run.result.layers) {
        const LayerTraining& training = run.training.layers[layer.layer];
        for (const LayerPhaseResult& lp : layer.phases) {
            ++total;
            try {
                for (std::string& note :
                     export_timeloop(export_dir(o, layer.name, lp.phase), run.arch,
                                     *training.find(lp.phase), lp.best->mapping, o.force)) {
                    notes.insert(std::move(note));
                }
                ++written;
            } catch (const SpecError& e) {
                std::cerr << fmt::format("warning: {} {} not exported: {}\n", layer.name,
                                         phase_name(lp.phase), e.message());
            }
        }
    }
    for (const std::string& note : notes) std::cerr << "note: " << note << "\n";
    out << fmt::format("exported {} of {} layer-phases to {}/<layer>_<phase>/ ({})\n", written,
                       total, o.export_to[1], fmt::join(kTimeloopFiles, ", "));
}

}  // namespace trainloop::cli
