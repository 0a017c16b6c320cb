#include "density/npy_mask.hpp"

#include <fmt/format.h>

#include <cctype>
#include <string>

#include "common/file_text.hpp"
#include "common/spec_error.hpp"
#include "common/spec_node.hpp"

namespace trainloop {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& message,
                       const std::string& expected = {}, const std::string& hint = {}) {
    throw SpecError(SourceLocation{path.string(), 0, 0}, "", message, expected, hint);
}

// 4 Gi one-byte elements, plus room for the header.
constexpr std::uintmax_t kMaxMaskFileBytes = (std::uintmax_t{1} << 32) + (std::uintmax_t{1} << 20);

const std::string kExpectedMask =
    "a NumPy .npy mask of dtype bool or uint8 (numpy.save(path, mask.astype(bool)))";

// The value text of `key` in the header dictionary, e.g. "'|b1'" or "(64, 3, 3, 3)".
std::string header_value(const std::filesystem::path& path, const std::string& header,
                         const std::string& key) {
    const std::string quoted = "'" + key + "'";
    const std::size_t at = header.find(quoted);
    if (at == std::string::npos) {
        fail(path, fmt::format("the .npy header has no `{}` entry", key), kExpectedMask);
    }
    std::size_t i = header.find(':', at + quoted.size());
    if (i == std::string::npos) fail(path, "malformed .npy header", kExpectedMask);
    ++i;
    while (i < header.size() && header[i] == ' ') ++i;
    std::size_t end = i;
    if (i < header.size() && header[i] == '(') {
        end = header.find(')', i);
        if (end == std::string::npos)
            fail(path, "malformed .npy header: unclosed shape", kExpectedMask);
        ++end;
    } else if (i < header.size() && header[i] == '\'') {
        end = header.find('\'', i + 1);
        if (end == std::string::npos)
            fail(path, "malformed .npy header: unclosed string", kExpectedMask);
        ++end;
    } else {
        while (end < header.size() && header[end] != ',' && header[end] != '}') ++end;
    }
    return header.substr(i, end - i);
}

std::vector<std::int64_t> parse_shape(const std::filesystem::path& path, const std::string& text) {
    std::vector<std::int64_t> shape;
    std::size_t i = 1;  // after '('
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == ',')) ++i;
        if (i >= text.size() || text[i] == ')') break;
        if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
            fail(path, fmt::format("malformed .npy shape `{}`", quoted_excerpt(text)),
                 kExpectedMask);
        }
        std::int64_t v = 0;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
            v = v * 10 + (text[i] - '0');
            if (v > (std::int64_t(1) << 40)) fail(path, "a .npy dimension is too large");
            ++i;
        }
        shape.push_back(v);
    }
    if (shape.empty()) fail(path, "a .npy mask must have at least one dimension", kExpectedMask);
    return shape;
}

}  // namespace

MaskTensor read_npy_mask(const std::filesystem::path& path) {
    // The path must be a regular file of bounded size: a FIFO or /dev/zero
    // would block or grow without bound.
    return parse_npy_mask(read_input_file(path, kMaxMaskFileBytes, kExpectedMask), path);
}

MaskTensor parse_npy_mask(std::string_view bytes, const std::filesystem::path& path) {
    if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) {
        fail(path, "not a NumPy .npy file (bad magic string)", kExpectedMask);
    }
    const int major = static_cast<unsigned char>(bytes[6]);
    std::size_t header_len = 0;
    std::size_t header_start = 0;
    if (major == 1) {
        header_len = std::size_t(static_cast<unsigned char>(bytes[8])) |
                     std::size_t(static_cast<unsigned char>(bytes[9])) << 8;
        header_start = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) fail(path, "truncated .npy header", kExpectedMask);
        for (int b = 3; b >= 0; --b) {
            header_len = header_len << 8 | static_cast<unsigned char>(bytes[8 + std::size_t(b)]);
        }
        header_start = 12;
    } else {
        fail(path, fmt::format("unsupported .npy format version {}", major), "version 1, 2 or 3");
    }
    if (bytes.size() < header_start + header_len)
        fail(path, "truncated .npy header", kExpectedMask);
    const std::string header(bytes.substr(header_start, header_len));

    const std::string descr = header_value(path, header, "descr");
    if (descr != "'|b1'" && descr != "'|u1'" && descr != "'<u1'" && descr != "'>u1'") {
        fail(path, fmt::format("unsupported mask dtype {}", quoted_excerpt(descr)),
             "dtype bool ('|b1') or uint8 ('|u1')",
             "save the mask with mask.astype(numpy.bool_) or .astype(numpy.uint8)");
    }
    const std::string order = header_value(path, header, "fortran_order");
    if (order != "False" && order != "True") {
        fail(path,
             fmt::format("malformed .npy header: fortran_order is `{}`", quoted_excerpt(order)),
             kExpectedMask);
    }
    MaskTensor mask;
    mask.file = path.string();
    mask.shape = parse_shape(path, header_value(path, header, "shape"));
    // The shape's product is checked before it sizes anything: it must match
    // the data actually present (so it is also bounded by the file size).
    const std::size_t data_start = header_start + header_len;
    std::size_t count = 1;
    for (std::int64_t d : mask.shape) {
        if (__builtin_mul_overflow(count, std::size_t(d), &count) || count > bytes.size()) {
            fail(path,
                 fmt::format("the .npy shape {} needs more elements than the file's {} bytes hold",
                             header_value(path, header, "shape"), bytes.size() - data_start),
                 kExpectedMask, "the file may be truncated");
        }
    }
    if (bytes.size() - data_start != count) {
        fail(path,
             fmt::format("the .npy data holds {} bytes, the shape needs {}",
                         bytes.size() - data_start, count),
             kExpectedMask, "the file may be truncated");
    }
    mask.nonzero.resize(count);
    std::size_t nonzeros = 0;
    const std::size_t rank = mask.shape.size();
    std::vector<std::int64_t> index(rank, 0);
    for (std::size_t f = 0; f < count; ++f) {
        const bool nz = bytes[data_start + f] != 0;
        nonzeros += nz;
        if (order == "False") {
            mask.nonzero[f] = nz;
            continue;
        }
        // Fortran order: the first index varies fastest; place it at its C-order position.
        std::size_t c = 0;
        for (std::size_t a = 0; a < rank; ++a)
            c = c * std::size_t(mask.shape[a]) + std::size_t(index[a]);
        mask.nonzero[c] = nz;
        for (std::size_t a = 0; a < rank && ++index[a] == mask.shape[a]; ++a) index[a] = 0;
    }
    mask.density = count == 0 ? 0.0 : double(nonzeros) / double(count);
    return mask;
}

}  // namespace trainloop
