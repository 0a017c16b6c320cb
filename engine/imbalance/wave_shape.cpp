#include "imbalance/wave_shape.hpp"

#include <stdexcept>

namespace trainloop {
namespace {

std::int64_t product_over(const DimBounds& factors, DimSet dims) {
    std::int64_t p = 1;
    for (Dim d : kAllDims) {
        if (dims.contains(d)) p *= factors[d];
    }
    return p;
}

// The outermost level with one instance per PE.
std::size_t find_pe_level(const ArchModel& arch) {
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        if (arch.levels[i].instances == arch.pe_rows * arch.pe_columns) return i;
    }
    return arch.num_levels;
}

}  // namespace

DimSet cluster_dims(const DensityModel& model, const Projection& projection, DataSpace space) {
    // Only clustered models tie elements together; a mask's or an N:M
    // group's structure is inside the tile statistics, not across PEs.
    const ClusteredModel* clustered = clustered_model(model);
    if (!clustered) return {};
    DimSet dims;
    const int axis = cluster_axis_index(clustered->unit, space);
    for (std::uint8_t a = 0; a < projection.num_axes; ++a) {
        // `row`: every axis but the innermost identifies the cluster.
        const bool identifies = axis >= 0 ? a == axis : a + 1 < projection.num_axes;
        if (!identifies) continue;
        for (std::uint8_t t = 0; t < projection.axes[a].num_terms; ++t) {
            dims.insert(projection.axes[a].terms[t].dim);
        }
    }
    return dims;
}

std::array<DataSpace, 2> skip_operands(const ArchModel& arch, const PhaseProblem& problem,
                                       const PhaseDensities& densities, std::size_t& count) {
    std::array<DataSpace, 2> out{};
    count = 0;
    for (DataSpace s : kAllDataSpaces) {
        if (!arch.compute_skip.in(problem.phase).contains(s)) continue;
        if (densities.of(s).density >= 1.0) continue;
        // The parser allows at most two condition data spaces per phase.
        if (count == out.size()) throw std::logic_error("skip_operands: more than two operands");
        out[count++] = s;
    }
    return out;
}

WaveShape wave_shape(const ArchModel& arch, const PhaseProblem& problem, const Mapping& mapping,
                     const PhaseDensities& densities) {
    WaveShape w;
    w.pe_level = std::min<std::size_t>(find_pe_level(arch), mapping.num_levels);
    // Per dimension: the part of spread_x, spread_y made by the spatial loops
    // of the level that feeds the PEs, within one of its instances.
    DimBounds local_x{};
    DimBounds local_y{};
    for (Dim d : kAllDims) {
        w.pe_box[d] = 1;
        w.spread_x[d] = 1;
        w.spread_y[d] = 1;
        local_x[d] = 1;
        local_y[d] = 1;
    }
    DimBounds above{};  // per dimension: the temporal factors above the PE level
    for (Dim d : kAllDims) above[d] = 1;
    for (std::size_t i = 0; i < mapping.num_levels; ++i) {
        const LevelMapping& level = mapping.level(i);
        if (i < w.pe_level) {
            w.waves *= level.temporal.product();
            for (const Loop& l : level.temporal) above[l.dim] *= l.factor;
            for (const Loop& l : level.spatial_x) w.spread_x[l.dim] *= l.factor;
            for (const Loop& l : level.spatial_y) w.spread_y[l.dim] *= l.factor;
            if (i + 1 == w.pe_level) {  // the level that feeds the PEs
                for (const Loop& l : level.spatial_x) local_x[l.dim] *= l.factor;
                for (const Loop& l : level.spatial_y) local_y[l.dim] *= l.factor;
            }
            continue;
        }
        for (const Loop& l : level.temporal) w.pe_box[l.dim] *= l.factor;
        for (const Loop& l : level.spatial_x) {
            w.pe_box[l.dim] *= l.factor;
            w.mac_units *= l.factor;
        }
        for (const Loop& l : level.spatial_y) {
            w.pe_box[l.dim] *= l.factor;
            w.mac_units *= l.factor;
        }
    }
    w.pe_macs = 1;
    for (Dim d : kAllDims) {
        w.pe_macs *= w.pe_box[d];
        w.pes_x *= w.spread_x[d];
        w.pes_y *= w.spread_y[d];
    }
    const std::array<DataSpace, 2> spaces = skip_operands(arch, problem, densities, w.num_operands);
    DimSet any_relevant;
    DataSpaceSet conditions;
    for (std::size_t o = 0; o < w.num_operands; ++o) {
        OperandSpread& op = w.operands[o];
        op.space = spaces[o];
        conditions.insert(op.space);
        const Projection& projection = problem.projection(op.space);
        op.tile = tile_of(projection, w.pe_box);
        op.distinct_x = product_over(w.spread_x, projection.relevant);
        op.distinct_y = product_over(w.spread_y, projection.relevant);
        op.local_distinct_x = product_over(local_x, projection.relevant);
        op.local_distinct_y = product_over(local_y, projection.relevant);
        const DensityModel& model = densities.of(op.space).model;
        if (clustered_model(model) != nullptr) {
            const DimSet dims = cluster_dims(model, projection, op.space) & projection.relevant;
            op.clusters_x = product_over(w.spread_x, dims);
            op.clusters_y = product_over(w.spread_y, dims);
            op.local_clusters_x = product_over(local_x, dims);
            op.local_clusters_y = product_over(local_y, dims);
        } else {
            op.clusters_x = op.distinct_x;
            op.clusters_y = op.distinct_y;
            op.local_clusters_x = op.local_distinct_x;
            op.local_clusters_y = op.local_distinct_y;
        }
        any_relevant = any_relevant | projection.relevant;
    }
    w.distinct_x = product_over(w.spread_x, any_relevant);
    w.distinct_y = product_over(w.spread_y, any_relevant);
    w.local_distinct_x = product_over(local_x, any_relevant);
    w.local_distinct_y = product_over(local_y, any_relevant);
    if (w.num_operands > 0) {
        DimSet streamed;
        for (DataSpace s : kAllDataSpaces) {
            const bool stationary =
                w.pe_level < mapping.num_levels && mapping.level(w.pe_level).keep.contains(s);
            if (s == problem.output() || conditions.contains(s) || stationary) continue;
            streamed = streamed | problem.projection(s).relevant;
        }
        w.packed_waves = product_over(above, any_relevant & streamed.complement());
        w.line_packed_waves = product_over(
            above, any_relevant & problem.projection(problem.output()).relevant.complement());
    }
    return w;
}

}  // namespace trainloop
