#include "cartesian_command.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "arch/arch_model.hpp"
#include "arch/architecture_library.hpp"
#include "arch/architecture_parser.hpp"
#include "cartesian/cartesian_energy.hpp"
#include "cartesian/cartesian_product.hpp"
#include "common/spec_error.hpp"
#include "common/spec_node.hpp"
#include "density/sparsity_library.hpp"
#include "json_errors.hpp"
#include "number_options.hpp"
#include "problem/training_problems.hpp"
#include "reporting_errors.hpp"
#include "sparse/phase_densities.hpp"
#include "sparsity_command_options.hpp"
#include "training_run/cartesian_costs.hpp"
#include "workload/network_library.hpp"

namespace trainloop::cli {
namespace {

struct CartesianOptions {
    std::string arch;  // the array from its `cartesian_product:` section, instead of the options
    std::string network;
    std::int64_t batch = kDefaultBatch;
    std::string phase = "all";
    std::string layer;
    std::string pes = "8x8";
    std::int64_t tiles = 1;
    std::int64_t groups = 1;
    std::string vectors = "4x4";
    std::int64_t banks = 32;
    std::string bank_stalls = "unbuffered";
    bool fc = false;
    double input_density = 1.0;
    double filter_density = 1.0;
    std::string unused_rule = "outside-output";
    std::string tiling = "planar";
    bool predictor = false;
    std::string zeros = "expected";
    std::string format = "text";
    SparsityOptions sparsity;
};

// "8x8" -> {8, 8}: two integers in 1..max joined by 'x'.
std::pair<std::int64_t, std::int64_t> read_pair(const std::string& text, const char* option,
                                                const char* what, std::int64_t max) {
    const std::size_t x = text.find('x');
    std::int64_t first = 0;
    std::int64_t second = 0;
    if (x == std::string::npos || !number_detail::read_whole(text.substr(0, x), first) ||
        !number_detail::read_whole(text.substr(x + 1), second) || first < 1 || second < 1 ||
        first > max || second > max)
        throw SpecError({}, option, fmt::format("`{}` is not {}", quoted_excerpt(text), what),
                        fmt::format("two integers in 1..{} joined by 'x', e.g. 4x4", max));
    return {first, second};
}

struct Row {
    std::string layer;
    Phase phase = Phase::fw;
    CartesianCost cost;
    // With --arch: priced as `train-cost --evaluator cartesian` prices it.
    std::optional<CartesianProblemCost> priced;
};

nlohmann::json priced_json(const CartesianProblemCost& p) {
    return {{"cycles", p.cost.cycles},
            {"energy_pj", p.energy.total_pj()},
            {"energy",
             {{"multiply_pj", p.energy.multiply_pj},
              {"operand_read_pj", p.energy.operand_read_pj},
              {"accumulate_pj", p.energy.accumulate_pj},
              {"offchip_pj", p.energy.offchip_pj},
              {"network_pj", p.energy.network_total_pj()},
              {"leakage_pj", p.energy.leak_total_pj()}}},
            {"offchip_words", p.cost.offchip_words}};
}

// Sums over a phase's layers (the counts are summed by `add` below).
CartesianProblemCost add(CartesianProblemCost total, const CartesianProblemCost& p) {
    total.cost.cycles += p.cost.cycles;
    total.cost.energy_pj += p.cost.energy_pj;
    total.cost.offchip_words += p.cost.offchip_words;
    total.energy += p.energy;
    return total;
}

nlohmann::json cost_json(const CartesianCost& c) {
    return {{"issued_products", c.issued_products},
            {"used_products", c.used_products},
            {"unused_products", c.unused_products},
            {"unused_pct", c.unused_pct},
            {"product_cycles", c.product_cycles},
            {"skipped_product_cycles", c.skipped_product_cycles},
            {"dense_product_cycles", c.dense_product_cycles},
            {"all_unused_cycles", c.all_unused_cycles},
            {"all_unused_pct", c.all_unused_pct},
            {"slowest_pe_cycles", c.slowest_pe_cycles},
            {"busy_pes", c.busy_pes}};
}

// Sums over a phase's layers; the shares recomputed from the sums.
CartesianCost add(CartesianCost total, const CartesianCost& c) {
    total.issued_products += c.issued_products;
    total.used_products += c.used_products;
    total.unused_products += c.unused_products;
    total.product_cycles += c.product_cycles;
    total.skipped_product_cycles += c.skipped_product_cycles;
    total.dense_product_cycles += c.dense_product_cycles;
    total.all_unused_cycles += c.all_unused_cycles;
    total.slowest_pe_cycles += c.slowest_pe_cycles;
    total.busy_pes = std::max(total.busy_pes, c.busy_pes);
    total.unused_pct =
        total.issued_products > 0 ? 100.0 * total.unused_products / total.issued_products : 0.0;
    total.all_unused_pct = total.dense_product_cycles > 0
                               ? 100.0 * total.all_unused_cycles / total.dense_product_cycles
                               : 0.0;
    return total;
}

// The layer-phase priced as `train-cost --evaluator cartesian` prices it.
CartesianProblemCost priced(const Row& row, const PhaseProblem& problem,
                            const CartesianConfig& config, double output_density,
                            std::int64_t batch, const ArchModel& arch) {
    const CartesianOffchip offchip =
        cartesian_offchip(problem, config.input_density, config.filter_density, output_density);
    return cartesian_layer_phase_cost(row.cost, offchip, row.layer, row.phase, config, batch, arch);
}

void run_cartesian(const CartesianOptions& o) {
    CartesianConfig config;
    std::tie(config.tiles_h, config.tiles_w) =
        read_pair(o.pes, "--pes", "a PE grid", kMaxCartesianCount);
    config.sample_tiles = o.tiles;
    config.filter_groups = o.groups;
    std::tie(config.filter_vector, config.input_vector) =
        read_pair(o.vectors, "--vectors", "a vector shape FxI", kMaxCartesianVector);
    config.accumulator_banks = o.banks;
    config.bank_stalls =
        o.bank_stalls == "none" ? CartesianBankStalls::none : CartesianBankStalls::unbuffered;
    config.input_density = o.input_density;
    config.filter_density = o.filter_density;
    config.rule =
        o.unused_rule == "negative-only" ? UnusedRule::negative_only : UnusedRule::outside_output;
    config.tiling =
        o.tiling == "split-filters" ? CartesianTiling::split_filters : CartesianTiling::planar;
    config.predictor = o.predictor;
    config.zeros = cartesian_zeros_from_name(o.zeros).value_or(CartesianZeros::expected);
    std::optional<ArchModel> arch_model;  // with --arch: prices each layer-phase
    if (!o.arch.empty()) {
        const std::filesystem::path file = resolve_architecture(o.arch);
        const Architecture arch = load_architecture(file);
        if (!arch.cartesian)
            throw SpecError(
                {file.string()}, "cartesian_product",
                fmt::format("architecture '{}' has no `cartesian_product:` section", arch.name),
                "an architecture with a `cartesian_product:` section "
                "(docs/arch_format.md), e.g. gscn_4x64",
                "or give the array as options (--pes, --vectors, ...)");
        static_cast<CartesianArray&>(config) = *arch.cartesian;
        arch_model = build_arch_model(arch);
    }
    if (const std::string problem = cartesian_config_problem(config); !problem.empty())
        throw SpecError({}, "--vectors", problem);
    // The array as the options spell it, whether it came from them or from --arch.
    const std::string pes = fmt::format("{}x{}", config.tiles_h, config.tiles_w);
    const std::string tiling =
        config.tiling == CartesianTiling::split_filters ? "split-filters" : "planar";

    const Network network = load_network(o.network);
    const NetworkTraining training = derive_training_problems(network, o.batch);
    std::optional<SparsityProfile> profile;
    if (!o.sparsity.profile.empty()) profile = load_sparsity_profile_named(o.sparsity.profile);
    std::vector<Row> rows;
    std::vector<std::string> skipped;
    bool layer_found = o.layer.empty();
    for (const LayerTraining& lt : training.layers) {
        const AnalyzedLayer& al = *lt.layer;
        if (!o.layer.empty() && al.layer.name != o.layer) continue;
        layer_found = true;
        const bool fc_as_conv =
            o.fc && std::holds_alternative<LinearAttributes>(al.layer.attributes);  // fc, matmul
        if (al.layer.type != LayerType::conv && !fc_as_conv) {
            skipped.push_back(al.layer.name);
            continue;
        }
        for (const PhaseProblem& pp : lt.phases) {
            if (o.phase != "all" && phase_name(pp.phase) != o.phase) continue;
            const CartesianConv conv = cartesian_conv_of(al.layer, al.input_shapes.at(0),
                                                         al.output_shape, o.batch, pp.phase);
            CartesianConfig layer_config = config;
            double output_density = 1.0;
            if (profile) {
                const PhaseDensities d = phase_densities(*profile, network.name(), al.layer.name,
                                                         pp.phase, o.sparsity.iteration_or_final());
                const auto [tiled, broadcast] = cartesian_operands(pp.phase);
                layer_config.input_density = cartesian_density(d.of(tiled).density);
                layer_config.filter_density = cartesian_density(d.of(broadcast).density);
                output_density = d.of(pp.output()).density;
            }
            Row row{al.layer.name, pp.phase, evaluate_cartesian(conv, layer_config), {}};
            if (arch_model)
                row.priced = priced(row, pp, layer_config, output_density, o.batch, *arch_model);
            rows.push_back(std::move(row));
        }
    }
    if (!layer_found)
        throw SpecError({}, "--layer",
                        fmt::format("network '{}' has no MAC layer '{}'", network.name(), o.layer),
                        "the name of a conv layer", "trainloop workload show " + o.network);
    // Only non-conv layers asked for: an empty table would read as "no cost".
    if (rows.empty() && !skipped.empty()) {
        const std::string what =
            o.layer.empty() ? fmt::format("network '{}' has no conv layer (its MAC layers: {})",
                                          network.name(), fmt::join(skipped, ", "))
                            : fmt::format("layer '{}' is not a conv layer", o.layer);
        throw SpecError({}, o.layer.empty() ? "--workload" : "--layer",
                        "nothing to evaluate: " + what,
                        "conv layers (the Cartesian-product dataflow convolves planes)",
                        "trainloop workload show " + o.network);
    }
    std::map<Phase, CartesianCost> totals;
    std::map<Phase, CartesianProblemCost> priced_totals;
    for (const Row& r : rows) {
        totals[r.phase] = add(totals[r.phase], r.cost);
        if (r.priced) priced_totals[r.phase] = add(priced_totals[r.phase], *r.priced);
    }
    const double stall = conflict_stall_per_cycle(config);

    if (o.format == "json") {
        nlohmann::json out = {
            {"network", network.name()},
            {"batch", o.batch},
            {"config",
             {{"pes", pes},
              {"tiles", config.sample_tiles},
              {"filter_vector", config.filter_vector},
              {"input_vector", config.input_vector},
              {"accumulator_banks", config.accumulator_banks},
              {"input_density", config.input_density},
              {"filter_density", config.filter_density},
              {"unused_rule", o.unused_rule},
              {"sparsity",
               o.sparsity.profile.empty() ? nlohmann::json() : nlohmann::json(o.sparsity.profile)},
              {"tiling", tiling},
              {"predictor", config.predictor},
              {"zeros", o.zeros}}},
            {"conflict_stall_per_cycle", stall},
            {"layers", nlohmann::json::array()},
            {"totals", nlohmann::json::object()},
            {"skipped", skipped}};
        // Given where they differ from the defaults (a run without them reads as before).
        if (config.filter_groups != 1) out["config"]["filter_groups"] = config.filter_groups;
        if (config.bank_stalls != CartesianBankStalls::unbuffered)
            out["config"]["bank_stalls"] = cartesian_bank_stalls_name(config.bank_stalls);
        if (o.fc) out["config"]["fc"] = true;
        if (arch_model) out["arch"] = o.arch;
        for (const Row& r : rows) {
            nlohmann::json j = cost_json(r.cost);
            j["layer"] = r.layer;
            j["phase"] = phase_name(r.phase);
            if (r.priced) j.update(priced_json(*r.priced));
            out["layers"].push_back(j);
        }
        for (const auto& [phase, c] : totals) {
            nlohmann::json j = cost_json(c);
            if (const auto p = priced_totals.find(phase); p != priced_totals.end())
                j.update(priced_json(p->second));
            out["totals"][std::string(phase_name(phase))] = j;
        }
        std::cout << json_text(out) << "\n";
        return;
    }
    std::cout << fmt::format(
        "{} (batch {}) on a Cartesian-product array: {}{} PEs, F×I = {}×{}, {} accumulator banks, "
        "{} tiling{}, {}, {} zeros, unused = {}\n"
        "expected bank-conflict stall: {:.4f} cycles per Cartesian product\n\n",
        network.name(), o.batch,
        fmt::format(
            "{}{}", config.sample_tiles > 1 ? fmt::format("{} tiles of ", config.sample_tiles) : "",
            config.filter_groups > 1 ? fmt::format("{} filter groups of ", config.filter_groups)
                                     : ""),
        pes, config.filter_vector, config.input_vector, config.accumulator_banks, tiling,
        config.predictor ? " with GSCN's predictor" : "",
        o.sparsity.profile.empty()
            ? fmt::format("densities input {} filter {}", config.input_density,
                          config.filter_density)
            : fmt::format("densities from sparsity profile {}", o.sparsity.profile),
        o.zeros, o.unused_rule, stall);
    std::cout << fmt::format("{:<20} {:<5} {:>14} {:>9} {:>14} {:>19} {:>14}{}\n", "layer", "phase",
                             "issued", "unused %", "CP cycles", "dense all-unused %", "slowest PE",
                             arch_model ? fmt::format(" {:>14}", "energy µJ") : "");
    const auto line = [](const std::string& name, std::string_view phase, const CartesianCost& c,
                         const CartesianProblemCost* p) {
        std::cout << fmt::format(
            "{:<20} {:<5} {:>14.4g} {:>9.2f} {:>14.4g} {:>19.2f} {:>14.4g}{}\n", name, phase,
            c.issued_products, c.unused_pct, c.product_cycles, c.all_unused_pct,
            c.slowest_pe_cycles, p ? fmt::format(" {:>14.4g}", p->energy.total_pj() * 1e-6) : "");
    };
    for (const Row& r : rows)
        line(r.layer, phase_name(r.phase), r.cost, r.priced ? &*r.priced : nullptr);
    std::cout << "\n";
    for (const auto& [phase, c] : totals) {
        const auto p = priced_totals.find(phase);
        line("total", phase_name(phase), c, p != priced_totals.end() ? &p->second : nullptr);
    }
    if (arch_model)
        std::cout << fmt::format(
            "\nenergy: priced with {}'s components as train-cost --evaluator cartesian prices "
            "it (docs/cartesian_product.md, \"Energy\")\n",
            o.arch);
    if (config.predictor) {
        std::cout << "\nGSCN's predictor skipped, of the Cartesian-product cycles without it:";
        for (const auto& [phase, c] : totals) {
            const double without = c.product_cycles + c.skipped_product_cycles;
            std::cout << fmt::format(
                " {} {:.1f} %", phase_name(phase),
                without > 0 ? 100.0 * c.skipped_product_cycles / without : 0.0);
        }
        std::cout << "\n";
    }
    if (!skipped.empty())
        std::cout << fmt::format("\nnot convolutions, not evaluated: {}\n",
                                 fmt::join(skipped, ", "));
}

}  // namespace

void add_cartesian_command(CLI::App& app) {
    auto o = std::make_shared<CartesianOptions>();
    CLI::App* cmd = app.add_subcommand(
        "cartesian",
        "A network's conv layer-phases on a Cartesian-product (SCNN-style) PE array: products "
        "issued, used and unused, all-unused Cartesian products (ReSprop thesis Table 6.1), "
        "accumulator-bank stalls; with --arch, energy too (docs/cartesian_product.md)");
    cmd->add_option("--workload,-w", o->network, "Shipped network name or network YAML file")
        ->required();
    CLI::Option* arch =
        cmd->add_option("--arch,-a", o->arch,
                        "Take the array from this architecture's `cartesian_product:` section "
                        "(a shipped name such as gscn_4x64, or a file) instead of --pes, "
                        "--tiles, --groups, --vectors, --banks, --tiling and --predictor, and "
                        "price each "
                        "layer-phase with its components as train-cost --evaluator cartesian "
                        "does (cycles, energy, off-chip words)");
    cmd->add_option("--batch,-b", o->batch, "Minibatch size")
        ->default_val(o->batch)
        ->transform(integer_in(1, 1 << 20));
    cmd->add_option("--phase", o->phase, "Phase to evaluate")
        ->default_val(o->phase)
        ->check(CLI::IsMember({"all", "fw", "bw", "wu"}));
    cmd->add_option("--layer", o->layer, "Only this layer");
    cmd->add_option("--pes", o->pes,
                    "PE grid ROWSxCOLUMNS; SCNN's planar tiling cuts the input plane into one "
                    "tile per PE")
        ->default_val(o->pes);
    cmd->add_option("--tiles", o->tiles,
                    "Copies of the --pes grid that run different samples of the minibatch with "
                    "the same filters: the slowest PE runs ceil(batch / tiles) samples (GSCN: 4, "
                    "ReSprop thesis Table 7.9; SCNN: 1)")
        ->default_val(o->tiles)
        ->transform(integer_in(1, kMaxCartesianCount));
    cmd->add_option("--groups", o->groups,
                    "Copies of the --pes grid that run the same samples, each with its own "
                    "ceil(filters / groups) of the filters; the tiling applies within a group "
                    "(the SCNN of Eager Pruning, ISCA 2019, §5.2: 32 groups of 4 PEs sharing "
                    "weights; SCNN and GSCN: 1)")
        ->default_val(o->groups)
        ->transform(integer_in(1, kMaxCartesianCount));
    cmd->add_option("--vectors", o->vectors,
                    "FxI: filter and input vector widths, F × I multipliers per PE")
        ->default_val(o->vectors);
    cmd->add_option("--banks", o->banks, "Accumulator banks per PE")
        ->default_val(o->banks)
        ->transform(integer_in(1, kMaxCartesianCount));
    cmd->add_option("--bank-stalls", o->bank_stalls,
                    "unbuffered: a cycle lasts as long as its fullest accumulator bank (an upper "
                    "bound: SCNN's crossbar queues); none: the queues absorb every conflict "
                    "(SCNN, ISCA 2017, §IV: 2 x F x I banks suffice), a lower bound")
        ->default_val(o->bank_stalls)
        ->check(CLI::IsMember(kCartesianBankStallsNames));
    cmd->add_flag("--fc", o->fc,
                  "Also the fully connected layers, each as a 1 x 1 convolution of a 1 x 1 plane "
                  "whose channels are the flattened input, and the matmul layers, each as a 1 x "
                  "1 convolution of its own plane, as train-cost --evaluator cartesian takes "
                  "them (an assumption: SCNN and GSCN describe convolutions only)");
    CLI::Option* input_density =
        cmd->add_option("--input-density", o->input_density,
                        "Density of the tiled operand (fw, wu: activations; bw: output "
                        "gradients), every layer")
            ->default_val(o->input_density)
            ->transform(finite_number_in(1e-9, 1.0));
    CLI::Option* filter_density =
        cmd->add_option("--filter-density", o->filter_density,
                        "Density of the broadcast operand (fw, bw: weights; wu: output "
                        "gradients), every layer")
            ->default_val(o->filter_density)
            ->transform(finite_number_in(1e-9, 1.0));
    add_sparsity_profile_options(cmd, o->sparsity);
    cmd->get_option("--sparsity")->excludes(input_density)->excludes(filter_density);
    cmd->add_option("--unused-rule", o->unused_rule,
                    "outside-output: a product outside the output plane or between strided "
                    "outputs is unused; negative-only: only a negative output coordinate (GSCN's "
                    "predictor test, thesis §6.5)")
        ->default_val(o->unused_rule)
        ->check(CLI::IsMember({"outside-output", "negative-only"}));
    cmd->add_option("--tiling", o->tiling,
                    "planar: SCNN's, the input plane cut into a tile per PE, every PE with all "
                    "filters; split-filters: GSCN's (thesis §6.4), every PE with the whole plane "
                    "and a share of the filters")
        ->default_val(o->tiling)
        ->check(CLI::IsMember({"planar", "split-filters"}));
    cmd->add_flag("--predictor", o->predictor,
                  "GSCN's predictor (thesis §6.5): per input vector, skip the rest of the "
                  "filter stream once a filter vector's products all have a negative width "
                  "coordinate (fw and wu; one cycle late). Counted in the CP cycles and the "
                  "slowest PE; the all-unused share stays SCNN's, without it");
    cmd->add_option("--zeros", o->zeros,
                    "expected: every PE holds the expected count of nonzeros of its share; "
                    "random: zeros fall independently, so at each (sample, channel) step the PEs "
                    "wait for the one that drew the most nonzeros (what a simulator driven by "
                    "real tensors measures, thesis §7.5.4; docs/cartesian_product.md)")
        ->default_val(o->zeros)
        ->check(CLI::IsMember(kCartesianZerosNames));
    cmd->add_option("--format,-f", o->format, "Output format")
        ->default_val(o->format)
        ->check(CLI::IsMember({"text", "json"}));
    for (const char* array_option : {"--pes", "--tiles", "--groups", "--vectors", "--banks",
                                     "--bank-stalls", "--tiling", "--predictor"})
        arch->excludes(cmd->get_option(array_option));
    cmd->footer(
        "\nExamples:\n"
        "  trainloop cartesian --workload resnet18 --phase wu\n"
        "  trainloop cartesian --workload resnet34 --phase wu --pes 8x8 --vectors 4x4 --banks 32 "
        "--format json\n"
        "  trainloop cartesian --workload resnet18 --phase wu --tiling split-filters --predictor\n"
        "  trainloop cartesian --workload resnet18 --batch 64 --tiles 4 --tiling split-filters "
        "--predictor\n"
        "  trainloop cartesian --workload resnet18 --batch 64 --arch gscn_4x64 --sparsity resprop");
    cmd->callback([o] { run_reporting_errors(o->format, [o] { run_cartesian(*o); }); });
}

}  // namespace trainloop::cli
