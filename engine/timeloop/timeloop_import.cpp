#include "timeloop/timeloop_import.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "common/did_you_mean.hpp"
#include "timeloop/timeloop_sparse_import.hpp"

namespace trainloop {
namespace {

[[noreturn]] void fail(const SourceLocation& where, const std::string& key,
                       const std::string& message, const std::string& expected,
                       const std::string& hint = {}) {
    throw SpecError(where, key, message, expected, hint);
}

// An ERT/ART table name without a trailing instance range: Accelergy names
// v0.4 components `system_top_level.pe_spad[1..256]`. Timeloop matches tables
// to components by this last name.
std::string without_range(const std::string& key) {
    const auto open = key.rfind('[');
    if (open == std::string::npos || key.back() != ']') return key;
    return key.substr(0, open);
}

bool names_component(const std::string& key, const std::string& name) {
    const std::string k = without_range(key);
    return k == name || k.ends_with("." + name);
}

const TimeloopActionEnergies& ert_entry(const TimeloopSpec& spec, const std::string& full_name,
                                        const std::string& name, const SourceLocation& where) {
    if (auto it = spec.ert.find(full_name); it != spec.ert.end()) return it->second;
    const TimeloopActionEnergies* found = nullptr;
    for (const auto& [key, energies] : spec.ert) {
        if (names_component(key, name)) {
            if (found)
                fail(where, "ERT", fmt::format("several ERT entries end in `{}`", name), full_name);
            found = &energies;
        }
    }
    if (!found) {
        fail(where, "ERT", fmt::format("no ERT entry for `{}`", full_name),
             fmt::format("an ERT table named `{}`", full_name));
    }
    return *found;
}

double art_entry(const TimeloopSpec& spec, const std::string& full_name, const std::string& name) {
    if (auto it = spec.art.find(full_name); it != spec.art.end()) return it->second;
    for (const auto& [key, area] : spec.art) {
        if (names_component(key, name)) return area;
    }
    return 0.0;  // no ART: area unknown, reported as 0
}

Datatype datatype_of(const TimeloopArithmetic& a) {
    const bool floating =
        a.klass.find("fp") != std::string::npos || a.klass.find("float") != std::string::npos;
    switch (a.datawidth) {
        case 8:
            if (!floating) return Datatype::int8;
            break;
        case 16:
            return floating ? Datatype::fp16 : Datatype::int16;
        case 32:
            return floating ? Datatype::fp32 : Datatype::int32;
        default:
            break;
    }
    fail(a.location, "datawidth",
         fmt::format("a {}-bit {} MAC has no trainloop datatype", a.datawidth, a.klass),
         "int8, int16, int32, fp16 or fp32");
}

Architecture import_architecture(const TimeloopSpec& spec) {
    const TimeloopArchitecture& t = spec.arch;
    Architecture arch;
    arch.name = "timeloop_import";
    arch.description = "imported from timeloop-model inputs";
    arch.clock_ghz = 1.0;
    arch.components.name = "timeloop_ert";
    arch.components.description = "energies from the Timeloop ERT (per word), areas from the ART";

    std::int64_t pes = 1;
    for (const TimeloopStorage& s : t.storage) pes = std::max(pes, s.instances);
    const TimeloopArithmetic& mac = t.arithmetic;
    if (mac.instances % pes != 0) {
        fail(mac.location, "instances",
             fmt::format("{} MAC units do not divide evenly over {} PEs", mac.instances, pes),
             "a whole number of MAC units per PE");
    }
    PeArray& array = arch.pe_array;
    array.macs_per_pe = mac.instances / pes;
    array.columns = pes;
    for (const TimeloopStorage& s : t.storage) {
        if (s.instances == pes && s.mesh_x) array.columns = *s.mesh_x;
    }
    if (mac.mesh_x && array.macs_per_pe == 1) array.columns = *mac.mesh_x;
    if (pes % array.columns != 0) {
        fail(mac.location, "meshX",
             fmt::format("meshX {} does not divide {} PEs", array.columns, pes),
             "a meshX that divides the instances");
    }
    array.rows = pes / array.columns;
    array.datatype = datatype_of(mac);
    array.mac_component = mac.name;
    {
        const TimeloopActionEnergies& e = ert_entry(spec, mac.ert_name, mac.name, mac.location);
        Component c{mac.name, ComponentClass::mac, "Timeloop " + mac.klass, {}};
        ComponentPoint p;
        p.word_bits = mac.datawidth;
        p.energy.set(Action::mac, e.price(kErtCompute, true));
        p.leakage_mw = e.price({"leak"}, false);  // pJ per cycle at 1 GHz = mW
        p.area_um2 = art_entry(spec, mac.ert_name, mac.name);
        c.points.push_back(p);
        arch.components.components.push_back(c);
    }

    for (const TimeloopStorage& s : t.storage) {
        StorageLevel level;
        level.name = s.name;
        const bool dram = !s.depth;
        level.storage_class = dram ? StorageClass::dram
                              : (s.klass.find("RF") != std::string::npos ||
                                 s.klass.find("regfile") != std::string::npos)
                                  ? StorageClass::regfile
                                  : StorageClass::sram;
        if (!dram) level.capacity_bytes = *s.depth * s.width / 8;
        // Sparseloop's separate metadata storage: a partitioned SRAM whose
        // metadata part is that storage (storage_level.hpp, metadata_share).
        if (!dram && s.metadata_bits && *s.metadata_bits >= 8) {
            const std::int64_t metadata_bytes = *s.metadata_bits / 8;
            level.metadata_share =
                double(metadata_bytes) / double(*level.capacity_bytes + metadata_bytes);
            *level.capacity_bytes += metadata_bytes;
        }
        level.word_bits = s.datawidth;
        level.read_bandwidth = s.read_bandwidth;
        level.write_bandwidth = s.write_bandwidth;
        level.shared_bandwidth = s.shared_bandwidth;
        level.data_spaces = DataSpaceSet::all();
        level.instances = s.instances;
        level.per_pe = s.instances == pes && pes > 1;
        level.component = s.name;
        if (s.mesh_x && s.instances > 1 && !level.per_pe && *s.mesh_x != s.instances) {
            fail(s.location, "meshX",
                 fmt::format("`{}` spreads {} instances as meshX {}: trainloop lays out a shared "
                             "level's instances itself",
                             s.name, s.instances, *s.mesh_x),
                 "per-PE levels, or levels shared by the whole array");
        }
        // Energy per word: the ERT prices a vector access of block_size words.
        const TimeloopActionEnergies& e = ert_entry(spec, s.ert_name, s.name, s.location);
        const double block = double(s.block_size());
        Component c{s.name,
                    dram ? ComponentClass::dram
                         : (level.storage_class == StorageClass::regfile ? ComponentClass::regfile
                                                                         : ComponentClass::sram),
                    "Timeloop " + s.klass,
                    {}};
        ComponentPoint p;
        if (!dram) p.capacity_bytes = level.capacity_bytes;
        p.word_bits = s.datawidth;
        p.energy.set(Action::read, e.price(kErtRead, true) / block);
        p.energy.set(Action::write, e.price(kErtFill, true) / block);
        p.energy.set(Action::update, e.price(kErtUpdate, true) / block);
        p.leakage_mw = e.price({"leak"}, false);
        p.area_um2 = art_entry(spec, s.ert_name, s.name);
        c.points.push_back(p);
        arch.components.components.push_back(c);
        arch.levels.push_back(level);
    }
    return arch;
}

IterationSpace import_problem(const TimeloopProblem& p) {
    return conv_space(p.bounds, {p.wstride, p.hstride}, {p.wdilation, p.hdilation});
}

// A datatype entry's keep set: `keep` lists what stays (all when absent),
// `bypass` what does not.
DataSpaceSet keep_set(const TimeloopMappingEntry& e) {
    DataSpaceSet keep = e.keep.empty() ? DataSpaceSet::all() : DataSpaceSet{};
    for (TimeloopDataSpace s : e.keep) keep.insert(to_data_space(s));
    for (TimeloopDataSpace s : e.bypass) keep.erase(to_data_space(s));
    return keep;
}

Mapping import_mapping(const TimeloopSpec& spec, const Architecture& arch,
                       const IterationSpace& space) {
    Mapping m;
    m.num_levels = std::uint8_t(arch.levels.size());
    for (std::size_t i = 0; i < arch.levels.size(); ++i) m.level(i).keep = DataSpaceSet::all();
    std::vector<std::string> names;
    for (const StorageLevel& l : arch.levels) names.push_back(l.name);
    std::set<std::pair<std::string, int>> seen;
    // v0.4 `constraints: dataspace:` give a level's keep set unless the
    // mapping has a datatype entry for it, which must then agree.
    std::map<std::string, const TimeloopMappingEntry*> constrained;
    for (const TimeloopMappingEntry& c : spec.dataspace_constraints) {
        const auto level = arch.level_index(c.target);
        if (!level) continue;  // a container's constraint: nothing to keep
        constrained[c.target] = &c;
        m.level(*level).keep = keep_set(c);
    }
    for (const TimeloopMappingEntry& e : spec.mapping) {
        const auto level = arch.level_index(e.target);
        if (!level) {
            fail(e.location, "target", fmt::format("no storage level `{}`", e.target),
                 "the name of a storage level of the architecture",
                 suggestion_hint(e.target, names));
        }
        if (!seen.insert({e.target, int(e.type)}).second) {
            fail(e.location, "target",
                 fmt::format("a second entry of this type for `{}`", e.target),
                 "one temporal, one spatial and one datatype entry per level");
        }
        LevelMapping& lm = m.level(*level);
        if (e.type == TimeloopMappingEntry::Type::datatype) {
            const DataSpaceSet keep = keep_set(e);
            if (auto c = constrained.find(e.target); c != constrained.end()) {
                for (DataSpace s : kAllDataSpaces) {
                    const auto lists = [s](const std::vector<TimeloopDataSpace>& spaces) {
                        return std::any_of(spaces.begin(), spaces.end(), [s](TimeloopDataSpace t) {
                            return to_data_space(t) == s;
                        });
                    };
                    const bool forced_keep = lists(c->second->keep);
                    const bool forced_bypass = lists(c->second->bypass);
                    if ((forced_keep && !keep.contains(s)) || (forced_bypass && keep.contains(s))) {
                        fail(e.location, "keep",
                             fmt::format("the mapping {} {} at `{}`, which the architecture's "
                                         "dataspace constraint ({}) {}",
                                         keep.contains(s) ? "keeps" : "bypasses",
                                         kTimeloopSpaceNames[std::size_t(s)], e.target,
                                         format_location(c->second->location),
                                         forced_keep ? "keeps" : "bypasses"),
                             "a datatype entry that agrees with the constraint");
                    }
                }
            }
            lm.keep = keep;
            continue;
        }
        // Dimensions with a factor, in permutation order (innermost first).
        std::vector<Dim> order = e.permutation;
        for (Dim d : kAllDims) {
            if (e.factors[d] > 1 && std::find(order.begin(), order.end(), d) == order.end()) {
                fail(e.location, "permutation",
                     fmt::format("the permutation leaves out {}, whose factor is {}", dim_name(d),
                                 e.factors[d]),
                     "a permutation naming every dimension with a factor above 1");
            }
        }
        if (e.type == TimeloopMappingEntry::Type::temporal) {
            for (auto it = order.rbegin(); it != order.rend(); ++it) {
                if (e.factors[*it] > 1) lm.temporal.push_back({*it, e.factors[*it]});
            }
            continue;
        }
        const std::size_t split = std::size_t(e.split.value_or(std::int64_t(order.size())));
        for (std::size_t k = 0; k < order.size(); ++k) {
            if (e.factors[order[k]] <= 1) continue;
            (k < split ? lm.spatial_x : lm.spatial_y).push_back({order[k], e.factors[order[k]]});
        }
    }
    for (Dim d : kAllDims) {
        const std::int64_t product = m.total_factor(d);
        if (product == space.bounds[d]) continue;
        // Blame the mapping: the first entry with a factor of `d`, else the
        // mapping's first entry (the problem file only states the bound).
        SourceLocation where =
            spec.mapping.empty() ? spec.problem.location : spec.mapping.front().location;
        for (const TimeloopMappingEntry& e : spec.mapping) {
            if (e.type != TimeloopMappingEntry::Type::datatype && e.factors[d] > 1) {
                where = e.location;
                break;
            }
        }
        fail(where, "factors",
             fmt::format("the mapping's factors of {} multiply to {}, but the problem's {} is {} "
                         "({})",
                         dim_name(d),
                         product == std::numeric_limits<std::int64_t>::max()
                             ? std::string("more than 2^63")
                             : std::to_string(product),
                         dim_name(d), space.bounds[d], format_location(spec.problem.location)),
             "perfect factors (their product equals the dimension)",
             "Timeloop's imperfect (residual) factorization is not supported");
    }
    return m;
}

// Sparseloop's ERT actions that trainloop does not price from the table: it
// charges format metadata at the level's read and write energy per word, and
// gated and skipped accesses nothing (docs/sparse_evaluation.md).
std::vector<std::string> unread_sparse_actions(const TimeloopSpec& spec) {
    std::vector<std::string> notes;
    for (const auto& [component, table] : spec.ert) {
        std::vector<std::string> unread;
        for (const auto& [action, energy] : table.actions) {
            if (action.starts_with("metadata_") || action.starts_with("gated_") ||
                action.starts_with("skipped_") || action.ends_with("_gated") ||
                action.ends_with("_skipped") || action.find("compression") != std::string::npos)
                unread.push_back(action);
        }
        if (unread.empty()) continue;
        notes.push_back(fmt::format(
            "ERT `{}`: {} not read: trainloop prices format metadata at the level's read and "
            "write energy per word, and gated or skipped accesses at 0",
            component, fmt::join(unread, ", ")));
    }
    return notes;
}

}  // namespace

TimeloopCase import_timeloop(const TimeloopSpec& spec) {
    TimeloopCase c;
    c.arch = import_architecture(spec);
    const IterationSpace space = import_problem(spec.problem);
    if (const auto reason = oversize_reason(space)) {
        fail(spec.problem.location, "instance",
             fmt::format("the problem is too large to model exactly: {}", *reason),
             "a problem whose MACs and tensors number at most 2^53");
    }
    c.problem = make_phase_problem("timeloop", Phase::fw, space);
    c.mapping = import_mapping(spec, c.arch, space);
    c.notes = unread_sparse_actions(spec);
    ImportedSparsity sparsity = import_sparsity(spec, c.arch, c.problem, c.mapping);
    c.arch.sparse = std::move(sparsity.features);
    c.densities = sparsity.densities;
    c.notes.insert(c.notes.end(), sparsity.notes.begin(), sparsity.notes.end());
    return c;
}

}  // namespace trainloop
