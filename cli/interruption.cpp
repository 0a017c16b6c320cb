#include "interruption.hpp"

#include <unistd.h>

#include <csignal>
#include <cstring>

namespace trainloop::cli {
namespace {

// Texts prepared outside the handler (formatting allocates); the handler only
// reads them through an atomic pointer and writes them with write(2).
struct Note {
    std::string before_count;  // up to `{recorded}`
    std::string after_count;   // after it (empty when there is no counter)
    bool has_count = false;
    std::string resume;
};

std::atomic<const Note*> g_note{nullptr};
std::atomic<std::int64_t> g_count{0};
std::string* g_command = nullptr;  // set once before the handlers are installed

void write_text(const char* text, std::size_t length) {
    while (length > 0) {
        const ssize_t n = ::write(STDERR_FILENO, text, length);
        if (n <= 0) return;
        text += n;
        length -= std::size_t(n);
    }
}

void write_text(const std::string& text) { write_text(text.data(), text.size()); }

void write_number(std::int64_t value) {
    char digits[24];
    std::size_t n = 0;
    std::uint64_t v = value < 0 ? 0 : std::uint64_t(value);
    do {
        digits[sizeof digits - 1 - n++] = char('0' + v % 10);
        v /= 10;
    } while (v > 0 && n < sizeof digits);
    write_text(digits + sizeof digits - n, n);
}

extern "C" void on_stop_signal(int signal) {
    const char* name = signal == SIGINT ? "SIGINT" : "SIGTERM";
    write_text("\ntrainloop: stopped by ");
    write_text(name, std::strlen(name));
    write_text(".");
    if (const Note* note = g_note.load()) {
        write_text(" ");
        write_text(note->before_count);
        if (note->has_count) {
            write_number(g_count.load());
            write_text(note->after_count);
        }
        if (!note->resume.empty()) {
            write_text(" ");
            write_text(note->resume);
        }
    }
    write_text("\n");
    ::_exit(128 + signal);
}

}  // namespace

void install_interruption_handlers(int argc, char** argv) {
    static std::string command;
    for (int i = 0; i < argc; ++i) {
        if (i > 0) command += ' ';
        const std::string arg = argv[i];
        const bool plain =
            !arg.empty() && arg.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;!#~") == std::string::npos;
        if (plain) {
            command += arg;
        } else {  // single-quoted for the shell
            command += '\'';
            for (char c : arg) command += c == '\'' ? std::string("'\\''") : std::string(1, c);
            command += '\'';
        }
    }
    g_command = &command;
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    std::signal(SIGXFSZ, SIG_IGN);
}

void set_interruption_note(std::string kept, std::string resume, bool rerun) {
    auto* note = new Note;  // never freed: the handler may read it at any time
    const std::string marker = "{recorded}";
    if (const auto at = kept.find(marker); at != std::string::npos) {
        note->before_count = kept.substr(0, at);
        note->after_count = kept.substr(at + marker.size());
        note->has_count = true;
    } else {
        note->before_count = std::move(kept);
    }
    note->resume = std::move(resume);
    if (rerun && g_command != nullptr) note->resume += " " + *g_command;
    g_note.store(note);
}

void set_interruption_count(std::int64_t recorded) { g_count.store(recorded); }

}  // namespace trainloop::cli
