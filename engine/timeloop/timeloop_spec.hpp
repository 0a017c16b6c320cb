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
#include "vocabulary/phase.hpp"

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
    std::optional<double> read_bandwidth;    // words/cycle
    std::optional<double> write_bandwidth;   // words/cycle
    std::optional<double> shared_bandwidth;  // words/cycle, reads + writes together
    // Sparseloop's separate metadata storage: metadata_storage_depth rows of
    // metadata_storage_width bits (none: metadata shares the data storage).
    std::optional<std::int64_t> metadata_bits;
    // `metadata_datawidth`: Sparseloop's width of a metadata or payload unit
    // of the formats kept here (a bitmask's bits excepted).
    std::optional<std::int64_t> metadata_word_bits;
    std::string ert_name;  // e.g. system.chip.PE[0..255].RegFile
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

// Timeloop's CNN-layer data spaces, in trainloop's DataSpace order.
enum class TimeloopDataSpace : std::uint8_t { weights, inputs, outputs };
static_assert(std::uint8_t(DataSpace::weights) == 0 && std::uint8_t(DataSpace::inputs) == 1 &&
              std::uint8_t(DataSpace::outputs) == 2);

constexpr DataSpace to_data_space(TimeloopDataSpace s) { return static_cast<DataSpace>(s); }

// Timeloop's data-space names, indexed by TimeloopDataSpace (or DataSpace).
inline const std::array<std::string, 3> kTimeloopSpaceNames = {"Weights", "Inputs", "Outputs"};

// A data space's density in the problem instance (`densities:`, Sparseloop):
// a bare number is Timeloop's `fixed-structured` distribution.
struct TimeloopDensity {
    double density = 1.0;
    std::string distribution = "fixed-structured";
    SourceLocation location;
};

// The standard CNN-layer problem. Timeloop's W-coefficients pair R with P,
// its H-coefficients S with Q.
struct TimeloopProblem {
    DimBounds bounds;  // N K C P Q R S, and G for the grouped shape (else 1)
    std::int64_t wstride = 1, hstride = 1, wdilation = 1, hdilation = 1;
    // Sparseloop's `densities:` (or `commonDensity:`) by TimeloopDataSpace;
    // absent = dense.
    std::array<std::optional<TimeloopDensity>, 3> densities;
    SourceLocation location;
};

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

// One component's ERT table: pJ per (vector) action by action name. An
// action listed several times (once per argument value) keeps its highest
// energy, as timeloop-model does.
struct TimeloopActionEnergies {
    std::map<std::string, double> actions;

    // Timeloop's price for one of its operations: the first of `names` the
    // table has, else the table's most expensive action (timeloop-model's
    // fallback for reads, fills and updates; 0 for other operations).
    double price(std::initializer_list<const char*> names, bool fall_back_to_max) const;
};

// timeloop-model v3.0.3's ERT action names for each operation, first match
// wins (include/model/topology.hpp): an ERT `update` entry is never used,
// updates are priced as `random_update`, `random_fill` or `write`.
inline constexpr std::initializer_list<const char*> kErtRead = {"random_read", "read"};
inline constexpr std::initializer_list<const char*> kErtFill = {"random_fill", "write"};
inline constexpr std::initializer_list<const char*> kErtUpdate = {"random_update", "random_fill",
                                                                  "write"};
inline constexpr std::initializer_list<const char*> kErtCompute = {"mac_random", "mult_random",
                                                                   "mac", "mult", "compute"};

// Sparseloop's `sparse_optimizations:` (Timeloop v3.0.3,
// src/model/sparse-optimization-parser.cpp), per target component.
// A data space's representation format at a storage level: its ranks' format
// names (UOP, UB, CP, B, RLE; upper-case), the top rank first, as written.
// A rank's stated field widths (`metadata-word-bits`, `payload-word-bits`),
// where given: a CP rank's metadata is its coordinates, a UOP rank's payload
// its offsets.
struct TimeloopRankWidths {
    std::optional<std::int64_t> metadata_bits;
    std::optional<std::int64_t> payload_bits;
    SourceLocation metadata_location;
    SourceLocation payload_location;
};

struct TimeloopRepresentation {
    std::string level;
    TimeloopDataSpace space = TimeloopDataSpace::weights;
    std::vector<std::string> ranks;
    std::vector<TimeloopRankWidths> widths;  // one per rank
    SourceLocation location;
};

// One `action-optimization` option at a storage level: accesses to `target`
// skipped or gated when a `condition-on` data space is zero.
struct TimeloopActionOptimization {
    enum class Kind : std::uint8_t { skipping, gating };
    std::string level;
    Kind kind = Kind::skipping;
    TimeloopDataSpace target = TimeloopDataSpace::weights;
    std::vector<TimeloopDataSpace> condition_on;
    SourceLocation location;
};

// The arithmetic component's `compute-optimization`: gate a MAC on a zero
// operand (`gating`, `gate-on-zero-operand`) and/or skip it when an operand is
// not there (`skipping`, `skip_on_not_aligned_operands`).
struct TimeloopComputeOptimization {
    bool gating = false;
    bool skipping = false;
    SourceLocation location;
};

struct TimeloopSparseOptimizations {
    std::vector<TimeloopRepresentation> formats;
    std::vector<TimeloopActionOptimization> actions;
    std::optional<TimeloopComputeOptimization> compute;

    bool empty() const { return formats.empty() && actions.empty() && !compute; }
};

struct TimeloopSpec {
    std::vector<std::string> files;
    TimeloopArchitecture arch;
    TimeloopProblem problem;
    std::vector<TimeloopMappingEntry> mapping;
    std::map<std::string, TimeloopActionEnergies> ert;  // by full component name
    std::map<std::string, double> art;                  // µm² by full component name
    // v0.4 components' `constraints: dataspace:` keep/bypass, as datatype
    // entries: a level's keep set where the mapping has no datatype entry.
    std::vector<TimeloopMappingEntry> dataspace_constraints;
    TimeloopSparseOptimizations sparse;
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
