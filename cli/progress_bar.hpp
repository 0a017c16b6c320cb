// Progress of a long run on standard error. On a terminal: one bar redrawn
// in place — `[#######.......]  12/40 points  0.8 points/s  ETA 35 s` — at
// most ten times a second. Not on a terminal (a log file, a batch job): a
// plain line every `plain_interval` seconds and at the end, so logs stay
// short. Disabled (`--quiet`): nothing. (No progress-bar library is packaged
// in Debian; this is a few lines on top of fmt.)
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace trainloop::cli {

class ProgressBar {
  public:
    // `final_line`: when not on a terminal, finish() prints the last state
    // if the interval kept it back (off where a summary follows anyway).
    ProgressBar(std::string label, std::string unit, bool enabled, double plain_interval = 10.0,
                bool final_line = true);

    // `done` of `total` finished, `seconds` since the work started; `note`
    // is appended (e.g. "3 failed"). `fraction` (in (0, 1)), when given, is
    // a finer measure of the work done than done/total, for the ETA.
    void update(std::int64_t done, std::int64_t total, double seconds, const std::string& note = {},
                std::optional<double> fraction = std::nullopt);
    // The work starts now: the first plain line comes one interval later
    // (without it, the first update prints at once).
    void start() { last_ = std::chrono::steady_clock::now(); }
    // Erases the bar on a terminal; prints a last line otherwise.
    void finish();

    // The bar's text, without terminal control characters (tests).
    static std::string render(const std::string& label, const std::string& unit, std::int64_t done,
                              std::int64_t total, double seconds, const std::string& note,
                              bool with_bar, std::optional<double> fraction = std::nullopt);

  private:
    std::string label_;
    std::string unit_;
    bool enabled_;
    bool terminal_;
    double plain_interval_;
    bool final_line_;
    std::size_t width_ = 0;
    std::string last_line_;
    bool printed_last_ = true;
    std::chrono::steady_clock::time_point last_{};
};

}  // namespace trainloop::cli
