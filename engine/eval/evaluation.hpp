// evaluate(): the pure function from (architecture, phase problem, mapping)
// (and, for sparse evaluation, the phase's densities) to metrics — accesses (nest_analysis),
// latency with its bottleneck, utilization, Accelergy-style energy (action counts × energy per
// action, plus leakage × time) broken down by component, data space and action, and area.
// Allocation-free; safe to call from many threads on one ArchModel.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "arch/arch_model.hpp"
#include "eval/mapping_check.hpp"
#include "eval/network_routing.hpp"
#include "imbalance/load_imbalance.hpp"
#include "nest/action_counts.hpp"
#include "nest/nest_analysis.hpp"
#include "sparse/phase_densities.hpp"
#include "sparse/sparse_adjustment.hpp"
#include "vocabulary/per_space.hpp"

namespace trainloop {

enum class EnergyAction : std::uint8_t { read, write, update, mac, hop, leak };
inline constexpr std::size_t kNumEnergyActions = 6;
std::string_view energy_action_name(EnergyAction action);

// Components: the storage levels (by index), then the MAC array, then the
// networks (by index). "No data space" is used for MACs and leakage.
inline constexpr std::size_t kMaxComponents = kMaxLevels + 1 + kMaxNetworks;
inline constexpr std::size_t kNoSpace = 3;

struct EnergyBreakdown {
    // pJ by where it is spent. Kept compact (only the cells that can be
    // non-zero) because every evaluation builds one.
    std::array<std::array<std::array<double, 3>, 3>, kMaxLevels>
        level{};  // [level][space][read, write, update]
    std::array<double, kMaxLevels> level_leak{};
    std::array<std::array<double, 3>, kMaxNetworks> network{};  // [network][space] hops
    double mac = 0;
    double mac_leak = 0;
    // The sparse overheads inside the cells above (already counted there):
    // format metadata read and written at each level, and the balancing
    // scheme's words moved between PEs (network hops). Reports show them as
    // their own class (eval/energy_classes.hpp).
    std::array<double, kMaxLevels> level_metadata{};
    double balancing = 0;
    std::size_t num_levels = 0;
    std::size_t num_networks = 0;

    std::size_t mac_component() const { return num_levels; }
    std::size_t network_component(std::size_t n) const { return num_levels + 1 + n; }
    std::size_t num_components() const { return num_levels + 1 + num_networks; }

    // The energy of one (component, data space or kNoSpace, action) cell.
    double cell(std::size_t component, std::size_t space, EnergyAction action) const;
    double component_pj(std::size_t component) const;
    double space_pj(std::size_t space) const;  // 0..2 data spaces, kNoSpace
    double action_pj(EnergyAction action) const;
    // Σ of component_pj over all components, in index order: the breakdown by
    // component sums to it exactly.
    double total_pj() const;
};

struct Evaluation {
    NestAnalysis nest;
    ActionCounts counts;  // the nest's counts, after the sparse adjustment when sparse
    bool sparse = false;  // evaluated with the phase's densities
    PerDataSpace<double> densities{1.0, 1.0, 1.0};  // as evaluated
    std::optional<MappingViolation> violation;      // when set, the metrics below are not computed
    std::int64_t cycles = 0;
    std::int64_t compute_cycles = 0;
    std::array<std::int64_t, kMaxLevels> level_cycles{};  // bandwidth-bound cycles per level
    // -1: compute; else the component (EnergyBreakdown's index: a level, or
    // a network whose link bandwidth bounds the cycles).
    int bottleneck = -1;
    NetworkRouting routing;  // which network carries what, its hops and link cycles
    double utilization = 0;  // MACs / (cycles × MAC units)
    EnergyBreakdown energy;
    double energy_pj = 0;
    double area_um2 = 0;
    // With skipping at the MACs: the slowest-PE compute cycles and what the
    // imbalance costs (`applies` is false otherwise).
    LoadImbalance imbalance;

    bool valid() const { return !violation.has_value(); }
};

Evaluation evaluate(const ArchModel& arch, const PhaseProblem& problem, const Mapping& mapping);

// The same with the densities of the phase's tensors (sparse evaluation:
// action_counts.hpp, load_imbalance.hpp). With every density 1 and no
// compressed format it equals the dense evaluation.
Evaluation evaluate(const ArchModel& arch, const PhaseProblem& problem, const Mapping& mapping,
                    const PhaseDensities& densities, const ImbalanceOptions& imbalance = {});

// Off-chip traffic: the words read from and written to the outermost level
// (level 0), format metadata included, over all its instances. Compressed
// formats move fewer words; the formats' whole point (Chen et al. 2024, Fig. 11).
double offchip_words(const Evaluation& evaluation);

}  // namespace trainloop
