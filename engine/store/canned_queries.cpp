#include "store/canned_queries.hpp"

#include <fmt/format.h>

#include "common/did_you_mean.hpp"
#include "common/spec_error.hpp"

namespace trainloop {

namespace {

QueryTable run_summary(Database& db, const QueryArgs&) { return query_summary(db); }

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
        if (q.name == name) return q.run(db, args);
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
