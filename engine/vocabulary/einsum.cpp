#include "vocabulary/einsum.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <vector>

#include "common/spec_node.hpp"

namespace trainloop {
namespace {

constexpr std::string_view kExpected =
    "an einsum `Z[i,j] += A[i,k] * B[k,j]`: three tensors, each axis a sum of at most two "
    "indices with positive integer coefficients (`p*2+r`)";

// Tensor and index names longer than this are refused (so every message that
// names one stays short).
constexpr std::size_t kMaxNameSize = 64;

// Coefficients past this are refused: no layer strides or dilates further,
// and every product of a coefficient and a bound stays far inside int64.
constexpr std::int64_t kMaxCoefficient = std::int64_t{1} << 20;

struct ParsedTerm {
    std::string index;
    std::int64_t coef = 1;
};
struct ParsedTensor {
    std::string name;
    std::vector<std::vector<ParsedTerm>> axes;
};

// A recursive-descent reader over the equation's characters.
class Reader {
  public:
    Reader(std::string_view text, const SourceLocation& where, const std::string& key_path)
        : text_(text), where_(where), key_path_(key_path) {}

    [[noreturn]] void fail(const std::string& what, const std::string& hint = {}) const {
        // The equation as an excerpt: an error locates, it does not echo the input.
        throw SpecError(where_, key_path_,
                        fmt::format("einsum `{}`: {}", quoted_excerpt(text_), what),
                        std::string(kExpected), hint);
    }
    [[noreturn]] void fail_here(const std::string& expected) const {
        const std::string rest = pos_ < text_.size()
                                     ? fmt::format("`{}`", quoted_excerpt(text_.substr(pos_)))
                                     : std::string("the end");
        fail(fmt::format("expected {} at character {}, found {}", expected, pos_ + 1, rest));
    }

