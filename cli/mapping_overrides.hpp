// Command-line values that override a mapping file's `for:` block: their
// options and their reading, shared by the commands that take `--mapping`
// (eval, export).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "arch/architecture_library.hpp"
#include "mapping/mapping_target.hpp"
#include "number_options.hpp"

namespace trainloop::cli {

// `Options` has string members arch, workload, layer, phase (empty: not
// given) and an optional<int64_t> batch.
template <typename Options>
MappingTarget mapping_overrides(const Options& o) {
    MappingTarget overrides;
    if (!o.arch.empty()) overrides.arch = resolve_architecture(o.arch);
    if (!o.workload.empty()) overrides.workload = o.workload;
    if (!o.layer.empty()) overrides.layer = o.layer;
    if (!o.phase.empty()) overrides.phase = phase_from_name(o.phase);
    overrides.batch = o.batch;
    return overrides;
}

// Declares --arch, --workload, --layer, --phase, --batch on `command`.
template <typename Options>
void add_mapping_override_options(CLI::App* command, Options& o) {
    command->add_option("--arch,-a", o.arch,
                        "Shipped architecture name (arch_specs/) or architecture YAML file");
    command->add_option("--workload,-w", o.workload, "Shipped network name or network YAML file");
    command->add_option("--layer,-l", o.layer, "MAC layer name (see `trainloop workload show`)");
    command->add_option("--phase,-p", o.phase, "Training phase")
        ->check(CLI::IsMember({"fw", "bw", "wu"}));
    command->add_option("--batch,-b", o.batch, "Minibatch size N (default: the mapping's, else 16)")
        ->transform(count_from(1));
}

}  // namespace trainloop::cli
