#include "eval/evaluation_json.hpp"

#include <fmt/format.h>

#include <cmath>

#include "mapping/mapping_json.hpp"
#include "nest/padding.hpp"
#include "sparse/condition_tile.hpp"

namespace trainloop {
namespace {

// A count: an integer when it is one (every dense count), else the expected
// value a sparse evaluation gives.
nlohmann::json count_json(double value) {
    if (value == std::floor(value) && std::fabs(value) < 9.0e15) return std::int64_t(value);
    return value;
}

nlohmann::json imbalance_json(const LoadImbalance& li) {
    nlohmann::json histogram = nlohmann::json::array();
    for (const OverheadBin& bin : li.histogram) {
        histogram.push_back({{"lower_pct", bin.lower_pct},
                             {"upper_pct", bin.upper_pct},
                             {"fraction_of_waves", bin.fraction_of_waves}});
    }
    return {{"waves", li.waves},
            {"balanced_cycles", li.balanced_cycles},
            {"cycles", li.cycles},
            {"balancing_cycles", li.balancing_cycles},
            {"balancing_words", li.balancing_words},
            {"balancing_word_hops", li.balancing_word_hops},
            {"workload_stddev", li.workload_stddev},
            {"workload_stddev_coarse", li.workload_stddev_coarse},
            {"workload_stddev_two_level", li.workload_stddev_two_level},
            {"histogram", histogram}};
}

// What a transfer needs, as the mapping spreads it: "unicast", or a multicast
// or reduction along the axes its shared loops span.
std::string needed_delivery(const Transfer& t) {
    if (t.kind == DeliveryKind::unicast) return "unicast";
    return fmt::format("{} {}", delivery_kind_name(t.kind), axes_text(t.axes));
}

}  // namespace

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
    for (const LogicUnit& unit : arch.units) area[unit.name] = unit_area_um2(unit, arch.components);
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
            const SpaceCounts& c = e.counts.levels[i].space(s);
            const std::int64_t n = level.utilized_instances;
            const double instances = double(n);
            tensors[tensor_of(s)] = {
                {"tile", acc.tile},
                {"stored_words", count_json(c.footprint_words)},
                {"instances", n},
                {"reads", count_json(c.reads * instances)},
                {"fills", count_json(c.fills * instances)},
                {"updates", count_json(c.updates * instances)},
                {"metadata_reads", count_json(c.metadata_reads * instances)},
                {"metadata_fills", count_json(c.metadata_fills * instances)},
                {"metadata_updates", count_json(c.metadata_updates * instances)},
                {"skipped_reads", count_json(c.skipped_reads * instances)},
                {"gated_reads", count_json(c.gated_reads * instances)},
                {"skipped_updates", count_json(c.skipped_updates * instances)},
                {"gated_updates", count_json(c.gated_updates * instances)}};
        }
        accesses[arch.levels[i].name] = tensors;
        level_cycles[arch.levels[i].name] = e.level_cycles[i];
    }
    nlohmann::json metadata_reads = nlohmann::json::object();
    for (std::size_t i = 0; i < arch.levels.size(); ++i) {
        double words = 0;
        for (const SpaceCounts& c : e.counts.levels[i].spaces) words += c.metadata_reads;
        metadata_reads[arch.levels[i].name] =
            count_json(words * double(e.nest.levels[i].utilized_instances));
    }
    nlohmann::json networks = nlohmann::json::object();
    for (std::size_t n = 0; n < arch.networks.size(); ++n) {
        const NetworkTraffic& t = e.routing.traffic[n];
        // Which tensors it carried from which level, what the mapping needed and
        // what the network did: a multicast sent PE by PE on a unicast network
        // (no network of the needed kind along its axes) shows here.
        nlohmann::json transfers = nlohmann::json::array();
        for (std::size_t i = 0; i < arch.levels.size(); ++i) {
            for (DataSpace s : kAllDataSpaces) {
                const Transfer& tr = e.routing.transfers[i][s];
                if (tr.network != int(n)) continue;
                transfers.push_back({{"tensor", tensor_of(s)},
                                     {"from", arch.levels[i].name},
                                     {"needs", needed_delivery(tr)},
                                     {"sent_as", delivery_kind_name(model.networks[n].kind)}});
            }
        }
        networks[arch.networks[n].name] = {
            {"topology", std::string(network_topology_name(arch.networks[n].topology))},
            {"delivered_words", count_json(t.delivered_words)},
            {"link_hops", count_json(t.link_hops)},
            {"router_crossings", count_json(t.router_crossings)},
            {"cycles", t.cycles},
            {"transfers", transfers}};
    }
    nlohmann::json out = {
        {"layer", problem.layer},
        {"phase", std::string(phase_name(problem.phase))},
        {"macs", e.nest.macs},
        {"effectual_macs", count_json(e.counts.effectual_macs)},
        {"performed_macs", count_json(e.counts.macs_performed)},
        {"imbalance_cycles", count_json(e.imbalance.imbalance_cycles)},
        {"imbalance_pct", e.imbalance.imbalance_pct},
        {"workload_stddev", e.imbalance.workload_stddev},
        {"metadata_reads", metadata_reads},
        {"cycles", e.cycles},
        {"compute_cycles", e.compute_cycles},
        {"bottleneck", e.bottleneck < 0 ? std::string("compute")
                                        : component_name(arch, std::size_t(e.bottleneck))},
        {"utilization", e.utilization},
        {"energy_pj", e.energy_pj},
        {"area_um2", e.area_um2},
        {"area_breakdown", area},
        {"energy_breakdown", by_component},
        {"energy_by_tensor", by_tensor},
        {"energy_by_action", by_action},
        {"level_cycles", level_cycles},
        {"networks", networks},
        {"accesses", accesses},
        {"mapping", mapping_to_json(mapping, arch, problem.space.shape)}};
    if (e.imbalance.applies) out["imbalance"] = imbalance_json(e.imbalance);
    // Storage-level skipping and gating: the condition tile a read meets, and
    // the share of the reads (the output: updates) left.
    nlohmann::json storage_actions = nlohmann::json::array();
    for (const StorageActionTile& a : storage_action_tiles(model, problem, mapping, e.nest)) {
        const SpaceCounts& c = e.counts.levels[a.level].space(a.target);
        const bool output = a.target == problem.output();
        storage_actions.push_back(
            {{"level", arch.levels[a.level].name},
             {"tensor", tensor_of(a.target)},
             {"action", a.skipping ? "skipping" : "gating"},
             {"condition", tensor_of(a.condition)},
             {"condition_tile_elements", a.tile_elements},
             {"kept", a.skipping ? c.kept_by_skipping(output) : c.kept_by_gating(output)}});
    }
    if (e.sparse && !storage_actions.empty()) out["storage_actions"] = storage_actions;
    // Imperfect factors (nest/padding.hpp): each padded dimension's extent.
    nlohmann::json padded = nlohmann::json::object();
    for (const auto& [d, extent] : padded_extents(problem.space, mapping)) {
        padded[std::string(problem.space.shape.dim_name(d))] = extent;
    }
    if (!padded.empty()) out["padded_extents"] = padded;
    return out;
}

}  // namespace trainloop
