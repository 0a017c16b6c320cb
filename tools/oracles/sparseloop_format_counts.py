#!/usr/bin/env python3
"""Sparseloop's per-rank representation-format counts, restated in our own code
(development only; never used by trainloop).

What it is: a re-statement of how Sparseloop (Timeloop v3.0.3, commit 6b41058f) computes,
per storage level, data space and rank, the "Max utilized Repr format storage capacity"
and the "Actual scalar format reads / fills / updates (per-instance)" that
tools/oracles/timeloop_stats.py stores as format_capacity / format_reads / format_fills /
format_updates in tests/golden/timeloop/sparse_corpus. It exists to explain those
numbers: with `--all` it reproduces every listed per-rank count of the corpus exactly.
It also shows why trainloop does not copy them: they are not an occupancy.
`--leaf-metadata-vs-nonzeros` sets, per tile whose leaf rank is RLE or CP, the run
lengths or coordinates Sparseloop counts against the nonzeros the tile stores (its own
expected data occupancy); one per nonzero would make them equal, and in the corpus they
mostly are not, in both directions (leaf_metadata_vs_nonzeros says why).

The recipe, per data space and level holding it (references: Timeloop's src/):
  1. Ranks to loops (sparse-analysis/representation-analyzer.cpp:
     DefineCompressionFormatModels, ApplyRanksOuterToInner). The level's loops and those
     of the bypassed levels below it that index the data space, innermost first, form a
     subnest. Without pre-tiling, the bounds of every level below the innermost bypassed
     one are folded into the innermost loop of each dimension. Pre-tiling (a compressed
     level whose child keeps a tile larger than one element) instead gives the child's
     ranks (its metadata subnests and subtiles) to this level's innermost ranks. The
     outermost rank takes the outermost non-trivial loop, one loop per rank. A rank's
     fiber shape is the footprint of its loop; a coordinate of it stands for the tile of
     the rank below (the max-tile mold of that rank's loop: everything at or inside it),
     below the innermost rank for one element (with pre-tiling, the child's). Ranks left
     over at the bottom are "dummy" ranks with no loop (fiber shape 1) whose tile is the
     mold of the subnest's innermost loop, that loop included: the coordinates of the
     rank above them then stand for that many elements, not one.
  2. Per-format units of one rank (workload/format-models/*.cpp: GetOccupancy), from
     the fibers of the rank (product of the fiber shapes above), the probability that a
     fiber (the current coordinate tile) is empty and that a coordinate (the next rank's
     subtile) is empty: UB metadata = payload = fibers x shape; UOP payload =
     non-empty fibers x (shape+1); B metadata = non-empty fibers x shape, payload =
     non-empty fibers x ceil(shape x P(coordinate non-empty)); CP metadata = payload =
     non-empty fibers x ceil(shape x P(coordinate non-empty)); RLE as CP without the
     ceil. A rank of fiber shape 1 below the top is empty; the innermost non-empty rank's
     payload is the data itself and counts 0 (loop-analysis/tiling-tile-info.cpp:
     GetMetaDataTileOccupancyGivenDataTile).
  3. Empty-tile probabilities (workload/density-models/*.cpp: GetTileOccupancyProbability)
     given that the whole tile holds k nonzeros: fixed-structured puts P(floor(s x d)) =
     1 - frac and P(ceil(s x d)) = frac with d = k / tile shape; hypergeometric draws s
     of the tile's elements out of the tile with k nonzeros.
  4. Capacity at confidence 1 (tiling-tile-info.cpp:
     GetMaxMetaDataTileOccupancyByConfidence; model/buffer.cpp:
     ComputeTileOccupancyAndConfidence ceil()s each count): the units for the tile's
     maximum occupancy k = GetTileOccupancyByConfidence(shape, 1.0).
  5. Expected occupancy (representation-analyzer.cpp: CalculateExpectedOccupancy): the
     units averaged over k in [min, max] with P(k) != 0; when the parent level has
     metadata and min = 0, empty tiles are never sent: the probabilities are divided by
     1 - p0 and p0 set to 0, p0 being the first *non-zero* probability.
  6. Accesses (representation-analyzer.cpp: CalculateExpectedMetaDataAccesses): per rank
     ceil(expected units x count / tile shape), count being the level's algorithmic
     (dense) per-instance reads, fills or updates, which Sparseloop takes unchanged from
     the dense nest analysis. They are read from the dense corpus case the sparse case
     was made from (tests/golden/timeloop/dense/<arch>/<case>.json, named in CASE.yaml's
     first comment line). A format access line lists its ranks only when the level has a
     metadata_storage_width and the accessed bits are not 0 (model/buffer.cpp:
     ComputeVectorAccesses, Print).

Not restated (no corpus case needs it): flattened ranks (flattened-rankIDs), the
inner-to-outer rank order, the banded density, the split of format accesses into gated
and skipped ones by action optimizations (sparse-analysis/storage-optimization-combiner.cpp)
and capacities below confidence 1 (a tile that does not fit its buffer).

    sparseloop_format_counts.py CASE.yaml                     # one case: ours vs the corpus
    sparseloop_format_counts.py --all [CORPUS_DIR] [--json]   # exit 1 on any disagreement
    sparseloop_format_counts.py --leaf-metadata-vs-nonzeros [CORPUS_DIR] [--json]

Needs PyYAML (python3-yaml).
"""

