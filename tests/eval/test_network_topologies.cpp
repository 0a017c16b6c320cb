// Network topologies in the evaluation: the shipped Procrustes array with its
// three networks given other topologies, on the K,N example mapping of
// ResNet-18 layer2.0.conv2 (fw). K runs across the 16 columns (x), N down
// the 16 rows (y): the inputs (not indexed by K) are broadcast along x on
// row_broadcast; the weights (not indexed by N) would need a broadcast along
// y, which no network does, so they go PE by PE on the unicast network, as
// do the outputs (indexed by both).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/file_text.hpp"
#include "eval/evaluation_json.hpp"
#include "spec/mapping_case.hpp"
#include "support/run_binary.hpp"

namespace trainloop {
namespace {

const std::filesystem::path kSource = TRAINLOOP_SOURCE_DIR;
const std::filesystem::path kMapping = kSource / "examples/mappings/resnet18_3x3_KN_fw.yaml";

// The shipped baseline with `networks:` replaced, written to a temporary file.
std::filesystem::path arch_with_networks(const std::string& name, const std::string& networks) {
    std::string text = read_file_text(kSource / "arch_specs/procrustes_baseline_16x16.yaml");
    const std::string library = "component_library: components/";
    text.replace(text.find(library), library.size(),
                 "component_library: " + (kSource / "arch_specs/components/").string());
    text = text.substr(0, text.find("\nnetworks:")) + "\nnetworks:\n" + networks;
    const std::filesystem::path file =
        std::filesystem::path(::testing::TempDir()) / ("topology_" + name + ".yaml");
    std::ofstream(file) << text;
    return file;
}

std::string three_networks(const std::string& row, const std::string& column,
                           const std::string& unicast, const std::string& unicast_extra = "") {
    return "  - {name: row_broadcast, axis: x, kind: broadcast, topology: " + row +
           ", parent: GLB, child: RF, hop_energy_pj: 1.0}\n"
           "  - {name: column_reduce, axis: y, kind: reduction, topology: " +
           column +
           ", parent: GLB, child: RF, hop_energy_pj: 1.0}\n"
           "  - {name: unicast, axis: both, kind: unicast, topology: " +
           unicast + ", parent: GLB, child: RF, hop_energy_pj: 1.0, router_energy_pj: 0.5" +
           unicast_extra + "}\n";
}

struct Result {
    Evaluation e;
    nlohmann::json json;
};

Result evaluate_on(const std::filesystem::path& arch) {
    MappingTarget overrides;
    overrides.arch = arch;
    const MappingCase c = load_mapping_case(kMapping, overrides);
    Result r{evaluate_case(c), {}};
    r.json = evaluation_to_json(r.e, c.arch, c.arch_model, *c.problem, c.mapping);
    return r;
}

TEST(NetworkTopologies, AnExplicitBusIsTheDefault) {
    const Result shipped = evaluate_on(kSource / "arch_specs/procrustes_baseline_16x16.yaml");
    const Result bus = evaluate_on(arch_with_networks(
        "bus",
        "  - {name: row_broadcast, axis: x, kind: broadcast, topology: bus, parent: GLB, child: "
        "RF}\n  - {name: column_reduce, axis: y, kind: reduction, topology: bus, parent: GLB, "
        "child: RF}\n  - {name: unicast, axis: both, kind: unicast, topology: bus, parent: GLB, "
        "child: RF}\n"));
    EXPECT_EQ(bus.e.energy_pj, shipped.e.energy_pj);
    EXPECT_EQ(bus.e.cycles, shipped.e.cycles);
    EXPECT_EQ(bus.json["networks"]["unicast"]["topology"], "bus");
    EXPECT_EQ(bus.json["networks"]["unicast"]["link_hops"],
              bus.json["networks"]["unicast"]["delivered_words"])
        << "a bus: one hop per delivered word";
}

// The JSON names what each network carried: the inputs broadcast along x on
// row_broadcast; the weights, which need a multicast along y that no network
// does, sent PE by PE on the unicast network, where a user sees the fallback.
TEST(NetworkTopologies, EachNetworkListsTheTransfersItCarriedAndWhatTheyNeeded) {
    const Result shipped = evaluate_on(kSource / "arch_specs/procrustes_baseline_16x16.yaml");
    const auto& networks = shipped.json["networks"];
    const nlohmann::json inputs = {
        {"tensor", "x"}, {"from", "GLB"}, {"needs", "multicast along x"}, {"sent_as", "multicast"}};
    EXPECT_EQ(networks["row_broadcast"]["transfers"], nlohmann::json::array({inputs}));
    const nlohmann::json weights = {
        {"tensor", "w"}, {"from", "GLB"}, {"needs", "multicast along y"}, {"sent_as", "unicast"}};
    const auto& unicast = networks["unicast"]["transfers"];
    EXPECT_NE(std::find(unicast.begin(), unicast.end(), weights), unicast.end()) << unicast;
    EXPECT_EQ(networks["column_reduce"]["transfers"], nlohmann::json::array())
        << "K,N reduces nothing across the array";
}

TEST(NetworkTopologies, MeshUnicastsCrossHalfTheArrayEachWay) {
    const Result bus =
        evaluate_on(arch_with_networks("bus_priced", three_networks("bus", "bus", "bus")));
    const Result mesh =
        evaluate_on(arch_with_networks("mesh", three_networks("systolic", "systolic", "mesh")));
    const auto& uni = mesh.json["networks"]["unicast"];
    const double words = uni["delivered_words"].get<double>();
    ASSERT_GT(words, 0);
    EXPECT_EQ(words, bus.json["networks"]["unicast"]["delivered_words"].get<double>());
    // From the corner to one of 16×16 PEs: 1 + 7.5 + 7.5 = 16 links, 16 routers.
    EXPECT_DOUBLE_EQ(uni["link_hops"].get<double>(), 16 * words);
    EXPECT_DOUBLE_EQ(uni["router_crossings"].get<double>(), 16 * words);
    EXPECT_DOUBLE_EQ(mesh.json["energy_breakdown"]["unicast"].get<double>(),
                     16 * words * 1.0 + 16 * words * 0.5);
    // The inputs are broadcast to all 16 PEs of a row: a systolic pass costs
    // what the bus costs, one link per PE.
    const auto& row = mesh.json["networks"]["row_broadcast"];
    EXPECT_EQ(row["link_hops"], row["delivered_words"]);
    EXPECT_EQ(mesh.json["energy_breakdown"]["row_broadcast"],
              bus.json["energy_breakdown"]["row_broadcast"]);
    EXPECT_GT(mesh.e.energy_pj, bus.e.energy_pj);
    EXPECT_EQ(mesh.e.cycles, bus.e.cycles) << "no link bandwidth given: no latency bound";
}

// A network priced by its component: the library's `hop_pj` and `router_pj`
// reach the evaluation as the same figures written on the network would.
TEST(NetworkTopologies, ALibrarysRouterEnergyPricesEveryRouterCrossed) {
    std::string library =
        read_file_text(kSource / "arch_specs/components/accelergy_40nm.yaml") +
        "  - {name: routed_noc, class: network, word_bits: 32, hop_pj: 1.0, router_pj: 0.5, "
        "leakage_mw: 0, area_um2: 0}\n";
    const std::filesystem::path library_file =
        std::filesystem::path(::testing::TempDir()) / "topology_routed_library.yaml";
    std::ofstream(library_file) << library;
    const std::filesystem::path priced_by_library = arch_with_networks(
        "mesh_library",
        "  - {name: row_broadcast, axis: x, kind: broadcast, topology: systolic, parent: GLB, "
        "child: RF, hop_energy_pj: 1.0}\n"
        "  - {name: column_reduce, axis: y, kind: reduction, topology: systolic, parent: GLB, "
        "child: RF, hop_energy_pj: 1.0}\n"
        "  - {name: unicast, axis: both, kind: unicast, topology: mesh, parent: GLB, child: RF, "
        "component: routed_noc}\n");
    {
        std::string text = read_file_text(priced_by_library);
        const std::string key = "component_library: ";
        const std::size_t at = text.find(key) + key.size();
        text.replace(at, text.find('\n', at) - at, library_file.string());
        std::ofstream(priced_by_library) << text;
    }
    const Result library_priced = evaluate_on(priced_by_library);
    const Result written = evaluate_on(
        arch_with_networks("mesh_written", three_networks("systolic", "systolic", "mesh")));
    const double words =
        library_priced.json["networks"]["unicast"]["delivered_words"].get<double>();
    ASSERT_GT(words, 0);
    EXPECT_DOUBLE_EQ(library_priced.json["energy_breakdown"]["unicast"].get<double>(),
                     16 * words * 1.0 + 16 * words * 0.5)
        << "16 links and 16 routers per word from the corner (as above)";
    EXPECT_EQ(library_priced.json["energy_breakdown"]["unicast"],
              written.json["energy_breakdown"]["unicast"]);
}

TEST(NetworkTopologies, TorusUnicastsTakeTheShorterWayRound) {
    const Result torus =
        evaluate_on(arch_with_networks("torus", three_networks("ring", "ring", "torus")));
    const auto& uni = torus.json["networks"]["unicast"];
    // Per ring of 16: Σ min(j, 16 − j) / 16 = 4 links; 1 + 4 + 4 = 9.
    EXPECT_DOUBLE_EQ(uni["link_hops"].get<double>(), 9 * uni["delivered_words"].get<double>());
}

TEST(NetworkTopologies, LinkBandwidthBoundsTheCyclesAndNamesTheNetwork) {
    const Result free =
        evaluate_on(arch_with_networks("free", three_networks("bus", "bus", "mesh")));
    // One word per 100 cycles over the link where the GLB enters the mesh:
    // every unicast word crosses it.
    const Result slow = evaluate_on(
        arch_with_networks("slow", three_networks("bus", "bus", "mesh", ", bandwidth: 0.01")));
    const double link_words = slow.json["networks"]["unicast"]["delivered_words"].get<double>();
    EXPECT_EQ(slow.e.cycles, std::int64_t(std::ceil(link_words / 0.01)));
    EXPECT_GT(slow.e.cycles, free.e.cycles);
    EXPECT_EQ(slow.json["bottleneck"], "unicast");
    EXPECT_EQ(slow.json["networks"]["unicast"]["cycles"], slow.e.cycles);
    EXPECT_EQ(free.json["networks"]["unicast"]["cycles"], 0);
}

// ---- Which network fits the mapping. ----

// The shipped row broadcast and column reduction, without the unicast network
// the other transfers fall back on.
const std::string kOnlyFlowNetworks =
    "  - {name: row_broadcast, axis: x, kind: broadcast, parent: GLB, child: RF}\n"
    "  - {name: column_reduce, axis: y, kind: reduction, parent: GLB, child: RF}\n";

TEST(NetworkFit, ATransferNoNetworkFitsIsALocatedMappingError) {
    // K,N: the weights must be broadcast down the columns (y); the only
    // network along y is a reduction. Before, the evaluator took "any
    // network from the GLB" and priced it like the right one.
    const std::filesystem::path arch = arch_with_networks("flow_only", kOnlyFlowNetworks);
    MappingTarget overrides;
    overrides.arch = arch;
    const MappingCase c = load_mapping_case(kMapping, overrides);
    const Evaluation e = evaluate(c.arch_model, *c.problem, c.mapping);
    ASSERT_FALSE(e.valid());
    EXPECT_EQ(e.violation->kind, ViolationKind::network);
    EXPECT_EQ(e.violation->space, DataSpace::weights);
    try {
        evaluate_case(c);
        FAIL() << "expected a SpecError";
    } catch (const SpecError& error) {
        EXPECT_EQ(error.where().file, kMapping.string());
        EXPECT_EQ(error.where().line, 18) << error.what();  // the GLB's `spatial_y: [N16]`
        EXPECT_EQ(error.key_path(), "mapping[1].spatial_y");
        const std::string what = error.what();
        EXPECT_NE(what.find("send weights (w) as a multicast along y"), std::string::npos) << what;
        EXPECT_NE(what.find("column_reduce (reduction along y)"), std::string::npos) << what;
        EXPECT_FALSE(error.expected().empty());
    }
}

TEST(NetworkFit, TheSameTransfersOnFittingNetworksEvaluate) {
    // With a unicast network, what no flow network fits (the weights along y,
    // the outputs to single PEs) goes PE by PE on it.
    const std::filesystem::path arch = arch_with_networks(
        "flow_and_unicast",
        kOnlyFlowNetworks +
            "  - {name: unicast, axis: both, kind: unicast, parent: GLB, child: RF}\n");
    const Result r = evaluate_on(arch);
    EXPECT_TRUE(r.e.valid());
    EXPECT_GT(r.json["networks"]["row_broadcast"]["delivered_words"].get<double>(), 0);
    EXPECT_GT(r.json["networks"]["unicast"]["delivered_words"].get<double>(), 0);
}

TEST(NetworkFit, ALevelWithoutNetworksMovesItsWordsUnpriced) {
    const Result r = evaluate_on(arch_with_networks("none", "  []\n"));
    EXPECT_TRUE(r.e.valid()) << "no network declared: words cross unpriced, as in Timeloop";
}

TEST(NetworkFit, EvalExitsWithTwoAndPointsAtTheSpatialKey) {
    const std::filesystem::path arch = arch_with_networks("flow_only_cli", kOnlyFlowNetworks);
    const testing::CommandResult r =
        testing::run_trainloop("eval -m " + kMapping.string() + " --arch " + arch.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("resnet18_3x3_KN_fw.yaml:18"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("spatial_y"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace trainloop
