// LayerPhaseMetrics: what one mapping of one layer-phase costs, and the
// table that describes each of its metrics, both made from
// vocabulary/layer_phase_metrics.def so that a metric is defined once. The
// search's Candidate and the store's LayerPhaseRecord are LayerPhaseMetrics;
// code that writes, merges, checks or renders every metric visits them with
// for_each_metric() instead of naming each field.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace trainloop {

struct LayerPhaseMetrics {
#define TRAINLOOP_METRIC(name, cpp_type, ...) cpp_type name = 0;
#include "vocabulary/layer_phase_metrics.def"
#undef TRAINLOOP_METRIC
    friend bool operator==(const LayerPhaseMetrics&, const LayerPhaseMetrics&) = default;
};

enum class SqlType : std::uint8_t { INTEGER, REAL };
// Where outputs show a metric (layer_phase_metrics.def, column `shown`).
enum class MetricShown : std::uint8_t { all, sparse, stored };

struct MetricInfo {
    std::string_view name;  // the C++ member and the `results` column
    SqlType sql_type;
    std::string_view json_key;
    std::string_view header;
    std::string_view unit;
    MetricShown shown;
    std::string_view description;
};

inline constexpr std::array kLayerPhaseMetrics = {
#define TRAINLOOP_METRIC(name, cpp_type, sql_type, json_key, header, unit, shown, description) \
    MetricInfo{#name, SqlType::sql_type, json_key, header, unit, MetricShown::shown, description},
#include "vocabulary/layer_phase_metrics.def"
#undef TRAINLOOP_METRIC
};

inline constexpr std::size_t kNumLayerPhaseMetrics = kLayerPhaseMetrics.size();

// Exact counts are INTEGER columns, everything else REAL.
#define TRAINLOOP_METRIC(name, cpp_type, sql_type, ...)                                    \
    static_assert(                                                                         \
        (SqlType::sql_type == SqlType::INTEGER) == std::is_same_v<cpp_type, std::int64_t>, \
        "layer_phase_metrics.def: " #name "'s C++ and SQL types disagree");
#include "vocabulary/layer_phase_metrics.def"
#undef TRAINLOOP_METRIC

constexpr std::string_view sql_type_name(SqlType t) {
    return t == SqlType::INTEGER ? "INTEGER" : "REAL";
}

// Calls visit(info, value) for every metric in table order, value being the
// member (std::int64_t& or double&, const when `metrics` is).
template <typename Metrics, typename Visit>
constexpr void for_each_metric(Metrics& metrics, Visit&& visit) {
    std::size_t i = 0;
#define TRAINLOOP_METRIC(name, ...) visit(kLayerPhaseMetrics[i++], metrics.name);
#include "vocabulary/layer_phase_metrics.def"
#undef TRAINLOOP_METRIC
}

// Whether an output of a sparse (or dense) evaluation shows the metric.
constexpr bool metric_shown(const MetricInfo& m, bool sparse) {
    return m.shown == MetricShown::all || (m.shown == MetricShown::sparse && sparse);
}

// The metrics' column names joined by ", ", each after `prefix` ("r."), in
// table order: for SQL column lists.
std::string metric_columns(std::string_view prefix = "");

}  // namespace trainloop
