// Helpers for the architecture tests: an inline architecture whose line
// numbers the error tests rely on, and a checker for located SpecErrors.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "arch/architecture_parser.hpp"
#include "common/spec_error.hpp"
#include "common/spec_node.hpp"

namespace trainloop::arch_test {

// Inline specs are named as if they sat in arch_specs/, so that their
// relative `component_library` path finds the shipped library.
inline const std::string kInlineFile = TRAINLOOP_SOURCE_DIR "/arch_specs/inline_test.yaml";

// Line numbers matter: the error tests point at them.
inline const std::string kTinyArch = R"(architecture: tiny
component_library: components/default_45nm.yaml
pe_array:
  rows: 4
  columns: 4
  datatype: fp32
storage:
  - name: DRAM
    class: dram
    capacity: unbounded
    data_spaces: [weights, inputs, outputs]
  - name: GLB
    class: sram
    capacity: 64 KB
    data_spaces: [weights, inputs, outputs]
  - name: RF
    class: regfile
    capacity: 512 B
    data_spaces: [weights, inputs, outputs]
    per_pe: true
networks:
  - name: bcast
    axis: x
    kind: broadcast
    parent: GLB
    child: RF
)";

// kTinyArch with the first occurrence of `from` replaced by `to`.
inline std::string tiny_with(const std::string& from, const std::string& to) {
    std::string text = kTinyArch;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << "test bug: `" << from << "` not in kTinyArch";
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

inline Architecture parse_inline(const std::string& text) {
    return parse_architecture(SpecNode::load_string(text, kInlineFile));
}

// Runs `body`, which must throw a SpecError, and returns it.
inline SpecError expect_spec_error(const std::function<void()>& body) {
    try {
        body();
    } catch (const SpecError& e) {
        return e;
    }
    ADD_FAILURE() << "expected a SpecError, none was thrown";
    return SpecError({}, "", "no error");
}

// Checks where the error points and that its text mentions `needle`.
inline void expect_located(const SpecError& e, const std::string& file, int line,
                           const std::string& key_path, const std::string& needle) {
    EXPECT_EQ(e.where().file, file) << e.what();
    EXPECT_EQ(e.where().line, line) << e.what();
    EXPECT_EQ(e.key_path(), key_path) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << "expected `" << needle << "` in:\n"
        << e.what();
}

}  // namespace trainloop::arch_test
