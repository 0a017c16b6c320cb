#include "sweep/sweep_points.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <type_traits>

#include "common/spec_error.hpp"

namespace trainloop {
namespace {

template <typename T>
bool matches(const std::optional<T>& wanted, const T& value) {
    return !wanted || *wanted == value;
}

// An entry of an axis, by its name or as the sweep file writes it.
bool names_entry(const std::optional<std::string>& wanted, const std::vector<std::string>& names,
                 const std::vector<std::string>& written, std::size_t i) {
    return !wanted || *wanted == names[i] || (i < written.size() && *wanted == written[i]);
}

// The entries of an axis as an error lists them: `name` or `name (as written)`.
template <typename T>
std::string entries_text(const std::vector<T>& names, const std::vector<std::string>& written) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        out += fmt::format("{}{}", out.empty() ? "" : ", ", names[i]);
        if (i < written.size() && written[i] != fmt::format("{}", names[i])) {
            out += fmt::format(" ({})", written[i]);
        }
    }
    return out;
}

// Throws SpecError at the exclusion's `key` when its value names no entry of
// the axis: an exclusion that matches nothing is a typo, not a no-op.
template <typename T>
void check_names_an_entry(const SweepExclusion& e, const std::string& key,
                          const std::optional<T>& value, const std::vector<T>& names,
                          const std::vector<std::string>& written, std::string_view axis) {
    if (!value) return;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (*value == names[i]) return;
        if constexpr (std::is_same_v<T, std::string>) {
            if (i < written.size() && *value == written[i]) return;
        }
    }
    const auto& [where, path] = e.given.at(key);
    throw SpecError(where, path,
                    fmt::format("`{}: {}` names no entry of the sweep's `{}:`", key, *value, axis),
                    fmt::format("one of: {}", entries_text(names, written)),
                    "an exclusion names an entry by its name or as the axis writes it");
}

void check_exclusions(const SweepSpec& spec, const std::vector<std::string>& architecture_names,
                      const std::vector<std::string>& architectures_written,
                      const std::vector<std::string>& network_names,
                      const std::vector<std::string>& sparsity_names) {
    for (const SweepExclusion& e : spec.exclude) {
        if (e.given.empty()) continue;  // made in code, not read from a file
        check_names_an_entry(e, "architecture", e.architecture, architecture_names,
                             architectures_written, "architectures");
        check_names_an_entry(e, "network", e.network, network_names, spec.networks_written,
                             "networks");
        check_names_an_entry(e, "batch", e.batch, spec.batches, {}, "batches");
        check_names_an_entry(e, "sparsity", e.sparsity, sparsity_names, spec.sparsity_written,
                             "sparsity");
        check_names_an_entry(e, "dataflow", e.dataflow, spec.dataflows, {}, "dataflows");
        check_names_an_entry(e, "objective", e.objective, spec.objectives, {}, "objectives");
        check_names_an_entry(e, "iterations", e.iterations, spec.iterations, {}, "iterations");
    }
}

}  // namespace

std::vector<SweepPoint> sweep_points(const SweepSpec& spec,
                                     const std::vector<std::string>& architecture_names,
                                     const std::vector<std::string>& network_names,
                                     const std::vector<std::string>& sparsity_names) {
    std::vector<std::string> architectures_written;
    for (const SweepArchitecture& a : spec.architectures)
        architectures_written.push_back(a.written);
    check_exclusions(spec, architecture_names, architectures_written, network_names,
                     sparsity_names);
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
                                        (names_entry(e.architecture, architecture_names,
                                                     architectures_written, p.architecture) &&
                                         names_entry(e.network, network_names,
                                                     spec.networks_written, p.network) &&
                                         matches(e.batch, spec.batches[p.batch]) &&
                                         names_entry(e.sparsity, sparsity_names,
                                                     spec.sparsity_written, p.sparsity) &&
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
