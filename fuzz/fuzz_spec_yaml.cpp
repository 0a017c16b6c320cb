// Fuzzes the YAML spec readers: networks (with the whole-network checks and
// the training problems), architectures (with their component library),
// component libraries, sparsity profiles, mapping constraints and sweeps.
// The first byte picks the reader; the rest is the document.
#include <cstddef>
#include <cstdint>
#include <string>

#include "arch/arch_model.hpp"
#include "common/spec_node.hpp"
#include "components/component_library_parser.hpp"
#include "constraints/architecture_spec.hpp"
#include "constraints/constraints_parser.hpp"
#include "density/sparsity_profile.hpp"
#include "fuzz_support.hpp"
#include "problem/training_problems.hpp"
#include "sweep/sweep_parser.hpp"
#include "workload/network.hpp"

using namespace trainloop;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::string text(fuzz::as_text(data + 1, size - 1));
    switch (data[0] % 6) {
        case 0:
            fuzz::expect_spec_errors_only([&] {
                const SpecNode root = SpecNode::load_string(text, "fuzz/network.yaml");
                const Network network = Network::build(parse_network_spec(root));
                const NetworkTraining training = derive_training_problems(network, 16);
                (void)training.total_weights();
                for (Phase phase : kAllPhases) (void)training.phase_macs(phase);
            });
            break;
        case 1:
            fuzz::expect_spec_errors_only([&] {
                // Named inside arch_specs/ so `components/default_45nm.yaml` resolves.
                const SpecNode root =
                    SpecNode::load_string(text, fuzz::source_path("arch_specs/fuzz.yaml"));
                const ArchitectureSpec spec = parse_architecture_spec(root);
                (void)build_arch_model(spec.arch);
            });
            break;
        case 2:
            fuzz::expect_spec_errors_only([&] {
                (void)parse_component_library(SpecNode::load_string(text, "fuzz/library.yaml"));
            });
            break;
        case 3:
            fuzz::expect_spec_errors_only([&] {
                (void)parse_sparsity_profile(SpecNode::load_string(text, "fuzz/profile.yaml"));
            });
            break;
        case 4:
            fuzz::expect_spec_errors_only([&] {
                const ArchitectureSpec& spec = fuzz::shipped_architecture_spec();
                const ConstraintsFile file =
                    parse_constraints_file(SpecNode::load_string(text, "fuzz/constraints.yaml"),
                                           spec.arch.levels, spec.arch.pe_array);
                check_constraints_consistent(merge_constraints(spec.constraints, file.constraints));
            });
            break;
        default:
            fuzz::expect_spec_errors_only([&] {
                const SpecNode root =
                    SpecNode::load_string(text, fuzz::source_path("examples/sweeps/fuzz.yaml"));
                (void)parse_sweep(root, text);
            });
            break;
    }
    return 0;
}
