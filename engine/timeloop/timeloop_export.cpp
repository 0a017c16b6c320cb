#include "timeloop/timeloop_export.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "arch/arch_model.hpp"
#include "common/yaml_text.hpp"
#include "nest/padding.hpp"
#include "timeloop/timeloop_import.hpp"

namespace trainloop {
namespace {

// The CNN-Layer dimensions in the order Timeloop's files list them.
constexpr std::array<Dim, 7> kTimeloopDims = {Dim::C, Dim::K, Dim::R, Dim::S,
                                              Dim::N, Dim::P, Dim::Q};

bool timeloop_name(const std::string& name) {
    return !name.empty() && !std::isdigit(static_cast<unsigned char>(name.front())) &&
           std::all_of(name.begin(), name.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
           });
}

// ---- checks ---------------------------------------------------------------

void check_exportable(const Architecture& arch, const PhaseProblem& problem, const Mapping& mapping,
                      const SourceLocation& origin) {
    if (!conv_window(problem.space.shape)) {
        throw SpecError(origin, "problem",
                        fmt::format("layer `{}` is no convolution ({}): the export writes "
                                    "Timeloop's CNN-Layer problem",
                                    problem.layer, to_string(problem.space)),
                        "a layer of the conv family (conv, fc, matmul, lstm)", "");
    }
    const std::int64_t groups = problem.space.bounds[Dim::G];
    if (groups > 1) {
        throw SpecError(origin, "problem",
                        fmt::format("layer `{}` is a grouped convolution (G = {}): Timeloop's "
                                    "CNN-Layer problem has no groups dimension",
                                    problem.layer, groups),
                        "a layer with G = 1",
                        "cross-check one group as an ungrouped layer of C/G input and K/G output "
                        "channels");
    }
    const std::int64_t pes = arch.pe_array.num_pes();
    bool has_per_pe = false;
    for (const StorageLevel& level : arch.levels) {
        if (!timeloop_name(level.name)) {
            throw SpecError(
                origin, "arch",
                fmt::format("level name `{}` cannot be a Timeloop component name", level.name),
                "names of letters, digits, `_` and `-`, not starting with a digit");
        }
        if (level.instances != 1 && level.instances != pes) {
            throw SpecError(
                origin, "arch",
                fmt::format("level `{}` has {} instances, each shared by a group of PEs: trainloop "
                            "lays such instances out itself, which Timeloop's tree does not say",
                            level.name, level.instances),
                "levels with one instance, or one instance per PE");
        }
        has_per_pe = has_per_pe || (pes > 1 && level.instances == pes);
    }
    if (pes > 1 && !has_per_pe) {
        throw SpecError(origin, "arch",
                        fmt::format("`{}` has {} PEs but no per-PE storage level: Timeloop's "
                                    "tree would read its MACs back as one PE",
                                    arch.name, pes),
                        "a per-PE level (e.g. a register file) above the MACs");
    }
    for (std::size_t i = 0; i < mapping.num_levels; ++i) {
        const LevelMapping& lm = mapping.level(i);
        for (const Loop& x : lm.spatial_x) {
            if (x.factor > 1 && lm.spatial_y.factor_of(x.dim) > 1) {
                throw SpecError(origin, "mapping",
                                fmt::format("level `{}` spreads {} over both array axes: a "
                                            "Timeloop spatial entry has one factor per dimension",
                                            arch.levels[i].name, dim_name(x.dim)),
                                "each dimension on one axis (spatial_x or spatial_y) per level");
            }
        }
    }
    if (const auto padded = padded_extents(problem.space, mapping); !padded.empty()) {
        const auto& [d, extent] = padded.front();
        throw SpecError(origin, "mapping",
                        fmt::format("the mapping pads {} = {} to {} (imperfect factors): a "
                                    "timeloop-model mapping's factors multiply to each "
                                    "dimension's size",
                                    dim_name(d), problem.space.bounds[d], extent),
                        "a mapping with perfect factors (map without --imperfect-factors)");
    }
}

// ---- map.yaml ------------------------------------------------------------

std::string factors_text(const PerDim<std::int64_t>& factors) {
    std::vector<std::string> parts;
    for (Dim d : kTimeloopDims) parts.push_back(fmt::format("{}{}", dim_name(d), factors[d]));
    return fmt::format("{}", fmt::join(parts, " "));
}

// `first` (dimensions in order), then every other CNN dimension.
std::string permutation_text(const std::vector<Dim>& first) {
    std::string out;
    for (Dim d : first) out += dim_name(d);
    for (Dim d : kTimeloopDims) {
        if (std::find(first.begin(), first.end(), d) == first.end()) out += dim_name(d);
    }
    return out;
}

std::string map_yaml(const Architecture& arch, const Mapping& mapping) {
    std::string out =
        "# Permutations list loops innermost first; in a spatial entry the first `split`\n"
        "# dimensions go to meshX (the array's columns), the rest to meshY.\n"
        "mapping:\n";
    for (std::size_t i = 0; i < mapping.num_levels; ++i) {
        const LevelMapping& lm = mapping.level(i);
        const std::string target = yaml_scalar(arch.levels[i].name);
        PerDim<std::int64_t> factors;
        for (Dim d : kTimeloopDims) factors[d] = lm.temporal.factor_of(d);
        std::vector<Dim> order;  // innermost first
        for (auto it = lm.temporal.end(); it != lm.temporal.begin();) {
            --it;
            if (it->factor > 1) order.push_back(it->dim);
        }
        out += fmt::format("- target: {}\n  type: temporal\n  factors: {}\n  permutation: {}\n",
                           target, factors_text(factors), permutation_text(order));
        std::vector<Dim> x, y;
        for (const Loop& l : lm.spatial_x) {
            if (l.factor > 1) x.push_back(l.dim);
        }
        for (const Loop& l : lm.spatial_y) {
            if (l.factor > 1) y.push_back(l.dim);
        }
        if (!x.empty() || !y.empty()) {
            for (Dim d : kTimeloopDims)
                factors[d] = lm.spatial_x.factor_of(d) * lm.spatial_y.factor_of(d);
            std::vector<Dim> spatial = x;
            spatial.insert(spatial.end(), y.begin(), y.end());
            out += fmt::format(
                "- target: {}\n  type: spatial\n  factors: {}\n  permutation: {}\n  split: {}\n",
                target, factors_text(factors), permutation_text(spatial), x.size());
        }
        if (lm.keep != DataSpaceSet::all()) {
            std::vector<std::string> keep, bypass;
            for (DataSpace s : kAllDataSpaces) {
                (lm.keep.contains(s) ? keep : bypass)
                    .push_back(kTimeloopSpaceNames[std::size_t(s)]);
            }
            out += fmt::format("- target: {}\n  type: datatype\n", target);
            if (!keep.empty()) out += fmt::format("  keep: [{}]\n", fmt::join(keep, ", "));
            out += fmt::format("  bypass: [{}]\n", fmt::join(bypass, ", "));
        }
    }
    return out;
}

// ---- problem.yaml ----------------------------------------------------------

std::string problem_yaml(const PhaseProblem& problem) {
    const IterationSpace& s = problem.space;
    std::string out =
        "# Timeloop's W-stride/dilation pair P with R (trainloop's h), its H-stride/dilation\n"
        "# Q with S (trainloop's w).\n";
    out +=
        "problem:\n"
        "  shape:\n"
        "    name: CNN-Layer\n"
        "    dimensions: [ C, K, R, S, N, P, Q ]\n"
        "    coefficients:\n"
        "    - {name: Wstride, default: 1}\n"
        "    - {name: Hstride, default: 1}\n"
        "    - {name: Wdilation, default: 1}\n"
        "    - {name: Hdilation, default: 1}\n"
        "    data-spaces:\n"
        "    - name: Weights\n"
        "      projection:\n"
        "      - [ [C] ]\n"
        "      - [ [K] ]\n"
        "      - [ [R] ]\n"
        "      - [ [S] ]\n"
        "    - name: Inputs\n"
        "      projection:\n"
        "      - [ [N] ]\n"
        "      - [ [C] ]\n"
        "      - [ [R, Wdilation], [P, Wstride] ]\n"
        "      - [ [S, Hdilation], [Q, Hstride] ]\n"
        "    - name: Outputs\n"
        "      projection:\n"
        "      - [ [N] ]\n"
        "      - [ [K] ]\n"
        "      - [ [Q] ]\n"
        "      - [ [P] ]\n"
        "      read-write: True\n"
        "  instance:\n";
    for (Dim d : kTimeloopDims) out += fmt::format("    {}: {}\n", dim_name(d), s.bounds[d]);
    const ConvWindow window = *conv_window(s.shape);  // check_exportable
    out += fmt::format("    Wstride: {}\n    Hstride: {}\n    Wdilation: {}\n    Hdilation: {}\n",
                       window.stride.h, window.stride.w, window.dilation.h, window.dilation.w);
    return out;
}

// ---- arch.yaml, ERT.yaml, ART.yaml -------------------------------------------

using Attributes = std::vector<std::pair<std::string, std::string>>;

struct LocalEntry {
    std::string name;  // with its [0..n-1] range, if any
    std::string klass;
    Attributes attributes;
};

std::string storage_class(const StorageLevel& level) {
    switch (level.storage_class) {
        case StorageClass::dram:
            return level.capacity_bytes ? "SRAM" : "DRAM";  // Timeloop's DRAM has no depth
        case StorageClass::sram:
            return "SRAM";
        case StorageClass::regfile:
            return "regfile";
    }
    return "SRAM";
}

std::string ert_table(const std::string& name,
                      const std::vector<std::pair<const char*, double>>& actions) {
    std::string out = fmt::format("  - name: {}\n    actions:\n", yaml_scalar(name));
    for (const auto& [action, pj] : actions)
        out += fmt::format("    - {{name: {}, energy: {}}}\n", action, yaml_number(pj));
    return out;
}

struct ArchTexts {
    std::string arch, ert, art;
};

ArchTexts arch_yaml(const Architecture& arch, const ArchModel& model,
                    std::vector<std::string>& notes) {
    const std::int64_t pes = arch.pe_array.num_pes();
    const std::int64_t columns = arch.pe_array.columns;
    const std::string pe_name = pes > 1 ? fmt::format("PE[0..{}]", pes - 1) : "PE";
    const double pj_per_cycle_per_mw = 1.0 / arch.clock_ghz;
    std::string mac_name = "MACC";
    while (arch.level_index(mac_name)) mac_name += "_unit";

    // Three nested tree nodes: system (the outermost level), chip (the other
    // shared levels), the PE (the per-PE levels and the MACs).
    const std::array<std::string, 3> names = {"system", "chip", pe_name};
    const std::array<std::string, 3> paths = {"system", "system.chip", "system.chip." + pe_name};
    std::array<std::vector<LocalEntry>, 3> locals;
    ArchTexts texts;
    for (std::size_t i = 0; i < arch.levels.size(); ++i) {
        const StorageLevel& level = arch.levels[i];
        const LevelModel& m = model.levels[i];
        const bool per_pe = pes > 1 && level.instances == pes;
        const std::size_t node = per_pe ? 2 : (i == 0 ? 0 : 1);
        Attributes attributes;
        if (level.capacity_bytes) {
            if (*level.capacity_bytes * 8 % level.word_bits != 0) {
                notes.push_back(fmt::format(
                    "level `{}`: {} bytes are not a whole number of {}-bit words; exported as "
                    "depth {}",
                    level.name, *level.capacity_bytes, level.word_bits, m.capacity_words));
            }
            if (level.storage_class == StorageClass::dram) {
                notes.push_back(fmt::format(
                    "level `{}` is a DRAM with a capacity: Timeloop's DRAM has no depth, so it is "
                    "exported as class SRAM",
                    level.name));
            }
            if (level.metadata_share) {
                notes.push_back(fmt::format(
                    "level `{}` is partitioned (metadata_share {}): Timeloop has no such "
                    "partition, so it is exported with its data part, depth {}",
                    level.name, *level.metadata_share, m.capacity_words));
            }
            attributes.emplace_back("depth", fmt::format("{}", m.capacity_words));
        }
        attributes.emplace_back("width", fmt::format("{}", level.word_bits));
        attributes.emplace_back("datawidth", fmt::format("{}", level.word_bits));
        if (level.read_bandwidth)
            attributes.emplace_back("read_bandwidth", yaml_number(*level.read_bandwidth));
        if (level.write_bandwidth)
            attributes.emplace_back("write_bandwidth", yaml_number(*level.write_bandwidth));
        if (level.shared_bandwidth)
            attributes.emplace_back("shared_bandwidth", yaml_number(*level.shared_bandwidth));
        if (per_pe) attributes.emplace_back("meshX", fmt::format("{}", columns));
        locals[node].push_back({level.name, storage_class(level), attributes});
        const std::string ert_name = paths[node] + "." + level.name;
        // timeloop-model prices updates by `random_update` (never by
        // `update`, which Accelergy's tables name); both are written.
        texts.ert += ert_table(ert_name, {{"read", m.read_pj},
                                          {"write", m.write_pj},
                                          {"update", m.update_pj},
                                          {"random_update", m.update_pj},
                                          {"leak", m.leakage_mw * pj_per_cycle_per_mw}});
        texts.art += fmt::format("  - {{name: {}, area: {}}}\n", yaml_scalar(ert_name),
                                 yaml_number(m.area_um2));
    }
    const std::int64_t macs = arch.pe_array.macs_per_pe;
    const std::string mac_full = macs > 1 ? fmt::format("{}[0..{}]", mac_name, macs - 1) : mac_name;
    const Datatype type = arch.pe_array.datatype;
    const bool floating =
        type == Datatype::fp32 || type == Datatype::fp16 || type == Datatype::bf16;
    if (type == Datatype::bf16) {
        notes.push_back(
            "the bf16 MAC is exported as a 16-bit fpmac (Timeloop has no bfloat16; it reads back "
            "as fp16, priced the same)");
    }
    locals[2].push_back({mac_full,
                         floating ? "fpmac" : "intmac",
                         {{"datawidth", fmt::format("{}", arch.pe_array.word_bits())},
                          {"meshX", fmt::format("{}", columns * macs)}}});
    const std::string mac_ert = paths[2] + "." + mac_full;
    texts.ert += ert_table(
        mac_ert, {{"compute", model.mac_pj}, {"leak", model.mac_leakage_mw * pj_per_cycle_per_mw}});
    texts.art += fmt::format("  - {{name: {}, area: {}}}\n", yaml_scalar(mac_ert),
                             yaml_number(model.mac_area_um2));

    std::string out = "architecture:\n  version: 0.3\n  subtree:\n";
    for (std::size_t node = 0; node < 3; ++node) {
        const std::string pad(2 + 2 * node, ' ');
        out += fmt::format("{}- name: {}\n", pad, yaml_scalar(names[node]));
        if (!locals[node].empty()) out += pad + "  local:\n";
        for (const LocalEntry& e : locals[node]) {
            out += fmt::format("{}  - name: {}\n{}    class: {}\n{}    attributes:\n", pad,
                               yaml_scalar(e.name), pad, e.klass, pad);
            for (const auto& [key, value] : e.attributes)
                out += fmt::format("{}      {}: {}\n", pad, key, value);
        }
        if (node < 2) out += pad + "  subtree:\n";
    }
    texts.arch = out;
    texts.ert = "ERT:\n  version: 0.3\n  tables:\n" + texts.ert;
    texts.art = "ART:\n  version: 0.3\n  tables:\n" + texts.art;
    return texts;
}

}  // namespace

