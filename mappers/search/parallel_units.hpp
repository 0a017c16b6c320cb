// Runs independent units of work in parallel on a TBB arena.
//
// Under ThreadSanitizer the units run on plain threads instead: TBB's
// scheduler lives in libtbb.so, which Debian does not build with TSan, so TSan
// cannot see its fork and join (or the hand-offs inside TBB's own header
// code) and reports them as races. With std::thread and an atomic counter
// every synchronization is visible, no suppression is needed, and what TSan
// checks is trainloop's own sharing between units and with the caller.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__SANITIZE_THREAD__)
#define TRAINLOOP_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TRAINLOOP_TSAN 1
#endif
#endif

namespace trainloop {

// Calls run_unit(u) for every u in [begin, end), in parallel with at most the
// arena's concurrency; returns when all have finished. An exception a unit
// throws reaches the caller.
template <typename RunUnit>
void parallel_units(tbb::task_arena& arena, std::size_t begin, std::size_t end,
                    RunUnit&& run_unit) {
#if defined(TRAINLOOP_TSAN)
    const std::size_t workers =
        std::min<std::size_t>(std::size_t(std::max(1, arena.max_concurrency())), end - begin);
    std::atomic<std::size_t> next{begin};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto work = [&] {
        for (std::size_t u = next++; u < end; u = next++) {
            try {
                run_unit(u);
            } catch (...) {
                const std::lock_guard<std::mutex> lock(failure_mutex);
                if (!failure) failure = std::current_exception();
            }
        }
    };
    std::vector<std::thread> threads;
    for (std::size_t t = 1; t < workers; ++t) threads.emplace_back(work);
    work();
    for (std::thread& t : threads) t.join();
    if (failure) std::rethrow_exception(failure);
#else
    arena.execute([&] {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(begin, end, 1),
                          [&](const tbb::blocked_range<std::size_t>& range) {
                              for (std::size_t u = range.begin(); u != range.end(); ++u) {
                                  run_unit(u);
                              }
                          });
    });
#endif
}

}  // namespace trainloop
