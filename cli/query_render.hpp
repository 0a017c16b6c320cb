// Rendering a QueryTable (store/query_table.hpp) for `trainloop query`:
//   table  aligned columns (text left, numbers right; reals with 6
//          significant digits; NULL as `-`), for people;
//   csv    RFC 4180 (a header line; fields with commas, quotes or line
//          breaks quoted), reals in their shortest exact form;
//   json   an array of objects, one per row, keyed by column name; NULL as
//          null.
#pragma once

#include <string>

#include "store/query_table.hpp"

namespace trainloop::cli {

std::string render_table(const QueryTable& table);
std::string render_csv(const QueryTable& table);
std::string render_json(const QueryTable& table);
std::string render_query(const QueryTable& table, const std::string& format);

}  // namespace trainloop::cli
