// Names are checked at the edge, in one place: a name holds letters,
// digits, `_`, `-` and `.` only (common/names.hpp), whatever spec gives it.
#include <gtest/gtest.h>

#include <string>

#include "common/names.hpp"
#include "common/spec_reading.hpp"
#include "support/spec_error_matchers.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::expect_spec_error;

TEST(Names, ShippedKindsOfNamesAreAccepted) {
    for (const char* name : {"resnet18", "layer2.0.conv2", "procrustes_baseline_16x16", "CNN-Layer",
                             "_private", "0", "GLB", "fc.stage1"}) {
        EXPECT_FALSE(name_problem(name)) << name << ": " << *name_problem(name);
    }
    EXPECT_FALSE(name_problem(std::string(kMaxNameBytes, 'a')));
}

TEST(Names, EveryOtherCharacterIsRefusedAndShownSafely) {
    const auto problem = [](std::string_view name) { return name_problem(name).value_or(""); };
    EXPECT_EQ(problem(""), "empty name");
    EXPECT_TRUE(contains(problem("a/b"), "holds `/`"));
    EXPECT_TRUE(contains(problem(".."), "begins with `.`"));
    EXPECT_TRUE(contains(problem("a..b"), "holds `..`"));
    EXPECT_TRUE(contains(problem(".hidden"), "begins with `.`"));
    EXPECT_TRUE(contains(problem("-rf"), "begins with `-`"));
    EXPECT_TRUE(contains(problem("a b"), "holds a space"));
    // Control characters and a right-to-left override are named by code
    // point, and the name is quoted without them.
    const std::string newline = problem("conv\n1");
    EXPECT_TRUE(contains(newline, "U+000A")) << newline;
    EXPECT_TRUE(contains(newline, "`conv<U+000A>1`")) << newline;
    EXPECT_EQ(newline.find('\n'), std::string::npos);
    const std::string rlo = problem("fc\u202Egnp.exe");
    EXPECT_TRUE(contains(rlo, "U+202E")) << rlo;
    EXPECT_EQ(rlo.find("\u202E"), std::string::npos);
    EXPECT_TRUE(contains(problem("caf\u00e9"), "U+00E9"));
    EXPECT_TRUE(contains(problem("\xff"), "0xFF"));
    EXPECT_TRUE(contains(problem(std::string(kMaxNameBytes + 1, 'a')), "more than 128"));
}

TEST(Names, ReadNameIsLocatedAtTheKey) {
    const SpecNode root = SpecNode::load_string("network: \"net/../x\"\n", "net.yaml");
    const SpecError e =
        expect_spec_error([&] { spec_reading::read_name(MapReader(root).required("network")); });
    EXPECT_EQ(e.where().file, "net.yaml");
    EXPECT_EQ(e.where().line, 1);
    EXPECT_EQ(e.key_path(), "network");
    EXPECT_TRUE(contains(e.message(), "holds `/`"));
    EXPECT_TRUE(contains(e.expected(), "ASCII letters, digits"));
}

}  // namespace
}  // namespace trainloop
