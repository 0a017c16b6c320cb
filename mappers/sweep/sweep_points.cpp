#include "sweep/sweep_points.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/spec_error.hpp"

namespace trainloop {
namespace {

template <typename T>
bool matches(const std::optional<T>& wanted, const T& value) {
    return !wanted || *wanted == value;
}

}  // namespace

std::vector<SweepPoint> sweep_points(const SweepSpec& spec,
                                     const std::vector<std::string>& architecture_names,
                                     const std::vector<std::string>& network_names,
                                     const std::vector<std::string>& sparsity_names) {
    std::vector<SweepPoint> points;
    SweepPoint p;
    // Without an `iterations:` axis every point is one iteration's mapping.
    const std::size_t runs = std::max<std::size_t>(spec.iterations.size(), 1);
    for (p.architecture = 0; p.architecture < spec.architectures.size(); ++p.architecture) {
        for (p.network = 0; p.network < spec.networks.size(); ++p.network) {
            for (p.batch = 0; p.batch < spec.batches.size(); ++p.batch) {
                for (p.sparsity = 0; p.sparsity < spec.sparsity.size(); ++p.sparsity) {
                    for (p.dataflow = 0; p.dataflow < spec.dataflows.size(); ++p.dataflow) {
                        for (p.objective = 0; p.objective < spec.objectives.size(); ++p.objective) {
                            for (p.run = 0; p.run < runs; ++p.run) {
                                bool excluded = false;
                                for (const SweepExclusion& e : spec.exclude) {
                                    excluded =
                                        excluded ||
                                        (matches(e.architecture,
                                                 architecture_names[p.architecture]) &&
                                         matches(e.network, network_names[p.network]) &&
                                         matches(e.batch, spec.batches[p.batch]) &&
                                         matches(e.sparsity, sparsity_names[p.sparsity]) &&
                                         matches(e.dataflow, spec.dataflows[p.dataflow]) &&
                                         matches(e.objective, spec.objectives[p.objective]) &&
                                         (!e.iterations ||
                                          (!spec.iterations.empty() &&
                                           *e.iterations == spec.iterations[p.run])));
                                }
                                if (excluded) continue;
                                p.index = static_cast<std::int64_t>(points.size());
                                points.push_back(p);
                            }
                        }
                    }
                }
            }
        }
    }
    return points;
}

std::vector<SweepPoint> shard_points(const std::vector<SweepPoint>& points, const Shard& shard) {
    std::vector<SweepPoint> kept;
    for (const SweepPoint& p : points) {
        if (p.index % shard.count == shard.index - 1) kept.push_back(p);
    }
    return kept;
}

Shard parse_shard(const std::string& text) {
    const std::size_t slash = text.find('/');
    auto fail = [&] {
        throw SpecError({}, "--shard", fmt::format("bad shard `{}`", text),
                        "I/N with 1 <= I <= N, e.g. `3/8` (the third of eight shards)",
                        "a Slurm array job passes `$((SLURM_ARRAY_TASK_ID + 1))/N`");
    };
    if (slash == std::string::npos) fail();
    Shard shard;
    try {
        std::size_t used = 0;
        shard.index = std::stoll(text.substr(0, slash), &used);
        if (used != slash) fail();
        const std::string count = text.substr(slash + 1);
        shard.count = std::stoll(count, &used);
        if (used != count.size()) fail();
    } catch (const std::logic_error&) {
        fail();
    }
    if (shard.count < 1 || shard.index < 1 || shard.index > shard.count) fail();
    return shard;
}

}  // namespace trainloop
