// ComponentLibrary: the energy per action, leakage power and area of the
// hardware components an architecture is built from (Accelergy-like). Plain
// values; parsing and validation live in component_library_parser.hpp.
//
// Units: energy in pJ per action on one word of `word_bits`, leakage in mW,
// area in µm². SRAM and register-file components are tables over (capacity,
// word width), sorted by capacity and then width with no repeated point, for
// the evaluator to interpolate, with the library's rule for capacities
// outside them; mac, dram, network and logic components have exactly one
// point and no capacity. The parser guarantees every energy > 0 (a network's
// hop and router energies >= 0: a library may leave wires unpriced, as
// Timeloop's default does; a network's router energy may be absent), leakage and area >= 0, and
// that each point has exactly the actions of its class (component_actions()), with `update` filled
// in (= write) when not given.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trainloop {

// `logic`: a unit priced by its area and leakage only (no per-action energy
// is modelled), e.g. a sparse accelerator's mask memory or load balancer.
enum class ComponentClass : std::uint8_t { mac, sram, regfile, dram, network, logic };
inline constexpr std::array<std::string_view, 6> kComponentClassNames = {
    "mac", "sram", "regfile", "dram", "network", "logic"};

constexpr std::string_view component_class_name(ComponentClass c) {
    return kComponentClassNames[static_cast<std::size_t>(c)];
}

// SRAMs and register files are priced by capacity and width: tables.
constexpr bool is_table_class(ComponentClass c) {
    return c == ComponentClass::sram || c == ComponentClass::regfile;
}

// What a table does for a capacity outside the capacities it lists (the
// library states it per table, `outside_table:`):
//   refuse         an architecture that needs such a capacity is an error;
//   sqrt_capacity  energy per access scales as sqrt(capacity) from the
//                  nearest listed capacity, area linearly (a bit line and a
//                  word line grow as the square root of the array).
enum class OutsideTable : std::uint8_t { refuse, sqrt_capacity };
inline constexpr std::array<std::string_view, 2> kOutsideTableNames = {"refuse", "sqrt_capacity"};

constexpr std::string_view outside_table_name(OutsideTable r) {
    return kOutsideTableNames[static_cast<std::size_t>(r)];
}

// `router`: a word crossing one router of a routed network (mesh, torus,
// ring); optional in a network component (absent: routers are unpriced).
enum class Action : std::uint8_t { read, write, update, mac, hop, router };
inline constexpr std::array<std::string_view, 6> kActionNames = {"read", "write", "update",
                                                                 "mac",  "hop",   "router"};

constexpr std::string_view action_name(Action a) {
    return kActionNames[static_cast<std::size_t>(a)];
}

// The actions a component of class `c` has.
inline std::vector<Action> component_actions(ComponentClass c) {
    switch (c) {
        case ComponentClass::mac:
            return {Action::mac};
        case ComponentClass::network:
            return {Action::hop, Action::router};
        case ComponentClass::sram:
        case ComponentClass::regfile:
        case ComponentClass::dram:
            return {Action::read, Action::write, Action::update};
        case ComponentClass::logic:
            return {};
    }
    return {};
}

// Energy per action, in pJ; nullopt for actions the component does not have.
struct ActionEnergies {
    std::array<std::optional<double>, 6> pj{};

    std::optional<double> get(Action a) const { return pj[static_cast<std::size_t>(a)]; }
    void set(Action a, double value) { pj[static_cast<std::size_t>(a)] = value; }
};

struct ComponentPoint {
    std::optional<std::int64_t> capacity_bytes;  // set for table classes only
    std::int64_t word_bits = 0;                  // 0 for a logic unit
    ActionEnergies energy;
    double leakage_mw = 0.0;
    double area_um2 = 0.0;
};

struct Component {
    std::string name;
    ComponentClass component_class = ComponentClass::mac;
    std::string description;
    // One point, or the sorted table of an sram/regfile component.
    std::vector<ComponentPoint> points;
    // Tables only: the rule for capacities outside the table.
    OutsideTable outside_table = OutsideTable::refuse;

    // Tables only: the smallest and largest capacity listed.
    std::int64_t min_capacity() const { return *points.front().capacity_bytes; }
    std::int64_t max_capacity() const { return *points.back().capacity_bytes; }
};

struct ComponentLibrary {
    std::string name;
    std::string technology;
    std::string description;
    std::vector<Component> components;

    const Component* find(std::string_view component_name) const {
        for (const Component& c : components) {
            if (c.name == component_name) return &c;
        }
        return nullptr;
    }
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        out.reserve(components.size());
        for (const Component& c : components) out.push_back(c.name);
        return out;
    }
};

}  // namespace trainloop
