// An outermost level that is not DRAM must hold all the network's weights at
// once (eval/on_chip_weights.hpp): the error names the architecture file,
// the line and key of the capacity, and the bytes needed.
#include <gtest/gtest.h>

#include "arch/architecture_parser.hpp"
#include "eval/on_chip_weights.hpp"
#include "support/spec_error_matchers.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::expect_spec_error;

Architecture arch_with_top(const std::string& top) {
    return parse_architecture(SpecNode::load_string(
        "architecture: a\ncomponent_library: " TRAINLOOP_SOURCE_DIR
        "/arch_specs/components/default_45nm.yaml\n"
        "pe_array: {rows: 2, columns: 2, datatype: int16}\n"
        "storage:\n" +
            top +
            "  - {name: rf, class: regfile, capacity: 64, data_spaces: [weights, inputs, "
            "outputs], per_pe: true}\n"
            "networks: []\n",
        "arch.yaml"));
}

NetworkTraining training_of(const Network& network) { return derive_training_problems(network, 1); }

Network fc_net(int out) {
    return Network::build(parse_network_spec(
        SpecNode::load_string("network: n\ninputs:\n  - {name: x, channels: 100}\nlayers:\n"
                              "  - {name: f, type: fc, inputs: [x], out_features: " +
                                  std::to_string(out) + "}\n",
                              "net.yaml")));
}

TEST(OnChipWeights, AnOnChipTopLevelTooSmallForTheWeightsIsALocatedError) {
    const Architecture arch = arch_with_top(
        "  - {name: glb, class: sram, capacity: 1000, data_spaces: [weights, inputs, outputs]}\n");
    const Network net = fc_net(10);  // 1,000 weights of 16 bits: 2,000 bytes
    const SpecError e =
        expect_spec_error([&] { check_weights_fit_on_chip(arch, training_of(net)); });
    EXPECT_EQ(e.where().file, "arch.yaml");
    EXPECT_EQ(e.where().line, 5);
    EXPECT_EQ(e.key_path(), "storage[0].capacity");
    EXPECT_TRUE(
        contains(e.message(), "holds 500 words of 16 bits, fewer than the network's 1,000"));
    EXPECT_TRUE(contains(e.expected(), "at least 2,000 bytes"));
}

TEST(OnChipWeights, WeightsThatFitAndADramTopPass) {
    const Architecture on_chip = arch_with_top(
        "  - {name: glb, class: sram, capacity: 2000, data_spaces: [weights, inputs, outputs]}\n");
    EXPECT_NO_THROW(check_weights_fit_on_chip(on_chip, training_of(fc_net(10))));
    const Architecture dram = arch_with_top(
        "  - {name: dram, class: dram, capacity: unbounded, data_spaces: [weights, inputs, "
        "outputs]}\n");
    EXPECT_NO_THROW(check_weights_fit_on_chip(dram, training_of(fc_net(1000))));
}

}  // namespace
}  // namespace trainloop
