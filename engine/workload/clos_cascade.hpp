// A Clos cascade: CloNets' sparse replacement for a dense fully-connected
// layer (Isakov, Ehret, Kinsy, "CloNets: Batchless DNN Training with On-Chip
// A Priori Sparse Neural Topologies", FPL 2018, §II, Figs. 2 and 4).
//
// A Clos network (I, O, Ri, Rm, Ro) of I inputs, O outputs and Ri input, Rm
// middle and Ro output routers becomes three block-diagonal fully-connected
// stages joined by fixed, weightless permutations:
//
//   input routers   Ri blocks of (I/Ri) × Rm     fc, groups Ri
//   permutation     block i's output m → middle router m's input i: shuffle, groups Ri
//   middle routers  Rm blocks of Ri × Ro         fc, groups Rm
//   permutation     middle m's output o → output router o's input m: shuffle, groups Rm
//   output routers  Ro blocks of Rm × (O/Ro)     fc, groups Ro
//
// Grouped stages are structured sparsity with no index metadata (the
// connections follow from the topology) and perfectly even work per block.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/spec_error.hpp"
#include "workload/layer.hpp"

namespace trainloop {

struct ClosParameters {
    std::int64_t out_features = 0;    // O
    std::int64_t input_routers = 0;   // Ri
    std::int64_t middle_routers = 0;  // Rm
    std::int64_t output_routers = 0;  // Ro
};

// CloNets §II: P = Rm (I + O + Ri·Ro) weights for I input features.
std::int64_t clos_parameter_count(std::int64_t in_features, const ClosParameters& clos);

// The stage names of cascade `name`: its last stage keeps `name`, so layers
// reading the cascade read its output routers.
std::string clos_stage_name(const std::string& name, int stage);  // stage 0..4

// The five layers of the cascade `name` reading `input`, in order; each keeps
// `location` and has `cascade` = name. Precondition: every router count >= 1
// and output_routers divides out_features (the parser checks; the input
// routers must divide the input features, which shape inference checks).
std::vector<Layer> expand_clos_cascade(const std::string& name, const std::string& input,
                                       const ClosParameters& clos, const SourceLocation& location);

}  // namespace trainloop
