// The shipped default arrays keep their results: every example mapping on the
// dense Procrustes baseline and on the sparse Procrustes design (`procrustes`
// profile) gives the cycles and energy tests/golden/default_arrays/results.json
// holds. Its README shows they are the results from before the network
// topologies (issue #18) but for one counting fix it names. A change to the
// bus, the networks' pricing or the evaluator that moves a default result
// fails here; one meant to move them rewrites the golden file with
// tools/golden/default_arrays.py and says why in the README.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_binary.hpp"

namespace {

const std::filesystem::path kSource = TRAINLOOP_SOURCE_DIR;

TEST(DefaultArrays, EveryExampleMappingKeepsItsCyclesAndEnergy) {
    const nlohmann::json golden = nlohmann::json::parse(
        trainloop::testing::read_text(kSource / "tests/golden/default_arrays/results.json"));
    ASSERT_EQ(golden["cases"].size(), 36u) << "18 example mappings on two arrays";
    for (const auto& c : golden["cases"]) {
        const std::string mapping = c["mapping"].get<std::string>();
        const std::string arch = c["arch"].get<std::string>();
        SCOPED_TRACE(mapping + " on " + arch);
        std::string arguments =
            "eval --mapping " + (kSource / "examples/mappings" / mapping).string() + " --arch " +
            (kSource / "arch_specs" / (arch + ".yaml")).string() + " --format json";
        if (!c["sparsity"].is_null())
            arguments += " --sparsity " + c["sparsity"].get<std::string>();
        const trainloop::testing::CommandResult r =
            trainloop::testing::run_trainloop(arguments, trainloop::testing::Capture::stdout_only);
        ASSERT_EQ(r.exit_code, 0) << r.output;
        const nlohmann::json now = nlohmann::json::parse(r.output);
        EXPECT_EQ(now["cycles"], c["cycles"]);
        EXPECT_EQ(now["macs"], c["macs"]);
        const double energy = c["energy_pj"].get<double>();
        EXPECT_NEAR(now["energy_pj"].get<double>(), energy, 1e-12 * energy);
        if (c.contains("effectual_macs")) {
            const double effectual = c["effectual_macs"].get<double>();
            EXPECT_NEAR(now["effectual_macs"].get<double>(), effectual, 1e-12 * effectual);
        }
    }
}

}  // namespace
