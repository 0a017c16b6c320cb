// The `cartesian_product:` section (arch/cartesian_array.hpp): read, written
// back, and refused with a located error when its multipliers are not the PE
// array's MACs.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "arch/architecture_yaml.hpp"
#include "arch_test_support.hpp"

namespace trainloop {
namespace {

using arch_test::expect_located;
using arch_test::expect_spec_error;
using arch_test::kInlineFile;
using arch_test::kTinyArch;
using arch_test::parse_inline;

// kTinyArch's 4 × 4 PEs with one MAC each, as 2 × 2 PEs of 2 × 2 multipliers.
// Its first key sits on line 28 (kTinyArch has 26 lines, the section's name line 27).
const std::string kSection = R"(cartesian_product:
  pe_rows: 2
  pe_columns: 2
  filter_vector: 2
  input_vector: 2
  accumulator_banks: 8
  tiling: split_filters
  predictor: true
)";

// The error kTinyArch with kSection edited (each pair: replace the first `from`
// by `to`) raises.
SpecError section_error(std::initializer_list<std::pair<std::string, std::string>> edits) {
    std::string section = kSection;
    for (const auto& [from, to] : edits) section.replace(section.find(from), from.size(), to);
    return expect_spec_error([&section] { parse_inline(kTinyArch + section); });
}

TEST(CartesianArraySection, IsReadAndWrittenBack) {
    EXPECT_FALSE(parse_inline(kTinyArch).cartesian.has_value()) << "optional";
    const Architecture arch = parse_inline(kTinyArch + kSection);
    ASSERT_TRUE(arch.cartesian.has_value());
    const CartesianArray& c = *arch.cartesian;
    EXPECT_EQ(c.tiles_h, 2);
    EXPECT_EQ(c.tiles_w, 2);
    EXPECT_EQ(c.filter_vector, 2);
    EXPECT_EQ(c.input_vector, 2);
    EXPECT_EQ(c.accumulator_banks, 8);
    EXPECT_EQ(c.tiling, CartesianTiling::split_filters);
    EXPECT_TRUE(c.predictor);
    EXPECT_EQ(c.sample_tiles, 1) << "default";
    EXPECT_EQ(c.multipliers(), 16);

    const Architecture again =
        parse_inline(architecture_to_yaml(arch, "components/default_45nm.yaml"));
    ASSERT_TRUE(again.cartesian.has_value());
    EXPECT_EQ(again.cartesian->tiles_h, c.tiles_h);
    EXPECT_EQ(again.cartesian->accumulator_banks, c.accumulator_banks);
    EXPECT_EQ(again.cartesian->tiling, c.tiling);
    EXPECT_EQ(again.cartesian->predictor, c.predictor);
    EXPECT_EQ(again.cartesian->sample_tiles, c.sample_tiles);
}

TEST(CartesianArraySection, FilterGroupsAndBankStallsAreReadAndWrittenBack) {
    // Eager Pruning §5.2's SCNN: groups of PEs, each with its share of the filters;
    // SCNN §IV: queued banks. 2 groups of 2 × 1 PEs of 2 × 2 multipliers: 16.
    const Architecture arch =
        parse_inline(kTinyArch + kSection.substr(0, kSection.find("  pe_columns")) +
                     "  pe_columns: 1\n  filter_groups: 2\n  bank_stalls: none\n" +
                     kSection.substr(kSection.find("  filter_vector")));
    ASSERT_TRUE(arch.cartesian.has_value());
    EXPECT_EQ(arch.cartesian->filter_groups, 2);
    EXPECT_EQ(arch.cartesian->bank_stalls, CartesianBankStalls::none);
    EXPECT_EQ(arch.cartesian->multipliers(), 16);
    const std::string text = architecture_to_yaml(arch, "components/default_45nm.yaml");
    const Architecture again = parse_inline(text);
    EXPECT_EQ(again.cartesian->filter_groups, 2);
    EXPECT_EQ(again.cartesian->bank_stalls, CartesianBankStalls::none);
    // The defaults are not written: an array without them reads back as before.
    const std::string plain =
        architecture_to_yaml(parse_inline(kTinyArch + kSection), "components/default_45nm.yaml");
    EXPECT_EQ(plain.find("filter_groups"), std::string::npos);
    EXPECT_EQ(plain.find("bank_stalls"), std::string::npos);
}

TEST(CartesianArraySection, AnUnknownBankStallModelIsLocated) {
    const SpecError e =
        section_error({{"predictor: true", "predictor: true\n  bank_stalls: queued"}});
    expect_located(e, kInlineFile, 35, "cartesian_product.bank_stalls", "queued");
    const SpecError groups = section_error({{"pe_rows: 2", "pe_rows: 2\n  filter_groups: 2"}});
    expect_located(groups, kInlineFile, 28, "cartesian_product",
                   "1 sample tiles × 2 filter groups × 2 × 2 PEs × 2 × 2 multipliers is 32");
}

TEST(CartesianArraySection, MultipliersOtherThanThePeArraysMacsAreRefused) {
    const SpecError e = section_error({{"input_vector: 2", "input_vector: 4"}});
    expect_located(e, kInlineFile, 28, "cartesian_product",
                   "2 × 2 PEs × 2 × 4 multipliers is 32 multipliers, but the PE array has 16 MACs");
    EXPECT_NE(e.expected().find("rows × columns × macs_per_pe"), std::string::npos);
}

TEST(CartesianArraySection, UnknownTilingAndKeyAreLocated) {
    const SpecError tiling = section_error({{"split_filters", "split"}});
    expect_located(tiling, kInlineFile, 33, "cartesian_product.tiling", "split");
    const SpecError key = section_error({{"pe_rows", "pe_row"}});
    expect_located(key, kInlineFile, 28, "cartesian_product.pe_row", "unknown key `pe_row`");
    EXPECT_EQ(key.hint(), "did you mean `pe_rows`?");
    const SpecError zero = section_error({{"accumulator_banks: 8", "accumulator_banks: 0"}});
    expect_located(zero, kInlineFile, 32, "cartesian_product.accumulator_banks", "0");
}

// The evaluator's limits (arch/cartesian_array.hpp) hold at the key, so a section
// the parser reads is one `train-cost --evaluator cartesian` can evaluate.
TEST(CartesianArraySection, ValuesPastTheEvaluatorsLimitsAreRefusedWhereTheyStand) {
    const SpecError wide = section_error({{"filter_vector: 2", "filter_vector: 2048"}});
    expect_located(wide, kInlineFile, 30, "cartesian_product.filter_vector", "2048 is too large");
    EXPECT_EQ(wide.expected(), "at most 1024");
    const SpecError products = section_error(
        {{"filter_vector: 2", "filter_vector: 64"}, {"input_vector: 2", "input_vector: 32"}});
    expect_located(products, kInlineFile, 28, "cartesian_product",
                   "F × I = 64 × 32 is 2048 products per cycle");
}

}  // namespace
}  // namespace trainloop
