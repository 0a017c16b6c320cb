// Where the shipped YAML libraries (workloads/, arch_specs/) are found:
// $TRAINLOOP_DATA_DIR if set, else the source tree the binary was built from.
#pragma once

#include <filesystem>

namespace trainloop {

std::filesystem::path data_directory();

}  // namespace trainloop
