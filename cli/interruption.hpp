// What happens when the user stops trainloop: SIGINT (Ctrl-C) and SIGTERM
// end the process at once (within the signal's delivery, well under a
// second) with a message saying what was kept and how to resume. Stopping
// at any moment is safe by construction: every result is written in one
// SQLite transaction, which an interrupted process simply never commits
// (the same reason `kill -9` loses nothing). SIGXFSZ (a file-size limit,
// `ulimit -f`) is ignored, so the write that hits the limit fails with a
// located error instead of killing the process without a word.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace trainloop::cli {

// Installs the handlers; `argv` is kept to print the command to rerun.
void install_interruption_handlers(int argc, char** argv);

// What the message says, set by a command before its work starts:
// `kept` is printed as is, with `{recorded}` replaced by the counter below
// at the moment of the signal; `resume` says how to continue (the command
// line is appended when `rerun` is true).
void set_interruption_note(std::string kept, std::string resume, bool rerun);

// The count a command reports through `{recorded}` (e.g. points written).
void set_interruption_count(std::int64_t recorded);

}  // namespace trainloop::cli
