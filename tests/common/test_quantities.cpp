// Physical quantities are checked at the edge, one reader per kind: a
// physical number is finite and in its kind's range (common/quantities.hpp).
#include <gtest/gtest.h>

#include <string>

#include "common/quantities.hpp"
#include "support/spec_error_matchers.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::expect_spec_error;

SpecError quantity_error(const std::string& value, Quantity q, bool zero_allowed = false) {
    const SpecNode root = SpecNode::load_string("x: " + value + "\n", "q.yaml");
    const SpecNode node = MapReader(root).required("x");
    return expect_spec_error([&] {
        zero_allowed ? read_non_negative_quantity(node, q) : read_positive_quantity(node, q);
    });
}

double quantity(const std::string& value, Quantity q, bool zero_allowed = false) {
    const SpecNode root = SpecNode::load_string("x: " + value + "\n", "q.yaml");
    const SpecNode node = MapReader(root).required("x");
    return zero_allowed ? read_non_negative_quantity(node, q) : read_positive_quantity(node, q);
}

TEST(Quantities, EachKindHasItsRange) {
    EXPECT_EQ(quantity("0.2", Quantity::frequency), 0.2);
    EXPECT_EQ(quantity("1000", Quantity::frequency), 1000);
    for (const char* absurd : {"1e-300", "0", "-1", "1e300", "0.0009", "1001"}) {
        const SpecError e = quantity_error(absurd, Quantity::frequency);
        EXPECT_TRUE(contains(e.message(), "a frequency of")) << e.message();
        EXPECT_TRUE(contains(e.message(), "GHz is out of range")) << e.message();
        EXPECT_TRUE(contains(e.expected(), "from 0.001 to 1000 GHz")) << e.expected();
        EXPECT_EQ(e.key_path(), "x");
    }
    for (const char* not_finite : {".nan", ".inf", "-.inf", "1e999", "nan"}) {
        const SpecError e = quantity_error(not_finite, Quantity::energy);
        EXPECT_TRUE(contains(e.message(), "is not a number")) << not_finite << e.message();
    }
    EXPECT_EQ(quantity("0", Quantity::energy, true), 0);
    EXPECT_TRUE(contains(quantity_error("0", Quantity::energy).hint(), "greater than 0"));
    EXPECT_TRUE(contains(quantity_error("-0.5", Quantity::power, true).message(),
                         "a power of -0.5 mW is out of range"));
    EXPECT_TRUE(contains(quantity_error("1e-300", Quantity::bandwidth).message(),
                         "a bandwidth of 1e-300 words per cycle"));
    EXPECT_TRUE(contains(quantity_error("1e20", Quantity::area, true).message(), "µm²"));
    EXPECT_TRUE(contains(quantity_error("1e12", Quantity::energy).message(), "pJ"));
}

TEST(Quantities, WidthsAreIntegersInRange) {
    const auto width = [](const std::string& value) {
        const SpecNode root = SpecNode::load_string("w: " + value + "\n", "w.yaml");
        return read_width_bits(MapReader(root).required("w"));
    };
    EXPECT_EQ(width("16"), 16);
    EXPECT_EQ(width("65536"), 65536);
    EXPECT_TRUE(contains(expect_spec_error([&] { width("65537"); }).message(), "out of range"));
    EXPECT_TRUE(contains(expect_spec_error([&] { width("0"); }).message(), "non-positive"));
    EXPECT_TRUE(contains(expect_spec_error([&] { width("1.5"); }).message(), "not an integer"));
}

}  // namespace
}  // namespace trainloop
