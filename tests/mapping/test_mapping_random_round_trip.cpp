// Round trips of random structurally valid mappings (tests/support/
// random_mapping.hpp) through all three forms: parse(print(m)) == m, and the
// canonical text prints back to itself.
#include <gtest/gtest.h>

#include <random>

#include "arch/arch_model.hpp"
#include "mapping/mapping_json.hpp"
#include "mapping/mapping_text.hpp"
#include "mapping/mapping_yaml.hpp"
#include "mapping_test_support.hpp"
#include "support/random_mapping.hpp"

namespace trainloop {
namespace {

using namespace mapping_test;

IterationSpace space(std::initializer_list<std::pair<Dim, std::int64_t>> bounds) {
    IterationSpace out;
    for (Dim d : kAllDims) out.bounds[d] = 1;
    for (const auto& [d, bound] : bounds) out.bounds[d] = bound;
    return out;
}

TEST(MappingRandomRoundTrip, EveryFormReadsBackWhatItPrinted) {
    using enum Dim;
    const std::vector<IterationSpace> spaces = {
        space({{N, 16}, {K, 128}, {C, 128}, {P, 28}, {Q, 28}, {R, 3}, {S, 3}}),
        space({{G, 4}, {N, 8}, {K, 12}, {C, 6}, {P, 10}, {Q, 9}, {R, 5}, {S, 2}}),
        space({{N, 32}, {K, 1000}, {C, 512}}),
    };
    std::mt19937_64 rng(20261122);
    int checked = 0;
    for (const Architecture* arch : {&procrustes(), &four_level()}) {
        const ArchModel model = build_arch_model(*arch);
        for (const IterationSpace& sp : spaces) {
            for (int i = 0; i < 100; ++i) {
                const Mapping m = testing::random_mapping(model, sp, rng);
                const std::string text = mapping_to_text(m, *arch);
                ASSERT_EQ(parse_mapping_text(text, *arch), m) << text;
                ASSERT_EQ(mapping_to_text(parse_mapping_text(text, *arch), *arch), text);
                const std::string yaml = mapping_to_yaml(m, *arch);
                ASSERT_EQ(
                    parse_mapping_yaml(SpecNode::load_string(yaml, "<random>"), *arch).mapping, m)
                    << yaml;
                const nlohmann::json json = mapping_to_json(m, *arch);
                ASSERT_EQ(mapping_from_json(nlohmann::json::parse(json.dump()), *arch), m)
                    << json.dump();
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 600);
}

}  // namespace
}  // namespace trainloop
