// An LSTM layer (Hochreiter & Schmidhuber, Neural Computation 1997; the gate
// equations as in Graves, "Generating Sequences with Recurrent Neural
// Networks", 2013, eqs. (7)–(11), without peepholes):
//
//   [i_t, f_t, o_t, g_t] = W_x x_t + W_h h_{t-1} + b          (four gate matmuls)
//   c_t = σ(f_t) ⊙ c_{t-1} + σ(i_t) ⊙ tanh(g_t),   h_t = σ(o_t) ⊙ tanh(c_t)
//
// for t = 1..T, with W_x (4H × I) and W_h (4H × H) shared over the sequence.
// `lstm` in a network file is no layer type of its own: the parser expands it
// into two MAC layers, as frameworks run it (Appleyard, Kočiský, Blunsom,
// "Optimizing Performance of Recurrent Neural Networks on GPUs", 2016, §3.1:
// the input GEMM of every step at once, then the recurrent GEMM step by step):
//
//   <name>.input_gates  matmul, 4H outputs at every step: W_x x_t for all t
//   <name>              lstm_cell: W_h h_{t-1} added to those gates, then the
//                       elementwise update above, for every t; output h_1..h_T
//
// The sequence is the tensor's height (I × T × 1 per sample), so both MAC
// layers fold the T steps into the P dimension beside the minibatch N: a
// weight is reused over N·T, which gives the exact MACs of every phase —
// fw N·T·4H·(I+H); bw (back-propagation through time, Werbos, Proc. IEEE 1990)
// N·T·4H·I for dx_t (only when x needs a gradient) plus N·T·4H·H for
// dh_{t-1}, which the recurrence always needs; wu N·T·4H·(I+H), the weight
// gradients summed over the steps. The elementwise cell update (O(N·T·H)
// operations against O(N·T·H·(I+H)) MACs) is not modelled.
//
// What the folding does not capture: h_t needs h_{t-1}, so the recurrent
// layer's T steps run one after another (N-wide, not N·T-wide), in fw and in
// bw (dh_{t-1} needs dh_t); a mapping may still spread P over PEs. Its cycles
// are therefore a lower bound on the recurrent layer's latency; the input
// gates and the weight update have no such dependency. docs/workload_format.md
// gives the upper bound (T times a one-step problem). MAC counts, energy per
// MAC and the reduced computation do not depend on this order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/spec_error.hpp"
#include "workload/layer.hpp"

namespace trainloop {

struct LstmParameters {
    std::int64_t hidden_size = 0;      // H: memory cells
    std::int64_t sequence_length = 0;  // T: time steps (the input's height)
};

// The name of the input-gate matmul of LSTM `name` (the cell keeps `name`, so
// layers reading the LSTM read its hidden states).
std::string lstm_input_gates_name(const std::string& name);

// The two layers of LSTM `name` reading `input`, in order; each keeps
// `location`. Precondition: both parameters >= 1 and 4·hidden_size <= 2^53
// (the parser checks).
std::vector<Layer> expand_lstm(const std::string& name, const std::string& input,
                               const LstmParameters& lstm, const SourceLocation& location);

}  // namespace trainloop
