#include "store/canned_queries.hpp"

#include <fmt/format.h>

#include <optional>
#include <stdexcept>

#include "common/did_you_mean.hpp"
#include "common/spec_error.hpp"

namespace trainloop {

namespace {

QueryTable run_summary(Database& db, const QueryArgs&) { return query_summary(db); }

// A point whose architecture, network or profile row is missing (a database
// edited by hand, or damaged): "point 12 refers to architectures row 3".
std::optional<std::string> first_dangling_reference(Database& db) {
    Statement s = db.prepare(
        "SELECT p.id, 'architectures', p.arch_id FROM points p "
        "WHERE NOT EXISTS (SELECT 1 FROM architectures a WHERE a.id = p.arch_id) UNION ALL "
        "SELECT p.id, 'networks', p.network_id FROM points p "
        "WHERE NOT EXISTS (SELECT 1 FROM networks n WHERE n.id = p.network_id) UNION ALL "
        "SELECT p.id, 'sparsity_profiles', p.sparsity_id FROM points p "
        "WHERE NOT EXISTS (SELECT 1 FROM sparsity_profiles s WHERE s.id = p.sparsity_id) "
        "LIMIT 1");
    if (!s.step()) return std::nullopt;
    return fmt::format("point {} refers to {} row {}, which is missing", s.int64(0), s.text(1),
                       s.int64(2));
}

// The queries look spec names up by the ids the points hold: a lookup that
// fails on a dangling row is a damaged database, reported as one.
QueryTable run_checked(Database& db, const CannedQuery& q, const QueryArgs& args) {
    try {
        return q.run(db, args);
    } catch (const std::out_of_range&) {
        const auto dangling = first_dangling_reference(db);
        if (!dangling) throw;
        throw SpecError({db.path().string(), 0, 0}, "",
                        fmt::format("the database has a dangling row: {}", *dangling),
                        "an intact results database",
                        "`trainloop db check FILE` lists every such row");
    }
}

}  // namespace

const std::vector<CannedQuery>& canned_queries() {
    static const std::vector<CannedQuery> table = {
        {"summary", "", run_summary},
        {"best", "(--arch --network --dataflow)", query_best},
        {"pareto", "(--network [--layer L --phase P | --phase P])", query_pareto},
        {"compare-dataflows", "(--network)", query_compare_dataflows},
        {"compare-archs", "(--baseline [--network])", query_compare_archs},
    };
    return table;
}

const std::vector<std::string>& canned_query_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const CannedQuery& q : canned_queries()) out.emplace_back(q.name);
        return out;
    }();
    return names;
}

std::string canned_query_usage() {
    std::string usage;
    for (const CannedQuery& q : canned_queries()) {
        if (!usage.empty()) usage += " | ";
        usage += q.name;
        if (!q.arguments.empty()) usage += fmt::format(" {}", q.arguments);
    }
    return usage;
}

QueryTable run_canned_query(Database& db, const std::string& name, const QueryArgs& args) {
    for (const CannedQuery& q : canned_queries()) {
        if (q.name == name) return run_checked(db, q, args);
    }
    const std::vector<std::string>& names = canned_query_names();
    std::string choices;
    for (std::size_t i = 0; i < names.size(); ++i) {
        choices += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    }
    throw SpecError({}, "query", fmt::format("unknown query `{}`", name), choices + " (or --sql)",
                    suggestion_hint(name, names));
}

}  // namespace trainloop
