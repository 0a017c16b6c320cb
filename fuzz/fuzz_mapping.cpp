// Fuzzes the mapping readers — the YAML form, the one-line text form and the
// JSON form — against a shipped architecture, and evaluates what they accept
// on a ResNet-18 layer when the mapping fits it (so the checked arithmetic of
// the mapping check and the nest analysis sees arbitrary factors).
// The first byte picks the form.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "arch/arch_model.hpp"
#include "common/spec_node.hpp"
#include "eval/evaluation.hpp"
#include "fuzz_support.hpp"
#include "mapping/mapping_json.hpp"
#include "mapping/mapping_text.hpp"
#include "mapping/mapping_yaml.hpp"
#include "problem/problem_lookup.hpp"
#include "workload/network_library.hpp"

using namespace trainloop;

namespace {

struct Target {
    ArchModel model;
    const PhaseProblem* problem;
};

const Target& target() {
    static const Network network = load_network("resnet18");
    static const NetworkTraining training = derive_training_problems(network, 16);
    static const Target t{
        build_arch_model(fuzz::shipped_architecture()),
        &find_phase_problem(network, training, "layer2.0.conv2", Phase::fw, {"fuzz", 0, 0})};
    return t;
}

void evaluate_if_it_fits(const Mapping& mapping) {
    const Target& t = target();
    if (check_mapping_structure(t.model, t.problem->space, mapping)) return;
    (void)evaluate(t.model, *t.problem, mapping);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::string text(fuzz::as_text(data + 1, size - 1));
    const Architecture& arch = fuzz::shipped_architecture();
    fuzz::expect_spec_errors_only([&] {
        switch (data[0] % 3) {
            case 0: {
                const SpecNode root = SpecNode::load_string(text, "fuzz/mapping.yaml");
                (void)read_mapping_target(root);
                evaluate_if_it_fits(parse_mapping_yaml(root, arch).mapping);
                break;
            }
            case 1:
                evaluate_if_it_fits(parse_mapping_text(text, arch));
                break;
            default: {
                const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
                if (json.is_discarded()) return;  // not JSON: nlohmann's own parser says so
                evaluate_if_it_fits(mapping_from_json(json, arch, "fuzz/mapping.json"));
                break;
            }
        }
    });
    return 0;
}
