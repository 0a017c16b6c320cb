// The best phase-total row per group, the reduction that compare-dataflows
// and compare-archs share: every selected point's phase totals stream by once
// and each group keeps its lowest-EDP row. Internal to store/.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "store/queries/query_support.hpp"

namespace trainloop::query_detail {

// One phase total of one point. Specs and texts are held as ranks in name
// order, so grouping and sorting compare integers only.
struct PhaseRow {
    std::int64_t point = 0;  // the point's id
    std::int64_t arch = 0;   // ids, for names
    std::int64_t network = 0;
    std::int64_t sparsity = 0;
    int arch_rank = 0;  // SpecNames ranks
    int network_rank = 0;
    int sparsity_rank = 0;
    std::int64_t batch = 0;
    int phase = 0;
    int dataflow = 0;   // rank of the text in PhaseRows::texts (alphabetical)
    int objective = 0;  // likewise
    std::int64_t cycles = 0;
    double energy_pj = 0;
    double clock_ghz = 1.0;  // the architecture's

    double edp() const { return energy_pj * double(cycles); }
    // Wall time: architectures with different clocks compare in seconds.
    double seconds() const { return double(cycles) / (clock_ghz * 1e9); }
};

struct PhaseRows {
    std::vector<PhaseRow> rows;
    std::vector<std::string> texts;  // sorted; dataflow and objective index it
};

// Hashes a tuple of integers (the group keys).
struct TupleHash {
    template <typename... T>
    std::size_t operator()(const std::tuple<T...>& key) const {
        std::size_t h = 0;
        std::apply(
            [&h](const auto&... part) {
                ((h = h * 1'000'003 ^ std::hash<std::decay_t<decltype(part)>>{}(part)), ...);
            },
            key);
        return h;
    }
};

// The lowest-EDP row of each group (ties: by dataflow, objective, cycles),
// kept as rows arrive; sorted() gives them in group order.
template <typename KeyFn>
class BestPerGroup {
  public:
    explicit BestPerGroup(const KeyFn& key) : key_(key) {}

    void add(const PhaseRow& r) {
        auto [it, inserted] = best_.try_emplace(key_(r), r);
        if (!inserted && better(r, it->second)) it->second = r;
    }
    std::vector<PhaseRow> sorted() const {
        std::vector<PhaseRow> rows;
        rows.reserve(best_.size());
        for (const auto& entry : best_) rows.push_back(entry.second);
        std::sort(rows.begin(), rows.end(),
                  [this](const PhaseRow& a, const PhaseRow& b) { return key_(a) < key_(b); });
        return rows;
    }

  private:
    static bool better(const PhaseRow& a, const PhaseRow& b) {
        return std::tuple(a.edp(), a.dataflow, a.objective, a.cycles) <
               std::tuple(b.edp(), b.dataflow, b.objective, b.cycles);
    }
    const KeyFn& key_;
    std::unordered_map<std::invoke_result_t<KeyFn, const PhaseRow&>, PhaseRow, TupleHash> best_;
};

// The distinct dataflow and objective texts, numbered by appearance, then
// renumbered alphabetically so ties break the same way whatever order the
// points were written in.
class TextRanks {
  public:
    int id(std::string_view text) {
        for (std::size_t i = 0; i < texts_.size(); ++i) {
            if (texts_[i] == text) return static_cast<int>(i);
        }
        texts_.emplace_back(text);
        return static_cast<int>(texts_.size() - 1);
    }
    // Sorts the texts; returns, per appearance id, its rank.
    std::vector<int> sort() {
        std::vector<std::string> sorted = texts_;
        std::sort(sorted.begin(), sorted.end());
        std::vector<int> rank(texts_.size());
        for (std::size_t i = 0; i < texts_.size(); ++i) {
            rank[i] = static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), texts_[i]) -
                                       sorted.begin());
        }
        texts_ = std::move(sorted);
        return rank;
    }
    std::vector<std::string> take() { return std::move(texts_); }

  private:
    std::vector<std::string> texts_;
};

