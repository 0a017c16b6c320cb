// The density models beyond `uniform` (n_m, clustered, mask): their YAML,
// their errors, the .npy reader, and the check of masks against a network.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "density/npy_mask.hpp"
#include "density/sparsity_profile.hpp"
#include "density/sparsity_query.hpp"
#include "sparse/mask_check.hpp"
#include "support/npy_file.hpp"
#include "support/spec_error_matchers.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::expect_spec_error;

SparsityProfile parse(const std::string& yaml, const std::string& file = "inline.yaml") {
    return parse_sparsity_profile(SpecNode::load_string(yaml, file));
}

SpecError error_of(const std::string& yaml, const std::string& file = "inline.yaml") {
    return expect_spec_error([&] { parse(yaml, file); });
}

TEST(DensityModels, NMWithInlineParameters) {
    const SparsityProfile p = parse(R"(sparsity_profile: p
rules:
  - {tensors: w, model: {name: n_m, n: 2, m: 4, axis: c}}
)");
    const auto& m = std::get<NMModel>(p.rules[0].model);
    EXPECT_EQ(m.n, 2);
    EXPECT_EQ(m.m, 4);
    EXPECT_EQ(m.axis, 'c');
    EXPECT_DOUBLE_EQ(density(p, "net", "l", TensorName::w, Phase::fw), 0.5);
}

TEST(DensityModels, EvenAndHypergeometricTakeNoParameters) {
    const SparsityProfile p = parse(R"(sparsity_profile: p
rules:
  - {tensors: w, density: 0.3, model: even}
  - {tensors: x, density: 0.5, model: {name: even}}
)");
    EXPECT_TRUE(std::holds_alternative<EvenModel>(p.rules[0].model));
    EXPECT_TRUE(std::holds_alternative<EvenModel>(p.rules[1].model));
    EXPECT_EQ(density_model_name(p.rules[0].model), "even");
    // hypergeometric takes no parameters either: its population is the
    // tensor's size, which the evaluator reads from the layer.
    const SparsityProfile h = parse(R"(sparsity_profile: p
rules:
  - {tensors: w, density: 0.3, model: hypergeometric}
)");
    EXPECT_EQ(h.rules[0].model, DensityModel{HypergeometricModel{}});
    EXPECT_TRUE(contains(error_of(R"(sparsity_profile: p
rules:
  - {tensors: w, density: 0.3, model: {name: hypergeometric, population: 100}}
)")
                             .message(),
                         "density model `hypergeometric` takes no parameters"));
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - {tensors: w, density: 0.3, model: {name: even, cv: 0.5}}
)");
    EXPECT_TRUE(contains(e.message(), "density model `even` takes no parameters, got `cv`"));
    EXPECT_EQ(e.where().line, 3);
}

TEST(DensityModels, ClusteredUnderParametersAndDefaults) {
    const SparsityProfile p = parse(R"(sparsity_profile: p
rules:
  - tensors: w
    density: 0.1
    model: {name: clustered, parameters: {cv: 0.6, unit: filter}}
  - tensors: x
    density: 0.5
    model: {name: clustered, cv: 0.3}
)");
    const auto& w = std::get<ClusteredModel>(p.rules[0].model);
    EXPECT_DOUBLE_EQ(w.cv, 0.6);
    EXPECT_EQ(w.unit, ClusterUnit::filter);
    EXPECT_EQ(w.distribution, ClusterDistribution::beta);
    EXPECT_EQ(std::get<ClusteredModel>(p.rules[1].model).unit, ClusterUnit::row);
}

TEST(DensityModels, ClusterBetaHasTheMeanAndCv) {
    const BetaParameters b = cluster_beta(0.2, 0.5);
    EXPECT_NEAR(b.alpha / (b.alpha + b.beta), 0.2, 1e-12);
    const double var =
        b.alpha * b.beta / ((b.alpha + b.beta) * (b.alpha + b.beta) * (b.alpha + b.beta + 1));
    EXPECT_NEAR(var, 0.1 * 0.1, 1e-12);
    // A cv beyond what [0, 1] allows is capped at 90 % of the Bernoulli variance.
    EXPECT_NEAR(cluster_beta(0.5, 3.0).variance, 0.9 * 0.25, 1e-12);
}

