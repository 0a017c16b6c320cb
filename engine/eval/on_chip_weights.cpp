#include "eval/on_chip_weights.hpp"

#include <fmt/format.h>

#include "common/count_format.hpp"

namespace trainloop {

void check_weights_fit_on_chip(const Architecture& arch, const NetworkTraining& training) {
    if (arch.levels.empty()) return;
    const StorageLevel& top = arch.levels.front();
    const std::optional<std::int64_t> words = top.capacity_words();
    if (!words) return;
    const std::int64_t weights = training.total_weights();
    if (weights <= *words) return;
    throw SpecError(
        top.capacity_location, top.capacity_key,
        fmt::format("the outermost level `{}` holds {} words of {} bits, fewer than the "
                    "network's {} weights, which must all stay on chip when no DRAM level is "
                    "above it",
                    top.name, group_thousands(*words), top.word_bits, group_thousands(weights)),
        fmt::format("a capacity of at least {} bytes ({} weights of {} bits)",
                    group_thousands((weights * top.word_bits + 7) / 8), group_thousands(weights),
                    top.word_bits),
        "add a `class: dram` level with `capacity: unbounded` above it, or map a smaller "
        "network");
}

}  // namespace trainloop
