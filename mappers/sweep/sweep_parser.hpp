// Reading a sweep file (top-level key `sweep:`; format in
// docs/results_db.md). Paths of architecture files and sparsity profiles are
// relative to the sweep file, or shipped names (`procrustes_baseline_16x16`
// → arch_specs/, `dense` → workloads/sparsity/); networks are shipped names
// or network files. Every user error is a SpecError located at the
// offending node of the sweep file (unknown keys with did-you-mean, wrong
// types, unknown names with the shipped ones as a hint, bad dataflows,
// objectives, phases or strategies, empty axes, duplicates).
#pragma once

#include <filesystem>

#include "common/spec_node.hpp"
#include "sweep/sweep_spec.hpp"

namespace trainloop {

SweepSpec load_sweep(const std::filesystem::path& path);
// `text` is the document `root` was parsed from; `root.file()` locates the
// relative paths.
SweepSpec parse_sweep(const SpecNode& root, const std::string& text);

}  // namespace trainloop
