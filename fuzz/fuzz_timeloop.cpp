// Fuzzes the Timeloop reader and its conversion: one document holding the
// top-level keys timeloop-model's files hold (architecture, problem, mapping,
// ERT, ART), read, imported, and evaluated when the mapping fits.
#include <cstddef>
#include <cstdint>
#include <string>

#include "arch/arch_model.hpp"
#include "common/spec_node.hpp"
#include "eval/evaluation.hpp"
#include "fuzz_support.hpp"
#include "timeloop/timeloop_import.hpp"

using namespace trainloop;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(fuzz::as_text(data, size));
    fuzz::expect_spec_errors_only([&] {
        const TimeloopSpec spec =
            read_timeloop_documents({SpecNode::load_string(text, "fuzz/timeloop.yaml")});
        const TimeloopCase c = import_timeloop(spec);
        const ArchModel model = build_arch_model(c.arch);
        if (check_mapping_structure(model, c.problem.space, c.mapping)) return;
        (void)evaluate(model, c.problem, c.mapping);
    });
    return 0;
}
