// Writes small NumPy .npy files for tests (format 1.0, C or Fortran order).
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace trainloop::testing {

inline std::string npy_bytes(const std::vector<std::int64_t>& shape,
                             const std::vector<std::uint8_t>& data,
                             const std::string& descr = "|b1", bool fortran_order = false) {
    std::string dims;
    for (std::int64_t d : shape) dims += std::to_string(d) + ", ";
    if (shape.size() > 1) dims.erase(dims.size() - 2);
    std::string header = "{'descr': '" + descr +
                         "', 'fortran_order': " + (fortran_order ? "True" : "False") +
                         ", 'shape': (" + dims + "), }";
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY";
    out += char(1);
    out += char(0);
    out += char(header.size() & 0xFF);
    out += char(header.size() >> 8);
    out += header;
    out.append(data.begin(), data.end());
    return out;
}

inline void write_file(const std::filesystem::path& path, const std::string& bytes) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

// A fresh directory per test (parallel ctest runs each test in its own process).
inline std::filesystem::path test_directory(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("trainloop_test_" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace trainloop::testing
