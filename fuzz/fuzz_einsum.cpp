// Fuzzes the einsum equation reader (vocabulary/einsum.hpp) on raw bytes. An
// equation it accepts must also write back (einsum_text) to text that reads
// to the same shape, with every tensor axis within the model's limits.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "fuzz_support.hpp"
#include "vocabulary/einsum.hpp"

using namespace trainloop;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::expect_spec_errors_only([&] {
        const std::string_view text = fuzz::as_text(data, size);
        const ProblemShape shape = parse_einsum(text, {"fuzz/net.yaml", 1, 1}, "einsum");
        if (!(parse_einsum(einsum_text(shape), {}, "einsum") == shape)) std::abort();
        for (const Projection& p : shape.projections) {
            if (p.num_axes > kMaxTensorAxes) std::abort();
        }
    });
    return 0;
}
