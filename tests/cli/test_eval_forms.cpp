// Every mapping trainloop prints evaluates again: `eval --mapping` reads the
// YAML, JSON (a mapping, a layer-phase entry, or all of `map --format json`)
// and one-line forms, by content, and gives the numbers `map` printed;
// `eval --db` re-evaluates a stored result.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/run_binary.hpp"

namespace {

using trainloop::testing::run_trainloop;
using trainloop::testing::temp_file;
using trainloop::testing::temp_path;

const std::string kArch =
    std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/procrustes_baseline_16x16.yaml";
const std::string kMap =
    "map --arch " + kArch + " --workload mlp_mnist --dataflow K,N --budget 300 -q";

nlohmann::json run_json(const std::string& arguments) {
    const auto r = run_trainloop(arguments + " -f json", trainloop::testing::Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 0) << arguments << "\n" << r.output;
    return r.exit_code == 0 ? nlohmann::json::parse(r.output) : nlohmann::json();
}

// The cycles and energy `eval` prints for a mapping argument.
void expect_evaluates_to(const std::string& eval_arguments, const nlohmann::json& entry) {
    const nlohmann::json e = run_json("eval " + eval_arguments);
    ASSERT_TRUE(e.is_object()) << eval_arguments;
    EXPECT_EQ(e["cycles"], entry["cycles"]) << eval_arguments;
    EXPECT_DOUBLE_EQ(e["energy_pj"].get<double>(), entry["energy_pj"].get<double>())
        << eval_arguments;
}

TEST(EvalForms, MapJsonOutputEvaluatesWholeAndAsEntryAndAsMappingObject) {
    const nlohmann::json map = run_json(kMap);
    const std::string whole = temp_file("map.json", map.dump(2));
    const nlohmann::json& fc2_wu = map["layers"][1]["phases"]["wu"];
    ASSERT_EQ(map["layers"][1]["name"], "fc2");
    // The whole output: arch, network and batch come from it.
    expect_evaluates_to("--mapping " + whole + " --layer fc2 --phase wu", fc2_wu);
    const std::string target = " --arch " + kArch + " --workload mlp_mnist --layer fc2 --phase wu";
    expect_evaluates_to("--mapping " + temp_file("entry.json", fc2_wu.dump()) + target, fc2_wu);
    expect_evaluates_to(
        "--mapping " + temp_file("mapping.json", fc2_wu["mapping"].dump(1)) + target, fc2_wu);
}

TEST(EvalForms, OneLineFormEvaluatesFromAFileAndInline) {
    const nlohmann::json map = run_json(kMap);
    const nlohmann::json& fc1_fw = map["layers"][0]["phases"]["fw"];
    // The one-line form, as the database stores it.
    const std::string db = temp_path("forms.db");
    std::filesystem::remove(db);
    ASSERT_EQ(run_trainloop(kMap + " --phase fw --db " + db).exit_code, 0);
    const auto text = run_trainloop("query --db " + db +
                                    " -f csv --sql \"SELECT m.text FROM results r JOIN mappings m "
                                    "ON m.id = r.mapping_id WHERE r.layer = 'fc1'\"");
    const std::string line = text.output.substr(
        text.output.find('\n') + 1, text.output.rfind('\n') - text.output.find('\n') - 1);
    ASSERT_NE(line.find("DRAM["), std::string::npos) << text.output;
    const std::string target = " --arch " + kArch + " --workload mlp_mnist --layer fc1 --phase fw";
    expect_evaluates_to(
        "--mapping " + temp_file("line.txt", "# from the database\n" + line + "\n") + target,
        fc1_fw);
    expect_evaluates_to("--mapping \"" + line + "\"" + target, fc1_fw);
    // And the stored result itself, by point.
    expect_evaluates_to("--db " + db + " --point 1 --layer fc1 --phase fw", fc1_fw);
}

// A padded mapping (`map --imperfect-factors`: K = 1000 over all 16
// columns) prints in every form and evaluates again to the same numbers.
TEST(EvalForms, PaddedMappingsEvaluateAgainInEveryForm) {
    const std::string network =
        temp_file("classifier.yaml",
                  "network: classifier\n"
                  "inputs:\n"
                  "  - {name: features, channels: 512, height: 1, width: 1}\n"
                  "layers:\n"
                  "  - {name: fc, type: fc, inputs: [features], "
                  "out_features: 1000}\n");
    const std::string map = "map --arch " + kArch + " --workload " + network +
                            " --dataflow K,N --phase fw --objective latency --budget 3000 -q";
    const nlohmann::json perfect = run_json(map);
    const nlohmann::json padded = run_json(map + " --imperfect-factors");
    ASSERT_TRUE(padded.is_object() && perfect.is_object());
    EXPECT_EQ(padded["imperfect_factors"], true);
    const nlohmann::json& fc = padded["layers"][0]["phases"]["fw"];
    // 16 · 63 = 1,008 ≥ 1,000 channels in 63 steps, not 100 steps of 10.
    EXPECT_EQ(fc["cycles"], 63 * 512);
    EXPECT_EQ(perfect["layers"][0]["phases"]["fw"]["cycles"], 100 * 512);
    EXPECT_EQ(fc["macs"], 16 * 1000 * 512);
    const std::string target =
        " --arch " + kArch + " --workload " + network + " --layer fc --phase fw";
    expect_evaluates_to("--mapping " + temp_file("padded.json", fc["mapping"].dump(1)) + target,
                        fc);
    // The one-line form, from `map`'s table.
    const auto table =
        run_trainloop(map + " --imperfect-factors", trainloop::testing::Capture::stdout_only);
    ASSERT_EQ(table.exit_code, 0) << table.output;
    const std::size_t row = table.output.find("\nfc ");
    ASSERT_NE(row, std::string::npos) << table.output;
    const std::size_t from = table.output.find("DRAM[", row);
    const std::string one_line = table.output.substr(from, table.output.find('\n', from) - from);
    EXPECT_NE(one_line.find("X:K16"), std::string::npos) << one_line;
    EXPECT_EQ(table.output.find("--imperfect-factors pads"), std::string::npos) << table.output;
    // Without the option, `map` says what it would fill.
    const auto note = run_trainloop(map, trainloop::testing::Capture::stdout_only);
    EXPECT_NE(note.output.find("note: 1 layer-phase leaves part"), std::string::npos)
        << note.output;
    EXPECT_NE(note.output.find("K = 1,000 on 10 of 16 columns"), std::string::npos) << note.output;
    expect_evaluates_to("--mapping \"" + one_line + "\"" + target, fc);
    // The evaluation says what is padded, in text and JSON.
    const nlohmann::json e = run_json("eval --mapping \"" + one_line + "\"" + target);
    EXPECT_EQ(e["padded_extents"], nlohmann::json({{"K", 1008}})) << e.dump();
    const auto text = run_trainloop("eval --mapping \"" + one_line + "\"" + target,
                                    trainloop::testing::Capture::stdout_only);
    EXPECT_NE(text.output.find("K = 1,000 runs as 1,008 (imperfect factors): 8 padded values"),
              std::string::npos)
        << text.output;
    const nlohmann::json exact = run_json(
        "eval --mapping " +
        temp_file("perfect.json", perfect["layers"][0]["phases"]["fw"]["mapping"].dump()) + target);
    EXPECT_FALSE(exact.contains("padded_extents")) << exact.dump();
    // A sliding-window dimension may be padded too; the inputs are then an
    // upper bound, which the evaluation says.
    const std::string conv1 =
        "eval --arch " + kArch + " --workload resnet18 --layer conv1 --phase fw --mapping ";
    const auto window = run_trainloop(conv1 + "\"DRAM[N16 K64 C3 P113 Q112 R7 S7]\"",
                                      trainloop::testing::Capture::stdout_only);
    EXPECT_EQ(window.exit_code, 0) << window.output;
    EXPECT_NE(window.output.find("P = 112 runs as 113 (imperfect factors): 1 padded value does "
                                 "no work; the inputs its window reaches past the edge count as "
                                 "moved (an upper bound)"),
              std::string::npos)
        << window.output;
    const auto window_twice = run_trainloop(conv1 + "\"DRAM[N16 K64 C3 P224 Q112 R7 S7]\"");
    EXPECT_EQ(window_twice.exit_code, 2) << window_twice.output;
    EXPECT_NE(window_twice.output.find("imperfect factors may pad P to at most 223"),
              std::string::npos)
        << window_twice.output;
    // The search pads a window dimension only when asked, and only with imperfect factors.
    const auto alone = run_trainloop(map + " --imperfect-windows");
    EXPECT_EQ(alone.exit_code, 2) << alone.output;
    EXPECT_NE(alone.output.find("--imperfect-factors"), std::string::npos) << alone.output;
    EXPECT_EQ(run_json(map + " --imperfect-factors --imperfect-windows")["imperfect_windows"],
              true);
    EXPECT_EQ(padded["imperfect_windows"], false);
    // Padding by the size or more is taken for a mistake, and says the limit.
    const auto twice = run_trainloop("eval --mapping \"DRAM[K2000 C512 N16]\"" + target);
    EXPECT_EQ(twice.exit_code, 2) << twice.output;
    EXPECT_NE(twice.output.find("imperfect factors may pad K to at most 1999, less than twice"),
              std::string::npos)
        << twice.output;
}

// AlexNet's conv1 has 55 × 55 output positions: across 16 columns no divisor
// of 55 does better than 11 (5 steps); 14 padded to 56 takes 4. `map`'s note
// names the options that would pad it, and with them the positions fill.
TEST(EvalForms, TheIdleAxisNoteNamesTheOptionsThatWouldFillIt) {
    const std::string network =
        temp_file("conv55.yaml",
                  "network: conv55\n"
                  "inputs:\n"
                  "  - {name: image, channels: 3, height: 227, width: 227}\n"
                  "layers:\n"
                  "  - {name: conv1, type: conv, inputs: [image], out_channels: 8, kernel: 11, "
                  "stride: 4}\n");
    const std::string map = "map --arch " + kArch + " --workload " + network +
                            " --dataflow P,K --phase fw --objective latency --budget 3000 -q";
    const auto plain = run_trainloop(map, trainloop::testing::Capture::stdout_only);
    ASSERT_EQ(plain.exit_code, 0) << plain.output;
    EXPECT_NE(plain.output.find("P = 55 on 11 of 16 columns"), std::string::npos) << plain.output;
    EXPECT_NE(plain.output.find("--imperfect-factors --imperfect-windows pad such a dimension"),
              std::string::npos)
        << plain.output;
    const auto one_term =
        run_trainloop(map + " --imperfect-factors", trainloop::testing::Capture::stdout_only);
    EXPECT_NE(one_term.output.find("; --imperfect-windows pads such a dimension"),
              std::string::npos)
        << one_term.output;
    const auto both = run_trainloop(map + " --imperfect-factors --imperfect-windows",
                                    trainloop::testing::Capture::stdout_only);
    EXPECT_EQ(both.output.find("note: 1 layer-phase leaves part"), std::string::npos)
        << both.output;
    const nlohmann::json slow = run_json(map);
    const nlohmann::json fast = run_json(map + " --imperfect-factors --imperfect-windows");
    const nlohmann::json& padded = fast["layers"][0]["phases"]["fw"];
    EXPECT_LT(padded["cycles"], slow["layers"][0]["phases"]["fw"]["cycles"]);
    EXPECT_EQ(padded["macs"], slow["layers"][0]["phases"]["fw"]["macs"]);
}

TEST(EvalForms, ErrorsNameTheFormsPlace) {
    const std::string target = " --arch " + kArch + " --workload mlp_mnist --layer fc1 --phase fw";
    // A level the architecture does not have, in each form.
    const auto line = run_trainloop("eval --mapping \"DRAM[K256] LB[C784]\"" + target);
    EXPECT_EQ(line.exit_code, 2) << line.output;
    EXPECT_NE(line.output.find("LB"), std::string::npos) << line.output;
    const std::string json =
        temp_file("bad.json", R"({"levels": [{"level": "DRAM", "temporal": ["K256", "Z2"]}]})");
    const auto j = run_trainloop("eval --mapping " + json + target);
    EXPECT_EQ(j.exit_code, 2) << j.output;
    EXPECT_NE(j.output.find("levels[0].temporal[1]"), std::string::npos) << j.output;
    // The whole map output needs a layer-phase.
    const std::string whole = temp_file("map.json", R"({"network": "mlp_mnist", "layers": []})");
    const auto w = run_trainloop("eval --mapping " + whole);
    EXPECT_EQ(w.exit_code, 2) << w.output;
    EXPECT_NE(w.output.find("--layer NAME and --phase"), std::string::npos) << w.output;
    // Neither a file nor a mapping.
    const auto none = run_trainloop("eval --mapping no_such_file.yaml" + target);
    EXPECT_EQ(none.exit_code, 2) << none.output;
    EXPECT_NE(none.output.find("no such mapping file"), std::string::npos) << none.output;
    // A factor product that does not cover the layer: invalid, named by level.
    const auto invalid = run_trainloop("eval --mapping \"DRAM[K2]\"" + target);
    EXPECT_EQ(invalid.exit_code, 2) << invalid.output;
    EXPECT_NE(invalid.output.find("invalid mapping"), std::string::npos) << invalid.output;
}

}  // namespace
