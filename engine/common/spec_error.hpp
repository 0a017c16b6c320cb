// SpecError: the one exception type for bad user input (YAML specs, command
// line values that name files or keys). It carries where the problem is (file,
// line, column, key path), what is wrong, what was expected, and a hint, so the
// CLI can print a message a user can act on and exit with code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace trainloop {

// A place in an input file. Lines and columns are 1-based; 0 means unknown.
struct SourceLocation {
    std::string file;
    int line = 0;
    int column = 0;
};

class SpecError : public std::runtime_error {
  public:
    SpecError(SourceLocation where, std::string key_path, std::string message,
              std::string expected = {}, std::string hint = {});

    const SourceLocation& where() const { return where_; }
    const std::string& key_path() const { return key_path_; }
    const std::string& message() const { return message_; }
    const std::string& expected() const { return expected_; }
    const std::string& hint() const { return hint_; }

  private:
    SourceLocation where_;
    std::string key_path_;
    std::string message_;
    std::string expected_;
    std::string hint_;
};

// "file:line:column" (parts that are unknown are left out).
std::string format_location(const SourceLocation& where);

// At most `limit` bytes of `text` (cut at a character boundary, "…" added):
// what an error shows of each part (key path 300, message 2000, expected and
// hint 1000), whatever a reader passes, so an error about a file read by
// mistake never echoes the file.
std::string bounded(const std::string& text, std::size_t limit);
inline constexpr std::size_t kShownKeyPath = 300;
inline constexpr std::size_t kShownMessage = 2000;
inline constexpr std::size_t kShownNote = 1000;

}  // namespace trainloop
