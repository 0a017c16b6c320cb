// Progress of a long run on standard error. On a terminal: one bar redrawn
// in place — `[#######.......]  12/40 points  0.8 points/s  ETA 35 s` — at
// most ten times a second. Not on a terminal (a log file, a batch job): a
// plain line every `plain_interval` seconds and at the end, so logs stay
// short. Disabled (`--quiet`): nothing. (No progress-bar library is packaged
// in Debian; this is a few lines on top of fmt.)
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace trainloop::cli {

class ProgressBar {
  public:
    ProgressBar(std::string label, std::string unit, bool enabled, double plain_interval = 10.0);

    // `done` of `total` finished, `seconds` since the work started; `note`
    // is appended (e.g. "3 failed").
    void update(std::int64_t done, std::int64_t total, double seconds,
                const std::string& note = {});
    // Erases the bar on a terminal; prints a last line otherwise.
    void finish();

    // The bar's text, without terminal control characters (tests).
    static std::string render(const std::string& label, const std::string& unit, std::int64_t done,
                              std::int64_t total, double seconds, const std::string& note,
                              bool with_bar);

  private:
    std::string label_;
    std::string unit_;
    bool enabled_;
    bool terminal_;
    double plain_interval_;
    std::size_t width_ = 0;
    std::string last_line_;
    bool printed_last_ = true;
    std::chrono::steady_clock::time_point last_{};
};

}  // namespace trainloop::cli
