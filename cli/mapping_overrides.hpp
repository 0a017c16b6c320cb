// Command-line values that override a mapping file's `for:` block (shared by
// the commands that take `--mapping`: eval, export).
#pragma once

#include <optional>
#include <string>

#include "mapping/mapping_target.hpp"

namespace trainloop::cli {

// `Options` has string members arch, workload, layer, phase (empty: not
// given) and an optional<int64_t> batch.
template <typename Options>
MappingTarget mapping_overrides(const Options& o) {
    MappingTarget overrides;
    if (!o.arch.empty()) overrides.arch = o.arch;
    if (!o.workload.empty()) overrides.workload = o.workload;
    if (!o.layer.empty()) overrides.layer = o.layer;
    if (!o.phase.empty()) overrides.phase = phase_from_name(o.phase);
    overrides.batch = o.batch;
    return overrides;
}

}  // namespace trainloop::cli
