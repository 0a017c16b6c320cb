// Round trip through the real timeloop-model, when one is available:
// `trainloop map --export timeloop DIR` writes each layer-phase's best mapping
// as Timeloop's files, timeloop-model evaluates them, and its statistics must
// agree with trainloop's evaluation of the same files exactly as on the
// reference corpus (tests/timeloop/test_timeloop_corpus.cpp): counts and
// cycles identical, energy within 0.1 %, minus the documented differences.
//
// Set TRAINLOOP_TIMELOOP_BIN to the directory holding timeloop-model (built by
// tools/oracles/build_timeloop.sh). Without it the test is skipped with a
// message: CI does not build Timeloop.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>

#include "support/run_binary.hpp"
#include "support/timeloop_corpus.hpp"
#include "support/timeloop_stats.hpp"

namespace trainloop {
namespace {

namespace fs = std::filesystem;

std::optional<fs::path> timeloop_bin() {
    const char* dir = std::getenv("TRAINLOOP_TIMELOOP_BIN");
    if (dir == nullptr || !fs::exists(fs::path(dir) / "timeloop-model")) return std::nullopt;
    return fs::path(dir);
}

using testing::read_text;

// timeloop-model on an exported directory, as the corpus was made (its
// inter-PE link transfers off: docs/nest_analysis.md, difference 2).
std::optional<nlohmann::json> run_timeloop_model(const fs::path& bin, const fs::path& dir) {
    const std::string command = fmt::format(
        "cd '{}' && LD_LIBRARY_PATH='{}' TIMELOOP_DISABLE_LINK_TRANSFERS=1 '{}' map.yaml "
        "problem.yaml arch.yaml ERT.yaml ART.yaml > timeloop-model.log 2>&1",
        dir.string(), bin.string(), (bin / "timeloop-model").string());
    if (std::system(command.c_str()) != 0) return std::nullopt;
    return testing::parse_timeloop_stats(read_text(dir / "timeloop-model.stats.txt"));
}

TEST(TimeloopOracle, MapExportThenTimeloopModelAgreesWithTrainloop) {
    const auto bin = timeloop_bin();
    if (!bin) {
        GTEST_SKIP() << "no Timeloop oracle: set TRAINLOOP_TIMELOOP_BIN to the directory with "
                        "timeloop-model (tools/oracles/build_timeloop.sh) to run this round trip";
    }
    const fs::path out = fs::path(::testing::TempDir()) / "trainloop_oracle_round_trip";
    fs::remove_all(out);
    // Generated cases: the mapper's best mappings (random search, a few seeds)
    // for every forward layer of two networks on the shipped 16x16 design.
    int exported = 0;
    for (const auto& [workload, seed] : {std::pair{"resnet18", 1}, std::pair{"mlp_mnist", 2}}) {
        const fs::path dir = out / fmt::format("{}_{}", workload, seed);
        const auto r = testing::run_trainloop(fmt::format(
            "map --arch {}/arch_specs/procrustes_baseline_16x16.yaml --workload {} --batch 4 "
            "--phase fw --search random --budget 300 --seed {} -j 1 -q --export timeloop {}",
            TRAINLOOP_SOURCE_DIR, workload, seed, dir.string()));
        ASSERT_EQ(r.exit_code, 0) << r.output;
        testing::Tally t;
        for (const auto& entry : fs::directory_iterator(dir)) {
            if (!entry.is_directory()) continue;
            const auto stats = run_timeloop_model(*bin, entry.path());
            ASSERT_TRUE(stats) << "timeloop-model failed on " << entry.path() << ":\n"
                               << read_text(entry.path() / "timeloop-model.log");
            std::vector<std::string> files;
            for (const char* f :
                 {"map.yaml", "problem.yaml", "arch.yaml", "ERT.yaml", "ART.yaml"}) {
                files.push_back((entry.path() / f).string());
            }
            testing::compare_with_timeloop(testing::evaluate_timeloop_files(files), *stats,
                                           entry.path().filename().string(), t);
            ++exported;
        }
        for (const std::string& m : t.mismatches) ADD_FAILURE() << m;
        std::cout << fmt::format(
            "{}: {} exported layer-phases, {} quantities compared, {} "
            "excluded\n",
            workload, t.cases, t.compared, t.excluded);
    }
    EXPECT_GT(exported, 10);
}

}  // namespace
}  // namespace trainloop
