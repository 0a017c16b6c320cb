// Network topologies: each closed form (arch/topology/) against a brute-force
// count of the links that connect the parent with a word's PEs, averaged
// over every offset the model averages over; the parser's topology keys and
// their errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "arch/network_topology.hpp"
#include "arch_test_support.hpp"

namespace trainloop {
namespace {

using arch_test::expect_located;
using arch_test::expect_spec_error;
using arch_test::kInlineFile;
using arch_test::parse_inline;
using arch_test::tiny_with;

// The PEs of one word along a line: `share` of `used`, spaced used/share apart.
std::vector<int> positions(int used, int share, int offset) {
    std::vector<int> out;
    for (int j = 0; j < share; ++j) out.push_back(offset + j * (used / share));
    return out;
}

// Links past node 0 that reach every position going forward from node 0.
int line_links(const std::vector<int>& at) { return *std::max_element(at.begin(), at.end()); }

// Links past node 0 that connect node 0 with every position on a k-ring:
// every link but those of the largest gap between neighbouring points.
int ring_links(const std::vector<int>& at, int k) {
    std::set<int> points(at.begin(), at.end());
    points.insert(0);
    if (points.size() == 1) return 0;
    const std::vector<int> sorted(points.begin(), points.end());
    int largest_gap = k - sorted.back() + sorted.front();
    for (std::size_t i = 1; i < sorted.size(); ++i)
        largest_gap = std::max(largest_gap, sorted[i] - sorted[i - 1]);
    return k - largest_gap;
}

std::vector<int> divisors(int n) {
    std::vector<int> out;
    for (int d = 1; d <= n; ++d)
        if (n % d == 0) out.push_back(d);
    return out;
}

TEST(NetworkTopology, BusIsOneHopPerDeliveredWordWithoutRouters) {
    const HopCost c = bus_hops({{16, 16, 16}, {4, 1, 16}});
    EXPECT_EQ(c.link_hops, 1.0);
    EXPECT_EQ(c.routers, 0.0);
}

TEST(NetworkTopology, SystolicMatchesForwardingDownTheLine) {
    for (int used = 1; used <= 16; ++used) {
        for (int share : divisors(used)) {
            const int spacing = used / share;
            double links = 0;
            for (int o = 0; o < spacing; ++o) links += 1 + line_links(positions(used, share, o));
            const double expected = links / spacing / share;
            const HopCost c = systolic_hops({{double(used), double(share), 16}, {}});
            EXPECT_NEAR(c.link_hops, expected, 1e-12) << used << " used, share " << share;
            EXPECT_EQ(c.routers, 0.0) << "a systolic chain has no routers";
        }
    }
    // A unicast down 16 PEs: 1 + (0 + … + 15)/16 = 8.5 hops; a broadcast to all
    // 16: 16 links for 16 PEs, one hop each, as a bus.
    EXPECT_DOUBLE_EQ(systolic_hops({{16, 1, 16}, {}}).link_hops, 8.5);
    EXPECT_DOUBLE_EQ(systolic_hops({{16, 16, 16}, {}}).link_hops, 1.0);
}

TEST(NetworkTopology, RingMatchesTheFewestLinksRoundTheRing) {
    for (int k = 1; k <= 17; ++k) {
        for (int used = 1; used <= k; ++used) {
            for (int share : divisors(used)) {
                // Offsets below the spacing; for a unicast that is every used PE.
                const int spacing = used / share;
                double links = 0;
                for (int o = 0; o < spacing; ++o)
                    links += 1 + ring_links(positions(used, share, o), k);
                const double expected = links / spacing / share;
                const HopCost c = ring_hops({{double(used), double(share), k}, {}});
                EXPECT_NEAR(c.link_hops, expected, 1e-12)
                    << k << " nodes, " << used << " used, share " << share;
                EXPECT_EQ(c.routers, c.link_hops) << "one router per link";
            }
        }
    }
    // A unicast on a 16-ring: 1 + 64/16 = 5 hops (Σ min(j, 16 − j) = 64),
    // against 8.5 forwarding one way (systolic).
    EXPECT_DOUBLE_EQ(ring_hops({{16, 1, 16}, {}}).link_hops, 5.0);
}

// The XY tree of one word (offsets ox, oy) on a mesh or torus: links along
// row 0 to its columns, then down each column to its rows.
double xy_tree(int ux, int sx, int ox, int kx, int uy, int sy, int oy, int ky, bool torus) {
    const std::vector<int> columns = positions(ux, sx, ox);
    const std::vector<int> rows = positions(uy, sy, oy);
    const auto cover = [&](const std::vector<int>& at, int k) {
        return torus ? ring_links(at, k) : line_links(at);
    };
    return 1 + cover(columns, kx) + double(columns.size()) * cover(rows, ky);
}

void check_2d(bool torus) {
    const int kx = 8;
    const int ky = 6;
    for (int ux : {1, 2, 4, 8}) {
        for (int uy : {1, 2, 3, 6}) {
            for (int sx : divisors(ux)) {
                for (int sy : divisors(uy)) {
                    // Averaged over the offsets below the spacing (for a
                    // unicast along an axis: every PE of it).
                    double links = 0;
                    int words = 0;
                    const int px = ux / sx;
                    const int py = uy / sy;
                    for (int ox = 0; ox < px; ++ox) {
                        for (int oy = 0; oy < py; ++oy) {
                            links += xy_tree(ux, sx, ox, kx, uy, sy, oy, ky, torus);
                            ++words;
                        }
                    }
                    const TransferShape shape{{double(ux), double(sx), kx},
                                              {double(uy), double(sy), ky}};
                    const HopCost c = torus ? torus_hops(shape) : mesh_hops(shape);
                    EXPECT_NEAR(c.link_hops, links / words / (sx * sy), 1e-12)
                        << (torus ? "torus " : "mesh ") << ux << "x" << uy << " share " << sx << "x"
                        << sy;
                    EXPECT_EQ(c.routers, c.link_hops);
                }
            }
        }
    }
}

TEST(NetworkTopology, MeshMatchesTheXyTree) { check_2d(false); }
TEST(NetworkTopology, TorusMatchesTheXyTreeOnRings) { check_2d(true); }

TEST(NetworkTopology, FullBroadcastCostsOneHopPerPeOnEveryTopology) {
    const TransferShape all{{8, 8, 8}, {8, 8, 8}};
    for (NetworkTopology t : {NetworkTopology::bus, NetworkTopology::mesh, NetworkTopology::torus})
        EXPECT_DOUBLE_EQ(topology_hops(t, all).link_hops, 1.0) << network_topology_name(t);
    EXPECT_DOUBLE_EQ(topology_hops(NetworkTopology::ring, {{8, 8, 8}, {}}).link_hops, 1.0);
    EXPECT_DOUBLE_EQ(topology_hops(NetworkTopology::systolic, {{8, 8, 8}, {}}).link_hops, 1.0);
}

TEST(NetworkTopology, TorusNeverCostsMoreThanMesh) {
    for (double u : {2.0, 4.0, 8.0, 16.0}) {
        const TransferShape unicast{{u, 1, 16}, {u, 1, 16}};
        EXPECT_LE(torus_hops(unicast).link_hops, mesh_hops(unicast).link_hops) << u;
    }
}

// ---- The parser. ----

TEST(NetworkTopologySpec, TopologyDefaultsToBusAndIsRead) {
    EXPECT_EQ(parse_inline(arch_test::kTinyArch).networks[0].topology, NetworkTopology::bus);
    const Architecture arch =
        parse_inline(tiny_with("kind: broadcast", "kind: broadcast\n    topology: systolic"));
    EXPECT_EQ(arch.networks[0].topology, NetworkTopology::systolic);
}

TEST(NetworkTopologySpec, MeshAlongOneAxisIsALocatedError) {
    const SpecError e = expect_spec_error(
        [] { parse_inline(tiny_with("kind: broadcast", "kind: broadcast\n    topology: mesh")); });
    expect_located(e, kInlineFile, 25, "networks[0].topology",
                   "a mesh network cannot run along axis `x`");
    EXPECT_EQ(e.expected(), "bus, ring or systolic for axis `x` or `y`");
}

TEST(NetworkTopologySpec, RingOverTheWholeArrayIsALocatedError) {
    const SpecError e = expect_spec_error([] {
        parse_inline(tiny_with("axis: x\n    kind: broadcast",
                               "axis: both\n    kind: broadcast\n    topology: ring"));
    });
    expect_located(e, kInlineFile, 25, "networks[0].topology",
                   "a ring network cannot run along axis `both`");
}

TEST(NetworkTopologySpec, UnknownTopologySuggestsTheNearest) {
    const SpecError e = expect_spec_error(
        [] { parse_inline(tiny_with("kind: broadcast", "kind: broadcast\n    topology: tors")); });
    expect_located(e, kInlineFile, 25, "networks[0].topology", "unknown value `tors`");
    EXPECT_EQ(e.hint(), "did you mean `torus`?");
}

TEST(NetworkTopologySpec, RouterEnergyNeedsAnInlineHopEnergy) {
    const SpecError e = expect_spec_error([] {
        parse_inline(tiny_with("kind: broadcast", "kind: broadcast\n    router_energy_pj: 0.5"));
    });
    expect_located(e, kInlineFile, 25, "networks[0].router_energy_pj",
                   "`router_energy_pj` without `hop_energy_pj`");
    const Architecture arch = parse_inline(tiny_with(
        "kind: broadcast", "kind: broadcast\n    hop_energy_pj: 1.0\n    router_energy_pj: 0.5"));
    EXPECT_EQ(arch.networks[0].router_energy_pj, 0.5);
}

}  // namespace
}  // namespace trainloop