ExportedFiles native_to_timeloop_files(const Architecture& arch, const PhaseProblem& problem,
                                       const Mapping& mapping, const SourceLocation& origin) {
    check_exportable(arch, problem, mapping, origin);
    ExportedFiles out;
    if (problem.phase != Phase::fw) {
        out.notes.push_back(fmt::format(
            "layer `{}` phase {}: Timeloop's CNN-Layer always reduces into Outputs, so "
            "timeloop-model will model these files as fw with the same loop nest (trainloop's {} "
            "reduces into {})",
            problem.layer, phase_name(problem.phase), phase_name(problem.phase),
            tensor_name(problem.output_tensor())));
    }
    if (!arch.networks.empty()) {
        out.notes.push_back(fmt::format(
            "the {} on-chip network(s) of `{}` are not exported: without network entries "
            "timeloop-model prices network traffic at 0, so compare energies without trainloop's "
            "network energy",
            arch.networks.size(), arch.name));
    }
    if (!arch.sparse.dense()) {
        out.notes.push_back(fmt::format(
            "the sparse features of `{}` are not exported: the Timeloop files are dense",
            arch.name));
    }
    if (arch.clock_ghz != 1.0) {
        out.notes.push_back(
            fmt::format("clock {} GHz: the ERT's leak is leakage power / clock, in pJ per cycle",
                        yaml_number(arch.clock_ghz)));
    }
    const ArchModel model = build_arch_model(arch);
    const ArchTexts texts = arch_yaml(arch, model, out.notes);
    const std::string origin_line = fmt::format(
        "# Exported by `trainloop export timeloop`: layer `{}`, phase {}, architecture `{}`.\n",
        problem.layer, phase_name(problem.phase), arch.name);
    out.files.push_back({"map.yaml", origin_line + map_yaml(arch, mapping)});
    out.files.push_back({"problem.yaml", origin_line + problem_yaml(problem)});
    out.files.push_back(
        {"arch.yaml",
         origin_line +
             "# Block size 1 (width = datawidth = the level's word bits). Energies are in "
             "ERT.yaml.\n" +
             texts.arch});
    out.files.push_back(
        {"ERT.yaml",
         origin_line +
             "# Energy per (one-word) vector access as trainloop prices the component at the\n"
             "# level's capacity and width; leak in pJ per cycle.\n" +
             texts.ert});
    out.files.push_back({"ART.yaml", origin_line + "# Area per instance, in um^2.\n" + texts.art});
    return out;
}

std::vector<std::string> export_timeloop(const std::filesystem::path& dir, const Architecture& arch,
                                         const PhaseProblem& problem, const Mapping& mapping,
                                         bool force, const SourceLocation& origin) {
    ExportedFiles exported = native_to_timeloop_files(arch, problem, mapping, origin);
    write_output_files(dir, exported.files, force);
    return exported.notes;
}

}  // namespace trainloop
