// Running the trainloop binary from a test, temp files named per test
// (ctest runs every test as its own process, in parallel), and reading a
// file's text.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace trainloop::testing {

struct CommandResult {
    int exit_code = -1;
    std::string output;
};

// Which output `run_trainloop` captures besides standard output.
enum class Capture { stdout_and_stderr, stdout_only, stderr_only };

// Runs a shell command line; its exit code and the output `capture` keeps.
inline CommandResult run_command(const std::string& command_line,
                                 Capture capture = Capture::stdout_and_stderr) {
    const char* redirect = capture == Capture::stdout_and_stderr ? " 2>&1"
                           : capture == Capture::stdout_only     ? " 2>/dev/null"
                                                                 : " 2>&1 >/dev/null";
    const std::string command = command_line + redirect;
    CommandResult result;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return result;
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr)
        result.output += buffer.data();
    const int status = pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

inline CommandResult run_trainloop(const std::string& arguments,
                                   Capture capture = Capture::stdout_and_stderr) {
    // Appended, not `std::string(...) + " " + ...`: GCC 12 at -O3 warns falsely
    // (-Warray-bounds) inside libstdc++ on that rvalue concatenation.
    std::string command_line = TRAINLOOP_BINARY;
    command_line += ' ';
    command_line += arguments;
    return run_command(command_line, capture);
}

// A path under the test temp dir, unique to the running test.
inline std::string temp_path(const std::string& name) {
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    return ::testing::TempDir() + test + "_" + name;
}

inline std::string temp_file(const std::string& name, const std::string& text) {
    const std::string path = temp_path(name);
    std::ofstream(path) << text;
    return path;
}

// A SQLite database path under the test temp dir with no database (or WAL files) left over.
inline std::string fresh_db(const std::string& name) {
    const std::string path = temp_path(name);
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    return path;
}

// A whole file's text (empty when it cannot be read).
inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace trainloop::testing
