#include "workload/lstm.hpp"

#include <cassert>

namespace trainloop {

std::string lstm_input_gates_name(const std::string& name) { return name + ".input_gates"; }

std::vector<Layer> expand_lstm(const std::string& name, const std::string& input,
                               const LstmParameters& lstm, const SourceLocation& location) {
    assert(lstm.hidden_size >= 1 && lstm.sequence_length >= 1);
    // Graves 2013 eqs. (7)-(10): four gates (input, forget, output, cell) of H each.
    constexpr std::int64_t kGates = 4;
    Layer gates;
    gates.name = lstm_input_gates_name(name);
    gates.type = LayerType::matmul;  // W_x x_t at every step
    gates.inputs = {input};
    gates.attributes = LinearAttributes{kGates * lstm.hidden_size, 1};
    gates.location = location;
    Layer cell;
    cell.name = name;
    cell.type = LayerType::lstm_cell;  // + W_h h_{t-1}, then the cell update
    cell.inputs = {gates.name};
    cell.attributes = LstmCellAttributes{lstm.hidden_size, lstm.sequence_length};
    cell.location = location;
    return {std::move(gates), std::move(cell)};
}

}  // namespace trainloop