    void skip_space() {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
    }
    bool at_end() {
        skip_space();
        return pos_ == text_.size();
    }
    bool take(std::string_view token) {
        skip_space();
        if (text_.substr(pos_, token.size()) != token) return false;
        pos_ += token.size();
        return true;
    }
    void expect(std::string_view token, const std::string& what) {
        if (!take(token)) fail_here(what);
    }
    std::optional<std::string> identifier() {
        skip_space();
        const std::size_t start = pos_;
        if (pos_ < text_.size() &&
            (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
            ++pos_;
            while (pos_ < text_.size() &&
                   (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
                ++pos_;
            }
        }
        if (pos_ == start) return std::nullopt;
        if (pos_ - start > kMaxNameSize) {
            fail(fmt::format("a name of {} characters at character {}", pos_ - start, start + 1),
                 fmt::format("tensor and index names of at most {} characters", kMaxNameSize));
        }
        return std::string(text_.substr(start, pos_ - start));
    }
    std::optional<std::int64_t> integer() {
        skip_space();
        const std::size_t start = pos_;
        std::int64_t value = 0;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
            value = std::min(kMaxCoefficient + 1, value * 10 + (text_[pos_] - '0'));
            ++pos_;
        }
        if (pos_ == start) return std::nullopt;
        return value;
    }

    // term := index | index '*' int | int '*' index
    ParsedTerm term() {
        ParsedTerm t;
        if (const auto coef = integer()) {
            expect("*", "`*` after a coefficient");
            const auto index = identifier();
            if (!index) fail_here("an index after `*`");
            t = {*index, *coef};
        } else if (const auto index = identifier()) {
            t.index = *index;
            if (take("*")) {
                const auto coef = integer();
                if (!coef) {
                    if (const auto other = identifier()) {
                        fail(fmt::format("`{}*{}` is not affine: a tensor axis is a sum of "
                                         "indices times constant coefficients",
                                         t.index, *other),
                             "write a product of two indices as a separate operation");
                    }
                    fail_here("a coefficient after `*`");
                }
                t.coef = *coef;
            }
        } else {
            fail_here("an index");
        }
        if (std::any_of(t.index.begin(), t.index.end(),
                        [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
            fail(fmt::format("index `{}` holds a digit", t.index),
                 "name indices with letters and `_` only: a mapping writes a loop as the "
                 "index and its factor together (`h4`)");
        }
        if (t.coef < 1 || t.coef > kMaxCoefficient) {
            fail(fmt::format("the coefficient of `{}` is {}", t.index,
                             t.coef > kMaxCoefficient ? fmt::format("over {}", kMaxCoefficient)
                                                      : std::string("0")),
                 fmt::format("a coefficient from 1 to {}", kMaxCoefficient));
        }
        if (take("^") || take("/") || take("(")) {
            fail(fmt::format("the term of `{}` is not affine", t.index));
        }
        return t;
    }

    // tensor := name '[' (axis (',' axis)*)? ']'
    ParsedTensor tensor(std::string_view role) {
        ParsedTensor out;
        const auto name = identifier();
        if (!name) fail_here(fmt::format("the {}'s name", role));
        out.name = *name;
        expect("[", fmt::format("`[` after `{}`", out.name));
        if (take("]")) return out;
        do {
            std::vector<ParsedTerm> axis{term()};
            while (take("+")) axis.push_back(term());
            if (take("-")) fail(fmt::format("tensor `{}` subtracts an index", out.name));
            out.axes.push_back(std::move(axis));
        } while (take(","));
        expect("]", fmt::format("`,` or `]` in `{}`", out.name));
        return out;
    }

  private:
    std::string_view text_;
    std::size_t pos_ = 0;
    const SourceLocation& where_;
    const std::string& key_path_;
};

// How an index is used: which tensors name it, and whether it is a window
// axis's first (output position) or second (filter tap) term.
struct IndexUse {
    std::string name;
    PerDataSpace<bool> in{};
    bool window_position = false;
    bool window_tap = false;
};

// The slots an index prefers, by its role (the header's table).
std::vector<Dim> preferred_slots(const IndexUse& use) {
    const bool a = use.in[DataSpace::weights];
    const bool b = use.in[DataSpace::inputs];
    const bool z = use.in[DataSpace::outputs];
    if (a && b && z) return {Dim::G};
    if (a && z) return {Dim::K};
    if (a && b) {
        return use.window_tap ? std::vector<Dim>{Dim::R, Dim::S}
                              : std::vector<Dim>{Dim::C, Dim::R, Dim::S};
    }
    if (b && z) {
        return use.window_position ? std::vector<Dim>{Dim::P, Dim::Q}
                                   : std::vector<Dim>{Dim::N, Dim::P, Dim::Q};
    }
    return {};
}

}  // namespace

ProblemShape parse_einsum(std::string_view equation, const SourceLocation& where,
                          const std::string& key_path) {
    Reader reader(equation, where, key_path);
    PerDataSpace<ParsedTensor> tensors;
    tensors[DataSpace::outputs] = reader.tensor("result");
    if (!reader.take("+=")) reader.expect("=", "`+=` after the result");
    tensors[DataSpace::weights] = reader.tensor("first operand");
    reader.expect("*", "`*` between the two operands");
    tensors[DataSpace::inputs] = reader.tensor("second operand");
    if (!reader.at_end()) reader.fail_here("the end of the equation (an einsum has two operands)");

    for (DataSpace s : kAllDataSpaces) {
        for (DataSpace other : kAllDataSpaces) {
            if (other < s && tensors[other].name == tensors[s].name) {
                reader.fail(fmt::format("tensor `{}` is named twice", tensors[s].name),
                            "give each of the three tensors its own name");
            }
        }
        if (tensors[s].axes.size() > kMaxTensorAxes) {
            reader.fail(fmt::format("tensor `{}` has {} axes, more than the {} the model holds",
                                    tensors[s].name, tensors[s].axes.size(), kMaxTensorAxes));
        }
    }

    // Each index's use, in the order of first appearance (result, then operands).
    std::vector<IndexUse> uses;
    auto use_of = [&uses](const std::string& name) -> IndexUse& {
        for (IndexUse& u : uses) {
            if (u.name == name) return u;
        }
        uses.push_back(IndexUse{name, {}, false, false});
        return uses.back();
    };
    for (DataSpace s : {DataSpace::outputs, DataSpace::weights, DataSpace::inputs}) {
        const ParsedTensor& t = tensors[s];
        for (const auto& axis : t.axes) {
            if (axis.size() > kMaxAxisTerms) {
                reader.fail(
                    fmt::format("an axis of `{}` sums {} indices, more than the {} the "
                                "model holds (a window: `p*stride+r*dilation`)",
                                t.name, axis.size(), kMaxAxisTerms));
            }
            for (std::size_t k = 0; k < axis.size(); ++k) {
                IndexUse& u = use_of(axis[k].index);
                if (u.in[s]) {
                    reader.fail(fmt::format("index `{}` appears twice in tensor `{}`",
                                            axis[k].index, t.name),
                                "each index indexes at most one axis of a tensor");
                }
                u.in[s] = true;
                if (axis.size() == 2) (k == 0 ? u.window_position : u.window_tap) = true;
            }
        }
    }
    for (const IndexUse& u : uses) {
        if (u.in[DataSpace::outputs] && !u.in[DataSpace::weights] && !u.in[DataSpace::inputs]) {
            reader.fail(fmt::format("index `{}` of the result `{}` is in neither operand", u.name,
                                    tensors[DataSpace::outputs].name),
                        "every index of the result must index an operand");
        }
    }
    if (uses.size() > kNumDims) {
        reader.fail(
            fmt::format("{} indices, more than the {} the model holds", uses.size(), kNumDims));
    }

    ProblemShape shape;
    std::vector<std::pair<std::string, Dim>> slot_of;
    PerDim<bool> taken{};
    // Three passes: the window indices to their role's slots (they have the
    // fewest that fit), then the others to theirs, then whatever is left to
    // the first free slot; within a pass, in the order of first appearance.
    std::vector<bool> placed(uses.size(), false);
    auto place = [&](std::size_t i, Dim d) {
        taken[d] = true;
        placed[i] = true;
        shape.dim_names[d] = uses[i].name;
        slot_of.emplace_back(uses[i].name, d);
    };
    for (const bool windows : {true, false}) {
        for (std::size_t i = 0; i < uses.size(); ++i) {
            if (placed[i] || (uses[i].window_position || uses[i].window_tap) != windows) continue;
            for (Dim d : preferred_slots(uses[i])) {
                if (!taken[d]) {
                    place(i, d);
                    break;
                }
            }
        }
    }
    for (std::size_t i = 0; i < uses.size(); ++i) {
        for (Dim d : kAllDims) {
            if (!placed[i] && !taken[d]) place(i, d);
        }
    }
    auto slot_named = [&slot_of](const std::string& name) {
        return std::find_if(slot_of.begin(), slot_of.end(),
                            [&](const auto& entry) { return entry.first == name; })
            ->second;
    };
    for (const IndexUse& u : uses) shape.listing[shape.num_dims++] = slot_named(u.name);

    for (DataSpace s : kAllDataSpaces) {
        shape.tensor_names[s] = tensors[s].name;
        std::array<TensorAxis, kMaxTensorAxes> axes{};
        for (std::size_t a = 0; a < tensors[s].axes.size(); ++a) {
            const auto& terms = tensors[s].axes[a];
            axes[a].num_terms = std::uint8_t(terms.size());
            for (std::size_t k = 0; k < terms.size(); ++k) {
                axes[a].terms[k] = {slot_named(terms[k].index), terms[k].coef};
            }
        }
        shape.projections[s] = make_projection(axes.data(), tensors[s].axes.size());
    }
    return shape;
}

std::string einsum_text(const ProblemShape& shape) {
    auto tensor = [&shape](DataSpace s) {
        const Projection& p = shape.projections[s];
        std::string text = shape.tensor_names[s] + "[";
        for (std::uint8_t a = 0; a < p.num_axes; ++a) {
            if (a > 0) text += ",";
            for (std::uint8_t t = 0; t < p.axes[a].num_terms; ++t) {
                const AxisTerm& term = p.axes[a].terms[t];
                if (t > 0) text += "+";
                text += shape.dim_name(term.dim);
                if (term.coef != 1) text += fmt::format("*{}", term.coef);
            }
        }
        return text + "]";
    };
    return fmt::format("{} += {} * {}", tensor(DataSpace::outputs), tensor(DataSpace::weights),
                       tensor(DataSpace::inputs));
}

}  // namespace trainloop
