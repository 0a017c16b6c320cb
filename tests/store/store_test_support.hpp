// Helpers for the results-store tests: a fresh database path per test and
// small synthetic point records.
#pragma once

#include <filesystem>
#include <string>

#include "store/store_records.hpp"
#include "support/run_binary.hpp"

namespace trainloop::testing {

// A done point with one result per (layer, phase) and a step total.
inline PointRecord synthetic_point(std::int64_t index, const std::string& arch, double area,
                                   std::int64_t cycles, double energy) {
    PointRecord p;
    p.index = index;
    p.arch = {{arch, "architecture: " + arch + "\n"}, area, 16, 16, 1.0, ""};
    p.network = {"net", "network: net\n"};
    p.batch = 16;
    p.sparsity = {"dense", "sparsity_profile: dense\nrules: []\n"};
    p.dataflow = "K,N";
    p.objective = "edp";
    p.search = "anneal";
    p.budget = 100;
    p.seed = 1;
    p.phases = "fw";
    p.evaluations = 100;
    LayerPhaseRecord r;
    r.layer = "fc1";
    r.phase = "fw";
    r.mapping = "DRAM[K" + std::to_string(index + 1) + "]";
    r.macs = 1000;
    r.cycles = cycles;
    r.energy_pj = energy;
    r.utilization = 0.5;
    r.effectual_macs = 1000;
    r.energy_breakdown = "{}";
    p.results.push_back(r);
    p.totals.push_back({"fw", 1, cycles, energy, 1000, 1000, 0, 1000});
    return p;
}

}  // namespace trainloop::testing
