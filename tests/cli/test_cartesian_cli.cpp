// End-to-end: `trainloop cartesian` (cli/cartesian_command.hpp) — its JSON
// keys, totals that are the sums of its rows, the ReSprop thesis's Table 6.1
// configuration, and its errors (exit 2, naming the option).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/run_binary.hpp"

namespace {

using trainloop::testing::Capture;
using trainloop::testing::CommandResult;
using trainloop::testing::run_trainloop;

nlohmann::json run_json(const std::string& arguments) {
    const CommandResult r =
        run_trainloop("cartesian " + arguments + " --format json", Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 0) << arguments << "\n" << r.output;
    return nlohmann::json::parse(r.output);
}

TEST(CartesianCli, TotalsAreTheSumsOfTheLayers) {
    const nlohmann::json j = run_json("--workload resnet18 --batch 1");
    double issued_wu = 0;
    double all_unused_wu = 0;
    bool saw_bw = false;
    for (const auto& row : j["layers"]) {
        EXPECT_GE(row["used_products"].get<double>(), 0.0);
        EXPECT_LE(row["used_products"].get<double>(), row["issued_products"].get<double>());
        if (row["phase"] == "bw") saw_bw = true;
        if (row["phase"] != "wu") continue;
        issued_wu += row["issued_products"].get<double>();
        all_unused_wu += row["all_unused_cycles"].get<double>();
    }
    EXPECT_TRUE(saw_bw);
    EXPECT_DOUBLE_EQ(j["totals"]["wu"]["issued_products"].get<double>(), issued_wu);
    EXPECT_DOUBLE_EQ(j["totals"]["wu"]["all_unused_cycles"].get<double>(), all_unused_wu);
    EXPECT_EQ(j["skipped"], nlohmann::json::array({"fc"}));
    EXPECT_GT(j["conflict_stall_per_cycle"].get<double>(), 0.0) << "16 products into 32 banks";
}

TEST(CartesianCli, WeightGradientsWasteMoreThanTheForwardPass) {
    // Thesis §6.3.1: the weight-gradient convolution of two planes of about
    // the same size wastes most Cartesian products; the forward pass little.
    // A strided layer also discards the products between its outputs.
    const nlohmann::json plain = run_json("--workload resnet18 --batch 1 --layer layer1.0.conv1");
    EXPECT_LT(plain["totals"]["fw"]["unused_pct"].get<double>(), 15.0);
    EXPECT_GT(plain["totals"]["wu"]["unused_pct"].get<double>(), 90.0);
    const nlohmann::json strided = run_json("--workload resnet18 --batch 1 --layer layer2.0.conv1");
    EXPECT_GT(strided["totals"]["fw"]["unused_pct"].get<double>(), 70.0) << "stride 2 keeps 1 in 4";
}

TEST(CartesianCli, Table61UnderThePredictorsRule) {
    // Table 6.1 (F = I = 4, 64 PEs): 64.91 % on ResNet-18, 69.6 % on
    // ResNet-34, counting as unused the products of negative output
    // coordinate (§6.5). Within ±20 % (docs/reproductions/resprop.md).
    for (const auto& [net, paper] : {std::pair{"resnet18", 64.91}, std::pair{"resnet34", 69.6}}) {
        const nlohmann::json j = run_json(std::string("--workload ") + net +
                                          " --batch 1 --phase wu --unused-rule negative-only");
        const double ours = j["totals"]["wu"]["all_unused_pct"].get<double>();
        EXPECT_NEAR(ours / paper, 1.0, 0.2) << net << ": " << ours;
    }
}

TEST(CartesianCli, SplitFiltersKeepsThePesOfSmallPlanesBusy) {
    // Thesis §6.3.1: layer4's 7 × 7 planes leave most of 64 PEs idle under
    // SCNN's planar tiling; GSCN's split filters (§6.4) use them all.
    const std::string layer = "--workload resnet18 --batch 1 --phase fw --layer layer4.1.conv1";
    const nlohmann::json scnn = run_json(layer);
    const nlohmann::json gscn = run_json(layer + " --tiling split-filters");
    EXPECT_EQ(scnn["totals"]["fw"]["busy_pes"], 49);
    EXPECT_EQ(gscn["totals"]["fw"]["busy_pes"], 64);
    EXPECT_EQ(scnn["totals"]["fw"]["used_products"], gscn["totals"]["fw"]["used_products"]);
    EXPECT_LT(gscn["totals"]["fw"]["slowest_pe_cycles"].get<double>(),
              scnn["totals"]["fw"]["slowest_pe_cycles"].get<double>());
}

TEST(CartesianCli, ThePredictorHalvesTheWeightGradientConvolutionAsFig74Says) {
    // Thesis §7.5.4 (Fig. 7.4, training with ReSprop): "adding predictor has
    // made gradient of weight calculation about 2× faster". Within ±20 %
    // (docs/reproductions/resprop.md); bw, whose output coordinate grows
    // along the filter stream, is untouched; no used product is skipped.
    for (const char* net : {"resnet18", "resnet34"}) {
        const std::string gscn = std::string("--workload ") + net +
                                 " --batch 1 --tiling split-filters --sparsity resprop";
        const nlohmann::json off = run_json(gscn);
        const nlohmann::json on = run_json(gscn + " --predictor");
        EXPECT_EQ(on["config"]["predictor"], true);
        EXPECT_EQ(off["config"]["predictor"], false);
        const auto cycles = [](const nlohmann::json& j, const char* phase) {
            return j["totals"][phase]["slowest_pe_cycles"].get<double>();
        };
        EXPECT_NEAR(cycles(off, "wu") / cycles(on, "wu") / 2.0, 1.0, 0.2) << net;
        EXPECT_EQ(cycles(off, "bw"), cycles(on, "bw")) << net;
        EXPECT_EQ(on["totals"]["bw"]["skipped_product_cycles"].get<double>(), 0.0) << net;
        EXPECT_GT(on["totals"]["wu"]["skipped_product_cycles"].get<double>(), 0.0) << net;
        EXPECT_EQ(on["totals"]["wu"]["used_products"], off["totals"]["wu"]["used_products"]);
        EXPECT_LT(on["totals"]["wu"]["issued_products"].get<double>(),
                  off["totals"]["wu"]["issued_products"].get<double>());
        // §8: GSCN is faster than SCNN on back-propagation (the direction; the
        // thesis's 6× and 5.5× are not reached, docs/reproductions/resprop.md).
        const nlohmann::json scnn =
            run_json(std::string("--workload ") + net + " --batch 1 --sparsity resprop");
        EXPECT_GT(cycles(scnn, "bw") + cycles(scnn, "wu"),
                  1.5 * (cycles(on, "bw") + cycles(on, "wu")))
            << net;
    }
}

TEST(CartesianCli, TilesTakeTheirShareOfTheMinibatch) {
    // Thesis §6.5 and Table 7.9: GSCN's 4 tiles of 8 × 8 PEs run different
    // samples; at minibatch 64 the slowest PE runs 16 of them.
    const std::string base = "--workload resnet18 --batch 64 --tiling split-filters --predictor";
    const nlohmann::json one = run_json(base);
    const nlohmann::json four = run_json(base + " --tiles 4");
    EXPECT_EQ(one["config"]["tiles"], 1);
    EXPECT_EQ(four["config"]["tiles"], 4);
    for (const char* phase : {"fw", "bw", "wu"}) {
        EXPECT_NEAR(four["totals"][phase]["slowest_pe_cycles"].get<double>() /
                        one["totals"][phase]["slowest_pe_cycles"].get<double>(),
                    0.25, 1e-12)
            << phase;
        EXPECT_EQ(four["totals"][phase]["busy_pes"], 256) << phase;
        EXPECT_EQ(four["totals"][phase]["issued_products"], one["totals"][phase]["issued_products"])
            << phase;
    }
    const CommandResult text =
        run_trainloop("cartesian " + base + " --tiles 4 --phase wu", Capture::stdout_only);
    EXPECT_NE(text.output.find("4 tiles of 8x8 PEs"), std::string::npos) << text.output;
}

TEST(CartesianCli, FilterGroupsQueuedBanksAndFullyConnectedLayers) {
    // Eager Pruning §5.2's SCNN: 32 groups of 2 × 2 PEs, each group its own share of
    // the filters; SCNN §IV's queued banks; fc layers as 1 × 1 convolutions.
    const std::string base = "--workload alexnet --batch 4 --phase fw --pes 2x2";
    const nlohmann::json one = run_json(base);
    const nlohmann::json grouped = run_json(base + " --groups 32 --bank-stalls none");
    EXPECT_FALSE(one["config"].contains("filter_groups")) << "the default is not written";
    EXPECT_EQ(grouped["config"]["filter_groups"], 32);
    EXPECT_EQ(grouped["config"]["bank_stalls"], "none");
    EXPECT_EQ(grouped["conflict_stall_per_cycle"].get<double>(), 0.0);
    EXPECT_EQ(grouped["totals"]["fw"]["used_products"], one["totals"]["fw"]["used_products"]);
    // conv2's 256 filters (128 per half: groups of 2) over 32 groups: 4 each.
    const auto slowest = [](const nlohmann::json& j, const char* layer) {
        for (const auto& row : j["layers"])
            if (row["layer"] == layer) return row["slowest_pe_cycles"].get<double>();
        return 0.0;
    };
    const nlohmann::json queued = run_json(base + " --bank-stalls none");
    EXPECT_NEAR(slowest(grouped, "conv2") / slowest(queued, "conv2"), 4.0 / 128.0, 1e-12);
    EXPECT_EQ(grouped["skipped"], nlohmann::json::array({"fc6", "fc7", "fc8"}));
    const nlohmann::json with_fc = run_json(base + " --groups 32 --bank-stalls none --fc");
    EXPECT_TRUE(with_fc["skipped"].empty());
    EXPECT_EQ(with_fc["config"]["fc"], true);
    EXPECT_GT(with_fc["totals"]["fw"]["used_products"].get<double>(),
              grouped["totals"]["fw"]["used_products"].get<double>());
    const CommandResult text =
        run_trainloop("cartesian " + base + " --groups 32", Capture::stdout_only);
    EXPECT_NE(text.output.find("32 filter groups of 2x2 PEs"), std::string::npos) << text.output;
}

TEST(CartesianCli, TheThesisGscnOverScnnLiesBetweenEqualArraysAndItsOwnSizes) {
    // §8: GSCN is 6× faster than SCNN on ResNet-18's back-propagation with
    // ReSprop. With both on 64 PEs trainloop gives less; with GSCN's 4 tiles
    // of 64 (Table 7.9) against SCNN's 64 PEs (§6.3.1), the sizes the
    // reproduction compares, more (docs/reproductions/resprop.md, "§8 at the
    // thesis's sizes").
    const std::string net = "--workload resnet18 --batch 64 --sparsity resprop";
    const auto backprop = [](const nlohmann::json& j) {
        return j["totals"]["bw"]["slowest_pe_cycles"].get<double>() +
               j["totals"]["wu"]["slowest_pe_cycles"].get<double>();
    };
    const double scnn = backprop(run_json(net + " --tiles 1"));
    const std::string gscn = net + " --tiling split-filters --predictor";
    const double equal = scnn / backprop(run_json(gscn + " --tiles 1"));
    const double sized = scnn / backprop(run_json(gscn + " --tiles 4"));
    EXPECT_GT(equal, 1.0) << "GSCN is faster either way";
    EXPECT_LT(equal, 6.0);
    EXPECT_GT(sized, 6.0);
    EXPECT_NEAR(sized / equal, 4.0, 1e-9) << "64 samples: 16 per tile against 64 in turn";
}

TEST(CartesianCli, TheTextSaysWhatThePredictorSkipped) {
    const trainloop::testing::CommandResult r = trainloop::testing::run_trainloop(
        "cartesian --workload resnet18 --batch 1 --layer layer1.0.conv1 --tiling split-filters "
        "--predictor",
        Capture::stdout_only);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("split-filters tiling with GSCN's predictor"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("GSCN's predictor skipped, of the Cartesian-product cycles without "
                            "it: fw "),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find(" bw 0.0 %"), std::string::npos) << "bw: nothing to skip";
}

TEST(CartesianCli, ASparsityProfileSetsEachLayersDensities) {
    // ReSprop's profile: dy at density 0.1 in bw and wu of every conv layer.
    const std::string layer = "--workload resnet18 --batch 1 --layer layer1.0.conv1";
    const nlohmann::json dense = run_json(layer);
    const nlohmann::json sparse = run_json(layer + " --sparsity resprop");
    for (const char* phase : {"bw", "wu"}) {
        const double ratio = sparse["totals"][phase]["issued_products"].get<double>() /
                             dense["totals"][phase]["issued_products"].get<double>();
        EXPECT_LE(ratio, 0.1 + 1e-9) << phase << ": dy at 0.1, the other operand at most 1";
        EXPECT_LT(sparse["totals"][phase]["slowest_pe_cycles"].get<double>(),
                  dense["totals"][phase]["slowest_pe_cycles"].get<double>());
    }
    EXPECT_EQ(sparse["config"]["sparsity"], "resprop");
}

TEST(CartesianCli, RandomZerosSlowReSpropsWeightGradientOnGscnNotDenseTraining) {
    // GSCN splits SpHG's filters over its PEs: with random zeros the PE that drew the most
    // nonzeros sets each step (docs/cartesian_product.md). Dense operands do not move.
    const std::string gscn = "--workload resnet18 --batch 1 --tiling split-filters --phase wu";
    const nlohmann::json expected = run_json(gscn + " --sparsity resprop");
    const nlohmann::json random = run_json(gscn + " --sparsity resprop --zeros random");
    EXPECT_EQ(random["config"]["zeros"], "random");
    EXPECT_GT(random["totals"]["wu"]["slowest_pe_cycles"].get<double>(),
              1.05 * expected["totals"]["wu"]["slowest_pe_cycles"].get<double>());
    EXPECT_DOUBLE_EQ(run_json(gscn + " --zeros random")["totals"]["wu"]["slowest_pe_cycles"],
                     run_json(gscn)["totals"]["wu"]["slowest_pe_cycles"]);
}

TEST(CartesianCli, RandomZerosTakeAPartOfTable78sGapOnResNet18) {
    // docs/reproductions/resprop.md, "where the zeros fall": GSCN with its predictor, bw + wu,
    // standard training over ReSprop. Expected zeros keep almost the whole MAC ratio (9.65×),
    // random zeros 8.59×; the thesis measured 6.52× (Table 7.8).
    const auto backprop = [](const nlohmann::json& j) {
        return j["totals"]["bw"]["slowest_pe_cycles"].get<double>() +
               j["totals"]["wu"]["slowest_pe_cycles"].get<double>();
    };
    const std::string gscn = "--workload resnet18 --batch 1 --tiling split-filters --predictor";
    const double dense = backprop(run_json(gscn));
    const double expected = dense / backprop(run_json(gscn + " --sparsity resprop"));
    const double random = dense / backprop(run_json(gscn + " --sparsity resprop --zeros random"));
    EXPECT_NEAR(expected, 9.65, 0.05);
    EXPECT_NEAR(random, 8.59, 0.05);
    EXPECT_GT(random, 6.52) << "still above the thesis: a part of the gap, not all of it";
}

// --arch takes the array from an architecture's `cartesian_product:` section:
// gscn_4x64's is the thesis's GSCN, the same as its options spelt out.
TEST(CartesianCli, AnArchitecturesSectionIsTheArrayItsOptionsSpell) {
    const nlohmann::json from_spec =
        run_json("--workload resnet18 --batch 8 --phase wu --arch gscn_4x64");
    const nlohmann::json from_options = run_json(
        "--workload resnet18 --batch 8 --phase wu --pes 8x8 --tiles 4 --vectors 4x4 "
        "--banks 32 --tiling split-filters --predictor");
    EXPECT_EQ(from_spec["config"], from_options["config"]);
    // The same counts; the architecture also prices them (its energy and cycles).
    nlohmann::json counts = from_spec["totals"];
    for (const char* priced : {"cycles", "energy_pj", "energy", "offchip_words"}) {
        EXPECT_TRUE(counts["wu"].contains(priced)) << priced;
        counts["wu"].erase(priced);
    }
    EXPECT_EQ(counts, from_options["totals"]);
    EXPECT_EQ(from_spec["config"]["tiling"], "split-filters");

    const CommandResult none = run_trainloop(
        "cartesian --workload resnet18 --arch procrustes_sparse_16x16", Capture::stdout_and_stderr);
    EXPECT_EQ(none.exit_code, 2) << none.output;
    EXPECT_NE(none.output.find("procrustes_sparse_16x16.yaml"), std::string::npos) << none.output;
    EXPECT_NE(none.output.find("no `cartesian_product:` section"), std::string::npos)
        << none.output;
    const CommandResult both = run_trainloop(
        "cartesian --workload resnet18 --arch gscn_4x64 --pes 4x4", Capture::stdout_and_stderr);
    EXPECT_EQ(both.exit_code, 2) << both.output;
    EXPECT_NE(both.output.find("--pes"), std::string::npos) << both.output;
}

TEST(CartesianCli, BadInputIsALocatedErrorWithExitTwo) {
    for (const auto& [args, expected] :
         {std::pair{"--workload resnet18 --pes 8y8", "--pes"},
          std::pair{"--workload resnet18 --vectors 0x4", "--vectors"},
          std::pair{"--workload resnet18 --vectors 64x64", "F × I"},
          std::pair{"--workload resnet18 --banks 0", "--banks"},
          std::pair{"--workload resnet18 --tiles 0", "--tiles"},
          std::pair{"--workload resnet18 --groups 0", "--groups"},
          std::pair{"--workload resnet18 --bank-stalls queued", "--bank-stalls"},
          std::pair{"--workload resnet18 --arch gscn_4x64 --groups 2", "--groups"},
          std::pair{"--workload resnet18 --input-density 1.5", "--input-density"},
          std::pair{"--workload resnet18 --filter-density nan", "--filter-density"},
          std::pair{"--workload resnet18 --unused-rule sometimes", "--unused-rule"},
          std::pair{"--workload resnet18 --tiling diagonal", "--tiling"},
          std::pair{"--workload resnet18 --zeros sometimes", "--zeros"},
          std::pair{"--workload resnet18 --sparsity resprop --input-density 0.5", "--sparsity"},
          std::pair{"--workload resnet18 --sparsity no_such_profile", "no_such_profile"},
          std::pair{"--workload resnet18 --layer nope", "--layer"},
          // Nothing the dataflow can run: an error, not an empty table.
          std::pair{"--workload resnet18 --layer fc", "layer 'fc' is not a conv layer"},
          std::pair{"--workload mlp_mnist", "no conv layer (its MAC layers: fc1, fc2)"},
          std::pair{"--workload no_such_network", "no_such_network"}}) {
        const CommandResult r =
            run_trainloop(std::string("cartesian ") + args, Capture::stderr_only);
        EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
        EXPECT_NE(r.output.find(expected), std::string::npos) << args << "\n" << r.output;
    }
}

TEST(CartesianCli, ALongOptionValueIsQuotedShort) {
    const std::string pes(2000, '8');
    const CommandResult r =
        run_trainloop("cartesian --workload resnet18 --pes " + pes, Capture::stderr_only);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_LT(r.output.size(), 500u) << r.output;
}

TEST(CartesianCli, JsonErrorsAreJson) {
    const CommandResult r =
        run_trainloop("cartesian --workload resnet18 --pes 3 --format json", Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 2);
    const nlohmann::json j = nlohmann::json::parse(r.output);
    EXPECT_NE(j.dump().find("--pes"), std::string::npos) << j.dump();
}

// An absurd clock (1e-300 GHz made a wu phase's leakage energy `-nan` µJ,
// exit 0) is refused where the spec gives it, as is every physical quantity
// outside its range (common/quantities.hpp).
TEST(CartesianCli, AnAbsurdClockIsRefusedAtItsKey) {
    std::string spec = trainloop::testing::read_text(std::string(TRAINLOOP_SOURCE_DIR) +
                                                     "/arch_specs/gscn_4x64.yaml");
    const auto at = spec.find("clock_ghz: 1.0");
    ASSERT_NE(at, std::string::npos);
    // The library by its absolute path, as the copy is elsewhere.
    const std::string library = "component_library: components/";
    const auto lib = spec.find(library);
    ASSERT_NE(lib, std::string::npos);
    spec.replace(
        lib, library.size(),
        "component_library: " + std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/components/");
    for (const char* clock : {"1e-300", "1e300", "0"}) {
        std::string absurd = spec;
        absurd.replace(at, 14, std::string("clock_ghz: ") + clock);
        const std::string file = trainloop::testing::temp_file("absurd_clock.yaml", absurd);
        const auto r =
            run_trainloop("cartesian --workload resnet18 --batch 8 --phase wu --arch " + file,
                          Capture::stdout_and_stderr);
        EXPECT_EQ(r.exit_code, 2) << clock << "\n" << r.output;
        EXPECT_NE(r.output.find(file + ":47:"), std::string::npos) << r.output;
        EXPECT_NE(r.output.find("clock_ghz: a frequency of"), std::string::npos) << r.output;
        EXPECT_EQ(r.output.find("nan"), std::string::npos) << r.output;
    }
}

}  // namespace
