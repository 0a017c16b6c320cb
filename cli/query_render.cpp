#include "query_render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "json_errors.hpp"

namespace trainloop::cli {
namespace {

std::string table_cell(const QueryValue& v) {
    if (std::holds_alternative<std::monostate>(v)) return "-";
    if (const auto* n = std::get_if<std::int64_t>(&v)) return fmt::format("{}", *n);
    if (const auto* d = std::get_if<double>(&v)) return fmt::format("{:.6g}", *d);
    return std::get<std::string>(v);
}

std::string csv_cell(const QueryValue& v) {
    if (std::holds_alternative<std::monostate>(v)) return "";
    if (const auto* n = std::get_if<std::int64_t>(&v)) return fmt::format("{}", *n);
    if (const auto* d = std::get_if<double>(&v)) return fmt::format("{}", *d);
    const std::string& text = std::get<std::string>(v);
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

}  // namespace

std::string render_table(const QueryTable& table) {
    std::vector<std::size_t> width(table.columns.size());
    std::vector<bool> numeric(table.columns.size(), true);
    for (std::size_t c = 0; c < table.columns.size(); ++c) width[c] = table.columns[c].size();
    for (const auto& row : table.rows) {
        for (std::size_t c = 0; c < row.size(); ++c) {
            width[c] = std::max(width[c], table_cell(row[c]).size());
            if (std::holds_alternative<std::string>(row[c])) numeric[c] = false;
        }
    }
    auto line = [&](const std::vector<std::string>& cells) {
        std::string text;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const bool last = c + 1 == cells.size();
            if (numeric[c]) {
                text += fmt::format("{:>{}}", cells[c], width[c]);
            } else {
                text += last ? cells[c] : fmt::format("{:<{}}", cells[c], width[c]);
            }
            if (!last) text += "  ";
        }
        return text + "\n";
    };
    std::string out = line(table.columns);
    std::size_t total = 0;
    for (std::size_t w : width) total += w + 2;
    out += std::string(total > 2 ? total - 2 : 0, '-') + "\n";
    for (const auto& row : table.rows) {
        std::vector<std::string> cells;
        for (const QueryValue& v : row) cells.push_back(table_cell(v));
        out += line(cells);
    }
    out += fmt::format("({} row{})\n", table.rows.size(), table.rows.size() == 1 ? "" : "s");
    return out;
}

std::string render_csv(const QueryTable& table) {
    std::string out;
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        if (c > 0) out += ',';
        out += csv_cell(table.columns[c]);
    }
    out += "\n";
    for (const auto& row : table.rows) {
        for (std::size_t c = 0; c < row.size(); ++c) {
            if (c > 0) out += ',';
            out += csv_cell(row[c]);
        }
        out += "\n";
    }
    return out;
}

std::string render_json(const QueryTable& table) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : table.rows) {
        nlohmann::json object = nlohmann::json::object();
        for (std::size_t c = 0; c < row.size(); ++c) {
            const QueryValue& v = row[c];
            nlohmann::json& cell = object[table.columns[c]];
            if (const auto* n = std::get_if<std::int64_t>(&v)) cell = *n;
            if (const auto* d = std::get_if<double>(&v)) cell = *d;
            if (const auto* t = std::get_if<std::string>(&v)) cell = *t;
        }
        rows.push_back(std::move(object));
    }
    return json_text(rows) + "\n";
}

std::string render_query(const QueryTable& table, const std::string& format) {
    if (format == "csv") return render_csv(table);
    if (format == "json") return render_json(table);
    return render_table(table);
}

}  // namespace trainloop::cli
