#include <gtest/gtest.h>

#include "common/did_you_mean.hpp"

namespace trainloop {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsSubstitutionsAndTranspositions) {
    EXPECT_EQ(edit_distance("capacity", "capacity"), 0u);
    EXPECT_EQ(edit_distance("capcity", "capacity"), 1u);
    EXPECT_EQ(edit_distance("capacitty", "capacity"), 1u);
    EXPECT_EQ(edit_distance("cpaacity", "capacity"), 1u);
    EXPECT_EQ(edit_distance("", "abc"), 3u);
}

TEST(NearestName, SuggestsTheClosePlausibleTypo) {
    const std::vector<std::string> keys = {"name", "capacity", "class", "word_bits"};
    EXPECT_EQ(nearest_name("capcity", keys), "capacity");
    EXPECT_EQ(nearest_name("clas", keys), "class");
    EXPECT_EQ(nearest_name("zebra", keys), std::nullopt);
    EXPECT_EQ(nearest_name("x", {"y"}), std::nullopt) << "one edit on a 1-letter word is no typo";
}

TEST(SuggestionHint, ListsValidNamesWhenNothingIsClose) {
    EXPECT_EQ(suggestion_hint("capcity", {"capacity"}), "did you mean `capacity`?");
    EXPECT_EQ(suggestion_hint("zzz", {"fw", "bw"}), "valid: fw, bw");
}

}  // namespace
}  // namespace trainloop
