// Reads timeloop-model's statistics file (timeloop-model.stats.txt, v3.0.3)
// into the summary layout the reference corpus stores (the same as
// tools/oracles/timeloop_stats.py): cycles, computes, mac.energy_pj, and per
// storage level, outermost first, per data space the utilized capacity and
// instances, the per-instance reads, fills and updates and the energy.
#pragma once

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace trainloop::testing {

inline nlohmann::json parse_timeloop_stats(const std::string& text) {
    static const std::vector<std::pair<std::string, std::string>> kFields = {
        {"Utilized capacity", "capacity"},
        {"Utilized instances (max)", "instances"},
        {"Scalar reads (per-instance)", "reads"},
        {"Scalar fills (per-instance)", "fills"},
        {"Scalar updates (per-instance)", "updates"},
        {"Energy (total)", "energy_pj"}};
    nlohmann::json levels = nlohmann::json::array();
    nlohmann::json out = {{"mac", nlohmann::json::object()}};
    nlohmann::json* level = nullptr;
    std::string space;
    bool arithmetic = false;
    bool in_networks = false;
    std::istringstream in(text);
    std::string line;
    auto trimmed = [](std::string s) {
        s.erase(0, s.find_first_not_of(" \t"));
        s.erase(s.find_last_not_of(" \t\r") + 1);
        return s;
    };
    while (std::getline(in, line)) {
        const std::string t = trimmed(line);
        if (t == "Networks") in_networks = true;
        if (t.rfind("Cycles: ", 0) == 0) out["cycles"] = std::stoll(t.substr(8));
        if (in_networks) continue;
        if (t.size() > 8 && t.rfind("=== ", 0) == 0) {
            levels.push_back(
                {{"name", t.substr(4, t.size() - 8)}, {"spaces", nlohmann::json::object()}});
            level = &levels.back();
            arithmetic = false;
            space.clear();
            continue;
        }
        if (level == nullptr) continue;
        if (t == "Weights:" || t == "Inputs:" || t == "Outputs:") {
            space = t.substr(0, t.size() - 1);
            continue;
        }
        const auto colon = t.find(':');
        if (colon == std::string::npos) continue;
        const std::string key = trimmed(t.substr(0, colon));
        const std::string value = trimmed(t.substr(colon + 1));
        if (key == "Compute energy") {
            arithmetic = true;
            (*level)["arithmetic"] = true;
        }
        if (arithmetic) {
            if (key == "Computes (total)") out["computes"] = std::stoll(value);
            if (key == "Energy (total)") out["mac"]["energy_pj"] = std::stod(value);
            continue;
        }
        if (space.empty()) continue;
        for (const auto& [label, field] : kFields) {
            if (key != label) continue;
            if (field == "energy_pj") {
                (*level)["spaces"][space][field] = std::stod(value);
            } else {
                (*level)["spaces"][space][field] = std::stoll(value);
            }
        }
    }
    // Storage levels only, outermost first. A storage level that bypasses
    // every data space stays (with no spaces): only the arithmetic level goes.
    nlohmann::json storage = nlohmann::json::array();
    for (auto it = levels.rbegin(); it != levels.rend(); ++it) {
        if (!it->contains("arithmetic")) storage.push_back(*it);
    }
    out["levels"] = storage;
    return out;
}

}  // namespace trainloop::testing
