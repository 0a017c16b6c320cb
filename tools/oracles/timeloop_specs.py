"""Writes Timeloop v0.3 input files (architecture, ERT, ART, problem, mapping)
from the plain descriptions the corpus generator uses. Standard library only:
the YAML is simple enough to print directly."""

import math

DIMS = "CKRSNPQ"  # Timeloop's CNN-layer dimensions
GROUPED_DIMS = "GCKRSNPQ"  # the grouped/depthwise shape (G groups)


# ---------------------------------------------------------------- architectures

class Level:
    """One storage level. instances/mesh_x: the copies and how many lie along X."""

    def __init__(self, name, cls, datawidth=16, width=None, depth=None, instances=1, mesh_x=None,
                 read_bw=None, write_bw=None, energy=None, area=0.0):
        self.name = name
        self.cls = cls
        self.datawidth = datawidth
        self.width = width or datawidth
        self.depth = depth  # None: DRAM (unbounded)
        self.instances = instances
        self.mesh_x = mesh_x if mesh_x is not None else instances
        self.read_bw = read_bw
        self.write_bw = write_bw
        self.energy = energy or {}  # read/write/update pJ per vector access
        self.area = area

    @property
    def block(self):
        return self.width // self.datawidth

    @property
    def words(self):
        return None if self.depth is None else self.depth * self.block

    @property
    def mesh_y(self):
        return self.instances // self.mesh_x


class Arch:
    """Storage levels outermost first, then the MAC array. `tree` groups the
    levels into Timeloop subtrees: a list of (subtree name, [level names]); the
    subtree names carry the instance ranges (e.g. "PE[0..255]")."""

    def __init__(self, name, description, levels, mac_instances, mac_mesh_x, tree, mac_energy,
                 mac_area, mac_datawidth=16):
        self.name = name
        self.description = description
        self.levels = levels
        self.mac_instances = mac_instances
        self.mac_mesh_x = mac_mesh_x
        self.tree = tree
        self.mac_energy = mac_energy
        self.mac_area = mac_area
        self.mac_datawidth = mac_datawidth

    def level(self, name):
        return next(l for l in self.levels if l.name == name)

    def fanout(self, i):
        """(X, Y) fanout below storage level i (to level i+1 or to the MACs)."""
        parent = self.levels[i]
        if i + 1 < len(self.levels):
            child_x, child_y = self.levels[i + 1].mesh_x, self.levels[i + 1].mesh_y
        else:
            child_x = self.mac_mesh_x
            child_y = self.mac_instances // self.mac_mesh_x
        return child_x // parent.mesh_x, child_y // parent.mesh_y

    def full_name(self, level_name):
        path = []
        for subtree, members in self.tree:
            path.append(subtree)
            if level_name in members:
                return ".".join(path + [level_name])
        raise KeyError(level_name)

    def mac_local_name(self):
        """MACC, or MACC[0..k-1] for k MACs under each innermost storage instance."""
        per = self.mac_instances // self.levels[-1].instances
        return "MACC" if per == 1 else f"MACC[0..{per - 1}]"

    def mac_full_name(self):
        path = [subtree for subtree, _ in self.tree]
        return ".".join(path + [self.mac_local_name()])


def arch_yaml(arch):
    out = [f"# {arch.description}", "architecture:", "  version: 0.3"]
    indent = "  "
    for depth, (subtree, members) in enumerate(arch.tree):
        out.append(f"{indent}subtree:")
        out.append(f"{indent}- name: {subtree}")
        if depth == 0:
            out.append(f"{indent}  attributes:")
            out.append(f"{indent}    technology: 45nm")
        locals_ = [arch.level(m) for m in members]
        is_last = depth == len(arch.tree) - 1
        if locals_ or is_last:
            out.append(f"{indent}  local:")
        for level in locals_:
            out.append(f"{indent}  - name: {level.name}")
            out.append(f"{indent}    class: {level.cls}")
            out.append(f"{indent}    attributes:")
            if level.depth is not None:
                out.append(f"{indent}      depth: {level.depth}")
            else:
                out.append(f"{indent}      type: LPDDR4")
            out.append(f"{indent}      width: {level.width}")
            out.append(f"{indent}      datawidth: {level.datawidth}")
            if level.instances > 1:
                out.append(f"{indent}      meshX: {level.mesh_x}")
            if level.read_bw is not None:
                out.append(f"{indent}      read_bandwidth: {level.read_bw}")
            if level.write_bw is not None:
                out.append(f"{indent}      write_bandwidth: {level.write_bw}")
        if is_last:
            out.append(f"{indent}  - name: {arch.mac_local_name()}")
            out.append(f"{indent}    class: intmac")
            out.append(f"{indent}    attributes:")
            out.append(f"{indent}      datawidth: {arch.mac_datawidth}")
            if arch.mac_instances > 1:
                out.append(f"{indent}      meshX: {arch.mac_mesh_x}")
        indent += "  "
    return "\n".join(out) + "\n"


def ert_yaml(arch, extra_actions=None):
    """extra_actions: {level name: [(action, pJ), ...]} (Sparseloop's sparse actions)."""
    out = ["# Fixed energies (pJ per vector access / per MAC), so timeloop-model never runs",
           "# Accelergy and trainloop prices the same actions the same way.",
           "ERT:", "  version: 0.3", "  tables:"]
    for level in arch.levels:
        out.append(f"  - name: {arch.full_name(level.name)}")
        out.append("    actions:")
        for action in ("read", "write", "update"):
            out.append(f"    - {{name: {action}, energy: {level.energy[action]}}}")
        for action, pj in (extra_actions or {}).get(level.name, []):
            out.append(f"    - {{name: {action}, energy: {pj}}}")
        out.append("    - {name: leak, energy: 0.0}")
    out.append(f"  - name: {arch.mac_full_name()}")
    out.append("    actions:")
    out.append(f"    - {{name: compute, energy: {arch.mac_energy}}}")
    for action, pj in (extra_actions or {}).get("MACC", []):
        out.append(f"    - {{name: {action}, energy: {pj}}}")
    out.append("    - {name: leak, energy: 0.0}")
    return "\n".join(out) + "\n"


