#include "workload/clos_cascade.hpp"

#include <array>
#include <cassert>

namespace trainloop {

std::int64_t clos_parameter_count(std::int64_t in_features, const ClosParameters& clos) {
    // CloNets §II: P = Rm (I + O + Ri·Ro).
    return clos.middle_routers *
           (in_features + clos.out_features + clos.input_routers * clos.output_routers);
}

std::string clos_stage_name(const std::string& name, int stage) {
    static constexpr std::array<const char*, 5> kSuffixes = {".input_routers", ".shuffle_in",
                                                             ".middle_routers", ".shuffle_out", ""};
    assert(stage >= 0 && stage < 5);
    return name + kSuffixes[static_cast<std::size_t>(stage)];
}

std::vector<Layer> expand_clos_cascade(const std::string& name, const std::string& input,
                                       const ClosParameters& clos, const SourceLocation& location) {
    assert(clos.input_routers >= 1 && clos.middle_routers >= 1 && clos.output_routers >= 1);
    assert(clos.out_features % clos.output_routers == 0);
    const std::int64_t ri = clos.input_routers;
    const std::int64_t rm = clos.middle_routers;
    const std::int64_t ro = clos.output_routers;
    const std::array<LayerAttributes, 5> attributes = {
        LinearAttributes{ri * rm, ri},             // each input router feeds every middle one
        ShuffleAttributes{ri},                     // Ri × Rm → Rm × Ri
        LinearAttributes{rm * ro, rm},             // each middle router feeds every output one
        ShuffleAttributes{rm},                     // Rm × Ro → Ro × Rm
        LinearAttributes{clos.out_features, ro}};  // each output router: O/Ro outputs
    std::vector<Layer> stages;
    std::string previous = input;
    for (int stage = 0; stage < 5; ++stage) {
        Layer layer;
        layer.name = clos_stage_name(name, stage);
        layer.type = stage % 2 == 0 ? LayerType::fc : LayerType::shuffle;
        layer.inputs = {previous};
        layer.attributes = attributes[static_cast<std::size_t>(stage)];
        layer.location = location;
        layer.cascade = name;
        previous = layer.name;
        stages.push_back(std::move(layer));
    }
    return stages;
}

}  // namespace trainloop