import argparse
import functools
import glob
import json
import math
import os
import re
import sys
from pathlib import Path

import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = REPO_ROOT / "tests" / "golden" / "timeloop" / "sparse_corpus"
FIELDS = ("format_capacity", "format_reads", "format_fills", "format_updates")
# Relative difference under which leaf-rank metadata units and expected nonzeros are equal.
RATIO_TOLERANCE = 1e-9


# ---------------------------------------------------------------------------------------
# Problem: dimensions, projections, footprints
# ---------------------------------------------------------------------------------------

class Problem:
    """workload/shape-models/problem-shape.cpp: Shape::Parse and workload/workload.cpp:
    ParseWorkloadInstance (dimensions, coefficients, projections, densities)."""

    def __init__(self, spec):
        shape, instance = spec["shape"], spec["instance"]
        self.dims = list(shape["dimensions"])
        coefficients = {c["name"]: c.get("default", 1) for c in shape.get("coefficients", [])}
        for name, value in instance.items():
            if name in coefficients:
                coefficients[name] = value
        self.bounds = {d: instance.get(d, 1) for d in self.dims}
        self.spaces = {}  # data space -> ranks, each a list of (dimension, coefficient)
        for space in shape["data-spaces"]:
            self.spaces[space["name"]] = [
                [(term[0], coefficients[term[1]] if len(term) > 1 else 1) for term in rank]
                for rank in space["projection"]]
        self.densities = instance.get("densities", {}) or {}

    def dims_in_projection(self, space):
        """Shape::DataSpaceIDToDimensionIDVector."""
        return {d for rank in self.spaces[space] for (d, _) in rank}

    def footprint(self, space, sizes):
        """Elements of the data-space tile of the operation space [0, sizes - 1]: the
        product over ranks of sum_i coef_i x (size_i - 1) + 1 (an axis-aligned
        hyper-rectangle, loop-analysis/point-set-aahr.cpp)."""
        n = 1
        for rank in self.spaces[space]:
            n *= sum(c * (sizes.get(d, 1) - 1) for d, c in rank) + 1
        return n


# ---------------------------------------------------------------------------------------
# Density models (workload/density-models/)
# ---------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _comb(n, k):
    return math.comb(n, k)


def hypergeometric_pdf(x, r, n, big_n):
    """P(x nonzeros in n of big_n elements, r of them nonzero): boost's hypergeometric pdf
    (hypergeometric-distribution.cpp: GetProbability), support check included. Boost
    computes it in long double, i.e. about correctly rounded; the exact rational rounded
    once to double reproduces it (lgamma's ~1e-12 errors would flip the ceil() of counts
    that are exact integers)."""
    if (n + r > big_n and x < n + r - big_n) or x > r or x > n:
        return 0.0
    return _comb(r, x) * _comb(big_n - r, n - x) / _comb(big_n, n)


class FixedStructured:
    """fixed-structured-distribution.cpp"""

    def __init__(self, density):
        self.density = float(density)

    def tile_occupancy_probability(self, tile_shape, occupancy, constraint=None):
        """GetTileOccupancyProbability: exact = tile shape x density (under a constraint
        (shape, k) of the enclosing tile: x k / shape); P(floor(exact)) = 1 - frac,
        P(ceil(exact)) = frac, any other occupancy 0."""
        density = self.density if constraint is None else float(constraint[1]) / constraint[0]
        exact = tile_shape * density
        prob_ceil = exact - math.floor(exact)
        if math.floor(exact) == occupancy:
            return 1 - prob_ceil
        if math.ceil(exact) == occupancy:
            return prob_ceil
        return 0.0

    def max_tile_occupancy(self, shape):
        """GetTileOccupancyByConfidence(shape, 1.0)."""
        exact = shape * self.density
        return math.floor(exact) if exact == math.floor(exact) else math.ceil(exact)

    def min_tile_occupancy(self, shape):
        """tiling-tile-info.cpp: GetMinDataTileOccupancy = floor(GetMinTileDensity x shape)."""
        if shape == 0:
            return 0
        return math.floor(math.floor(shape * self.density) / shape * shape)


