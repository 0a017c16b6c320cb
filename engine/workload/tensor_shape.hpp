// The per-sample shape of an activation tensor: channels × height × width.
// (The minibatch is a separate parameter; a feature vector is C × 1 × 1.)
#pragma once

#include <cstdint>
#include <string>

namespace trainloop {

struct TensorShape {
    std::int64_t channels = 1;
    std::int64_t height = 1;
    std::int64_t width = 1;

    std::int64_t elements() const { return channels * height * width; }
    friend bool operator==(const TensorShape&, const TensorShape&) = default;
};

// "64×56×56"
std::string to_string(const TensorShape& shape);

}  // namespace trainloop
