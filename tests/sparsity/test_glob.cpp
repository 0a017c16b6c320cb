#include <gtest/gtest.h>

#include "density/glob.hpp"

namespace trainloop {
namespace {

TEST(GlobMatch, StarMatchesAnyRunAndQuestionMarkOneCharacter) {
    EXPECT_TRUE(glob_match("*", ""));
    EXPECT_TRUE(glob_match("*", "layer1.conv2"));
    EXPECT_TRUE(glob_match("layer?.conv*", "layer3.conv12"));
    EXPECT_TRUE(glob_match("*conv*", "conv"));
    EXPECT_TRUE(glob_match("a*b*c", "aXbYbZc"));
    EXPECT_FALSE(glob_match("layer?.conv*", "layer12.conv1")) << "? is exactly one character";
    EXPECT_FALSE(glob_match("conv", "conv1")) << "a pattern covers the whole name";
    EXPECT_FALSE(glob_match("Conv1", "conv1")) << "matching is case-sensitive";
    EXPECT_FALSE(glob_match("a*b", "aXbY"));
}

TEST(GlobProblem, RejectsEmptyPatternsAndUnsupportedSyntax) {
    EXPECT_EQ(glob_problem("layer*.conv?"), std::nullopt);
    EXPECT_TRUE(glob_problem("").has_value());
    EXPECT_TRUE(glob_problem("conv[12]").has_value());
    EXPECT_TRUE(glob_problem("{conv1,fc}").has_value());
    EXPECT_TRUE(glob_problem("!fc").has_value());
}

}  // namespace
}  // namespace trainloop
