#include "eval/arch_summary_json.hpp"

#include "eval/evaluation_json.hpp"

namespace trainloop {
namespace {

nlohmann::json space_list(const DataSpaceSet& set) {
    nlohmann::json list = nlohmann::json::array();
    for (DataSpace s : kAllDataSpaces) {
        if (set.contains(s)) list.push_back(std::string(data_space_name(s)));
    }
    return list;
}

nlohmann::json optional_number(const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json action_entries(const std::vector<SparseActionEntry>& entries) {
    nlohmann::json list = nlohmann::json::array();
    for (const SparseActionEntry& e : entries) {
        nlohmann::json phases = nlohmann::json::array();
        for (Phase p : kAllPhases) {
            if (e.in_phase[p]) phases.push_back(std::string(phase_name(p)));
        }
        nlohmann::json entry = {{"level", e.level},
                                {"target", std::string(data_space_name(e.target))},
                                {"condition_on", space_list(e.condition_on)},
                                {"phases", phases}};
        if (e.saves_mac_only) entry["saves"] = "mac";
        list.push_back(entry);
    }
    return list;
}

}  // namespace

nlohmann::json architecture_summary_json(const Architecture& arch, const ArchModel& model) {
    nlohmann::json levels = nlohmann::json::array();
    for (std::size_t i = 0; i < arch.levels.size(); ++i) {
        const StorageLevel& l = arch.levels[i];
        levels.push_back({{"name", l.name},
                          {"class", std::string(storage_class_name(l.storage_class))},
                          {"capacity_bytes", l.capacity_bytes ? nlohmann::json(*l.capacity_bytes)
                                                              : nlohmann::json(nullptr)},
                          {"word_bits", l.word_bits},
                          {"instances", l.instances},
                          {"per_pe", l.per_pe},
                          {"data_spaces", space_list(l.data_spaces)},
                          {"read_bandwidth", optional_number(l.read_bandwidth)},
                          {"write_bandwidth", optional_number(l.write_bandwidth)},
                          {"shared_bandwidth", optional_number(l.shared_bandwidth)},
                          {"component", l.component},
                          {"area_um2", model.component_area_um2(i)}});
    }
    nlohmann::json networks = nlohmann::json::array();
    for (const OnChipNetwork& n : arch.networks) {
        networks.push_back({{"name", n.name},
                            {"axis", std::string(array_axis_name(n.axis))},
                            {"kind", std::string(network_kind_name(n.kind))},
                            {"data_spaces", space_list(n.data_spaces)},
                            {"parent", n.parent},
                            {"child", n.child ? nlohmann::json(*n.child) : nlohmann::json("MAC")},
                            {"bandwidth", optional_number(n.bandwidth)}});
    }
    nlohmann::json formats = nlohmann::json::array();
    for (const FormatEntry& f : arch.sparse.formats) {
        nlohmann::json ranks = nlohmann::json::array();
        for (RankFormat r : f.ranks) ranks.push_back(std::string(rank_format_name(r)));
        formats.push_back({{"level", f.level},
                           {"data_space", std::string(data_space_name(f.data_space))},
                           {"format", std::string(compressed_format_name(f.format))},
                           {"ranks", ranks},
                           {"index_bits", f.index_bits > 0 ? nlohmann::json(f.index_bits)
                                                           : nlohmann::json(nullptr)}});
    }
    const LoadBalancing& lb = arch.sparse.load_balancing;
    nlohmann::json area = nlohmann::json::object();
    const std::size_t components = arch.levels.size() + 1 + arch.networks.size();
    for (std::size_t c = 0; c < components; ++c) {
        area[component_name(arch, c)] = model.component_area_um2(c);
    }
    return {{"name", arch.name},
            {"description", arch.description},
            {"source", arch.source},
            {"clock_ghz", arch.clock_ghz},
            {"pe_array",
             {{"rows", arch.pe_array.rows},
              {"columns", arch.pe_array.columns},
              {"macs_per_pe", arch.pe_array.macs_per_pe},
              {"datatype", std::string(datatype_name(arch.pe_array.datatype))},
              {"word_bits", arch.pe_array.word_bits()},
              {"mac_component", arch.pe_array.mac_component},
              {"phase_units", std::string(phase_units_name(arch.pe_array.phase_units))}}},
            {"levels", levels},
            {"networks", networks},
            {"sparse",
             {{"formats", formats},
              {"skipping", action_entries(arch.sparse.skipping)},
              {"gating", action_entries(arch.sparse.gating)},
              {"load_balancing",
               {{"scheme", std::string(load_balancing_scheme_name(lb.scheme))},
                {"axis", lb.axis ? nlohmann::json(std::string(array_axis_name(*lb.axis)))
                                 : nlohmann::json(nullptr)}}}}},
            {"dense", arch.sparse.dense()},
            {"area_um2", model.area_um2()},
            {"area_breakdown", area},
            {"component_library", arch.component_library_path}};
}

}  // namespace trainloop
