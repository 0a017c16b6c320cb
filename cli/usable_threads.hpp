// How many worker threads a command may start.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <string_view>
#include <thread>

namespace trainloop::cli {

// The threads a search may use: 0 means every hardware thread; more than the
// machine runs is capped there, with a note on standard error (thousands of
// threads only contend, and thread creation can fail inside TBB).
inline int usable_threads(int requested, std::string_view option = "--threads") {
    const int hardware = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    if (requested <= hardware) return requested;
    std::cerr << fmt::format("note: {} {} capped at {}, the hardware threads of this machine\n",
                             option, requested, hardware);
    return hardware;
}

}  // namespace trainloop::cli
