#include "workload/tensor_shape.hpp"

#include <fmt/format.h>

namespace trainloop {

std::string to_string(const TensorShape& shape) {
    return fmt::format("{}×{}×{}", shape.channels, shape.height, shape.width);
}

}  // namespace trainloop
