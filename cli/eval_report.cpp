#include "eval_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/count_format.hpp"
#include "eval/evaluation_json.hpp"
#include "mapping/mapping_text.hpp"
#include "nest/padding.hpp"
#include "sparse/condition_tile.hpp"

namespace trainloop::cli {
namespace {

std::string percent(double part, double whole) {
    return whole > 0 ? fmt::format("{:5.1f} %", 100.0 * part / whole) : "    —  ";
}

std::string energy(double pj) {
    if (pj >= 1e9) return fmt::format("{:.3f} mJ", pj / 1e9);
    if (pj >= 1e6) return fmt::format("{:.3f} µJ", pj / 1e6);
    if (pj >= 1e3) return fmt::format("{:.3f} nJ", pj / 1e3);
    return fmt::format("{:.3f} pJ", pj);
}

// One line per storage-level skipping or gating entry: the share of the reads
// it leaves, and the condition tile a read meets (skipped only when all of it
// is zero, so a large tile rarely is).
std::string storage_action_lines(const Evaluation& e, const Architecture& arch,
                                 const ArchModel& model, const PhaseProblem& problem,
                                 const Mapping& mapping) {
    std::string out;
    const auto name = [&](DataSpace s) { return tensor_name(tensor_in_phase(problem.phase, s)); };
    for (const StorageActionTile& a : storage_action_tiles(model, problem, mapping, e.nest)) {
        const SpaceCounts& c = e.counts.levels[a.level].space(a.target);
        const bool output = a.target == problem.output();
        const double kept = a.skipping ? c.kept_by_skipping(output) : c.kept_by_gating(output);
        const std::string when =
            a.tile_elements == 1
                ? fmt::format("when it is zero")
                : fmt::format("only when all {} are zero", group_thousands(a.tile_elements));
        out += fmt::format("  {} at {}: {} {} kept {}; each meets {} {} and is {} {}\n",
                           a.skipping ? "skipping" : "gating", arch.levels[a.level].name,
                           name(a.target), output ? "updates" : "reads", percent(kept, 1.0),
                           group_thousands(a.tile_elements), name(a.condition),
                           a.skipping ? "skipped" : "gated", when);
    }
    return out;
}

std::string sparse_section(const Evaluation& e, const Architecture& arch, const ArchModel& model,
                           const PhaseProblem& problem, const Mapping& mapping) {
    std::string out = "sparsity     densities";
    for (DataSpace s : kAllDataSpaces) {
        out += fmt::format(" {} {:.3g}", tensor_name(tensor_in_phase(problem.phase, s)),
                           e.densities[s]);
    }
    const double macs = double(e.nest.macs);
    out += fmt::format("\n  effectual MACs {} ({}), performed {} ({})\n",
                       group_thousands(std::int64_t(std::llround(e.counts.effectual_macs))),
                       percent(e.counts.effectual_macs, macs),
                       group_thousands(std::int64_t(std::llround(e.counts.macs_performed))),
                       percent(e.counts.macs_performed, macs));
    out += storage_action_lines(e, arch, model, problem, mapping);
    const LoadImbalance& li = e.imbalance;
    if (!li.applies) {
        out += "  load imbalance: none (the MACs do not skip zeros)\n";
        return out;
    }
    out += fmt::format(
        "  load imbalance: {} waves; balanced {} cycles, slowest PE {} cycles: +{} cycles "
        "({:.1f} %)",
        group_thousands(li.waves), group_thousands(std::int64_t(std::llround(li.balanced_cycles))),
        group_thousands(std::int64_t(std::llround(li.cycles))),
        group_thousands(std::int64_t(std::llround(li.imbalance_cycles))), li.imbalance_pct);
    if (li.balancing_cycles > 0 || li.balancing_words > 0) {
        out += fmt::format("; balancing itself {} cycles, {} words moved",
                           group_thousands(std::int64_t(std::llround(li.balancing_cycles))),
                           group_thousands(std::int64_t(std::llround(li.balancing_words))));
    }
    out += "\n";
    if (!li.histogram.empty()) {
        out += "  per-wave overhead (slowest PE vs mean)   share of waves\n";
        for (const OverheadBin& bin : li.histogram) {
            const int bar = int(std::lround(bin.fraction_of_waves * 40));
            out += fmt::format("    {:>6.1f} – {:<6.1f} %   {:>6.1f} %  {}\n", bin.lower_pct,
                               bin.upper_pct, 100.0 * bin.fraction_of_waves,
                               std::string(std::size_t(std::max(bar, 0)), '#'));
        }
    }
    return out;
}

std::int64_t rounded(double count) { return std::int64_t(std::llround(count)); }

}  // namespace

std::string evaluation_to_text(const Evaluation& e, const Architecture& arch,
                               const ArchModel& model, const PhaseProblem& problem,
                               const Mapping& mapping) {
    const char* equations[] = {"y += w·x", "dx += w·dy", "dw += x·dy"};
    std::string out = fmt::format(
        "layer {}, phase {} ({})\n  {}   {} MACs\n  arch {}: {}×{} PEs at {} GHz\n  mapping "
        "{}\n\n",
        problem.layer, phase_name(problem.phase), equations[std::size_t(problem.phase)],
        to_string(problem.space), group_thousands(e.nest.macs), arch.name, arch.pe_array.rows,
        arch.pe_array.columns, arch.clock_ghz, mapping_to_text(mapping, arch, problem.space.shape));

    const double seconds = double(e.cycles) / (arch.clock_ghz * 1e9);
    out += fmt::format("latency      {} cycles ({:.3f} ms); bottleneck: {}\n",
                       group_thousands(e.cycles), seconds * 1e3,
                       e.bottleneck < 0 ? std::string("compute")
                                        : component_name(arch, std::size_t(e.bottleneck)) +
                                              (std::size_t(e.bottleneck) < arch.levels.size()
                                                   ? " bandwidth"
                                                   : " link bandwidth"));
    out += fmt::format("  {:<12} {} cycles\n", "compute", group_thousands(e.compute_cycles));
    for (std::size_t i = 0; i < arch.levels.size(); ++i) {
        out += fmt::format("  {:<12} {}\n", arch.levels[i].name,
                           e.level_cycles[i] > 0 ? group_thousands(e.level_cycles[i]) + " cycles"
                                                 : std::string("no bandwidth limit"));
    }
    for (std::size_t n = 0; n < arch.networks.size(); ++n) {
        if (!arch.networks[n].bandwidth) continue;  // only links that can bound latency
        out += fmt::format("  {:<12} {} cycles (link bandwidth)\n", arch.networks[n].name,
                           group_thousands(e.routing.traffic[n].cycles));
    }
    out += fmt::format("utilization  {:.1f} % ({} of {} MAC units busy)\n", 100.0 * e.utilization,
                       e.nest.utilized_macs, arch.pe_array.num_macs());
    for (const auto& [d, extent] : padded_extents(problem.space, mapping)) {
        out += fmt::format(
            "  padding    {} = {} runs as {} (imperfect factors): {} padded value{} no work{}\n",
            problem.space.shape.dim_name(d), group_thousands(problem.space.bounds[d]),
            group_thousands(extent), group_thousands(extent - problem.space.bounds[d]),
            extent - problem.space.bounds[d] == 1 ? " does" : "s do",
            window_dims(problem.space.shape).contains(d)
                ? "; the inputs its window reaches past the edge count as "
                  "moved (an upper bound)"
                : "");
    }
    if (e.sparse) out += sparse_section(e, arch, model, problem, mapping);
    out += fmt::format("energy       {} ({:.2f} pJ/MAC)\n", energy(e.energy_pj),
                       e.energy_pj / double(e.nest.macs));

    const EnergyBreakdown& b = e.energy;
    out += fmt::format("  {:<16} {:>14} {:>8}\n", "by component", "energy", "share");
    for (std::size_t c = 0; c < b.num_components(); ++c) {
        out += fmt::format("  {:<16} {:>14} {:>8}\n", component_name(arch, c),
                           energy(b.component_pj(c)), percent(b.component_pj(c), e.energy_pj));
    }
    out += fmt::format("  {:<16} {:>14} {:>8}\n", "by tensor", "", "");
    for (DataSpace s : kAllDataSpaces) {
        const double pj = b.space_pj(std::size_t(s));
        out +=
            fmt::format("  {:<16} {:>14} {:>8}\n", tensor_name(tensor_in_phase(problem.phase, s)),
                        energy(pj), percent(pj, e.energy_pj));
    }
    const double compute = b.cell(b.mac_component(), kNoSpace, EnergyAction::mac);
    const double leakage = b.action_pj(EnergyAction::leak);
    out += fmt::format("  {:<16} {:>14} {:>8}\n", "compute", energy(compute),
                       percent(compute, e.energy_pj));
    out += fmt::format("  {:<16} {:>14} {:>8}\n", "leakage", energy(leakage),
                       percent(leakage, e.energy_pj));
    out += fmt::format("  {:<16} {:>14} {:>8}\n", "by action", "", "");
    for (std::size_t a = 0; a < kNumEnergyActions; ++a) {
        const double pj = b.action_pj(EnergyAction(a));
        out += fmt::format("  {:<16} {:>14} {:>8}\n", energy_action_name(EnergyAction(a)),
                           energy(pj), percent(pj, e.energy_pj));
    }
    out += fmt::format("area         {:.3f} mm²:", e.area_um2 / 1e6);
    for (std::size_t c = 0; c <= arch.levels.size(); ++c) {
        out +=
            fmt::format("  {} {:.3f}", component_name(arch, c), model.component_area_um2(c) / 1e6);
    }
    for (const LogicUnit& unit : arch.units) {
        out += fmt::format("  {} {:.3f}", unit.name, unit_area_um2(unit, arch.components) / 1e6);
    }
    out += "\n\n";

    std::size_t width = 10;
    for (const StorageLevel& level : arch.levels) width = std::max(width, level.name.size());
    out += fmt::format("{:<{}} {:<7} {:>12} {:>9} {:>16} {:>16} {:>16}{}\n", "level", width,
                       "tensor", "tile/inst", "instances", "reads", "fills", "updates",
                       e.sparse ? fmt::format(" {:>16}", "metadata reads") : "");
    out += e.sparse ? "  (totals over all instances; expected values after the sparse adjustment)\n"
                    : "  (reads, fills and updates are totals over all instances)\n";
    for (std::size_t i = 0; i < arch.levels.size(); ++i) {
        const LevelAccesses& level = e.nest.levels[i];
        for (DataSpace s : kAllDataSpaces) {
            const SpaceAccesses& acc = level.space(s);
            if (!acc.kept) continue;
            const SpaceCounts& c = e.counts.levels[i].space(s);
            const std::int64_t n = level.utilized_instances;
            const double instances = double(n);
            out += fmt::format(
                "{:<{}} {:<7} {:>12} {:>9} {:>16} {:>16} {:>16}{}\n", arch.levels[i].name, width,
                tensor_name(tensor_in_phase(problem.phase, s)), group_thousands(acc.tile), n,
                group_thousands(rounded(c.reads * instances)),
                group_thousands(rounded(c.fills * instances)),
                group_thousands(rounded(c.updates * instances)),
                e.sparse
                    ? fmt::format(" {:>16}", group_thousands(rounded(c.metadata_reads * instances)))
                    : "");
        }
    }
    return out;
}

}  // namespace trainloop::cli
