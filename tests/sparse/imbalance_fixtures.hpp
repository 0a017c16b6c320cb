// Hand-built weight-sparse fw problems on a DRAM → RF (per PE) array for the
// load-imbalance tests: C,K (C along x, K along y) and K,N (N along x, K along y).
#pragma once

#include "imbalance/load_imbalance.hpp"
#include "nest/nest_analysis.hpp"
#include "support/eval_fixtures.hpp"

namespace trainloop::testing {

struct ImbalanceCase {
    ArchModel arch;
    PhaseProblem problem;
    Mapping mapping;
    NestAnalysis nest;
    PhaseDensities densities;

    LoadImbalance run(ImbalanceMethod method, std::int64_t sampled_waves = 256,
                      bool histogram = false) const {
        ImbalanceOptions o;
        o.method = method;
        o.sampled_waves = sampled_waves;
        o.histogram = histogram;
        return estimate_load_imbalance(arch, problem, mapping, nest, densities, o);
    }
};

enum class Dataflow { CK, KN };

// `x` × `y` PEs; each PE's weight tile is k_t filters × c_t channels × r×r;
// `waves` waves (an N loop above the array); each weight is used `reuse` times
// in a PE (N inside the PE) — P×Q = 1.
inline ImbalanceCase weight_sparse_case(Dataflow dataflow, std::int64_t x, std::int64_t y,
                                        std::int64_t k_t, std::int64_t c_t, std::int64_t waves,
                                        const DensityModel& model, double density,
                                        LoadBalancingScheme scheme = LoadBalancingScheme::none,
                                        std::int64_t r = 1, std::int64_t reuse = 2) {
    ImbalanceCase c;
    c.arch = two_level(y, x, 1 << 30);
    c.arch.compute_skip.insert(DataSpace::weights);
    c.arch.load_balancing.scheme = scheme;
    if (scheme != LoadBalancingScheme::none) c.arch.load_balancing.axis = ArrayAxis::y;
    const bool ck = dataflow == Dataflow::CK;
    c.problem = make_phase_problem("l", Phase::fw,
                                   space_of({{Dim::N, waves * reuse * (ck ? 1 : x)},
                                             {Dim::K, y * k_t},
                                             {Dim::C, c_t * (ck ? x : 1)},
                                             {Dim::R, r},
                                             {Dim::S, r}}));
    c.mapping.num_levels = 2;
    for (std::size_t i = 0; i < 2; ++i) c.mapping.level(i).keep = DataSpaceSet::all();
    c.mapping.level(0).temporal = loops({{Dim::N, waves}});
    c.mapping.level(0).spatial_x = loops({{ck ? Dim::C : Dim::N, x}});
    c.mapping.level(0).spatial_y = loops({{Dim::K, y}});
    c.mapping.level(1).temporal =
        loops({{Dim::N, reuse}, {Dim::K, k_t}, {Dim::C, c_t}, {Dim::R, r}, {Dim::S, r}});
    c.nest = analyze_nest(c.problem, c.mapping);
    c.densities.spaces[DataSpace::weights] = {density, model};
    return c;
}

}  // namespace trainloop::testing
