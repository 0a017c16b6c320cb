// TimeloopSpec: what trainloop reads from the files timeloop-model takes
// (architecture v0.3 subtree/local tree, CNN-layer problem with its instance,
// mapping, ERT and ART), merged by top-level key as Timeloop merges them.
// Plain values; reading and checking live in timeloop_reader.cpp, the
// conversion to trainloop's own specs in timeloop_import.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/spec_error.hpp"
#include "common/spec_node.hpp"
#include "vocabulary/dims.hpp"

namespace trainloop {

// A storage level of the architecture tree (a `local` with a depth, or DRAM).
struct TimeloopStorage {
    std::string name;  // the local's name without its [a..b] range
    std::string klass;
    std::optional<std::int64_t> depth;  // rows of `width` bits; none for DRAM
    std::int64_t width = 0;             // bits per access (a vector of block_size words)
    std::int64_t datawidth = 0;         // bits per word
    std::int64_t instances = 1;
    std::optional<std::int64_t> mesh_x;
    std::optional<double> read_bandwidth;   // words/cycle
    std::optional<double> write_bandwidth;  // words/cycle
    std::string ert_name;                   // e.g. system.chip.PE[0..255].RegFile
    SourceLocation location;

    std::int64_t block_size() const { return width / datawidth; }
};

struct TimeloopArithmetic {
    std::string name;
    std::string klass;
    std::int64_t datawidth = 0;
    std::int64_t instances = 1;
    std::optional<std::int64_t> mesh_x;
    std::string ert_name;
    SourceLocation location;
};

struct TimeloopArchitecture {
    std::vector<TimeloopStorage> storage;  // outermost first
    TimeloopArithmetic arithmetic;
};

// The standard CNN-layer problem. Timeloop's W-coefficients pair R with P,
// its H-coefficients S with Q.
struct TimeloopProblem {
    DimBounds bounds;  // N K C P Q R S (G = 1)
    std::int64_t wstride = 1, hstride = 1, wdilation = 1, hdilation = 1;
    SourceLocation location;
};

enum class TimeloopDataSpace : std::uint8_t { weights, inputs, outputs };

struct TimeloopMappingEntry {
    enum class Type : std::uint8_t { temporal, spatial, datatype };
    std::string target;
    Type type = Type::temporal;
    PerDim<std::int64_t> factors{};         // 0 = not given (means 1)
    std::vector<Dim> permutation;           // innermost first, as written
    std::optional<std::int64_t> split;      // spatial: how many go to X
    std::vector<TimeloopDataSpace> keep;    // datatype
    std::vector<TimeloopDataSpace> bypass;  // datatype
    SourceLocation location;
};

struct TimeloopActionEnergies {
    std::optional<double> read, write, update, leak, compute;  // pJ per (vector) action
};

struct TimeloopSpec {
    std::vector<std::string> files;
    TimeloopArchitecture arch;
    TimeloopProblem problem;
    std::vector<TimeloopMappingEntry> mapping;
    std::map<std::string, TimeloopActionEnergies> ert;  // by full component name
    std::map<std::string, double> art;                  // µm² by full component name
    // What was read but has no effect on trainloop's model (e.g. `mapper:`,
    // Accelergy-only attributes), said out loud rather than dropped silently.
    std::vector<std::string> notes;
};

// Reads and merges the files; every unsupported feature is a SpecError
// naming the file, line and key (never silently ignored).
TimeloopSpec read_timeloop_spec(const std::vector<std::string>& files);
// The same, for documents already parsed (each names its file).
TimeloopSpec read_timeloop_documents(const std::vector<SpecNode>& roots);

}  // namespace trainloop
