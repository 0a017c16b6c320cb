#include "eval/evaluation_json.hpp"

#include "mapping/mapping_json.hpp"

namespace trainloop {

std::string component_name(const Architecture& arch, std::size_t component) {
    if (component < arch.levels.size()) return arch.levels[component].name;
    if (component == arch.levels.size()) return "MAC";
    return arch.networks[component - arch.levels.size() - 1].name;
}

nlohmann::json evaluation_to_json(const Evaluation& e, const Architecture& arch,
                                  const ArchModel& model, const PhaseProblem& problem,
                                  const Mapping& mapping,
                                  const std::optional<std::array<std::string, 3>>& space_names) {
    auto tensor_of = [&](DataSpace s) {
        return space_names ? (*space_names)[std::size_t(s)]
                           : std::string(tensor_name(tensor_in_phase(problem.phase, s)));
    };
    nlohmann::json by_component = nlohmann::json::object();
    for (std::size_t c = 0; c < e.energy.num_components(); ++c) {
        by_component[component_name(arch, c)] = e.energy.component_pj(c);
    }
    nlohmann::json area = nlohmann::json::object();
    for (std::size_t c = 0; c < e.energy.num_components(); ++c) {
        area[component_name(arch, c)] = model.component_area_um2(c);
    }
    nlohmann::json by_tensor = nlohmann::json::object();
    for (DataSpace s : kAllDataSpaces) by_tensor[tensor_of(s)] = e.energy.space_pj(std::size_t(s));
    by_tensor["compute"] = e.energy.cell(e.energy.mac_component(), kNoSpace, EnergyAction::mac);
    by_tensor["leakage"] = e.energy.action_pj(EnergyAction::leak);
    nlohmann::json by_action = nlohmann::json::object();
    for (std::size_t a = 0; a < kNumEnergyActions; ++a) {
        by_action[std::string(energy_action_name(EnergyAction(a)))] =
            e.energy.action_pj(EnergyAction(a));
    }
    nlohmann::json accesses = nlohmann::json::object();
    nlohmann::json level_cycles = nlohmann::json::object();
    for (std::size_t i = 0; i < arch.levels.size(); ++i) {
        const LevelAccesses& level = e.nest.levels[i];
        nlohmann::json tensors = nlohmann::json::object();
        for (DataSpace s : kAllDataSpaces) {
            const SpaceAccesses& acc = level.space(s);
            if (!acc.kept) continue;
            const std::int64_t n = level.utilized_instances;
            tensors[tensor_of(s)] = {{"tile", acc.tile},
                                     {"instances", n},
                                     {"reads", acc.reads * n},
                                     {"fills", acc.fills * n},
                                     {"updates", acc.updates * n}};
        }
        accesses[arch.levels[i].name] = tensors;
        level_cycles[arch.levels[i].name] = e.level_cycles[i];
    }
    return {{"layer", problem.layer},
            {"phase", std::string(phase_name(problem.phase))},
            {"macs", e.nest.macs},
            {"cycles", e.cycles},
            {"compute_cycles", e.compute_cycles},
            {"bottleneck", e.bottleneck < 0 ? std::string("compute")
                                            : arch.levels[std::size_t(e.bottleneck)].name},
            {"utilization", e.utilization},
            {"energy_pj", e.energy_pj},
            {"area_um2", e.area_um2},
            {"area_breakdown", area},
            {"energy_breakdown", by_component},
            {"energy_by_tensor", by_tensor},
            {"energy_by_action", by_action},
            {"level_cycles", level_cycles},
            {"accesses", accesses},
            {"mapping", mapping_to_json(mapping, arch)}};
}

}  // namespace trainloop
