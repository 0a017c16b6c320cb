// Field-by-field equality of architectures and component libraries, for the
// tests that write one and read it back or import the same design two ways.
#pragma once

#include <gtest/gtest.h>

#include "arch/architecture.hpp"
#include "components/component_library.hpp"

namespace trainloop::testing {

inline void expect_same_point(const ComponentPoint& a, const ComponentPoint& b) {
    EXPECT_EQ(a.capacity_bytes, b.capacity_bytes);
    EXPECT_EQ(a.word_bits, b.word_bits);
    for (std::size_t k = 0; k < a.energy.pj.size(); ++k) EXPECT_EQ(a.energy.pj[k], b.energy.pj[k]);
    EXPECT_EQ(a.leakage_mw, b.leakage_mw);
    EXPECT_EQ(a.area_um2, b.area_um2);
}

inline void expect_same_library(const ComponentLibrary& a, const ComponentLibrary& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.technology, b.technology);
    EXPECT_EQ(a.description, b.description);
    ASSERT_EQ(a.components.size(), b.components.size());
    for (std::size_t i = 0; i < a.components.size(); ++i) {
        const Component& x = a.components[i];
        const Component& y = b.components[i];
        SCOPED_TRACE(x.name);
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.component_class, y.component_class);
        EXPECT_EQ(x.description, y.description);
        ASSERT_EQ(x.points.size(), y.points.size());
        for (std::size_t p = 0; p < x.points.size(); ++p)
            expect_same_point(x.points[p], y.points[p]);
    }
}

// Every field but component_library_path (where the library was found).
inline void expect_same_architecture(const Architecture& a, const Architecture& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.description, b.description);
    EXPECT_EQ(a.source, b.source);
    EXPECT_EQ(a.clock_ghz, b.clock_ghz);
    EXPECT_EQ(a.pe_array.rows, b.pe_array.rows);
    EXPECT_EQ(a.pe_array.columns, b.pe_array.columns);
    EXPECT_EQ(a.pe_array.macs_per_pe, b.pe_array.macs_per_pe);
    EXPECT_EQ(a.pe_array.datatype, b.pe_array.datatype);
    EXPECT_EQ(a.pe_array.mac_component, b.pe_array.mac_component);
    ASSERT_EQ(a.levels.size(), b.levels.size());
    for (std::size_t i = 0; i < a.levels.size(); ++i) {
        const StorageLevel& x = a.levels[i];
        const StorageLevel& y = b.levels[i];
        SCOPED_TRACE(x.name);
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.storage_class, y.storage_class);
        EXPECT_EQ(x.capacity_bytes, y.capacity_bytes);
        EXPECT_EQ(x.word_bits, y.word_bits);
        EXPECT_EQ(x.read_bandwidth, y.read_bandwidth);
        EXPECT_EQ(x.write_bandwidth, y.write_bandwidth);
        EXPECT_EQ(x.shared_bandwidth, y.shared_bandwidth);
        EXPECT_EQ(x.metadata_share, y.metadata_share);
        EXPECT_EQ(x.data_spaces, y.data_spaces);
        EXPECT_EQ(x.instances, y.instances);
        EXPECT_EQ(x.per_pe, y.per_pe);
        EXPECT_EQ(x.component, y.component);
    }
    ASSERT_EQ(a.networks.size(), b.networks.size());
    for (std::size_t i = 0; i < a.networks.size(); ++i) {
        const OnChipNetwork& x = a.networks[i];
        const OnChipNetwork& y = b.networks[i];
        SCOPED_TRACE(x.name);
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.axis, y.axis);
        EXPECT_EQ(x.kind, y.kind);
        EXPECT_EQ(x.data_spaces, y.data_spaces);
        EXPECT_EQ(x.parent, y.parent);
        EXPECT_EQ(x.child, y.child);
        EXPECT_EQ(x.bandwidth, y.bandwidth);
        EXPECT_EQ(x.hop_energy_pj, y.hop_energy_pj);
        EXPECT_EQ(x.component, y.component);
    }
    EXPECT_EQ(a.sparse.dense(), b.sparse.dense());
    ASSERT_EQ(a.sparse.formats.size(), b.sparse.formats.size());
    for (std::size_t i = 0; i < a.sparse.formats.size(); ++i) {
        EXPECT_EQ(a.sparse.formats[i].level, b.sparse.formats[i].level);
        EXPECT_EQ(a.sparse.formats[i].data_space, b.sparse.formats[i].data_space);
        EXPECT_EQ(a.sparse.formats[i].format, b.sparse.formats[i].format);
        EXPECT_EQ(a.sparse.formats[i].index_bits, b.sparse.formats[i].index_bits);
    }
    for (const auto& [x, y] : {std::pair{&a.sparse.skipping, &b.sparse.skipping},
                               std::pair{&a.sparse.gating, &b.sparse.gating}}) {
        ASSERT_EQ(x->size(), y->size());
        for (std::size_t i = 0; i < x->size(); ++i) {
            EXPECT_EQ((*x)[i].level, (*y)[i].level);
            EXPECT_EQ((*x)[i].target, (*y)[i].target);
            EXPECT_EQ((*x)[i].condition_on, (*y)[i].condition_on);
        }
    }
    EXPECT_EQ(a.sparse.load_balancing.scheme, b.sparse.load_balancing.scheme);
    EXPECT_EQ(a.sparse.load_balancing.axis, b.sparse.load_balancing.axis);
    expect_same_library(a.components, b.components);
}

}  // namespace trainloop::testing
