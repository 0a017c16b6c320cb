// A strict reader of NumPy .npy files holding a sparsity mask (format:
// numpy.lib.format, versions 1.0, 2.0 and 3.0): the magic string, the
// header dictionary ('descr', 'fortran_order', 'shape'), then the raw data.
// Accepted dtypes: bool ('|b1') and uint8 ('|u1'); any nonzero byte is a
// nonzero element. Fortran-order arrays are reordered to C order.
//
// Contract: every problem (missing file, bad magic, unsupported version or
// dtype, malformed header, truncated data) is a SpecError naming the file.
#pragma once

#include <filesystem>
#include <string_view>

#include "density/density_model.hpp"

namespace trainloop {

MaskTensor read_npy_mask(const std::filesystem::path& path);
// The same, for the bytes of such a file (`source` names it in errors).
MaskTensor parse_npy_mask(std::string_view bytes, const std::filesystem::path& source);

}  // namespace trainloop
