#include "run_inputs.hpp"

#include <fmt/format.h>

#include <iostream>

#include "arch/architecture_library.hpp"
#include "arch/pricing_notes.hpp"
#include "common/spec_error.hpp"
#include "density/sparsity_library.hpp"
#include "sparse/mask_check.hpp"
#include "usable_threads.hpp"
#include "workload/network_library.hpp"

namespace trainloop::cli {

RunSubject RunInputs::subject() const {
    return {spec.arch,       spec.constraints, model,
            network->name(), training,         sparsity ? &*sparsity : nullptr};
}

RunSetup RunInputs::set_up(const RunSettings& settings, int threads,
                           PlanMapspaces mapspaces) const {
    return set_up_run(subject(), settings, usable_threads(threads), mapspaces);
}

RunInputs read_run_inputs(const MapOptions& o, const RunSettings& settings) {
    RunInputs in;
    in.arch_file = resolve_architecture(o.arch);
    in.spec = load_architecture_spec(in.arch_file);
    in.model = build_arch_model(in.spec.arch);
    for (const std::string& note : pricing_notes(in.spec.arch)) {
        std::cerr << "note: " << note << "\n";
    }
    // The constraints first: a bad constraints file fails before the network is read.
    check_dataflow_against_constraints(
        {settings.dataflow, settings.bypass,
         merged_constraints(in.spec.arch, in.spec.constraints, settings.constraints_file),
         settings.imperfect_factors, settings.imperfect_windows});
    in.network = std::make_unique<const Network>(load_network(o.workload));
    in.training = derive_training_problems(*in.network, o.batch);
    if (!o.sparsity.profile.empty()) {
        in.sparsity = load_sparsity_profile_named(o.sparsity.profile);
        check_masks_against(*in.sparsity, in.network->name(), in.training);
    }
    return in;
}

void check_something_to_map(const RunInputs& inputs, std::size_t layer_phases,
                            const std::string& phase) {
    if (layer_phases > 0) return;
    throw SpecError({}, "--phase",
                    fmt::format("{} has no {} phase to map", inputs.network->name(), phase),
                    "a phase some MAC layer has");
}

}  // namespace trainloop::cli