class Hypergeometric:
    """hypergeometric-distribution.cpp"""

    def __init__(self, density, tensor_size):
        self.density = float(density)
        self.size = tensor_size
        self.nonzeros = math.ceil(self.density * tensor_size)  # SetWorkloadTensorSize

    def tile_occupancy_probability(self, tile_shape, occupancy, constraint=None):
        """GetTileOccupancyProbability (under a constraint (shape, k): a tile of the
        enclosing tile with k nonzeros)."""
        if constraint is not None:
            return hypergeometric_pdf(occupancy, constraint[1], tile_shape, constraint[0])
        return hypergeometric_pdf(occupancy, self.nonzeros, tile_shape, self.size)

    def max_tile_occupancy(self, shape):
        """GetTileOccupancyByConfidence(shape, 1.0) = min(shape, nonzeros)."""
        return min(shape, self.nonzeros)

    def min_tile_occupancy(self, shape):
        """GetMinTileDensity, with its *integer* division (shape - N + R) / shape."""
        if shape <= self.size - self.nonzeros:
            return 0
        return math.floor(float((shape - self.size + self.nonzeros) // shape) * shape)


def make_density(spec, tensor_size):
    """workload.cpp: ParseWorkloadInstance; density-distribution-factory.cpp. No spec:
    fixed-structured 1.0; a bare number: fixed-structured."""
    if spec is None:
        return FixedStructured(1.0)
    if not isinstance(spec, dict):
        return FixedStructured(spec)
    distribution = spec.get("distribution", "fixed-structured")
    if distribution == "fixed-structured":
        return FixedStructured(spec["density"])
    if distribution == "hypergeometric":
        return Hypergeometric(spec["density"], tensor_size)
    raise NotImplementedError(f"density distribution {distribution}")


# ---------------------------------------------------------------------------------------
# Format models (workload/format-models/)
# ---------------------------------------------------------------------------------------

COMPRESSED = {"b": True, "cp": True, "rle": True, "uop": False, "ub": False}


def format_occupancy(fmt, max_fibers, fiber_shape, cur_tile, next_tile, p_empty):
    """<format>.cpp: GetOccupancy. (metadata units, payload units) of one rank with
    max_fibers fibers of fiber_shape coordinates; p_empty(s) is the probability that a
    tile of s elements is empty (cur_tile: a fiber, next_tile: a coordinate's subtile)."""
    if fmt == "ub":  # uncompressed-bitmask.cpp
        return float(max_fibers * fiber_shape), float(max_fibers * fiber_shape)
    fibers = max_fibers * (1 - p_empty(cur_tile))
    if fmt == "uop":  # uncompressed-offset-pair.cpp
        return 0.0, fibers * (fiber_shape + 1)
    coordinates = fiber_shape * (1 - p_empty(next_tile))
    if fmt == "b":  # bitmask.cpp
        return fibers * fiber_shape, fibers * math.ceil(coordinates)
    if fmt == "cp":  # coordinate-payload.cpp
        return math.ceil(coordinates) * fibers, math.ceil(coordinates) * fibers
    if fmt == "rle":  # run-length-encoding.cpp
        return coordinates * fibers, coordinates * fibers
    raise NotImplementedError(f"format {fmt}")


def format_word_bits(fmt, level_attributes):
    """(metadata, payload) word bits of a rank. Format defaults (<format>.cpp: ParseSpecs:
    a bitmask's metadata is 1 bit, the rest unspecified), then
    model/sparse-optimization-parser.cpp: AdjustFormatWordBits: unspecified -> the
    level's metadata_datawidth (alias metadata_word_bits, model/buffer.cpp: ParseSpecs,
    default 0); a width that does not divide metadata_storage_width -> the next one that
    does (below twice the width)."""
    default = level_attributes.get("metadata_datawidth",
                                   level_attributes.get("metadata_word_bits", 0))
    storage_width = level_attributes.get("metadata_storage_width", 0)

    def adjust(bits):
        if bits is None:
            return default
        if bits != 0 and storage_width % bits != 0:
            adjusted = bits
            while adjusted < 2 * bits and storage_width % adjusted != 0:
                adjusted += 1
            return adjusted
        return bits
    return adjust(1 if fmt == "b" else None), adjust(None)


# ---------------------------------------------------------------------------------------
# A case's architecture, mapping and sparse optimizations
# ---------------------------------------------------------------------------------------

def storage_levels(arch, attributes):
    """The storage levels, innermost first (the architecture tree's leaf components,
    the arithmetic unit excluded); fills attributes[level] with each level's attributes."""
    components = []

    def walk(node):
        for component in node.get("local", []) or []:
            name = component["name"].split("[")[0]
            components.append((name, component.get("class", "")))
            attributes[name] = component.get("attributes", {}) or {}
        for child in node.get("subtree", []) or []:
            walk(child)
    walk(arch["architecture"])
    storage = [n for n, c in components if c not in ("intmac", "fpmac", "mac", "compute")]
    if len(storage) == len(components):
        storage = storage[:-1]
    return list(reversed(storage))


class Loop:
    """A loop::Descriptor: its dimension, bound and max-tile mold (the per-dimension sizes
    of everything at or inside it)."""
    __slots__ = ("dim", "end", "mold")

    def __init__(self, dim, end, mold):
        self.dim, self.end, self.mold = dim, end, mold

    def trivial(self):
        return 1 >= self.end  # (start + stride) >= end

    def copy(self):
        return Loop(self.dim, self.end, self.mold)


def complete_subnests(problem, mapping, levels):
    """sparse-analysis/state.cpp: CollectCompletePointSetsAndSubnests. Per storage level
    (innermost first) its loops, innermost first: the spatial loops, then the temporal
    ones, each in permutation order (first letter innermost), every dimension included
    (trivial loops too)."""
    by_target = {(m["target"], m["type"]): m for m in mapping}
    sizes = {d: 1 for d in problem.dims}
    nests = []
    for level in levels:
        nest = []
        for kind in ("spatial", "temporal"):
            m = by_target.get((level, kind))
            if m is None:
                continue
            factors = {}
            for token in str(m.get("factors", "")).split():
                match = re.fullmatch(r"([A-Za-z]+)(\d+)", token)
                factors[match.group(1)] = int(match.group(2))
            order = list(m.get("permutation") or "")
            order += [d for d in problem.dims if d not in order]
            for d in order:
                sizes[d] *= factors.get(d, 1)
                nest.append(Loop(d, factors.get(d, 1), dict(sizes)))
        nests.append(nest)
    return nests


def kept_spaces(mapping, levels, spaces):
    keep = {level: set(spaces) for level in levels}
    for m in mapping:
        if m.get("type") == "datatype":
            keep[m["target"]] = ((keep[m["target"]] | set(m.get("keep", []) or []))
                                 - set(m.get("bypass", []) or []))
    return keep


def rank_formats(sparse_optimizations):
    """{(level, data space): formats, innermost rank first}: the parser reverses the
    user's list (model/sparse-optimization-parser.cpp: ParseCompressionInfo)."""
    formats = {}
    for target in (sparse_optimizations or {}).get("targets", []) or []:
        representation = target.get("representation-format")
        for space in (representation or {}).get("data-spaces", []):
            if any("flattened-rankIDs" in r for r in space.get("ranks", [])):
                raise NotImplementedError("flattened-rankIDs")
            if space.get("rank-application-order", "outer-to-inner") != "outer-to-inner":
                raise NotImplementedError("rank-application-order inner-to-outer")
            formats[(target["name"], space["name"])] = [
                r["format"].lower() for r in reversed(space.get("ranks", []))]
    return formats


# ---------------------------------------------------------------------------------------
# Ranks to loops (sparse-analysis/representation-analyzer.cpp)
# ---------------------------------------------------------------------------------------

class Tile:
    """The fields of a tiling::DataMovementInfo that the format counts use; per rank
    lists are innermost rank first."""

    def __init__(self, formats, shape):
        self.formats = formats  # None: no metadata
        self.shape = shape
        self.metadata_subnest = []  # per rank: its loops
        # One more than the ranks: [r] is the subtile one coordinate of rank r stands for
        # (next_tile), [r + 1] the tile one fiber of rank r spans; [0] is a single element
        # (with pre-tiling, the child's [0]).
        self.subtile_shapes = []
        self.fiber_shape = []
        self.child = self.parent = None


def apply_ranks_outer_to_inner(inner_rank_id, subnest, subtile_shapes, num_ranks, has_metadata,
                               tile):
    """ApplyRanksOuterToInner without flattening rules: the outermost rank takes the
    outermost non-trivial loop, one loop per rank; without metadata, the single rank takes
    every non-trivial loop. Ranks left over at the bottom (down to inner_rank_id) are
    dummy ranks with no loop, their subtile the mold of the subnest's innermost loop.
    Returns whether non-trivial loops are left over (more ranks needed than given)."""
    loop_id = len(subnest) - 1
    r_id = num_ranks
    while r_id > inner_rank_id and loop_id >= 0:
        while loop_id >= 0 and subnest[loop_id].trivial():
            loop_id -= 1
        if loop_id < 0:
            break
        r_id -= 1
        rank = [subnest[loop_id]]
        subtile = subtile_shapes[loop_id]
        loop_id -= 1
        if not has_metadata:
            while loop_id >= 0:
                if not subnest[loop_id].trivial():
                    rank.append(subnest[loop_id])
                loop_id -= 1
        tile.metadata_subnest.insert(0, rank)
        tile.subtile_shapes.insert(0, subtile)
    while r_id > inner_rank_id:
        r_id -= 1
        tile.metadata_subnest.insert(0, [])
        tile.subtile_shapes.insert(0, subtile_shapes[0])
    return any(not subnest[i].trivial() for i in range(loop_id + 1))


def define_compression_format_models(problem, space, levels, nests, keep, formats):
    """DefineCompressionFormatModels for one data space: {level index: Tile} over the
    levels keeping it (index 0 = innermost storage level)."""
    dims = problem.dims_in_projection(space)
    held = [i for i, level in enumerate(levels) if space in keep[level]]
    tiles = {}
    for position, level in enumerate(held):
        child = held[position - 1] if position > 0 else None
        inner_most_level = 0 if child is None else child + 1
        sizes = {d: 1 for d in problem.dims}
        for lower in range(level + 1):
            for loop in nests[lower]:
                sizes[loop.dim] *= loop.end
        fmts = formats.get((levels[level], space))
        tile = Tile(fmts, problem.footprint(space, sizes))
        has_metadata = fmts is not None
        compressed = has_metadata and any(COMPRESSED[f] for f in fmts)
        num_ranks = len(fmts) if has_metadata else 1
        child_tile = tiles.get(child)
        child_num_ranks = 0
        if child_tile is not None:
            child_num_ranks = len(child_tile.formats) if child_tile.formats else 1
        pre_tiling = compressed and child_tile is not None and child_tile.shape > 1
        if pre_tiling and child_num_ranks > num_ranks:
            raise ValueError(f"{levels[level]} {space}: pre-tiling with fewer ranks than "
                             f"the child level (Sparseloop rejects the mapping)")
        # The level's loops and those of the bypassed levels below it, innermost first.
        subnest = [loop.copy() for lower in range(inner_most_level, level + 1)
                   for loop in nests[lower] if loop.dim in dims]
        subtile_shapes = [problem.footprint(space, loop.mold) for loop in subnest]
        if not pre_tiling:
            # Fold the bounds of every level below inner_most_level into the innermost
            # loop of each dimension.
            below = {d: 1 for d in problem.dims}
            for lower in range(inner_most_level):
                for loop in nests[lower]:
                    below[loop.dim] *= loop.end
            for loop in subnest:
                loop.end *= below[loop.dim]
                below[loop.dim] = 1
        tile.failed = apply_ranks_outer_to_inner(child_num_ranks if pre_tiling else 0, subnest,
                                                 subtile_shapes, num_ranks, has_metadata, tile)
        if pre_tiling:
            tile.metadata_subnest = child_tile.metadata_subnest + tile.metadata_subnest
            tile.subtile_shapes = child_tile.subtile_shapes + tile.subtile_shapes
        else:
            tile.subtile_shapes.insert(0, 1)
        assert len(tile.metadata_subnest) == num_ranks
        for rank in tile.metadata_subnest:
            rank_sizes = {d: 1 for d in problem.dims}
            for loop in rank:
                rank_sizes[loop.dim] *= loop.end
            tile.fiber_shape.append(problem.footprint(space, rank_sizes))
        tile.child = child
        if child_tile is not None:
            child_tile.parent = level
        tiles[level] = tile
    return tiles


# ---------------------------------------------------------------------------------------
# Occupancy and accesses
# ---------------------------------------------------------------------------------------

def empty_rank(tile, r):
    """A rank of fiber shape 1 below the top rank is empty
    (GetMetaDataTileOccupancyGivenDataTile)."""
    return tile.fiber_shape[r] == 1 and r != len(tile.formats) - 1


def leaf_rank(tile):
    """The innermost rank that is not empty: its payload is the data itself."""
    return next(r for r in range(len(tile.formats)) if not empty_rank(tile, r))


def metadata_occupancy_given_data_tile(tile, density, occupancy):
    """loop-analysis/tiling-tile-info.cpp: GetMetaDataTileOccupancyGivenDataTile for a tile
    of `occupancy` nonzeros: per rank (innermost first) [metadata units, payload units]."""
    constraint = (tile.shape, occupancy)

    @functools.lru_cache(maxsize=None)
    def p_empty(shape):
        return density.tile_occupancy_probability(shape, 0, constraint)

    n = len(tile.formats)
    out = [None] * n
    max_fibers = 1
    cur_tile = tile.shape
    for r in range(n - 1, -1, -1):
        next_tile = tile.subtile_shapes[r]
        if empty_rank(tile, r):
            out[r] = [0.0, 0.0]
        else:
            out[r] = list(format_occupancy(tile.formats[r], max_fibers, tile.fiber_shape[r],
                                           cur_tile, next_tile, p_empty))
        max_fibers *= tile.fiber_shape[r]
        cur_tile = next_tile
    for units in out:  # the innermost non-empty rank's payload is the data
        if units != [0.0, 0.0]:
            units[1] = 0.0
            break
    return out


def max_metadata_occupancy(tile, density):
    """tiling-tile-info.cpp: GetMaxMetaDataTileOccupancyByConfidence(1.0), ceil()ed per
    count by model/buffer.cpp: ComputeTileOccupancyAndConfidence."""
    k = density.max_tile_occupancy(tile.shape)
    units = metadata_occupancy_given_data_tile(tile, density, k)
    return [[math.ceil(md), math.ceil(pl)] for md, pl in units]


def expected_occupancy(tile, density, parent_has_metadata):
    """representation-analyzer.cpp: CalculateExpectedOccupancy. Returns (expected units per
    rank, expected data occupancy = its expected_data_occupancy, the factor on the average
    utilized instances). Sums over the data-tile occupancies k in [min, max] with P(k) != 0;
    when the parent has metadata and min = 0, the probabilities are divided by 1 - p0 and
    p0 set to 0, p0 being the first non-zero probability (not necessarily P(0))."""
    lo = density.min_tile_occupancy(tile.shape)
    hi = density.max_tile_occupancy(tile.shape)
    ks, ps = [], []
    for k in range(lo, hi + 1):
        p = density.tile_occupancy_probability(tile.shape, k)
        if p != 0:
            ks.append(k)
            ps.append(p)
    instances_factor = 1.0
    if parent_has_metadata and lo == 0 and ps:
        instances_factor = 1.0 - ps[0]
        scale = 1 - ps[0]
        ps = [p / scale if scale != 0 else (math.inf if p else math.nan) for p in ps]
        ps[0] = 0.0
    units = [[0.0, 0.0] for _ in tile.formats]
    nonzeros = 0.0
    for k, p in zip(ks, ps):
        nonzeros += p * k
        for r, (md, pl) in enumerate(metadata_occupancy_given_data_tile(tile, density, k)):
            units[r][0] += md * p
            units[r][1] += pl * p
    return units, nonzeros, instances_factor


def expected_metadata_accesses(units, count, shape):
    """representation-analyzer.cpp: CalculateExpectedMetaDataAccesses: per rank
    ceil(units x count / tile shape)."""
    ratio = float(count) / shape
    return [[math.ceil(md * ratio), math.ceil(pl * ratio)] for md, pl in units]


def as_listed(ranks):
    """As timeloop_stats.py stores a rank list: outermost rank first, the innermost
    all-zero ranks dropped."""
    out = [list(x) for x in reversed(ranks)]
    while out and out[-1] == [0, 0]:
        out.pop()
    return out


# ---------------------------------------------------------------------------------------
# Cases and the corpus
# ---------------------------------------------------------------------------------------

def dense_case_path(case_path):
    """The dense corpus case a sparse case was made from (its first comment line names it,
    e.g. '# glb_rf_8x4/r006_fc.yaml with ...'); the dense corpus is the sparse corpus's
    sibling directory `dense`."""
    with open(case_path) as f:
        match = re.match(r"#\s*(\S+)\.yaml", f.readline())
    if not match:
        raise ValueError(f"{case_path}: the first line does not name its dense case")
    corpus = Path(case_path).resolve().parent.parent
    return corpus.parent / "dense" / (match.group(1) + ".json")


# libyaml's loader when PyYAML has it (python3-yaml does): a third of the time otherwise.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(path):
    with open(path) as f:
        return yaml.load(f, Loader=_YAML_LOADER)


def predict_case(case_path):
    """Our per-rank counts of a case: {(level, data space): record} over the levels with a
    representation format. Each record holds the four FIELDS as the corpus lists them and
    what explains them (formats, fiber shapes, word bits, expected units, the leaf rank)."""
    case = load_yaml(case_path)
    arch = load_yaml(os.path.join(os.path.dirname(case_path), "arch.yaml"))
    with open(dense_case_path(case_path)) as f:
        dense = json.load(f)
    dense_counts = {(level["name"], space): counts
                    for level in dense["levels"] for space, counts in level["spaces"].items()}
    problem = Problem(case["problem"])
    attributes = {}
    levels = storage_levels(arch, attributes)
    nests = complete_subnests(problem, case["mapping"], levels)
    keep = kept_spaces(case["mapping"], levels, problem.spaces)
    formats = rank_formats(case.get("sparse_optimizations"))
    whole = dict(problem.bounds)
    result = {}
    for space in problem.spaces:
        density = make_density(problem.densities.get(space), problem.footprint(space, whole))
        tiles = define_compression_format_models(problem, space, levels, nests, keep, formats)
        for level, tile in tiles.items():
            if tile.formats is None:
                continue
            name = levels[level]
            counts = dense_counts.get((name, space), {})
            parent_has_metadata = (tile.parent is not None
                                   and tiles[tile.parent].formats is not None)
            capacity = max_metadata_occupancy(tile, density)
            units, nonzeros, instances_factor = expected_occupancy(tile, density,
                                                                   parent_has_metadata)
            level_attributes = attributes.get(name, {})
            bits = [(0, 0) if empty_rank(tile, r) else format_word_bits(f, level_attributes)
                    for r, f in enumerate(tile.formats)]

            def accesses(count):
                ranks = expected_metadata_accesses(units, count, tile.shape)
                accessed_bits = sum(b[0] * a[0] + b[1] * a[1] for a, b in zip(ranks, bits))
                listed = level_attributes.get("metadata_storage_width", 0) != 0 and accessed_bits
                return as_listed(ranks) if listed else []
            leaf = leaf_rank(tile)
            result[(name, space)] = {
                "format_capacity": as_listed(capacity),
                "format_reads": accesses(counts.get("reads", 0)),
                "format_fills": accesses(counts.get("fills", 0)),
                "format_updates": accesses(counts.get("updates", 0)),
                "representation_format": " ".join(reversed(tile.formats)),
                "fiber_shape": list(reversed(tile.fiber_shape)),
                "subtile_shape": list(reversed(tile.subtile_shapes)),
                "word_bits": [list(b) for b in reversed(bits)],
                "tile_shape": tile.shape,
                "density": density,
                "expected_units": [list(u) for u in reversed(units)],
                "expected_nonzeros": nonzeros,
                "max_nonzeros": density.max_tile_occupancy(tile.shape),
                "average_instances_factor": instances_factor,
                "leaf_rank": leaf,  # Sparseloop's "Rank <n>" (0 = innermost)
                "leaf_format": tile.formats[leaf],
                "leaf_fiber_shape": tile.fiber_shape[leaf],
                "leaf_subtile_shape": tile.subtile_shapes[leaf],
                "leaf_expected_metadata": units[leaf][0],
                "leaf_capacity_metadata": capacity[leaf][0],
            }
    return result


def oracle_case(case_path):
    """The corpus's records with format counts or a representation format."""
    with open(case_path[:-len(".yaml")] + ".json") as f:
        stored = json.load(f)
    return {(level["name"], space): counts
            for level in stored["levels"] for space, counts in level["spaces"].items()
            if "representation_format" in counts or any(f in counts for f in FIELDS)}


def corpus_cases(corpus):
    """The corpus's cases with a representation format somewhere, as paths."""
    out = []
    for case_path in sorted(glob.glob(os.path.join(str(corpus), "*", "*.yaml"))):
        if os.path.basename(case_path) in ("arch.yaml", "ERT.yaml", "ART.yaml"):
            continue
        if os.path.exists(case_path[:-len(".yaml")] + ".json") and oracle_case(case_path):
            out.append(case_path)
    return out


def predict_corpus(corpus):
    """{case path relative to the corpus: (our records, the corpus's records)}."""
    return {os.path.relpath(p, str(corpus)): (predict_case(p), oracle_case(p))
            for p in corpus_cases(corpus)}


def agreement(predictions):
    """Ours against the corpus over predict_corpus()'s result. A record is one field of one
    (level, data space); per-rank counts are its metadata and payload counts, rank by rank
    (a rank missing from one side counts as (0, 0)); presence is whether the field lists
    ranks at all."""
    summary = {"cases": len(predictions), "records": 0, "records_exact": 0,
               "ranks": 0, "ranks_exact": 0, "per_rank_counts": 0, "per_rank_exact": 0,
               "presence_checked": 0,
               "disagreements": []}
    for rel, (ours, theirs) in predictions.items():
        for key in sorted(set(ours) | set(theirs)):
            mine, stored = ours.get(key, {}), theirs.get(key, {})
            for field in FIELDS:
                summary["presence_checked"] += 1
                if bool(mine.get(field)) != bool(stored.get(field)):
                    summary["disagreements"].append(
                        {"case": rel, "level": key[0], "space": key[1], "field": field,
                         "kind": "presence", "ours": mine.get(field), "corpus": stored.get(field)})
                if field not in stored:
                    continue
                a, b = mine.get(field, []), stored[field]
                summary["records"] += 1
                summary["records_exact"] += a == b
                for i in range(max(len(a), len(b))):
                    x = a[i] if i < len(a) else [0, 0]
                    y = b[i] if i < len(b) else [0, 0]
                    summary["ranks"] += 1
                    summary["ranks_exact"] += list(x) == list(y)
                    for j, unit in enumerate(("metadata", "payload")):
                        summary["per_rank_counts"] += 1
                        summary["per_rank_exact"] += x[j] == y[j]
                        if x[j] != y[j]:
                            summary["disagreements"].append(
                                {"case": rel, "level": key[0], "space": key[1], "field": field,
                                 "kind": unit, "rank_listed": i, "ours": x[j], "corpus": y[j]})
    return summary


def leaf_metadata_vs_nonzeros(predictions):
    """Per level and data space whose leaf rank is RLE or CP: Sparseloop's expected
    leaf-rank metadata units per tile (the run lengths or coordinates it charges) against
    its own expected nonzeros of the tile (CalculateExpectedOccupancy's
    expected_data_occupancy, under the same occupancy weights). A format that stores one
    run length or one coordinate per nonzero would make them equal. They differ because
    (a) when ranks are left over below the leaf (dummy ranks, apply_ranks_outer_to_inner),
    a leaf coordinate stands for the mold of the subnest's innermost loop, that loop
    included, instead of one element, and the format counts the coordinates whose block
    of that many elements is non-empty; (b) a rank's fibers are taken as disjoint (their
    number is the product of the fiber shapes above), but sliding-window fibers (Inputs
    of a convolution) overlap: the product of all fiber shapes exceeds the tile and an
    element is counted once per window holding it; (c) the
    per-rank empty probabilities are multiplied as if independent (and CP ceil()s per
    fiber). Returns the entries and a summary: how many have fewer units than nonzeros,
    how many more, their ratio ranges."""
    entries = []
    for rel, (ours, _) in predictions.items():
        for (level, space), rec in sorted(ours.items()):
            if rec["leaf_format"] not in ("rle", "cp"):
                continue
            units, nonzeros = rec["leaf_expected_metadata"], rec["expected_nonzeros"]
            if units < nonzeros * (1 - RATIO_TOLERANCE):
                relation = "fewer"
            elif units > nonzeros * (1 + RATIO_TOLERANCE):
                relation = "more"
            else:
                relation = "equal"
            entries.append({
                "case": rel, "level": level, "space": space, "relation": relation,
                "ratio": units / nonzeros if nonzeros else math.nan,
                "leaf_metadata_units": units, "expected_nonzeros": nonzeros,
                "leaf_metadata_capacity": rec["leaf_capacity_metadata"],
                "max_nonzeros": rec["max_nonzeros"], "tile_shape": rec["tile_shape"],
                "leaf_rank": rec["leaf_rank"], "leaf_format": rec["leaf_format"],
                "leaf_fiber_shape": rec["leaf_fiber_shape"],
                "leaf_subtile_shape": rec["leaf_subtile_shape"],
                "fibers_cover": math.prod(rec["fiber_shape"]),
                "representation_format": rec["representation_format"]})
    entries.sort(key=lambda e: (e["ratio"], e["case"], e["level"], e["space"]))
    summary = {"entries": len(entries)}
    for relation in ("fewer", "equal", "more"):
        group = [e for e in entries if e["relation"] == relation]
        summary[relation] = len(group)
        if relation != "equal":
            summary[relation + "_ratio_range"] = ([group[0]["ratio"], group[-1]["ratio"]]
                                                  if group else None)
            summary[relation + "_cases"] = len({e["case"] for e in group})
    differing = [e for e in entries if e["relation"] != "equal"]
    summary["differing_with_leaf_subtile_above_1"] = sum(e["leaf_subtile_shape"] > 1
                                                         for e in differing)
    summary["differing_with_overlapping_fibers"] = sum(e["fibers_cover"] > e["tile_shape"]
                                                       for e in differing)
    summary["more_units_than_tile_elements"] = sum(e["leaf_metadata_units"] > e["tile_shape"]
                                                   for e in entries)
    return entries, summary


# ---------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------

def show_case(case_path):
    ours, theirs = predict_case(case_path), oracle_case(case_path)
    disagreeing = 0
    for key in sorted(set(ours) | set(theirs)):
        mine, stored = ours.get(key, {}), theirs.get(key, {})
        fmt = stored.get("representation_format", mine.get("representation_format"))
        print(f"{key[0]} {key[1]}: {fmt}")
        if mine:
            print(f"  tile shape {mine['tile_shape']}, expected nonzeros "
                  f"{mine['expected_nonzeros']:g} (max {mine['max_nonzeros']})")
            print(f"  fiber shapes (outermost rank first) {mine['fiber_shape']}")
            print(f"  subtile shapes                      {mine['subtile_shape']}")
            print(f"  leaf rank {mine['leaf_rank']} ({mine['leaf_format']}): expected "
                  f"metadata units {mine['leaf_expected_metadata']:g}")
        for field in FIELDS:
            if field in stored or mine.get(field):
                same = mine.get(field) == stored.get(field)
                disagreeing += not same
                print(f"  {'agrees   ' if same else 'DISAGREES'} {field}")
                print(f"    ours   {mine.get(field)}")
                print(f"    corpus {stored.get(field)}")
    return 1 if disagreeing else 0


def print_agreement(summary):
    print(f"{summary['cases']} cases with representation formats")
    absent = sum(d["kind"] == "presence" for d in summary["disagreements"])
    print(f"fields listed or not as in the corpus: "
          f"{summary['presence_checked'] - absent}/{summary['presence_checked']}")
    print(f"records (level, data space, field) exactly as in the corpus: "
          f"{summary['records_exact']}/{summary['records']}")
    print(f"ranks (metadata, payload) exactly as in the corpus: "
          f"{summary['ranks_exact']}/{summary['ranks']} "
          f"({summary['per_rank_exact']}/{summary['per_rank_counts']} counts)")
    for d in summary["disagreements"][:40]:
        print(f"  {d['case']} {d['level']} {d['space']} {d['field']} {d['kind']}"
              f"{' rank#' + str(d['rank_listed']) if 'rank_listed' in d else ''}: "
              f"ours {d['ours']}, corpus {d['corpus']}")


def print_leaf_metadata(entries, summary):
    print("leaf-rank metadata units per tile / expected nonzeros of the tile, where not 1:")
    for e in entries:
        if e["relation"] == "equal":
            continue
        print(f"  {e['ratio']:9.4f}  {e['case']} {e['level']} {e['space']}: rank "
              f"{e['leaf_rank']} {e['leaf_format']} (fiber {e['leaf_fiber_shape']}, a "
              f"coordinate stands for {e['leaf_subtile_shape']}): "
              f"{e['leaf_metadata_units']:.6g} units vs {e['expected_nonzeros']:.6g} "
              f"nonzeros (at confidence 1: {e['leaf_metadata_capacity']} vs "
              f"{e['max_nonzeros']}; tile {e['tile_shape']})")

    def ratio_range(r):
        return f"{r[0]:.4f} .. {r[1]:.4f}" if r else "-"
    print(f"levels/data spaces with an RLE or CP leaf rank: {summary['entries']}")
    print(f"  fewer units than expected nonzeros: {summary['fewer']} "
          f"({summary['fewer_cases']} cases), ratio {ratio_range(summary['fewer_ratio_range'])}")
    print(f"  more units than expected nonzeros:  {summary['more']} "
          f"({summary['more_cases']} cases), ratio {ratio_range(summary['more_ratio_range'])}")
    print(f"  equal: {summary['equal']}")
    print(f"  of those differing: {summary['differing_with_leaf_subtile_above_1']} with a leaf "
          f"coordinate standing for more than one element, "
          f"{summary['differing_with_overlapping_fibers']} with overlapping fibers (their "
          f"product above the tile)")
    print(f"  more units than the tile has elements: {summary['more_units_than_tile_elements']}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("case", nargs="?", help="a sparse-corpus CASE.yaml")
    parser.add_argument("--all", nargs="?", const=str(DEFAULT_CORPUS), metavar="CORPUS_DIR",
                        help="compare every case of the corpus (default: %(const)s); "
                             "exit 1 on any disagreement")
    parser.add_argument("--leaf-metadata-vs-nonzeros", nargs="?", const=str(DEFAULT_CORPUS),
                        metavar="CORPUS_DIR",
                        help="per level/data space with an RLE or CP leaf rank: Sparseloop's "
                             "leaf-rank metadata units per tile vs the tile's expected "
                             "nonzeros (default corpus: %(const)s)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    if args.case and (args.all or args.leaf_metadata_vs_nonzeros):
        parser.error("give a CASE.yaml or --all / --leaf-metadata-vs-nonzeros, not both")
    if args.case:
        return show_case(args.case)
    if not (args.all or args.leaf_metadata_vs_nonzeros):
        parser.print_help()
        return 2
    corpora = {args.all, args.leaf_metadata_vs_nonzeros} - {None}
    predictions = {c: predict_corpus(c) for c in corpora}
    out, status = {}, 0
    if args.all:
        out["agreement"] = agreement(predictions[args.all])
        status = 1 if out["agreement"]["disagreements"] else 0
    if args.leaf_metadata_vs_nonzeros:
        entries, summary = leaf_metadata_vs_nonzeros(predictions[args.leaf_metadata_vs_nonzeros])
        out["leaf_metadata_vs_nonzeros"] = dict(summary, differing=[
            e for e in entries if e["relation"] != "equal"])
    if args.json:
        json.dump(out, sys.stdout, indent=1)
        print()
    else:
        if "agreement" in out:
            print_agreement(out["agreement"])
        if args.leaf_metadata_vs_nonzeros:
            print_leaf_metadata(entries, summary)
    return status


if __name__ == "__main__":
    sys.exit(main())