TEST(DensityModelErrors, UnknownParameterGetsDidYouMean) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: w
    density: 0.1
    model: {name: clustered, cv: 0.6, unti: filter}
)");
    EXPECT_EQ(e.where().line, 5);
    EXPECT_TRUE(contains(e.message(), "unknown key `unti`"));
    EXPECT_EQ(e.hint(), "did you mean `unit`?");
}

TEST(DensityModelErrors, ParametersInBothPlaces) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: w
    density: 0.1
    model: {name: clustered, cv: 0.6, parameters: {unit: row}}
)");
    EXPECT_TRUE(contains(e.message(), "not both"));
}

TEST(DensityModelErrors, NGreaterThanM) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - {tensors: w, model: {name: n_m, n: 5, m: 4}}
)");
    EXPECT_EQ(e.key_path(), "rules[0].model.n");
    EXPECT_TRUE(contains(e.message(), "n = 5 exceeds m = 4"));
}

TEST(DensityModelErrors, DensityContradictsNM) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - {tensors: w, density: 0.3, model: {name: n_m, n: 2, m: 4}}
)");
    EXPECT_EQ(e.key_path(), "rules[0].density");
    EXPECT_TRUE(contains(e.message(), "contradicts the n_m model (2:4 = 0.5)"));
}

TEST(DensityModelErrors, AxisTheTensorLacks) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - {tensors: dy, model: {name: n_m, n: 2, m: 4, axis: c}}
)");
    EXPECT_TRUE(contains(e.message(), "tensor `dy` has no axis `c`"));
    EXPECT_TRUE(contains(e.expected(), "n, g, k, p, q"));
}

TEST(DensityModelErrors, FilterUnitOnActivations) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - {tensors: x, density: 0.5, model: {name: clustered, cv: 0.5, unit: filter}}
)");
    EXPECT_TRUE(contains(e.message(), "tensor `x` has no filters"));
}

TEST(DensityModelErrors, NegativeCv) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - {tensors: w, density: 0.5, model: {name: clustered, cv: -1}}
)");
    EXPECT_EQ(e.key_path(), "rules[0].model.cv");
}

TEST(DensityModelErrors, UnknownDistribution) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - {tensors: w, density: 0.5, model: {name: clustered, cv: 0.5, distribution: betta}}
)");
    EXPECT_EQ(e.hint(), "did you mean `beta`?");
}

class MaskFiles : public ::testing::Test {
  protected:
    std::filesystem::path dir =
        testing::test_directory(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string profile_file() const { return (dir / "profile.yaml").string(); }
};

TEST_F(MaskFiles, ReadsABoolMaskRelativeToTheProfile) {
    testing::write_file(dir / "masks/w.npy", testing::npy_bytes({2, 3}, {1, 0, 0, 1, 1, 0}));
    const SparsityProfile p = parse(R"(sparsity_profile: p
rules:
  - {layers: fc, tensors: w, model: {name: mask, file: masks/w.npy}}
)",
                                    profile_file());
    const auto& m = std::get<MaskModel>(p.rules[0].model);
    EXPECT_EQ(m.mask->shape, (std::vector<std::int64_t>{2, 3}));
    EXPECT_DOUBLE_EQ(m.mask->density, 0.5);
    EXPECT_DOUBLE_EQ(density(p, "n", "fc", TensorName::w, Phase::bw), 0.5);
}

TEST_F(MaskFiles, FortranOrderIsReorderedToC) {
    // Fortran order of [[1,0,0],[1,1,0]] is column by column: 1,1, 0,1, 0,0.
    testing::write_file(dir / "f.npy", testing::npy_bytes({2, 3}, {1, 1, 0, 1, 0, 0}, "|u1", true));
    const MaskTensor m = read_npy_mask(dir / "f.npy");
    EXPECT_EQ(m.nonzero, (std::vector<std::uint8_t>{1, 0, 0, 1, 1, 0}));
}

TEST_F(MaskFiles, WrongDtypeNamesTheFile) {
    testing::write_file(dir / "f.npy", testing::npy_bytes({2}, {0, 0, 0, 0, 0, 0, 0, 0}, "<f4"));
    const SpecError e = expect_spec_error([&] { read_npy_mask(dir / "f.npy"); });
    EXPECT_EQ(e.where().file, (dir / "f.npy").string());
    EXPECT_TRUE(contains(e.message(), "unsupported mask dtype '<f4'"));
}

