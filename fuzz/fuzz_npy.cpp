// Fuzzes the .npy mask reader on raw bytes.
#include <cstddef>
#include <cstdint>

#include "density/npy_mask.hpp"
#include "fuzz_support.hpp"

using namespace trainloop;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::expect_spec_errors_only(
        [&] { (void)parse_npy_mask(fuzz::as_text(data, size), "fuzz/mask.npy"); });
    return 0;
}
