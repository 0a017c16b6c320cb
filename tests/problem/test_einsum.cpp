// Einsum equations as problem shapes (vocabulary/einsum.hpp): a convolution
// written as an einsum is the conv family's shape, on the same slots; other
// operations (attention, a plain matmul) get their dimensions by role; bad
// equations get located errors.
#include <gtest/gtest.h>

#include <cctype>

#include "nest/nest_analysis.hpp"
#include "problem/iteration_space.hpp"
#include "problem/phase_problem.hpp"
#include "support/eval_fixtures.hpp"
#include "vocabulary/einsum.hpp"

namespace trainloop {
namespace {

const SourceLocation kWhere{"net.yaml", 7, 16};

ProblemShape parse(std::string_view equation) {
    return parse_einsum(equation, kWhere, "layers[3].einsum");
}

// The dimension a shape names `name` (fails the test when it names none).
Dim slot(const ProblemShape& shape, std::string_view name) {
    const std::optional<Dim> d = shape.dim_named(name);
    if (!d) ADD_FAILURE() << "no dimension named " << name;
    return d.value_or(Dim::N);
}

TEST(Einsum, AConvolutionIsTheConvFamilysShape) {
    const ProblemShape shape = parse("O[n,g,k,p,q] += W[g,k,c,r,s] * I[n,g,c,p*2+r,q*2+s*3]");
    const ProblemShape conv = conv_shape({2, 2}, {1, 3});
    EXPECT_EQ(shape.projections, conv.projections);
    for (Dim d : kAllDims) {
        EXPECT_EQ(shape.dim_name(d), std::string(1, char(std::tolower(dim_name(d)[0]))));
    }
    EXPECT_EQ(shape.tensor_names, conv.tensor_names);
    // So conv_window recognises it, and the Timeloop bridge can export it.
    ASSERT_TRUE(conv_window(IterationSpace{{}, shape}.shape).has_value());
}

TEST(Einsum, AConvolutionAsAnEinsumCountsWhatTheConvLayerCounts) {
    const IterationSpace conv = testing::small_conv();
    const IterationSpace einsum{conv.bounds,
                                parse("O[n,g,k,p,q] += W[g,k,c,r,s] * I[n,g,c,p+r,q+s]")};
    for (Phase phase : kAllPhases) {
        const NestAnalysis a =
            analyze_nest(make_phase_problem("c", phase, conv), testing::small_conv_ws_mapping());
        const NestAnalysis b =
            analyze_nest(make_phase_problem("c", phase, einsum), testing::small_conv_ws_mapping());
        for (std::size_t i = 0; i < a.num_levels; ++i) {
            for (DataSpace s : kAllDataSpaces) {
                const SpaceAccesses& x = a.levels[i].space(s);
                const SpaceAccesses& y = b.levels[i].space(s);
                EXPECT_EQ(x.fills, y.fills) << phase_name(phase) << " level " << i;
                EXPECT_EQ(x.reads, y.reads) << phase_name(phase) << " level " << i;
                EXPECT_EQ(x.updates, y.updates) << phase_name(phase) << " level " << i;
                EXPECT_EQ(x.tile, y.tile) << phase_name(phase) << " level " << i;
            }
        }
    }
}

TEST(Einsum, AMatmulLandsWhereAFullyConnectedLayerDoes) {
    // Z[m,n] = A[m,k]·B[k,n]: m is the first operand's output index (K), k the
    // summed one (C), n the second operand's (N), as fc's W[k,c]·I[n,c].
    const ProblemShape shape = parse("Z[m,n] = A[m,k] * B[k,n]");
    EXPECT_EQ(slot(shape, "m"), Dim::K);
    EXPECT_EQ(slot(shape, "k"), Dim::C);
    EXPECT_EQ(slot(shape, "n"), Dim::N);
    EXPECT_EQ(shape.num_dims, 3);
    EXPECT_FALSE(shape.uses(Dim::G));
    EXPECT_FALSE(conv_window(shape).has_value());
}

TEST(Einsum, AttentionScoresIndexEachTensorByItsOwnDimensions) {
    const ProblemShape shape = parse("S[b,h,q,k] += Q[b,h,q,d] * K[b,h,k,d]");
    // b and h index all three tensors; the first takes the group slot, the
    // second the first free one.
    EXPECT_EQ(slot(shape, "b"), Dim::G);
    EXPECT_EQ(slot(shape, "q"), Dim::K);
    EXPECT_EQ(slot(shape, "k"), Dim::N);
    EXPECT_EQ(slot(shape, "d"), Dim::C);
    EXPECT_EQ(slot(shape, "h"), Dim::P);
    IterationSpace space{{}, shape};
    space.bounds.values.fill(1);
    const std::int64_t b = 2, h = 3, q = 5, k = 7, d = 4;
    space.bounds[slot(shape, "b")] = b;
    space.bounds[slot(shape, "h")] = h;
    space.bounds[slot(shape, "q")] = q;
    space.bounds[slot(shape, "k")] = k;
    space.bounds[slot(shape, "d")] = d;
    EXPECT_EQ(space.macs(), b * h * q * k * d);
    // Q (first operand) on weights, K on inputs, S on outputs: neither
    // operand is shared across the batch.
    EXPECT_EQ(space.weights(), b * h * q * d);
    EXPECT_EQ(footprint(projection_for(DataSpace::inputs, space), space.bounds), b * h * k * d);
    EXPECT_EQ(footprint(projection_for(DataSpace::outputs, space), space.bounds), b * h * q * k);
    EXPECT_EQ(to_string(space), "b=2 h=3 q=5 k=7 d=4");
    EXPECT_FALSE(oversize_reason(space).has_value());
    // fw sums over d alone (the other summed slots are the unused ones).
    const DimSet used{slot(shape, "b"), slot(shape, "h"), slot(shape, "q"), slot(shape, "k"),
                      slot(shape, "d")};
    const DimSet fw_summed = make_phase_problem("s", Phase::fw, space).reduced_dims() & used;
    EXPECT_EQ(fw_summed, DimSet{slot(shape, "d")});
}

TEST(Einsum, TheTextParsesBackToTheShape) {
    for (std::string_view equation :
         {"S[b,h,q,k] += Q[b,h,q,d] * K[b,h,k,d]", "O[n,k,p,q] += W[k,c,r,s] * I[n,c,p*2+r,q+s*2]",
          "Z[] += A[i] * B[i]", "Y[t,j] += X[t,i] * W[i,j]"}) {
        const ProblemShape shape = parse(equation);
        EXPECT_EQ(einsum_text(shape), equation);
        EXPECT_EQ(parse(einsum_text(shape)), shape) << equation;
    }
    // The conv family's own shape, written out, parses to the same projections.
    EXPECT_EQ(parse(einsum_text(conv_shape({2, 1}, {1, 2}))).projections,
              conv_shape({2, 1}, {1, 2}).projections);
}

TEST(Einsum, ACoefficientMayBeWrittenOnEitherSide) {
    EXPECT_EQ(parse("O[p] += W[r] * I[2*p+r]").projections,
              parse("O[p] += W[r] * I[p*2+r]").projections);
}

struct BadEquation {
    std::string_view equation;
    std::string_view says;
};

TEST(Einsum, BadEquationsAreLocatedErrors) {
    const BadEquation cases[] = {
        {"S[b,q,k] += Q[b,q,d] * K[b,d]", "index `k` of the result `S` is in neither operand"},
        {"S[i] += A[i*j] * B[i]", "`i*j` is not affine"},
        {"S[i] += A[i*i] * B[i]", "`i*i` is not affine"},
        {"S[i] += A[i^2] * B[i]", "not affine"},
        {"S[i] += A[i/2] * B[i]", "not affine"},
        {"S[i] += A[0*i] * B[i]", "the coefficient of `i` is 0"},
        {"S[i] += A[i*99999999999] * B[i]", "the coefficient of `i` is over"},
        {"S[i] += A[i-j] * B[i]", "subtracts an index"},
        {"S[h1] += A[h1] * B[h1]", "index `h1` holds a digit"},
        {"S[i] += A[i,i] * B[i]", "index `i` appears twice in tensor `A`"},
        {"S[i] += A[i] * A[i]", "tensor `A` is named twice"},
        {"S[i] += A[i+j+k] * B[i,j,k]", "sums 3 indices"},
        {"S[a,b,c,d,e,f] += A[a,b,c,d,e,f] * B[a]", "has 6 axes"},
        {"S[a,b,c] += A[a,d,e,f,g] * B[b,c,h,i]", "9 indices"},
        {"S[i] += A[i] * B[i] * C[i]", "expected the end of the equation"},
        {"S[i] A[i] * B[i]", "expected `+=` after the result"},
        {"S[i] += A[i] B[i]", "expected `*` between the two operands"},
        {"S[i += A[i] * B[i]", "expected an index at character 6"},
        {"S[i A[i] * B[i]", "expected `,` or `]` in `S`"},
        {"[i] += A[i] * B[i]", "expected the result's name"},
        {"", "expected the result's name at character 1, found the end"},
    };
    for (const BadEquation& c : cases) {
        try {
            parse(c.equation);
            ADD_FAILURE() << "accepted: " << c.equation;
        } catch (const SpecError& e) {
            EXPECT_NE(e.message().find(c.says), std::string::npos)
                << c.equation << " → " << e.message();
            EXPECT_EQ(e.where().file, "net.yaml");
            EXPECT_EQ(e.where().line, 7);
            EXPECT_EQ(e.key_path(), "layers[3].einsum");
            EXPECT_FALSE(e.expected().empty());
        }
    }
}

TEST(Einsum, AnErrorQuotesALongEquationShort) {
    const std::string long_name(5000, 'x');
    for (const std::string& equation :
         {"S[i] += A[i] * B[i] " + long_name, "S[" + long_name + "] += A[i] * B[i]"}) {
        try {
            parse(equation);
            ADD_FAILURE() << "accepted";
        } catch (const SpecError& e) {
            EXPECT_LT(e.message().size(), 400u) << e.message();
        }
    }
}

}  // namespace
}  // namespace trainloop
