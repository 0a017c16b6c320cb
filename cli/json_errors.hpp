// Under `--format json`, errors are JSON too (on standard output, so a
// script reads one stream): {"error": {"message", "file", "line", "column",
// "key", "expected", "hint"}}; the exit code is still 2.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/spec_error.hpp"

namespace trainloop::cli {

// JSON text for output. Bytes that are not UTF-8 (a file name, a value a
// database holds) become U+FFFD instead of failing the whole output.
inline std::string json_text(const nlohmann::json& json, int indent = 2) {
    return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

inline nlohmann::json error_to_json(const SpecError& e) {
    return {{"error",
             {{"message", bounded(e.message(), kShownMessage)},
              {"file", e.where().file},
              {"line", e.where().line},
              {"column", e.where().column},
              {"key", bounded(e.key_path(), kShownKeyPath)},
              {"expected", bounded(e.expected(), kShownNote)},
              {"hint", bounded(e.hint(), kShownNote)}}}};
}

}  // namespace trainloop::cli
