// A shipped architecture spec with one assumption changed, written to a test
// temp file: for tests of the reproductions' assumption rows (a paper that
// gives no off-chip bandwidth, docs/reproductions/).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "common/file_text.hpp"
#include "support/run_binary.hpp"

namespace trainloop::testing {

// How a DRAM limit applies: to reads and to writes each, or to both together
// on one bus (`shared_bandwidth`, as a DDR interface).
enum class DramBus { each_way, shared };

// arch_specs/`arch`.yaml with its DRAM level limited to `words` words per
// cycle (scripts/reproduction_support.py's arch_with_dram_bandwidth), its
// component library named by its absolute path; returns the file's path
// (empty, with a test failure, when the spec has no DRAM level to limit).
inline std::string shipped_spec_with_dram_bandwidth(const std::string& arch, std::int64_t words,
                                                    DramBus bus = DramBus::each_way) {
    const std::string source = std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/";
    std::string spec = read_file_text(source + arch + ".yaml");
    const std::size_t dram = spec.find("  - name: DRAM\n");
    const std::size_t word_bits = spec.find("    word_bits:", dram);
    const std::string library = "component_library: components/";
    const std::size_t at_library = spec.find(library);
    EXPECT_NE(dram, std::string::npos) << arch << " has no DRAM level";
    EXPECT_NE(word_bits, std::string::npos) << arch << "'s DRAM states no word_bits";
    EXPECT_NE(at_library, std::string::npos) << arch << " names no shipped component library";
    if (dram == std::string::npos || word_bits == std::string::npos ||
        at_library == std::string::npos)
        return {};
    // The bandwidth after the DRAM's word_bits first: the library's line comes earlier, so
    // changing it does not move the insertion point.
    const std::string limit = std::to_string(words);
    spec.insert(spec.find('\n', word_bits) + 1,
                bus == DramBus::shared
                    ? "    shared_bandwidth: " + limit + "\n"
                    : "    read_bandwidth: " + limit + "\n    write_bandwidth: " + limit + "\n");
    spec.replace(at_library, library.size(), "component_library: " + source + "components/");
    return temp_file(arch + "_dram" + limit + (bus == DramBus::shared ? "shared" : "") + ".yaml",
                     spec);
}

// arch_specs/`arch`.yaml with the first `from` replaced by `to`, its component
// library named by its absolute path; returns the file's path (empty, with a
// test failure, when `from` is not in the spec).
inline std::string shipped_spec_edited(const std::string& arch, const std::string& from,
                                       const std::string& to, const std::string& tag) {
    const std::string source = std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/";
    std::string spec = read_file_text(source + arch + ".yaml");
    const std::size_t at = spec.find(from);
    const std::string library = "component_library: components/";
    const std::size_t at_library = spec.find(library);
    EXPECT_NE(at, std::string::npos) << arch << " has no `" << from << "`";
    EXPECT_NE(at_library, std::string::npos) << arch << " names no shipped component library";
    if (at == std::string::npos || at_library == std::string::npos) return {};
    spec.replace(at, from.size(), to);
    spec.replace(spec.find(library), library.size(),
                 "component_library: " + source + "components/");
    return temp_file(arch + "_" + tag + ".yaml", spec);
}

}  // namespace trainloop::testing