// The best phase-total row per group of `key` among the points that pass `f`
// (one phase, or all of them when `phase` is nullopt), in group order. A
// filtered selection joins in SQL, points first (by their indexes) and each
// point's totals by primary key; every point is read as two scans joined here
// by id and reduced as the totals stream by, never held all at once.
template <typename KeyFn>
PhaseRows best_phase_rows(Database& db, const PointFilter& f, const SpecNames& names,
                          const std::optional<std::string>& phase, const KeyFn& key) {
    TextRanks texts;
    auto point_row = [&](Statement& s, int first) {
        PhaseRow r;
        r.arch = s.int64(first);
        r.clock_ghz = names.clock_ghz.at(r.arch);
        r.network = s.int64(first + 1);
        r.sparsity = s.int64(first + 2);
        r.arch_rank = names.arch_rank.at(r.arch);
        r.network_rank = names.network_rank.at(r.network);
        r.sparsity_rank = names.sparsity_rank.at(r.sparsity);
        r.batch = s.int64(first + 3);
        r.dataflow = texts.id(s.text_view(first + 4));
        r.objective = texts.id(s.text_view(first + 5));
        return r;
    };
    auto rank = [](PhaseRow& r, const std::vector<int>& ranks) {
        r.dataflow = ranks[std::size_t(r.dataflow)];
        r.objective = ranks[std::size_t(r.objective)];
    };
    const std::string point_columns =
        "p.arch_id, p.network_id, p.sparsity_id, p.batch, p.dataflow, p.objective";
    BestPerGroup<KeyFn> best(key);
    if (f.conditions.size() > 1) {
        Statement s = db.prepare(
            fmt::format("SELECT {}, t.phase, t.cycles, t.energy_pj, p.id FROM points p CROSS JOIN "
                        "phase_totals t ON t.point_id = p.id WHERE {}{}",
                        point_columns, f.where(), phase ? " AND t.phase = ?" : ""));
        f.bind(s);
        if (phase) s.bind(int(f.values.size()) + 1, *phase);
        std::vector<PhaseRow> rows;
        while (s.step()) {
            PhaseRow& r = rows.emplace_back(point_row(s, 0));
            r.phase = phase_index(s.text_view(6));
            r.cycles = s.int64(7);
            r.energy_pj = s.real(8);
            r.point = s.int64(9);
        }
        const std::vector<int> ranks = texts.sort();
        for (PhaseRow& r : rows) {
            rank(r, ranks);
            best.add(r);
        }
    } else {
        std::vector<std::optional<PhaseRow>> by_point;
        Statement s = db.prepare(
            fmt::format("SELECT p.id, {} FROM points p WHERE {}", point_columns, f.where()));
        f.bind(s);
        while (s.step()) {
            const auto id = static_cast<std::size_t>(s.int64(0));
            if (by_point.size() <= id) by_point.resize(id + 1);
            by_point[id] = point_row(s, 1);
        }
        const std::vector<int> ranks = texts.sort();
        for (std::optional<PhaseRow>& r : by_point) {
            if (r) rank(*r, ranks);
        }
        Statement t = db.prepare(
            phase ? "SELECT point_id, phase, cycles, energy_pj FROM phase_totals WHERE phase = ?"
                  : "SELECT point_id, phase, cycles, energy_pj FROM phase_totals");
        if (phase) t.bind(1, *phase);
        while (t.step()) {
            const auto id = static_cast<std::size_t>(t.int64(0));
            if (id >= by_point.size() || !by_point[id]) continue;
            PhaseRow r = *by_point[id];
            r.point = std::int64_t(id);
            r.phase = phase_index(t.text_view(1));
            r.cycles = t.int64(2);
            r.energy_pj = t.real(3);
            best.add(r);
        }
    }
    return {best.sorted(), texts.take()};
}

}  // namespace trainloop::query_detail
