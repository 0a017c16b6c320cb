// A height/width pair (a kernel, stride, padding or dilation).
#pragma once

#include <cstdint>

namespace trainloop {

struct Extent2 {
    std::int64_t h = 1;
    std::int64_t w = 1;
    friend bool operator==(const Extent2&, const Extent2&) = default;
};

}  // namespace trainloop
