// The Timeloop reference corpus (tests/golden/timeloop/dense/, made by
// tools/oracles/generate_dense_corpus.py): each case is an architecture
// directory's arch.yaml, ERT.yaml and ART.yaml plus CASE.yaml (problem and
// mapping), and CASE.json with timeloop-model's summary. These helpers list
// the cases and evaluate one with trainloop exactly as `eval --timeloop` does.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "arch/arch_model.hpp"
#include "eval/evaluation.hpp"
#include "timeloop/timeloop_differences.hpp"
#include "timeloop/timeloop_import.hpp"

namespace trainloop::testing {

struct CorpusCase {
    std::filesystem::path arch_dir;
    std::string name;  // CASE, without extension

    std::filesystem::path spec() const { return arch_dir / (name + ".yaml"); }
    std::filesystem::path expected() const { return arch_dir / (name + ".json"); }
    std::string label() const { return arch_dir.filename().string() + "/" + name; }
};

inline const std::filesystem::path& dense_corpus_dir() {
    static const std::filesystem::path dir =
        std::filesystem::path(TRAINLOOP_SOURCE_DIR) / "tests/golden/timeloop/dense";
    return dir;
}

// The architecture directories of a corpus, sorted.
inline std::vector<std::filesystem::path> corpus_architectures(const std::filesystem::path& root) {
    std::vector<std::filesystem::path> out;
    if (!std::filesystem::is_directory(root)) return out;
    for (const auto& entry : std::filesystem::directory_iterator(root)) {
        if (entry.is_directory()) out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The cases of one architecture directory (every CASE.json with its CASE.yaml), sorted.
inline std::vector<CorpusCase> corpus_cases(const std::filesystem::path& arch_dir) {
    std::vector<CorpusCase> out;
    for (const auto& entry : std::filesystem::directory_iterator(arch_dir)) {
        const auto& p = entry.path();
        if (p.extension() != ".json") continue;
        CorpusCase c{arch_dir, p.stem().string()};
        if (std::filesystem::exists(c.spec())) out.push_back(c);
    }
    std::sort(out.begin(), out.end(),
              [](const CorpusCase& a, const CorpusCase& b) { return a.name < b.name; });
    return out;
}

inline nlohmann::json read_json(const std::filesystem::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

struct EvaluatedCase {
    TimeloopSpec spec;
    TimeloopCase imported;
    ArchModel model;
    Evaluation evaluation;
};

// Reads Timeloop files as `eval --timeloop` does and evaluates them.
inline EvaluatedCase evaluate_timeloop_files(const std::vector<std::string>& files) {
    EvaluatedCase out;
    out.spec = read_timeloop_spec(files);
    out.imported = import_timeloop(out.spec);
    out.model = build_arch_model(out.imported.arch);
    const TimeloopCase& c = out.imported;
    out.evaluation = c.sparse() ? evaluate(out.model, c.problem, c.mapping, c.densities)
                                : evaluate(out.model, c.problem, c.mapping);
    return out;
}

inline EvaluatedCase evaluate_corpus_case(const CorpusCase& c) {
    std::vector<std::string> files;
    for (const char* f : {"arch.yaml", "ERT.yaml", "ART.yaml"}) {
        files.push_back((c.arch_dir / f).string());
    }
    files.push_back(c.spec().string());
    return evaluate_timeloop_files(files);
}

// ---- comparing with timeloop-model -------------------------------------------

inline constexpr double kEnergyTolerance = 1e-3;

inline const nlohmann::json kBypassed = {{"capacity", 0}, {"instances", 0}, {"reads", 0},
                                         {"fills", 0},    {"updates", 0},   {"energy_pj", 0.0}};

struct Tally {
    int cases = 0;
    int compared = 0;
    int excluded = 0;
    std::vector<std::string> mismatches;
};

inline void compare_count(Tally& t, const std::string& what, std::int64_t trainloop,
                          std::int64_t timeloop) {
    ++t.compared;
    if (trainloop != timeloop) {
        t.mismatches.push_back(
            fmt::format("{}: trainloop {} vs timeloop-model {}", what, trainloop, timeloop));
    }
}

inline void compare_energy(Tally& t, const std::string& what, double trainloop, double timeloop) {
    ++t.compared;
    // Timeloop prints 0.01 pJ; an absolute slack of 0.01 covers its rounding of tiny values.
    if (std::fabs(trainloop - timeloop) > kEnergyTolerance * std::fabs(timeloop) + 0.01) {
        t.mismatches.push_back(fmt::format("{}: trainloop {:.2f} pJ vs timeloop-model {:.2f} pJ",
                                           what, trainloop, timeloop));
    }
}

// timeloop-model's cycles from the same per-instance counts: per level, the
// read (write) words per compute cycle summed over the data spaces, a
// slowdown bandwidth ÷ demand, and ceil(compute cycles ÷ slowdown) in
// floating point (model/buffer.cpp, ComputePerformance). That is ⌈words ÷
// bandwidth⌉, trainloop's formula, up to rounding: when words ÷ bandwidth is a
// whole number, Timeloop's division can land just above it and add a cycle.
inline std::int64_t timeloop_rounded_cycles(const Evaluation& e, const ArchModel& arch) {
    const auto compute = std::uint64_t(e.nest.compute_cycles);
    std::uint64_t cycles = compute;
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        double read_demand = 0;
        double write_demand = 0;
        for (DataSpace s : kAllDataSpaces) {
            const SpaceCounts& c = e.counts.levels[i].space(s);
            read_demand += double(std::uint64_t(c.reads)) / double(compute);
            write_demand += double(std::uint64_t(c.fills + c.updates)) / double(compute);
        }
        const LevelModel& level = arch.levels[i];
        double slowdown = 1.0;
        if (level.read_bandwidth > 0 && level.read_bandwidth < read_demand) {
            slowdown = std::min(slowdown, level.read_bandwidth / read_demand);
        }
        if (level.write_bandwidth > 0 && level.write_bandwidth < write_demand) {
            slowdown = std::min(slowdown, level.write_bandwidth / write_demand);
        }
        const double shared_demand = read_demand + write_demand;
        if (level.shared_bandwidth > 0 && level.shared_bandwidth < shared_demand) {
            slowdown = std::min(slowdown, level.shared_bandwidth / shared_demand);
        }
        cycles = std::max(cycles, std::uint64_t(std::ceil(double(compute) / slowdown)));
    }
    return std::int64_t(cycles);
}

// Compares an evaluated case with timeloop-model's summary (the corpus JSON
// layout), adding to the tally: counts and cycles exactly, energy per level
// and of the MACs within 0.1 %, except what timeloop_differences excludes.
inline void compare_with_timeloop(const EvaluatedCase& evaluated, const nlohmann::json& expected,
                                  const std::string& label, Tally& t) {
    ++t.cases;
    const Evaluation& e = evaluated.evaluation;
    if (!e.valid()) {
        t.mismatches.push_back(fmt::format(
            "{}: trainloop refuses the mapping: {}", label,
            describe(*e.violation, evaluated.imported.arch, evaluated.imported.problem)));
        return;
    }
    const Differences skip = timeloop_differences(e.nest, evaluated.model);
    auto compare = [&](Quantity q, std::size_t level, DataSpace s, std::int64_t ours,
                       std::int64_t theirs, const std::string& what) {
        if (skip.excludes(q, level, s)) {
            ++t.excluded;
            return;
        }
        compare_count(t, label + " " + what, ours, theirs);
    };
    const Architecture& arch = evaluated.imported.arch;
    const auto& levels = expected["levels"];
    if (levels.size() != arch.levels.size()) {
        t.mismatches.push_back(
            fmt::format("{}: {} levels vs {}", label, arch.levels.size(), levels.size()));
        return;
    }
    for (std::size_t i = 0; i < arch.levels.size(); ++i) {
        const auto& level = levels[i];
        const std::string name = level["name"];
        const std::size_t li = *arch.level_index(name);
        const LevelAccesses& acc = e.nest.levels[li];
        double level_pj = 0;
        double expected_pj = 0;
        for (DataSpace s : kAllDataSpaces) {
            const std::string space = kTimeloopSpaceNames[std::size_t(s)];
            // Timeloop prints nothing for a data space the level bypasses.
            const nlohmann::json& spaces = level["spaces"];
            const nlohmann::json x = spaces.contains(space) ? spaces[space] : kBypassed;
            const SpaceAccesses& a = acc.space(s);
            const std::string where = fmt::format("{} {}", name, space);
            compare(Quantity::capacity, li, s, a.kept ? a.tile : 0, x["capacity"],
                    where + " utilized capacity");
            if (a.kept) {
                compare(Quantity::instances, li, s, acc.utilized_instances, x["instances"],
                        where + " utilized instances");
            }
            compare(Quantity::reads, li, s, a.reads, x["reads"], where + " reads/instance");
            compare(Quantity::fills, li, s, a.fills, x["fills"], where + " fills/instance");
            compare(Quantity::updates, li, s, a.updates, x["updates"], where + " updates/instance");
            const std::size_t si = std::size_t(s);
            level_pj +=
                e.energy.level[li][si][0] + e.energy.level[li][si][1] + e.energy.level[li][si][2];
            expected_pj += x["energy_pj"].get<double>();
        }
        if (skip.excludes(Quantity::energy, li, DataSpace::weights)) {
            ++t.excluded;
        } else {
            compare_energy(t, label + " " + name + " energy", level_pj, expected_pj);
        }
    }
    if (!skip.excludes(Quantity::cycles, 0, DataSpace::weights)) {
        const std::int64_t rounded = timeloop_rounded_cycles(e, evaluated.model);
        compare_count(t, label + " cycles (Timeloop's rounding)", rounded, expected["cycles"]);
        // trainloop's own: the exact ceiling, at most Timeloop's rounding below it.
        if (e.cycles != rounded && e.cycles + 1 != rounded) {
            t.mismatches.push_back(
                fmt::format("{} cycles: trainloop {} vs {} rounded", label, e.cycles, rounded));
        }
    } else {
        ++t.excluded;
    }
    compare_count(t, label + " computes", e.nest.macs, expected["computes"]);
    compare_energy(t, label + " MAC energy", e.energy.mac, expected["mac"]["energy_pj"]);
}

}  // namespace trainloop::testing
