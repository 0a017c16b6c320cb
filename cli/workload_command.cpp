#include "workload_command.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>

#include "number_options.hpp"
#include "problem/training_problems.hpp"
#include "reporting_errors.hpp"
#include "sparse/network_densities.hpp"
#include "sparsity_command_options.hpp"
#include "workload/network_library.hpp"
#include "workload_report.hpp"

namespace trainloop::cli {
namespace {

struct ShowOptions {
    std::string network;
    std::int64_t batch = kDefaultBatch;
    std::string format = "text";
    SparsityOptions sparsity;
};

void run_show(const ShowOptions& options) {
    const Network network = load_network(options.network);
    const NetworkTraining training = derive_training_problems(network, options.batch);
    std::optional<NetworkDensities> densities;
    std::string profile_name;
    if (!options.sparsity.profile.empty()) {
        const SparsityProfile profile = load_sparsity_profile_named(options.sparsity.profile);
        profile_name = profile.name;
        densities = network_densities(profile, network.name(), training,
                                      options.sparsity.iteration_or_final());
    }
    if (options.format == "json") {
        nlohmann::json out = training_to_json(network, training, options.batch);
        if (densities) out["sparsity"] = densities_to_json(profile_name, *densities);
        std::cout << json_text(out) << "\n";
    } else {
        std::cout << training_to_text(network, training, options.batch);
        if (densities) std::cout << "\n" << densities_to_text(profile_name, *densities);
    }
}

void run_list() {
    for (const std::string& name : shipped_network_names()) {
        const Network network = load_network(name);
        std::cout << fmt::format("{:<16} {}\n", name, network.spec().description);
    }
}

}  // namespace

void add_workload_command(CLI::App& app) {
    CLI::App* workload =
        app.add_subcommand("workload", "Inspect networks and their training problems");
    workload->require_subcommand(1);

    auto options = std::make_shared<ShowOptions>();
    CLI::App* show = workload->add_subcommand(
        "show", "Show every MAC layer's iteration space and its fw/bw/wu problems");
    show->add_option(
            "network", options->network,
            "A shipped network name (see `trainloop workload list`) or a network YAML file")
        ->required();
    show->add_option("--batch,-b", options->batch, "Minibatch size N")
        ->default_val(kDefaultBatch)
        ->transform(count_from(1));
    show->add_option("--format,-f", options->format, "Output format")
        ->default_val("text")
        ->check(CLI::IsMember({"text", "json"}));
    add_sparsity_profile_options(show, options->sparsity);
    show->callback(
        [options] { run_reporting_errors(options->format, [options] { run_show(*options); }); });

    CLI::App* list = workload->add_subcommand("list", "List the shipped networks");
    list->callback(run_list);
}

}  // namespace trainloop::cli
