// `--format json` commands report a SpecError as JSON and exit 2
// (json_errors.hpp has the JSON form).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <iostream>
#include <string>

#include "json_errors.hpp"

namespace trainloop::cli {

// Runs `command`; with format "json", a SpecError is printed as JSON and
// becomes exit code 2. Otherwise it propagates to main's handler.
inline void run_reporting_errors(const std::string& format, const std::function<void()>& command) {
    if (format != "json") return command();
    try {
        command();
    } catch (const SpecError& e) {
        std::cout << json_text(error_to_json(e)) << "\n";
        throw CLI::RuntimeError(2);
    }
}

}  // namespace trainloop::cli