// A header value that is a paragraph is quoted as an excerpt, not echoed whole.
TEST_F(MaskFiles, ALongDtypeIsQuotedAsAnExcerpt) {
    testing::write_file(dir / "f.npy", testing::npy_bytes({2}, {0, 0}, std::string(3000, 'f')));
    const SpecError e = expect_spec_error([&] { read_npy_mask(dir / "f.npy"); });
    EXPECT_TRUE(contains(e.message(), "unsupported mask dtype 'fff"));
    EXPECT_LT(e.message().size(), 300u);
}

TEST_F(MaskFiles, TruncatedDataAndBadMagic) {
    testing::write_file(dir / "t.npy", testing::npy_bytes({4}, {1, 0}));
    EXPECT_TRUE(contains(expect_spec_error([&] { read_npy_mask(dir / "t.npy"); }).message(),
                         "holds 2 bytes, the shape needs 4"));
    testing::write_file(dir / "m.npy", "PK\x03\x04 not numpy");
    EXPECT_TRUE(
        contains(expect_spec_error([&] { read_npy_mask(dir / "m.npy"); }).message(), "bad magic"));
}

TEST_F(MaskFiles, MissingFileIsAnErrorAtTheRule) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: w
    model: {name: mask, file: nowhere.npy}
)",
                                 profile_file());
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.key_path(), "rules[0].model.file");
    EXPECT_TRUE(contains(e.message(), "nowhere.npy"));
    EXPECT_TRUE(contains(e.message(), "cannot open"));
}

TEST_F(MaskFiles, MaskWithDensityOrSeveralTensorsIsAnError) {
    testing::write_file(dir / "w.npy", testing::npy_bytes({2}, {1, 0}));
    EXPECT_TRUE(contains(error_of(R"(sparsity_profile: p
rules:
  - {tensors: w, density: 0.5, model: {name: mask, file: w.npy}}
)",
                                  profile_file())
                             .message(),
                         "takes its density from the mask"));
    EXPECT_TRUE(contains(error_of(R"(sparsity_profile: p
rules:
  - {tensors: [w, x], model: {name: mask, file: w.npy}}
)",
                                  profile_file())
                             .message(),
                         "belongs to one tensor"));
}

TEST_F(MaskFiles, ShapeCheckedAgainstTheNetwork) {
    // mlp_mnist's first layer is 784 → 256: weights [256, 784].
    const Network network = load_network("mlp_mnist");
    const NetworkTraining training = derive_training_problems(network, 4);
    const std::string first = training.layers.front().layer->layer.name;
    const std::int64_t k = training.layers.front().space.bounds[Dim::K];
    const std::int64_t c = training.layers.front().space.bounds[Dim::C];
    testing::write_file(dir / "good.npy", testing::npy_bytes({k, c}, std::vector<std::uint8_t>(
                                                                         std::size_t(k * c), 1)));
    testing::write_file(dir / "bad.npy", testing::npy_bytes({c, k}, std::vector<std::uint8_t>(
                                                                        std::size_t(k * c), 1)));
    const auto profile_with = [&](const std::string& file) {
        return parse("sparsity_profile: p\nrules:\n  - {layers: " + first +
                         ", tensors: w, model: {name: mask, file: " + file + "}}\n",
                     profile_file());
    };
    EXPECT_NO_THROW(check_masks_against(profile_with("good.npy"), "mlp_mnist", training));
    const SpecError e = expect_spec_error(
        [&] { check_masks_against(profile_with("bad.npy"), "mlp_mnist", training); });
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.key_path(), "rules[0].model.file");
    EXPECT_TRUE(contains(e.message(), "bad.npy"));
    EXPECT_TRUE(contains(
        e.message(), fmt::format("has shape [{}, {}], but tensor `w` of layer `{}`", c, k, first)));
    EXPECT_TRUE(contains(e.expected(), fmt::format("[{}, {}, 1, 1]", k, c)));
}

}  // namespace
}  // namespace trainloop
