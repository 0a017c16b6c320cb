#include "timeloop/timeloop_files.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>

#include "arch/architecture_yaml.hpp"
#include "mapping/mapping_yaml.hpp"
#include "problem/training_problems.hpp"
#include "timeloop/timeloop_import.hpp"
#include "workload/network.hpp"
#include "workload/network_yaml.hpp"

namespace trainloop {
namespace {

// The Timeloop name of each ERT action trainloop prices.
std::string_view ert_action_name(Action a) {
    switch (a) {
        case Action::mac:
            return "compute";
        case Action::read:
            return "read";
        case Action::write:
            return "write";
        case Action::update:
            return "update";
        case Action::hop:
            return "hop";
        case Action::router:
            return "router";
    }
    return "?";
}

// trainloop's component library needs energies > 0; the ERT may hold 0.
void check_positive_energies(const TimeloopSpec& spec, const ComponentLibrary& library) {
    for (const Component& c : library.components) {
        SourceLocation where = spec.arch.arithmetic.location;
        std::string ert_name = spec.arch.arithmetic.ert_name;
        for (const TimeloopStorage& s : spec.arch.storage) {
            if (s.name == c.name) {
                where = s.location;
                ert_name = s.ert_name;
            }
        }
        for (Action a : component_actions(c.component_class)) {
            const std::optional<double> given = c.points.front().energy.get(a);
            if (a == Action::router && !given) continue;  // optional: routers unpriced
            const double pj = given.value_or(0.0);
            if (pj > 0) continue;
            throw SpecError(
                where, "ERT",
                fmt::format("the ERT prices `{}` of `{}` at {} pJ: trainloop's component library "
                            "needs energies above 0",
                            ert_action_name(a), ert_name, pj),
                fmt::format("a positive `{}` energy in the ERT table `{}`", ert_action_name(a),
                            ert_name),
                "give it a small positive energy, or evaluate the Timeloop files as they are "
                "with `trainloop eval --timeloop`");
        }
    }
}

NetworkSpec imported_network(const TimeloopProblem& p) {
    const DimBounds& b = p.bounds;
    NetworkSpec net;
    net.name = "timeloop_import";
    net.description = "one CNN layer imported from timeloop-model's problem";
    // A grouped layer (Timeloop's shape with G): G·C input and G·K output channels.
    const std::int64_t groups = b[Dim::G];
    net.inputs.push_back(
        {kImportedInputName,
         TensorShape{groups * b[Dim::C],
                     (b[Dim::P] - 1) * p.wstride + (b[Dim::R] - 1) * p.wdilation + 1,
                     (b[Dim::Q] - 1) * p.hstride + (b[Dim::S] - 1) * p.hdilation + 1},
         {}});
    ConvAttributes conv;
    conv.out_channels = groups * b[Dim::K];
    conv.groups = groups;
    conv.kernel = {b[Dim::R], b[Dim::S]};
    conv.stride = {p.wstride, p.hstride};
    conv.dilation = {p.wdilation, p.hdilation};
    net.layers.push_back({kImportedLayerName, LayerType::conv, {kImportedInputName}, conv, {}, {}});
    return net;
}

// The network must give back exactly the problem's iteration space (P×Q
// included); anything else is a bug in the formulas above.
void check_network(const NetworkSpec& spec, const TimeloopCase& c) {
    const Network network = Network::build(spec);
    const NetworkTraining training =
        derive_training_problems(network, c.problem.space.bounds[Dim::N]);
    const PhaseProblem* fw = training.layers.front().find(Phase::fw);
    if (fw == nullptr || !(fw->space == c.problem.space)) {
        throw std::logic_error(fmt::format(
            "timeloop import: the written layer gives {}, the Timeloop problem is {}",
            fw ? to_string(fw->space) : std::string("no fw phase"), to_string(c.problem.space)));
    }
}

// The problem's densities as a sparsity profile for the imported layer's fw
// phase (docs/sparsity_format.md): w and x, each with its model (even for
// Sparseloop's fixed-structured, hypergeometric for hypergeometric; Outputs
// are dense, timeloop_sparse_import.hpp).
std::string sparsity_profile_yaml(const TimeloopCase& c) {
    std::string out =
        "# Sparseloop's problem densities (timeloop_sparse_import.hpp says how each\n"
        "# distribution is read). Evaluate with:\n"
        "#   trainloop eval --mapping mapping.yaml --sparsity sparsity.yaml\n"
        "sparsity_profile: timeloop_import\n"
        "model: uniform\n"
        "rules:\n";
    for (const auto& [space, tensor] :
         {std::pair{DataSpace::weights, "w"}, std::pair{DataSpace::inputs, "x"}}) {
        const OperandDensity& d = c.densities.of(space);
        out += fmt::format("  - {{layers: {}, tensors: {}, phases: fw, density: {}, model: {}}}\n",
                           kImportedLayerName, tensor, d.density, density_model_name(d.model));
    }
    return out;
}

}  // namespace

ImportedFiles timeloop_to_native_files(const TimeloopSpec& spec) {
    const TimeloopCase c = import_timeloop(spec);
    check_positive_energies(spec, c.arch.components);
    const NetworkSpec network = imported_network(spec.problem);
    check_network(network, c);

    std::string origin = "# Imported by `trainloop import timeloop` from\n";
    for (const std::string& file : spec.files) origin += fmt::format("#   {}\n", file);
    MappingTarget target;
    target.arch = "./arch.yaml";
    target.workload = "./workload.yaml";
    target.layer = kImportedLayerName;
    target.phase = Phase::fw;
    target.batch = c.problem.space.bounds[Dim::N];

    ImportedFiles out;
    out.notes = spec.notes;
    out.files.push_back(
        {"arch.yaml",
         origin +
             "# Timeloop's tree flattened into storage levels, outermost first; a level with one\n"
             "# instance per PE is per_pe. Energies, leakage and areas are in components.yaml.\n" +
             architecture_to_yaml(c.arch, "components.yaml")});
    out.files.push_back(
        {"components.yaml",
         origin +
             "# One entry per Timeloop component. Energy per word = the ERT's energy per vector\n"
             "# access / the level's block size (width / datawidth); leakage in mW = the ERT's\n"
             "# leak in pJ per cycle at 1 GHz; area per instance from the ART (0 if absent).\n" +
             component_library_to_yaml(c.arch.components)});
    out.files.push_back(
        {"workload.yaml",
         origin +
             "# The CNN-Layer problem as a one-layer network: no padding, so the input is\n"
             "# (P-1)*Wstride + (R-1)*Wdilation + 1 high and (Q-1)*Hstride + (S-1)*Hdilation + 1\n"
             "# wide. Timeloop's W-stride/dilation pair P with R (trainloop's h), its\n"
             "# H-stride/dilation Q with S (trainloop's w). The batch N is in mapping.yaml.\n" +
             network_to_yaml(network)});
    out.files.push_back(
        {"mapping.yaml",
         origin +
             "# Timeloop's permutations are innermost first; here temporal loops are outermost\n"
             "# first, and a spatial entry's first `split` dimensions are spatial_x (meshX).\n" +
             mapping_to_yaml(c.mapping, c.arch, target)});
    if (c.sparse()) out.files.push_back({"sparsity.yaml", origin + sparsity_profile_yaml(c)});
    out.notes.insert(out.notes.end(), c.notes.begin(), c.notes.end());
    return out;
}

}  // namespace trainloop
