// What the YAML layer refuses for every spec kind at once: a key twice in one
// mapping, bytes that are not UTF-8, an alias bomb, counts past 2^53; and how
// it quotes values (one line at most) and blames a file another one names.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/spec_node.hpp"
#include "support/spec_error_matchers.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::expect_spec_error;

TEST(SpecDocuments, AKeyGivenTwiceInOneMappingIsRefusedAtTheSecond) {
    const SpecError e = expect_spec_error(
        [] { SpecNode::load_string("a: 1\nb:\n  c: 2\n  d: 3\n  c: 4\n", "dup.yaml"); });
    EXPECT_EQ(e.where().file, "dup.yaml");
    EXPECT_EQ(e.where().line, 5);
    EXPECT_EQ(e.key_path(), "b.c");
    EXPECT_TRUE(contains(e.message(), "given twice in one mapping (first at line 3)"));
    // In a flow mapping inside a list, too.
    const SpecError flow =
        expect_spec_error([] { SpecNode::load_string("l:\n  - {x: 1, x: 2}\n", "flow.yaml"); });
    EXPECT_EQ(flow.where().line, 2);
    EXPECT_EQ(flow.key_path(), "l[0].x");
}

TEST(SpecDocuments, BytesThatAreNotUtf8AreRefusedAtTheirLineAndColumn) {
    const SpecError e = expect_spec_error(
        [] { SpecNode::load_string("name: ok\nother: caf\xe9\n", "latin1.yaml"); });
    EXPECT_EQ(e.where().line, 2);
    EXPECT_EQ(e.where().column, 11);
    EXPECT_TRUE(contains(e.message(), "0xe9 is not UTF-8"));
    // Overlong forms and surrogates are not UTF-8 either; real UTF-8 is fine.
    expect_spec_error([] { SpecNode::load_string("a: \xc0\xaf\n", "overlong.yaml"); });
    expect_spec_error([] { SpecNode::load_string("a: \xed\xa0\x80\n", "surrogate.yaml"); });
    EXPECT_EQ(SpecNode::load_string("a: µJ × 2 — ok\n", "utf8.yaml").raw()["a"].Scalar(),
              "µJ × 2 — ok");
    // Control characters YAML does not allow (NUL, escape) are refused too,
    // even inside a comment, where yaml-cpp would ignore them.
    const SpecError nul = expect_spec_error(
        [] { SpecNode::load_string(std::string("# a\0comment\na: 1\n", 17), "nul.yaml"); });
    EXPECT_EQ(nul.where().line, 1);
    EXPECT_TRUE(contains(nul.message(), "control character 0x00"));
    expect_spec_error([] { SpecNode::load_string("a: \x1b[31mred\n", "escape.yaml"); });
}

TEST(SpecDocuments, AliasesThatExpandBeyondTenMillionValuesAreRefused) {
    std::string text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
    const std::string names = "abcdefgh";
    for (std::size_t i = 0; i + 1 < names.size(); ++i) {
        const char p = names[i];
        const char c = names[i + 1];
        text += fmt::format("{}: &{} [*{}, *{}, *{}, *{}, *{}, *{}, *{}, *{}, *{}, *{}]\n", c, c, p,
                            p, p, p, p, p, p, p, p, p);
    }
    const SpecError e = expect_spec_error([&] { SpecNode::load_string(text, "bomb.yaml"); });
    EXPECT_TRUE(contains(e.message(), "expands to more than"));
    // A few aliases are fine.
    EXPECT_TRUE(SpecNode::load_string("a: &x [1, 2]\nb: *x\n", "ok.yaml").is_map());
}

TEST(SpecDocuments, CountsPastTwoToThe53AndOutsideInt64AreLocatedErrors) {
    const SpecNode root = SpecNode::load_string(
        "a: 9007199254740993\nb: 99999999999999999999\nc: 9007199254740992\n", "counts.yaml");
    MapReader r(root);
    const SpecError a = expect_spec_error([&] { r.required("a").as_positive_int(); });
    EXPECT_EQ(a.where().line, 1);
    EXPECT_TRUE(contains(a.message(), "more than 2^53"));
    const SpecError b = expect_spec_error([&] { r.required("b").as_int(); });
    EXPECT_EQ(b.where().line, 2);
    EXPECT_TRUE(contains(b.message(), "outside the 64-bit integer range"));
    EXPECT_EQ(r.required("c").as_positive_int(), std::int64_t{1} << 53);
}

// An optional key left empty is reported at its own line, not at the next
// token (which yaml-cpp gives an empty value as its place).
TEST(SpecDocuments, AnEmptyOptionalValueIsReportedAtItsKey) {
    const SpecNode root = SpecNode::load_string("a: 1\nb:\nc: \nlist:\n  - x\nd:\n", "empty.yaml");
    MapReader r(root);
    for (const auto& [key, line] : {std::pair{"b", 2}, {"c", 3}, {"d", 6}}) {
        const SpecError e = expect_spec_error([&] { r.optional(key)->as_bool(); });
        EXPECT_EQ(e.where().line, line) << key;
        EXPECT_EQ(e.key_path(), key);
    }
}

TEST(SpecDocuments, ValuesAreQuotedOneLineAtMost) {
    EXPECT_EQ(quoted_excerpt("short"), "short");
    EXPECT_EQ(quoted_excerpt("first line\nsecond line"), "first line…");
    EXPECT_EQ(quoted_excerpt(std::string(100, 'x')), std::string(60, 'x') + "…");
    // A file that is not YAML but parses as one long scalar is not echoed.
    const SpecNode root = SpecNode::load_string("root:x:0:0\nuser:x:1000:1000\n", "passwd");
    const SpecError e = expect_spec_error([&] { MapReader{root}; });
    EXPECT_FALSE(contains(e.what(), "user:x"));
}

TEST(SpecDocuments, KeysAreQuotedOneLineAtMost) {
    // A key that is a paragraph (a quoted scalar across lines) is named by its
    // first line, in the message and in the key path below it.
    // (A long or multi-line key must be an explicit one, `? key`.)
    const std::string paragraph = "? \"first\n\n" + std::string(5000, 'k') + "\"\n";
    const SpecNode root = SpecNode::load_string("known: 1\n" + paragraph + ": 2\n", "keys.yaml");
    const SpecError unknown = expect_spec_error([&] {
        MapReader reader{root};
        reader.required("known");
        reader.finish();
    });
    EXPECT_TRUE(contains(unknown.message(), "unknown key `first"));
    EXPECT_LT(unknown.message().size(), 200U);
    const SpecNode nested = SpecNode::load_string(paragraph + ":\n  x: oops\n", "nested.yaml");
    const SpecError deep = expect_spec_error([&] {
        MapReader outer{nested};
        MapReader inner{outer.required(nested.raw().begin()->first.Scalar())};
        (void)inner.required("x").as_positive_int();
    });
    EXPECT_LT(deep.key_path().size(), 100U);
}

TEST(SpecDocuments, ErrorsInAReferencedFileAreReportedAtTheReference) {
    const SpecNode root = SpecNode::load_string("library: other.yaml\n", "main.yaml");
    const SpecNode reference = MapReader(root).required("library");
    const SpecError e = expect_spec_error([&] {
        load_referenced(reference, "component library",
                        [] { return SpecNode::load_string("just text\n", "other.yaml").as_int(); });
    });
    EXPECT_EQ(e.where().file, "main.yaml");
    EXPECT_EQ(e.where().line, 1);
    EXPECT_EQ(e.key_path(), "library");
    EXPECT_TRUE(contains(e.message(), "component library other.yaml:1:1"));
}

}  // namespace
}  // namespace trainloop
