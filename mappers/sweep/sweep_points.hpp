// The points of a sweep: the cartesian product of its axes in a fixed order
// (architectures, then networks, batches, sparsity profiles, dataflows,
// objectives, training-run lengths, the last varying fastest), minus excluded combinations,
// numbered 0, 1, ... in that order. A shard I/N keeps the points whose
// number is I-1 modulo N, so N shards cover every point exactly once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sweep/sweep_spec.hpp"

namespace trainloop {

// Indices into the SweepSpec's axes (architecture names are the loaded
// variants' names, given separately because loading the files gives them).
struct SweepPoint {
    std::int64_t index = 0;
    std::size_t architecture = 0;
    std::size_t network = 0;
    std::size_t batch = 0;
    std::size_t sparsity = 0;
    std::size_t dataflow = 0;
    std::size_t objective = 0;
    std::size_t run = 0;  // index into SweepSpec::iterations (0 when it is empty)
};

struct Shard {
    std::int64_t index = 1;  // 1-based
    std::int64_t count = 1;
};

// `architecture_names`, `network_names`, `sparsity_names`: the names the
// exclusions are matched against, one per entry of the spec's axis.
std::vector<SweepPoint> sweep_points(const SweepSpec& spec,
                                     const std::vector<std::string>& architecture_names,
                                     const std::vector<std::string>& network_names,
                                     const std::vector<std::string>& sparsity_names);

std::vector<SweepPoint> shard_points(const std::vector<SweepPoint>& points, const Shard& shard);

// "2/8" -> {2, 8}; throws SpecError (key `--shard`) unless 1 <= I <= N.
Shard parse_shard(const std::string& text);

}  // namespace trainloop
