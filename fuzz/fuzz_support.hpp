// What every fuzz target shares: where the shipped data is (seed specs
// resolve their component library there), a shipped architecture to read
// mappings against, and the rule for errors. A SpecError is the expected
// answer to bad input; it must stay short (no echo of the input). Anything
// else escaping a reader — another exception, a crash, a sanitizer report,
// a hang — is a finding.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "arch/architecture_parser.hpp"
#include "common/spec_error.hpp"

namespace trainloop::fuzz {

inline std::string source_path(std::string_view relative) {
    return std::string(TRAINLOOP_SOURCE_DIR) + "/" + std::string(relative);
}

inline const Architecture& shipped_architecture() {
    static const Architecture arch =
        load_architecture(source_path("arch_specs/procrustes_sparse_16x16.yaml"));
    return arch;
}

// Runs `read`; a SpecError is fine when its message is bounded.
template <typename Read>
void expect_spec_errors_only(Read&& read) {
    try {
        read();
    } catch (const SpecError& e) {
        const std::string_view what = e.what();
        if (what.size() > 4096) {
            std::fprintf(stderr, "a SpecError of %zu bytes (an echo of the input?)\n", what.size());
            std::abort();
        }
    }
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

}  // namespace trainloop::fuzz
