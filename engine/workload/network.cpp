#include "workload/network.hpp"

#include <fmt/format.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <functional>
#include <queue>
#include <unordered_map>

#include "common/did_you_mean.hpp"
#include "workload/shape_inference.hpp"

namespace trainloop {
namespace {

// Vertices 0..inputs-1 are the network inputs, then one per layer in file order.
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
using Vertex = Graph::vertex_descriptor;

struct VertexNames {
    const NetworkSpec& spec;
    bool is_input(Vertex v) const { return v < spec.inputs.size(); }
    const Layer& layer(Vertex v) const { return spec.layers[v - spec.inputs.size()]; }
    std::string name(Vertex v) const { return is_input(v) ? spec.inputs[v].name : layer(v).name; }
    std::string key_path(Vertex v) const {
        return is_input(v) ? fmt::format("inputs[{}]", v)
                           : fmt::format("layers[{}]", layer(v).entry);
    }
    SourceLocation location(Vertex v) const {
        return is_input(v) ? spec.inputs[v].location : layer(v).location;
    }
};

Graph build_graph(const NetworkSpec& spec, const VertexNames& names) {
    const std::size_t count = spec.inputs.size() + spec.layers.size();
    Graph graph(count);
    std::unordered_map<std::string, Vertex> index;
    std::vector<std::string> all_names;
    for (Vertex v = 0; v < count; ++v) {
        index.emplace(names.name(v), v);
        all_names.push_back(names.name(v));
    }
    for (Vertex v = spec.inputs.size(); v < count; ++v) {
        const Layer& layer = names.layer(v);
        for (const std::string& input : layer.inputs) {
            auto it = index.find(input);
            if (it == index.end()) {
                throw SpecError(layer.location, names.key_path(v) + ".inputs",
                                fmt::format("layer `{}` reads `{}`, which is neither a layer nor "
                                            "a network input",
                                            layer.name, input),
                                "the name of a layer or network input",
                                suggestion_hint(input, all_names));
            }
            if (it->second == v) {
                throw SpecError(
                    layer.location, names.key_path(v) + ".inputs",
                    fmt::format("layer `{}` reads its own output (a cycle)", layer.name),
                    "an acyclic graph");
            }
            boost::add_edge(it->second, v, graph);
        }
    }
    return graph;
}

// A depth-first search that reports the first cycle it closes.
struct CycleFinder : boost::default_dfs_visitor {
    std::vector<Vertex>* parent;
    std::function<void(Vertex, Vertex)> on_cycle;
    void tree_edge(Graph::edge_descriptor e, const Graph& g) {
        (*parent)[boost::target(e, g)] = boost::source(e, g);
    }
    void back_edge(Graph::edge_descriptor e, const Graph& g) {
        on_cycle(boost::source(e, g), boost::target(e, g));
    }
};

void check_acyclic(const Graph& graph, const VertexNames& names) {
    std::vector<Vertex> parent(boost::num_vertices(graph));
    CycleFinder finder;
    finder.parent = &parent;
    finder.on_cycle = [&](Vertex from, Vertex to) {
        // The DFS stack holds to → ... → from; the edge from → to closes it.
        std::vector<std::string> path = {names.name(to)};
        for (Vertex v = from; v != to; v = parent[v]) path.insert(path.begin() + 1, names.name(v));
        path.push_back(names.name(to));
        // A long cycle (a generated network's) is shown by its ends: the
        // message names the layers, it does not list the network.
        constexpr std::size_t kShownEnds = 4;
        if (path.size() > 2 * kShownEnds + 1) {
            const std::size_t hidden = path.size() - 2 * kShownEnds;
            path.erase(path.begin() + kShownEnds, path.end() - kShownEnds);
            path.insert(path.begin() + kShownEnds, fmt::format("… ({} more layers)", hidden));
        }
        std::string text;
        for (const auto& name : path) text += (text.empty() ? "" : " → ") + name;
        throw SpecError(
            names.location(to), names.key_path(to) + ".inputs",
            fmt::format("the layers form a cycle: {}", text),
            "an acyclic graph (each layer reads only layers before it in the data flow)");
    };
    boost::depth_first_search(graph, boost::visitor(finder));
}

void check_connected(const Graph& graph, const VertexNames& names) {
    using Undirected = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    Undirected undirected(boost::num_vertices(graph));
    for (auto [it, end] = boost::edges(graph); it != end; ++it) {
        boost::add_edge(boost::source(*it, graph), boost::target(*it, graph), undirected);
    }
    std::vector<int> component(boost::num_vertices(graph));
    if (boost::connected_components(undirected, component.data()) <= 1) return;
    for (Vertex v = 0; v < component.size(); ++v) {
        if (component[v] != component[0]) {
            throw SpecError(names.location(v), names.key_path(v),
                            fmt::format("`{}` is not connected to `{}`: the network falls apart "
                                        "into separate pieces",
                                        names.name(v), names.name(0)),
                            "one connected graph of layers",
                            names.is_input(v) ? "no layer reads this input" : "");
        }
    }
}

// Kahn's algorithm, always taking the ready vertex that comes first in the
// file, so a file already in data-flow order keeps its order.
std::vector<Vertex> topological_order(const Graph& graph) {
    const std::size_t count = boost::num_vertices(graph);
    std::vector<std::size_t> pending(count);
    std::priority_queue<Vertex, std::vector<Vertex>, std::greater<>> ready;
    for (Vertex v = 0; v < count; ++v) {
        pending[v] = boost::in_degree(v, graph);
        if (pending[v] == 0) ready.push(v);
    }
    std::vector<Vertex> order;
    order.reserve(count);
    while (!ready.empty()) {
        const Vertex v = ready.top();
        ready.pop();
        order.push_back(v);
        for (auto [it, end] = boost::out_edges(v, graph); it != end; ++it) {
            const Vertex next = boost::target(*it, graph);
            if (--pending[next] == 0) ready.push(next);
        }
    }
    return order;  // complete, since check_acyclic passed
}

}  // namespace

Network Network::build(NetworkSpec spec) {
    const VertexNames names{spec};
    const Graph graph = build_graph(spec, names);
    check_acyclic(graph, names);
    check_connected(graph, names);

    const std::size_t count = boost::num_vertices(graph);
    std::vector<TensorShape> shape(count);
    std::vector<bool> trainable_upstream(count, false);  // some ancestor has parameters
    for (Vertex v = 0; v < spec.inputs.size(); ++v) shape[v] = spec.inputs[v].shape;

    Network network;
    for (const Vertex v : topological_order(graph)) {
        if (names.is_input(v)) continue;
        const Layer& layer = names.layer(v);
        std::vector<NamedShape> inputs;
        bool upstream = false;
        for (const std::string& input_name : layer.inputs) {
            for (auto [it, end] = boost::in_edges(v, graph); it != end; ++it) {
                const Vertex u = boost::source(*it, graph);
                if (names.name(u) != input_name) continue;
                inputs.push_back({input_name, shape[u]});
                upstream = upstream || trainable_upstream[u] ||
                           (names.is_input(u) ? spec.inputs[u].needs_gradient
                                              : has_parameters(names.layer(u).type));
                break;
            }
        }
        shape[v] = infer_output_shape(layer, inputs, names.key_path(v));
        trainable_upstream[v] = upstream;
        // A recurrent layer back-propagates through time into its own previous
        // output, so its bw phase is needed even when nothing upstream trains.
        AnalyzedLayer analyzed{layer, {}, shape[v], upstream || is_recurrent(layer.type)};
        for (const auto& in : inputs) analyzed.input_shapes.push_back(in.shape);
        network.layers_.push_back(std::move(analyzed));
    }
    network.spec_ = std::move(spec);
    return network;
}

}  // namespace trainloop