def art_yaml(arch):
    out = ["ART:", "  version: 0.3", "  tables:"]
    for level in arch.levels:
        out.append(f"  - {{name: \"{arch.full_name(level.name)}\", area: {level.area}}}")
    out.append(f"  - {{name: \"{arch.mac_full_name()}\", area: {arch.mac_area}}}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- problems

class Problem:
    """A CNN layer (FC and matmul are CNN layers with P=Q=R=S=1). groups > 1
    uses the grouped shape with a G dimension (depthwise: C = K = 1 per group)."""

    def __init__(self, name, bounds, wstride=1, hstride=1, wdilation=1, hdilation=1):
        self.name = name
        self.bounds = dict(bounds)
        for d in GROUPED_DIMS:
            self.bounds.setdefault(d, 1)
        self.wstride, self.hstride = wstride, hstride
        self.wdilation, self.hdilation = wdilation, hdilation

    @property
    def grouped(self):
        return self.bounds["G"] > 1

    @property
    def dims(self):
        return GROUPED_DIMS if self.grouped else DIMS

    def macs(self):
        return math.prod(self.bounds[d] for d in self.dims)


def problem_yaml(p):
    b = p.bounds
    out = ["problem:", "  shape:"]
    if not p.grouped:
        out += ["    name: CNN-Layer",
                "    dimensions: [ C, K, R, S, N, P, Q ]"]
    else:
        out += ["    name: Grouped-CNN-Layer",
                "    dimensions: [ G, C, K, R, S, N, P, Q ]"]
    out += ["    coefficients:",
            "    - {name: Wstride, default: 1}",
            "    - {name: Hstride, default: 1}",
            "    - {name: Wdilation, default: 1}",
            "    - {name: Hdilation, default: 1}",
            "    data-spaces:",
            "    - name: Weights",
            "      projection:"]
    if p.grouped:
        out.append("      - [ [G] ]")
    out += ["      - [ [C] ]", "      - [ [K] ]", "      - [ [R] ]", "      - [ [S] ]",
            "    - name: Inputs", "      projection:", "      - [ [N] ]"]
    if p.grouped:
        out.append("      - [ [G] ]")
    out += ["      - [ [C] ]",
            "      - [ [R, Wdilation], [P, Wstride] ]",
            "      - [ [S, Hdilation], [Q, Hstride] ]",
            "    - name: Outputs", "      projection:", "      - [ [N] ]"]
    if p.grouped:
        out.append("      - [ [G] ]")
    out += ["      - [ [K] ]", "      - [ [Q] ]", "      - [ [P] ]", "      read-write: True",
            "  instance:"]
    for d in p.dims:
        out.append(f"    {d}: {b[d]}")
    out.append(f"    Wstride: {p.wstride}")
    out.append(f"    Hstride: {p.hstride}")
    out.append(f"    Wdilation: {p.wdilation}")
    out.append(f"    Hdilation: {p.hdilation}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- mappings

class LevelMapping:
    def __init__(self):
        self.temporal = {}  # dim -> factor
        self.order = []  # temporal loops, outermost first
        self.spatial_x = {}  # dim -> factor, in X order (first is outermost)
        self.spatial_y = {}
        self.keep = None  # None: keep all; else a set of data space names


def mapping_yaml(arch, problem, mapping, comment=None):
    """mapping: LevelMapping per storage level, outermost first. Permutations
    are written innermost first, as Timeloop reads them."""
    dims = problem.dims
    out = []
    if comment:
        out.append(f"# {comment}")
    out.append("mapping:")
    for level, lm in reversed(list(zip(arch.levels, mapping))):
        if lm.keep is not None:
            keep = [s for s in ("Weights", "Inputs", "Outputs") if s in lm.keep]
            bypass = [s for s in ("Weights", "Inputs", "Outputs") if s not in lm.keep]
            out.append(f"- target: {level.name}")
            out.append("  type: datatype")
            out.append(f"  keep: [{', '.join(keep)}]")
            out.append(f"  bypass: [{', '.join(bypass)}]")
        fx, fy = arch.fanout(arch.levels.index(level))
        if fx * fy > 1:
            spatial = dict(lm.spatial_x)
            spatial.update(lm.spatial_y)
            x_dims = list(lm.spatial_x)
            y_dims = list(lm.spatial_y)
            rest = [d for d in dims if d not in x_dims and d not in y_dims]
            # Innermost first: X's innermost is its last; all X dims come before the split.
            perm = list(reversed(x_dims)) + list(reversed(y_dims)) + rest
            factors = " ".join(f"{d}{spatial.get(d, 1)}" for d in dims)
            out.append(f"- target: {level.name}")
            out.append("  type: spatial")
            out.append(f"  factors: {factors}")
            out.append(f"  permutation: {''.join(perm)}")
            out.append(f"  split: {len(x_dims)}")
        factors = " ".join(f"{d}{lm.temporal.get(d, 1)}" for d in dims)
        rest = [d for d in dims if d not in lm.order]
        perm = list(reversed(lm.order)) + rest
        out.append(f"- target: {level.name}")
        out.append("  type: temporal")
        out.append(f"  factors: {factors}")
        out.append(f"  permutation: {''.join(perm)}")
    return "\n".join(out) + "\n"
