#include "progress_bar.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <iostream>

#include "duration_text.hpp"

namespace trainloop::cli {

ProgressBar::ProgressBar(std::string label, std::string unit, bool enabled, double plain_interval,
                         bool final_line)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      enabled_(enabled),
      terminal_(enabled && isatty(STDERR_FILENO) != 0),
      plain_interval_(plain_interval),
      final_line_(final_line) {}

std::string ProgressBar::render(const std::string& label, const std::string& unit,
                                std::int64_t done, std::int64_t total, double seconds,
                                const std::string& note, bool with_bar,
                                std::optional<double> fraction) {
    constexpr int kBarWidth = 24;
    std::string text = label + ": ";
    if (with_bar) {
        const int filled =
            total > 0 ? static_cast<int>(kBarWidth * double(done) / double(total)) : kBarWidth;
        text += fmt::format("[{}{}] ", std::string(static_cast<std::size_t>(filled), '#'),
                            std::string(static_cast<std::size_t>(kBarWidth - filled), '.'));
    }
    text += fmt::format("{}/{} {}", done, total, unit);
    const double rate = seconds > 0 ? double(done) / seconds : 0;
    if (done > 0 && seconds > 0) {
        text += rate >= 1 ? fmt::format(", {:.1f} {}/s", rate, unit)
                          : fmt::format(", {:.1f} {}/min", rate * 60, unit);
        if (done < total && !fraction) {
            text += ", ETA " + duration_text(double(total - done) / rate);
        }
    }
    if (fraction && *fraction > 0 && *fraction < 1 && seconds > 0) {
        text += ", ETA " + duration_text(seconds * (1 - *fraction) / *fraction);
    }
    text += fmt::format(", {} elapsed", duration_text(seconds));
    if (!note.empty()) text += ", " + note;
    return text;
}

void ProgressBar::update(std::int64_t done, std::int64_t total, double seconds,
                         const std::string& note, std::optional<double> fraction) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    const double since = std::chrono::duration<double>(now - last_).count();
    const bool finished = done >= total;
    if (terminal_) {
        if (since < 0.1 && !finished) return;
        last_ = now;
        std::string line = render(label_, unit_, done, total, seconds, note, true, fraction);
        const std::size_t width = line.size();
        if (line.size() < width_) line.append(width_ - line.size(), ' ');
        width_ = width;
        std::cerr << "\r" << line << std::flush;
        return;
    }
    last_line_ = render(label_, unit_, done, total, seconds, note, false, fraction);
    printed_last_ = false;
    if (since < plain_interval_ && !(finished && final_line_)) return;
    last_ = now;
    std::cerr << last_line_ << "\n" << std::flush;
    printed_last_ = true;
}

void ProgressBar::finish() {
    if (!enabled_) return;
    if (terminal_) {
        if (width_ > 0) std::cerr << "\r" << std::string(width_, ' ') << "\r" << std::flush;
        width_ = 0;
    } else if (!printed_last_ && final_line_) {
        std::cerr << last_line_ << "\n" << std::flush;
        printed_last_ = true;
    }
}

}  // namespace trainloop::cli
