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

#include "common/spec_error.hpp"
#include "constraints/architecture_spec.hpp"

namespace trainloop::fuzz {

inline std::string source_path(std::string_view relative) {
    return std::string(TRAINLOOP_SOURCE_DIR) + "/" + std::string(relative);
}

inline const ArchitectureSpec& shipped_architecture_spec() {
    static const ArchitectureSpec spec =
        load_architecture_spec(source_path("arch_specs/procrustes_sparse_16x16.yaml"));
    return spec;
}

inline const Architecture& shipped_architecture() { return shipped_architecture_spec().arch; }

// Runs `read`; a SpecError is fine when it locates rather than quotes.
template <typename Read>
void expect_spec_errors_only(Read&& read) {
    try {
        read();
    } catch (const SpecError& e) {
        // Errors show bounded parts anyway (spec_error.hpp); a reader that
        // passes more than that quotes its input instead of locating it.
        if (e.message().size() > kShownMessage || e.key_path().size() > kShownKeyPath) {
            std::fprintf(stderr,
                         "a SpecError with a %zu-byte message and a %zu-byte key (an echo of the "
                         "input?)\n",
                         e.message().size(), e.key_path().size());
            std::fprintf(stderr, "key: %s\nmessage: %s\n", bounded(e.key_path(), 400).c_str(),
                         bounded(e.message(), 400).c_str());
            std::abort();
        }
    }
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

}  // namespace trainloop::fuzz
